// Non-inlined device functions: .func with scalar, vector, struct and pointer
// parameters/returns, multiple return paths, and call chains (call.uni).
// regen: -lineinfo
struct Vec3 {
    float x, y, z;
};

struct Mixed {
    char c;
    double d;
    short s;
    int arr[3];
};

__device__ __noinline__ int add3(int a, int b, int c)
{
    return a + b + c;
}

__device__ __noinline__ float dot3(Vec3 a, Vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

__device__ __noinline__ Vec3 cross3(Vec3 a, Vec3 b)
{
    Vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return r;
}

__device__ __noinline__ Mixed make_mixed(int v)
{
    Mixed m;
    m.c = (char)v;
    m.d = v * 0.5;
    m.s = (short)(v * 3);
    m.arr[0] = v;
    m.arr[1] = v + 1;
    m.arr[2] = v + 2;
    return m;
}

__device__ __noinline__ void scale_inplace(float *p, int count, float s)
{
    for (int k = 0; k < count; k++)
        p[k] *= s;
}

__device__ __noinline__ double mixed_sum(Mixed m)
{
    return m.c + m.d + m.s + m.arr[0] + m.arr[1] + m.arr[2];
}

__device__ __noinline__ int classify(int v)
{
    if (v < 0)
        return -1;
    if (v == 0)
        return 0;
    if (v < 100)
        return 1;
    return 2;
}

__device__ __noinline__ long long wide_args(char a, unsigned char b, short c, unsigned short d,
                                            int e, unsigned f, long long g, float h, double k)
{
    return a + b + c + d + e + f + g + (long long)h + (long long)k;
}

__device__ __noinline__ float2 pair_op(float2 a, int4 b)
{
    return make_float2(a.x * b.x + b.y, a.y * b.z - b.w);
}

__device__ __noinline__ void no_args_void()
{
    __threadfence_block();
}

extern "C" __global__ void calls_kernel(const float *pts, const int *iv, float *fout,
                                        double *dout, long long *lout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Vec3 a = {pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]};
    Vec3 b = {a.z, a.x, a.y};
    Vec3 c = cross3(a, b);
    float d = dot3(c, a) + dot3(a, b);
    float local[4] = {d, c.x, c.y, c.z};
    scale_inplace(local, 4, 0.5f);
    int v = iv[i];
    int s = add3(v, classify(v), classify(-v));
    Mixed m = make_mixed(s);
    no_args_void();
    float2 p = pair_op(make_float2(d, local[1]), make_int4(v, s, 2, 3));
    fout[i] = local[0] + local[1] + local[2] + local[3] + p.x + p.y;
    dout[i] = mixed_sum(m);
    lout[i] = wide_args((char)v, (unsigned char)s, (short)v, (unsigned short)s, v, (unsigned)s,
                        (long long)v << 33, d, (double)d * 2.0);
}
