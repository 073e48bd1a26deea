/*
 * timing/lib/occupancy.c: CTA residency arithmetic (contract in
 * occupancy.h).
 */
#include "config.h"

#include "timing/lib/occupancy.h"

static uint64_t round_up(uint64_t v, uint64_t unit)
{
    return unit ? (v + unit - 1) / unit * unit : v;
}

void tm_occ_need(const TmOccLimits *l, const ptxemu_tm_kernel *k,
                 TmOccUse *need)
{
    uint64_t t = k->threads_per_cta;
    if (t == 0) {
        t = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    }
    uint64_t w = k->warps_per_cta ? k->warps_per_cta : (t + 31) / 32;
    need->threads = t;
    need->warps = w;
    need->regs = w * round_up((uint64_t)k->regs_per_thread * 32,
                              l->reg_alloc_unit);
    need->shared = round_up((uint64_t)k->shared_per_cta + l->shared_reserved,
                            l->shared_alloc_unit);
    need->ctas = 1;
}

/* How many more `need` fit in `max` with `used` taken (need 0: any). */
static uint64_t fits(uint64_t max, uint64_t used, uint64_t need)
{
    if (used >= max) {
        return need ? 0 : UINT64_MAX;
    }
    return need ? (max - used) / need : UINT64_MAX;
}

uint64_t tm_occ_room(const TmOccLimits *l, const TmOccUse *used,
                     const TmOccUse *need)
{
    uint64_t v[5] = {fits(l->max_ctas, used->ctas, need->ctas),
                     fits(l->max_threads, used->threads, need->threads),
                     fits(l->max_warps, used->warps, need->warps),
                     fits(l->regs, used->regs, need->regs),
                     fits(l->shared, used->shared, need->shared)};
    uint64_t room = v[0];
    for (int i = 1; i < 5; i++) {
        if (v[i] < room) {
            room = v[i];
        }
    }
    return room;
}

void tm_occ_add(TmOccUse *used, const TmOccUse *need, int sign)
{
    if (sign > 0) {
        used->threads += need->threads;
        used->warps += need->warps;
        used->regs += need->regs;
        used->shared += need->shared;
        used->ctas += need->ctas;
    } else {
        used->threads -= need->threads;
        used->warps -= need->warps;
        used->regs -= need->regs;
        used->shared -= need->shared;
        used->ctas -= need->ctas;
    }
}
