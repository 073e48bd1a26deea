/*
 * runtime/cuda/drv_ptsz.c: the per-thread-default-stream forms (_ptsz)
 * of the entry points that put work on a stream or wait for one.  In
 * them 0 names the calling thread's per-thread default stream, not the
 * legacy one (CUDA Driver API, "Stream synchronization behavior"): the
 * work is the same, but a capture tells the two apart (a capture of the
 * per-thread stream takes only that thread's work, and the legacy
 * stream cannot be used while a blocking stream captures).  Each form
 * calls the plain entry point with CU_STREAM_PER_THREAD for 0.  A
 * static CUDA runtime built with --default-stream per-thread asks
 * cuGetProcAddress for these.
 */
#include "config.h"

#include <string.h>

#include "runtime/cuda/drv.h"

static CUstream pt(CUstream s)
{
    return s ? s : CU_STREAM_PER_THREAD;
}

/* A prototype for name, the _ptsz form of plain. */
#define PTSZ(name, plain) extern __typeof__(plain) name;

PTSZ(cuLaunchKernel_ptsz, cuLaunchKernel)
CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX,
                             unsigned int gridDimY, unsigned int gridDimZ,
                             unsigned int blockDimX, unsigned int blockDimY,
                             unsigned int blockDimZ,
                             unsigned int sharedMemBytes, CUstream hStream,
                             void **kernelParams, void **extra)
{
    return cuLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX,
                          blockDimY, blockDimZ, sharedMemBytes, pt(hStream),
                          kernelParams, extra);
}

PTSZ(cuLaunchCooperativeKernel_ptsz, cuLaunchCooperativeKernel)
CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX,
                                        unsigned int gridDimY,
                                        unsigned int gridDimZ,
                                        unsigned int blockDimX,
                                        unsigned int blockDimY,
                                        unsigned int blockDimZ,
                                        unsigned int sharedMemBytes,
                                        CUstream hStream,
                                        void **kernelParams)
{
    return cuLaunchCooperativeKernel(f, gridDimX, gridDimY, gridDimZ,
                                     blockDimX, blockDimY, blockDimZ,
                                     sharedMemBytes, pt(hStream),
                                     kernelParams);
}

PTSZ(cuLaunchKernelEx_ptsz, cuLaunchKernelEx)
CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
                               void **kernelParams, void **extra)
{
    if (!config) {
        return cuLaunchKernelEx(config, f, kernelParams, extra);
    }
    CUlaunchConfig c = *config;
    c.hStream = pt(c.hStream);
    return cuLaunchKernelEx(&c, f, kernelParams, extra);
}

PTSZ(cuMemcpyAsync_ptsz, cuMemcpyAsync)
CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src,
                            size_t ByteCount, CUstream hStream)
{
    return cuMemcpyAsync(dst, src, ByteCount, pt(hStream));
}

PTSZ(cuMemcpyPeerAsync_ptsz, cuMemcpyPeerAsync)
CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext,
                                CUdeviceptr srcDevice, CUcontext srcContext,
                                size_t ByteCount, CUstream hStream)
{
    return cuMemcpyPeerAsync(dstDevice, dstContext, srcDevice, srcContext,
                             ByteCount, pt(hStream));
}

PTSZ(cuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2)
CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost,
                                   size_t ByteCount, CUstream hStream)
{
    return cuMemcpyHtoDAsync_v2(dstDevice, srcHost, ByteCount, pt(hStream));
}

PTSZ(cuMemcpyDtoHAsync_v2_ptsz, cuMemcpyDtoHAsync_v2)
CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice,
                                   size_t ByteCount, CUstream hStream)
{
    return cuMemcpyDtoHAsync_v2(dstHost, srcDevice, ByteCount, pt(hStream));
}

PTSZ(cuMemcpyDtoDAsync_v2_ptsz, cuMemcpyDtoDAsync_v2)
CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice,
                                   CUdeviceptr srcDevice, size_t ByteCount,
                                   CUstream hStream)
{
    return cuMemcpyDtoDAsync_v2(dstDevice, srcDevice, ByteCount,
                                pt(hStream));
}

PTSZ(cuMemcpy2DAsync_v2_ptsz, cuMemcpy2DAsync_v2)
CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy,
                                 CUstream hStream)
{
    return cuMemcpy2DAsync_v2(pCopy, pt(hStream));
}

PTSZ(cuMemcpy3DAsync_v2_ptsz, cuMemcpy3DAsync_v2)
CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy,
                                 CUstream hStream)
{
    return cuMemcpy3DAsync_v2(pCopy, pt(hStream));
}

PTSZ(cuMemsetD8Async_ptsz, cuMemsetD8Async)
CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc,
                              size_t N, CUstream hStream)
{
    return cuMemsetD8Async(dstDevice, uc, N, pt(hStream));
}

PTSZ(cuMemsetD16Async_ptsz, cuMemsetD16Async)
CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us,
                               size_t N, CUstream hStream)
{
    return cuMemsetD16Async(dstDevice, us, N, pt(hStream));
}

PTSZ(cuMemsetD32Async_ptsz, cuMemsetD32Async)
CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui,
                               size_t N, CUstream hStream)
{
    return cuMemsetD32Async(dstDevice, ui, N, pt(hStream));
}

PTSZ(cuMemsetD2D8Async_ptsz, cuMemsetD2D8Async)
CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch,
                                unsigned char uc, size_t Width,
                                size_t Height, CUstream hStream)
{
    return cuMemsetD2D8Async(dstDevice, dstPitch, uc, Width, Height,
                             pt(hStream));
}

PTSZ(cuMemsetD2D16Async_ptsz, cuMemsetD2D16Async)
CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch,
                                 unsigned short us, size_t Width,
                                 size_t Height, CUstream hStream)
{
    return cuMemsetD2D16Async(dstDevice, dstPitch, us, Width, Height,
                              pt(hStream));
}

PTSZ(cuMemsetD2D32Async_ptsz, cuMemsetD2D32Async)
CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch,
                                 unsigned int ui, size_t Width,
                                 size_t Height, CUstream hStream)
{
    return cuMemsetD2D32Async(dstDevice, dstPitch, ui, Width, Height,
                              pt(hStream));
}

PTSZ(cuEventRecord_ptsz, cuEventRecord)
CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
    return cuEventRecord(hEvent, pt(hStream));
}

PTSZ(cuEventRecordWithFlags_ptsz, cuEventRecordWithFlags)
CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream,
                                     unsigned int flags)
{
    return cuEventRecordWithFlags(hEvent, pt(hStream), flags);
}

PTSZ(cuStreamWaitEvent_ptsz, cuStreamWaitEvent)
CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent,
                                unsigned int Flags)
{
    return cuStreamWaitEvent(pt(hStream), hEvent, Flags);
}

PTSZ(cuLaunchHostFunc_ptsz, cuLaunchHostFunc)
CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
    return cuLaunchHostFunc(pt(hStream), fn, userData);
}

PTSZ(cuStreamAddCallback_ptsz, cuStreamAddCallback)
CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback,
                                  void *userData, unsigned int flags)
{
    return cuStreamAddCallback(pt(hStream), callback, userData, flags);
}

PTSZ(cuStreamSynchronize_ptsz, cuStreamSynchronize)
CUresult cuStreamSynchronize_ptsz(CUstream hStream)
{
    return cuStreamSynchronize(pt(hStream));
}

PTSZ(cuStreamQuery_ptsz, cuStreamQuery)
CUresult cuStreamQuery_ptsz(CUstream hStream)
{
    return cuStreamQuery(pt(hStream));
}
