/*
 * timing/gpu/mem/xbar.c: the crossbar and the ideal network (rules in
 * xbar.h).
 *
 * A tick visits only what can move: each output keeps the set of
 * sources whose head packet goes to it (a source is in one such set at
 * most), and the sources still sending a packet are a set of their own,
 * so an output's candidates are its heads minus those, found a word of
 * 64 sources at a time; the sources and outputs holding packets are sets
 * too, for xbar_next.  With a hundred SMs queueing on a few partitions
 * most heads wait on a busy output, and a pass over every source each
 * cycle cost more than the arbitration.
 */
#include "timing/gpu/mem/xbar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/panic.h"
#include "timing/gpu/mem/bitset.h"

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
    uint32_t sw, dw;            /* words of a set of sources, of outputs */
    uint64_t *head;             /* ndst sets of sw words: the sources
                                   whose head packet goes to each output */
    uint32_t *nhead;            /* by output: the members of its set */
    uint64_t *wanted;           /* outputs whose head set is not empty */
    uint64_t *sending;          /* sources still sending (busy > now) */
    uint32_t *sendlist, nsend;  /* its members, to drop when done */
    uint64_t *inmask;           /* sources with packets queued */
    uint64_t *outmask;          /* outputs with packets in their buffer */
    uint32_t *touched;          /* outputs with candidates this tick, */
    uint32_t *first;            /* and their first (lowest) candidate */
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
    x->sw = bitset_words(cfg->nsrc);
    x->dw = bitset_words(cfg->ndst);
    x->head = calloc((size_t)cfg->ndst * x->sw, sizeof *x->head);
    x->nhead = calloc(cfg->ndst, sizeof *x->nhead);
    x->wanted = calloc(x->dw, sizeof *x->wanted);
    x->sending = calloc(x->sw, sizeof *x->sending);
    x->sendlist = calloc(cfg->nsrc, sizeof *x->sendlist);
    x->inmask = calloc(x->sw, sizeof *x->inmask);
    x->outmask = calloc(x->dw, sizeof *x->outmask);
    x->touched = calloc(cfg->ndst, sizeof(uint32_t));
    x->first = calloc(cfg->ndst, sizeof(uint32_t));
    x->granted = calloc(cfg->nsrc, sizeof(uint32_t));
    if (cfg->extra) {
        size_t n = (size_t)cfg->nsrc * cfg->ndst;
        if ((x->extra = malloc(n * sizeof *x->extra))) {
            memcpy(x->extra, cfg->extra, n * sizeof *x->extra);
        }
    }
    x->c.extra = NULL;
    bool ok = x->in && x->out && x->head && x->nhead && x->wanted &&
              x->sending && x->sendlist && x->inmask && x->outmask &&
              x->touched && x->first && x->granted &&
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
    free(x->head);
    free(x->nhead);
    free(x->wanted);
    free(x->sending);
    free(x->sendlist);
    free(x->inmask);
    free(x->outmask);
    free(x->touched);
    free(x->first);
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
/* Source s's head packet (it has one) competes for its output. */
static void head_add(Xbar *x, uint32_t s)
{
    const In *in = &x->in[s];
    uint32_t d = in->q[in->head].dst;
    bitset_add(&x->head[(size_t)d * x->sw], s);
    if (!x->nhead[d]++) {
        bitset_add(x->wanted, d);
    }
}

/* Source s's head packet, to output d, leaves its input buffer. */
static void head_del(Xbar *x, uint32_t s, uint32_t d)
{
    bitset_del(&x->head[(size_t)d * x->sw], s);
    if (!--x->nhead[d]) {
        bitset_del(x->wanted, d);
    }
}

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
    bitset_add(x->outmask, dst);
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
    if (in->n == 1) {
        head_add(x, src);
        bitset_add(x->inmask, src);
    }
    return true;
}

void xbar_tick(Xbar *x, uint64_t now)
{
    x->last = now + 1;
    x->ngranted = 0;
    if (!x->queued) {
        return;
    }
    /* sources whose packet is all sent by now compete again */
    for (uint32_t k = 0; k < x->nsend;) {
        uint32_t s = x->sendlist[k];
        if (x->in[s].busy <= now) {
            bitset_del(x->sending, s);
            x->sendlist[k] = x->sendlist[--x->nsend];
        } else {
            k++;
        }
    }
    /* the free outputs with a ready head (not still sending), in the
     * order of their first ready source (a source is a candidate of one
     * output only, so the firsts differ): the order of a pass over the
     * sources, which the grants (xbar_granted) keep */
    uint32_t nt = 0;
    for (uint32_t w = 0; w < x->dw; w++) {
        for (uint64_t m = x->wanted[w]; m; m &= m - 1) {
            uint32_t d = bitset_at(w, m);
            if (x->out[d].busy > now) {
                continue;
            }
            uint32_t f = bitset_next_andnot(&x->head[(size_t)d * x->sw],
                                            x->sending, x->sw, 0);
            if (f == BITSET_END) {
                continue;
            }
            uint32_t k = nt++;
            for (; k > 0 && x->first[k - 1] > f; k--) {
                x->first[k] = x->first[k - 1];
                x->touched[k] = x->touched[k - 1];
            }
            x->first[k] = f;
            x->touched[k] = d;
        }
    }
    /* each output grants one: the first candidate at or after its
     * pointer, else the first.  A source granted here is sending from
     * now on, so it is no candidate of a later output even when its next
     * head goes there: the candidates stay those the tick began with. */
    for (uint32_t k = 0; k < nt; k++) {
        uint32_t d = x->touched[k];
        Out *o = &x->out[d];
        const uint64_t *h = &x->head[(size_t)d * x->sw];
        uint32_t winner = bitset_next_andnot(h, x->sending, x->sw, o->rr);
        if (winner == BITSET_END) {
            winner = x->first[k];
        }
        In *in = &x->in[winner];
        Pkt p = in->q[in->head];
        if (!fits(x, o, p.flits)) {
            x->st->stalls++;
            continue;
        }
        uint32_t ready = 0;
        for (uint32_t w = 0; w < x->sw; w++) {
            ready += (uint32_t)__builtin_popcountll(h[w] & ~x->sending[w]);
        }
        x->st->conflicts += ready - 1;
        head_del(x, winner, d);
        in->head = (in->head + 1) % x->c.inbuf;
        in->n--;
        in->used -= p.flits;
        x->queued--;
        if (in->n) {
            head_add(x, winner);
        } else {
            bitset_del(x->inmask, winner);
        }
        in->busy = now + p.flits;
        bitset_add(x->sending, winner);
        x->sendlist[x->nsend++] = winner;
        o->busy = now + p.flits;
        o->rr = (winner + 1) % x->c.nsrc;
        x->granted[x->ngranted++] = winner;
        deliver(x, winner, d, &p.m, p.flits, now + x->c.lat + p.flits - 1);
    }
}

uint32_t xbar_next_out(const Xbar *x, uint32_t from)
{
    _Static_assert(BITSET_END == UINT32_MAX, "xbar.h's none");
    return bitset_next(x->outmask, x->dw, from);
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
    if (!o->q.n) {
        bitset_del(x->outmask, dst);
    }
}

uint64_t xbar_next_skip(const Xbar *x, const uint8_t *skip)
{
    uint64_t t = MEM_NEVER;
    for (uint32_t w = 0; w < x->dw; w++) {
        for (uint64_t m = x->outmask[w]; m; m &= m - 1) {
            uint32_t d = bitset_at(w, m);
            if (!skip || !skip[d]) {
                t = mem_min(t, memq_next(&x->out[d].q));
            }
        }
    }
    if (x->queued && t > x->last) {
        /* the earliest a head whose output has room could be granted
         * (never before the next tick: stop there); a full output frees
         * when its packet is taken (the owner's pop, after which it asks
         * again) */
        for (uint32_t s = bitset_next(x->inmask, x->sw, 0);
             s != BITSET_END && t > x->last;
             s = bitset_next(x->inmask, x->sw, s + 1)) {
            const In *in = &x->in[s];
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
