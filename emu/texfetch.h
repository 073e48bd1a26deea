/*
 * emu/texfetch.h: texture sampling arithmetic and the device's table of
 * texture and surface objects.
 *
 * The arithmetic follows the CUDA C++ Programming Guide, appendix
 * "Texture Fetching" (nearest-point sampling, linear filtering with
 * 9-bit fixed-point weights, table lookup) and the "Texture Memory"
 * section (address modes, read modes, cubemap face selection); mipmap
 * level selection and seamless cubemaps follow the OpenGL 4.6 core
 * profile specification (sections 8.13 and 8.14), which CUDA's texture
 * descriptor fields mirror.  It
 * works on host bytes, so it is unit-tested without PTX
 * (tests/check_texfetch.c); ops_tex.c resolves a handle to an
 * EmuTexObj and calls it.
 *
 * Values of the enums are the CUDA runtime's (cudaChannelFormatKind,
 * cudaTextureAddressMode, cudaTextureFilterMode, cudaTextureReadMode),
 * so the runtime layer can pass them through.
 */
#ifndef PTXEMU_EMU_TEXFETCH_H
#define PTXEMU_EMU_TEXFETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"

enum { EMU_CH_SIGNED = 0, EMU_CH_UNSIGNED = 1, EMU_CH_FLOAT = 2 };
enum {
    EMU_ADDR_WRAP = 0, EMU_ADDR_CLAMP = 1, EMU_ADDR_MIRROR = 2,
    EMU_ADDR_BORDER = 3
};
enum { EMU_FILTER_POINT = 0, EMU_FILTER_LINEAR = 1 };
enum { EMU_READ_ELEMENT = 0, EMU_READ_NORM_FLOAT = 1 };

/* Geometry of an object (tex instruction geometry). */
typedef enum EmuTexGeom {
    EMU_GEOM_1D, EMU_GEOM_2D, EMU_GEOM_3D, EMU_GEOM_A1D, EMU_GEOM_A2D,
    EMU_GEOM_CUBE, EMU_GEOM_ACUBE
} EmuTexGeom;

/* Texel storage: element (i, j, k) of layer l lives at
 * base + ((l * depth + k) * height + j) * pitch + i * elem_bytes. */
typedef struct EmuTexData {
    uint64_t addr;          /* device address of element (0,0,0,0) */
    uint64_t pitch;         /* bytes per row */
    uint32_t width, height, depth, layers;  /* >= 1 each */
    uint8_t nch;            /* 1, 2 or 4 channels */
    uint8_t bits;           /* 8, 16 or 32 per channel */
    uint8_t kind;           /* EMU_CH_*; FLOAT with 16 bits = half */
    uint8_t cube;           /* layers count faces (6 per cube) */
    uint8_t layered;
} EmuTexData;

typedef struct EmuTexSampler {
    uint8_t addr_mode[3];   /* EMU_ADDR_* per dimension */
    uint8_t filter;         /* EMU_FILTER_* */
    uint8_t read_mode;      /* EMU_READ_* */
    uint8_t normalized;     /* normalized coordinates */
    float border[4];
    /* Mipmapped objects only (cudaTextureDesc's fields): the filter
     * between levels, the bias added to the level of detail, and the
     * clamps of the biased level.  max_aniso is kept but filtering is
     * isotropic (see emu_tex_grad_lod). */
    uint8_t mip_filter;     /* EMU_FILTER_* */
    uint8_t max_aniso;
    float lod_bias, min_lod, max_lod;
    /* Per fetch, not per object: the texel offset of tex's offset
     * operand (PTX ISA "tex": -8..7, added in texels of the level read
     * before addressing). */
    int8_t offset[3];
    uint8_t seamless;       /* cubemaps: filter across face edges */
} EmuTexSampler;

/* A texel or a sample: floats when `isf`, else 32-bit integers. */
typedef struct EmuTexel {
    union {
        float f[4];
        uint32_t u[4];
    } v;
    bool isf;
} EmuTexel;

static inline uint32_t emu_tex_elem_bytes(const EmuTexData *d)
{
    return (uint32_t)d->nch * d->bits / 8;
}

/* Decode the element at host bytes p into a texel of 4 channels, as the
 * read mode says (missing channels: 0, 0, 0, 1). */
void emu_tex_decode(const EmuTexData *d, uint8_t read_mode,
                    const uint8_t *p, EmuTexel *out);

/* Reads the element bytes of (i, j, k, layer), all in range, of the
 * image d (one level of a mipmapped object: d->addr tells which). */
typedef const uint8_t *(*EmuTexRead)(void *ctx, const EmuTexData *d,
                                     uint32_t i, uint32_t j, uint32_t k,
                                     uint32_t layer);

/* Sample at coordinates c[0..dims-1] (unnormalized or normalized as the
 * sampler says) of layer `layer`; dims is 1, 2 or 3.  Returns the
 * filtered texel (floats unless read as integer elements). */
void emu_tex_sample(const EmuTexData *d, const EmuTexSampler *s,
                    unsigned dims, const float *c, uint32_t layer,
                    EmuTexRead rd, void *ctx, EmuTexel *out);

/* Integer-coordinate fetch (tex with .s32 coordinates, tex1Dfetch): no
 * filtering or normalization; out of range follows the address mode
 * as clamp/border. */
void emu_tex_fetch_int(const EmuTexData *d, const EmuTexSampler *s,
                       unsigned dims, const int32_t *c, uint32_t layer,
                       EmuTexRead rd, void *ctx, EmuTexel *out);

/* Cubemap: direction (x, y, z) to face 0..5 and normalized face
 * coordinates (u, v) (guide's "Cubemap Textures" table). */
unsigned emu_tex_cube_face(float x, float y, float z, float *u, float *v);

/* The derivatives of a cube direction's face coordinates (u, v) along
 * a direction gradient g (g[0..2]): du, dv (normalized face units). */
void emu_tex_cube_grad(const float *dir, const float *g, float *du,
                       float *dv);

/* ---- mipmaps ---- */

/* Levels an object can have: extents are at most 2^16. */
#define EMU_TEX_MAX_LEVELS 17

/* The level of detail of gradients ddx, ddy (dims components each, in
 * the sampler's coordinate units) over the level-0 image d: log2 of
 * the longer gradient in texels (-inf for zero gradients). */
float emu_tex_grad_lod(const EmuTexData *d, const EmuTexSampler *s,
                       unsigned dims, const float *ddx, const float *ddy);

/* The levels a level of detail reads from an object of nlevels levels:
 * lv[0] and lv[1] blended as (1 - *w) lv[0] + *w lv[1] (*w 0 and
 * lv[0] == lv[1] when one level is read). */
void emu_tex_pick_levels(const EmuTexSampler *s, unsigned nlevels,
                         float lod, unsigned lv[2], float *w);

/* Sample a mipmapped object (levels[0 .. nlevels-1], level 0 first) at
 * level of detail lod; otherwise as emu_tex_sample. */
void emu_tex_sample_mip(const EmuTexData *levels, unsigned nlevels,
                        const EmuTexSampler *s, unsigned dims,
                        const float *c, uint32_t layer, float lod,
                        EmuTexRead rd, void *ctx, EmuTexel *out);

/* The 1.8 fixed-point weight of a fractional part, as a float. */
float emu_tex_weight(float frac);

/* ---- the device's object table ---- */

enum { EMU_OBJ_FREE = 0, EMU_OBJ_TEX, EMU_OBJ_SURF };

typedef struct EmuTexObj {
    uint8_t kind;           /* EMU_OBJ_* */
    uint8_t nlevels;        /* mipmapped: levels in lv[], else 0 */
    EmuTexData data;        /* level 0 */
    EmuTexSampler samp;
    const void *owner;      /* the runtime's array object, or NULL */
    EmuTexData lv[EMU_TEX_MAX_LEVELS];  /* lv[0] == data when mipmapped */
} EmuTexObj;

/* Handles are 1-based indices with a tag in the high bits, so a stray
 * pointer or a small integer is not mistaken for an object. */
#define EMU_TEX_HANDLE_TAG 0x7E00000000000000ull

/* A module's .texref/.surfref bound to an object handle. */
typedef struct EmuTexBinding {
    const void *mod;        /* EmuModule */
    char *name;
    uint64_t handle;
} EmuTexBinding;

typedef struct EmuTexTable {
    EmuTexObj *objs;
    uint32_t n, cap;
    EmuTexBinding *binds;
    uint32_t nbinds;
} EmuTexTable;

/* Bind (or rebind, or with handle 0 unbind) mod's symbol `name`. */
EmuStatus emu_tex_bind(EmuTexTable *t, const void *mod, const char *name,
                       uint64_t handle);
/* The handle bound to mod's `name`, 0 if none; unbind all of a module
 * (at unload) with emu_tex_unbind_module. */
uint64_t emu_tex_binding(const EmuTexTable *t, const void *mod,
                         const char *name);
void emu_tex_unbind_module(EmuTexTable *t, const void *mod);

/* Add an object; returns its handle, 0 when out of memory. */
uint64_t emu_tex_add(EmuTexTable *t, const EmuTexObj *o);
/* The object of a handle of the given kind, or NULL. */
EmuTexObj *emu_tex_find(EmuTexTable *t, uint64_t h, uint8_t kind);
EmuStatus emu_tex_remove(EmuTexTable *t, uint64_t h, uint8_t kind);
void emu_tex_table_free(EmuTexTable *t);

#endif
