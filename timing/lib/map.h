/*
 * timing/lib/map.h: a hash map from non-zero 64-bit keys (host handles
 * cast to integers, asynchronous-operation tokens) to pointers, shared
 * by the built-in timing models.  Open addressing with linear probing; a
 * deleted entry leaves a tombstone until the next growth.  Keys 0 and
 * UINT64_MAX are reserved (empty, tombstone): put refuses them.
 * Iteration order is never used for timing decisions, so the hash may
 * depend on pointer values without making a model non-deterministic.
 */
#ifndef PTXEMU_TIMING_LIB_MAP_H
#define PTXEMU_TIMING_LIB_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct TmMap {
    uint64_t *key;
    void **val;
    size_t cap, n, tomb;
} TmMap;

/* The value of key, NULL if absent. */
void *tm_map_get(const TmMap *m, uint64_t key);
/* Insert or replace.  0, or -1 when out of memory or the key is
 * reserved. */
int tm_map_put(TmMap *m, uint64_t key, void *val);
void tm_map_del(TmMap *m, uint64_t key);
void tm_map_free(TmMap *m);

/* A host handle as a key. */
static inline uint64_t tm_map_ptr(const void *p)
{
    return (uint64_t)(uintptr_t)p;
}

#endif
