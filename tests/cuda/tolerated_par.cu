// tests/cuda/tolerated_par.cu: accesses a GPU tolerates (emu/tolerate.h)
// from every thread of a 16-CTA grid, which `ptxemu exec` runs on
// several host threads: each thread writes its global index 64 KiB past
// the end of a 1 KiB buffer (outside every allocation, in the page it
// maps), reads it back and stores it to out[i].  tests/samples.test runs
// it at 1 and 3 host threads: the same output, and one warning per
// instruction naming thread (0,0,0) of CTA (0,0,0) either way.  Then a
// launch that CTA 5 stops with a fault after a long loop, while CTAs
// above it, on other host threads, make a tolerated read of their own:
// one thread never runs them, so neither reports that read (only the
// tolerated write of CTAs 0-4 is, and the fault).
#include <cstdio>

__global__ void past(int *a, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile int *far = a + 16384 + i; // 64 KiB past a
    *far = i;
    out[i] = *far;
}

__global__ void faulty(int *a, int *out, long long wild)
{
    int b = blockIdx.x;
    if (b == 5) {
        unsigned s = threadIdx.x;
        for (int i = 0; i < 300000; i++) {
            s = s * 1103515245u + (unsigned)wild;
        }
        out[threadIdx.x] = s;
        if (threadIdx.x == 0) {
            out[0] = a[wild];                      // faults
        }
    } else if (b > 5) {
        out[64 + threadIdx.x] = a[24576 + threadIdx.x]; // tolerated read
    } else {
        ((volatile int *)a)[16384 + threadIdx.x] = b;   // tolerated write
    }
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
    faulty<<<64, 32>>>(a, out, 1ll << 28);
    printf("faulty: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
