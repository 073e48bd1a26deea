/*
 * emu/gpuspec.c: the GPUs we can pretend to be and their attributes.
 * See emu/gpuspec.h.
 */
#include "emu/gpuspec.h"
#include "abi/cuda_abi.h"

/* The GPUs we can pretend to be, newest first within a major version.
 * An arch not listed takes the nearest lower entry.  Figures from the
 * CUDA C++ Programming Guide's per-compute-capability table (threads,
 * blocks, registers and shared memory per SM, opt-in shared memory per
 * block) and the products' data sheets (SMs, L2, clocks, bus, memory). */
static const EmuGpu gpus[] = {
    {50, "GTX 750 Ti", 5, 2048, 32, 65536, 65536, 49152, 2 << 20,
     1085000, 2700000, 128, 2ull << 30},
    {52, "GTX 980", 16, 2048, 32, 65536, 98304, 49152, 2 << 20,
     1216000, 3505000, 256, 4ull << 30},
    {60, "P100", 56, 2048, 32, 65536, 65536, 49152, 4 << 20,
     1480000, 715000, 4096, 16ull << 30},
    {61, "GTX 1080", 20, 2048, 32, 65536, 98304, 49152, 2 << 20,
     1733000, 5005000, 256, 8ull << 30},
    {70, "V100", 80, 2048, 32, 65536, 98304, 98304, 6 << 20,
     1530000, 877000, 4096, 16ull << 30},
    {75, "T4", 40, 1024, 16, 65536, 65536, 65536, 4 << 20,
     1590000, 5001000, 256, 16ull << 30},
    {80, "A100", 108, 2048, 32, 65536, 167936, 166912, 40 << 20,
     1410000, 1215000, 5120, 40ull << 30},
    {86, "RTX 3090", 82, 1536, 16, 65536, 102400, 101376, 6 << 20,
     1695000, 9751000, 384, 24ull << 30},
    {87, "Orin", 16, 1536, 16, 65536, 167936, 166912, 4 << 20,
     1300000, 3200000, 256, 32ull << 30},
    {89, "L40", 142, 1536, 24, 65536, 102400, 101376, 96 << 20,
     2490000, 9001000, 384, 48ull << 30},
    {90, "H100", 132, 2048, 32, 65536, 233472, 232448, 50 << 20,
     1980000, 2619000, 5120, 80ull << 30},
    {100, "B200", 148, 2048, 32, 65536, 233472, 232448, 126 << 20,
     1965000, 3996000, 8192, 180ull << 30},
    {120, "RTX 5090", 170, 1536, 32, 65536, 102400, 101376, 96 << 20,
     2407000, 14001000, 512, 32ull << 30},
};

EmuGpu emu_gpu_for(unsigned arch)
{
    const EmuGpu *g = &gpus[0];
    for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
        if (gpus[i].arch <= arch) {
            g = &gpus[i];
        }
    }
    EmuGpu out = *g;
    out.arch = arch;
    return out;
}

/* One device attribute.  Values for things the emulator does not have
 * (textures, IPC, NUMA...) say "not supported" (0) or give the
 * hardware's limits, so that programs querying them carry on. */
int emu_gpu_attribute(const EmuGpu *g, int attr, int *out)
{
    CUdevice_attribute a = (CUdevice_attribute)attr;
    int v;
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: v = 64; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: v = 0x7fffffff; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: v = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: v = 65535; break;
    case CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK:
        v = EMU_GPU_SMEM_STATIC_MAX; break;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: v = 65536; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: v = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: v = 0x7fffffff; break;
    case CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK: v = 65536; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: v = (int)g->clock_khz; break;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: v = 512; break;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: v = 32; break;
    case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT: v = 512; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: v = (int)g->sms; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: v = CU_COMPUTEMODE_DEFAULT; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
        v = (int)g->mem_clock_khz; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
        v = (int)g->bus_width; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: v = (int)g->l2_bytes; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
        v = (int)g->threads_per_sm; break;
    /* The drop-in driver runs a device's work on one worker thread, one
     * item at a time (runtime/cuda/drv_queue.h): kernels never run
     * concurrently, nor copies beside kernels.  CUDA lets a device say
     * so (CUDA Runtime API, cudaDeviceProp: concurrentKernels "1 if the
     * device supports executing multiple kernels within the same
     * context simultaneously, or 0 if not", asyncEngineCount the
     * engines that overlap copies with kernels), and a program may not
     * rely on overlap for correctness either way. */
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
        v = 0; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
        v = (int)(g->arch / 10); break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
        v = (int)(g->arch % 10); break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
        v = (int)g->smem_per_sm; break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
        v = (int)g->regs_per_sm; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
        v = (int)g->smem_optin; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR:
        v = (int)g->blocks_per_sm; break;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK:
        v = g->arch >= 80 ? EMU_GPU_SMEM_RESERVED : 0; break;
    case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO:
        v = 2; break;
    case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE:
        v = g->arch >= 80 ? (int)(g->l2_bytes / 4 * 3) : 0; break;
    case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE:
        v = g->arch >= 80 ? 134213632 : 0; break;
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH: v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT: v = 1; break;
    case CU_DEVICE_ATTRIBUTE_NUMA_ID:
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID: v = -1; break;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH:
        v = 131072; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH:
        v = 1 << 27; break;
    /* Capabilities the emulator really has: unified addressing, mapped
     * and registered host memory, managed memory the host uses
     * directly, cooperative launches, concurrent managed access (all
     * work is synchronous), stream priorities (accepted), interprocess
 * events (runtime/cuda/drv_ipcev.c). */
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
    case CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST:
    case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
    case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED:
        v = 1; break;
    default:
        if ((int)a <= 0 || (int)a >= CU_DEVICE_ATTRIBUTE_MAX) {
            return -1;
        }
        /* Texture/surface extents not listed, and features the
         * emulator lacks (IPC, pool handle types, RDMA, NUMA, MPS...):
         * 0. */
        v = 0;
        break;
    }
    *out = v;
    return 0;
}

/* The occupancy calculator's rules: warps, registers (allocated per
 * warp in units of 256) and shared memory (plus the per-block
 * reservation) each bound the blocks an SM holds. */
/* The capacities per compute capability: CUDA C++ Programming Guide,
 * "Compute Capabilities" (shared memory capacity per SM for 7.x, 8.x
 * and 9.0), as NVIDIA's occupancy calculator lists them
 * (cuda_occupancy.h, cudaOccAlignUpShmemSizeVoltaPlus). */
static const unsigned short carve_70[] = {0, 8, 16, 32, 64, 96};
static const unsigned short carve_75[] = {32, 64};
static const unsigned short carve_80[] = {0, 8, 16, 32, 64, 100, 132, 164};
static const unsigned short carve_86[] = {0, 8, 16, 32, 64, 100};
static const unsigned short carve_90[] = {0,   8,   16,  32,  64,
                                          100, 132, 164, 196, 228};
static const struct {
    unsigned arch;
    const unsigned short *kb;
    unsigned n;
} carves[] = {
#define C_(a, t) {a, t, sizeof t / sizeof t[0]}
    C_(70, carve_70), C_(75, carve_75), C_(80, carve_80), C_(86, carve_86),
    C_(87, carve_80), C_(89, carve_86), C_(90, carve_90),
#undef C_
};

unsigned emu_gpu_carveouts(const EmuGpu *g, const unsigned short **kb)
{
    unsigned n = 0;
    for (size_t i = 0; i < sizeof carves / sizeof carves[0]; i++) {
        if (carves[i].arch <= g->arch) {
            *kb = carves[i].kb;
            n = carves[i].n;
        }
    }
    return n;
}

/* The smallest capacity of at least `bytes` (the largest when none). */
static size_t carve_up(const unsigned short *kb, unsigned n, size_t bytes)
{
    for (unsigned i = 0; i < n; i++) {
        if ((size_t)kb[i] * 1024 >= bytes) {
            return (size_t)kb[i] * 1024;
        }
    }
    return (size_t)kb[n - 1] * 1024;
}

/* As the occupancy calculator (cuda_occupancy.h,
 * cudaOccSMemPreferenceVoltaPlus and cudaOccMaxBlocksPerSMSmemLimit):
 * the preferred share of smem_per_sm rounded up to a supported
 * capacity, or the smallest that holds one block when that is more (the
 * preference is a hint the driver overrides to run the kernel). */
size_t emu_gpu_carveout_bytes(const EmuGpu *g, int carveout,
                              size_t per_block)
{
    const unsigned short *kb = NULL;
    unsigned n = emu_gpu_carveouts(g, &kb);
    if (carveout < 0 || !n) {
        return g->smem_per_sm;
    }
    size_t want = (size_t)g->smem_per_sm *
                  (size_t)(carveout > 100 ? 100 : carveout) / 100;
    size_t cap = carve_up(kb, n, want);
    return cap < per_block ? carve_up(kb, n, per_block) : cap;
}

int emu_gpu_blocks_per_sm(const EmuGpu *g, int regs, int threads,
                          size_t smem, int carveout)
{
    if (threads <= 0) {
        return 0;
    }
    int warps = (threads + 31) / 32;
    int by_threads = (int)(g->threads_per_sm / 32) / warps;
    int regs_warp = ((regs * 32 + 255) / 256) * 256;
    int by_regs = (int)(g->regs_per_sm / (unsigned)regs_warp) / warps;
    int by_smem = (int)g->blocks_per_sm;
    size_t per = smem + (g->arch >= 80 ? EMU_GPU_SMEM_RESERVED : 0);
    if ((smem || carveout >= 0) && per) {
        by_smem = (int)(emu_gpu_carveout_bytes(g, carveout, per) / per);
    }
    int n = (int)g->blocks_per_sm;
    n = by_threads < n ? by_threads : n;
    n = by_regs < n ? by_regs : n;
    n = by_smem < n ? by_smem : n;
    return n;
}
