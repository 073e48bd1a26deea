/*
 * timing/gpu/expand.h: PTX-to-machine expansion.  ptxas turns some PTX
 * instructions into several machine instructions (div.rn.f32, sqrt.rn,
 * rcp.rn.f64, integer div/rem, 64-bit multiply, sin/cos with range
 * reduction, 32-bit mul on GT200 ...).  The `gpu` model times such an
 * instruction as that sequence, from a per-architecture table
 * (expand.def): how many parts, and each part's unit, latency and
 * initiation interval.  Instructions without a row are one machine
 * instruction of their own unit (the unit of the static instruction
 * info) with the unit's configured latency.
 *
 * Rows match on the opcode name, the type (bits), and modifiers that
 * must appear in the instruction's text (".rn", ".approx", ".full" ...);
 * the most specific matching row wins (the most modifiers; then the
 * first in the table).  Every row cites where its numbers come from (a
 * disassembly of nvcc's output for that architecture, or a published
 * measurement).
 */
#ifndef PTXEMU_TIMING_GPU_EXPAND_H
#define PTXEMU_TIMING_GPU_EXPAND_H

#include <stdint.h>

#include "timing/ptxemu_timing.h"

#define GPU_EXPAND_MAX 16

typedef struct GpuExpandPart {
    uint8_t unit;       /* ptxemu_tm_unit */
    uint16_t latency;   /* cycles to its result */
    uint16_t ii;        /* cycles the unit is busy per warp instruction */
} GpuExpandPart;

typedef struct GpuExpand {
    uint32_t n;                         /* parts, 1..GPU_EXPAND_MAX */
    GpuExpandPart part[GPU_EXPAND_MAX];
    const char *source;                 /* where the numbers come from */
} GpuExpand;

/* The architectures that have a table ("gt200", "fermi", "volta",
 * "ampere", "hopper"); -1 if none. */
int gpu_expand_arch(const char *name);
/* The expansion of insn on arch, NULL when it is one machine
 * instruction of its own unit.  The pointer is the table's (static). */
const GpuExpand *gpu_expand(int arch, const ptxemu_tm_insn *insn);

#endif
