/*
 * timing/lib/map.c: the 64-bit-keyed hash map (contract in map.h).
 */
#include "config.h"

#include <stdlib.h>

#include "timing/lib/map.h"

#define EMPTY 0u
#define TOMB UINT64_MAX

static size_t hash(uint64_t x, size_t cap)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull; /* the murmur3 64-bit finalizer */
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

void *tm_map_get(const TmMap *m, uint64_t key)
{
    if (m->cap == 0 || key == EMPTY || key == TOMB) {
        return NULL;
    }
    for (size_t i = hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->key[i] == key) {
            return m->val[i];
        }
        if (m->key[i] == EMPTY) {
            return NULL;
        }
    }
}

static int grow(TmMap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    while ((m->n + 1) * 2 > cap) {
        cap *= 2;
    }
    uint64_t *key = calloc(cap, sizeof *key);
    void **val = calloc(cap, sizeof *val);
    if (!key || !val) {
        free(key);
        free(val);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->key[i] != EMPTY && m->key[i] != TOMB) {
            size_t j = hash(m->key[i], cap);
            while (key[j] != EMPTY) {
                j = (j + 1) & (cap - 1);
            }
            key[j] = m->key[i];
            val[j] = m->val[i];
        }
    }
    free(m->key);
    free(m->val);
    m->key = key;
    m->val = val;
    m->cap = cap;
    m->tomb = 0;
    return 0;
}

int tm_map_put(TmMap *m, uint64_t key, void *val)
{
    if (key == EMPTY || key == TOMB) {
        return -1;
    }
    if ((m->n + m->tomb + 1) * 2 > m->cap && grow(m) != 0) {
        return -1;
    }
    size_t i = hash(key, m->cap);
    size_t slot = SIZE_MAX; /* the first tombstone on the probe path */
    while (m->key[i] != EMPTY && m->key[i] != key) {
        if (m->key[i] == TOMB && slot == SIZE_MAX) {
            slot = i;
        }
        i = (i + 1) & (m->cap - 1);
    }
    if (m->key[i] != key) {
        if (slot != SIZE_MAX) {
            i = slot;
            m->tomb--;
        }
        m->n++;
    }
    m->key[i] = key;
    m->val[i] = val;
    return 0;
}

void tm_map_del(TmMap *m, uint64_t key)
{
    if (m->cap == 0 || key == EMPTY || key == TOMB) {
        return;
    }
    for (size_t i = hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->key[i] == EMPTY) {
            return;
        }
        if (m->key[i] == key) {
            m->key[i] = TOMB;
            m->val[i] = NULL;
            m->n--;
            m->tomb++;
            return;
        }
    }
}

void tm_map_free(TmMap *m)
{
    free(m->key);
    free(m->val);
    m->key = NULL;
    m->val = NULL;
    m->cap = m->n = m->tomb = 0;
}
