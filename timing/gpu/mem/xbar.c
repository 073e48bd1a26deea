/*
 * timing/gpu/mem/xbar.c: the crossbar and the ideal network (rules in
 * xbar.h).
 */
#include "timing/gpu/mem/xbar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/panic.h"

typedef struct Pkt {
    MemMsg m;
    uint32_t dst, flits;
} Pkt;

typedef struct In {
    Pkt *q;                     /* ring of inbuf packets at most */
    uint32_t head, n, used;     /* used: flits */
    uint64_t busy;              /* sending until this cycle */
} In;

typedef struct Out {
    MemQ q;
    uint32_t *flits;            /* per slot of q, to free on pop */
    uint32_t used;              /* flits in the buffer and arriving */
    uint64_t busy;
    uint64_t last_due;          /* the latest arrival queued */
    uint32_t rr;                /* round-robin pointer */
} Out;

struct Xbar {
    XbarCfg c;
    XbarStats *st;
    In *in;
    Out *out;
    uint32_t *cand_first, *cand_last, *cand_next; /* per tick, by output */
    uint32_t *touched;          /* outputs with candidates this tick */
    uint32_t *granted;          /* sources granted */
    uint32_t ngranted;
    uint32_t queued;            /* packets in input buffers */
    uint32_t *extra;            /* by position, or NULL */
    uint64_t last;              /* last tick + 1 */
};

static const char *const kind_names[] = {
    [XBAR_CROSSBAR] = "crossbar",
    [XBAR_IDEAL] = "ideal",
};

int xbar_kind_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++) {
        if (strcmp(name, kind_names[i]) == 0) {
            return (int)i;
        }
    }
    return -1;
}

Xbar *xbar_new(const XbarCfg *cfg, XbarStats *st, char *err, size_t errlen)
{
    const char *bad = NULL;
    if (!cfg->nsrc || !cfg->ndst || !cfg->flit || !cfg->inbuf ||
        !cfg->outbuf) {
        bad = "sources, destinations, flit size and buffers must be at "
              "least 1";
    } else if (!cfg->lat) {
        bad = "the latency must be at least 1 cycle";
    }
    if (bad) {
        if (err && errlen) {
            snprintf(err, errlen, "%s", bad);
        }
        return NULL;
    }
    Xbar *x = calloc(1, sizeof *x);
    if (!x) {
        return NULL;
    }
    x->c = *cfg;
    x->st = st;
    x->in = calloc(cfg->nsrc, sizeof *x->in);
    x->out = calloc(cfg->ndst, sizeof *x->out);
    x->cand_first = calloc(cfg->ndst, sizeof(uint32_t));
    x->cand_last = calloc(cfg->ndst, sizeof(uint32_t));
    x->touched = calloc(cfg->ndst, sizeof(uint32_t));
    x->cand_next = calloc(cfg->nsrc, sizeof(uint32_t));
    x->granted = calloc(cfg->nsrc, sizeof(uint32_t));
    if (cfg->extra) {
        size_t n = (size_t)cfg->nsrc * cfg->ndst;
        if ((x->extra = malloc(n * sizeof *x->extra))) {
            memcpy(x->extra, cfg->extra, n * sizeof *x->extra);
        }
    }
    x->c.extra = NULL;
    bool ok = x->in && x->out && x->cand_first && x->cand_last &&
              x->touched && x->cand_next && x->granted &&
              (!cfg->extra || x->extra);
    for (uint32_t s = 0; ok && s < cfg->nsrc; s++) {
        ok = (x->in[s].q = calloc(cfg->inbuf, sizeof(Pkt))) != NULL;
    }
    for (uint32_t d = 0; ok && d < cfg->ndst; d++) {
        ok = !memq_init(&x->out[d].q, cfg->outbuf) &&
             (x->out[d].flits = calloc(cfg->outbuf, sizeof(uint32_t)));
    }
    if (!ok) {
        xbar_free(x);
        return NULL;
    }
    for (uint32_t d = 0; d < cfg->ndst; d++) {
        x->cand_first[d] = UINT32_MAX;
    }
    return x;
}

void xbar_free(Xbar *x)
{
    if (!x) {
        return;
    }
    for (uint32_t s = 0; x->in && s < x->c.nsrc; s++) {
        free(x->in[s].q);
    }
    for (uint32_t d = 0; x->out && d < x->c.ndst; d++) {
        memq_fini(&x->out[d].q);
        free(x->out[d].flits);
    }
    free(x->in);
    free(x->out);
    free(x->cand_first);
    free(x->cand_last);
    free(x->touched);
    free(x->cand_next);
    free(x->granted);
    free(x->extra);
    free(x);
}

static uint32_t flits_of(const Xbar *x, uint32_t bytes)
{
    uint32_t f = (bytes + x->c.flit - 1) / x->c.flit;
    return f ? f : 1;
}

/* Does a packet of `flits` fit in o's buffer?  One larger than the
 * whole buffer goes alone, into an empty one. */
static bool fits(const Xbar *x, const Out *o, uint32_t flits)
{
    return !memq_full(&o->q) &&
           (!o->used || o->used + flits <= x->c.outbuf);
}

/* Into dst's buffer from src, arriving at `due` plus the cycles of the
 * ports' distance, never before the packets queued there. */
static void deliver(Xbar *x, uint32_t src, uint32_t dst, const MemMsg *m,
                    uint32_t flits, uint64_t due)
{
    Out *o = &x->out[dst];
    if (x->extra) {
        due += x->extra[(size_t)src * x->c.ndst + dst];
    }
    if (due < o->last_due) {
        due = o->last_due;
    }
    o->last_due = due;
    /* flits[] parallels the ring: arrivals come in due order per output
     * (grants move forward in time, latency is fixed) */
    EMU_ASSERT(!o->q.n || o->q.it[(o->q.head + o->q.n - 1) % o->q.cap].due
                              <= due);
    o->flits[(o->q.head + o->q.n) % o->q.cap] = flits;
    memq_push(&o->q, m, due);
    o->used += flits;
    x->st->packets++;
    x->st->flits += flits;
}

bool xbar_push(Xbar *x, uint32_t src, uint32_t dst, const MemMsg *m,
               uint32_t bytes, uint64_t now)
{
    EMU_ASSERT(src < x->c.nsrc && dst < x->c.ndst);
    uint32_t f = flits_of(x, bytes);
    if (x->c.kind == XBAR_IDEAL) {
        Out *o = &x->out[dst];
        if (!fits(x, o, f)) {
            x->st->refused++;
            return false;
        }
        deliver(x, src, dst, m, f, now + x->c.lat);
        return true;
    }
    In *in = &x->in[src];
    if (in->used + f > x->c.inbuf && in->n) {
        x->st->refused++;
        return false;
    }
    /* a packet larger than the whole buffer still goes alone */
    in->q[(in->head + in->n) % x->c.inbuf] = (Pkt){*m, dst, f};
    in->n++;
    in->used += f;
    x->queued++;
    return true;
}

#define NONE UINT32_MAX

void xbar_tick(Xbar *x, uint64_t now)
{
    x->last = now + 1;
    x->ngranted = 0;
    if (!x->queued) {
        return;
    }
    /* one pass over the sources: each ready head becomes a candidate of
     * its output, the candidates of an output listed in source order */
    uint32_t nt = 0;
    for (uint32_t s = 0; s < x->c.nsrc; s++) {
        In *in = &x->in[s];
        if (!in->n || in->busy > now) {
            continue;
        }
        uint32_t d = in->q[in->head].dst;
        if (x->out[d].busy > now) {
            continue;
        }
        x->cand_next[s] = NONE;
        if (x->cand_first[d] == NONE) {
            x->cand_first[d] = s;
            x->touched[nt++] = d;
        } else {
            x->cand_next[x->cand_last[d]] = s;
        }
        x->cand_last[d] = s;
    }
    /* each output grants one: the first candidate at or after its
     * pointer, else the first (outputs are independent: a source is a
     * candidate of one output only) */
    for (uint32_t k = 0; k < nt; k++) {
        uint32_t d = x->touched[k];
        Out *o = &x->out[d];
        uint32_t first = x->cand_first[d], winner = NONE, ready = 0;
        x->cand_first[d] = NONE;
        for (uint32_t s = first; s != NONE; s = x->cand_next[s]) {
            ready++;
            if (winner == NONE && s >= o->rr) {
                winner = s;
            }
        }
        if (winner == NONE) {
            winner = first;
        }
        In *in = &x->in[winner];
        Pkt p = in->q[in->head];
        if (!fits(x, o, p.flits)) {
            x->st->stalls++;
            continue;
        }
        x->st->conflicts += ready - 1;
        in->head = (in->head + 1) % x->c.inbuf;
        in->n--;
        in->used -= p.flits;
        x->queued--;
        in->busy = now + p.flits;
        o->busy = now + p.flits;
        o->rr = (winner + 1) % x->c.nsrc;
        x->granted[x->ngranted++] = winner;
        deliver(x, winner, d, &p.m, p.flits, now + x->c.lat + p.flits - 1);
    }
}

uint32_t xbar_granted(const Xbar *x, const uint32_t **src)
{
    *src = x->granted;
    return x->ngranted;
}

const MemMsg *xbar_peek(const Xbar *x, uint32_t dst, uint64_t now)
{
    return memq_peek(&x->out[dst].q, now);
}

void xbar_pop(Xbar *x, uint32_t dst)
{
    Out *o = &x->out[dst];
    o->used -= o->flits[o->q.head];
    memq_pop(&o->q);
}

uint64_t xbar_next_skip(const Xbar *x, const uint8_t *skip)
{
    uint64_t t = MEM_NEVER;
    for (uint32_t d = 0; d < x->c.ndst; d++) {
        if (!skip || !skip[d]) {
            t = mem_min(t, memq_next(&x->out[d].q));
        }
    }
    if (x->queued && t > x->last) {
        /* the earliest a head whose output has room could be granted
         * (never before the next tick: stop there); a full output frees
         * when its packet is taken (the owner's pop, after which it asks
         * again) */
        for (uint32_t s = 0; s < x->c.nsrc && t > x->last; s++) {
            const In *in = &x->in[s];
            if (!in->n) {
                continue;
            }
            const Pkt *p = &in->q[in->head];
            const Out *o = &x->out[p->dst];
            if (!fits(x, o, p->flits)) {
                continue;
            }
            uint64_t b = in->busy > o->busy ? in->busy : o->busy;
            t = mem_min(t, b > x->last ? b : x->last);
        }
    }
    return t;
}

uint64_t xbar_next(const Xbar *x)
{
    return xbar_next_skip(x, NULL);
}
