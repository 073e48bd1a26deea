// Address arithmetic: 64-bit pointer math, 32-bit indices (mul.wide),
// negative offsets, 2D/3D indexing, pointer differences, volatile accesses,
// alignment (__align__, alignas), unaligned byte access, generic vs
// explicit address spaces (cvta), and 32-bit shared addressing.
struct __align__(16) Particle {
    float x, y, z;
    int id;
};

struct alignas(8) Packed {
    unsigned char tag;
    unsigned short len;
    unsigned value;
};

extern "C" __global__ void addr_2d3d(const float *vol, float *out, int nx, int ny, int nz,
                                     long long pitch)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    // pitched 64-bit row addressing
    const float *row = (const float *)((const char *)vol + ((long long)z * ny + y) * pitch);
    float c = row[x];
    float l = (x > 0) ? row[x - 1] : c;            // negative offset
    float r = (x + 1 < nx) ? row[x + 1] : c;
    size_t idx = ((size_t)z * ny + y) * nx + x;    // 64-bit linear index
    out[idx] = 0.5f * c + 0.25f * (l + r);
}

extern "C" __global__ void addr_ptr_math(const Particle *p, const Packed *pk, long long *diffs,
                                         float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const Particle *a = p + i;
    const Particle *b = p + (n - 1 - i);
    diffs[i] = b - a;                         // pointer difference (sdiv by 16)
    const char *bytes = (const char *)pk;
    unsigned v = 0;
    for (int k = 0; k < 4; k++)               // unaligned byte-wise read
        v |= (unsigned)(unsigned char)bytes[i * 3 + 1 + k] << (8 * k);
    out[i] = a->x + b->y + (float)pk[i].len + (float)(v & 0xffff) + (float)pk[i].tag;
}

extern "C" __global__ void addr_volatile(volatile int *flag, volatile float *data, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    data[i] = (float)i;           // st.volatile.global
    data[i] += 1.0f;              // ld.volatile + st.volatile
    int f = flag[0];              // ld.volatile
    int g = flag[0];              // second volatile load is not merged
    __shared__ volatile int vs[32];
    vs[threadIdx.x & 31] = f + g;
    out[i] = vs[(threadIdx.x + 1) & 31] + vs[threadIdx.x & 31];
}

// Generic pointers that may point to global, shared or local memory
__device__ __noinline__ int sum_generic(const int *p, int count)
{
    int s = 0;
    for (int k = 0; k < count; k++)
        s += p[k];
    return s;
}

extern "C" __global__ void addr_generic(const int *g, int *out, int n)
{
    __shared__ int sh[64];
    int loc[8];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sh[t & 63] = t;
    for (int k = 0; k < 8; k++)
        loc[k] = k * t;
    __syncthreads();
    const int *which = (i & 1) ? g : ((i & 2) ? sh : loc);
    int cnt = (which == g) ? min(4, n) : 4;
    if (i < n)
        out[i] = sum_generic(which, cnt) + sum_generic(loc, 8) + sum_generic(sh, 8);
}

// Explicit 32-bit addressing of shared memory (.shared::cta with u32 regs)
extern "C" __global__ void addr_shared32(const int *in, int *out, int n)
{
    __shared__ int buf[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    unsigned base = (unsigned)__cvta_generic_to_shared(buf);
    asm volatile("st.shared.u32 [%0], %1;" :: "r"(base + 4 * (t & 127)), "r"((i < n) ? in[i] : 0));
    __syncthreads();
    int v;
    asm volatile("ld.shared.u32 %0, [%1+4];" : "=r"(v) : "r"(base + 4 * ((t + 1) & 126)));
    unsigned long long gaddr;
    asm("cvta.shared.u64 %0, %1;" : "=l"(gaddr) : "l"((unsigned long long)base));
    unsigned long long back;
    asm("cvta.to.shared.u64 %0, %1;" : "=l"(back) : "l"(gaddr));
    if (i < n)
        out[i] = v + (int)(back - base);
}
