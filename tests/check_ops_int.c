/*
 * tests/check_ops_int.c: the integer, logic, compare and select handlers
 * of emu/ops_int.c.
 *
 * Each row is one PTX instruction, parsed by the front end and lowered by
 * a small decoder here (register i -> slot i), then selected with
 * emu_select_int() and run on all 32 lanes of a fake warp.  Expected
 * values are hand-computed from the PTX ISA 9.0 text (edge cases: INT_MIN
 * / -1, x / 0, shifts past the width, bfe/bfi positions past the width,
 * .sat, NaN in ordered and unordered compares, -0 == +0, .ftz), and
 * sweeps compare against host C arithmetic; 64-bit high products and the
 * carry chains (256-bit add/sub, 64x64->128 multiply from mad.cc/madc)
 * are checked against GMP.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "emu/emu.h"
#include "emu/exec.h"
#include "emu/ops.h"
#include "ptx/ptx.h"

Suite *ops_int_suite(void);

/* ------------------------------------------------------------ harness */

#define NSLOT 64
#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"          \
            ".visible .entry k()\n{\n"                                   \
            ".reg .b16 %h<8>;\n.reg .b32 %r<8>;\n.reg .b64 %d<8>;\n"     \
            ".reg .pred %p<8>;\n.reg .f32 %f<8>;\n.reg .f64 %fd<8>;\n"

typedef struct Fake {
    IrModule *m;
    IrFunc *f;
    EmuInsn code[16];
    unsigned n;
    uint64_t regs[NSLOT * EMU_WARP_SIZE];
    EmuWarp warp;
    EmuCtx x;
} Fake;

static Fake fk;

/* Lower operand o of instruction in the way decode.c does. */
static void lower_opnd(const IrInsn *in, const IrOperand *o, EmuOpnd *e)
{
    memset(e, 0, sizeof(*e));
    e->neg = o->neg;
    e->sel = o->sel;
    switch (o->kind) {
    case IR_O_REG:
        ck_assert_int_lt(o->id, NSLOT);
        e->kind = EO_REG;
        e->reg = (uint32_t)o->id;
        break;
    case IR_O_IMM:
        e->kind = EO_IMM;
        e->imm = (uint64_t)o->imm;
        break;
    case IR_O_FIMM: {
        /* decode.h's rule: converted to the type of slot 0 when that is
         * f32/f64 or a 32/64-bit integer type, else the literal's own
         * bits; n = the size of what is kept */
        e->kind = EO_IMM;
        unsigned t = in->types[0];
        unsigned tb = ptx_type_bits((PtxType)t);
        PtxTypeKind tk = ptx_type_kind((PtxType)t);
        uint64_t bits = (uint64_t)o->imm;
        double dv;
        float fv;
        e->n = o->fsize;
        if (o->fsize == 32) {
            uint32_t b32 = (uint32_t)bits;
            memcpy(&fv, &b32, 4);
            dv = fv;
        } else {
            memcpy(&dv, &bits, 8);
        }
        if (t == PTX_T_F64) {
            memcpy(&bits, &dv, 8);
            e->n = 64;
        } else if (t == PTX_T_F32 ||
                   (tb == 32 && tk != PTX_TK_F && tk != PTX_TK_X)) {
            fv = (float)dv;
            uint32_t b32;
            memcpy(&b32, &fv, 4);
            bits = b32;
            e->n = 32;
        } else if (tb == 64 && tk != PTX_TK_F && o->fsize == 32) {
            memcpy(&bits, &dv, 8);
            e->n = 64;
        }
        e->imm = bits;
        break;
    }
    case IR_O_PAIR:
        e->kind = EO_PAIR;
        e->reg = (uint32_t)o->u.elems[0].id;
        e->imm = o->u.elems[1].kind == IR_O_SINK ? EMU_NOREG
                                                 : (uint64_t)o->u.elems[1].id;
        break;
    case IR_O_SINK:
        e->kind = EO_SINK;
        e->reg = EMU_NOREG;
        break;
    default:
        ck_abort_msg("operand kind %d not handled by the test", o->kind);
    }
}

/* Parse body (instructions), lower and select each one. */
static void load(const char *body)
{
    char src[4096];
    snprintf(src, sizeof(src), "%s%s\nret;\n}\n", HDR, body);
    PtxDiag d;
    fk.m = ptx_parse_string("t.ptx", src, strlen(src), &d, NULL);
    if (!fk.m) {
        ck_abort_msg("parse failed:\n%s\n%s", src, d.buf ? d.buf : "");
    }
    ptx_diag_fini(&d);
    fk.f = fk.m->funcs[0];
    ck_assert_uint_le(fk.f->nregs, NSLOT);
    fk.n = 0;
    for (unsigned k = 0; k + 1 < fk.f->ninsns; k++) {
        const IrInsn *in = &fk.f->insns[k];
        EmuInsn *ei = &fk.code[fk.n++];
        memset(ei, 0, sizeof(*ei));
        ei->op = in->op;
        ei->type = in->ntypes > 0 ? in->types[0] : 0;
        ei->type2 = in->ntypes > 1 ? in->types[1] : 0;
        ei->nopnd = in->nopnds;
        ei->guard = EMU_NOREG;
        ei->ir = in;
        for (unsigned j = 0; j < in->nopnds; j++) {
            lower_opnd(in, &in->opnds[j], &ei->o[j]);
        }
        ck_assert_msg(emu_select_int(fk.m, fk.f, in, ei),
                      "not selected by ops_int: %s", body);
        ck_assert_msg(ei->fn != NULL, "no handler for: %s", body);
    }
    memset(fk.regs, 0, sizeof(fk.regs));
    memset(&fk.warp, 0, sizeof(fk.warp));
    memset(&fk.x, 0, sizeof(fk.x));
    fk.x.regs = fk.regs;
    fk.x.warp = &fk.warp;
}

static void unload(void)
{
    ptx_module_free(fk.m);
    fk.m = NULL;
}

static uint32_t slot_of(const char *name)
{
    for (uint32_t r = 0; r < fk.f->nregs; r++) {
        if (strcmp(fk.f->regs[r].name, name) == 0) {
            return r;
        }
    }
    ck_abort_msg("no register %s", name);
    return 0;
}

static void set_all(uint32_t slot, uint64_t v)
{
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        fk.regs[slot * EMU_WARP_SIZE + l] = v;
    }
}

static void run_all(uint32_t mask)
{
    for (unsigned k = 0; k < fk.n; k++) {
        fk.code[k].fn(&fk.x, &fk.code[k], mask);
    }
}

/* ------------------------------------------------------------ rows */

/* One instruction; its source operands 1.. get in[0..] in order (an
 * immediate operand's entry is unused); the destination (a pair: both) must become want (want2). */
typedef struct Row {
    const char *insn;
    uint64_t in[6];
    uint64_t want;
    uint64_t want2;
} Row;

/* Row id "mnemonic-NN": the mnemonic with its suffixes, numbered within
 * the table. */
static void row_id(const Row *tab, int r, char *buf, size_t n)
{
    size_t len = strcspn(tab[r].insn, " ");
    int k = 0;
    for (int j = 0; j < r; j++) {
        k += strncmp(tab[j].insn, tab[r].insn, len) == 0 &&
             tab[j].insn[len] == ' ';
    }
    snprintf(buf, n, "%.*s-%02d", (int)len, tab[r].insn, k);
}

static void check_row(const Row *tab, int r)
{
    char id[64];
    row_id(tab, r, id, sizeof(id));
    load(tab[r].insn);
    const EmuInsn *ei = &fk.code[0];
    unsigned k = 0;
    for (unsigned j = 1; j < ei->nopnd; j++) {
        if (ei->o[j].kind == EO_REG) {
            set_all(ei->o[j].reg, tab[r].in[k]);
        }
        k++;
    }
    /* half the lanes run: the others must keep their (poisoned) dest */
    uint32_t mask = 0x5555aaaau;
    uint64_t poison = 0xdeadbeefcafef00dull;
    uint32_t d0 = ei->o[0].reg;
    uint32_t d1 = ei->o[0].kind == EO_PAIR ? (uint32_t)ei->o[0].imm
                                           : EMU_NOREG;
    bool dsrc = false;
    for (unsigned j = 1; j < ei->nopnd; j++) {
        dsrc |= ei->o[j].kind == EO_REG && ei->o[j].reg == d0;
    }
    if (!dsrc) {
        set_all(d0, poison);
    }
    run_all(mask);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        uint64_t got = fk.regs[d0 * EMU_WARP_SIZE + l];
        if ((mask >> l) & 1) {
            ck_assert_msg(got == tab[r].want,
                          "%s: %s lane %u: got 0x%llx want 0x%llx", id,
                          tab[r].insn, l, (unsigned long long)got,
                          (unsigned long long)tab[r].want);
            if (d1 != EMU_NOREG) {
                uint64_t g2 = fk.regs[d1 * EMU_WARP_SIZE + l];
                ck_assert_msg(g2 == tab[r].want2,
                              "%s: %s (second dest): got 0x%llx want "
                              "0x%llx", id, tab[r].insn,
                              (unsigned long long)g2,
                              (unsigned long long)tab[r].want2);
            }
        } else if (!dsrc) {
            ck_assert_msg(got == poison, "%s: inactive lane %u written",
                          id, l);
        }
    }
    /* again with the whole warp (handlers have a separate loop for it) */
    if (!dsrc) {
        set_all(d0, poison);
        run_all(0xffffffffu);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            uint64_t got = fk.regs[d0 * EMU_WARP_SIZE + l];
            ck_assert_msg(got == tab[r].want, "%s: %s (full warp) lane %u: "
                          "got 0x%llx want 0x%llx", id, tab[r].insn, l,
                          (unsigned long long)got,
                          (unsigned long long)tab[r].want);
            if (d1 != EMU_NOREG) {
                ck_assert_uint_eq(fk.regs[d1 * EMU_WARP_SIZE + l],
                                  tab[r].want2);
            }
        }
    }
    unload();
}

#define M32 0xffffffffull
#define M64 0xffffffffffffffffull

/* ---- integer arithmetic ---- */
static const Row arith_rows[] = {
    { "add.s32 %r0, %r1, %r2;", { 0x7fffffff, 1 }, 0x80000000, 0 },
    { "add.s32 %r0, %r1, -1;", { 5 }, 4, 0 },
    { "add.u16 %h0, %h1, %h2;", { 0xffff, 2 }, 1, 0 },
    { "add.s16 %h0, %h1, -2;", { 1 }, 0xffff, 0 },
    { "add.u64 %d0, %d1, %d2;", { M64, 2 }, 1, 0 },
    { "add.sat.s32 %r0, %r1, %r2;", { 0x7fffffff, 1 }, 0x7fffffff, 0 },
    { "add.sat.s32 %r0, %r1, %r2;", { 0x80000000, M32 }, 0x80000000, 0 },
    { "add.sat.s32 %r0, %r1, %r2;", { 0xfffffffe, 1 }, M32, 0 },
    { "sub.sat.s32 %r0, %r1, %r2;", { 0x80000000, 1 }, 0x80000000, 0 },
    { "sub.sat.s32 %r0, %r1, %r2;", { 0x7fffffff, M32 }, 0x7fffffff, 0 },
    { "sub.s32 %r0, %r1, %r2;", { 0, 1 }, M32, 0 },
    { "sub.u16 %h0, %h1, %h2;", { 0, 1 }, 0xffff, 0 },
    { "add.u16x2 %r0, %r1, %r2;", { 0xffff0001, 0x00020003 }, 0x00010004, 0 },
    { "sub.s16x2 %r0, %r1, %r2;", { 0x80000000, 0x00010001 }, 0x7fffffff, 0 },
    { "mul.lo.s32 %r0, %r1, %r2;", { 0x10000, 0x10000 }, 0, 0 },
    { "mul.lo.s32 %r0, %r1, %r2;", { M32, 5 }, 0xfffffffb, 0 },
    { "mul.lo.u16 %h0, %h1, %h2;", { 0xffff, 0xffff }, 1, 0 },
    { "mul.hi.u16 %h0, %h1, %h2;", { 0xffff, 0xffff }, 0xfffe, 0 },
    { "mul.hi.s16 %h0, %h1, %h2;", { 0xffff, 0xffff }, 0, 0 },
    { "mul.hi.s16 %h0, %h1, %h2;", { 0x8000, 0x8000 }, 0x4000, 0 },
    { "mul.hi.u32 %r0, %r1, %r2;", { M32, M32 }, 0xfffffffe, 0 },
    { "mul.hi.s32 %r0, %r1, %r2;", { M32, 2 }, M32, 0 },
    { "mul.hi.s32 %r0, %r1, %r2;", { 0x80000000, 0x80000000 }, 0x40000000,
      0 },
    { "mul.wide.s32 %d0, %r1, %r2;", { M32, 3 }, 0xfffffffffffffffdull, 0 },
    { "mul.wide.u32 %d0, %r1, %r2;", { M32, M32 }, 0xfffffffe00000001ull, 0 },
    { "mul.wide.s16 %r0, %h1, %h2;", { 0x8000, 0x8000 }, 0x40000000, 0 },
    { "mul.wide.u16 %r0, %h1, %h2;", { 0xffff, 0xffff }, 0xfffe0001, 0 },
    { "mul.hi.u64 %d0, %d1, %d2;", { M64, M64 }, 0xfffffffffffffffeull, 0 },
    { "mul.hi.s64 %d0, %d1, %d2;", { M64, M64 }, 0, 0 },
    { "mul.hi.s64 %d0, %d1, %d2;", { 0x8000000000000000ull,
      0x8000000000000000ull }, 0x4000000000000000ull, 0 },
    { "mul.hi.s64 %d0, %d1, %d2;", { M64, 2 }, M64, 0 },
    { "mad.lo.s32 %r0, %r1, %r2, %r3;", { 3, 4, 5 }, 17, 0 },
    { "mad.lo.u16 %h0, %h1, %h2, %h3;", { 0x100, 0x100, 7 }, 7, 0 },
    { "mad.hi.u32 %r0, %r1, %r2, %r3;", { M32, M32, 2 }, 0, 0 },
    { "mad.hi.s32 %r0, %r1, %r2, %r3;", { M32, 2, 1 }, 0, 0 },
    { "mad.hi.sat.s32 %r0, %r1, %r2, %r3;", { 0x40000000, 4, 0x7fffffff },
      0x7fffffff, 0 },
    { "mad.hi.sat.s32 %r0, %r1, %r2, %r3;", { 0xc0000000, 4, 0x80000000 },
      0x80000000, 0 },
    { "mad.wide.s32 %d0, %r1, %r2, %d3;", { M32, M32, 1 }, 2, 0 },
    { "mad.wide.u32 %d0, %r1, %r2, %d3;", { M32, 2, 2 }, 0x200000000ull, 0 },
    { "mad.wide.u16 %r0, %h1, %h2, %r3;", { 0xffff, 0xffff, 1 },
      0xfffe0002, 0 },
    { "mad.hi.u64 %d0, %d1, %d2, %d3;", { M64, M64, 3 }, 1, 0 },
    { "mul24.lo.u32 %r0, %r1, %r2;", { 0xff000003, 0xff000005 }, 15, 0 },
    { "mul24.lo.s32 %r0, %r1, %r2;", { 0x00ffffff, 3 }, 0xfffffffd, 0 },
    { "mul24.hi.u32 %r0, %r1, %r2;", { 0xffffff, 0xffffff }, 0xfffffe00, 0 },
    { "mul24.hi.s32 %r0, %r1, %r2;", { 0x800000, 0x800000 }, 0x40000000, 0 },
    { "mul24.hi.s32 %r0, %r1, %r2;", { 0xffffff, 1 }, M32, 0 },
    { "mad24.lo.u32 %r0, %r1, %r2, %r3;", { 2, 3, 4 }, 10, 0 },
    { "mad24.hi.u32 %r0, %r1, %r2, %r3;", { 0x10000, 0x10000, 1 }, 0x10001,
      0 },
    { "mad24.hi.sat.s32 %r0, %r1, %r2, %r3;", { 0x7fffff, 0x7fffff,
      0x7fffffff }, 0x7fffffff, 0 },
    { "sad.s32 %r0, %r1, %r2, %r3;", { M32, 3, 10 }, 14, 0 },
    { "sad.u32 %r0, %r1, %r2, %r3;", { M32, 3, 10 }, 0x00000006, 0 },
    { "sad.s32 %r0, %r1, %r2, %r3;", { 0x80000000, 0x7fffffff, 0 }, M32, 0 },
    { "sad.u16 %h0, %h1, %h2, %h3;", { 1, 0xffff, 0 }, 0xfffe, 0 },
    { "sad.s64 %d0, %d1, %d2, %d3;", { M64, 1, 1 }, 3, 0 },
    /* division: PTX leaves x/0 unspecified; these are our documented
     * choices (see ops_int.c) */
    { "div.u32 %r0, %r1, %r2;", { 7, 2 }, 3, 0 },
    { "div.u32 %r0, %r1, %r2;", { 7, 0 }, M32, 0 },
    { "div.s32 %r0, %r1, %r2;", { 0xfffffff9, 2 }, 0xfffffffd, 0 },
    { "div.s32 %r0, %r1, %r2;", { 0x80000000, M32 }, 0x80000000, 0 },
    { "div.s32 %r0, %r1, %r2;", { 5, 0 }, M32, 0 },
    { "div.s16 %h0, %h1, %h2;", { 0x8000, 0xffff }, 0x8000, 0 },
    { "div.u64 %d0, %d1, %d2;", { M64, 0 }, M64, 0 },
    { "div.s64 %d0, %d1, %d2;", { 0x8000000000000000ull, M64 },
      0x8000000000000000ull, 0 },
    { "rem.u32 %r0, %r1, %r2;", { 7, 0 }, 7, 0 },
    { "rem.s32 %r0, %r1, %r2;", { 0xfffffff9, 2 }, M32, 0 },
    { "rem.s32 %r0, %r1, %r2;", { 7, 0xfffffffe }, 1, 0 },
    { "rem.s32 %r0, %r1, %r2;", { 0x80000000, M32 }, 0, 0 },
    { "rem.s64 %d0, %d1, %d2;", { 0x8000000000000000ull, M64 }, 0, 0 },
    { "rem.u16 %h0, %h1, %h2;", { 0xffff, 0x10 }, 0xf, 0 },
    { "abs.s32 %r0, %r1;", { 0x80000000 }, 0x80000000, 0 },
    { "abs.s32 %r0, %r1;", { M32 }, 1, 0 },
    { "abs.s16 %h0, %h1;", { 0xfffe }, 2, 0 },
    { "abs.s64 %d0, %d1;", { M64 }, 1, 0 },
    { "neg.s32 %r0, %r1;", { 1 }, M32, 0 },
    { "neg.s32 %r0, %r1;", { 0x80000000 }, 0x80000000, 0 },
    { "neg.s16 %h0, %h1;", { 1 }, 0xffff, 0 },
    { "neg.s64 %d0, %d1;", { 5 }, 0xfffffffffffffffbull, 0 },
    { "min.s32 %r0, %r1, %r2;", { M32, 1 }, M32, 0 },
    { "min.u32 %r0, %r1, %r2;", { M32, 1 }, 1, 0 },
    { "max.s16 %h0, %h1, %h2;", { 0x8000, 0x7fff }, 0x7fff, 0 },
    { "max.u64 %d0, %d1, %d2;", { M64, 1 }, M64, 0 },
    { "max.s64 %d0, %d1, %d2;", { M64, 1 }, 1, 0 },
    { "min.relu.s32 %r0, %r1, %r2;", { 0xfffffff0, 5 }, 0, 0 },
    { "max.relu.s32 %r0, %r1, %r2;", { 0xfffffff0, 0xfffffff1 }, 0, 0 },
    { "max.relu.s32 %r0, %r1, %r2;", { 3, 0xfffffff1 }, 3, 0 },
    { "min.u16x2 %r0, %r1, %r2;", { 0xffff0001, 0x00020003 }, 0x00020001, 0 },
    { "min.s16x2 %r0, %r1, %r2;", { 0xffff0001, 0x00020003 }, 0xffff0001, 0 },
    { "max.relu.s16x2 %r0, %r1, %r2;", { 0xfff00005, 0xfff10003 },
      0x00000005, 0 },
    { "dp4a.u32.u32 %r0, %r1, %r2, %r3;", { 0xffffffff, 0xffffffff, 1 },
      4 * 255 * 255 + 1, 0 },
    { "dp4a.s32.s32 %r0, %r1, %r2, %r3;", { 0xffffffff, 0x01020304, 0 },
      (uint32_t)-10, 0 },
    { "dp4a.s32.u32 %r0, %r1, %r2, %r3;", { 0x80808080, 0xffffffff, 0 },
      (uint32_t)(-128 * 255 * 4), 0 },
    { "dp4a.u32.s32 %r0, %r1, %r2, %r3;", { 0x80808080, 0xffffffff, 5 },
      (uint32_t)(-128 * 4 + 5), 0 },
    { "dp2a.lo.s32.s32 %r0, %r1, %r2, %r3;", { 0xffff8000, 0x7f7f0102, 0 },
      (uint32_t)(-32768 * 2 + -1 * 1), 0 },
    { "dp2a.hi.u32.u32 %r0, %r1, %r2, %r3;", { 0x00020003, 0x05040000, 1 },
      3 * 4 + 2 * 5 + 1, 0 },
};

/* ---- bits, shifts, prmt ---- */
static const Row bit_rows[] = {
    { "popc.b32 %r0, %r1;", { 0xf0f0f0f1 }, 17, 0 },
    { "popc.b64 %r0, %d1;", { M64 }, 64, 0 },
    { "clz.b32 %r0, %r1;", { 0 }, 32, 0 },
    { "clz.b32 %r0, %r1;", { 0x00010000 }, 15, 0 },
    { "clz.b64 %r0, %d1;", { 1 }, 63, 0 },
    { "clz.b64 %r0, %d1;", { 0 }, 64, 0 },
    { "bfind.u32 %r0, %r1;", { 0 }, M32, 0 },
    { "bfind.u32 %r0, %r1;", { 0x00010000 }, 16, 0 },
    { "bfind.s32 %r0, %r1;", { M32 }, M32, 0 },
    { "bfind.s32 %r0, %r1;", { 0xffff0000 }, 15, 0 },
    { "bfind.s32 %r0, %r1;", { 0x7fffffff }, 30, 0 },
    { "bfind.shiftamt.u32 %r0, %r1;", { 0x00010000 }, 15, 0 },
    { "bfind.shiftamt.u32 %r0, %r1;", { 0 }, M32, 0 },
    { "bfind.u64 %r0, %d1;", { 0x8000000000000000ull }, 63, 0 },
    { "bfind.s64 %r0, %d1;", { 0x8000000000000000ull }, 62, 0 },
    { "bfind.shiftamt.s64 %r0, %d1;", { 1 }, 63, 0 },
    { "brev.b32 %r0, %r1;", { 1 }, 0x80000000, 0 },
    { "brev.b32 %r0, %r1;", { 0x12345678 }, 0x1e6a2c48, 0 },
    { "brev.b64 %d0, %d1;", { 3 }, 0xc000000000000000ull, 0 },
    /* bfe: d[i] = (i < len && pos + i <= msb) ? a[pos + i] : sbit */
    { "bfe.u32 %r0, %r1, %r2, %r3;", { 0x12345678, 4, 8 }, 0x67, 0 },
    { "bfe.s32 %r0, %r1, %r2, %r3;", { 0x12345678, 4, 8 }, 0x67, 0 },
    { "bfe.s32 %r0, %r1, %r2, %r3;", { 0x000000f0, 4, 4 }, M32, 0 },
    { "bfe.u32 %r0, %r1, %r2, %r3;", { 0x000000f0, 4, 4 }, 0xf, 0 },
    { "bfe.s32 %r0, %r1, %r2, %r3;", { 0x80000000, 31, 5 }, M32, 0 },
    { "bfe.u32 %r0, %r1, %r2, %r3;", { 0x80000000, 31, 5 }, 1, 0 },
    { "bfe.s32 %r0, %r1, %r2, %r3;", { 0x80000000, 40, 5 }, M32, 0 },
    { "bfe.s32 %r0, %r1, %r2, %r3;", { 0x7fffffff, 40, 5 }, 0, 0 },
    { "bfe.u32 %r0, %r1, %r2, %r3;", { M32, 40, 5 }, 0, 0 },
    { "bfe.s32 %r0, %r1, %r2, %r3;", { M32, 0, 0 }, 0, 0 },
    { "bfe.u32 %r0, %r1, %r2, %r3;", { 0xabcd, 0x104, 0x204 }, 0xc, 0 },
    { "bfe.u32 %r0, %r1, %r2, %r3;", { 0xf0000000, 28, 255 }, 0xf, 0 },
    { "bfe.s64 %d0, %d1, %r2, %r3;", { 0x8000000000000000ull, 60, 4 },
      0xfffffffffffffff8ull, 0 },
    { "bfe.s64 %d0, %d1, %r2, %r3;", { 0x7000000000000000ull, 60, 8 }, 7,
      0 },
    { "bfe.s64 %d0, %d1, %r2, %r3;", { 0x8000000000000000ull, 63, 1 }, M64,
      0 },
    { "bfe.u64 %d0, %d1, %r2, %r3;", { 0xff00000000ull, 32, 8 }, 0xff, 0 },
    /* the same with immediate position/length (a separate handler) */
    { "bfe.s32 %r0, %r1, 4, 4;", { 0x000000f0 }, M32, 0 },
    { "bfe.u32 %r0, %r1, 4, 4;", { 0x000000f0 }, 0xf, 0 },
    { "bfe.s32 %r0, %r1, 31, 5;", { 0x80000000 }, M32, 0 },
    { "bfe.u32 %r0, %r1, 31, 5;", { 0x80000000 }, 1, 0 },
    { "bfe.s32 %r0, %r1, 40, 5;", { 0x80000000 }, M32, 0 },
    { "bfe.s32 %r0, %r1, 40, 5;", { 0x7fffffff }, 0, 0 },
    { "bfe.u32 %r0, %r1, 40, 5;", { M32 }, 0, 0 },
    { "bfe.s32 %r0, %r1, 0, 0;", { M32 }, 0, 0 },
    { "bfe.u32 %r0, %r1, 0x104, 0x204;", { 0xabcd }, 0xc, 0 },
    { "bfe.u32 %r0, %r1, 28, 255;", { 0xf0000000 }, 0xf, 0 },
    { "bfe.s32 %r0, %r1, 0, 32;", { 0x80000001 }, 0x80000001, 0 },
    { "bfe.u32 %r0, %r1, 0, 32;", { 0x80000001 }, 0x80000001, 0 },
    { "bfe.s64 %d0, %d1, 60, 4;", { 0x8000000000000000ull },
      0xfffffffffffffff8ull, 0 },
    { "bfe.s64 %d0, %d1, 0, 64;", { 0x8000000000000000ull },
      0x8000000000000000ull, 0 },
    { "bfe.u64 %d0, %d1, 32, 8;", { 0xff00000000ull }, 0xff, 0 },
    { "bfe.s64 %d0, %d1, 36, 4;", { 0xff00000000ull }, M64, 0 },
    { "bfi.b32 %r0, %r1, %r2, %r3, %r4;", { 0xff, 0, 8, 4 }, 0xf00, 0 },
    { "bfi.b32 %r0, %r1, %r2, %r3, %r4;", { 0xff, M32, 30, 8 },
      0xffffffff, 0 },
    { "bfi.b32 %r0, %r1, %r2, %r3, %r4;", { 0, M32, 30, 8 }, 0x3fffffff, 0 },
    { "bfi.b32 %r0, %r1, %r2, %r3, %r4;", { 0, M32, 32, 8 }, M32, 0 },
    { "bfi.b32 %r0, %r1, %r2, %r3, %r4;", { 0, M32, 4, 0 }, M32, 0 },
    { "bfi.b64 %d0, %d1, %d2, %r3, %r4;", { 1, 0, 63, 1 },
      0x8000000000000000ull, 0 },
    { "fns.b32 %r0, %r1, %r2, %r3;", { 0x00000f0f, 0, 1 }, 0, 0 },
    { "fns.b32 %r0, %r1, %r2, %r3;", { 0x00000f0f, 0, 5 }, 8, 0 },
    { "fns.b32 %r0, %r1, %r2, %r3;", { 0x00000f0f, 10, 0xffffffff }, 10, 0 },
    { "fns.b32 %r0, %r1, %r2, %r3;", { 0x00000f0f, 7, 0xffffffff }, 3, 0 },
    { "fns.b32 %r0, %r1, %r2, %r3;", { 0x00000f0f, 11, 0xfffffffb }, 3, 0 },
    { "fns.b32 %r0, %r1, %r2, %r3;", { 0x00000f0f, 11, 0xfffffff7 }, M32, 0 },
    { "fns.b32 %r0, %r1, %r2, %r3;", { 0x00000f0f, 4, 0 }, M32, 0 },
    { "fns.b32 %r0, %r1, %r2, %r3;", { 0x00000f0f, 3, 0 }, 3, 0 },
    { "fns.b32 %r0, %r1, %r2, %r3;", { 0x00000f0f, 0, 9 }, M32, 0 },
    { "bmsk.wrap.b32 %r0, %r1, %r2;", { 1, 2 }, 6, 0 },
    { "bmsk.clamp.b32 %r0, %r1, %r2;", { 4, 40 }, 0xfffffff0, 0 },
    { "bmsk.clamp.b32 %r0, %r1, %r2;", { 40, 4 }, 0, 0 },
    { "bmsk.wrap.b32 %r0, %r1, %r2;", { 36, 4 }, 0xf0, 0 },
    { "bmsk.wrap.b32 %r0, %r1, %r2;", { 0, 0 }, 0, 0 },
    { "bmsk.wrap.b32 %r0, %r1, %r2;", { 28, 8 }, 0xf0000000, 0 },
    { "szext.clamp.s32 %r0, %r1, %r2;", { 0x80, 8 }, 0xffffff80, 0 },
    { "szext.clamp.u32 %r0, %r1, %r2;", { 0x1ff, 8 }, 0xff, 0 },
    { "szext.clamp.s32 %r0, %r1, %r2;", { 0x80000000, 40 }, 0x80000000, 0 },
    { "szext.wrap.s32 %r0, %r1, %r2;", { 0xff, 36 }, M32, 0 },
    { "szext.wrap.u32 %r0, %r1, %r2;", { M32, 0 }, 0, 0 },
    { "szext.wrap.u32 %r0, %r1, %r2;", { M32, 32 }, 0, 0 },
    { "shl.b32 %r0, %r1, %r2;", { 1, 31 }, 0x80000000, 0 },
    { "shl.b32 %r0, %r1, %r2;", { 1, 32 }, 0, 0 },
    { "shl.b16 %h0, %h1, %r2;", { 1, 15 }, 0x8000, 0 },
    { "shl.b16 %h0, %h1, %r2;", { 1, 16 }, 0, 0 },
    { "shl.b64 %d0, %d1, %r2;", { 1, 63 }, 0x8000000000000000ull, 0 },
    { "shl.b64 %d0, %d1, %r2;", { 1, 0x10000 }, 0, 0 },
    { "shr.u32 %r0, %r1, %r2;", { 0x80000000, 31 }, 1, 0 },
    { "shr.u32 %r0, %r1, %r2;", { 0x80000000, 33 }, 0, 0 },
    { "shr.s32 %r0, %r1, %r2;", { 0x80000000, 31 }, M32, 0 },
    { "shr.s32 %r0, %r1, %r2;", { 0x80000000, 100 }, M32, 0 },
    { "shr.s32 %r0, %r1, %r2;", { 0x40000000, 100 }, 0, 0 },
    { "shr.s16 %h0, %h1, %r2;", { 0x8000, 20 }, 0xffff, 0 },
    { "shr.b16 %h0, %h1, %r2;", { 0x8000, 15 }, 1, 0 },
    { "shr.s64 %d0, %d1, %r2;", { 0x8000000000000000ull, 64 }, M64, 0 },
    { "shr.u64 %d0, %d1, %r2;", { M64, 64 }, 0, 0 },
    { "shr.b32 %r0, %r1, %r2;", { 0x80000000, 0x100000001ull }, 0x40000000,
      0 },
    /* shf: d = hi32((b:a) << n) / lo32((b:a) >> n) */
    { "shf.l.wrap.b32 %r0, %r1, %r2, %r3;", { 0x80000000, 1, 1 }, 3, 0 },
    { "shf.l.wrap.b32 %r0, %r1, %r2, %r3;", { 0x80000000, 1, 33 }, 3, 0 },
    { "shf.l.clamp.b32 %r0, %r1, %r2, %r3;", { 0x80000000, 1, 33 },
      0x80000000, 0 },
    { "shf.l.clamp.b32 %r0, %r1, %r2, %r3;", { 0x12345678, 1, 32 },
      0x12345678, 0 },
    { "shf.r.wrap.b32 %r0, %r1, %r2, %r3;", { 0x12345678, 0x9abcdef0, 8 },
      0xf0123456, 0 },
    { "shf.r.wrap.b32 %r0, %r1, %r2, %r3;", { 0x12345678, 0x9abcdef0, 32 },
      0x12345678, 0 },
    { "shf.r.clamp.b32 %r0, %r1, %r2, %r3;", { 0x12345678, 0x9abcdef0, 40 },
      0x9abcdef0, 0 },
    { "shf.r.clamp.b32 %r0, %r1, %r2, %r3;", { 0x12345678, 0x9abcdef0, 0 },
      0x12345678, 0 },
    /* prmt default: a = bytes 0-3, b = bytes 4-7; bit 3 = sign replicate */
    { "prmt.b32 %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 0x3210 },
      0x33221100, 0 },
    { "prmt.b32 %r0, %r1, %r2, 0x4567;", { 0x33221100, 0x77665544 },
      0x44556677, 0 },
    { "prmt.b32 %r0, %r1, %r2, 0x8f98;", { 0x00008000, 0x7f000000 },
      0x0000ff00, 0 },
    { "prmt.b32 %r0, %r1, %r2, 0xffff0123;", { 0x33221100, 0x77665544 },
      0x00112233, 0 },
    { "prmt.b32 %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 0x4567 },
      0x44556677, 0 },
    { "prmt.b32 %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 0xffff0123 },
      0x00112233, 0 },
    { "prmt.b32 %r0, %r1, %r2, %r3;", { 0x00008000, 0x7f000000, 0x8f98 },
      0x0000ff00, 0 },
    { "prmt.b32 %r0, %r1, %r2, %r3;", { 0x00008000, 0x80000000, 0x0f09 },
      0x00ff00ff, 0 },
    { "prmt.b32.f4e %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 1 },
      0x44332211, 0 },
    { "prmt.b32.f4e %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 7 },
      0x66554433, 0 },
    { "prmt.b32.b4e %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 0 },
      0x55667700, 0 },
    { "prmt.b32.b4e %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 3 },
      0x00112233, 0 },
    { "prmt.b32.rc8 %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 2 },
      0x22222222, 0 },
    { "prmt.b32.ecl %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 1 },
      0x33221111, 0 },
    { "prmt.b32.ecl %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 2 },
      0x33222222, 0 },
    { "prmt.b32.ecr %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 1 },
      0x11111100, 0 },
    { "prmt.b32.ecr %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 3 },
      0x33221100, 0 },
    { "prmt.b32.rc16 %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 1 },
      0x33223322, 0 },
    { "prmt.b32.rc16 %r0, %r1, %r2, %r3;", { 0x33221100, 0x77665544, 2 },
      0x11001100, 0 },
};

/* ---- logic ---- */
static const Row logic_rows[] = {
    { "and.b32 %r0, %r1, %r2;", { 0xff00ff00, 0x0ff00ff0 }, 0x0f000f00, 0 },
    { "or.b16 %h0, %h1, %h2;", { 0xff00, 0x00f0 }, 0xfff0, 0 },
    { "xor.b64 %d0, %d1, %d2;", { M64, 1 }, M64 - 1, 0 },
    { "not.b32 %r0, %r1;", { 0 }, M32, 0 },
    { "not.b16 %h0, %h1;", { 0xff }, 0xff00, 0 },
    { "not.b64 %d0, %d1;", { 0 }, M64, 0 },
    { "cnot.b32 %r0, %r1;", { 0 }, 1, 0 },
    { "cnot.b32 %r0, %r1;", { 5 }, 0, 0 },
    { "cnot.b16 %h0, %h1;", { 0 }, 1, 0 },
    { "and.b16 %h0, %h1, -1;", { 0x1234 }, 0x1234, 0 },
    { "or.b32 %r0, %r1, -1;", { 0 }, M32, 0 },
    { "and.pred %p0, %p1, %p2;", { 1, 0 }, 0, 0 },
    { "or.pred %p0, %p1, %p2;", { 1, 0 }, 1, 0 },
    { "xor.pred %p0, %p1, %p2;", { 1, 1 }, 0, 0 },
    { "not.pred %p0, %p1;", { 1 }, 0, 0 },
    { "not.pred %p0, %p1;", { 0 }, 1, 0 },
    { "lop3.b32 %r0, %r1, %r2, %r3, 0xF0;", { 0x1234, 5, 6 }, 0x1234, 0 },
    { "lop3.b32 %r0, %r1, %r2, %r3, 0x96;", { 0xff00ff00, 0xf0f0f0f0,
      0xcccccccc }, 0xff00ff00 ^ 0xf0f0f0f0 ^ 0xcccccccc, 0 },
    { "lop3.b32 %r0, %r1, %r2, %r3, 0xE8;", { 0xff00ff00, 0xf0f0f0f0,
      0xcccccccc }, 0xfcc0fcc0, 0 },
    { "lop3.b32 %r0, %r1, %r2, %r3, 0x00;", { M32, M32, M32 }, 0, 0 },
    { "lop3.b32 %r0, %r1, %r2, %r3, 0xFF;", { 0, 0, 0 }, M32, 0 },
    { "lop3.b32 %r0, %r1, %r2, %r3, 0x80;", { 0xff00ff00, 0xf0f0f0f0,
      0xcccccccc }, 0xc000c000, 0 },
    { "lop3.or.b32 %r0|%p0, %r1, %r2, %r3, 0x80, %p1;", { 1, 2, 4, 0, 0 },
      0, 0 },
    { "lop3.or.b32 %r0|%p0, %r1, %r2, %r3, 0x80, %p1;", { 1, 2, 4, 0, 1 },
      0, 1 },
    { "lop3.and.b32 %r0|%p0, %r1, %r2, %r3, 0xFE, %p1;", { 1, 2, 4, 0, 1 },
      7, 1 },
    { "lop3.and.b32 %r0|%p0, %r1, %r2, %r3, 0xFE, !%p1;", { 1, 2, 4, 0, 1 },
      7, 0 },
    { "lop3.and.b32 %r0|%p0, %r1, %r2, %r3, 0x80, %p1;", { 1, 2, 4, 0, 1 },
      0, 0 },
    { "lop3.or.b32 %r0|_, %r1, %r2, %r3, 0xFE, %p1;", { 1, 2, 4, 0, 1 }, 7,
      0 },
};

/* f32 / f16 / f64 bit patterns */
#define F1 0x3f800000u
#define F2 0x40000000u
#define FNAN 0x7fc00000u
#define FNZ 0x80000000u
#define FDEN 0x00000001u      /* smallest f32 subnormal */
#define FNDEN 0x80000001u
#define H1 0x3c00u
#define H2 0x4000u
#define HNAN 0x7e00u
#define HDEN 0x0001u
#define D1 0x3ff0000000000000ull
#define DNAN 0x7ff8000000000000ull

/* ---- compare and select ---- */
static const Row cmp_rows[] = {
    { "setp.lt.s32 %p0, %r1, %r2;", { M32, 1 }, 1, 0 },
    { "setp.lt.u32 %p0, %r1, %r2;", { M32, 1 }, 0, 0 },
    { "setp.lo.u32 %p0, %r1, %r2;", { 1, M32 }, 1, 0 },
    { "setp.hs.u32 %p0, %r1, %r2;", { M32, M32 }, 1, 0 },
    { "setp.hi.u16 %p0, %h1, %h2;", { 0x8000, 0x7fff }, 1, 0 },
    { "setp.gt.s16 %p0, %h1, %h2;", { 0x8000, 0x7fff }, 0, 0 },
    { "setp.ls.u64 %p0, %d1, %d2;", { M64, M64 }, 1, 0 },
    { "setp.ge.s64 %p0, %d1, %d2;", { M64, 0 }, 0, 0 },
    { "setp.eq.b32 %p0, %r1, %r2;", { 5, 5 }, 1, 0 },
    { "setp.ne.b16 %p0, %h1, %h2;", { 5, 5 }, 0, 0 },
    { "setp.eq.s32 %p0, %r1, -1;", { M32 }, 1, 0 },
    { "setp.eq.u16 %p0, %h1, -1;", { 0xffff }, 1, 0 },
    { "setp.le.s32 %p0|%p1, %r1, %r2;", { 3, 3 }, 1, 0 },
    { "setp.le.s32 %p0|_, %r1, %r2;", { 4, 3 }, 0, 0 },
    { "setp.gt.s32 %p0|%p1, %r1, %r2;", { 3, 3 }, 0, 1 },
    { "setp.lt.and.s32 %p0, %r1, %r2, %p3;", { 1, 2, 0 }, 0, 0 },
    { "setp.lt.and.s32 %p0, %r1, %r2, !%p3;", { 1, 2, 0 }, 1, 0 },
    { "setp.lt.or.s32 %p0|%p1, %r1, %r2, %p3;", { 2, 1, 1 }, 1, 1 },
    { "setp.lt.xor.s32 %p0|%p1, %r1, %r2, %p3;", { 1, 2, 1 }, 0, 1 },
    { "setp.lt.and.s32 %p0|%p1, %r1, %r2, %p3;", { 2, 1, 1 }, 0, 1 },
    /* floats: ordered compares are false on NaN, unordered true */
    { "setp.eq.f32 %p0, %f1, %f2;", { F1, F1 }, 1, 0 },
    { "setp.eq.f32 %p0, %f1, %f2;", { 0, FNZ }, 1, 0 },
    { "setp.lt.f32 %p0, %f1, %f2;", { FNZ, 0 }, 0, 0 },
    { "setp.eq.f32 %p0, %f1, %f2;", { FNAN, FNAN }, 0, 0 },
    { "setp.ne.f32 %p0, %f1, %f2;", { FNAN, F1 }, 0, 0 },
    { "setp.neu.f32 %p0, %f1, %f2;", { FNAN, F1 }, 1, 0 },
    { "setp.neu.f32 %p0, %f1, %f2;", { F1, F1 }, 0, 0 },
    { "setp.equ.f32 %p0, %f1, %f2;", { FNAN, F1 }, 1, 0 },
    { "setp.equ.f32 %p0, %f1, %f2;", { F2, F1 }, 0, 0 },
    { "setp.lt.f32 %p0, %f1, %f2;", { FNAN, F1 }, 0, 0 },
    { "setp.ltu.f32 %p0, %f1, %f2;", { FNAN, F1 }, 1, 0 },
    { "setp.ltu.f32 %p0, %f1, %f2;", { F2, F1 }, 0, 0 },
    { "setp.leu.f32 %p0, %f1, %f2;", { F1, F1 }, 1, 0 },
    { "setp.gtu.f32 %p0, %f1, %f2;", { F1, FNAN }, 1, 0 },
    { "setp.geu.f32 %p0, %f1, %f2;", { F1, F2 }, 0, 0 },
    { "setp.ge.f32 %p0, %f1, %f2;", { F2, F1 }, 1, 0 },
    { "setp.num.f32 %p0, %f1, %f2;", { F2, F1 }, 1, 0 },
    { "setp.num.f32 %p0, %f1, %f2;", { F2, FNAN }, 0, 0 },
    { "setp.nan.f32 %p0, %f1, %f2;", { FNAN, F1 }, 1, 0 },
    { "setp.nan.f32 %p0, %f1, %f2;", { F1, F1 }, 0, 0 },
    { "setp.gt.f32 %p0, %f1, %f2;", { FDEN, 0 }, 1, 0 },
    { "setp.gt.ftz.f32 %p0, %f1, %f2;", { FDEN, 0 }, 0, 0 },
    { "setp.lt.ftz.f32 %p0, %f1, %f2;", { FNDEN, FNZ }, 0, 0 },
    { "setp.lt.f32 %p0, %f1, %f2;", { FNDEN, FNZ }, 1, 0 },
    { "setp.lt.f32 %p0, %f1, 0f40000000;", { F1 }, 1, 0 },
    { "setp.gt.f64 %p0, %fd1, %fd2;", { D1, 0 }, 1, 0 },
    { "setp.eq.f64 %p0, %fd1, %fd2;", { DNAN, DNAN }, 0, 0 },
    { "setp.nan.f64 %p0, %fd1, %fd2;", { DNAN, 0 }, 1, 0 },
    { "setp.lt.f64 %p0, %fd1, 0d4000000000000000;", { D1 }, 1, 0 },
    { "setp.lt.f16 %p0, %h1, %h2;", { H1, H2 }, 1, 0 },
    /* float literals for half types arrive as f32/f64 bits: converted */
    { "setp.eq.f16 %p0, %h1, 0f3F800000;", { H1 }, 1, 0 },
    { "setp.lt.f16 %p0, %h1, 0d3FF0000000000000;", { 0x3bff }, 1, 0 },
    { "setp.eq.f16 %p0, %h1, 0f3F801000;", { 0x3c00 }, 1, 0 },
    { "setp.eq.f16 %p0, %h1, 0f3F803000;", { 0x3c02 }, 1, 0 },
    { "setp.eq.bf16 %p0, %h1, 0f3F808000;", { 0x3f80 }, 1, 0 },
    { "setp.eq.bf16 %p0, %h1, 0f3F818000;", { 0x3f82 }, 1, 0 },
    { "setp.eq.f16 %p0, %h1, 0f33800000;", { 0x0001 }, 1, 0 },
    { "setp.eq.f16 %p0, %h1, 0f477FE800;", { 0x7bff }, 1, 0 },
    { "setp.eq.f16 %p0, %h1, 0f477FF000;", { 0x7c00 }, 1, 0 },
    { "set.lt.u32.f64 %r0, %fd1, 0d3FF8000000000000;", { D1 }, M32, 0 },
    { "setp.lt.f64 %p0, %fd1, 0f3FC00000;", { D1 }, 1, 0 },
    { "setp.lt.f16 %p0, %h1, %h2;", { 0xbc00, 0x3c00 }, 1, 0 },
    { "setp.eq.f16 %p0, %h1, %h2;", { 0x8000, 0 }, 1, 0 },
    { "setp.ltu.f16 %p0, %h1, %h2;", { HNAN, H1 }, 1, 0 },
    { "setp.lt.f16 %p0, %h1, %h2;", { HNAN, H1 }, 0, 0 },
    { "setp.gt.f16 %p0, %h1, %h2;", { HDEN, 0 }, 1, 0 },
    { "setp.gt.ftz.f16 %p0, %h1, %h2;", { HDEN, 0 }, 0, 0 },
    { "setp.gt.bf16 %p0, %h1, %h2;", { 0x3f80, 0x3f00 }, 1, 0 },
    { "setp.lt.f16x2 %p0|%p1, %r1, %r2;", { (H2 << 16) | H1,
      (H1 << 16) | H2 }, 1, 0 },
    { "setp.eq.bf16x2 %p0|%p1, %r1, %r2;", { 0x3f803f80, 0x3f800000 }, 0,
      1 },
    { "set.lt.u32.s32 %r0, %r1, %r2;", { M32, 0 }, M32, 0 },
    { "set.lt.u32.u32 %r0, %r1, %r2;", { M32, 0 }, 0, 0 },
    { "set.eq.f32.s32 %r0, %r1, %r2;", { 4, 4 }, F1, 0 },
    { "set.gtu.f32.f32 %r0, %f1, %f2;", { FNAN, 0 }, F1, 0 },
    { "set.gt.s32.f32 %r0, %f1, %f2;", { FNAN, 0 }, 0, 0 },
    { "set.eq.and.u32.u32 %r0, %r1, %r2, %p3;", { 1, 1, 1 }, M32, 0 },
    { "set.eq.and.u32.u32 %r0, %r1, %r2, !%p3;", { 1, 1, 1 }, 0, 0 },
    { "set.lt.f16.f16 %h0, %h1, %h2;", { H1, H2 }, H1, 0 },
    { "set.lt.u32.f16x2 %r0, %r1, %r2;", { (H1 << 16) | H2,
      (H2 << 16) | H1 }, 0xffff0000, 0 },
    { "set.lt.f16x2.f16x2 %r0, %r1, %r2;", { (H1 << 16) | H1,
      (H2 << 16) | H2 }, 0x3c003c00, 0 },
    { "selp.b32 %r0, %r1, %r2, %p3;", { 1, 2, 1 }, 1, 0 },
    { "selp.b32 %r0, %r1, %r2, %p3;", { 1, 2, 0 }, 2, 0 },
    { "selp.s32 %r0, %r1, %r2, !%p3;", { 1, 2, 1 }, 2, 0 },
    { "selp.s16 %h0, -1, %h2, %p3;", { 0, 2, 1 }, 0xffff, 0 },
    { "selp.s16 %h0, -1, %h2, %p3;", { 0, 2, 0 }, 2, 0 },
    { "selp.u64 %d0, %d1, -1, %p3;", { 7, 0, 0 }, M64, 0 },
    { "selp.f32 %f0, %f1, 0f3F800000, %p3;", { F2, 0, 0 }, F1, 0 },
    { "slct.u32.s32 %r0, %r1, %r2, %r3;", { 1, 2, 0 }, 1, 0 },
    { "slct.u32.s32 %r0, %r1, %r2, %r3;", { 1, 2, M32 }, 2, 0 },
    { "slct.f32.f32 %f0, %f1, %f2, %f3;", { F1, F2, FNZ }, F1, 0 },
    { "slct.f32.f32 %f0, %f1, %f2, %f3;", { F1, F2, 0xbf800000 }, F2, 0 },
    { "slct.s32.f32 %r0, %r1, %r2, %f3;", { 1, 2, FNAN }, 2, 0 },
    { "slct.s32.f32 %r0, %r1, %r2, %f3;", { 1, 2, FNDEN }, 2, 0 },
    { "slct.ftz.s32.f32 %r0, %r1, %r2, %f3;", { 1, 2, FNDEN }, 1, 0 },
    { "slct.b64.s32 %d0, %d1, %d2, %r3;", { M64, 2, 0x80000000 }, 2, 0 },
};

/* ---- SIMD video (PTX ISA video pseudo-code, by hand) ---- */
static const Row video_rows[] = {
    { "vadd.u32.u32.u32 %r0, %r1, %r2;", { 5, 7 }, 12, 0 },
    { "vadd.s32.s32.s32.sat %r0, %r1, %r2;", { 0x7fffffff, 1 }, 0x7fffffff,
      0 },
    { "vadd.s32.s32.s32 %r0, %r1, %r2;", { 0x7fffffff, 1 }, 0x80000000, 0 },
    { "vadd.u32.u32.u32.sat %r0, %r1, %r2;", { M32, 1 }, M32, 0 },
    { "vsub.u32.u32.u32.sat %r0, %r1, %r2;", { 1, 2 }, 0, 0 },
    { "vsub.u32.u32.u32 %r0, %r1, %r2;", { 1, 2 }, M32, 0 },
    { "vsub.s32.u32.u32 %r0, %r1.b0, %r2.b1;", { 0x10, 0x2000 }, 0xfffffff0,
      0 },
    { "vabsdiff.u32.s32.s32 %r0, %r1.h0, %r2.h1;", { 0xfffe, 0x50000 }, 7,
      0 },
    { "vmin.s32.s32.u32 %r0, %r1, %r2;", { M32, 5 }, M32, 0 },
    { "vmax.s32.s32.u32 %r0, %r1, %r2;", { M32, 5 }, 5, 0 },
    { "vmin.s32.s32.u32 %r0, %r1, %r2;", { M32, M32 }, M32, 0 },
    { "vmax.u32.s32.s32.sat %r0, %r1, %r2;", { 0xfffffff0, 0xfffffff1 }, 0,
      0 },
    { "vadd.u32.u32.u32.add %r0, %r1, %r2, %r3;", { 1, 2, 10 }, 13, 0 },
    { "vadd.s32.s32.s32.min %r0, %r1, %r2, %r3;", { 1, 2, 0xfffffffe },
      0xfffffffe, 0 },
    { "vadd.u32.u32.u32.max %r0, %r1, %r2, %r3;", { 1, 2, 0xfffffffe },
      0xfffffffe, 0 },
    { "vadd.u32.u32.u32 %r0.b1, %r1.b0, %r2.b0, %r3;", { 0x12, 0x34,
      0xaabbccdd }, 0xaabb46dd, 0 },
    { "vadd.u32.u32.u32.sat %r0.h1, %r1, %r2, %r3;", { 0xffff0000, 0x20000,
      0x11112222 }, 0xffff2222, 0 },
    { "vadd.u32.u32.u32 %r0.h1, %r1, %r2, %r3;", { 0xffff0000, 0x20000,
      0x11112222 }, 0x00002222, 0 },
    { "vadd.s32.s32.s32.sat %r0.b0, %r1, %r2, %r3;", { 100, 100,
      0xffffff00 }, 0xffffff7f, 0 },
    { "vshl.u32.u32.u32.clamp %r0, %r1, %r2;", { 1, 40 }, 0, 0 },
    { "vshl.u32.u32.u32.sat.clamp %r0, %r1, %r2;", { 1, 40 }, M32, 0 },
    { "vshl.u32.u32.u32.wrap %r0, %r1, %r2;", { 1, 33 }, 2, 0 },
    { "vshr.s32.s32.u32.clamp %r0, %r1, %r2;", { 0x80000000, 40 }, M32, 0 },
    { "vshr.u32.u32.u32.wrap %r0, %r1, %r2;", { 0x80000000, 33 },
      0x40000000, 0 },
    { "vset.s32.s32.lt %r0, %r1, %r2;", { M32, 0 }, 1, 0 },
    { "vset.u32.u32.lt %r0, %r1, %r2;", { M32, 0 }, 0, 0 },
    { "vset.s32.u32.lt %r0, %r1, %r2;", { M32, M32 }, 1, 0 },
    { "vset.u32.u32.eq.add %r0, %r1, %r2, %r3;", { 5, 5, 10 }, 11, 0 },
    { "vset.u32.u32.ne %r0.b2, %r1, %r2, %r3;", { 1, 2, 0 }, 0x10000, 0 },
    /* two halves: asel defaults to .h10, bsel to .h32 (b's halves) */
    { "vadd2.u32.u32.u32 %r0, %r1, %r2, %r3;", { 0x0001ffff, 0x00010001, 0 },
      0x00020000, 0 },
    { "vadd2.u32.u32.u32.sat %r0, %r1, %r2, %r3;", { 0x0001ffff, 0x00010001,
      0 }, 0x0002ffff, 0 },
    { "vadd2.s32.s32.s32.sat %r0, %r1, %r2, %r3;", { 0x7fff8000, 0x0001ffff,
      0 }, 0x7fff8000, 0 },
    { "vsub2.s32.s32.s32 %r0, %r1, %r2, %r3;", { 0x00050003, 0x00010004, 0 },
      0x0004ffff, 0 },
    { "vavrg2.u32.u32.u32 %r0, %r1, %r2, %r3;", { 0x00030001, 0x00040002, 0 },
      0x00040002, 0 },
    { "vavrg2.s32.s32.s32 %r0, %r1, %r2, %r3;", { 0x0003fffd, 0, 0 },
      0x0002fffe, 0 },
    { "vabsdiff2.u32.u32.u32.add %r0, %r1, %r2, %r3;", { 0x00010005,
      0x00040002, 100 }, 106, 0 },
    { "vmin2.s32.s32.s32 %r0, %r1, %r2, %r3;", { 0x0001ffff, 0x00020001, 0 },
      0x0001ffff, 0 },
    { "vmax2.u32.u32.u32 %r0, %r1, %r2, %r3;", { 0x0001ffff, 0x00020001, 0 },
      0x0002ffff, 0 },
    { "vadd2.u32.u32.u32 %r0.h1, %r1, %r2, %r3;", { 0x00010001, 0x00010001,
      0xaaaabbbb }, 0x0002bbbb, 0 },
    { "vadd2.u32.u32.u32 %r0, %r1.h01, %r2.h22, %r3;", { 0x00020001, 0x10,
      0 }, 0x00110012, 0 },
    { "vset2.u32.u32.lt %r0, %r1, %r2, %r3;", { 0x00050001, 0x00030002, 0 },
      1, 0 },
    { "vset2.s32.s32.lt.add %r0, %r1, %r2, %r3;", { M32, 0, 7 }, 9, 0 },
    /* four bytes: asel defaults to .b3210, bsel to .b7654 */
    { "vadd4.u32.u32.u32 %r0, %r1, %r2, %r3;", { 0x01020304, 0x10203040, 0 },
      0x11223344, 0 },
    { "vadd4.u32.u32.u32 %r0, %r1, %r2, %r3;", { 0xff, 1, 0 }, 0, 0 },
    { "vadd4.u32.u32.u32.sat %r0, %r1, %r2, %r3;", { 0xff, 1, 0 }, 0xff,
      0 },
    { "vadd4.s32.s32.s32.sat %r0, %r1, %r2, %r3;", { 0x7f80, 0x01ff, 0 },
      0x7f80, 0 },
    { "vabsdiff4.u32.u32.u32.add %r0, %r1, %r2, %r3;", { 0x0a141e28,
      0x281e140a, 5 }, 85, 0 },
    { "vsub4.s32.s32.s32.sat %r0, %r1, %r2, %r3;", { 0x80, 0x01, 0 }, 0x80,
      0 },
    { "vsub4.u32.u32.u32 %r0, %r1, %r2, %r3;", { 0x00, 0x01, 0 }, 0xff, 0 },
    { "vsub4.u32.u32.u32.sat %r0, %r1, %r2, %r3;", { 0x05000000, 0x01000003,
      0 }, 0x04000000, 0 },
    { "vmin4.u32.u32.u32 %r0, %r1, %r2, %r3;", { 0x01ff0203, 0x02010304, 0 },
      0x01010203, 0 },
    { "vmax4.s32.s32.s32 %r0, %r1, %r2, %r3;", { 0x01ff0203, 0x02010304, 0 },
      0x02010304, 0 },
    { "vadd4.u32.u32.u32 %r0.b20, %r1, %r2, %r3;", { 0x01010101, 0x01010101,
      0xaabbccdd }, 0xaa02cc02, 0 },
    { "vadd4.u32.u32.u32 %r0, %r1.b0000, %r2, %r3;", { 0x01020304,
      0x10203040, 0 }, 0x14243444, 0 },
    { "vavrg4.u32.u32.u32 %r0, %r1, %r2, %r3;", { 0x01ff, 0x02ff, 0 },
      0x02ff, 0 },
    { "vset4.u32.u32.ne %r0, %r1, %r2, %r3;", { 0x01020304, 0x01000300, 0 },
      0x00010001, 0 },
    { "vset4.s32.s32.gt.add %r0, %r1, %r2, %r3;", { 0x7f7f7f7f, 0x80808080,
      1 }, 5, 0 },
    { "vset4.u32.u32.gt.add %r0, %r1, %r2, %r3;", { 0x7f7f7f7f, 0x80808080,
      1 }, 1, 0 },
    /* vmad: (a*b) + c with negation, .po, scaling and .sat */
    { "vmad.u32.u32.u32 %r0, %r1, %r2, %r3;", { 3, 4, 5 }, 17, 0 },
    { "vmad.u32.u32.u32.po %r0, %r1, %r2, %r3;", { 3, 4, 5 }, 18, 0 },
    { "vmad.s32.u32.u32 %r0, -%r1, %r2, %r3;", { 3, 4, 5 }, (uint32_t)-7,
      0 },
    { "vmad.s32.u32.u32 %r0, %r1, %r2, -%r3;", { 3, 4, 5 }, 7, 0 },
    { "vmad.s32.s32.s32 %r0, %r1, %r2, %r3;", { M32, 4, 1 }, (uint32_t)-3,
      0 },
    { "vmad.u32.u32.u32.sat %r0, %r1, %r2, %r3;", { 0x10000, 0x10000, 0 },
      M32, 0 },
    { "vmad.u32.u32.u32 %r0, %r1, %r2, %r3;", { 0x10000, 0x10000, 7 }, 7,
      0 },
    { "vmad.s32.s32.s32.sat %r0, %r1, %r2, %r3;", { 0x10000, 0xffff8000, 0 },
      0x80000000, 0 },
    { "vmad.u32.u32.u32.shr15 %r0, %r1.h0, %r2.h0, %r3;", { 0x8000, 0x8000,
      0 }, 0x8000, 0 },
    { "vmad.s32.s32.s32.shr7 %r0, %r1.b0, %r2.b0, %r3;", { 0x80, 0x7f, 0 },
      (uint32_t)(-128 * 127 >> 7), 0 },
    { "vmad.u32.u32.u32.shr7 %r0, %r1, %r2, %r3;", { 0xffffffff, 0x100, 0 },
      0xfffffffe, 0 },
};

#define ROW_TEST(name, tab)                                               \
    START_TEST(test_##name)                                               \
    {                                                                     \
        check_row(tab, _i);                                               \
    }                                                                     \
    END_TEST

ROW_TEST(arith, arith_rows)
ROW_TEST(bits, bit_rows)
ROW_TEST(logic, logic_rows)
ROW_TEST(cmp, cmp_rows)
ROW_TEST(video, video_rows)

#define NROWS(t) ((int)(sizeof(t) / sizeof((t)[0])))

/* ------------------------------------------------------------ sweeps */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Interesting operands: edges mixed with random values. */
static uint64_t pick(unsigned bits)
{
    static const uint64_t edge[] = { 0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff,
                                     0x8000, 0xffff, 0x7fffffff, 0x80000000,
                                     0xffffffff, 0x7fffffffffffffffull,
                                     0x8000000000000000ull, M64, M64 - 1 };
    uint64_t v = (rnd64() & 3) ? rnd64() >> (rnd64() & 63)
                               : edge[rnd64() % 16];
    return bits == 64 ? v : v & ((1ull << bits) - 1);
}

static int64_t sext(uint64_t v, unsigned bits)
{
    return bits == 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >>
                                         (64 - bits);
}

/* GMP helpers: z from/to 64-bit limbs (z taken mod 2^(64 n)). */
static void z_from(mpz_t z, const uint64_t *limbs, size_t n)
{
    mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, limbs);
}

static void z_to(const mpz_t z, uint64_t *limbs, size_t n)
{
    mpz_t t;
    mpz_init(t);
    mpz_fdiv_r_2exp(t, z, 64 * n);      /* non-negative residue */
    size_t cnt = 0;
    memset(limbs, 0, n * sizeof(uint64_t));
    mpz_export(limbs, &cnt, -1, sizeof(uint64_t), 0, 0, t);
    ck_assert_uint_le(cnt, n);
    mpz_clear(t);
}

/* The full 128-bit product of two 64-bit values, by GMP. */
static void mul128(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
    mpz_t za, zb;
    mpz_inits(za, zb, NULL);
    z_from(za, &a, 1);
    z_from(zb, &b, 1);
    mpz_mul(za, za, zb);
    uint64_t r[2];
    z_to(za, r, 2);
    *lo = r[0];
    *hi = r[1];
    mpz_clears(za, zb, NULL);
}

/* High half of a signed 64x64 product, by GMP (floor shift = arithmetic). */
static uint64_t mulhi_s64(uint64_t a, uint64_t b)
{
    mpz_t za, zb;
    mpz_inits(za, zb, NULL);
    mpz_set_si(za, (long)(int64_t)a);
    mpz_set_si(zb, (long)(int64_t)b);
    mpz_mul(za, za, zb);
    mpz_fdiv_q_2exp(za, za, 64);
    uint64_t r;
    z_to(za, &r, 1);
    mpz_clears(za, zb, NULL);
    return r;
}

static uint64_t ref_mulhi(uint64_t a, uint64_t b, unsigned bits, bool sgn)
{
    if (bits < 64) {
        uint64_t m = (1ull << bits) - 1;
        if (sgn) {
            return (uint64_t)((sext(a, bits) * sext(b, bits)) >> bits) & m;
        }
        return ((a * b) >> bits) & m;
    }
    if (sgn) {
        return mulhi_s64(a, b);
    }
    uint64_t lo, hi;
    mul128(a, b, &lo, &hi);
    return hi;
}

static const struct {
    const char *t;
    unsigned bits;
    bool sgn;
    const char *reg;
} sweep_types[] = {
    { "u16", 16, false, "%h" }, { "s16", 16, true, "%h" },
    { "u32", 32, false, "%r" }, { "s32", 32, true, "%r" },
    { "u64", 64, false, "%d" }, { "s64", 64, true, "%d" },
};

static uint64_t ref_op(const char *op, uint64_t a, uint64_t b,
                       unsigned bits, bool sgn)
{
    uint64_t m = bits == 64 ? M64 : (1ull << bits) - 1;
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    if (!strcmp(op, "add")) return (a + b) & m;
    if (!strcmp(op, "sub")) return (a - b) & m;
    if (!strcmp(op, "mul.lo")) return (a * b) & m;
    if (!strcmp(op, "mul.hi")) return ref_mulhi(a, b, bits, sgn);
    if (!strcmp(op, "min")) return sgn ? (uint64_t)(sa < sb ? sa : sb) & m
                                       : (a < b ? a : b);
    if (!strcmp(op, "max")) return sgn ? (uint64_t)(sa > sb ? sa : sb) & m
                                       : (a > b ? a : b);
    if (!strcmp(op, "div") || !strcmp(op, "rem")) {
        bool div = op[0] == 'd';
        if (b == 0) {
            return div ? m : a;
        }
        if (sgn) {
            if (sb == -1) {
                return div ? (0 - a) & m : 0;
            }
            return (uint64_t)(div ? sa / sb : sa % sb) & m;
        }
        return div ? a / b : a % b;
    }
    ck_abort_msg("no reference for %s", op);
    return 0;
}

START_TEST(test_sweep)
{
    static const char *ops[] = { "add", "sub", "mul.lo", "mul.hi", "min",
                                 "max", "div", "rem" };
    const char *op = ops[_i];
    for (unsigned t = 0; t < 6; t++) {
        char body[128];
        const char *r = sweep_types[t].reg;
        snprintf(body, sizeof(body), "%s.%s %s0, %s1, %s2;", op,
                 sweep_types[t].t, r, r, r);
        load(body);
        const EmuInsn *ei = &fk.code[0];
        for (int it = 0; it < 64; it++) {
            uint64_t a[32], b[32];
            for (unsigned l = 0; l < 32; l++) {
                a[l] = pick(sweep_types[t].bits);
                b[l] = pick(sweep_types[t].bits);
                fk.regs[ei->o[1].reg * 32 + l] = a[l];
                fk.regs[ei->o[2].reg * 32 + l] = b[l];
            }
            run_all(M32);
            for (unsigned l = 0; l < 32; l++) {
                uint64_t want = ref_op(op, a[l], b[l], sweep_types[t].bits,
                                       sweep_types[t].sgn);
                uint64_t got = fk.regs[ei->o[0].reg * 32 + l];
                ck_assert_msg(got == want, "%s-%02d: a=0x%llx b=0x%llx got "
                              "0x%llx want 0x%llx", body, it,
                              (unsigned long long)a[l],
                              (unsigned long long)b[l],
                              (unsigned long long)got,
                              (unsigned long long)want);
            }
        }
        unload();
    }
}
END_TEST

/* The register-immediate forms (ops_int.c runs them apart from the
 * register forms, with the immediate kept in a scalar): each operation
 * and type with edge-case immediates, per-lane register values and the
 * host reference above, under a full and a partial mask.  mad.lo is run
 * with an immediate b and a register or immediate c. */
static uint64_t ref_imm(const char *op, uint64_t a, uint64_t b, uint64_t c,
                        unsigned bits, bool sgn)
{
    uint64_t m = bits == 64 ? M64 : (1ull << bits) - 1;
    uint64_t n = b & 0xffffffffu;            /* shift amounts are .u32 */
    if (!strcmp(op, "and")) return a & b & m;
    if (!strcmp(op, "or")) return (a | b) & m;
    if (!strcmp(op, "xor")) return (a ^ b) & m;
    if (!strcmp(op, "shl")) return n >= bits ? 0 : (a << n) & m;
    if (!strcmp(op, "shr")) {
        if (sgn) {
            return (uint64_t)(sext(a, bits) >> (n >= bits ? bits - 1 : n))
                   & m;
        }
        return n >= bits ? 0 : (a & m) >> n;
    }
    if (!strncmp(op, "mad.lo", 6)) return (a * b + c) & m;
    return ref_op(op, a, b, bits, sgn);
}

START_TEST(test_sweep_imm)
{
    static const char *ops[] = { "add", "sub", "mul.lo", "mul.hi", "min",
                                 "max", "div", "rem", "and", "or", "xor",
                                 "shl", "shr", "mad.lo.r", "mad.lo.i" };
    const char *op = ops[_i];
    bool logic = !strcmp(op, "and") || !strcmp(op, "or") ||
                 !strcmp(op, "xor") || !strcmp(op, "shl");
    bool mad = !strncmp(op, "mad.lo", 6);
    for (unsigned t = 0; t < 6; t++) {
        unsigned bits = sweep_types[t].bits;
        uint64_t m = bits == 64 ? M64 : (1ull << bits) - 1;
        const uint64_t imms[] = { 0, 1, 2, 5, bits - 1, bits, bits + 1,
                                  m, m >> 1, (m >> 1) + 1, 0x12345678u & m,
                                  0x9e3779b97f4a7c15ull & m };
        for (unsigned k = 0; k < sizeof(imms) / sizeof(imms[0]); k++) {
            uint64_t imm = imms[k];
            if (!strncmp(op, "sh", 2)) {
                imm &= 0xffffffffu;     /* a .u32 amount */
            }
            char tname[8], body[128];
            const char *r = sweep_types[t].reg;
            uint64_t cimm = 0x0123456789abcdefull & m;
            if (logic) {
                snprintf(tname, sizeof(tname), "b%u", bits);
            } else {
                snprintf(tname, sizeof(tname), "%s", sweep_types[t].t);
            }
            if (mad && op[7] == 'r') {
                snprintf(body, sizeof(body), "mad.lo.%s %s0, %s1, 0x%llx, "
                         "%s2;", tname, r, r, (unsigned long long)imm,
                         r);
            } else if (mad) {
                snprintf(body, sizeof(body), "mad.lo.%s %s0, %s1, 0x%llx, "
                         "0x%llx;", tname, r, r,
                         (unsigned long long)imm,
                         (unsigned long long)cimm);
            } else {
                snprintf(body, sizeof(body), "%s.%s %s0, %s1, 0x%llx;", op,
                         tname, r, r, (unsigned long long)imm);
            }
            load(body);
            const EmuInsn *ei = &fk.code[0];
            ck_assert_int_eq(ei->o[2].kind, EO_IMM);
            static const uint32_t masks[] = { M32, 0x5555aaaau };
            for (unsigned mk = 0; mk < 2; mk++) {
                uint64_t a[32], c[32];
                uint64_t poison = 0xdeadbeefcafef00dull;
                for (unsigned l = 0; l < 32; l++) {
                    a[l] = pick(bits);
                    c[l] = mad && op[7] == 'r' ? pick(bits) : cimm;
                    fk.regs[ei->o[1].reg * 32 + l] = a[l];
                    if (mad && op[7] == 'r') {
                        fk.regs[ei->o[3].reg * 32 + l] = c[l];
                    }
                    fk.regs[ei->o[0].reg * 32 + l] = poison;
                }
                run_all(masks[mk]);
                for (unsigned l = 0; l < 32; l++) {
                    uint64_t want = (masks[mk] >> l) & 1
                        ? ref_imm(op, a[l], imm, c[l], bits,
                                  sweep_types[t].sgn)
                        : poison;
                    uint64_t got = fk.regs[ei->o[0].reg * 32 + l];
                    ck_assert_msg(got == want, "%s lane %u mask 0x%x: "
                                  "a=0x%llx got 0x%llx want 0x%llx", body,
                                  l, masks[mk], (unsigned long long)a[l],
                                  (unsigned long long)got,
                                  (unsigned long long)want);
                }
            }
            unload();
        }
    }
}
END_TEST

/* Carry chains: a 256-bit add/sub and a 128x128 multiply built from
 * add.cc/addc/sub.cc/subc/mad.lo.cc/madc.hi, against 16-bit-limb
 * references.  Lanes get different operands, so the per-lane carry bits
 * are exercised. */
static void ref_addsub256(const uint64_t *a, const uint64_t *b, uint64_t *d,
                          bool sub)
{
    mpz_t za, zb;
    mpz_inits(za, zb, NULL);
    z_from(za, a, 4);
    z_from(zb, b, 4);
    if (sub) {
        mpz_sub(za, za, zb);
    } else {
        mpz_add(za, za, zb);
    }
    z_to(za, d, 4);
    mpz_clears(za, zb, NULL);
}

START_TEST(test_chain_add)
{
    bool sub = _i & 1, w64 = _i >= 2;
    const char *o = sub ? "sub" : "add";
    char body[1024];
    if (w64) {
        snprintf(body, sizeof(body),
                 "%s.cc.u64 %%d0, %%d0, %%d4;\n%sc.cc.u64 %%d1, %%d1, %%d5;\n"
                 "%sc.cc.u64 %%d2, %%d2, %%d6;\n%sc.u64 %%d3, %%d3, %%d7;",
                 o, o, o, o);
    } else {
        /* 8 x 32-bit limbs in %r0..%r7 (a, result) and ... only 8 regs
         * of each kind: use 4 limbs of a in %r0-3 and b in %r4-7 twice */
        snprintf(body, sizeof(body),
                 "%s.cc.u32 %%r0, %%r0, %%r4;\n%sc.cc.u32 %%r1, %%r1, %%r5;\n"
                 "%sc.cc.u32 %%r2, %%r2, %%r6;\n%sc.cc.u32 %%r3, %%r3, %%r7;",
                 o, o, o, o);
    }
    load(body);
    for (int it = 0; it < 32; it++) {
        uint64_t a[32][4], b[32][4], want[32][4];
        for (unsigned l = 0; l < 32; l++) {
            for (int k = 0; k < 4; k++) {
                a[l][k] = pick(64);
                b[l][k] = (l & 1) ? ~a[l][k] : pick(64);   /* long chains */
                if (!w64) {
                    a[l][k] &= M32;
                    b[l][k] &= M32;
                }
            }
            if (w64) {
                ref_addsub256(a[l], b[l], want[l], sub);
            } else {
                uint64_t a2[4] = { a[l][0] | a[l][1] << 32,
                                   a[l][2] | a[l][3] << 32, 0, 0 };
                uint64_t b2[4] = { b[l][0] | b[l][1] << 32,
                                   b[l][2] | b[l][3] << 32, 0, 0 };
                uint64_t d2[4];
                ref_addsub256(a2, b2, d2, sub);
                want[l][0] = d2[0] & M32;
                want[l][1] = d2[0] >> 32;
                want[l][2] = d2[1] & M32;
                want[l][3] = d2[1] >> 32;
            }
            const char *pa = w64 ? "%d" : "%r";
            for (unsigned k = 0; k < 4; k++) {
                char n1[16], n2[16];
                snprintf(n1, sizeof(n1), "%s%u", pa, k);
                snprintf(n2, sizeof(n2), "%s%u", pa, k + 4);
                fk.regs[slot_of(n1) * 32 + l] = a[l][k];
                fk.regs[slot_of(n2) * 32 + l] = b[l][k];
            }
        }
        fk.warp.carry = rnd64();        /* must not leak into add.cc */
        run_all(M32);
        for (unsigned l = 0; l < 32; l++) {
            for (unsigned k = 0; k < 4; k++) {
                char n1[16];
                snprintf(n1, sizeof(n1), "%s%u", w64 ? "%d" : "%r", k);
                uint64_t got = fk.regs[slot_of(n1) * 32 + l];
                ck_assert_msg(got == want[l][k], "%s chain lane %u limb %u: "
                              "got 0x%llx want 0x%llx", o, l, k,
                              (unsigned long long)got,
                              (unsigned long long)want[l][k]);
            }
        }
    }
    unload();
}
END_TEST

/* 64x64 -> 128 multiply from 32-bit pieces with mad.lo.cc / madc.hi:
 *   p0 = al*bl (lo), p1 = hi(al*bl) + al*bh + ah*bl ..., checked for
 * the final 128-bit value against mul128. */
START_TEST(test_chain_mad)
{
    load("mul.lo.u32 %r4, %r0, %r2;\n"          /* w0 = lo(al*bl) */
         "mul.hi.u32 %r5, %r0, %r2;\n"          /* t  = hi(al*bl) */
         "mad.lo.cc.u32 %r5, %r0, %r3, %r5;\n"  /* w1 = t + lo(al*bh) */
         "madc.hi.u32 %r6, %r0, %r3, 0;\n"      /* w2 = hi(al*bh) + CF */
         "mad.lo.cc.u32 %r5, %r1, %r2, %r5;\n"  /* w1 += lo(ah*bl) */
         "madc.hi.cc.u32 %r6, %r1, %r2, %r6;\n" /* w2 += hi(ah*bl) + CF */
         "addc.u32 %r7, 0, 0;\n"                /* w3 = CF */
         "mad.lo.cc.u32 %r6, %r1, %r3, %r6;\n"  /* w2 += lo(ah*bh) */
         "madc.hi.u32 %r7, %r1, %r3, %r7;\n");  /* w3 += hi(ah*bh) + CF */
    for (int it = 0; it < 64; it++) {
        uint64_t a[32], b[32];
        for (unsigned l = 0; l < 32; l++) {
            a[l] = pick(64);
            b[l] = pick(64);
            fk.regs[slot_of("%r0") * 32 + l] = a[l] & M32;
            fk.regs[slot_of("%r1") * 32 + l] = a[l] >> 32;
            fk.regs[slot_of("%r2") * 32 + l] = b[l] & M32;
            fk.regs[slot_of("%r3") * 32 + l] = b[l] >> 32;
        }
        run_all(M32);
        for (unsigned l = 0; l < 32; l++) {
            uint64_t lo, hi;
            mul128(a[l], b[l], &lo, &hi);
            uint64_t glo = fk.regs[slot_of("%r4") * 32 + l] |
                           fk.regs[slot_of("%r5") * 32 + l] << 32;
            uint64_t ghi = fk.regs[slot_of("%r6") * 32 + l] |
                           fk.regs[slot_of("%r7") * 32 + l] << 32;
            ck_assert_msg(glo == lo && ghi == hi, "mad chain lane %u: "
                          "0x%llx * 0x%llx", l, (unsigned long long)a[l],
                          (unsigned long long)b[l]);
        }
    }
    unload();
}
END_TEST

/* Carry in and out: CF per lane, inactive lanes keep theirs. */
START_TEST(test_carry_lanes)
{
    load("addc.cc.u32 %r0, %r1, %r2;");
    set_all(slot_of("%r1"), M32);
    set_all(slot_of("%r2"), 0);
    fk.warp.carry = 0x00000000f0f0f0f0ull;
    run_all(0x0000ffffu);
    for (unsigned l = 0; l < 16; l++) {
        uint64_t got = fk.regs[slot_of("%r0") * 32 + l];
        bool cin = (0xf0f0u >> l) & 1;
        ck_assert_uint_eq(got, cin ? 0 : M32);
    }
    /* lanes 0-15: carry out = carry in; lanes 16-31 untouched */
    ck_assert_uint_eq(fk.warp.carry & M32, 0xf0f0f0f0u);
    unload();
    load("sub.cc.u32 %r0, %r1, %r2;\nsubc.u32 %r3, %r4, %r5;");
    set_all(slot_of("%r1"), 0);
    set_all(slot_of("%r2"), 1);     /* borrow */
    set_all(slot_of("%r4"), 5);
    set_all(slot_of("%r5"), 2);
    run_all(M32);
    ck_assert_uint_eq(fk.regs[slot_of("%r0") * 32], M32);
    ck_assert_uint_eq(fk.regs[slot_of("%r3") * 32], 2);   /* 5 - 2 - 1 */
    /* CF is the carry out of a + ~b + 1: 0 after a borrow (5 - 2 in subc
     * borrows nothing, so the flag from sub.cc is what is left) */
    ck_assert_uint_eq(fk.warp.carry & M32, 0);
    unload();

    /* nvcc's 128-bit division reads the flag of a sub chain with addc:
     * addc.u32 %r, 0, 0 after sub.cc gives 1 when nothing was borrowed
     * (hardware convention), 0 after a borrow. */
    load("sub.cc.u32 %r0, %r1, %r2;\naddc.u32 %r3, 0, 0;");
    for (unsigned l = 0; l < 32; l++) {
        fk.regs[slot_of("%r1") * 32 + l] = l & 1 ? 7 : 5;
        fk.regs[slot_of("%r2") * 32 + l] = l & 1 ? 5 : 7;
    }
    run_all(M32);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(fk.regs[slot_of("%r3") * 32 + l], l & 1);
    }
    unload();

    /* 64-bit mad.cc / madc: lo(M*M) = 1, 1 + M carries; hi(M*M) = M - 1 */
    load("mad.lo.cc.u64 %d0, %d1, %d2, %d3;\nmadc.hi.u64 %d4, %d1, %d2, 0;");
    set_all(slot_of("%d1"), M64);
    set_all(slot_of("%d2"), M64);
    set_all(slot_of("%d3"), M64);
    run_all(M32);
    ck_assert_uint_eq(fk.regs[slot_of("%d0") * 32 + 3], 0);
    ck_assert_uint_eq(fk.regs[slot_of("%d4") * 32 + 3], M64);
    unload();
    /* signed high half: -1 * 2 = -2, hi = all ones; + 1 carries */
    load("mad.hi.cc.s64 %d0, %d1, %d2, %d3;\naddc.u64 %d4, 0, 0;\n"
         "madc.hi.cc.s32 %r0, %r1, %r2, %r3;\naddc.u32 %r4, 0, 0;");
    set_all(slot_of("%d1"), M64);
    set_all(slot_of("%d2"), 2);
    set_all(slot_of("%d3"), 1);
    set_all(slot_of("%r1"), M32);     /* -1 * 2: hi = 0xffffffff */
    set_all(slot_of("%r2"), 2);
    set_all(slot_of("%r3"), 0);
    run_all(M32);
    ck_assert_uint_eq(fk.regs[slot_of("%d0") * 32], 0);
    ck_assert_uint_eq(fk.regs[slot_of("%d4") * 32], 1);
    /* addc without .cc leaves CF = 1, so madc: 0xffffffff + 0 + 1 = 0
     * with a carry out */
    ck_assert_uint_eq(fk.regs[slot_of("%r0") * 32], 0);
    ck_assert_uint_eq(fk.regs[slot_of("%r4") * 32], 1);
    unload();
}
END_TEST

/* A destination that is also a source, different values per lane. */
START_TEST(test_alias)
{
    load("add.s32 %r0, %r0, %r0;");
    for (unsigned l = 0; l < 32; l++) {
        fk.regs[slot_of("%r0") * 32 + l] = l;
    }
    run_all(M32);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(fk.regs[slot_of("%r0") * 32 + l], 2 * l);
    }
    unload();
}
END_TEST

/* The selector declines float arithmetic (ops_fp.c owns it), and takes
 * the video instructions without a handler (not supported yet). */
START_TEST(test_selector)
{
    static const char *fp[] = { "add.f32 %f0, %f1, %f2;",
                                "mul.rn.f64 %fd0, %fd1, %fd2;",
                                "min.f32 %f0, %f1, %f2;",
                                "abs.f32 %f0, %f1;" };
    for (unsigned k = 0; k < 4; k++) {
        char src[1024];
        snprintf(src, sizeof(src), "%s%s\nret;\n}\n", HDR, fp[k]);
        PtxDiag d;
        IrModule *m = ptx_parse_string("t.ptx", src, strlen(src), &d, NULL);
        ck_assert_ptr_nonnull(m);
        ptx_diag_fini(&d);
        EmuInsn ei;
        memset(&ei, 0, sizeof(ei));
        ck_assert(!emu_select_int(m, m->funcs[0], &m->funcs[0]->insns[0],
                                  &ei));
        ptx_module_free(m);
    }
}
END_TEST

Suite *ops_int_suite(void)
{
    Suite *s = suite_create("ops_int");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, test_arith, 0, NROWS(arith_rows));
    tcase_add_loop_test(tc, test_bits, 0, NROWS(bit_rows));
    tcase_add_loop_test(tc, test_logic, 0, NROWS(logic_rows));
    tcase_add_loop_test(tc, test_cmp, 0, NROWS(cmp_rows));
    tcase_add_loop_test(tc, test_video, 0, NROWS(video_rows));
    suite_add_tcase(s, tc);
    tc = tcase_create("sweep");
    tcase_add_loop_test(tc, test_sweep, 0, 8);
    tcase_add_loop_test(tc, test_sweep_imm, 0, 15);
    suite_add_tcase(s, tc);
    tc = tcase_create("carry");
    tcase_add_loop_test(tc, test_chain_add, 0, 4);
    tcase_add_test(tc, test_chain_mad);
    tcase_add_test(tc, test_carry_lanes);
    tcase_add_test(tc, test_alias);
    tcase_add_test(tc, test_selector);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ops_int_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
