// Grid-wide synchronisation with cooperative groups (this_grid().sync()),
// which must be launched with cudaLaunchCooperativeKernel. Two-phase
// reduction: per-block partials, grid barrier, then block 0 finishes.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void grid_reduce(const float *in, float *partial, float *result, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float sdata[256];
    float s = 0.0f;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        s += in[i];
    sdata[block.thread_rank()] = s;
    block.sync();
    for (unsigned stride = block.size() / 2; stride > 0; stride >>= 1) {
        if (block.thread_rank() < stride)
            sdata[block.thread_rank()] += sdata[block.thread_rank() + stride];
        block.sync();
    }
    if (block.thread_rank() == 0)
        partial[blockIdx.x] = sdata[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        float t = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += partial[b];
        *result = t;
    }
}

extern "C" __global__ void grid_two_phase(int *data, int n, int *valid)
{
    cg::grid_group grid = cg::this_grid();
    *valid = grid.is_valid();
    unsigned long long i = grid.thread_rank();
    if (i < (unsigned long long)n)
        data[i] *= 2;
    grid.sync();
    // phase 2 reads a neighbour written by another block in phase 1
    int v = 0;
    if (i < (unsigned long long)n)
        v = data[(i + 37) % n];
    grid.sync();
    if (i < (unsigned long long)n)
        data[i] += v;
}
