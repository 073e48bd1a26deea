/*
 * timing/gpu/opcoll.c: the banked register file and its collector units
 * (contract in opcoll.h).
 *
 * The model is AFR section 3.3 (Aamodt, Fung, Rogers, General-Purpose
 * Graphics Processor Architectures, 2018; the operand collector of
 * Figs. 3.15-3.17, after Coon et al.'s patents): an issued instruction
 * holds a collector unit; every cycle each bank grants up to `ports`
 * requests; a writeback booked for the cycle takes a port first; the
 * collector whose instruction has all its operands dispatches it and is
 * free again.  Arbitration is in the order of collector age (the issue
 * cycle), then collector index, so the oldest instruction is never
 * starved.  A collector asks for all its operands at once and the
 * arbiter grants any whose bank has a port left (up to `collector_reads`
 * per collector per cycle when that is set, as in AFR Fig. 3.17 where a
 * unit takes one operand a cycle); a read refused because its bank had
 * no port left counts once as a conflict.  Banks are swizzled:
 * bank = (slot + warp) % banks (AFR Fig. 3.16).
 *
 * Zero counts in the configuration mean one (a register file has at
 * least one bank with one port, and a collector).
 */
#include "timing/gpu/opcoll.h"

#include <stdlib.h>
#include <string.h>

#include "timing/ptxemu_timing.h"

typedef struct OcRead {
    uint32_t slot;
    uint32_t bank;
    bool done;
    bool waited;        /* counted as a conflict already */
} OcRead;

typedef struct OcColl {
    bool busy;
    uint64_t start;     /* first cycle it may read: issue cycle + 1 */
    uint64_t cookie;
    uint32_t nread, left, cap;
    OcRead *r;
} OcColl;

/* Disabled mode: instructions in issue order, each done at `ready`. */
typedef struct OcFixed {
    uint64_t cookie, ready;
} OcFixed;

/* A bank port booked for a writeback. */
typedef struct OcWrite {
    uint64_t at;
    uint32_t bank;
} OcWrite;

struct GpuOc {
    GpuOcConfig c;
    OcColl *coll;
    uint32_t *used;     /* ports used per bank, this cycle */
    uint32_t *order;    /* collectors by age, scratch */
    OcFixed *fixed;     /* disabled: FIFO [head, nfixed) */
    size_t head, nfixed, capfixed;
    OcWrite *wb;
    size_t nwb, capwb;
    bool ran;
    uint64_t last;      /* the last cycle run */
    uint64_t conflicts, reads;
};

static uint32_t at_least_1(uint32_t v)
{
    return v ? v : 1;
}

GpuOc *gpu_oc_new(const GpuOcConfig *c)
{
    GpuOc *oc = calloc(1, sizeof(*oc));
    if (!oc) {
        return NULL;
    }
    oc->c = *c;
    oc->c.banks = at_least_1(c->banks);
    oc->c.ports = at_least_1(c->ports);
    oc->c.collectors = at_least_1(c->collectors);
    oc->coll = calloc(oc->c.collectors, sizeof(*oc->coll));
    oc->used = calloc(oc->c.banks, sizeof(*oc->used));
    oc->order = calloc(oc->c.collectors, sizeof(*oc->order));
    if (!oc->coll || !oc->used || !oc->order) {
        gpu_oc_free(oc);
        return NULL;
    }
    return oc;
}

void gpu_oc_free(GpuOc *oc)
{
    if (!oc) {
        return;
    }
    for (uint32_t i = 0; oc->coll && i < oc->c.collectors; i++) {
        free(oc->coll[i].r);
    }
    free(oc->coll);
    free(oc->used);
    free(oc->order);
    free(oc->fixed);
    free(oc->wb);
    free(oc);
}

static int free_collector(const GpuOc *oc)
{
    for (uint32_t i = 0; i < oc->c.collectors; i++) {
        if (!oc->coll[i].busy) {
            return (int)i;
        }
    }
    return -1;
}

bool gpu_oc_can_take(const GpuOc *oc)
{
    return !oc->c.enabled || free_collector(oc) >= 0;
}

static bool bank_read(uint32_t slot)
{
    return slot < PTXEMU_TM_SLOT_IMPLICIT;
}

/* Grow *p (elements of size `sz`, capacity *cap) to hold `need`. */
static bool grow(void **p, size_t sz, size_t *cap, size_t need)
{
    if (need <= *cap) {
        return true;
    }
    size_t nc = *cap ? *cap : 8;
    while (nc < need) {
        nc *= 2;
    }
    void *q = realloc(*p, nc * sz);
    if (!q) {
        return false;
    }
    *p = q;
    *cap = nc;
    return true;
}

static bool take_fixed(GpuOc *oc, const uint32_t *src, uint32_t nsrc,
                       uint64_t cookie, uint64_t now)
{
    if (oc->head && oc->head == oc->nfixed) {
        oc->head = oc->nfixed = 0;
    }
    if (!grow((void **)&oc->fixed, sizeof(*oc->fixed), &oc->capfixed,
              oc->nfixed + 1)) {
        return false;
    }
    oc->fixed[oc->nfixed++] = (OcFixed){cookie, now + oc->c.latency};
    for (uint32_t i = 0; i < nsrc; i++) {
        oc->reads += bank_read(src[i]);
    }
    return true;
}

bool gpu_oc_take(GpuOc *oc, uint32_t warp, const uint32_t *src,
                 uint32_t nsrc, uint64_t cookie, uint64_t now)
{
    if (!oc->c.enabled) {
        return take_fixed(oc, src, nsrc, cookie, now);
    }
    int k = free_collector(oc);
    if (k < 0) {
        return false;
    }
    OcColl *cu = &oc->coll[k];
    size_t cap = cu->cap;
    if (!grow((void **)&cu->r, sizeof(*cu->r), &cap, nsrc)) {
        return false;
    }
    cu->cap = (uint32_t)cap;
    cu->nread = 0;
    for (uint32_t i = 0; i < nsrc; i++) {
        bool dup = !bank_read(src[i]);
        for (uint32_t j = 0; !dup && j < cu->nread; j++) {
            dup = cu->r[j].slot == src[i];
        }
        if (!dup) {
            cu->r[cu->nread++] = (OcRead){
                src[i], (uint32_t)(((uint64_t)src[i] + warp) % oc->c.banks),
                false, false};
        }
    }
    cu->busy = true;
    cu->start = now + 1;
    cu->cookie = cookie;
    cu->left = cu->nread;
    oc->reads += cu->nread;
    return true;
}

void gpu_oc_writeback(GpuOc *oc, uint32_t warp, const uint32_t *dst,
                      uint32_t ndst, uint64_t at)
{
    if (!oc->c.enabled) {
        return;
    }
    for (uint32_t i = 0; i < ndst; i++) {
        if (!bank_read(dst[i]) ||
            !grow((void **)&oc->wb, sizeof(*oc->wb), &oc->capwb,
                  oc->nwb + 1)) {
            continue; /* no memory: the write simply takes no port */
        }
        oc->wb[oc->nwb++] = (OcWrite){
            at, (uint32_t)(((uint64_t)dst[i] + warp) % oc->c.banks)};
    }
}

/* Busy collectors that may act at cycle now, by (start, index). */
static uint32_t by_age(GpuOc *oc, uint64_t now)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < oc->c.collectors; i++) {
        const OcColl *cu = &oc->coll[i];
        if (!cu->busy || cu->start > now) {
            continue;
        }
        uint32_t j = n++;
        while (j && oc->coll[oc->order[j - 1]].start > cu->start) {
            oc->order[j] = oc->order[j - 1];
            j--;
        }
        oc->order[j] = i;
    }
    return n;
}

static uint32_t cycle_fixed(GpuOc *oc, uint64_t now, uint64_t *out,
                            uint32_t max)
{
    uint32_t n = 0;
    while (n < max && oc->head < oc->nfixed &&
           oc->fixed[oc->head].ready <= now) {
        out[n++] = oc->fixed[oc->head++].cookie;
    }
    return n;
}

/* Book this cycle's writebacks on the banks; drop them. */
static void book_writes(GpuOc *oc, uint64_t now)
{
    size_t m = 0;
    for (size_t i = 0; i < oc->nwb; i++) {
        if (oc->wb[i].at == now) {
            oc->used[oc->wb[i].bank]++;
        } else if (oc->wb[i].at > now) {
            oc->wb[m++] = oc->wb[i];
        }
    }
    oc->nwb = m;
}

uint32_t gpu_oc_cycle(GpuOc *oc, uint64_t now, uint64_t *out, uint32_t max)
{
    oc->ran = true;
    oc->last = now;
    if (!oc->c.enabled) {
        return cycle_fixed(oc, now, out, max);
    }
    memset(oc->used, 0, oc->c.banks * sizeof(*oc->used));
    book_writes(oc, now);
    uint32_t n = by_age(oc, now);
    uint32_t limit = oc->c.collector_reads ? oc->c.collector_reads
                                           : UINT32_MAX;
    for (uint32_t o = 0; o < n; o++) {
        OcColl *cu = &oc->coll[oc->order[o]];
        uint32_t granted = 0;
        for (uint32_t i = 0; i < cu->nread && granted < limit; i++) {
            OcRead *r = &cu->r[i];
            if (r->done) {
                continue;
            }
            if (oc->used[r->bank] < oc->c.ports) {
                oc->used[r->bank]++;
                r->done = true;
                cu->left--;
                granted++;
            } else if (!r->waited) {
                r->waited = true;
                oc->conflicts++;
            }
        }
    }
    uint32_t done = 0;
    for (uint32_t o = 0; o < n && done < max; o++) {
        OcColl *cu = &oc->coll[oc->order[o]];
        if (cu->left == 0) {
            out[done++] = cu->cookie;
            cu->busy = false;
        }
    }
    return done;
}

uint64_t gpu_oc_next(const GpuOc *oc)
{
    uint64_t next = UINT64_MAX;
    if (!oc->c.enabled) {
        if (oc->head < oc->nfixed) {
            next = oc->fixed[oc->head].ready;
        }
    } else {
        for (uint32_t i = 0; i < oc->c.collectors; i++) {
            if (oc->coll[i].busy && oc->coll[i].start < next) {
                next = oc->coll[i].start;
            }
        }
    }
    if (next != UINT64_MAX && oc->ran && next <= oc->last) {
        next = oc->last + 1;
    }
    return next;
}

uint64_t gpu_oc_conflicts(const GpuOc *oc)
{
    return oc->conflicts;
}

uint64_t gpu_oc_reads(const GpuOc *oc)
{
    return oc->reads;
}
