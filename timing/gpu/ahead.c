/*
 * timing/gpu/ahead.c: running an SM ahead of the others in phase 1
 * (gpu.c's top: "Running ahead"; the host's side is ptxemu_timing.h's
 * ABI 5).
 *
 * What reaches an SM from outside between two of its visits: the
 * memory system's replies and retries (only inside advance, at or after
 * its next()), CTAs placed on it (only when one of its own retires),
 * the host's look at the launch (host->ahead()), and what other SMs'
 * steps flagged PTXEMU_TM_I_SHARED do (which it meets only through
 * steps of its own flagged so, held for their cycle's phase 2; other
 * SMs' buffered stores it sees only after the section, gpu.c).  With a
 * memory system split by SM (g->split) its replies and sends are its
 * own (gpu_sm_run takes and makes them), so it goes on through cycles
 * with requests in flight or queued, up to the host's next look.  So
 * after the cycle t it was visited in, an SM with nothing queued for
 * the memory system and no CTA to retire goes through its own cycles
 * up to its horizon (the host's next look, g->until, and when it has
 * requests in the memory system that system's next() after this
 * cycle's sends, g->horizon): a visit where
 * its own state says (sm->look), each scheduler's reason counted for
 * the cycles between, as g->rest would count them.  It stops early at
 * its first visit that leaves something for the calling thread: a
 * request to send (the next cycle's step 5), a scheduler held before a
 * shared step (phase 2 of that cycle, in SM order, gpu.c) or a failure
 * (which stops the kernel only when gpu.c's loop reaches its cycle, in
 * SM order, as one thread would meet it).  Its cycles before sm->ahead
 * are then done and counted; gpu.c skips it until then.
 *
 * Which visits an SM gets follows from its own state (gpu_sm_run sets
 * sm->look; a poke during a visit means the next cycle), and a visit
 * in a cycle where one thread would not look at the SM changes nothing
 * (its schedulers asleep answer their reasons), so the cycles,
 * statistics and results are one thread's: which thread runs an SM
 * changes only how fast they come, and so does how far ahead, but for
 * what SMs racing on plain global memory read when steps are buffered
 * (gpu.c: the end of a section makes an SM's stores visible).  How far
 * ahead follows from the model's state alone, the same at any thread
 * count.
 */
#include "config.h"

#include <string.h>

#include "timing/gpu/gpu.h"

/* How far sm may run ahead: the host's next look when nothing it sent
 * is in the memory system (which answers only requests, and retries
 * only a sleeping LSU's: gpu_mem.h), else also the memory system's next
 * event (any of its requests may be answered then). */
uint64_t gpu_sm_horizon(const Gpu *g, const GpuSm *sm)
{
    return g->split || (!sm->ops_all && !sm->lsu_sleep && !g->fetching.n)
               ? g->until
               : g->horizon;
}

/* Whether nothing of sm's waits for the calling thread (with a split
 * memory system its requests and replies are its own). */
static bool own_only(const Gpu *g, const GpuSm *sm)
{
    return !sm->nfq && !sm->ndone &&
           (g->split || (!sm->qhead && !sm->busy));
}

bool gpu_sm_may_wake(const Gpu *g, const GpuSm *sm, uint64_t t)
{
    return sm->used.ctas && !sm->pend && sm->look > t &&
           sm->look < gpu_sm_horizon(g, sm) && own_only(g, sm);
}

void gpu_sm_phase1(Gpu *g, GpuSm *sm, uint64_t t)
{
    const uint64_t h = gpu_sm_horizon(g, sm);
    sm->ahead = 0;
    if (h <= t + 1 || (sm->visit_t == t && !own_only(g, sm))) {
        (void)gpu_sm_run(g, sm, t); /* (its rc in sm->rc) */
        return;
    }
    memset(sm->ra_cnt, 0, sizeof sm->ra_cnt);
    uint64_t c = t;
    if (sm->visit_t != t) { /* asleep at t (gpu_sm_may_wake) */
        c = sm->look;
        gpu_sm_count_asleep(sm->ra_cnt, sm, c - t);
        gpu_sm_visit_begin(g, sm, c);
    }
    for (;;) {
        int rc = gpu_sm_run(g, sm, c);
        if (rc != 0) { /* held, or failed: cycle c is phase 2's */
            if (c > t) {
                sm->ahead = c;
                sm->pend = true;
            } /* (else as without running ahead) */
            return;
        }
        for (int r = 0; r < GPU_ST_COUNT; r++) {
            sm->ra_cnt[r] += sm->cnt_own[r];
        }
        const uint64_t nv = sm->look;
        uint64_t a = c + 1;
        if (own_only(g, sm) && nv > c && nv != GPU_NEVER) {
            if (nv < h) {
                gpu_sm_count_asleep(sm->ra_cnt, sm, nv - c - 1);
                c = nv;
                gpu_sm_visit_begin(g, sm, c);
                continue;
            }
            a = h;
        }
        gpu_sm_count_asleep(sm->ra_cnt, sm, a - c - 1);
        sm->ahead = a;
        return;
    }
}
