/*
 * runtime/cudart/rt_array.c: CUDA arrays, copies to and from them,
 * texture and surface objects, over the driver's cuArray*, cuMemcpy*D
 * and cuTexObject / cuSurfObject calls (runtime/cuda/drv_array.c).
 *
 * A cudaArray_t is the driver's CUarray, a cudaMipmappedArray_t its
 * CUmipmappedArray (whose levels are CUarrays).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"

#define DP(p) ((CUdeviceptr)(uintptr_t)(p))
#define CA(a) ((CUarray)(uintptr_t)(a))
#define CM(m) ((CUmipmappedArray)(uintptr_t)(m))

static cudaError_t done(CUresult r)
{
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

/* ------------------------------------------------ channel formats */

/* The driver's format and channel count of a channel description: the
 * used channels come first and have equal widths of 8, 16 or 32 bits
 * (16 or 32 for floats); 1, 2 or 4 of them. */
static cudaError_t to_format(const struct cudaChannelFormatDesc *d,
                             CUarray_format *fmt, unsigned *channels)
{
    static const CUarray_format table[3][3] = {
        /* 8, 16, 32 bits */
        {CU_AD_FORMAT_SIGNED_INT8, CU_AD_FORMAT_SIGNED_INT16,
         CU_AD_FORMAT_SIGNED_INT32},
        {CU_AD_FORMAT_UNSIGNED_INT8, CU_AD_FORMAT_UNSIGNED_INT16,
         CU_AD_FORMAT_UNSIGNED_INT32},
        {0, CU_AD_FORMAT_HALF, CU_AD_FORMAT_FLOAT},
    };
    if (!d)
        return cudaErrorInvalidValue;
    int bits[4] = {d->x, d->y, d->z, d->w};
    unsigned n = 0;
    while (n < 4 && bits[n])
        n++;
    for (unsigned i = n; i < 4; i++)
        if (bits[i])
            return cudaErrorInvalidChannelDescriptor;
    for (unsigned i = 1; i < n; i++)
        if (bits[i] != bits[0])
            return cudaErrorInvalidChannelDescriptor;
    if (n == 0 || n == 3 || (unsigned)d->f > cudaChannelFormatKindFloat)
        return cudaErrorInvalidChannelDescriptor;
    int col = bits[0] == 8 ? 0 : bits[0] == 16 ? 1 : bits[0] == 32 ? 2 : -1;
    if (col < 0 || !table[d->f][col])
        return cudaErrorInvalidChannelDescriptor;
    *fmt = table[d->f][col];
    *channels = n;
    return cudaSuccess;
}

static struct cudaChannelFormatDesc from_format(CUarray_format f,
                                                unsigned channels)
{
    static const struct {
        CUarray_format f;
        int bits;
        enum cudaChannelFormatKind kind;
    } table[] = {
        {CU_AD_FORMAT_UNSIGNED_INT8, 8, cudaChannelFormatKindUnsigned},
        {CU_AD_FORMAT_UNSIGNED_INT16, 16, cudaChannelFormatKindUnsigned},
        {CU_AD_FORMAT_UNSIGNED_INT32, 32, cudaChannelFormatKindUnsigned},
        {CU_AD_FORMAT_SIGNED_INT8, 8, cudaChannelFormatKindSigned},
        {CU_AD_FORMAT_SIGNED_INT16, 16, cudaChannelFormatKindSigned},
        {CU_AD_FORMAT_SIGNED_INT32, 32, cudaChannelFormatKindSigned},
        {CU_AD_FORMAT_HALF, 16, cudaChannelFormatKindFloat},
        {CU_AD_FORMAT_FLOAT, 32, cudaChannelFormatKindFloat},
    };
    struct cudaChannelFormatDesc d = {0, 0, 0, 0, cudaChannelFormatKindNone};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].f == f) {
            d.x = table[i].bits;
            d.y = channels > 1 ? table[i].bits : 0;
            d.z = channels > 2 ? table[i].bits : 0;
            d.w = channels > 3 ? table[i].bits : 0;
            d.f = table[i].kind;
        }
    return d;
}

static cudaError_t array_desc(cudaArray_const_t a, CUDA_ARRAY3D_DESCRIPTOR *d)
{
    if (!a)
        return rt_err(cudaErrorInvalidResourceHandle);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuArray3DGetDescriptor_v2(d, CA(a)));
}

RT_API cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
                                      cudaArray_const_t array)
{
    if (!desc)
        return rt_err(cudaErrorInvalidValue);
    CUDA_ARRAY3D_DESCRIPTOR d;
    cudaError_t e = array_desc(array, &d);
    if (e == cudaSuccess)
        *desc = from_format(d.Format, d.NumChannels);
    return e;
}

RT_API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
                                    struct cudaExtent *extent,
                                    unsigned int *flags, cudaArray_t array)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    cudaError_t e = array_desc(array, &d);
    if (e != cudaSuccess)
        return e;
    if (desc)
        *desc = from_format(d.Format, d.NumChannels);
    if (extent) {
        extent->width = d.Width;
        extent->height = d.Height;
        extent->depth = d.Depth;
    }
    if (flags)
        *flags = d.Flags;
    return cudaSuccess;
}

/* ------------------------------------------------------ allocation */

/* The driver's descriptor of an array of desc's format and extent x,
 * then rt_enter(); a bad format is the thread's last error. */
static cudaError_t new_array_desc(CUDA_ARRAY3D_DESCRIPTOR *d,
                                  const struct cudaChannelFormatDesc *desc,
                                  struct cudaExtent x, unsigned flags)
{
    memset(d, 0, sizeof *d);
    cudaError_t e = to_format(desc, &d->Format, &d->NumChannels);
    if (e != cudaSuccess)
        return rt_err(e);
    e = rt_enter();
    if (e != cudaSuccess)
        return e;
    d->Width = x.width;
    d->Height = x.height;
    d->Depth = x.depth;
    d->Flags = flags;
    return cudaSuccess;
}

static cudaError_t alloc3d(cudaArray_t *array,
                           const struct cudaChannelFormatDesc *desc,
                           struct cudaExtent x, unsigned flags)
{
    if (!array)
        return rt_err(cudaErrorInvalidValue);
    CUDA_ARRAY3D_DESCRIPTOR d;
    cudaError_t e = new_array_desc(&d, desc, x, flags);
    if (e != cudaSuccess)
        return e;
    CUarray a = NULL;
    e = done(cuArray3DCreate_v2(&a, &d));
    if (e == cudaSuccess)
        *array = (cudaArray_t)(void *)a;
    return e;
}

RT_API cudaError_t cudaMallocArray(cudaArray_t *array,
                                   const struct cudaChannelFormatDesc *desc,
                                   size_t width, size_t height,
                                   unsigned int flags)
{
    struct cudaExtent x = {width, height, 0};
    return alloc3d(array, desc, x, flags);
}

RT_API cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                     const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent,
                                     unsigned int flags)
{
    return alloc3d(array, desc, extent, flags);
}

RT_API cudaError_t cudaFreeArray(cudaArray_t array)
{
    if (!array)
        return cudaSuccess;
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuArrayDestroy(CA(array)));
}

RT_API cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mip,
                                            const struct cudaChannelFormatDesc
                                                *desc,
                                            struct cudaExtent extent,
                                            unsigned int numLevels,
                                            unsigned int flags)
{
    if (!mip)
        return rt_err(cudaErrorInvalidValue);
    CUDA_ARRAY3D_DESCRIPTOR d;
    cudaError_t e = new_array_desc(&d, desc, extent, flags);
    if (e != cudaSuccess)
        return e;
    CUmipmappedArray m = NULL;
    e = done(cuMipmappedArrayCreate(&m, &d, numLevels));
    if (e == cudaSuccess)
        *mip = (cudaMipmappedArray_t)(void *)m;
    return e;
}

RT_API cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
                                              cudaMipmappedArray_const_t mip,
                                              unsigned int level)
{
    if (!levelArray)
        return rt_err(cudaErrorInvalidValue);
    if (!mip)
        return rt_err(cudaErrorInvalidResourceHandle);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUarray a = NULL;
    e = done(cuMipmappedArrayGetLevel(&a, CM(mip), level));
    if (e == cudaSuccess)
        *levelArray = (cudaArray_t)(void *)a;
    return e;
}

RT_API cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mip)
{
    if (!mip)
        return cudaSuccess;
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuMipmappedArrayDestroy(CM(mip)));
}

/* ---------------------------------------------------------- copies */

/* One side of a copy: an array, or memory the driver tells apart. */
static void side_array(CUmemorytype *t, CUarray *arr, cudaArray_const_t a)
{
    *t = CU_MEMORYTYPE_ARRAY;
    *arr = CA(a);
}

static cudaError_t copy2d(const CUDA_MEMCPY2D *p, int blocking,
                          cudaStream_t s)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (p->WidthInBytes == 0 || p->Height == 0)
        return cudaSuccess;
    return done(blocking ? cuMemcpy2D_v2(p)
                         : cuMemcpy2DAsync_v2(p, rt_stream(s)));
}

static CUDA_MEMCPY2D to_array2d(cudaArray_t dst, size_t w, size_t h,
                                const void *src, size_t spitch,
                                size_t width, size_t height)
{
    CUDA_MEMCPY2D p;
    memset(&p, 0, sizeof p);
    side_array(&p.dstMemoryType, &p.dstArray, dst);
    p.dstXInBytes = w;
    p.dstY = h;
    p.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
    p.srcDevice = DP(src);
    p.srcPitch = spitch;
    p.WidthInBytes = width;
    p.Height = height;
    return p;
}

static CUDA_MEMCPY2D from_array2d(void *dst, size_t dpitch,
                                  cudaArray_const_t src, size_t w, size_t h,
                                  size_t width, size_t height)
{
    CUDA_MEMCPY2D p;
    memset(&p, 0, sizeof p);
    side_array(&p.srcMemoryType, &p.srcArray, src);
    p.srcXInBytes = w;
    p.srcY = h;
    p.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    p.dstDevice = DP(dst);
    p.dstPitch = dpitch;
    p.WidthInBytes = width;
    p.Height = height;
    return p;
}

static cudaError_t copy3d(const struct cudaMemcpy3DParms *q, int blocking,
                          cudaStream_t s);
static size_t elem_size(cudaArray_const_t a);

/* The asynchronous 2-D forms as a cudaMemcpy3D (p's pointer side set),
 * so that a capturing stream records them as a memcpy node: byte
 * offsets and width become elements of array a. */
static cudaError_t async2d(struct cudaMemcpy3DParms *p, cudaArray_const_t a,
                           size_t w, size_t h, size_t width, size_t height,
                           cudaStream_t s)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    size_t elem = a ? elem_size(a) : 0;
    if (!elem)
        return rt_err(cudaErrorInvalidResourceHandle);
    if (w % elem || width % elem)
        return rt_err(cudaErrorInvalidValue);
    struct cudaPos pos = {w / elem, h, 0};
    if (p->srcArray)
        p->srcPos = pos;
    else
        p->dstPos = pos;
    p->extent.width = width / elem;
    p->extent.height = height;
    p->extent.depth = 1;
    p->kind = cudaMemcpyDefault;
    return copy3d(p, 0, s);
}

RT_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
                                       size_t hOffset, const void *src,
                                       size_t spitch, size_t width,
                                       size_t height,
                                       enum cudaMemcpyKind kind)
{
    (void)kind;                 /* the driver tells host from device */
    if (width > spitch)
        return rt_err(cudaErrorInvalidPitchValue);
    CUDA_MEMCPY2D p = to_array2d(dst, wOffset, hOffset, src, spitch, width,
                                 height);
    return copy2d(&p, 1, NULL);
}

RT_API cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset,
                                            size_t hOffset, const void *src,
                                            size_t spitch, size_t width,
                                            size_t height,
                                            enum cudaMemcpyKind kind,
                                            cudaStream_t s)
{
    (void)kind;
    if (width > spitch)
        return rt_err(cudaErrorInvalidPitchValue);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.dstArray = dst;
    p.srcPtr.ptr = (void *)(uintptr_t)src;
    p.srcPtr.pitch = spitch;
    p.srcPtr.ysize = height;
    return async2d(&p, dst, wOffset, hOffset, width, height, s);
}

RT_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
                                         cudaArray_const_t src,
                                         size_t wOffset, size_t hOffset,
                                         size_t width, size_t height,
                                         enum cudaMemcpyKind kind)
{
    (void)kind;
    if (width > dpitch)
        return rt_err(cudaErrorInvalidPitchValue);
    CUDA_MEMCPY2D p = from_array2d(dst, dpitch, src, wOffset, hOffset,
                                   width, height);
    return copy2d(&p, 1, NULL);
}

RT_API cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
                                              cudaArray_const_t src,
                                              size_t wOffset, size_t hOffset,
                                              size_t width, size_t height,
                                              enum cudaMemcpyKind kind,
                                              cudaStream_t s)
{
    (void)kind;
    if (width > dpitch)
        return rt_err(cudaErrorInvalidPitchValue);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcArray = (cudaArray_t)(uintptr_t)src;
    p.dstPtr.ptr = dst;
    p.dstPtr.pitch = dpitch;
    p.dstPtr.ysize = height;
    return async2d(&p, src, wOffset, hOffset, width, height, s);
}

RT_API cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst,
                                            size_t wOffsetDst,
                                            size_t hOffsetDst,
                                            cudaArray_const_t src,
                                            size_t wOffsetSrc,
                                            size_t hOffsetSrc, size_t width,
                                            size_t height,
                                            enum cudaMemcpyKind kind)
{
    (void)kind;
    CUDA_MEMCPY2D p;
    memset(&p, 0, sizeof p);
    side_array(&p.srcMemoryType, &p.srcArray, src);
    side_array(&p.dstMemoryType, &p.dstArray, dst);
    p.srcXInBytes = wOffsetSrc;
    p.srcY = hOffsetSrc;
    p.dstXInBytes = wOffsetDst;
    p.dstY = hOffsetDst;
    p.WidthInBytes = width;
    p.Height = height;
    return copy2d(&p, 1, NULL);
}

/* The deprecated linear forms: count bytes from (w, h) on, continuing
 * on the next rows as the array's memory would. */
static cudaError_t linear(cudaArray_const_t a, size_t w, size_t h,
                          void *mem, size_t count, int to_array)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    cudaError_t e = array_desc(a, &d);
    if (e != cudaSuccess)
        return e;
    struct cudaChannelFormatDesc c = from_format(d.Format, d.NumChannels);
    size_t row = d.Width * (size_t)(c.x + c.y + c.z + c.w) / 8;
    size_t rows = d.Height ? d.Height : 1;
    if (w >= row || h >= rows || count > (rows - h) * row - w)
        return rt_err(cudaErrorInvalidValue);
    while (count) {
        size_t n = row - w < count ? row - w : count;
        CUDA_MEMCPY2D p = to_array
            ? to_array2d((cudaArray_t)(uintptr_t)a, w, h, mem, n, n, 1)
            : from_array2d(mem, n, a, w, h, n, 1);
        e = copy2d(&p, 1, NULL);
        if (e != cudaSuccess)
            return e;
        mem = (char *)mem + n;
        count -= n;
        w = 0;
        h++;
    }
    return cudaSuccess;
}

RT_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset,
                                     size_t hOffset, const void *src,
                                     size_t count, enum cudaMemcpyKind kind)
{
    (void)kind;
    return linear(dst, wOffset, hOffset, (void *)(uintptr_t)src, count, 1);
}

RT_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset,
                                       size_t count, enum cudaMemcpyKind kind)
{
    (void)kind;
    return linear(src, wOffset, hOffset, dst, count, 0);
}

/* Bytes per element of an array. */
static size_t elem_size(cudaArray_const_t a)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    if (cuArray3DGetDescriptor_v2(&d, CA(a)) != CUDA_SUCCESS)
        return 0;
    struct cudaChannelFormatDesc c = from_format(d.Format, d.NumChannels);
    return (size_t)(c.x + c.y + c.z + c.w) / 8;
}

/* cudaMemcpy3D: positions and the extent count elements when an array
 * is on either side, bytes otherwise. */
static cudaError_t copy3d(const struct cudaMemcpy3DParms *q, int blocking,
                          cudaStream_t s)
{
    if (!q || (q->srcArray && q->srcPtr.ptr) ||
        (q->dstArray && q->dstPtr.ptr) ||
        (!q->srcArray && !q->srcPtr.ptr) ||
        (!q->dstArray && !q->dstPtr.ptr))
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!blocking) {
        /* On a capturing stream: a memcpy node of the graph. */
        int taken = 0;
        rt_node_params n;
        n.memcpy = *q;
        e = rt_capture_node(s, cudaGraphNodeTypeMemcpy, &n, &taken);
        if (taken)
            return e;
    }
    size_t elem = 1;
    if (q->srcArray || q->dstArray) {
        elem = elem_size(q->srcArray ? q->srcArray : q->dstArray);
        if (!elem)
            return rt_err(cudaErrorInvalidResourceHandle);
    }
    CUDA_MEMCPY3D p;
    memset(&p, 0, sizeof p);
    if (q->srcArray) {
        side_array(&p.srcMemoryType, &p.srcArray, q->srcArray);
        p.srcXInBytes = q->srcPos.x * elem;
    } else {
        p.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
        p.srcDevice = DP(q->srcPtr.ptr);
        p.srcPitch = q->srcPtr.pitch;
        p.srcHeight = q->srcPtr.ysize;
        p.srcXInBytes = q->srcPos.x;
    }
    p.srcY = q->srcPos.y;
    p.srcZ = q->srcPos.z;
    if (q->dstArray) {
        side_array(&p.dstMemoryType, &p.dstArray, q->dstArray);
        p.dstXInBytes = q->dstPos.x * elem;
    } else {
        p.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
        p.dstDevice = DP(q->dstPtr.ptr);
        p.dstPitch = q->dstPtr.pitch;
        p.dstHeight = q->dstPtr.ysize;
        p.dstXInBytes = q->dstPos.x;
    }
    p.dstY = q->dstPos.y;
    p.dstZ = q->dstPos.z;
    p.WidthInBytes = q->extent.width * elem;
    p.Height = q->extent.height;
    p.Depth = q->extent.depth;
    if (!p.WidthInBytes || !p.Height || !p.Depth)
        return cudaSuccess;
    return done(blocking ? cuMemcpy3D_v2(&p)
                         : cuMemcpy3DAsync_v2(&p, rt_stream(s)));
}

cudaError_t rt_memcpy_array(const struct cudaMemcpy3DParms *p)
{
    return copy3d(p, 1, NULL);
}

RT_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return copy3d(p, 1, NULL);
}

RT_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                                     cudaStream_t stream)
{
    return copy3d(p, 0, stream);
}

/* ------------------------------------------------- texture objects */

static cudaError_t to_cu_res(const struct cudaResourceDesc *r,
                             CUDA_RESOURCE_DESC *c)
{
    memset(c, 0, sizeof *c);
    if (!r || r->flags)
        return cudaErrorInvalidValue;
    cudaError_t e = cudaSuccess;
    switch (r->resType) {
    case cudaResourceTypeArray:
        if (!r->res.array.array)
            return cudaErrorInvalidResourceHandle;
        c->resType = CU_RESOURCE_TYPE_ARRAY;
        c->res.array.hArray = CA(r->res.array.array);
        return cudaSuccess;
    case cudaResourceTypeLinear:
        c->resType = CU_RESOURCE_TYPE_LINEAR;
        c->res.linear.devPtr = DP(r->res.linear.devPtr);
        c->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
        e = to_format(&r->res.linear.desc, &c->res.linear.format,
                      &c->res.linear.numChannels);
        return e;
    case cudaResourceTypePitch2D:
        c->resType = CU_RESOURCE_TYPE_PITCH2D;
        c->res.pitch2D.devPtr = DP(r->res.pitch2D.devPtr);
        c->res.pitch2D.width = r->res.pitch2D.width;
        c->res.pitch2D.height = r->res.pitch2D.height;
        c->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
        e = to_format(&r->res.pitch2D.desc, &c->res.pitch2D.format,
                      &c->res.pitch2D.numChannels);
        return e;
    case cudaResourceTypeMipmappedArray:
        if (!r->res.mipmap.mipmap)
            return cudaErrorInvalidResourceHandle;
        c->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
        c->res.mipmap.hMipmappedArray = CM(r->res.mipmap.mipmap);
        return cudaSuccess;
    default:
        return cudaErrorInvalidValue;
    }
}

RT_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                           const struct cudaResourceDesc
                                               *pResDesc,
                                           const struct cudaTextureDesc
                                               *pTexDesc,
                                           const struct cudaResourceViewDesc
                                               *pResViewDesc)
{
    if (!pTexObject || !pTexDesc)
        return rt_err(cudaErrorInvalidValue);
    CUDA_RESOURCE_DESC res;
    cudaError_t e = to_cu_res(pResDesc, &res);
    if (e != cudaSuccess)
        return rt_err(e);
    e = rt_enter();
    if (e != cudaSuccess)
        return e;
    const struct cudaTextureDesc *t = pTexDesc;
    CUDA_TEXTURE_DESC c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < 3; i++)
        c.addressMode[i] = (CUaddress_mode)t->addressMode[i];
    c.filterMode = (CUfilter_mode)t->filterMode;
    if ((unsigned)t->readMode > cudaReadModeNormalizedFloat)
        return rt_err(cudaErrorInvalidValue);
    c.flags = (t->readMode == cudaReadModeElementType
                   ? CU_TRSF_READ_AS_INTEGER : 0) |
              (t->normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
              (t->sRGB ? CU_TRSF_SRGB : 0) |
              (t->disableTrilinearOptimization
                   ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0) |
              (t->seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0);
    c.maxAnisotropy = t->maxAnisotropy;
    c.mipmapFilterMode = (CUfilter_mode)t->mipmapFilterMode;
    c.mipmapLevelBias = t->mipmapLevelBias;
    c.minMipmapLevelClamp = t->minMipmapLevelClamp;
    c.maxMipmapLevelClamp = t->maxMipmapLevelClamp;
    memcpy(c.borderColor, t->borderColor, sizeof c.borderColor);
    return done(cuTexObjectCreate(pTexObject, &res, &c,
                                  (const CUDA_RESOURCE_VIEW_DESC *)
                                      pResViewDesc));
}

RT_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuTexObjectDestroy(texObject));
}

RT_API cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc
                                                        *pResDesc,
                                                    cudaTextureObject_t
                                                        texObject)
{
    if (!pResDesc)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUDA_RESOURCE_DESC c;
    e = done(cuTexObjectGetResourceDesc(&c, texObject));
    if (e != cudaSuccess)
        return e;
    memset(pResDesc, 0, sizeof *pResDesc);
    switch (c.resType) {
    case CU_RESOURCE_TYPE_ARRAY:
        pResDesc->resType = cudaResourceTypeArray;
        pResDesc->res.array.array = (cudaArray_t)(void *)c.res.array.hArray;
        break;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        pResDesc->resType = cudaResourceTypeMipmappedArray;
        pResDesc->res.mipmap.mipmap =
            (cudaMipmappedArray_t)(void *)c.res.mipmap.hMipmappedArray;
        break;
    case CU_RESOURCE_TYPE_LINEAR:
        pResDesc->resType = cudaResourceTypeLinear;
        pResDesc->res.linear.devPtr =
            (void *)(uintptr_t)c.res.linear.devPtr;
        pResDesc->res.linear.desc = from_format(c.res.linear.format,
                                                c.res.linear.numChannels);
        pResDesc->res.linear.sizeInBytes = c.res.linear.sizeInBytes;
        break;
    default:
        pResDesc->resType = cudaResourceTypePitch2D;
        pResDesc->res.pitch2D.devPtr =
            (void *)(uintptr_t)c.res.pitch2D.devPtr;
        pResDesc->res.pitch2D.desc = from_format(c.res.pitch2D.format,
                                                 c.res.pitch2D.numChannels);
        pResDesc->res.pitch2D.width = c.res.pitch2D.width;
        pResDesc->res.pitch2D.height = c.res.pitch2D.height;
        pResDesc->res.pitch2D.pitchInBytes = c.res.pitch2D.pitchInBytes;
        break;
    }
    return cudaSuccess;
}

/* ------------------------------------------------- surface objects */

RT_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                           const struct cudaResourceDesc
                                               *pResDesc)
{
    if (!pSurfObject || !pResDesc ||
        pResDesc->resType != cudaResourceTypeArray)
        return rt_err(cudaErrorInvalidValue);
    if (!pResDesc->res.array.array)
        return rt_err(cudaErrorInvalidResourceHandle);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUDA_RESOURCE_DESC c;
    memset(&c, 0, sizeof c);
    c.resType = CU_RESOURCE_TYPE_ARRAY;
    c.res.array.hArray = CA(pResDesc->res.array.array);
    return done(cuSurfObjectCreate(pSurfObject, &c));
}

RT_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return done(cuSurfObjectDestroy(surfObject));
}

/* Per-thread default stream forms: one device, one stream order. */
RT_ALIAS(cudaMemcpy2DFromArray_ptds, cudaMemcpy2DFromArray);
RT_ALIAS(cudaMemcpy2DToArray_ptds, cudaMemcpy2DToArray);
RT_ALIAS(cudaMemcpy3D_ptds, cudaMemcpy3D);
RT_ALIAS(cudaMemcpy2DArrayToArray_ptds, cudaMemcpy2DArrayToArray);
RT_ALIAS(cudaMemcpyFromArray_ptds, cudaMemcpyFromArray);
RT_ALIAS(cudaMemcpyToArray_ptds, cudaMemcpyToArray);
