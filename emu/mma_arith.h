/*
 * emu/mma_arith.h: the matrix multiply-accumulate arithmetic of the
 * tensor-core instructions, shared by mma.sync/wmma (ops_mma.c, where it
 * lives and whose header comment states the numerics) and wgmma
 * (ops_wgmma.c), so that every MMA instruction rounds the same way.
 */
#ifndef PTXEMU_EMU_MMA_ARITH_H
#define PTXEMU_EMU_MMA_ARITH_H

#include <stdbool.h>
#include <stdint.h>

/* D = A * B + C on raw element bits: a[m * k], b[k * n], c[m * n] and
 * d[m * n], row-major, each element in the low bits of its uint64_t.
 * ta, tb, tc, td are PtxTypes: A/B f16, bf16, tf32, e4m3, e5m2, f64
 * (C/D f16, f32 or f64), or s8, u8, s4, u4, b1 (C/D s32).  sat is
 * .satfinite (integer D), xor_popc selects b1 .xor.popc over .and.popc.
 * Floats round to nearest even.  m <= 255; any n.  Returns false for a
 * type it does not know (nothing written). */
bool emu_mma_compute(unsigned m, unsigned n, unsigned k, unsigned ta,
                     unsigned tb, unsigned tc, unsigned td, bool sat,
                     bool xor_popc, const uint64_t *a, const uint64_t *b,
                     const uint64_t *c, uint64_t *d);

#endif
