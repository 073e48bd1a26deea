/*
 * runtime/cudart/rt_memory.c: allocations, copies (every cudaMemcpyKind,
 * 2D, symbols), memsets, registered host memory and pointer attributes.
 *
 * Blocking copies are synchronisation points in CUDA: they wait for the
 * device, return the faults of earlier launches and flush device printf.
 * The emulator runs launches to completion, so the "async" forms differ
 * only in not synchronising first.  Stream-ordered allocation is
 * rt_pool.c's.
 */
#include <stdint.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"

#define DP(p) ((CUdeviceptr)(uintptr_t)(p))

static cudaError_t done(CUresult r)
{
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

/* ------------------------------------------------------ allocation */

/* cudaMalloc; `unsafe`: forbidden while a capture forbids it. */
static cudaError_t alloc(void **p, size_t size, int unsafe)
{
    if (!p)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && unsafe)
        e = rt_capture_unsafe();
    if (e != cudaSuccess)
        return e;
    *p = NULL;
    if (size == 0)
        return cudaSuccess;     /* as CUDA: no allocation, no error */
    CUdeviceptr d = 0;
    CUresult r = cuMemAlloc_v2(&d, size);
    if (r == CUDA_SUCCESS)
        *p = (void *)(uintptr_t)d;
    return done(r);
}

RT_API cudaError_t cudaMalloc(void **p, size_t size)
{
    return alloc(p, size, 1);
}

RT_API cudaError_t cudaFree(void *p)
{
    /* cudaFree(NULL) is the idiom that initialises the runtime. */
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || !p)
        return e;
    if ((e = rt_capture_unsafe()) != cudaSuccess)
        return e;
    /* A graph allocation left live by its graph may be freed so
     * (cudaGraphAddMemAllocNode). */
    switch (rt_graph_mem_free(p)) {
    case 1:
        return cudaSuccess;
    case -1:
        return rt_err(cudaErrorInvalidValue);
    default:
        return done(cuMemFree_v2(DP(p)));
    }
}

RT_API cudaError_t cudaMallocHost(void **p, size_t size)
{
    if (!p)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuMemAllocHost_v2(p, size));
}

RT_API cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags)
{
    if (!p)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuMemHostAlloc(p, size, flags));
}

RT_API cudaError_t cudaFreeHost(void *p)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || !p)
        return e;
    return done(cuMemFreeHost(p));
}

RT_API cudaError_t cudaMallocManaged(void **p, size_t size, unsigned flags)
{
    if (!p)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (size == 0)
        return rt_err(cudaErrorInvalidValue);
    CUdeviceptr d = 0;
    CUresult r = cuMemAllocManaged(&d, size, flags);
    if (r == CUDA_SUCCESS)
        *p = (void *)(uintptr_t)d;
    return done(r);
}

/* Row pitch of cudaMallocPitch: rows start on this boundary (the
 * alignment real devices report as the texture pitch alignment is at
 * most this). */
#define RT_PITCH_ALIGN 512u

RT_API cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width,
                                   size_t height)
{
    if (!p || !pitch)
        return rt_err(cudaErrorInvalidValue);
    size_t pt = (width + RT_PITCH_ALIGN - 1) & ~(size_t)(RT_PITCH_ALIGN - 1);
    if (pt < width || (height && pt > SIZE_MAX / height))
        return rt_err(cudaErrorMemoryAllocation);
    cudaError_t e = cudaMalloc(p, pt * height);
    if (e == cudaSuccess)
        *pitch = pt;
    return e;
}

RT_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    size_t f = 0, t = 0;
    CUresult r = cuMemGetInfo_v2(&f, &t);
    if (free_bytes)
        *free_bytes = f;
    if (total)
        *total = t;
    return done(r);
}

/* ---------------------------------------------------------- copies */

/* Memory the driver lets kernels address as a plain device allocation
 * (cudaMalloc); everything else, managed and registered memory
 * included, is a host pointer too. */
static int is_device(const void *p)
{
    unsigned type = 0;
    if (cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                              DP(p)) != CUDA_SUCCESS)
        return 0;
    return type == CU_MEMORYTYPE_DEVICE;
}

/* Memory the driver knows at all (device, managed, pinned, registered
 * or a module's variable): what an explicit "device" side of a copy
 * must be.  The driver's copies take unknown addresses for host
 * memory, so a wild device pointer would be read as one. */
static int is_known(const void *p)
{
    unsigned type = 0;
    return cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 DP(p)) == CUDA_SUCCESS;
}

/* One copy; `kind` already checked.  Unified-address kinds resolve from
 * the pointers, as cudaMemcpyDefault asks.  async: on stream s (the
 * driver's asynchronous copies, in stream order), else a blocking copy
 * on the legacy stream. */
static CUresult copy_on(void *dst, const void *src, size_t n,
                        enum cudaMemcpyKind kind, cudaStream_t s, int async)
{
    if (n == 0)
        return CUDA_SUCCESS;
    CUstream cs = rt_stream(s);
    /* The driver's unified copy tells host memory from device memory,
     * and a freed device pointer from both. */
    if (kind == cudaMemcpyDefault || (async && kind == cudaMemcpyHostToHost))
        return async ? cuMemcpyAsync(DP(dst), DP(src), n, cs)
                     : cuMemcpy(DP(dst), DP(src), n);
    int dst_dev = kind == cudaMemcpyHostToDevice
                  || kind == cudaMemcpyDeviceToDevice;
    int src_dev = kind == cudaMemcpyDeviceToHost
                  || kind == cudaMemcpyDeviceToDevice;
    if ((dst_dev && !is_known(dst)) || (src_dev && !is_known(src)))
        return CUDA_ERROR_INVALID_VALUE;
    switch (kind) {
    case cudaMemcpyHostToDevice:
        return async ? cuMemcpyHtoDAsync_v2(DP(dst), src, n, cs)
                     : cuMemcpyHtoD_v2(DP(dst), src, n);
    case cudaMemcpyDeviceToHost:
        return async ? cuMemcpyDtoHAsync_v2(dst, DP(src), n, cs)
                     : cuMemcpyDtoH_v2(dst, DP(src), n);
    case cudaMemcpyDeviceToDevice:
        return async ? cuMemcpyDtoDAsync_v2(DP(dst), DP(src), n, cs)
                     : cuMemcpyDtoD_v2(DP(dst), DP(src), n);
    default:
        memmove(dst, src, n);
        return CUDA_SUCCESS;
    }
}

static CUresult copy(void *dst, const void *src, size_t n,
                     enum cudaMemcpyKind kind)
{
    return copy_on(dst, src, n, kind, NULL, 0);
}

/* Work that a capturing stream takes as a graph node (rt_capture.c)
 * instead of doing it. */
#define CAPTURED(call) do { \
        int taken_; \
        cudaError_t c_ = (call); \
        if (taken_) \
            return c_; \
    } while (0)

/* A copy of `height` rows of `width` bytes as a memcpy node's
 * parameters (linear memory: pitched pointers, no arrays). */
static struct cudaMemcpy3DParms copy_params(void *dst, size_t dpitch,
                                            const void *src, size_t spitch,
                                            size_t width, size_t height,
                                            enum cudaMemcpyKind kind)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr.ptr = (void *)src;
    p.srcPtr.pitch = spitch;
    p.srcPtr.xsize = width;
    p.srcPtr.ysize = height;
    p.dstPtr.ptr = dst;
    p.dstPtr.pitch = dpitch;
    p.dstPtr.xsize = width;
    p.dstPtr.ysize = height;
    p.extent.width = width;
    p.extent.height = height;
    p.extent.depth = 1;
    p.kind = kind;
    return p;
}

static cudaError_t capture_copy(cudaStream_t s, void *dst, size_t dpitch,
                                const void *src, size_t spitch,
                                size_t width, size_t height,
                                enum cudaMemcpyKind kind, int *taken)
{
    rt_node_params p;
    p.memcpy = copy_params(dst, dpitch, src, spitch, width, height, kind);
    return rt_capture_node(s, cudaGraphNodeTypeMemcpy, &p, taken);
}

/* A memcpy node: extent.depth slices of extent.height rows of
 * extent.width bytes, at the positions given, each side's rows pitch
 * bytes apart and its slices ysize rows apart. */
cudaError_t rt_memcpy_now(const struct cudaMemcpy3DParms *p)
{
    const struct cudaPitchedPtr *sp = &p->srcPtr, *dp = &p->dstPtr;
    const struct cudaExtent *x = &p->extent;
    if (p->srcArray || p->dstArray)
        return rt_memcpy_array(p);
    if (x->width == 0 || x->height == 0 || x->depth == 0)
        return cudaSuccess;
    if (!sp->ptr || !dp->ptr
        || (x->height > 1 && (x->width > sp->pitch || x->width > dp->pitch)))
        return cudaErrorInvalidValue;
    for (size_t z = 0; z < x->depth; z++)
        for (size_t y = 0; y < x->height; y++) {
            size_t srow = (p->srcPos.z + z) * sp->ysize + p->srcPos.y + y;
            size_t drow = (p->dstPos.z + z) * dp->ysize + p->dstPos.y + y;
            CUresult r = copy((char *)dp->ptr + drow * dp->pitch
                                  + p->dstPos.x,
                              (const char *)sp->ptr + srow * sp->pitch
                                  + p->srcPos.x, x->width, p->kind);
            if (r != CUDA_SUCCESS)
                return rt_cu(r);
        }
    return cudaSuccess;
}

/* Checks the arguments and, for a blocking copy, synchronises. */
static cudaError_t copy_begin(const void *dst, const void *src, size_t n,
                              enum cudaMemcpyKind kind, int blocking,
                              cudaStream_t s)
{
    if ((unsigned)kind > cudaMemcpyDefault)
        return rt_err(cudaErrorInvalidMemcpyDirection);
    if (n && (!dst || !src))
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !blocking)
        e = rt_stream_check(s);
    if (e != cudaSuccess || !blocking)
        return e;
    if ((e = rt_capture_unsafe()) != cudaSuccess)
        return e;
    CUresult r = cuCtxSynchronize();
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n,
                              enum cudaMemcpyKind kind)
{
    cudaError_t e = copy_begin(dst, src, n, kind, 1, NULL);
    return e != cudaSuccess ? e : done(copy(dst, src, n, kind));
}

RT_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n,
                                   enum cudaMemcpyKind kind, cudaStream_t s)
{
    cudaError_t e = copy_begin(dst, src, n, kind, 0, s);
    if (e != cudaSuccess)
        return e;
    CAPTURED(capture_copy(s, dst, n, src, n, n, 1, kind, &taken_));
    return done(copy_on(dst, src, n, kind, s, 1));
}

RT_API cudaError_t cudaMemcpyPeer(void *dst, int ddev, const void *src,
                                  int sdev, size_t n)
{
    (void)ddev; (void)sdev;
    return cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice);
}

RT_API cudaError_t cudaMemcpyPeerAsync(void *dst, int ddev, const void *src,
                                       int sdev, size_t n, cudaStream_t s)
{
    (void)ddev; (void)sdev;
    return cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, s);
}

static cudaError_t copy2d(void *dst, size_t dpitch, const void *src,
                          size_t spitch, size_t width, size_t height,
                          enum cudaMemcpyKind kind, int blocking,
                          cudaStream_t s)
{
    if (width > dpitch || width > spitch)
        return rt_err(cudaErrorInvalidPitchValue);
    if (width == 0 || height == 0)
        return cudaSuccess;
    cudaError_t e = copy_begin(dst, src, width, kind, blocking, s);
    if (e != cudaSuccess)
        return e;
    if (!blocking)
        CAPTURED(capture_copy(s, dst, dpitch, src, spitch, width, height,
                              kind, &taken_));
    for (size_t row = 0; row < height; row++) {
        CUresult r = copy_on((char *)dst + row * dpitch,
                             (const char *)src + row * spitch, width, kind,
                             s, !blocking);
        if (r != CUDA_SUCCESS)
            return rt_cu(r);
    }
    return cudaSuccess;
}

RT_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                                size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, 1, NULL);
}

RT_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch,
                                     const void *src, size_t spitch,
                                     size_t width, size_t height,
                                     enum cudaMemcpyKind kind,
                                     cudaStream_t s)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, 0, s);
}

/* --------------------------------------------------------- symbols */

static cudaError_t symbol_range(const void *symbol, size_t n, size_t off,
                                CUdeviceptr *addr)
{
    size_t size;
    cudaError_t e = rt_var_get(symbol, addr, &size);
    if (e != cudaSuccess)
        return rt_err(e);
    if (off > size || n > size - off)
        return rt_err(cudaErrorInvalidValue);
    *addr += off;
    return cudaSuccess;
}

static cudaError_t to_symbol(const void *symbol, const void *src, size_t n,
                             size_t off, enum cudaMemcpyKind kind,
                             int blocking, cudaStream_t s)
{
    if (kind == cudaMemcpyHostToHost || kind == cudaMemcpyDeviceToHost)
        return rt_err(cudaErrorInvalidMemcpyDirection);
    cudaError_t e = copy_begin(symbol, src, n, kind, blocking, s);
    CUdeviceptr a;
    if (e == cudaSuccess)
        e = symbol_range(symbol, n, off, &a);
    if (e != cudaSuccess)
        return e;
    if (kind == cudaMemcpyDefault)
        kind = is_device(src) ? cudaMemcpyDeviceToDevice
                              : cudaMemcpyHostToDevice;
    if (!blocking)
        CAPTURED(capture_copy(s, (void *)(uintptr_t)a, n, src, n, n, 1,
                              kind, &taken_));
    return done(copy_on((void *)(uintptr_t)a, src, n, kind, s, !blocking));
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t n,
                               size_t off, enum cudaMemcpyKind kind,
                               int blocking, cudaStream_t s)
{
    if (kind == cudaMemcpyHostToHost || kind == cudaMemcpyHostToDevice)
        return rt_err(cudaErrorInvalidMemcpyDirection);
    cudaError_t e = copy_begin(dst, symbol, n, kind, blocking, s);
    CUdeviceptr a;
    if (e == cudaSuccess)
        e = symbol_range(symbol, n, off, &a);
    if (e != cudaSuccess)
        return e;
    if (kind == cudaMemcpyDefault)
        kind = is_device(dst) ? cudaMemcpyDeviceToDevice
                              : cudaMemcpyDeviceToHost;
    if (!blocking)
        CAPTURED(capture_copy(s, dst, n, (const void *)(uintptr_t)a, n, n,
                              1, kind, &taken_));
    return done(copy_on(dst, (const void *)(uintptr_t)a, n, kind, s,
                        !blocking));
}

RT_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
                                      size_t n, size_t off,
                                      enum cudaMemcpyKind kind)
{
    return to_symbol(symbol, src, n, off, kind, 1, NULL);
}

RT_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol,
                                           const void *src, size_t n,
                                           size_t off,
                                           enum cudaMemcpyKind kind,
                                           cudaStream_t s)
{
    return to_symbol(symbol, src, n, off, kind, 0, s);
}

RT_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol,
                                        size_t n, size_t off,
                                        enum cudaMemcpyKind kind)
{
    return from_symbol(dst, symbol, n, off, kind, 1, NULL);
}

RT_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
                                             size_t n, size_t off,
                                             enum cudaMemcpyKind kind,
                                             cudaStream_t s)
{
    return from_symbol(dst, symbol, n, off, kind, 0, s);
}

RT_API cudaError_t cudaGetSymbolAddress(void **p, const void *symbol)
{
    if (!p)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUdeviceptr a;
    if ((e = rt_var_get(symbol, &a, NULL)) != cudaSuccess)
        return rt_err(e);
    *p = (void *)(uintptr_t)a;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    if (!size)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_err(rt_var_get(symbol, NULL, size));
}

/* ---------------------------------------------------------- memset */

/* One memset of `height` rows of `width` elements (1, 2 or 4 bytes),
 * on stream s (the driver's, in stream order). */
static cudaError_t memset_on(const struct cudaMemsetParams *p, CUstream s)
{
    if (p->width == 0 || p->height == 0)
        return cudaSuccess;
    CUdeviceptr d = DP(p->dst);
    size_t pitch = p->height > 1 ? p->pitch : p->width * p->elementSize;
    CUresult r;
    switch (p->elementSize) {
    case 1:
        r = cuMemsetD2D8Async(d, pitch, (unsigned char)p->value, p->width,
                              p->height, s);
        break;
    case 2:
        r = cuMemsetD2D16Async(d, pitch, (unsigned short)p->value,
                               p->width, p->height, s);
        break;
    case 4:
        r = cuMemsetD2D32Async(d, pitch, p->value, p->width, p->height, s);
        break;
    default:
        return cudaErrorInvalidValue;
    }
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

cudaError_t rt_memset_now(const struct cudaMemsetParams *p)
{
    return memset_on(p, NULL);
}

static cudaError_t memset2d(void *p, size_t pitch, int value, size_t width,
                            size_t height, int blocking, cudaStream_t s)
{
    if (height > 1 && width > pitch)
        return rt_err(cudaErrorInvalidPitchValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = blocking ? rt_capture_unsafe() : rt_stream_check(s);
    if (e != cudaSuccess || width == 0 || height == 0)
        return e;
    rt_node_params mp;
    memset(&mp, 0, sizeof mp);
    mp.memset.dst = p;
    mp.memset.pitch = pitch;
    mp.memset.value = (unsigned char)value;
    mp.memset.elementSize = 1;
    mp.memset.width = width;
    mp.memset.height = height;
    if (!blocking)
        CAPTURED(rt_capture_node(s, cudaGraphNodeTypeMemset, &mp, &taken_));
    e = rt_err(memset_on(&mp.memset, blocking ? NULL : rt_stream(s)));
    /* The blocking form returns once done (CUDA: it is synchronous for
     * host-visible targets; waiting always is the simple safe side). */
    if (e == cudaSuccess && blocking)
        e = done(cuStreamSynchronize(NULL));
    return e;
}

RT_API cudaError_t cudaMemset(void *p, int value, size_t n)
{
    return memset2d(p, n, value, n, 1, 1, NULL);
}

RT_API cudaError_t cudaMemsetAsync(void *p, int value, size_t n,
                                   cudaStream_t s)
{
    return memset2d(p, n, value, n, 1, 0, s);
}

RT_API cudaError_t cudaMemset2D(void *p, size_t pitch, int value,
                                size_t width, size_t height)
{
    if (width > pitch)
        return rt_err(cudaErrorInvalidPitchValue);
    return memset2d(p, pitch, value, width, height, 1, NULL);
}

RT_API cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value,
                                     size_t width, size_t height,
                                     cudaStream_t s)
{
    if (width > pitch)
        return rt_err(cudaErrorInvalidPitchValue);
    return memset2d(p, pitch, value, width, height, 0, s);
}

/* --------------------------------------- host memory, unified memory */

RT_API cudaError_t cudaHostRegister(void *p, size_t size, unsigned flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuMemHostRegister_v2(p, size, flags));
}

RT_API cudaError_t cudaHostUnregister(void *p)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuMemHostUnregister(p));
}

RT_API cudaError_t cudaHostGetDevicePointer(void **pdev, void *host,
                                            unsigned flags)
{
    if (!pdev || flags != 0)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUdeviceptr d = 0;
    CUresult r = cuMemHostGetDevicePointer_v2(&d, host, 0);
    if (r == CUDA_SUCCESS)
        *pdev = (void *)(uintptr_t)d;
    return done(r);
}

RT_API cudaError_t cudaHostGetFlags(unsigned *flags, void *host)
{
    if (!flags)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuMemHostGetFlags(flags, host));
}

RT_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a,
                                            const void *p)
{
    if (!a)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    memset(a, 0, sizeof *a);
    unsigned type = 0;
    int managed = 0;
    /* Memory unknown to the driver is ordinary host memory (CUDA 11 and
     * later answer so instead of failing). */
    if (cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                              DP(p)) != CUDA_SUCCESS) {
        a->type = cudaMemoryTypeUnregistered;
        a->device = -2;
        return cudaSuccess;
    }
    (void)cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                DP(p));
    a->device = rt_device();
    if (managed) {
        a->type = cudaMemoryTypeManaged;
        a->devicePointer = (void *)p;
        a->hostPointer = (void *)p;
    } else if (type == CU_MEMORYTYPE_DEVICE) {
        a->type = cudaMemoryTypeDevice;
        a->devicePointer = (void *)p;
    } else {
        /* Pinned or registered host memory: mapped at the same
         * address. */
        a->type = cudaMemoryTypeHost;
        a->devicePointer = (void *)p;
        a->hostPointer = (void *)p;
    }
    return cudaSuccess;
}

/* Hints (CUDA 13's signatures: a cudaMemLocation names the
 * destination): the emulator's memory is one, so there is nothing to
 * move; the driver checks the range and the location. */
RT_API cudaError_t cudaMemPrefetchAsync(const void *p, size_t n,
                                        struct cudaMemLocation loc,
                                        unsigned flags, cudaStream_t s)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || (e = rt_stream_check(s)) != cudaSuccess)
        return e;
    CUmemLocation l = { loc.type, loc.id };
    return done(cuMemPrefetchAsync_v2(DP(p), n, l, flags, rt_stream(s)));
}

RT_API cudaError_t cudaMemAdvise(const void *p, size_t n, int advice,
                                 struct cudaMemLocation loc)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUmemLocation l = { loc.type, loc.id };
    return done(cuMemAdvise_v2(DP(p), n, advice, l));
}

RT_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p,
                                            size_t n, unsigned flags)
{
    (void)p; (void)n; (void)flags;
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e : rt_stream_check(s);
}

RT_API struct cudaChannelFormatDesc
cudaCreateChannelDesc(int x, int y, int z, int w,
                      enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = { x, y, z, w, f };
    return d;
}

/* Per-thread default stream forms. */
RT_ALIAS(cudaStreamAttachMemAsync_ptsz, cudaStreamAttachMemAsync);
RT_ALIAS(cudaMemcpy2D_ptds, cudaMemcpy2D);
RT_ALIAS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol);
RT_ALIAS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol);
RT_ALIAS(cudaMemcpy_ptds, cudaMemcpy);
RT_ALIAS(cudaMemset2D_ptds, cudaMemset2D);
RT_ALIAS(cudaMemset_ptds, cudaMemset);
