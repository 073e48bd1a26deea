/*
 * timing/gpu/lsu.c: the load/store unit (gpu.h).
 *
 * Shared memory (and another cluster CTA's) never leaves the SM: an
 * instruction's accesses take gpu_smem_wavefronts passes through the
 * SM's MIO pipe, one a cycle, from when the pipe is free; its result is
 * ready smem.latency cycles after its last pass began (AFR section
 * 4.1.1: conflicting accesses are replayed).  Global, local, constant,
 * parameter (a constant bank) and texture accesses are coalesced per
 * space and kind by the generation's rule (coalesce.h) into requests of
 * one 128-byte line each, queued per SM in issue order and sent
 * lsu.txn_per_cycle a cycle; a refused request is offered again the next
 * cycle and holds those behind it.  An instruction's results are ready
 * when its last reply is back (constant accesses of N distinct words
 * take N - 1 more cycles: the constant cache serialises them, CUDA C++
 * Programming Guide, "Constant Memory").  Local addresses are made
 * distinct per warp and interleaved per lane, as the hardware lays
 * local memory out so that the same variable of a warp's threads
 * coalesces (CUDA C++ Best Practices Guide, "Local Memory").
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "timing/gpu/gpu.h"


static bool async_kind(unsigned k)
{
    return k == PTXEMU_TM_ASYNC_READ || k == PTXEMU_TM_ASYNC_WRITE;
}

/* The memory request kind of an access kind. */
static uint8_t req_kind(unsigned k)
{
    switch (k) {
    case PTXEMU_TM_WRITE:
    case PTXEMU_TM_ASYNC_WRITE:
        return GPU_MEM_WRITE;
    case PTXEMU_TM_ATOMIC:
        return GPU_MEM_ATOMIC;
    default:
        return GPU_MEM_READ;
    }
}

/* Parameters live in a constant bank. */
static unsigned req_space(unsigned sp)
{
    return sp == PTXEMU_TM_SPACE_PARAM ? PTXEMU_TM_SPACE_CONST : sp;
}

/* The step's accesses of one space (after req_space) and request kind,
 * async or not, into sm->acc; local ones moved to the warp's own
 * interleaved region.  How many, or -1 when out of memory. */
static int64_t gather(const Gpu *g, GpuSm *sm, const GpuWarp *w,
                      const ptxemu_tm_step *st,
                      unsigned space, uint8_t kind, bool async)
{
    size_t n = 0;
    for (uint32_t i = 0; i < st->nacc; i++) {
        const ptxemu_tm_access *a = &st->acc[i];
        if (req_space(a->space) != space || async_kind(a->kind) != async ||
            (kind != 0xff && req_kind(a->kind) != kind) || a->size == 0) {
            continue;
        }
        if (n == sm->acccap) {
            size_t cap = sm->acccap ? sm->acccap * 2 : 64;
            ptxemu_tm_access *na = realloc(sm->acc, cap * sizeof *na);
            if (!na) {
                return -1;
            }
            sm->acc = na;
            sm->acccap = cap;
        }
        ptxemu_tm_access x = *a;
        if (space == PTXEMU_TM_SPACE_LOCAL) {
            uint64_t span = (uint64_t)g->kern->k.local_per_thread;
            span = (span < 1024 ? 1024 : span) * GPU_WARP_SIZE;
            x.addr = GPU_LOCAL_BASE + w->age * span +
                     ((a->addr / a->size) * GPU_WARP_SIZE + a->lane % 32) *
                         a->size;
            x.space = PTXEMU_TM_SPACE_GLOBAL;
        }
        sm->acc[n++] = x;
    }
    return (int64_t)n;
}

/* Which (space after req_space, request kind) pairs the step's accesses
 * (async or not) use: bit space * 4 + kind; gather is asked only for
 * those (a memory step touches one or two of the 14 it could).  One
 * pair for every access of the step (the usual load or store): the
 * step's own array is what gather would copy, but for local ones
 * (PRESENT_ALL set). */
#define PRESENT_ALL (1u << 31)

static uint32_t present(const ptxemu_tm_step *st, bool async)
{
    uint32_t m = 0;
    bool all = true;
    for (uint32_t i = 0; i < st->nacc; i++) {
        const ptxemu_tm_access *a = &st->acc[i];
        if (async_kind(a->kind) != async || a->size == 0) {
            all = false;
            continue;
        }
        unsigned sp = req_space(a->space);
        if (sp >= 8) { /* (none such) */
            return UINT32_MAX & ~PRESENT_ALL; /* gather decides */
        }
        m |= 1u << (sp * 4 + req_kind(a->kind));
    }
    return all && m && !(m & (m - 1)) ? m | PRESENT_ALL : m;
}

/* The step's accesses of one pair (gather's), from the step's own array
 * where present() says they are all of it. */
static int64_t accesses(const Gpu *g, GpuSm *sm, const GpuWarp *w,
                        const ptxemu_tm_step *st, unsigned space,
                        uint8_t kind, bool async, uint32_t mask,
                        const ptxemu_tm_access **acc)
{
    if ((mask & PRESENT_ALL) && space != PTXEMU_TM_SPACE_LOCAL) {
        *acc = st->acc;
        return st->nacc;
    }
    int64_t n = gather(g, sm, w, st, space, kind, async);
    *acc = sm->acc; /* (after gather, which may move it) */
    return n;
}

#define PRESENT(m, sp, kind) (((m) >> ((sp) * 4 + (kind))) & 1u)

static int add_reqs(Gpu *g, GpuLsuOp *op, GpuSm *sm, unsigned space,
                    uint8_t kind, uint8_t hint,
                    const ptxemu_tm_access *acc, uint32_t nacc)
{
    size_t nt = gpu_coalesce(g->c.coalesce, acc, nacc, &sm->txn,
                             &sm->txncap);
    if (nt == (size_t)-1) {
        return -1;
    }
    if (op->nreq + nt > op->cap) {
        uint32_t cap = (uint32_t)(op->nreq + nt) * 2;
        GpuMemReq *r = realloc(op->req, cap * sizeof *r);
        if (!r) {
            return -1;
        }
        op->req = r;
        op->cap = cap;
    }
    for (size_t i = 0; i < nt; i++) {
        GpuMemReq *r = &op->req[op->nreq++];
        memset(r, 0, sizeof *r);
        r->addr = sm->txn[i].addr;
        r->size = sm->txn[i].size;
        r->sectors = sm->txn[i].sectors;
        r->kind = kind;
        r->space = (uint8_t)(space == PTXEMU_TM_SPACE_LOCAL
                                 ? PTXEMU_TM_SPACE_LOCAL : space);
        r->sm = sm->id;
        r->hint = hint;
        r->cookie = (uint64_t)(uintptr_t)op;
    }
    sm->st.txn += nt;
    return 0;
}

static const unsigned lsu_spaces[] = {
    PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_SPACE_LOCAL, PTXEMU_TM_SPACE_CONST,
    PTXEMU_TM_SPACE_TEX};
static const uint8_t lsu_kinds[] = {GPU_MEM_READ, GPU_MEM_WRITE,
                                    GPU_MEM_ATOMIC};

/* Requests for the step's accesses (async or not) into op. */
static int build(Gpu *g, GpuSm *sm, GpuWarp *w, const ptxemu_tm_step *st,
                 bool async, uint32_t mask, GpuLsuOp *op)
{
    /* the cache operator (.cs, .cg ...) of a global or local access */
    uint8_t hint = gpu_cache_hint(st->insn ? st->insn->text : NULL);
    for (size_t s = 0; s < sizeof lsu_spaces / sizeof lsu_spaces[0]; s++) {
        for (size_t k = 0; k < sizeof lsu_kinds / sizeof lsu_kinds[0]; k++) {
            if (!PRESENT(mask, lsu_spaces[s], lsu_kinds[k])) {
                continue;
            }
            const ptxemu_tm_access *acc;
            int64_t n = accesses(g, sm, w, st, lsu_spaces[s], lsu_kinds[k],
                                 async, mask, &acc);
            uint8_t h = lsu_spaces[s] == PTXEMU_TM_SPACE_GLOBAL ||
                                lsu_spaces[s] == PTXEMU_TM_SPACE_LOCAL
                            ? hint
                            : 0;
            if (n < 0 || (n > 0 && add_reqs(g, op, sm, lsu_spaces[s],
                                            lsu_kinds[k], h, acc,
                                            (uint32_t)n))) {
                return -1;
            }
            if (n > 0 && lsu_spaces[s] == PTXEMU_TM_SPACE_CONST &&
                lsu_kinds[k] == GPU_MEM_READ) {
                uint32_t p = gpu_const_passes(g->c.banks.group, acc,
                                              (uint32_t)n);
                op->extra += p > 1 ? p - 1 : 0;
            }
        }
    }
    return 0;
}

/* The MIO pipe's time for the step's shared accesses: the cycle its
 * results are ready (0: none). */
static int mio(Gpu *g, GpuSm *sm, const ptxemu_tm_step *st, bool async,
               uint32_t mask, uint64_t now, uint64_t *ready)
{
    *ready = 0;
    uint64_t lat = 0, passes = 0;
    static const unsigned sp[] = {PTXEMU_TM_SPACE_SHARED,
                                  PTXEMU_TM_SPACE_SHARED_CLUSTER};
    for (int i = 0; i < 2; i++) {
        if (!((mask >> (sp[i] * 4)) & 0xfu)) {
            continue; /* (any kind) */
        }
        const ptxemu_tm_access *acc;
        int64_t n = accesses(g, sm, NULL, st, sp[i], 0xff, async, mask,
                             &acc);
        if (n < 0) {
            return -1;
        }
        if (n > 0) {
            passes += gpu_smem_wavefronts(&g->c.banks, acc, (uint32_t)n);
            lat = gpu_max(lat, i ? g->c.dsmem_latency : g->c.smem_latency);
        }
    }
    if (passes == 0) {
        return 0;
    }
    uint64_t start = gpu_max(now, sm->mio_free);
    sm->mio_free = start + passes;
    gpu_sm_changed(sm);
    sm->st.wavefronts += passes;
    *ready = start + passes - 1 + lat;
    return 0;
}

static GpuLsuOp *op_new(GpuSm *sm, GpuWarp *w)
{
    GpuLsuOp *op = calloc(1, sizeof *op);
    if (!op) {
        return NULL;
    }
    op->w = w;
    op->sm = sm;
    op->hold = sm->hold_tag;
    op->next_all = sm->ops_all;
    if (sm->ops_all) {
        sm->ops_all->prev_all = op;
    }
    sm->ops_all = op;
    return op;
}

static void op_free(GpuLsuOp *op)
{
    if (op->prev_all) {
        op->prev_all->next_all = op->next_all;
    } else {
        op->sm->ops_all = op->next_all;
    }
    if (op->next_all) {
        op->next_all->prev_all = op->prev_all;
    }
    free(op->req);
    free(op);
}

static void enqueue(GpuSm *sm, GpuLsuOp *op)
{
    op->queued = true;
    op->next = NULL;
    if (sm->qtail) {
        sm->qtail->next = op;
    } else {
        sm->qhead = op;
    }
    sm->qtail = op;
    sm->qlen++;
    gpu_sm_changed(sm);
}

/* One kind of the step's accesses (sync or async) as an op; NULL with
 * *rc 0 when there are none. */
static GpuLsuOp *make_op(Gpu *g, GpuSm *sm, GpuWarp *w,
                         const ptxemu_tm_step *st, bool async,
                         uint32_t mask, int *rc)
{
    *rc = 0;
    if (!mask) {
        return NULL; /* (none of this kind) */
    }
    GpuLsuOp *op = op_new(sm, w);
    if (!op || build(g, sm, w, st, async, mask, op) != 0) {
        *rc = -1;
    }
    if (*rc != 0 || op->nreq == 0) {
        if (op) {
            op_free(op);
        }
        return NULL;
    }
    enqueue(sm, op);
    return op;
}

int gpu_lsu_issue(Gpu *g, GpuSm *sm, GpuWarp *w, const ptxemu_tm_step *st,
                  uint64_t now, uint64_t *ready, GpuSbKind *kind,
                  uint64_t *tag)
{
    *ready = 0;
    *kind = GPU_SB_SHORT;
    *tag = 0;
    if (st->nacc == 0) {
        return 0;
    }
    uint64_t sh;
    uint32_t mask = present(st, false);
    if (mio(g, sm, st, false, mask, now, &sh) != 0) {
        return -1;
    }
    *ready = sh;
    int rc;
    GpuLsuOp *op = make_op(g, sm, w, st, false, mask, &rc);
    if (rc != 0) {
        return -1;
    }
    if (op) {
        w->mem_out++;
        op->done = sh;
        op->tag = ++sm->next_tag;
        *tag = op->tag;
        *ready = GPU_NEVER;
        *kind = GPU_SB_LONG;
    }
    if (!st->async_token) {
        return 0;
    }
    /* The asynchronous part completes the token. */
    uint64_t ash;
    uint32_t amask = present(st, true);
    if (mio(g, sm, st, true, amask, now, &ash) != 0) {
        return -1;
    }
    GpuLsuOp *aop = make_op(g, sm, w, st, true, amask, &rc);
    if (rc != 0) {
        return -1;
    }
    if (!aop) {
        bool any = false;
        for (uint32_t i = 0; i < st->nacc && !any; i++) {
            any = async_kind(st->acc[i].kind);
        }
        return any ? gpu_token_start(g, st->async_token, gpu_max(ash, now + 1))
                   : 0;
    }
    w->async_out++;
    aop->done = ash;
    aop->token = st->async_token;
    return gpu_token_start(g, st->async_token, GPU_NEVER);
}

bool gpu_lsu_cycle(Gpu *g, GpuSm *sm, uint64_t now)
{
    uint64_t budget = g->c.lsu_txn_per_cycle;
    bool popped = false;
    if (sm->lsu_sleep) {
        /* (the offer it would make now, refused as the last was, is
         * reported by gpu_sm_settle) */
        return true;
    }
    while (budget && sm->qhead && !sm->qhead->hold) {
        GpuLsuOp *op = sm->qhead;
        while (budget && op->nsent < op->nreq) {
            if (!g->c.mem->send(g->mem, &op->req[op->nsent], now)) {
                sm->lsu_sleep = g->c.mem->sticky &&
                                g->c.mem->sticky(g->mem, sm->id);
                if (sm->lsu_sleep) {
                    sm->rf_from = now + 1; /* (this refusal: counted) */
                }
                budget = 0;
                break;
            }
            op->nsent++;
            op->pending++;
            budget--;
        }
        if (op->nsent < op->nreq) {
            break;
        }
        sm->qhead = op->next;
        if (!sm->qhead) {
            sm->qtail = NULL;
        }
        sm->qlen--;
        op->queued = false;
        popped = true;
    }
    if (popped) {
        gpu_poke_sm(g, sm->id); /* lg_throttle may be over */
    }
    return sm->qhead != NULL;
}

static void complete(Gpu *g, GpuLsuOp *op, uint64_t cycle)
{
    GpuWarp *w = op->w;
    uint64_t t = gpu_max(op->done, cycle) + op->extra;
    if (w) {
        gpu_warp_touch(w);
        if (op->token) {
            w->async_out--;
        } else {
            w->mem_out--;
            gpu_sb_release(&w->sb, op->tag, t);
        }
        w->drain = gpu_max(w->drain, t);
        gpu_poke(g, w);
    }
    if (op->token) {
        gpu_token_done(g, op->token, t);
    }
    op_free(op);
}

void gpu_mem_done(void *ctx, uint32_t sm, uint64_t cookie, uint64_t cycle)
{
    Gpu *g = ctx;
    if (cookie == GPU_MEM_RETRY) { /* offer the refused request again */
        /* The offers it did not make, up to this cycle's, which it made
         * at the start of its visit when that is under way (a request
         * of its own taken: hier's changed()), else would make. */
        GpuSm *s = g->sm[sm];
        if (g->kern) {
            const uint64_t t = g->kern->now;
            gpu_lsu_settle(g, s, s->visit_t == t ? t + 1 : t);
        }
        s->lsu_sleep = false;
        s->look = 0;
        return;
    }
    if (cookie & 1u) {
        gpu_fetch_reply(g, (GpuWarp *)(uintptr_t)(cookie & ~(uint64_t)1),
                        cycle);
        return;
    }
    GpuLsuOp *op = (GpuLsuOp *)(uintptr_t)cookie;
    op->pending--;
    op->done = gpu_max(op->done, cycle);
    if (op->pending == 0 && op->nsent == op->nreq) {
        complete(g, op, cycle);
    }
}

void gpu_lsu_orphan(Gpu *g, bool all)
{
    for (uint32_t i = 0; i < g->nsms; i++) {
        GpuSm *sm = g->sm[i];
        sm->qhead = sm->qtail = NULL;
        sm->qlen = 0;
        sm->lsu_sleep = false;
        sm->qgen++;
        gpu_sm_changed(sm);
    }
    for (uint32_t i = 0; i < g->nsms; i++) {
        GpuLsuOp *op = g->sm[i]->ops_all;
        while (op) {
            GpuLsuOp *next = op->next_all;
            if (op->w && (all || op->w->cta->kern == g->kern)) {
                op->w = NULL;
                op->token = 0;
            }
            op->nreq = op->nsent; /* what is not sent never will be */
            if (op->pending == 0) {
                op_free(op);
            }
            op = next;
        }
    }
}

void gpu_lsu_free_all(Gpu *g)
{
    for (uint32_t i = 0; i < g->nsms; i++) {
        while (g->sm[i]->ops_all) {
            op_free(g->sm[i]->ops_all);
        }
    }
}
