/*
 * runtime/cuda/drv_array.c: CUDA arrays, texture objects and surface
 * objects of the drop-in driver, over the emulator's ptxemu_array_*,
 * ptxemu_texture_* and ptxemu_surface_* calls.
 *
 * A CUarray is registered in the handle table (DRV_ARRAY), as is a
 * CUmipmappedArray (DRV_MIPMAP) and each of its levels.  Texture
 * and surface objects are the emulator's 64-bit handles; the resource
 * description of each texture object is kept in a small list for
 * cuTexObjectGetResourceDesc.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_queue.h"

/* CUarray_format values (cuda.h, CUarray_format_enum) to element
 * channel bits and kind. */
static const struct {
    CUarray_format f;
    unsigned bits;
    ptxemu_channel_kind kind;
} formats[] = {
    {CU_AD_FORMAT_UNSIGNED_INT8, 8, PTXEMU_CHANNEL_UNSIGNED},
    {CU_AD_FORMAT_UNSIGNED_INT16, 16, PTXEMU_CHANNEL_UNSIGNED},
    {CU_AD_FORMAT_UNSIGNED_INT32, 32, PTXEMU_CHANNEL_UNSIGNED},
    {CU_AD_FORMAT_SIGNED_INT8, 8, PTXEMU_CHANNEL_SIGNED},
    {CU_AD_FORMAT_SIGNED_INT16, 16, PTXEMU_CHANNEL_SIGNED},
    {CU_AD_FORMAT_SIGNED_INT32, 32, PTXEMU_CHANNEL_SIGNED},
    {CU_AD_FORMAT_HALF, 16, PTXEMU_CHANNEL_FLOAT},
    {CU_AD_FORMAT_FLOAT, 32, PTXEMU_CHANNEL_FLOAT},
};

static int format_of(CUarray_format f, unsigned channels,
                     ptxemu_format *out)
{
    if (channels != 1 && channels != 2 && channels != 4) {
        return -1;
    }
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (formats[i].f == f) {
            out->channels = channels;
            out->bits = formats[i].bits;
            out->kind = formats[i].kind;
            return 0;
        }
    }
    return -1;
}

static CUarray array_of(CUarray a)
{
    return a && drv_handle_valid(DRV_ARRAY, a) ? a : NULL;
}

/* ------------------------------------------------------------ arrays */

/* The emulator's descriptor of a CUDA one. */
static CUresult to_pdesc(const CUDA_ARRAY3D_DESCRIPTOR *d,
                         ptxemu_array_desc *pd)
{
    memset(pd, 0, sizeof *pd);
    pd->size = sizeof *pd;
    if (!d || !d->Width || format_of(d->Format, d->NumChannels,
                                     &pd->format) ||
        (d->Flags & ~(unsigned)(CUDA_ARRAY3D_LAYERED |
                                CUDA_ARRAY3D_SURFACE_LDST |
                                CUDA_ARRAY3D_CUBEMAP |
                                CUDA_ARRAY3D_TEXTURE_GATHER)) ||
        d->Width > UINT32_MAX || d->Height > UINT32_MAX ||
        d->Depth > UINT32_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pd->width = (uint32_t)d->Width;
    pd->height = (uint32_t)d->Height;
    pd->flags = d->Flags & (PTXEMU_ARRAY_LAYERED | PTXEMU_ARRAY_SURFACE_LDST |
                            PTXEMU_ARRAY_CUBEMAP);
    /* CUDA passes layers (of cubes, 6 faces each) as the depth. */
    if (d->Flags & CUDA_ARRAY3D_LAYERED) {
        size_t per = d->Flags & CUDA_ARRAY3D_CUBEMAP ? 6 : 1;
        if (!d->Depth || d->Depth % per) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        pd->layers = (uint32_t)(d->Depth / per);
    } else if (d->Flags & CUDA_ARRAY3D_CUBEMAP) {
        if (d->Depth != 6) {
            return CUDA_ERROR_INVALID_VALUE;
        }
    } else {
        pd->depth = (uint32_t)d->Depth;
    }
    return CUDA_SUCCESS;
}

/* A CUarray over the emulator's array pa, registered. */
static CUresult wrap_array(struct CUarray_st *a, ptxemu_array *pa,
                           const CUDA_ARRAY3D_DESCRIPTOR *d,
                           const ptxemu_format *f)
{
    a->pa = pa;
    a->desc = *d;
    a->elem = f->channels * f->bits / 8;
    return drv_handle_add(DRV_ARRAY, a) ? CUDA_ERROR_OUT_OF_MEMORY
                                        : CUDA_SUCCESS;
}

static CUresult array3d_create(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    ptxemu_array_desc pd;
    if (!out || to_pdesc(d, &pd)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUarray_st *a = calloc(1, sizeof *a);
    if (!a) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    ptxemu_array *pa = NULL;
    ptxemu_status st = ptxemu_array_create(drv.dev, &pd, &pa);
    if (st) {
        free(a);
        return drv_status(st);
    }
    if (wrap_array(a, pa, d, &pd.format)) {
        (void)ptxemu_array_destroy(pa);
        free(a);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = a;
    return CUDA_SUCCESS;
}

CUresult cuArray3DCreate_v2(CUarray *pHandle,
                            const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray)
{
    return drv_trace(array3d_create(pHandle, pAllocateArray),
                     "cuArray3DCreate_v2", "%p, %p", (void *)pHandle,
                     (const void *)pAllocateArray);
}

CUresult cuArrayCreate_v2(CUarray *pHandle,
                          const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)
{
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (pAllocateArray) {
        CUDA_ARRAY3D_DESCRIPTOR d;
        memset(&d, 0, sizeof d);
        d.Width = pAllocateArray->Width;
        d.Height = pAllocateArray->Height;
        d.Format = pAllocateArray->Format;
        d.NumChannels = pAllocateArray->NumChannels;
        r = array3d_create(pHandle, &d);
    }
    return drv_trace(r, "cuArrayCreate_v2", "%p, %p", (void *)pHandle,
                     (const void *)pAllocateArray);
}

CUresult cuArrayDestroy(CUarray hArray)
{
    CUresult r = drv_ready(NULL);
    CUarray a = array_of(hArray);
    if (!r && !a) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r) {
        drv_queue_idle();
        /* While a texture or surface object uses it, it is freed with
         * the last of them (CUDA returns success; their later use is
         * undefined). */
        r = drv_status(ptxemu_array_release(a->pa));
        if (!r) {
            drv_handle_remove(DRV_ARRAY, a);
            free(a);
        }
    }
    return drv_trace(r, "cuArrayDestroy", "%p", (void *)hArray);
}

CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor,
                                   CUarray hArray)
{
    CUresult r = drv_ready(NULL);
    CUarray a = array_of(hArray);
    if (!r && !a) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r && !pArrayDescriptor) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *pArrayDescriptor = a->desc;
    }
    return drv_trace(r, "cuArray3DGetDescriptor_v2", "%p, %p",
                     (void *)pArrayDescriptor, (void *)hArray);
}

CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor,
                                 CUarray hArray)
{
    CUresult r = drv_ready(NULL);
    CUarray a = array_of(hArray);
    if (!r && !a) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r && !pArrayDescriptor) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    /* As the real driver: a 3-D or layered array has no 2-D descriptor. */
    if (!r && (a->desc.Depth || a->desc.Flags)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        pArrayDescriptor->Width = a->desc.Width;
        pArrayDescriptor->Height = a->desc.Height;
        pArrayDescriptor->Format = a->desc.Format;
        pArrayDescriptor->NumChannels = a->desc.NumChannels;
    }
    return drv_trace(r, "cuArrayGetDescriptor_v2", "%p, %p",
                     (void *)pArrayDescriptor, (void *)hArray);
}

/* ------------------------------------------------- mipmapped arrays */

static CUmipmappedArray mipmap_of(CUmipmappedArray m)
{
    return m && drv_handle_valid(DRV_MIPMAP, m) ? m : NULL;
}

static void mipmap_free(CUmipmappedArray m, unsigned wrapped)
{
    for (unsigned l = 0; l < wrapped; l++) {
        drv_handle_remove(DRV_ARRAY, &m->lv[l]);
    }
    free(m->lv);
    free(m);
}

/* The levels are CUarrays over the emulator's level views, with the
 * descriptor of their extents (layers and cube faces do not shrink). */
static CUresult mipmap_create(CUmipmappedArray *out,
                              const CUDA_ARRAY3D_DESCRIPTOR *d,
                              unsigned levels)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    ptxemu_array_desc pd;
    if (!out || to_pdesc(d, &pd)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* cuMipmappedArrayCreate clamps the count to 1 .. 1 + floor(log2
     * of the largest extent); the emulator does the upper clamp */
    pd.levels = levels ? levels : 1;
    struct CUmipmappedArray_st *m = calloc(1, sizeof *m);
    if (!m) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    ptxemu_status st = ptxemu_array_create(drv.dev, &pd, &m->pa);
    if (st) {
        free(m);
        return drv_status(st);
    }
    (void)ptxemu_array_get_desc(m->pa, &pd);
    m->desc = *d;
    m->levels = pd.levels;
    m->lv = calloc(m->levels, sizeof *m->lv);
    unsigned l = 0;
    r = m->lv ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    for (; !r && l < m->levels; l++) {
        ptxemu_array *pa = NULL;
        ptxemu_array_desc ld;
        (void)ptxemu_array_get_level(m->pa, l, &pa);
        (void)ptxemu_array_get_desc(pa, &ld);
        CUDA_ARRAY3D_DESCRIPTOR cd = *d;
        cd.Width = ld.width;
        cd.Height = ld.height;
        if (!(d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP))) {
            cd.Depth = ld.depth;
        }
        if (wrap_array(&m->lv[l], pa, &cd, &pd.format)) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            break;
        }
    }
    if (!r && drv_handle_add(DRV_MIPMAP, m)) {
        r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (r) {
        (void)ptxemu_array_destroy(m->pa);
        mipmap_free(m, l);
        return r;
    }
    *out = m;
    return CUDA_SUCCESS;
}

CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle,
                                const CUDA_ARRAY3D_DESCRIPTOR *pDesc,
                                unsigned int numMipmapLevels)
{
    return drv_trace(mipmap_create(pHandle, pDesc, numMipmapLevels),
                     "cuMipmappedArrayCreate", "%p, %p, %u",
                     (void *)pHandle, (const void *)pDesc, numMipmapLevels);
}

CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray,
                                  CUmipmappedArray hMipmappedArray,
                                  unsigned int level)
{
    CUresult r = drv_ready(NULL);
    CUmipmappedArray m = mipmap_of(hMipmappedArray);
    if (!r && !m) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r && (!pLevelArray || level >= m->levels)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *pLevelArray = &m->lv[level];
    }
    return drv_trace(r, "cuMipmappedArrayGetLevel", "%p, %p, %u",
                     (void *)pLevelArray, (void *)hMipmappedArray, level);
}

CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray)
{
    CUresult r = drv_ready(NULL);
    CUmipmappedArray m = mipmap_of(hMipmappedArray);
    if (!r && !m) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r) {
        drv_queue_idle();
        /* Freed with the last texture or surface object using a level,
         * as cuArrayDestroy. */
        r = drv_status(ptxemu_array_release(m->pa));
        if (!r) {
            drv_handle_remove(DRV_MIPMAP, m);
            mipmap_free(m, m->levels);
        }
    }
    return drv_trace(r, "cuMipmappedArrayDestroy", "%p",
                     (void *)hMipmappedArray);
}

/* ------------------------------------------------------------ copies */

/* The box of one array side of a copy; x in bytes must be a whole
 * number of elements, as must the width. */
static CUresult array_box(CUarray a, size_t xb, size_t y, size_t z,
                          const CUDA_MEMCPY3D *p, ptxemu_array_box *b)
{
    if (!array_of(a)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (xb % a->elem || p->WidthInBytes % a->elem ||
        xb / a->elem > UINT32_MAX || y > UINT32_MAX || z > UINT32_MAX ||
        p->WidthInBytes / a->elem > UINT32_MAX || p->Height > UINT32_MAX ||
        p->Depth > UINT32_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    b->x = (uint32_t)(xb / a->elem);
    b->y = (uint32_t)y;
    b->z = (uint32_t)z;
    b->width = (uint32_t)(p->WidthInBytes / a->elem);
    b->height = (uint32_t)(p->Height ? p->Height : 1);
    b->depth = (uint32_t)(p->Depth ? p->Depth : 1);
    return CUDA_SUCCESS;
}

/* Array sides go through a packed host buffer; the other side (host or
 * device memory) is then copied by the linear 3D copy. */
CUresult drv_array_copy(const CUDA_MEMCPY3D *p, int sync)
{
    (void)sync;                 /* array copies always complete at once */
    size_t h = p->Height ? p->Height : 1;
    size_t d = p->Depth ? p->Depth : 1;
    if (!p->WidthInBytes) {
        return CUDA_SUCCESS;
    }
    if (h > SIZE_MAX / d || p->WidthInBytes > SIZE_MAX / (h * d)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    int sa = p->srcMemoryType == CU_MEMORYTYPE_ARRAY;
    int da = p->dstMemoryType == CU_MEMORYTYPE_ARRAY;
    ptxemu_array_box sb, db;
    CUresult r = CUDA_SUCCESS;
    if (sa) {
        r = array_box(p->srcArray, p->srcXInBytes, p->srcY, p->srcZ, p, &sb);
    }
    if (!r && da) {
        r = array_box(p->dstArray, p->dstXInBytes, p->dstY, p->dstZ, p, &db);
    }
    if (r) {
        return r;
    }
    void *buf = malloc(p->WidthInBytes * h * d);
    if (!buf) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    drv_queue_idle();
    CUDA_MEMCPY3D q = *p;
    if (sa) {
        r = drv_status(ptxemu_array_copy_to_host(p->srcArray->pa, &sb, buf,
                                                 p->WidthInBytes, h));
        q.srcMemoryType = CU_MEMORYTYPE_HOST;
        q.srcHost = buf;
        q.srcArray = NULL;
        q.srcXInBytes = q.srcY = q.srcZ = 0;
        q.srcPitch = p->WidthInBytes;
        q.srcHeight = h;
    }
    if (!r && !da) {
        r = cuMemcpy3D_v2(&q);
    } else if (!r) {
        if (!sa) {
            CUDA_MEMCPY3D t = q;
            t.dstMemoryType = CU_MEMORYTYPE_HOST;
            t.dstHost = buf;
            t.dstArray = NULL;
            t.dstXInBytes = t.dstY = t.dstZ = 0;
            t.dstPitch = p->WidthInBytes;
            t.dstHeight = h;
            r = cuMemcpy3D_v2(&t);
        }
        if (!r) {
            r = drv_status(ptxemu_array_copy_from_host(p->dstArray->pa, &db,
                                                       buf, p->WidthInBytes,
                                                       h));
        }
    }
    free(buf);
    return r;
}

/* A byte range of a 1-D array (HtoA/AtoH). */
static CUresult linear_copy(CUarray a, size_t off, void *host, size_t n,
                            int to_array)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!array_of(a)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (!host || a->desc.Height || a->desc.Depth) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MEMCPY3D p;
    memset(&p, 0, sizeof p);
    p.WidthInBytes = n;
    p.Height = p.Depth = 1;
    if (to_array) {
        p.srcMemoryType = CU_MEMORYTYPE_HOST;
        p.srcHost = host;
        p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        p.dstArray = a;
        p.dstXInBytes = off;
    } else {
        p.dstMemoryType = CU_MEMORYTYPE_HOST;
        p.dstHost = host;
        p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        p.srcArray = a;
        p.srcXInBytes = off;
    }
    return drv_array_copy(&p, 1);
}

CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset,
                         const void *srcHost, size_t ByteCount)
{
    return drv_trace(linear_copy(dstArray, dstOffset, (void *)srcHost,
                                 ByteCount, 1),
                     "cuMemcpyHtoA_v2", "%p, %zu, %p, %zu",
                     (void *)dstArray, dstOffset, srcHost, ByteCount);
}

CUresult cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset,
                         size_t ByteCount)
{
    return drv_trace(linear_copy(srcArray, srcOffset, dstHost, ByteCount, 0),
                     "cuMemcpyAtoH_v2", "%p, %p, %zu, %zu", dstHost,
                     (void *)srcArray, srcOffset, ByteCount);
}

/* ------------------------------------------------- texture objects */

typedef struct TexRes {
    struct TexRes *next;
    CUtexObject handle;
    CUDA_RESOURCE_DESC res;
} TexRes;

static TexRes *texres;          /* guarded by drv.lock */

static CUresult tex_resource(const CUDA_RESOURCE_DESC *rd,
                             ptxemu_texture_desc *td)
{
    switch (rd->resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
        CUarray a = array_of(rd->res.array.hArray);
        if (!a) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        td->array = a->pa;
        return format_of(a->desc.Format, a->desc.NumChannels, &td->format)
                   ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_LINEAR:
        if (format_of(rd->res.linear.format, rd->res.linear.numChannels,
                      &td->format) || !rd->res.linear.devPtr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        td->ptr = rd->res.linear.devPtr;
        size_t elem = td->format.channels * td->format.bits / 8;
        if (rd->res.linear.sizeInBytes / elem > UINT32_MAX) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        td->width = (uint32_t)(rd->res.linear.sizeInBytes / elem);
        return CUDA_SUCCESS;
    case CU_RESOURCE_TYPE_PITCH2D:
        if (format_of(rd->res.pitch2D.format, rd->res.pitch2D.numChannels,
                      &td->format) || !rd->res.pitch2D.devPtr ||
            !rd->res.pitch2D.height || rd->res.pitch2D.width > UINT32_MAX ||
            rd->res.pitch2D.height > UINT32_MAX) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        td->ptr = rd->res.pitch2D.devPtr;
        td->width = (uint32_t)rd->res.pitch2D.width;
        td->height = (uint32_t)rd->res.pitch2D.height;
        td->pitch = rd->res.pitch2D.pitchInBytes;
        return CUDA_SUCCESS;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
        CUmipmappedArray m = mipmap_of(rd->res.mipmap.hMipmappedArray);
        if (!m) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        td->array = m->pa;
        return format_of(m->desc.Format, m->desc.NumChannels, &td->format)
                   ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    }
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

static CUresult tex_create(CUtexObject *out, const CUDA_RESOURCE_DESC *rd,
                           const CUDA_TEXTURE_DESC *t,
                           const CUDA_RESOURCE_VIEW_DESC *view)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!out || !rd || !t) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (view || (t->flags & CU_TRSF_SRGB)) {
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    ptxemu_texture_desc td;
    ptxemu_texture_desc_default(&td);
    r = tex_resource(rd, &td);
    if (r) {
        return r;
    }
    for (int i = 0; i < 3; i++) {
        if ((unsigned)t->addressMode[i] > CU_TR_ADDRESS_MODE_BORDER) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        td.address_mode[i] = (ptxemu_address_mode)t->addressMode[i];
    }
    if ((unsigned)t->filterMode > CU_TR_FILTER_MODE_LINEAR) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    td.filter = (ptxemu_filter_mode)t->filterMode;
    /* The driver's default is normalized float for 8/16-bit integers;
     * READ_AS_INTEGER asks for the element type. */
    int small_int = td.format.kind != PTXEMU_CHANNEL_FLOAT &&
                    td.format.bits < 32;
    td.read_mode = small_int && !(t->flags & CU_TRSF_READ_AS_INTEGER)
                       ? PTXEMU_READ_NORMALIZED_FLOAT
                       : PTXEMU_READ_ELEMENT_TYPE;
    td.normalized_coords = !!(t->flags & CU_TRSF_NORMALIZED_COORDINATES);
    memcpy(td.border_color, t->borderColor, sizeof td.border_color);
    td.seamless_cubemap = !!(t->flags & CU_TRSF_SEAMLESS_CUBEMAP);
    if ((unsigned)t->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* the mipmap fields matter for mipmapped resources only */
    if (rd->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
        td.mipmap_filter = (ptxemu_filter_mode)t->mipmapFilterMode;
        td.mipmap_level_bias = t->mipmapLevelBias;
        td.min_mipmap_level_clamp = t->minMipmapLevelClamp;
        td.max_mipmap_level_clamp = t->maxMipmapLevelClamp;
        td.max_anisotropy = t->maxAnisotropy;
    }
    TexRes *e = calloc(1, sizeof *e);
    if (!e) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    uint64_t h = 0;
    r = drv_status(ptxemu_texture_create(drv.dev, &td, &h));
    if (r) {
        free(e);
        return r;
    }
    e->handle = h;
    e->res = *rd;
    pthread_mutex_lock(&drv.lock);
    e->next = texres;
    texres = e;
    pthread_mutex_unlock(&drv.lock);
    *out = h;
    return CUDA_SUCCESS;
}

CUresult cuTexObjectCreate(CUtexObject *pTexObject,
                           const CUDA_RESOURCE_DESC *pResDesc,
                           const CUDA_TEXTURE_DESC *pTexDesc,
                           const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
    return drv_trace(tex_create(pTexObject, pResDesc, pTexDesc,
                                pResViewDesc),
                     "cuTexObjectCreate", "%p, %p, %p, %p",
                     (void *)pTexObject, (const void *)pResDesc,
                     (const void *)pTexDesc, (const void *)pResViewDesc);
}

/* Unlinks (take) or finds the entry of handle h; NULL if none. */
static TexRes *texres_find(CUtexObject h, int take, CUDA_RESOURCE_DESC *rd)
{
    pthread_mutex_lock(&drv.lock);
    TexRes **pp = &texres, *e = NULL;
    for (; *pp; pp = &(*pp)->next) {
        if ((*pp)->handle == h) {
            e = *pp;
            if (rd) {
                *rd = e->res;
            }
            if (take) {
                *pp = e->next;
            }
            break;
        }
    }
    pthread_mutex_unlock(&drv.lock);
    return e;
}

CUresult cuTexObjectDestroy(CUtexObject texObject)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        drv_queue_idle();
        r = drv_status(ptxemu_texture_destroy(drv.dev, texObject));
    }
    if (!r) {
        free(texres_find(texObject, 1, NULL));
    }
    return drv_trace(r, "cuTexObjectDestroy", "0x%llx", texObject);
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
                                    CUtexObject texObject)
{
    CUresult r = drv_ready(NULL);
    if (!r && !pResDesc) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r && !texres_find(texObject, 0, pResDesc)) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    return drv_trace(r, "cuTexObjectGetResourceDesc", "%p, 0x%llx",
                     (void *)pResDesc, texObject);
}

/* ------------------------------------------------- surface objects */

CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject,
                            const CUDA_RESOURCE_DESC *pResDesc)
{
    CUresult r = drv_ready(NULL);
    if (!r && (!pSurfObject || !pResDesc ||
               pResDesc->resType != CU_RESOURCE_TYPE_ARRAY)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    CUarray a = NULL;
    if (!r && !(a = array_of(pResDesc->res.array.hArray))) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r) {
        uint64_t h = 0;
        r = drv_status(ptxemu_surface_create(drv.dev, a->pa, &h));
        if (!r) {
            *pSurfObject = h;
        }
    }
    return drv_trace(r, "cuSurfObjectCreate", "%p, %p", (void *)pSurfObject,
                     (const void *)pResDesc);
}

CUresult cuSurfObjectDestroy(CUsurfObject surfObject)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        drv_queue_idle();
        r = drv_status(ptxemu_surface_destroy(drv.dev, surfObject));
    }
    return drv_trace(r, "cuSurfObjectDestroy", "0x%llx", surfObject);
}
