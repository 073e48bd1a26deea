// examples/cuda/printf.cu: device printf with the common conversions.
// The program checks only that the launches succeed; tests/exec.test
// compares its whole output with printf.expected.
#include "check.h"

__global__ void formats(int i, unsigned u, long long ll, double d,
                        const char *label)
{
    printf("int %d unsigned %u hex %x\n", i, u, u);
    printf("long long %lld, padded [%5d] [%-5d] [%05d]\n", ll, i, i, i);
    printf("double %f %.3e %g\n", d, d, d);
    printf("float promoted %.2f, char %c, string %s\n", 1.25f, 'Q', label);
    printf("percent %% and no arguments\n");
}

// One line per thread of one warp; lanes print in lane order.
__global__ void lanes(void)
{
    printf("block %d thread %d of %d\n", blockIdx.x, threadIdx.x,
           blockDim.x);
}

// A loop in one thread: the lines come out in program order.
__global__ void counting(int n)
{
    for (int k = 1; k <= n; k++) {
        printf("%d squared is %d\n", k, k * k);
    }
}

int main()
{
    printf("host: before the kernels\n");
    fflush(stdout);
    char *label;
    CHECK(cudaMalloc(&label, 8));
    CHECK(cudaMemcpy(label, "device", 7, cudaMemcpyHostToDevice));
    formats<<<1, 1>>>(-42, 3735928559u, -1234567890123ll, 3.14159265358979,
                      label);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    lanes<<<1, 4>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    counting<<<1, 1>>>(4);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("host: after the kernels\n");
    CHECK(cudaFree(label));
    return passed();
}
