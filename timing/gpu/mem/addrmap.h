/*
 * timing/gpu/mem/addrmap.h: where a global address lives in DRAM: its
 * memory partition (one L2 slice and one DRAM channel each), and inside
 * that channel its rank, bank group, bank, row and column.
 *
 * The address is cut into chunks of `gran` bytes (the partition
 * interleave).  Chunk c = addr / gran; with P partitions, low = c % P and
 * up = c / P.  The partition is
 *  - linear: low;
 *  - xor:    low XOR fold(up) for P a power of two, (low + fold(up)) % P
 *            otherwise, where fold(up) XORs together the k-bit fields of
 *            up (k = bits of P - 1): consecutive groups of P chunks are
 *            permuted differently, so strides that are multiples of
 *            P x gran spread over every partition (Zhang, Zhu and Zhang,
 *            "A permutation-based page interleaving scheme to reduce
 *            row-buffer conflicts", MICRO 2000);
 *  - poly:   c mod an irreducible polynomial of degree log2(P) over
 *            GF(2) (P a power of two; Rau, "Pseudo-randomly interleaved
 *            memory", ISCA 1991).  As c = up x 2^k + low, this is low
 *            XOR (up x 2^k mod p): a permutation of each group too.
 * Each mapping permutes the P chunks of a group, so the address inside
 * the partition, local = up x gran + addr % gran, is unique.  In the
 * channel: column = local % row_bytes, r = local / row_bytes, bank index
 * b = r % (ranks x banks), row = r / (ranks x banks); with xor or poly
 * the bank index is XORed with the row's low bits (banks a power of
 * two: the same permutation scheme).  Then rank = b / banks, and inside
 * the rank consecutive indices alternate bank groups: group = b %
 * bankgroups, bank in group = (b % banks) / bankgroups.
 */
#ifndef PTXEMU_TIMING_GPU_MEM_ADDRMAP_H
#define PTXEMU_TIMING_GPU_MEM_ADDRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef enum AddrHash { ADDR_LINEAR = 0, ADDR_XOR, ADDR_POLY } AddrHash;

typedef struct AddrMapCfg {
    uint32_t parts;             /* memory partitions (DRAM channels) */
    uint32_t gran;              /* interleave bytes: a power of two >= 128 */
    uint32_t ranks;             /* per channel */
    uint32_t banks;             /* per rank, all bank groups */
    uint32_t bankgroups;        /* divides banks */
    uint32_t row_bytes;         /* a row of one bank across the channel */
    AddrHash hash;
} AddrMapCfg;

typedef struct AddrLoc {
    uint32_t part, rank, bg, bank;  /* bank: index inside its group */
    uint32_t bankid;                /* rank x banks + bg + bank x groups:
                                       the bank's index in the channel */
    uint64_t row;
    uint32_t col;
} AddrLoc;

/* The hash by name ("linear", "xor", "poly"); -1 if unknown. */
int addrmap_hash_by_name(const char *name);
/* NULL when cfg is consistent, else why not. */
const char *addrmap_check(const AddrMapCfg *cfg);
/* Where addr lives (cfg checked). */
void addrmap_map(const AddrMapCfg *cfg, uint64_t addr, AddrLoc *out);
/* Only the partition (the hot path of every request). */
uint32_t addrmap_part(const AddrMapCfg *cfg, uint64_t addr);

#endif
