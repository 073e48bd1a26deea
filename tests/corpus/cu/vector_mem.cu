// Vector memory accesses: ld/st .v2/.v4 of f32, s32, f64, s64, u8, u16;
// vector types in shared memory and vector parameters.
extern "C" __global__ void vec_float4(const float4 *a, const float4 *b, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 x = a[i], y = b[i];
    out[i] = make_float4(x.x + y.w, x.y * y.z, x.z - y.y, x.w / (y.x + 1.0f));
}

extern "C" __global__ void vec_int2_double2(const int2 *a, const double2 *b, int2 *oi, double2 *od,
                                            int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int2 x = a[i];
    double2 y = b[i];
    oi[i] = make_int2(x.y, x.x + x.y);
    od[i] = make_double2(y.x * x.x, y.y + x.y);
}

extern "C" __global__ void vec_small_types(const uchar4 *a, const short2 *b, const longlong2 *c,
                                           uchar4 *oa, short4 *ob, ulonglong2 *oc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uchar4 x = a[i];
    short2 y = b[i];
    longlong2 z = c[i];
    oa[i] = make_uchar4(x.w, x.z, x.y, x.x);
    ob[i] = make_short4(y.x, y.y, (short)(x.x + y.x), (short)(x.w - y.y));
    oc[i] = make_ulonglong2((unsigned long long)(z.x + z.y), (unsigned long long)(z.x ^ y.x));
}

extern "C" __global__ void vec_param(float4 scale, int2 offs, double2 dd, const float4 *a,
                                     float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + offs.x;
    if (i >= n)
        return;
    float4 v = a[i];
    out[i - offs.x] = make_float4(v.x * scale.x + (float)dd.x, v.y * scale.y + offs.y,
                                  v.z * scale.z + (float)dd.y, v.w * scale.w);
}

// Shared-memory vector traffic: transpose of float2 pairs
extern "C" __global__ void vec_shared(const float2 *a, float2 *out, int n)
{
    __shared__ float2 sh[256];
    __shared__ int4 si[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sh[t] = (i < n) ? a[i] : make_float2(0.0f, 0.0f);
    if (t < 64)
        si[t] = make_int4(t, t + 1, t + 2, t + 3);
    __syncthreads();
    float2 v = sh[255 - t];
    int4 w = si[t & 63];
    if (i < n)
        out[i] = make_float2(v.y + w.x, v.x + w.w);
}
