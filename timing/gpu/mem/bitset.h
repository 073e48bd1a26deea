/*
 * timing/gpu/mem/bitset.h: a set of small integers as an array of
 * 64-bit words, for the memory system's "which of these have work"
 * sets (DRAM banks with requests, crossbar ports with packets), so a
 * component visits only its busy members, in index order.
 *
 * The caller owns the words (bitset_words(n) of them, zeroed for the
 * empty set); nothing here allocates or checks bounds.  Visit the
 * members in ascending order with
 *     for (uint32_t k = 0; k < nw; k++)
 *         for (uint64_t m = w[k]; m; m &= m - 1)
 *             ... bitset_at(k, m) ...
 * (a few instructions a member: these loops run every cycle), or from a
 * given one on with bitset_next.
 */
#ifndef PTXEMU_TIMING_GPU_MEM_BITSET_H
#define PTXEMU_TIMING_GPU_MEM_BITSET_H

#include <stdbool.h>
#include <stdint.h>

#define BITSET_END UINT32_MAX

static inline uint32_t bitset_words(uint32_t n)
{
    return (n + 63) / 64;
}

static inline void bitset_add(uint64_t *w, uint32_t i)
{
    w[i / 64] |= 1ull << (i % 64);
}

static inline void bitset_del(uint64_t *w, uint32_t i)
{
    w[i / 64] &= ~(1ull << (i % 64));
}

static inline bool bitset_has(const uint64_t *w, uint32_t i)
{
    return (w[i / 64] >> (i % 64)) & 1;
}

/* The member m's lowest bit stands for, m a nonzero word k. */
static inline uint32_t bitset_at(uint32_t k, uint64_t m)
{
    return k * 64 + (uint32_t)__builtin_ctzll(m);
}

/* The least member >= from of the set of nw words, BITSET_END if none. */
static inline uint32_t bitset_next(const uint64_t *w, uint32_t nw,
                                   uint32_t from)
{
    uint32_t k = from / 64;
    if (k >= nw) {
        return BITSET_END;
    }
    uint64_t m = w[k] & (~0ull << (from % 64));
    while (!m) {
        if (++k == nw) {
            return BITSET_END;
        }
        m = w[k];
    }
    return k * 64 + (uint32_t)__builtin_ctzll(m);
}

/* The least member >= from of a minus b (both of nw words), BITSET_END
 * if none. */
static inline uint32_t bitset_next_andnot(const uint64_t *a,
                                          const uint64_t *b, uint32_t nw,
                                          uint32_t from)
{
    uint32_t k = from / 64;
    if (k >= nw) {
        return BITSET_END;
    }
    uint64_t m = a[k] & ~b[k] & (~0ull << (from % 64));
    while (!m) {
        if (++k == nw) {
            return BITSET_END;
        }
        m = a[k] & ~b[k];
    }
    return k * 64 + (uint32_t)__builtin_ctzll(m);
}

#endif
