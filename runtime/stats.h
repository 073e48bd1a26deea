/*
 * runtime/stats.h: statistics kept by the host API (runtime/api.c).
 *
 * Launch-level counters come from EmuLaunch after emu_launch_run; the
 * per-step counters are fed one EmuStepRecord at a time (from the core's
 * step hook, when it has one: see api.c).  Internal to the runtime.
 */
#ifndef PTXEMU_RUNTIME_STATS_H
#define PTXEMU_RUNTIME_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "emu/exec.h"
#include "runtime/ptxemu.h"

typedef struct RtStats {
    ptxemu_stats s;
    uint64_t op_warp[PTX_OP_COUNT];
    uint64_t op_thread[PTX_OP_COUNT];
} RtStats;

void rt_stats_reset(RtStats *st);
/* Account one executed step. */
void rt_stats_step(RtStats *st, const EmuStepRecord *rec);
/* Account one finished launch (grid/block sizes, warp instructions when
 * no step was seen). */
void rt_stats_launch(RtStats *st, const EmuLaunch *l, uint64_t steps_seen);
ptxemu_space rt_stats_space(unsigned ptx_space);
size_t rt_stats_opcodes(const RtStats *st, ptxemu_opcode_count *out,
                        size_t max);

/* The statistics of dev as JSON (`ptxemu run --stats=FILE`,
 * PTXEMU_STATS=FILE); kernel NULL leaves out the kernel, grid and
 * block, which only a single-kernel run has. */
/* The per-opcode counts of dev, most frequent first: a malloc'd array
 * of *n entries (NULL when there are none). */
ptxemu_opcode_count *rt_stats_opcode_list(ptxemu_device *dev, size_t *n);
void rt_stats_write_json(FILE *o, ptxemu_device *dev, const char *kernel,
                         const unsigned grid[3], const unsigned block[3]);
#endif
