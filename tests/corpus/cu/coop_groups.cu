// Cooperative groups: thread_block, tiled_partition (static and dynamic),
// coalesced_threads, labeled_partition, cg::reduce / inclusive_scan.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

extern "C" __global__ void cg_block_tiles(const int *a, int *sums, int *ranks, int n)
{
    cg::thread_block block = cg::this_thread_block();
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = (i < n) ? a[i] : 0;

    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(warp);

    int wsum = cg::reduce(warp, v, cg::plus<int>());
    int t8max = cg::reduce(tile8, v, cg::greater<int>());
    int scan = cg::inclusive_scan(tile8, v);
    int shf = tile8.shfl_down(v, 1) + warp.shfl_xor(v, 4);
    unsigned b = warp.ballot(v > 0);
    bool any = warp.any(v < 0);
    block.sync();
    if (i < n) {
        sums[i] = wsum + t8max + scan + shf + (int)__popc(b) + any;
        ranks[i] = (int)(warp.meta_group_rank() * 100 + tile8.thread_rank() * 10 + tile8.meta_group_rank());
    }
}

extern "C" __global__ void cg_dynamic_tiles(const float *a, float *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? a[i] : 0.0f;
    cg::thread_group tile = cg::tiled_partition(block, 16);
    // manual reduction with group sync on a dynamic group
    __shared__ float buf[1024];
    buf[threadIdx.x] = v;
    tile.sync();
    int base = threadIdx.x - tile.thread_rank();
    float s = 0.0f;
    for (unsigned k = 0; k < tile.size(); k++)
        s += buf[base + k];
    tile.sync();
    if (i < n)
        out[i] = s / tile.size();
}

extern "C" __global__ void cg_coalesced(const int *a, int *counter, int *slots, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = a[i];
    if (v % 3 == 0) {
        // warp-aggregated atomic increment
        cg::coalesced_group active = cg::coalesced_threads();
        int base = 0;
        if (active.thread_rank() == 0)
            base = atomicAdd(counter, (int)active.size());
        base = active.shfl(base, 0);
        slots[i] = base + (int)active.thread_rank();
        cg::coalesced_group by_parity = cg::labeled_partition(active, v & 1);
        slots[i] += (int)by_parity.size() * 1000;
    } else {
        slots[i] = -1;
    }
}
