/*
 * timing/gpu/smem.h: shared-memory bank conflicts and constant-cache
 * serialisation of one warp instruction.  Pure functions.
 *
 * Shared memory is `banks` banks of `width` bytes; consecutive words go
 * to consecutive banks.  Lanes are served `group` at a time (32: a whole
 * warp, as from Fermi on; 16: half-warps, as on GT200).  Within a group,
 * lanes that read the same word are served together (broadcast, and from
 * Fermi on any multicast); distinct words in one bank serialise.  The
 * result is the number of wavefronts (passes through the banks): 1 means
 * no conflict; a stride-2 access of 4-byte words on 32 banks gives 2, a
 * stride-32 one 32.  Accesses wider than a bank touch each bank they
 * span (a 64-bit access of a full warp: 2 wavefronts on 32x4-byte
 * banks).  Sources in smem.c.
 *
 * Constant memory serialises by distinct address: a warp reading N
 * distinct words takes N passes (CUDA C Programming Guide, "Constant
 * Memory"); `group` 16 counts per half-warp as on GT200 and adds the
 * groups' passes.
 */
#ifndef PTXEMU_TIMING_GPU_SMEM_H
#define PTXEMU_TIMING_GPU_SMEM_H

#include <stdint.h>

#include "timing/ptxemu_timing.h"

typedef struct GpuBanks {
    uint32_t banks;     /* 32 (16 on GT200) */
    uint32_t width;     /* bytes per bank: 4 */
    uint32_t group;     /* lanes served together: 32, or 16 */
    uint32_t one_broadcast; /* 0: any number of words multicast per pass
                               (Fermi on); 1: one broadcast word per pass
                               plus one address per other bank, the
                               compute 1.x rule (GT200) */
} GpuBanks;

/* Wavefronts of one instruction's shared accesses (0 when nacc is 0). */
uint32_t gpu_smem_wavefronts(const GpuBanks *b, const ptxemu_tm_access *acc,
                             uint32_t nacc);
/* Passes of one instruction's constant-space accesses (0 when none). */
uint32_t gpu_const_passes(uint32_t group, const ptxemu_tm_access *acc,
                          uint32_t nacc);

#endif
