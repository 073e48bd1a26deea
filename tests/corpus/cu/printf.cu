// Device printf (vprintf with a local argument buffer) using several format
// conversions and argument types.
#include <cstdio>

extern "C" __global__ void printf_kernel(const int *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (i == 0)
        printf("ptxemu printf test: n=%d\n", n);
    int v = a[i];
    float f = b[i];
    printf("thread %d block %u: int=%d hex=%08x char=%c\n", i, blockIdx.x, v, v, 'A' + (v & 15));
    printf("  float=%f sci=%e g=%g double=%.3lf\n", f, f, (double)f * 2.0, (double)f / 3.0);
    printf("  ll=%lld ull=%llu ptr=%p str=%s\n", (long long)v << 20,
           (unsigned long long)v * 1000000007ull, (void *)(a + i), (v & 1) ? "odd" : "even");
    printf("%s\n", "plain");
}
