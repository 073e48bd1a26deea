// Warp shuffles: shfl.sync.idx/up/down/bfly for 32- and 64-bit values, with
// full and partial masks and sub-warp widths.
extern "C" __global__ void warp_shuffle_basic(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? a[i] : 0;
    int lane = threadIdx.x & 31;
    int r = __shfl_sync(0xffffffffu, v, 0);              // broadcast
    r += __shfl_sync(0xffffffffu, v, (lane + 5) & 31);  // rotate
    r += __shfl_up_sync(0xffffffffu, v, 1);
    r += __shfl_down_sync(0xffffffffu, v, 2);
    r += __shfl_xor_sync(0xffffffffu, v, 16);
    r += __shfl_sync(0xffffffffu, v, lane ^ 1, 8);      // width 8
    r += __shfl_up_sync(0xffffffffu, v, 3, 16);
    r += __shfl_down_sync(0xffffffffu, v, 1, 4);
    if (i < n)
        out[i] = r;
}

extern "C" __global__ void warp_shuffle_types(const float *a, const double *b,
                                              const long long *c, float *fo, double *dout,
                                              long long *lo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float f = (i < n) ? a[i] : 0.0f;
    double d = (i < n) ? b[i] : 0.0;
    long long l = (i < n) ? c[i] : 0;
    // butterfly reduction
    for (int off = 16; off > 0; off >>= 1) {
        f += __shfl_xor_sync(0xffffffffu, f, off);
        d += __shfl_xor_sync(0xffffffffu, d, off);
    }
    // inclusive scan
    for (int off = 1; off < 32; off <<= 1) {
        long long t = __shfl_up_sync(0xffffffffu, l, off);
        if ((threadIdx.x & 31) >= off)
            l += t;
    }
    if (i < n) {
        fo[i] = f;
        dout[i] = d;
        lo[i] = l;
    }
}

// Shuffle within the currently active lanes only (partial mask)
extern "C" __global__ void warp_shuffle_partial(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = a[i];
    int lane = threadIdx.x & 31;
    if (lane < 16) {
        unsigned mask = 0x0000ffffu;
        v += __shfl_down_sync(mask, v, 8, 16);
        v += __shfl_down_sync(mask, v, 4, 16);
        out[i] = v;
    } else {
        unsigned mask = 0xffff0000u;
        v *= __shfl_sync(mask, v, 16);
        out[i] = v;
    }
}

// Raw PTX shfl.sync with the predicate output
extern "C" __global__ void warp_shuffle_pred(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? a[i] : 0;
    int r, valid;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "shfl.sync.up.b32 %0|p, %2, 4, 0, 0xffffffff;\n\t"
                 "selp.s32 %1, 1, 0, p;\n\t}"
                 : "=r"(r), "=r"(valid) : "r"(v));
    if (i < n)
        out[i] = valid ? r : -1;
}
