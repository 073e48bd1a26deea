/*
 * runtime/cudart/rt_error.c: error names and strings, the per-thread last
 * error, sticky kernel faults and the driver-to-runtime error table.
 *
 * CUDA's semantics (CUDA Runtime API, "Error Handling"): every failing
 * call records its error as the calling thread's last error, which
 * cudaGetLastError returns and resets and cudaPeekAtLastError returns.
 * A kernel fault (illegal address, trap, assert ...) corrupts the
 * context: from then on every call that uses the device returns it, and
 * cudaGetLastError cannot clear it, until cudaDeviceReset.
 */
#include <pthread.h>
#include <stddef.h>

#include "emu/cuerr.h"
#include "runtime/cudart/rt_internal.h"

typedef EmuCudaError rt_errinfo;

/* One table with the device runtime (emu/cuerr.h). */
static const rt_errinfo *errinfo_find(int value)
{
    return emu_cuda_error(value);
}

static const char unknown_code[] = EMU_CUDA_ERROR_UNKNOWN_TEXT;

RT_API const char *cudaGetErrorName(cudaError_t e)
{
    const rt_errinfo *i = errinfo_find((int)e);
    return i ? i->name : unknown_code;
}

RT_API const char *cudaGetErrorString(cudaError_t e)
{
    const rt_errinfo *i = errinfo_find((int)e);
    return i ? i->text : unknown_code;
}

/* ------------------------------------------------------- last error */

static __thread cudaError_t last_error = cudaSuccess;
static cudaError_t sticky = cudaSuccess;
static pthread_mutex_t sticky_lock = PTHREAD_MUTEX_INITIALIZER;

cudaError_t rt_err(cudaError_t e)
{
    if (e != cudaSuccess) {
        last_error = e;
        rt_api_error(e);
    }
    return e;
}

static cudaError_t sticky_get(void)
{
    pthread_mutex_lock(&sticky_lock);
    cudaError_t e = sticky;
    pthread_mutex_unlock(&sticky_lock);
    return e;
}

/* The errors after which a real context is unusable. */
static const cudaError_t sticky_errors[] = {
    cudaErrorIllegalAddress, cudaErrorLaunchTimeout, cudaErrorAssert,
    cudaErrorHardwareStackError, cudaErrorIllegalInstruction,
    cudaErrorMisalignedAddress, cudaErrorInvalidAddressSpace,
    cudaErrorInvalidPc, cudaErrorLaunchFailure,
};

void rt_sticky_note(cudaError_t e)
{
    for (size_t i = 0; i < sizeof sticky_errors / sizeof *sticky_errors;
         i++) {
        if (sticky_errors[i] != e)
            continue;
        pthread_mutex_lock(&sticky_lock);
        if (sticky == cudaSuccess)
            sticky = e;
        pthread_mutex_unlock(&sticky_lock);
        return;
    }
}

void rt_sticky_clear(void)
{
    pthread_mutex_lock(&sticky_lock);
    sticky = cudaSuccess;
    pthread_mutex_unlock(&sticky_lock);
    last_error = cudaSuccess;
}

cudaError_t rt_sticky(void)
{
    return sticky_get();
}

RT_API cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    cudaError_t s = sticky_get();
    last_error = cudaSuccess;
    return s != cudaSuccess ? s : e;
}

RT_API cudaError_t cudaPeekAtLastError(void)
{
    cudaError_t s = sticky_get();
    return s != cudaSuccess ? s : last_error;
}

/* ------------------------------------------------ driver -> runtime */

/* CUresult values whose runtime counterpart has another value or
 * meaning (cuda.h vs driver_types.h); every other CUresult has the
 * runtime error of the same value. */
static const struct { int cu; cudaError_t rt; } cu_exceptions[] = {
    { 201, cudaErrorDeviceUninitialized },      /* INVALID_CONTEXT */
    { 202, cudaErrorIncompatibleDriverContext },/* CONTEXT_ALREADY_CURRENT */
    { 400, cudaErrorInvalidResourceHandle },    /* INVALID_HANDLE */
    { 500, cudaErrorSymbolNotFound },           /* NOT_FOUND */
    { 708, cudaErrorSetOnActiveProcess },       /* PRIMARY_CONTEXT_ACTIVE */
};

cudaError_t rt_map(CUresult r)
{
    int v = (int)r;
    for (size_t i = 0; i < sizeof cu_exceptions / sizeof *cu_exceptions;
         i++)
        if (cu_exceptions[i].cu == v)
            return cu_exceptions[i].rt;
    return errinfo_find(v) ? (cudaError_t)v : cudaErrorUnknown;
}

cudaError_t rt_cu(CUresult r)
{
    cudaError_t e = rt_map(r);
    rt_sticky_note(e);
    return rt_err(e);
}
