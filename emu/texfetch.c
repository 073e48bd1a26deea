/*
 * emu/texfetch.c: texture sampling (see texfetch.h).  Section names are
 * those of the CUDA C++ Programming Guide.
 */
#include "emu/texfetch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu/fp.h"

/* "Texture Memory" > read mode cudaReadModeNormalizedFloat: unsigned
 * n-bit x maps to x / (2^n - 1), signed to max(x / (2^(n-1) - 1), -1). */
static float norm_unsigned(uint32_t x, unsigned bits)
{
    return (float)x / (float)((1u << bits) - 1u);
}

static float norm_signed(int32_t x, unsigned bits)
{
    float f = (float)x / (float)((1u << (bits - 1)) - 1u);
    return f < -1.0f ? -1.0f : f;
}

void emu_tex_decode(const EmuTexData *d, uint8_t read_mode,
                    const uint8_t *p, EmuTexel *out)
{
    bool tofloat = d->kind == EMU_CH_FLOAT
                   || (read_mode == EMU_READ_NORM_FLOAT && d->bits < 32);
    out->isf = tofloat;
    for (unsigned c = 0; c < 4; c++) {
        if (c >= d->nch) {
            /* missing channels read (0, 0, 0, 1) */
            if (tofloat) {
                out->v.f[c] = c == 3 ? 1.0f : 0.0f;
            } else {
                out->v.u[c] = c == 3 ? 1u : 0u;
            }
            continue;
        }
        uint32_t raw = 0;
        memcpy(&raw, p + c * (d->bits / 8), d->bits / 8);
        if (d->kind == EMU_CH_FLOAT) {
            if (d->bits == 16) {
                out->v.f[c] = fp_f16_to_f32((uint16_t)raw);
            } else {
                memcpy(&out->v.f[c], &raw, 4);
            }
            continue;
        }
        int32_t sx = d->bits == 8 ? (int8_t)raw
                     : d->bits == 16 ? (int16_t)raw : (int32_t)raw;
        if (!tofloat) {
            out->v.u[c] = d->kind == EMU_CH_SIGNED ? (uint32_t)sx : raw;
        } else if (d->kind == EMU_CH_SIGNED) {
            out->v.f[c] = norm_signed(sx, d->bits);
        } else {
            out->v.f[c] = norm_unsigned(raw, d->bits);
        }
    }
}

/* "Linear Filtering": alpha is stored in 9-bit fixed point with 8 bits
 * of fraction, so 1.0 is exactly representable. */
float emu_tex_weight(float frac)
{
    return (float)lrintf(frac * 256.0f) / 256.0f;
}

/* Address mode on an integer texel index; returns false for a texel
 * outside the texture under border addressing. */
static bool address(uint8_t mode, int64_t i, uint32_t n, uint32_t *out)
{
    int64_t nn = n;
    switch (mode) {
    case EMU_ADDR_WRAP: {
        int64_t m = i % nn;
        *out = (uint32_t)(m < 0 ? m + nn : m);
        return true;
    }
    case EMU_ADDR_MIRROR: {
        int64_t m = i % (2 * nn);
        if (m < 0) {
            m += 2 * nn;
        }
        *out = (uint32_t)(m < nn ? m : 2 * nn - 1 - m);
        return true;
    }
    case EMU_ADDR_BORDER:
        if (i < 0 || i >= nn) {
            return false;
        }
        *out = (uint32_t)i;
        return true;
    default: /* clamp */
        *out = (uint32_t)(i < 0 ? 0 : i >= nn ? nn - 1 : i);
        return true;
    }
}

/* floor(v) as an index; NaN and huge values (whose conversion would be
 * undefined) saturate far outside any texture, so they clamp to an edge
 * or read the border. */
static int64_t floor_index(float v)
{
    const float lim = 1e12f;
    if (!(v > -lim)) {
        return -(int64_t)lim;
    }
    return v < lim ? (int64_t)floorf(v) : (int64_t)lim;
}

static void border_texel(const EmuTexData *d, const EmuTexSampler *s,
                         EmuTexel *out)
{
    bool tofloat = d->kind == EMU_CH_FLOAT
                   || (s->read_mode == EMU_READ_NORM_FLOAT && d->bits < 32);
    out->isf = tofloat;
    for (unsigned c = 0; c < 4; c++) {
        if (tofloat) {
            out->v.f[c] = s->border[c];
        } else {
            out->v.u[c] = (uint32_t)(int32_t)s->border[c];
        }
    }
}

static void texel_at(const EmuTexData *d, const EmuTexSampler *s,
                     unsigned dims, const int64_t *idx, uint32_t layer,
                     EmuTexRead rd, void *ctx, EmuTexel *out)
{
    uint32_t n[3] = {d->width, d->height, d->depth};
    uint32_t a[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; k++) {
        if (!address(s->addr_mode[k], idx[k], n[k], &a[k])) {
            border_texel(d, s, out);
            return;
        }
    }
    emu_tex_decode(d, s->read_mode, rd(ctx, d, a[0], a[1], a[2], layer),
                   out);
}

void emu_tex_fetch_int(const EmuTexData *d, const EmuTexSampler *s,
                       unsigned dims, const int32_t *c, uint32_t layer,
                       EmuTexRead rd, void *ctx, EmuTexel *out)
{
    EmuTexSampler t = *s;
    int64_t idx[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; k++) {
        idx[k] = (int64_t)c[k] + s->offset[k];
        /* wrap and mirror need normalized coordinates; integer
         * fetches behave as clamp */
        if (t.addr_mode[k] != EMU_ADDR_BORDER) {
            t.addr_mode[k] = EMU_ADDR_CLAMP;
        }
    }
    texel_at(d, &t, dims, idx, layer, rd, ctx, out);
}

/* Per cube face, the direction through face coordinates (sc, tc) in
 * [-1, 1]: x, y, z each as {major, sc, tc} coefficients (the inverse of
 * emu_tex_cube_face's table). */
static const int8_t cube_basis[6][3][3] = {
    {{1, 0, 0}, {0, 0, -1}, {0, -1, 0}},      /* +x: s = -z, t = -y */
    {{-1, 0, 0}, {0, 0, -1}, {0, 1, 0}},      /* -x: s = z, t = -y */
    {{0, 1, 0}, {1, 0, 0}, {0, 0, 1}},        /* +y: s = x, t = z */
    {{0, 1, 0}, {-1, 0, 0}, {0, 0, -1}},      /* -y: s = x, t = -z */
    {{0, 1, 0}, {0, 0, -1}, {1, 0, 0}},       /* +z: s = x, t = -y */
    {{0, -1, 0}, {0, 0, -1}, {-1, 0, 0}},     /* -z: s = -x, t = -y */
};

/* Seamless cubemap filtering (OpenGL 4.6 section 8.13.1, "Seamless
 * Cube Map Filtering"): a texel one past a face's edge is the texel of
 * the neighbouring face that the direction through its centre hits.
 * A footprint corner past two edges at once has no such texel; the
 * direction then picks one of the two neighbours (GL leaves the corner
 * to the implementation). */
static void cube_wrap(const EmuTexData *d, int64_t *idx, uint32_t *layer)
{
    int64_t n = d->width;
    if (idx[0] >= 0 && idx[0] < n && idx[1] >= 0 && idx[1] < n) {
        return;
    }
    unsigned face = *layer % 6;
    float st[3] = {1.0f, 2.0f * ((float)idx[0] + 0.5f) / (float)n - 1.0f,
                   2.0f * ((float)idx[1] + 0.5f) / (float)n - 1.0f};
    float dir[3];
    for (unsigned k = 0; k < 3; k++) {
        const int8_t *b = cube_basis[face][k];
        dir[k] = b[0] * st[0] + b[1] * st[1] + b[2] * st[2];
    }
    float u, v;
    unsigned f2 = emu_tex_cube_face(dir[0], dir[1], dir[2], &u, &v);
    int64_t i = floor_index(u * (float)n), j = floor_index(v * (float)n);
    idx[0] = i < 0 ? 0 : i >= n ? n - 1 : i;
    idx[1] = j < 0 ? 0 : j >= n ? n - 1 : j;
    *layer = *layer - face + f2;
}

void emu_tex_sample(const EmuTexData *d, const EmuTexSampler *s,
                    unsigned dims, const float *c, uint32_t layer,
                    EmuTexRead rd, void *ctx, EmuTexel *out)
{
    uint32_t n[3] = {d->width, d->height, d->depth};
    float x[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; k++) {
        /* "Texture Fetching": a normalized coordinate is scaled by the
         * size; wrap and mirror repeat with period 1 (resp. 2) in
         * normalized space, which address() reproduces on the texel
         * index. */
        x[k] = (s->normalized ? c[k] * (float)n[k] : c[k])
               + (float)s->offset[k];
    }
    if (s->filter == EMU_FILTER_POINT) {
        /* "Nearest-Point Sampling": tex(x) = T[floor(x)] */
        int64_t idx[3] = {0, 0, 0};
        for (unsigned k = 0; k < dims; k++) {
            idx[k] = floor_index(x[k]);
        }
        texel_at(d, s, dims, idx, layer, rd, ctx, out);
        return;
    }
    /* "Linear Filtering": xB = x - 0.5, i = floor(xB), alpha =
     * frac(xB) in 1.8 fixed point; the result is the weighted sum of
     * the 2^dims neighbours. */
    int64_t base[3] = {0, 0, 0};
    float w[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; k++) {
        float xb = x[k] - 0.5f;
        float fl = floorf(xb);
        base[k] = floor_index(xb);
        w[k] = isfinite(xb) ? emu_tex_weight(xb - fl) : 0.0f;
    }
    float acc[4] = {0, 0, 0, 0};
    for (unsigned corner = 0; corner < (1u << dims); corner++) {
        int64_t idx[3];
        float wt = 1.0f;
        for (unsigned k = 0; k < 3; k++) {
            unsigned hi = (corner >> k) & 1u;
            idx[k] = base[k] + hi;
            if (k < dims) {
                wt *= hi ? w[k] : 1.0f - w[k];
            }
        }
        EmuTexel t;
        uint32_t lay = layer;
        if (s->seamless && d->cube && dims == 2) {
            cube_wrap(d, idx, &lay);
        }
        texel_at(d, s, dims, idx, lay, rd, ctx, &t);
        for (unsigned ch = 0; ch < 4; ch++) {
            acc[ch] += wt * (t.isf ? t.v.f[ch] : (float)t.v.u[ch]);
        }
    }
    out->isf = true;
    memcpy(out->v.f, acc, sizeof(acc));
}

/* "Cubemap Textures": the face is that of the coordinate of largest
 * magnitude m; (s, t) per face as in the guide's table, then
 * u = (s / m + 1) / 2, v = (t / m + 1) / 2. */
unsigned emu_tex_cube_face(float x, float y, float z, float *u, float *v)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
    unsigned face;
    float m, sc, tc;
    if (ax >= ay && ax >= az) {
        face = x >= 0 ? 0 : 1;
        m = ax;
        sc = x >= 0 ? -z : z;
        tc = -y;
    } else if (ay >= az) {
        face = y >= 0 ? 2 : 3;
        m = ay;
        sc = x;
        tc = y >= 0 ? z : -z;
    } else {
        face = z >= 0 ? 4 : 5;
        m = az;
        sc = z >= 0 ? x : -x;
        tc = -y;
    }
    if (m == 0.0f) {
        m = 1.0f;
    }
    *u = (sc / m + 1.0f) * 0.5f;
    *v = (tc / m + 1.0f) * 0.5f;
    return face;
}

/* Derivatives of the cube face coordinates: with the major axis
 * component m and the face's (sc, tc) as in emu_tex_cube_face (all
 * linear in the direction, with the signs of the selected face),
 * u = (sc / m + 1) / 2 gives du = (dsc m - sc dm) / (2 m^2), likewise
 * dv (OpenGL 4.6 core profile specification, section 8.13.1, "Cube Map
 * Texture Selection", equations 8.4-8.5). */
void emu_tex_cube_grad(const float *dir, const float *g, float *du,
                       float *dv)
{
    float ax = fabsf(dir[0]), ay = fabsf(dir[1]), az = fabsf(dir[2]);
    float m, dm, sc, dsc, tc, dtc;
    if (ax >= ay && ax >= az) {
        float sg = dir[0] >= 0 ? 1.0f : -1.0f;
        m = ax, dm = sg * g[0];
        sc = -sg * dir[2], dsc = -sg * g[2];
        tc = -dir[1], dtc = -g[1];
    } else if (ay >= az) {
        float sg = dir[1] >= 0 ? 1.0f : -1.0f;
        m = ay, dm = sg * g[1];
        sc = dir[0], dsc = g[0];
        tc = sg * dir[2], dtc = sg * g[2];
    } else {
        float sg = dir[2] >= 0 ? 1.0f : -1.0f;
        m = az, dm = sg * g[2];
        sc = sg * dir[0], dsc = sg * g[0];
        tc = -dir[1], dtc = -g[1];
    }
    if (m == 0.0f) {
        *du = *dv = 0.0f;
        return;
    }
    *du = (dsc * m - sc * dm) / (2.0f * m * m);
    *dv = (dtc * m - tc * dm) / (2.0f * m * m);
}

/* OpenGL 4.6 core profile specification, section 8.14.1 "Scale Factor
 * and Level of Detail", equations 8.7 and 8.9 (the CUDA guide says only
 * that tex2DGrad derives the level from the gradients): the scale
 * factor rho is the longer of the two gradients measured in texels of
 * level 0, and lambda = log2(rho).  Anisotropic filtering would take
 * several samples along the longer gradient at the level of the
 * shorter one (up to maxAnisotropy of them); the emulator filters
 * isotropically, at the longer gradient's level, whatever
 * maxAnisotropy says. */
float emu_tex_grad_lod(const EmuTexData *d, const EmuTexSampler *s,
                       unsigned dims, const float *ddx, const float *ddy)
{
    uint32_t n[3] = {d->width, d->height, d->depth};
    double lx = 0, ly = 0;
    for (unsigned k = 0; k < dims && k < 3; k++) {
        double sc = s->normalized ? (double)n[k] : 1.0;
        lx += (ddx[k] * sc) * (ddx[k] * sc);
        ly += (ddy[k] * sc) * (ddy[k] * sc);
    }
    double rho = sqrt(lx > ly ? lx : ly);
    return (float)log2(rho);
}

/* The level of detail is biased, clamped to the sampler's
 * [min_lod, max_lod] and to the levels there are (OpenGL 4.6 section
 * 8.14.1, equation 8.6, with CUDA's mipmapLevelBias and
 * min/maxMipmapLevelClamp), then kept in 1.8 fixed point like the
 * linear filter's weights ("Linear Filtering" in the CUDA guide): the
 * guide gives no precision for the level blend, and 8 fraction bits
 * keep it exact at quarter and half levels.  Point mipmap filtering
 * reads the nearest level, a tie going to the finer one (section
 * 8.14.3: level ceil(lambda + 1/2) - 1 for lambda > 1/2); linear reads
 * floor(lambda) and the next level, weighted by the fraction. */
void emu_tex_pick_levels(const EmuTexSampler *s, unsigned nlevels,
                         float lod, unsigned lv[2], float *w)
{
    float top = nlevels ? (float)(nlevels - 1) : 0.0f;
    if (isnan(lod)) {
        lod = 0.0f;
    }
    lod += s->lod_bias;
    lod = lod < s->min_lod ? s->min_lod : lod;
    lod = lod > s->max_lod ? s->max_lod : lod;
    lod = !(lod > 0.0f) ? 0.0f : lod > top ? top : lod;
    lod = (float)lrintf(lod * 256.0f) / 256.0f;
    float fl = floorf(lod);
    if (s->mip_filter == EMU_FILTER_POINT) {
        float l = lod <= 0.5f ? 0.0f : ceilf(lod + 0.5f) - 1.0f;
        lv[0] = lv[1] = (unsigned)(l > top ? top : l);
        *w = 0.0f;
        return;
    }
    lv[0] = (unsigned)fl;
    lv[1] = lv[0] + 1 < nlevels ? lv[0] + 1 : lv[0];
    *w = lv[1] == lv[0] ? 0.0f : lod - fl;
}

void emu_tex_sample_mip(const EmuTexData *levels, unsigned nlevels,
                        const EmuTexSampler *s, unsigned dims,
                        const float *c, uint32_t layer, float lod,
                        EmuTexRead rd, void *ctx, EmuTexel *out)
{
    unsigned lv[2];
    float w;
    emu_tex_pick_levels(s, nlevels, lod, lv, &w);
    emu_tex_sample(&levels[lv[0]], s, dims, c, layer, rd, ctx, out);
    if (w == 0.0f || !out->isf) {
        return;
    }
    EmuTexel hi;
    emu_tex_sample(&levels[lv[1]], s, dims, c, layer, rd, ctx, &hi);
    for (unsigned ch = 0; ch < 4; ch++) {
        out->v.f[ch] = (1.0f - w) * out->v.f[ch] + w * hi.v.f[ch];
    }
}

/* ---- object table ---- */

uint64_t emu_tex_add(EmuTexTable *t, const EmuTexObj *o)
{
    uint32_t i;
    for (i = 0; i < t->n; i++) {
        if (t->objs[i].kind == EMU_OBJ_FREE) {
            break;
        }
    }
    if (i == t->n) {
        if (t->n == t->cap) {
            uint32_t cap = t->cap ? 2 * t->cap : 16;
            EmuTexObj *p = realloc(t->objs, cap * sizeof(*p));
            if (!p) {
                return 0;
            }
            t->objs = p;
            t->cap = cap;
        }
        t->n++;
    }
    t->objs[i] = *o;
    return EMU_TEX_HANDLE_TAG | (i + 1u);
}

EmuTexObj *emu_tex_find(EmuTexTable *t, uint64_t h, uint8_t kind)
{
    if (!t || (h & ~0xFFFFFFFFull) != EMU_TEX_HANDLE_TAG) {
        return NULL;
    }
    uint64_t i = (h & 0xFFFFFFFFull) - 1;
    if (i >= t->n || t->objs[i].kind != kind) {
        return NULL;
    }
    return &t->objs[i];
}

EmuStatus emu_tex_remove(EmuTexTable *t, uint64_t h, uint8_t kind)
{
    EmuTexObj *o = emu_tex_find(t, h, kind);
    if (!o) {
        return EMU_ERR_INVALID_VALUE;
    }
    o->kind = EMU_OBJ_FREE;
    return EMU_OK;
}

EmuStatus emu_tex_bind(EmuTexTable *t, const void *mod, const char *name,
                       uint64_t handle)
{
    for (uint32_t i = 0; i < t->nbinds; i++) {
        EmuTexBinding *b = &t->binds[i];
        if (b->mod == mod && strcmp(b->name, name) == 0) {
            b->handle = handle;
            return EMU_OK;
        }
    }
    EmuTexBinding *p = realloc(t->binds, (t->nbinds + 1) * sizeof(*p));
    if (!p) {
        return EMU_ERR_OUT_OF_MEMORY;
    }
    t->binds = p;
    p[t->nbinds].mod = mod;
    p[t->nbinds].handle = handle;
    p[t->nbinds].name = strdup(name);
    if (!p[t->nbinds].name) {
        return EMU_ERR_OUT_OF_MEMORY;
    }
    t->nbinds++;
    return EMU_OK;
}

uint64_t emu_tex_binding(const EmuTexTable *t, const void *mod,
                         const char *name)
{
    for (uint32_t i = 0; t && i < t->nbinds; i++) {
        if (t->binds[i].mod == mod && strcmp(t->binds[i].name, name) == 0) {
            return t->binds[i].handle;
        }
    }
    return 0;
}

void emu_tex_unbind_module(EmuTexTable *t, const void *mod)
{
    /* A module never bound changes nothing (one whose load failed
     * beside a running kernel, which reads the table) */
    uint32_t k = 0;
    while (t && k < t->nbinds && t->binds[k].mod != mod) {
        k++;
    }
    if (!t || k == t->nbinds) {
        return;
    }
    k = 0;
    for (uint32_t i = 0; i < t->nbinds; i++) {
        if (t->binds[i].mod == mod) {
            free(t->binds[i].name);
        } else {
            t->binds[k++] = t->binds[i];
        }
    }
    t->nbinds = k;
}

void emu_tex_table_free(EmuTexTable *t)
{
    for (uint32_t i = 0; i < t->nbinds; i++) {
        free(t->binds[i].name);
    }
    free(t->binds);
    free(t->objs);
    memset(t, 0, sizeof(*t));
}
