/*
 * emu/mma_layout.h: which lane and register hold which matrix element, for
 * mma.sync, wmma and ldmatrix/stmatrix/movmatrix (ops_mma.c), and for the
 * tests' host references (tests/check_ops_mma.c includes this header).
 *
 * mma.sync (PTX ISA 9.0, section 9.7.14.5 "Matrix fragments for
 * mma.m16n8k16 / m16n8k8 / m16n8k4 / m16n8k32 / m16n8k64 / m16n8k128 /
 * m16n8k256 / m8n8k4 (.f64) / m8n8k16 / m8n8k32 / m8n8k128").  With
 * groupID g = lane >> 2 and threadID_in_group t = lane % 4, every one of
 * those tables is the same tiling:
 *  - A (M x K) is cut into 8-row x (4 * epr)-column tiles, epr being the
 *    elements one 32-bit register holds (f16/bf16 2, tf32 1, 8-bit 4,
 *    4-bit 8, b1 32; f64 1 per 64-bit register).  Lane l holds row g,
 *    columns t*epr .. t*epr+epr-1 of each tile; the tiles go down the rows
 *    first: register r is tile (r mod M/8, r div M/8).  E.g. m16n8k16 f16:
 *    a0 = (g, 2t..2t+1), a1 = (g+8, 2t..), a2 = (g, 2t+8..), a3 = (g+8,
 *    2t+8..), as in the ISA's "row = groupID for a0, a1, a4, a5 ..." text.
 *  - B (K x N) is the transpose: lane l holds column g, rows t*epr ..
 *    t*epr+epr-1 of each (4 * epr) x 8 tile, down K first.
 *  - C/D (M x N): two elements per 8 x 8 tile, row g, columns 2t, 2t+1;
 *    tiles down M first (c0,c1 = row g; c2,c3 = row g+8).
 *
 * wmma: the PTX ISA leaves the fragment layouts unspecified ("the
 * mapping of matrix elements into fragments is unspecified").  We use the
 * same tiling, extended to the wmma shapes (A 32 x 16: four row tiles; B
 * 16 x 32: four column tiles), so that wmma.load, wmma.mma and wmma.store
 * agree among themselves, which is all a program may rely on.  A wmma
 * fragment that holds more slots than the lane has distinct elements
 * (f16 A/B: 8 x .f16x2 registers = 16 slots for 8 elements of a 16 x 16
 * matrix) holds them repeated: slot s is element s mod U.  wmma.mma reads
 * the first copy; wmma.load writes every copy.
 *
 * ldmatrix/stmatrix/movmatrix .m8n8 .b16 (sections 9.7.14.5.15-17): lane
 * l holds, of each 8 x 8 matrix, row l/4, columns 2(l%4) and 2(l%4)+1
 * (the low half of the register is the lower column); the row addresses
 * of matrix q come from lanes 8q .. 8q+7.
 */
#ifndef PTXEMU_EMU_MMA_LAYOUT_H
#define PTXEMU_EMU_MMA_LAYOUT_H

#include <stdint.h>

typedef enum MmaRole { MMA_A = 0, MMA_B, MMA_C } MmaRole;

/* Element i (0 .. rows*cols/32 - 1) of a lane's fragment of a rows x cols
 * matrix in role `role`; epr = elements per 32-bit register (1 for f64).
 * For A, rows = M; for B, rows = K and cols = N; for C, rows = M. */
static inline void mma_elem_pos(MmaRole role, unsigned rows, unsigned cols,
                                unsigned epr, unsigned lane, unsigned i,
                                unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    if (role == MMA_A) {
        unsigned tile = i / epr, j = i % epr, rb = rows / 8;
        *row = g + 8 * (tile % rb);
        *col = t * epr + j + 4 * epr * (tile / rb);
    } else if (role == MMA_B) {
        unsigned tile = i / epr, j = i % epr, kb = rows / (4 * epr);
        *row = t * epr + j + 4 * epr * (tile % kb);
        *col = g + 8 * (tile / kb);
    } else {
        unsigned tile = i / 2, j = i & 1, rb = rows / 8;
        *row = g + 8 * (tile % rb);
        *col = 2 * t + j + 8 * (tile / rb);
    }
    (void)cols;
}

/* mma.m8n8k4 .f16 (PTX ISA 9.0, 9.7.14.5.1 "Matrix Fragments for
 * mma.m8n8k4 with .f16 floating point type"): the warp computes four
 * independent 8 x 8 x 4 products, product q by quad-pair q (lanes 4q ..
 * 4q+3, the low group, and 16+4q .. 16+4q+3, the high group).  Element i
 * of lane `lane`'s fragment, within its quad-pair's matrices; col_major
 * is the .col layout of A or B; f32acc selects the .f32 C/D table. */
static inline void mma884_pos(MmaRole role, int col_major, int f32acc,
                              unsigned lane, unsigned i, unsigned *row,
                              unsigned *col)
{
    unsigned hi = lane >> 4, l4 = lane & 3;
    if (role == MMA_A) {
        *row = (col_major ? i % 4 : l4) + 4 * hi;
        *col = col_major ? l4 : i;
    } else if (role == MMA_B) {
        *row = col_major ? i : l4;
        *col = (col_major ? l4 : i) + 4 * hi;
    } else if (!f32acc) {
        *row = l4 + 4 * hi;
        *col = i;
    } else {
        *row = (lane & 1) + (i & 2) + 4 * hi;
        *col = (i & 4) + (lane & 2) + (i & 1);
    }
}

/* ldmatrix .m8n8 .b16: the (row, column) of an 8 x 8 matrix whose element
 * lane `lane` holds in half h (0 = low 16 bits) of its register, before
 * any .trans. */
static inline void ldm_elem_pos(unsigned lane, unsigned h, unsigned *row,
                                unsigned *col)
{
    *row = lane >> 2;
    *col = 2 * (lane & 3) + h;
}

#endif
