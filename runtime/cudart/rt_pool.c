/*
 * runtime/cudart/rt_pool.c: stream-ordered allocation and memory pools
 * (CUDA runtime API, "Stream Ordered Memory Allocator"), over the
 * driver's pools (runtime/cuda/drv_pool.c, which says how blocks are
 * reused and released).  cudaMemPool_t is the driver's CUmemoryPool.
 *
 * Captured (CUDA: "During stream capture, this function results in the
 * creation of an allocation node"), cudaMallocAsync adds a graph
 * allocation node (rt_graph_mem.c) whose address it returns, and
 * cudaFreeAsync of a graph allocation adds a free node; a captured free
 * of other memory is dropped (the memory stays allocated).  A graph
 * allocation left live by its graph is freed by cudaFreeAsync or
 * cudaFree outside any capture.
 */
#include <stdint.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"
#include "runtime/graph/gmem.h"

#define DP(p) ((CUdeviceptr)(uintptr_t)(p))

static cudaError_t done(CUresult r)
{
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

static enum cudaStreamCaptureStatus capture_status(cudaStream_t s)
{
    enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    (void)cudaStreamIsCapturing(s, &st);
    return st;
}

/* A captured allocation: a graph allocation node of `size` bytes with
 * the pool's properties (the device's default ones for pool NULL). */
static cudaError_t capture_alloc(void **p, size_t size, cudaStream_t s)
{
    rt_node_params np;
    memset(&np, 0, sizeof np);
    np.alloc.a.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    np.alloc.a.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    np.alloc.a.bytesize = size;
    cudaError_t e = rt_graph_alloc_set(&np);
    if (e != cudaSuccess)
        return rt_err(e);
    int taken;
    e = rt_capture_node(s, cudaGraphNodeTypeMemAlloc, &np, &taken);
    if (e == cudaSuccess)
        *p = np.alloc.a.dptr;
    return e;
}

static cudaError_t alloc_async(void **p, size_t size, cudaMemPool_t pool,
                               cudaStream_t s)
{
    if (!p)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || (e = rt_stream_check(s)) != cudaSuccess)
        return e;
    enum cudaStreamCaptureStatus st = capture_status(s);
    if (st == cudaStreamCaptureStatusInvalidated)
        return rt_err(cudaErrorStreamCaptureInvalidated);
    *p = NULL;
    if (size == 0)
        return cudaSuccess;     /* as cudaMalloc: no allocation */
    if (st == cudaStreamCaptureStatusActive)
        return capture_alloc(p, size, s);
    CUdeviceptr d = 0;
    CUresult r = pool ? cuMemAllocFromPoolAsync(&d, size, pool, rt_stream(s))
                      : cuMemAllocAsync(&d, size, rt_stream(s));
    if (r == CUDA_SUCCESS)
        *p = (void *)(uintptr_t)d;
    return done(r);
}

RT_API cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t s)
{
    return alloc_async(p, size, NULL, s);
}

RT_API cudaError_t cudaMallocFromPoolAsync(void **p, size_t size,
                                           cudaMemPool_t pool, cudaStream_t s)
{
    if (!pool)
        return rt_err(cudaErrorInvalidValue);
    return alloc_async(p, size, pool, s);
}

int rt_graph_mem_free(const void *p)
{
    if (!gmem_known(DP(p)))
        return 0;
    return gmem_free(DP(p)) == 0 ? 1 : -1;
}

RT_API cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || (e = rt_stream_check(s)) != cudaSuccess)
        return e;
    enum cudaStreamCaptureStatus st = capture_status(s);
    if (st == cudaStreamCaptureStatusInvalidated)
        return rt_err(cudaErrorStreamCaptureInvalidated);
    if (!p)
        return cudaSuccess;
    if (st == cudaStreamCaptureStatusActive) {
        if (!gmem_known(DP(p)))
            return cudaSuccess;
        rt_node_params np;
        memset(&np, 0, sizeof np);
        np.free_ptr = p;
        int taken;
        return rt_capture_node(s, cudaGraphNodeTypeMemFree, &np, &taken);
    }
    switch (rt_graph_mem_free(p)) {
    case 1:
        return cudaSuccess;
    case -1:
        return rt_err(cudaErrorInvalidValue);
    default:
        return done(cuMemFreeAsync(DP(p), rt_stream(s)));
    }
}

/* ------------------------------------------------- the device's pools */

static cudaError_t device_ok(int dev)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && dev != 0)
        e = rt_err(cudaErrorInvalidDevice);
    return e;
}

RT_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int dev)
{
    cudaError_t e = device_ok(dev);
    return e != cudaSuccess ? e : done(cuDeviceGetDefaultMemPool(pool, 0));
}

RT_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int dev)
{
    cudaError_t e = device_ok(dev);
    return e != cudaSuccess ? e : done(cuDeviceGetMemPool(pool, 0));
}

RT_API cudaError_t cudaDeviceSetMemPool(int dev, cudaMemPool_t pool)
{
    cudaError_t e = device_ok(dev);
    return e != cudaSuccess ? e : done(cuDeviceSetMemPool(0, pool));
}

RT_API cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *pool,
                                            struct cudaMemLocation *loc,
                                            int type)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemGetDefaultMemPool(pool, (CUmemLocation *)loc, type));
}

RT_API cudaError_t cudaMemGetMemPool(cudaMemPool_t *pool,
                                     struct cudaMemLocation *loc, int type)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemGetMemPool(pool, (CUmemLocation *)loc, type));
}

RT_API cudaError_t cudaMemSetMemPool(struct cudaMemLocation *loc, int type,
                                     cudaMemPool_t pool)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemSetMemPool((CUmemLocation *)loc, type, pool));
}

/* ------------------------------------------------------------ pools */

_Static_assert(sizeof(struct cudaMemPoolProps) == sizeof(CUmemPoolProps) &&
               sizeof(struct cudaMemAccessDesc) == sizeof(CUmemAccessDesc) &&
               sizeof(struct cudaMemLocation) == sizeof(CUmemLocation) &&
               sizeof(struct cudaMemAllocNodeParams)
                   == sizeof(CUDA_MEM_ALLOC_NODE_PARAMS),
               "runtime and driver pool structures differ");

RT_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool,
                                     const struct cudaMemPoolProps *props)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemPoolCreate(pool, (const CUmemPoolProps *)props));
}

RT_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e : done(cuMemPoolDestroy(pool));
}

RT_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e : done(cuMemPoolTrimTo(pool, keep));
}

RT_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool,
                                           enum cudaMemPoolAttr attr,
                                           void *value)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemPoolSetAttribute(pool, (CUmemPool_attribute)attr, value));
}

RT_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool,
                                           enum cudaMemPoolAttr attr,
                                           void *value)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemPoolGetAttribute(pool, (CUmemPool_attribute)attr, value));
}

RT_API cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool,
                                        const struct cudaMemAccessDesc *map,
                                        size_t count)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemPoolSetAccess(pool, (const CUmemAccessDesc *)map, count));
}

RT_API cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t pool,
                                        struct cudaMemLocation *loc)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemPoolGetAccess(flags, pool, (CUmemLocation *)loc));
}

/* IPC: no pool has a shareable handle type (cudaDevAttrMemoryPool-
 * SupportedHandleTypes is 0), so the driver refuses these. */
RT_API cudaError_t cudaMemPoolExportToShareableHandle(void *handle,
                                                      cudaMemPool_t pool,
                                                      int type,
                                                      unsigned flags)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemPoolExportToShareableHandle(handle, pool, type, flags));
}

RT_API cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *pool,
                                                        void *handle,
                                                        int type,
                                                        unsigned flags)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemPoolImportFromShareableHandle(pool, handle, type, flags));
}

RT_API cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *d,
                                            void *p)
{
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e
        : done(cuMemPoolExportPointer((CUmemPoolPtrExportData *)d, DP(p)));
}

RT_API cudaError_t cudaMemPoolImportPointer(void **p, cudaMemPool_t pool,
                                            struct cudaMemPoolPtrExportData *d)
{
    cudaError_t e = rt_enter();
    CUdeviceptr a = 0;
    if (e == cudaSuccess)
        e = done(cuMemPoolImportPointer(&a, pool,
                                        (CUmemPoolPtrExportData *)d));
    if (e == cudaSuccess && p)
        *p = (void *)(uintptr_t)a;
    return e;
}
