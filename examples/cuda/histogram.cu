// examples/cuda/histogram.cu: a 256-bin histogram of pseudo-random
// bytes, twice: with atomicAdd on one global histogram, and with
// per-block shared-memory histograms merged by atomicAdd.  Both must
// equal the host's count.
#include "check.h"

#include <cstdint>
#include <cstring>

constexpr int BINS = 256;

__global__ void hist_global(const unsigned char *in, int n, unsigned *bins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x) {
        atomicAdd(&bins[in[i]], 1u);
    }
}

__global__ void hist_shared(const unsigned char *in, int n, unsigned *bins)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x) {
        atomicAdd(&local[in[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        if (local[b]) {
            atomicAdd(&bins[b], local[b]);
        }
    }
}

int main()
{
    const int n = 40000;
    unsigned char *h = (unsigned char *)malloc(n);
    unsigned want[BINS], got[BINS];
    memset(want, 0, sizeof want);
    uint32_t x = 2463534242u;
    for (int i = 0; i < n; i++) {
        x ^= x << 13;                       // Marsaglia's xorshift32
        x ^= x >> 17;
        x ^= x << 5;
        // Skewed towards low bins, so that some bins see many collisions.
        h[i] = (unsigned char)((x & 0xff) & (x >> 8));
        want[h[i]]++;
    }
    unsigned char *din;
    unsigned *dbins;
    CHECK(cudaMalloc(&din, n));
    CHECK(cudaMalloc(&dbins, sizeof got));
    CHECK(cudaMemcpy(din, h, n, cudaMemcpyHostToDevice));

    CHECK(cudaMemset(dbins, 0, sizeof got));
    hist_global<<<16, 256>>>(din, n, dbins);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dbins, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BINS; b++) {
        EXPECT(got[b] == want[b], "global: bin %d = %u, want %u", b, got[b],
               want[b]);
    }

    CHECK(cudaMemset(dbins, 0, sizeof got));
    hist_shared<<<12, 192>>>(din, n, dbins);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dbins, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BINS; b++) {
        EXPECT(got[b] == want[b], "shared: bin %d = %u, want %u", b, got[b],
               want[b]);
    }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dbins));
    free(h);
    return passed();
}
