// examples/cuda/cooperative.cu: a cooperative launch with grid-wide
// synchronisation (cooperative_groups::this_grid().sync()): a two-phase
// sum over many blocks in one kernel, and the error a grid too large to
// be co-resident gets (computed from the GPU's occupancy, as CUDA does).
#include <cooperative_groups.h>

#include "check.h"

namespace cg = cooperative_groups;

__global__ void grid_sum(const int *in, int *partial, long long *out, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[256];
    int sum = 0;
    for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size()) {
        sum += in[i];
    }
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if ((int)threadIdx.x < k) {
            s[threadIdx.x] += s[threadIdx.x + k];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
    }
    grid.sync();                  // every block's partial sum is written
    if (grid.thread_rank() == 0) {
        long long t = 0;
        for (unsigned b = 0; b < gridDim.x; b++) {
            t += partial[b];
        }
        *out = t;
    }
}

int main()
{
    int attr = 0;
    CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrCooperativeLaunch, 0));
    EXPECT(attr == 1, "cooperative launch not supported");
    int per_sm = 0, sms = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum,
                                                        256, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(per_sm > 0, "no block fits on an SM");

    const int n = 100000, blocks = 8;
    int *h = (int *)malloc(n * sizeof(int));
    long long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i * 37) % 1001 - 500;
        want += h[i];
    }
    int *din, *dpart;
    long long *dout;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dpart, per_sm * sms * sizeof(int) + 4));
    CHECK(cudaMalloc(&dout, sizeof(long long)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int nn = n;
    void *args[] = {&din, &dpart, &dout, &nn};
    CHECK(cudaLaunchCooperativeKernel((void *)grid_sum, blocks, 256, args,
                                      0, 0));
    long long got = 0;
    CHECK(cudaMemcpy(&got, dout, sizeof(got), cudaMemcpyDeviceToHost));
    EXPECT(got == want, "sum %lld, expected %lld", got, want);

    // One block more than can be resident at once is refused.
    cudaError_t e = cudaLaunchCooperativeKernel((void *)grid_sum,
                                                per_sm * sms + 1, 256, args,
                                                0, 0);
    EXPECT(e == cudaErrorCooperativeLaunchTooLarge,
           "oversized cooperative grid: %s", cudaGetErrorName(e));
    // The launch error is reported once by cudaGetLastError, then cleared.
    e = cudaGetLastError();
    EXPECT(e == cudaErrorCooperativeLaunchTooLarge, "last error: %s",
           cudaGetErrorName(e));
    CHECK(cudaGetLastError());
    CHECK(cudaFree(din));
    CHECK(cudaFree(dpart));
    CHECK(cudaFree(dout));
    free(h);
    std::printf("PASSED\n");
    return 0;
}
