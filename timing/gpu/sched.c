/*
 * timing/gpu/sched.c: warp readiness and the warp schedulers (gpu.h).
 *
 * A warp's earliest issue cycle is the latest of its constraints, each
 * with a stall reason (GpuStall; on a tie the first in that order names
 * it): barrier, fence, async tokens, the cycle set by its last
 * instruction (a barrier's or branch's latency), the I-buffer, the
 * scoreboard, a free unit, the MIO pipe's backlog, room in the LSU
 * queue.  Some constraints end only with an event (a reply, a release,
 * a queue pop): the warp's time is then GPU_NEVER until the event pokes
 * its scheduler.  A scheduler tries its warps in its policy's order and
 * issues the first that can issue now, up to issue.width a cycle; if
 * none can, it reports the reason of the warp that could issue soonest
 * (the first in policy order on a tie) and is not looked at again
 * before that cycle unless poked.  In a cycle it issues, the warps that
 * could have issued but did not are counted (gpu.not_selected, Nsight
 * Compute's `not_selected` warp state: eligible, another warp chosen);
 * a count of warps, not of scheduler cycles, so it stands beside the
 * per-scheduler-cycle reasons, not among them.
 *
 * Speed, without changing a decision: a warp keeps the answer of its own
 * constraints (own_ready) until one of them changes (gpu_warp_touch:
 * every event that can make it ready sooner, and its own issue), and
 * its scheduler keeps, per warp, a lower bound of its issue cycle
 * (GpuSched.lb) in one small array, so that a scan passes over warps
 * that cannot issue without reading them; every warp's exact time is
 * worked out only in a cycle in which none issues.  Working a warp out
 * has side effects only on its I-buffer (a fetch started or taken in),
 * and only when it changed or a fetch is due (own_quiet), so skipping
 * it otherwise is invisible.
 *
 * Policies (AFR section 3.1.3 and 3.6.1; Rogers et al., MICRO 2012;
 * Narasiman et al., MICRO 2011; Gebhart et al., ISCA 2011):
 *  - lrr: loose round robin, from the warp after the one issued last;
 *  - gto: greedy then oldest: the warp issued last while it can, then
 *    the oldest (placed first);
 *  - oldest: always the oldest warp that can issue;
 *  - two-level: only the sched.pool warps of the active pool are
 *    candidates (round robin among them); a warp waiting for a memory
 *    result, or for anything else only an event ends (a barrier, an
 *    async operation, a fence, a full queue), leaves the pool and the
 *    warps outside refill it, in the order they left it, at once (each
 *    warp leaves at most once a cycle).
 */
#include "config.h"

#include <string.h>

#include "timing/gpu/gpu.h"


const char *const gpu_stall_name[GPU_ST_COUNT] = {
    [GPU_ST_SELECTED] = "selected",
    [GPU_ST_BARRIER] = "barrier",
    [GPU_ST_MEMBAR] = "membar",
    [GPU_ST_ASYNC] = "async",
    [GPU_ST_SLEEPING] = "sleeping",
    [GPU_ST_NO_INSTRUCTION] = "no_instruction",
    [GPU_ST_BRANCH] = "branch_resolving",
    [GPU_ST_LONG_SB] = "long_scoreboard",
    [GPU_ST_SHORT_SB] = "short_scoreboard",
    [GPU_ST_WAIT] = "wait",
    [GPU_ST_MATH] = "math_pipe_throttle",
    [GPU_ST_MIO] = "mio_throttle",
    [GPU_ST_LG] = "lg_throttle",
    [GPU_ST_DISPATCH] = "dispatch_stall",
    [GPU_ST_IDLE] = "idle",
};

/* ---- policies ---- */

/* Candidates idx[i0..], then idx[..i0) (idx NULL: 0, 1, ...). */
static uint32_t rotate(const uint32_t *idx, uint32_t n, uint32_t i0,
                       uint32_t *out)
{
    uint32_t k = 0;
    for (uint32_t i = i0; i < n; i++) {
        out[k++] = idx ? idx[i] : i;
    }
    for (uint32_t i = 0; i < i0; i++) {
        out[k++] = idx ? idx[i] : i;
    }
    return k;
}

/* The first position after the warp issued last among the warps
 * sc->w[idx[0..n)] (idx NULL: all; warps are by age). */
static uint32_t after_last(const GpuSched *sc, const uint32_t *idx,
                           uint32_t n)
{
    uint32_t i = 0;
    if (sc->has_last) {
        while (i < n && sc->w[idx ? idx[i] : i]->age <= sc->last_age) {
            i++;
        }
    }
    return i == n ? 0 : i;
}

static uint32_t order_lrr(Gpu *g, GpuSched *sc, uint32_t *out)
{
    (void)g;
    return rotate(NULL, sc->nw, after_last(sc, NULL, sc->nw), out);
}

static uint32_t order_oldest(Gpu *g, GpuSched *sc, uint32_t *out)
{
    (void)g;
    return rotate(NULL, sc->nw, 0, out);
}

static uint32_t order_gto(Gpu *g, GpuSched *sc, uint32_t *out)
{
    (void)g;
    uint32_t n = sc->nw, k = 0, lastpos = n;
    for (uint32_t i = 0; sc->last_w && i < n; i++) {
        if (sc->w[i] == sc->last_w) { /* (no warp of it to read) */
            lastpos = i;
            break;
        }
    }
    if (lastpos < n) {
        out[k++] = lastpos;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (i != lastpos) {
            out[k++] = i;
        }
    }
    return k;
}

static uint32_t order_two_level(Gpu *g, GpuSched *sc, uint32_t *out)
{
    uint32_t pooled = 0;
    for (uint32_t i = 0; i < sc->nw; i++) {
        pooled += sc->w[i]->pooled && !sc->w[i]->exited;
    }
    while (pooled < g->c.pool) { /* refill, first out first back */
        GpuWarp *best = NULL;
        for (uint32_t i = 0; i < sc->nw; i++) {
            GpuWarp *w = sc->w[i];
            if (!w->pooled && !w->exited &&
                (!best || w->pool_seq < best->pool_seq)) {
                best = w;
            }
        }
        if (!best) {
            break;
        }
        best->pooled = true;
        pooled++;
    }
    /* round robin inside the pool: gathered in the scratch tail, then
     * rotated into out */
    uint32_t *tmp = out + sc->nw; /* order has room for 2 * capw */
    uint32_t k = 0;
    for (uint32_t i = 0; i < sc->nw; i++) {
        if (sc->w[i]->pooled) {
            tmp[k++] = i;
        }
    }
    return rotate(tmp, k, after_last(sc, tmp, k), out);
}

const GpuPolicy gpu_policies[] = {
    {"lrr", "loose round robin", order_lrr, false},
    {"gto", "greedy then oldest", order_gto, false},
    {"oldest", "oldest first", order_oldest, false},
    {"two-level", "round robin over an active pool", order_two_level, true},
    {NULL, NULL, NULL, false},
};

const GpuPolicy *gpu_policy_find(const char *name)
{
    for (const GpuPolicy *p = gpu_policies; p->name; p++) {
        if (strcmp(p->name, name) == 0) {
            return p;
        }
    }
    return NULL;
}

/* ---- warps ---- */

GpuSched *gpu_sched_of(const Gpu *g, const GpuWarp *w)
{
    GpuSm *sm = g->sm[w->cta->sm];
    return &sm->sched[w->slot % sm->nsched];
}

void gpu_poke(const Gpu *g, const GpuWarp *w)
{
    gpu_sched_of(g, w)->wake = 0;
    g->sm[w->cta->sm]->look = 0;
}

void gpu_sm_changed(GpuSm *sm)
{
    for (uint32_t k = 0; k < sm->nsched; k++) {
        sm->sched[k].sgen++;
    }
}

void gpu_poke_sm(const Gpu *g, uint32_t id)
{
    GpuSm *sm = g->sm[id];
    gpu_sm_changed(sm); /* (a queue pop, a CTA, a launch) */
    sm->qgen++;
    sm->look = 0;
    sm->retire_ok = false;
    for (uint32_t k = 0; k < sm->nsched; k++) {
        sm->sched[k].wake = 0;
    }
}

void gpu_poke_all(Gpu *g)
{
    for (uint32_t i = 0; i < g->nsms; i++) {
        gpu_poke_sm(g, i);
    }
}

void gpu_warp_exited(Gpu *g, GpuWarp *w, uint64_t now)
{
    if (!w->exited) { /* an event and the state after a step both say so */
        GpuCta *c = w->cta;
        w->exited = w->peeked = true;
        gpu_warp_touch(w); /* (passed over from now on) */
        w->at_barrier = false;
        w->next = NULL;
        if (++c->nexited == c->nwarps) {
            gpu_sm_cta_done(g->sm[c->sm], c);
        }
        c->last_exit = gpu_max(c->last_exit, now);
    }
}

void gpu_warp_refresh(Gpu *g, GpuWarp *w, uint64_t now)
{
    gpu_warp_touch(w);
    w->peeked = true;
    if (w->exited) {
        return;
    }
    uint32_t active = 0, exec = 0;
    w->next = g->api->warp_peek(g->h, w->h, &active, &exec);
    gpu_sb_forget(&w->sb); /* (the peek may reuse its buffer) */
    w->nexp = gpu_unit_expansion(g, g->sm[w->cta->sm], w->next);
    w->exec = exec;
    if (w->next) {
        gpu_unit_classify(g, w);
        w->at_barrier = false;
        gpu_fetch_ready(g, w, now); /* a redirect starts fetching now */
        return;
    }
    int st = g->api->warp_state(g->h, w->h);
    if (st == PTXEMU_TM_WARP_EXITED) {
        gpu_warp_exited(g, w, now);
    } else {
        w->at_barrier = st == PTXEMU_TM_WARP_BARRIER;
    }
}

static void later(uint64_t *t, GpuStall *why, uint64_t v, GpuStall r)
{
    if (v > *t) {
        *t = v;
        *why = r;
    }
}

static const GpuStall sb_stall[] = {
    [GPU_SB_FIXED] = GPU_ST_WAIT,
    [GPU_SB_SHORT] = GPU_ST_SHORT_SB,
    [GPU_SB_LONG] = GPU_ST_LONG_SB,
};

/* The warp's own constraints (gpu_warp_ready up to the unit check):
 * *fin when that is the whole answer (never, or no instruction to
 * issue).  Kept in the warp until gpu_warp_touch or its I-buffer's next
 * arrival (own_quiet): worked out again, it would give the same and
 * change nothing (a fetch is started or taken in only when the
 * I-buffer changed or a fetch is due). */
static uint64_t own_ready(Gpu *g, GpuWarp *w, uint64_t now, GpuStall *why,
                          bool *fin)
{
    if (w->own_ok && now < w->own_quiet) {
        *why = (GpuStall)w->own_why;
        *fin = w->own_fin;
        return w->own_t;
    }
    if (!w->peeked) {
        gpu_warp_refresh(g, w, now);
    }
    uint64_t t = 0, quiet = GPU_NEVER;
    const ptxemu_tm_insn *in = w->next;
    if (w->xp) { /* the next part of an expanded instruction */
        *why = GPU_ST_WAIT;
        t = w->xnext;
    } else if (w->exited || w->at_barrier) {
        *why = GPU_ST_BARRIER;
        t = GPU_NEVER;
    } else {
        *why = GPU_ST_BARRIER;
        later(&t, why, w->not_before, (GpuStall)w->nb_why);
        if (!in) {
            /* a step that only settles the warp's stack */
        } else if (w->waits) {
            *why = GPU_ST_ASYNC;
            t = GPU_NEVER;
        } else if (in->wait == PTXEMU_TM_WAIT_FENCE && w->mem_out) {
            *why = GPU_ST_MEMBAR;
            t = GPU_NEVER;
        } else {
            later(&t, why, gpu_fetch_ready(g, w, now),
                  GPU_ST_NO_INSTRUCTION);
            if (w->ib.pending) {
                quiet = w->ib.at;
            }
            GpuSbKind k1;
            uint64_t a = gpu_sb_ready_insn(&w->sb, in, &k1);
            later(&t, why, a, sb_stall[k1]);
        }
    }
    *fin = t == GPU_NEVER || (!w->xp && !in);
    w->own_t = t;
    w->own_why = (uint8_t)*why;
    w->own_fin = *fin;
    w->own_quiet = quiet;
    w->own_ok = true;
    if (w->lbp) {
        w->lbp->lb = gpu_min(t, quiet);
    }
    return t;
}

/* The rest of gpu_warp_ready: the scheduler's units, the SM's MIO pipe
 * and LSU queue, the collectors, after the warp's own time t.  A unit's
 * and the MIO pipe's free cycles only grow during a launch (reset_sms
 * forgets every lb), so the time before the queue and collector checks
 * (which may end with a pop) bounds the warp's from below until it is
 * touched: kept in its lb. */
static uint64_t shared_ready(const Gpu *g, const GpuSm *sm,
                             const GpuSched *sc, const GpuWarp *w,
                             uint64_t t, GpuStall *why)
{
    later(&t, why, gpu_unit_free(sc, w), GPU_ST_MATH);
    const ptxemu_tm_insn *in = w->next;
    if (!w->xp && gpu_lsu_needs_mio(in) && sm->mio_free > g->c.mio_queue) {
        later(&t, why, sm->mio_free - g->c.mio_queue, GPU_ST_MIO);
    }
    if (w->lbp) {
        w->lbp->lb = gpu_min(t, w->own_quiet);
    }
    if (!w->xp && gpu_lsu_needs_queue(in) && sm->qlen >= g->c.lsu_queue &&
        !g->c.lsu_replay) { /* (with replay it issues and is refused) */
        *why = GPU_ST_LG;
        if (w->lbp && !sc->oc && w->own_quiet == GPU_NEVER) {
            /* the same answer until the queue may have room (qgen) or
             * the warp is touched: scans read it from lb */
            w->lbp->ex = GPU_LB_LG;
            w->lbp->gen = sm->qgen;
        }
        return GPU_NEVER;
    }
    if (!w->xp && sc->oc && !gpu_oc_can_take(sc->oc)) {
        *why = GPU_ST_DISPATCH;
        return GPU_NEVER; /* until a collector dispatches */
    }
    if (w->lbp && !sc->oc && w->own_quiet == GPU_NEVER) {
        /* exact until the warp is touched or sgen moves (collectors
         * are not followed: not kept with them) */
        w->lbp->ex = t;
        w->lbp->gen = sc->sgen;
    }
    return t;
}

/* Whether lb entry e says its warp waits for room in the LSU queue
 * (GPU_NEVER, lg_throttle): then it is of the current kernel and live
 * (an exit or a launch would have cleared it). */
static bool lb_lg(const GpuSm *sm, const GpuLb *e)
{
    return e->ex == GPU_LB_LG && e->gen == sm->qgen;
}

/* Whether lb entry e tells, without reading its warp, if it can issue
 * at now (*ready). */
static bool lb_known(const GpuSm *sm, const GpuSched *sc, const GpuLb *e,
                     uint64_t now, bool *ready)
{
    if (e->lb > now) {
        *ready = false;
        return true;
    }
    if (e->ex == GPU_LB_LG) {
        *ready = false;
        return e->gen == sm->qgen;
    }
    if (e->ex != GPU_NEVER && e->gen == sc->sgen) {
        *ready = e->ex <= now;
        return true;
    }
    return false;
}

uint64_t gpu_warp_ready(Gpu *g, GpuSm *sm, GpuSched *sc, GpuWarp *w,
                        uint64_t now, GpuStall *why)
{
    bool fin;
    uint64_t t = own_ready(g, w, now, why, &fin);
    return fin ? t : shared_ready(g, sm, sc, w, t, why);
}

/* ---- a scheduler's cycle ---- */

/* How many of the candidates order[i0..n) could issue now (Nsight's
 * eligible warps). */
static uint64_t eligible(Gpu *g, GpuSm *sm, GpuSched *sc, uint32_t i0,
                         uint32_t n, uint64_t now)
{
    uint64_t k = 0;
    for (uint32_t i = i0; i < n; i++) {
        bool ready;
        if (lb_known(sm, sc, &sc->lb[sc->order[i]], now, &ready)) {
            k += ready; /* known without reading the warp */
            continue;
        }
        GpuWarp *w = sc->w[sc->order[i]];
        GpuStall r;
        if ((w->xp ? w->xnext : w->not_before) > now) {
            continue; /* a lower bound of its issue cycle, cheaply */
        }
        if (!w->exited && w->cta->kern == g->kern &&
            gpu_warp_ready(g, sm, sc, w, now, &r) <= now && !w->exited) {
            k++;
        }
    }
    return k;
}

/* One pass over the scheduler's candidates: the first that can issue
 * now (*pick; *others: how many after it could too, when others is not
 * NULL), else the soonest one's time and reason (kept in *best, *bwhy
 * when sooner).  Two-level: pooled warps waiting for memory or an event
 * leave the pool; whether some did.  Other policies look for the pick
 * first, from the warps' own times alone where those rule a warp out,
 * and work out every warp's time only when none can issue. */
static bool scan(Gpu *g, GpuSm *sm, GpuSched *sc, uint64_t now,
                 GpuWarp **pick, uint64_t *best, GpuStall *bwhy,
                 uint64_t *others)
{
    const bool two_level = g->c.policy->order == order_two_level;
    bool demoted = false;
    uint32_t n = sc->order_n;
    if (!sc->order_ok) {
        n = sc->order_n = g->c.policy->order(g, sc, sc->order);
        sc->order_ok = !two_level;
    }
    *pick = NULL;
    for (uint32_t i = 0; i < n; i++) {
        bool ready;
        if (!two_level && lb_known(sm, sc, &sc->lb[sc->order[i]], now, &ready) &&
            !ready) {
            continue; /* not now; its time is looked up below if needed */
        }
        GpuWarp *w = sc->w[sc->order[i]];
        if (w->exited || w->cta->kern != g->kern) {
            continue; /* a parent grid's warps wait for its child */
        }
        GpuStall r;
        bool fin;
        uint64_t t = own_ready(g, w, now, &r, &fin);
        if (w->exited) {
            continue;
        }
        if (!fin && (t <= now || two_level)) {
            t = shared_ready(g, sm, sc, w, t, &r);
        }
        if (t <= now) {
            *pick = w;
            if (others) {
                *others = eligible(g, sm, sc, i + 1, n, now);
            }
            return demoted;
        }
        if (!two_level) {
            continue;
        }
        if (w->pooled && (r == GPU_ST_LONG_SB || t == GPU_NEVER)) {
            w->pooled = false;
            /* (after every order number made before this cycle,
             * in order within the SM: gpu.c folds pool_n) */
            w->pool_seq = g->pool_base + ++sm->pool_n;
            demoted = true;
        }
        if (t < *best || *bwhy == GPU_ST_IDLE) {
            *best = t;
            *bwhy = r;
        }
    }
    for (uint32_t i = 0; i < n && !two_level; i++) {
        GpuStall r = GPU_ST_LG;
        uint64_t t = GPU_NEVER;
        if (!lb_lg(sm, &sc->lb[sc->order[i]])) {
            GpuWarp *w = sc->w[sc->order[i]];
            if (w->exited || w->cta->kern != g->kern) {
                continue;
            }
            t = gpu_warp_ready(g, sm, sc, w, now, &r);
        }
        if (t < *best || *bwhy == GPU_ST_IDLE) {
            *best = t;
            *bwhy = r;
        }
    }
    return demoted;
}

int gpu_sched_cycle(Gpu *g, GpuSm *sm, uint32_t k, uint64_t now,
                    uint32_t *issued, GpuStall *why, uint64_t *wake)
{
    GpuSched *sc = &sm->sched[k];
    *issued = 0;
    uint64_t best = GPU_NEVER;
    GpuStall bwhy = GPU_ST_IDLE;
    GpuWarp *first = NULL, *resume = NULL;
    uint64_t others = 0, slot0 = 0;
    if (sc->held.on) { /* phase 2: go on where phase 1 stopped */
        resume = sc->held.pick;
        first = sc->held.first;
        others = sc->held.others;
        slot0 = sc->held.slot;
        *issued = sc->held.issued;
        sc->held.on = false;
    } else if (now < sc->wake) {
        *why = (GpuStall)sc->why;
        *wake = sc->wake;
        return 0;
    }
    for (uint64_t slot = slot0; slot < g->c.issue_width; slot++) {
        GpuWarp *pick = resume;
        if (resume) {
            resume = NULL;
            goto issue;
        }
        best = GPU_NEVER;
        bwhy = GPU_ST_IDLE;
        /* A two-level pool refills at once from the warps outside it,
         * each warp leaving at most once a cycle. */
        for (uint32_t pass = 0; pass <= sc->nw; pass++) {
            if (!scan(g, sm, sc, now, &pick, &best, &bwhy,
                      slot ? NULL : &others) ||
                pick) {
                break;
            }
        }
        if (!pick) {
            break;
        }
        if (!first) {
            first = pick;
        } else if (pick != first && others) {
            others--; /* eligible at the first slot, issued at a later */
        }
        if (!sc->has_last || sc->last_w != pick) {
            sc->order_ok = false; /* (the policies order from it) */
        }
        sc->last_age = pick->age;
        sc->has_last = true;
        sc->last_w = pick;
        if (sm->defer && gpu_issue_shared(g, pick)) {
            /* phase 1: other SMs may see what it does: issued in
             * phase 2, in SM order (gpu.c) */
            sc->held = (GpuHeld){pick, first, slot, others, *issued, true};
            return 1;
        }
    issue:;
        int rc = gpu_issue(g, sm, sc, pick, now);
        if (rc < 0) {
            return rc;
        }
        (*issued)++;
    }
    sm->st.not_selected += others;
    if (*issued) {
        sc->wake = 0; /* look again next cycle */
        *why = GPU_ST_SELECTED;
        *wake = now + 1;
        return 0;
    }
    *why = bwhy;
    *wake = best;
    sc->wake = best;
    sc->why = (uint8_t)bwhy;
    return 0;
}
