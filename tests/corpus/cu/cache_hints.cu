// Load/store cache operators: ld.global.nc (__ldg), .cs/.cg/.ca/.lu/.cv,
// st.cs/.wb/.cg/.wt, L2 eviction-priority / prefetch qualifiers, prefetch.
extern "C" __global__ void cache_loads(const float *__restrict__ a, const float4 *b,
                                       const int *c, const double *d, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float r = __ldg(&a[i]);
    float4 v = __ldg(&b[i]);
    r += v.x + v.y + v.z + v.w;
    r += (float)__ldcs(&c[i]);
    r += (float)__ldcg(&c[(i + 1) % n]);
    r += (float)__ldca(&c[(i + 2) % n]);
    r += (float)__ldlu(&c[(i + 3) % n]);
    r += (float)__ldcv(&c[(i + 4) % n]);
    r += (float)__ldg(&d[i]);
    r += (float)__ldcs(&d[(i + 1) % n]);
    out[i] = r;
}

extern "C" __global__ void cache_stores(const float *a, float *o1, float4 *o2, int *o3, double *o4,
                                        int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    __stcs(&o1[i], x);
    __stwb(&o1[n + i], x * 2.0f);
    __stcg(&o1[2 * n + i], x * 3.0f);
    __stwt(&o1[3 * n + i], x * 4.0f);
    __stcs(&o2[i], make_float4(x, x, x, x));
    __stcg(&o3[i], (int)x);
    __stwt(&o4[i], (double)x);
}

extern "C" __global__ void cache_prefetch(const float *a, float *out, int n, int dist)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int j = i + dist;
    if (j < n) {
        asm volatile("prefetch.global.L2 [%0];" :: "l"(a + j));
        asm volatile("prefetch.global.L1 [%0];" :: "l"(a + j));
        asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(a + j));
        asm volatile("prefetchu.L1 [%0];" :: "l"(a + j));
        asm volatile("prefetch.L1 [%0];" :: "l"(out + i));
    }
    float v;
    asm volatile("ld.global.L1::evict_first.f32 %0, [%1];" : "=f"(v) : "l"(a + i));
    float w;
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.f32 %0, [%1];" : "=f"(w) : "l"(a + (i ^ 1) % n));
    unsigned long long policy;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    float u;
    asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(u) : "l"(a + i), "l"(policy));
    asm volatile("st.global.L1::no_allocate.f32 [%0], %1;" :: "l"(out + i), "f"(v + w + u));
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;"
                 :: "l"((void *)((size_t)(a + j - dist) & ~(size_t)127)));
    asm volatile("discard.global.L2 [%0], 128;" :: "l"((void *)((size_t)(out + n) & ~(size_t)127)));
}
