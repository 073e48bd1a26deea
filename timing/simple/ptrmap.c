/*
 * timing/simple/ptrmap.c: host handles (opaque pointers) to the model's
 * records, for events that name a warp.  Open addressing with linear
 * probing; a deleted entry leaves a tombstone until the next growth.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "timing/simple/simple.h"

static const char tomb_mark;
#define TOMB ((const void *)&tomb_mark)

static size_t hash(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull; /* the murmur3 64-bit finalizer */
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

void *simple_map_get(const SimplePtrMap *m, const void *key)
{
    if (m->cap == 0) {
        return NULL;
    }
    for (size_t i = hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->key[i] == key) {
            return m->val[i];
        }
        if (!m->key[i]) {
            return NULL;
        }
    }
}

static int grow(SimplePtrMap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    while ((m->n + 1) * 2 > cap) {
        cap *= 2;
    }
    const void **key = calloc(cap, sizeof *key);
    void **val = calloc(cap, sizeof *val);
    if (!key || !val) {
        free(key);
        free(val);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->key[i] && m->key[i] != TOMB) {
            size_t j = hash(m->key[i], cap);
            while (key[j]) {
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

int simple_map_put(SimplePtrMap *m, const void *key, void *val)
{
    if ((m->n + m->tomb + 1) * 2 > m->cap && grow(m) != 0) {
        return -1;
    }
    size_t i = hash(key, m->cap);
    size_t slot = SIZE_MAX; /* the first tombstone on the probe path */
    while (m->key[i] && m->key[i] != key) {
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

void simple_map_del(SimplePtrMap *m, const void *key)
{
    if (m->cap == 0) {
        return;
    }
    for (size_t i = hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->key[i]) {
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

void simple_map_free(SimplePtrMap *m)
{
    free(m->key);
    free(m->val);
    m->key = NULL;
    m->val = NULL;
    m->cap = m->n = m->tomb = 0;
}
