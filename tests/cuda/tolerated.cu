// Accesses a GPU tolerates (tests/samples.test): reads 512 bytes before
// the program's first buffer (as Rodinia's srad_v2 does), past the end of
// a buffer, and a write to the gap between two buffers, all inside mapped
// pages of device memory: a GPU runs them, and so does `ptxemu exec`
// (with one warning per instruction).  A read a gigabyte away faults:
// cudaErrorIllegalAddress.  Prints "tolerated" or "faulted: ERROR" for
// the first kernel, then PASSED when everything else matched.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void around(const int *a, int n, int *gap, int *out)
{
    int t = threadIdx.x;
    // a[-128] is 512 bytes before a; a[n + t] runs past its end
    out[t] = a[t - 128] + a[n + t] + a[t];
    gap[t] = t + 5;             // the gap below the next buffer
    __syncthreads();
    out[32 + t] = gap[t];
}

__global__ void wild(const int *a, long long off, int *out)
{
    out[0] = a[off];
}

int main()
{
    const int n = 25;           // 100 bytes
    int *a, *b, *out;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&b, 256);
    cudaMalloc(&out, 64 * sizeof(int));
    int h[64];
    for (int i = 0; i < n; i++)
        h[i] = 1000 + i;
    cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice);
    int bad = 0;
    for (int rep = 0; rep < 2; rep++) {
        around<<<1, 16>>>(a, n, b - 16, out);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("faulted: %s\n", cudaGetErrorName(e));
            return 0;
        }
    }
    printf("tolerated\n");
    cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 16; t++) {
        // what lies outside the buffers reads as zero here (never written)
        int want = t < n ? 1000 + t : 0;
        if (h[t] != want || h[32 + t] != t + 5) {
            printf("thread %d: %d %d\n", t, h[t], h[32 + t]);
            bad = 1;
        }
    }
    wild<<<1, 1>>>(a, 1ll << 28, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaErrorIllegalAddress) {
        printf("wild read: %s\n", cudaGetErrorName(e));
        bad = 1;
    }
    if (!bad)
        printf("PASSED\n");
    return bad;
}
