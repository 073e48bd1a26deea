// Integer arithmetic: add/sub/mul/mul.hi/mul.wide/mad/div/rem (signed and
// unsigned, 32 and 64 bit), min/max/abs, shifts and negation.
#include <cstdint>

extern "C" __global__ void int_arith_s32(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    int y = b[i];
    int d = (y == 0) ? 1 : y;
    int r = 0;
    r += x + y;
    r ^= x - y;
    r += x * y;
    r += __mulhi(x, y);
    r += x / d;
    r += x % d;
    r += min(x, y) * 3 + max(x, y) * 5;
    r += abs(x - y);
    r += -x;
    r += (x << (y & 31)) ^ (x >> (y & 31));
    r += x * 7 + y;  // mad.lo
    out[i] = r;
}

extern "C" __global__ void int_arith_u32(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i];
    unsigned y = b[i];
    unsigned d = y | 1u;
    unsigned r = 0;
    r += x + y;
    r ^= x - y;
    r += x * y;
    r += __umulhi(x, y);
    r += x / d;
    r += x % d;
    r += min(x, y) + max(x, y) * 9u;
    r += (x >> (y & 31)) | (x << ((32 - y) & 31));
    r += ~x & y;
    out[i] = r;
}

extern "C" __global__ void int_arith_64(const long long *a, const long long *b,
                                        long long *sout, unsigned long long *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i];
    long long y = b[i];
    long long d = (y == 0) ? 3 : y;
    long long r = x + y;
    r ^= x - y;
    r += x * y;
    r += __mul64hi(x, y);
    r += x / d;
    r += x % d;
    r += llmin(x, y) - llmax(x, y);
    r += llabs(x);
    sout[i] = r;

    unsigned long long ux = (unsigned long long)x;
    unsigned long long uy = (unsigned long long)y | 1ull;
    unsigned long long ur = ux / uy + ux % uy + __umul64hi(ux, uy);
    ur += ullmin(ux, uy) ^ ullmax(ux, uy);
    ur += ux >> (uy & 63);
    uout[i] = ur;
}

// mul.wide.s32 / mul.wide.u32 and 16-bit arithmetic
extern "C" __global__ void int_arith_wide(const int *a, const int *b, long long *wide_s,
                                          unsigned long long *wide_u, short *s16, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    int y = b[i];
    wide_s[i] = (long long)x * (long long)y + (long long)x;
    wide_u[i] = (unsigned long long)(unsigned)x * (unsigned long long)(unsigned)y;
    short sx = (short)x, sy = (short)y;
    s16[i] = (short)(sx * sy + (short)(sx / (short)((sy | 1))));
}

// Division by constants (magic-number multiply) and by powers of two
extern "C" __global__ void int_div_const(const int *a, int *out, unsigned *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    out[i] = x / 7 + x % 13 + x / 16 + x % 32;
    unsigned u = (unsigned)x;
    uout[i] = u / 10u + u % 1000u + u / 64u;
}
