/*
 * emu/devrt.h: the CUDA device runtime (dynamic parallelism, CDP2 as in
 * CUDA 12 and 13): kernels launching kernels.
 *
 * Binding.  nvcc -rdc=true turns a device-side kernel<<<g, b, shm, s>>>
 * into calls of extern functions without a body (libcudadevrt's
 * __cudaCDP2* entry points).  emu_builtin_handler() (builtins.c) asks
 * emu_devrt_handler() for those names; any other __cudaCDP2* name keeps
 * failing the module load as unsupported, naming the function.
 *
 * Launching.  __cudaCDP2GetParameterBufferV2(func, grid, block, shmem)
 * returns a parameter buffer in device memory (256-byte aligned, exactly
 * the child kernel's .param bytes, so a write past them faults), laid
 * out as the kernel's .param list; the function value is what `mov.u64
 * %rd, kernel` gives.  __cudaCDP2LaunchDeviceV2(buffer, stream) copies
 * the parameters, releases the buffer and queues the child grid; the V1
 * pair GetParameterBuffer(align, size) / LaunchDevice(func, buffer, grid,
 * block, shmem, stream) works the same way.  Errors are returned and
 * become the calling thread's last error (cudaGetLastError reads and
 * clears it, cudaPeekAtLastError only reads it):
 *   - a function value that is not a kernel of the module:
 *     cudaErrorInvalidDeviceFunction (98), GetParameterBufferV2 gives 0;
 *   - more than EmuDevice.cdp_pending_limit (0 = 2048, CUDA's
 *     cudaLimitDevRuntimePendingLaunchCount) launches queued and not yet
 *     started: cudaErrorLaunchPendingCountExceeded (69), the buffer
 *     call gives 0;
 *   - a bad grid, block or shared size: cudaErrorInvalidConfiguration
 *     (9); a grid at depth EMU_CDP_MAX_DEPTH (the host's grids are depth
 *     0): cudaErrorLaunchMaxDepthExceeded (65); an unknown stream or
 *     buffer: cudaErrorInvalidResourceHandle (400) / cudaErrorInvalidValue.
 *
 * Order (deterministic).  Children of a grid run after all the grid's
 * threads finished and before the grid is complete (emu_launch_run
 * returns), one at a time, in the order they were launched (scheduler
 * order, lanes ascending), each with its own descendants before the next
 * (depth first); launches into cudaStreamTailLaunch run after all the
 * grid's other children.  cudaMemcpy{,2D,3D}Async and
 * cudaMemset{,2D,3D}Async (and _ptsz) are queued the same way, with the
 * child grids, and run in that order: work one thread issues into one
 * stream runs in issue order, as CDP2 streams require
 * (emu/devrt_async.c: arguments, errors, faults).  That is one schedule
 * CDP2 allows: the NULL, fire-and-forget and created streams give no
 * ordering a program may rely on beyond it, and tail launches run after
 * the grid's other work.
 *
 * Graphs.  cudaGraphSetConditional(handle, value) stores the 32-bit
 * value at the device address `handle`: what the drop-in libraries make
 * a conditional handle (runtime/graph/gcond.h).
 *
 * Faults.  A child's fault stops its ancestors: the host launch fails
 * with the child's fault (kernel, CTA, thread, PTX location), its detail
 * naming the launching grid and thread.  Children not yet run are
 * dropped.
 *
 * Queries (emu/devrt_query.c), answered from the host API's sources:
 * cudaGetErrorString / cudaGetErrorName (a generic pointer to a
 * constant string in one read-only device allocation made once per
 * device, the texts of emu/cuerr.h as the host libcudart gives them),
 * cudaDeviceGetAttribute (emu/gpuspec.h: the configured GPU,
 * EmuConfig.arch), cudaDeviceGetCacheConfig (PreferNone),
 * cudaDeviceGetSharedMemConfig (FourByte), cudaFuncGetAttributes (the
 * host's values for a kernel not changed by cudaFuncSetAttribute),
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags] (the host's
 * calculator).
 *
 * Also: cudaStreamCreateWithFlags (cudaStreamNonBlocking only, as CUDA
 * requires in device code) / cudaStreamDestroy, events (create,
 * record, record with flags, destroy, stream wait: no-ops in this
 * schedule), cudaGetDevice (0), cudaGetDeviceCount (1),
 * cudaDeviceGetLimit, cudaRuntimeGetVersion, and cudaMalloc / cudaFree
 * on malloc's device heap (emu/builtins.h; cudaFree of anything else
 * returns cudaErrorInvalidValue).
 *
 * Statistics and tracing: a child starts with its parent's step hook and
 * grid hook (EmuLaunch.grid_hook, called before and after each child
 * grid runs, for counting and for PTXEMU_TRACE).
 */
#ifndef PTXEMU_EMU_DEVRT_H
#define PTXEMU_EMU_DEVRT_H

#include "emu/exec.h"

#define EMU_CDP_PENDING_DEFAULT 2048u
#define EMU_CDP_MAX_DEPTH 24u

/* The handler of the device-runtime function `name`, or NULL. */
EmuHandler emu_devrt_handler(const char *name);

/* After l's threads ran with status st: run its children when st is
 * EMU_OK, then free l's device-runtime state.  Returns the launch's
 * status (a child's fault is copied into l). */
EmuStatus emu_devrt_finish(EmuLaunch *l, EmuStatus st);

#endif
