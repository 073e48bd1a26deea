/*
 * runtime/cuda/drv_init.c: cuInit, versions, the device and its
 * attributes, the API trace and the handle table.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "emu/unload.h"
#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_queue.h"
#include "runtime/cuda/drv_quiet.h"
#include "runtime/envopts.h"

DrvState drv = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* ------------------------------------------------------------ trace */

CUresult drv_trace(CUresult r, const char *name, const char *fmt, ...)
{
    if (r != CUDA_SUCCESS && drv_sanitize_api) {
        drv_sanitize_driver_error(r, name);
    }
    if (!drv.trace) {
        return r;
    }
    char args[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof(args), fmt, ap);
    va_end(ap);
    const char *rn = drv_result_name(r);
    if (!rn && r == DRV_ERROR_INVALID_CONFIG) {
        rn = "invalid configuration, for CUDA's runtime";
    }
    fprintf(stderr, "ptxemu: %s(%s) = %s (%d)\n", name, args,
            rn ? rn : "?", (int)r);
    return r;
}

static void trace_from_env(void)
{
    const char *t = getenv("PTXEMU_TRACE");
    drv.trace = t && *t && strcmp(t, "0") != 0;
}

/* Also at load: a statically linked runtime calls cuGetProcAddress and
 * cuGetExportTable before cuInit. */
__attribute__((constructor)) static void trace_at_load(void)
{
    trace_from_env();
}

/* ------------------------------------------------------------ handles */

/* An open-addressing set of (pointer, kind): every call validates its
 * handles, and a program may hold thousands (one per kernel). */
typedef struct Slot {
    const void *p;                      /* NULL: empty; &tomb: deleted */
    DrvKind kind;
    CUcontext owner;                    /* current when it was made */
} Slot;

static Slot *slots;
static size_t nslots, nused;            /* nused counts tombstones too */
static const char tomb;

static size_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

/* The slot holding p, or the empty slot where it would go. */
static Slot *probe(const void *p)
{
    size_t mask = nslots - 1;
    Slot *free_slot = NULL;
    for (size_t i = hash_ptr(p) & mask;; i = (i + 1) & mask) {
        if (slots[i].p == p) {
            return &slots[i];
        }
        if (slots[i].p == &tomb) {
            free_slot = free_slot ? free_slot : &slots[i];
        } else if (!slots[i].p) {
            return free_slot ? free_slot : &slots[i];
        }
    }
}

static int grow(void)
{
    size_t old_n = nslots;
    Slot *old = slots;
    size_t n = old_n ? old_n * 2 : 256;
    Slot *fresh = calloc(n, sizeof(*fresh));
    if (!fresh) {
        return -1;
    }
    slots = fresh;
    nslots = n;
    nused = 0;
    for (size_t i = 0; i < old_n; i++) {
        if (old[i].p && old[i].p != &tomb) {
            *probe(old[i].p) = old[i];
            nused++;
        }
    }
    free(old);
    return 0;
}

int drv_handle_add(DrvKind kind, const void *p)
{
    int r = 0;
    CUcontext owner = drv_current();
    pthread_mutex_lock(&drv.lock);
    if ((nused + 1) * 2 > nslots) {
        r = grow();
    }
    if (!r) {
        Slot *s = probe(p);
        if (s->p != p) {
            nused += !s->p;
            s->p = p;
        }
        s->kind = kind;
        s->owner = owner;
    }
    pthread_mutex_unlock(&drv.lock);
    return r;
}

void drv_handle_remove(DrvKind kind, const void *p)
{
    pthread_mutex_lock(&drv.lock);
    if (nslots) {
        Slot *s = probe(p);
        if (s->p == p && s->kind == kind) {
            s->p = &tomb;
        }
    }
    pthread_mutex_unlock(&drv.lock);
}

int drv_handle_valid(DrvKind kind, const void *p)
{
    if (!p) {
        return 0;
    }
    if (kind == DRV_CTX && p == &drv.primary) {
        return 1;
    }
    pthread_mutex_lock(&drv.lock);
    int ok = 0;
    if (nslots) {
        Slot *s = probe(p);
        ok = s->p == p && s->kind == kind;
    }
    pthread_mutex_unlock(&drv.lock);
    return ok;
}

size_t drv_handles_owned(CUcontext ctx, DrvKind kind, const void ***out)
{
    *out = NULL;
    pthread_mutex_lock(&drv.lock);
    size_t n = 0;
    for (size_t i = 0; i < nslots; i++) {
        n += slots[i].p && slots[i].p != &tomb && slots[i].kind == kind &&
             slots[i].owner == ctx;
    }
    const void **v = n ? malloc(n * sizeof(*v)) : NULL;
    size_t k = 0;
    for (size_t i = 0; v && i < nslots; i++) {
        if (slots[i].p && slots[i].p != &tomb && slots[i].kind == kind &&
            slots[i].owner == ctx) {
            v[k++] = slots[i].p;
        }
    }
    pthread_mutex_unlock(&drv.lock);
    *out = v;
    return v ? k : 0;
}

unsigned long long drv_new_id(void)
{
    pthread_mutex_lock(&drv.lock);
    unsigned long long id = ++drv.next_id;
    pthread_mutex_unlock(&drv.lock);
    return id;
}

/* ------------------------------------------------------------ status */

CUresult drv_status(ptxemu_status st)
{
    return (CUresult)ptxemu_status_cu_result(st);
}

CUresult drv_fault(CUcontext ctx, ptxemu_status st)
{
    CUresult r = drv_status(st);
    /* Configuration errors leave the context usable, as on hardware;
     * faults inside the kernel poison it. */
    if (st == PTXEMU_ERROR_INVALID_VALUE || st == PTXEMU_ERROR_LAUNCH_CONFIG
        || st == PTXEMU_ERROR_OUT_OF_MEMORY || st == PTXEMU_ERROR_UNSUPPORTED
        || st == PTXEMU_ERROR_NOT_FOUND) {
        return r;
    }
    pthread_mutex_lock(&drv.lock);
    int first = ctx && !ctx->sticky;
    if (first) {
        ctx->sticky = r;
    }
    pthread_mutex_unlock(&drv.lock);
    if (first) {
        size_t n = ptxemu_last_error_copy(drv.dev, NULL, 0) + 1;
        char *buf = malloc(n);
        if (buf) {
            ptxemu_last_error_copy(drv.dev, buf, n);
        }
        fprintf(stderr, "ptxemu: kernel fault (%s): %s\n",
                drv_result_name(r), buf ? buf : ptxemu_status_string(st));
        free(buf);
    }
    return r;
}

CUresult drv_ready(CUcontext *pctx)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    CUcontext ctx = drv_current();
    if (!ctx) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (pctx) {
        *pctx = ctx;
    }
    return ctx->sticky;
}

CUresult drv_ready_stream(CUstream s)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (s && s != CU_STREAM_LEGACY && s != CU_STREAM_PER_THREAD &&
        !drv_handle_valid(DRV_STREAM, s)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    return CUDA_SUCCESS;
}

CUresult drv_sync(void)
{
    CUcontext ctx;
    CUresult r = drv_ready(&ctx);
    if (r) {
        return r;
    }
    drv_queue_sync_ctx(ctx);
    return drv_synced(ctx);
}

CUresult drv_synced(CUcontext ctx)
{
    /* What the waited-for work left: device printf to flush, pool
     * memory to release, and the error of an item (a kernel fault,
     * sticky, or another failure, returned once). */
    drv_queue_flush();
    drv_pool_sync();
    return ctx->sticky ? ctx->sticky : drv_queue_take_error(ctx);
}

/* ------------------------------------------------------------ init */

CUresult cuInit(unsigned int Flags)
{
    CUresult r = CUDA_SUCCESS;
    if (Flags != 0) {
        return drv_trace(CUDA_ERROR_INVALID_VALUE, "cuInit", "%u", Flags);
    }
    if (drv.forked_broken) {            /* drv.lock may be held forever */
        return drv_trace(CUDA_ERROR_NOT_INITIALIZED, "cuInit", "%u", Flags);
    }
    pthread_mutex_lock(&drv.lock);
    if (!drv.initialized) {
        trace_from_env();
        ptxemu_device_options opts;
        unsigned arch;
        char err[256];
        ptxemu_device_options_default(&opts);
        if (ptxemu_env_device_options(&opts, &arch, err, sizeof(err))) {
            fprintf(stderr, "ptxemu: %s\n", err);
            r = CUDA_ERROR_INVALID_VALUE;
        } else {
            drv.gpu = emu_gpu_for(arch);
            if (opts.num_sms) {
                drv.gpu.sms = opts.num_sms;
            }
            /* What is reported is what can be allocated: never more
             * than the host can hold (ptxemu_default_device_memory). */
            drv.gpu.total_mem = opts.mem_bytes
                                ? opts.mem_bytes
                                : ptxemu_default_device_memory(
                                      drv.gpu.total_mem);
            opts.mem_bytes = drv.gpu.total_mem;
            opts.num_sms = drv.gpu.sms;
            /* The emulator enforces the opt-in maximum; the 48 KiB
             * default without opting in is checked at launch. */
            if (!opts.max_shared_per_block) {
                opts.max_shared_per_block = drv.gpu.smem_optin;
            }
            ptxemu_status st = ptxemu_device_create(&opts, &drv.dev);
            ptxemu_env_device_options_fini(&opts);
            if (st != PTXEMU_SUCCESS) {
                /* A timing model refused, a bad timing parameter ... */
                if (*ptxemu_device_create_error()) {
                    fprintf(stderr, "ptxemu: %s\n",
                            ptxemu_device_create_error());
                }
                r = st == PTXEMU_ERROR_OUT_OF_MEMORY
                        ? CUDA_ERROR_OUT_OF_MEMORY
                        : CUDA_ERROR_INVALID_VALUE;
            } else {
                drv.primary.flags = 0;
                drv.primary.primary = 1;
                drv.primary.id = ++drv.next_id;
                drv_quiet_init();
                (void)ptxemu_set_host_stamp(drv.dev, drv_quiet_stamp, NULL);
                drv.initialized = 1;
                drv_sanitize_init();
                emu_at_unload(drv_at_exit);
            }
        }
    }
    pthread_mutex_unlock(&drv.lock);
    return drv_trace(r, "cuInit", "%u", Flags);
}

CUresult cuDriverGetVersion(int *driverVersion)
{
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (driverVersion) {
        *driverVersion = PTXEMU_CUDA_VERSION;
        r = CUDA_SUCCESS;
    }
    return drv_trace(r, "cuDriverGetVersion", "%p", (void *)driverVersion);
}

/* ------------------------------------------------------------ devices */

static CUresult check_dev(CUdevice dev)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !device ? CUDA_ERROR_INVALID_VALUE
                 : ordinal != 0 ? CUDA_ERROR_INVALID_DEVICE : CUDA_SUCCESS;
    if (!r) {
        *device = 0;
    }
    return drv_trace(r, "cuDeviceGet", "%p, %d", (void *)device, ordinal);
}

CUresult cuDeviceGetCount(int *count)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !count ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    if (!r) {
        *count = 1;
    }
    return drv_trace(r, "cuDeviceGetCount", "%p", (void *)count);
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    CUresult r = check_dev(dev);
    if (!r && (!name || len <= 0)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        snprintf(name, (size_t)len, "ptxemu %s-like GPU (sm_%u, emulated)",
                 drv.gpu.model, drv.gpu.arch);
    }
    return drv_trace(r, "cuDeviceGetName", "%p, %d, %d", (void *)name, len,
                     dev);
}

static CUresult get_uuid(CUuuid *uuid, CUdevice dev)
{
    CUresult r = check_dev(dev);
    if (!r && !uuid) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        /* A fixed, recognisable UUID: "ptxemu" and the arch. */
        static const char base[16] = "ptxemu-emulated";
        memcpy(uuid->bytes, base, 16);
        uuid->bytes[15] = (char)drv.gpu.arch;
    }
    return r;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    return drv_trace(get_uuid(uuid, dev), "cuDeviceGetUuid", "%p, %d",
                     (void *)uuid, dev);
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    return drv_trace(get_uuid(uuid, dev), "cuDeviceGetUuid_v2", "%p, %d",
                     (void *)uuid, dev);
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    CUresult r = check_dev(dev);
    if (!r && !bytes) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *bytes = (size_t)drv.gpu.total_mem;
    }
    return drv_trace(r, "cuDeviceTotalMem_v2", "%p, %d", (void *)bytes,
                     dev);
}

/* One device attribute of the configured GPU (emu/gpuspec.h, shared
 * with the device runtime's cudaDeviceGetAttribute). */
int drv_attribute(CUdevice_attribute a, int *out)
{
    return emu_gpu_attribute(&drv.gpu, (int)a, out);
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
                              CUdevice dev)
{
    CUresult r = check_dev(dev);
    if (!r && (!pi || drv_attribute(attrib, pi))) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    return drv_trace(r, "cuDeviceGetAttribute", "%p, %d, %d", (void *)pi,
                     (int)attrib, dev);
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    CUresult r = check_dev(dev);
    if (!r && (!major || !minor)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *major = (int)(drv.gpu.arch / 10);
        *minor = (int)(drv.gpu.arch % 10);
    }
    return drv_trace(r, "cuDeviceComputeCapability", "%p, %p, %d",
                     (void *)major, (void *)minor, dev);
}

CUresult cuDeviceGetProperties(CUdevprop *p, CUdevice dev)
{
    CUresult r = check_dev(dev);
    if (!r && !p) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        drv_attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                      &p->maxThreadsPerBlock);
        for (int i = 0; i < 3; i++) {
            drv_attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i,
                          &p->maxThreadsDim[i]);
            drv_attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i,
                          &p->maxGridSize[i]);
        }
        drv_attribute(CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK,
                      &p->sharedMemPerBlock);
        drv_attribute(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY,
                      &p->totalConstantMemory);
        drv_attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE, &p->SIMDWidth);
        drv_attribute(CU_DEVICE_ATTRIBUTE_MAX_PITCH, &p->memPitch);
        drv_attribute(CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK,
                      &p->regsPerBlock);
        drv_attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &p->clockRate);
        drv_attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT,
                      &p->textureAlign);
    }
    return drv_trace(r, "cuDeviceGetProperties", "%p, %d", (void *)p, dev);
}

static const char bus_id[] = "0000:00:00.0";

CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    CUresult r = check_dev(dev);
    if (!r && (!pciBusId || len <= 0)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        snprintf(pciBusId, (size_t)len, "%s", bus_id);
    }
    return drv_trace(r, "cuDeviceGetPCIBusId", "%p, %d, %d",
                     (void *)pciBusId, len, dev);
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !dev || !pciBusId ? CUDA_ERROR_INVALID_VALUE
                 : strcasecmp(pciBusId, bus_id) &&
                   strcasecmp(pciBusId, bus_id + 5) ? CUDA_ERROR_INVALID_DEVICE
                 : CUDA_SUCCESS;
    if (!r) {
        *dev = 0;
    }
    return drv_trace(r, "cuDeviceGetByPCIBusId", "%p, \"%s\"", (void *)dev,
                     pciBusId ? pciBusId : "(null)");
}

CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev,
                               CUdevice peerDev)
{
    CUresult r = check_dev(dev);
    if (!r) {
        r = check_dev(peerDev);
    }
    if (!r && !canAccessPeer) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *canAccessPeer = 0;             /* one device: no peers */
    }
    return drv_trace(r, "cuDeviceCanAccessPeer", "%p, %d, %d",
                     (void *)canAccessPeer, dev, peerDev);
}

CUresult cuProfilerStart(void)
{
    return drv_trace(drv.initialized ? CUDA_SUCCESS
                                     : CUDA_ERROR_NOT_INITIALIZED,
                     "cuProfilerStart", "%s", "");
}

CUresult cuProfilerStop(void)
{
    return drv_trace(drv.initialized ? CUDA_SUCCESS
                                     : CUDA_ERROR_NOT_INITIALIZED,
                     "cuProfilerStop", "%s", "");
}
