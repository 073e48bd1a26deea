// SIMD-within-a-register video intrinsics (vadd2, vabsdiff4, vmax, vset ...).
// nvcc lowers most of these to sequences of prmt/and/or/sub or to video
// instructions (vadd2, vabsdiff4, vset2 ...).
extern "C" __global__ void simd_pairs(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    unsigned r = 0;
    r ^= __vadd2(x, y);
    r ^= __vaddss2(x, y);
    r ^= __vaddus2(x, y);
    r ^= __vsub2(x, y);
    r ^= __vsubss2(x, y);
    r ^= __vsubus2(x, y);
    r ^= __vabsdiffs2(x, y);
    r ^= __vabsdiffu2(x, y);
    r ^= __vabs2(x);
    r ^= __vabsss2(x);
    r ^= __vavgs2(x, y);
    r ^= __vavgu2(x, y);
    r ^= __vhaddu2(x, y);
    r ^= __vmaxs2(x, y);
    r ^= __vmaxu2(x, y);
    r ^= __vmins2(x, y);
    r ^= __vminu2(x, y);
    r ^= __vcmpeq2(x, y);
    r ^= __vcmpges2(x, y);
    r ^= __vcmpgtu2(x, y);
    r ^= __vcmples2(x, y);
    r ^= __vcmpltu2(x, y);
    r ^= __vcmpne2(x, y);
    r ^= __vsetgtu2(x, y);
    r ^= __vsetges2(x, y);
    r ^= __vseteq2(x, y);
    r ^= __vsetltu2(x, y);
    r ^= __vsads2(x, y);
    r ^= __vsadu2(x, y);
    r ^= __vneg2(x);
    r ^= __vnegss2(x);
    out[i] = r;
}

extern "C" __global__ void simd_quads(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    unsigned r = 0;
    r ^= __vadd4(x, y);
    r ^= __vaddss4(x, y);
    r ^= __vaddus4(x, y);
    r ^= __vsub4(x, y);
    r ^= __vsubss4(x, y);
    r ^= __vsubus4(x, y);
    r ^= __vabsdiffs4(x, y);
    r ^= __vabsdiffu4(x, y);
    r ^= __vabs4(x);
    r ^= __vabsss4(x);
    r ^= __vavgs4(x, y);
    r ^= __vavgu4(x, y);
    r ^= __vhaddu4(x, y);
    r ^= __vmaxs4(x, y);
    r ^= __vmaxu4(x, y);
    r ^= __vmins4(x, y);
    r ^= __vminu4(x, y);
    r ^= __vcmpeq4(x, y);
    r ^= __vcmpges4(x, y);
    r ^= __vcmpgtu4(x, y);
    r ^= __vcmpleu4(x, y);
    r ^= __vcmplts4(x, y);
    r ^= __vcmpne4(x, y);
    r ^= __vsetgtu4(x, y);
    r ^= __vsetges4(x, y);
    r ^= __vseteq4(x, y);
    r ^= __vsetne4(x, y);
    r ^= __vsads4(x, y);
    r ^= __vsadu4(x, y);
    r ^= __vneg4(x);
    r ^= __vnegss4(x);
    out[i] = r;
}

// Newer (CUDA 12) SIMD helpers: __vimax3 / __viaddmax / __vibmax / relu forms
// (max.s16x2, min.u16x2, and on compute_90 max.s32.relu / min.s16x2.relu)
extern "C" __global__ void simd_minmax3(const int *a, const int *b, const int *c, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i], z = c[i];
    int r = __vimax3_s32(x, y, z);
    r += __vimin3_s32(x, y, z);
    r += __viaddmax_s32(x, y, z);
    r += __viaddmin_s32(x, y, z);
    r += __vimax_s32_relu(x, y);
    r += (int)__vimax3_u16x2((unsigned)x, (unsigned)y, (unsigned)z);
    r += (int)__vimin_s16x2_relu((unsigned)x, (unsigned)y);
    bool pred;
    r += __vibmax_s32(x, y, &pred);
    r += pred ? 1 : 0;
    out[i] = r;
}

// Explicit video instructions via inline PTX
extern "C" __global__ void simd_video_asm(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], r0, r1, r2, r3;
    asm("vadd2.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r0) : "r"(x), "r"(y), "r"(0u));
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r1) : "r"(x), "r"(y), "r"(0u));
    asm("vmax.s32.s32.s32 %0, %1, %2;" : "=r"(r2) : "r"(x), "r"(y));
    asm("vset2.u32.u32.ne %0, %1, %2, %3;" : "=r"(r3) : "r"(x), "r"(y), "r"(0u));
    unsigned r4, r5, r6, r7, r8, r9, r10, r11;
    asm("vsub.s32.s32.s32.sat %0, %1, %2;" : "=r"(r4) : "r"(x), "r"(y));
    asm("vmin.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r5) : "r"(x), "r"(y), "r"(r4));
    asm("vshl.u32.u32.u32.clamp %0, %1, %2;" : "=r"(r6) : "r"(x), "r"(y & 31));
    asm("vshr.s32.s32.u32.wrap %0, %1, %2;" : "=r"(r7) : "r"(x), "r"(y));
    asm("vmad.s32.u32.u32 %0, %1, %2, %3;" : "=r"(r8) : "r"(x & 0xffff), "r"(y & 0xffff), "r"(r5));
    asm("vabsdiff.s32.s32.s32.max %0, %1.b0, %2.b1, %3;" : "=r"(r9) : "r"(x), "r"(y), "r"(r6));
    asm("vmin4.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r10) : "r"(x), "r"(y), "r"(0u));
    asm("vavrg2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r11) : "r"(x), "r"(y), "r"(0u));
    out[i] = r0 ^ r1 ^ r2 ^ r3 ^ r4 ^ r5 ^ r6 ^ r7 ^ r8 ^ r9 ^ r10 ^ r11;
}
