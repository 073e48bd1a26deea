// tests/cuda/tolerated_par.cu: accesses a GPU tolerates (emu/tolerate.h)
// from every thread of a 16-CTA grid, which `ptxemu exec` runs on
// several host threads: each thread writes its global index 64 KiB past
// the end of a 1 KiB buffer (outside every allocation, in the page it
// maps), reads it back and stores it to out[i].  tests/samples.test runs
// it at 1 and 3 host threads: the same output, and one warning per
// instruction naming thread (0,0,0) of CTA (0,0,0) either way.
#include <cstdio>

__global__ void past(int *a, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile int *far = a + 16384 + i; // 64 KiB past a
    *far = i;
    out[i] = *far;
}

int main()
{
    const int n = 16 * 64;
    int *a, *out;
    cudaMalloc(&a, 1024);
    cudaMalloc(&out, n * sizeof(int));
    past<<<16, 64>>>(a, out);
    cudaError_t e = cudaDeviceSynchronize();
    int h[n];
    cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        bad += h[i] != i;
    }
    printf("tolerated_par: %s, %d wrong\n", cudaGetErrorString(e), bad);
    printf(e == cudaSuccess && !bad ? "PASSED\n" : "FAILED\n");
    return 0;
}
