// examples/cuda/reduction.cu: the sum and the maximum of an array, one
// partial result per block (warp shuffles within a warp, shared memory
// across the warps of a block), then a second launch over the partials.
#include "check.h"

#include <cstdint>

constexpr int BLOCK = 256;
constexpr int WARPS = BLOCK / 32;

__device__ unsigned warp_sum(unsigned v)
{
    for (int d = 16; d > 0; d /= 2) {
        v += __shfl_down_sync(0xffffffffu, v, d);
    }
    return v;
}

__device__ unsigned warp_max(unsigned v)
{
    for (int d = 16; d > 0; d /= 2) {
        v = max(v, __shfl_xor_sync(0xffffffffu, v, d));
    }
    return v;
}

// Grid-stride loads, then each block writes its sum and max.
__global__ void reduce(const unsigned *in, int n, unsigned *sums,
                       unsigned *maxes)
{
    __shared__ unsigned s_sum[WARPS], s_max[WARPS];
    unsigned sum = 0, mx = 0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n;
         i += gridDim.x * BLOCK) {
        sum += in[i];
        mx = max(mx, in[i]);
    }
    sum = warp_sum(sum);
    mx = warp_max(mx);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) {
        s_sum[warp] = sum;
        s_max[warp] = mx;
    }
    __syncthreads();
    if (warp == 0) {
        sum = lane < WARPS ? s_sum[lane] : 0;
        mx = lane < WARPS ? s_max[lane] : 0;
        sum = warp_sum(sum);
        mx = warp_max(mx);
        if (lane == 0) {
            sums[blockIdx.x] = sum;
            maxes[blockIdx.x] = mx;
        }
    }
}

int main()
{
    const int n = 50000, blocks = 24;
    unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
    uint32_t x = 12345;
    unsigned long long want_sum = 0;
    unsigned want_max = 0;
    for (int i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;       // Numerical Recipes LCG
        h[i] = x >> 16;
        want_sum += h[i];
        want_max = h[i] > want_max ? h[i] : want_max;
    }
    unsigned *din, *dsums, *dmaxes, *dtotal;
    CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&dsums, blocks * sizeof(unsigned)));
    CHECK(cudaMalloc(&dmaxes, blocks * sizeof(unsigned)));
    CHECK(cudaMalloc(&dtotal, 2 * sizeof(unsigned)));
    CHECK(cudaMemcpy(din, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));

    reduce<<<blocks, BLOCK>>>(din, n, dsums, dmaxes);
    CHECK(cudaGetLastError());
    // The partial sums and maxes are reduced by one block each.
    reduce<<<1, BLOCK>>>(dsums, blocks, dtotal, dtotal + 1);
    CHECK(cudaGetLastError());
    unsigned got_sum, got_max, part_max;
    CHECK(cudaMemcpy(&got_sum, dtotal, sizeof got_sum,
                     cudaMemcpyDeviceToHost));
    reduce<<<1, BLOCK>>>(dmaxes, blocks, dtotal, dtotal + 1);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&part_max, dtotal + 1, sizeof part_max,
                     cudaMemcpyDeviceToHost));
    got_max = part_max;

    // 50000 values below 2^16: the sum fits in 32 bits.
    EXPECT(got_sum == (unsigned)want_sum, "sum %u, want %llu", got_sum,
           want_sum);
    EXPECT(got_max == want_max, "max %u, want %u", got_max, want_max);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dsums));
    CHECK(cudaFree(dmaxes));
    CHECK(cudaFree(dtotal));
    free(h);
    return passed();
}
