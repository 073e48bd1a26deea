/*
 * tests/check_e2e_mma.c: end-to-end runs of the tensor-core corpus
 * kernels (tests/corpus/cu/wmma_f16.cu, wmma_int8.cu, wmma_bf16_tf32.cu,
 * mma_asm.cu; PTX from nvcc 13 in tests/corpus/ptx/NAME.sm80.ptx) with
 * host references.
 *
 * Inputs are chosen so that every sum is exact (small integers, or
 * doubles with short significands), so the references hold under any
 * accumulation order or alignment model; only the documented tf32 rule
 * (the low 13 bits of a tf32 operand are ignored) and the ISA fragment
 * layouts of mma.sync (PTX ISA 9.0, 9.7.14.5) enter the expectations.
 * wmma layouts are unspecified, so those kernels are checked through
 * memory only.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

#include "tests/e2e_util.h"

/* ------------------------------------------------------------ values */

/* f16 bits of a float that f16 represents exactly (normal or zero). */
static uint16_t h_of(float f)
{
    uint32_t u = fbits(f);
    uint16_t s = (uint16_t)((u >> 16) & 0x8000);
    if ((u & 0x7fffffff) == 0)
        return s;
    int e = (int)((u >> 23) & 0xff) - 127;
    ck_assert(e >= -14 && e <= 15 && (u & 0x1fff) == 0);
    return (uint16_t)(s | ((e + 15) << 10) | ((u >> 13) & 0x3ff));
}

static float f_of_h(uint16_t h)
{
    int e = (h >> 10) & 31;
    float m = (float)(h & 0x3ff);
    float v = e ? ldexpf(1024 + m, e - 25) : ldexpf(m, -24);
    return (h & 0x8000) ? -v : v;
}

static uint16_t bf_of(float f)
{
    uint32_t u = fbits(f);
    ck_assert((u & 0xffff) == 0);
    return (uint16_t)(u >> 16);
}

static float f_of_u(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static int small(int lim)
{
    return (int)(rnd() % (unsigned)(2 * lim + 1)) - lim;
}

/* A double m * 2^-19, m in [2^19, 2^20) with a random sign: products and
 * sums of a few of them are exact in double. */
static double short_d(void)
{
    double v = ldexp((double)((1u << 19) | (rnd() & 0x7ffff)), -19);
    return (rnd() & 1) ? -v : v;
}

/* ------------------------------------------------------------ wmma_f16 */

START_TEST(e2e_wmma_f16_f32)
{
    open_ptx("wmma_f16");
    rng_seed(501);
    enum { M = 32, N = 32, K = 64 };
    static uint16_t a[M * K], b[N * K];
    static float c[M * N], d[M * N];
    for (int i = 0; i < M * K; i++)
        a[i] = h_of((float)small(4));
    for (int i = 0; i < N * K; i++)
        b[i] = h_of((float)small(4));
    for (int i = 0; i < M * N; i++)
        c[i] = (float)small(100) + 0.5f;
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dd = dbuf(NULL, sizeof(d));
    int m = M, n = N, k = K;
    void *p[] = {&da, &db, &dc, &dd, &m, &n, &k};
    /* 6 warps for 4 tiles: the last two return before any wmma */
    launch("wmma_f16_f32", 3, 64, 0, p);
    dget(d, dd, sizeof(d));
    for (int r = 0; r < M; r++) {
        for (int col = 0; col < N; col++) {
            /* A row-major (ld K), B col-major: (k, n) at n*K + k */
            double s = c[r * N + col];
            for (int q = 0; q < K; q++)
                s += (double)f_of_h(a[r * K + q]) *
                     f_of_h(b[col * K + q]);
            EQ_F("D", r * N + col, d[r * N + col], (float)(s * 0.5));
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_wmma_f16_f16)
{
    open_ptx("wmma_f16");
    rng_seed(502);
    enum { K = 48 };
    static uint16_t a[16 * K], b[K * 16], d[2 * 256];
    for (int i = 0; i < 16 * K; i++)
        a[i] = h_of((float)small(3));
    for (int i = 0; i < K * 16; i++)
        b[i] = h_of((float)small(3));
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dd = dbuf(NULL, sizeof(d));
    int k = K;
    void *p[] = {&da, &db, &dd, &k};
    launch("wmma_f16_f16", 2, 32, 0, p);
    dget(d, dd, sizeof(d));
    for (int blk = 0; blk < 2; blk++) {
        for (int r = 0; r < 16; r++) {
            for (int col = 0; col < 16; col++) {
                /* A col-major (ld 16): (m, k) at k*16 + m; B row-major
                 * (ld 16); acc starts at 1; D col-major */
                float s = 1.0f;
                for (int q = 0; q < K; q++)
                    s += f_of_h(a[q * 16 + r]) * f_of_h(b[q * 16 + col]);
                EQ_I("D", col * 16 + r, d[blk * 256 + col * 16 + r],
                     h_of(s));
            }
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_wmma_f16_shapes)
{
    open_ptx("wmma_f16");
    rng_seed(503);
    static uint16_t a[512], b[512];
    static float d1[256], d2[1000];
    for (int i = 0; i < 512; i++) {
        a[i] = h_of((float)small(8) * 0.25f);
        b[i] = h_of((float)small(8));
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  d1p = dbuf(NULL, sizeof(d1)), d2p = dbuf(NULL, sizeof(d2));
    void *p[] = {&da, &db, &d1p, &d2p};
    launch("wmma_f16_shapes", 1, 32, 0, p);
    dget(d1, d1p, sizeof(d1));
    dget(d2, d2p, sizeof(d2));
    /* m32n8k16: A row (ld 16), B row (ld 8), D row (ld 8) */
    for (int r = 0; r < 32; r++) {
        for (int col = 0; col < 8; col++) {
            double s = 0;
            for (int q = 0; q < 16; q++)
                s += (double)f_of_h(a[r * 16 + q]) * f_of_h(b[q * 8 + col]);
            EQ_F("D1", r * 8 + col, d1[r * 8 + col], (float)s);
        }
    }
    /* m8n32k16: A col (ld 8), B col (ld 16), D col (ld 32) */
    for (int r = 0; r < 8; r++) {
        for (int col = 0; col < 32; col++) {
            double s = 0;
            for (int q = 0; q < 16; q++)
                s += (double)f_of_h(a[q * 8 + r]) * f_of_h(b[col * 16 + q]);
            EQ_F("D2", col * 32 + r, d2[col * 32 + r], (float)s);
        }
    }
    for (int i = 0; i < 1000; i++) {
        if (i % 32 >= 8)
            EQ_F("D2 gap", i, d2[i], 0.0f);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_wmma_shared)
{
    open_ptx("wmma_f16");
    rng_seed(504);
    static uint16_t a[256], b[256];
    static float d[256], t[256];
    for (int i = 0; i < 256; i++) {
        a[i] = h_of((float)small(6) * 0.5f);
        b[i] = h_of((float)small(6));
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dd = dbuf(NULL, sizeof(d));
    void *p[] = {&da, &db, &dd};
    launch("wmma_shared", 2, 64, 0, p);
    dget(d, dd, sizeof(d));
    for (int r = 0; r < 16; r++) {
        for (int col = 0; col < 16; col++) {
            double s = 0;
            for (int q = 0; q < 16; q++)
                s += (double)f_of_h(a[r * 16 + q]) * f_of_h(b[q * 16 + col]);
            t[r * 16 + col] = (float)s;
        }
    }
    for (int i = 0; i < 256; i++)
        EQ_F("D", i, d[i], t[i] + t[255 - i]);
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ wmma_int8 */

START_TEST(e2e_wmma_s8)
{
    open_ptx("wmma_int8");
    rng_seed(511);
    enum { K = 64 };
    static int8_t a[16 * K], b[16 * K];
    static int32_t c[256], d[256];
    for (int i = 0; i < 16 * K; i++) {
        a[i] = (int8_t)rnd();
        b[i] = (int8_t)rnd();
    }
    /* near both ends of the s32 range: .satfinite clamps after each of
     * the K/16 steps */
    for (int i = 0; i < 256; i++)
        c[i] = (int32_t)(i % 3 == 0 ? INT32_MAX - (int32_t)(rnd() % 300000)
                         : i % 3 == 1 ? INT32_MIN + (int32_t)(rnd() % 300000)
                                      : (int32_t)rnd());
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dd = dbuf(NULL, sizeof(d));
    int k = K;
    void *p[] = {&da, &db, &dc, &dd, &k};
    launch("wmma_s8", 1, 32, 0, p);
    dget(d, dd, sizeof(d));
    int sat = 0;
    for (int r = 0; r < 16; r++) {
        for (int col = 0; col < 16; col++) {
            int64_t acc = c[r * 16 + col];
            for (int k0 = 0; k0 < K; k0 += 16) {
                for (int q = k0; q < k0 + 16; q++)
                    acc += (int64_t)a[r * K + q] * b[col * K + q];
                if (acc > INT32_MAX || acc < INT32_MIN)
                    sat++;
                acc = acc > INT32_MAX ? INT32_MAX
                      : acc < INT32_MIN ? INT32_MIN : acc;
            }
            EQ_I("D", r * 16 + col, (uint32_t)d[r * 16 + col],
                 (uint32_t)acc);
        }
    }
    ck_assert_int_gt(sat, 10);      /* the clamping was exercised */
    close_ptx();
}
END_TEST

START_TEST(e2e_wmma_u8)
{
    open_ptx("wmma_int8");
    rng_seed(512);
    static uint8_t a[32 * 16], b[16 * 8];
    static int32_t d[32 * 8];
    for (size_t i = 0; i < sizeof(a); i++)
        a[i] = (uint8_t)rnd();
    for (size_t i = 0; i < sizeof(b); i++)
        b[i] = (uint8_t)rnd();
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dd = dbuf(NULL, sizeof(d));
    void *p[] = {&da, &db, &dd};
    launch("wmma_u8", 1, 32, 0, p);
    dget(d, dd, sizeof(d));
    /* The kernel stores the 32 x 8 result column-major with ld 8, fewer
     * than its 32 rows, so elements (r, c) with equal c*8 + r land on
     * the same word and which one stays is unspecified: each of the 88
     * words must hold one of the results aliased onto it. */
    for (int w = 0; w < 88; w++) {
        bool found = false;
        for (int col = 0; col < 8 && !found; col++) {
            int r = w - col * 8;
            if (r < 0 || r >= 32)
                continue;
            int32_t s = 0;
            for (int q = 0; q < 16; q++)
                s += a[r * 16 + q] * b[q * 8 + col];
            found = d[w] == s;
        }
        ck_assert_msg(found, "D[%d] = %d is none of its aliased results", w,
                      d[w]);
    }
    for (int w = 88; w < 256; w++)
        EQ_I("D tail", w, d[w], 0);
    close_ptx();
}
END_TEST

START_TEST(e2e_wmma_s4_b1)
{
    open_ptx("wmma_int8");
    rng_seed(513);
    static uint8_t a4[128], b4[128], a1[128], b1[128];
    static int32_t d4[64], d1[64];
    for (int i = 0; i < 128; i++) {
        a4[i] = (uint8_t)rnd();
        b4[i] = (uint8_t)rnd();
        a1[i] = (uint8_t)rnd();
        b1[i] = (uint8_t)rnd();
    }
    ptxemu_devptr pa4 = dbuf(a4, 128), pb4 = dbuf(b4, 128),
                  pa1 = dbuf(a1, 128), pb1 = dbuf(b1, 128),
                  pd4 = dbuf(NULL, 256), pd1 = dbuf(NULL, 256);
    void *p[] = {&pa4, &pb4, &pa1, &pb1, &pd4, &pd1};
    launch("wmma_s4_b1", 1, 32, 0, p);
    dget(d4, pd4, 256);
    dget(d1, pd1, 256);
    for (int r = 0; r < 8; r++) {
        for (int col = 0; col < 8; col++) {
            /* s4: A row (ld 32 nibbles), B col (ld 32), low nibble
             * first; b1: A row (ld 128 bits), B col, LSB first */
            int32_t s4 = 0, s1 = 0;
            for (int q = 0; q < 32; q++) {
                int ia = r * 32 + q, ib = col * 32 + q;
                int va = (a4[ia / 2] >> (4 * (ia % 2))) & 15;
                int vb = (b4[ib / 2] >> (4 * (ib % 2))) & 15;
                s4 += (va >= 8 ? va - 16 : va) * (vb >= 8 ? vb - 16 : vb);
            }
            for (int q = 0; q < 128; q++) {
                int ia = r * 128 + q, ib = col * 128 + q;
                s1 += (a1[ia / 8] >> (ia % 8)) & (b1[ib / 8] >> (ib % 8))
                      & 1;
            }
            EQ_I("D4", r * 8 + col, (uint32_t)d4[r * 8 + col], (uint32_t)s4);
            EQ_I("D1", r * 8 + col, (uint32_t)d1[r * 8 + col], (uint32_t)s1);
        }
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------- wmma_bf16_tf32 */

START_TEST(e2e_wmma_bf16)
{
    open_ptx("wmma_bf16_tf32");
    rng_seed(521);
    enum { K = 32 };
    static uint16_t a[16 * K], b[16 * K];
    static float d[256];
    for (int i = 0; i < 16 * K; i++) {
        a[i] = bf_of((float)small(5));
        b[i] = bf_of((float)small(5) * 0.125f);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dd = dbuf(NULL, sizeof(d));
    int k = K;
    void *p[] = {&da, &db, &dd, &k};
    launch("wmma_bf16", 1, 32, 0, p);
    dget(d, dd, sizeof(d));
    for (int r = 0; r < 16; r++) {
        for (int col = 0; col < 16; col++) {
            double s = 0;
            for (int q = 0; q < K; q++)
                s += (double)f_of_u((uint32_t)a[r * K + q] << 16) *
                     f_of_u((uint32_t)b[col * K + q] << 16);
            EQ_F("D", r * 16 + col, d[r * 16 + col], (float)s);
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_wmma_tf32)
{
    open_ptx("wmma_bf16_tf32");
    rng_seed(522);
    enum { K = 24 };
    static float a[16 * K], b[K * 16], d[256];
    /* n + 2^-12 (n = +-1..4): cvt.rna.tf32.f32 gives n */
    for (int i = 0; i < 16 * K; i++) {
        int n = small(3);
        a[i] = (float)(n + (n >= 0 ? 1 : -1)) +
               (n >= 0 ? 1.0f : -1.0f) / 4096.0f;
    }
    for (int i = 0; i < K * 16; i++)
        b[i] = (float)small(7) * 0.5f;
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dd = dbuf(NULL, sizeof(d));
    int k = K;
    void *p[] = {&da, &db, &dd, &k};
    launch("wmma_tf32", 1, 32, 0, p);
    dget(d, dd, sizeof(d));
    for (int r = 0; r < 16; r++) {
        for (int col = 0; col < 16; col++) {
            /* A row (ld K), B row (ld 16), D col-major (ld 16) */
            double s = 0;
            for (int q = 0; q < K; q++)
                s += (double)roundf(a[r * K + q]) * b[q * 16 + col];
            EQ_F("D", col * 16 + r, d[col * 16 + r], (float)s);
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_wmma_f64)
{
    open_ptx("wmma_bf16_tf32");
    rng_seed(523);
    static double a[32], b[32], d[64];
    for (int i = 0; i < 32; i++) {
        a[i] = short_d();
        b[i] = short_d();
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dd = dbuf(NULL, sizeof(d));
    void *p[] = {&da, &db, &dd};
    launch("wmma_f64", 1, 32, 0, p);
    dget(d, dd, sizeof(d));
    for (int r = 0; r < 8; r++) {
        for (int col = 0; col < 8; col++) {
            /* A row (ld 4), B col (ld 4), D row (ld 8) */
            double s = 0;
            for (int q = 0; q < 4; q++)
                s += a[r * 4 + q] * b[col * 4 + q];
            EQ_D("D", r * 8 + col, d[r * 8 + col], s);
        }
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ mma_asm */

/* PTX ISA 9.0 fragment layouts (9.7.14.5.8 m16n8k16 .f16/.bf16, 9.7.14.5.7
 * m16n8k8, 9.7.14.5.7 m16n8k8 .tf32, 9.7.14.5.8 m16n8k16 .s8, 9.7.14.5.2
 * m8n8k4 .f64); g = lane/4, t = lane%4. */
static void a16x16_f16(int lane, int i, int *r, int *c)
{
    int g = lane / 4, t = lane % 4;
    *r = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
    *c = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
}

static void b16x8_f16(int lane, int i, int *r, int *c)
{
    *r = (lane % 4) * 2 + (i & 1) + (i >= 2 ? 8 : 0);
    *c = lane / 4;
}

static void c16x8(int lane, int i, int *r, int *c)
{
    *r = i < 2 ? lane / 4 : lane / 4 + 8;
    *c = (lane % 4) * 2 + (i & 1);
}

START_TEST(e2e_mma_m16n8k16_f16)
{
    open_ptx("mma_asm");
    rng_seed(531);
    static uint16_t A[16 * 16], B[16 * 8];
    static uint32_t fa[32 * 4], fb[32 * 2];
    static float C[16 * 8], fc[32 * 4], fd[32 * 4];
    for (int i = 0; i < 256; i++)
        A[i] = h_of((float)small(6) * 0.5f);
    for (int i = 0; i < 128; i++) {
        B[i] = h_of((float)small(6));
        C[i] = (float)small(50);
    }
    memset(fa, 0, sizeof(fa));
    memset(fb, 0, sizeof(fb));
    for (int l = 0; l < 32; l++) {
        for (int i = 0; i < 8; i++) {
            int r, c;
            a16x16_f16(l, i, &r, &c);
            fa[l * 4 + i / 2] |= (uint32_t)A[r * 16 + c] << (16 * (i % 2));
        }
        for (int i = 0; i < 4; i++) {
            int r, c;
            b16x8_f16(l, i, &r, &c);
            fb[l * 2 + i / 2] |= (uint32_t)B[r * 8 + c] << (16 * (i % 2));
            c16x8(l, i, &r, &c);
            fc[l * 4 + i] = C[r * 8 + c];
        }
    }
    ptxemu_devptr da = dbuf(fa, sizeof(fa)), db = dbuf(fb, sizeof(fb)),
                  dc = dbuf(fc, sizeof(fc)), dd = dbuf(NULL, sizeof(fd));
    void *p[] = {&da, &db, &dc, &dd};
    launch("mma_m16n8k16_f16", 1, 32, 0, p);
    dget(fd, dd, sizeof(fd));
    for (int l = 0; l < 32; l++) {
        for (int i = 0; i < 4; i++) {
            int r, c;
            c16x8(l, i, &r, &c);
            double s = C[r * 8 + c];
            for (int q = 0; q < 16; q++)
                s += (double)f_of_h(A[r * 16 + q]) * f_of_h(B[q * 8 + c]);
            EQ_F("D", l * 4 + i, fd[l * 4 + i], (float)s);
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_mma_ldmatrix)
{
    open_ptx("mma_asm");
    rng_seed(532);
    static uint16_t A[128], B[64];
    static uint32_t D[96];
    for (int i = 0; i < 128; i++)
        A[i] = h_of((float)small(4));
    for (int i = 0; i < 64; i++)
        B[i] = h_of((float)small(4));
    ptxemu_devptr da = dbuf(A, sizeof(A)), db = dbuf(B, sizeof(B)),
                  dd = dbuf(NULL, sizeof(D));
    void *p[] = {&da, &db, &dd};
    launch("mma_ldmatrix", 1, 32, 0, p);
    dget(D, dd, sizeof(D));
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4;
        /* ldmatrix .x2 gives the m16n8k8 A fragment of A (16 x 8
         * row-major), .x1.trans the B fragment of B (8 x 8, k-major);
         * D = A * B in f16 (row g and g + 8, columns 2t, 2t + 1) */
        for (int h = 0; h < 2; h++) {
            for (int j = 0; j < 2; j++) {
                int r = g + 8 * h, c = 2 * t + j;
                float s = 0;
                for (int q = 0; q < 8; q++)
                    s += f_of_h(A[r * 8 + q]) * f_of_h(B[q * 8 + c]);
                EQ_I("D", l * 3 + h, (D[l * 3 + h] >> (16 * j)) & 0xffff,
                     h_of(s));
            }
        }
        /* movmatrix.trans of the plain .x1 fragment of B: lane l holds
         * B^T row g, columns 2t, 2t + 1, i.e. B[2t][g], B[2t + 1][g] */
        uint32_t m = B[(2 * t) * 8 + g] | (uint32_t)B[(2 * t + 1) * 8 + g]
                     << 16;
        EQ_I("movmatrix", l, D[l * 3 + 2], m);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_mma_bf16_tf32)
{
    open_ptx("mma_asm");
    rng_seed(533);
    static uint32_t fa[32 * 4], fb[32 * 2];
    static float d[32 * 4];
    /* words of two small-integer bf16s: the bf16 mma reads them as
     * pairs, the tf32 mma as one f32 whose low 13 bits it ignores */
    for (int i = 0; i < 128; i++)
        fa[i] = bf_of((float)small(4)) |
                (uint32_t)bf_of((float)(small(3) | 1)) << 16;
    for (int i = 0; i < 64; i++)
        fb[i] = bf_of((float)small(4)) |
                (uint32_t)bf_of((float)(small(3) | 1)) << 16;
    ptxemu_devptr da = dbuf(fa, sizeof(fa)), db = dbuf(fb, sizeof(fb)),
                  dd = dbuf(NULL, sizeof(d));
    void *p[] = {&da, &db, &dd};
    launch("mma_bf16_tf32", 1, 32, 0, p);
    dget(d, dd, sizeof(d));
    /* matrices: bf16 A (16 x 16) and B (16 x 8) per the m16n8k16 .bf16
     * layout; tf32 A (16 x 8), B (8 x 8) per m16n8k8 .tf32: a0 = (g, t),
     * a1 = (g + 8, t), a2 = (g, t + 4), a3 = (g + 8, t + 4); b0 = (t, g),
     * b1 = (t + 4, g) */
    static float A[256], B[128], At[128], Bt[64], D1[128];
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4, r, c;
        for (int i = 0; i < 8; i++) {
            a16x16_f16(l, i, &r, &c);
            A[r * 16 + c] = f_of_u((fa[l * 4 + i / 2] >> (16 * (i % 2)))
                                   << 16);
        }
        for (int i = 0; i < 4; i++) {
            b16x8_f16(l, i, &r, &c);
            B[r * 8 + c] = f_of_u((fb[l * 2 + i / 2] >> (16 * (i % 2)))
                                  << 16);
            int tr = g + 8 * (i & 1), tc = t + 4 * (i >> 1);
            At[tr * 8 + tc] = f_of_u(fa[l * 4 + i] & ~0x1fffu);
        }
        for (int i = 0; i < 2; i++)
            Bt[(t + 4 * i) * 8 + g] = f_of_u(fb[l * 2 + i] & ~0x1fffu);
    }
    for (int r = 0; r < 16; r++) {
        for (int c = 0; c < 8; c++) {
            double s = 0;
            for (int q = 0; q < 16; q++)
                s += (double)A[r * 16 + q] * B[q * 8 + c];
            D1[r * 8 + c] = (float)s;
        }
    }
    for (int l = 0; l < 32; l++) {
        for (int i = 0; i < 4; i++) {
            int r, c;
            c16x8(l, i, &r, &c);
            /* exact in double: 11-bit significands, small exponents */
            double s = D1[r * 8 + c];
            for (int q = 0; q < 8; q++)
                s += (double)At[r * 8 + q] * Bt[q * 8 + c];
            EQ_F("D", l * 4 + i, d[l * 4 + i], (float)s);
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_mma_int8_f64)
{
    open_ptx("mma_asm");
    rng_seed(534);
    static uint32_t fa[64], fb[32];
    static double x[64], dd[64];
    static int32_t di[128];
    for (int i = 0; i < 64; i++) {
        fa[i] = rnd();
        x[i] = short_d();
    }
    for (int i = 0; i < 32; i++)
        fb[i] = rnd();
    ptxemu_devptr pa = dbuf(fa, sizeof(fa)), pb = dbuf(fb, sizeof(fb)),
                  px = dbuf(x, sizeof(x)), pi = dbuf(NULL, sizeof(di)),
                  pd = dbuf(NULL, sizeof(dd));
    void *p[] = {&pa, &pb, &px, &pi, &pd};
    launch("mma_int8_f64", 1, 32, 0, p);
    dget(di, pi, sizeof(di));
    dget(dd, pd, sizeof(dd));
    /* m16n8k16 .s8: a_i (i < 4: row g, else g + 8), col 4t + i%4; b_i:
     * row 4t + i, col g */
    static int8_t A[16 * 16], B[16 * 8];
    static double Af[8 * 4], Bf[4 * 8];
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4;
        for (int i = 0; i < 8; i++)
            A[(i < 4 ? g : g + 8) * 16 + 4 * t + (i & 3)] =
                (int8_t)(fa[l * 2 + i / 4] >> (8 * (i % 4)));
        for (int i = 0; i < 4; i++)
            B[(4 * t + i) * 8 + g] = (int8_t)(fb[l] >> (8 * i));
        /* m8n8k4 .f64: a0 = (g, t), b0 = (t, g) */
        Af[g * 4 + t] = x[l];
        Bf[t * 8 + g] = x[32 + l];
    }
    for (int l = 0; l < 32; l++) {
        for (int i = 0; i < 4; i++) {
            int r, c;
            c16x8(l, i, &r, &c);
            int32_t s = 0;
            for (int q = 0; q < 16; q++)
                s += A[r * 16 + q] * B[q * 8 + c];
            EQ_I("Di", l * 4 + i, (uint32_t)di[l * 4 + i], (uint32_t)s);
        }
        for (int i = 0; i < 2; i++) {
            int g = l / 4, c = (l % 4) * 2 + i;
            double s = 0;
            for (int q = 0; q < 4; q++)
                s += Af[g * 4 + q] * Bf[q * 8 + c];
            EQ_D("Dd", l * 2 + i, dd[l * 2 + i], s);
        }
    }
    close_ptx();
}
END_TEST

static Suite *e2e_mma_suite(void)
{
    Suite *s = suite_create("e2e_mma");
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, e2e_wmma_f16_f32);
    tcase_add_test(tc, e2e_wmma_f16_f16);
    tcase_add_test(tc, e2e_wmma_f16_shapes);
    tcase_add_test(tc, e2e_wmma_shared);
    tcase_add_test(tc, e2e_wmma_s8);
    tcase_add_test(tc, e2e_wmma_u8);
    tcase_add_test(tc, e2e_wmma_s4_b1);
    tcase_add_test(tc, e2e_wmma_bf16);
    tcase_add_test(tc, e2e_wmma_tf32);
    tcase_add_test(tc, e2e_wmma_f64);
    tcase_add_test(tc, e2e_mma_m16n8k16_f16);
    tcase_add_test(tc, e2e_mma_ldmatrix);
    tcase_add_test(tc, e2e_mma_bf16_tf32);
    tcase_add_test(tc, e2e_mma_int8_f64);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(e2e_mma_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
