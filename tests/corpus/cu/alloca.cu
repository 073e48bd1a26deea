// Dynamically sized per-thread stack allocations: alloca() lowers to the
// PTX alloca instruction; stacksave / stackrestore are spelled out in PTX.
#include <cstddef>

__device__ __noinline__ int sum_sorted_prefix(const int *src, int count, int k)
{
    int *tmp = (int *)alloca(count * sizeof(int));
    for (int a = 0; a < count; a++)
        tmp[a] = src[a];
    // insertion sort
    for (int a = 1; a < count; a++) {
        int v = tmp[a], b = a - 1;
        while (b >= 0 && tmp[b] > v) {
            tmp[b + 1] = tmp[b];
            b--;
        }
        tmp[b + 1] = v;
    }
    int s = 0;
    for (int a = 0; a < k && a < count; a++)
        s += tmp[a];
    return s;
}

extern "C" __global__ void alloca_kernel(const int *in, const int *counts, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int count = (counts[i] & 31) + 1;
    int s = 0;
    for (int r = 0; r < 3; r++) {
        // a scoped VLA-like buffer per iteration (stacksave/stackrestore)
        double *buf = (double *)__builtin_alloca((r + 1) * count * sizeof(double));
        for (int k = 0; k < (r + 1) * count; k++)
            buf[k] = in[(i + k) % n] * 0.5;
        s += (int)buf[(r * 7) % ((r + 1) * count)];
    }
    // the same pattern spelled out in PTX: save the stack pointer, allocate,
    // use the buffer, restore
    int t;
    asm volatile("{\n\t"
                 ".reg .u64 sp, buf;\n\t"
                 "stacksave.u64 sp;\n\t"
                 "alloca.u64 buf, %2, 8;\n\t"
                 "st.local.u32 [buf], %1;\n\t"
                 "ld.local.u32 %0, [buf];\n\t"
                 "stackrestore.u64 sp;\n\t"
                 "}"
                 : "=r"(t) : "r"(count), "l"((unsigned long long)count * 4));
    out[i] = s + t + sum_sorted_prefix(in + (i % 4), min(count, n - (i % 4)), 4);
}
