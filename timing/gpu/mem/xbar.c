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
    uint32_t rr;                /* round-robin pointer */
} Out;

struct Xbar {
    XbarCfg c;
    XbarStats *st;
    In *in;
    Out *out;
    uint32_t queued;            /* packets in input buffers */
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
    bool ok = x->in && x->out;
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
    free(x);
}

static uint32_t flits_of(const Xbar *x, uint32_t bytes)
{
    uint32_t f = (bytes + x->c.flit - 1) / x->c.flit;
    return f ? f : 1;
}

/* Into dst's buffer, arriving at `due`. */
static void deliver(Xbar *x, uint32_t dst, const MemMsg *m, uint32_t flits,
                    uint64_t due)
{
    Out *o = &x->out[dst];
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
        if (memq_full(&o->q) || o->used + f > x->c.outbuf) {
            x->st->refused++;
            return false;
        }
        deliver(x, dst, m, f, now + x->c.lat);
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

void xbar_tick(Xbar *x, uint64_t now)
{
    x->last = now + 1;
    if (!x->queued) {
        return;
    }
    for (uint32_t d = 0; d < x->c.ndst; d++) {
        Out *o = &x->out[d];
        if (o->busy > now) {
            continue;
        }
        uint32_t winner = UINT32_MAX, ready = 0;
        for (uint32_t k = 0; k < x->c.nsrc; k++) {
            uint32_t s = (o->rr + k) % x->c.nsrc;
            In *in = &x->in[s];
            if (!in->n || in->busy > now || in->q[in->head].dst != d) {
                continue;
            }
            ready++;
            if (winner == UINT32_MAX) {
                winner = s;
            }
        }
        if (winner == UINT32_MAX) {
            continue;
        }
        In *in = &x->in[winner];
        Pkt p = in->q[in->head];
        if (o->used + p.flits > x->c.outbuf || memq_full(&o->q)) {
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
        deliver(x, d, &p.m, p.flits, now + x->c.lat + p.flits - 1);
    }
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

uint64_t xbar_next_arrival(const Xbar *x)
{
    uint64_t t = MEM_NEVER;
    for (uint32_t d = 0; d < x->c.ndst; d++) {
        t = mem_min(t, memq_next(&x->out[d].q));
    }
    return t;
}

uint64_t xbar_next(const Xbar *x)
{
    uint64_t t = xbar_next_arrival(x);
    if (x->queued) {
        /* the earliest a source or an output frees */
        uint64_t free_at = MEM_NEVER;
        for (uint32_t s = 0; s < x->c.nsrc; s++) {
            const In *in = &x->in[s];
            if (in->n) {
                uint64_t b = in->busy;
                uint64_t ob = x->out[in->q[in->head].dst].busy;
                free_at = mem_min(free_at, b > ob ? b : ob);
            }
        }
        t = mem_min(t, free_at > x->last ? free_at : x->last);
    }
    return t;
}
