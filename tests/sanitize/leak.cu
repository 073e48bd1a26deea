// tests/sanitize/leak.cu: seeded bug for `ptxemu sanitize --leak-check
// full`: two cudaMalloc'd buffers (1000 and 24 bytes) never freed, one
// (4096 bytes) freed; the kernel itself is correct.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(char *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i] = (char)i;
    }
}

int main()
{
    char *a, *b, *c;
    cudaMalloc(&a, 1000);
    cudaMalloc(&b, 4096);
    cudaMalloc(&c, 24);
    fill<<<4, 256>>>(a, 1000);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(b);
    return 0;
}
