/*
 * timing/gpu/smem.c: shared-memory bank conflicts and constant-cache
 * serialisation (contract in smem.h).
 *
 * Sources:
 *  - Multicast (b->one_broadcast 0): CUDA C Programming Guide 3.2,
 *    G.4.3.1 (compute capability 2.x): threads that access any bytes of
 *    the same 32-bit word do not conflict; a request with conflicts is
 *    split into as many conflict-free requests as needed, i.e. as many
 *    as the largest number of distinct words in one bank.  64-bit and
 *    128-bit accesses (G.4.3.2) touch two and four consecutive banks
 *    per thread, which the same count covers: a warp of float2 needs 2
 *    passes, of float4 4.
 *  - One broadcast word per pass (b->one_broadcast 1): the same guide,
 *    G.3.3 (compute capability 1.x): a warp's request is split into one
 *    request per half-warp, each served in steps; a step takes one
 *    broadcast word (every address in it) and one address of each
 *    other bank.  Which word and which address are unspecified, so we
 *    take those of the lowest-numbered lane still waiting
 *    (deterministic).  This gives the guide's examples: char
 *    shared[tid] 4-way within a half-warp, double shared[tid] 2-way.
 *  - Constant memory: the same guide, "Constant Memory" (Performance
 *    Guidelines, Device Memory Accesses): a request is split into as
 *    many separate requests as there are different memory addresses in
 *    it (per half-warp on 1.x, per warp on 2.x); an address is counted
 *    as the 32-bit word its access starts in.
 *
 * An access is the bank words its bytes span (one for a narrower
 * aligned access, ceil(size / width) for an aligned wider one).
 */
#include "timing/gpu/smem.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "timing/lib/isort.h"

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

#define NONE SIZE_MAX

/* Multicast: passes = the most distinct words any one bank holds.
 * Each bank chains the distinct words seen so far (head/next: scratch
 * of banks and n entries). */
static uint32_t multicast_passes(const Want *w, size_t n, uint32_t banks,
                                 size_t *head, uint32_t *count, size_t *next)
{
    for (uint32_t b = 0; b < banks; b++) {
        head[b] = NONE;
        count[b] = 0;
    }
    uint32_t most = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t b = w[i].bank;
        size_t j = head[b];
        while (j != NONE && w[j].word != w[i].word) {
            j = next[j];
        }
        if (j == NONE) {
            next[i] = head[b];
            head[b] = i;
            count[b]++;
            most = count[b] > most ? count[b] : most;
        }
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

/* Word and bank arithmetic, by shifts and masks when the bank width
 * and count are powers of two (as on every GPU; a 64-bit division per
 * word costs more than the rest of the count). */
typedef struct Geom {
    uint32_t width, banks;
    int wshift;         /* log2(width), -1 if not a power of two */
    int bpow2;
} Geom;

static int log2_exact(uint32_t v)
{
    return (v & (v - 1)) ? -1 : __builtin_ctz(v);
}

static uint64_t word_of(const Geom *g, uint64_t addr)
{
    return g->wshift >= 0 ? addr >> g->wshift : addr / g->width;
}

static uint32_t bank_of(const Geom *g, uint64_t word)
{
    return (uint32_t)(g->bpow2 ? word & (g->banks - 1) : word % g->banks);
}

/* The bank words an access touches, less one. */
static uint64_t span_words(const Geom *g, const ptxemu_tm_access *a)
{
    uint32_t sz = a->size ? a->size : 1;
    uint64_t in_word = a->addr - (word_of(g, a->addr) * g->width);
    return word_of(g, in_word + sz - 1);
}

/* Scratch of one call: on the stack for a warp of up to 128-bit
 * accesses on up to 64 banks, else on the heap. */
#define SMEM_STACK_WANTS 256
#define SMEM_STACK_BANKS 64

uint32_t gpu_smem_wavefronts(const GpuBanks *b, const ptxemu_tm_access *acc,
                             uint32_t nacc)
{
    uint32_t banks = b->banks ? b->banks : 1, width = b->width ? b->width : 1;
    uint32_t group = b->group ? b->group : 32;
    const Geom g = {width, banks, log2_exact(width), log2_exact(banks) >= 0};
    size_t n = 0;
    for (uint32_t i = 0; i < nacc; i++) {
        n += span_words(&g, &acc[i]) + 1;
    }
    if (n == 0) {
        return 0;
    }
    Want wstack[SMEM_STACK_WANTS];
    size_t nstack[SMEM_STACK_WANTS], hstack[SMEM_STACK_BANKS];
    uint32_t cstack[SMEM_STACK_BANKS];
    bool sstack[SMEM_STACK_BANKS];
    bool small_n = n <= SMEM_STACK_WANTS, small_b = banks <= SMEM_STACK_BANKS;
    Want *w = small_n ? wstack : malloc(n * sizeof(*w));
    size_t *next = small_n ? nstack : malloc(n * sizeof(*next));
    size_t *head = small_b ? hstack : malloc(banks * sizeof(*head));
    uint32_t *count = small_b ? cstack : malloc(banks * sizeof(*count));
    bool *served = small_b ? sstack : malloc(banks * sizeof(*served));
    uint32_t total = 0;
    if (!w || !next || !head || !count || !served) {
        /* no memory for the exact count: every word its own pass */
        total = (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
        goto out;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < nacc; i++) {
        uint64_t first = word_of(&g, acc[i].addr);
        uint64_t span = span_words(&g, &acc[i]);
        for (uint64_t j = 0; j <= span; j++) {
            uint64_t word = first + j;
            w[k++] = (Want){word, bank_of(&g, word), acc[i].lane & 31u, false};
        }
    }
    tm_isort(w, n, sizeof(*w), by_lane_word);
    for (size_t h = 0; h < n;) {
        size_t e = h;
        while (e < n && w[e].lane / group == w[h].lane / group) {
            e++;
        }
        total += b->one_broadcast
                     ? broadcast_steps(w + h, e - h, banks, served)
                     : multicast_passes(w + h, e - h, banks, head, count,
                                        next + h);
        h = e;
    }
out:
    if (!small_n) {
        free(w);
        free(next);
    }
    if (!small_b) {
        free(head);
        free(count);
        free(served);
    }
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
    uint64_t kstack[64];
    uint64_t *key = nacc <= 64 ? kstack : malloc(nacc * sizeof(*key));
    if (!key) {
        return nacc; /* no memory for the exact count: an upper bound */
    }
    for (uint32_t i = 0; i < nacc; i++) {
        uint64_t g = (acc[i].lane & 31u) / group;
        key[i] = g << 58 | ((acc[i].addr / 4) & ((1ull << 58) - 1));
    }
    tm_isort(key, nacc, sizeof(*key), by_u64);
    uint32_t total = 0;
    for (uint32_t i = 0; i < nacc; i++) {
        total += i == 0 || key[i] != key[i - 1];
    }
    if (key != kstack) {
        free(key);
    }
    return total;
}
