// Conversions between integer and floating-point types with every rounding
// mode, saturation, and bit reinterpretation (cvt.*, mov.b32/b64).
#include <cstdint>

extern "C" __global__ void conv_float_to_int(const float *a, int *si, unsigned *ui,
                                             long long *sl, unsigned long long *ul, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    si[4 * i + 0] = __float2int_rn(x);
    si[4 * i + 1] = __float2int_rz(x);
    si[4 * i + 2] = __float2int_rd(x);
    si[4 * i + 3] = __float2int_ru(x);
    ui[4 * i + 0] = __float2uint_rn(x);
    ui[4 * i + 1] = __float2uint_rz(x);
    ui[4 * i + 2] = __float2uint_rd(x);
    ui[4 * i + 3] = __float2uint_ru(x);
    sl[2 * i + 0] = __float2ll_rn(x);
    sl[2 * i + 1] = __float2ll_rd(x) + __float2ll_ru(x) + __float2ll_rz(x);
    ul[2 * i + 0] = __float2ull_rn(x);
    ul[2 * i + 1] = __float2ull_rd(x) + __float2ull_ru(x) + __float2ull_rz(x);
}

extern "C" __global__ void conv_double_to_x(const double *a, int *si, unsigned *ui, long long *sl,
                                            unsigned long long *ul, float *f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i];
    si[i] = __double2int_rn(x) + __double2int_rz(x) + __double2int_rd(x) + __double2int_ru(x);
    ui[i] = __double2uint_rn(x) + __double2uint_rz(x) + __double2uint_rd(x) + __double2uint_ru(x);
    sl[i] = __double2ll_rn(x) + __double2ll_rz(x) + __double2ll_rd(x) + __double2ll_ru(x);
    ul[i] = __double2ull_rn(x) + __double2ull_rz(x) + __double2ull_rd(x) + __double2ull_ru(x);
    f[4 * i + 0] = __double2float_rn(x);
    f[4 * i + 1] = __double2float_rz(x);
    f[4 * i + 2] = __double2float_rd(x);
    f[4 * i + 3] = __double2float_ru(x);
}

extern "C" __global__ void conv_int_to_float(const int *a, const unsigned long long *b,
                                             float *f, double *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    unsigned ux = (unsigned)x;
    long long lx = (long long)b[i];
    unsigned long long ulx = b[i];
    f[8 * i + 0] = __int2float_rn(x);
    f[8 * i + 1] = __int2float_rz(x) + __int2float_rd(x) + __int2float_ru(x);
    f[8 * i + 2] = __uint2float_rn(ux) + __uint2float_rz(ux) + __uint2float_rd(ux) + __uint2float_ru(ux);
    f[8 * i + 3] = __ll2float_rn(lx) + __ll2float_rz(lx) + __ll2float_rd(lx) + __ll2float_ru(lx);
    f[8 * i + 4] = __ull2float_rn(ulx) + __ull2float_rz(ulx) + __ull2float_rd(ulx) + __ull2float_ru(ulx);
    f[8 * i + 5] = (float)(short)x + (float)(unsigned char)x;
    f[8 * i + 6] = (float)x;
    f[8 * i + 7] = (float)ulx;
    d[4 * i + 0] = __int2double_rn(x) + __uint2double_rn(ux);
    d[4 * i + 1] = __ll2double_rn(lx) + __ll2double_rz(lx) + __ll2double_rd(lx) + __ll2double_ru(lx);
    d[4 * i + 2] = __ull2double_rn(ulx) + __ull2double_rz(ulx) + __ull2double_rd(ulx) + __ull2double_ru(ulx);
    d[4 * i + 3] = (double)(signed char)x;
}

extern "C" __global__ void conv_int_widths(const long long *a, signed char *s8, unsigned char *u8,
                                           short *s16, unsigned short *u16, int *s32,
                                           unsigned long long *u64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i];
    s8[i] = (signed char)x;
    u8[i] = (unsigned char)(x >> 3);
    s16[i] = (short)(x >> 5);
    u16[i] = (unsigned short)(x >> 7);
    s32[i] = (int)(signed char)(x >> 11) + (int)(short)(x >> 13) + (int)(unsigned short)x;
    u64[i] = (unsigned long long)(unsigned)(x >> 17) + (unsigned long long)(long long)(int)x;
}

extern "C" __global__ void conv_bits(const float *a, const double *b, int *oi, float *of,
                                     long long *ol, double *od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    double y = b[i];
    int xi = __float_as_int(x);
    unsigned xu = __float_as_uint(x);
    oi[i] = xi ^ (int)(xu >> 1);
    of[i] = __int_as_float(xi + 1) + __uint_as_float(xu & 0x7fffffffu);
    long long yl = __double_as_longlong(y);
    ol[i] = yl + __double2hiint(y) + __double2loint(y);
    od[i] = __longlong_as_double(yl ^ 0x8000000000000000ll) + __hiloint2double(xi, 0);
}

// Float-to-float rounding (cvt.rni.f32.f32 ...), saturation, and cvt via PTX
extern "C" __global__ void conv_round_sat(const float *a, float *out, int *sat, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    out[i] = rintf(x) + floorf(x) * 2.0f + ceilf(x) * 3.0f + truncf(x) * 4.0f + __saturatef(x);
    int s1, s2;
    unsigned short s3;
    float f1;
    asm("cvt.rni.sat.s32.f32 %0, %1;" : "=r"(s1) : "f"(x * 1e10f));
    asm("cvt.rzi.sat.s8.f32 %0, %1;" : "=r"(s2) : "f"(x));
    asm("cvt.sat.u16.s32 %0, %1;" : "=h"(s3) : "r"(s1));
    asm("cvt.rzi.ftz.sat.f32.f32 %0, %1;" : "=f"(f1) : "f"(x));
    sat[i] = s1 + s2 + s3 + (int)(f1 * 100.0f);
}
