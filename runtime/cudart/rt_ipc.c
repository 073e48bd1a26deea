/*
 * runtime/cudart/rt_ipc.c: CUDA IPC (cudaIpcGetMemHandle,
 * cudaIpcOpenMemHandle, cudaIpcCloseMemHandle, cudaIpcGetEventHandle,
 * cudaIpcOpenEventHandle) over the driver's (runtime/cuda/drv_ipc.c:
 * memory and events, between processes).  The runtime's
 * handles are the driver's 64 bytes.
 */
#include <stdint.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"

_Static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(CUipcMemHandle) &&
               sizeof(cudaIpcEventHandle_t) == sizeof(CUipcEventHandle),
               "IPC handles differ");

static cudaError_t done(CUresult r)
{
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *h, void *p)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuIpcGetMemHandle((CUipcMemHandle *)h,
                                 (CUdeviceptr)(uintptr_t)p));
}

RT_API cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t h,
                                        unsigned flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUipcMemHandle ch;
    memcpy(&ch, &h, sizeof ch);
    CUdeviceptr d = 0;
    e = done(cuIpcOpenMemHandle_v2(p ? &d : NULL, ch, flags));
    if (e == cudaSuccess)
        *p = (void *)(uintptr_t)d;
    return e;
}

RT_API cudaError_t cudaIpcCloseMemHandle(void *p)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuIpcCloseMemHandle((CUdeviceptr)(uintptr_t)p));
}

RT_API cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *h,
                                         cudaEvent_t ev)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuIpcGetEventHandle((CUipcEventHandle *)h, (CUevent)ev));
}

RT_API cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *ev,
                                          cudaIpcEventHandle_t h)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUipcEventHandle ch;
    memcpy(&ch, &h, sizeof ch);
    return done(cuIpcOpenEventHandle((CUevent *)ev, ch));
}
