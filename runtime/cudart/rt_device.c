/*
 * runtime/cudart/rt_device.c: devices and the runtime's implicit
 * context.  As the real runtime does, each device is used through the
 * driver's primary context, made current lazily on every host thread
 * that calls into the runtime.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"

#define RT_MAX_DEVICES 16

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static CUresult init_result;
static int device_count;
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext contexts[RT_MAX_DEVICES];
static unsigned device_flags[RT_MAX_DEVICES];

static __thread int thread_device;
static __thread CUcontext thread_ctx;

static void init_driver(void)
{
    init_result = cuInit(0);
    if (init_result == CUDA_SUCCESS)
        init_result = cuDeviceGetCount(&device_count);
    if (init_result == CUDA_SUCCESS && device_count == 0)
        init_result = CUDA_ERROR_NO_DEVICE;
    if (device_count > RT_MAX_DEVICES)
        device_count = RT_MAX_DEVICES;
}

static cudaError_t driver_ready(void)
{
    pthread_once(&init_once, init_driver);
    if (init_result == CUDA_SUCCESS)
        return cudaSuccess;
    return init_result == CUDA_ERROR_NO_DEVICE ? cudaErrorNoDevice
                                               : rt_map(init_result);
}

static int contexts_has(CUcontext ctx);

/* A thread that made a driver context current before its first runtime
 * call keeps it: the runtime works in the current context, as CUDA's
 * does for programs mixing the two APIs. */
static __thread int thread_checked;

cudaError_t rt_ctx(void)
{
    cudaError_t e = driver_ready();
    if (e != cudaSuccess)
        return e;
    if (!thread_checked) {
        CUcontext cur = NULL;
        thread_checked = 1;
        if (cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur)
            thread_ctx = cur;
    }
    if (thread_ctx && !contexts_has(thread_ctx))
        return rt_sticky();
    int dev = thread_device;
    pthread_mutex_lock(&ctx_lock);
    CUcontext ctx = contexts[dev];
    CUresult r = CUDA_SUCCESS;
    if (!ctx) {
        CUdevice d;
        r = cuDeviceGet(&d, dev);
        if (r == CUDA_SUCCESS)
            r = cuDevicePrimaryCtxRetain(&ctx, d);
        if (r == CUDA_SUCCESS)
            contexts[dev] = ctx;
    }
    pthread_mutex_unlock(&ctx_lock);
    if (r != CUDA_SUCCESS)
        return rt_map(r);
    if (thread_ctx != ctx) {
        r = cuCtxSetCurrent(ctx);
        if (r != CUDA_SUCCESS)
            return rt_map(r);
        thread_ctx = ctx;
    }
    return rt_sticky();
}

/* Whether ctx is one of the runtime's primary contexts. */
static int contexts_has(CUcontext ctx)
{
    int found = 0;
    pthread_mutex_lock(&ctx_lock);
    for (int i = 0; i < RT_MAX_DEVICES; i++)
        found |= contexts[i] == ctx;
    pthread_mutex_unlock(&ctx_lock);
    return found;
}

cudaError_t rt_enter(void)
{
    return rt_err(rt_ctx());
}

int rt_device(void)
{
    return thread_device;
}

CUdevice rt_cudevice(void)
{
    CUdevice d = 0;
    if (cuDeviceGet(&d, thread_device) != CUDA_SUCCESS)
        d = 0;
    return d;
}

RT_API cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = driver_ready();
    *count = e == cudaSuccess ? device_count : 0;
    return rt_err(e);
}

static cudaError_t check_device(int dev)
{
    cudaError_t e = driver_ready();
    if (e != cudaSuccess)
        return e;
    return dev < 0 || dev >= device_count ? cudaErrorInvalidDevice
                                          : cudaSuccess;
}

RT_API cudaError_t cudaSetDevice(int dev)
{
    cudaError_t e = check_device(dev);
    if (e != cudaSuccess)
        return rt_err(e);
    thread_device = dev;
    return rt_enter();
}

RT_API cudaError_t cudaInitDevice(int dev, unsigned dflags, unsigned flags)
{
    (void)flags;
    cudaError_t e = check_device(dev);
    if (e != cudaSuccess)
        return rt_err(e);
    device_flags[dev] = dflags;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDevice(int *dev)
{
    if (!dev)
        return rt_err(cudaErrorInvalidValue);
    *dev = thread_device;
    return cudaSuccess;
}

RT_API cudaError_t cudaSetValidDevices(int *devs, int n)
{
    if (n < 0 || (n > 0 && !devs))
        return rt_err(cudaErrorInvalidValue);
    for (int i = 0; i < n; i++) {
        cudaError_t e = check_device(devs[i]);
        if (e != cudaSuccess)
            return rt_err(e);
    }
    return cudaSuccess;
}

RT_API cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    if (flags & ~(unsigned)cudaDeviceMask)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = driver_ready();
    if (e != cudaSuccess)
        return rt_err(e);
    device_flags[thread_device] = flags;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    if (!flags)
        return rt_err(cudaErrorInvalidValue);
    /* Mapped host memory is always available (unified addressing). */
    *flags = device_flags[thread_device] | cudaDeviceMapHost;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr_t attr,
                                          int dev)
{
    if (!value)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = check_device(dev);
    if (e != cudaSuccess)
        return rt_err(e);
    CUdevice d;
    CUresult r = cuDeviceGet(&d, dev);
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetAttribute(value, (CUdevice_attribute)attr, d);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

/* cudaDeviceProp fields filled from device attributes (the numeric
 * values of cudaDeviceAttr and CUdevice_attribute are the same). */
typedef struct prop_field {
    unsigned short offset, size;
    cudaDeviceAttr_t attr;
} prop_field;

#define P(member, attr) \
    { offsetof(struct cudaDeviceProp, member), \
      sizeof(((struct cudaDeviceProp *)0)->member), cudaDevAttr##attr }

static const prop_field prop_fields[] = {
    P(sharedMemPerBlock, MaxSharedMemoryPerBlock),
    P(regsPerBlock, MaxRegistersPerBlock),
    P(warpSize, WarpSize),
    P(memPitch, MaxPitch),
    P(maxThreadsPerBlock, MaxThreadsPerBlock),
    P(maxThreadsDim[0], MaxBlockDimX),
    P(maxThreadsDim[1], MaxBlockDimY),
    P(maxThreadsDim[2], MaxBlockDimZ),
    P(maxGridSize[0], MaxGridDimX),
    P(maxGridSize[1], MaxGridDimY),
    P(maxGridSize[2], MaxGridDimZ),
    P(totalConstMem, TotalConstantMemory),
    P(major, ComputeCapabilityMajor),
    P(minor, ComputeCapabilityMinor),
    P(textureAlignment, TextureAlignment),
    P(texturePitchAlignment, TexturePitchAlignment),
    P(multiProcessorCount, MultiProcessorCount),
    P(integrated, Integrated),
    P(canMapHostMemory, CanMapHostMemory),
    P(maxTexture1D, MaxTexture1DWidth),
    P(maxTexture2D[0], MaxTexture2DWidth),
    P(maxTexture2D[1], MaxTexture2DHeight),
    P(maxTexture3D[0], MaxTexture3DWidth),
    P(maxTexture3D[1], MaxTexture3DHeight),
    P(maxTexture3D[2], MaxTexture3DDepth),
    P(surfaceAlignment, SurfaceAlignment),
    P(concurrentKernels, ConcurrentKernels),
    P(ECCEnabled, EccEnabled),
    P(pciBusID, PciBusId),
    P(pciDeviceID, PciDeviceId),
    P(pciDomainID, PciDomainId),
    P(tccDriver, TccDriver),
    P(asyncEngineCount, AsyncEngineCount),
    P(unifiedAddressing, UnifiedAddressing),
    P(memoryBusWidth, GlobalMemoryBusWidth),
    P(l2CacheSize, L2CacheSize),
    P(persistingL2CacheMaxSize, MaxPersistingL2CacheSize),
    P(maxThreadsPerMultiProcessor, MaxThreadsPerMultiProcessor),
    P(streamPrioritiesSupported, StreamPrioritiesSupported),
    P(globalL1CacheSupported, GlobalL1CacheSupported),
    P(localL1CacheSupported, LocalL1CacheSupported),
    P(sharedMemPerMultiprocessor, MaxSharedMemoryPerMultiprocessor),
    P(regsPerMultiprocessor, MaxRegistersPerMultiprocessor),
    P(managedMemory, ManagedMemory),
    P(isMultiGpuBoard, IsMultiGpuBoard),
    P(multiGpuBoardGroupID, MultiGpuBoardGroupID),
    P(hostNativeAtomicSupported, HostNativeAtomicSupported),
    P(pageableMemoryAccess, PageableMemoryAccess),
    P(concurrentManagedAccess, ConcurrentManagedAccess),
    P(computePreemptionSupported, ComputePreemptionSupported),
    P(canUseHostPointerForRegisteredMem, CanUseHostPointerForRegisteredMem),
    P(cooperativeLaunch, CooperativeLaunch),
    P(sharedMemPerBlockOptin, MaxSharedMemoryPerBlockOptin),
    P(pageableMemoryAccessUsesHostPageTables,
      PageableMemoryAccessUsesHostPageTables),
    P(directManagedMemAccessFromHost, DirectManagedMemAccessFromHost),
    P(maxBlocksPerMultiProcessor, MaxBlocksPerMultiprocessor),
    P(accessPolicyMaxWindowSize, MaxAccessPolicyWindowSize),
    P(reservedSharedMemPerBlock, ReservedSharedMemoryPerBlock),
    P(hostRegisterSupported, HostRegisterSupported),
    P(sparseCudaArraySupported, SparseCudaArraySupported),
    P(hostRegisterReadOnlySupported, HostRegisterReadOnlySupported),
    P(timelineSemaphoreInteropSupported, TimelineSemaphoreInteropSupported),
    P(memoryPoolsSupported, MemoryPoolsSupported),
    P(gpuDirectRDMASupported, GPUDirectRDMASupported),
    P(gpuDirectRDMAFlushWritesOptions, GPUDirectRDMAFlushWritesOptions),
    P(gpuDirectRDMAWritesOrdering, GPUDirectRDMAWritesOrdering),
    P(memoryPoolSupportedHandleTypes, MemoryPoolSupportedHandleTypes),
    P(deferredMappingCudaArraySupported, DeferredMappingCudaArraySupported),
    P(ipcEventSupported, IpcEventSupport),
    P(clusterLaunch, ClusterLaunch),
    P(deviceNumaConfig, NumaConfig),
    P(deviceNumaId, NumaId),
    P(mpsEnabled, MpsEnabled),
    P(hostNumaId, HostNumaId),
    P(gpuPciDeviceID, GpuPciDeviceId),
    P(gpuPciSubsystemID, GpuPciSubsystemId),
};

RT_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
                                           int dev)
{
    if (!prop)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = check_device(dev);
    if (e != cudaSuccess)
        return rt_err(e);
    CUdevice d;
    CUresult r = cuDeviceGet(&d, dev);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    memset(prop, 0, sizeof *prop);
    r = cuDeviceGetName(prop->name, (int)sizeof prop->name, d);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    r = cuDeviceTotalMem_v2(&prop->totalGlobalMem, d);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    CUuuid uuid;
    if (cuDeviceGetUuid_v2(&uuid, d) == CUDA_SUCCESS)
        memcpy(prop->uuid.bytes, uuid.bytes, sizeof prop->uuid.bytes);
    for (size_t i = 0; i < sizeof prop_fields / sizeof *prop_fields; i++) {
        const prop_field *f = &prop_fields[i];
        int v = 0;
        /* An attribute the driver does not model reads as 0, as on a
         * device without the feature. */
        if (cuDeviceGetAttribute(&v, (CUdevice_attribute)f->attr, d)
            != CUDA_SUCCESS)
            v = 0;
        char *p = (char *)prop + f->offset;
        if (f->size == sizeof(size_t)) {
            size_t s = (size_t)(unsigned)v;
            memcpy(p, &s, sizeof s);
        } else {
            memcpy(p, &v, sizeof v);
        }
    }
    return cudaSuccess;
}

/* CUDA 12 exported the current layout under this name. */
RT_API cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop,
                                              int dev)
{
    return cudaGetDeviceProperties(prop, dev);
}

RT_API cudaError_t cudaChooseDevice(int *dev,
                                    const struct cudaDeviceProp *prop)
{
    if (!dev || !prop)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = driver_ready();
    if (e != cudaSuccess)
        return rt_err(e);
    *dev = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_capture_unsafe();    /* would wait for a capture */
    if (e != cudaSuccess)
        return e;
    CUresult r = cuCtxSynchronize();
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

/* Resets the primary context through the driver, which finishes the
 * work and clears the context's fault but keeps its modules and memory
 * (so the registered kernels, variables and managed pointers of the
 * program stay valid, as they become again after a real reset). */
RT_API cudaError_t cudaDeviceReset(void)
{
    cudaError_t e = driver_ready();
    if (e != cudaSuccess)
        return rt_err(e);
    CUdevice d;
    CUresult r = cuDeviceGet(&d, thread_device);
    if (r == CUDA_SUCCESS)
        r = cuDevicePrimaryCtxReset_v2(d);
    rt_register_reset();
    rt_sticky_clear();
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaDriverGetVersion(int *v)
{
    if (!v)
        return rt_err(cudaErrorInvalidValue);
    CUresult r = cuDriverGetVersion(v);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

/* The CUDA version whose runtime ABI this library implements. */
#define RT_RUNTIME_VERSION 13000

RT_API cudaError_t cudaRuntimeGetVersion(int *v)
{
    if (!v)
        return rt_err(cudaErrorInvalidValue);
    *v = RT_RUNTIME_VERSION;
    return cudaSuccess;
}

static enum cudaFuncCache cache_config = cudaFuncCachePreferNone;

RT_API cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c)
{
    if ((unsigned)c > cudaFuncCachePreferEqual)
        return rt_err(cudaErrorInvalidValue);
    cache_config = c;           /* no cache to configure: remembered */
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *c)
{
    if (!c)
        return rt_err(cudaErrorInvalidValue);
    *c = cache_config;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig c)
{
    return (unsigned)c > cudaSharedMemBankSizeEightByte
               ? rt_err(cudaErrorInvalidValue) : cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *c)
{
    if (!c)
        return rt_err(cudaErrorInvalidValue);
    *c = cudaSharedMemBankSizeFourByte;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUresult r = cuCtxSetLimit((CUlimit)limit, value);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
    if (!value)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUresult r = cuCtxGetLimit(value, (CUlimit)limit);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaDeviceGetStreamPriorityRange(int *least,
                                                    int *greatest)
{
    /* One device worker runs the ready work oldest first: one
     * priority. */
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer)
{
    if (!can)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = check_device(dev);
    if (e == cudaSuccess)
        e = check_device(peer);
    if (e != cudaSuccess)
        return rt_err(e);
    *can = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}

RT_API cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

/* The driver's entry points for programs that mix in driver calls; the
 * status values of both APIs are the same (success, symbol not found,
 * version not sufficient). */
RT_API cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol,
                                                    void **fn,
                                                    unsigned version,
                                                    unsigned long long flags,
                                                    int *status)
{
    if (!symbol || !fn)
        return rt_err(cudaErrorInvalidValue);
    CUdriverProcAddressQueryResult st;
    CUresult r = cuGetProcAddress_v2(symbol, fn, (int)version, flags, &st);
    if (status)
        *status = (int)st;
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn,
                                           unsigned long long flags,
                                           int *status)
{
    return cudaGetDriverEntryPointByVersion(symbol, fn, RT_RUNTIME_VERSION,
                                            flags, status);
}

RT_ALIAS(cudaGetDriverEntryPoint_ptsz, cudaGetDriverEntryPoint);
RT_ALIAS(cudaGetDriverEntryPointByVersion_ptsz,
         cudaGetDriverEntryPointByVersion);

RT_API cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int dev)
{
    cudaError_t e = check_device(dev);
    if (e != cudaSuccess)
        return rt_err(e);
    CUdevice d;
    CUresult r = cuDeviceGet(&d, dev);
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetPCIBusId(id, len, d);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaDeviceGetByPCIBusId(int *dev, const char *id)
{
    if (!dev || !id)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = driver_ready();
    if (e != cudaSuccess)
        return rt_err(e);
    CUdevice d;
    CUresult r = cuDeviceGetByPCIBusId(&d, id);
    if (r == CUDA_SUCCESS)
        *dev = (int)d;
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUresult r = cuCtxResetPersistingL2Cache();
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}
