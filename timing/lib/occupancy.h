/*
 * timing/lib/occupancy.h: what one CTA of a kernel holds on an SM and
 * how many more fit, by the rules of NVIDIA's CUDA occupancy calculator:
 * threads, warps, CTA slots, registers (regs_per_thread * 32 per warp,
 * rounded up to reg_alloc_unit, times the CTA's warps) and shared memory
 * (static + dynamic + a per-CTA system reserve, rounded up to
 * shared_alloc_unit).  Shared by the built-in timing models.
 */
#ifndef PTXEMU_TIMING_LIB_OCCUPANCY_H
#define PTXEMU_TIMING_LIB_OCCUPANCY_H

#include <stdint.h>

#include "timing/ptxemu_timing.h"

typedef struct TmOccLimits {
    uint64_t max_threads, max_warps, max_ctas;
    uint64_t regs, reg_alloc_unit;      /* 32-bit registers per SM */
    uint64_t shared, shared_alloc_unit, shared_reserved; /* bytes */
} TmOccLimits;

/* An amount of an SM's resources (what a CTA holds, or what is used). */
typedef struct TmOccUse {
    uint64_t threads, warps, regs, shared, ctas;
} TmOccUse;

/* What one CTA of kernel k holds (ctas = 1).  Units must be >= 1. */
void tm_occ_need(const TmOccLimits *l, const ptxemu_tm_kernel *k,
                 TmOccUse *need);
/* How many more CTAs needing `need` fit beside `used`. */
uint64_t tm_occ_room(const TmOccLimits *l, const TmOccUse *used,
                     const TmOccUse *need);
/* used += need (sign +1) or used -= need (sign -1). */
void tm_occ_add(TmOccUse *used, const TmOccUse *need, int sign);

#endif
