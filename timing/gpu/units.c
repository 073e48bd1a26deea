/*
 * timing/gpu/units.c: function units (gpu.h).
 *
 * Per scheduler, unit.X.count units of each class.  A unit has
 * unit.X.lanes lanes, so a 32-thread warp instruction passes through it
 * ceil(32 / lanes) times (GT200's 8 SPs take 4 cycles per warp: AFR
 * section 3.1; Wong et al. 2010) and keeps it busy passes * unit.X.ii
 * cycles; its result is ready unit.X.lat cycles after issue (measured
 * dependent-issue latencies include the passes) plus oc.latency, the
 * operand read.  The unit chosen is the one free first (the lowest
 * index on a tie), so the choice is deterministic.
 *
 * PTX-to-machine expansion (expand.h, table for `expand.arch`): an
 * instruction ptxas turns into n machine instructions issues them as a
 * chain (the table's reading: each part waits for the previous one's
 * result), part k at s_k = s_(k-1) + latency_(k-1), its result at
 * s_(n-1) + latency_(n-1); the warp issues nothing else until s_(n-1)
 * + 1.  Only the first part occupies a unit (ii cycles from issue): the
 * later parts' units are not booked ahead, which would block other
 * warps' issue until then (a simplification: their throughput cost is
 * not modelled).
 */
#include "config.h"

#include <stdlib.h>

#include "timing/gpu/gpu.h"

/* The expansion of insn (NULL: one machine instruction), cached per
 * static instruction: the table is matched on text once. */
static const GpuExpand *expansion(Gpu *g, const ptxemu_tm_insn *insn)
{
    static const char none;
    if (g->c.expand_arch < 0) {
        return NULL;
    }
    const void *e = tm_map_get(&g->expand, tm_map_ptr(insn));
    if (!e) {
        e = gpu_expand(g->c.expand_arch, insn);
        if (!e || e == (const void *)&none) {
            e = &none;
        }
        /* out of memory: not cached, matched again next time */
        tm_map_put(&g->expand, tm_map_ptr(insn), (void *)e);
    }
    return e == (const void *)&none ? NULL : e;
}

unsigned gpu_unit(const ptxemu_tm_insn *insn)
{
    return insn->unit < PTXEMU_TM_UNIT_COUNT ? insn->unit
                                             : PTXEMU_TM_UNIT_MISC;
}

static uint32_t first_free(const Gpu *g, const GpuSched *sc, unsigned u)
{
    const uint64_t *f = sc->ufree[u];
    uint32_t best = 0;
    for (uint32_t i = 1; i < g->c.unit[u].count; i++) {
        if (f[i] < f[best]) {
            best = i;
        }
    }
    return best;
}

uint64_t gpu_unit_free(const Gpu *g, const GpuSched *sc,
                       const ptxemu_tm_insn *insn)
{
    unsigned u = gpu_unit(insn);
    return sc->ufree[u][first_free(g, sc, u)];
}

/* The scoreboard kind of a unit's results: Nsight Compute calls waits
 * on fixed-latency math `wait` and on variable-latency (MIO) units
 * `short_scoreboard`. */
GpuSbKind gpu_unit_kind(const ptxemu_tm_insn *insn)
{
    switch (gpu_unit(insn)) {
    case PTXEMU_TM_UNIT_FP64:
    case PTXEMU_TM_UNIT_SFU:
    case PTXEMU_TM_UNIT_TENSOR:
    case PTXEMU_TM_UNIT_WARP:
    case PTXEMU_TM_UNIT_LDST:
    case PTXEMU_TM_UNIT_TEX:
        return GPU_SB_SHORT;
    default:
        return GPU_SB_FIXED;
    }
}

uint64_t gpu_unit_issue(Gpu *g, GpuSched *sc, const ptxemu_tm_insn *insn,
                        uint64_t now, GpuSbKind *kind, uint64_t *last)
{
    unsigned u = gpu_unit(insn);
    const GpuUnitCfg *uc = &g->c.unit[u];
    uint64_t passes = (GPU_WARP_SIZE + uc->lanes - 1) / uc->lanes;
    uint32_t i = first_free(g, sc, u);
    const GpuExpand *e = expansion(g, insn);
    *kind = gpu_unit_kind(insn);
    *last = now;
    if (!e || e->n == 0) {
        sc->ufree[u][i] = gpu_max(now, sc->ufree[u][i]) + passes * uc->ii;
        return now + uc->lat + g->c.oc_latency;
    }
    /* the first part's unit is insn's class (the unit checked free) */
    sc->ufree[u][i] = gpu_max(now, sc->ufree[u][i]) + e->part[0].ii;
    uint64_t s = now;
    for (uint32_t k = 0; k + 1 < e->n; k++) {
        s += e->part[k].latency;
    }
    g->st_parts += e->n;
    *last = s;
    return s + e->part[e->n - 1].latency + g->c.oc_latency;
}
