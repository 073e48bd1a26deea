/*
 * runtime/cuda/drv_mem.c: device, managed and host memory, copies and
 * memsets, pointer attributes.
 *
 * Managed memory, page-locked host memory (cuMemAllocHost,
 * cuMemHostAlloc) and registered host memory are all host memory the
 * emulated device sees at the same address, so the host uses managed
 * memory directly and device pointer == host pointer.
 *
 * Copies and memsets are stream work (drv_queue.h): the Async variants
 * and the device-to-device and memset ones without a stream (on the
 * legacy stream) return at once and run in stream order; a copy from or
 * to pageable host memory waits for its stream and runs on the calling
 * thread (CUDA's "API synchronization behavior": such copies are
 * synchronous), as does every blocking copy.  cuMemFree and
 * cuMemFreeHost wait for the context's work first.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_capture.h"
#include "runtime/cuda/drv_queue.h"
#include "runtime/graph/gmem.h"

/* ------------------------------------------------------------ alloc */

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        uint64_t used = ptxemu_mem_used(drv.dev) + drv_vmm_bytes();
        uint64_t t = drv.gpu.total_mem;
        if (free_bytes) {
            *free_bytes = (size_t)(used < t ? t - used : 0);
        }
        if (total) {
            *total = (size_t)t;
        }
    }
    return drv_trace(r, "cuMemGetInfo_v2", "%p, %p", (void *)free_bytes,
                     (void *)total);
}

static CUresult mem_alloc(CUdeviceptr *dptr, size_t n)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!dptr || n == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    ptxemu_devptr p;
    ptxemu_status st = ptxemu_malloc(drv.dev, n, &p);
    if (st != PTXEMU_SUCCESS) {
        return drv_status(st);
    }
    if (drv_handle_add(DRV_MEM, (const void *)(uintptr_t)p)) {
        (void)ptxemu_free(drv.dev, p);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *dptr = p;
    return CUDA_SUCCESS;
}

/* Frees an allocation made here (device, managed or page-locked). */
static CUresult release(CUdeviceptr p)
{
    drv_handle_remove(DRV_MEM, (const void *)(uintptr_t)p);
    drv_handle_remove(DRV_PINNED, (const void *)(uintptr_t)p);
    return drv_status(ptxemu_free(drv.dev, p));
}

void drv_mem_release_owned(CUcontext ctx)
{
    static const DrvKind kinds[] = {DRV_MEM, DRV_PINNED};
    for (size_t k = 0; k < 2; k++) {
        const void **v;
        size_t n = drv_handles_owned(ctx, kinds[k], &v);
        for (size_t i = 0; i < n; i++) {
            (void)release((CUdeviceptr)(uintptr_t)v[i]);
        }
        free(v);
    }
}

/* An allocation or free outside stream order, while a capture's mode
 * forbids it (cuStreamBeginCapture), fails. */
static CUresult alloc_unsafe(CUdeviceptr *dptr, size_t n)
{
    CUresult r = drv_capture_unsafe();
    return r ? r : mem_alloc(dptr, n);
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    return drv_trace(alloc_unsafe(dptr, bytesize), "cuMemAlloc_v2",
                     "%p, %zu", (void *)dptr, bytesize);
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch,
                            size_t WidthInBytes, size_t Height,
                            unsigned int ElementSizeBytes)
{
    CUresult r = CUDA_SUCCESS;
    if (!pPitch || !WidthInBytes || !Height ||
        (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
         ElementSizeBytes != 16)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    /* Rows aligned to 512 bytes, the texture pitch alignment of real
     * devices. */
    size_t pitch = (WidthInBytes + 511) & ~(size_t)511;
    if (!r && Height > SIZE_MAX / pitch) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        r = alloc_unsafe(dptr, pitch * Height);
    }
    if (!r) {
        *pPitch = pitch;
    }
    return drv_trace(r, "cuMemAllocPitch_v2", "%p, %p, %zu, %zu, %u",
                     (void *)dptr, (void *)pPitch, WidthInBytes, Height,
                     ElementSizeBytes);
}

/* Frees p, a block of a memory pool going back to its pool (freed on
 * stream s, drv_pool.c) and any other allocation to the device. */
static CUresult mem_free(CUdeviceptr p, CUstream s)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (p == 0) {
        return CUDA_SUCCESS;
    }
    ptxemu_mem_kind kind;
    ptxemu_devptr base;
    ptxemu_pointer_info(drv.dev, p, &kind, &base, NULL);
    if (kind == PTXEMU_MEM_NONE || kind == PTXEMU_MEM_MODULE ||
        kind == PTXEMU_MEM_HOST || base != p) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return drv_pool_free(p, s) ? CUDA_SUCCESS : release(p);
}

/* As mem_free, a graph allocation left live by its graph too
 * (cuGraphAddMemAllocNode: cuMemFree or cuMemFreeAsync frees it). */
static CUresult any_free(CUdeviceptr p, CUstream s)
{
    switch (drv_graph_mem_free(p)) {
    case 1:
        return CUDA_SUCCESS;
    case -1:
        return CUDA_ERROR_INVALID_VALUE;
    default:
        return mem_free(p, s);
    }
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    CUresult r = drv_capture_unsafe();
    if (!r && drv_current()) {
        /* CUDA: cuMemFree synchronises with the device first. */
        drv_queue_sync_ctx(drv_current());
    }
    if (!r && (r = any_free(dptr, NULL)) == CUDA_ERROR_INVALID_VALUE) {
        drv_sanitize_bad_free(dptr);
    }
    return drv_trace(r, "cuMemFree_v2", "0x%llx", dptr);
}

/* Memory the host and the device share: managed, or page-locked host
 * memory (pinned: cuMemAllocHost, cuMemHostAlloc), which
 * cuPointerGetAttribute tells apart. */
static CUresult alloc_shared(void **pp, size_t n, int pinned)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!pp || n == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    r = drv_status(ptxemu_malloc_managed(drv.dev, n, pp));
    if (!r && drv_handle_add(pinned ? DRV_PINNED : DRV_MEM, *pp)) {
        (void)ptxemu_free(drv.dev, (ptxemu_devptr)(uintptr_t)*pp);
        r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    return r;
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
                           unsigned int flags)
{
    CUresult r = CUDA_SUCCESS;
    void *p = NULL;
    if (!dptr || (flags != CU_MEM_ATTACH_GLOBAL &&
                  flags != CU_MEM_ATTACH_HOST)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        r = alloc_shared(&p, bytesize, 0);
    }
    if (!r) {
        *dptr = (CUdeviceptr)(uintptr_t)p;
    }
    return drv_trace(r, "cuMemAllocManaged", "%p, %zu, 0x%x", (void *)dptr,
                     bytesize, flags);
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    return drv_trace(alloc_shared(pp, bytesize, 1), "cuMemAllocHost_v2",
                     "%p, %zu", (void *)pp, bytesize);
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    CUresult r = Flags & ~7u ? CUDA_ERROR_INVALID_VALUE
                             : alloc_shared(pp, bytesize, 1);
    return drv_trace(r, "cuMemHostAlloc", "%p, %zu, 0x%x", (void *)pp,
                     bytesize, Flags);
}

CUresult cuMemFreeHost(void *p)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        drv_queue_sync_ctx(drv_current());
    }
    if (!r) {
        ptxemu_mem_kind kind;
        ptxemu_devptr base;
        ptxemu_pointer_info(drv.dev, (ptxemu_devptr)(uintptr_t)p, &kind,
                            &base, NULL);
        /* Only what cuMemAllocHost or cuMemHostAlloc gave: not managed
         * memory, nor a host or managed pool's block (the same kind of
         * memory here), which its pool would later hand out again. */
        r = kind != PTXEMU_MEM_MANAGED || base != (uintptr_t)p ||
                    !drv_handle_valid(DRV_PINNED, p)
            ? CUDA_ERROR_INVALID_VALUE
            : release(base);
    }
    return drv_trace(r, "cuMemFreeHost", "%p", p);
}

/* The kind of memory at p, PTXEMU_MEM_NONE for plain host memory. */
static ptxemu_mem_kind kind_of(CUdeviceptr p, ptxemu_devptr *base,
                               size_t *size)
{
    ptxemu_mem_kind kind = PTXEMU_MEM_NONE;
    ptxemu_pointer_info(drv.dev, p, &kind, base, size);
    return kind;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p,
                                      unsigned int Flags)
{
    CUresult r = drv_ready(NULL);
    if (!r && (!pdptr || !p || Flags)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        ptxemu_mem_kind k = kind_of((uintptr_t)p, NULL, NULL);
        if (k == PTXEMU_MEM_HOST || k == PTXEMU_MEM_MANAGED) {
            *pdptr = (CUdeviceptr)(uintptr_t)p;
        } else {
            r = CUDA_ERROR_INVALID_VALUE;
        }
    }
    return drv_trace(r, "cuMemHostGetDevicePointer_v2", "%p, %p, 0x%x",
                     (void *)pdptr, p, Flags);
}

CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    CUresult r = drv_ready(NULL);
    if (!r && !pFlags) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        ptxemu_mem_kind k = kind_of((uintptr_t)p, NULL, NULL);
        if (k == PTXEMU_MEM_HOST || k == PTXEMU_MEM_MANAGED) {
            /* Every such block is mapped and usable by every context. */
            *pFlags = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP;
        } else {
            r = CUDA_ERROR_INVALID_VALUE;
        }
    }
    return drv_trace(r, "cuMemHostGetFlags", "%p, %p", (void *)pFlags, p);
}

static CUresult host_register(void *p, size_t n, unsigned flags)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!p || !n || (flags & ~15u)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (kind_of((uintptr_t)p, NULL, NULL) != PTXEMU_MEM_NONE) {
        return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    }
    return drv_status(ptxemu_host_register(drv.dev, p, n));
}

CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    return drv_trace(host_register(p, bytesize, Flags), "cuMemHostRegister",
                     "%p, %zu, 0x%x", p, bytesize, Flags);
}

CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    return drv_trace(host_register(p, bytesize, Flags),
                     "cuMemHostRegister_v2", "%p, %zu, 0x%x", p, bytesize,
                     Flags);
}

CUresult cuMemHostUnregister(void *p)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        ptxemu_devptr base;
        r = kind_of((uintptr_t)p, &base, NULL) != PTXEMU_MEM_HOST ||
            base != (uintptr_t)p
            ? CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED
            : drv_status(ptxemu_host_unregister(drv.dev, p));
    }
    return drv_trace(r, "cuMemHostUnregister", "%p", p);
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize,
                                 CUdeviceptr dptr)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        ptxemu_devptr base;
        size_t size;
        if (kind_of(dptr, &base, &size) == PTXEMU_MEM_NONE) {
            r = CUDA_ERROR_NOT_FOUND;
        } else {
            if (pbase) {
                *pbase = base;
            }
            if (psize) {
                *psize = size;
            }
        }
    }
    return drv_trace(r, "cuMemGetAddressRange_v2", "%p, %p, 0x%llx",
                     (void *)pbase, (void *)psize, dptr);
}

/* Stream-ordered allocation: from the device's current memory pool
 * (drv_pool.c).  Captured (CUDA: "results in the creation of an
 * allocation node"), it adds a graph allocation node whose address it
 * returns; a captured free of a graph allocation adds a free node, and
 * one of other memory is dropped (the memory stays allocated).  In a
 * capture already invalidated both fail. */
CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize,
                         CUstream hStream)
{
    CUresult r = drv_ready_stream(hStream);
    int st = r ? 0 : drv_capture_status(hStream);
    if (!r && st == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
        drv_node_params p;
        memset(&p, 0, sizeof(p));
        p.alloc.a.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
        p.alloc.a.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        p.alloc.a.bytesize = bytesize;
        r = dptr ? drv_graph_alloc_set(&p) : CUDA_ERROR_INVALID_VALUE;
        int taken;
        if (!r) {
            r = drv_capture_node(hStream, CU_GRAPH_NODE_TYPE_MEM_ALLOC, &p,
                                 &taken);
        }
        if (!r) {
            *dptr = p.alloc.a.dptr;
        }
    } else if (!r) {
        r = drv_pool_alloc(dptr, bytesize, hStream);
    }
    return drv_trace(r, "cuMemAllocAsync", "%p, %zu, %p", (void *)dptr,
                     bytesize, (void *)hStream);
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
    CUresult r = drv_ready_stream(hStream);
    int st = r ? 0 : drv_capture_status(hStream);
    if (st == CU_STREAM_CAPTURE_STATUS_INVALIDATED) {
        r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    }
    if (!r && st == CU_STREAM_CAPTURE_STATUS_ACTIVE && gmem_known(dptr)) {
        drv_node_params p;
        memset(&p, 0, sizeof(p));
        p.free_ptr = dptr;
        int taken;
        r = drv_capture_node(hStream, CU_GRAPH_NODE_TYPE_MEM_FREE, &p,
                             &taken);
    } else if (!r && st == CU_STREAM_CAPTURE_STATUS_NONE) {
        /* The stream's earlier work may still use the memory: the free
         * waits for it, so that a pool's reuse of the block, on any
         * stream, is always safe (drv_pool.c). */
        drv_queue_sync_stream(hStream);
        r = any_free(dptr, hStream);
    }
    return drv_trace(r, "cuMemFreeAsync", "0x%llx, %p", dptr,
                     (void *)hStream);
}

/* Prefetches and advice are hints; with host-resident managed memory
 * there is nothing to move.  The range must still be managed memory. */
static CUresult hint(CUdeviceptr p, size_t n, CUstream s)
{
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    ptxemu_devptr base;
    size_t size;
    if (kind_of(p, &base, &size) == PTXEMU_MEM_NONE || n == 0 ||
        p - base + n > size) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count,
                            CUdevice dstDevice, CUstream hStream)
{
    CUresult r = dstDevice != 0 && dstDevice != CU_DEVICE_CPU
                 ? CUDA_ERROR_INVALID_DEVICE : hint(devPtr, count, hStream);
    return drv_trace(r, "cuMemPrefetchAsync", "0x%llx, %zu, %d, %p", devPtr,
                     count, dstDevice, (void *)hStream);
}

/* A prefetch's destination: device 0 or the host (cudaMemLocationType
 * Device, Host, HostNuma, HostNumaCurrent). */
static CUresult location_ok(CUmemLocation l)
{
    if (l.type == CU_MEM_LOCATION_TYPE_DEVICE) {
        return l.id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
    }
    return l.type >= CU_MEM_LOCATION_TYPE_HOST && l.type <= 4
           ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count,
                               CUmemLocation location, unsigned int flags,
                               CUstream hStream)
{
    CUresult r = flags ? CUDA_ERROR_INVALID_VALUE : location_ok(location);
    if (!r) {
        r = hint(devPtr, count, hStream);
    }
    return drv_trace(r, "cuMemPrefetchAsync_v2", "0x%llx, %zu, {%d, %d}, "
                     "%u, %p", devPtr, count, location.type, location.id,
                     flags, (void *)hStream);
}

CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
                     CUdevice device)
{
    CUresult r = advice < 1 || advice > 6 ? CUDA_ERROR_INVALID_VALUE
                                          : hint(devPtr, count, NULL);
    return drv_trace(r, "cuMemAdvise", "0x%llx, %zu, %d, %d", devPtr, count,
                     advice, device);
}

CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count,
                        CUmem_advise advice, CUmemLocation location)
{
    CUresult r = advice < 1 || advice > 6 ? CUDA_ERROR_INVALID_VALUE
                                          : hint(devPtr, count, NULL);
    return drv_trace(r, "cuMemAdvise_v2", "0x%llx, %zu, %d, {%d, %d}",
                     devPtr, count, advice, location.type, location.id);
}

/* ------------------------------------------------------------ attributes */

static CUresult pointer_attr(void *data, CUpointer_attribute a,
                             CUdeviceptr p)
{
    CUcontext ctx;
    CUresult r = drv_ready(&ctx);
    if (r) {
        return r;
    }
    if (!data) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    ptxemu_devptr base = 0;
    size_t size = 0;
    ptxemu_mem_kind k = kind_of(p, &base, &size);
    int host = k == PTXEMU_MEM_HOST || k == PTXEMU_MEM_MANAGED;
    /* Page-locked host memory is host memory, not managed, to CUDA. */
    if (k == PTXEMU_MEM_MANAGED &&
        (drv_handle_valid(DRV_PINNED, (const void *)(uintptr_t)base) ||
         drv_pool_host(p))) {
        k = PTXEMU_MEM_HOST;
    }
    unsigned u;
    if (k == PTXEMU_MEM_NONE) {
        /* Unknown memory: CUDA answers only these two. */
        if (a == CU_POINTER_ATTRIBUTE_MEMORY_TYPE) {
            *(unsigned *)data = 0;
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (a == CU_POINTER_ATTRIBUTE_IS_MANAGED ||
            a == CU_POINTER_ATTRIBUTE_MAPPED) {
            *(unsigned *)data = 0;
            return CUDA_SUCCESS;
        }
        return CUDA_ERROR_INVALID_VALUE;
    }
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        *(CUcontext *)data = ctx;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        u = k == PTXEMU_MEM_HOST ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        *(CUdeviceptr *)data = p;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (!host) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        *(void **)data = (void *)(uintptr_t)p;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        *(unsigned long long *)data = base;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
        *(CUdeviceptr *)data = base;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
        *(size_t *)data = size;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
        *(unsigned long long *)data = base;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        u = k == PTXEMU_MEM_MANAGED;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPED:
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
        u = 1;
        break;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
        u = 3;                          /* CU_POINTER_ACCESS_FLAG_READWRITE */
        break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        u = 0;
        break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        *(CUmemoryPool *)data = drv_pool_owner(p);
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* Booleans and enumerations are written as unsigned int, as the
     * documentation's "type of data must be unsigned int" asks. */
    *(unsigned *)data = u;
    return CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
                               CUdeviceptr ptr)
{
    return drv_trace(pointer_attr(data, attribute, ptr),
                     "cuPointerGetAttribute", "%p, %d, 0x%llx", data,
                     (int)attribute, ptr);
}

CUresult cuPointerGetAttributes(unsigned int numAttributes,
                                CUpointer_attribute *attributes,
                                void **data, CUdeviceptr ptr)
{
    CUresult r = drv_ready(NULL);
    if (!r && (!attributes || !data)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    for (unsigned i = 0; !r && i < numAttributes; i++) {
        if (!data[i]) {
            r = CUDA_ERROR_INVALID_VALUE;
            break;
        }
        /* The plural form answers unknown memory with zeroed values
         * and success, so that one call can classify any pointer. */
        if (pointer_attr(data[i], attributes[i], ptr) != CUDA_SUCCESS) {
            switch (attributes[i]) {
            case CU_POINTER_ATTRIBUTE_CONTEXT:
            case CU_POINTER_ATTRIBUTE_HOST_POINTER:
            case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
                *(void **)data[i] = NULL;
                break;
            case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
            case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
            case CU_POINTER_ATTRIBUTE_BUFFER_ID:
            case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
            case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
            case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
            case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
                *(unsigned long long *)data[i] = 0;
                break;
            case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
                *(int *)data[i] = -2;
                break;
            case CU_POINTER_ATTRIBUTE_P2P_TOKENS:
                r = CUDA_ERROR_INVALID_VALUE;
                break;
            default:
                if ((unsigned)attributes[i] >
                    CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID) {
                    r = CUDA_ERROR_INVALID_VALUE;
                } else {
                    *(unsigned *)data[i] = 0;
                }
                break;
            }
        }
    }
    return drv_trace(r, "cuPointerGetAttributes", "%u, %p, %p, 0x%llx",
                     numAttributes, (void *)attributes, (void *)data, ptr);
}

/* ------------------------------------------------------------ copies */

/* Which sides of a copy the call names as device memory (cuMemcpyHtoD's
 * destination, ...): an address there that is not device-visible memory
 * is an error.  A side not named may be plain host memory (unified
 * addressing, as cuMemcpy takes it), unless it lies in the emulator's
 * device range: a freed device pointer is an error, never a host
 * access. */
enum { COPY_DST_DEV = 1, COPY_SRC_DEV = 2 };

/* Whether one side of a copy may be used: plain host memory (*host set)
 * or device-visible memory. */
static int side_ok(CUdeviceptr p, int must_be_dev, int *host)
{
    *host = kind_of(p, NULL, NULL) == PTXEMU_MEM_NONE;
    return !*host || (!must_be_dev && !ptxemu_is_device_address(drv.dev, p));
}

/* One copy, sides classified (dh, sh: plain host memory). */
static CUresult copy_now(CUdeviceptr dst, CUdeviceptr src, size_t n, int dh,
                         int sh)
{
    ptxemu_status st;
    if (dh && sh) {
        memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
        st = PTXEMU_SUCCESS;
    } else if (sh) {
        st = ptxemu_memcpy_htod(drv.dev, dst, (const void *)(uintptr_t)src,
                                n);
    } else if (dh) {
        st = ptxemu_memcpy_dtoh(drv.dev, (void *)(uintptr_t)dst, src, n);
    } else {
        st = ptxemu_memcpy_dtod(drv.dev, dst, src, n);
    }
    return drv_status(st);
}

typedef struct CopyItem {
    CUdeviceptr dst, src;
    size_t n;
} CopyItem;

static CUresult copy_run(void *p)
{
    const CopyItem *c = p;
    return copy_now(c->dst, c->src, c->n, 0, 0);
}

/* One copy between any two addresses on stream s: each side is
 * device-visible memory (per the emulator) or plain host memory, as
 * `need` allows.  sync: a blocking copy, which is a synchronisation
 * point (device printf appears).  Between device-visible memory (device,
 * managed, page-locked) a copy that is not blocking is put on s; else s
 * is waited for and the copy made now. */
static CUresult copy(CUstream s, CUdeviceptr dst, CUdeviceptr src, size_t n,
                     int sync, unsigned need)
{
    CUresult r = drv_ready(NULL);
    if (!r && sync) {
        r = drv_capture_unsafe();       /* a blocking copy */
    }
    if (r || n == 0) {
        return r;
    }
    if (!dst || !src) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    int dh, sh;
    if (!side_ok(dst, need & COPY_DST_DEV, &dh) ||
        !side_ok(src, need & COPY_SRC_DEV, &sh)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!sync && !dh && !sh) {
        CopyItem c = {dst, src, n};
        return drv_enqueue(s, copy_run, &c, sizeof(c), NULL);
    }
    drv_queue_sync_stream(s);
    if (sync) {
        drv_queue_flush();
    }
    drv_dev_lock();
    r = copy_now(dst, src, n, dh, sh);
    drv_dev_unlock();
    return r;
}

#define HP(p) ((CUdeviceptr)(uintptr_t)(p))

/* An asynchronous 1D copy on stream s: a memcpy node while s captures
 * (drv_capture.h), else done now. */
static CUresult copy_on(CUstream s, CUdeviceptr dst, CUdeviceptr src,
                        size_t n, unsigned need)
{
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    drv_node_params p;
    memset(&p, 0, sizeof(p));
    p.memcpy.srcMemoryType = need & COPY_SRC_DEV ? CU_MEMORYTYPE_DEVICE
                                                 : CU_MEMORYTYPE_UNIFIED;
    p.memcpy.srcDevice = src;
    p.memcpy.dstMemoryType = need & COPY_DST_DEV ? CU_MEMORYTYPE_DEVICE
                                                 : CU_MEMORYTYPE_UNIFIED;
    p.memcpy.dstDevice = dst;
    p.memcpy.WidthInBytes = n;
    p.memcpy.Height = 1;
    p.memcpy.Depth = 1;
    int taken;
    r = drv_capture_node(s, CU_GRAPH_NODE_TYPE_MEMCPY, &p, &taken);
    return taken ? r : copy(s, dst, src, n, 0, need);
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    return drv_trace(copy(NULL, dst, src, ByteCount, 1, 0), "cuMemcpy",
                     "0x%llx, 0x%llx, %zu", dst, src, ByteCount);
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                       CUstream hStream)
{
    CUresult r = copy_on(hStream, dst, src, ByteCount, 0);
    return drv_trace(r, "cuMemcpyAsync", "0x%llx, 0x%llx, %zu, %p", dst, src,
                     ByteCount, (void *)hStream);
}

static CUresult peer_ctx(CUcontext a, CUcontext b)
{
    return drv_handle_valid(DRV_CTX, a) && drv_handle_valid(DRV_CTX, b)
           ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext,
                      CUdeviceptr srcDevice, CUcontext srcContext,
                      size_t ByteCount)
{
    CUresult r = peer_ctx(dstContext, srcContext);
    if (!r) {
        r = copy(NULL, dstDevice, srcDevice, ByteCount, 1,
                 COPY_DST_DEV | COPY_SRC_DEV);
    }
    return drv_trace(r, "cuMemcpyPeer", "0x%llx, %p, 0x%llx, %p, %zu",
                     dstDevice, (void *)dstContext, srcDevice,
                     (void *)srcContext, ByteCount);
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext,
                           CUdeviceptr srcDevice, CUcontext srcContext,
                           size_t ByteCount, CUstream hStream)
{
    CUresult r = peer_ctx(dstContext, srcContext);
    if (!r) {
        r = copy_on(hStream, dstDevice, srcDevice, ByteCount,
                    COPY_DST_DEV | COPY_SRC_DEV);
    }
    return drv_trace(r, "cuMemcpyPeerAsync", "0x%llx, %p, 0x%llx, %p, %zu, "
                     "%p", dstDevice, (void *)dstContext, srcDevice,
                     (void *)srcContext, ByteCount, (void *)hStream);
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost,
                         size_t ByteCount)
{
    return drv_trace(copy(NULL, dstDevice, HP(srcHost), ByteCount, 1,
                          COPY_DST_DEV),
                     "cuMemcpyHtoD_v2", "0x%llx, %p, %zu", dstDevice,
                     srcHost, ByteCount);
}

CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice,
                         size_t ByteCount)
{
    return drv_trace(copy(NULL, HP(dstHost), srcDevice, ByteCount, 1,
                          COPY_SRC_DEV),
                     "cuMemcpyDtoH_v2", "%p, 0x%llx, %zu", dstHost,
                     srcDevice, ByteCount);
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                         size_t ByteCount)
{
    return drv_trace(copy(NULL, dstDevice, srcDevice, ByteCount, 0,
                          COPY_DST_DEV | COPY_SRC_DEV),
                     "cuMemcpyDtoD_v2", "0x%llx, 0x%llx, %zu", dstDevice,
                     srcDevice, ByteCount);
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost,
                              size_t ByteCount, CUstream hStream)
{
    CUresult r = copy_on(hStream, dstDevice, HP(srcHost), ByteCount,
                         COPY_DST_DEV);
    return drv_trace(r, "cuMemcpyHtoDAsync_v2", "0x%llx, %p, %zu, %p",
                     dstDevice, srcHost, ByteCount, (void *)hStream);
}

CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice,
                              size_t ByteCount, CUstream hStream)
{
    CUresult r = copy_on(hStream, HP(dstHost), srcDevice, ByteCount,
                         COPY_SRC_DEV);
    return drv_trace(r, "cuMemcpyDtoHAsync_v2", "%p, 0x%llx, %zu, %p",
                     dstHost, srcDevice, ByteCount, (void *)hStream);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                              size_t ByteCount, CUstream hStream)
{
    CUresult r = copy_on(hStream, dstDevice, srcDevice, ByteCount,
                         COPY_DST_DEV | COPY_SRC_DEV);
    return drv_trace(r, "cuMemcpyDtoDAsync_v2", "0x%llx, 0x%llx, %zu, %p",
                     dstDevice, srcDevice, ByteCount, (void *)hStream);
}

/* ------------------------------------------------------------ 2D / 3D */

/* The address of one side of a 2D/3D copy of linear memory (copies
 * with an array side go to drv_array_copy first). */
static CUresult side(CUmemorytype t, const void *host, CUdeviceptr dev,
                     CUarray arr, CUdeviceptr *out)
{
    switch (t) {
    case CU_MEMORYTYPE_HOST:
        *out = HP(host);
        return host ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
        *out = dev;
        return dev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_MEMORYTYPE_ARRAY:
        (void)arr;
        return CUDA_ERROR_NOT_SUPPORTED;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

typedef struct Copy3 {
    CUdeviceptr src, dst;
    size_t src_pitch, src_height, dst_pitch, dst_height;
    size_t width, height, depth;
    unsigned need;              /* COPY_DST_DEV | COPY_SRC_DEV */
} Copy3;

static CUresult copy3(const Copy3 *c, CUstream st, int sync)
{
    if (c->width > c->src_pitch || c->width > c->dst_pitch ||
        c->height > c->src_height || c->height > c->dst_height) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t z = 0; z < c->depth; z++) {
        for (size_t y = 0; y < c->height; y++) {
            CUdeviceptr s = c->src + (z * c->src_height + y) * c->src_pitch;
            CUdeviceptr d = c->dst + (z * c->dst_height + y) * c->dst_pitch;
            CUresult r = copy(st, d, s, c->width, sync && !z && !y, c->need);
            if (r) {
                return r;
            }
        }
    }
    return CUDA_SUCCESS;
}

/* A 2D copy as the 3D copy it is (depth 1). */
static void to3d(const CUDA_MEMCPY2D *p, CUDA_MEMCPY3D *q)
{
    memset(q, 0, sizeof(*q));
    q->srcXInBytes = p->srcXInBytes;
    q->srcY = p->srcY;
    q->srcMemoryType = p->srcMemoryType;
    q->srcHost = p->srcHost;
    q->srcDevice = p->srcDevice;
    q->srcArray = p->srcArray;
    q->srcPitch = p->srcPitch;
    q->dstXInBytes = p->dstXInBytes;
    q->dstY = p->dstY;
    q->dstMemoryType = p->dstMemoryType;
    q->dstHost = p->dstHost;
    q->dstDevice = p->dstDevice;
    q->dstArray = p->dstArray;
    q->dstPitch = p->dstPitch;
    q->WidthInBytes = p->WidthInBytes;
    q->Height = p->Height;
    q->Depth = 1;
}

/* Work of a 2D/3D asynchronous copy while s captures: a memcpy node. */
static CUresult capture3d(const CUDA_MEMCPY3D *q, CUstream s, int *taken)
{
    drv_node_params p;
    memset(&p, 0, sizeof(p));
    p.memcpy = *q;
    return drv_capture_node(s, CU_GRAPH_NODE_TYPE_MEMCPY, &p, taken);
}

/* A copy with an array side: after s's work (drv_array_copy waits for
 * all work), on the calling thread. */
static CUresult array_copy_on(const CUDA_MEMCPY3D *p, CUstream s, int sync)
{
    drv_queue_sync_stream(s);
    return drv_array_copy(p, sync);
}

static CUresult memcpy2d(const CUDA_MEMCPY2D *p, CUstream s, int sync)
{
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    if (!p) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!sync) {
        CUDA_MEMCPY3D q;
        int taken;
        to3d(p, &q);
        r = capture3d(&q, s, &taken);
        if (taken) {
            return r;
        }
    }
    if (p->srcMemoryType == CU_MEMORYTYPE_ARRAY ||
        p->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
        CUDA_MEMCPY3D q;
        to3d(p, &q);
        return array_copy_on(&q, s, sync);
    }
    Copy3 c;
    r = side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray,
             &c.src);
    if (!r) {
        r = side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray,
                 &c.dst);
    }
    if (r) {
        return r;
    }
    c.need = (p->srcMemoryType == CU_MEMORYTYPE_DEVICE ? COPY_SRC_DEV : 0) |
             (p->dstMemoryType == CU_MEMORYTYPE_DEVICE ? COPY_DST_DEV : 0);
    c.src_pitch = p->srcPitch ? p->srcPitch : p->WidthInBytes;
    c.dst_pitch = p->dstPitch ? p->dstPitch : p->WidthInBytes;
    c.src += p->srcY * c.src_pitch + p->srcXInBytes;
    c.dst += p->dstY * c.dst_pitch + p->dstXInBytes;
    c.src_height = c.dst_height = c.height = p->Height;
    c.width = p->WidthInBytes;
    c.depth = 1;
    return copy3(&c, s, sync);
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
    return drv_trace(memcpy2d(pCopy, NULL, 1), "cuMemcpy2D_v2", "%p",
                     (const void *)pCopy);
}

CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy)
{
    return drv_trace(memcpy2d(pCopy, NULL, 1), "cuMemcpy2DUnaligned_v2",
                     "%p", (const void *)pCopy);
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return drv_trace(memcpy2d(pCopy, hStream, 0), "cuMemcpy2DAsync_v2",
                     "%p, %p", (const void *)pCopy, (void *)hStream);
}

static CUresult memcpy3d(const CUDA_MEMCPY3D *p, CUstream s, int sync)
{
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    if (!p || p->srcLOD || p->dstLOD || p->reserved0 || p->reserved1) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!sync) {
        int taken;
        r = capture3d(p, s, &taken);
        if (taken) {
            return r;
        }
    }
    if (p->srcMemoryType == CU_MEMORYTYPE_ARRAY ||
        p->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
        return array_copy_on(p, s, sync);
    }
    Copy3 c;
    r = side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray,
             &c.src);
    if (!r) {
        r = side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray,
                 &c.dst);
    }
    if (r) {
        return r;
    }
    c.need = (p->srcMemoryType == CU_MEMORYTYPE_DEVICE ? COPY_SRC_DEV : 0) |
             (p->dstMemoryType == CU_MEMORYTYPE_DEVICE ? COPY_DST_DEV : 0);
    c.src_pitch = p->srcPitch ? p->srcPitch : p->WidthInBytes;
    c.dst_pitch = p->dstPitch ? p->dstPitch : p->WidthInBytes;
    c.src_height = p->srcHeight ? p->srcHeight : p->Height;
    c.dst_height = p->dstHeight ? p->dstHeight : p->Height;
    c.src += (p->srcZ * c.src_height + p->srcY) * c.src_pitch +
             p->srcXInBytes;
    c.dst += (p->dstZ * c.dst_height + p->dstY) * c.dst_pitch +
             p->dstXInBytes;
    c.width = p->WidthInBytes;
    c.height = p->Height;
    c.depth = p->Depth ? p->Depth : 1;
    return copy3(&c, s, sync);
}

CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy)
{
    return drv_trace(memcpy3d(pCopy, NULL, 1), "cuMemcpy3D_v2", "%p",
                     (const void *)pCopy);
}

CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    return drv_trace(memcpy3d(pCopy, hStream, 0), "cuMemcpy3DAsync_v2",
                     "%p, %p", (const void *)pCopy, (void *)hStream);
}

/* ------------------------------------------------------------ memset */

/* A memset as stream work. */
typedef struct FillItem {
    CUdeviceptr dst;
    size_t pitch;
    unsigned value, size;
    size_t width, height;
} FillItem;

static CUresult fill_run(void *p)
{
    const FillItem *f = p;
    size_t row = f->width * f->size;
    unsigned value = f->value;
    if (f->size == 1 ||
        ((value & 0xff) * 0x01010101u ==
         (f->size == 2 ? (value & 0xffff) * 0x00010001u : value))) {
        for (size_t y = 0; y < f->height; y++) {
            ptxemu_status st = ptxemu_memset(drv.dev, f->dst + y * f->pitch,
                                             (int)(value & 0xff), row);
            if (st != PTXEMU_SUCCESS) {
                return drv_status(st);
            }
        }
        return CUDA_SUCCESS;
    }
    /* A multi-byte pattern: build one row on the host and copy it. */
    unsigned char *buf = malloc(row);
    if (!buf) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < f->width; i++) {
        if (f->size == 2) {
            uint16_t v = (uint16_t)value;
            memcpy(buf + i * 2, &v, 2);
        } else {
            memcpy(buf + i * 4, &value, 4);
        }
    }
    CUresult r = CUDA_SUCCESS;
    for (size_t y = 0; y < f->height && !r; y++) {
        r = drv_status(ptxemu_memcpy_htod(drv.dev, f->dst + y * f->pitch,
                                          buf, row));
    }
    free(buf);
    return r;
}

/* Fill n elements of `size` bytes (1, 2, 4) with `value`, in rows of
 * `width` elements `pitch` bytes apart (height rows), on stream s. */
static CUresult fill(CUdeviceptr dst, size_t pitch, unsigned value,
                     unsigned size, size_t width, size_t height, CUstream s)
{
    CUresult r = drv_ready_stream(s);
    if (r || !width || !height) {
        return r;
    }
    if (!dst || dst % size || (height > 1 && pitch < width * size) ||
        width > SIZE_MAX / size) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    drv_node_params p;
    memset(&p, 0, sizeof(p));
    p.memset.dst = dst;
    p.memset.pitch = pitch;
    p.memset.value = value;
    p.memset.elementSize = size;
    p.memset.width = width;
    p.memset.height = height;
    int taken;
    r = drv_capture_node(s, CU_GRAPH_NODE_TYPE_MEMSET, &p, &taken);
    if (taken) {
        return r;
    }
    /* The whole extent must lie in one device-visible allocation (or
     * VMM mappings side by side): a freed or unknown pointer fails here,
     * not later on the stream. */
    ptxemu_devptr base;
    size_t asize;
    size_t extent = (height - 1) * pitch + width * size;
    if ((height > 1 && (height - 1) > (SIZE_MAX - width * size) / pitch) ||
        ((kind_of(dst, &base, &asize) == PTXEMU_MEM_NONE ||
          dst - base > asize || extent > asize - (dst - base)) &&
         !drv_vmm_covers(dst, extent))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    FillItem f = {dst, pitch, value, size, width, height};
    return drv_enqueue(s, fill_run, &f, sizeof(f), NULL);
}

CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    return drv_trace(fill(dstDevice, 0, uc, 1, N, 1, NULL), "cuMemsetD8_v2",
                     "0x%llx, %u, %zu", dstDevice, uc, N);
}

CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    return drv_trace(fill(dstDevice, 0, us, 2, N, 1, NULL),
                     "cuMemsetD16_v2", "0x%llx, %u, %zu", dstDevice, us, N);
}

CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    return drv_trace(fill(dstDevice, 0, ui, 4, N, 1, NULL),
                     "cuMemsetD32_v2", "0x%llx, %u, %zu", dstDevice, ui, N);
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                         CUstream hStream)
{
    return drv_trace(fill(dstDevice, 0, uc, 1, N, 1, hStream),
                     "cuMemsetD8Async", "0x%llx, %u, %zu, %p", dstDevice, uc,
                     N, (void *)hStream);
}

CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us,
                          size_t N, CUstream hStream)
{
    return drv_trace(fill(dstDevice, 0, us, 2, N, 1, hStream),
                     "cuMemsetD16Async", "0x%llx, %u, %zu, %p", dstDevice,
                     us, N, (void *)hStream);
}

CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                          CUstream hStream)
{
    return drv_trace(fill(dstDevice, 0, ui, 4, N, 1, hStream),
                     "cuMemsetD32Async", "0x%llx, %u, %zu, %p", dstDevice,
                     ui, N, (void *)hStream);
}

CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch,
                         unsigned char uc, size_t Width, size_t Height)
{
    return drv_trace(fill(dstDevice, dstPitch, uc, 1, Width, Height, NULL),
                     "cuMemsetD2D8_v2", "0x%llx, %zu, %u, %zu, %zu",
                     dstDevice, dstPitch, uc, Width, Height);
}

CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch,
                          unsigned short us, size_t Width, size_t Height)
{
    return drv_trace(fill(dstDevice, dstPitch, us, 2, Width, Height, NULL),
                     "cuMemsetD2D16_v2", "0x%llx, %zu, %u, %zu, %zu",
                     dstDevice, dstPitch, us, Width, Height);
}

CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch,
                          unsigned int ui, size_t Width, size_t Height)
{
    return drv_trace(fill(dstDevice, dstPitch, ui, 4, Width, Height, NULL),
                     "cuMemsetD2D32_v2", "0x%llx, %zu, %u, %zu, %zu",
                     dstDevice, dstPitch, ui, Width, Height);
}

CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
                           unsigned char uc, size_t Width, size_t Height,
                           CUstream hStream)
{
    return drv_trace(fill(dstDevice, dstPitch, uc, 1, Width, Height,
                          hStream),
                     "cuMemsetD2D8Async", "0x%llx, %zu, %u, %zu, %zu, %p",
                     dstDevice, dstPitch, uc, Width, Height,
                     (void *)hStream);
}

CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch,
                            unsigned short us, size_t Width, size_t Height,
                            CUstream hStream)
{
    return drv_trace(fill(dstDevice, dstPitch, us, 2, Width, Height,
                          hStream),
                     "cuMemsetD2D16Async", "0x%llx, %zu, %u, %zu, %zu, %p",
                     dstDevice, dstPitch, us, Width, Height,
                     (void *)hStream);
}

CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch,
                            unsigned int ui, size_t Width, size_t Height,
                            CUstream hStream)
{
    return drv_trace(fill(dstDevice, dstPitch, ui, 4, Width, Height,
                          hStream),
                     "cuMemsetD2D32Async", "0x%llx, %zu, %u, %zu, %zu, %p",
                     dstDevice, dstPitch, ui, Width, Height,
                     (void *)hStream);
}

/* The per-thread default stream variants (_ptds, _ptsz) that behave as
 * the plain ones: queries, stream-ordered allocation (whose free waits
 * for its stream anyway) and the blocking copies and memsets, whose
 * legacy stream also waits for the per-thread one.  The forms that put
 * work on a stream are drv_ptsz.c's. */
DRV_ALIAS(cuMemAllocAsync_ptsz, cuMemAllocAsync)
DRV_ALIAS(cuMemFreeAsync_ptsz, cuMemFreeAsync)
DRV_ALIAS(cuMemPrefetchAsync_ptsz, cuMemPrefetchAsync)
DRV_ALIAS(cuMemPrefetchAsync_v2_ptsz, cuMemPrefetchAsync_v2)
DRV_ALIAS(cuMemcpy2DUnaligned_v2_ptds, cuMemcpy2DUnaligned_v2)
DRV_ALIAS(cuMemcpy2D_v2_ptds, cuMemcpy2D_v2)
DRV_ALIAS(cuMemcpy3D_v2_ptds, cuMemcpy3D_v2)
DRV_ALIAS(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2)
DRV_ALIAS(cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2)
DRV_ALIAS(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2)
DRV_ALIAS(cuMemcpyPeer_ptds, cuMemcpyPeer)
DRV_ALIAS(cuMemcpy_ptds, cuMemcpy)
DRV_ALIAS(cuMemsetD16_v2_ptds, cuMemsetD16_v2)
DRV_ALIAS(cuMemsetD2D16_v2_ptds, cuMemsetD2D16_v2)
DRV_ALIAS(cuMemsetD2D32_v2_ptds, cuMemsetD2D32_v2)
DRV_ALIAS(cuMemsetD2D8_v2_ptds, cuMemsetD2D8_v2)
DRV_ALIAS(cuMemsetD32_v2_ptds, cuMemsetD32_v2)
DRV_ALIAS(cuMemsetD8_v2_ptds, cuMemsetD8_v2)
