/*
 * timing/gpu/mem/partition.h: one memory partition: an L2 slice (a
 * write-back Cache), the atomic unit beside it, and a DRAM channel, with
 * the address map that finds a request's bank and row.  The L2 side
 * runs in the L2 clock domain, the channel in the DRAM domain; the
 * owner (hier.c) gives each call the current cycle of both.
 *
 * part_accept takes a request from the interconnect into the L2 slice
 * (constant and instruction reads into the partition's `ci` cache when
 * it has one)
 * (refused when the slice refuses), or, for a unit marked in `bypass`
 * (GT200 caches no global data in its partitions: l2.bypass = global),
 * straight into the channel, its reply then going out without the
 * slice (refused when the channel is full or the output has no room to
 * promise it; atomics never bypass: the atomic unit does them).  part_l2_tick moves the slice's
 * misses and write-backs into the channel's queues (while it accepts)
 * and its replies into the partition's output queue, atomics after the
 * atomic unit: one per L2 cycle, `atom_lat` cycles each (the ROP/atomic
 * units next to the L2 of NVIDIA GPUs since Fermi).  part_dram_tick
 * runs the channel and fills the slice with what it read.  The output
 * (part_out_peek/pop) is what goes back to the SMs.
 */
#ifndef PTXEMU_TIMING_GPU_MEM_PARTITION_H
#define PTXEMU_TIMING_GPU_MEM_PARTITION_H

#include "timing/gpu/mem/addrmap.h"
#include "timing/gpu/mem/cache.h"
#include "timing/gpu/mem/dram.h"

typedef struct Part {
    Cache *l2;
    Cache *ci;                  /* constants and instructions, when they
                                   have a cache of their own (GT200's L3
                                   near the memory controllers); NULL:
                                   they use the L2 slice */
    const DramOps *dops;        /* the channel's model (dram.model) */
    void *dram;                 /* its channel */
    const AddrMapCfg *map;
    MemQ out;                   /* replies going to the SMs */
    MemQ atom;                  /* atomics in the atomic unit */
    uint32_t atom_lat;
    uint64_t atom_free;         /* next cycle the unit takes one */
    const uint8_t *bypass;      /* by MemUnit: skips the slice */
    uint32_t rsv;               /* output slots promised to bypassing
                                   reads in the channel */
    bool dram_blocked;          /* the channel refused: wait for its tick */
    bool out_blocked;           /* the reply network refused the output's
                                   head: the owner clears it on a grant */
} Part;

/* 0, or -1 (out of memory).  Takes ownership of l2 and dram, a channel
 * made by dops->make. */
int part_init(Part *p, Cache *l2, const DramOps *dops, void *dram,
              const AddrMapCfg *map,
              const uint8_t *bypass, uint32_t atom_lat, uint32_t outq);
void part_fini(Part *p);
/* Give constant and instruction reads a cache of their own (owned). */
void part_set_ci(Part *p, Cache *ci);
CacheOutcome part_accept(Part *p, const MemMsg *m, uint64_t now_l2,
                         uint64_t now_dram);
/* True when it handed the channel something. */
bool part_l2_tick(Part *p, uint64_t now_l2, uint64_t now_dram);
/* In L2 cycles (the output's and the slice's own), leaving out what
 * waits for a refusing neighbour (dram_blocked, out_blocked, a full
 * output). */
uint64_t part_l2_next(const Part *p);
void part_dram_tick(Part *p, uint64_t now_dram, uint64_t now_l2);
/* The channel's next cycle (DRAM cycles; MEM_NEVER: idle). */
static inline uint64_t part_dram_next(const Part *p)
{
    return p->dops->next(p->dram);
}
const MemMsg *part_out_peek(const Part *p, uint64_t now_l2);
void part_out_pop(Part *p);

#endif
