// Barrier reductions: __syncthreads_count / _and / _or (bar.red.popc/and/or),
// and named barriers with explicit thread counts (bar.sync id, n / bar.arrive).
extern "C" __global__ void barrier_reductions(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? a[i] : 0;
    int cnt = __syncthreads_count(v > 0);
    int all = __syncthreads_and(v != 0);
    int any = __syncthreads_or(v < 0);
    if (i < n)
        out[i] = cnt * 4 + all * 2 + any;
}

// Producer/consumer warps synchronised by named barrier 1.
// Warp 0 produces, warp 1 consumes; blockDim.x must be 64.
extern "C" __global__ void named_barriers(const int *a, int *out, int n)
{
    __shared__ int stage[32];
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    int base = blockIdx.x * 32;
    if (warp == 0) {
        stage[lane] = (base + lane < n) ? a[base + lane] * 2 : 0;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        if (base + lane < n)
            out[base + lane] = stage[31 - lane] + 1;
    }
    asm volatile("barrier.sync.aligned 2;" ::: "memory");
    __syncthreads();
}

// bar.red with a user predicate in PTX
extern "C" __global__ void barrier_red_asm(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? a[i] : 0;
    int cnt;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.gt.s32 p, %1, 10;\n\t"
                 "bar.red.popc.u32 %0, 0, p;\n\t}"
                 : "=r"(cnt) : "r"(v) : "memory");
    if (i < n)
        out[i] = cnt;
}
