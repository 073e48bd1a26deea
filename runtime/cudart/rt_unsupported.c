/*
 * runtime/cudart/rt_unsupported.c: every other entry point of CUDA 13's
 * runtime (rt_unsupported.def) as a stub, so that programs using them
 * load and fail where they call them, with a message saying why.
 *
 * Each stub is declared without parameters: the System V x86-64 calling
 * convention lets the caller pass any arguments and clean up itself, and
 * every listed function returns a cudaError_t (an int), or nothing.
 */
#include <stdatomic.h>
#include <stdio.h>

#include "runtime/cudart/rt_internal.h"

/* Prints the message once per function (a program polling an
 * unsupported call in a loop would flood stderr) and fails the call,
 * every time, with cudaErrorNotSupported. */
static cudaError_t unsupported(atomic_flag *said, const char *name)
{
    if (!atomic_flag_test_and_set(said))
        fprintf(stderr, "ptxemu: %s is not supported by the emulator\n",
                name);
    return rt_err(cudaErrorNotSupported);
}

#define X(name) \
    RT_API cudaError_t name(void); \
    RT_API cudaError_t name(void) \
    { \
        static atomic_flag said = ATOMIC_FLAG_INIT; \
        return unsupported(&said, #name); \
    }
#include "runtime/cudart/rt_unsupported.def"
#undef X
