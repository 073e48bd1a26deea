// Warp-wide reductions: redux.sync.add/min/max/and/or/xor (sm_80+), and the
// equivalent shuffle-based reduction for comparison.
extern "C" __global__ void warp_redux(const int *a, const unsigned *b, int *si, unsigned *ui, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? a[i] : 0;
    unsigned u = (i < n) ? b[i] : 0;
    const unsigned full = 0xffffffffu;
    int smin = __reduce_min_sync(full, v);
    int smax = __reduce_max_sync(full, v);
    unsigned add = __reduce_add_sync(full, u);
    unsigned umin = __reduce_min_sync(full, u);
    unsigned umax = __reduce_max_sync(full, u);
    unsigned rand = __reduce_and_sync(full, u);
    unsigned ror = __reduce_or_sync(full, u);
    unsigned rxor = __reduce_xor_sync(full, u);
    if (i < n) {
        si[2 * i] = smin;
        si[2 * i + 1] = smax;
        ui[6 * i + 0] = add;
        ui[6 * i + 1] = umin;
        ui[6 * i + 2] = umax;
        ui[6 * i + 3] = rand;
        ui[6 * i + 4] = ror;
        ui[6 * i + 5] = rxor;
    }
}

// Partial-warp reduction over the active lanes only
extern "C" __global__ void warp_redux_partial(const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned u = b[i];
    unsigned mask = __ballot_sync(__activemask(), u & 1);
    if (u & 1)
        out[i] = __reduce_add_sync(mask, u);
    else
        out[i] = 0;
}

// Block reduction: warp shuffle reduce -> shared -> first warp reduce
extern "C" __global__ void block_sum(const float *a, float *out, int n)
{
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? a[i] : 0.0f;
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < (int)(blockDim.x + 31) / 32) ? partial[lane] : 0.0f;
        for (int off = 16; off > 0; off /= 2)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}
