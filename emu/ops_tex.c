/*
 * emu/ops_tex.c: texture and surface instructions (PTX ISA 9.0,
 * "Texture Instructions" and "Surface Instructions"): tex, tld4, txq,
 * istypep, suld.b, sust.b, sured.b, suq.  Objects are the device's
 * EmuTexTable entries; their handles are the .u64 values kernels get
 * (bindless), or the binding of a module's .texref/.surfref.  Sampling
 * arithmetic is texfetch.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu/access.h"
#include "emu/decode.h"
#include "emu/exec.h"
#include "emu/fp.h"
#include "emu/memory.h"
#include "emu/ops.h"
#include "emu/texfetch.h"
#include "ptx/opcode.h"

/* ---- handle resolution ---- */

static EmuTexObj *lookup(EmuCtx *x, const EmuInsn *i, uint64_t h,
                         uint8_t kind, unsigned lane)
{
    EmuTexObj *o = emu_tex_find(x->dev->tex, h, kind);
    if (!o) {
        emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, h, 0,
                  PTX_SPACE_GLOBAL,
                  "%s: 0x%llx is not a live %s object handle",
                  ptx_opinfo((PtxOpcode)i->op)->name,
                  (unsigned long long)h,
                  kind == EMU_OBJ_TEX ? "texture" : "surface");
    }
    return o;
}

/* The handle of operand o for a lane: a register of a tuple, an
 * address operand [%rd], or a bound .texref/.surfref symbol. */
static uint64_t handle_of(EmuCtx *x, const EmuInsn *i, unsigned k,
                          unsigned lane)
{
    const EmuOpnd *o = &i->o[k];
    if (o->kind == EO_VEC) {
        uint32_t s = x->func->vslots[o->reg];
        if (s != EMU_NOREG) {
            return x->regs[(size_t)s * EMU_WARP_SIZE + lane];
        }
    } else if (o->kind == EO_ADDR && o->reg != EMU_NOREG) {
        return x->regs[(size_t)o->reg * EMU_WARP_SIZE + lane] + o->imm;
    } else if (o->kind == EO_REG) {
        return emu_src(x, o, lane);
    }
    /* a module-scope .texref/.surfref: its bound handle */
    const IrOperand *io = &i->ir->opnds[k];
    if (io->kind == IR_O_TUPLE && io->n) {
        io = &io->u.elems[0];
    }
    if ((io->kind == IR_O_SYM || io->kind == IR_O_ADDR) && io->u.sym) {
        return emu_tex_binding(x->dev->tex, x->func->mod, io->u.sym->name);
    }
    return 0;
}

/* The bytes an object's images span: level 0 on, up to the end of the
 * last level (a mipmapped array's levels share one allocation). */
static uint64_t span(const EmuTexObj *o)
{
    const EmuTexData *d = &o->data;
    uint64_t end = d->addr + d->pitch * d->height * d->depth * d->layers;
    for (unsigned l = 1; l < o->nlevels; l++) {
        const EmuTexData *v = &o->lv[l];
        uint64_t e = v->addr + v->pitch * v->height * v->depth * v->layers;
        end = e > end ? e : end;
    }
    return end - d->addr;
}

/* A texture's storage, checked once per fetch as a whole (storage());
 * each texel read is then noted through the funnel (emu/access.h). */
typedef struct Reader {
    uint64_t addr;              /* device address of host[0] */
    uint8_t *host;
    EmuCtx *x;
    unsigned lane;
} Reader;

/* The host bytes of an object's storage in r; false (after a fault)
 * when its memory has been freed. */
static bool storage(EmuCtx *x, const EmuTexObj *o, unsigned lane,
                    Reader *r)
{
    const EmuTexData *d = &o->data;
    uint64_t size = span(o);
    const EmuAlloc *a = emu_mem_find(x->dev->mem, d->addr, size);
    if (!a) {
        emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, d->addr,
                  (uint32_t)size, PTX_SPACE_GLOBAL,
                  "the memory of a texture or surface object was freed");
        return false;
    }
    r->addr = d->addr;
    r->host = a->host + (d->addr - a->addr);
    r->x = x;
    r->lane = lane;
    return true;
}

static const uint8_t *read_elem(void *ctx, const EmuTexData *d, uint32_t i,
                                uint32_t j, uint32_t k, uint32_t l)
{
    const Reader *r = ctx;
    uint64_t row = ((uint64_t)l * d->depth + k) * d->height + j;
    uint64_t off = (d->addr - r->addr) + row * d->pitch
                   + (uint64_t)i * emu_tex_elem_bytes(d);
    if (r->x->acc) {
        emu_access_note(r->x, r->lane, PTX_SPACE_GLOBAL, r->addr + off,
                        emu_tex_elem_bytes(d), EMU_ACC_TEXEL_READ);
    }
    return r->host + off;
}

/* Coordinate c of tuple operand t (after the handle). */
static uint32_t coord_u(EmuCtx *x, const EmuOpnd *t, unsigned c,
                        unsigned lane)
{
    if (t->pad + c >= t->n) {
        return 0;
    }
    uint32_t s = x->func->vslots[t->reg + t->pad + c];
    return s == EMU_NOREG ? 0
           : (uint32_t)x->regs[(size_t)s * EMU_WARP_SIZE + lane];
}

static float coord_f(EmuCtx *x, const EmuInsn *i, unsigned c,
                     unsigned lane)
{
    uint32_t u = coord_u(x, &i->o[1], c, lane);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void put4(EmuCtx *x, const EmuInsn *i, unsigned lane,
                 const uint32_t v[4])
{
    const EmuOpnd *d = &i->o[0];
    for (unsigned c = 0; c < d->n && c < 4; c++) {
        uint32_t s = x->func->vslots[d->reg + c];
        if (s != EMU_NOREG) {
            x->regs[(size_t)s * EMU_WARP_SIZE + lane] = v[c];
        }
    }
}

/* ---- tex ---- */

static unsigned geom_of(const IrInsn *in, bool *ok)
{
    switch (ir_insn_mod(in, PTX_MG_GEOM)) {
    case PTX_M_G1D: return EMU_GEOM_1D;
    case PTX_M_G2D: return EMU_GEOM_2D;
    case PTX_M_G3D: return EMU_GEOM_3D;
    case PTX_M_A1D: return EMU_GEOM_A1D;
    case PTX_M_A2D: return EMU_GEOM_A2D;
    case PTX_M_CUBE: return EMU_GEOM_CUBE;
    case PTX_M_ACUBE: return EMU_GEOM_ACUBE;
    default:
        *ok = false;
        return 0;
    }
}

static void texel_bits(const EmuTexel *t, uint32_t v[4])
{
    memcpy(v, t->v.u, 16);
}

/* aux of tex/tld4: geometry | component << 4 | int coords << 7 |
 * level-of-detail form << 8 | offset operand index << 10 (0: none) */
enum { LOD_NONE = 0, LOD_LEVEL = 1, LOD_GRAD = 2 };
#define AUX_ICOORD 0x80u
#define AUX_LOD(a) (((a) >> 8) & 3u)
#define AUX_OFF(a) (((a) >> 10) & 7u)

/* Component c of vector operand k as raw bits (0 past its end). */
static uint32_t vec_u(EmuCtx *x, const EmuInsn *i, unsigned k, unsigned c,
                      unsigned lane)
{
    const EmuOpnd *o = &i->o[k];
    if (o->kind != EO_VEC) {
        return c == 0 ? (uint32_t)emu_src(x, o, lane) : 0;
    }
    if (c >= o->n) {
        return 0;
    }
    uint32_t s = x->func->vslots[o->reg + c];
    return s == EMU_NOREG ? 0
           : (uint32_t)x->regs[(size_t)s * EMU_WARP_SIZE + lane];
}

static float as_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The offset operand's texel offsets, if the instruction has one. */
static void offsets(EmuCtx *x, const EmuInsn *i, unsigned dims,
                    unsigned lane, EmuTexSampler *s)
{
    unsigned k = AUX_OFF(i->aux);
    for (unsigned c = 0; k && c < dims; c++) {
        /* PTX ISA "tex": offsets lie in -8..+7; keep the low 4 bits
         * as the hardware field would */
        int32_t v = (int32_t)vec_u(x, i, k, c, lane);
        s->offset[c] = (int8_t)(((v & 15) ^ 8) - 8);
    }
}

/* The level of detail of a lane's fetch from a mipmapped object: the
 * lod operand of .level, the gradients' of .grad, and -inf for other
 * forms: outside graphics shaders the hardware takes the derivatives
 * as 0 (envytools, "Tesla CUDA texture instructions": texauto), so
 * plain tex reads the finest level the clamps allow. */
static float fetch_lod(EmuCtx *x, const EmuInsn *i, const EmuTexObj *o,
                       unsigned geom, unsigned dims, const float *dir,
                       unsigned lane)
{
    unsigned m = AUX_LOD(i->aux);
    if (m == LOD_LEVEL) {
        return as_f(vec_u(x, i, 2, 0, lane));
    }
    if (m != LOD_GRAD) {
        return -INFINITY;
    }
    float gx[3] = {0, 0, 0}, gy[3] = {0, 0, 0};
    unsigned n = geom == EMU_GEOM_CUBE || geom == EMU_GEOM_ACUBE ? 3
                 : dims;
    for (unsigned c = 0; c < n; c++) {
        gx[c] = as_f(vec_u(x, i, 2, c, lane));
        gy[c] = as_f(vec_u(x, i, 3, c, lane));
    }
    EmuTexSampler s = o->samp;
    if (n == 3 && dims == 2) {
        /* cube: direction gradients to face-coordinate gradients */
        float ux, vx, uy, vy;
        emu_tex_cube_grad(dir, gx, &ux, &vx);
        emu_tex_cube_grad(dir, gy, &uy, &vy);
        gx[0] = ux, gx[1] = vx, gy[0] = uy, gy[1] = vy;
        s.normalized = 1;
    }
    return emu_tex_grad_lod(&o->data, &s, dims, gx, gy);
}

static void op_tex(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    unsigned geom = i->aux & 15u;
    bool icoord = i->aux & AUX_ICOORD;
    EMU_FOR_LANES(mask, lane) {
        uint64_t h = handle_of(x, i, 1, lane);
        EmuTexObj *o = lookup(x, i, h, EMU_OBJ_TEX, lane);
        Reader r;
        if (!o || !storage(x, o, lane, &r)) {
            return;
        }
        unsigned c0 = 0, dims;
        uint32_t layer = 0;
        float fc[3] = {0, 0, 0}, dir[3] = {0, 0, 0};
        int32_t ic[3] = {0, 0, 0};
        EmuTexSampler s = o->samp;
        switch (geom) {
        case EMU_GEOM_A1D:
        case EMU_GEOM_A2D:
        case EMU_GEOM_ACUBE:
            layer = coord_u(x, &i->o[1], 0, lane);
            c0 = 1;
            break;
        default:
            break;
        }
        dims = geom == EMU_GEOM_1D || geom == EMU_GEOM_A1D ? 1
               : geom == EMU_GEOM_3D ? 3 : 2;
        if (geom == EMU_GEOM_CUBE || geom == EMU_GEOM_ACUBE) {
            float u, v;
            for (unsigned c = 0; c < 3; c++) {
                dir[c] = coord_f(x, i, c0 + c, lane);
            }
            unsigned face = emu_tex_cube_face(dir[0], dir[1], dir[2], &u,
                                              &v);
            layer = layer * 6 + face;
            fc[0] = u;
            fc[1] = v;
            s.normalized = 1;
            /* faces clamp at their edges (a seamless sampler reads
             * the neighbouring face instead: texfetch.c) */
            s.addr_mode[0] = s.addr_mode[1] = EMU_ADDR_CLAMP;
        } else {
            for (unsigned c = 0; c < dims; c++) {
                ic[c] = (int32_t)coord_u(x, &i->o[1], c0 + c, lane);
                fc[c] = coord_f(x, i, c0 + c, lane);
            }
            offsets(x, i, dims, lane, &s);
        }
        if ((int32_t)layer < 0) {
            layer = 0;                    /* the layer index clamps */
        } else if (layer >= o->data.layers) {
            layer = o->data.layers - 1;
        }
        EmuTexel t;
        if (icoord && geom != EMU_GEOM_CUBE && geom != EMU_GEOM_ACUBE) {
            /* integer coordinates address level 0 */
            emu_tex_fetch_int(&o->data, &s, dims, ic, layer, read_elem,
                              &r, &t);
        } else if (o->nlevels) {
            float lod = fetch_lod(x, i, o, geom, dims, dir, lane);
            emu_tex_sample_mip(o->lv, o->nlevels, &s, dims, fc, layer, lod,
                               read_elem, &r, &t);
        } else {
            emu_tex_sample(&o->data, &s, dims, fc, layer, read_elem, &r,
                           &t);
        }
        uint32_t v[4];
        texel_bits(&t, v);
        if (i->type == PTX_T_F16X2) {
            /* .v2.f16x2: (R, G) and (B, A) as halves, rounded to
             * nearest, the first in the low half */
            uint32_t hv[4];
            for (unsigned c = 0; c < 4; c++) {
                hv[c] = (uint32_t)fp_round_d(&fp_fmt_f16, fp_f32(v[c]),
                                             FP_RN, 0);
            }
            v[0] = hv[0] | hv[1] << 16;
            v[1] = hv[2] | hv[3] << 16;
        }
        put4(x, i, lane, v);
    }
}

/* "Texture Fetching" > tex2Dgather: the four texels of the linear
 * footprint, in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j), of
 * level 0 of a mipmapped object. */
static void op_tld4(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    unsigned comp = (i->aux >> 4) & 3u;
    EMU_FOR_LANES(mask, lane) {
        uint64_t h = handle_of(x, i, 1, lane);
        EmuTexObj *o = lookup(x, i, h, EMU_OBJ_TEX, lane);
        Reader r;
        if (!o || !storage(x, o, lane, &r)) {
            return;
        }
        EmuTexSampler s = o->samp;
        offsets(x, i, 2, lane, &s);
        float fc[2] = { coord_f(x, i, 0, lane), coord_f(x, i, 1, lane) };
        if (s.normalized) {
            fc[0] *= (float)o->data.width;
            fc[1] *= (float)o->data.height;
        }
        fc[0] += s.offset[0];
        fc[1] += s.offset[1];
        s.offset[0] = s.offset[1] = 0;
        s.normalized = 0;
        s.filter = EMU_FILTER_POINT;
        static const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
        uint32_t v[4];
        for (unsigned k = 0; k < 4; k++) {
            float p[2] = { floorf(fc[0] - 0.5f) + (float)dx[k] + 0.5f,
                           floorf(fc[1] - 0.5f) + (float)dy[k] + 0.5f };
            EmuTexel t;
            emu_tex_sample(&o->data, &s, 2, p, 0, read_elem, &r, &t);
            v[k] = t.v.u[comp];
        }
        put4(x, i, lane, v);
    }
}

/* Forms decoded but not emulated: they load, and fault naming the form
 * if executed. */
static void op_tex_unsupported(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        emu_fault(x, EMU_ERR_UNSUPPORTED, lane, 0, 0, PTX_SPACE_GLOBAL,
                  "%s with a depth compare operand is not supported by "
                  "the emulator (CUDA gives texture objects no compare "
                  "function)", ptx_opinfo((PtxOpcode)i->op)->name);
        return;
    }
}

/* ---- queries ---- */

/* OpenCL channel type / order codes, which txq returns (PTX ISA
 * "txq": channel_data_type, channel_order use the OpenCL values). */
static uint32_t channel_type(const EmuTexData *d, uint8_t read_mode)
{
    bool norm = read_mode == EMU_READ_NORM_FLOAT;
    unsigned b = d->bits == 8 ? 0 : d->bits == 16 ? 1 : 2;
    if (d->kind == EMU_CH_FLOAT) {
        return d->bits == 16 ? 0x10DDu : 0x10DEu;
    }
    if (norm && b < 2) {
        return (d->kind == EMU_CH_SIGNED ? 0x10D0u : 0x10D2u) + b;
    }
    return (d->kind == EMU_CH_SIGNED ? 0x10D7u : 0x10DAu) + b;
}

static uint32_t query(const EmuTexObj *o, PtxMod q, bool *ok)
{
    const EmuTexData *d = &o->data;
    switch (q) {
    case PTX_M_WIDTH: return d->width;
    case PTX_M_HEIGHT: return d->height;
    case PTX_M_DEPTH: return d->depth;
    case PTX_M_CHANNEL_DATA_TYPE: return channel_type(d, o->samp.read_mode);
    case PTX_M_CHANNEL_ORDER:
        return d->nch == 1 ? 0x10B0u : d->nch == 2 ? 0x10B2u : 0x10B5u;
    case PTX_M_NORMALIZED_COORDS: return o->samp.normalized;
    case PTX_M_FILTER_MODE: return o->samp.filter;
    case PTX_M_ADDR_MODE_0: return o->samp.addr_mode[0];
    case PTX_M_ADDR_MODE_1: return o->samp.addr_mode[1];
    case PTX_M_ADDR_MODE_2: return o->samp.addr_mode[2];
    case PTX_M_NUM_MIPMAP_LEVELS: return o->nlevels;
    case PTX_M_NUM_SAMPLES: return 0;
    case PTX_M_ARRAY_SIZE:
        return d->cube ? d->layers / 6 : d->layered ? d->layers : 0;
    default:
        *ok = false;
        return 0;
    }
}

static void op_query(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint8_t kind = i->op == PTX_OP_SUQ ? EMU_OBJ_SURF : EMU_OBJ_TEX;
    EMU_FOR_LANES(mask, lane) {
        EmuTexObj *o = lookup(x, i, handle_of(x, i, 1, lane), kind, lane);
        if (!o) {
            return;
        }
        bool ok = true;
        uint32_t v = query(o, (PtxMod)i->aux, &ok);
        if (kind == EMU_OBJ_SURF && i->aux == PTX_M_WIDTH) {
            v = o->data.width;
        }
        x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE + lane] = v;
    }
}

/* txq.level.{width,height,depth} d, [a], lod: the extent of level lod
 * (a .s32); 0 for a level the object does not have (a texture that is
 * not mipmapped has level 0 only). */
static void op_query_level(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        EmuTexObj *o = lookup(x, i, handle_of(x, i, 1, lane), EMU_OBJ_TEX,
                              lane);
        if (!o) {
            return;
        }
        int32_t l = (int32_t)emu_src(x, &i->o[2], lane);
        uint32_t n = o->nlevels ? o->nlevels : 1;
        uint32_t v = 0;
        if (l >= 0 && (uint32_t)l < n) {
            const EmuTexData *d = o->nlevels ? &o->lv[l] : &o->data;
            v = i->aux == PTX_M_WIDTH ? d->width
                : i->aux == PTX_M_HEIGHT ? d->height : d->depth;
        }
        x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE + lane] = v;
    }
}

static void op_istypep(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint8_t kind = i->aux;
    EMU_FOR_LANES(mask, lane) {
        uint64_t h = handle_of(x, i, 1, lane);
        x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE + lane] =
            emu_tex_find(x->dev->tex, h, kind) != NULL;
    }
}

/* ---- surfaces ---- */

/* aux of suld/sust/sured: geometry | clamp mode << 4 | formatted (.p)
 * << 7 | redop << 8 */
#define SURF_FORMATTED 0x80u
enum { SC_TRAP = 0, SC_CLAMP = 1, SC_ZERO = 2 };
enum { RED_ADD, RED_MIN, RED_MAX, RED_AND, RED_OR };

/* The host bytes of a surface access of `size` bytes at the lane's
 * coordinates (x in bytes, as .b addressing says), noted as `kind`, or
 * NULL: after a fault (.trap), or for .zero out of range. */
static uint8_t *surf_addr(EmuCtx *x, const EmuInsn *i, unsigned ck,
                          unsigned lane, uint32_t size, EmuAccKind kind)
{
    unsigned geom = i->aux & 15u, mode = (i->aux >> 4) & 3u;
    const EmuOpnd *t = &i->o[ck];
    uint64_t h = handle_of(x, i, ck, lane);
    EmuTexObj *o = lookup(x, i, h, EMU_OBJ_SURF, lane);
    if (!o) {
        return NULL;
    }
    const EmuTexData *d = &o->data;
    Reader r;
    if (!storage(x, o, lane, &r)) {
        return NULL;
    }
    uint8_t *base = r.host;
    unsigned c0 = 0;
    int64_t layer = 0;
    if (geom == EMU_GEOM_A1D || geom == EMU_GEOM_A2D) {
        layer = (int32_t)coord_u(x, t, 0, lane);
        c0 = 1;
    }
    unsigned dims = geom == EMU_GEOM_1D || geom == EMU_GEOM_A1D ? 1
                    : geom == EMU_GEOM_3D ? 3 : 2;
    int64_t c[3] = {0, 0, 0};
    int64_t lim[3] = { (int64_t)d->width * emu_tex_elem_bytes(d) - size,
                       (int64_t)d->height - 1, (int64_t)d->depth - 1 };
    for (unsigned k = 0; k < dims; k++) {
        c[k] = (int32_t)coord_u(x, t, c0 + k, lane);
    }
    if (i->aux & SURF_FORMATTED) {
        /* sust.p: x counts samples, not bytes (PTX ISA "sust") */
        c[0] *= emu_tex_elem_bytes(d);
        size = emu_tex_elem_bytes(d);
        lim[0] = (int64_t)d->width * size - size;
    }
    if (c[0] % size) {
        emu_fault(x, EMU_ERR_MISALIGNED, lane, (uint64_t)c[0], size,
                  PTX_SPACE_GLOBAL, "%s: surface x coordinate %lld is "
                  "not a multiple of the %u-byte access",
                  ptx_opinfo((PtxOpcode)i->op)->name, (long long)c[0],
                  size);
        return NULL;
    }
    bool out = layer < 0 || layer >= d->layers;
    for (unsigned k = 0; k < dims; k++) {
        out |= c[k] < 0 || c[k] > lim[k];
    }
    if (out) {
        if (mode == SC_ZERO) {
            return NULL;
        }
        if (mode == SC_TRAP) {
            emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, (uint64_t)c[0],
                      size, PTX_SPACE_GLOBAL,
                      "%s.trap: surface coordinates (%lld, %lld, %lld) "
                      "layer %lld outside the %ux%ux%u surface (x in "
                      "bytes, %u layers)",
                      ptx_opinfo((PtxOpcode)i->op)->name, (long long)c[0],
                      (long long)c[1], (long long)c[2], (long long)layer,
                      d->width, d->height, d->depth, d->layers);
            return NULL;
        }
        for (unsigned k = 0; k < dims; k++) {
            c[k] = c[k] < 0 ? 0 : c[k] > lim[k] ? lim[k] : c[k];
        }
        c[0] -= c[0] % size;
        layer = layer < 0 ? 0 : layer >= d->layers ? d->layers - 1
                : layer;
    }
    uint64_t row = ((uint64_t)layer * d->depth + (uint64_t)c[2])
                   * d->height + (uint64_t)c[1];
    uint64_t off = row * d->pitch + (uint64_t)c[0];
    emu_access_note(x, lane, PTX_SPACE_GLOBAL, r.addr + off, size, kind);
    return base + off;
}

static unsigned type_bytes(uint8_t t)
{
    return ptx_type_bits((PtxType)t) / 8;
}

static void op_suld(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    unsigned eb = type_bytes(i->type), n = i->vec;
    EMU_FOR_LANES(mask, lane) {
        uint8_t *p = surf_addr(x, i, 1, lane, eb * n,
                                EMU_ACC_TEXEL_READ);
        if (x->fault) {
            return;
        }
        const EmuOpnd *d = &i->o[0];
        for (unsigned c = 0; c < n; c++) {
            uint64_t v = 0;
            if (p) {
                memcpy(&v, p + c * eb, eb);
            }
            uint32_t s = d->kind == EO_VEC ? x->func->vslots[d->reg + c]
                                           : d->reg;
            if (s != EMU_NOREG) {
                x->regs[(size_t)s * EMU_WARP_SIZE + lane] = v;
            }
        }
    }
}

static void op_sust(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    unsigned eb = type_bytes(i->type), n = i->vec;
    EMU_FOR_LANES(mask, lane) {
        uint8_t *p = surf_addr(x, i, 0, lane, eb * n,
                                EMU_ACC_TEXEL_WRITE);
        if (x->fault) {
            return;
        }
        if (!p) {
            continue;       /* .zero: the store is dropped */
        }
        const EmuOpnd *s = &i->o[1];
        for (unsigned c = 0; c < n; c++) {
            uint64_t v;
            if (s->kind == EO_VEC) {
                uint32_t sl = x->func->vslots[s->reg + c];
                v = sl == EMU_NOREG ? 0
                    : x->regs[(size_t)sl * EMU_WARP_SIZE + lane];
            } else {
                v = emu_src(x, s, lane);
            }
            memcpy(p + c * eb, &v, eb);
        }
    }
}

/* sust.p: the source's 32-bit values are R, G, B, A, converted to the
 * surface's channels (PTX ISA "sust": .f32 for float formats, .u32 or
 * .s32 for integer ones, which keep their low bits); channels without a
 * source value are left as they were. */
static void op_sustp(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        const EmuTexObj *o = emu_tex_find(x->dev->tex,
                                          handle_of(x, i, 0, lane),
                                          EMU_OBJ_SURF);
        uint8_t *p = surf_addr(x, i, 0, lane, 4, EMU_ACC_TEXEL_WRITE);
        if (x->fault) {
            return;
        }
        if (!p || !o) {
            continue;
        }
        const EmuTexData *d = &o->data;
        const EmuOpnd *s = &i->o[1];
        unsigned cb = d->bits / 8;
        for (unsigned c = 0; c < d->nch && c < i->vec; c++) {
            uint32_t v;
            if (s->kind == EO_VEC) {
                uint32_t sl = x->func->vslots[s->reg + c];
                v = sl == EMU_NOREG ? 0
                    : (uint32_t)x->regs[(size_t)sl * EMU_WARP_SIZE + lane];
            } else {
                v = (uint32_t)emu_src(x, s, lane);
            }
            if (d->kind == EMU_CH_FLOAT && d->bits == 16) {
                v = (uint32_t)fp_round_d(&fp_fmt_f16, fp_f32(v), FP_RN, 0);
            }
            memcpy(p + c * cb, &v, cb);
        }
    }
}

static void op_sured(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    unsigned eb = type_bytes(i->type);
    unsigned op = i->aux >> 8;
    bool sgn = i->type == PTX_T_S32 || i->type == PTX_T_S64;
    EMU_FOR_LANES(mask, lane) {
        uint8_t *p = surf_addr(x, i, 0, lane, eb, EMU_ACC_TEXEL_WRITE);
        if (x->fault) {
            return;
        }
        if (!p) {
            continue;
        }
        uint64_t a = 0, b = emu_src(x, &i->o[1], lane), r;
        memcpy(&a, p, eb);
        if (eb == 4 && sgn) {
            a = (uint64_t)(int64_t)(int32_t)a;
            b = (uint64_t)(int64_t)(int32_t)b;
        } else if (eb == 4) {
            b &= 0xFFFFFFFFull;
        }
        switch (op) {
        case RED_ADD: r = a + b; break;
        case RED_MIN:
            r = sgn ? ((int64_t)a < (int64_t)b ? a : b) : (a < b ? a : b);
            break;
        case RED_MAX:
            r = sgn ? ((int64_t)a > (int64_t)b ? a : b) : (a > b ? a : b);
            break;
        case RED_AND: r = a & b; break;
        default: r = a | b; break;  /* .or (selector admits no other) */
        }
        memcpy(p, &r, eb);
    }
}

/* ---- selector ---- */

static unsigned clamp_of(const IrInsn *in)
{
    switch (ir_insn_mod(in, PTX_MG_CLAMP)) {
    case PTX_M_CLAMP: return SC_CLAMP;
    case PTX_M_ZERO: return SC_ZERO;
    default: return SC_TRAP;
    }
}

static bool is_32(PtxType t)
{
    return t == PTX_T_F32 || t == PTX_T_S32 || t == PTX_T_U32;
}

EMU_SELECTOR(tex)
{
    (void)m;
    (void)f;
    bool ok = true;
    switch ((PtxOpcode)in->op) {
    case PTX_OP_TEX:
    case PTX_OP_TLD4: {
        bool tex = in->op == PTX_OP_TEX;
        unsigned g = geom_of(in, &ok);
        bool icoord = in->ntypes > 1 && in->types[1] == PTX_T_S32;
        PtxMod c = ir_insn_mod(in, PTX_MG_FRAG);
        unsigned comp = c == PTX_M_FRAG_R ? 0 : c == PTX_M_FRAG_G ? 1
                        : c == PTX_M_FRAG_B ? 2 : 3;
        /* operands after the tuple: the lod of .level, the gradients
         * of .grad, then an optional offset vector e and an optional
         * depth compare value f */
        PtxMod lod = tex ? ir_insn_mod(in, PTX_MG_TEXLOD) : PTX_M_NONE;
        unsigned lm = lod == PTX_M_LEVEL ? LOD_LEVEL
                      : lod == PTX_M_GRAD ? LOD_GRAD : LOD_NONE;
        unsigned k = 2 + (lm == LOD_LEVEL ? 1 : lm == LOD_GRAD ? 2 : 0);
        unsigned off = 0;
        if (k < in->nopnds && in->opnds[k].kind == IR_O_VEC) {
            off = k++;
        }
        bool depth = k < in->nopnds;
        bool f16 = tex && ei->type == PTX_T_F16X2 && ei->vec == 2;
        bool shape = in->opnds[0].kind == IR_O_VEC
                     && in->opnds[1].kind == IR_O_TUPLE
                     && (f16 || (ei->vec == 4
                                 && is_32((PtxType)ei->type)));
        if (!ok || !shape || k + (depth ? 1 : 0) != in->nopnds) {
            return true;
        }
        if (!tex && (g != EMU_GEOM_2D || icoord)) {
            return true;    /* tld4 of 2-D textures only */
        }
        if (in->types[1] != PTX_T_F32 && !icoord) {
            return true;
        }
        if (icoord && lm != LOD_NONE) {
            return true;    /* integer coordinates read level 0 only */
        }
        ei->aux = (uint16_t)(g | comp << 4 | (unsigned)icoord << 7
                             | lm << 8 | off << 10);
        ei->fn = depth ? op_tex_unsupported : tex ? op_tex : op_tld4;
        return true;
    }
    case PTX_OP_TXQ:
    case PTX_OP_SUQ: {
        PtxMod q = ir_insn_mod(in, PTX_MG_TXQ);
        EmuTexObj probe;
        memset(&probe, 0, sizeof(probe));
        query(&probe, q, &ok);
        bool level = ir_insn_mod(in, PTX_MG_TEXLOD) == PTX_M_LEVEL;
        if (ok && in->nopnds == 2 && ir_insn_mod(in, PTX_MG_TEXLOD)
                                         == PTX_M_NONE) {
            ei->aux = (uint16_t)q;
            ei->fn = op_query;
        } else if (level && in->op == PTX_OP_TXQ && in->nopnds == 3
                   && (q == PTX_M_WIDTH || q == PTX_M_HEIGHT
                       || q == PTX_M_DEPTH)) {
            ei->aux = (uint16_t)q;
            ei->fn = op_query_level;
        }
        return true;
    }
    case PTX_OP_ISTYPEP: {
        PtxMod t = ir_insn_mod(in, PTX_MG_MISC);
        if (t == PTX_M_TEXREF || t == PTX_M_SURFREF) {
            ei->aux = t == PTX_M_TEXREF ? EMU_OBJ_TEX : EMU_OBJ_SURF;
            ei->fn = op_istypep;
        }
        return true;
    }
    case PTX_OP_SULD:
    case PTX_OP_SUST:
    case PTX_OP_SURED: {
        unsigned g = geom_of(in, &ok);
        bool b = ir_insn_mod(in, PTX_MG_SURFMODE) == PTX_M_SURF_B;
        if (!ok || g == EMU_GEOM_CUBE || g == EMU_GEOM_ACUBE) {
            return true;
        }
        ei->aux = (uint16_t)(g | clamp_of(in) << 4);
        if (!b) {
            /* formatted: sust.p of 32-bit values only */
            if (in->op == PTX_OP_SUST && ei->type == PTX_T_B32) {
                ei->aux = (uint16_t)(ei->aux | SURF_FORMATTED);
                ei->fn = op_sustp;
            }
        } else if (in->op == PTX_OP_SULD) {
            ei->fn = op_suld;
        } else if (in->op == PTX_OP_SUST) {
            ei->fn = op_sust;
        } else {
            static const PtxMod ops[] = { PTX_M_ADD, PTX_M_MIN, PTX_M_MAX,
                                          PTX_M_RED_AND, PTX_M_RED_OR };
            PtxMod r = ir_insn_mod(in, PTX_MG_REDOP);
            PtxType t = (PtxType)ei->type;
            for (unsigned k = 0; k < 5; k++) {
                if (r == ops[k] && t != PTX_T_B64 && t != PTX_T_S64) {
                    ei->aux = (uint16_t)(ei->aux | k << 8);
                    ei->fn = op_sured;
                }
            }
        }
        return true;
    }
    default:
        return false;
    }
}
