/*
 * timing/gpu/smem.c: shared-memory bank conflicts and constant-cache
 * serialisation (contract in smem.h).
 *
 * Sources:
 *  - Multicast (b->one_broadcast 0): CUDA C Programming Guide 3.2,
 *    G.4.3.1 (compute capability 2.x): "a shared memory request for a
 *    warp does not generate a bank conflict between two threads that
 *    access any address within the same 32-bit word"; a request with
 *    conflicts is split into as many conflict-free requests as needed,
 *    i.e. as many as the largest number of distinct words in one bank.
 *    64-bit and 128-bit accesses (G.4.3.2, G.4.3.3) touch two and four
 *    consecutive banks per thread, which the same count covers: a
 *    warp of float2 needs 2 passes, of float4 4.
 *  - One broadcast word per pass (b->one_broadcast 1): the same guide,
 *    G.3.3 (compute capability 1.x): "a shared memory request for a
 *    warp is split into two requests, one for each half-warp"; each
 *    request is served in steps, each step taking one broadcast word
 *    (every address in it) and one address of each other bank; which
 *    word and which address are unspecified, so we take those of the
 *    lowest-numbered lane still waiting (deterministic).  This gives
 *    the guide's examples: char shared[tid] 4-way within a half-warp,
 *    double shared[tid] 2-way.
 *  - Constant memory: the same guide, G.3.4 / G.4.4: a request is split
 *    into as many separate requests as there are different memory
 *    addresses in it (per half-warp on 1.x, per warp on 2.x); an
 *    address is counted as the 32-bit word its access starts in.
 *
 * Each access of `size` bytes is `ceil(size / width)` bank words (a
 * narrower access is its one word).
 */
#include "timing/gpu/smem.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One word one lane wants. */
typedef struct Want {
    uint64_t word;      /* byte address / width */
    uint32_t bank;
    uint32_t lane;
    bool done;
} Want;

static int by_lane_word(const void *a, const void *b)
{
    const Want *x = a, *y = b;
    if (x->lane != y->lane) {
        return x->lane < y->lane ? -1 : 1;
    }
    return x->word < y->word ? -1 : x->word > y->word;
}

static int by_bank_word(const void *a, const void *b)
{
    const Want *x = a, *y = b;
    if (x->bank != y->bank) {
        return x->bank < y->bank ? -1 : 1;
    }
    return x->word < y->word ? -1 : x->word > y->word;
}

/* Multicast: passes = the most distinct words any one bank holds. */
static uint32_t multicast_passes(Want *w, size_t n)
{
    qsort(w, n, sizeof(*w), by_bank_word);
    uint32_t most = 0, run = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && w[i].bank == w[i - 1].bank) {
            run += w[i].word != w[i - 1].word;
        } else {
            run = 1;
        }
        most = run > most ? run : most;
    }
    return most;
}

/* compute 1.x: one broadcast word per step plus one address per other
 * bank (w sorted by lane). */
static uint32_t broadcast_steps(Want *w, size_t n, uint32_t banks,
                                bool *served)
{
    uint32_t steps = 0;
    size_t left = n;
    while (left) {
        memset(served, 0, banks * sizeof(*served));
        size_t k = 0;
        while (w[k].done) {
            k++;
        }
        uint64_t bword = w[k].word;
        served[w[k].bank] = true;
        for (size_t i = k; i < n; i++) {
            if (w[i].done) {
                continue;
            }
            if (w[i].word == bword) {
                w[i].done = true;
                left--;
            } else if (!served[w[i].bank]) {
                served[w[i].bank] = true;
                w[i].done = true;
                left--;
            }
        }
        steps++;
    }
    return steps;
}

uint32_t gpu_smem_wavefronts(const GpuBanks *b, const ptxemu_tm_access *acc,
                             uint32_t nacc)
{
    uint32_t banks = b->banks ? b->banks : 1, width = b->width ? b->width : 1;
    uint32_t group = b->group ? b->group : 32;
    size_t n = 0;
    for (uint32_t i = 0; i < nacc; i++) {
        uint32_t sz = acc[i].size ? acc[i].size : 1;
        n += (acc[i].addr % width + sz + width - 1) / width;
    }
    if (n == 0) {
        return 0;
    }
    Want *w = malloc(n * sizeof(*w));
    bool *served = malloc(banks * sizeof(*served));
    if (!w || !served) {
        /* no memory for the exact count: every word its own pass */
        free(w);
        free(served);
        return (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
    }
    size_t k = 0;
    for (uint32_t i = 0; i < nacc; i++) {
        uint32_t sz = acc[i].size ? acc[i].size : 1;
        uint64_t first = acc[i].addr / width;
        uint64_t last = (acc[i].addr + sz - 1) / width;
        for (uint64_t word = first; word <= last; word++) {
            w[k++] = (Want){word, (uint32_t)(word % banks),
                            acc[i].lane & 31u, false};
        }
    }
    qsort(w, n, sizeof(*w), by_lane_word);
    uint32_t total = 0;
    for (size_t h = 0; h < n;) {
        size_t e = h;
        while (e < n && w[e].lane / group == w[h].lane / group) {
            e++;
        }
        total += b->one_broadcast ? broadcast_steps(w + h, e - h, banks, served)
                                  : multicast_passes(w + h, e - h);
        h = e;
    }
    free(w);
    free(served);
    return total;
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t gpu_const_passes(uint32_t group, const ptxemu_tm_access *acc,
                          uint32_t nacc)
{
    group = group ? group : 32;
    if (nacc == 0) {
        return 0;
    }
    /* key: the lane's group in the top bits, the word below; distinct
     * keys are the passes (addresses are < 2^58 bytes in any space) */
    uint64_t *key = malloc(nacc * sizeof(*key));
    if (!key) {
        return nacc; /* no memory for the exact count: an upper bound */
    }
    for (uint32_t i = 0; i < nacc; i++) {
        uint64_t g = (acc[i].lane & 31u) / group;
        key[i] = g << 58 | ((acc[i].addr / 4) & ((1ull << 58) - 1));
    }
    qsort(key, nacc, sizeof(*key), by_u64);
    uint32_t total = 0;
    for (uint32_t i = 0; i < nacc; i++) {
        total += i == 0 || key[i] != key[i - 1];
    }
    free(key);
    return total;
}
