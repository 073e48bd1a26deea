/*
 * check/map.c: the checkers' hash map (see map.h).
 */
#include <stdlib.h>

#include "check/map.h"

static size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 33;                 /* a 64-bit finaliser (MurmurHash3) */
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

static bool grow(SanMap *m)
{
    size_t nc = m->cap ? m->cap * 2 : 64;
    SanMapEnt *v = calloc(nc, sizeof(*v));
    if (!v) {
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->v[i].used) {
            size_t j = slot_of(m->v[i].key, nc);
            while (v[j].used) {
                j = (j + 1) & (nc - 1);
            }
            v[j] = m->v[i];
        }
    }
    free(m->v);
    m->v = v;
    m->cap = nc;
    return true;
}

uint64_t *san_map_get(SanMap *m, uint64_t key, bool add)
{
    if (m->cap) {
        for (size_t j = slot_of(key, m->cap);; j = (j + 1) & (m->cap - 1)) {
            if (!m->v[j].used) {
                break;
            }
            if (m->v[j].key == key) {
                return &m->v[j].val;
            }
        }
    }
    if (!add || ((m->n + 1) * 2 > m->cap && !grow(m))) {
        return NULL;
    }
    size_t j = slot_of(key, m->cap);
    while (m->v[j].used) {
        j = (j + 1) & (m->cap - 1);
    }
    m->v[j] = (SanMapEnt){ key, 0, true };
    m->n++;
    return &m->v[j].val;
}

void san_map_free(SanMap *m)
{
    free(m->v);
    *m = (SanMap){ 0 };
}
