/*
 * timing/gpu/mem/hier.c: the `hier` memory system (GpuMemOps, gpu_mem.h):
 * the components of timing/gpu/mem/ wired together (hier.h says what
 * is where), advanced in time order across four clock domains.
 *
 * Agents.  The work is done by agents, each in one clock domain: per SM
 * one (its caches' replies to the SM and misses to the request network,
 * the pieces of a split request still to enter its L1), the request and
 * the reply network (deliveries, then arbitration), per partition an L2
 * agent (misses to DRAM, replies to the reply network) and a DRAM agent
 * (fills, then the channel's command).  An agent is run only at a cycle
 * where its components' next() says there is something to do; a
 * winner tree over the agents ordered by (time, agent index) says which
 * runs next (each agent has one time, so a change replays one path of
 * log2(agents) matches: no stale entries, no heap to sift).
 * Time is integer femtoseconds (a cycle of a domain at f MHz lasts
 * round(10^9 / f) fs), so domains advance in a fixed order: at equal
 * times, the core, then the interconnect, the L2, the DRAM (agent index
 * order), which makes every run reproducible on any host.  Crossing a
 * domain, a message enters the next component at that domain's first
 * cycle edge at or after the current time.
 *
 * After an agent runs, it and every agent it handed something to are
 * rescheduled at their next(); an agent runs at most once per cycle of
 * its domain (work that arrives after it ran waits for its next cycle),
 * and a component that refused something is retried on the next cycle.
 */
#include "timing/gpu/mem/hier.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/panic.h"
#include "timing/gpu/mem/partition.h"

typedef enum AgentKind { AG_SM = 0, AG_REQ, AG_REP, AG_L2, AG_DRAM } AgentKind;

/* A node of the agents' winner tree: an agent and its time (the
 * agent's sched, kept beside it so a match reads no agent). */
typedef struct TNode {
    uint64_t t;
    uint32_t id;
} TNode;

typedef struct Agent {
    uint8_t kind, dom;
    uint32_t idx;               /* SM or partition */
    uint64_t sched;             /* fs; MEM_NEVER: not scheduled */
    uint64_t last;              /* last cycle run + 1 */
} Agent;

/* The last request an SM's first level refused for want of room (no
 * MSHR, a full queue, pieces still to enter), at generation `gen` of
 * the SM's state: offered again before anything changed, it would be
 * refused again, so it is without the lookup (only the counter moves,
 * as the lookup would have moved it). */
typedef struct Memo {
    uint64_t gen, addr;
    Cache *resfail;             /* the cache whose lookup counted a
                                   reservation failure, or NULL */
    uint8_t sectors, kind, flags;
} Memo;

/* One request of the SM's: its pieces still out. */
typedef struct Slot {
    uint64_t cookie;
    uint64_t sent;              /* the core cycle it was taken */
    uint32_t sm, left, next_free;
    uint8_t unit;
} Slot;

/* Per first level (MemUnit): the SMs' requests it answered and their
 * latencies summed (taken to answered, core cycles). */
typedef struct ReqStats {
    uint64_t requests, latency;
} ReqStats;

typedef struct Sm {
    uint64_t gen;               /* bumped whenever its state may change
                                   (changed()) */
    Memo memo[MEM_UNIT_COUNT];
    int8_t refused;             /* the unit whose memo refused the last
                                   send, -1: none */
    bool sleeping;              /* the sender waits for GPU_MEM_RETRY */
    int8_t sleep_unit;          /* the memo of its refused request (the
                                   SM's fetches are offered meanwhile) */
    Cache *c[MEM_UNIT_DIRECT];  /* l1d NULL without one */
    MemQ direct;                /* no L1: waiting for the network */
    Tlb *tlb;                   /* NULL: no TLB */
    MemQ tlbq;                  /* held back by a TLB miss */
    MemQ walkq;                 /* waiting for a page walk through memory,
                                   in order (tlb.walk_levels) */
    bool walking;               /* the walk of walkq's head is under way */
    bool walk_send;             /* walk_msg waits for the network */
    uint32_t walk_level;        /* the page-table level being read */
    uint64_t walk_sent;         /* core cycle walk_msg was issued */
    MemMsg walk_msg;
    MemMsg pend[4];             /* pieces of a split request */
    uint32_t npend;
    uint8_t pend_unit;
    bool blocked;               /* the request network refused: wait for a
                                   grant of this SM's (crossbar) */
    bool pend_blocked;          /* the L1 refused a piece: wait for a
                                   reply to come back */
    CacheStats l1d_st;
} Sm;

typedef struct Hier {
    GpuMemDone done;
    void *ctx;
    HierCfg cfg;
    uint32_t nsms;
    uint32_t resets;            /* GpuMemKernel.resets last seen */
    uint64_t period[DOM_COUNT]; /* fs */
    Sm *sm;
    Part *part;
    Xbar *req, *rep;
    CacheStats st_l1[MEM_UNIT_DIRECT], st_l2, st_l3ci, st_l2ci;
    Cache **tpc;                /* per TPC (mem.tpc_ci), or NULL */
    uint32_t ntpc;
    CacheStats *st_l2p;         /* per partition (st_l2: their sum) */
    ReqStats st_req_unit[MEM_UNIT_COUNT];
    uint64_t st_direct_bytes, st_walk_bytes;
    TlbStats st_tlb;
    DramStats st_dram;
    DramStats *st_dramp;        /* per partition (st_dram: their sum) */
    uint64_t dram_peak;         /* channels x DRAM cycles elapsed */
    XbarStats st_req, st_rep;
    Agent *ag;
    uint32_t nag;
    TNode *tree;                /* the winner tree: node k (1 <= k <
                                   nleaf) holds the winner of 2k and
                                   2k + 1, leaf nleaf + i agent i (or
                                   nag, a never-scheduled pad) */
    uint32_t nleaf;             /* a power of two >= nag */
    uint32_t *touched;
    uint32_t ntouched;
    uint8_t *istouched;
    uint8_t *req_blocked;       /* by partition: its L2 refused the
                                   request network's head */
    Slot *slot;
    uint32_t nslot, free_slot;
    uint64_t now_t;             /* fs: events up to here are done */
} Hier;

#define NO_SLOT UINT32_MAX

static uint32_t id_sm(const Hier *H, uint32_t s)
{
    (void)H;
    return s;
}
static uint32_t id_req(const Hier *H) { return H->nsms; }
static uint32_t id_rep(const Hier *H) { return H->nsms + 1; }
static uint32_t id_l2(const Hier *H, uint32_t p) { return H->nsms + 2 + p; }
static uint32_t id_dram(const Hier *H, uint32_t p)
{
    return H->nsms + 2 + H->cfg.parts + p;
}

/* ---------------------------------------------------------- the queue */

/* Does a run before b: earlier, or at the same time and lower in the
 * fixed order (hier.c's head)? */
static bool runs_before(const TNode *a, const TNode *b)
{
    return a->t < b->t || (a->t == b->t && a->id < b->id);
}

/* Agent id's time went up (it runs): replay its matches up to the
 * root. */
static void tree_update(Hier *H, uint32_t id)
{
    TNode *t = H->tree;
    uint32_t k = H->nleaf + id;
    t[k].t = H->ag[id].sched;
    for (k /= 2; k >= 1; k /= 2) {
        const TNode *l = &t[2 * k], *r = &t[2 * k + 1];
        t[k] = runs_before(l, r) ? *l : *r;
    }
}

/* Agent id's time went down (wake): it takes over the nodes it now
 * wins, from its leaf up; where it loses, every node above keeps its
 * winner (most wakes are not the next to run: a level or two). */
static void tree_lower(Hier *H, uint32_t id)
{
    TNode *t = H->tree;
    const TNode e = {H->ag[id].sched, id};
    uint32_t k = H->nleaf + id;
    t[k] = e;
    for (k /= 2; k >= 1; k /= 2) {
        if (t[k].id != id && !runs_before(&e, &t[k])) {
            break;
        }
        t[k] = e;
    }
}

/* The agent that runs next and its time (MEM_NEVER: none). */
static const TNode *tree_top(const Hier *H)
{
    return &H->tree[1];
}

/* The cycle of domain d at or after the current time. */
static uint64_t cyc(const Hier *H, int d)
{
    return (H->now_t + H->period[d] - 1) / H->period[d];
}

/* Does unit u's L1 send its misses to its TPC's shared cache? */
static bool via_tpc(const Hier *H, int u)
{
    return H->tpc && (u == MEM_UNIT_L1C || u == MEM_UNIT_L1I);
}

static uint64_t agent_next(const Hier *H, uint32_t id)
{
    const Agent *a = &H->ag[id];
    switch (a->kind) {
    case AG_SM: {
        const Sm *S = &H->sm[a->idx];
        uint64_t t = S->blocked ? MEM_NEVER : memq_next(&S->direct);
        for (int u = 0; u < MEM_UNIT_DIRECT; u++) {
            if (S->c[u]) {
                t = mem_min(t, S->blocked && !via_tpc(H, u)
                                   ? cache_up_next(S->c[u])
                                   : cache_next(S->c[u]));
            }
        }
        if (H->tpc && a->idx % H->cfg.icnt_group == 0) {
            const Cache *c = H->tpc[a->idx / H->cfg.icnt_group];
            t = mem_min(t, S->blocked ? cache_up_next(c) : cache_next(c));
        }
        if (!S->npend) {
            t = mem_min(t, memq_next(&S->tlbq));
            if (!S->walking) {
                t = mem_min(t, memq_next(&S->walkq));
            }
        }
        if (S->walk_send && !S->blocked) {
            t = mem_min(t, a->last);
        }
        return S->npend && !S->pend_blocked ? mem_min(t, a->last) : t;
    }
    case AG_REQ:
        return xbar_next_skip(H->req, H->req_blocked);
    case AG_REP:
        return xbar_next(H->rep);
    case AG_L2:
        return part_l2_next(&H->part[a->idx]);
    case AG_DRAM:
    default:
        return part_dram_next(&H->part[a->idx]);
    }
}

/* Schedule agent id at its next cycle: never before the current time,
 * never twice in one of its cycles. */
static void wake(Hier *H, uint32_t id)
{
    Agent *a = &H->ag[id];
    uint64_t n = agent_next(H, id);
    if (n == MEM_NEVER) {
        return;
    }
    uint64_t p = H->period[a->dom];
    if (n < a->last) {
        n = a->last;
    }
    uint64_t t = n * p;
    if (t < H->now_t) {
        t = cyc(H, a->dom) * p;
        if (t / p < a->last) {
            t = a->last * p;
        }
    }
    if (t < a->sched) {
        a->sched = t;
        tree_lower(H, id);
    }
}

static void touch(Hier *H, uint32_t id)
{
    if (!H->istouched[id]) {
        H->istouched[id] = 1;
        H->touched[H->ntouched++] = id;
    }
}

/* SM s's state may have changed: its memos are void, and a sender
 * told that its refusal was sticky (hier_sticky) may offer again. */
static void changed(Hier *H, uint32_t s)
{
    Sm *S = &H->sm[s];
    S->gen++;
    if (S->sleeping) {
        /* (asleep still: the sender may report the offers it did not
         * make before it is told) */
        H->done(H->ctx, s, GPU_MEM_RETRY, cyc(H, DOM_CORE));
        S->sleeping = false;
    }
}

/* ------------------------------------------------------------ replies */

static void slot_free(Hier *H, uint32_t k)
{
    H->slot[k].next_free = H->free_slot;
    H->free_slot = k;
}

static uint32_t slot_alloc(Hier *H)
{
    if (H->free_slot == NO_SLOT) {
        uint32_t n = H->nslot ? H->nslot * 2 : 256;
        Slot *s = realloc(H->slot, n * sizeof *s);
        if (!s) {
            return NO_SLOT;
        }
        H->slot = s;
        for (uint32_t k = n; k-- > H->nslot;) {
            H->slot[k].next_free = H->free_slot;
            H->free_slot = k;
        }
        H->nslot = n;
    }
    uint32_t k = H->free_slot;
    H->free_slot = H->slot[k].next_free;
    return k;
}

/* A piece of request m->tag is back at the SM at core cycle now. */
static void deliver(Hier *H, const MemMsg *m, uint64_t now)
{
    EMU_ASSERT(m->tag < H->nslot);
    Slot *s = &H->slot[m->tag];
    EMU_ASSERT(s->left > 0);
    if (--s->left == 0) {
        /* counted when answered, with their latency: per interval,
         * latency / requests is the mean of those answered in it */
        H->st_req_unit[s->unit].requests++;
        H->st_req_unit[s->unit].latency += now - s->sent;
        H->done(H->ctx, s->sm, s->cookie, now);
        slot_free(H, m->tag);
    }
}

static uint32_t req_bytes(const Hier *H, const MemMsg *m)
{
    bool data = m->kind == GPU_MEM_WRITE || m->kind == GPU_MEM_ATOMIC;
    return H->cfg.ctrl_bytes +
           (data ? mem_sector_count(m->sectors) * GPU_SECTOR : 0);
}

static uint32_t rep_bytes(const Hier *H, const MemMsg *m)
{
    bool data = m->kind != GPU_MEM_WRITE;
    return H->cfg.ctrl_bytes +
           (data ? mem_sector_count(m->sectors) * GPU_SECTOR : 0);
}

/* ------------------------------------------------------------- agents */

/* How enter() went. */
typedef enum Entered {
    ENTERED = 0,
    REFUSED_ROOM,       /* until the SM's state changes (Memo) */
    REFUSED_RES,        /* the same, and the cache counted a resfail */
    REFUSED_BANK,       /* a busy bank: free next cycle */
} Entered;

/* Request m (its slot allocated, left = 1) enters its SM's first level
 * at now: the direct queue, or the L1 (split into the pieces of its
 * lines; the first must be taken, the others wait in pend).  Refused:
 * nothing changed. */
static Entered enter(Hier *H, Sm *S, const MemMsg *m, uint64_t now)
{
    if (m->unit == MEM_UNIT_DIRECT) {
        if (memq_full(&S->direct)) {
            return REFUSED_ROOM;
        }
        memq_push(&S->direct, m, now);
        return ENTERED;
    }
    if (S->npend) {
        return REFUSED_ROOM;
    }
    Cache *c = S->c[m->unit];
    MemMsg piece[4];
    uint32_t n = cache_cfg(c)->line >= GPU_LINE
                     ? (piece[0] = *m, 1)
                     : cache_line_split(m, cache_cfg(c)->line, piece);
    CacheOutcome o = cache_access(c, &piece[0], now);
    if (o >= CACHE_FAIL_BANK) {
        return o == CACHE_FAIL_BANK ? REFUSED_BANK : REFUSED_RES;
    }
    H->slot[m->tag].left = n;
    S->npend = n - 1;
    S->pend_unit = m->unit;
    memcpy(S->pend, &piece[1], (n - 1) * sizeof piece[0]);
    return ENTERED;
}

/* Requests whose translation is done enter their first level, in
 * order. */
static void run_tlbq(Hier *H, Sm *S, uint64_t now)
{
    const MemMsg *m;
    while ((m = memq_peek(&S->tlbq, now)) &&
           enter(H, S, m, now) == ENTERED) {
        memq_pop(&S->tlbq);
    }
}

/* Offer m from SM s to the request network, to its partition (found
 * here: a write-back's line is not the request's that caused it). */
static bool to_icnt(Hier *H, uint32_t s, const MemMsg *m)
{
    MemMsg x = *m;
    x.part = (uint16_t)addrmap_part(&H->cfg.map, x.addr);
    if (!xbar_push(H->req, s, x.part, &x, req_bytes(H, &x),
                   cyc(H, DOM_ICNT))) {
        /* a crossbar says when this source has room (a grant); the ideal
         * network's room is its outputs': try again next cycle */
        H->sm[s].blocked = H->cfg.icnt.kind == XBAR_CROSSBAR;
        return false;
    }
    touch(H, id_req(H));
    return true;
}

/* Read level S->walk_level's page-table entry of walkq's head: it
 * goes to the request network at the SM's next run. */
static void walk_read(Hier *H, Sm *S, uint32_t s, uint64_t now)
{
    const MemMsg *h = &S->walkq.it[S->walkq.head].m;
    uint64_t pte = tlb_pte(S->tlb, h->addr, S->walk_level);
    S->walk_msg = (MemMsg){.addr = pte & ~(uint64_t)(GPU_LINE - 1),
                           .sectors = (uint8_t)(1u << (pte % GPU_LINE /
                                                       GPU_SECTOR)),
                           .kind = GPU_MEM_READ, .unit = MEM_UNIT_WALK,
                           .sm = (uint16_t)s, .mshr = -1};
    S->walk_send = true;
    S->walk_sent = now;
    H->st_walk_bytes += GPU_SECTOR;
}

/* Requests waiting for a walk enter their first level in order once
 * their page is translated; the first whose page is not starts a walk
 * (the pages of those behind it may come with it). */
static void run_walkq(Hier *H, Sm *S, uint32_t s, uint64_t now)
{
    const MemMsg *m;
    while (!S->walking && (m = memq_peek(&S->walkq, now))) {
        if (!tlb_present(S->tlb, m->addr)) {
            S->walking = true;
            S->walk_level = 0;
            walk_read(H, S, s, now);
            return;
        }
        if (enter(H, S, m, now) != ENTERED) {
            return;
        }
        memq_pop(&S->walkq);
    }
}

/* A page-table read of SM s is back at core cycle now: read the next
 * level, or install the translation. */
static void walk_reply(Hier *H, uint32_t s, uint64_t now)
{
    Sm *S = &H->sm[s];
    EMU_ASSERT(S->walking && S->walkq.n);
    H->st_req_unit[MEM_UNIT_WALK].requests++;
    H->st_req_unit[MEM_UNIT_WALK].latency += now - S->walk_sent;
    if (++S->walk_level < H->cfg.tlb.walk_levels) {
        walk_read(H, S, s, now);
    } else {
        tlb_fill(S->tlb, S->walkq.it[S->walkq.head].m.addr);
        S->walking = false;
    }
    changed(H, s);
    touch(H, id_sm(H, s));
}

/* The TPC of SM s (its first SM, whose agent runs the TPC's cache):
 * replies up into the L1s that asked, misses to the network through
 * s's port, marked to come back to this cache. */
static void run_tpc(Hier *H, uint32_t s, uint64_t now)
{
    Cache *c = H->tpc[s / H->cfg.icnt_group];
    const MemMsg *m;
    while ((m = cache_up_peek(c, now))) {
        Sm *D = &H->sm[m->sm];
        cache_fill(D->c[m->unit], m, now);
        changed(H, m->sm);
        D->pend_blocked = false;
        touch(H, id_sm(H, m->sm));
        cache_up_pop(c);
    }
    while (!H->sm[s].blocked && (m = cache_down_peek(c, now))) {
        MemMsg x = *m;
        x.flags |= MEM_F_TPC;
        if (!to_icnt(H, s, &x)) {
            break;
        }
        cache_down_pop(c);
    }
}

static void run_sm(Hier *H, uint32_t s, uint64_t now)
{
    Sm *S = &H->sm[s];
    const MemMsg *m;
    changed(H, s);
    for (int u = 0; u < MEM_UNIT_DIRECT; u++) {
        Cache *c = S->c[u];
        if (!c) {
            continue;
        }
        while ((m = cache_up_peek(c, now))) {
            deliver(H, m, now);
            cache_up_pop(c);
        }
        while ((m = cache_down_peek(c, now))) {
            if (via_tpc(H, u)) {
                uint32_t t = s / H->cfg.icnt_group;
                if (cache_access(H->tpc[t], m, now) >= CACHE_FAIL_BANK) {
                    break;
                }
                touch(H, id_sm(H, t * H->cfg.icnt_group));
            } else if (S->blocked || !to_icnt(H, s, m)) {
                break;
            }
            cache_down_pop(c);
        }
    }
    if (H->tpc && s % H->cfg.icnt_group == 0) {
        run_tpc(H, s, now);
    }
    run_walkq(H, S, s, now);
    if (S->walk_send && !S->blocked && to_icnt(H, s, &S->walk_msg)) {
        S->walk_send = false;
    }
    while (!S->blocked && (m = memq_peek(&S->direct, now)) &&
           to_icnt(H, s, m)) {
        memq_pop(&S->direct);
    }
    S->pend_blocked = false;
    while (S->npend) {
        CacheOutcome o = cache_access(S->c[S->pend_unit], &S->pend[0], now);
        if (o >= CACHE_FAIL_BANK) {
            /* a busy bank frees next cycle; a reservation when something
             * comes back or leaves */
            S->pend_blocked = o == CACHE_FAIL_RES;
            break;
        }
        memmove(&S->pend[0], &S->pend[1], --S->npend * sizeof S->pend[0]);
    }
    run_tlbq(H, S, now);
}

/* Wake the SMs whose sources the network granted (room in their input
 * buffers). */
static void unblock_sources(Hier *H)
{
    const uint32_t *src;
    uint32_t n = xbar_granted(H->req, &src);
    for (uint32_t k = 0; k < n; k++) {
        if (H->sm[src[k]].blocked) {
            H->sm[src[k]].blocked = false;
            touch(H, id_sm(H, src[k]));
        }
    }
}

static void run_req(Hier *H, uint64_t now)
{
    const MemMsg *m;
    for (uint32_t p = 0; p < H->cfg.parts; p++) {
        if (H->req_blocked[p]) {
            continue;
        }
        while ((m = xbar_peek(H->req, p, now))) {
            CacheOutcome o = part_accept(&H->part[p], m, cyc(H, DOM_L2),
                                         cyc(H, DOM_DRAM));
            if (o >= CACHE_FAIL_BANK) {
                /* no room in the slice: its L2 or DRAM agent says when
                 * (a busy bank: next cycle) */
                H->req_blocked[p] = o == CACHE_FAIL_RES;
                break;
            }
            xbar_pop(H->req, p);
            touch(H, id_l2(H, p));
            touch(H, id_dram(H, p));    /* a request that bypassed */
        }
    }
    xbar_tick(H->req, now);
    unblock_sources(H);
}

/* Partition p's slice may have room again: let the network retry. */
static void unblock_part(Hier *H, uint32_t p)
{
    if (H->req_blocked[p]) {
        H->req_blocked[p] = 0;
        touch(H, id_req(H));
    }
}

static void run_rep(Hier *H, uint64_t now)
{
    const MemMsg *m;
    for (uint32_t s = xbar_next_out(H->rep, 0); s != UINT32_MAX;
         s = xbar_next_out(H->rep, s + 1)) {
        while ((m = xbar_peek(H->rep, s, now))) {
            if (m->unit == MEM_UNIT_DIRECT) {
                deliver(H, m, cyc(H, DOM_CORE));
            } else if (m->unit == MEM_UNIT_WALK) {
                walk_reply(H, s, cyc(H, DOM_CORE));
            } else if (m->flags & MEM_F_TPC) {
                uint32_t t = s / H->cfg.icnt_group;
                cache_fill(H->tpc[t], m, cyc(H, DOM_CORE));
                touch(H, id_sm(H, t * H->cfg.icnt_group));
            } else {
                cache_fill(H->sm[s].c[m->unit], m, cyc(H, DOM_CORE));
                changed(H, s);
                H->sm[s].pend_blocked = false;
                touch(H, id_sm(H, s));
            }
            xbar_pop(H->rep, s);
        }
    }
    xbar_tick(H->rep, now);
    const uint32_t *src;
    uint32_t n = xbar_granted(H->rep, &src);
    for (uint32_t k = 0; k < n; k++) {
        if (H->part[src[k]].out_blocked) {
            H->part[src[k]].out_blocked = false;
            touch(H, id_l2(H, src[k]));
        }
    }
}

static void run_l2(Hier *H, uint32_t p, uint64_t now)
{
    Part *P = &H->part[p];
    if (part_l2_tick(P, now, cyc(H, DOM_DRAM))) {
        touch(H, id_dram(H, p));
    }
    const MemMsg *m;
    while ((m = part_out_peek(P, now))) {
        if (!xbar_push(H->rep, p, m->sm, m, rep_bytes(H, m),
                       cyc(H, DOM_ICNT))) {
            P->out_blocked = H->cfg.icnt.kind == XBAR_CROSSBAR;
            break;
        }
        part_out_pop(P);
        touch(H, id_rep(H));
    }
    unblock_part(H, p);
}

static void run(Hier *H, uint32_t id, uint64_t now)
{
    Agent *a = &H->ag[id];
    switch (a->kind) {
    case AG_SM:
        run_sm(H, a->idx, now);
        break;
    case AG_REQ:
        run_req(H, now);
        break;
    case AG_REP:
        run_rep(H, now);
        break;
    case AG_L2:
        run_l2(H, a->idx, now);
        break;
    case AG_DRAM:
        part_dram_tick(&H->part[a->idx], now, cyc(H, DOM_L2));
        touch(H, id_l2(H, a->idx));
        unblock_part(H, a->idx);
        break;
    }
}

static void hier_advance(void *m, uint64_t now)
{
    Hier *H = m;
    uint64_t end = now * H->period[DOM_CORE];
    for (;;) {
        uint32_t id = tree_top(H)->id;
        Agent *a = &H->ag[id];
        if (a->sched > end) {   /* (MEM_NEVER: nothing scheduled) */
            break;
        }
        H->now_t = a->sched;
        /* unscheduled before it runs: what it does may wake others
         * (and, through the SMs' callbacks, send), each into a tree
         * that is right */
        a->sched = MEM_NEVER;
        tree_update(H, id);
        uint64_t c = H->now_t / H->period[a->dom];
        run(H, id, c);
        a->last = c + 1;
        wake(H, id);
        for (uint32_t k = 0; k < H->ntouched; k++) {
            uint32_t t = H->touched[k];
            H->istouched[t] = 0;
            wake(H, t);
        }
        H->ntouched = 0;
    }
    if (H->now_t < end) {
        H->now_t = end;
    }
    H->dram_peak = cyc(H, DOM_DRAM) * H->cfg.parts;
}

static uint64_t hier_next(const void *m)
{
    const Hier *H = m;
    uint64_t t = tree_top(H)->t;
    if (t == MEM_NEVER) {
        return GPU_NEVER;
    }
    uint64_t p = H->period[DOM_CORE];
    return (t + p - 1) / p;
}

/* ------------------------------------------------------------ sending */

_Static_assert(GPU_HINT_L1_EVICT_FIRST << 2 == MEM_F_EVICT_FIRST &&
                   GPU_HINT_L1_NO_ALLOC << 2 == MEM_F_NO_ALLOC &&
                   GPU_HINT_L2_EVICT_FIRST << 2 == MEM_F_NEXT_EVICT_FIRST &&
                   GPU_HINT_L2_NO_ALLOC << 2 == MEM_F_NEXT_NO_ALLOC,
               "hint bits shift into message flags");

static MemUnit unit_of(const Hier *H, const GpuMemReq *r)
{
    if (r->kind == GPU_MEM_FETCH) {
        return MEM_UNIT_L1I;
    }
    switch (r->space) {
    case PTXEMU_TM_SPACE_CONST:
    case PTXEMU_TM_SPACE_PARAM:
        return MEM_UNIT_L1C;
    case PTXEMU_TM_SPACE_TEX:
        return MEM_UNIT_L1T;
    default:
        return H->cfg.l1d_on ? MEM_UNIT_L1D : MEM_UNIT_DIRECT;
    }
}

/* The sectors [addr, addr + size) touches in its 128-byte line. */
static uint8_t sectors_of(const GpuMemReq *r)
{
    if (r->sectors & 0xF) {
        return (uint8_t)(r->sectors & 0xF);
    }
    uint32_t off = (uint32_t)(r->addr % GPU_LINE);
    uint32_t end = off + (r->size ? r->size : 1);
    if (end > GPU_LINE) {
        end = GPU_LINE;
    }
    uint8_t s = 0;
    for (uint32_t k = off / GPU_SECTOR; k * GPU_SECTOR < end; k++) {
        s |= (uint8_t)(1u << k);
    }
    return s;
}

static bool hier_send(void *mm, const GpuMemReq *r, uint64_t now)
{
    Hier *H = mm;
    EMU_ASSERT(r->sm < H->nsms && r->kind < GPU_MEM_KIND_COUNT);
    Sm *S = &H->sm[r->sm];
    MemUnit u = unit_of(H, r);
    S->refused = -1;
    /* the cache operator's hints: the L1's for the L1 (none without
     * one), the L2's for the level below it */
    uint8_t hint = u == MEM_UNIT_L1D ? r->hint
                   : u == MEM_UNIT_DIRECT
                       ? r->hint & (GPU_HINT_L2_EVICT_FIRST |
                                    GPU_HINT_L2_NO_ALLOC)
                       : 0;
    MemMsg m = {.addr = r->addr & ~(uint64_t)(GPU_LINE - 1),
                .sectors = sectors_of(r),
                .kind = r->kind == GPU_MEM_FETCH ? GPU_MEM_READ : r->kind,
                .unit = (uint8_t)u, .sm = (uint16_t)r->sm, .mshr = -1,
                /* GPU_HINT_L1_* -> MEM_F_*, GPU_HINT_L2_* -> MEM_F_NEXT_* */
                .flags = (uint8_t)(hint << 2)};
    bool translate = S->tlb && (u == MEM_UNIT_L1D || u == MEM_UNIT_DIRECT);
    if (translate && (memq_full(&S->tlbq) || memq_full(&S->walkq))) {
        return false;
    }
    uint32_t extra = 0;
    if (translate) {
        /* translated at the first offer: a refused request retried
         * later finds its page in the L1 TLB */
        extra = tlb_lookup(S->tlb, r->addr);
    }
    bool walk = extra == TLB_WALK;
    bool queue = translate && !walk && (extra || S->tlbq.n);
    /* the LSU offers a refused request again every cycle until it is
     * taken: answered from the memo while nothing changed */
    Memo *mo = &S->memo[u];
    if (!queue && !walk && mo->gen == S->gen && mo->addr == m.addr &&
        mo->sectors == m.sectors && mo->kind == m.kind &&
        mo->flags == m.flags) {
        if (mo->resfail) {
            cache_count_resfail(mo->resfail, 1);
        }
        S->refused = translate ? -1 : (int8_t)u; /* (a lookup each) */
        return false;
    }
    uint32_t k = slot_alloc(H);
    if (k == NO_SLOT) {
        return false;
    }
    m.tag = k;
    H->slot[k] = (Slot){.cookie = r->cookie, .sm = r->sm, .left = 1,
                        .sent = now, .unit = (uint8_t)u};
    if (walk) {
        memq_push(&S->walkq, &m, now);
    } else if (queue) {
        memq_push(&S->tlbq, &m, now + extra);
    } else {
        Entered e = enter(H, S, &m, now);
        if (e != ENTERED) {
            if (e != REFUSED_BANK) {
                *mo = (Memo){.gen = S->gen, .addr = m.addr,
                             .sectors = m.sectors, .kind = m.kind,
                             .flags = m.flags,
                             .resfail = e == REFUSED_RES ? S->c[u]
                                                         : NULL};
                S->refused = translate ? -1 : (int8_t)u;
            }
            slot_free(H, k);
            return false;
        }
    }
    changed(H, r->sm);
    if (u == MEM_UNIT_DIRECT) {
        H->st_direct_bytes += mem_sector_count(m.sectors) * GPU_SECTOR;
    }
    /* the SM's agent runs no earlier than the cycle of the request */
    Agent *a = &H->ag[id_sm(H, r->sm)];
    if (a->last < now) {
        a->last = now;
    }
    wake(H, id_sm(H, r->sm));
    return true;
}

/* The request send() just refused was refused from, or into, a memo
 * (without a translation, which each offer would repeat): until the
 * SM's state changes (changed()), offers of it are refused the same
 * way, only counted. */
static bool hier_sticky(void *m, uint32_t s)
{
    Hier *H = m;
    Sm *S = &H->sm[s];
    if (S->refused < 0 || S->memo[S->refused].gen != S->gen) {
        return false;
    }
    S->sleeping = true;
    S->sleep_unit = S->refused;
    return true;
}

static void hier_refused_again(void *m, uint32_t s, uint64_t n)
{
    Hier *H = m;
    Sm *S = &H->sm[s];
    EMU_ASSERT(S->sleeping && S->sleep_unit >= 0);
    if (S->memo[S->sleep_unit].resfail) {
        cache_count_resfail(S->memo[S->sleep_unit].resfail, n);
    }
}

/* ------------------------------------------------------ create/destroy */

static void hier_destroy(void *m)
{
    Hier *H = m;
    if (!H) {
        return;
    }
    for (uint32_t s = 0; H->sm && s < H->nsms; s++) {
        for (int u = 0; u < MEM_UNIT_DIRECT; u++) {
            cache_free(H->sm[s].c[u]);
        }
        memq_fini(&H->sm[s].direct);
        memq_fini(&H->sm[s].tlbq);
        memq_fini(&H->sm[s].walkq);
        tlb_free(H->sm[s].tlb);
    }
    for (uint32_t p = 0; H->part && p < H->cfg.parts; p++) {
        part_fini(&H->part[p]);
    }
    for (uint32_t t = 0; H->tpc && t < H->ntpc; t++) {
        cache_free(H->tpc[t]);
    }
    free(H->tpc);
    xbar_free(H->req);
    xbar_free(H->rep);
    free(H->sm);
    free(H->part);
    free(H->st_l2p);
    free(H->st_dramp);
    free(H->ag);
    free(H->tree);
    free(H->touched);
    free(H->istouched);
    free(H->req_blocked);
    free(H->slot);
    free(H);
}

/* The kernel's shared-memory capacity, bytes (hier.h): the smallest
 * of l1d.carveouts that holds `want` bytes, the largest when none does. */
static uint64_t carve_fit(const HierCfg *c, uint64_t want)
{
    uint64_t most = 0;
    for (uint32_t k = 0; k < c->ncarve; k++) {
        most = c->carve_kb[k] > most ? c->carve_kb[k] : most;
    }
    uint64_t pick = most * 1024;
    for (uint32_t k = 0; k < c->ncarve; k++) {
        uint64_t b = (uint64_t)c->carve_kb[k] * 1024;
        if (b >= want && b < pick) {
            pick = b;
        }
    }
    return pick;
}

/* The carve-out kernel k gets.  Without a preference (the kernel's
 * carveout attribute, else l1d.carveout) the driver "configures the
 * shared memory capacity for each kernel to avoid shared memory
 * occupancy bottlenecks" (CUDA Programming Guide, compute capability
 * 8.x, shared memory): the smallest capacity that holds the CTAs a full
 * SM has.  With one, the preferred share of the largest capacity rounded
 * up to a supported one, or the smallest that holds one CTA when that is
 * more ("a hint ... the driver can choose a different ratio if required
 * to execute the function"), as NVIDIA's occupancy calculator
 * (cuda_occupancy.h, cudaOccSMemPreferenceVoltaPlus and
 * cudaOccMaxBlocksPerSMSmemLimit) computes it; this limits how many CTAs
 * are resident. */
static uint64_t carve_pick(const HierCfg *c, const GpuMemKernel *k)
{
    int32_t pref = k->carveout >= 0 ? k->carveout : c->carve_pref;
    if (pref < 0) {
        return carve_fit(c, k->shared);
    }
    uint64_t most = carve_fit(c, UINT64_MAX);
    uint64_t want = most * (uint64_t)(pref > 100 ? 100 : pref) / 100;
    return carve_fit(c, want > k->cta_shared ? want : k->cta_shared);
}

/* The L1's shape beside `shared` bytes of shared memory: what is left
 * of the array (l1d.unified) in whole sets of l1d.ways ways when it is
 * a multiple of a set's bytes (ampere, hopper: sets follow the
 * carve-out), else the full array's sets with the ways that fit (volta:
 * 4 sets of 256 ways at 128 KB, Jia et al., keep 4 sets of 240 ways
 * beside 8 KB), so the L1 has the capacity NVIDIA documents for each
 * carve-out either way. */
static void carve_shape(const HierCfg *c, uint64_t shared, uint32_t *sets,
                        uint32_t *ways)
{
    const CacheCfg *l1 = &c->l1[MEM_UNIT_L1D];
    uint64_t set = (uint64_t)l1->ways * l1->line;
    uint64_t left = c->unified - shared;
    if (left % set == 0 || left < set) {
        *sets = left >= set ? (uint32_t)(left / set) : 1;
        *ways = l1->ways;
        return;
    }
    uint64_t full = c->unified / set;   /* the sets it was made with */
    uint64_t w = left / (full * l1->line);
    *sets = (uint32_t)full;
    *ways = w ? (uint32_t)w : 1;
}

/* The L2's persisting set-aside and access-policy window for kernel k
 * (cache.h's rules in each slice).  The set-aside is whole ways of
 * every set of every slice: persist_bytes over the bytes of one way
 * across the L2 (parts x sets x line), rounded down. */
static void l2_policy(Hier *H, const GpuMemKernel *k)
{
    const CacheCfg *l2 = &H->cfg.l2;
    uint64_t way = (uint64_t)H->cfg.parts * l2->sets * l2->line;
    uint64_t ways = way ? k->persist_bytes / way : 0;
    CacheWindow w = {0};
    if (k->apw_bytes) {
        double r = k->apw_hit_ratio < 0 ? 0 : k->apw_hit_ratio;
        w.base = k->apw_base;
        w.bytes = k->apw_bytes;
        w.hit_below = r >= 1.0 ? 1ull << 32 : (uint64_t)(r * 4294967296.0);
        w.hit_prop = k->apw_hit_prop;
        w.miss_prop = k->apw_miss_prop;
        /* global and local data and texture reads: global memory */
        w.units = 1u << MEM_UNIT_L1D | 1u << MEM_UNIT_DIRECT |
                  1u << MEM_UNIT_L1T;
    }
    for (uint32_t p = 0; p < H->cfg.parts; p++) {
        Cache *c = H->part[p].l2;
        if (k->resets != H->resets) {
            cache_reset_persist(c);
        }
        cache_set_persist_ways(c, ways > UINT32_MAX ? UINT32_MAX
                                                    : (uint32_t)ways);
        cache_set_window(c, &w);
    }
    H->resets = k->resets;
}

static uint64_t hier_kernel_begin(void *m, uint64_t now,
                                  const GpuMemKernel *k)
{
    Hier *H = m;
    (void)now;
    l2_policy(H, k);
    bool carve = H->cfg.unified && H->cfg.l1d_on;
    uint64_t shared = carve ? carve_pick(&H->cfg, k) : GPU_NEVER;
    uint32_t sets = 0, ways = 0;
    if (carve) {
        carve_shape(&H->cfg, shared, &sets, &ways);
    }
    for (uint32_t t = 0; H->tpc && t < H->ntpc; t++) {
        cache_invalidate(H->tpc[t]);
    }
    for (uint32_t s = 0; s < H->nsms; s++) {
        Cache *l1 = H->sm[s].c[MEM_UNIT_L1D];
        if (sets && cache_idle(l1)) {
            /* a cache with something in flight keeps its size */
            cache_set_shape(l1, sets, ways);
        }
        changed(H, s);
        for (int u = 0; u < MEM_UNIT_DIRECT; u++) {
            if (H->sm[s].c[u]) {
                cache_invalidate(H->sm[s].c[u]);
            }
        }
    }
    return shared;
}

/* ---- statistics ---- */

static const struct {
    const char *name, *help;
    size_t off;
} cache_ctr[] = {
    {"bytes", "32 per sector of each access taken (bandwidth over cycles)",
     offsetof(CacheStats, bytes)},
    {"access", "accesses accepted", offsetof(CacheStats, access)},
    {"hit", "hits", offsetof(CacheStats, hit)},
    {"miss", "misses (line absent)", offsetof(CacheStats, miss)},
    {"sector_miss", "line present, a sector missing",
     offsetof(CacheStats, sector_miss)},
    {"mshr_merge", "merged into a miss in flight",
     offsetof(CacheStats, mshr_merge)},
    {"resfail", "refused: no MSHR, queue or way free",
     offsetof(CacheStats, resfail)},
    {"bank_conflict", "refused: bank busy this cycle",
     offsetof(CacheStats, bank_conflict)},
    {"writeback", "dirty lines written back", offsetof(CacheStats, writeback)},
};

static const struct {
    const char *name, *help;
    size_t off;
} dram_ctr[] = {
    {"reads", "read requests", offsetof(DramStats, reads)},
    {"writes", "write requests", offsetof(DramStats, writes)},
    {"row_hit", "requests to an open row", offsetof(DramStats, row_hit)},
    {"row_miss", "requests to a closed bank", offsetof(DramStats, row_miss)},
    {"row_conflict", "requests to another open row",
     offsetof(DramStats, row_conflict)},
    {"act", "ACT commands", offsetof(DramStats, act)},
    {"pre", "PRE commands", offsetof(DramStats, pre)},
    {"ref", "REF commands", offsetof(DramStats, ref)},
    {"rd", "RD commands", offsetof(DramStats, rd)},
    {"wr", "WR commands", offsetof(DramStats, wr)},
    {"data_cycles", "DRAM cycles the data buses were busy (bandwidth used)",
     offsetof(DramStats, data_cycles)},
    {"refused", "requests refused: queue full", offsetof(DramStats, refused)},
    {"queue_sum", "queued requests summed over scheduling cycles",
     offsetof(DramStats, queue_sum)},
    {"bytes", "bytes moved on the data bus (burst bytes per column "
              "command)", offsetof(DramStats, bytes)},
};

static const struct {
    const char *name, *help;
    size_t off;
} bank_ctr[] = {
    {"act", "ACT commands to the bank", offsetof(DramBankStats, act)},
    {"row_hit", "requests that found their row open",
     offsetof(DramBankStats, row_hit)},
    {"row_miss", "requests that found the bank closed",
     offsetof(DramBankStats, row_miss)},
    {"row_conflict", "requests that found another row open",
     offsetof(DramBankStats, row_conflict)},
};

static const struct {
    const char *name, *help;
    size_t off;
} xbar_ctr[] = {
    {"packets", "packets delivered", offsetof(XbarStats, packets)},
    {"flits", "flits delivered", offsetof(XbarStats, flits)},
    {"conflicts", "heads that lost an arbitration",
     offsetof(XbarStats, conflicts)},
    {"stalls", "outputs blocked by a full buffer", offsetof(XbarStats, stalls)},
    {"refused", "pushes refused: input buffer full",
     offsetof(XbarStats, refused)},
};

#define NCTR(t) (sizeof(t) / sizeof((t)[0]))

static int reg(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
               const char *prefix, const char *name, const void *base,
               size_t off, const char *help)
{
    char path[128];
    snprintf(path, sizeof path, "%s.%s", prefix, name);
    return api->stat(h, path, (const uint64_t *)((const char *)base + off),
                     help);
}

/* A cache's counters under prefix (write-backs only for write-back
 * caches). */
static int reg_cache(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                     const char *prefix, const CacheStats *st, bool wb)
{
    int rc = 0;
    for (size_t k = 0; k < NCTR(cache_ctr); k++) {
        if (wb || cache_ctr[k].off != offsetof(CacheStats, writeback)) {
            rc |= reg(api, h, prefix, cache_ctr[k].name, st,
                      cache_ctr[k].off, cache_ctr[k].help);
        }
    }
    return rc;
}

static int reg_dram(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                    const char *prefix, const DramStats *st)
{
    int rc = 0;
    for (size_t k = 0; k < NCTR(dram_ctr); k++) {
        rc |= reg(api, h, prefix, dram_ctr[k].name, st, dram_ctr[k].off,
                  dram_ctr[k].help);
    }
    return rc;
}

static int register_stats(Hier *H, const ptxemu_tm_host_api *api,
                          ptxemu_tm_host *h)
{
    char prefix[96];
    int rc = 0;
    static const char *const name[MEM_UNIT_COUNT] = {
        [MEM_UNIT_L1D] = "mem.l1d", [MEM_UNIT_L1C] = "mem.l1c",
        [MEM_UNIT_L1T] = "mem.l1t", [MEM_UNIT_L1I] = "mem.l1i",
        [MEM_UNIT_DIRECT] = "mem.direct", [MEM_UNIT_WALK] = "mem.walk",
    };
    for (uint32_t s = 0; H->cfg.l1d_on && s < H->nsms; s++) {
        snprintf(prefix, sizeof prefix, "mem.l1d.sm%u", s);
        rc |= reg_cache(api, h, prefix, &H->sm[s].l1d_st, false);
    }
    for (int u = 0; u < MEM_UNIT_COUNT; u++) {
        if (u == MEM_UNIT_L1D ? !H->cfg.l1d_on
            : u == MEM_UNIT_DIRECT ? H->cfg.l1d_on
            : u == MEM_UNIT_WALK && !(H->cfg.tlb_on &&
                                      H->cfg.tlb.walk_levels)) {
            continue;
        }
        if (u == MEM_UNIT_DIRECT) {
            rc |= api->stat(h, "mem.direct.bytes", &H->st_direct_bytes,
                            "32 per sector of each request sent without "
                            "an L1");
        } else if (u == MEM_UNIT_WALK) {
            rc |= api->stat(h, "mem.walk.bytes", &H->st_walk_bytes,
                            "32 per page-table read of the TLB walkers");
        } else {
            rc |= reg_cache(api, h, name[u], &H->st_l1[u], false);
        }
        rc |= reg(api, h, name[u], "requests", &H->st_req_unit[u],
                  offsetof(ReqStats, requests), "the SMs' requests answered");
        rc |= reg(api, h, name[u], "latency", &H->st_req_unit[u],
                  offsetof(ReqStats, latency),
                  "their latencies summed, taken to answered (core "
                  "cycles): over requests, the mean latency");
    }
    rc |= reg_cache(api, h, "mem.l2", &H->st_l2, true);
    if (H->cfg.ci_on) {
        rc |= reg_cache(api, h, "mem.l3ci", &H->st_l3ci, false);
    }
    if (H->tpc) {
        rc |= reg_cache(api, h, "mem.l2ci", &H->st_l2ci, false);
    }
    for (uint32_t p = 0; p < H->cfg.parts; p++) {
        snprintf(prefix, sizeof prefix, "mem.l2.p%u", p);
        rc |= reg_cache(api, h, prefix, &H->st_l2p[p], true);
        snprintf(prefix, sizeof prefix, "mem.dram.p%u", p);
        rc |= reg_dram(api, h, prefix, &H->st_dramp[p]);
        const DramBankStats *b =
            H->part[p].dops->bank_stats(H->part[p].dram);
        uint32_t nb = H->cfg.dram.ranks * H->cfg.dram.banks;
        for (uint32_t k = 0; b && H->cfg.bank_stats && k < nb; k++) {
            snprintf(prefix, sizeof prefix, "mem.dram.p%u.bank%u", p, k);
            for (size_t j = 0; j < NCTR(bank_ctr); j++) {
                rc |= reg(api, h, prefix, bank_ctr[j].name, &b[k],
                          bank_ctr[j].off, bank_ctr[j].help);
            }
        }
    }
    static const struct {
        const char *name, *help;
        size_t off;
    } tlb_ctr[] = {
        {"l1_hit", "translations found in the first level",
         offsetof(TlbStats, l1_hit)},
        {"l2_hit", "translations found in the second level",
         offsetof(TlbStats, l2_hit)},
        {"miss", "translations found in neither level",
         offsetof(TlbStats, miss)},
        {"walks", "page walks through memory (tlb.walk_levels)",
         offsetof(TlbStats, walks)},
    };
    for (size_t k = 0; H->cfg.tlb_on && k < NCTR(tlb_ctr); k++) {
        rc |= reg(api, h, "mem.tlb", tlb_ctr[k].name, &H->st_tlb,
                  tlb_ctr[k].off, tlb_ctr[k].help);
    }
    rc |= reg_dram(api, h, "mem.dram", &H->st_dram);
    rc |= api->stat(h, "mem.dram.peak_cycles", &H->dram_peak,
                    "channels x DRAM cycles elapsed: data_cycles / "
                    "peak_cycles is the bandwidth used of the peak");
    for (size_t k = 0; k < NCTR(xbar_ctr); k++) {
        rc |= reg(api, h, "mem.icnt.req", xbar_ctr[k].name, &H->st_req,
                  xbar_ctr[k].off, xbar_ctr[k].help);
        rc |= reg(api, h, "mem.icnt.reply", xbar_ctr[k].name, &H->st_rep,
                  xbar_ctr[k].off, xbar_ctr[k].help);
    }
    return rc;
}

static bool fail(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                 const char *what, const char *err)
{
    char msg[256];
    snprintf(msg, sizeof msg, "%s: %s", what, err[0] ? err : "out of memory");
    api->error(h, msg);
    return false;
}

static bool build(Hier *H, const ptxemu_tm_host_api *api, ptxemu_tm_host *h)
{
    const HierCfg *c = &H->cfg;
    char err[160] = "";
    static const char *const l1name[MEM_UNIT_DIRECT] = {"l1d", "l1c", "l1t",
                                                        "l1i"};
    H->sm = calloc(H->nsms, sizeof *H->sm);
    H->part = calloc(c->parts, sizeof *H->part);
    H->st_l2p = calloc(c->parts, sizeof *H->st_l2p);
    H->st_dramp = calloc(c->parts, sizeof *H->st_dramp);
    if (!H->sm || !H->part || !H->st_l2p || !H->st_dramp) {
        return fail(api, h, "mem", err);
    }
    for (uint32_t s = 0; s < H->nsms; s++) {
        Sm *S = &H->sm[s];
        if (memq_init(&S->direct, c->direct_q) ||
            memq_init(&S->tlbq, c->tlb_q) || memq_init(&S->walkq, c->tlb_q)) {
            return fail(api, h, "mem", err);
        }
        if (c->tlb_on &&
            !(S->tlb = tlb_new(&c->tlb, &H->st_tlb, err, sizeof err))) {
            return fail(api, h, "tlb", err);
        }
        for (int u = 0; u < MEM_UNIT_DIRECT; u++) {
            if (u == MEM_UNIT_L1D && !c->l1d_on) {
                continue;
            }
            CacheStats *st = u == MEM_UNIT_L1D ? &S->l1d_st : &H->st_l1[u];
            CacheCfg cc = c->l1[u];
            uint64_t way = (uint64_t)cc.ways * cc.line;
            if (u == MEM_UNIT_L1D && c->unified && way) {
                /* room for the largest L1 the carve-out allows */
                cc.sets = (uint32_t)(c->unified / way);
                cc.sets = cc.sets ? cc.sets : 1;
            }
            if (!(S->c[u] = cache_new(&cc, st, err, sizeof err))) {
                return fail(api, h, l1name[u], err);
            }
            if (u == MEM_UNIT_L1D) {
                cache_set_sum(S->c[u], &H->st_l1[u]);
            }
        }
    }
    if (c->tpc_ci) {
        H->ntpc = (H->nsms + c->icnt_group - 1) / c->icnt_group;
        if (!(H->tpc = calloc(H->ntpc, sizeof *H->tpc))) {
            return fail(api, h, "mem", err);
        }
        for (uint32_t t = 0; t < H->ntpc; t++) {
            if (!(H->tpc[t] = cache_new(&c->l2ci, &H->st_l2ci, err,
                                        sizeof err))) {
                return fail(api, h, "l2ci", err);
            }
        }
    }
    /* the slices in the partitions index by the address inside theirs */
    CacheCfg l2c = c->l2, l3c = c->l3ci;
    l2c.idx_parts = l3c.idx_parts = c->map.parts;
    l2c.idx_gran = l3c.idx_gran = c->map.gran;
    for (uint32_t p = 0; p < c->parts; p++) {
        Cache *l2 = cache_new(&l2c, &H->st_l2p[p], err, sizeof err);
        if (!l2) {
            return fail(api, h, "l2", err);
        }
        cache_set_sum(l2, &H->st_l2);
        const DramOps *dm = c->dram_model;
        void *d = dm->make(&c->dram, &H->st_dramp[p], err, sizeof err);
        if (!d) {
            cache_free(l2);
            return fail(api, h, "dram", err);
        }
        dm->set_sum(d, &H->st_dram);
        Cache *ci = NULL;
        if (c->ci_on &&
            !(ci = cache_new(&l3c, &H->st_l3ci, err, sizeof err))) {
            cache_free(l2);
            dm->free(d);
            return fail(api, h, "l3ci", err);
        }
        uint32_t outq = c->l2.outq + c->l2.mshrs * c->l2.merge;
        if (ci) {
            outq += c->l3ci.outq + c->l3ci.mshrs * c->l3ci.merge;
        }
        if (part_init(&H->part[p], l2, dm, d, &H->cfg.map, H->cfg.l2_bypass,
                      c->atom_lat, outq)) {
            cache_free(ci);
            return fail(api, h, "mem", err);
        }
        part_set_ci(&H->part[p], ci);
    }
    XbarCfg x = c->icnt;
    uint32_t *req_x = NULL, *rep_x = NULL;
    if (c->icnt_hop) {
        req_x = calloc((size_t)H->nsms * c->parts, sizeof *req_x);
        rep_x = calloc((size_t)H->nsms * c->parts, sizeof *rep_x);
        if (!req_x || !rep_x) {
            free(req_x);
            free(rep_x);
            return fail(api, h, "icnt", err);
        }
        uint32_t ports = (H->nsms + c->icnt_group - 1) / c->icnt_group;
        for (uint32_t s = 0; s < H->nsms; s++) {
            for (uint32_t p = 0; p < c->parts; p++) {
                uint64_t g = s / c->icnt_group;
                uint64_t at = (uint64_t)p * ports / c->parts;
                uint64_t d = g > at ? g - at : at - g;
                uint32_t e = (uint32_t)(d * c->icnt_hop);
                req_x[(size_t)s * c->parts + p] = e;
                rep_x[(size_t)p * H->nsms + s] = e;
            }
        }
    }
    x.nsrc = H->nsms;
    x.ndst = c->parts;
    x.extra = req_x;
    H->req = xbar_new(&x, &H->st_req, err, sizeof err);
    x.nsrc = c->parts;
    x.ndst = H->nsms;
    x.extra = rep_x;
    H->rep = H->req ? xbar_new(&x, &H->st_rep, err, sizeof err) : NULL;
    free(req_x);
    free(rep_x);
    if (!H->req || !H->rep) {
        return fail(api, h, "icnt", err);
    }
    H->nag = H->nsms + 2 + 2 * c->parts;
    H->ag = calloc(H->nag, sizeof *H->ag);
    H->nleaf = 1;
    while (H->nleaf < H->nag) {
        H->nleaf *= 2;
    }
    H->tree = calloc(2 * (size_t)H->nleaf, sizeof *H->tree);
    H->touched = calloc(H->nag, sizeof *H->touched);
    H->istouched = calloc(H->nag, 1);
    H->req_blocked = calloc(c->parts, 1);
    if (!H->ag || !H->tree || !H->touched || !H->istouched ||
        !H->req_blocked) {
        return fail(api, h, "mem", err);
    }
    for (uint32_t i = 0; i < H->nleaf; i++) {
        H->tree[H->nleaf + i] = (TNode){MEM_NEVER, i < H->nag ? i : H->nag};
    }
    for (uint32_t k = H->nleaf; k-- > 1;) {
        H->tree[k] = H->tree[2 * k];    /* all MEM_NEVER: the left */
    }
    for (uint32_t i = 0; i < H->nag; i++) {
        Agent *a = &H->ag[i];
        a->sched = MEM_NEVER;
        if (i < H->nsms) {
            *a = (Agent){AG_SM, DOM_CORE, i, MEM_NEVER, 0};
        } else if (i == id_req(H)) {
            *a = (Agent){AG_REQ, DOM_ICNT, 0, MEM_NEVER, 0};
        } else if (i == id_rep(H)) {
            *a = (Agent){AG_REP, DOM_ICNT, 0, MEM_NEVER, 0};
        } else if (i < id_dram(H, 0)) {
            *a = (Agent){AG_L2, DOM_L2, i - id_l2(H, 0), MEM_NEVER, 0};
        } else {
            *a = (Agent){AG_DRAM, DOM_DRAM, i - id_dram(H, 0), MEM_NEVER, 0};
        }
    }
    H->free_slot = NO_SLOT;
    return true;
}

static void *hier_create(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                         uint32_t nsms, double core_mhz, GpuMemDone done,
                         void *ctx)
{
    if (!nsms || nsms > 65535) {
        api->error(h, "mem: the device must have 1 to 65535 SMs");
        return NULL;
    }
    Hier *H = calloc(1, sizeof *H);
    if (!H) {
        api->error(h, "mem: out of memory");
        return NULL;
    }
    H->done = done;
    H->ctx = ctx;
    H->nsms = nsms;
    if (hier_declare(api, h) || hier_read(api, h, core_mhz, &H->cfg)) {
        free(H);
        return NULL;
    }
    for (int d = 0; d < DOM_COUNT; d++) {
        H->period[d] = (uint64_t)llround(1e9 / H->cfg.mhz[d]);
    }
    if (!build(H, api, h) || register_stats(H, api, h)) {
        hier_destroy(H);
        return NULL;
    }
    return H;
}

const GpuMemOps gpu_mem_hier = {
    .name = "hier",
    .help = "caches per SM, crossbar, L2 slices, atomic units and DRAM "
            "channels, each in its own clock domain",
    .create = hier_create,
    .destroy = hier_destroy,
    .kernel_begin = hier_kernel_begin,
    .send = hier_send,
    .advance = hier_advance,
    .next = hier_next,
    .sticky = hier_sticky,
    .refused_again = hier_refused_again,
};
