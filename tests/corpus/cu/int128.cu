// 128-bit integer arithmetic (unsigned __int128) and explicit carry chains
// (add.cc / addc / sub.cc / subc / mad.cc / madc) via inline PTX.
typedef unsigned __int128 u128;
typedef __int128 s128;

extern "C" __global__ void u128_ops(const unsigned long long *a, const unsigned long long *b,
                                    unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    u128 x = ((u128)a[2 * i + 1] << 64) | a[2 * i];
    u128 y = ((u128)b[2 * i + 1] << 64) | b[2 * i];
    u128 s = x + y;
    u128 d = x - y;
    u128 m = x * y;
    u128 q = x / (y | 1);
    u128 r = x % (y | 1);
    u128 sh = (x << (b[2 * i] & 127)) ^ (y >> (a[2 * i] & 127));
    u128 acc = s ^ d ^ m ^ q ^ r ^ sh;
    out[2 * i] = (unsigned long long)acc;
    out[2 * i + 1] = (unsigned long long)(acc >> 64);
}

extern "C" __global__ void s128_ops(const long long *a, const long long *b, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    s128 x = (s128)a[i] * (s128)b[i];
    s128 y = x / 1000003 + (x >> 7);
    out[2 * i] = (long long)y;
    out[2 * i + 1] = (long long)(y >> 64);
}

// 256-bit addition with an explicit carry chain
extern "C" __global__ void add256_carry(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned *x = a + 8 * i;
    const unsigned *y = b + 8 * i;
    unsigned r[8];
    asm("add.cc.u32  %0, %8,  %16;\n\t"
        "addc.cc.u32 %1, %9,  %17;\n\t"
        "addc.cc.u32 %2, %10, %18;\n\t"
        "addc.cc.u32 %3, %11, %19;\n\t"
        "addc.cc.u32 %4, %12, %20;\n\t"
        "addc.cc.u32 %5, %13, %21;\n\t"
        "addc.cc.u32 %6, %14, %22;\n\t"
        "addc.u32    %7, %15, %23;"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]),
          "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]),
          "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]),
          "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]),
          "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]));
    for (int k = 0; k < 8; k++)
        out[8 * i + k] = r[k];
}

// 128-bit subtraction and 64x64->128 multiply with sub.cc/subc and mad.cc/madc
extern "C" __global__ void carry_chain64(const unsigned long long *a, const unsigned long long *b,
                                         unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x0 = a[2 * i], x1 = a[2 * i + 1];
    unsigned long long y0 = b[2 * i], y1 = b[2 * i + 1];
    unsigned long long d0, d1;
    asm("sub.cc.u64 %0, %2, %4;\n\t"
        "subc.u64   %1, %3, %5;"
        : "=l"(d0), "=l"(d1)
        : "l"(x0), "l"(x1), "l"(y0), "l"(y1));
    unsigned lo = (unsigned)x0, hi = (unsigned)(x0 >> 32);
    unsigned m0, m1, m2;
    asm("{\n\t"
        ".reg .u32 t;\n\t"
        "mul.lo.u32     %0, %3, %4;\n\t"
        "mul.hi.u32     t,  %3, %4;\n\t"
        "mad.lo.cc.u32  %1, %5, %4, t;\n\t"
        "madc.hi.u32    %2, %5, %4, 0;\n\t"
        "}"
        : "=r"(m0), "=r"(m1), "=r"(m2)
        : "r"(lo), "r"((unsigned)y0), "r"(hi));
    out[4 * i] = d0;
    out[4 * i + 1] = d1;
    out[4 * i + 2] = ((unsigned long long)m1 << 32) | m0;
    out[4 * i + 3] = m2;
}
