/*
 * check/freed.c: the freed-range record of memcheck (see freed.h): a
 * sorted array, binary searched.  Frees mostly come at the high end
 * (the device address space is handed out upwards), where inserting
 * moves little.
 */
#include <stdlib.h>
#include <string.h>

#include "check/freed.h"

/* The index of the first range ending after addr. */
static size_t first_after(const SanFreedSet *s, uint64_t addr)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid].addr + s->v[mid].size <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void san_freed_reuse(SanFreedSet *s, uint64_t addr, uint64_t size)
{
    size_t i = first_after(s, addr), j = i;
    while (j < s->n && s->v[j].addr < addr + size) {
        j++;
    }
    if (j > i) {
        memmove(&s->v[i], &s->v[j], (s->n - j) * sizeof(*s->v));
        s->n -= j - i;
    }
}

void san_freed_add(SanFreedSet *s, const SanFreed *f)
{
    if (!f->size) {
        return;
    }
    san_freed_reuse(s, f->addr, f->size);
    if (s->n >= SAN_FREED_MAX) {
        size_t half = s->n / 2;
        memmove(s->v, s->v + half, (s->n - half) * sizeof(*s->v));
        s->n -= half;
    }
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        SanFreed *p = realloc(s->v, nc * sizeof(*p));
        if (!p) {
            return;
        }
        s->v = p;
        s->cap = nc;
    }
    size_t i = first_after(s, f->addr);
    memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
    s->v[i] = *f;
    s->n++;
}

const SanFreed *san_freed_at(const SanFreedSet *s, uint64_t addr)
{
    size_t i = first_after(s, addr);
    return i < s->n && s->v[i].addr <= addr ? &s->v[i] : NULL;
}

void san_freed_free(SanFreedSet *s)
{
    free(s->v);
    memset(s, 0, sizeof(*s));
}
