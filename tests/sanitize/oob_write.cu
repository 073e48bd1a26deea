// tests/sanitize/oob_write.cu: seeded bug for `ptxemu sanitize`: thread
// (100,0,0) of block (0,0,0) writes 4 bytes 64 KiB past a 400-byte
// cudaMalloc: one memcheck error.  A GPU maps that page (it does not
// fault; nor does ptxemu with --access gpu); with --access strict the
// kernel stops there (cudaErrorIllegalAddress) and memcheck reports the
// same access.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void oob_write(int *a, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        a[i] = i;
    }
    if (i == n) {
        a[i + 16384] = 1;    // the bug
    }
}

int main()
{
    int *a;
    cudaMalloc(&a, 100 * sizeof(int));
    oob_write<<<1, 128>>>(a, 100);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(a);
    return 0;
}
