// Kernel parameters: structs passed by value (.param .align N .b8 x[K]),
// many parameters, __grid_constant__, __launch_bounds__ (.maxntid,
// .minnctapersm, and .maxclusterrank on compute_90), __maxnreg__ (.maxnreg),
// __restrict__ pointers.
struct Config {
    int rows;
    int cols;
    float alpha;
    float beta;
    double gamma;
    char tag[5];
};

struct Small {
    short a;
    unsigned char b;
};

extern "C" __global__ void __launch_bounds__(256, 2)
struct_by_value(Config cfg, Small s, const float *__restrict__ in, float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= cfg.rows * cfg.cols)
        return;
    out[i] = cfg.alpha * in[i] + cfg.beta + (float)cfg.gamma + cfg.tag[i % 5] + s.a * s.b;
}

extern "C" __global__ void __launch_bounds__(128)
many_params(const int *p0, const int *p1, const int *p2, const int *p3, int *p4, char c5,
            unsigned char c6, short s7, unsigned short s8, int i9, unsigned u10, long long l11,
            unsigned long long l12, float f13, double d14, bool b15, const float *p16,
            float f17, int i18, int i19, int i20, int i21, int i22, int i23, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long r = p0[i] + p1[i] + p2[i] + p3[i] + c5 + c6 + s7 + s8 + i9 + u10 + l11 + (long long)l12;
    r += (long long)(f13 * p16[i] + f17) + (long long)d14 + (b15 ? 1 : 0);
    r += i18 * 2 + i19 * 3 + i20 * 5 + i21 * 7 + i22 * 11 + i23 * 13;
    p4[i] = (int)r;
}

struct Big {
    float table[64];
    int count;
};

// Large by-value struct accessed with a dynamic index: __grid_constant__ lets
// the kernel take its address without a local copy.
extern "C" __global__ void grid_constant_param(const __grid_constant__ Big big, const int *idx,
                                               float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *t = big.table;
    out[i] = t[idx[i] & 63] * big.count;
}

// Without __grid_constant__: dynamic index forces a local copy of the param
extern "C" __global__ void param_copy(Big big, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    big.table[idx[i] & 63] += 1.0f;
    out[i] = big.table[(idx[i] + 1) & 63] + big.table[idx[i] & 63];
}

// Occupancy hints through __maxnreg__ and __launch_bounds__ with 3 args (the
// third, max blocks per cluster -> .maxclusterrank, needs compute_90)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define BOUNDS3 __launch_bounds__(64, 4, 2)
#else
#define BOUNDS3 __launch_bounds__(64, 4)
#endif
extern "C" __global__ void BOUNDS3 bounds3(float *out)
{
    out[blockIdx.x * 64 + threadIdx.x] = (float)threadIdx.x;
}

extern "C" __global__ void __maxnreg__(32) maxnreg_kernel(float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f / (threadIdx.x + 1);
}

// Empty kernel and a kernel with no parameters
extern "C" __global__ void empty_kernel() {}
