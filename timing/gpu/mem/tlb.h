/*
 * timing/gpu/mem/tlb.h: a two-level TLB of one SM, as microbenchmarks
 * show on GT200 (Wong et al., "Demystifying GPU microarchitecture
 * through microbenchmarking", ISPASS 2010: a 16-entry fully associative
 * L1 TLB, an 8-way L2 TLB, and latency plateaus that add about 47 cycles
 * for an L2 TLB hit and about 258 for a miss).
 *
 * tlb_lookup(addr) translates the page of addr (pages of `page` bytes):
 * found in the L1 TLB (sets x ways, LRU): 0 extra cycles; else found in
 * the L2 TLB (sets x ways, LRU): l2_lat; else a page walk: walk_lat.  A
 * translation found below is installed in every level above it (the
 * LRU entry of its set goes).
 *
 * The walk is a fixed latency (walk_levels 0), or memory traffic
 * (walk_levels N >= 1): tlb_lookup then answers TLB_WALK on a miss and
 * installs nothing; the owner reads the N page-table entries one after
 * another through the memory system (tlb_pte gives their addresses)
 * and installs the translation with tlb_fill when the last is back.
 * The page table is a radix tree of 8-byte entries, 512 to a table
 * (9 bits of the page number per level, as in the x86-64 and NVIDIA
 * Pascal-onward page tables), level 0 the root: level l's entry for
 * page number vpn is at pt_base + l x 2^32 + (vpn >> 9 (N - 1 - l)) x 8
 * (each level's tables laid out densely in a region of its own).
 */
#ifndef PTXEMU_TIMING_GPU_MEM_TLB_H
#define PTXEMU_TIMING_GPU_MEM_TLB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct TlbCfg {
    uint32_t l1_sets, l1_ways, l2_sets, l2_ways;
    uint64_t page;              /* bytes, a power of two */
    uint32_t l2_lat, walk_lat;  /* extra cycles */
    uint32_t walk_levels;       /* 0: walk_lat; else page-table reads */
    uint64_t pt_base;           /* the page table's address */
} TlbCfg;

typedef struct TlbStats {
    uint64_t l1_hit, l2_hit, miss;
    uint64_t walks;             /* walks done through memory */
} TlbStats;

#define TLB_WALK UINT32_MAX

typedef struct Tlb Tlb;

/* NULL with a message in err, or out of memory. */
Tlb *tlb_new(const TlbCfg *cfg, TlbStats *st, char *err, size_t errlen);
void tlb_free(Tlb *t);
/* Translate addr: the extra cycles it costs, or TLB_WALK (a miss with
 * walk_levels >= 1: nothing installed). */
uint32_t tlb_lookup(Tlb *t, uint64_t addr);
/* Whether addr's page is in the first level (no counts, no LRU
 * change). */
bool tlb_present(const Tlb *t, uint64_t addr);
/* The address of the page-table entry of level l (0: the root) that
 * translates addr. */
uint64_t tlb_pte(const Tlb *t, uint64_t addr, uint32_t l);
/* A walk for addr is done: install it in both levels; count the walk. */
void tlb_fill(Tlb *t, uint64_t addr);
/* Forget every translation (not used between kernels: the page tables
 * stay). */
void tlb_flush(Tlb *t);

#endif
