/*
 * emu/tensormap.h: tensor maps (CUtensorMap) for the Hopper tensor
 * memory accelerator (TMA): cp.async.bulk.tensor and friends.
 *
 * A tensor map is 128 bytes, 64-byte aligned, opaque to programs (CUDA
 * Driver API, "Tensor Map Object Management").  The encoding is ours;
 * everything little-endian:
 *
 *   offset size
 *     0     4   magic EMU_TMAP_MAGIC ("PXTM"): a map not made by the
 *               encoder (garbage, a zeroed buffer) is refused at use
 *     4     1   format version (1)
 *     5     1   mode: 0 tiled (im2col is not supported)
 *     6     1   CUtensorMapDataType
 *     7     1   rank 1..5
 *     8     1   CUtensorMapInterleave (only NONE is ever encoded)
 *     9     1   CUtensorMapSwizzle (NONE, 32B, 64B or 128B)
 *    10     1   CUtensorMapL2promotion (kept, no effect)
 *    11     1   CUtensorMapFloatOOBfill
 *    12     1   element size in bytes
 *    13     3   zero
 *    16     8   global address
 *    24    40   globalDim[0..4], u64 each (unused dimensions 1)
 *    64    32   byte strides of dimensions 1..4, u64 each (the stride
 *               of dimension 0 is the element size)
 *    96    10   boxDim[0..4], u16 each
 *   106     5   elementStrides[0..4], u8 each
 *   111    17   zero
 *
 * Enum values follow the CUDA driver ABI (cuda.h); our names are our
 * own.
 */
#ifndef PTXEMU_EMU_TENSORMAP_H
#define PTXEMU_EMU_TENSORMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"

#define EMU_TMAP_BYTES 128
#define EMU_TMAP_ALIGN 64
#define EMU_TMAP_MAX_RANK 5
#define EMU_TMAP_MAGIC 0x4d545850u        /* "PXTM" little-endian */

/* CUtensorMapDataType */
enum {
    EMU_TMAP_U8 = 0, EMU_TMAP_U16, EMU_TMAP_U32, EMU_TMAP_S32,
    EMU_TMAP_U64, EMU_TMAP_S64, EMU_TMAP_F16, EMU_TMAP_F32, EMU_TMAP_F64,
    EMU_TMAP_BF16, EMU_TMAP_F32_FTZ, EMU_TMAP_TF32, EMU_TMAP_TF32_FTZ,
    EMU_TMAP_16U4_ALIGN8B, EMU_TMAP_16U4_ALIGN16B, EMU_TMAP_16U6_ALIGN16B,
    EMU_TMAP_NTYPES
};
/* CUtensorMapInterleave */
enum { EMU_TMAP_INTERLEAVE_NONE = 0, EMU_TMAP_INTERLEAVE_16B,
       EMU_TMAP_INTERLEAVE_32B };
/* CUtensorMapSwizzle (values 4..6 are the sm_100 128B atom modes) */
enum { EMU_TMAP_SWIZZLE_NONE = 0, EMU_TMAP_SWIZZLE_32B,
       EMU_TMAP_SWIZZLE_64B, EMU_TMAP_SWIZZLE_128B,
       EMU_TMAP_SWIZZLE_128B_ATOM_32B, EMU_TMAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
       EMU_TMAP_SWIZZLE_128B_ATOM_64B };
/* CUtensorMapL2promotion: NONE, 64B, 128B, 256B */
#define EMU_TMAP_L2_MAX 3
/* CUtensorMapFloatOOBfill */
enum { EMU_TMAP_OOB_ZERO = 0, EMU_TMAP_OOB_NAN = 1 };

/* A tiled tensor map, decoded (or to encode). */
typedef struct EmuTmap {
    unsigned dtype, rank;
    unsigned interleave, swizzle, l2promo, oobfill;
    unsigned esize;                 /* bytes per element (decode fills) */
    uint64_t addr;
    uint64_t dim[EMU_TMAP_MAX_RANK];
    uint64_t gstride[EMU_TMAP_MAX_RANK - 1];   /* dims 1..rank-1, bytes */
    uint32_t box[EMU_TMAP_MAX_RANK];
    uint32_t estride[EMU_TMAP_MAX_RANK];
} EmuTmap;

/* Bytes of an element of a data type; 0 for the packed sub-byte types
 * and for values out of range. */
unsigned emu_tmap_elem_bytes(unsigned dtype);
bool emu_tmap_is_float(unsigned dtype);

/* cuTensorMapEncodeTiled: check t against every rule the CUDA driver
 * documents (EMU_ERR_INVALID_VALUE), then against what the emulator
 * supports (EMU_ERR_UNSUPPORTED: packed types, interleaved layouts,
 * the sm_100 swizzle atoms), and write the 128 bytes of map.  *why
 * names the broken rule. */
EmuStatus emu_tmap_encode_tiled(const EmuTmap *t, void *map,
                                const char **why);
/* cuTensorMapReplaceAddress: map must hold a valid map; addr follows
 * the encoder's alignment rule. */
EmuStatus emu_tmap_replace_address(void *map, uint64_t addr,
                                   const char **why);
/* Decode 128 bytes; false (with *why) when they hold no valid map. */
bool emu_tmap_decode(const void *map, EmuTmap *t, const char **why);

/* The swizzled shared-memory address of byte address a (shared::cta
 * offset).  The CUDA C++ Programming Guide, "Tensor Memory Access:
 * TMA Swizzle", describes the pattern: 16-byte chunks within a span of
 * 32, 64 or 128 bytes are permuted by XOR with the row index within a
 * repeating block of 256, 512 or 1024 bytes, i.e. address bits [4, 4+b)
 * are XORed with bits [7, 7+b), b = 1, 2, 3 for 32B, 64B, 128B.  The
 * pattern follows the absolute shared-memory address (hence the guide's
 * advice to align swizzled buffers to the repeat size). */
static inline uint64_t emu_tmap_swizzle(unsigned swizzle, uint64_t a)
{
    if (swizzle < EMU_TMAP_SWIZZLE_32B || swizzle > EMU_TMAP_SWIZZLE_128B) {
        return a;
    }
    uint64_t mask = (1u << swizzle) - 1;   /* 1, 3, 7 */
    return a ^ (((a >> 7) & mask) << 4);
}

#endif
