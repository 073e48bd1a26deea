/*
 * runtime/cudart/rt_launch.c: kernel launches (the <<< >>> path of
 * nvcc's generated stubs, cudaLaunchKernel, cooperative launches),
 * kernel attributes and occupancy.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"

/* ------------------------------------------- launch configurations */

/* `k<<<g, b, s, st>>>(args)` compiles to a push of the configuration
 * and a call of the host stub, which pops it and launches.  A stack per
 * thread, as launches in argument expressions could nest. */
#define RT_CONFIG_DEPTH 16

typedef struct rt_config {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
} rt_config;

static __thread rt_config config_stack[RT_CONFIG_DEPTH];
static __thread unsigned config_depth;

RT_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block,
                                            size_t shmem,
                                            struct CUstream_st *stream)
{
    if (config_depth == RT_CONFIG_DEPTH) {
        rt_err(cudaErrorInvalidConfiguration);
        return 1;               /* non-zero: the stub is not called */
    }
    rt_config *c = &config_stack[config_depth++];
    c->grid = grid;
    c->block = block;
    c->shmem = shmem;
    c->stream = stream;
    return 0;
}

RT_API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block,
                                              size_t *shmem, void *stream)
{
    if (config_depth == 0)
        return rt_err(cudaErrorMissingConfiguration);
    rt_config *c = &config_stack[--config_depth];
    *grid = c->grid;
    *block = c->block;
    *shmem = c->shmem;
    *(cudaStream_t *)stream = c->stream;
    return cudaSuccess;
}

/* ------------------------------------------------------- launches */

/* The device's launch limits (cudaDeviceProp's maxThreadsDim etc.). */
typedef struct rt_limits {
    int block[3], grid[3], threads;
} rt_limits;

static const CUdevice_attribute limit_attrs[7] = {
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
};

static cudaError_t get_limits(rt_limits *l)
{
    int v[7] = { 0 };
    CUdevice d = rt_cudevice();
    for (int i = 0; i < 7; i++) {
        CUresult r = cuDeviceGetAttribute(&v[i], limit_attrs[i], d);
        if (r != CUDA_SUCCESS)
            return rt_map(r);
    }
    for (int i = 0; i < 3; i++) {
        l->block[i] = v[i];
        l->grid[i] = v[3 + i];
    }
    l->threads = v[6];
    return cudaSuccess;
}

/* What real CUDA rejects with cudaErrorInvalidConfiguration before
 * anything runs: an empty grid or block, or a dimension or a block size
 * above the device's limits. */
static cudaError_t check_config(dim3 grid, dim3 block)
{
    rt_limits l = { { 0, 0, 0 }, { 0, 0, 0 }, 0 };
    cudaError_t e = get_limits(&l);
    if (e != cudaSuccess)
        return e;
    unsigned g[3] = { grid.x, grid.y, grid.z };
    unsigned b[3] = { block.x, block.y, block.z };
    for (int i = 0; i < 3; i++)
        if (g[i] == 0 || b[i] == 0 || g[i] > (unsigned)l.grid[i]
            || b[i] > (unsigned)l.block[i])
            return cudaErrorInvalidConfiguration;
    if ((uint64_t)b[0] * b[1] * b[2] > (uint64_t)l.threads)
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

/* cluster: CTAs per cluster in x, y, z, or NULL (no cluster given);
 * win: an access-policy window launch attribute, or NULL. */
static cudaError_t launch_cl(const void *func, dim3 grid, dim3 block,
                             void **args, size_t shmem, cudaStream_t stream,
                             int cooperative, const unsigned *cluster,
                             const CUaccessPolicyWindow *win);

static cudaError_t launch_checked(const void *func, dim3 grid, dim3 block,
                                  size_t shmem, CUfunction *fn)
{
    rt_func *f = func ? rt_func_lookup(func) : NULL;
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    cudaError_t e = check_config(grid, block);
    if (e == cudaSuccess)
        e = rt_func_get(f, fn);
    if (e == cudaSuccess && shmem > UINT32_MAX)
        e = cudaErrorInvalidValue;
    return e;
}

/* A launch with attributes through cuLaunchKernelEx, a plain one
 * through cuLaunchKernel (what --trace-api shows for it). */
static CUresult ex_launch(CUfunction fn, dim3 grid, dim3 block, void **args,
                          size_t shmem, cudaStream_t stream,
                          const CUlaunchAttribute *at, unsigned nat)
{
    if (!nat)
        return cuLaunchKernel(fn, grid.x, grid.y, grid.z, block.x, block.y,
                              block.z, (unsigned)shmem, rt_stream(stream),
                              args, NULL);
    CUlaunchConfig c = { grid.x, grid.y, grid.z, block.x, block.y, block.z,
                         (unsigned)shmem, rt_stream(stream),
                         (CUlaunchAttribute *)at, nat };
    return cuLaunchKernelEx(&c, fn, args, NULL);
}

cudaError_t rt_launch_now(const void *func, dim3 grid, dim3 block,
                          void **args, size_t shmem, cudaStream_t stream,
                          const CUlaunchAttribute *at, unsigned nat)
{
    CUfunction fn;
    cudaError_t e = launch_checked(func, grid, block, shmem, &fn);
    if (e != cudaSuccess)
        return e;
    CUresult r = ex_launch(fn, grid, block, args, shmem, stream, at, nat);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

static cudaError_t launch(const void *func, dim3 grid, dim3 block,
                          void **args, size_t shmem, cudaStream_t stream,
                          int cooperative)
{
    return launch_cl(func, grid, block, args, shmem, stream, cooperative,
                     NULL, NULL);
}

static cudaError_t launch_cl(const void *func, dim3 grid, dim3 block,
                             void **args, size_t shmem, cudaStream_t stream,
                             int cooperative, const unsigned *cluster,
                             const CUaccessPolicyWindow *win)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUfunction fn;
    if ((e = launch_checked(func, grid, block, shmem, &fn)) != cudaSuccess)
        return rt_err(e);
    /* On a capturing stream the launch becomes a kernel node, its
     * argument values copied now. */
    rt_node_params kp;
    memset(&kp, 0, sizeof kp);
    kp.kernel.func = (void *)func;
    kp.kernel.gridDim = grid;
    kp.kernel.blockDim = block;
    kp.kernel.sharedMemBytes = (unsigned)shmem;
    kp.kernel.kernelParams = args;
    /* Cooperative and cluster launches and a window: launch attributes,
     * which a captured kernel node keeps (cudaGraphKernelNodeSetAttribute). */
    CUlaunchAttribute at[3];
    unsigned nat = 0;
    memset(at, 0, sizeof(at));
    if (cooperative) {
        at[nat].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        at[nat++].value.cooperative = 1;
    }
    if (cluster) {
        at[nat].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        at[nat].value.clusterDim.x = cluster[0];
        at[nat].value.clusterDim.y = cluster[1];
        at[nat++].value.clusterDim.z = cluster[2];
    }
    if (win) {
        at[nat].id = CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
        at[nat++].value.accessPolicyWindow = *win;
    }
    int taken;
    e = rt_capture_kernel(stream, &kp, at, nat, &taken);
    if (taken)
        return e;
    CUresult r = ex_launch(fn, grid, block, args, shmem, stream, at, nat);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid,
                                      dim3 block, void **args, size_t shmem,
                                      cudaStream_t stream)
{
    return launch(kernel, grid, block, args, shmem, stream, 0);
}

RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid,
                                           dim3 block, void **args,
                                           size_t shmem, cudaStream_t stream)
{
    return launch(kernel, grid, block, args, shmem, rt_ptsz(stream), 0);
}

RT_API cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
                                    void **args, size_t shmem,
                                    cudaStream_t stream)
{
    return launch(func, grid, block, args, shmem, stream, 0);
}

RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid,
                                         dim3 block, void **args,
                                         size_t shmem, cudaStream_t stream)
{
    return launch(func, grid, block, args, shmem, rt_ptsz(stream), 0);
}

RT_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid,
                                               dim3 block, void **args,
                                               size_t shmem,
                                               cudaStream_t stream)
{
    return launch(func, grid, block, args, shmem, stream, 1);
}

RT_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func,
                                                    dim3 grid, dim3 block,
                                                    void **args,
                                                    size_t shmem,
                                                    cudaStream_t stream)
{
    return launch(func, grid, block, args, shmem, rt_ptsz(stream), 1);
}

/* cudaLaunchKernelEx (a template in cuda_runtime.h) ends here; CUB
 * launches through it.  A cooperative attribute makes a cooperative
 * launch; a cluster dimension and an access-policy window go to the
 * driver's cuLaunchKernelEx. */
static cudaError_t launch_ex(const cudaLaunchConfig_t *cfg,
                             const void *func, void **args)
{
    if (!cfg || (cfg->numAttrs && !cfg->attrs))
        return rt_err(cudaErrorInvalidValue);
    int coop = 0, has_cluster = 0;
    unsigned cl[3] = {1, 1, 1};
    CUaccessPolicyWindow w;
    const CUaccessPolicyWindow *win = NULL;
    for (unsigned i = 0; i < cfg->numAttrs; i++) {
        const cudaLaunchAttribute *a = &cfg->attrs[i];
        if (a->id == cudaLaunchAttributeCooperative) {
            coop = a->val.cooperative != 0;
        } else if (a->id == cudaLaunchAttributeClusterDimension) {
            has_cluster = 1;
            cl[0] = a->val.clusterDim.x;
            cl[1] = a->val.clusterDim.y;
            cl[2] = a->val.clusterDim.z;
        } else if (a->id == cudaLaunchAttributeAccessPolicyWindow) {
            const cudaAccessPolicyWindow *v = &a->val.accessPolicyWindow;
            memset(&w, 0, sizeof w);
            w.base_ptr = v->base_ptr;
            w.num_bytes = v->num_bytes;
            w.hitRatio = v->hitRatio;
            w.hitProp = (CUaccessProperty)v->hitProp;
            w.missProp = (CUaccessProperty)v->missProp;
            win = &w;
        }
    }
    return launch_cl(func, cfg->gridDim, cfg->blockDim, args,
                     cfg->dynamicSmemBytes, cfg->stream, coop,
                     has_cluster ? cl : NULL, win);
}

RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *cfg,
                                       const void *func, void **args)
{
    return launch_ex(cfg, func, args);
}

RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *cfg,
                                            const void *func, void **args)
{
    if (!cfg)
        return launch_ex(cfg, func, args);
    cudaLaunchConfig_t c = *cfg;
    c.stream = rt_ptsz(c.stream);
    return launch_ex(&c, func, args);
}

/* ------------------------------------------------ kernel attributes */

static cudaError_t resolve(const void *func, CUfunction *fn)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    rt_func *f = func ? rt_func_lookup(func) : NULL;
    if (!f)
        return rt_err(cudaErrorInvalidDeviceFunction);
    return rt_err(rt_func_get(f, fn));
}

typedef struct fattr_field {
    size_t offset;
    int is_size;
    CUfunction_attribute attr;
} fattr_field;

#define FA(member, attr) \
    { offsetof(struct cudaFuncAttributes, member), \
      sizeof(((struct cudaFuncAttributes *)0)->member) == sizeof(size_t), \
      CU_FUNC_ATTRIBUTE_##attr }

static const fattr_field fattr_fields[] = {
    FA(sharedSizeBytes, SHARED_SIZE_BYTES),
    FA(constSizeBytes, CONST_SIZE_BYTES),
    FA(localSizeBytes, LOCAL_SIZE_BYTES),
    FA(maxThreadsPerBlock, MAX_THREADS_PER_BLOCK),
    FA(numRegs, NUM_REGS),
    FA(ptxVersion, PTX_VERSION),
    FA(binaryVersion, BINARY_VERSION),
    FA(cacheModeCA, CACHE_MODE_CA),
    FA(maxDynamicSharedSizeBytes, MAX_DYNAMIC_SHARED_SIZE_BYTES),
    FA(preferredShmemCarveout, PREFERRED_SHARED_MEMORY_CARVEOUT),
};

RT_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                         const void *func)
{
    if (!attr)
        return rt_err(cudaErrorInvalidValue);
    CUfunction fn;
    cudaError_t e = resolve(func, &fn);
    if (e != cudaSuccess)
        return e;
    memset(attr, 0, sizeof *attr);
    for (size_t i = 0; i < sizeof fattr_fields / sizeof *fattr_fields;
         i++) {
        const fattr_field *f = &fattr_fields[i];
        int v = 0;
        CUresult r = cuFuncGetAttribute(&v, f->attr, fn);
        if (r != CUDA_SUCCESS)
            return rt_cu(r);
        char *p = (char *)attr + f->offset;
        if (f->is_size) {
            size_t s = (size_t)(unsigned)v;
            memcpy(p, &s, sizeof s);
        } else {
            memcpy(p, &v, sizeof v);
        }
    }
    return cudaSuccess;
}

RT_API cudaError_t cudaFuncSetAttribute(const void *func,
                                        enum cudaFuncAttribute attr,
                                        int value)
{
    CUfunction fn;
    cudaError_t e = resolve(func, &fn);
    if (e != cudaSuccess)
        return e;
    CUresult r = cuFuncSetAttribute(fn, (CUfunction_attribute)attr, value);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaFuncSetCacheConfig(const void *func,
                                          enum cudaFuncCache c)
{
    CUfunction fn;
    cudaError_t e = resolve(func, &fn);
    if (e != cudaSuccess)
        return e;
    /* No cache to split: only the argument is checked. */
    return (unsigned)c > cudaFuncCachePreferEqual
               ? rt_err(cudaErrorInvalidValue) : cudaSuccess;
}

RT_API cudaError_t cudaFuncSetSharedMemConfig(const void *func,
                                              enum cudaSharedMemConfig c)
{
    CUfunction fn;
    cudaError_t e = resolve(func, &fn);
    if (e != cudaSuccess)
        return e;
    return (unsigned)c > cudaSharedMemBankSizeEightByte
               ? rt_err(cudaErrorInvalidValue) : cudaSuccess;
}

RT_API cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    if (!name)
        return rt_err(cudaErrorInvalidValue);
    rt_func *f = func ? rt_func_lookup(func) : NULL;
    if (!f)
        return rt_err(cudaErrorInvalidDeviceFunction);
    *name = rt_func_name(f);
    return cudaSuccess;
}

RT_API cudaError_t cudaGetFuncBySymbol(cudaFunction_t *out,
                                       const void *func)
{
    if (!out)
        return rt_err(cudaErrorInvalidValue);
    CUfunction fn;
    cudaError_t e = resolve(func, &fn);
    if (e == cudaSuccess)
        *out = (cudaFunction_t)fn;
    return e;
}

/* ------------------------------------------------------- occupancy */

RT_API cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks,
                                                       const void *func,
                                                       int block_size,
                                                       size_t shmem,
                                                       unsigned flags)
{
    if (!blocks)
        return rt_err(cudaErrorInvalidValue);
    CUfunction fn;
    cudaError_t e = resolve(func, &fn);
    if (e != cudaSuccess)
        return e;
    CUresult r = cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        blocks, fn, block_size, shmem, flags);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                              int block_size, size_t shmem)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        blocks, func, block_size, shmem, cudaOccupancyDefault);
}

RT_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes,
                                                            const void *func,
                                                            int blocks,
                                                            int block_size)
{
    if (!bytes)
        return rt_err(cudaErrorInvalidValue);
    CUfunction fn;
    cudaError_t e = resolve(func, &fn);
    if (e != cudaSuccess)
        return e;
    CUresult r = cuOccupancyAvailableDynamicSMemPerBlock(bytes, fn, blocks,
                                                         block_size);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

RT_API cudaError_t cudaFuncGetParamInfo(const void *func, size_t index,
                                        size_t *offset, size_t *size)
{
    CUfunction fn;
    cudaError_t e = resolve(func, &fn);
    if (e != cudaSuccess)
        return e;
    CUresult r = cuFuncGetParamInfo(fn, index, offset, size);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}
