/*
 * timing/gpu/coalesce.h: address coalescing of one warp instruction's
 * global/local/constant/texture accesses into memory transactions, by
 * each GPU generation's rules.  Pure functions: no state, no host calls.
 *
 * Rules (sources in coalesce.c):
 *  - GPU_COALESCE_CC13 (compute capability 1.2/1.3, GT200): per
 *    half-warp, segments of 32, 64 or 128 bytes, the smallest aligned
 *    segment holding the requested words, reduced as the CUDA C
 *    Programming Guide (v3.x, appendix G.3.2.2) describes;
 *  - GPU_COALESCE_LINE128 (Fermi, Kepler with L1 caching): per warp, one
 *    transaction per distinct 128-byte line;
 *  - GPU_COALESCE_SECTOR32 (Maxwell onward): per warp, one transaction
 *    per distinct 128-byte line carrying the mask of its 32-byte sectors.
 *
 * Output transactions never cross a 128-byte line and come in a fixed
 * order (ascending address within each half-warp/warp group), so timing
 * is deterministic.  Accesses of different kinds (read/write/atomic) or
 * spaces are the caller's to separate: pass one kind and space at once.
 */
#ifndef PTXEMU_TIMING_GPU_COALESCE_H
#define PTXEMU_TIMING_GPU_COALESCE_H

#include <stddef.h>
#include <stdint.h>

#include "timing/ptxemu_timing.h"

typedef enum GpuCoalesceRule {
    GPU_COALESCE_CC13 = 0,
    GPU_COALESCE_LINE128,
    GPU_COALESCE_SECTOR32,
    GPU_COALESCE_RULE_COUNT
} GpuCoalesceRule;

/* cc13: a segment (addr, size 32/64/128, sectors: the ones it spans);
 * line128: a whole line (size 128, sectors 0xF); sector32: a line (size
 * 128) of which only `sectors` move (32 bytes each). */
typedef struct GpuTxn {
    uint64_t addr;      /* first byte (segment or line start) */
    uint32_t size;      /* bytes: 32, 64 or 128 */
    uint32_t sectors;   /* 32-byte sectors of its 128-byte line, bits 0..3 */
} GpuTxn;

/* The rule named `name` ("cc13", "line128", "sector32"); -1 if none. */
int gpu_coalesce_rule(const char *name);

/* The transactions of `nacc` accesses (one kind, one space) under rule.
 * Writes them to *out (grown with realloc; *cap its capacity) and
 * returns how many, or (size_t)-1 when out of memory. */
size_t gpu_coalesce(GpuCoalesceRule rule, const ptxemu_tm_access *acc,
                    uint32_t nacc, GpuTxn **out, size_t *cap);

#endif
