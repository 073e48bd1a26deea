// Bit manipulation intrinsics: popc clz brev bfind bfe bfi prmt shf sad
// mul24 umulhi dp4a dp2a ffs.
extern "C" __global__ void int_bits32(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i];
    unsigned y = b[i];
    unsigned r = 0;
    r += __popc(x);
    r += __clz(x);
    r += __brev(x);
    r += __ffs((int)x);
    r += __byte_perm(x, y, 0x5140);
    r += __byte_perm(x, y, y & 0x7777);
    r += __funnelshift_l(x, y, y & 31);
    r += __funnelshift_r(x, y, x & 31);
    r += __funnelshift_lc(x, y, y);
    r += __funnelshift_rc(x, y, x);
    r += __usad(x, y, 7u);
    r += (unsigned)__sad((int)x, (int)y, 3u);
    r += __umul24(x, y);
    r += (unsigned)__mul24((int)x, (int)y);
    r += __umulhi(x, y);
    r += (unsigned)__dp4a((int)x, (int)y, 11);
    r += __dp4a(x, y, 5u);
    r += (unsigned)__dp2a_lo((int)x, (int)y, 1);
    r += __dp2a_hi(x, y, 2u);
    r += __fns(x, 0, 3);
    // bitfield extract / insert patterns that nvcc turns into bfe/bfi
    r += (x >> 5) & 0x3ff;
    r += (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
    // bfind: index of highest set bit
    r += 31 - __clz(x | 1);
    out[i] = r;
}

extern "C" __global__ void int_bits64(const unsigned long long *a, const unsigned long long *b,
                                      unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = a[i];
    unsigned long long y = b[i];
    unsigned long long r = 0;
    r += __popcll(x);
    r += __clzll(x);
    r += __brevll(x);
    r += __ffsll((long long)y);
    r += (x >> 17) & 0xfffffull;
    r += 63 - __clzll(y | 1);
    r += (x << (y & 63)) | (x >> ((64 - y) & 63));
    out[i] = r;
}

// Explicit bfe/bfi/bfind/bmsk/szext through inline PTX
extern "C" __global__ void int_bits_asm(const unsigned *a, const int *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i];
    int s = b[i];
    unsigned e, f, g;
    int h, k;
    asm("bfe.u32 %0, %1, 4, 12;" : "=r"(e) : "r"(x));
    asm("bfe.s32 %0, %1, %2, 9;" : "=r"(h) : "r"((int)x), "r"(s & 15));
    asm("bfi.b32 %0, %1, %2, 8, 8;" : "=r"(f) : "r"(e), "r"(x));
    asm("bfind.u32 %0, %1;" : "=r"(g) : "r"(x));
    asm("bfind.shiftamt.s32 %0, %1;" : "=r"(k) : "r"(s));
    out[i] = e + f + g + (unsigned)h + (unsigned)k;
}
