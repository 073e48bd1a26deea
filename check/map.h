/*
 * check/map.h: a hash map from 64-bit keys to 64-bit values for the
 * checkers (shadow pages, interned locations, reported pairs).
 *
 * Contract: open addressing, linear probing, grown at half full; any key
 * (0 included).  san_map_get returns a pointer to the value of key,
 * inserting it with value 0 when `add`, else NULL when absent; NULL also
 * when the host is out of memory (the caller then checks less, never
 * more).  Pointers are valid until the next insertion.
 */
#ifndef PTXEMU_CHECK_MAP_H
#define PTXEMU_CHECK_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct SanMapEnt {
    uint64_t key, val;
    bool used;
} SanMapEnt;

typedef struct SanMap {
    SanMapEnt *v;
    size_t n, cap;
} SanMap;

uint64_t *san_map_get(SanMap *m, uint64_t key, bool add);
void san_map_free(SanMap *m);

#endif
