// examples/cuda/pipeline.cu: a double-buffered cuda::pipeline copy
// (cuda::memcpy_async into shared memory, producer/consumer stages) and a
// cuda::barrier, as libcu++ compiles them to cp.async and mbarrier.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>

#include "check.h"

namespace cg = cooperative_groups;

constexpr int TILE = 128;

// out[i] = 3 * in[i] + 1, staged through shared memory in tiles, two
// tiles in flight.
__global__ void staged(const int *in, int *out, int tiles)
{
    __shared__ int buf[2][TILE];
    auto block = cg::this_thread_block();
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int fetch = 0;
    for (int t = 0; t < tiles; t++) {
        for (; fetch < tiles && fetch < t + 2; fetch++) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[fetch % 2][threadIdx.x],
                               &in[fetch * TILE + threadIdx.x],
                               sizeof(int), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        block.sync();
        int v = buf[t % 2][(threadIdx.x + 1) % TILE];   // a neighbour's
        out[t * TILE + (threadIdx.x + 1) % TILE] = 3 * v + 1;
        block.sync();
        pipe.consumer_release();
    }
}

// A block-wide cuda::barrier: phase 1 writes, phase 2 reads a neighbour.
__global__ void barrier_rotate(int *data)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int s[TILE];
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
    }
    __syncthreads();
    s[threadIdx.x] = data[blockIdx.x * TILE + threadIdx.x] * 2;
    bar.arrive_and_wait();
    data[blockIdx.x * TILE + threadIdx.x] = s[(threadIdx.x + 5) % TILE];
}

int main()
{
    const int tiles = 9, n = tiles * TILE;
    int h[n], r[n];
    for (int i = 0; i < n; i++) {
        h[i] = i * 11 - 4000;
    }
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof(h)));
    CHECK(cudaMalloc(&dout, sizeof(h)));
    CHECK(cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice));
    staged<<<1, TILE>>>(din, dout, tiles);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        EXPECT(r[i] == 3 * h[i] + 1, "staged[%d] = %d, expected %d", i, r[i],
               3 * h[i] + 1);
    }
    barrier_rotate<<<tiles, TILE>>>(din);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, din, sizeof(r), cudaMemcpyDeviceToHost));
    for (int b = 0; b < tiles; b++) {
        for (int t = 0; t < TILE; t++) {
            int want = 2 * h[b * TILE + (t + 5) % TILE];
            EXPECT(r[b * TILE + t] == want, "rotate[%d] = %d, expected %d",
                   b * TILE + t, r[b * TILE + t], want);
        }
    }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    std::printf("PASSED\n");
    return 0;
}
