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
 * must appear in the instruction's text (".rn", ".approx", ".full" ...;
 * one that begins with '%' must begin an operand instead: "%clock");
 * the most specific matching row wins (the most modifiers; then the
 * first in the table).  Every row cites where its numbers come from (a
 * disassembly of nvcc's output for that architecture, or a published
 * measurement).
 */
#ifndef PTXEMU_TIMING_GPU_EXPAND_H
#define PTXEMU_TIMING_GPU_EXPAND_H

#include <stdint.h>

#include "timing/ptxemu_timing.h"

/* The longest sequence in the table: ptxas's 64-bit signed division
 * (87 machine instructions on sm_70, tests/gpu_expand/sass.txt). */
#define GPU_EXPAND_MAX 96

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

typedef enum GpuExpandArch {
    GPU_EXPAND_GT200 = 0,
    GPU_EXPAND_FERMI,
    GPU_EXPAND_VOLTA,
    GPU_EXPAND_AMPERE,
    GPU_EXPAND_HOPPER,
    GPU_EXPAND_ARCH_COUNT
} GpuExpandArch;

/* The architectures that have a table ("gt200", "fermi", "volta",
 * "ampere", "hopper"); -1 if none. */
int gpu_expand_arch(const char *name);
/* The expansion of insn on arch, NULL when it is one machine
 * instruction of its own unit.  The pointer is the table's (static).
 * Modifiers are read from insn->text (its first word after any guard);
 * an instruction without text matches only rows without modifiers.  A
 * lookup scans the table: cache the answer per instruction. */
const GpuExpand *gpu_expand(int arch, const ptxemu_tm_insn *insn);

/* One row of a table: arch, opcode name, type (bytes, 0: any) and the
 * modifiers that must all appear (".rn.f32": "rn" and "f32"). */
typedef struct GpuExpandRow {
    uint8_t arch;
    uint8_t type;
    const char *opname;
    const char *mods;
    GpuExpand e;
} GpuExpandRow;

/* The matching rule over any table (gpu_expand uses the built-in one):
 * the row of arch matching insn with the most modifiers, the first of
 * those in table order; NULL if none. */
const GpuExpand *gpu_expand_match(const GpuExpandRow *rows, uint32_t nrows,
                                  int arch, const ptxemu_tm_insn *insn);
/* The built-in table, for tests and listings. */
const GpuExpandRow *gpu_expand_table(uint32_t *nrows);

#endif
