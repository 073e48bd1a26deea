// Double precision: arithmetic, explicit rounding intrinsics, sqrt/fma/div,
// rcp and libm functions (expanded inline by libdevice).
#include <math.h>

extern "C" __global__ void f64_basic(const double *a, const double *b, const double *c,
                                     double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    double r = x + y;
    r += x - z;
    r += x * y;
    r += x / y;
    r += sqrt(fabs(z));
    r = fma(r, x, z);
    r += __dadd_rd(x, y) + __dadd_ru(x, z) + __dadd_rz(y, z) + __dadd_rn(x, x);
    r += __dsub_rd(x, y) + __dsub_ru(y, z) + __dsub_rz(x, z);
    r += __dmul_rd(x, y) + __dmul_ru(y, z) + __dmul_rz(x, z);
    r += __fma_rd(x, y, z) + __fma_ru(x, y, z) + __fma_rz(x, y, z) + __fma_rn(z, y, x);
    r += __ddiv_rd(x, y) + __ddiv_ru(x, z) + __ddiv_rz(y, z) + __ddiv_rn(z, x);
    r += __drcp_rn(y) + __drcp_rz(z) + __drcp_rd(x) + __drcp_ru(y);
    r += __dsqrt_rd(fabs(x)) + __dsqrt_ru(fabs(y)) + __dsqrt_rz(fabs(z)) + __dsqrt_rn(fabs(r));
    r += fmin(x, y) + fmax(y, z) + copysign(x, z);
    r += floor(x) + ceil(y) + trunc(z) + rint(x) + round(y);
    r += rsqrt(fabs(x) + 1.0);
    out[i] = r;
}

extern "C" __global__ void f64_libm(const double *a, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i];
    double r = exp(x * 0.01);
    r += log(fabs(x) + 1.0);
    r += sin(x);
    r += tanh(x);
    r += exp2(x * 0.125);
    r += pow(fabs(x), 0.5);
    out[i] = r;
}

extern "C" __global__ void f64_classify(const double *a, const double *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i];
    int r = 0;
    r |= isnan(x) ? 1 : 0;
    r |= isinf(x) ? 2 : 0;
    r |= signbit(x) ? 4 : 0;
    r |= (x < y) ? 8 : 0;
    r |= (x <= y) ? 16 : 0;
    r |= !(x > y) ? 32 : 0;
    r |= (x == y) ? 64 : 0;
    r |= __hiloint2double(__double2hiint(x), __double2loint(y)) > 0.0 ? 128 : 0;
    int e;
    frexp(x, &e);
    out[i] = r + (e << 8);
}

// Double-precision instructions not reachable from plain C++ builtins
extern "C" __global__ void f64_asm(const double *a, const double *b, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], r1, r2, r3, r4, r5;
    asm("rcp.rn.f64 %0, %1;" : "=d"(r1) : "d"(y));
    asm("rsqrt.approx.f64 %0, %1;" : "=d"(r2) : "d"(fabs(x) + 1.0));
    asm("div.rz.f64 %0, %1, %2;" : "=d"(r3) : "d"(x), "d"(y));
    asm("min.f64 %0, %1, %2;" : "=d"(r4) : "d"(x), "d"(y));
    asm("abs.f64 %0, %1;" : "=d"(r5) : "d"(x));
    out[i] = r1 + r2 + r3 + r4 + r5 + __dsqrt_rn(fabs(y));
}
