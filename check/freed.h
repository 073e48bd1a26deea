/*
 * check/freed.h: memcheck's record of freed device memory: which
 * address ranges were allocations that have been freed, each with its
 * allocation and free sites, so that a use after free is named as such
 * however long ago the free was.
 *
 * Contract.
 *  - Ranges are kept sorted and disjoint; san_freed_add() of a range
 *    first drops every range it overlaps, and san_freed_reuse() drops
 *    the ranges a new allocation overlaps (the only eviction: a range
 *    whose addresses are handed out again is no longer freed memory).
 *  - Bounded: at most SAN_FREED_MAX ranges (32 bytes each); past that
 *    the lowest-addressed half is forgotten (device addresses grow, so
 *    those are the oldest frees); out of host memory a range is not
 *    recorded (a use after free of it is then reported as out of
 *    bounds: less said, never more).
 *  - Sites are the caller's numbers (check/memcheck.c's site table).
 */
#ifndef PTXEMU_CHECK_FREED_H
#define PTXEMU_CHECK_FREED_H

#include <stddef.h>
#include <stdint.h>

#define SAN_FREED_MAX (1u << 20)

typedef struct SanFreed {
    uint64_t addr, size;
    uint32_t alloc_site, free_site;
    uint32_t kind;                /* EmuAllocKind */
} SanFreed;

typedef struct SanFreedSet {
    SanFreed *v;                  /* sorted by addr, disjoint */
    size_t n, cap;
} SanFreedSet;

void san_freed_add(SanFreedSet *s, const SanFreed *f);
/* [addr, addr + size) is allocated again. */
void san_freed_reuse(SanFreedSet *s, uint64_t addr, uint64_t size);
/* The freed range holding addr, or NULL. */
const SanFreed *san_freed_at(const SanFreedSet *s, uint64_t addr);
void san_freed_free(SanFreedSet *s);

#endif
