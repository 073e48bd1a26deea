/*
 * emu/tensormap.c: the tensor-map encoder and decoder (layout in
 * emu/tensormap.h).  The rules checked are those of the CUDA Driver API
 * reference for cuTensorMapEncodeTiled.
 */
#include <string.h>

#include "emu/tensormap.h"

/* Element bytes per CUtensorMapDataType (0: packed sub-byte types). */
static const uint8_t elem_bytes[EMU_TMAP_NTYPES] = {
    1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 0, 0, 0
};

unsigned emu_tmap_elem_bytes(unsigned dtype)
{
    return dtype < EMU_TMAP_NTYPES ? elem_bytes[dtype] : 0;
}

bool emu_tmap_is_float(unsigned dtype)
{
    switch (dtype) {
    case EMU_TMAP_F16: case EMU_TMAP_F32: case EMU_TMAP_F64:
    case EMU_TMAP_BF16: case EMU_TMAP_F32_FTZ: case EMU_TMAP_TF32:
    case EMU_TMAP_TF32_FTZ:
        return true;
    default:
        return false;
    }
}

static void put(uint8_t *p, unsigned off, uint64_t v, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        p[off + k] = (uint8_t)(v >> (8 * k));
    }
}

static uint64_t get(const uint8_t *p, unsigned off, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++) {
        v |= (uint64_t)p[off + k] << (8 * k);
    }
    return v;
}

static bool packed(unsigned dtype)
{
    return dtype >= EMU_TMAP_16U4_ALIGN8B && dtype < EMU_TMAP_NTYPES;
}

/* The documented rules (CUDA_ERROR_INVALID_VALUE); NULL if all hold. */
static const char *invalid(const EmuTmap *t)
{
    if (t->dtype >= EMU_TMAP_NTYPES) {
        return "tensorDataType is not a CUtensorMapDataType";
    }
    if (t->rank < 1 || t->rank > EMU_TMAP_MAX_RANK) {
        return "tensorRank must be 1..5";
    }
    if (t->interleave > EMU_TMAP_INTERLEAVE_32B) {
        return "interleave is not a CUtensorMapInterleave";
    }
    if (t->interleave != EMU_TMAP_INTERLEAVE_NONE && t->rank < 3) {
        return "an interleaved layout needs tensorRank >= 3";
    }
    if (t->swizzle > EMU_TMAP_SWIZZLE_128B_ATOM_64B) {
        return "swizzle is not a CUtensorMapSwizzle";
    }
    if (t->l2promo > EMU_TMAP_L2_MAX) {
        return "l2Promotion is not a CUtensorMapL2promotion";
    }
    if (t->oobfill > EMU_TMAP_OOB_NAN) {
        return "oobFill is not a CUtensorMapFloatOOBfill";
    }
    if (t->oobfill == EMU_TMAP_OOB_NAN &&
        (!emu_tmap_is_float(t->dtype) || packed(t->dtype))) {
        return "the NaN out-of-bound fill needs a floating-point type";
    }
    bool i32 = t->interleave == EMU_TMAP_INTERLEAVE_32B ||
               t->dtype == EMU_TMAP_16U4_ALIGN16B ||
               t->dtype == EMU_TMAP_16U6_ALIGN16B;
    if (t->addr & (i32 ? 31 : 15)) {
        return i32 ? "globalAddress must be 32-byte aligned"
                   : "globalAddress must be 16-byte aligned";
    }
    for (unsigned i = 0; i < t->rank; i++) {
        if (t->dim[i] == 0 || t->dim[i] > (1ull << 32)) {
            return "globalDim must be in 1..2^32";
        }
        if (t->box[i] == 0 || t->box[i] > 256) {
            return "boxDim must be in 1..256";
        }
        if (t->estride[i] == 0 || t->estride[i] > 8) {
            return "elementStrides must be in 1..8";
        }
    }
    for (unsigned i = 0; i + 1 < t->rank; i++) {
        if (t->gstride[i] % (i32 ? 32 : 16) != 0) {
            return i32 ? "globalStrides must be multiples of 32"
                       : "globalStrides must be multiples of 16";
        }
        if (t->gstride[i] >= (1ull << 40)) {
            return "globalStrides must be less than 2^40";
        }
    }
    if ((t->dtype == EMU_TMAP_16U4_ALIGN16B ||
         t->dtype == EMU_TMAP_16U6_ALIGN16B) &&
        (t->dim[0] % 128 != 0 || t->box[0] != 128)) {
        return "16U4_ALIGN16B/16U6_ALIGN16B need globalDim[0] a multiple "
               "of 128 and boxDim[0] = 128";
    }
    if (t->dtype == EMU_TMAP_16U4_ALIGN8B && t->dim[0] % 2 != 0) {
        return "16U4_ALIGN8B needs an even globalDim[0]";
    }
    unsigned es = emu_tmap_elem_bytes(t->dtype);
    if (t->interleave == EMU_TMAP_INTERLEAVE_NONE && es) {
        uint64_t inner = (uint64_t)t->box[0] * es;
        if (inner % 16 != 0) {
            return "boxDim[0] * element size must be a multiple of 16 "
                   "bytes";
        }
        static const unsigned span[] = { 0, 32, 64, 128, 128, 128, 128 };
        if (t->swizzle != EMU_TMAP_SWIZZLE_NONE && inner > span[t->swizzle]) {
            return "the inner box dimension (boxDim[0] * element size) "
                   "exceeds the swizzle span";
        }
    }
    if (t->interleave == EMU_TMAP_INTERLEAVE_32B &&
        t->swizzle != EMU_TMAP_SWIZZLE_32B) {
        return "interleave 32B requires swizzle 32B";
    }
    if (t->dtype == EMU_TMAP_16U6_ALIGN16B &&
        t->interleave != EMU_TMAP_INTERLEAVE_NONE) {
        return "16U6_ALIGN16B requires interleave NONE";
    }
    return NULL;
}

/* Valid for CUDA, beyond the emulator. */
static const char *unsupported(const EmuTmap *t)
{
    if (packed(t->dtype)) {
        return "packed sub-byte tensor data types are not supported by "
               "the emulator";
    }
    if (t->interleave != EMU_TMAP_INTERLEAVE_NONE) {
        return "interleaved tensor layouts are not supported by the "
               "emulator";
    }
    if (t->swizzle > EMU_TMAP_SWIZZLE_128B) {
        return "the 128B swizzle atom modes (sm_100) are not supported by "
               "the emulator";
    }
    return NULL;
}

EmuStatus emu_tmap_encode_tiled(const EmuTmap *t, void *map,
                                const char **why)
{
    const char *w = !t || !map ? "NULL argument"
                    : ((uintptr_t)map % EMU_TMAP_ALIGN)
                      ? "the tensor map must be 64-byte aligned"
                      : invalid(t);
    if (w) {
        *why = w;
        return EMU_ERR_INVALID_VALUE;
    }
    if ((w = unsupported(t)) != NULL) {
        *why = w;
        return EMU_ERR_UNSUPPORTED;
    }
    uint8_t b[EMU_TMAP_BYTES];
    memset(b, 0, sizeof(b));
    put(b, 0, EMU_TMAP_MAGIC, 4);
    b[4] = 1;
    b[5] = 0;
    b[6] = (uint8_t)t->dtype;
    b[7] = (uint8_t)t->rank;
    b[8] = (uint8_t)t->interleave;
    b[9] = (uint8_t)t->swizzle;
    b[10] = (uint8_t)t->l2promo;
    b[11] = (uint8_t)t->oobfill;
    b[12] = (uint8_t)emu_tmap_elem_bytes(t->dtype);
    put(b, 16, t->addr, 8);
    for (unsigned i = 0; i < EMU_TMAP_MAX_RANK; i++) {
        bool in = i < t->rank;
        put(b, 24 + 8 * i, in ? t->dim[i] : 1, 8);
        put(b, 96 + 2 * i, in ? t->box[i] : 1, 2);
        b[106 + i] = (uint8_t)(in ? t->estride[i] : 1);
        if (i >= 1) {
            put(b, 64 + 8 * (i - 1), in ? t->gstride[i - 1] : 0, 8);
        }
    }
    memcpy(map, b, sizeof(b));
    *why = NULL;
    return EMU_OK;
}

bool emu_tmap_decode(const void *map, EmuTmap *t, const char **why)
{
    const uint8_t *b = map;
    memset(t, 0, sizeof(*t));
    if (get(b, 0, 4) != EMU_TMAP_MAGIC || b[4] != 1) {
        *why = "it holds no tensor map made by cuTensorMapEncodeTiled "
               "(or ptxemu_tensor_map_encode_tiled)";
        return false;
    }
    if (b[5] != 0) {
        *why = "im2col tensor maps are not supported";
        return false;
    }
    t->dtype = b[6];
    t->rank = b[7];
    t->interleave = b[8];
    t->swizzle = b[9];
    t->l2promo = b[10];
    t->oobfill = b[11];
    t->esize = b[12];
    t->addr = get(b, 16, 8);
    for (unsigned i = 0; i < EMU_TMAP_MAX_RANK; i++) {
        t->dim[i] = get(b, 24 + 8 * i, 8);
        t->box[i] = (uint32_t)get(b, 96 + 2 * i, 2);
        t->estride[i] = b[106 + i];
        if (i >= 1) {
            t->gstride[i - 1] = get(b, 64 + 8 * (i - 1), 8);
        }
    }
    /* a map altered in memory must still obey the rules */
    const char *w = invalid(t);
    if (!w) {
        w = unsupported(t);
    }
    if (!w && t->esize != emu_tmap_elem_bytes(t->dtype)) {
        w = "its element size field is corrupt";
    }
    if (w) {
        *why = w;
        return false;
    }
    *why = NULL;
    return true;
}

EmuStatus emu_tmap_replace_address(void *map, uint64_t addr,
                                   const char **why)
{
    EmuTmap t;
    if (!map) {
        *why = "NULL argument";
        return EMU_ERR_INVALID_VALUE;
    }
    if ((uintptr_t)map % EMU_TMAP_ALIGN) {
        *why = "the tensor map must be 64-byte aligned";
        return EMU_ERR_INVALID_VALUE;
    }
    if (!emu_tmap_decode(map, &t, why)) {
        return EMU_ERR_INVALID_VALUE;
    }
    t.addr = addr;
    return emu_tmap_encode_tiled(&t, map, why);
}
