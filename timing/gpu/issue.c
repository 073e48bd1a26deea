/*
 * timing/gpu/issue.c: what issuing a warp instruction costs (gpu.h):
 * the functional step (at issue, as GPGPU-Sim and Accel-Sim execute;
 * a memory instruction the full LSU refuses replays instead, lsu.replay),
 * the I-buffer entry it frees, its unit, its memory accesses, the
 * scoreboard entries of its results, asynchronous tokens it starts or
 * waits for, and the latency a branch, fence or barrier adds.
 */
#include "config.h"

#include "timing/gpu/gpu.h"

#define GPU_MAX_NOSTEP 1024u

static bool memory_unit(unsigned u)
{
    return u == PTXEMU_TM_UNIT_LDST || u == PTXEMU_TM_UNIT_TEX ||
           u == PTXEMU_TM_UNIT_ASYNC;
}

static void hold(GpuWarp *w, uint64_t t, GpuStall why)
{
    gpu_warp_touch(w);
    if (t > w->not_before) {
        w->not_before = t;
        w->nb_why = (uint8_t)why;
    }
}

static int account(Gpu *g, GpuSm *sm, GpuSched *sc, GpuWarp *w,
                   const ptxemu_tm_step *st, uint64_t now)
{
    const ptxemu_tm_insn *in = st->insn;
    GpuSbKind kind = gpu_unit_kind(in), mkind;
    uint64_t ready, ctag = 0, xtag = 0;
    const GpuExpand *e = in == w->next ? w->nexp : gpu_unit_expansion(g, sm, in);
    if (e) {
        xtag = ++sm->next_tag; /* released after its last part */
    }
    if (sc->oc) { /* results and the unit when its operands are read */
        ctag = gpu_collect_take(g, sc, w, in, now);
        if (!ctag) {
            return -1;
        }
        ready = GPU_NEVER;
        sm->hold_tag = ctag; /* its memory requests wait for that too */
        if (e) {
            gpu_unit_expand(g, w, in, e, ctag); /* part 0 at dispatch */
        }
    } else if (e) {
        gpu_unit_expand(g, w, in, e, xtag); /* part 0 below */
        ready = GPU_NEVER;
    } else {
        ready = gpu_unit_issue(g, sc, in, now);
    }
    uint64_t mready, tag;
    int rc = gpu_lsu_issue(g, sm, w, st, now, &mready, &mkind, &tag);
    sm->hold_tag = 0;
    if (rc != 0) {
        return -1;
    }
    if (st->async_token) {
        /* An operation of a math unit (wgmma) completes its unit's
         * latency after issue, and not before the operands it reads
         * from shared memory (A through a descriptor, and B: PTX ISA,
         * "Asynchronous Warpgroup Level Matrix Multiply-Accumulate")
         * came through the MIO pipe: gpu_lsu_issue charged their
         * wavefronts and started the token at the last one's result.
         * The reads stream into the unit as it computes, so the later
         * of the two ends it.  One without memory accesses: the unit's
         * latency. */
        GpuToken *t = tm_map_get(&g->tokens, st->async_token);
        uint64_t done = now + g->c.unit[gpu_unit(in)].lat + g->c.oc_latency;
        if (t && !memory_unit(gpu_unit(in)) && t->done != GPU_NEVER) {
            t->done = gpu_max(t->done, done);
        } else if (!t && gpu_token_start(g, st->async_token, done) != 0) {
            return -1;
        }
    }
    if (mready) {
        ready = memory_unit(gpu_unit(in)) || mready == GPU_NEVER ||
                        ready == GPU_NEVER
                    ? mready : gpu_max(ready, mready);
        kind = mkind; /* (an expansion's tag then releases nothing) */
    } else if (ctag) {
        tag = ctag;
    } else if (xtag) {
        tag = xtag;
    }
    if (gpu_sb_write(&w->sb, in->dst, in->ndst, ready, kind, tag, now)) {
        return -1;
    }
    if (e && !sc->oc) {
        /* after the write: a one-part row releases its tag at once */
        gpu_unit_part(g, sc, w, now);
    }
    if (ready != GPU_NEVER && (in->ndst || mready)) {
        w->drain = gpu_max(w->drain, ready);
    }
    if (st->nwait &&
        gpu_token_wait(g, w, st->wait_tokens, st->nwait, now) != 0) {
        return -1;
    }
    if (in->wait == PTXEMU_TM_WAIT_FENCE) {
        hold(w, now + g->c.fence_latency, GPU_ST_MEMBAR);
    }
    if (in->flags & (PTXEMU_TM_I_BRANCH | PTXEMU_TM_I_CALL | PTXEMU_TM_I_RET)) {
        hold(w, now + g->c.branch_latency, GPU_ST_BRANCH);
    }
    return 0;
}

int gpu_issue(Gpu *g, GpuSm *sm, GpuSched *sc, GpuWarp *w, uint64_t now)
{
    gpu_warp_touch(w); /* whatever it issues changes its state */
    if (w->xp) { /* the next machine part of an expanded instruction */
        gpu_unit_part(g, sc, w, now);
        return 0;
    }
    if (g->c.lsu_replay && w->next && gpu_lsu_needs_queue(w->next) &&
        sm->qlen >= g->c.lsu_queue) {
        /* The LSU refuses it: not executed, still in the I-buffer, issued
         * again later (the issue slot is spent). */
        sm->st.replays++;
        hold(w, now + g->c.lsu_replay, GPU_ST_LG);
        return 0;
    }
    if (w->next) {
        gpu_fetch_issued(g, w, now);
    }
    ptxemu_tm_step st = {0};
    st.struct_size = sizeof st;
    w->peeked = false;
    int rc = g->api->warp_step(g->h, w->h, &st);
    if (rc < 0) {
        return rc;
    }
    sm->issued++;
    sm->st.issued++;
    sm->st.thread_insns += (uint64_t)__builtin_popcount(st.exec);
    if (st.insn) {
        w->nostep = 0;
        if (account(g, sm, sc, w, &st, now) != 0) {
            sm->err = "gpu: out of memory";     /* (reported by gpu.c) */
            return PTXEMU_TM_ERROR;
        }
    } else if (++w->nostep > GPU_MAX_NOSTEP) {
        sm->err = "gpu: a warp keeps stepping without running an "
                  "instruction";
        return PTXEMU_TM_ERROR;
    }
    int state = g->api->warp_state(g->h, w->h);
    if (state == PTXEMU_TM_WARP_EXITED) {
        gpu_warp_exited(g, w, now);
    } else if (state == PTXEMU_TM_WARP_BARRIER) {
        w->at_barrier = true;
        w->next = NULL;
        w->peeked = true;
    } else {
        if (st.insn && st.insn->wait == PTXEMU_TM_WAIT_CLUSTER) {
            /* it arrived last and went on: the host released the other
             * CTAs' warps, and sends no event for them */
            gpu_recheck_barriers(g, now);
        }
        gpu_warp_refresh(g, w, now);
    }
    return 0;
}
