/*
 * timing/gpu/mem/ideal.h: the `ideal` memory system (GpuMemOps, see
 * timing/gpu/gpu_mem.h): no caches, no interconnect, no DRAM timing.
 * Every request is answered a fixed latency per space (mem.ideal.*)
 * after it leaves its SM's port; global, local and texture data
 * (requests of those spaces, atomics) pass a per-SM port of
 * mem.ideal.bytes_per_cycle bytes a cycle (sectors x 32 bytes, or the
 * segment size), in order; the port refuses a request (back-pressure)
 * while more than mem.ideal.queue cycles of transfers wait in it.
 * Replies due in one cycle come SM by SM, each SM's in the order its
 * requests were sent.  Nothing is shared between SMs: the system is
 * split by SM (gpu_mem.h), its statistics counted per SM.
 * Defaults follow gpu.arch (sources in ideal.c).
 */
#ifndef PTXEMU_TIMING_GPU_MEM_IDEAL_H
#define PTXEMU_TIMING_GPU_MEM_IDEAL_H

#include "timing/gpu/gpu_mem.h"

extern const GpuMemOps gpu_mem_ideal;

#endif
