// Dynamic shared memory (extern __shared__) carved into several typed arrays,
// and a block-wide exclusive scan.
extern "C" __global__ void dyn_shared_scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = (i < n) ? in[i] : 0;
    __syncthreads();
    // Hillis-Steele inclusive scan with double buffering
    int pout = 0, pin = 1;
    for (int off = 1; off < (int)blockDim.x; off <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        int v = buf[pin * blockDim.x + t];
        if (t >= off)
            v += buf[pin * blockDim.x + t - off];
        buf[pout * blockDim.x + t] = v;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[pout * blockDim.x + t] - ((i < n) ? in[i] : 0);
}

// Several arrays in one dynamic allocation; offsets computed at run time
extern "C" __global__ void dyn_shared_multi(const float *a, const int *b, float *out, int n, int m)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *fa = reinterpret_cast<float *>(smem);
    int *ib = reinterpret_cast<int *>(smem + m * sizeof(float));
    double *dc = reinterpret_cast<double *>(smem + ((m * (sizeof(float) + sizeof(int)) + 7) & ~7));
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < m) {
        fa[t] = (i < n) ? a[i] : 0.0f;
        ib[t] = (i < n) ? b[i] : 0;
        dc[t] = 0.5 * t;
    }
    __syncthreads();
    if (i < n && t < m) {
        int j = ib[t] % m;
        if (j < 0)
            j += m;
        out[i] = fa[j] * (float)dc[m - 1 - t];
    }
}

// Address-space tests and conversions on a generic pointer that points to
// shared or global memory depending on the thread (isspacep, cvta.to.shared,
// cvta.shared)
extern "C" __global__ void dyn_shared_generic(const int *a, int *out, unsigned *addrs, int n)
{
    extern __shared__ int sm[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sm[t] = (i < n) ? a[i] : 0;
    __syncthreads();
    const int *p = (t & 1) ? &sm[t ^ 1] : a + (i < n ? i : 0);   // generic pointer
    int is_shared = __isShared(p);
    int is_global = __isGlobal(p);
    unsigned saddr = is_shared ? (unsigned)__cvta_generic_to_shared(p) : 0u;
    const int *q = is_shared ? (const int *)__cvta_shared_to_generic(saddr ^ 4u) : p;
    if (i < n) {
        out[i] = *q + is_shared * 10 + is_global * 100;
        addrs[i] = saddr;
    }
}
