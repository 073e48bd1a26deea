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
 * LRU entry of its set goes).  The walk is a fixed latency (no memory
 * traffic is modelled for it).
 */
#ifndef PTXEMU_TIMING_GPU_MEM_TLB_H
#define PTXEMU_TIMING_GPU_MEM_TLB_H

#include <stddef.h>
#include <stdint.h>

typedef struct TlbCfg {
    uint32_t l1_sets, l1_ways, l2_sets, l2_ways;
    uint64_t page;              /* bytes, a power of two */
    uint32_t l2_lat, walk_lat;  /* extra cycles */
} TlbCfg;

typedef struct TlbStats {
    uint64_t l1_hit, l2_hit, miss;
} TlbStats;

typedef struct Tlb Tlb;

/* NULL with a message in err, or out of memory. */
Tlb *tlb_new(const TlbCfg *cfg, TlbStats *st, char *err, size_t errlen);
void tlb_free(Tlb *t);
/* Translate addr: the extra cycles it costs. */
uint32_t tlb_lookup(Tlb *t, uint64_t addr);
/* Forget every translation (not used between kernels: the page tables
 * stay). */
void tlb_flush(Tlb *t);

#endif
