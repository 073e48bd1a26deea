/*
 * tests/check_texfetch.c: texture sampling arithmetic (emu/texfetch.c)
 * against hand-computed tables from the CUDA C++ Programming Guide's
 * "Texture Fetching" appendix, then texture and surface instructions
 * through the public API (ptxemu_array_*, ptxemu_texture_*,
 * ptxemu_surface_*).
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/texfetch.h"
#include "runtime/ptxemu.h"

/* ---- part 1: the arithmetic on host bytes ---- */

typedef struct Img {
    EmuTexData d;
    const uint8_t *bytes;
} Img;

/* d is m's image or, for mipmaps, a level whose addr is its byte
 * offset from m's. */
static const uint8_t *rd(void *ctx, const EmuTexData *d, uint32_t i,
                         uint32_t j, uint32_t k, uint32_t l)
{
    const Img *m = ctx;
    uint64_t row = ((uint64_t)l * d->depth + k) * d->height + j;
    return m->bytes + (d->addr - m->d.addr) + row * d->pitch
           + i * emu_tex_elem_bytes(d);
}

static Img img(const void *bytes, uint32_t w, uint32_t h, uint32_t layers,
               unsigned nch, unsigned bits, unsigned kind)
{
    Img m;
    memset(&m, 0, sizeof(m));
    m.d.width = w;
    m.d.height = h;
    m.d.depth = 1;
    m.d.layers = layers;
    m.d.nch = (uint8_t)nch;
    m.d.bits = (uint8_t)bits;
    m.d.kind = (uint8_t)kind;
    m.d.pitch = (uint64_t)w * nch * bits / 8;
    m.bytes = bytes;
    return m;
}

static EmuTexSampler samp(unsigned mode, unsigned filter, bool norm)
{
    EmuTexSampler s;
    memset(&s, 0, sizeof(s));
    s.addr_mode[0] = s.addr_mode[1] = s.addr_mode[2] = (uint8_t)mode;
    s.filter = (uint8_t)filter;
    s.normalized = norm;
    return s;
}

static float fetch1(Img *m, const EmuTexSampler *s, float x)
{
    EmuTexel t;
    emu_tex_sample(&m->d, s, 1, &x, 0, rd, m, &t);
    ck_assert(t.isf);
    return t.v.f[0];
}

static const float row4[4] = {10.0f, 20.0f, 40.0f, 80.0f};

typedef struct Case1 {
    unsigned mode, filter;
    bool norm;
    float x, want;
} Case1;

/* Hand-computed: point = T[floor(x)], linear = (1-a) T[i] + a T[i+1]
 * with xB = x - 0.5, i = floor(xB), a = frac(xB) rounded to 1/256;
 * border colour 5. */
static const Case1 cases1[] = {
    /* point at centres and exactly on boundaries */
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, false, 0.5f, 10.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, false, 1.0f, 20.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, false, 0.999f, 10.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, false, 3.99f, 80.0f},
    /* linear: centres, boundaries, a quarter */
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false, 0.5f, 10.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false, 1.5f, 20.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false, 1.0f, 15.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false, 2.0f, 30.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false, 1.25f, 17.5f},
    /* 9-bit weight: xB = 0.1 exactly would give 11.0; 0.1 * 256 = 25.6
     * rounds to 26, a = 26/256 = 0.1015625, 10 + 10 a = 11.015625 */
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false, 0.6f, 11.015625f},
    /* clamp on both sides */
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, false, -1.0f, 10.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, false, 7.0f, 80.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false, 0.25f, 10.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false, 4.0f, 80.0f},
    /* far outside: clamp to the edges (no undefined conversion) */
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, false, 1e30f, 80.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false, -1e30f, 10.0f},
    {EMU_ADDR_BORDER, EMU_FILTER_POINT, false, 1e30f, 5.0f},
    /* border on both sides */
    {EMU_ADDR_BORDER, EMU_FILTER_POINT, false, -0.5f, 5.0f},
    {EMU_ADDR_BORDER, EMU_FILTER_POINT, false, 4.0f, 5.0f},
    {EMU_ADDR_BORDER, EMU_FILTER_LINEAR, false, 0.25f, 8.75f},
    {EMU_ADDR_BORDER, EMU_FILTER_LINEAR, false, 4.25f, 23.75f},
    /* normalized: x * 4 */
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, true, 0.5f, 40.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, true, 0.375f, 20.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, true, 0.5f, 30.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, true, 0.375f, 20.0f},
    {EMU_ADDR_CLAMP, EMU_FILTER_POINT, true, 1.5f, 80.0f},
    /* wrap on both sides */
    {EMU_ADDR_WRAP, EMU_FILTER_POINT, true, 1.125f, 10.0f},
    {EMU_ADDR_WRAP, EMU_FILTER_POINT, true, -0.125f, 80.0f},
    {EMU_ADDR_WRAP, EMU_FILTER_LINEAR, true, 0.0f, 45.0f},
    /* mirror on both sides: period 8, 4..7 read 3..0 */
    {EMU_ADDR_MIRROR, EMU_FILTER_POINT, true, 1.125f, 80.0f},
    {EMU_ADDR_MIRROR, EMU_FILTER_POINT, true, 1.375f, 40.0f},
    {EMU_ADDR_MIRROR, EMU_FILTER_POINT, true, -0.125f, 10.0f},
    {EMU_ADDR_MIRROR, EMU_FILTER_POINT, true, -0.375f, 20.0f},
    {EMU_ADDR_MIRROR, EMU_FILTER_LINEAR, true, 0.0f, 10.0f},
};

START_TEST(t_filter_table)
{
    const Case1 *c = &cases1[_i];
    Img m = img(row4, 4, 1, 1, 1, 32, EMU_CH_FLOAT);
    EmuTexSampler s = samp(c->mode, c->filter, c->norm);
    for (unsigned k = 0; k < 4; k++) {
        s.border[k] = 5.0f;
    }
    float got = fetch1(&m, &s, c->x);
    ck_assert_msg(got == c->want, "case %d: mode %u filter %u norm %d "
                  "x %g: got %.9g want %.9g", _i, c->mode, c->filter,
                  c->norm, (double)c->x, (double)got, (double)c->want);
}
END_TEST

START_TEST(t_weight)
{
    ck_assert(emu_tex_weight(0.1f) == 26.0f / 256.0f);
    ck_assert(emu_tex_weight(0.5f) == 0.5f);
    ck_assert(emu_tex_weight(0.999f) == 1.0f);   /* 255.7 -> 256 */
    ck_assert(emu_tex_weight(0.0019f) == 0.0f);  /* 0.49 -> 0 */
    ck_assert(emu_tex_weight(0.0021f) == 1.0f / 256.0f);
}
END_TEST

START_TEST(t_int_fetch)
{
    Img m = img(row4, 4, 1, 1, 1, 32, EMU_CH_FLOAT);
    EmuTexSampler s = samp(EMU_ADDR_CLAMP, EMU_FILTER_POINT, false);
    static const int32_t xs[] = {0, 2, 3, -5, 9};
    static const float want[] = {10, 40, 80, 10, 80};
    for (unsigned k = 0; k < 5; k++) {
        EmuTexel t;
        emu_tex_fetch_int(&m.d, &s, 1, &xs[k], 0, rd, &m, &t);
        ck_assert(t.v.f[0] == want[k]);
    }
    s = samp(EMU_ADDR_BORDER, EMU_FILTER_POINT, false);
    int32_t x = 4;
    EmuTexel t;
    emu_tex_fetch_int(&m.d, &s, 1, &x, 0, rd, &m, &t);
    ck_assert(t.v.f[0] == 0.0f && t.v.f[3] == 0.0f);
}
END_TEST

/* Read modes: element type vs normalized float (guide: unsigned x /
 * (2^n - 1), signed max(x / (2^(n-1) - 1), -1)); missing channels
 * (0, 0, 0, 1). */
START_TEST(t_read_modes)
{
    EmuTexData d;
    EmuTexel t;
    memset(&d, 0, sizeof(d));
    d.nch = 2;
    d.bits = 8;
    d.kind = EMU_CH_UNSIGNED;
    uint8_t u8[2] = {255, 128};
    emu_tex_decode(&d, EMU_READ_NORM_FLOAT, u8, &t);
    ck_assert(t.isf);
    ck_assert(t.v.f[0] == 1.0f && t.v.f[1] == 128.0f / 255.0f);
    ck_assert(t.v.f[2] == 0.0f && t.v.f[3] == 1.0f);
    emu_tex_decode(&d, EMU_READ_ELEMENT, u8, &t);
    ck_assert(!t.isf);
    ck_assert_uint_eq(t.v.u[0], 255);
    ck_assert_uint_eq(t.v.u[1], 128);
    ck_assert_uint_eq(t.v.u[2], 0);
    ck_assert_uint_eq(t.v.u[3], 1);

    d.kind = EMU_CH_SIGNED;
    int8_t s8[2] = {-128, 64};
    emu_tex_decode(&d, EMU_READ_NORM_FLOAT, (uint8_t *)s8, &t);
    ck_assert(t.v.f[0] == -1.0f && t.v.f[1] == 64.0f / 127.0f);
    int8_t s8b[2] = {-127, -3};
    emu_tex_decode(&d, EMU_READ_NORM_FLOAT, (uint8_t *)s8b, &t);
    ck_assert(t.v.f[0] == -1.0f && t.v.f[1] == -3.0f / 127.0f);
    emu_tex_decode(&d, EMU_READ_ELEMENT, (uint8_t *)s8b, &t);
    ck_assert_uint_eq(t.v.u[1], 0xFFFFFFFDu);

    d.bits = 16;
    d.kind = EMU_CH_UNSIGNED;
    uint16_t u16[2] = {65535, 32768};
    emu_tex_decode(&d, EMU_READ_NORM_FLOAT, (uint8_t *)u16, &t);
    ck_assert(t.v.f[0] == 1.0f && t.v.f[1] == 32768.0f / 65535.0f);
    d.kind = EMU_CH_SIGNED;
    int16_t s16[2] = {-32768, 16384};
    emu_tex_decode(&d, EMU_READ_NORM_FLOAT, (uint8_t *)s16, &t);
    ck_assert(t.v.f[0] == -1.0f && t.v.f[1] == 16384.0f / 32767.0f);

    /* 32-bit integers are never normalized */
    d.bits = 32;
    d.nch = 1;
    int32_t s32 = -7;
    emu_tex_decode(&d, EMU_READ_NORM_FLOAT, (uint8_t *)&s32, &t);
    ck_assert(!t.isf);
    ck_assert_uint_eq(t.v.u[0], (uint32_t)-7);
}
END_TEST

START_TEST(t_half)
{
    EmuTexData d;
    EmuTexel t;
    memset(&d, 0, sizeof(d));
    d.nch = 2;
    d.bits = 16;
    d.kind = EMU_CH_FLOAT;
    uint16_t h[2] = {0x3C00, 0xC000};       /* 1.0, -2.0 */
    emu_tex_decode(&d, EMU_READ_ELEMENT, (uint8_t *)h, &t);
    ck_assert(t.isf);
    ck_assert(t.v.f[0] == 1.0f && t.v.f[1] == -2.0f);
    ck_assert(t.v.f[2] == 0.0f && t.v.f[3] == 1.0f);
    uint16_t third[2] = {0x3555, 0x7BFF};   /* 0.333251953125, 65504 */
    emu_tex_decode(&d, EMU_READ_NORM_FLOAT, (uint8_t *)third, &t);
    ck_assert(t.v.f[0] == 0.333251953125f && t.v.f[1] == 65504.0f);
}
END_TEST

/* Layered 2-D: 2x2 texels per layer, T = 100 l + 10 j + i. */
START_TEST(t_layered)
{
    float v[3][2][2];
    for (unsigned l = 0; l < 3; l++) {
        for (unsigned j = 0; j < 2; j++) {
            for (unsigned i = 0; i < 2; i++) {
                v[l][j][i] = (float)(100 * l + 10 * j + i);
            }
        }
    }
    Img m = img(v, 2, 2, 3, 1, 32, EMU_CH_FLOAT);
    m.d.layered = 1;
    EmuTexSampler s = samp(EMU_ADDR_CLAMP, EMU_FILTER_POINT, false);
    EmuTexel t;
    float c[2] = {1.5f, 0.5f};
    emu_tex_sample(&m.d, &s, 2, c, 2, rd, &m, &t);
    ck_assert(t.v.f[0] == 201.0f);
    s.filter = EMU_FILTER_LINEAR;
    float mid[2] = {1.0f, 1.0f};
    emu_tex_sample(&m.d, &s, 2, mid, 1, rd, &m, &t);
    ck_assert(t.v.f[0] == 105.5f);       /* (100+101+110+111)/4 */
    float q[2] = {0.75f, 1.25f};         /* a = 0.25, b = 0.75 */
    emu_tex_sample(&m.d, &s, 2, q, 0, rd, &m, &t);
    /* 0.75*(0.75*0 + 0.25*1) + ... = i-weight .25, j-weight .75 */
    ck_assert(t.v.f[0] == 0.25f + 7.5f);
}
END_TEST

/* Cubemap face selection (guide's "Cubemap Textures" table): face of
 * the major axis, (s, t) per face, u = (s/m + 1)/2, v = (t/m + 1)/2. */
typedef struct CubeCase {
    float x, y, z;
    unsigned face;
    float u, v;
} CubeCase;

static const CubeCase cubes[] = {
    {1.0f, 0.25f, -0.5f, 0, 0.75f, 0.375f},    /* s=-z t=-y */
    {-1.0f, 0.5f, 0.25f, 1, 0.625f, 0.25f},    /* s=z t=-y */
    {0.2f, 1.0f, -0.6f, 2, 0.6f, 0.2f},        /* s=x t=z */
    {0.2f, -1.0f, -0.6f, 3, 0.6f, 0.8f},       /* s=x t=-z */
    {0.5f, 0.25f, 1.0f, 4, 0.75f, 0.375f},     /* s=x t=-y */
    {0.5f, 0.25f, -1.0f, 5, 0.25f, 0.375f},    /* s=-x t=-y */
    {2.0f, 1.0f, 0.0f, 0, 0.5f, 0.25f},        /* m = 2 */
};

START_TEST(t_cube)
{
    const CubeCase *c = &cubes[_i];
    float u, v;
    unsigned f = emu_tex_cube_face(c->x, c->y, c->z, &u, &v);
    ck_assert_uint_eq(f, c->face);
    ck_assert_msg(fabsf(u - c->u) < 1e-6f && fabsf(v - c->v) < 1e-6f,
                  "case %d: (%g, %g) want (%g, %g)", _i, (double)u,
                  (double)v, (double)c->u, (double)c->v);
}
END_TEST

START_TEST(t_table)
{
    EmuTexTable t;
    memset(&t, 0, sizeof(t));
    EmuTexObj o;
    memset(&o, 0, sizeof(o));
    o.kind = EMU_OBJ_TEX;
    uint64_t a = emu_tex_add(&t, &o);
    o.kind = EMU_OBJ_SURF;
    uint64_t b = emu_tex_add(&t, &o);
    ck_assert(a && b && a != b);
    ck_assert_ptr_nonnull(emu_tex_find(&t, a, EMU_OBJ_TEX));
    ck_assert_ptr_null(emu_tex_find(&t, a, EMU_OBJ_SURF));
    ck_assert_ptr_null(emu_tex_find(&t, a & 0xFFFFFFFF, EMU_OBJ_TEX));
    ck_assert_int_eq(emu_tex_remove(&t, a, EMU_OBJ_TEX), EMU_OK);
    ck_assert_ptr_null(emu_tex_find(&t, a, EMU_OBJ_TEX));
    ck_assert_int_eq(emu_tex_bind(&t, &o, "r", b), EMU_OK);
    ck_assert(emu_tex_binding(&t, &o, "r") == b);
    emu_tex_unbind_module(&t, &o);
    ck_assert(emu_tex_binding(&t, &o, "r") == 0);
    emu_tex_table_free(&t);
}
END_TEST

/* ---- mipmaps: level selection, blend, gradients, offsets ---- */

typedef struct PickCase {
    unsigned filter;
    float bias, lo, hi, lod;
    unsigned l0, l1;
    float w;
} PickCase;

/* 4 levels.  Hand-computed from the rule of emu_tex_pick_levels:
 * lambda' = clamp(lod + bias, lo, hi), then clamp to [0, 3], rounded
 * to 1/256; point: level 0 up to 1/2, else ceil(lambda' + 1/2) - 1;
 * linear: floor and the next level, weight = fraction. */
static const PickCase picks[] = {
    /* point: boundaries at half levels, ties to the finer level */
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, 0.0f, 0, 0, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, 0.5f, 0, 0, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, 0.50390625f, 1, 1, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, 1.4f, 1, 1, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, 1.5f, 1, 1, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, 1.6f, 2, 2, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, 2.5f, 2, 2, 0},
    /* out of range: the coarsest and the finest level */
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, 7.0f, 3, 3, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, -3.0f, 0, 0, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, -INFINITY, 0, 0, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, INFINITY, 3, 3, 0},
    {EMU_FILTER_POINT, 0, -1e9f, 1e9f, NAN, 0, 0, 0},
    /* linear: exact midpoints, whole levels, quarters */
    {EMU_FILTER_LINEAR, 0, -1e9f, 1e9f, 0.5f, 0, 1, 0.5f},
    {EMU_FILTER_LINEAR, 0, -1e9f, 1e9f, 1.5f, 1, 2, 0.5f},
    {EMU_FILTER_LINEAR, 0, -1e9f, 1e9f, 2.5f, 2, 3, 0.5f},
    {EMU_FILTER_LINEAR, 0, -1e9f, 1e9f, 1.0f, 1, 1, 0},
    {EMU_FILTER_LINEAR, 0, -1e9f, 1e9f, 2.25f, 2, 3, 0.25f},
    {EMU_FILTER_LINEAR, 0, -1e9f, 1e9f, 3.0f, 3, 3, 0},
    {EMU_FILTER_LINEAR, 0, -1e9f, 1e9f, 9.5f, 3, 3, 0},
    /* 1.8 fixed point: 0.1 * 256 = 25.6 -> 26/256; 2.999 -> 3 */
    {EMU_FILTER_LINEAR, 0, -1e9f, 1e9f, 0.1f, 0, 1, 0.1015625f},
    {EMU_FILTER_LINEAR, 0, -1e9f, 1e9f, 2.999f, 3, 3, 0},
    /* bias up and down */
    {EMU_FILTER_LINEAR, 1.0f, -1e9f, 1e9f, 0.25f, 1, 2, 0.25f},
    {EMU_FILTER_LINEAR, -0.5f, -1e9f, 1e9f, 2.0f, 1, 2, 0.5f},
    {EMU_FILTER_POINT, 2.0f, -1e9f, 1e9f, 0.0f, 2, 2, 0},
    {EMU_FILTER_POINT, -4.0f, -1e9f, 1e9f, 3.0f, 0, 0, 0},
    /* clamps: min lifts, max lowers, max below min wins */
    {EMU_FILTER_LINEAR, 0, 1.5f, 1e9f, 0.0f, 1, 2, 0.5f},
    {EMU_FILTER_LINEAR, 0, 1.0f, 1e9f, -INFINITY, 1, 1, 0},
    {EMU_FILTER_LINEAR, 0, 0.0f, 1.75f, 3.0f, 1, 2, 0.75f},
    {EMU_FILTER_POINT, 0, 2.0f, 1.0f, 0.0f, 1, 1, 0},
    {EMU_FILTER_POINT, 5.0f, 0.0f, 0.0f, 2.0f, 0, 0, 0},
    /* zero gradients (-inf) stay -inf whatever the bias */
    {EMU_FILTER_POINT, 3.0f, -1e9f, 1e9f, -INFINITY, 0, 0, 0},
};

START_TEST(t_pick_levels)
{
    const PickCase *c = &picks[_i];
    EmuTexSampler s = samp(EMU_ADDR_CLAMP, EMU_FILTER_POINT, true);
    s.mip_filter = (uint8_t)c->filter;
    s.lod_bias = c->bias;
    s.min_lod = c->lo;
    s.max_lod = c->hi;
    unsigned lv[2];
    float w;
    emu_tex_pick_levels(&s, 4, c->lod, lv, &w);
    ck_assert_msg(lv[0] == c->l0 && w == c->w
                  && (w == 0 || lv[1] == c->l1),
                  "case %d: levels %u, %u weight %g; want %u, %u, %g",
                  _i, lv[0], lv[1], (double)w, c->l0, c->l1,
                  (double)c->w);
}
END_TEST

typedef struct GradCase {
    unsigned dims;
    bool norm;
    float dx[3], dy[3];
    double lod;
} GradCase;

/* Level 0 is 8x8(x8); lambda = log2(max(|dx|, |dy|) in texels). */
static const GradCase grads[] = {
    {2, true, {0.125f, 0}, {0, 0.125f}, 0.0},       /* one texel */
    {2, true, {0.25f, 0}, {0, 0}, 1.0},             /* along x */
    {2, true, {0, 0}, {0, 0.5f}, 2.0},              /* along y */
    {2, true, {0, 0.25f}, {0, 0}, 1.0},             /* dx along y */
    {2, true, {0.125f, 0}, {0, 1.0f}, 3.0},         /* the longer */
    {2, true, {0.375f, 0.5f}, {0, 0}, 2.321928094887362}, /* |(3,4)| */
    {2, true, {0.0625f, 0}, {0, 0}, -1.0},          /* magnified */
    {2, false, {2.0f, 0}, {0, 0}, 1.0},             /* texel units */
    {3, true, {0, 0, 0.5f}, {0, 0, 0}, 2.0},        /* along z */
    {1, true, {-0.5f}, {0.25f}, 2.0},               /* negative */
};

START_TEST(t_grad_lod)
{
    const GradCase *c = &grads[_i];
    static const float zero = 0;
    Img m = img(&zero, 8, 8, 1, 1, 32, EMU_CH_FLOAT);
    m.d.depth = 8;
    EmuTexSampler s = samp(EMU_ADDR_CLAMP, EMU_FILTER_POINT, c->norm);
    float l = emu_tex_grad_lod(&m.d, &s, c->dims, c->dx, c->dy);
    ck_assert_msg(fabs(l - c->lod) < 1e-6, "case %d: %g want %g", _i,
                  (double)l, c->lod);
    float z[3] = {0, 0, 0};
    ck_assert(isinf(emu_tex_grad_lod(&m.d, &s, 2, z, z)));
}
END_TEST

/* An 8x8 float pyramid in one buffer: level 0 = 10, level 1 (4x4)
 * = 20 + i, level 2 = 40, level 3 (1x1) = 80. */
static float pyr[64 + 16 + 4 + 1];

static unsigned pyramid(EmuTexData lv[4], Img *m)
{
    *m = img(pyr, 8, 8, 1, 1, 32, EMU_CH_FLOAT);
    uint64_t off = 0;
    for (unsigned l = 0; l < 4; l++) {
        uint32_t n = 8u >> l;
        lv[l] = m->d;
        lv[l].width = lv[l].height = n;
        lv[l].pitch = n * 4;
        lv[l].addr = off;
        for (uint32_t k = 0; k < n * n; k++) {
            pyr[off / 4 + k] = l == 1 ? 20.0f + (float)(k % 4)
                               : 10.0f * (float)(1u << l);
        }
        off += (uint64_t)n * n * 4;
    }
    return 4;
}

typedef struct MipCase {
    unsigned filter, mip;
    float x, lod, want;
} MipCase;

/* Sampled at (x, 0.5): level 1 is 20 + floor(4x) (point) or the
 * linear blend of its texels at 4x - 0.5. */
static const MipCase mips[] = {
    {EMU_FILTER_POINT, EMU_FILTER_LINEAR, 0.3f, 0.5f, 15.5f}, /* 21 */
    {EMU_FILTER_POINT, EMU_FILTER_LINEAR, 0.3f, 2.25f, 50.0f},
    {EMU_FILTER_POINT, EMU_FILTER_LINEAR, 0.625f, 1.0f, 22.0f},
    {EMU_FILTER_POINT, EMU_FILTER_LINEAR, 0.625f, 1.5f, 31.0f},
    {EMU_FILTER_POINT, EMU_FILTER_LINEAR, 0.625f, 0.75f, 19.0f},
    {EMU_FILTER_LINEAR, EMU_FILTER_LINEAR, 0.5f, 1.0f, 21.5f},
    {EMU_FILTER_LINEAR, EMU_FILTER_LINEAR, 0.5f, 0.5f, 15.75f},
    {EMU_FILTER_POINT, EMU_FILTER_POINT, 0.9f, 1.6f, 40.0f},
    {EMU_FILTER_POINT, EMU_FILTER_POINT, 0.9f, 1.5f, 23.0f},
    {EMU_FILTER_POINT, EMU_FILTER_POINT, 0.9f, -INFINITY, 10.0f},
    {EMU_FILTER_POINT, EMU_FILTER_POINT, 0.9f, 40.0f, 80.0f},
};

START_TEST(t_sample_mip)
{
    const MipCase *c = &mips[_i];
    EmuTexData lv[4];
    Img m;
    unsigned n = pyramid(lv, &m);
    EmuTexSampler s = samp(EMU_ADDR_CLAMP, c->filter, true);
    s.mip_filter = (uint8_t)c->mip;
    s.min_lod = -1e9f;
    s.max_lod = 1e9f;
    float xy[2] = {c->x, 0.5f};
    EmuTexel t;
    emu_tex_sample_mip(lv, n, &s, 2, xy, 0, c->lod, rd, &m, &t);
    ck_assert_msg(t.isf && t.v.f[0] == c->want, "case %d: %g want %g", _i,
                  (double)t.v.f[0], (double)c->want);
}
END_TEST

/* Cube direction gradients to face-coordinate gradients (derivative
 * of u = (sc/m + 1)/2), worked by hand. */
START_TEST(t_cube_grad)
{
    float du, dv;
    /* +x face, sc = -z: dz = 0.5 moves u by -0.25 */
    emu_tex_cube_grad((float[]){1, 0, 0}, (float[]){0, 0, 0.5f}, &du, &dv);
    ck_assert(du == -0.25f && dv == 0.0f);
    /* +x face at t = -0.5: growing m shrinks |t|/m: dv = 0.25 */
    emu_tex_cube_grad((float[]){1, 0.5f, 0}, (float[]){1, 0, 0}, &du, &dv);
    ck_assert(du == 0.0f && dv == 0.25f);
    /* -y face, sc = x, tc = -z, m = -y: dx = 1 at m = 2 gives 1/4 */
    emu_tex_cube_grad((float[]){0, -2, 0}, (float[]){1, 0, 1}, &du, &dv);
    ck_assert(du == 0.25f && dv == -0.25f);
}
END_TEST

/* Seamless cubemap filtering on a 2x2 cube, texel (i, j) of face f =
 * 100 f + 10 j + i.  Past +x's right edge (z = -1) lies -z's left
 * column; past +x's top row (y = +1) lies +y's column x = 1, whose
 * row nearer +x is the right one, i = 1; past -y's bottom row
 * (z = -1 on -y, t = -z) lies -z's bottom row, u = (-x + 1) / 2. */
typedef struct SeamCase {
    unsigned face;
    float u, v;
    float clamped, seamless;
} SeamCase;

static const SeamCase seams[] = {
    /* +x right edge, row 0: texels (1,0) of +x and (0,0) of -z */
    {0, 1.0f, 0.25f, 1.0f, 0.5f * 1.0f + 0.5f * 500.0f},
    /* +x top edge, column 0: (0,0) of +x and +y's (1, 1) */
    {0, 0.25f, 0.0f, 0.0f, 0.5f * 0.0f + 0.5f * 211.0f},
    /* inside the face: no difference */
    {0, 0.5f, 0.5f, 5.5f, 5.5f},
    /* -y bottom edge, column 0 (x = -0.5): -z's bottom row, i = 1 */
    {3, 0.25f, 1.0f, 310.0f, 0.5f * 310.0f + 0.5f * 511.0f},
};

START_TEST(t_seamless)
{
    const SeamCase *c = &seams[_i];
    float v[6][2][2];
    for (unsigned f = 0; f < 6; f++) {
        for (unsigned j = 0; j < 2; j++) {
            for (unsigned i = 0; i < 2; i++) {
                v[f][j][i] = (float)(100 * f + 10 * j + i);
            }
        }
    }
    Img m = img(v, 2, 2, 6, 1, 32, EMU_CH_FLOAT);
    m.d.cube = 1;
    EmuTexSampler s = samp(EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, true);
    float uv[2] = {c->u, c->v};
    EmuTexel t;
    emu_tex_sample(&m.d, &s, 2, uv, c->face, rd, &m, &t);
    ck_assert_msg(t.v.f[0] == c->clamped, "case %d clamped: %g want %g",
                  _i, (double)t.v.f[0], (double)c->clamped);
    s.seamless = 1;
    emu_tex_sample(&m.d, &s, 2, uv, c->face, rd, &m, &t);
    ck_assert_msg(t.v.f[0] == c->seamless, "case %d seamless: %g want %g",
                  _i, (double)t.v.f[0], (double)c->seamless);
}
END_TEST

/* tex's offset operand: texels added before addressing (row4 is
 * 10, 20, 40, 80). */
START_TEST(t_offsets)
{
    Img m = img(row4, 4, 1, 1, 1, 32, EMU_CH_FLOAT);
    EmuTexSampler s = samp(EMU_ADDR_CLAMP, EMU_FILTER_POINT, false);
    s.offset[0] = 1;
    ck_assert(fetch1(&m, &s, 0.5f) == 20.0f);
    s.offset[0] = -1;
    ck_assert(fetch1(&m, &s, 0.5f) == 10.0f);   /* clamps */
    s.normalized = 1;
    s.offset[0] = 2;
    ck_assert(fetch1(&m, &s, 0.125f) == 40.0f);
    s.filter = EMU_FILTER_LINEAR;
    s.offset[0] = 1;
    ck_assert(fetch1(&m, &s, 0.25f) == 30.0f);  /* 2 + 1 - 0.5 */
    int32_t i = 1;
    EmuTexel t;
    s.offset[0] = 2;
    emu_tex_fetch_int(&m.d, &s, 1, &i, 0, rd, &m, &t);
    ck_assert(t.v.f[0] == 80.0f);
}
END_TEST

/* ---- part 2: PTX through the public API ---- */

static ptxemu_device *dev;
static ptxemu_module *mod;

static void load(const char *ptx)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_module_load_string(dev, "tex.ptx", ptx,
                                                 strlen(ptx), &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
}

static void teardown(void)
{
    if (mod) {
        ptxemu_module_unload(mod);
    }
    mod = NULL;
    if (dev) {
        ptxemu_device_destroy(dev);
    }
    dev = NULL;
}

static ptxemu_status run(const char *k, unsigned nthreads, void **params)
{
    ptxemu_function *f;
    ck_assert_int_eq(ptxemu_module_get_function(mod, k, &f), PTXEMU_SUCCESS);
    unsigned grid[3] = {1, 1, 1}, block[3] = {nthreads, 1, 1};
    ptxemu_status st = ptxemu_launch(f, grid, block, 0, params);
    ptxemu_synchronize(dev);
    return st;
}

static ptxemu_array *mkarray(uint32_t w, uint32_t h, uint32_t flags,
                             unsigned nch, unsigned bits, unsigned kind)
{
    ptxemu_array_desc d;
    memset(&d, 0, sizeof(d));
    d.size = sizeof(d);
    d.width = w;
    d.height = h;
    d.flags = flags;
    d.format.channels = nch;
    d.format.bits = bits;
    d.format.kind = (ptxemu_channel_kind)kind;
    ptxemu_array *a = NULL;
    ck_assert_msg(ptxemu_array_create(dev, &d, &a) == PTXEMU_SUCCESS, "%s",
                  ptxemu_last_error_message(dev));
    return a;
}

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

/* Thread t of 8 writes 3t+1 at (t%4, t/4) of a 4x2 u32 surface (x in
 * bytes), then every thread reads its mirror element back. */
static const char surf_ptx[] = HDR
    ".visible .entry wr(.param .u64 s)\n{\n"
    ".reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [s];\n"
    "mov.u32 %r1, %tid.x; and.b32 %r2, %r1, 3; shl.b32 %r2, %r2, 2;\n"
    "shr.u32 %r3, %r1, 2; mad.lo.u32 %r4, %r1, 3, 1;\n"
    "sust.b.2d.b32.trap [%rd1, {%r2, %r3}], {%r4};\n"
    "ret;\n}\n"
    ".visible .entry rd(.param .u64 s, .param .u64 o)\n{\n"
    ".reg .b32 %r<8>; .reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [s]; ld.param.u64 %rd2, [o];\n"
    "mov.u32 %r1, %tid.x; sub.u32 %r5, 7, %r1;\n"
    "and.b32 %r2, %r5, 3; shl.b32 %r2, %r2, 2; shr.u32 %r3, %r5, 2;\n"
    "suld.b.2d.b32.trap {%r4}, [%rd1, {%r2, %r3}];\n"
    "mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;\n"
    "st.global.u32 [%rd4], %r4;\n"
    "ret;\n}\n"
    /* x = 16 bytes: one past the row */
    ".visible .entry oob(.param .u64 s, .param .u64 o)\n{\n"
    ".reg .b32 %r<8>; .reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [s]; ld.param.u64 %rd2, [o];\n"
    "mov.u32 %r1, 16; mov.u32 %r2, 1;\n"
    "suld.b.2d.b32.zero {%r4}, [%rd1, {%r1, %r2}];\n"
    "suld.b.2d.b32.clamp {%r5}, [%rd1, {%r1, %r2}];\n"
    "st.global.u32 [%rd2], %r4; st.global.u32 [%rd2+4], %r5;\n"
    "sust.b.2d.b32.zero [%rd1, {%r1, %r2}], {%r2};\n"
    "ret;\n}\n"
    ".visible .entry trap(.param .u64 s)\n{\n"
    ".reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [s]; mov.u32 %r1, 0; mov.u32 %r2, 2;\n"
    "sust.b.2d.b32.trap [%rd1, {%r1, %r2}], {%r1};\n"
    "ret;\n}\n"
    ".visible .entry red(.param .u64 s)\n{\n"
    ".reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [s]; mov.u32 %r1, %tid.x; mov.u32 %r2, 0;\n"
    "mov.u32 %r3, 4; mov.u32 %r4, 1; sub.s32 %r5, 10, %r1;\n"
    "sured.b.add.2d.u32.trap [%rd1, {%r2, %r2}], %r4;\n"
    "sured.b.min.2d.s32.trap [%rd1, {%r3, %r2}], %r5;\n"
    "sured.b.max.2d.u32.trap [%rd1, {%r2, %r4}], %r1;\n"
    "ret;\n}\n";

START_TEST(t_surface)
{
    load(surf_ptx);
    ptxemu_array *a = mkarray(4, 2, PTXEMU_ARRAY_SURFACE_LDST, 1, 32,
                              PTXEMU_CHANNEL_UNSIGNED);
    uint64_t s = 0;
    ck_assert_int_eq(ptxemu_surface_create(dev, a, &s), PTXEMU_SUCCESS);
    void *p1[] = {&s};
    ck_assert_int_eq(run("wr", 8, p1), PTXEMU_SUCCESS);
    uint32_t host[8];
    ptxemu_array_box box = {0, 0, 0, 4, 2, 1};
    ck_assert_int_eq(ptxemu_array_copy_to_host(a, &box, host, 16, 0),
                     PTXEMU_SUCCESS);
    for (unsigned t = 0; t < 8; t++) {
        ck_assert_uint_eq(host[t], 3 * t + 1);
    }
    ptxemu_devptr o;
    ck_assert_int_eq(ptxemu_malloc(dev, 64, &o), PTXEMU_SUCCESS);
    void *p2[] = {&s, &o};
    ck_assert_int_eq(run("rd", 8, p2), PTXEMU_SUCCESS);
    uint32_t back[8];
    ptxemu_memcpy_dtoh(dev, back, o, sizeof(back));
    for (unsigned t = 0; t < 8; t++) {
        ck_assert_uint_eq(back[t], 3 * (7 - t) + 1);
    }
    /* .zero reads 0 and drops the store; .clamp reads (3, 1) = 22 */
    ck_assert_int_eq(run("oob", 1, p2), PTXEMU_SUCCESS);
    ptxemu_memcpy_dtoh(dev, back, o, 8);
    ck_assert_uint_eq(back[0], 0);
    ck_assert_uint_eq(back[1], 22);
    ptxemu_array_copy_to_host(a, &box, host, 16, 0);
    for (unsigned t = 0; t < 8; t++) {
        ck_assert_uint_eq(host[t], 3 * t + 1);
    }
    /* .trap: y = 2 of a 2-row surface faults with a located message */
    ck_assert_int_eq(run("trap", 1, p1), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    const char *msg = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(msg, "sust.trap") && strstr(msg, "tex.ptx:"),
                  "%s", msg);
    /* sured from 32 threads */
    uint32_t zero[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    zero[1] = 100;
    ptxemu_array_copy_from_host(a, &box, zero, 16, 0);
    ck_assert_int_eq(run("red", 32, p1), PTXEMU_SUCCESS);
    ptxemu_array_copy_to_host(a, &box, host, 16, 0);
    ck_assert_uint_eq(host[0], 32);                  /* add 1 x 32 */
    ck_assert_uint_eq(host[1], (uint32_t)(10 - 31)); /* min(100, 10-t) */
    ck_assert_uint_eq(host[4], 31);                  /* max of t */
    /* a bad handle faults clearly; a used array cannot be destroyed */
    uint64_t bad = 12345;
    void *p3[] = {&bad};
    ck_assert_int_eq(run("wr", 1, p3), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_ptr_nonnull(strstr(ptxemu_last_error_message(dev),
                                 "not a live surface object handle"));
    ck_assert_int_eq(ptxemu_array_destroy(a), PTXEMU_ERROR_INVALID_VALUE);
    /* released while used (cudaFreeArray): success, freed with the
     * surface (valgrind and ASan see the free) */
    ck_assert_int_eq(ptxemu_array_release(a), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_array_release(a), PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(ptxemu_last_error_message(dev),
                                 "already released"));
    ck_assert_int_eq(ptxemu_surface_destroy(dev, s), PTXEMU_SUCCESS);
}
END_TEST

/* tex.2d linear at (1, 1) of a 2x2 float4 texture, point fetches with
 * integer and normalized coordinates, and txq. */
static const char tex_ptx[] = HDR
    ".visible .entry tx(.param .u64 t, .param .u64 o)\n{\n"
    ".reg .b32 %r<8>; .reg .f32 %f<12>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [o];\n"
    "mov.f32 %f1, 0f3F800000; mov.f32 %f2, 0f3F800000;\n"
    "tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "st.global.v4.f32 [%rd2], {%f3, %f4, %f5, %f6};\n"
    "mov.u32 %r1, 1; mov.u32 %r2, 0;\n"
    "tex.2d.v4.f32.s32 {%f3, %f4, %f5, %f6}, [%rd1, {%r1, %r2}];\n"
    "st.global.v4.f32 [%rd2+16], {%f3, %f4, %f5, %f6};\n"
    "txq.width.b32 %r3, [%rd1]; txq.height.b32 %r4, [%rd1];\n"
    "txq.filter_mode.b32 %r5, [%rd1];\n"
    "txq.channel_data_type.b32 %r6, [%rd1];\n"
    "st.global.v4.u32 [%rd2+32], {%r3, %r4, %r5, %r6};\n"
    "txq.channel_order.b32 %r3, [%rd1];\n"
    "txq.normalized_coords.b32 %r4, [%rd1];\n"
    "txq.addr_mode_0.b32 %r5, [%rd1];\n"
    "txq.num_mipmap_levels.b32 %r6, [%rd1];\n"
    "st.global.v4.u32 [%rd2+48], {%r3, %r4, %r5, %r6};\n"
    "tld4.g.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "st.global.v4.f32 [%rd2+64], {%f3, %f4, %f5, %f6};\n"
    "ret;\n}\n"
    ".visible .entry th(.param .u64 t, .param .u64 o)\n{\n"
    ".reg .b32 %r<4>; .reg .f32 %f<4>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [o];\n"
    "mov.f32 %f1, 0f3F800000;\n"
    "tex.2d.v2.f16x2.f32 {%r1, %r2}, [%rd1, {%f1, %f1}];\n"
    "st.global.v2.u32 [%rd2], {%r1, %r2};\n"
    "ret;\n}\n";

START_TEST(t_texture)
{
    load(tex_ptx);
    ptxemu_array *a = mkarray(2, 2, 0, 4, 32, PTXEMU_CHANNEL_FLOAT);
    /* texel (i, j) = (i + 2j, 10 (i + 2j), -1, 4) */
    float texels[4][4];
    for (unsigned k = 0; k < 4; k++) {
        texels[k][0] = (float)k;
        texels[k][1] = 10.0f * (float)k;
        texels[k][2] = -1.0f;
        texels[k][3] = 4.0f;
    }
    ptxemu_array_box box = {0, 0, 0, 2, 2, 1};
    ck_assert_int_eq(ptxemu_array_copy_from_host(a, &box, texels, 32, 0),
                     PTXEMU_SUCCESS);
    ptxemu_texture_desc td;
    ptxemu_texture_desc_default(&td);
    td.array = a;
    td.filter = PTXEMU_FILTER_LINEAR;
    uint64_t t = 0;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t), PTXEMU_SUCCESS);
    ptxemu_devptr o;
    ck_assert_int_eq(ptxemu_malloc(dev, 80, &o), PTXEMU_SUCCESS);
    void *p[] = {&t, &o};
    ptxemu_status st = run("tx", 1, p);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
    float f[8];
    uint32_t u[8];
    float g[4];
    ptxemu_memcpy_dtoh(dev, f, o, 32);
    ptxemu_memcpy_dtoh(dev, u, o + 32, 32);
    ptxemu_memcpy_dtoh(dev, g, o + 64, 16);
    /* linear at (1, 1): mean of the four texels */
    ck_assert(f[0] == 1.5f && f[1] == 15.0f && f[2] == -1.0f
              && f[3] == 4.0f);
    /* integer coordinates (1, 0): texel 1 */
    ck_assert(f[4] == 1.0f && f[5] == 10.0f);
    ck_assert_uint_eq(u[0], 2);
    ck_assert_uint_eq(u[1], 2);
    ck_assert_uint_eq(u[2], PTXEMU_FILTER_LINEAR);
    ck_assert_uint_eq(u[3], 0x10DE);          /* CL_FLOAT */
    ck_assert_uint_eq(u[4], 0x10B5);          /* CL_RGBA */
    ck_assert_uint_eq(u[5], 0);
    ck_assert_uint_eq(u[6], PTXEMU_ADDRESS_CLAMP);
    ck_assert_uint_eq(u[7], 0);
    /* tld4.g at (1, 1): G of (0,1), (1,1), (1,0), (0,0) */
    ck_assert(g[0] == 20.0f && g[1] == 30.0f && g[2] == 10.0f
              && g[3] == 0.0f);
    /* .v2.f16x2: (1.5, 15) and (-1, 4) as halves */
    ck_assert_int_eq(run("th", 1, p), PTXEMU_SUCCESS);
    ptxemu_memcpy_dtoh(dev, u, o, 8);
    ck_assert_uint_eq(u[0], 0x4B803E00u);
    ck_assert_uint_eq(u[1], 0x4400BC00u);
    /* linear filtering of integer elements is refused */
    ptxemu_array *b = mkarray(2, 2, 0, 1, 8, PTXEMU_CHANNEL_UNSIGNED);
    td.array = b;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t),
                     PTXEMU_ERROR_INVALID_VALUE);
    td.read_mode = PTXEMU_READ_NORMALIZED_FLOAT;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t), PTXEMU_SUCCESS);
    td.srgb = 1;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t),
                     PTXEMU_ERROR_UNSUPPORTED);
}
END_TEST

/* Linear memory: tex1Dfetch-style integer fetch over a device buffer. */
START_TEST(t_linear)
{
    load(tex_ptx);
    float v[4][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 9, 9, 9},
                     {0, 0, 0, 0}};
    ptxemu_devptr buf;
    ck_assert_int_eq(ptxemu_malloc(dev, sizeof(v), &buf), PTXEMU_SUCCESS);
    ptxemu_memcpy_htod(dev, buf, v, sizeof(v));
    ptxemu_texture_desc td;
    ptxemu_texture_desc_default(&td);
    td.ptr = buf;
    td.width = 2;
    td.height = 2;
    td.pitch = 32;
    td.format.channels = 4;
    td.format.bits = 32;
    td.format.kind = PTXEMU_CHANNEL_FLOAT;
    uint64_t t;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t), PTXEMU_SUCCESS);
    ptxemu_devptr o;
    ck_assert_int_eq(ptxemu_malloc(dev, 80, &o), PTXEMU_SUCCESS);
    void *p[] = {&t, &o};
    ck_assert_int_eq(run("tx", 1, p), PTXEMU_SUCCESS);
    float f[8];
    ptxemu_memcpy_dtoh(dev, f, o, 32);
    /* point at (1, 1): texel (1, 1) = v[3]; integer (1, 0) = v[1] */
    ck_assert(f[0] == 0.0f && f[3] == 0.0f);
    ck_assert(f[4] == 5.0f && f[7] == 8.0f);
    td.pitch = 8;   /* smaller than a row */
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t),
                     PTXEMU_ERROR_INVALID_VALUE);
}
END_TEST


/* Module-scope .texref/.surfref bound with ptxemu_module_bind_texref. */
static const char ref_ptx[] = HDR
    ".global .texref tr;\n.global .surfref sr;\n"
    ".visible .entry k(.param .u64 o)\n{\n"
    ".reg .b32 %r<8>; .reg .f32 %f<8>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [o]; mov.u32 %r1, 2;\n"
    "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tr, {%r1}];\n"
    "txq.width.b32 %r2, [tr];\n"
    "shl.b32 %r5, %r1, 2;\n"   /* surface x is in bytes */
    "suld.b.1d.b32.trap {%r3}, [sr, {%r5}];\n"
    "suq.width.b32 %r4, [sr];\n"
    "st.global.f32 [%rd1], %f1; st.global.u32 [%rd1+4], %r2;\n"
    "st.global.u32 [%rd1+8], %r3; st.global.u32 [%rd1+12], %r4;\n"
    "ret;\n}\n";

START_TEST(t_texref)
{
    load(ref_ptx);
    ptxemu_array *a = mkarray(3, 0, PTXEMU_ARRAY_SURFACE_LDST, 1, 32,
                              PTXEMU_CHANNEL_FLOAT);
    float v[3] = {1.5f, 2.5f, 3.5f};
    ptxemu_array_box box = {0, 0, 0, 3, 1, 1};
    ptxemu_array_copy_from_host(a, &box, v, sizeof(v), 0);
    ptxemu_texture_desc td;
    ptxemu_texture_desc_default(&td);
    td.array = a;
    uint64_t t, s;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_surface_create(dev, a, &s), PTXEMU_SUCCESS);
    ptxemu_devptr o;
    ck_assert_int_eq(ptxemu_malloc(dev, 16, &o), PTXEMU_SUCCESS);
    void *p[] = {&o};
    /* unbound: a clear fault */
    ck_assert_int_eq(run("k", 1, p), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_ptr_nonnull(strstr(ptxemu_last_error_message(dev),
                                 "not a live texture object handle"));
    ck_assert_int_eq(ptxemu_module_bind_texref(mod, "tr", s),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_module_bind_texref(mod, "nope", t),
                     PTXEMU_ERROR_NOT_FOUND);
    ck_assert_int_eq(ptxemu_module_bind_texref(mod, "tr", t),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_bind_texref(mod, "sr", s),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(run("k", 1, p), PTXEMU_SUCCESS);
    uint32_t got[4];
    ptxemu_memcpy_dtoh(dev, got, o, sizeof(got));
    float f0;
    memcpy(&f0, &got[0], 4);
    uint32_t b2;
    memcpy(&b2, &v[2], 4);
    ck_assert(f0 == 3.5f);
    ck_assert_uint_eq(got[1], 3);
    ck_assert_uint_eq(got[2], b2);
    ck_assert_uint_eq(got[3], 3);
}
END_TEST

/* sust.p: formatted stores, x in samples: R, G of f32 into half
 * channels (rounded to nearest), and u32 values into u8 channels (low
 * bits). */
static const char sustp_ptx[] = HDR
    ".visible .entry k(.param .u64 h, .param .u64 b)\n{\n"
    ".reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [h]; ld.param.u64 %rd2, [b];\n"
    "mov.u32 %r1, 1; mov.u32 %r2, 0;\n"
    "mov.b32 %r3, 0f3EAAAAAB; mov.b32 %r4, 0fC0000000;\n"
    "sust.p.2d.v2.b32.trap [%rd1, {%r1, %r2}], {%r3, %r4};\n"
    "mov.u32 %r3, 0x1FF; mov.u32 %r4, 7; mov.u32 %r5, 300;\n"
    "sust.p.1d.v4.b32.trap [%rd2, {%r1}], {%r3, %r4, %r5, %r1};\n"
    "ret;\n}\n";

START_TEST(t_sustp)
{
    load(sustp_ptx);
    ptxemu_array *h = mkarray(2, 1, PTXEMU_ARRAY_SURFACE_LDST, 2, 16,
                              PTXEMU_CHANNEL_FLOAT);
    ptxemu_array *b = mkarray(2, 0, PTXEMU_ARRAY_SURFACE_LDST, 4, 8,
                              PTXEMU_CHANNEL_UNSIGNED);
    uint64_t sh, sb;
    ck_assert_int_eq(ptxemu_surface_create(dev, h, &sh), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_surface_create(dev, b, &sb), PTXEMU_SUCCESS);
    void *p[] = {&sh, &sb};
    ptxemu_status st = run("k", 1, p);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
    uint16_t hv[4];
    uint8_t bv[8];
    ptxemu_array_box box = {0, 0, 0, 2, 1, 1};
    ptxemu_array_copy_to_host(h, &box, hv, sizeof(hv), 0);
    ptxemu_array_copy_to_host(b, &box, bv, sizeof(bv), 0);
    /* 1/3 in half is 0x3555; -2 is 0xC000; sample 0 untouched */
    ck_assert_uint_eq(hv[0], 0);
    ck_assert_uint_eq(hv[2], 0x3555);
    ck_assert_uint_eq(hv[3], 0xC000);
    ck_assert_uint_eq(bv[4], 0xFF);
    ck_assert_uint_eq(bv[5], 7);
    ck_assert_uint_eq(bv[6], 300 & 0xFF);
    ck_assert_uint_eq(bv[7], 1);
}
END_TEST

/* Forms left out fail at load with the decoder's message. */
START_TEST(t_unsupported)
{
    static const char src[] = HDR
        ".visible .entry k(.param .u64 t)\n{\n"
        ".reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [t];\n"
        "tld4.r.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, "
        "[%rd1, {%r1, %f5, %f6, %f6}];\n"
        "ret;\n}\n";
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_module_load_string(dev, "u.ptx", src,
                                                 strlen(src), &mod);
    ck_assert_int_eq(st, PTXEMU_ERROR_UNSUPPORTED);
    ck_assert_msg(strstr(ptxemu_last_error_message(dev),
                         "not supported by the emulator yet"), "%s",
                  ptxemu_last_error_message(dev));
}
END_TEST

/* Layered surfaces: suld.b.a1d.v2.b16 (layer, then x in bytes) and
 * suld.b.a2d.b64 / sust.b.a2d.b64 ({layer, x, y, unused}). */
static const char layered_ptx[] = HDR
    ".visible .entry k(.param .u64 s1, .param .u64 s2, .param .u64 o)\n{\n"
    ".reg .b16 %rs<4>; .reg .b32 %r<8>; .reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [s1]; ld.param.u64 %rd2, [s2];\n"
    "ld.param.u64 %rd3, [o];\n"
    "mov.u32 %r1, 1; mov.u32 %r2, 8;\n"
    "suld.b.a1d.v2.b16.trap {%rs1, %rs2}, [%rd1, {%r1, %r2}];\n"
    "st.global.v2.u16 [%rd3], {%rs1, %rs2};\n"
    "mov.u32 %r3, 0;\n"
    "suld.b.a2d.b64.trap %rd4, [%rd2, {%r1, %r2, %r1, %r3}];\n"
    "st.global.u64 [%rd3+8], %rd4;\n"
    "add.s64 %rd5, %rd4, 1;\n"
    "sust.b.a2d.b64.trap [%rd2, {%r3, %r3, %r3, %r3}], %rd5;\n"
    "ret;\n}\n";

START_TEST(t_layered_surf)
{
    load(layered_ptx);
    ptxemu_array_desc d;
    memset(&d, 0, sizeof(d));
    d.size = sizeof(d);
    d.width = 4;
    d.layers = 2;
    d.flags = PTXEMU_ARRAY_LAYERED | PTXEMU_ARRAY_SURFACE_LDST;
    d.format.channels = 2;
    d.format.bits = 16;
    d.format.kind = PTXEMU_CHANNEL_UNSIGNED;
    ptxemu_array *a1, *a2;
    ck_assert_int_eq(ptxemu_array_create(dev, &d, &a1), PTXEMU_SUCCESS);
    d.height = 2;
    d.format.bits = 32;
    ck_assert_int_eq(ptxemu_array_create(dev, &d, &a2), PTXEMU_SUCCESS);
    uint16_t v1[2][4][2];
    uint32_t v2[2][2][4][2];
    for (unsigned k = 0; k < 16; k++) {
        ((uint16_t *)v1)[k] = (uint16_t)(0x100 + k);
    }
    for (unsigned k = 0; k < 32; k++) {
        ((uint32_t *)v2)[k] = 0x1000 + k;
    }
    ptxemu_array_box b1 = {0, 0, 0, 4, 1, 2}, b2 = {0, 0, 0, 4, 2, 2};
    ck_assert_int_eq(ptxemu_array_copy_from_host(a1, &b1, v1, 16, 1),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_array_copy_from_host(a2, &b2, v2, 32, 2),
                     PTXEMU_SUCCESS);
    uint64_t s1, s2;
    ck_assert_int_eq(ptxemu_surface_create(dev, a1, &s1), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_surface_create(dev, a2, &s2), PTXEMU_SUCCESS);
    ptxemu_devptr o;
    ck_assert_int_eq(ptxemu_malloc(dev, 16, &o), PTXEMU_SUCCESS);
    void *p[] = {&s1, &s2, &o};
    ptxemu_status st = run("k", 1, p);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
    uint16_t g1[2];
    uint64_t g2;
    ptxemu_memcpy_dtoh(dev, g1, o, 4);
    ptxemu_memcpy_dtoh(dev, &g2, o + 8, 8);
    /* layer 1, byte 8 = element 2 */
    ck_assert_uint_eq(g1[0], v1[1][2][0]);
    ck_assert_uint_eq(g1[1], v1[1][2][1]);
    /* layer 1, row 1, byte 8 = element 1 */
    uint64_t want = v2[1][1][1][0] | (uint64_t)v2[1][1][1][1] << 32;
    ck_assert_uint_eq(g2, want);
    uint32_t back[2];
    ptxemu_array_box b0 = {0, 0, 0, 1, 1, 1};
    ptxemu_array_copy_to_host(a2, &b0, back, 8, 0);
    ck_assert_uint_eq(back[0], v2[1][1][1][0] + 1);
    ck_assert_uint_eq(back[1], v2[1][1][1][1]);
    /* a box outside the array is refused */
    ptxemu_array_box bad = {0, 0, 1, 4, 1, 2};
    ck_assert_int_eq(ptxemu_array_copy_from_host(a1, &bad, v1, 16, 1),
                     PTXEMU_ERROR_INVALID_VALUE);
}
END_TEST

/* ---- the corpus kernels tests/corpus/cu/tex_surf.cu ---- */

static void load_corpus(void)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/tex_surf.sm80.ptx",
             top ? top : ".");
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_module_load_file(dev, path, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
}

static void run_grid(const char *k, unsigned bx, unsigned by, void **p)
{
    ptxemu_function *f;
    ck_assert_int_eq(ptxemu_module_get_function(mod, k, &f), PTXEMU_SUCCESS);
    unsigned grid[3] = {1, 1, 1}, block[3] = {bx, by, 1};
    ptxemu_status st = ptxemu_launch(f, grid, block, 0, p);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s", k,
                  ptxemu_last_error_message(dev));
}

static uint64_t mktex(ptxemu_array *a, ptxemu_filter_mode filt, int norm)
{
    ptxemu_texture_desc td;
    ptxemu_texture_desc_default(&td);
    td.array = a;
    td.filter = filt;
    td.normalized_coords = norm;
    uint64_t t = 0;
    ck_assert_msg(ptxemu_texture_create(dev, &td, &t) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    return t;
}

enum { CW = 8, CH = 4 };

/* tex_fetch: t1 linear memory of CW*CH floats (normalized, point), t2 a
 * CWxCH float4 array (normalized, linear: at texel centres it returns
 * the texel), t3 a CWxCHx1 3-D float array of small bit patterns (so
 * tld4 as int4 reads exact integers).  Without mipmaps .level and
 * .grad read level 0. */
START_TEST(t_corpus_fetch)
{
    load_corpus();
    float lin[CW * CH], t2v[CH][CW][4];
    uint32_t t3v[CH][CW];
    for (unsigned k = 0; k < CW * CH; k++) {
        lin[k] = 0.25f * (float)k;
    }
    for (unsigned y = 0; y < CH; y++) {
        for (unsigned x = 0; x < CW; x++) {
            for (unsigned c = 0; c < 4; c++) {
                t2v[y][x][c] = (float)(100 * c + 10 * y + x);
            }
            t3v[y][x] = 7 * y + x + 1;
        }
    }
    ptxemu_devptr dl;
    ck_assert_int_eq(ptxemu_malloc(dev, sizeof(lin), &dl), PTXEMU_SUCCESS);
    ptxemu_memcpy_htod(dev, dl, lin, sizeof(lin));
    ptxemu_texture_desc td;
    ptxemu_texture_desc_default(&td);
    td.ptr = dl;
    td.width = CW * CH;
    td.format.channels = 1;
    td.format.bits = 32;
    td.format.kind = PTXEMU_CHANNEL_FLOAT;
    td.normalized_coords = 1;
    uint64_t t1;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t1), PTXEMU_SUCCESS);
    ptxemu_array *a2 = mkarray(CW, CH, 0, 4, 32, PTXEMU_CHANNEL_FLOAT);
    ptxemu_array_box box = {0, 0, 0, CW, CH, 1};
    ptxemu_array_copy_from_host(a2, &box, t2v, CW * 16, 0);
    ptxemu_array_desc d3;
    memset(&d3, 0, sizeof(d3));
    d3.size = sizeof(d3);
    d3.width = CW;
    d3.height = CH;
    d3.depth = 1;
    d3.format.channels = 1;
    d3.format.bits = 32;
    d3.format.kind = PTXEMU_CHANNEL_FLOAT;
    ptxemu_array *a3;
    ck_assert_int_eq(ptxemu_array_create(dev, &d3, &a3), PTXEMU_SUCCESS);
    ptxemu_array_copy_from_host(a3, &box, t3v, CW * 4, 0);
    uint64_t t2 = mktex(a2, PTXEMU_FILTER_LINEAR, 1);
    uint64_t t3 = mktex(a3, PTXEMU_FILTER_POINT, 1);
    ptxemu_devptr o;
    ck_assert_int_eq(ptxemu_malloc(dev, CW * CH * 4, &o), PTXEMU_SUCCESS);
    int w = CW, h = CH;
    void *p[] = {&t1, &t2, &t3, &o, &w, &h};
    run_grid("tex_fetch", CW, CH, p);
    float out[CH][CW];
    ptxemu_memcpy_dtoh(dev, out, o, sizeof(out));
    for (unsigned y = 0; y < CH; y++) {
        for (unsigned x = 0; x < CW; x++) {
            float u = ((float)x + 0.5f) / (float)w;
            unsigned bi = (unsigned)floorf(u * (float)(CW * CH));
            float a = lin[y * CW + x], b = lin[bi];
            const float *c = t2v[y][x];
            float d, e = c[1], f = c[2];
            uint32_t d3b = t3v[y][x];
            memcpy(&d, &d3b, 4);
            /* gather footprint at a centre: (x, y+1), (x+1, y+1),
             * (x+1, y), (x, y), clamped */
            unsigned x1 = x + 1 < CW ? x + 1 : x;
            unsigned y1 = y + 1 < CH ? y + 1 : y;
            float gx = t2v[y1][x][1], gw = t2v[y][x][1];
            int ly = (int)t3v[y1][x1];
            float want = a + b + c[0] + c[3] + d + e + f + gx + gw
                         + (float)ly;
            ck_assert_msg(out[y][x] == want, "(%u, %u): %.9g want %.9g", x,
                          y, (double)out[y][x], (double)want);
        }
    }
}
END_TEST

/* tex_layered: a CWx1 float array of 3 layers (unnormalized, point)
 * and a 4x4 cubemap (faces sampled with normalized coordinates). */
START_TEST(t_corpus_layered)
{
    load_corpus();
    enum { L = 3, N = 4 };
    ptxemu_array_desc d;
    memset(&d, 0, sizeof(d));
    d.size = sizeof(d);
    d.width = CW;
    d.height = 1;
    d.layers = L;
    d.flags = PTXEMU_ARRAY_LAYERED;
    d.format.channels = 1;
    d.format.bits = 32;
    d.format.kind = PTXEMU_CHANNEL_FLOAT;
    ptxemu_array *al, *ac;
    ck_assert_int_eq(ptxemu_array_create(dev, &d, &al), PTXEMU_SUCCESS);
    float lv[L][CW], cv[6][N][N];
    for (unsigned l = 0; l < L; l++) {
        for (unsigned x = 0; x < CW; x++) {
            lv[l][x] = (float)(1 << l) * (float)(x + 1);
        }
    }
    for (unsigned f = 0; f < 6; f++) {
        for (unsigned j = 0; j < N; j++) {
            for (unsigned i = 0; i < N; i++) {
                cv[f][j][i] = 1000.0f * (float)f + 10.0f * (float)j
                              + (float)i;
            }
        }
    }
    ptxemu_array_box bl = {0, 0, 0, CW, 1, L};
    ck_assert_int_eq(ptxemu_array_copy_from_host(al, &bl, lv, CW * 4, 1),
                     PTXEMU_SUCCESS);
    d.width = d.height = N;
    d.layers = 0;
    d.flags = PTXEMU_ARRAY_CUBEMAP;
    ck_assert_int_eq(ptxemu_array_create(dev, &d, &ac), PTXEMU_SUCCESS);
    ptxemu_array_box bc = {0, 0, 0, N, N, 6};
    ck_assert_int_eq(ptxemu_array_copy_from_host(ac, &bc, cv, N * 4, N),
                     PTXEMU_SUCCESS);
    uint64_t tl = mktex(al, PTXEMU_FILTER_POINT, 0);
    uint64_t tc = mktex(ac, PTXEMU_FILTER_POINT, 1);
    ptxemu_texture_desc lin;
    ptxemu_texture_desc_default(&lin);
    lin.array = ac;
    lin.filter = PTXEMU_FILTER_LINEAR;
    uint64_t tx;
    /* linear filtering, clamped at face edges or seamless */
    lin.seamless_cubemap = 1;
    ck_assert_int_eq(ptxemu_texture_create(dev, &lin, &tx),
                     PTXEMU_SUCCESS);
    lin.seamless_cubemap = 0;
    ck_assert_int_eq(ptxemu_texture_create(dev, &lin, &tx),
                     PTXEMU_SUCCESS);
    ptxemu_devptr o;
    ck_assert_int_eq(ptxemu_malloc(dev, CW * 4, &o), PTXEMU_SUCCESS);
    int w = CW, layers = L;
    void *p[] = {&tl, &tc, &o, &w, &layers};
    run_grid("tex_layered", CW, 1, p);
    float out[CW];
    ptxemu_memcpy_dtoh(dev, out, o, sizeof(out));
    for (unsigned x = 0; x < CW; x++) {
        float s = 0.0f;
        for (unsigned l = 0; l < L; l++) {
            s += lv[l][x];
        }
        /* direction (1, x/w, -0.5): face +X, s = -z = 0.5,
         * t = -y; u = 0.75, v = (1 - x/w) / 2 */
        float y = (float)x / (float)w;
        float v = (-y + 1.0f) * 0.5f;
        unsigned i = (unsigned)floorf(0.75f * N);
        unsigned j = (unsigned)floorf(v * N);
        s += cv[0][j][i];
        ck_assert_msg(out[x] == s, "x %u: %.9g want %.9g", x,
                      (double)out[x], (double)s);
    }
}
END_TEST

/* surf_copy on one 4x4 block (one warp, so every lane's 2-D store
 * precedes every lane's 1-D store, as the emulator runs a warp in
 * lockstep), then tex_query. */
START_TEST(t_corpus_surf)
{
    load_corpus();
    enum { W = 4, H = 4 };
    ptxemu_array *as = mkarray(W, H, PTXEMU_ARRAY_SURFACE_LDST, 4, 32,
                               PTXEMU_CHANNEL_FLOAT);
    ptxemu_array *ad = mkarray(W, H, PTXEMU_ARRAY_SURFACE_LDST, 4, 32,
                               PTXEMU_CHANNEL_FLOAT);
    float src[H][W][4], dst[H][W][4];
    for (unsigned y = 0; y < H; y++) {
        for (unsigned x = 0; x < W; x++) {
            for (unsigned c = 0; c < 4; c++) {
                src[y][x][c] = (float)(y * 16 + x * 4 + c) + 0.5f;
            }
        }
    }
    ptxemu_array_box box = {0, 0, 0, W, H, 1};
    ptxemu_array_copy_from_host(as, &box, src, W * 16, 0);
    uint64_t ss, sd;
    ck_assert_int_eq(ptxemu_surface_create(dev, as, &ss), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_surface_create(dev, ad, &sd), PTXEMU_SUCCESS);
    int w = W, h = H;
    void *p[] = {&ss, &sd, &w, &h};
    run_grid("surf_copy", W, H, p);
    ptxemu_array_copy_to_host(ad, &box, dst, W * 16, 0);
    float ref[H][W][4];
    memset(ref, 0, sizeof(ref));
    const uint8_t *sb = (const uint8_t *)src;
    for (unsigned y = 0; y < H; y++) {
        for (unsigned x = 0; x < W; x++) {
            memcpy(ref[H - 1 - y][x], src[y][x], 16);
            ref[H - 1 - y][x][0] = src[y][x][0]
                                   + (float)sb[y * W * 16 + x * 4];
        }
    }
    for (unsigned x = 0; x < W; x++) {
        int32_t i;
        memcpy(&i, sb + x * 4, 4);
        i += 1;
        memcpy((uint8_t *)ref + x * 4, &i, 4);
    }
    ck_assert_int_eq(memcmp(ref, dst, sizeof(ref)), 0);

    /* tex_query over a 2-D float4 texture of the source array */
    ptxemu_array *at = mkarray(6, 3, 0, 4, 32, PTXEMU_CHANNEL_FLOAT);
    uint64_t t = mktex(at, PTXEMU_FILTER_POINT, 0);
    ptxemu_devptr o;
    ck_assert_int_eq(ptxemu_malloc(dev, 7 * 4, &o), PTXEMU_SUCCESS);
    void *q[] = {&t, &ss, &o};
    run_grid("tex_query", 1, 1, q);
    int got[7];
    ptxemu_memcpy_dtoh(dev, got, o, sizeof(got));
    const int want[7] = {6, 3, 0, 0x10B5, W, H, 3};
    for (unsigned k = 0; k < 7; k++) {
        ck_assert_msg(got[k] == want[k], "out[%u] %d want %d", k, got[k],
                      want[k]);
    }
    /* sured.add 1 on element 0 of the source surface */
    float after[4];
    ptxemu_array_box b0 = {0, 0, 0, 1, 1, 1};
    ptxemu_array_copy_to_host(as, &b0, after, 16, 0);
    uint32_t bits0, bits1;
    memcpy(&bits0, &src[0][0][0], 4);
    memcpy(&bits1, &after[0], 4);
    ck_assert_uint_eq(bits1, bits0 + 1);
}
END_TEST

/* ---- mipmapped arrays through PTX ---- */

/* At (0.5, 0.5): tex.level at lod, tex.grad with gradient g along x
 * then along y, plain tex, txq of the levels, tld4.r, tex with an
 * offset of (+1, 0) texels at level 0 and (as tex.level) at lod, and
 * tex.level with an immediate lod (1.5) and .s32 results. */
static const char mip_ptx[] = HDR
    ".visible .entry mip(.param .u64 t, .param .u64 o, .param .f32 lod,"
    " .param .f32 g)\n{\n"
    ".reg .b32 %r<12>; .reg .f32 %f<16>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [o];\n"
    "ld.param.f32 %f1, [lod]; ld.param.f32 %f2, [g];\n"
    "mov.f32 %f3, 0f3F000000; mov.f32 %f4, 0f00000000;\n"
    "tex.level.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f3}], "
    "%f1;\n"
    "st.global.f32 [%rd2], %f5;\n"
    "tex.grad.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f3}], "
    "{%f2, %f4}, {%f4, %f4};\n"
    "st.global.f32 [%rd2+4], %f5;\n"
    "tex.grad.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f3}], "
    "{%f4, %f4}, {%f4, %f2};\n"
    "st.global.f32 [%rd2+8], %f5;\n"
    "tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f3}];\n"
    "st.global.f32 [%rd2+12], %f5;\n"
    "txq.num_mipmap_levels.b32 %r1, [%rd1];\n"
    "mov.u32 %r9, 1;\n"
    "txq.level.width.b32 %r2, [%rd1], %r9;\n"
    "txq.level.height.b32 %r3, [%rd1], %r9;\n"
    "mov.u32 %r9, 7;\n"
    "txq.level.width.b32 %r4, [%rd1], %r9;\n"
    "st.global.v4.u32 [%rd2+16], {%r1, %r2, %r3, %r4};\n"
    "tld4.r.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f3}];\n"
    "st.global.v4.f32 [%rd2+32], {%f5, %f6, %f7, %f8};\n"
    "mov.u32 %r5, 1; mov.u32 %r6, 0;\n"
    "tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f3}], "
    "{%r5, %r6};\n"
    "st.global.f32 [%rd2+48], %f5;\n"
    "tex.level.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f3}], "
    "%f1, {%r5, %r6};\n"
    "st.global.f32 [%rd2+52], %f5;\n"
    "tex.level.2d.v4.s32.f32 {%r5, %r6, %r7, %r8}, [%rd1, {%f3, %f3}], "
    "0f3FC00000;\n"
    "st.global.u32 [%rd2+56], %r5;\n"
    "ret;\n}\n"
    ".visible .entry dep(.param .u64 t, .param .u64 o)\n{\n"
    ".reg .b32 %r<4>; .reg .f32 %f<12>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [o];\n"
    "mov.f32 %f3, 0f3F000000; mov.u32 %r1, 0;\n"
    "tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f3}], "
    "{%r1, %r1}, %f3;\n"
    "st.global.f32 [%rd2], %f5;\n"
    "ret;\n}\n";

static ptxemu_array *mkmip(uint32_t w, uint32_t h, uint32_t levels)
{
    ptxemu_array_desc d;
    memset(&d, 0, sizeof(d));
    d.size = sizeof(d);
    d.width = w;
    d.height = h;
    d.levels = levels;
    d.format.channels = 1;
    d.format.bits = 32;
    d.format.kind = PTXEMU_CHANNEL_FLOAT;
    ptxemu_array *a = NULL;
    ck_assert_msg(ptxemu_array_create(dev, &d, &a) == PTXEMU_SUCCESS, "%s",
                  ptxemu_last_error_message(dev));
    return a;
}

/* Runs mip at (lod, g) and returns its 15 results. */
static void run_mip(uint64_t t, float lod, float g, float f[15])
{
    ptxemu_devptr o;
    ck_assert_int_eq(ptxemu_malloc(dev, 60, &o), PTXEMU_SUCCESS);
    void *p[] = {&t, &o, &lod, &g};
    ptxemu_status st = run("mip", 1, p);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
    ptxemu_memcpy_dtoh(dev, f, o, 60);
    ptxemu_free(dev, o);
}

/* An 8x4 float array asked for 10 levels gets 4: 8x4, 4x2, 2x1, 1x1.
 * Level 0 holds 1 + i, levels 1..3 hold 100 l. */
START_TEST(t_mipmap)
{
    load(mip_ptx);
    ptxemu_array *a = mkmip(8, 4, 10), *lv = NULL;
    ptxemu_array_desc d;
    ck_assert_int_eq(ptxemu_array_get_desc(a, &d), PTXEMU_SUCCESS);
    ck_assert_uint_eq(d.levels, 4);
    static const uint32_t ext[4][2] = {{8, 4}, {4, 2}, {2, 1}, {1, 1}};
    for (uint32_t l = 0; l < 4; l++) {
        ck_assert_int_eq(ptxemu_array_get_level(a, l, &lv),
                         PTXEMU_SUCCESS);
        ck_assert_int_eq(ptxemu_array_get_desc(lv, &d), PTXEMU_SUCCESS);
        ck_assert_uint_eq(d.width, ext[l][0]);
        ck_assert_uint_eq(d.height, ext[l][1]);
        ck_assert_uint_eq(d.levels, 0);
        float v[32];
        for (uint32_t k = 0; k < 32; k++) {
            v[k] = l ? 100.0f * (float)l : 1.0f + (float)(k % 8);
        }
        ptxemu_array_box b = {0, 0, 0, ext[l][0], ext[l][1], 1};
        ck_assert_int_eq(ptxemu_array_copy_from_host(lv, &b, v,
                                                     ext[l][0] * 4, 0),
                         PTXEMU_SUCCESS);
    }
    /* errors: no level 4, a plain array has no levels, a level is not
     * destroyed alone */
    ck_assert_int_eq(ptxemu_array_get_level(a, 4, &lv),
                     PTXEMU_ERROR_INVALID_VALUE);
    ptxemu_array *plain = mkarray(2, 2, 0, 1, 32, PTXEMU_CHANNEL_FLOAT);
    ck_assert_int_eq(ptxemu_array_get_level(plain, 0, &lv),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_array_get_level(a, 1, &lv), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_array_destroy(lv), PTXEMU_ERROR_INVALID_VALUE);
    ptxemu_texture_desc td;
    ptxemu_texture_desc_default(&td);
    td.array = a;
    td.normalized_coords = 1;
    td.mipmap_filter = PTXEMU_FILTER_LINEAR;
    td.max_mipmap_level_clamp = 3.0f;
    uint64_t t;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t), PTXEMU_SUCCESS);
    float f[15];
    uint32_t u[4];
    /* lod 1.5: 100/200 blend; x gradient 2 texels: level 1; y gradient
     * 1 texel: level 0 at texel 4 (value 5); plain tex: level 0 */
    run_mip(t, 1.5f, 0.25f, f);
    ck_assert(f[0] == 150.0f && f[1] == 100.0f && f[2] == 5.0f
              && f[3] == 5.0f);
    memcpy(u, &f[4], 16);
    ck_assert_uint_eq(u[0], 4);
    ck_assert_uint_eq(u[1], 4);
    ck_assert_uint_eq(u[2], 2);
    ck_assert_uint_eq(u[3], 0);
    /* tld4.r reads level 0: texels 3 and 4 of the footprint at x = 4 */
    ck_assert(f[8] == 4.0f && f[9] == 5.0f && f[10] == 5.0f
              && f[11] == 4.0f);
    /* offset (+1, 0): texel 5 at level 0; level 1.5 is flat */
    ck_assert(f[12] == 6.0f && f[13] == 150.0f);
    /* an immediate lod of 1.5 with .s32 results: the float's bits */
    ck_assert(f[14] == 150.0f);
    /* lod 0.25: 0.75 * 5 + 0.25 * 100; gradients 4 and 2 texels */
    run_mip(t, 0.25f, 0.5f, f);
    ck_assert(f[0] == 28.75f && f[1] == 200.0f && f[2] == 100.0f);
    /* bias 1 and min clamp 1: plain tex reads level 1; lod 0.5 reads
     * 1.5; point mipmap filter: 1.5 rounds to level 1 */
    td.mipmap_level_bias = 1.0f;
    td.min_mipmap_level_clamp = 1.0f;
    uint64_t t2;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t2), PTXEMU_SUCCESS);
    run_mip(t2, 0.5f, 0.0f, f);
    ck_assert(f[0] == 150.0f && f[3] == 100.0f);
    td.mipmap_filter = PTXEMU_FILTER_POINT;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t2), PTXEMU_SUCCESS);
    run_mip(t2, 0.5f, 0.0f, f);
    ck_assert(f[0] == 100.0f);
    /* a texture of one level alone is not mipmapped */
    ptxemu_array *l2;
    ck_assert_int_eq(ptxemu_array_get_level(a, 2, &l2), PTXEMU_SUCCESS);
    td.array = l2;
    uint64_t t3;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t3), PTXEMU_SUCCESS);
    run_mip(t3, 2.0f, 0.0f, f);
    ck_assert(f[0] == 200.0f);
    memcpy(u, &f[4], 16);
    ck_assert_uint_eq(u[0], 0);
    /* arrays in use are not destroyed */
    ck_assert_int_eq(ptxemu_array_destroy(a), PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_texture_destroy(dev, t3), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_array_destroy(a), PTXEMU_ERROR_INVALID_VALUE);
    /* bad descriptors */
    td.array = a;
    td.mipmap_level_bias = NAN;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t3),
                     PTXEMU_ERROR_INVALID_VALUE);
    td.mipmap_level_bias = 0;
    td.mipmap_filter = (ptxemu_filter_mode)7;
    ck_assert_int_eq(ptxemu_texture_create(dev, &td, &t3),
                     PTXEMU_ERROR_INVALID_VALUE);
    /* the depth compare form loads and then fails naming the form */
    run("dep", 1, (void *[]){&t, &t});
    ck_assert_msg(strstr(ptxemu_last_error_message(dev),
                         "depth compare operand is not supported"), "%s",
                  ptxemu_last_error_message(dev));
}
END_TEST

static Suite *texfetch_suite(void)
{
    Suite *s = suite_create("texfetch");
    TCase *tc = tcase_create("arith");
    tcase_add_loop_test(tc, t_filter_table, 0,
                        (int)(sizeof(cases1) / sizeof(cases1[0])));
    tcase_add_test(tc, t_weight);
    tcase_add_test(tc, t_int_fetch);
    tcase_add_test(tc, t_read_modes);
    tcase_add_test(tc, t_half);
    tcase_add_test(tc, t_layered);
    tcase_add_loop_test(tc, t_cube, 0,
                        (int)(sizeof(cubes) / sizeof(cubes[0])));
    tcase_add_test(tc, t_table);
    tcase_add_loop_test(tc, t_pick_levels, 0,
                        (int)(sizeof(picks) / sizeof(picks[0])));
    tcase_add_loop_test(tc, t_grad_lod, 0,
                        (int)(sizeof(grads) / sizeof(grads[0])));
    tcase_add_loop_test(tc, t_sample_mip, 0,
                        (int)(sizeof(mips) / sizeof(mips[0])));
    tcase_add_test(tc, t_cube_grad);
    tcase_add_test(tc, t_offsets);
    tcase_add_loop_test(tc, t_seamless, 0,
                        (int)(sizeof(seams) / sizeof(seams[0])));
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("ptx");
    tcase_set_timeout(tp, 60);
    tcase_add_checked_fixture(tp, NULL, teardown);
    tcase_add_test(tp, t_surface);
    tcase_add_test(tp, t_texture);
    tcase_add_test(tp, t_linear);
    tcase_add_test(tp, t_texref);
    tcase_add_test(tp, t_sustp);
    tcase_add_test(tp, t_layered_surf);
    tcase_add_test(tp, t_unsupported);
    tcase_add_test(tp, t_corpus_fetch);
    tcase_add_test(tp, t_corpus_layered);
    tcase_add_test(tp, t_corpus_surf);
    tcase_add_test(tp, t_mipmap);
    suite_add_tcase(s, tp);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(texfetch_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
