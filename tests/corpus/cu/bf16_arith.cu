// bfloat16 (__nv_bfloat16 / __nv_bfloat162) arithmetic, math and comparisons.
#include <cuda_bf16.h>

extern "C" __global__ void bf16_scalar(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                       const __nv_bfloat16 *c, __nv_bfloat16 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat16 x = a[i], y = b[i], z = c[i];
    __nv_bfloat16 r = __hadd(x, y);
    r = __hadd(r, __hsub(x, z));
    r = __hadd(r, __hmul(x, y));
    r = __hadd(r, __hdiv(x, __hadd(__habs(y), __float2bfloat16(1.0f))));
    r = __hfma(r, y, z);
    r = __hadd(r, __hfma_relu(x, y, z));
    r = __hadd(r, __hneg(z));
    r = __hadd(r, __hmax(x, y));
    r = __hadd(r, __hmin_nan(x, z));
    r = __hadd(r, __hadd_sat(x, y));
    r = __hadd(r, __hmul_rn(x, y));
    out[i] = r;
}

extern "C" __global__ void bf16_math(const __nv_bfloat16 *a, __nv_bfloat16 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat16 x = a[i];
    __nv_bfloat16 one = __float2bfloat16(1.0f);
    __nv_bfloat16 ax1 = __hadd(__habs(x), one);
    __nv_bfloat16 r = hsqrt(ax1);
    r = __hadd(r, hrsqrt(ax1));
    r = __hadd(r, hrcp(ax1));
    r = __hadd(r, hexp(x));
    r = __hadd(r, hexp2(x));
    r = __hadd(r, hlog(ax1));
    r = __hadd(r, hlog2(ax1));
    r = __hadd(r, hsin(x));
    r = __hadd(r, hcos(x));
    r = __hadd(r, htanh(x));
    r = __hadd(r, hfloor(x));
    r = __hadd(r, hceil(x));
    r = __hadd(r, hrint(x));
    out[i] = r;
}

extern "C" __global__ void bf162_arith(const __nv_bfloat162 *a, const __nv_bfloat162 *b,
                                       const __nv_bfloat162 *c, __nv_bfloat162 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat162 x = a[i], y = b[i], z = c[i];
    __nv_bfloat162 r = __hadd2(x, y);
    r = __hadd2(r, __hsub2(x, z));
    r = __hadd2(r, __hmul2(x, y));
    r = __hfma2(r, y, z);
    r = __hadd2(r, __hfma2_relu(x, y, z));
    r = __hadd2(r, __hneg2(z));
    r = __hadd2(r, __habs2(x));
    r = __hadd2(r, __hmax2(x, y));
    r = __hadd2(r, __hmin2(x, z));
    r = __hadd2(r, h2exp(x));
    r = __hadd2(r, h2sqrt(__habs2(y)));
    r = __hadd2(r, h2sin(z));
    r = __hadd2(r, __lowhigh2highlow(x));
    out[i] = r;
}

extern "C" __global__ void bf16_compare(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                        const __nv_bfloat162 *c, const __nv_bfloat162 *d,
                                        unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat16 x = a[i], y = b[i];
    unsigned bits = 0;
    bits |= __heq(x, y) << 0;
    bits |= __hne(x, y) << 1;
    bits |= __hlt(x, y) << 2;
    bits |= __hge(x, y) << 3;
    bits |= __hgtu(x, y) << 4;
    bits |= __hisnan(x) << 5;
    __nv_bfloat162 p = c[i], q = d[i];
    bits |= __hbeq2(p, q) << 6;
    bits |= __hbgt2(p, q) << 7;
    __nv_bfloat162 m = __hle2(p, q);
    bits |= (__low2float(m) != 0.0f) << 8;
    bits |= (__hlt2_mask(p, q) & 0xffffu) << 16;
    out[i] = bits;
}
