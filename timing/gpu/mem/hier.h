/*
 * timing/gpu/mem/hier.h: the `hier` memory system's configuration, read
 * from its typed parameter tables (hier_cfg.c), and the GpuMemOps that
 * wires the components together (hier.c).
 *
 * Per SM: an L1 data cache (l1d.*; mem.l1d = false leaves global and
 * local accesses without one, as on GT200, through a queue of
 * mem.direct_q requests), constant (l1c.*), texture (l1t.*) and
 * instruction (l1i.*) caches.  Then a request crossbar (icnt.*) from the
 * SMs to mem.parts memory partitions, each an L2 slice (l2.*), its
 * atomic unit (atom.lat) and a DRAM channel (dram.*, from the preset
 * dram.preset unless a value is set), addresses spread by map.*; and a
 * reply crossbar back.  With tlb.on, global and local accesses are first
 * translated by the SM's TLB (tlb.h): a miss in its first level holds
 * the request back by the TLB's extra latency (in a queue of tlb.queue
 * requests) before it enters the L1.  With mem.tpc_ci the constant and
 * instruction L1s of each TPC's icnt.group SMs miss into a cache they
 * share (l2ci.*), and with mem.ci_l3 constant and instruction reads use
 * a cache of their own in each partition (l3ci.*): GT200's L2 and L3
 * (Wong et al.).  Four clock domains: the core (the SM's clock,
 * given at create), icnt.mhz, l2.mhz and dram.mhz (0: the core clock;
 * dram.mhz 0: the preset's).  Carve-out (Volta onward): with l1d.unified
 * bytes, the L1 data cache shares its array with shared memory; at each
 * kernel the shared part is one of l1d.carveouts (KB): with no
 * preference (the kernel's carveout, else l1d.carveout percent of the
 * largest capacity; -1: none) the smallest that holds the kernel's
 * shared memory on a full SM; with one, the preferred share rounded up
 * to a capacity, or the smallest that holds one CTA when that is more
 * (as NVIDIA's occupancy calculator); the largest when none is big
 * enough.  The L1 keeps the rest (l1d.ways and l1d.line fixed, its sets
 * follow), and kernel_begin returns the shared part, which limits the
 * kernel's resident CTAs.  L2 access management (CUDA Programming
 * Guide, "L2 Access Management"): at each kernel every L2 slice gets the
 * persisting set-aside (GpuMemKernel.persist_bytes as whole ways: over
 * parts x l2.sets x l2.line bytes, rounded down) and the kernel's
 * access-policy window for global data (L1D, DIRECT and L1T messages),
 * with cache.h's rules; a change of GpuMemKernel.resets makes every
 * persisting line normal first.  Position: the network's ports (icnt.group
 * SMs each, GT200's TPCs) and the partitions lie along one line, port g
 * at g and partition p at p x ports / parts (rounded down); each step
 * of distance between them adds icnt.hop_lat cycles each way (Wong et
 * al. find the latencies past GT200's interconnect depend on the TPC
 * that asks).
 */
#ifndef PTXEMU_TIMING_GPU_MEM_HIER_H
#define PTXEMU_TIMING_GPU_MEM_HIER_H

#include "timing/gpu/mem/addrmap.h"
#include "timing/gpu/mem/cache.h"
#include "timing/gpu/mem/dram.h"
#include "timing/gpu/mem/tlb.h"
#include "timing/gpu/mem/xbar.h"

/* The clock domains, in the order they advance at equal times. */
typedef enum MemDom { DOM_CORE = 0, DOM_ICNT, DOM_L2, DOM_DRAM, DOM_COUNT } MemDom;

typedef struct HierCfg {
    bool l1d_on;
    CacheCfg l1[MEM_UNIT_DIRECT];       /* by MemUnit */
    CacheCfg l2;
    bool ci_on;                         /* mem.ci_l3 */
    CacheCfg l3ci;
    bool tpc_ci;                        /* mem.tpc_ci */
    CacheCfg l2ci;
    uint8_t l2_bypass[MEM_UNIT_COUNT];  /* units that skip the L2 */
    uint32_t parts, direct_q, atom_lat, ctrl_bytes;
    XbarCfg icnt;                       /* nsrc/ndst set per direction */
    uint32_t icnt_group, icnt_hop;      /* SMs per port; cycles per step */
    bool tlb_on;
    TlbCfg tlb;
    uint32_t tlb_q;
    AddrMapCfg map;
    DramCfg dram;
    const DramOps *dram_model;          /* dram.model */
    bool bank_stats;                    /* mem.dram.pN.bankB.* */
    /* the L1/shared-memory carve-out (l1d.unified, l1d.carveouts,
     * l1d.carveout): 0 bytes: none */
    uint64_t unified;
    uint32_t ncarve, carve_kb[16];
    int32_t carve_pref;                 /* percent; -1: none */
    double mhz[DOM_COUNT];
} HierCfg;

/* Declare the tables (once per host). 0, or -1 after api->error. */
int hier_declare(const ptxemu_tm_host_api *api, ptxemu_tm_host *h);
/* Read them into *c (core clock core_mhz).  0, or -1 after api->error
 * with what is wrong. */
int hier_read(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
              double core_mhz, HierCfg *c);

extern const GpuMemOps gpu_mem_hier;

#endif
