// Miscellaneous PTX instructions and modifiers that plain C++ rarely
// produces, written as inline PTX: prmt modes, bmsk, szext, cvt.pack,
// saturating and 24-bit integer ops, slct, cnot, ldu, isspacep, cvta.const,
// pmevent, NaN min/max, relu fma, f16/bf16 packed forms, "nounroll" pragma.
#include <cuda_fp16.h>

extern "C" __global__ void misc_int(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    unsigned r[12];
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r[0]) : "r"(x), "r"(y), "r"(i & 7));
    asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r[1]) : "r"(x), "r"(y), "r"(i & 7));
    asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r[2]) : "r"(x), "r"(y), "r"(i & 3));
    asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r[3]) : "r"(x), "r"(y), "r"(i & 3));
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r[4]) : "r"(x & 31), "r"(y & 31));
    asm("szext.wrap.s32 %0, %1, %2;" : "=r"(r[5]) : "r"(x), "r"(y & 31));
    asm("add.sat.s32 %0, %1, %2;" : "=r"(r[6]) : "r"(x), "r"(y));
    asm("mad24.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r[7]) : "r"(x), "r"(y), "r"(x));
    asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r[8]) : "r"(x), "r"(y));
    asm("slct.u32.s32 %0, %1, %2, %3;" : "=r"(r[9]) : "r"(x), "r"(y), "r"((int)(x - y)));
    asm("cnot.b32 %0, %1;" : "=r"(r[10]) : "r"(x & 1));
    asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r[11]) : "r"(x), "r"(y), "r"(7u));
    unsigned s = 0;
#pragma unroll 1
    for (int k = 0; k < 12; k++)   // emits .pragma "nounroll"
        s = s * 31 + r[k];
    unsigned long long w;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(w) : "r"(x), "r"(y), "l"(0x100000000ull));
    unsigned short h;
    asm("mul.hi.u16 %0, %1, %2;" : "=h"(h) : "h"((unsigned short)x), "h"((unsigned short)y));
    out[i] = s ^ (unsigned)(w >> 16) ^ h;
}

extern "C" __global__ void misc_cvt_pack(const int *a, const int *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned p0, p1;
    // pack two s32 into s16x2 with saturation, then four into u8x4
    asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(p0) : "r"(a[i]), "r"(b[i]));
    asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(p1) : "r"(a[i]), "r"(b[i]), "r"(p0 & 0xffffu));
    out[i] = p0 ^ p1;
}

extern "C" __global__ void misc_float(const float *a, const float *b, float *out, unsigned *hout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], r0, r1, r2, r3;
    asm("max.NaN.f16x2 %0, %1, %2;" : "=r"(*(unsigned *)&r0)
        : "r"(__half_as_ushort(__float2half(x)) | ((unsigned)__half_as_ushort(__float2half(y)) << 16)),
          "r"(0x3c003c00u));
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r1) : "f"(x), "f"(y));
    asm("copysign.f32 %0, %1, %2;" : "=f"(r2) : "f"(y), "f"(x));
    asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(*(unsigned *)&r3) : "f"(x), "f"(y));
    unsigned hb, hn, hm;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(hb) : "f"(x), "f"(y));
    asm("neg.bf16x2 %0, %1;" : "=r"(hn) : "r"(hb));
    asm("fma.rn.relu.bf16x2 %0, %1, %2, %3;" : "=r"(hm) : "r"(hb), "r"(hn), "r"(hb));
    unsigned short ha;
    asm("abs.f16 %0, %1;" : "=h"(ha) : "h"(__half_as_ushort(__float2half(x))));
    out[i] = r1 + r2 + __uint_as_float(*(unsigned *)&r0 & 0x7f7fffffu) * 0.0f;
    hout[i] = hb ^ hn ^ hm ^ ha ^ *(unsigned *)&r3;
}

__device__ int g_flags[4] = {1, 2, 3, 4};
__constant__ int c_scale = 3;

extern "C" __global__ void misc_memory(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int u;
    asm volatile("ldu.global.u32 %0, [%1];" : "=r"(u) : "l"(a));     // uniform load
    int loc[2] = {i, u};
    unsigned isg, iss, isl, isc;
    asm("{\n\t.reg .pred p;\n\tisspacep.global p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(isg) : "l"(a));
    asm("{\n\t.reg .pred p;\n\tisspacep.shared p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(iss) : "l"(a));
    asm("{\n\t.reg .pred p;\n\tisspacep.local p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(isl) : "l"(&loc[i & 1]));
    asm("{\n\t.reg .pred p;\n\tisspacep.const p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(isc) : "l"(&c_scale));
    int cv;
    asm("{\n\t.reg .u64 ca;\n\tcvta.const.u64 ca, c_scale;\n\tld.u32 %0, [ca];\n\t}" : "=r"(cv));
    asm volatile("pmevent 3;");
    asm volatile("pmevent.mask 0x5;");
    out[i] = u + loc[(i >> 1) & 1] + (int)(isg + 2 * iss + 4 * isl + 8 * isc) + cv * g_flags[i & 3];
}

// 64-bit register pack/unpack, shifts, and mov with vector braces
extern "C" __global__ void misc_pack(const unsigned long long *a, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned lo, hi;
    unsigned long long v = a[i], r;
    asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(v));
    asm("mov.b64 %0, {%1, %2};" : "=l"(r) : "r"(hi), "r"(lo));
    unsigned short s0, s1;
    asm("mov.b32 {%0, %1}, %2;" : "=h"(s0), "=h"(s1) : "r"(lo));
    long long sh;
    asm("shr.s64 %0, %1, %2;" : "=l"(sh) : "l"((long long)v), "r"(hi & 63));
    out[i] = r ^ (unsigned long long)sh ^ s0 ^ ((unsigned long long)s1 << 48);
}
