/*
 * timing/gpu/coalesce.c: coalescing rules per GPU generation (contract
 * in coalesce.h).
 *
 * Sources:
 *  - cc13: NVIDIA, CUDA C Programming Guide 3.2, appendix G.3.2.2
 *    ("Devices of Compute Capability 1.2 and 1.3"): per half-warp, find
 *    the segment holding the address of the lowest-numbered active
 *    thread (32 bytes for 1-byte words, 64 for 2-byte, 128 for 4-, 8-
 *    and 16-byte words), take every other thread whose address lies in
 *    it, halve a 128-byte transaction to 64 bytes and a 64-byte one to
 *    32 while only its lower or upper half is used, carry it out, and
 *    repeat with the threads not yet served.
 *  - line128: the same guide, G.4.2 (compute capability 2.x, accesses
 *    cached in L1): one 128-byte transaction per distinct L1 line the
 *    warp touches; Kepler (compute 3.x: the "Global Memory" section of
 *    later guides' compute capability 3.x appendix) caches global loads
 *    in L1 the same way when L1 caching is on.
 *  - sector32: CUDA C Best Practices Guide, "Coalesced Access to Global
 *    Memory" (compute capability 5.x on): the warp's accesses become
 *    32-byte sector requests; we group them per 128-byte line with a
 *    sector mask, the unit the L1/L2 tag arrays work in (Jia et al.,
 *    "Dissecting the NVIDIA Volta GPU Architecture via
 *    Microbenchmarking", 2018, sec. 3: 128-byte lines of 32-byte
 *    sectors).
 *
 * An access that crosses a boundary (which PTX's natural alignment
 * rules out, but the host reports what ran) is split into pieces that
 * do not, so no transaction ever crosses a 128-byte line.
 */
#include "timing/gpu/coalesce.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "timing/lib/isort.h"

#define LINE 128u
#define SECTOR 32u
#define HALF_WARP 16u

static const char *const rule_names[GPU_COALESCE_RULE_COUNT] = {
    [GPU_COALESCE_CC13] = "cc13",
    [GPU_COALESCE_LINE128] = "line128",
    [GPU_COALESCE_SECTOR32] = "sector32",
};

int gpu_coalesce_rule(const char *name)
{
    for (int r = 0; name && r < GPU_COALESCE_RULE_COUNT; r++) {
        if (strcmp(name, rule_names[r]) == 0) {
            return r;
        }
    }
    return -1;
}

/* Append one transaction; false when out of memory. */
static bool push(GpuTxn **out, size_t *cap, size_t *n, GpuTxn t)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        GpuTxn *p = realloc(*out, nc * sizeof(*p));
        if (!p) {
            return false;
        }
        *out = p;
        *cap = nc;
    }
    (*out)[(*n)++] = t;
    return true;
}

/* The 32-byte sectors of its 128-byte line that [addr, addr+len) covers
 * (len > 0, the range inside one line). */
static uint32_t sector_mask(uint64_t addr, uint64_t len)
{
    uint32_t first = (uint32_t)(addr % LINE) / SECTOR;
    uint32_t last = (uint32_t)((addr + len - 1) % LINE) / SECTOR;
    return ((1u << (last + 1)) - 1) & ~((1u << first) - 1);
}

static int by_addr(const void *a, const void *b)
{
    const GpuTxn *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* ---------------------------------------------------------- per line */

/* line128 / sector32: one transaction per distinct line of the warp,
 * ascending; line128 moves the whole line, sector32 the sectors used. */
static size_t per_line(bool whole, const ptxemu_tm_access *acc,
                       uint32_t nacc, GpuTxn **out, size_t *cap)
{
    size_t n = 0;
    for (uint32_t i = 0; i < nacc; i++) {
        uint64_t a = acc[i].addr, end = a + (acc[i].size ? acc[i].size : 1);
        while (a < end) {
            uint64_t line = a - a % LINE;
            uint64_t stop = end < line + LINE ? end : line + LINE;
            GpuTxn t = {line, LINE, whole ? 0xFu : sector_mask(a, stop - a)};
            if (n && (*out)[n - 1].addr == line) {
                /* the line of the lane before (the usual case): merged
                 * now as the pass below would */
                (*out)[n - 1].sectors |= t.sectors;
            } else if (!push(out, cap, &n, t)) {
                return (size_t)-1;
            }
            a = stop;
        }
    }
    if (n == 0) {
        return 0;
    }
    tm_isort(*out, n, sizeof(**out), by_addr);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && (*out)[m - 1].addr == (*out)[i].addr) {
            (*out)[m - 1].sectors |= (*out)[i].sectors;
        } else {
            (*out)[m++] = (*out)[i];
        }
    }
    return m;
}

/* -------------------------------------------------------------- cc13 */

/* One thread's request as the cc13 protocol sees it: a piece of an
 * access that stays inside one segment of its word size. */
typedef struct Piece {
    uint64_t addr;
    uint32_t len;
    uint32_t seg;       /* segment size for its word size */
    uint8_t lane;
    bool done;
} Piece;

/* Segment size by word size (guide G.3.2.2). */
static uint32_t cc13_segment(uint32_t word)
{
    return word <= 1 ? 32u : word == 2 ? 64u : LINE;
}

static int by_lane(const void *a, const void *b)
{
    const Piece *x = a, *y = b;
    if (x->lane != y->lane) {
        return x->lane < y->lane ? -1 : 1;
    }
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Serve the pieces of one half-warp (sorted by lane), appending the
 * transactions in ascending address order. */
static bool cc13_group(Piece *p, size_t np, GpuTxn **out, size_t *cap,
                       size_t *n)
{
    size_t first = *n;
    for (size_t i = 0; i < np; i++) {
        if (p[i].done) {
            continue;
        }
        /* p[i] is the lowest-numbered thread not yet served */
        uint64_t base = p[i].addr & ~(uint64_t)(p[i].seg - 1); /* seg: 2^k */
        uint64_t size = p[i].seg, lo = UINT64_MAX, hi = 0;
        for (size_t j = i; j < np; j++) {
            if (!p[j].done && p[j].addr >= base &&
                p[j].addr + p[j].len <= base + size) {
                p[j].done = true;
                lo = p[j].addr < lo ? p[j].addr : lo;
                hi = p[j].addr + p[j].len > hi ? p[j].addr + p[j].len : hi;
            }
        }
        while (size > SECTOR) {
            uint64_t half = size / 2;
            if (hi <= base + half) {
                size = half;
            } else if (lo >= base + half) {
                base += half;
                size = half;
            } else {
                break;
            }
        }
        GpuTxn t = {base, (uint32_t)size, sector_mask(base, size)};
        if (!push(out, cap, n, t)) {
            return false;
        }
    }
    tm_isort(*out + first, *n - first, sizeof(**out), by_addr);
    return true;
}

/* Double the piece array (moving off the stack buffer the first
 * time); false, the old array freed, when out of memory. */
static bool grow_pieces(Piece **p, Piece *stack, size_t *cap)
{
    Piece *q = malloc(*cap * 2 * sizeof(*q));
    if (q) {
        memcpy(q, *p, *cap * sizeof(*q));
    }
    if (*p != stack) {
        free(*p);
    }
    *p = q;
    *cap *= 2;
    return q != NULL;
}

static size_t cc13(const ptxemu_tm_access *acc, uint32_t nacc,
                   GpuTxn **out, size_t *cap)
{
    /* split every access at its segment boundaries; a piece is at most
     * 16 bytes inside a segment of at least 32, so at most two pieces
     * per access unless it is larger than a segment.  A warp's pieces
     * fit the stack buffer; more (bulk accesses) go to the heap. */
    Piece stack[2 * 32];
    size_t np = 0, capp = sizeof(stack) / sizeof(stack[0]);
    Piece *p = stack;
    for (uint32_t i = 0; i < nacc; i++) {
        uint32_t word = acc[i].size ? acc[i].size : 1;
        uint32_t seg = cc13_segment(word);
        uint64_t a = acc[i].addr, end = a + word;
        while (a < end) {
            uint64_t stop = (a & ~(uint64_t)(seg - 1)) + seg;
            stop = stop < end ? stop : end;
            if (np == capp && !grow_pieces(&p, stack, &capp)) {
                return (size_t)-1;
            }
            p[np++] = (Piece){a, (uint32_t)(stop - a), seg,
                              (uint8_t)(acc[i].lane & 31u), false};
            a = stop;
        }
    }
    tm_isort(p, np, sizeof(*p), by_lane);
    size_t n = 0, h = 0;
    while (h < np) {
        size_t e = h;
        while (e < np && p[e].lane / HALF_WARP == p[h].lane / HALF_WARP) {
            e++;
        }
        if (!cc13_group(p + h, e - h, out, cap, &n)) {
            n = (size_t)-1;
            break;
        }
        h = e;
    }
    if (p != stack) {
        free(p);
    }
    return n;
}

size_t gpu_coalesce(GpuCoalesceRule rule, const ptxemu_tm_access *acc,
                    uint32_t nacc, GpuTxn **out, size_t *cap)
{
    switch (rule) {
    case GPU_COALESCE_CC13:
        return cc13(acc, nacc, out, cap);
    case GPU_COALESCE_LINE128:
        return per_line(true, acc, nacc, out, cap);
    case GPU_COALESCE_SECTOR32:
        return per_line(false, acc, nacc, out, cap);
    case GPU_COALESCE_RULE_COUNT:
        break;
    }
    return 0;
}
