/*
 * runtime/cuda/drv_launch.c: kernel launches and occupancy.
 *
 * The configuration checks are those of the hardware's limits (block
 * at most 1024 threads and 1024 x 1024 x 64, grid at most
 * 2^31-1 x 65535 x 65535, shared memory within the kernel's allowance)
 * and fail at the launch.  The kernel itself runs later on the device
 * worker (drv_queue.h), with a copy of its arguments taken at the
 * launch; a fault in it makes the context unusable (drv_fault) and is
 * reported by the next synchronisation, as on a GPU.
 *
 * Which code a bad configuration gives depends on who launches:
 * - A kernel of a module (cuModuleLoad*, cuModuleGetFunction): the
 *   documented CUDA_ERROR_INVALID_VALUE, which driver-API programs on
 *   GPUs report (numba/numba#1055, triton-lang/triton#580,
 *   intel/llvm#2290).
 * - A kernel of a library (cuLibraryLoad*, what CUDA 12+'s runtime
 *   loads its fat binaries as): the code 9 (DRV_ERROR_INVALID_CONFIG).
 *   CUDA's statically linked runtime does not check the configuration
 *   itself; it passes cuLaunchKernel's code through unchanged (measured
 *   here: each CUresult given back came out as the cudaError_t of the
 *   same number), and on GPUs its programs see
 *   cudaErrorInvalidConfiguration (9) with the error raised inside
 *   libcuda.so.1 (compute-sanitizer's backtrace in NVIDIA/cccl#1894).
 * - More threads than the kernel allows (its .maxntid/.reqntid, i.e.
 *   CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) but within the device's
 *   limits: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "the kernel launch
 *   specifies too many threads for the kernel's register count" (CUDA
 *   driver API reference, CUresult).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_capture.h"
#include "runtime/cuda/drv_queue.h"
#include "runtime/graph/gattr.h"

typedef struct Launch {
    unsigned grid[3], block[3];
    unsigned smem;
    CUstream stream;
    int cooperative;
    unsigned cluster[3];          /* 0,0,0: the kernel's, or none */
    int has_window;               /* window: the launch's own
                                     access-policy window attribute */
    CUaccessPolicyWindow window;
} Launch;

static CUresult check_config(CUfunction f, const Launch *l)
{
    static const unsigned gmax[3] = {0x7fffffffu, 65535, 65535};
    static const unsigned bmax[3] = {1024, 1024, 64};
    const CUresult bad = f->mod->library ? DRV_ERROR_INVALID_CONFIG
                                         : CUDA_ERROR_INVALID_VALUE;
    unsigned long long threads = 1;
    for (int i = 0; i < 3; i++) {
        if (l->grid[i] == 0 || l->grid[i] > gmax[i] || l->block[i] == 0 ||
            l->block[i] > bmax[i]) {
            return bad;
        }
        threads *= l->block[i];
    }
    if (threads > 1024) {
        return bad;
    }
    int limit;
    if (drv_func_attr(&limit, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                           f) == CUDA_SUCCESS && threads > (unsigned)limit) {
        return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    }
    int dyn;
    if (drv_func_attr(&dyn,
                           CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           f) == CUDA_SUCCESS && l->smem > (unsigned)dyn) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* The parameter pointers from the `extra` array: one buffer laid out
 * as the kernel's .param space (CU_LAUNCH_PARAM_BUFFER_POINTER / SIZE),
 * split into per-parameter pointers at the kernel's offsets. */
static CUresult params_from_extra(CUfunction f, void **extra, void ***out)
{
    const char *buf = NULL;
    size_t size = 0;
    int have_size = 0;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
            buf = extra[i + 1];
        } else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
            if (!extra[i + 1]) {
                return CUDA_ERROR_INVALID_VALUE;
            }
            size = *(const size_t *)extra[i + 1];
            have_size = 1;
        } else {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    unsigned n = ptxemu_function_num_params(f->pf);
    if (n && (!buf || !have_size ||
              size < ptxemu_function_param_bytes(f->pf))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    void **v = calloc(n ? n : 1, sizeof(*v));
    if (!v) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (unsigned i = 0; i < n; i++) {
        ptxemu_param_info pi;
        ptxemu_function_param(f->pf, i, &pi);
        v[i] = (void *)(buf + pi.offset);
    }
    *out = v;
    return CUDA_SUCCESS;
}

/* A launch as the device worker runs it: the kernel's argument values
 * copied into vals, argv[i] pointing at the i-th. */
typedef struct LaunchItem {
    CUfunction f;
    CUcontext ctx;
    ptxemu_launch_config cfg;
    void **argv;
    unsigned char *vals;
} LaunchItem;

static void launch_item_free(void *p)
{
    LaunchItem *li = p;
    free(li->argv);
    free(li->vals);
    free(li);
}

static CUresult launch_run(void *p)
{
    LaunchItem *li = p;
    ptxemu_status st = ptxemu_launch_ex(li->f->pf, &li->cfg, li->argv);
    return st == PTXEMU_SUCCESS ? CUDA_SUCCESS : drv_fault(li->ctx, st);
}

/* Copies the argument values params[i] (the kernel's parameter sizes)
 * into a new LaunchItem's argv; NULL on OOM. */
static LaunchItem *launch_item(CUfunction f, CUcontext ctx,
                               const ptxemu_launch_config *cfg,
                               void **params)
{
    unsigned n = ptxemu_function_num_params(f->pf);
    LaunchItem *li = calloc(1, sizeof(*li));
    size_t total = 0;
    if (li) {
        li->argv = calloc(n ? n : 1, sizeof(*li->argv));
    }
    for (unsigned i = 0; li && i < n; i++) {
        ptxemu_param_info pi;
        ptxemu_function_param(f->pf, i, &pi);
        total += (pi.size + 15) & ~(size_t)15;
    }
    if (li) {
        li->vals = malloc(total ? total : 1);
    }
    if (!li || !li->argv || !li->vals) {
        if (li) {
            launch_item_free(li);
        }
        return NULL;
    }
    size_t off = 0;
    for (unsigned i = 0; i < n; i++) {
        ptxemu_param_info pi;
        ptxemu_function_param(f->pf, i, &pi);
        li->argv[i] = li->vals + off;
        if (params[i]) {
            memcpy(li->vals + off, params[i], pi.size);
        } else {
            li->argv[i] = NULL;         /* the emulator reports it */
        }
        off += (pi.size + 15) & ~(size_t)15;
    }
    li->f = f;
    li->ctx = ctx;
    li->cfg = *cfg;
    return li;
}

static CUresult launch(CUfunction f, const Launch *l, void **params,
                       void **extra)
{
    CUcontext ctx;
    CUresult r = drv_ready_stream(l->stream);
    if (r) {
        return r;
    }
    ctx = drv_current();
    if (!drv_handle_valid(DRV_FUNC, f)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if ((params && extra) ||
        (!params && !extra && ptxemu_function_num_params(f->pf))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    r = check_config(f, l);
    if (r) {
        return r;
    }
    if (l->cooperative) {
        unsigned long long ctas = (unsigned long long)l->grid[0] *
                                  l->grid[1] * l->grid[2];
        int per_sm = drv_blocks_per_sm(f, (int)(l->block[0] * l->block[1] *
                                                l->block[2]), l->smem);
        if (ctas > (unsigned long long)per_sm * drv.gpu.sms) {
            return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
        }
    }
    void **owned = NULL;
    if (extra) {
        r = params_from_extra(f, extra, &owned);
        if (r) {
            return r;
        }
        params = owned;
    }
    /* While the stream captures, the launch becomes a kernel node. */
    drv_node_params np;
    memset(&np, 0, sizeof(np));
    np.kernel.func = f;
    np.kernel.gridDimX = l->grid[0];
    np.kernel.gridDimY = l->grid[1];
    np.kernel.gridDimZ = l->grid[2];
    np.kernel.blockDimX = l->block[0];
    np.kernel.blockDimY = l->block[1];
    np.kernel.blockDimZ = l->block[2];
    np.kernel.sharedMemBytes = l->smem;
    np.kernel.kernelParams = params;
    /* The access-policy window: the launch's own, else its stream's
     * (CUDA Programming Guide, "L2 Access Management": a stream's or a
     * kernel's attribute). */
    CUaccessPolicyWindow win;
    memset(&win, 0, sizeof(win));
    int has_win = l->has_window;
    if (has_win) {
        win = l->window;
    } else {
        has_win = drv_stream_window(l->stream, &win);
    }
    /* A cooperative or cluster launch makes a node with that attribute
     * (cuGraphKernelNodeSetAttribute), which launches the same way; the
     * window goes with the node too. */
    CUlaunchAttribute at[3];
    unsigned nat = 0;
    memset(at, 0, sizeof(at));
    if (l->cooperative) {
        at[nat].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        at[nat++].value.cooperative = 1;
    }
    if (l->cluster[0] || l->cluster[1] || l->cluster[2]) {
        at[nat].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        at[nat].value.clusterDim.x = l->cluster[0];
        at[nat].value.clusterDim.y = l->cluster[1];
        at[nat++].value.clusterDim.z = l->cluster[2];
    }
    if (has_win) {
        at[nat].id = CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
        at[nat++].value.accessPolicyWindow = win;
    }
    int taken;
    r = drv_capture_kernel(l->stream, &np, at, nat, &taken);
    if (taken) {
        free(owned);
        return r;
    }
    ptxemu_launch_config cfg;
    ptxemu_launch_config_default(&cfg);
    memcpy(cfg.grid, l->grid, sizeof(cfg.grid));
    memcpy(cfg.block, l->block, sizeof(cfg.block));
    memcpy(cfg.cluster, l->cluster, sizeof(cfg.cluster));
    cfg.shared_bytes = l->smem;
    cfg.cooperative = l->cooperative;
    cfg.carveout = f->carveout;
    if (has_win) {
        cfg.window.base = (uint64_t)(uintptr_t)win.base_ptr;
        cfg.window.num_bytes = win.num_bytes;
        cfg.window.hit_ratio = win.hitRatio;
        cfg.window.hit_prop = (int)win.hitProp;
        cfg.window.miss_prop = (int)win.missProp;
    }
    LaunchItem *li = launch_item(f, ctx, &cfg, params);
    free(owned);
    if (!li) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (l->cluster[0] || l->cluster[1] || l->cluster[2]) {
        /* The emulator checks cluster shapes against the kernel when it
         * launches: such a launch waits for its stream and runs now, so
         * that a refused shape is the launch's error. */
        drv_queue_sync_stream(l->stream);
        drv_dev_lock();
        r = launch_run(li);
        drv_dev_unlock();
        launch_item_free(li);
        return r == ctx->sticky ? CUDA_SUCCESS : r;
    }
    return drv_enqueue(l->stream, launch_run, li, 0, launch_item_free);
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
                        unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes,
                        CUstream hStream, void **kernelParams,
                        void **extra)
{
    Launch l = {{gridDimX, gridDimY, gridDimZ},
                {blockDimX, blockDimY, blockDimZ}, sharedMemBytes, hStream,
                0, {0, 0, 0}, 0, {0}};
    return drv_trace(launch(f, &l, kernelParams, extra), "cuLaunchKernel",
                     "%p, (%u, %u, %u), (%u, %u, %u), %u, %p, %p, %p",
                     (void *)f, gridDimX, gridDimY, gridDimZ, blockDimX,
                     blockDimY, blockDimZ, sharedMemBytes, (void *)hStream,
                     (void *)kernelParams, (void *)extra);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
                                   unsigned int gridDimY,
                                   unsigned int gridDimZ,
                                   unsigned int blockDimX,
                                   unsigned int blockDimY,
                                   unsigned int blockDimZ,
                                   unsigned int sharedMemBytes,
                                   CUstream hStream, void **kernelParams)
{
    Launch l = {{gridDimX, gridDimY, gridDimZ},
                {blockDimX, blockDimY, blockDimZ}, sharedMemBytes, hStream,
                1, {0, 0, 0}, 0, {0}};
    CUresult r = launch(f, &l, kernelParams, NULL);
    return drv_trace(r, "cuLaunchCooperativeKernel",
                     "%p, (%u, %u, %u), (%u, %u, %u), %u, %p, %p",
                     (void *)f, gridDimX, gridDimY, gridDimZ, blockDimX,
                     blockDimY, blockDimZ, sharedMemBytes, (void *)hStream,
                     (void *)kernelParams);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                          void **kernelParams, void **extra)
{
    CUresult r = config ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    Launch l;
    memset(&l, 0, sizeof(l));
    if (!r) {
        l.grid[0] = config->gridDimX;
        l.grid[1] = config->gridDimY;
        l.grid[2] = config->gridDimZ;
        l.block[0] = config->blockDimX;
        l.block[1] = config->blockDimY;
        l.block[2] = config->blockDimZ;
        l.smem = config->sharedMemBytes;
        l.stream = config->hStream;
        if (config->numAttrs && !config->attrs) {
            r = CUDA_ERROR_INVALID_VALUE;
        }
    }
    for (unsigned i = 0; !r && i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case CU_LAUNCH_ATTRIBUTE_IGNORE:
        case CU_LAUNCH_ATTRIBUTE_PRIORITY:
        case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
            break;                      /* hints: nothing to do */
        case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
            /* checked as a stream's (gattr_value_ok) */
            if (gattr_value_ok(a->id, &a->value, drv_max_window()) !=
                GPH_OK) {
                r = CUDA_ERROR_INVALID_VALUE;
            }
            l.has_window = 1;
            l.window = a->value.accessPolicyWindow;
            break;
        case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
            l.cooperative = a->value.cooperative != 0;
            break;
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
            l.cluster[0] = a->value.clusterDim.x;
            l.cluster[1] = a->value.clusterDim.y;
            l.cluster[2] = a->value.clusterDim.z;
            break;
        default:
            r = CUDA_ERROR_NOT_SUPPORTED;
            break;
        }
    }
    if (!r) {
        r = launch(f, &l, kernelParams, extra);
    }
    return drv_trace(r, "cuLaunchKernelEx", "%p, %p, %p, %p",
                     (const void *)config, (void *)f, (void *)kernelParams,
                     (void *)extra);
}

/* ------------------------------------------------------------ occupancy */

static int regs_of(CUfunction f)
{
    int regs = 32;
    drv_func_attr(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    return regs;
}

/* emu/gpuspec.h's calculator, also the device runtime's. */
int drv_blocks_per_sm(CUfunction f, int threads, size_t dyn_smem)
{
    return emu_gpu_blocks_per_sm(&drv.gpu, regs_of(f), threads,
                                 drv_static_smem(f) + dyn_smem,
                                 f->carveout);
}

static CUresult occupancy(int *numBlocks, CUfunction f, int blockSize,
                          size_t dyn)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!numBlocks || blockSize <= 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!drv_handle_valid(DRV_FUNC, f)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    int maxt;
    drv_func_attr(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
    *numBlocks = blockSize > maxt ? 0 : drv_blocks_per_sm(f, blockSize, dyn);
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                     CUfunction func,
                                                     int blockSize,
                                                     size_t dynamicSMemSize)
{
    return drv_trace(occupancy(numBlocks, func, blockSize, dynamicSMemSize),
                     "cuOccupancyMaxActiveBlocksPerMultiprocessor",
                     "%p, %p, %d, %zu", (void *)numBlocks, (void *)func,
                     blockSize, dynamicSMemSize);
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags)
{
    CUresult r = flags > 1 ? CUDA_ERROR_INVALID_VALUE
                           : occupancy(numBlocks, func, blockSize,
                                       dynamicSMemSize);
    return drv_trace(r, "cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
                     "%p, %p, %d, %zu, %u", (void *)numBlocks, (void *)func,
                     blockSize, dynamicSMemSize, flags);
}

/* The block size (multiple of 32) with the most resident threads per
 * SM; ties go to the larger block. */
static CUresult potential(int *minGrid, int *blockSize, CUfunction f,
                          CUoccupancyB2DSize b2d, size_t dyn, int limit)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!minGrid || !blockSize) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!drv_handle_valid(DRV_FUNC, f)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    int maxt;
    drv_func_attr(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
    if (limit > 0 && limit < maxt) {
        maxt = limit;
    }
    int best = 0, best_blocks = 0, best_threads = -1;
    for (int bs = maxt - maxt % 32; bs >= 32; bs -= 32) {
        size_t d = b2d ? b2d(bs) : dyn;
        int nb = drv_blocks_per_sm(f, bs, d);
        if (nb * bs > best_threads) {
            best = bs;
            best_blocks = nb;
            best_threads = nb * bs;
        }
    }
    if (best == 0) {
        best = maxt;
        best_blocks = drv_blocks_per_sm(f, maxt, b2d ? b2d(maxt) : dyn);
    }
    *blockSize = best;
    *minGrid = best_blocks * (int)drv.gpu.sms;
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                          CUfunction func,
                                          CUoccupancyB2DSize b2d,
                                          size_t dynamicSMemSize,
                                          int blockSizeLimit)
{
    return drv_trace(potential(minGridSize, blockSize, func, b2d,
                               dynamicSMemSize, blockSizeLimit),
                     "cuOccupancyMaxPotentialBlockSize",
                     "%p, %p, %p, %zu, %d", (void *)minGridSize,
                     (void *)blockSize, (void *)func, dynamicSMemSize,
                     blockSizeLimit);
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize,
                                                   int *blockSize,
                                                   CUfunction func,
                                                   CUoccupancyB2DSize b2d,
                                                   size_t dynamicSMemSize,
                                                   int blockSizeLimit,
                                                   unsigned int flags)
{
    CUresult r = flags > 1 ? CUDA_ERROR_INVALID_VALUE
                           : potential(minGridSize, blockSize, func, b2d,
                                       dynamicSMemSize, blockSizeLimit);
    return drv_trace(r, "cuOccupancyMaxPotentialBlockSizeWithFlags",
                     "%p, %p, %p, %zu, %d, %u", (void *)minGridSize,
                     (void *)blockSize, (void *)func, dynamicSMemSize,
                     blockSizeLimit, flags);
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                 CUfunction func,
                                                 int numBlocks,
                                                 int blockSize)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !dynamicSmemSize || numBlocks <= 0 || blockSize <= 0
                 ? CUDA_ERROR_INVALID_VALUE
                 : !drv_handle_valid(DRV_FUNC, func)
                 ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
    if (!r) {
        const DrvGpu *g = &drv.gpu;
        size_t per = g->smem_per_sm / (unsigned)numBlocks;
        size_t reserve = drv_static_smem(func) +
                         (g->arch >= 80 ? DRV_SMEM_RESERVED : 0);
        size_t avail = per > reserve ? per - reserve : 0;
        int maxdyn;
        drv_func_attr(&maxdyn,
                           CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           func);
        *dynamicSmemSize = avail < (size_t)maxdyn ? avail : (size_t)maxdyn;
    }
    return drv_trace(r, "cuOccupancyAvailableDynamicSMemPerBlock",
                     "%p, %p, %d, %d", (void *)dynamicSmemSize, (void *)func,
                     numBlocks, blockSize);
}
