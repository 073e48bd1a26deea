/*
 * ptx/constexpr.h: exact folding of PTX constant expressions.
 *
 * PTX ISA 4.6 "Constant Expressions": integer expressions are evaluated
 * in 64 bits, as .s64 unless an operand is .u64 (then .u64); floating
 * expressions in .f64.  We fold with GMP integers so that every
 * intermediate result is exact and a result outside the 64-bit domain of
 * its type is reported instead of silently wrapping.  Unsigned arithmetic
 * keeps C's modulo-2^64 meaning (e.g. -1U), as the ISA specifies.
 */
#ifndef PTXEMU_CONSTEXPR_H
#define PTXEMU_CONSTEXPR_H

#include <stdbool.h>
#include <stdint.h>
#include "ptx/build.h"

typedef enum PtxCval {
    CV_ERROR = 0,   /* already reported */
    CV_INT,         /* bits, is_unsigned */
    CV_FLT,         /* IEEE bits in `bits`, fsize 32 or 64 */
    CV_NOTCONST     /* contains a name: not a constant expression */
} PtxCval;

typedef struct PtxConst {
    PtxCval kind;
    bool is_unsigned;
    uint8_t fsize;      /* CV_FLT: 32 (0f literal) or 64 */
    uint64_t bits;
} PtxConst;

/* Fold `e`.  Reports errors through ps->diag (kind CV_ERROR) except for
 * CV_NOTCONST, which is reported by the caller that knows the context. */
PtxConst ptx_fold(PtxParse *ps, const PtxExpr *e);

/* True when `e` mentions no name (so ptx_fold gives INT or FLT). */
bool ptx_expr_is_const(const PtxExpr *e);

/* Does the value fit in `bits` bits (as signed or unsigned)? */
bool ptx_int_fits(uint64_t v, bool is_unsigned, unsigned bits);

#endif
