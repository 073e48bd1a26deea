// tests/fatbin/src/vadd.cu: a small program whose fat binary the fatbin
// tests read (see ../regen.sh).
#include <cstdio>

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

int main()
{
    const int n = 64;
    float *a, *b, *c;
    cudaMallocManaged(&a, n * sizeof(float));
    cudaMallocManaged(&b, n * sizeof(float));
    cudaMallocManaged(&c, n * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 2 * i;
    }
    vadd<<<2, 32>>>(a, b, c, n);
    cudaDeviceSynchronize();
    printf("c[10] = %g\n", c[10]);
    return 0;
}
