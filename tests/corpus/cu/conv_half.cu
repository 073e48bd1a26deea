// Conversions to and from half, bfloat16 and fp8 types, including packing,
// rounding modes and saturation.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

extern "C" __global__ void conv_half(const float *a, const double *b, const int *c,
                                     __half *h, float *f, int *oi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    double y = b[i];
    int z = c[i];
    h[8 * i + 0] = __float2half_rn(x);
    h[8 * i + 1] = __float2half_rz(x);
    h[8 * i + 2] = __float2half_rd(x);
    h[8 * i + 3] = __float2half_ru(x);
    h[8 * i + 4] = __double2half(y);
    h[8 * i + 5] = __int2half_rn(z);
    h[8 * i + 6] = __uint2half_rz((unsigned)z);
    h[8 * i + 7] = __short2half_rd((short)z);
    __half hx = __float2half(x);
    f[2 * i] = __half2float(hx);
    __half2 p = __floats2half2_rn(x, (float)y);
    float2 q = __half22float2(p);
    f[2 * i + 1] = q.x - q.y;
    oi[4 * i + 0] = __half2int_rn(hx);
    oi[4 * i + 1] = __half2int_rz(hx) + __half2int_rd(hx) + __half2int_ru(hx);
    oi[4 * i + 2] = (int)__half2uint_rz(hx) + __half2short_rn(hx) + (int)__half2ull_rz(hx);
    oi[4 * i + 3] = (int)__half_as_ushort(hx) + __half2ll_rz(hx);
}

extern "C" __global__ void conv_bf16(const float *a, const double *b, const int *c,
                                     __nv_bfloat16 *h, float *f, int *oi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    double y = b[i];
    int z = c[i];
    h[8 * i + 0] = __float2bfloat16(x);
    h[8 * i + 1] = __float2bfloat16_rz(x);
    h[8 * i + 2] = __float2bfloat16_rd(x);
    h[8 * i + 3] = __float2bfloat16_ru(x);
    h[8 * i + 4] = __double2bfloat16(y);
    h[8 * i + 5] = __int2bfloat16_rn(z);
    h[8 * i + 6] = __uint2bfloat16_rz((unsigned)z);
    h[8 * i + 7] = __float2bfloat16_rn(x * 2.0f);
    __nv_bfloat16 bx = __float2bfloat16(x);
    f[2 * i] = __bfloat162float(bx);
    __nv_bfloat162 p = __floats2bfloat162_rn(x, (float)y);
    float2 q = __bfloat1622float2(p);
    f[2 * i + 1] = q.x * q.y;
    oi[2 * i + 0] = __bfloat162int_rn(bx) + __bfloat162int_rz(bx);
    oi[2 * i + 1] = (int)__bfloat16_as_ushort(bx) + __bfloat162short_rd(bx);
}

extern "C" __global__ void conv_half_bf16(const __half *a, const __nv_bfloat16 *b,
                                          __half *oh, __nv_bfloat16 *ob, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    oh[i] = __float2half(__bfloat162float(b[i]));
    ob[i] = __float2bfloat16(__half2float(a[i]));
}

// FP8 (e4m3 / e5m2) conversions. On compute_90 these map onto
// cvt.rn.satfinite.e4m3x2.f32 and cvt.rn.f16x2.e4m3x2; on compute_80 they are
// emulated with integer code.
extern "C" __global__ void conv_fp8(const float *a, const float *b, unsigned short *packed,
                                    float *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float2 v = make_float2(a[i], b[i]);
    __nv_fp8x2_storage_t e4 = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
    __nv_fp8x2_storage_t e5 = __nv_cvt_float2_to_fp8x2(v, __NV_NOSAT, __NV_E5M2);
    packed[2 * i] = e4;
    packed[2 * i + 1] = e5;
    __half2_raw h4 = __nv_cvt_fp8x2_to_halfraw2(e4, __NV_E4M3);
    __half2_raw h5 = __nv_cvt_fp8x2_to_halfraw2(e5, __NV_E5M2);
    __half2 hh4(h4), hh5(h5);
    float2 f4 = __half22float2(hh4);
    float2 f5 = __half22float2(hh5);
    __nv_fp8_e4m3 single(a[i]);
    back[i] = f4.x + f4.y + f5.x + f5.y + float(single);
}
