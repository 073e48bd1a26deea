/*
 * runtime/cudart/rt_ptsz.c: the per-thread-default-stream entry points
 * (_ptsz) of the calls that put work on a stream or wait for one.  A
 * program built with `nvcc --default-stream per-thread` calls these,
 * and passes 0 to mean its thread's per-thread default stream
 * (cudaStreamPerThread); each is the plain call with that stream.  The
 * emulator runs every stream in one order, so the difference shows in
 * stream capture (rt_capture.c): the per-thread stream is another
 * stream in each thread, and is not the legacy one.  The _ptsz forms of
 * the launches are rt_launch.c's, those of capture rt_capture.c's; the
 * forms that only query a stream, and the _ptds synchronous copies,
 * stay aliases of the plain calls.
 */
#include "runtime/cudart/rt_internal.h"

/* ------------------------------------------------------------ memory */

RT_API cudaError_t cudaMallocAsync_ptsz(void **p, size_t size,
                                        cudaStream_t s)
{
    return cudaMallocAsync(p, size, rt_ptsz(s));
}

RT_API cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s)
{
    return cudaFreeAsync(p, rt_ptsz(s));
}

RT_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src,
                                        size_t n, enum cudaMemcpyKind kind,
                                        cudaStream_t s)
{
    return cudaMemcpyAsync(dst, src, n, kind, rt_ptsz(s));
}

RT_API cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch,
                                          const void *src, size_t spitch,
                                          size_t width, size_t height,
                                          enum cudaMemcpyKind kind,
                                          cudaStream_t s)
{
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind,
                             rt_ptsz(s));
}

RT_API cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
                                          cudaStream_t s)
{
    return cudaMemcpy3DAsync(p, rt_ptsz(s));
}

RT_API cudaError_t
cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch,
                                cudaArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t width, size_t height,
                                enum cudaMemcpyKind kind, cudaStream_t s)
{
    return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset,
                                      width, height, kind, rt_ptsz(s));
}

RT_API cudaError_t
cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                              size_t hOffset, const void *src, size_t spitch,
                              size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t s)
{
    return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch,
                                    width, height, kind, rt_ptsz(s));
}

RT_API cudaError_t
cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t n,
                               size_t off, enum cudaMemcpyKind kind,
                               cudaStream_t s)
{
    return cudaMemcpyFromSymbolAsync(dst, symbol, n, off, kind, rt_ptsz(s));
}

RT_API cudaError_t
cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t n,
                             size_t off, enum cudaMemcpyKind kind,
                             cudaStream_t s)
{
    return cudaMemcpyToSymbolAsync(symbol, src, n, off, kind, rt_ptsz(s));
}

RT_API cudaError_t cudaMemsetAsync_ptsz(void *p, int value, size_t n,
                                        cudaStream_t s)
{
    return cudaMemsetAsync(p, value, n, rt_ptsz(s));
}

RT_API cudaError_t cudaMemset2DAsync_ptsz(void *p, size_t pitch, int value,
                                          size_t width, size_t height,
                                          cudaStream_t s)
{
    return cudaMemset2DAsync(p, pitch, value, width, height, rt_ptsz(s));
}

/* ------------------------------------------------ streams and events */

RT_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s)
{
    return cudaStreamSynchronize(rt_ptsz(s));
}

RT_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t s)
{
    return cudaStreamQuery(rt_ptsz(s));
}

RT_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t ev,
                                            unsigned flags)
{
    return cudaStreamWaitEvent(rt_ptsz(s), ev, flags);
}

RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t ev, cudaStream_t s)
{
    return cudaEventRecord(ev, rt_ptsz(s));
}

RT_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t ev,
                                                 cudaStream_t s,
                                                 unsigned flags)
{
    return cudaEventRecordWithFlags(ev, rt_ptsz(s), flags);
}

RT_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t s, cudaHostFn_t fn,
                                           void *data)
{
    return cudaLaunchHostFunc(rt_ptsz(s), fn, data);
}

RT_API cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t s,
                                              cudaStreamCallback_t fn,
                                              void *data, unsigned flags)
{
    return cudaStreamAddCallback(rt_ptsz(s), fn, data, flags);
}

/* ------------------------------------------------------------ graphs */

RT_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t x, cudaStream_t s)
{
    return cudaGraphLaunch(x, rt_ptsz(s));
}

RT_API cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t x, cudaStream_t s)
{
    return cudaGraphUpload(x, rt_ptsz(s));
}
