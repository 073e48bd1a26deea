// Hopper bulk asynchronous copies (compute_90): cp.async.bulk global<->shared
// with mbarrier complete_tx, cp.async.bulk.tensor (TMA) from a CUtensorMap
// passed as a __grid_constant__ parameter, cp.reduce.async.bulk,
// bulk_group commit/wait, cp.async.bulk.prefetch, fence.proxy.async /
// fence.proxy.tensormap, elect.sync, griddepcontrol, stmatrix.
// regen: sm90-only
#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
#include <cuda/barrier>

namespace ptx = cuda::ptx;

#define TILE_BYTES 4096

__device__ __forceinline__ bool elect_one()
{
    unsigned pred;
    asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 lane;\n\t"
                 "elect.sync lane|p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(pred));
    return pred != 0;
}

// 1D bulk copy of a 4 KiB tile into shared memory, increment, bulk copy back.
extern "C" __global__ void bulk_copy_roundtrip(const int *in, int *out)
{
    __shared__ alignas(128) int tile[TILE_BYTES / 4];
    __shared__ alignas(8) uint64_t bar;
    const int *src = in + blockIdx.x * (TILE_BYTES / 4);
    int *dst = out + blockIdx.x * (TILE_BYTES / 4);
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x < 32 && elect_one()) {
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, tile, src, TILE_BYTES, &bar);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                       TILE_BYTES);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0))
        ;
    for (int k = threadIdx.x; k < TILE_BYTES / 4; k += blockDim.x)
        tile[k] += k;
    ptx::fence_proxy_async(ptx::space_shared);   // make generic writes visible to the async proxy
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst, tile, TILE_BYTES);
        ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add,
                                  dst + TILE_BYTES / 8, tile, TILE_BYTES / 2);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}

// 2D TMA load of a 32x32 float tile described by a tensor map, then TMA store
extern "C" __global__ void tma_2d(const __grid_constant__ CUtensorMap in_map,
                                  const __grid_constant__ CUtensorMap out_map, float scale)
{
    __shared__ alignas(128) float tile[32][32];
    __shared__ alignas(8) uint64_t bar;
    int x0 = blockIdx.x * 32, y0 = blockIdx.y * 32;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int coords[2] = {x0, y0};
        ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, &tile[0][0], &in_map, coords, &bar);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                       sizeof(tile));
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0))
        ;
    for (int k = threadIdx.x; k < 32 * 32; k += blockDim.x)
        tile[k / 32][k % 32] *= scale;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        int coords[2] = {x0, y0};
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &out_map, coords, &tile[0][0]);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
    }
    asm volatile("prefetch.tensormap [%0];" :: "l"(&in_map) : "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(&out_map) : "memory");
}

// Programmatic dependent launch: griddepcontrol.wait / launch_dependents
extern "C" __global__ void dependent_launch(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (i < n)
        out[i] = in[i] * 2.0f + 1.0f;
    asm volatile("griddepcontrol.launch_dependents;" ::);
}

// Hopper misc: elect.sync leader, redux.sync.min.u32 via __reduce,
// st.async and red.async into the own CTA's shared memory
extern "C" __global__ void hopper_misc(const unsigned *in, unsigned *out)
{
    __shared__ alignas(8) uint64_t bar;
    __shared__ unsigned slot[32];
    int t = threadIdx.x;   // one warp
    if (t == 0)
        ptx::mbarrier_init(&bar, 1);
    slot[t] = 0;
    __syncthreads();
    unsigned v = in[blockIdx.x * 32 + t];
    unsigned leader = elect_one() ? 1u : 0u;
    unsigned slot_addr = (unsigned)__cvta_generic_to_shared(&slot[t]);
    unsigned bar_addr = (unsigned)__cvta_generic_to_shared(&bar);
    if (t == 0)
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(bar_addr), "r"(32 * 8) : "memory");
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"
                 :: "r"(slot_addr), "r"(v), "r"(bar_addr) : "memory");
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
                 :: "r"(slot_addr), "r"(1u), "r"(bar_addr) : "memory");
    if (t == 0)
        ptx::mbarrier_arrive(&bar);
    while (!ptx::mbarrier_try_wait_parity(&bar, 0))
        ;
    out[blockIdx.x * 32 + t] = slot[31 - t] + leader * 1000;
}

// stmatrix (store 8x8 b16 fragments to shared) and cp.async.bulk.prefetch
extern "C" __global__ void stmatrix_prefetch(const unsigned *in, unsigned short *out, const int *next)
{
    __shared__ alignas(16) unsigned short tile[8 * 8];
    int lane = threadIdx.x & 31;   // one warp
    unsigned frag = in[blockIdx.x * 32 + lane];
    unsigned row_addr = (unsigned)__cvta_generic_to_shared(&tile[(lane & 7) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};"
                 :: "r"(row_addr), "r"(frag) : "memory");
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], 256;" :: "l"(next + blockIdx.x * 64) : "memory");
    __syncwarp();
    out[blockIdx.x * 64 + lane] = tile[lane];
    out[blockIdx.x * 64 + 32 + lane] = tile[32 + lane];
}
