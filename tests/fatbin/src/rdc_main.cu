// tests/fatbin/src/rdc_main.cu: first translation unit of the
// relocatable-device-code fixture; calls scale() from rdc_lib.cu.
#include <cstdio>

__device__ int scale(int x);

__global__ void apply(int *p, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        p[i] = scale(p[i]);
    }
}

int main()
{
    int *p;
    cudaMallocManaged(&p, 32 * sizeof(int));
    for (int i = 0; i < 32; i++) {
        p[i] = i;
    }
    apply<<<1, 32>>>(p, 32);
    cudaDeviceSynchronize();
    printf("p[5] = %d\n", p[5]);
    return 0;
}
