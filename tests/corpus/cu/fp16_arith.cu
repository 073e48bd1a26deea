// Half precision (__half / __half2) arithmetic, math and comparisons.
#include <cuda_fp16.h>

extern "C" __global__ void half_scalar(const __half *a, const __half *b, const __half *c,
                                       __half *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = a[i], y = b[i], z = c[i];
    __half r = __hadd(x, y);
    r = __hadd(r, __hsub(x, z));
    r = __hadd(r, __hmul(x, y));
    r = __hadd(r, __hdiv(x, __hadd(y, __float2half(4.0f))));
    r = __hfma(r, y, z);
    r = __hadd(r, __hfma_sat(x, y, z));
    r = __hadd(r, __hadd_sat(x, y));
    r = __hadd(r, __hneg(z));
    r = __hadd(r, __habs(x));
    r = __hadd(r, __hmax(x, y));
    r = __hadd(r, __hmin(x, z));
    r = __hadd(r, __hmax_nan(y, z));
    r = __hadd(r, __hfma_relu(x, y, z));
    r = __hadd(r, __hadd_rn(x, z));
    r = __hadd(r, __hmul_rn(x, z));
    out[i] = r;
}

extern "C" __global__ void half_math(const __half *a, __half *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = a[i];
    __half ax = __habs(x);
    __half r = hsqrt(ax);
    r = __hadd(r, hrsqrt(__hadd(ax, __float2half(1.0f))));
    r = __hadd(r, hrcp(__hadd(ax, __float2half(1.0f))));
    r = __hadd(r, hexp(x));
    r = __hadd(r, hexp2(x));
    r = __hadd(r, hexp10(x));
    r = __hadd(r, hlog(__hadd(ax, __float2half(1.0f))));
    r = __hadd(r, hlog2(__hadd(ax, __float2half(1.0f))));
    r = __hadd(r, hlog10(__hadd(ax, __float2half(1.0f))));
    r = __hadd(r, hsin(x));
    r = __hadd(r, hcos(x));
    r = __hadd(r, htanh(x));
    r = __hadd(r, hfloor(x));
    r = __hadd(r, hceil(x));
    r = __hadd(r, htrunc(x));
    r = __hadd(r, hrint(x));
    out[i] = r;
}

extern "C" __global__ void half2_arith(const __half2 *a, const __half2 *b, const __half2 *c,
                                       __half2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 x = a[i], y = b[i], z = c[i];
    __half2 r = __hadd2(x, y);
    r = __hadd2(r, __hsub2(x, z));
    r = __hadd2(r, __hmul2(x, y));
    r = __hadd2(r, __h2div(x, __hadd2(__habs2(y), __float2half2_rn(1.0f))));
    r = __hfma2(r, y, z);
    r = __hadd2(r, __hfma2_sat(x, y, z));
    r = __hadd2(r, __hfma2_relu(x, y, z));
    r = __hadd2(r, __hneg2(z));
    r = __hadd2(r, __hmax2(x, y));
    r = __hadd2(r, __hmin2_nan(x, y));
    r = __hadd2(r, h2exp(x));
    r = __hadd2(r, h2exp2(y));
    r = __hadd2(r, h2sqrt(__habs2(z)));
    r = __hadd2(r, h2log(__hadd2(__habs2(z), __float2half2_rn(1.0f))));
    r = __hadd2(r, h2sin(x));
    r = __hadd2(r, h2cos(y));
    r = __hadd2(r, h2rcp(__hadd2(__habs2(z), __float2half2_rn(2.0f))));
    r = __hadd2(r, __lowhigh2highlow(x));
    r = __hadd2(r, __halves2half2(__low2half(y), __high2half(z)));
    r = __hadd2(r, __hcmadd(x, y, z));
    out[i] = r;
}

extern "C" __global__ void half_compare(const __half *a, const __half *b, const __half2 *c,
                                        const __half2 *d, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = a[i], y = b[i];
    unsigned bits = 0;
    bits |= __heq(x, y) << 0;
    bits |= __hne(x, y) << 1;
    bits |= __hlt(x, y) << 2;
    bits |= __hle(x, y) << 3;
    bits |= __hgt(x, y) << 4;
    bits |= __hge(x, y) << 5;
    bits |= __hequ(x, y) << 6;
    bits |= __hltu(x, y) << 7;
    bits |= __hisnan(x) << 8;
    bits |= (__hisinf(y) != 0) << 9;
    __half2 p = c[i], q = d[i];
    bits |= __hbeq2(p, q) << 10;
    bits |= __hblt2(p, q) << 11;
    bits |= __hbgeu2(p, q) << 12;
    __half2 m = __hgt2(p, q);
    __half2 ne = __hne2(p, q);
    __half2 nan = __hisnan2(p);
    bits |= (__low2float(m) != 0.0f) << 13;
    bits |= (__high2float(ne) != 0.0f) << 14;
    bits |= (__low2float(nan) != 0.0f) << 15;
    bits |= (__hgt2_mask(p, q) & 0xffu) << 16;
    bits |= (__hle2_mask(p, q) >> 24) << 24;
    out[i] = bits;
}

// Dot-product style reduction of half2 vectors with fp32 accumulate
extern "C" __global__ void half2_dot(const __half2 *a, const __half2 *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 acc = __float2half2_rn(0.0f);
    for (int k = 0; k < 8; k++)
        acc = __hfma2(a[i * 8 + k], b[i * 8 + k], acc);
    float2 f = __half22float2(acc);
    out[i] = f.x + f.y;
}
