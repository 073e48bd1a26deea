// Single precision: basic arithmetic with explicit rounding, IEEE division and
// sqrt, fminf/fmaxf, copysignf, classification, and a few libdevice functions
// (sinf/expf/logf/powf expand to long inline sequences).
// regen: -lineinfo
#include <math.h>

extern "C" __global__ void f32_basic(const float *a, const float *b, const float *c,
                                     float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    float r = x + y;
    r += x - z;
    r += x * y;
    r += x / y;                 // div.rn.f32
    r += sqrtf(fabsf(z));       // sqrt.rn.f32
    r = fmaf(r, x, z);          // fma.rn.f32
    r += __fadd_rd(x, y) + __fadd_ru(x, z) + __fadd_rz(y, z) + __fadd_rn(x, x);
    r += __fsub_rd(x, y) + __fsub_ru(y, z);
    r += __fmul_rd(x, y) + __fmul_ru(y, z) + __fmul_rz(x, z) + __fmul_rn(y, y);
    r += __fmaf_rz(x, y, z) + __fmaf_rd(x, y, z) + __fmaf_ru(x, y, z) + __fmaf_rn(z, y, x);
    r += __fdiv_rd(x, y) + __fdiv_ru(x, z) + __fdiv_rz(y, z) + __fdiv_rn(z, x);
    r += __frcp_rn(y) + __frcp_rz(z) + __frcp_rd(x) + __frcp_ru(y);
    r += __fsqrt_rd(fabsf(x)) + __fsqrt_ru(fabsf(y)) + __fsqrt_rz(fabsf(z)) + __fsqrt_rn(fabsf(r));
    r += __frsqrt_rn(fabsf(x) + 1.0f);
    r += fminf(x, y) + fmaxf(y, z) + fdimf(x, z);
    r += copysignf(x, z) + fabsf(y) - (-z);
    r += __saturatef(x);
    r += floorf(x) + ceilf(y) + truncf(z) + rintf(x) + roundf(y) + nearbyintf(z);
    r += fmodf(x, 3.5f) + remainderf(y, 2.25f);
    r += ldexpf(x, 3) + scalbnf(y, -2);
    out[i] = r;
}

extern "C" __global__ void f32_classify(const float *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    int r = 0;
    r |= isnan(x) ? 1 : 0;
    r |= isinf(x) ? 2 : 0;
    r |= isfinite(x) ? 4 : 0;
    r |= signbit(x) ? 8 : 0;
    r |= (x < 1.0f) ? 16 : 0;
    r |= (x != x) ? 32 : 0;
    r |= !(x >= 0.0f) ? 64 : 0;       // unordered compare
    int e;
    float m = frexpf(x, &e);
    r += e << 8;
    r += ilogbf(x + 1.0f) << 16;
    r += (m > 0.5f);
    out[i] = r;
}

extern "C" __global__ void f32_libm(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    float r = sinf(x);
    r += cosf(x);
    r += expf(x * 0.1f);
    r += logf(fabsf(x) + 1.0f);
    r += powf(fabsf(x), 1.5f);
    r += atan2f(x, 2.0f);
    r += exp2f(x * 0.25f);
    r += log2f(fabsf(x) + 2.0f);
    r += tanhf(x);
    r += erff(x);
    r += cbrtf(x);
    r += hypotf(x, 3.0f);
    out[i] = r;
}
