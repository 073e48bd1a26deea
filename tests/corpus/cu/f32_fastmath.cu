// Fast-math intrinsics: approximate sin/cos/ex2/lg2/rcp/rsqrt/sqrt/tanh,
// __fdividef, .ftz flush-to-zero forms, and the tanh.approx / ex2.approx.f16
// instructions through inline PTX.
#include <cuda_fp16.h>

extern "C" __global__ void f32_intrinsics(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    float r = __sinf(x);
    r += __cosf(y);
    r += __tanf(x * 0.5f);
    r += __expf(x);
    r += __exp10f(y * 0.1f);
    r += __logf(fabsf(x) + 1.0f);
    r += __log2f(fabsf(y) + 1.0f);
    r += __log10f(fabsf(x) + 2.0f);
    r += __powf(fabsf(x) + 1.0f, 0.75f);
    r += __fdividef(x, y);
    r += rsqrtf(fabsf(y) + 1.0f);
    r += __frsqrt_rn(fabsf(x) + 4.0f);
    r += exp2f(y);
    float s, c;
    __sincosf(x, &s, &c);
    r += s * c;
    out[i] = r;
}

extern "C" __global__ void f32_approx_asm(const float *a, float *out, __half *hout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    float t, e, l, rc, rs, sq, sn, cs;
    asm("tanh.approx.f32 %0, %1;" : "=f"(t) : "f"(x));
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(x));
    asm("lg2.approx.f32 %0, %1;" : "=f"(l) : "f"(fabsf(x) + 1.0f));
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(rc) : "f"(x + 3.0f));
    asm("rsqrt.approx.f32 %0, %1;" : "=f"(rs) : "f"(fabsf(x) + 1.0f));
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(sq) : "f"(fabsf(x)));
    asm("sin.approx.ftz.f32 %0, %1;" : "=f"(sn) : "f"(x));
    asm("cos.approx.f32 %0, %1;" : "=f"(cs) : "f"(x));
    float r64;
    asm("{\n\t.reg .f64 d;\n\t"
        "cvt.f64.f32 d, %1;\n\t"
        "rcp.approx.ftz.f64 d, d;\n\t"
        "cvt.rn.f32.f64 %0, d;\n\t}"
        : "=f"(r64) : "f"(x + 2.0f));
    out[i] = t + e + l + rc + rs + sq + sn + cs + r64;

    unsigned short h = __half_as_ushort(__float2half(x)), ht, he;
    asm("tanh.approx.f16 %0, %1;" : "=h"(ht) : "h"(h));
    asm("ex2.approx.f16 %0, %1;" : "=h"(he) : "h"(h));
    hout[i] = __hadd(__ushort_as_half(ht), __ushort_as_half(he));
}

// Flush-to-zero arithmetic forms and the testp / min.NaN instructions
extern "C" __global__ void f32_ftz_asm(const float *a, const float *b, float *out, int *cls, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], s, m, d, f, mn, mx;
    asm("add.ftz.f32 %0, %1, %2;" : "=f"(s) : "f"(x), "f"(y));
    asm("mul.rz.ftz.f32 %0, %1, %2;" : "=f"(m) : "f"(x), "f"(y));
    asm("div.full.f32 %0, %1, %2;" : "=f"(d) : "f"(x), "f"(y));
    asm("fma.rn.ftz.sat.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(x), "f"(y), "f"(s));
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(mn) : "f"(x), "f"(y));
    asm("max.ftz.f32 %0, %1, %2;" : "=f"(mx) : "f"(x), "f"(y));
    int c = 0;
    asm("{\n\t.reg .pred p, q, r;\n\t"
        "testp.finite.f32 p, %1;\n\t"
        "testp.subnormal.f32 q, %1;\n\t"
        "testp.notanumber.f32 r, %1;\n\t"
        "selp.s32 %0, 1, 0, p;\n\t"
        "@q add.s32 %0, %0, 2;\n\t"
        "@r add.s32 %0, %0, 4;\n\t}"
        : "+r"(c) : "f"(x));
    out[i] = s + m + d + f + mn + mx;
    cls[i] = c;
}
