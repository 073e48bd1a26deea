/*
 * timing/gpu/collect.c: the third scheduling loop, operand collection
 * (AFR section 3.3), when oc.enabled: the banked register file and
 * collector units are opcoll.c's; this file connects them to issue and
 * dispatch (gpu.h).
 *
 * An instruction issued at t takes a collector of its scheduler (none
 * free: it does not issue, `dispatch_stall`); its memory requests are
 * held in the LSU queue and its results have no ready cycle yet.  When
 * opcoll reports its operands read at the end of cycle d, it is
 * dispatched: its unit is occupied from d as at issue without
 * collectors, its results are ready at d + unit latency (and written
 * back then, taking their banks' ports), its memory requests may go.
 * An expanded instruction's first machine part issues at d, its others
 * through the scheduler after it (units.c).
 * Shared-memory accesses are still timed at issue (the MIO pipe books
 * them then).
 */
#include "config.h"

#include <stdlib.h>

#include "timing/gpu/gpu.h"

typedef struct GpuOcRec {
    struct GpuOcRec *prev, *next;
    GpuWarp *w;
    GpuSm *sm;                  /* whose oc_recs it is on */
    const ptxemu_tm_insn *in;
    uint64_t tag;
} GpuOcRec;

static void unlink_rec(GpuOcRec *r)
{
    if (r->prev) {
        r->prev->next = r->next;
    } else {
        r->sm->oc_recs = r->next;
    }
    if (r->next) {
        r->next->prev = r->prev;
    }
    free(r);
}

uint64_t gpu_collect_take(Gpu *g, GpuSched *sc, GpuWarp *w,
                          const ptxemu_tm_insn *in, uint64_t now)
{
    GpuOcRec *r = calloc(1, sizeof *r);
    if (!r) {
        return 0;
    }
    GpuSm *sm = g->sm[w->cta->sm];
    r->w = w;
    r->sm = sm;
    r->in = in;
    r->tag = ++sm->next_tag;
    r->next = sm->oc_recs;
    if (sm->oc_recs) {
        sm->oc_recs->prev = r;
    }
    sm->oc_recs = r;
    if (!gpu_oc_take(sc->oc, w->slot, in->src, in->nsrc,
                     (uint64_t)(uintptr_t)r, now)) {
        unlink_rec(r); /* issued without a free collector: our bug */
        return 0;
    }
    w->oc_out++;
    return r->tag;
}

static void dispatch(Gpu *g, GpuSm *sm, GpuSched *sc, GpuOcRec *r,
                     uint64_t d)
{
    GpuWarp *w = r->w;
    gpu_warp_touch(w); /* its scoreboard or expanded part */
    if (w->xp && w->xin == r->in && w->xk == 0 && w->xtag == r->tag) {
        /* an expanded instruction: its first part now, the results
         * after its last (units.c) */
        gpu_unit_part(g, sc, w, d);
    } else {
        uint64_t ready = gpu_unit_issue(g, sc, r->in, d);
        gpu_sb_release(&w->sb, r->tag, ready);
        if (r->in->ndst) {
            w->drain = gpu_max(w->drain, ready);
            gpu_oc_writeback(sc->oc, w->slot, r->in->dst, r->in->ndst,
                             ready);
        }
    }
    for (GpuLsuOp *op = sm->qhead; op; op = op->next) {
        if (op->hold == r->tag) {
            op->hold = 0;
        }
    }
    w->oc_out--;
    gpu_poke(g, w);
    unlink_rec(r);
}

void gpu_collect_cycle(Gpu *g, GpuSm *sm, GpuSched *sc, uint64_t now)
{
    uint64_t out[64]; /* more collectors than that dispatch next cycle */
    uint64_t c0 = gpu_oc_conflicts(sc->oc), r0 = gpu_oc_reads(sc->oc);
    uint32_t n = gpu_oc_cycle(sc->oc, now, out, 64);
    sm->st.oc_conflicts += gpu_oc_conflicts(sc->oc) - c0;
    sm->st.oc_reads += gpu_oc_reads(sc->oc) - r0;
    for (uint32_t i = 0; i < n; i++) {
        dispatch(g, sm, sc, (GpuOcRec *)(uintptr_t)out[i], now);
    }
    sc->wake = 0; /* a collector may be free again */
    sm->look = 0;
}

int gpu_collect_reset(Gpu *g)
{
    int rc = 0;
    for (uint32_t i = 0; i < g->nsms; i++) {
        GpuSm *sm = g->sm[i];
        while (sm->oc_recs) {
            unlink_rec(sm->oc_recs);
        }
        for (uint32_t k = 0; k < sm->nsched; k++) {
            gpu_oc_free(sm->sched[k].oc);
            sm->sched[k].oc = NULL;
            if (g->c.oc.enabled &&
                !(sm->sched[k].oc = gpu_oc_new(&g->c.oc))) {
                rc = -1;
            }
        }
    }
    return rc;
}
