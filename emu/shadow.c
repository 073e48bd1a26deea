/*
 * emu/shadow.c: the global-memory store buffer (contract in shadow.h).
 *
 * Lines are found through an open-addressed table of indices (linear
 * probing, at most half full); the line last found is tried first, as
 * a warp's lanes mostly access one line one after another.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "emu/panic.h"
#include "emu/shadow.h"

static inline uint32_t hash_line(uint64_t line, uint32_t nslot)
{
    /* Fibonacci hashing: neighbouring lines spread over the table */
    return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & (nslot - 1);
}

/* The index + 1 of line, or 0. */
static uint32_t find(const EmuShadow *s, uint64_t line)
{
    if (s->last && s->v[s->last - 1].line == line) {
        return s->last;
    }
    if (!s->n) {
        return 0;
    }
    const uint32_t mask = s->nslot - 1;
    for (uint32_t h = hash_line(line, s->nslot);; h = (h + 1) & mask) {
        uint32_t k = s->slot[h];
        if (!k || s->v[k - 1].line == line) {
            return k;
        }
    }
}

static void slot_put(uint32_t *slot, uint32_t nslot, uint64_t line,
                     uint32_t k)
{
    uint32_t h = hash_line(line, nslot);
    while (slot[h]) {
        h = (h + 1) & (nslot - 1);
    }
    slot[h] = k;
}

/* A new line for `line` whose first byte's host bytes are at host;
 * its index + 1, or 0 when out of memory. */
static uint32_t add(EmuShadow *s, uint64_t line, uintptr_t host)
{
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 64;
        EmuShadowLine *v = realloc(s->v, (size_t)cap * sizeof(*v));
        if (!v) {
            return 0;
        }
        s->v = v;
        s->cap = cap;
    }
    if (2 * (s->n + 1) > s->nslot) {
        uint32_t nslot = s->nslot ? 2 * s->nslot : 256;
        uint32_t *slot = calloc(nslot, sizeof(*slot));
        if (!slot) {
            return 0;
        }
        for (uint32_t i = 0; i < s->n; i++) {
            slot_put(slot, nslot, s->v[i].line, i + 1);
        }
        free(s->slot);
        s->slot = slot;
        s->nslot = nslot;
    }
    EmuShadowLine *L = &s->v[s->n++];
    L->line = line;
    L->host = host;
    L->mask[0] = L->mask[1] = 0;
    slot_put(s->slot, s->nslot, line, s->n);
    if (s->n == 1 && s->mark) {
        *s->mark = true;
    }
    return s->n;
}

/* A line is named by its host address (tagged), so that two device
 * addresses of the same bytes (one cuMemMap handle mapped twice) share
 * one copy; by its device address should the two not agree on the
 * offset in a line (host memory registered or managed is at its own
 * address; device bytes are 256-aligned on both sides, and VMM
 * mappings 2 MiB-aligned over page-aligned bytes: runtime/cuda's
 * drv_vmm.c). */
#define HOST_KEY (1ull << 63)

uint8_t *emu_shadow_at(EmuShadow *s, uint64_t addr, uint32_t size,
                       bool write, uint8_t *host)
{
    const uint32_t off = (uint32_t)(addr % EMU_SHADOW_LINE);
    const uint64_t line =
        (uintptr_t)host % EMU_SHADOW_LINE == off
            ? (uint64_t)((uintptr_t)host / EMU_SHADOW_LINE) | HOST_KEY
            : addr / EMU_SHADOW_LINE;
    EMU_ASSERT(size <= EMU_SHADOW_LINE - off); /* (natural alignment) */
    uint32_t k = find(s, line);
    if (!k) {
        if (!write) {
            return host;
        }
        k = add(s, line, (uintptr_t)host - off);
        if (!k) {
            return NULL;
        }
    }
    s->last = k;
    EmuShadowLine *L = &s->v[k - 1];
    /* the bytes of the access not written since the commit: memory's
     * (which nothing changes until then) */
    for (uint32_t b = off; b < off + size; b++) {
        if (!(L->mask[b / 64] >> (b % 64) & 1u)) {
            L->data[b] = host[b - off];
        }
    }
    if (write) {
        for (uint32_t b = off; b < off + size; b++) {
            L->mask[b / 64] |= 1ull << (b % 64);
        }
    }
    return L->data + off;
}

void emu_shadow_commit(EmuShadow *s)
{
    for (uint32_t i = 0; i < s->n; i++) {
        const EmuShadowLine *L = &s->v[i];
        for (unsigned h = 0; h < 2; h++) {
            uint64_t m = L->mask[h];
            if (m == ~0ull) {
                memcpy((uint8_t *)(L->host + 64 * h), L->data + 64 * h, 64);
                continue;
            }
            while (m) {
                unsigned b = (unsigned)__builtin_ctzll(m);
                m &= m - 1;
                *(uint8_t *)(L->host + 64 * h + b) = L->data[64 * h + b];
            }
        }
    }
    if (s->n && (size_t)s->n * 16 >= s->nslot) {
        memset(s->slot, 0, (size_t)s->nslot * sizeof(*s->slot));
    } else {
        /* few lines in a table grown by an earlier section: their slots
         * alone (a section that buffers a line or two after one that
         * buffered thousands must not clear the whole table) */
        for (uint32_t i = 0; i < s->n; i++) {
            uint32_t h = hash_line(s->v[i].line, s->nslot);
            while (s->slot[h] != i + 1) {
                h = (h + 1) & (s->nslot - 1);
            }
            s->slot[h] = 0;
        }
    }
    s->n = 0;
    s->last = 0;
}

void emu_shadow_fini(EmuShadow *s)
{
    free(s->v);
    free(s->slot);
    s->v = NULL;
    s->slot = NULL;
    s->n = s->cap = s->nslot = s->last = 0;
    s->hit = (EmuMemHit){0};
}
