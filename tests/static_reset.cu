// tests/static_reset.cu: built by tests/exec.test with nvcc's defaults
// (the CUDA runtime linked statically).  cudaDeviceReset three times
// over: each reset makes the runtime's state in the primary context go
// (the driver runs its context-local storage destructor), and the next
// call builds it again; memory, memset, a launch and a copy work in
// every round.  Prints PASSED.
#include "check.h"

__global__ void add_index(int *p)
{
    p[threadIdx.x] += threadIdx.x;
}

int main()
{
    for (int round = 0; round < 3; round++) {
        int *d, h[64];
        CHECK(cudaMalloc(&d, sizeof h));
        CHECK(cudaMemset(d, 0, sizeof h));
        add_index<<<1, 64>>>(d);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 64; i++) {
            EXPECT(h[i] == i, "round %d: h[%d] = %d", round, i, h[i]);
        }
        CHECK(cudaFree(d));
        CHECK(cudaDeviceReset());
    }
    return passed();
}
