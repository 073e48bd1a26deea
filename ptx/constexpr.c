/*
 * ptx/constexpr.c: constant folding with GMP.  See constexpr.h for the
 * semantics.  Literals arrive already converted by the scanner (flags say
 * unsigned or overflowed); everything else is computed here on mpz_t so
 * that overflow is detected exactly rather than guessed from C's wrapped
 * results.
 */
#include "config.h"

#include <gmp.h>
#include <math.h>
#include <string.h>

#include "ptx/constexpr.h"
#include "ptx/parser.h"

typedef struct Val {
    PtxCval kind;
    bool is_unsigned;
    uint8_t fsize;
    mpz_t z;        /* CV_INT: exact value (within its type's domain) */
    double d;       /* CV_FLT */
} Val;

static void set_u64(mpz_t z, uint64_t v)
{
    mpz_import(z, 1, 1, sizeof(v), 0, 0, &v);
}

static uint64_t get_u64(const mpz_t z)
{
    /* z is within [-2^63, 2^64): two's complement low 64 bits. */
    mpz_t t;
    mpz_init(t);
    mpz_fdiv_r_2exp(t, z, 64);
    uint64_t v = 0;
    size_t n = 0;
    mpz_export(&v, &n, 1, sizeof(v), 0, 0, t);
    mpz_clear(t);
    return n ? v : 0;
}

/* Bring an exact result into its type's domain: unsigned wraps modulo
 * 2^64 (C semantics the ISA inherits); signed overflow is an error. */
static bool normalize(PtxParse *ps, Val *v, PtxLoc loc)
{
    if (v->is_unsigned) {
        mpz_fdiv_r_2exp(v->z, v->z, 64);
        return true;
    }
    if (mpz_sizeinbase(v->z, 2) > 63) {
        mpz_t lim;
        mpz_init_set_si(lim, -1);
        mpz_mul_2exp(lim, lim, 63);   /* -2^63 is the one 64-bit value */
        bool ok = mpz_cmp(v->z, lim) == 0;
        mpz_clear(lim);
        if (!ok) {
            ptx_error(ps->diag, loc,
                      "integer constant expression overflows .s64");
            v->kind = CV_ERROR;
            return false;
        }
    }
    return true;
}

static double to_double(const Val *v)
{
    if (v->kind == CV_FLT) {
        return v->d;
    }
    return mpz_get_d(v->z);
}

static void eval(PtxParse *ps, const PtxExpr *e, Val *out);

static bool truthy(const Val *v)
{
    return v->kind == CV_FLT ? v->d != 0.0 : mpz_sgn(v->z) != 0;
}

static void set_bool(Val *out, bool b)
{
    out->kind = CV_INT;
    out->is_unsigned = false;
    mpz_set_ui(out->z, b ? 1 : 0);
}

static void eval_unary(PtxParse *ps, const PtxExpr *e, Val *out)
{
    eval(ps, e->a, out);
    if (out->kind != CV_INT && out->kind != CV_FLT) {
        return;
    }
    switch (e->op) {
    case '+':
        break;
    case '-':
        if (out->kind == CV_FLT) {
            out->d = -out->d;
            out->fsize = 64;
        } else {
            mpz_neg(out->z, out->z);
            normalize(ps, out, e->loc);
        }
        break;
    case '!':
        set_bool(out, !truthy(out));
        break;
    case '~':
        if (out->kind == CV_FLT) {
            ptx_error(ps->diag, e->loc, "operator '~' needs an integer");
            out->kind = CV_ERROR;
        } else {
            mpz_com(out->z, out->z);
            normalize(ps, out, e->loc);
        }
        break;
    }
}

static int cmp_vals(const Val *a, const Val *b)
{
    if (a->kind == CV_FLT || b->kind == CV_FLT) {
        double x = to_double(a), y = to_double(b);
        return (x > y) - (x < y);
    }
    return mpz_cmp(a->z, b->z);
}

static void eval_binary(PtxParse *ps, const PtxExpr *e, Val *out)
{
    Val b;
    mpz_init(b.z);
    eval(ps, e->a, out);
    eval(ps, e->b, &b);
    if (out->kind == CV_NOTCONST || b.kind == CV_NOTCONST) {
        out->kind = CV_NOTCONST;
        goto done;
    }
    if (out->kind == CV_ERROR || b.kind == CV_ERROR) {
        out->kind = CV_ERROR;
        goto done;
    }
    int op = e->op;
    if (out->kind == CV_FLT || b.kind == CV_FLT) {
        double x = to_double(out), y = to_double(&b);
        switch (op) {
        case '+': out->d = x + y; break;
        case '-': out->d = x - y; break;
        case '*': out->d = x * y; break;
        case '/': out->d = x / y; break;
        case '<': set_bool(out, x < y); goto done;
        case '>': set_bool(out, x > y); goto done;
        case T_LE: set_bool(out, x <= y); goto done;
        case T_GE: set_bool(out, x >= y); goto done;
        case T_EQ: set_bool(out, x == y); goto done;
        case T_NE: set_bool(out, x != y); goto done;
        case T_ANDAND: set_bool(out, x != 0 && y != 0); goto done;
        case T_OROR: set_bool(out, x != 0 || y != 0); goto done;
        default:
            ptx_error(ps->diag, e->loc,
                      "operator not allowed on floating-point constants");
            out->kind = CV_ERROR;
            goto done;
        }
        out->kind = CV_FLT;
        out->fsize = 64;
        goto done;
    }
    /* Usual arithmetic conversions: .u64 if either side is unsigned. */
    bool uns = out->is_unsigned || b.is_unsigned;
    if (uns) {
        mpz_fdiv_r_2exp(out->z, out->z, 64);
        mpz_fdiv_r_2exp(b.z, b.z, 64);
    }
    out->is_unsigned = uns;
    switch (op) {
    case '+': mpz_add(out->z, out->z, b.z); break;
    case '-': mpz_sub(out->z, out->z, b.z); break;
    case '*': mpz_mul(out->z, out->z, b.z); break;
    case '/':
    case '%':
        if (mpz_sgn(b.z) == 0) {
            ptx_error(ps->diag, e->loc, "division by zero in constant "
                                        "expression");
            out->kind = CV_ERROR;
            goto done;
        }
        /* C truncates toward zero. */
        if (op == '/') {
            mpz_tdiv_q(out->z, out->z, b.z);
        } else {
            mpz_tdiv_r(out->z, out->z, b.z);
        }
        break;
    case T_SHL:
    case T_SHR: {
        if (mpz_sgn(b.z) < 0 || mpz_cmp_ui(b.z, 63) > 0) {
            ptx_error(ps->diag, e->loc, "shift count out of range [0, 63]");
            out->kind = CV_ERROR;
            goto done;
        }
        unsigned long n = mpz_get_ui(b.z);
        if (op == T_SHL) {
            mpz_mul_2exp(out->z, out->z, n);
            if (!uns) {
                /* Shifting bits into the sign is overflow for .s64. */
                normalize(ps, out, e->loc);
                goto done;
            }
        } else {
            mpz_fdiv_q_2exp(out->z, out->z, n); /* arithmetic for signed */
        }
        break;
    }
    case '&': mpz_and(out->z, out->z, b.z); break;
    case '|': mpz_ior(out->z, out->z, b.z); break;
    case '^': mpz_xor(out->z, out->z, b.z); break;
    case '<': set_bool(out, cmp_vals(out, &b) < 0); goto done;
    case '>': set_bool(out, cmp_vals(out, &b) > 0); goto done;
    case T_LE: set_bool(out, cmp_vals(out, &b) <= 0); goto done;
    case T_GE: set_bool(out, cmp_vals(out, &b) >= 0); goto done;
    case T_EQ: set_bool(out, cmp_vals(out, &b) == 0); goto done;
    case T_NE: set_bool(out, cmp_vals(out, &b) != 0); goto done;
    case T_ANDAND: set_bool(out, truthy(out) && truthy(&b)); goto done;
    case T_OROR: set_bool(out, truthy(out) || truthy(&b)); goto done;
    }
    normalize(ps, out, e->loc);
done:
    mpz_clear(b.z);
}

static void eval(PtxParse *ps, const PtxExpr *e, Val *out)
{
    switch (e->kind) {
    case EX_INT:
        if (e->flags & NUM_OVERFLOW) {
            ptx_error(ps->diag, e->loc,
                      "integer literal does not fit in 64 bits");
            out->kind = CV_ERROR;
            return;
        }
        out->kind = CV_INT;
        out->is_unsigned = (e->flags & NUM_UNSIGNED) != 0;
        set_u64(out->z, e->ival);
        return;
    case EX_FLT:
        out->kind = CV_FLT;
        out->fsize = e->flags == 32 ? 32 : 64;
        if (e->flags == 32) {
            float f;
            uint32_t w = (uint32_t)e->ival;
            memcpy(&f, &w, sizeof(f));
            out->d = f;
        } else {
            memcpy(&out->d, &e->ival, sizeof(out->d));
        }
        return;
    case EX_UNARY:
        eval_unary(ps, e, out);
        return;
    case EX_BINARY:
        eval_binary(ps, e, out);
        return;
    case EX_COND: {
        eval(ps, e->a, out);
        if (out->kind != CV_INT && out->kind != CV_FLT) {
            return;
        }
        eval(ps, truthy(out) ? e->b : e->c, out);
        return;
    }
    case EX_CAST: {
        eval(ps, e->a, out);
        if (out->kind != CV_INT && out->kind != CV_FLT) {
            return;
        }
        if (e->op == PTX_T_U64 || e->op == PTX_T_S64) {
            if (out->kind == CV_FLT) {
                double d = trunc(out->d);
                if (!(d > -9.3e18 && d < 1.9e19)) {
                    ptx_error(ps->diag, e->loc, "value out of range for cast");
                    out->kind = CV_ERROR;
                    return;
                }
                mpz_set_d(out->z, d);
                out->kind = CV_INT;
            }
            out->is_unsigned = e->op == PTX_T_U64;
            mpz_fdiv_r_2exp(out->z, out->z, 64);
            if (!out->is_unsigned && mpz_tstbit(out->z, 63)) {
                mpz_t two64;
                mpz_init_set_ui(two64, 1);
                mpz_mul_2exp(two64, two64, 64);
                mpz_sub(out->z, out->z, two64);
                mpz_clear(two64);
            }
        } else if (e->op == PTX_T_F64) {
            out->d = to_double(out);
            out->kind = CV_FLT;
            out->fsize = 64;
        } else {
            ptx_error(ps->diag, e->loc,
                      "casts in constant expressions must be .s64, .u64 "
                      "or .f64");
            out->kind = CV_ERROR;
        }
        return;
    }
    case EX_PAREN:
        if (e->n == 1) {
            eval(ps, e->list, out);
            return;
        }
        ptx_error(ps->diag, e->loc, "expected an expression in parentheses");
        out->kind = CV_ERROR;
        return;
    default:
        out->kind = CV_NOTCONST;
        return;
    }
}

PtxConst ptx_fold(PtxParse *ps, const PtxExpr *e)
{
    Val v;
    memset(&v, 0, sizeof(v));
    mpz_init(v.z);
    eval(ps, e, &v);
    PtxConst c = {v.kind, v.is_unsigned, 0, 0};
    if (v.kind == CV_INT) {
        c.bits = get_u64(v.z);
    } else if (v.kind == CV_FLT) {
        c.fsize = v.fsize ? v.fsize : 64;
        if (c.fsize == 32) {
            float f = (float)v.d;
            uint32_t w;
            memcpy(&w, &f, sizeof(w));
            c.bits = w;
        } else {
            memcpy(&c.bits, &v.d, sizeof(c.bits));
        }
    }
    mpz_clear(v.z);
    return c;
}

bool ptx_expr_is_const(const PtxExpr *e)
{
    switch (e->kind) {
    case EX_INT:
    case EX_FLT:
        return true;
    case EX_UNARY:
    case EX_CAST:
        return ptx_expr_is_const(e->a);
    case EX_BINARY:
        return ptx_expr_is_const(e->a) && ptx_expr_is_const(e->b);
    case EX_COND:
        return ptx_expr_is_const(e->a) && ptx_expr_is_const(e->b) &&
               ptx_expr_is_const(e->c);
    case EX_PAREN:
        return e->n == 1 && ptx_expr_is_const(e->list);
    default:
        return false;
    }
}

bool ptx_int_fits(uint64_t v, bool is_unsigned, unsigned bits)
{
    if (bits >= 64) {
        return true;
    }
    /* Representable as unsigned bits-wide, or as signed bits-wide
     * (a negative s64 whose high bits are all ones). */
    uint64_t hi = v >> bits;
    if (hi == 0) {
        return true;
    }
    if (!is_unsigned) {
        int64_t s = (int64_t)v;
        return s < 0 && s >= -((int64_t)1 << (bits - 1));
    }
    return false;
}
