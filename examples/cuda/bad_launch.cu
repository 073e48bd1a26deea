// examples/cuda/bad_launch.cu: errors a CUDA program must be able to see
// and survive.  A launch with 2048 threads per block (the limit is 1024)
// and one with a grid y dimension past 65535 fail at launch with
// cudaErrorInvalidConfiguration, which cudaGetLastError reports once and
// clears; later work is unaffected.  A kernel that stores far outside
// its allocation launches, then the next synchronisation reports
// cudaErrorIllegalAddress, and that error is sticky: every later call
// that touches the device reports it again.  The process lives on to
// print PASSED.
#include "check.h"

#include <cstring>

__global__ void fill(int *x, int v)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Stores at p[off]: with p from cudaMalloc and off a gigabyte away this
// is an address nothing is mapped at.
__global__ void wild_store(int *p, long long off)
{
    p[off] = 1;
}

static void expect_error(cudaError_t got, cudaError_t want, const char *what)
{
    EXPECT(got == want, "%s: %s (%d), want %s (%d)", what,
           cudaGetErrorName(got), (int)got, cudaGetErrorName(want),
           (int)want);
}

int main()
{
    int *d;
    int h[256];
    CHECK(cudaMalloc(&d, sizeof h));

    fill<<<1, 2048>>>(d, 1);
    expect_error(cudaGetLastError(), cudaErrorInvalidConfiguration,
                 "2048 threads");
    expect_error(cudaGetLastError(), cudaSuccess, "error cleared");
    fill<<<dim3(1, 70000), 32>>>(d, 1);
    expect_error(cudaPeekAtLastError(), cudaErrorInvalidConfiguration,
                 "grid y 70000 (peek)");
    expect_error(cudaGetLastError(), cudaErrorInvalidConfiguration,
                 "grid y 70000");
    expect_error(cudaDeviceSynchronize(), cudaSuccess,
                 "synchronize after launch errors");
    EXPECT(strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration),
                  "cudaErrorInvalidConfiguration") == 0,
           "name of error 9: %s",
           cudaGetErrorName(cudaErrorInvalidConfiguration));

    // The device still works.
    fill<<<2, 128>>>(d, 7);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++) {
        EXPECT(h[i] == 7, "h[%d] = %d after the failed launches", i, h[i]);
    }

    wild_store<<<1, 1>>>(d, 1ll << 28);
    // The launch itself is valid; the fault may or may not have been
    // seen yet, depending on how far the kernel got.
    cudaError_t e = cudaPeekAtLastError();
    EXPECT(e == cudaSuccess || e == cudaErrorIllegalAddress,
           "after the wild launch: %s", cudaGetErrorName(e));
    expect_error(cudaDeviceSynchronize(), cudaErrorIllegalAddress,
                 "synchronize after the wild store");
    expect_error(cudaGetLastError(), cudaErrorIllegalAddress,
                 "last error after the fault");
    expect_error(cudaDeviceSynchronize(), cudaErrorIllegalAddress,
                 "the fault is sticky");
    expect_error(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost),
                 cudaErrorIllegalAddress, "a copy after the fault");
    EXPECT(strcmp(cudaGetErrorName(cudaErrorIllegalAddress),
                  "cudaErrorIllegalAddress") == 0,
           "name of error 700: %s",
           cudaGetErrorName(cudaErrorIllegalAddress));
    printf("fault reported as: %s\n",
           cudaGetErrorString(cudaErrorIllegalAddress));
    return passed();
}
