/*
 * emu/gpuspec.h: the figures of the GPU the emulator pretends to be, per
 * compute capability, and what follows from them: device attributes
 * (cuDeviceGetAttribute / cudaDeviceGetAttribute, host and device side
 * alike) and the occupancy calculator.  One source for the drop-in
 * driver (runtime/cuda) and the device runtime (emu/devrt.c), so that
 * a kernel asking the device runtime gets the host API's answers.
 */
#ifndef PTXEMU_EMU_GPUSPEC_H
#define PTXEMU_EMU_GPUSPEC_H

#include <stddef.h>

/* Sources: CUDA C++ Programming Guide, "Compute Capabilities" table
 * (technical specifications per compute capability), and NVIDIA's
 * published data sheets for the default SM counts and clocks. */
typedef struct EmuGpu {
    unsigned arch;                      /* 80 for sm_80 */
    const char *model;                  /* "A100" */
    unsigned sms;
    unsigned threads_per_sm;
    unsigned blocks_per_sm;
    unsigned regs_per_sm;
    unsigned smem_per_sm;               /* bytes */
    unsigned smem_optin;                /* per block, opt-in */
    unsigned l2_bytes;
    unsigned clock_khz;
    unsigned mem_clock_khz;
    unsigned bus_width;
    unsigned long long total_mem;
} EmuGpu;

/* Static shared memory a block may use without opting in, and what the
 * system reserves per block from sm_80 on. */
enum { EMU_GPU_SMEM_STATIC_MAX = 48 * 1024, EMU_GPU_SMEM_RESERVED = 1024 };

#define EMU_GPU_DEFAULT_ARCH 80u

/* The GPU of compute capability `arch` (nearest lower one we know). */
EmuGpu emu_gpu_for(unsigned arch);

/* Device attribute `attr` (CUdevice_attribute / cudaDeviceAttr, same
 * values) into *out; -1 for a value that is no attribute. */
int emu_gpu_attribute(const EmuGpu *g, int attr, int *out);

/* The shared-memory capacities in KB an SM of g may be configured to
 * (the L1/shared carve-out, Volta on), ascending, into *kb; their count,
 * 0 before Volta. */
unsigned emu_gpu_carveouts(const EmuGpu *g, const unsigned short **kb);

/* The shared memory of an SM running a kernel whose blocks each take
 * `per_block` bytes (with the system's reserve), under the preferred
 * carve-out `carveout` (percent of smem_per_sm, as
 * cudaFuncAttributePreferredSharedMemoryCarveout; -1: none, the whole
 * smem_per_sm). */
size_t emu_gpu_carveout_bytes(const EmuGpu *g, int carveout,
                              size_t per_block);

/* The occupancy calculator: blocks of `threads` threads using `regs`
 * registers per thread and `smem` bytes of shared memory (static plus
 * dynamic) that one SM holds, under the preferred carve-out `carveout`
 * (-1: none). */
int emu_gpu_blocks_per_sm(const EmuGpu *g, int regs, int threads,
                          size_t smem, int carveout);

#endif
