/*
 * timing/simple/sched.c: the warp schedulers: when a warp could issue,
 * which warp a scheduler issues, what issuing costs, and why a
 * scheduler issued nothing.
 *
 * A warp's earliest issue cycle is the latest of its constraints, each
 * with a stall reason; on a tie the first of this order names the stall:
 * barrier (or the cycle after its release), asynchronous wait,
 * scoreboard, unit busy, memory port (throttle).  A scheduler that
 * issues nothing reports the reason of its warp that could issue
 * soonest (the first in round-robin order on a tie); one with no live
 * warp is idle.
 *
 * A warp's cached next instruction (peek) only changes when the warp
 * steps or a barrier releases it, so it is peeked once per change; a
 * release (an event, from inside another warp's step) only marks it
 * stale, so the host is never re-entered from a callback.
 */
#include "config.h"

#include "timing/simple/simple.h"

/* A warp that keeps stepping without running an instruction is a host
 * bug; stop instead of spinning. */
#define SIMPLE_MAX_NOSTEP 1024u

void simple_warp_exited(Simple *s, SimpleWarp *w, uint64_t now)
{
    (void)s;
    if (w->exited) {
        return;
    }
    w->exited = true;
    w->at_barrier = false;
    w->next = NULL;
    w->peeked = true;
    w->cta->nexited++;
    if (now > w->cta->last_exit) {
        w->cta->last_exit = now;
    }
}

void simple_warp_refresh(Simple *s, SimpleWarp *w)
{
    w->peeked = true;
    if (w->exited) {
        return;
    }
    uint32_t active = 0, exec = 0;
    w->next = s->api->warp_peek(s->h, w->h, &active, &exec);
    w->exec = exec;
    if (w->next) {
        w->at_barrier = false;
        uint64_t a = simple_sb_ready(&w->sb, w->next->src, w->next->nsrc);
        uint64_t b = simple_sb_ready(&w->sb, w->next->dst, w->next->ndst);
        w->sb_ready = a > b ? a : b;
        return;
    }
    int st = s->api->warp_state(s->h, w->h);
    if (st == PTXEMU_TM_WARP_EXITED) {
        simple_warp_exited(s, w, s->kern->now);
    } else {
        /* READY without an instruction: a step settles its stack. */
        w->at_barrier = st == PTXEMU_TM_WARP_BARRIER;
    }
}

static bool waits_for_warp(unsigned wait)
{
    return wait == PTXEMU_TM_WAIT_ASYNC_GROUP ||
           wait == PTXEMU_TM_WAIT_BULK_GROUP || wait == PTXEMU_TM_WAIT_WGMMA ||
           wait == PTXEMU_TM_WAIT_TCGEN05;
}

static void later(uint64_t *t, SimpleStall *why, uint64_t v, SimpleStall r)
{
    if (v > *t) {
        *t = v;
        *why = r;
    }
}

/* The earliest cycle w could issue (SIMPLE_NEVER: only an event helps). */
static uint64_t ready_at(Simple *s, SimpleSm *sm, SimpleSched *sc,
                         SimpleWarp *w, SimpleStall *why)
{
    if (!w->peeked) {
        simple_warp_refresh(s, w);
    }
    *why = SIMPLE_STALL_BARRIER;
    if (w->exited || w->at_barrier) {
        return SIMPLE_NEVER;
    }
    uint64_t t = w->not_before;
    const ptxemu_tm_insn *in = w->next;
    if (!in) {
        return t;
    }
    if (waits_for_warp(in->wait)) {
        later(&t, why, w->async_done, SIMPLE_STALL_ASYNC);
    } else if (in->wait == PTXEMU_TM_WAIT_MBARRIER) {
        later(&t, why, w->cta->async_done, SIMPLE_STALL_ASYNC);
    }
    later(&t, why, w->sb_ready, SIMPLE_STALL_SCOREBOARD);
    later(&t, why, sc->unit_free[simple_unit(in)], SIMPLE_STALL_UNIT);
    if (simple_needs_port(in)) {
        later(&t, why, sm->port_free, SIMPLE_STALL_THROTTLE);
    }
    return t;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Book the port for `transfer` cycles from now (or after its backlog, for
 * an access the static info did not announce). */
static void use_port(SimpleSm *sm, uint64_t now, uint64_t transfer)
{
    if (transfer) {
        sm->port_free = max64(sm->port_free, now) + transfer;
    }
}

static bool memory_unit(unsigned u)
{
    return u == PTXEMU_TM_UNIT_LDST || u == PTXEMU_TM_UNIT_TEX ||
           u == PTXEMU_TM_UNIT_ASYNC;
}

/* What an issued instruction costs: units, port, scoreboard, async. */
static int account(Simple *s, SimpleSm *sm, SimpleSched *sc, SimpleWarp *w,
                   const ptxemu_tm_step *st, uint64_t now)
{
    const SimpleConfig *c = &s->c;
    unsigned u = simple_unit(st->insn);
    sc->unit_free[u] = now + c->ii[u];
    uint64_t lat = c->lat[u];
    SimpleMemCost m;
    if (simple_mem_cost(c, st, false, &s->scratch, &m) != 0) {
        return -1;
    }
    if (m.any) {
        lat = memory_unit(u) ? m.latency : max64(lat, m.latency);
        use_port(sm, now, m.transfer);
    }
    uint64_t ready = now + lat;
    if (simple_sb_write(&w->sb, st->insn->dst, st->insn->ndst, ready, now)) {
        return -1;
    }
    if (st->insn->ndst || m.any) { /* a result, or a memory access */
        w->drain = max64(w->drain, ready);
    }
    if (st->async_token) {
        if (simple_mem_cost(c, st, true, &s->scratch, &m) != 0) {
            return -1;
        }
        uint64_t alat = c->lat[u];
        if (m.any) {
            alat = u == PTXEMU_TM_UNIT_TENSOR ? max64(alat, m.latency)
                                              : m.latency;
            use_port(sm, now, m.transfer);
        }
        uint64_t done = now + alat;
        w->async_done = max64(w->async_done, done);
        w->cta->async_done = max64(w->cta->async_done, done);
    }
    return 0;
}

static int popcount32(uint32_t v)
{
    return __builtin_popcount(v);
}

static int issue(Simple *s, SimpleSm *sm, SimpleSched *sc, SimpleWarp *w,
                 uint64_t now)
{
    ptxemu_tm_step st = {0};
    st.struct_size = sizeof st;
    w->peeked = false;
    int rc = s->api->warp_step(s->h, w->h, &st);
    if (rc < 0) {
        return rc;
    }
    sm->issued++;
    s->st_issued++;
    s->st_thread_insns += (uint64_t)popcount32(st.exec);
    if (st.insn) {
        w->nostep = 0;
        if (account(s, sm, sc, w, &st, now) != 0) {
            s->api->error(s->h, "simple: out of memory");
            return PTXEMU_TM_ERROR;
        }
    } else if (++w->nostep > SIMPLE_MAX_NOSTEP) {
        s->api->error(s->h, "simple: a warp keeps stepping without "
                            "running an instruction");
        return PTXEMU_TM_ERROR;
    }
    /* Known at once (not at the next peek), so that a release in a later
     * step finds the warp waiting. */
    int state = s->api->warp_state(s->h, w->h);
    if (state == PTXEMU_TM_WARP_EXITED) {
        simple_warp_exited(s, w, now);
    } else if (state == PTXEMU_TM_WARP_BARRIER) {
        w->at_barrier = true;
        w->next = NULL;
        w->peeked = true;
    }
    return 0;
}

SimpleSched *simple_sched_of(const Simple *s, const SimpleWarp *w)
{
    return &s->sm[w->cta->sm]->sched[w->slot % s->c.schedulers];
}

void simple_sched_poke(const Simple *s, const SimpleWarp *w)
{
    simple_sched_of(s, w)->wake = 0;
}

void simple_sched_poke_all(Simple *s)
{
    for (uint32_t i = 0; i < s->nsms; i++) {
        for (uint64_t k = 0; k < s->c.schedulers; k++) {
            s->sm[i]->sched[k].wake = 0;
        }
    }
}

int simple_sched_cycle(Simple *s, SimpleSm *sm, uint32_t k, uint64_t now,
                       int *issued, SimpleStall *why, uint64_t *wake)
{
    SimpleSched *sc = &sm->sched[k];
    *issued = 0;
    if (now < sc->wake) { /* nothing of it can be ready yet */
        *why = sc->why;
        *wake = sc->wake;
        return 0;
    }
    *why = SIMPLE_STALL_IDLE;
    *wake = SIMPLE_NEVER;
    sc->wake = 0;
    /* Round robin: from the first occupied slot after the one it issued
     * last, wrapping around. */
    const uint32_t m = sc->nws;
    uint32_t j0 = 0;
    if (sc->last != UINT32_MAX) {
        while (j0 < m && sc->ws[j0] <= sc->last) {
            j0++;
        }
    }
    bool seen = false;
    for (uint32_t step = 0, j = j0; step < m; step++, j++) {
        if (j == m) {
            j = 0;
        }
        SimpleWarp *w = sm->slots.slot[sc->ws[j]];
        if (w->exited || w->cta->kern != s->kern) {
            continue; /* a parent grid's warps wait for its child */
        }
        SimpleStall r;
        uint64_t t = ready_at(s, sm, sc, w, &r);
        if (w->exited) { /* found out by the refresh */
            continue;
        }
        if (t <= now) {
            sc->last = sc->ws[j];
            *issued = 1;
            return issue(s, sm, sc, w, now);
        }
        if (!seen || t < *wake) {
            *wake = t;
            *why = r;
            seen = true;
        }
    }
    sc->wake = *wake;
    sc->why = *why;
    return 0;
}
