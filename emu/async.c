/*
 * emu/async.c: asynchronous-operation channels and their tokens (see
 * emu/async.h).  One table per launch (EmuLaunch.async, made on first
 * use), open addressing on (channel, id).
 */
#include <stdlib.h>
#include <string.h>

#include "emu/async.h"
#include "emu/exec.h"
#include "emu/insninfo.h"

typedef struct Chan {
    uint64_t key;                 /* 0: empty slot */
    uint64_t *tok;                /* outstanding tokens, oldest first */
    uint32_t n, cap;
    uint32_t *gend;               /* end index in tok of each committed
                                     group (MBAR: of the last completed
                                     phase, at most one) */
    uint32_t ng, gcap;
} Chan;

struct EmuAsync {
    Chan *c;
    uint32_t n, cap;              /* used slots, slots (a power of 2) */
    uint64_t next;                /* tokens made */
};

static uint64_t key_of(EmuAsyncChan ch, uint64_t id)
{
    return (uint64_t)ch << 56 | (id & ((1ull << 56) - 1));
}

static uint32_t hash(uint64_t k, uint32_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (uint32_t)k & (cap - 1);
}

/* Host out of memory while tracking: reported as a fault, never a
 * silently wrong token list. */
static void oom(EmuCtx *x)
{
    if (!x->fault) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                  "cannot track asynchronous operations (host out of "
                  "memory)");
    }
}

static bool grow(void **p, uint32_t *cap, uint32_t need, size_t el)
{
    if (need <= *cap) {
        return true;
    }
    uint32_t nc = *cap ? *cap : 8;
    while (nc < need) {
        nc *= 2;
    }
    void *q = realloc(*p, nc * el);
    if (!q) {
        return false;
    }
    *p = q;
    *cap = nc;
    return true;
}

static Chan *chan(EmuCtx *x, EmuAsyncChan ch, uint64_t id)
{
    EmuLaunch *l = x->launch;
    if (!l->async) {
        l->async = calloc(1, sizeof(*l->async));
        if (!l->async) {
            return NULL;
        }
    }
    EmuAsync *a = l->async;
    if (2 * (a->n + 1) > a->cap) {
        uint32_t nc = a->cap ? 2 * a->cap : 64;
        Chan *t = calloc(nc, sizeof(*t));
        if (!t) {
            return NULL;
        }
        for (uint32_t k = 0; k < a->cap; k++) {
            if (a->c[k].key) {
                uint32_t h = hash(a->c[k].key, nc);
                while (t[h].key) {
                    h = (h + 1) & (nc - 1);
                }
                t[h] = a->c[k];
            }
        }
        free(a->c);
        a->c = t;
        a->cap = nc;
    }
    uint64_t key = key_of(ch, id);
    uint32_t h = hash(key, a->cap);
    while (a->c[h].key && a->c[h].key != key) {
        h = (h + 1) & (a->cap - 1);
    }
    if (!a->c[h].key) {
        a->c[h].key = key;
        a->n++;
    }
    return &a->c[h];
}

uint64_t emu_async_warp_id(const EmuCtx *x)
{
    return (uint64_t)x->cta->linear << 8 | x->warp->id;
}

/* The current instruction's token. */
static uint64_t token(EmuCtx *x)
{
    EmuStepRecord *r = x->rec;
    if (!r->async_token) {
        r->async_token = (x->launch->gridid & 0xffffffull) << 40 |
                         ++x->launch->async->next;
    }
    return r->async_token;
}

static bool push_tok(Chan *c, uint64_t t)
{
    if (c->n && c->tok[c->n - 1] == t) {
        return true;          /* another lane of the same instruction */
    }
    if (!grow((void **)&c->tok, &c->cap, c->n + 1, sizeof(*c->tok))) {
        return false;
    }
    c->tok[c->n++] = t;
    return true;
}

/* Append tokens [from, to) of c to the record's wait list, once each. */
static bool wait_list(EmuCtx *x, const Chan *c, uint32_t from, uint32_t to)
{
    EmuStepRecord *r = x->rec;
    for (uint32_t k = from; k < to; k++) {
        bool seen = false;
        for (uint32_t j = 0; j < r->nwait && !seen; j++) {
            seen = r->wait_tokens[j] == c->tok[k];
        }
        if (seen) {
            continue;
        }
        if (!grow((void **)&r->wait_tokens, &r->wait_cap, r->nwait + 1,
                  sizeof(*r->wait_tokens))) {
            return false;
        }
        r->wait_tokens[r->nwait++] = c->tok[k];
    }
    return true;
}

/* Drop the first `n` tokens and the groups they end. */
static void retire(Chan *c, uint32_t n, uint32_t groups)
{
    /* (the arrays are NULL until the first token: memmove must not see
     * a NULL pointer even for no bytes) */
    if (c->n > n) {
        memmove(c->tok, c->tok + n, (c->n - n) * sizeof(*c->tok));
    }
    c->n -= n;
    if (c->ng > groups) {
        memmove(c->gend, c->gend + groups,
                (c->ng - groups) * sizeof(*c->gend));
    }
    c->ng -= groups;
    for (uint32_t g = 0; g < c->ng; g++) {
        c->gend[g] -= n;
    }
}

static bool commit(Chan *c)
{
    if (!grow((void **)&c->gend, &c->gcap, c->ng + 1, sizeof(*c->gend))) {
        return false;
    }
    c->gend[c->ng++] = c->n;
    return true;
}

/* The channel (ch, id) while steps are recorded, else NULL (also after
 * an out-of-memory fault). */
static Chan *tracked(EmuCtx *x, EmuAsyncChan ch, uint64_t id)
{
    if (!x->rec) {
        return NULL;
    }
    Chan *c = chan(x, ch, id);
    if (!c) {
        oom(x);
    }
    return c;
}

void emu_async_issue(EmuCtx *x, EmuAsyncChan ch, uint64_t id)
{
    Chan *c = tracked(x, ch, id);
    if (c && !push_tok(c, token(x))) {
        oom(x);
    }
}

void emu_async_commit(EmuCtx *x, EmuAsyncChan ch, uint64_t id)
{
    Chan *c = tracked(x, ch, id);
    if (c && !commit(c)) {
        oom(x);
    }
}

void emu_async_wait(EmuCtx *x, unsigned wait, EmuAsyncChan ch, uint64_t id,
                    uint32_t keep, bool all)
{
    Chan *c = tracked(x, ch, id);
    if (!c) {
        return;
    }
    x->rec->wait = (uint8_t)wait;
    if (all && !commit(c)) {
        oom(x);
        return;
    }
    if (c->ng <= keep) {
        return;
    }
    uint32_t groups = c->ng - keep, end = c->gend[groups - 1];
    if (!wait_list(x, c, 0, end)) {
        oom(x);
        return;
    }
    retire(c, end, groups);
}

void emu_async_mbar_flip(EmuCtx *x, uint64_t id)
{
    Chan *c = tracked(x, EMU_CHAN_MBAR, id);
    if (!c) {
        return;
    }
    /* the phase that completed replaces the one completed before */
    if (c->ng) {
        retire(c, c->gend[0], 1);
    }
    if (!commit(c)) {
        oom(x);
    }
}

void emu_async_mbar_wait(EmuCtx *x, uint64_t id, bool done)
{
    Chan *c = tracked(x, EMU_CHAN_MBAR, id);
    if (!c) {
        return;
    }
    x->rec->wait = EMU_WAIT_MBARRIER;
    uint32_t last = c->ng ? c->gend[0] : 0;
    if (!wait_list(x, c, done ? 0 : last, done ? last : c->n)) {
        oom(x);
    }
}

void emu_async_mbar_reset(EmuCtx *x, uint64_t id)
{
    Chan *c = tracked(x, EMU_CHAN_MBAR, id);
    if (c) {
        c->n = c->ng = 0;
    }
}

void emu_async_mbar_take_cp(EmuCtx *x, uint64_t id)
{
    Chan *cp = tracked(x, EMU_CHAN_CP, emu_async_warp_id(x));
    if (!cp) {
        return;
    }
    /* copied out first: chan() may move the table */
    uint32_t n = cp->n;
    uint64_t *t = n ? malloc(n * sizeof(*t)) : NULL;
    if (n && !t) {
        oom(x);
        return;
    }
    if (n) {
        memcpy(t, cp->tok, n * sizeof(*t));
    }
    Chan *mb = chan(x, EMU_CHAN_MBAR, id);
    for (uint32_t k = 0; mb && k < n; k++) {
        if (!push_tok(mb, t[k])) {
            mb = NULL;
        }
    }
    if (!mb) {
        oom(x);
    }
    free(t);
}

void emu_async_free(EmuAsync *a)
{
    if (!a) {
        return;
    }
    for (uint32_t k = 0; k < a->cap; k++) {
        free(a->c[k].tok);
        free(a->c[k].gend);
    }
    free(a->c);
    free(a);
}
