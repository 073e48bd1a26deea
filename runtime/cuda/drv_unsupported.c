/*
 * runtime/cuda/drv_unsupported.c: every other entry point of the CUDA
 * 13 driver, so that no program fails to load over a missing symbol.
 * Each says once on stderr that the emulator does not support it and
 * returns CUDA_ERROR_NOT_SUPPORTED.  The list (drv_unsupported.def) is
 * generated: the real driver's exports minus what drv_*.c define.
 *
 * The stubs take no parameters: callers pass theirs in registers or on
 * their own stack frame (the caller cleans up on every ABI we build
 * for), and a stub reads none of them.
 */
#include "config.h"

#include <stdio.h>

#include "runtime/cuda/drv.h"

static CUresult unsupported(const char *name, int *said)
{
    if (!__atomic_exchange_n(said, 1, __ATOMIC_RELAXED)) {
        fprintf(stderr, "ptxemu: %s is not supported by the emulator\n",
                name);
    }
    return drv_trace(CUDA_ERROR_NOT_SUPPORTED, name, "%s", "...");
}

#define X(name) \
    CUresult name(void); \
    CUresult name(void) \
    { \
        static int said; \
        return unsupported(#name, &said); \
    }
#include "runtime/cuda/drv_unsupported.def"
#undef X
