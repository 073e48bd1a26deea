/*
 * emu/wgmma_desc.h: the shared-memory matrix descriptor of
 * wgmma.mma_async and the address of each matrix element it describes.
 *
 * Descriptor (PTX ISA 9.0, 9.7.15.5.1.2.2 "Matrix Descriptor Format"):
 * bits 13-0 start address, 29-16 leading dimension byte offset (LBO),
 * 45-32 stride dimension byte offset (SBO), each encoded as
 * (x & 0x3FFFF) >> 4; bits 51-49 base offset; bits 63-62 swizzle mode
 * (0 none, 1 128-byte, 2 64-byte, 3 32-byte).
 *
 * Layout (9.7.15.5.1.2 "Shared Memory Matrix Layout", its Table 38 of
 * swizzle atoms and the figures of K-major and MN-major layouts).  The
 * matrix is made of 16-byte units, T = 128 / element-bits elements each;
 * "mn" is the row of A (M) or the column of B (N), "k" the K index.
 * A wgmma reads 32 bytes of K per row: two units.
 *  K-major (imm-trans 0), the 16-byte unit holds T consecutive k:
 *   - no swizzle: a "core matrix" of 8 mn rows x 16 bytes is 128
 *     contiguous bytes (row r at 16 r); core matrices are LBO apart
 *     along K and SBO apart along MN.
 *   - W-byte swizzle (W = 128, 64, 32): an atom of 8 mn rows x W bytes,
 *     row r at W r; both K units of a row lie in one row of the atom
 *     (LBO unused); groups of 8 rows are SBO apart.
 *  MN-major (imm-trans 1, .f16/.bf16 only), the unit holds T consecutive
 *  mn; rows of the atom are k:
 *   - no swizzle: a core matrix of 8 k rows x 16 bytes (8 mn) is 128
 *     contiguous bytes; core matrices are SBO apart along MN and LBO
 *     apart along K.
 *   - W-byte swizzle: an atom of 8 k rows x W bytes (W / 16 units of
 *     mn), row r at W r; atoms are LBO apart along MN and SBO apart
 *     along K (groups of 8 k).
 * Swizzling permutes the 16-byte units within each W-byte row: the
 * repeating pattern is 8 rows of 128 bytes (1024 bytes) for 128-byte
 * swizzle, 512 bytes for 64-byte and 256 bytes for 32-byte, anchored at
 * those boundaries of the shared-memory address; unit u of the row whose
 * pattern phase is p (address bits 9-7, 8-7 or 7) goes to unit u ^ p.
 * The base offset says where a pattern that does not start on its
 * boundary starts ((start >> 7) & 7, per the ISA): we take the phase
 * relative to it, ((address >> 7) - base offset) mod the pattern rows.
 */
#ifndef PTXEMU_EMU_WGMMA_DESC_H
#define PTXEMU_EMU_WGMMA_DESC_H

#include <stdbool.h>
#include <stdint.h>

enum { WG_SW_NONE = 0, WG_SW_128 = 1, WG_SW_64 = 2, WG_SW_32 = 3 };

typedef struct WgDesc {
    uint32_t start;             /* byte address in shared memory */
    uint32_t lbo, sbo;          /* bytes */
    unsigned base;              /* base offset, 0..7 */
    unsigned swizzle;           /* WG_SW_* */
} WgDesc;

WgDesc wg_desc_decode(uint64_t d);

/* The shared-memory bit address of element (mn, k) of a matrix of
 * `bits`-bit elements (1, 8, 16 or 32) described by d; mn_major selects
 * the MN-major layout.  A bit address so that b1 elements (bit k % 8 of
 * their byte, as in a register) need no special case. */
uint64_t wg_elem_bitaddr(const WgDesc *d, bool mn_major, unsigned bits,
                         unsigned mn, unsigned k);

#endif
