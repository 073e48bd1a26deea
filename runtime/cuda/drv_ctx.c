/*
 * runtime/cuda/drv_ctx.c: contexts.
 *
 * Every context is a view of the one emulated device: they share its
 * memory and modules (a program cannot tell, except that pointers from
 * one context also work in another).  What is made while a context is
 * current is its own (drv_handle_add records it): resetting the primary
 * context frees the primary's.  What a context owns is its
 * flags, limits, cache preference and its sticky fault: after a kernel
 * fault every call needing the context returns the fault's error until
 * the context is destroyed, or the primary context reset, as on
 * hardware.  Each thread has its own stack of current contexts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_capture.h"
#include "runtime/cuda/drv_export.h"
#include "runtime/cuda/drv_queue.h"

enum { STACK_MAX = 64 };

static __thread CUcontext stack[STACK_MAX];
static __thread int depth;

CUcontext drv_current(void)
{
    if (depth == 0) {
        return NULL;
    }
    CUcontext c = stack[depth - 1];
    return drv_handle_valid(DRV_CTX, c) ? c : NULL;
}

static void init_limits(CUcontext c)
{
    memset(c->limits, 0, sizeof(c->limits));
    c->limits[CU_LIMIT_STACK_SIZE] = 1024;
    c->limits[CU_LIMIT_PRINTF_FIFO_SIZE] = 1 << 20;
    c->limits[CU_LIMIT_MALLOC_HEAP_SIZE] = 8 << 20;
    c->limits[CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH] = 2;
    c->limits[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048;
    c->limits[CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64;
    const char *h = getenv("PTXEMU_HEAP");
    if (h && *h) {
        c->limits[CU_LIMIT_MALLOC_HEAP_SIZE] = strtoull(h, NULL, 0);
    }
}

void drv_ctx_set_thread(CUcontext ctx)
{
    stack[0] = ctx;
    depth = ctx ? 1 : 0;
}

static CUresult push(CUcontext c)
{
    if (depth == STACK_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    stack[depth++] = c;
    return CUDA_SUCCESS;
}

/* ------------------------------------------------------------ primary */

static CUresult primary_retain(CUcontext *pctx, CUdevice dev)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!pctx) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (dev != 0) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    pthread_mutex_lock(&drv.lock);
    if (!drv.primary_active) {
        drv.primary_active = 1;
        drv.primary.sticky = CUDA_SUCCESS;
        init_limits(&drv.primary);
    }
    drv.primary_refs++;
    pthread_mutex_unlock(&drv.lock);
    *pctx = &drv.primary;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    return drv_trace(primary_retain(pctx, dev), "cuDevicePrimaryCtxRetain",
                     "%p, %d", (void *)pctx, dev);
}

static CUresult primary_release(CUdevice dev)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (dev != 0) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    CUresult r = CUDA_SUCCESS;
    pthread_mutex_lock(&drv.lock);
    int last = drv.primary_refs == 1;
    pthread_mutex_unlock(&drv.lock);
    if (last) {
        drv_queue_ctx_gone(&drv.primary);   /* its work finishes first */
    }
    pthread_mutex_lock(&drv.lock);
    if (drv.primary_refs == 0) {
        r = CUDA_ERROR_INVALID_CONTEXT;
    } else if (--drv.primary_refs == 0) {
        /* Memory is not freed: contexts share the one device. */
        drv.primary_active = 0;
        drv.primary.sticky = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&drv.lock);
    return r;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    return drv_trace(primary_release(dev), "cuDevicePrimaryCtxRelease", "%d",
                     dev);
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    return drv_trace(primary_release(dev), "cuDevicePrimaryCtxRelease_v2",
                     "%d", dev);
}

/* Everything made while ctx was current: streams, events, modules (with
 * their functions and variables), arrays and memory.  Handles to them
 * are invalid afterwards, as after a reset on hardware. */
static void release_owned(CUcontext ctx)
{
    static const DrvKind order[] = {
        DRV_STREAM, DRV_EVENT, DRV_MOD, DRV_MIPMAP, DRV_ARRAY,
    };
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        const void **v;
        size_t n = drv_handles_owned(ctx, order[k], &v);
        for (size_t i = 0; i < n; i++) {
            void *h = (void *)(uintptr_t)v[i];
            switch (order[k]) {
            case DRV_STREAM: (void)cuStreamDestroy_v2(h); break;
            case DRV_EVENT: (void)cuEventDestroy_v2(h); break;
            case DRV_MOD: (void)cuModuleUnload(h); break;
            case DRV_MIPMAP: (void)cuMipmappedArrayDestroy(h); break;
            default: (void)cuArrayDestroy(h); break;
            }
        }
        free(v);
    }
    drv_mem_release_owned(ctx);
}

static CUresult primary_reset(CUdevice dev)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (dev != 0) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    drv_queue_ctx_gone(&drv.primary);   /* its work finishes first */
    pthread_mutex_lock(&drv.lock);
    drv.primary.sticky = CUDA_SUCCESS;
    init_limits(&drv.primary);
    pthread_mutex_unlock(&drv.lock);
    drv_queue_flush();
    drv_export_ctx_gone(&drv.primary);
    release_owned(&drv.primary);
    drv_pool_reset();
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
    return drv_trace(primary_reset(dev), "cuDevicePrimaryCtxReset", "%d",
                     dev);
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    return drv_trace(primary_reset(dev), "cuDevicePrimaryCtxReset_v2", "%d",
                     dev);
}

static CUresult primary_set_flags(CUdevice dev, unsigned flags)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (dev != 0) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    if (flags & ~(unsigned)CU_CTX_FLAGS_MASK) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&drv.lock);
    drv.primary.flags = flags;
    pthread_mutex_unlock(&drv.lock);
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    return drv_trace(primary_set_flags(dev, flags),
                     "cuDevicePrimaryCtxSetFlags", "%d, 0x%x", dev, flags);
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
    return drv_trace(primary_set_flags(dev, flags),
                     "cuDevicePrimaryCtxSetFlags_v2", "%d, 0x%x", dev,
                     flags);
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags,
                                    int *active)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : dev != 0 ? CUDA_ERROR_INVALID_DEVICE
                 : !flags || !active ? CUDA_ERROR_INVALID_VALUE
                 : CUDA_SUCCESS;
    if (!r) {
        pthread_mutex_lock(&drv.lock);
        *flags = drv.primary.flags;
        *active = drv.primary_active;
        pthread_mutex_unlock(&drv.lock);
    }
    return drv_trace(r, "cuDevicePrimaryCtxGetState", "%d, %p, %p", dev,
                     (void *)flags, (void *)active);
}

/* ------------------------------------------------------------ create */

static CUresult ctx_create(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!pctx || (flags & ~(unsigned)CU_CTX_FLAGS_MASK)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (dev != 0) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    CUcontext c = calloc(1, sizeof(*c));
    if (!c) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    c->flags = flags;
    c->id = drv_new_id();
    init_limits(c);
    if (drv_handle_add(DRV_CTX, c) || push(c)) {
        drv_handle_remove(DRV_CTX, c);
        free(c);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *pctx = c;
    return CUDA_SUCCESS;
}

CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return drv_trace(ctx_create(pctx, flags, dev), "cuCtxCreate",
                     "%p, 0x%x, %d", (void *)pctx, flags, dev);
}

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return drv_trace(ctx_create(pctx, flags, dev), "cuCtxCreate_v2",
                     "%p, 0x%x, %d", (void *)pctx, flags, dev);
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params,
                        unsigned int flags, CUdevice dev)
{
    CUresult r;
    /* Execution affinity and CIG partition real hardware; there is
     * nothing to partition here. */
    if (params && (params->execAffinityParams || params->cigParams ||
                   params->numExecAffinityParams)) {
        r = CUDA_ERROR_NOT_SUPPORTED;
    } else {
        r = ctx_create(pctx, flags, dev);
    }
    return drv_trace(r, "cuCtxCreate_v4", "%p, %p, 0x%x, %d", (void *)pctx,
                     (void *)params, flags, dev);
}

static CUresult ctx_destroy(CUcontext ctx)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!ctx || ctx == &drv.primary || !drv_handle_valid(DRV_CTX, ctx)) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (depth > 0 && stack[depth - 1] == ctx) {
        depth--;
    }
    drv_queue_ctx_gone(ctx);            /* its work finishes first */
    drv_queue_flush();
    drv_export_ctx_gone(ctx);           /* while ctx is still valid */
    drv_handle_remove(DRV_CTX, ctx);
    free(ctx);
    return CUDA_SUCCESS;
}

CUresult cuCtxDestroy(CUcontext ctx)
{
    return drv_trace(ctx_destroy(ctx), "cuCtxDestroy", "%p", (void *)ctx);
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    return drv_trace(ctx_destroy(ctx), "cuCtxDestroy_v2", "%p", (void *)ctx);
}

/* ------------------------------------------------------------ current */

static CUresult ctx_push(CUcontext ctx)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!drv_handle_valid(DRV_CTX, ctx)) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    return push(ctx);
}

CUresult cuCtxPushCurrent(CUcontext ctx)
{
    return drv_trace(ctx_push(ctx), "cuCtxPushCurrent", "%p", (void *)ctx);
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    return drv_trace(ctx_push(ctx), "cuCtxPushCurrent_v2", "%p",
                     (void *)ctx);
}

static CUresult ctx_pop(CUcontext *pctx)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (depth == 0) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    CUcontext c = stack[--depth];
    if (pctx) {
        *pctx = c;
    }
    return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *pctx)
{
    return drv_trace(ctx_pop(pctx), "cuCtxPopCurrent", "%p", (void *)pctx);
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    return drv_trace(ctx_pop(pctx), "cuCtxPopCurrent_v2", "%p",
                     (void *)pctx);
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CUresult r = CUDA_SUCCESS;
    if (!drv.initialized) {
        r = CUDA_ERROR_NOT_INITIALIZED;
    } else if (!ctx) {
        if (depth > 0) {
            depth--;
        }
    } else if (!drv_handle_valid(DRV_CTX, ctx)) {
        r = CUDA_ERROR_INVALID_CONTEXT;
    } else if (depth == 0) {
        r = push(ctx);
    } else {
        stack[depth - 1] = ctx;
    }
    return drv_trace(r, "cuCtxSetCurrent", "%p", (void *)ctx);
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !pctx ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    if (!r) {
        *pctx = drv_current();
    }
    return drv_trace(r, "cuCtxGetCurrent", "%p", (void *)pctx);
}

/* ------------------------------------------------------------ queries */

/* The context ctx, or the current one when ctx is NULL. */
static CUresult ctx_or_current(CUcontext ctx, CUcontext *out)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!ctx) {
        ctx = drv_current();
    }
    if (!ctx || !drv_handle_valid(DRV_CTX, ctx)) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    *out = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r && !device) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *device = 0;
    }
    return drv_trace(r, "cuCtxGetDevice", "%p", (void *)device);
}

CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    CUcontext c;
    CUresult r = ctx_or_current(ctx, &c);
    if (!r && !device) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *device = 0;
    }
    return drv_trace(r, "cuCtxGetDevice_v2", "%p, %p", (void *)device,
                     (void *)ctx);
}

CUresult cuCtxGetFlags(unsigned int *flags)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r && !flags) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *flags = c->flags;
    }
    return drv_trace(r, "cuCtxGetFlags", "%p", (void *)flags);
}

CUresult cuCtxSetFlags(unsigned int flags)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r && (flags & ~(unsigned)CU_CTX_FLAGS_MASK)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        c->flags = flags;
    }
    return drv_trace(r, "cuCtxSetFlags", "0x%x", flags);
}

CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    CUcontext c;
    CUresult r = ctx_or_current(ctx, &c);
    if (!r && !ctxId) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *ctxId = c->id;
    }
    return drv_trace(r, "cuCtxGetId", "%p, %p", (void *)ctx, (void *)ctxId);
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    CUcontext c;
    CUresult r = ctx_or_current(ctx, &c);
    if (!r && !version) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *version = 3020;            /* the context ABI since CUDA 3.2 */
    }
    return drv_trace(r, "cuCtxGetApiVersion", "%p, %p", (void *)ctx,
                     (void *)version);
}

CUresult cuCtxSynchronize(void)
{
    /* Waiting for a capturing stream: what a capture's mode forbids. */
    CUresult r = drv_capture_unsafe();
    return drv_trace(r ? r : drv_sync(), "cuCtxSynchronize", "%s", "");
}

CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    CUcontext c;
    CUresult r = ctx_or_current(ctx, &c);
    if (!r) {
        drv_queue_sync_ctx(c);
        drv_queue_flush();
        r = c->sticky ? c->sticky : drv_queue_take_error(c);
    }
    return drv_trace(r, "cuCtxSynchronize_v2", "%p", (void *)ctx);
}

CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r && !pvalue) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r && ((unsigned)limit >= CU_LIMIT_MAX ||
               limit >= CU_LIMIT_SHMEM_SIZE)) {
        r = CUDA_ERROR_UNSUPPORTED_LIMIT;
    }
    if (!r) {
        *pvalue = c->limits[limit];
    }
    return drv_trace(r, "cuCtxGetLimit", "%p, %d", (void *)pvalue,
                     (int)limit);
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r && ((unsigned)limit >= CU_LIMIT_MAX ||
               limit >= CU_LIMIT_SHMEM_SIZE)) {
        r = CUDA_ERROR_UNSUPPORTED_LIMIT;
    }
    if (!r && limit == CU_LIMIT_MALLOC_HEAP_SIZE &&
        ptxemu_set_heap_bytes(drv.dev, value) != PTXEMU_SUCCESS) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r && limit == CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT &&
        ptxemu_set_pending_launch_limit(drv.dev, value) != PTXEMU_SUCCESS) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r && limit == CU_LIMIT_PERSISTING_L2_CACHE_SIZE) {
        /* clamped to the device's maximum, as cuCtxSetLimit allows */
        (void)ptxemu_set_l2_persisting(drv.dev, value);
        value = (size_t)ptxemu_l2_persisting(drv.dev);
    }
    if (!r) {
        c->limits[limit] = value;
    }
    return drv_trace(r, "cuCtxSetLimit", "%d, %zu", (int)limit, value);
}

CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r && !pconfig) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *pconfig = c->cache;
    }
    return drv_trace(r, "cuCtxGetCacheConfig", "%p", (void *)pconfig);
}

CUresult cuCtxSetCacheConfig(CUfunc_cache config)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r && (unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        c->cache = config;
    }
    return drv_trace(r, "cuCtxSetCacheConfig", "%d", (int)config);
}

CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r && !pConfig) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
    }
    return drv_trace(r, "cuCtxGetSharedMemConfig", "%p", (void *)pConfig);
}

CUresult cuCtxSetSharedMemConfig(CUsharedconfig config)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r && (unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    return drv_trace(r, "cuCtxSetSharedMemConfig", "%d", (int)config);
}

CUresult cuCtxGetStreamPriorityRange(int *leastPriority,
                                     int *greatestPriority)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r) {
        /* The hardware's range (lower numbers are higher priority). */
        if (leastPriority) {
            *leastPriority = 0;
        }
        if (greatestPriority) {
            *greatestPriority = -5;
        }
    }
    return drv_trace(r, "cuCtxGetStreamPriorityRange", "%p, %p",
                     (void *)leastPriority, (void *)greatestPriority);
}

/* Every persisting line of the L2 becomes normal: a timing model's L2
 * sees it from the next kernel on. */
CUresult cuCtxResetPersistingL2Cache(void)
{
    CUcontext c;
    CUresult r = ctx_or_current(NULL, &c);
    if (!r) {
        (void)ptxemu_reset_l2_persisting(drv.dev);
    }
    return drv_trace(r, "cuCtxResetPersistingL2Cache", "%s", "");
}
