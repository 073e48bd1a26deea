/*
 * ptx/validate.c: type and shape checking of parsed instructions.
 *
 * Rationale.  The opcode table (opcodes.def) describes each instruction's
 * operands in a small shape language; almost every check here is driven by
 * it: type-suffix counts and sets, allowed and required modifier groups,
 * operand counts, operand kinds, and register/immediate types.  What the
 * shape language cannot say (cvt's rounding rules, setp's optional fourth
 * operand, call's operand forms ...) lives in small functions in the
 * extra_checks[] table, indexed by opcode.  Those run only when the
 * generic checks passed, so one mistake gives one message.
 *
 * Type rules follow PTX ISA 9.0 section 9.4 (Table "Type Checking Rules":
 * a .bX instruction type accepts any register of X bits, .uX/.sX accept
 * .bX/.uX/.sX, .fX accepts .fX and .bX) and, for operands marked R, the
 * relaxed rules of section 9.4.1 (registers may be wider than the type;
 * a floating-point type still needs an exact float or a bit-size register;
 * cvt's .bf16/.bf16x2/.tf32 are never relaxed, section 9.7.9.21 notes).
 */
#include "ptx/validate.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ptx/opcode.h"

typedef struct VCtx {
    const IrModule *m;
    const IrFunc *f;
    const IrInsn *in;
    PtxDiag *d;
    const PtxOpInfo *oi;
    char name[192];
    bool ok;
} VCtx;

/* ---- mnemonic and messages ---- */

static size_t put(char *buf, size_t size, size_t pos, const char *s)
{
    size_t n = strlen(s);
    if (pos < size) {
        size_t room = size - pos - 1;
        memcpy(buf + pos, s, n < room ? n : room);
        buf[pos + (n < room ? n : room)] = '\0';
    }
    return pos + n;
}

size_t ptx_insn_mnemonic(const IrInsn *in, char *buf, size_t size)
{
    if (size > 0) {
        buf[0] = '\0';
    }
    size_t pos = put(buf, size, 0, ptx_opinfo((PtxOpcode)in->op)->name);
    bool types_seen = false;
    for (unsigned i = 0; i < in->nsfx; i++) {
        unsigned v = in->sfx[i];
        pos = put(buf, size, pos, ".");
        if (v & IR_SFX_TYPE) {
            types_seen = true;
            pos = put(buf, size, pos,
                      ptx_type_name((PtxType)(v & ~IR_SFX_TYPE)));
        } else {
            pos = put(buf, size, pos, ptx_mod_name((PtxMod)v));
        }
    }
    /* Instructions built without a suffix list still show their types. */
    for (unsigned i = 0; !types_seen && i < in->ntypes; i++) {
        pos = put(buf, size, pos, ".");
        pos = put(buf, size, pos, ptx_type_name((PtxType)in->types[i]));
    }
    return pos;
}

static void verr(VCtx *c, PtxLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void verr(VCtx *c, PtxLoc loc, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    if (!c->name[0]) {
        /* Named only now: most instructions never need it. */
        ptx_insn_mnemonic(c->in, c->name, sizeof(c->name));
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (loc.line == 0) {
        loc = c->in->loc;
    }
    ptx_error(c->d, loc, "'%s'%s%s", c->name,
              msg[0] == ' ' ? "" : ": ", msg);
    c->ok = false;
}

static PtxLoc opnd_loc(const VCtx *c, const IrOperand *o)
{
    return o->loc.line ? o->loc : c->in->loc;
}

/* ---- instruction facts ---- */

static PtxMod mod_of(const VCtx *c, PtxModGroup g)
{
    return ir_insn_mod(c->in, g);
}

static bool has(const VCtx *c, PtxModGroup g)
{
    return mod_of(c, g) != PTX_M_NONE;
}

static unsigned vec_count(const VCtx *c)
{
    switch (mod_of(c, PTX_MG_VEC)) {
    case PTX_M_V2:
        return 2;
    case PTX_M_V4:
        return 4;
    case PTX_M_V8:
        return 8;
    default:
        return 0;
    }
}

static PtxType slot_type(const VCtx *c, unsigned n)
{
    if (c->in->ntypes == 0) {
        return PTX_T_NONE;
    }
    return (PtxType)c->in->types[n < c->in->ntypes ? n : 0];
}

static bool is_int_kind(PtxTypeKind k)
{
    return k == PTX_TK_U || k == PTX_TK_S || k == PTX_TK_B;
}

static bool is_float_kind(PtxTypeKind k)
{
    return k == PTX_TK_F || k == PTX_TK_X;
}

/* The type of twice the width (mul.wide's destination). */
static PtxType wide_of(PtxType t)
{
    switch (t) {
    case PTX_T_U16:
        return PTX_T_U32;
    case PTX_T_U32:
        return PTX_T_U64;
    case PTX_T_S16:
        return PTX_T_S32;
    case PTX_T_S32:
        return PTX_T_S64;
    case PTX_T_B16:
        return PTX_T_B32;
    case PTX_T_B32:
        return PTX_T_B64;
    default:
        return PTX_T_NONE;
    }
}

static PtxType class_type(const VCtx *c, char tclass)
{
    switch (tclass) {
    case '0': case '1': case '2': case '3':
        return slot_type(c, (unsigned)(tclass - '0'));
    case 'w':
        return wide_of(slot_type(c, 0));
    case 'W':
        return mod_of(c, PTX_MG_MULMODE) == PTX_M_WIDE
            ? wide_of(slot_type(c, 0)) : slot_type(c, 0);
    case 'p':
        return PTX_T_PRED;
    case 'h':
        return PTX_T_B16;
    case 'z':
        return PTX_T_B32;
    case 'u':
        return PTX_T_U32;
    case 'Z':
        return PTX_T_B64;
    case 'f':
        return PTX_T_F32;
    case 'A':
        return c->m && c->m->address_size == 32 ? PTX_T_B32 : PTX_T_B64;
    default:
        return PTX_T_NONE;
    }
}

/* "a 32-bit integer", "a .f16 or .b16 value" ... */
static const char *describe(PtxType t, bool relaxed, char *buf, size_t n)
{
    unsigned bits = ptx_type_bits(t);
    switch (ptx_type_kind(t)) {
    case PTX_TK_P:
        snprintf(buf, n, "a predicate");
        break;
    case PTX_TK_B:
        snprintf(buf, n, relaxed ? "a register of at least %u bits"
                 : "a %u-bit value", bits);
        break;
    case PTX_TK_U:
    case PTX_TK_S:
        snprintf(buf, n, relaxed ? "an integer of at least %u bits"
                 : "a %u-bit integer", bits);
        break;
    default:
        snprintf(buf, n, relaxed ? "a .%s or a bit-size register of at "
                 "least %u bits" : "a .%s or .b%u value", ptx_type_name(t),
                 bits);
        break;
    }
    return buf;
}

/* cvt never widens .bf16, .bf16x2 or .tf32 operands (9.7.9.21 notes). */
static bool relax_for(PtxType want, bool relaxed)
{
    return relaxed && want != PTX_T_BF16 && want != PTX_T_BF16X2 &&
           want != PTX_T_TF32;
}

/* Can a register of type `have` stand where the instruction expects
 * `want`?  PTX ISA 9.0 section 9.4 and, when relaxed, 9.4.1. */
static bool reg_fits(PtxType want, PtxType have, bool relaxed)
{
    if (want == PTX_T_NONE || have == PTX_T_NONE) {
        return true;
    }
    PtxTypeKind kw = ptx_type_kind(want), kh = ptx_type_kind(have);
    unsigned bw = ptx_type_bits(want), bh = ptx_type_bits(have);
    if (kw == PTX_TK_P || kh == PTX_TK_P) {
        return want == have;
    }
    relaxed = relax_for(want, relaxed);
    if (relaxed ? bh < bw : bh != bw) {
        return false;
    }
    switch (kw) {
    case PTX_TK_B:
        return true;
    case PTX_TK_U:
    case PTX_TK_S:
        return is_int_kind(kh);
    default:
        return kh == PTX_TK_B || have == want;
    }
}

/* ---- operand checks ---- */

static const char *opnd_kind_name(const IrOperand *o)
{
    switch (o->kind) {
    case IR_O_REG:
        return "a register";
    case IR_O_SREG:
        return "a special register";
    case IR_O_IMM:
    case IR_O_FIMM:
        return "a constant";
    case IR_O_SYM:
        return "a variable";
    case IR_O_FUNC:
        return "a function";
    case IR_O_LABEL:
        return "a label";
    case IR_O_ADDR:
        return "an address";
    case IR_O_VEC:
        return "a vector";
    case IR_O_LIST:
        return "a parameter list";
    case IR_O_PAIR:
        return "a predicate pair";
    case IR_O_SINK:
        return "'_'";
    default:
        return "nothing";
    }
}

static PtxType reg_type(const VCtx *c, const IrOperand *o)
{
    if (o->kind == IR_O_SREG) {
        return ptx_sreg_type((PtxSreg)o->id);
    }
    if (!c->f || o->id < 0 || (uint32_t)o->id >= c->f->nregs) {
        return PTX_T_NONE;
    }
    return c->f->regs[o->id].type;
}

static void check_const(VCtx *c, unsigned idx, const IrOperand *o,
                        PtxType want)
{
    char exp[96];
    PtxTypeKind k = ptx_type_kind(want);
    if (want == PTX_T_NONE) {
        return;
    }
    if (o->kind == IR_O_FIMM) {
        /* 0f/0d constants carry exact bits: fine for floats and for a
         * bit-size type of the same width (PTX ISA 4.5.2). */
        if (is_float_kind(k) ||
            (k == PTX_TK_B && ptx_type_bits(want) == o->fsize)) {
            return;
        }
        verr(c, opnd_loc(c, o), "operand %u is a floating-point constant, "
             "expected %s", idx + 1, describe(want, false, exp, sizeof(exp)));
        return;
    }
    /* Integer constants are 64-bit and cast at their use (PTX ISA 4.5.1);
     * like ptxas, accept any value representable in the width as signed
     * or unsigned.  Floats and predicates take integers as values. */
    unsigned w = ptx_type_bits(want);
    if (!is_int_kind(k) || w >= 64) {
        return;
    }
    int64_t lo = -((int64_t)1 << (w - 1));
    int64_t hi = ((int64_t)1 << w) - 1;
    if (o->imm < lo || o->imm > hi) {
        verr(c, opnd_loc(c, o), "constant %lld in operand %u does not fit "
             "in %u bits", (long long)o->imm, idx + 1, w);
    }
}

/* One scalar value: a register, special register, constant, address of
 * a variable or function, or (destinations) the sink '_'. */
static void check_scalar(VCtx *c, unsigned idx, const IrOperand *o,
                         PtxType want, bool dest, bool relaxed)
{
    char exp[96];
    switch (o->kind) {
    case IR_O_NONE:
        return;
    case IR_O_REG:
    case IR_O_SREG: {
        if (dest && o->kind == IR_O_SREG) {
            verr(c, opnd_loc(c, o), "operand %u: special register %s is "
                 "read-only", idx + 1, ptx_sreg_name((PtxSreg)o->id));
            return;
        }
        PtxType have = reg_type(c, o);
        if (o->kind == IR_O_SREG) {
            /* PTX ISA 10.x: "legacy PTX code that accesses %tid (%ntid,
             * %ctaid, %nctaid) using 16-bit mov and cvt instructions is
             * supported" - they were 16-bit before PTX 2.0.  Nothing
             * else may be read narrower than it is. */
            PtxSreg sr = (PtxSreg)o->id;
            bool legacy16 = (sr == PTX_SREG_TID || sr == PTX_SREG_NTID ||
                             sr == PTX_SREG_CTAID ||
                             sr == PTX_SREG_NCTAID) &&
                            ptx_type_bits(want) == 16;
            if (!reg_fits(want, have, legacy16)) {
                verr(c, opnd_loc(c, o), "operand %u is the .%s special "
                     "register %s, expected %s", idx + 1,
                     ptx_type_name(have), ptx_sreg_name((PtxSreg)o->id),
                     describe(want, false, exp, sizeof(exp)));
            }
            return;
        }
        if (!reg_fits(want, have, relaxed)) {
            verr(c, opnd_loc(c, o), "operand %u is a .%s register, "
                 "expected %s", idx + 1, ptx_type_name(have),
                 describe(want, relax_for(want, relaxed), exp,
                          sizeof(exp)));
        }
        return;
    }
    case IR_O_SINK:
        if (!dest) {
            verr(c, opnd_loc(c, o), "operand %u: '_' is only allowed as a "
                 "destination", idx + 1);
        }
        return;
    case IR_O_IMM:
    case IR_O_FIMM:
        if (dest) {
            verr(c, opnd_loc(c, o), "operand %u must be a register, got a "
                 "constant", idx + 1);
            return;
        }
        check_const(c, idx, o, want);
        return;
    case IR_O_SYM:
    case IR_O_FUNC: {
        if (dest) {
            verr(c, opnd_loc(c, o), "operand %u must be a register, got %s",
                 idx + 1, opnd_kind_name(o));
            return;
        }
        /* An address: a 32- or 64-bit integer or bit-size value (shared
         * addresses are 32-bit even with .address_size 64). */
        unsigned w = ptx_type_bits(want);
        if (want != PTX_T_NONE &&
            (!is_int_kind(ptx_type_kind(want)) || (w != 32 && w != 64))) {
            verr(c, opnd_loc(c, o), "operand %u is an address, expected %s",
                 idx + 1, describe(want, false, exp, sizeof(exp)));
        }
        return;
    }
    default:
        verr(c, opnd_loc(c, o), "operand %u must be %s, got %s", idx + 1,
             dest ? "a register" : "a register or constant",
             opnd_kind_name(o));
        return;
    }
}

/* A brace vector that packs or unpacks one value (mov.b64 %rd, {%r1,%r2}):
 * its registers together are exactly as wide as the type. */
static void check_unpack(VCtx *c, unsigned idx, const IrOperand *o,
                         PtxType want, bool dest)
{
    unsigned bits = ptx_type_bits(want);
    if (ptx_type_kind(want) != PTX_TK_B || o->n < 2 || bits % o->n) {
        verr(c, opnd_loc(c, o), "operand %u: a vector of %u elements does "
             "not fit .%s", idx + 1, o->n, ptx_type_name(want));
        return;
    }
    unsigned eb = bits / o->n;
    for (unsigned i = 0; i < o->n; i++) {
        const IrOperand *e = &o->u.elems[i];
        if (e->kind == IR_O_SINK && dest) {
            continue;
        }
        if (e->kind == IR_O_IMM && !dest) {
            /* mov.b32 %r, {0, %h} (nvcc writes this for bf16 packing). */
            PtxType et = eb == 8 ? PTX_T_B8 : eb == 16 ? PTX_T_B16
                : eb == 32 ? PTX_T_B32 : PTX_T_B64;
            check_const(c, idx, e, et);
            continue;
        }
        if (e->kind != IR_O_REG) {
            if (e->kind != IR_O_NONE) {
                verr(c, opnd_loc(c, e), "operand %u: vector elements must "
                     "be registers", idx + 1);
            }
            return;
        }
        PtxType have = reg_type(c, e);
        if (ptx_type_kind(have) == PTX_TK_P || ptx_type_bits(have) != eb) {
            verr(c, opnd_loc(c, e), "operand %u: element %u is a .%s "
                 "register, expected a %u-bit value", idx + 1, i + 1,
                 ptx_type_name(have), eb);
            return;
        }
    }
}

/* Kinds d, s, r: a value, possibly a .vN vector, a packing vector (U) or
 * a d|p pair (P). */
static void check_value(VCtx *c, unsigned idx, const IrOperand *o,
                        const PtxOpndSpec *sp, PtxType want)
{
    bool dest = sp->kind == 'd';
    unsigned nv = sp->vec ? vec_count(c) : 0;
    if (o->kind == IR_O_VEC) {
        if (nv) {
            if (o->n != nv) {
                verr(c, opnd_loc(c, o), "expected a vector of %u registers",
                     nv);
                return;
            }
            for (unsigned i = 0; i < o->n && c->ok; i++) {
                check_scalar(c, idx, &o->u.elems[i], want, dest,
                             sp->relaxed);
            }
        } else if (sp->unpack) {
            check_unpack(c, idx, o, want, dest);
        } else if (sp->vec && o->n == 1) {
            /* A one-element vector is a scalar (suld.b.1d ... {%r}). */
            check_scalar(c, idx, &o->u.elems[0], want, dest, sp->relaxed);
        } else if (sp->vec) {
            verr(c, opnd_loc(c, o), "operand %u is a vector, but no "
                 ".v2/.v4/.v8 is given", idx + 1);
        } else {
            verr(c, opnd_loc(c, o), "operand %u must not be a vector",
                 idx + 1);
        }
        return;
    }
    if (nv) {
        verr(c, opnd_loc(c, o), "expected a vector of %u registers", nv);
        return;
    }
    if (o->kind == IR_O_PAIR) {
        if (!sp->pair || o->n != 2) {
            verr(c, opnd_loc(c, o), "operand %u cannot be a pair", idx + 1);
            return;
        }
        check_scalar(c, idx, &o->u.elems[0], want, true, false);
        check_scalar(c, idx, &o->u.elems[1], PTX_T_PRED, true, false);
        return;
    }
    if (sp->kind == 'r' && o->kind != IR_O_REG && o->kind != IR_O_SREG &&
        o->kind != IR_O_NONE) {
        verr(c, opnd_loc(c, o), "operand %u must be a register, got %s",
             idx + 1, opnd_kind_name(o));
        return;
    }
    check_scalar(c, idx, o, want, dest, sp->relaxed);
}

static void check_pred_dest(VCtx *c, unsigned idx, const IrOperand *o)
{
    if (o->kind == IR_O_PAIR) {
        for (unsigned i = 0; i < o->n; i++) {
            check_scalar(c, idx, &o->u.elems[i], PTX_T_PRED, true, false);
        }
        return;
    }
    check_scalar(c, idx, o, PTX_T_PRED, true, false);
}

static void check_operand(VCtx *c, unsigned idx, const PtxOpndSpec *sp)
{
    const IrOperand *o = &c->in->opnds[idx];
    PtxType want = class_type(c, sp->tclass);
    if (o->kind == IR_O_NONE || sp->kind == 'x') {
        return;
    }
    /* "!p" only where a predicate source is expected; "-a" only on the
     * three sources of vmad (PTX ISA 9.7.x, vmad: {-}a, {-}b, {-}c). */
    bool neg_ok = o->neg == IR_NEG_NOT
        ? sp->kind == 'q'
        : c->in->op == PTX_OP_VMAD && idx >= 1 && sp->kind == 's';
    if (o->neg && !neg_ok) {
        verr(c, opnd_loc(c, o), "operand %u cannot be negated", idx + 1);
        return;
    }
    switch (sp->kind) {
    case 'd':
    case 's':
    case 'r':
        check_value(c, idx, o, sp, want);
        return;
    case 'i':
        if (o->kind != IR_O_IMM && o->kind != IR_O_FIMM) {
            verr(c, opnd_loc(c, o), "operand %u must be a constant, got %s",
                 idx + 1, opnd_kind_name(o));
            return;
        }
        check_const(c, idx, o, want);
        return;
    case 'p':
        check_pred_dest(c, idx, o);
        return;
    case 'q':
        if (o->kind == IR_O_IMM) {
            return;
        }
        if (o->kind != IR_O_REG) {
            verr(c, opnd_loc(c, o), "operand %u must be a predicate, got %s",
                 idx + 1, opnd_kind_name(o));
            return;
        }
        check_scalar(c, idx, o, PTX_T_PRED, false, false);
        return;
    case 'm':
        if (o->kind != IR_O_ADDR) {
            verr(c, opnd_loc(c, o), "operand %u must be an address [...], "
                 "got %s", idx + 1, opnd_kind_name(o));
        }
        return;
    case 'l':
    case 't':
        if (o->kind != IR_O_LABEL) {
            verr(c, opnd_loc(c, o), "operand %u must be a label, got %s",
                 idx + 1, opnd_kind_name(o));
        } else if (sp->kind == 't' && c->f && o->id >= 0 &&
                   (uint32_t)o->id < c->f->nlabels &&
                   c->f->labels[o->id].kind != IR_LABEL_BRANCHTARGETS) {
            verr(c, opnd_loc(c, o), "operand %u must be a .branchtargets "
                 "label", idx + 1);
        }
        return;
    case 'f':
        if (o->kind != IR_O_FUNC && o->kind != IR_O_REG) {
            verr(c, opnd_loc(c, o), "operand %u must be a function or a "
                 "register, got %s", idx + 1, opnd_kind_name(o));
        }
        return;
    case 'a':
        if (o->kind != IR_O_LIST) {
            verr(c, opnd_loc(c, o), "operand %u must be a list ( ... ), "
                 "got %s", idx + 1, opnd_kind_name(o));
        }
        return;
    case 'v':
        if (o->kind == IR_O_VEC) {
            for (unsigned i = 0; i < o->n && c->ok; i++) {
                check_scalar(c, idx, &o->u.elems[i], want, false, false);
            }
        } else if (o->kind != IR_O_REG) {
            verr(c, opnd_loc(c, o), "operand %u must be a vector { ... }, "
                 "got %s", idx + 1, opnd_kind_name(o));
        }
        return;
    case 'y':
        if (o->kind != IR_O_SYM && o->kind != IR_O_REG) {
            verr(c, opnd_loc(c, o), "operand %u must be a variable name, "
                 "got %s", idx + 1, opnd_kind_name(o));
        }
        return;
    default:
        return;
    }
}

/* Checks operand idx against a spec built on the spot (for the forms
 * that extra checks pick themselves). */
static void check_as(VCtx *c, unsigned idx, char kind, char tclass,
                     bool relaxed)
{
    PtxOpndSpec sp;
    memset(&sp, 0, sizeof(sp));
    sp.kind = kind;
    sp.tclass = tclass;
    sp.relaxed = relaxed;
    if (idx < c->in->nopnds) {
        check_operand(c, idx, &sp);
    }
}

/* ---- extra checks, per opcode ---- */

typedef void (*ExtraCheck)(VCtx *c);

static void forbid(VCtx *c, PtxModGroup g, const char *why)
{
    PtxMod m = mod_of(c, g);
    if (m != PTX_M_NONE) {
        verr(c, c->in->loc, "modifier .%s %s", ptx_mod_name(m), why);
    }
}

static void mixed_precision_ok(VCtx *c)
{
    /* add/sub/fma .f32.f16 and .f32.bf16 (PTX ISA 9.7.3.3, 9.7.3.6). */
    if (c->in->ntypes == 2 &&
        (c->in->types[0] != PTX_T_F32 ||
         (c->in->types[1] != PTX_T_F16 && c->in->types[1] != PTX_T_BF16))) {
        verr(c, c->in->loc, "the two-type form is .f32.f16 or .f32.bf16");
    }
}

static void x_add_sub(VCtx *c)
{
    PtxType t = slot_type(c, 0);
    if (is_int_kind(ptx_type_kind(t))) {
        forbid(c, PTX_MG_ROUND, "needs a floating-point type");
        forbid(c, PTX_MG_FTZ, "needs a floating-point type");
        if (has(c, PTX_MG_SAT) && t != PTX_T_S32) {
            verr(c, c->in->loc, "integer .sat needs .s32");
        }
        if (has(c, PTX_MG_CC) && ptx_type_bits(t) < 32) {
            verr(c, c->in->loc, ".cc needs a 32- or 64-bit type");
        }
    } else {
        forbid(c, PTX_MG_CC, "needs an integer type");
    }
}

static void x_mul_mad(VCtx *c)
{
    PtxType t = slot_type(c, 0);
    PtxMod mode = mod_of(c, PTX_MG_MULMODE);
    if (is_int_kind(ptx_type_kind(t))) {
        forbid(c, PTX_MG_ROUND, "needs a floating-point type");
        forbid(c, PTX_MG_FTZ, "needs a floating-point type");
        if (mode == PTX_M_NONE) {
            verr(c, c->in->loc, "integer multiply needs .lo, .hi or .wide");
        } else if (mode == PTX_M_WIDE && wide_of(t) == PTX_T_NONE) {
            /* PTX ISA 9.7.1.3: .wide only for 16- and 32-bit types. */
            verr(c, c->in->loc, ".wide needs a 16- or 32-bit integer type");
        }
    } else {
        forbid(c, PTX_MG_MULMODE, "needs an integer type");
        forbid(c, PTX_MG_CC, "needs an integer type");
    }
}

static void x_mul24(VCtx *c)
{
    if (mod_of(c, PTX_MG_MULMODE) == PTX_M_WIDE) {
        verr(c, c->in->loc, "takes .lo or .hi, not .wide");
    }
}


/* div, rcp, sqrt: a float form names its precision (PTX ISA 9.7.3.8,
 * 9.7.3.13, 9.7.3.15); an integer div takes none. */
static void x_precision(VCtx *c)
{
    PtxType t = slot_type(c, 0);
    if (is_int_kind(ptx_type_kind(t))) {
        forbid(c, PTX_MG_ROUND, "needs a floating-point type");
        forbid(c, PTX_MG_PREC, "needs a floating-point type");
        forbid(c, PTX_MG_FTZ, "needs a floating-point type");
        return;
    }
    if (!has(c, PTX_MG_ROUND) && !has(c, PTX_MG_PREC)) {
        verr(c, c->in->loc, "needs .approx, .full or a rounding modifier");
    }
}

static bool is_irnd(PtxMod r)
{
    return r == PTX_M_RNI || r == PTX_M_RZI || r == PTX_M_RMI ||
           r == PTX_M_RPI;
}

static bool is_frnd(PtxMod r)
{
    return r == PTX_M_RN || r == PTX_M_RZ || r == PTX_M_RM || r == PTX_M_RP;
}

/* cvt: operand forms and the rounding rules of PTX ISA 9.7.9.21:
 * integer rounding is required for float-to-integer conversions and
 * allowed for same-size float-to-float ones; float rounding is required
 * for integer-to-float and narrowing float-to-float conversions; any other
 * rounding is illegal.  Packed and narrow formats keep their own rules. */
static bool is_x4_type(PtxType t)
{
    return t == PTX_T_E4M3X4 || t == PTX_T_E5M2X4 || t == PTX_T_E2M1X4 ||
           t == PTX_T_E2M3X4 || t == PTX_T_E3M2X4;
}

static void x_cvt(VCtx *c)
{
    PtxType dt = slot_type(c, 0), at = slot_type(c, 1);
    unsigned n = c->in->nopnds;
    const IrOperand *op = c->in->opnds;
    bool vec = n >= 2 && op[1].kind == IR_O_VEC;
    if (is_x4_type(dt) != vec || (vec && at != PTX_T_F32)) {
        /* the x4 types exist only as cvt.rs...x4.f32 destinations */
        verr(c, c->in->loc, "expected an x4 destination (.e4m3x4 .e5m2x4 "
             ".e2m1x4 .e2m3x4 .e3m2x4) from .f32 with d, {a, b, e, f}, "
             "rbits");
        return;
    }
    if (n == 2) {
        check_as(c, 1, 's', '1', true);
    } else if (op[1].kind == IR_O_VEC) {
        /* cvt.rs ... .e4m3x4.f32 d, {a, b, e, f}, rbits */
        if (op[1].n != 4 || n != 3) {
            verr(c, c->in->loc, "expected d, {a, b, e, f}, rbits");
            return;
        }
        if (mod_of(c, PTX_MG_ROUND) != PTX_M_RS ||
            !has(c, PTX_MG_SATFINITE)) {
            verr(c, c->in->loc, "the {a, b, e, f} form needs .rs and "
                 ".satfinite");
            return;
        }
        for (unsigned i = 0; i < 4 && c->ok; i++) {
            check_scalar(c, 1, &op[1].u.elems[i], at, false, false);
        }
        check_as(c, 2, 's', 'u', false);
    } else {
        check_as(c, 1, 's', '1', false);
        check_as(c, 2, 's', '1', false);
        if (n == 4) {
            check_as(c, 3, 's', 'u', false);
        }
    }
    if (!c->ok) {
        return;
    }
    PtxTypeKind dk = ptx_type_kind(dt), ak = ptx_type_kind(at);
    if ((dk != PTX_TK_F && !is_int_kind(dk)) ||
        (ak != PTX_TK_F && !is_int_kind(ak)) ||
        dt == PTX_T_F16X2 || dt == PTX_T_BF16X2 ||
        at == PTX_T_F16X2 || at == PTX_T_BF16X2) {
        return;
    }
    PtxMod r = mod_of(c, PTX_MG_ROUND);
    unsigned db = ptx_type_bits(dt), ab = ptx_type_bits(at);
    if (dk == PTX_TK_F && ak == PTX_TK_F) {
        if (db < ab) {
            if (!is_frnd(r) && r != PTX_M_RNA) {
                verr(c, c->in->loc, "narrowing float conversion needs .rn, "
                     ".rz, .rm or .rp");
            }
        } else if (db == ab) {
            if (r != PTX_M_NONE && !is_irnd(r)) {
                verr(c, c->in->loc, "same-size float conversion takes only "
                     "integer rounding (.rni .rzi .rmi .rpi)");
            }
        } else if (r != PTX_M_NONE) {
            verr(c, c->in->loc, "widening float conversion takes no "
                 "rounding modifier");
        }
    } else if (dk == PTX_TK_F) {
        if (!is_frnd(r)) {
            verr(c, c->in->loc, "integer-to-float conversion needs .rn, .rz, "
                 ".rm or .rp");
        }
    } else if (ak == PTX_TK_F) {
        if (!is_irnd(r)) {
            verr(c, c->in->loc, "float-to-integer conversion needs .rni, "
                 ".rzi, .rmi or .rpi");
        }
    } else if (r != PTX_M_NONE) {
        verr(c, c->in->loc, "integer conversion takes no rounding modifier");
    }
}

static void x_cvt_pack(VCtx *c)
{
    unsigned want = c->in->ntypes == 3 ? 4 : 3;
    if (c->in->nopnds != want) {
        verr(c, c->in->loc, " takes %u operands with %u types, got %u", want,
             c->in->ntypes, c->in->nopnds);
    }
}

/* setp/set: the fourth operand and .and/.or/.xor come together. */
static void x_setp(VCtx *c)
{
    bool boolop = has(c, PTX_MG_BOOLOP);
    if (boolop && c->in->nopnds != 4) {
        verr(c, c->in->loc, ".%s needs a fourth operand",
             ptx_mod_name(mod_of(c, PTX_MG_BOOLOP)));
    } else if (!boolop && c->in->nopnds == 4) {
        verr(c, c->in->loc, "a fourth operand needs .and, .or or .xor");
    }
}

static void x_minmax(VCtx *c)
{
    PtxType t = slot_type(c, 0);
    if (has(c, PTX_MG_XORSIGN) && !has(c, PTX_MG_ABSMOD)) {
        verr(c, c->in->loc, ".xorsign needs .abs");
    }
    if (c->in->nopnds == 4 && (t != PTX_T_F32 || has(c, PTX_MG_XORSIGN))) {
        verr(c, c->in->loc, "the three-input form needs .f32 without "
             ".xorsign");
    }
    if (is_int_kind(ptx_type_kind(t))) {
        forbid(c, PTX_MG_FTZ, "needs a floating-point type");
        forbid(c, PTX_MG_NAN, "needs a floating-point type");
        forbid(c, PTX_MG_ABSMOD, "needs a floating-point type");
    } else {
        forbid(c, PTX_MG_RELU, "needs .s32 or .s16x2");
    }
}

static void x_cache_policy(VCtx *c);

/* atom/red with .v2/.v4/.v8 (PTX ISA 9.0, 9.7.13.5 atom and 9.7.13.6
 * red, "with vector type"): only these forms exist, all on .global (or
 * generic) addresses: .add.v2/.v4.f32; .add/.min/.max.noftz on
 * .v2/.v4/.v8.f16/.bf16 and .v2/.v4.f16x2/.bf16x2. */
static void x_atom_vec(VCtx *c)
{
    unsigned n = vec_count(c);
    if (n == 0) {
        return;
    }
    PtxType t = slot_type(c, 0);
    PtxMod op = mod_of(c, PTX_MG_REDOP), sp = mod_of(c, PTX_MG_SPACE);
    bool f32 = t == PTX_T_F32;
    bool half = t == PTX_T_F16 || t == PTX_T_BF16;
    bool pair = t == PTX_T_F16X2 || t == PTX_T_BF16X2;
    bool mm = op == PTX_M_ADD || op == PTX_M_MIN || op == PTX_M_MAX;
    if (!f32 && !half && !pair) {
        verr(c, c->in->loc, "a .v%u vector needs .f32, .f16, .bf16, .f16x2 "
             "or .bf16x2", n);
    } else if (f32 ? op != PTX_M_ADD : !mm) {
        verr(c, c->in->loc, "a .v%u .%s vector takes only %s", n,
             ptx_type_name(t), f32 ? ".add" : ".add, .min or .max");
    } else if (n == 8 && !half) {
        verr(c, c->in->loc, ".v8 needs .f16 or .bf16");
    } else if (sp != PTX_M_NONE && sp != PTX_M_GLOBAL) {
        verr(c, c->in->loc, "a vector needs .global or a generic address");
    } else if (f32 == has(c, PTX_MG_NOFTZ)) {
        verr(c, c->in->loc, f32 ? ".noftz needs .f16, .bf16, .f16x2 or "
             ".bf16x2" : "a .%s vector needs .noftz", ptx_type_name(t));
    }
}

/* red: the vector forms, and the cache-policy operand. */
static void x_red(VCtx *c)
{
    x_atom_vec(c);
    if (c->ok) {
        x_cache_policy(c);
    }
}

/* atom: .cas takes d, [a], b, c; other operations take d, [a], b and an
 * optional cache-policy with .L2::cache_hint (PTX ISA 9.0, atom). */
static void x_atom(VCtx *c)
{
    x_atom_vec(c);
    if (!c->ok) {
        return;
    }
    bool cas = mod_of(c, PTX_MG_REDOP) == PTX_M_CAS;
    if (cas) {
        if (c->in->nopnds != 4) {
            verr(c, c->in->loc, ".cas takes operands d, [a], b, c");
            return;
        }
        check_as(c, 3, 's', '0', false);
    } else if (c->in->nopnds == 4) {
        if (!has(c, PTX_MG_L2HINT)) {
            verr(c, c->in->loc, "a cache-policy operand needs "
                 ".L2::cache_hint");
            return;
        }
        check_as(c, 3, 's', 'Z', false);
    }
}

/* ld/st/red: the trailing cache-policy operand needs .L2::cache_hint. */
static void x_cache_policy(VCtx *c)
{
    const PtxOpInfo *oi = c->oi;
    if (c->in->nopnds == oi->nopnd_max && oi->nopnd_max > oi->nopnd_min &&
        !has(c, PTX_MG_L2HINT)) {
        verr(c, c->in->loc, "a cache-policy operand needs .L2::cache_hint");
    }
}

static void x_lop3(VCtx *c)
{
    bool boolop = has(c, PTX_MG_BOOLOP);
    PtxMod b = mod_of(c, PTX_MG_BOOLOP);
    if (boolop && b != PTX_M_BOOL_AND && b != PTX_M_BOOL_OR) {
        verr(c, c->in->loc, "takes .and or .or");
    } else if (boolop != (c->in->nopnds == 6)) {
        verr(c, c->in->loc, boolop ? "needs operands d|p, a, b, c, immLut, q"
             : "a predicate operand needs .and or .or");
    } else if (!boolop && c->in->opnds[0].kind == IR_O_PAIR) {
        verr(c, c->in->loc, "a d|p destination needs .and or .or");
    }
}

/* bar.red: d, a{, b}, {!}c; .popc with .u32, .and/.or with .pred. */
static void x_bar_red(VCtx *c)
{
    PtxMod op = mod_of(c, PTX_MG_REDOP);
    unsigned n = c->in->nopnds;
    if (slot_type(c, 0) == PTX_T_U32 ? op != PTX_M_POPC
        : (op != PTX_M_RED_AND && op != PTX_M_RED_OR)) {
        verr(c, c->in->loc, "takes .popc.u32, .and.pred or .or.pred");
        return;
    }
    if (n == 4) {
        check_as(c, 2, 's', 'u', false);
    }
    check_as(c, n - 1, 'q', '_', false);
}

/* call: [(rets),] func-or-fptr [, (args)] [, targets-or-prototype]
 * (PTX ISA 9.7.12.5). */
static void x_call(VCtx *c)
{
    const IrOperand *o = c->in->opnds;
    unsigned n = c->in->nopnds, i = 0;
    if (i < n && o[i].kind == IR_O_LIST) {
        i++;
    }
    if (i >= n || (o[i].kind != IR_O_FUNC && o[i].kind != IR_O_REG &&
                   o[i].kind != IR_O_NONE)) {
        verr(c, i < n ? opnd_loc(c, &o[i]) : c->in->loc,
             "expected a function or a function pointer register");
        return;
    }
    bool indirect = o[i].kind == IR_O_REG;
    if (indirect) {
        PtxType t = reg_type(c, &o[i]);
        unsigned w = ptx_type_bits(t);
        if (!is_int_kind(ptx_type_kind(t)) || (w != 32 && w != 64)) {
            verr(c, opnd_loc(c, &o[i]), "function pointer must be a 32- or "
                 "64-bit integer register");
            return;
        }
    }
    const IrOperand *target = &o[i];
    const IrOperand *rets = i > 0 ? &o[0] : NULL;
    i++;
    const IrOperand *args = NULL;
    if (i < n && o[i].kind == IR_O_LIST) {
        args = &o[i];
        i++;
    }
    const IrFunc *callee = NULL;
    if (i < n && indirect && o[i].kind == IR_O_LABEL) {
        const IrLabel *l = o[i].id >= 0 ? &c->f->labels[o[i].id] : NULL;
        if (l && l->kind == IR_LABEL_CALLPROTO) {
            callee = l->proto;
        }
        i++;
    }
    if (i < n) {
        verr(c, opnd_loc(c, &o[i]), "unexpected operand %u", i + 1);
        return;
    }
    if (!indirect && target->kind == IR_O_FUNC) {
        callee = target->u.func;
        if (callee->is_entry) {
            verr(c, opnd_loc(c, target), "'%s' is a kernel (.entry) and "
                 "cannot be called", callee->name);
            return;
        }
    }
    if (!callee) {
        return;
    }
    /* The argument and return lists must match the callee's (or the
     * prototype's) parameter lists (PTX ISA 9.7.12.5). */
    uint32_t nargs = args ? args->n : 0;
    uint32_t nrets = rets ? rets->n : 0;
    if (nargs != callee->nparams) {
        verr(c, args ? opnd_loc(c, args) : opnd_loc(c, target),
             "'%s' takes %u argument%s, got %u", callee->name,
             callee->nparams, callee->nparams == 1 ? "" : "s", nargs);
    } else if (nrets && !callee->nrets) {
        verr(c, opnd_loc(c, rets), "'%s' does not return a value",
             callee->name);
    } else if (nrets != callee->nrets) {
        verr(c, rets ? opnd_loc(c, rets) : opnd_loc(c, target),
             "'%s' returns %u value%s, got %u", callee->name,
             callee->nrets, callee->nrets == 1 ? "" : "s", nrets);
    }
}

/* brx.idx index, tlist: tlist names a .branchtargets list that "must be
 * defined in the local function scope before it is used" (PTX ISA
 * 9.7.12.2). */
static void x_brx(VCtx *c)
{
    if (c->in->nopnds < 2 || c->in->opnds[1].kind != IR_O_LABEL ||
        c->in->opnds[1].id < 0) {
        return;
    }
    const IrLabel *l = &c->f->labels[c->in->opnds[1].id];
    if (l->kind != IR_LABEL_BRANCHTARGETS) {
        verr(c, opnd_loc(c, &c->in->opnds[1]), "'%s' is not a "
             ".branchtargets list", l->name);
        return;
    }
    if (l->insn > (uint32_t)(c->in - c->f->insns)) {
        verr(c, opnd_loc(c, &c->in->opnds[1]), ".branchtargets '%s' must "
             "be defined before it is used", l->name);
    }
}

/* mbarrier.test_wait/try_wait: state is .b64, a .parity phase is .u32. */
static void x_mbar_wait(VCtx *c)
{
    bool parity = mod_of(c, PTX_MG_MISC) == PTX_M_PARITY;
    check_as(c, 2, 's', parity ? 'u' : 'Z', false);
}

static void x_txq(VCtx *c)
{
    /* txq queries textures and samplers; surfaces are queried by suq. */
    const IrOperand *a = c->in->nopnds > 1 ? &c->in->opnds[1] : NULL;
    if (a && a->kind == IR_O_ADDR && a->id < 0 && a->u.sym &&
        a->u.sym->kind == IR_SYM_SURFREF) {
        verr(c, opnd_loc(c, a), "operand 2 must be a .texref or "
             ".samplerref, got a .surfref");
        return;
    }
    bool level = mod_of(c, PTX_MG_TEXLOD) == PTX_M_LEVEL;
    if (level != (c->in->nopnds == 3)) {
        verr(c, c->in->loc, level ? ".level needs a lod operand"
             : "a lod operand needs .level");
    }
}

static void x_mov(VCtx *c)
{
    if (c->in->nopnds == 2 && c->in->opnds[0].kind == IR_O_VEC &&
        c->in->opnds[1].kind == IR_O_VEC) {
        verr(c, c->in->loc, "cannot move a vector to a vector");
    }
}

static const ExtraCheck extra_checks[PTX_OP_COUNT] = {
    [PTX_OP_ADD] = x_add_sub,
    [PTX_OP_SUB] = x_add_sub,
    [PTX_OP_MUL] = x_mul_mad,
    [PTX_OP_MAD] = x_mul_mad,
    [PTX_OP_MUL24] = x_mul24,
    [PTX_OP_MAD24] = x_mul24,
    [PTX_OP_DIV] = x_precision,
    [PTX_OP_RCP] = x_precision,
    [PTX_OP_SQRT] = x_precision,
    [PTX_OP_CVT] = x_cvt,
    [PTX_OP_CVT_PACK] = x_cvt_pack,
    [PTX_OP_SET] = x_setp,
    [PTX_OP_SETP] = x_setp,
    [PTX_OP_MIN] = x_minmax,
    [PTX_OP_MAX] = x_minmax,
    [PTX_OP_ATOM] = x_atom,
    [PTX_OP_RED] = x_red,
    [PTX_OP_LD] = x_cache_policy,
    [PTX_OP_ST] = x_cache_policy,
    [PTX_OP_LOP3] = x_lop3,
    [PTX_OP_BAR_RED] = x_bar_red,
    [PTX_OP_BAR_CTA_RED] = x_bar_red,
    [PTX_OP_BARRIER_RED] = x_bar_red,
    [PTX_OP_BARRIER_CTA_RED] = x_bar_red,
    [PTX_OP_CALL] = x_call,
    [PTX_OP_BRX_IDX] = x_brx,
    [PTX_OP_MBARRIER_TEST_WAIT] = x_mbar_wait,
    [PTX_OP_MBARRIER_TRY_WAIT] = x_mbar_wait,
    [PTX_OP_TXQ] = x_txq,
    [PTX_OP_MOV] = x_mov,
};

/* Checks of the type suffixes alone, run before the operands are checked
 * against them (a wrong type pair would otherwise show as operand
 * errors). */
static const ExtraCheck type_checks[PTX_OP_COUNT] = {
    [PTX_OP_ADD] = mixed_precision_ok,
    [PTX_OP_SUB] = mixed_precision_ok,
    [PTX_OP_FMA] = mixed_precision_ok,
};

/* ---- the generic checks ---- */

static void check_types(VCtx *c)
{
    const PtxOpInfo *oi = c->oi;
    unsigned nt = c->in->ntypes;
    if (nt < oi->ntmin) {
        if (oi->ntmin == 1) {
            verr(c, c->in->loc, " needs a type suffix");
        } else {
            verr(c, c->in->loc, " needs %s%u type suffixes, got %u",
                 oi->ntmin == oi->ntmax ? "" : "at least ", oi->ntmin, nt);
        }
        return;
    }
    if (nt > oi->ntmax) {
        if (oi->ntmax == 0) {
            verr(c, c->in->loc, " takes no type suffix");
        } else {
            verr(c, c->in->loc, " takes at most %u type suffix%s, got %u",
                 oi->ntmax, oi->ntmax == 1 ? "" : "es", nt);
        }
        return;
    }
    for (unsigned i = 0; i < nt; i++) {
        PtxType t = (PtxType)c->in->types[i];
        if (t == PTX_T_NONE || !(oi->types & ((uint64_t)1 << t))) {
            verr(c, c->in->loc, "type .%s is not allowed", ptx_type_name(t));
        }
    }
}

/* First modifier of group g, to name it in messages. */
static const char *group_example(PtxModGroup g)
{
    for (unsigned m = 1; m < PTX_M_COUNT; m++) {
        if (ptx_mod_group((PtxMod)m) == g) {
            return ptx_mod_name((PtxMod)m);
        }
    }
    return "";
}

static void check_mods(VCtx *c)
{
    const PtxOpInfo *oi = c->oi;
    uint64_t seen = 0;
    for (unsigned i = 0; i < c->in->nsfx; i++) {
        unsigned v = c->in->sfx[i];
        if (v & IR_SFX_TYPE) {
            continue;
        }
        PtxModGroup g = ptx_mod_group((PtxMod)v);
        uint64_t bit = g < PTX_MG_COUNT ? (uint64_t)1 << g : 0;
        if (!(oi->groups & bit)) {
            verr(c, c->in->loc, "modifier .%s is not allowed",
                 ptx_mod_name((PtxMod)v));
        } else if (seen & bit) {
            verr(c, c->in->loc, "conflicting modifiers .%s and .%s",
                 ptx_mod_name(mod_of(c, g)), ptx_mod_name((PtxMod)v));
        }
        seen |= bit;
    }
    uint64_t missing = oi->required & ~seen;
    for (unsigned g = 0; missing && g < PTX_MG_COUNT; g++) {
        if (missing & ((uint64_t)1 << g)) {
            verr(c, c->in->loc, "missing %s modifier (e.g. .%s)",
                 ptx_modgroup_name((PtxModGroup)g),
                 group_example((PtxModGroup)g));
        }
    }
}

static void check_opnds(VCtx *c)
{
    const PtxOpInfo *oi = c->oi;
    unsigned n = c->in->nopnds;
    if (n < oi->nopnd_min || n > oi->nopnd_max) {
        if (oi->nopnd_min == oi->nopnd_max) {
            verr(c, c->in->loc, " takes %u operand%s, got %u",
                 oi->nopnd_min, oi->nopnd_min == 1 ? "" : "s", n);
        } else {
            verr(c, c->in->loc, " takes %u to %u operands, got %u",
                 oi->nopnd_min, oi->nopnd_max, n);
        }
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        check_operand(c, i, &oi->opnd[i]);
    }
}

bool ptx_validate_insn(const IrModule *m, const IrFunc *f, const IrInsn *in,
                       PtxDiag *d)
{
    VCtx c;
    c.m = m;
    c.f = f;
    c.in = in;
    c.d = d;
    c.ok = true;
    c.name[0] = '\0';
    if (in->op == PTX_OP_INVALID || in->op >= PTX_OP_COUNT) {
        ptx_error(d, in->loc, "invalid instruction");
        return false;
    }
    c.oi = ptx_opinfo((PtxOpcode)in->op);
    check_types(&c);
    if (c.ok && type_checks[in->op]) {
        type_checks[in->op](&c);
    }
    check_mods(&c);
    if (c.ok) {
        check_opnds(&c);
    }
    if (c.ok && extra_checks[in->op]) {
        extra_checks[in->op](&c);
    }
    return c.ok;
}
