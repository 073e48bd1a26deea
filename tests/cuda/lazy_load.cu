// Lazy per-kernel loading (tests/samples.test, built for sm_90 and run
// with --arch sm_90): kernel `oob` holds an instruction the emulator does
// not run (fma.rn.oob.f16, PTX ISA 8.1), which fails that kernel alone,
// when it is launched or its attributes are queried, with
// cudaErrorNotSupported; `twice` in the same module runs.  Prints PASSED
// when every call returned what CUDA defines.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void oob(unsigned short *h)
{
    unsigned short d;
    asm volatile("fma.rn.oob.f16 %0, %1, %2, %3;"
                 : "=h"(d) : "h"(h[0]), "h"(h[1]), "h"(h[2]));
    h[3] = d;
}

__global__ void twice(int *p)
{
    p[threadIdx.x] = 2 * (int)threadIdx.x;
}

int main()
{
    int bad = 0;
    unsigned short *h;
    int *p;
    cudaMalloc(&h, 8);
    cudaMalloc(&p, 32 * sizeof(int));
    oob<<<1, 1>>>(h);
    cudaError_t e = cudaGetLastError();
    if (e != cudaErrorNotSupported) {
        printf("launch of oob: %s\n", cudaGetErrorName(e));
        bad = 1;
    }
    cudaFuncAttributes a;
    e = cudaFuncGetAttributes(&a, oob);
    if (e != cudaErrorNotSupported) {
        printf("attributes of oob: %s\n", cudaGetErrorName(e));
        bad = 1;
    }
    cudaGetLastError();
    if ((e = cudaFuncGetAttributes(&a, twice)) != cudaSuccess) {
        printf("attributes of twice: %s\n", cudaGetErrorName(e));
        bad = 1;
    }
    twice<<<1, 32>>>(p);
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) {
        printf("twice: %s\n", cudaGetErrorName(e));
        bad = 1;
    }
    int out[32];
    cudaMemcpy(out, p, sizeof(out), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        if (out[i] != 2 * i) {
            printf("twice[%d] = %d\n", i, out[i]);
            bad = 1;
        }
    if (!bad)
        printf("PASSED\n");
    return bad;
}
