/*
 * timing/gpu/mem/partition.c: a memory partition (rules in partition.h).
 */
#include "timing/gpu/mem/partition.h"

#include "emu/panic.h"

int part_init(Part *p, Cache *l2, const DramOps *dops, void *dram,
              const AddrMapCfg *map,
              const uint8_t *bypass, uint32_t atom_lat, uint32_t outq)
{
    p->bypass = bypass;
    p->rsv = 0;
    p->l2 = l2;
    p->dops = dops;
    p->dram = dram;
    p->map = map;
    p->atom_lat = atom_lat;
    p->atom_free = 0;
    if (memq_init(&p->out, outq) || memq_init(&p->atom, outq)) {
        return -1;
    }
    return 0;
}

void part_set_ci(Part *p, Cache *ci)
{
    p->ci = ci;
}

/* The cache of the partition a message of this unit uses. */
static Cache *cache_for(const Part *p, uint8_t unit)
{
    return p->ci && (unit == MEM_UNIT_L1C || unit == MEM_UNIT_L1I) ? p->ci
                                                                   : p->l2;
}

void part_fini(Part *p)
{
    cache_free(p->l2);
    cache_free(p->ci);
    if (p->dram) {
        p->dops->free(p->dram);
    }
    memq_fini(&p->out);
    memq_fini(&p->atom);
}

/* No room in the output (slots promised to bypassing reads count). */
static bool out_full(const Part *p)
{
    return p->out.n + p->rsv >= p->out.cap;
}

/* m into the channel, its bank and row from the address map (looked up
 * only when the channel has room: a full one is offered the same head
 * every cycle until it drains). */
static bool to_dram(Part *p, const MemMsg *m, uint64_t now_dram)
{
    if (p->dops->refuse_full(p->dram, m, now_dram)) {
        return false;
    }
    AddrLoc loc;
    addrmap_map(p->map,
                m->addr + GPU_SECTOR * (uint32_t)__builtin_ctz(m->sectors),
                &loc);
    return p->dops->accept(p->dram, m, loc.bankid, loc.row, now_dram);
}

CacheOutcome part_accept(Part *p, const MemMsg *m, uint64_t now_l2,
                         uint64_t now_dram)
{
    Cache *c = cache_for(p, m->unit);
    if (!p->bypass[m->unit] || m->kind == GPU_MEM_ATOMIC || c != p->l2) {
        MemMsg x = *m;
        x.flags = mem_hint_down(m->flags);
        return cache_access(c, &x, now_l2);
    }
    bool reply = !(m->flags & MEM_F_NOREPLY);
    MemMsg b = *m;
    b.flags |= MEM_F_BYPASS;
    if ((reply && out_full(p)) || !to_dram(p, &b, now_dram)) {
        return CACHE_FAIL_RES;
    }
    p->rsv += reply;
    return CACHE_MISS;
}

/* c's misses into the channel; false when it refused one. */
static bool drain_down(Part *p, Cache *c, uint64_t now_l2,
                       uint64_t now_dram, bool *gave)
{
    const MemMsg *m;
    while ((m = cache_down_peek(c, now_l2))) {
        if (!to_dram(p, m, now_dram)) {
            p->dram_blocked = true;
            return false;
        }
        cache_down_pop(c);
        *gave = true;
    }
    return true;
}

bool part_l2_tick(Part *p, uint64_t now_l2, uint64_t now_dram)
{
    const MemMsg *m;
    bool gave = false;
    if (drain_down(p, p->l2, now_l2, now_dram, &gave) && p->ci) {
        drain_down(p, p->ci, now_l2, now_dram, &gave);
    }
    while (p->ci && !out_full(p) && (m = cache_up_peek(p->ci, now_l2))) {
        memq_push(&p->out, m, now_l2);
        cache_up_pop(p->ci);
    }
    while ((m = cache_up_peek(p->l2, now_l2))) {
        if (m->kind == GPU_MEM_ATOMIC) {
            if (memq_full(&p->atom)) {
                break;
            }
            uint64_t start = now_l2 > p->atom_free ? now_l2 : p->atom_free;
            p->atom_free = start + 1;
            memq_push(&p->atom, m, start + p->atom_lat);
        } else {
            if (out_full(p)) {
                break;
            }
            memq_push(&p->out, m, now_l2);
        }
        cache_up_pop(p->l2);
    }
    while ((m = memq_peek(&p->atom, now_l2)) && !out_full(p)) {
        memq_push(&p->out, m, now_l2);
        memq_pop(&p->atom);
    }
    return gave;
}

uint64_t part_l2_next(const Part *p)
{
    uint64_t t = p->out_blocked ? MEM_NEVER : memq_next(&p->out);
    if (!out_full(p)) {
        t = mem_min(t, memq_next(&p->atom));
    }
    const MemMsg *h = cache_up_peek(p->l2, MEM_NEVER - 1);
    if (h && !(h->kind == GPU_MEM_ATOMIC ? memq_full(&p->atom)
                                         : out_full(p))) {
        t = mem_min(t, cache_up_next(p->l2));
    }
    if (!p->dram_blocked) {
        t = mem_min(t, cache_down_next(p->l2));
    }
    if (p->ci) {
        if (!out_full(p)) {
            t = mem_min(t, cache_up_next(p->ci));
        }
        if (!p->dram_blocked) {
            t = mem_min(t, cache_down_next(p->ci));
        }
    }
    return t;
}

void part_dram_tick(Part *p, uint64_t now_dram, uint64_t now_l2)
{
    const MemMsg *m;
    while ((m = p->dops->out_peek(p->dram, now_dram))) {
        if (m->flags & MEM_F_BYPASS) {
            /* its room was promised at part_accept */
            EMU_ASSERT(p->rsv > 0);
            p->rsv--;
            memq_push(&p->out, m, now_l2);
        } else {
            cache_fill(cache_for(p, m->unit), m, now_l2);
        }
        p->dops->out_pop(p->dram);
    }
    p->dops->tick(p->dram, now_dram);
    p->dram_blocked = false;    /* the L2 side tries again */
}

const MemMsg *part_out_peek(const Part *p, uint64_t now_l2)
{
    return memq_peek(&p->out, now_l2);
}

void part_out_pop(Part *p)
{
    memq_pop(&p->out);
}
