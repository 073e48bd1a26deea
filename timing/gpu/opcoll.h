/*
 * timing/gpu/opcoll.h: operand collection (AFR section 3.3; GPGPU-Sim's
 * operand collector).  A banked register file and a set of collector
 * units per scheduler.  An issued instruction takes a free collector
 * unit (none free: issue stalls) and reads each source register from its
 * bank; each bank serves `ports` reads per cycle, older requests first;
 * when all its operands are read the instruction is dispatched to its
 * function unit and the collector is free again.  A register's bank is
 * (slot + warp) % banks, so that the same register of neighbouring warps
 * falls in different banks (the swizzle GPGPU-Sim models).
 *
 * Off (`enabled` false), every instruction spends a fixed `latency`
 * cycles reading operands and there is no limit: modern NVIDIA cores
 * schedule register reads with compiler control bits and a register
 * reuse cache, which neither mode models (a known source of error).
 *
 * Deterministic: arbitration is by collector age, then collector index.
 */
#ifndef PTXEMU_TIMING_GPU_OPCOLL_H
#define PTXEMU_TIMING_GPU_OPCOLL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct GpuOcConfig {
    bool enabled;
    uint32_t banks;         /* register-file banks */
    uint32_t ports;         /* reads per bank per cycle */
    uint32_t collectors;    /* collector units */
    uint32_t latency;       /* disabled: fixed operand-read cycles */
    uint32_t collector_reads; /* reads one collector takes per cycle
                                 (0: no limit; AFR Fig. 3.17: 1) */
} GpuOcConfig;

typedef struct GpuOc GpuOc;

GpuOc *gpu_oc_new(const GpuOcConfig *c);
void gpu_oc_free(GpuOc *oc);
/* Whether a collector is free at cycle now (always true when disabled). */
bool gpu_oc_can_take(const GpuOc *oc);
/* An instruction of warp `warp` issued at cycle now reads `nsrc` source
 * slots (implicit slots >= PTXEMU_TM_SLOT_IMPLICIT read no bank; a slot
 * named twice is read once), from cycle now + 1 on (AFR Fig. 3.14:
 * issue, then register read); disabled, it is done at now + latency;
 * `cookie` names it.  false: no free collector (do not issue). */
bool gpu_oc_take(GpuOc *oc, uint32_t warp, const uint32_t *src,
                 uint32_t nsrc, uint64_t cookie, uint64_t now);
/* Run bank arbitration for cycle now (call it for every cycle from
 * gpu_oc_next() on while work remains); the cookies of instructions whose
 * operands are all read by the end of it go to out[] (at most `max`),
 * oldest first; returns how many.  Those left stay for later cycles. */
uint32_t gpu_oc_cycle(GpuOc *oc, uint64_t now, uint64_t *out, uint32_t max);
/* A writeback of warp `warp` to `ndst` slots at cycle `at` (> the last
 * cycle run): each slot's bank gives one of its ports that cycle to the
 * write, before any read (AFR section 3.3: writes take priority). */
void gpu_oc_writeback(GpuOc *oc, uint32_t warp, const uint32_t *dst,
                      uint32_t ndst, uint64_t at);
/* Earliest cycle gpu_oc_cycle has work (UINT64_MAX: none in flight). */
uint64_t gpu_oc_next(const GpuOc *oc);
/* Statistics: bank conflicts (a read that waited for its bank), reads. */
uint64_t gpu_oc_conflicts(const GpuOc *oc);
uint64_t gpu_oc_reads(const GpuOc *oc);

#endif
