/*
 * tests/check_ops_fp.c: floating-point arithmetic handlers (emu/ops_fp.c)
 * and the software rounding they use (emu/fp.c).
 *
 * Each test builds an IrInsn/EmuInsn pair directly (as decode.c would:
 * type, rounding mode, flags, operands in register slots), runs the
 * selector emu_select_fp and the handler on a fake warp context, and
 * compares bit patterns.  References are independent of emu/fp.c:
 *  - hand-computed bit patterns (table rows, ids like "add.rz.f32-03");
 *  - the host FPU under fesetround() for f32/f64 in every rounding mode;
 *  - a brute-force rounding of an exact Q128 value (binary search
 *    over the target format's bit patterns) for f16, bf16 and f32 mul;
 *  - long-double references with the ISA's error bounds for .approx.
 */
#include "config.h"

#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/fp.h"
#include "emu/ops.h"
#include "runtime/ptxemu.h"

/* An exact reference type: binary128 (GCC's __float128 on x86-64, long
 * double where that is binary128, e.g. aarch64). */
#if defined(__SIZEOF_FLOAT128__)
typedef __float128 Q128;
#else
typedef long double Q128;
#endif

Suite *ops_fp_suite(void);

/* ------------------------------------------------------------ harness */

#define NSLOT 8
static uint64_t regs[NSLOT * EMU_WARP_SIZE];

enum { M_END = 0 };

/* Build the instruction as decode.c does and select its handler. */
static void build(EmuInsn *ei, IrInsn *in, IrOperand *io, unsigned op,
                  PtxType t, const uint16_t *mods, unsigned nsrc)
{
    memset(ei, 0, sizeof *ei);
    memset(in, 0, sizeof *in);
    memset(io, 0, sizeof(IrOperand) * 5);
    in->op = (uint16_t)op;
    in->ntypes = 1;
    in->types[0] = (uint8_t)t;
    in->opnds = io;
    in->nopnds = (uint8_t)(1 + nsrc);
    ei->op = (uint16_t)op;
    ei->type = (uint8_t)t;
    ei->nopnd = (uint8_t)(1 + nsrc);
    ei->vec = 1;
    for (unsigned k = 0; mods && mods[k]; k++) {
        in->sfx[in->nsfx++] = mods[k];
        switch (mods[k]) {
        case PTX_M_RN: ei->rnd = EMU_RND_RN; break;
        case PTX_M_RZ: ei->rnd = EMU_RND_RZ; break;
        case PTX_M_RM: ei->rnd = EMU_RND_RM; break;
        case PTX_M_RP: ei->rnd = EMU_RND_RP; break;
        case PTX_M_FTZ: ei->flags |= EMU_F_FTZ; break;
        case PTX_M_SAT: ei->flags |= EMU_F_SAT; break;
        case PTX_M_APPROX: ei->flags |= EMU_F_APPROX; break;
        case PTX_M_RELU: ei->flags |= EMU_F_RELU; break;
        case PTX_M_NAN: ei->flags |= EMU_F_NAN; break;
        default: break;
        }
    }
    ei->o[0].kind = EO_REG;
    ei->o[0].reg = 0;
    for (unsigned k = 0; k < nsrc; k++) {
        ei->o[k + 1].kind = EO_REG;
        ei->o[k + 1].reg = k + 1;
    }
    IrFunc fn;
    memset(&fn, 0, sizeof fn);
    ck_assert(emu_select_fp(NULL, &fn, in, ei));
    ck_assert_msg(ei->fn != NULL, "no handler selected");
}

/* Run on the lanes of mask; src[k][lane]. */
static void run(const EmuInsn *ei, uint32_t mask)
{
    EmuCtx x;
    memset(&x, 0, sizeof x);
    x.regs = regs;
    ei->fn(&x, ei, mask);
}

static uint64_t run1(unsigned op, PtxType t, const uint16_t *mods,
                     unsigned nsrc, uint64_t a, uint64_t b, uint64_t c)
{
    EmuInsn ei;
    IrInsn in;
    IrOperand io[5];
    build(&ei, &in, io, op, t, mods, nsrc);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        regs[l] = 0xDEADBEEFull;
        regs[1 * EMU_WARP_SIZE + l] = a;
        regs[2 * EMU_WARP_SIZE + l] = b;
        regs[3 * EMU_WARP_SIZE + l] = c;
    }
    run(&ei, 1u << 5);
    ck_assert_uint_eq(regs[4], 0xDEADBEEFull);     /* inactive lane */
    return regs[5];
}

/* ------------------------------------------------------- table rows */

#define OP(x) PTX_OP_##x
#define T(x) PTX_T_##x
#define M(...) { __VA_ARGS__, 0 }

typedef struct Row {
    const char *id;
    unsigned op;
    PtxType t;
    uint16_t mods[6];
    unsigned nsrc;
    uint64_t a, b, c;
    uint64_t want;
} Row;

#define PINF 0x7F800000u
#define NINF 0xFF800000u
#define QNAN 0x7FC00000u
#define CNAN 0x7FFFFFFFu
#define DEN 0x00000001u          /* smallest f32 subnormal */
#define NDEN 0x80000001u
#define ONE 0x3F800000u
#define MAXF 0x7F7FFFFFu

static const Row rows[] = {
    /* add.f32: rounding of 1 + 2^-24 (a tie) and 1 + 3*2^-25 */
    { "add.f32-01", OP(ADD), T(F32), M(PTX_M_RN), 2, ONE, 0x33800000, 0,
      ONE },
    { "add.f32-02", OP(ADD), T(F32), M(PTX_M_RN), 2, 0x3F800001,
      0x33800000, 0, 0x3F800002 },
    { "add.rz.f32-01", OP(ADD), T(F32), M(PTX_M_RZ), 2, ONE, 0x33C00000,
      0, ONE },
    { "add.rp.f32-01", OP(ADD), T(F32), M(PTX_M_RP), 2, ONE, 0x33000000,
      0, 0x3F800001 },
    { "add.rm.f32-01", OP(ADD), T(F32), M(PTX_M_RM), 2, 0xBF800000,
      0xB3000000, 0, 0xBF800001 },
    { "add.rz.f32-02", OP(ADD), T(F32), M(PTX_M_RZ), 2, MAXF, MAXF, 0,
      MAXF },
    { "add.rn.f32-03", OP(ADD), T(F32), M(PTX_M_RN), 2, MAXF, MAXF, 0,
      PINF },
    { "add.rm.f32-02", OP(ADD), T(F32), M(PTX_M_RM), 2, ONE, 0xBF800000,
      0, 0x80000000 },
    { "add.rn.f32-04", OP(ADD), T(F32), M(PTX_M_RN), 2, ONE, 0xBF800000,
      0, 0 },
    { "add.f32-nan-01", OP(ADD), T(F32), M(PTX_M_RN), 2, 0x7F800123, ONE,
      0, CNAN },
    { "add.f32-nan-02", OP(ADD), T(F32), M(PTX_M_RN), 2, PINF, NINF, 0,
      CNAN },
    { "add.rz.f32-nan-03", OP(ADD), T(F32), M(PTX_M_RZ), 2, PINF, NINF, 0,
      CNAN },
    { "add.f32-den-01", OP(ADD), T(F32), M(PTX_M_RN), 2, DEN, DEN, 0, 2 },
    { "add.ftz.f32-den-02", OP(ADD), T(F32), M(PTX_M_RN, PTX_M_FTZ), 2,
      DEN, DEN, 0, 0 },
    { "add.ftz.f32-den-03", OP(ADD), T(F32), M(PTX_M_RN, PTX_M_FTZ), 2,
      NDEN, 0x80000000, 0, 0x80000000 },
    /* 2^-126 - 2^-149: subnormal result flushed after rounding */
    { "sub.ftz.f32-den-04", OP(SUB), T(F32), M(PTX_M_RN, PTX_M_FTZ), 2,
      0x00800001, 0x00800000, 0, 0 },
    { "sub.ftz.f32-den-04b", OP(SUB), T(F32), M(PTX_M_RN, PTX_M_FTZ), 2,
      0x00800000, 0x00000001, 0, 0x00800000 },
    { "sub.f32-den-05", OP(SUB), T(F32), M(PTX_M_RN), 2,
      0x00800000, 0x00000001, 0, 0x007FFFFF },
    { "add.sat.f32-01", OP(ADD), T(F32), M(PTX_M_SAT), 2, ONE, ONE, 0,
      ONE },
    { "add.sat.f32-02", OP(ADD), T(F32), M(PTX_M_SAT), 2, 0xBF800000,
      0x3F000000, 0, 0 },
    { "add.sat.f32-03", OP(ADD), T(F32), M(PTX_M_SAT), 2, QNAN, ONE, 0,
      0 },
    { "add.sat.f32-04", OP(ADD), T(F32), M(PTX_M_SAT), 2, 0x3F000000, 0,
      0, 0x3F000000 },
    { "mul.rz.f32-01", OP(MUL), T(F32), M(PTX_M_RZ), 2, 0x3FAAAAAB,
      0x40400000, 0, 0x40800000 },
    { "mul.rn.f32-02", OP(MUL), T(F32), M(PTX_M_RN), 2, PINF, 0, 0, CNAN },
    { "mul.rn.f32-03", OP(MUL), T(F32), M(PTX_M_RN), 2, 0x80000000, ONE, 0,
      0x80000000 },
    { "mul.ftz.f32-04", OP(MUL), T(F32), M(PTX_M_RN, PTX_M_FTZ), 2,
      0x00400000, 0x40000000, 0, 0 },
    { "mul.f32-05", OP(MUL), T(F32), M(PTX_M_RN), 2, 0x00400000,
      0x40000000, 0, 0x00800000 },
    /* fma: 1 * (1 + 2^-23) - 1 = 2^-23 exactly; products not rounded */
    { "fma.rn.f32-01", OP(FMA), T(F32), M(PTX_M_RN), 3, 0x3F800001,
      0x3F800001, 0xBF800000, 0x34800000 },
    { "mad.rn.f32-02", OP(MAD), T(F32), M(PTX_M_RN), 3, ONE, ONE, ONE,
      0x40000000 },
    { "fma.rn.sat.f32-03", OP(FMA), T(F32), M(PTX_M_RN, PTX_M_SAT), 3,
      0x40000000, 0x40000000, 0, ONE },
    { "div.rn.f32-01", OP(DIV), T(F32), M(PTX_M_RN), 2, ONE, 0x40400000, 0,
      0x3EAAAAAB },
    { "div.rz.f32-02", OP(DIV), T(F32), M(PTX_M_RZ), 2, ONE, 0x40400000, 0,
      0x3EAAAAAA },
    { "div.rp.f32-03", OP(DIV), T(F32), M(PTX_M_RP), 2, 0xBF800000,
      0x40400000, 0, 0xBEAAAAAA },
    { "div.rm.f32-04", OP(DIV), T(F32), M(PTX_M_RM), 2, 0xBF800000,
      0x40400000, 0, 0xBEAAAAAB },
    { "div.rn.f32-05", OP(DIV), T(F32), M(PTX_M_RN), 2, ONE, 0, 0, PINF },
    { "div.rn.f32-06", OP(DIV), T(F32), M(PTX_M_RN), 2, 0, 0, 0, CNAN },
    { "div.full.f32-07", OP(DIV), T(F32), M(PTX_M_FULL), 2, 0x40C00000,
      0x40400000, 0, 0x40000000 },
    { "div.approx.f32-08", OP(DIV), T(F32), M(PTX_M_APPROX), 2, ONE,
      0x7F000000, 0, 0 },
    { "div.approx.f32-09", OP(DIV), T(F32), M(PTX_M_APPROX), 2, PINF,
      0x7F000000, 0, CNAN },
    { "div.approx.f32-11", OP(DIV), T(F32), M(PTX_M_APPROX), 2, ONE,
      0x7E800000, 0, 0x00800000 },
    { "div.approx.f32-10", OP(DIV), T(F32), M(PTX_M_APPROX), 2, 0x40C00000,
      0x40400000, 0, 0x40000000 },
    { "rcp.rn.f32-01", OP(RCP), T(F32), M(PTX_M_RN), 1, 0x40000000, 0, 0,
      0x3F000000 },
    { "rcp.rn.f32-02", OP(RCP), T(F32), M(PTX_M_RN), 1, 0x80000000, 0, 0,
      NINF },
    { "rcp.rz.f32-03", OP(RCP), T(F32), M(PTX_M_RZ), 1, 0x40400000, 0, 0,
      0x3EAAAAAA },
    { "rcp.approx.ftz.f32-04", OP(RCP), T(F32),
      M(PTX_M_APPROX, PTX_M_FTZ), 1, DEN, 0, 0, PINF },
    { "sqrt.rn.f32-01", OP(SQRT), T(F32), M(PTX_M_RN), 1, 0x40000000, 0, 0,
      0x3FB504F3 },
    { "sqrt.rz.f32-02", OP(SQRT), T(F32), M(PTX_M_RZ), 1, 0x40000000, 0, 0,
      0x3FB504F3 },
    { "sqrt.rp.f32-03", OP(SQRT), T(F32), M(PTX_M_RP), 1, 0x40000000, 0, 0,
      0x3FB504F4 },
    { "sqrt.rn.f32-04", OP(SQRT), T(F32), M(PTX_M_RN), 1, 0xBF800000, 0, 0,
      CNAN },
    { "sqrt.rn.f32-05", OP(SQRT), T(F32), M(PTX_M_RN), 1, 0x80000000, 0, 0,
      0x80000000 },
    { "sqrt.approx.f32-06", OP(SQRT), T(F32), M(PTX_M_APPROX), 1,
      0x41100000, 0, 0, 0x40400000 },
    { "rsqrt.approx.f32-01", OP(RSQRT), T(F32), M(PTX_M_APPROX), 1,
      0x40800000, 0, 0, 0x3F000000 },
    { "rsqrt.approx.f32-02", OP(RSQRT), T(F32), M(PTX_M_APPROX), 1,
      0x80000000, 0, 0, NINF },
    { "rsqrt.approx.f32-03", OP(RSQRT), T(F32), M(PTX_M_APPROX), 1, PINF,
      0, 0, 0 },
    { "lg2.approx.f32-01", OP(LG2), T(F32), M(PTX_M_APPROX), 1, 0x41000000,
      0, 0, 0x40400000 },
    { "lg2.approx.f32-02", OP(LG2), T(F32), M(PTX_M_APPROX), 1, 0, 0, 0,
      NINF },
    { "lg2.approx.f32-03", OP(LG2), T(F32), M(PTX_M_APPROX), 1, 0xBF800000,
      0, 0, CNAN },
    { "lg2.approx.ftz.f32-04", OP(LG2), T(F32), M(PTX_M_APPROX, PTX_M_FTZ),
      1, DEN, 0, 0, NINF },
    { "ex2.approx.f32-01", OP(EX2), T(F32), M(PTX_M_APPROX), 1, 0x40400000,
      0, 0, 0x41000000 },
    { "ex2.approx.f32-02", OP(EX2), T(F32), M(PTX_M_APPROX), 1, NINF, 0, 0,
      0 },
    { "ex2.approx.ftz.f32-03", OP(EX2), T(F32), M(PTX_M_APPROX, PTX_M_FTZ),
      1, 0xC3100000, 0, 0, 0 },
    { "sin.approx.f32-01", OP(SIN), T(F32), M(PTX_M_APPROX), 1, 0x80000000,
      0, 0, 0x80000000 },
    { "sin.approx.f32-02", OP(SIN), T(F32), M(PTX_M_APPROX), 1, PINF, 0, 0,
      CNAN },
    { "cos.approx.f32-03", OP(COS), T(F32), M(PTX_M_APPROX), 1, 0, 0, 0,
      ONE },
    { "tanh.approx.f32-01", OP(TANH), T(F32), M(PTX_M_APPROX), 1, NINF, 0,
      0, 0xBF800000 },
    /* min/max: NaN operand returns the other; .NaN returns canonical */
    { "min.f32-01", OP(MIN), T(F32), M(0), 2, QNAN, ONE, 0, ONE },
    { "min.f32-02", OP(MIN), T(F32), M(0), 2, ONE, 0x7FC00001, 0, ONE },
    { "min.f32-03", OP(MIN), T(F32), M(0), 2, QNAN, 0xFFC00000, 0, CNAN },
    { "min.NaN.f32-04", OP(MIN), T(F32), M(PTX_M_NAN), 2, ONE, QNAN, 0,
      CNAN },
    { "min.f32-05", OP(MIN), T(F32), M(0), 2, 0, 0x80000000, 0,
      0x80000000 },
    { "max.f32-06", OP(MAX), T(F32), M(0), 2, 0x80000000, 0, 0, 0 },
    { "max.f32-07", OP(MAX), T(F32), M(0), 2, NINF, 0xC0000000, 0,
      0xC0000000 },
    { "max.ftz.f32-08", OP(MAX), T(F32), M(PTX_M_FTZ), 2, DEN, 0x80000000,
      0, 0 },
    { "max.f32-09", OP(MAX), T(F32), M(0), 2, DEN, 0x80000000, 0, DEN },
    { "max.xorsign.abs.f32-10", OP(MAX), T(F32),
      M(PTX_M_XORSIGN, PTX_M_ABS), 2, 0xC0400000, 0x3F800000, 0,
      0xC0400000 },
    { "min.xorsign.abs.f32-11", OP(MIN), T(F32),
      M(PTX_M_XORSIGN, PTX_M_ABS), 2, 0xC0400000, 0xBF800000, 0,
      0x3F800000 },
    { "max.f32-12", OP(MAX), T(F32), M(0), 3, ONE, 0x40400000, 0x40000000,
      0x40400000 },
    { "abs.f32-01", OP(ABS), T(F32), M(0), 1, 0xFFC00001, 0, 0,
      0x7FC00001 },
    { "abs.ftz.f32-02", OP(ABS), T(F32), M(PTX_M_FTZ), 1, NDEN, 0, 0, 0 },
    { "neg.f32-01", OP(NEG), T(F32), M(0), 1, 0, 0, 0, 0x80000000 },
    { "neg.ftz.f32-02", OP(NEG), T(F32), M(PTX_M_FTZ), 1, DEN, 0, 0,
      0x80000000 },
    { "copysign.f32-01", OP(COPYSIGN), T(F32), M(0), 2, 0x80000000,
      0x40400000, 0, 0xC0400000 },
    { "copysign.f32-02", OP(COPYSIGN), T(F32), M(0), 2, 0x3F800000,
      0xFFC00000, 0, 0x7FC00000 },
    { "testp.finite.f32-01", OP(TESTP), T(F32), M(PTX_M_FINITE), 1, MAXF,
      0, 0, 1 },
    { "testp.finite.f32-02", OP(TESTP), T(F32), M(PTX_M_FINITE), 1, NINF,
      0, 0, 0 },
    { "testp.infinite.f32-03", OP(TESTP), T(F32), M(PTX_M_INFINITE), 1,
      NINF, 0, 0, 1 },
    { "testp.number.f32-04", OP(TESTP), T(F32), M(PTX_M_NUMBER), 1, QNAN,
      0, 0, 0 },
    { "testp.notanumber.f32-05", OP(TESTP), T(F32), M(PTX_M_NOTANUMBER), 1,
      0xFF800001, 0, 0, 1 },
    { "testp.normal.f32-06", OP(TESTP), T(F32), M(PTX_M_NORMAL), 1,
      0x00800000, 0, 0, 1 },
    { "testp.normal.f32-07", OP(TESTP), T(F32), M(PTX_M_NORMAL), 1, 0, 0,
      0, 0 },
    { "testp.subnormal.f32-08", OP(TESTP), T(F32), M(PTX_M_SUBNORMAL), 1,
      NDEN, 0, 0, 1 },
    { "testp.subnormal.f32-09", OP(TESTP), T(F32), M(PTX_M_SUBNORMAL), 1,
      0x80000000, 0, 0, 0 },
    /* f64 */
    { "add.rn.f64-01", OP(ADD), T(F64), M(PTX_M_RN), 2,
      0x3FF0000000000000, 0x3CA0000000000000, 0, 0x3FF0000000000000 },
    { "add.rp.f64-02", OP(ADD), T(F64), M(PTX_M_RP), 2,
      0x3FF0000000000000, 0x3C90000000000000, 0, 0x3FF0000000000001 },
    { "add.rm.f64-03", OP(ADD), T(F64), M(PTX_M_RM), 2,
      0x3FF0000000000000, 0xBFF0000000000000, 0, 0x8000000000000000 },
    { "add.rn.f64-04", OP(ADD), T(F64), M(PTX_M_RN), 2,
      0x7FF0000000000000, 0xFFF0000000000000, 0, 0xFFF8000000000000 },
    { "add.rn.f64-05", OP(ADD), T(F64), M(PTX_M_RN), 2,
      0x3FF0000000000000, 0x7FF0000000000001, 0, 0x7FF8000000000001 },
    { "mul.rz.f64-01", OP(MUL), T(F64), M(PTX_M_RZ), 2,
      0x7FEFFFFFFFFFFFFF, 0x4000000000000000, 0, 0x7FEFFFFFFFFFFFFF },
    { "fma.rn.f64-01", OP(FMA), T(F64), M(PTX_M_RN), 3,
      0x3FF0000000000001, 0x3FF0000000000001, 0xBFF0000000000000,
      0x3CC0000000000000 },
    { "div.rz.f64-01", OP(DIV), T(F64), M(PTX_M_RZ), 2,
      0x3FF0000000000000, 0x4008000000000000, 0, 0x3FD5555555555555 },
    { "div.rp.f64-02", OP(DIV), T(F64), M(PTX_M_RP), 2,
      0x3FF0000000000000, 0x4008000000000000, 0, 0x3FD5555555555556 },
    { "rcp.rn.f64-01", OP(RCP), T(F64), M(PTX_M_RN), 1,
      0x4010000000000000, 0, 0, 0x3FD0000000000000 },
    { "rcp.approx.ftz.f64-02", OP(RCP), T(F64),
      M(PTX_M_APPROX, PTX_M_FTZ), 1, 0x0000000000000001, 0, 0,
      0x7FF0000000000000 },
    { "sqrt.rn.f64-01", OP(SQRT), T(F64), M(PTX_M_RN), 1,
      0x4010000000000000, 0, 0, 0x4000000000000000 },
    { "rsqrt.approx.f64-01", OP(RSQRT), T(F64), M(PTX_M_APPROX), 1,
      0x4010000000000000, 0, 0, 0x3FE0000000000000 },
    { "min.f64-01", OP(MIN), T(F64), M(0), 2, 0x7FF8000000000000,
      0x4000000000000000, 0, 0x4000000000000000 },
    { "max.f64-02", OP(MAX), T(F64), M(0), 2, 0x8000000000000000, 0, 0,
      0 },
    { "abs.f64-01", OP(ABS), T(F64), M(0), 1, 0x8000000000000001, 0, 0,
      1 },
    { "neg.f64-01", OP(NEG), T(F64), M(0), 1, 0x4000000000000000, 0, 0,
      0xC000000000000000 },
    { "copysign.f64-01", OP(COPYSIGN), T(F64), M(0), 2,
      0x8000000000000000, 0x4000000000000000, 0, 0xC000000000000000 },
    { "testp.subnormal.f64-01", OP(TESTP), T(F64), M(PTX_M_SUBNORMAL), 1,
      0x000FFFFFFFFFFFFF, 0, 0, 1 },
    { "testp.normal.f64-02", OP(TESTP), T(F64), M(PTX_M_NORMAL), 1,
      0x0010000000000000, 0, 0, 1 },
    /* f16: 1.0 = 0x3C00, 65504 = 0x7BFF, 2^-24 = 0x0001 */
    { "add.rn.f16-01", OP(ADD), T(F16), M(PTX_M_RN), 2, 0x3C00, 0x3C00, 0,
      0x4000 },
    { "add.rn.f16-02", OP(ADD), T(F16), M(PTX_M_RN), 2, 0x3C00, 0x1000, 0,
      0x3C00 },      /* 1 + 2^-11: tie to even */
    { "add.rn.f16-03", OP(ADD), T(F16), M(PTX_M_RN), 2, 0x3C01, 0x1000, 0,
      0x3C02 },
    { "add.rn.f16-04", OP(ADD), T(F16), M(PTX_M_RN), 2, 0x7BFF, 0x6000, 0,
      0x7C00 },
    { "add.rn.f16-05", OP(ADD), T(F16), M(PTX_M_RN), 2, 0x0001, 0x0001, 0,
      0x0002 },
    { "add.rn.ftz.f16-06", OP(ADD), T(F16), M(PTX_M_RN, PTX_M_FTZ), 2,
      0x0001, 0x0001, 0, 0x0000 },
    { "add.rn.sat.f16-07", OP(ADD), T(F16), M(PTX_M_RN, PTX_M_SAT), 2,
      0x3C00, 0x3C00, 0, 0x3C00 },
    { "add.rn.f16-08", OP(ADD), T(F16), M(PTX_M_RN), 2, 0x7E00, 0x3C00, 0,
      0x7FFF },
    { "sub.rn.f16-01", OP(SUB), T(F16), M(PTX_M_RN), 2, 0x3C00, 0x3C00, 0,
      0x0000 },
    { "mul.rn.f16-01", OP(MUL), T(F16), M(PTX_M_RN), 2, 0x4200, 0x4200, 0,
      0x4880 },      /* 3 * 3 = 9 */
    { "mul.rn.f16-02", OP(MUL), T(F16), M(PTX_M_RN), 2, 0x0200, 0x3800, 0,
      0x0100 },
    { "fma.rn.f16-01", OP(FMA), T(F16), M(PTX_M_RN), 3, 0x3C01, 0x3C01,
      0xBC00, 0x1800 },  /* (1+2^-10)^2 - 1 = 2^-9 + 2^-20 -> 2^-9 */
    { "fma.rn.relu.f16-02", OP(FMA), T(F16), M(PTX_M_RN, PTX_M_RELU), 3,
      0x3C00, 0xBC00, 0, 0x0000 },
    { "fma.rn.relu.f16-03", OP(FMA), T(F16), M(PTX_M_RN, PTX_M_RELU), 3,
      0x7E00, 0x3C00, 0, 0x7FFF },
    { "fma.rn.sat.f16-04", OP(FMA), T(F16), M(PTX_M_RN, PTX_M_SAT), 3,
      0x3C00, 0xBC00, 0, 0x0000 },
    { "add.rn.f16x2-01", OP(ADD), T(F16X2), M(PTX_M_RN), 2, 0x3C004000,
      0x3C00BC00, 0, 0x40003C00 },
    { "mul.rn.f16x2-02", OP(MUL), T(F16X2), M(PTX_M_RN), 2, 0x7BFF3C00,
      0x40004000, 0, 0x7C004000 },
    { "fma.rn.f16x2-03", OP(FMA), T(F16X2), M(PTX_M_RN), 3, 0x3C003C00,
      0x3C003C00, 0x3C00BC00, 0x40000000 },
    { "neg.f16-01", OP(NEG), T(F16), M(0), 1, 0x3C00, 0, 0, 0xBC00 },
    { "abs.f16x2-01", OP(ABS), T(F16X2), M(0), 1, 0xBC00FC00, 0, 0,
      0x3C007C00 },
    { "abs.ftz.f16-02", OP(ABS), T(F16), M(PTX_M_FTZ), 1, 0x8001, 0, 0,
      0x0000 },
    { "min.f16-01", OP(MIN), T(F16), M(0), 2, 0x7E00, 0x3C00, 0, 0x3C00 },
    { "min.NaN.f16-02", OP(MIN), T(F16), M(PTX_M_NAN), 2, 0x7E00, 0x3C00, 0,
      0x7FFF },
    { "max.f16x2-03", OP(MAX), T(F16X2), M(0), 2, 0x80004000, 0x00003C00, 0,
      0x00004000 },
    { "max.xorsign.abs.f16-04", OP(MAX), T(F16),
      M(PTX_M_XORSIGN, PTX_M_ABS), 2, 0xC000, 0x3C00, 0, 0xC000 },
    { "ex2.approx.f16-01", OP(EX2), T(F16), M(PTX_M_APPROX), 1, 0x4000, 0,
      0, 0x4400 },
    { "tanh.approx.f16-01", OP(TANH), T(F16), M(PTX_M_APPROX), 1, 0x0000, 0,
      0, 0x0000 },
    /* bf16: 1.0 = 0x3F80 */
    { "add.rn.bf16-01", OP(ADD), T(BF16), M(PTX_M_RN), 2, 0x3F80, 0x3F80, 0,
      0x4000 },
    { "add.rn.bf16-02", OP(ADD), T(BF16), M(PTX_M_RN), 2, 0x3F80, 0x3B80, 0,
      0x3F80 },      /* 1 + 2^-8: tie to even */
    { "add.rn.bf16-03", OP(ADD), T(BF16), M(PTX_M_RN), 2, 0x7F7F, 0x7B00, 0,
      0x7F80 },
    { "mul.rn.bf16x2-01", OP(MUL), T(BF16X2), M(PTX_M_RN), 2, 0x40403F80,
      0x40403F80, 0, 0x41103F80 },
    { "fma.rn.relu.bf16-01", OP(FMA), T(BF16), M(PTX_M_RN, PTX_M_RELU), 3,
      0x3F80, 0xBF80, 0x3F00, 0x0000 },
    { "min.bf16-01", OP(MIN), T(BF16), M(0), 2, 0x7FC0, 0xFFC0, 0, 0x7FFF },
    { "max.NaN.bf16x2-02", OP(MAX), T(BF16X2), M(PTX_M_NAN), 2, 0x7FC03F80,
      0x3F804000, 0, 0x7FFF4000 },
    { "neg.bf16x2-01", OP(NEG), T(BF16X2), M(0), 1, 0x3F80BF80, 0, 0,
      0xBF803F80 },
};

static bool host_modes_ok(void);

START_TEST(test_rows)
{
    const Row *r = &rows[_i];
    /* f64 .rz/.rm/.rp use the host's rounding mode (see ops_fp.c) */
    if (r->t == PTX_T_F64 && r->mods[0] >= PTX_M_RZ &&
        r->mods[0] <= PTX_M_RP && !host_modes_ok()) {
        return;
    }
    uint64_t got = run1(r->op, r->t, r->mods, r->nsrc, r->a, r->b, r->c);
    ck_assert_msg(got == r->want, "%s: got 0x%llx want 0x%llx", r->id,
                  (unsigned long long)got, (unsigned long long)r->want);
}
END_TEST

/* ------------------------------------------ independent references */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Interesting f32 operands: random bits, near 1, specials, subnormals. */
static uint32_t pick32(void)
{
    static const uint32_t special[] = {
        0, 0x80000000, 1, 0x80000001, 0x007FFFFF, 0x00800000, ONE,
        0xBF800000, MAXF, 0xFF7FFFFF, PINF, NINF, QNAN, 0x3F800001,
        0x33800000, 0x4B000000, 0x3EFFFFFF, 0x34000000,
    };
    uint64_t r = rnd64();
    switch (r & 7) {
    case 0:
        return special[(r >> 8) % (sizeof special / sizeof special[0])];
    case 1:
        return (uint32_t)(0x3F000000 + ((r >> 8) & 0x01FFFFFF)) |
               (uint32_t)((r >> 40) & 1) << 31;
    case 2:
        return (uint32_t)((r >> 8) & 0x00FFFFFF);
    default:
        return (uint32_t)(r >> 16);
    }
}


/* Valgrind runs SSE arithmetic in round-to-nearest whatever fesetround
 * says; the host-FPU references of the directed modes are then skipped
 * (the binary128 references still cover them). */
static bool host_modes_ok(void)
{
    volatile float a = 1.0f, b = 0x1p-30f;
    int old = fegetround();
    fesetround(FE_UPWARD);
    volatile float r = a + b;
    fesetround(old);
    return r != 1.0f;
}

static const int host_modes[4] = {
    FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD
};
static const uint16_t rnd_mods[4] = { PTX_M_RN, PTX_M_RZ, PTX_M_RM,
                                      PTX_M_RP };
static const char *const rnd_names[4] = { "rn", "rz", "rm", "rp" };

/* Host reference for f32 ops (volatile: computed at run time). */
static uint32_t host32(unsigned op, int mode, uint32_t ua, uint32_t ub,
                       uint32_t uc, bool ftz)
{
    if (ftz) {
        ua = fp_ftz32(ua);
        ub = fp_ftz32(ub);
        uc = fp_ftz32(uc);
    }
    volatile float a = fp_f32(ua), b = fp_f32(ub), c = fp_f32(uc);
    volatile float r;
    int old = fegetround();
    fesetround(mode);
    switch (op) {
    case PTX_OP_ADD: r = a + b; break;
    case PTX_OP_SUB: r = a - b; break;
    case PTX_OP_MUL: r = a * b; break;
    case PTX_OP_FMA: r = fmaf(a, b, c); break;
    case PTX_OP_DIV: r = a / b; break;
    case PTX_OP_RCP: r = 1.0f / a; break;
    default: r = sqrtf(a); break;
    }
    fesetround(old);
    uint32_t u = fp_u32(r);
    if (r != r) {
        return CNAN;
    }
    return ftz ? fp_ftz32(u) : u;
}

static const unsigned sweep_ops[] = {
    PTX_OP_ADD, PTX_OP_SUB, PTX_OP_MUL, PTX_OP_FMA, PTX_OP_DIV, PTX_OP_RCP,
    PTX_OP_SQRT
};
#define NSWEEP_OPS (sizeof sweep_ops / sizeof sweep_ops[0])

static unsigned nsrc_of(unsigned op)
{
    return op == PTX_OP_FMA ? 3 : (op == PTX_OP_RCP || op == PTX_OP_SQRT)
                                      ? 1 : 2;
}

/* loop index: op x rounding x ftz; 32 lanes x 100 rounds each. */
START_TEST(test_sweep_f32)
{
    unsigned op = sweep_ops[_i / 8];
    unsigned mode = (_i / 2) % 4;
    bool ftz = _i & 1;
    uint16_t mods[3] = { rnd_mods[mode], ftz ? PTX_M_FTZ : 0, 0 };
    EmuInsn ei;
    IrInsn in;
    IrOperand io[5];
    if (mode != 0 && !host_modes_ok()) {
        return;
    }
    build(&ei, &in, io, op, PTX_T_F32, mods, nsrc_of(op));
    for (unsigned round = 0; round < 100; round++) {
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            for (unsigned k = 1; k <= 3; k++) {
                regs[k * EMU_WARP_SIZE + l] = pick32();
            }
        }
        run(&ei, 0xFFFFFFFFu);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            uint32_t a = (uint32_t)regs[1 * EMU_WARP_SIZE + l];
            uint32_t b = (uint32_t)regs[2 * EMU_WARP_SIZE + l];
            uint32_t c = (uint32_t)regs[3 * EMU_WARP_SIZE + l];
            uint32_t want = host32(op, host_modes[mode], a, b, c, ftz);
            ck_assert_msg(regs[l] == want,
                          "op %u .%s%s (%08x, %08x, %08x): got %08llx "
                          "want %08x", op, rnd_names[mode],
                          ftz ? ".ftz" : "", a, b, c,
                          (unsigned long long)regs[l], want);
        }
    }
}
END_TEST

static uint64_t host64(unsigned op, int mode, uint64_t ua, uint64_t ub,
                       uint64_t uc)
{
    volatile double a = fp_f64(ua), b = fp_f64(ub), c = fp_f64(uc);
    volatile double r;
    int old = fegetround();
    fesetround(mode);
    switch (op) {
    case PTX_OP_ADD: r = a + b; break;
    case PTX_OP_SUB: r = a - b; break;
    case PTX_OP_MUL: r = a * b; break;
    case PTX_OP_FMA: r = fma(a, b, c); break;
    case PTX_OP_DIV: r = a / b; break;
    case PTX_OP_RCP: r = 1.0 / a; break;
    default: r = sqrt(a); break;
    }
    fesetround(old);
    return fp_u64(r);
}

START_TEST(test_sweep_f64)
{
    unsigned op = sweep_ops[_i / 4];
    unsigned mode = _i % 4;
    uint16_t mods[2] = { rnd_mods[mode], 0 };
    EmuInsn ei;
    IrInsn in;
    IrOperand io[5];
    if (mode != 0 && !host_modes_ok()) {
        return;
    }
    build(&ei, &in, io, op, PTX_T_F64, mods, nsrc_of(op));
    for (unsigned round = 0; round < 100; round++) {
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            for (unsigned k = 1; k <= 3; k++) {
                uint64_t v = rnd64();
                if ((v & 3) == 0) {
                    v = (v & 0x800FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
                } else if ((v & 3) == 1) {
                    v >>= 13;
                }
                regs[k * EMU_WARP_SIZE + l] = v;
            }
        }
        run(&ei, 0xFFFFFFFFu);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            uint64_t a = regs[1 * EMU_WARP_SIZE + l];
            uint64_t b = regs[2 * EMU_WARP_SIZE + l];
            uint64_t c = regs[3 * EMU_WARP_SIZE + l];
            uint64_t want = host64(op, host_modes[mode], a, b, c);
            uint64_t got = regs[l];
            if (fp_isnan64(want)) {
                ck_assert_msg(fp_isnan64(got), "op %u: NaN expected", op);
                continue;
            }
            ck_assert_msg(got == want, "op %u .%s (%016llx, %016llx, "
                          "%016llx): got %016llx want %016llx", op,
                          rnd_names[mode], (unsigned long long)a,
                          (unsigned long long)b, (unsigned long long)c,
                          (unsigned long long)got,
                          (unsigned long long)want);
        }
    }
}
END_TEST

/* Brute-force rounding of an exact binary128 value to a format with
 * ebits/mbits (IEEE layout): binary search over positive bit patterns,
 * with infinity standing for 2^(emax+1) so overflow rounds like IEEE. */
static Q128 ref_value(unsigned ebits, unsigned mbits, uint64_t bits)
{
    int bias = (1 << (ebits - 1)) - 1;
    uint64_t e = bits >> mbits, m = bits & ((1ull << mbits) - 1);
    Q128 v = (Q128)(e ? (m | (1ull << mbits)) : m);
    int sc = (e ? (int)e : 1) - bias - (int)mbits;
    if (e == (1ull << ebits) - 1) {
        v = (Q128)(1ull << mbits) * 2; /* 2^(emax+1) */
        sc = (int)e - 1 - bias - (int)mbits;
    }
    for (; sc > 0; sc--) {
        v *= 2;
    }
    for (; sc < 0; sc++) {
        v /= 2;
    }
    return v;
}

static uint64_t ref_round(unsigned ebits, unsigned mbits, Q128 v,
                          unsigned mode)
{
    bool neg = v < 0;
    Q128 a = neg ? -v : v;
    uint64_t sign = (uint64_t)neg << (ebits + mbits);
    uint64_t inf = ((1ull << ebits) - 1) << mbits;
    uint64_t lo = 0, hi = inf;            /* value(lo) <= a */
    if (a >= ref_value(ebits, mbits, inf)) {
        bool to_inf = mode == 0 || (mode == 2 && neg) || (mode == 3 && !neg);
        return sign | (to_inf ? inf : inf - 1);
    } else {
        while (hi - lo > 1) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (ref_value(ebits, mbits, mid) <= a) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
    }
    Q128 vl = ref_value(ebits, mbits, lo);
    if (vl == a || lo == inf) {
        return sign | lo;
    }
    Q128 vh = ref_value(ebits, mbits, lo + 1);
    uint64_t r;
    switch (mode) {
    case 1:
        r = lo;
        break;
    case 2:
        r = neg ? lo + 1 : lo;
        break;
    case 3:
        r = neg ? lo : lo + 1;
        break;
    default:
        if (2 * a < vl + vh) {
            r = lo;
        } else if (2 * a > vl + vh) {
            r = lo + 1;
        } else {
            r = (lo & 1) ? lo + 1 : lo;
        }
        break;
    }
    return sign | r;
}

/* f16/bf16 add/sub/mul/fma in every rounding mode vs binary128 exact. */
START_TEST(test_sweep_half)
{
    static const unsigned ops[] = { PTX_OP_ADD, PTX_OP_SUB, PTX_OP_MUL,
                                    PTX_OP_FMA };
    unsigned op = ops[_i / 8];
    unsigned mode = (_i / 2) % 4;
    bool bf = _i & 1;
    unsigned eb = bf ? 8 : 5, mb = bf ? 7 : 10;
    PtxType t = bf ? PTX_T_BF16X2 : PTX_T_F16X2;
    uint16_t mods[2] = { rnd_mods[mode], 0 };
    EmuInsn ei;
    IrInsn in;
    IrOperand io[5];
    build(&ei, &in, io, op, t, mods, nsrc_of(op));
    for (unsigned round = 0; round < 40; round++) {
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            for (unsigned k = 1; k <= 3; k++) {
                uint32_t v = (uint32_t)rnd64();
                /* finite operands: clear the top exponent bit sometimes */
                if (bf) {
                    v &= 0xBFFFBFFFu;
                } else if (round & 1) {
                    v &= 0xBBFFBBFFu;
                }
                regs[k * EMU_WARP_SIZE + l] = v;
            }
        }
        run(&ei, 0xFFFFFFFFu);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            for (unsigned h = 0; h < 2; h++) {
                uint16_t s[3];
                Q128 v[3];
                bool nan = false;
                for (unsigned k = 0; k < 3; k++) {
                    s[k] = (uint16_t)(regs[(k + 1) * EMU_WARP_SIZE + l] >>
                                      (16 * h));
                    uint16_t mag = s[k] & 0x7FFF;
                    uint16_t inf = bf ? 0x7F80 : 0x7C00;
                    if (mag >= inf) {
                        nan = true;          /* skip NaN/inf inputs */
                    }
                    v[k] = ref_value(eb, mb, mag);
                    if (s[k] & 0x8000) {
                        v[k] = -v[k];
                    }
                }
                if (nan || (op != PTX_OP_FMA && (s[0] | s[1]) == 0) ) {
                    continue;
                }
                Q128 e;
                switch (op) {
                case PTX_OP_ADD: e = v[0] + v[1]; break;
                case PTX_OP_SUB: e = v[0] - v[1]; break;
                case PTX_OP_MUL: e = v[0] * v[1]; break;
                default: e = v[0] * v[1] + v[2]; break;
                }
                if (e == 0) {
                    continue;                /* sign of zero: rows */
                }
                /* binary128 holds the exact sum only for spans < 110 */
                Q128 x1 = op == PTX_OP_FMA ? v[0] * v[1] : v[0];
                Q128 x2 = op == PTX_OP_FMA ? v[2] : v[1];
                x1 = x1 < 0 ? -x1 : x1;
                x2 = x2 < 0 ? -x2 : x2;
                if (op != PTX_OP_MUL && x1 != 0 && x2 != 0 &&
                    (x1 / x2 > 0x1p100 || x2 / x1 > 0x1p100)) {
                    continue;
                }
                uint16_t want = (uint16_t)ref_round(eb, mb, e, mode);
                uint16_t got = (uint16_t)(regs[l] >> (16 * h));
                ck_assert_msg(got == want, "%s op %u .%s (%04x %04x %04x): "
                              "got %04x want %04x", bf ? "bf16" : "f16",
                              op, rnd_names[mode], s[0], s[1], s[2], got,
                              want);
            }
        }
    }
}
END_TEST

/* f32 mul (exact product in binary128) against the brute-force rounding:
 * a reference that shares nothing with the host FPU. */
START_TEST(test_sweep_mul_bf)
{
    unsigned mode = _i;
    uint16_t mods[2] = { rnd_mods[mode], 0 };
    EmuInsn ei;
    IrInsn in;
    IrOperand io[5];
    build(&ei, &in, io, PTX_OP_MUL, PTX_T_F32, mods, 2);
    for (unsigned round = 0; round < 40; round++) {
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            regs[1 * EMU_WARP_SIZE + l] = pick32() & 0xBFFFFFFFu;
            regs[2 * EMU_WARP_SIZE + l] = pick32() & 0xFFFFFFFFu;
        }
        run(&ei, 0xFFFFFFFFu);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            uint32_t a = (uint32_t)regs[1 * EMU_WARP_SIZE + l];
            uint32_t b = (uint32_t)regs[2 * EMU_WARP_SIZE + l];
            if ((a & 0x7F800000) == PINF || (b & 0x7F800000) == PINF) {
                continue;
            }
            Q128 va = ref_value(8, 23, a & 0x7FFFFFFF);
            Q128 vb = ref_value(8, 23, b & 0x7FFFFFFF);
            Q128 e = va * vb;
            if (e == 0) {
                continue;
            }
            if ((a ^ b) >> 31) {
                e = -e;
            }
            uint32_t want = (uint32_t)ref_round(8, 23, e, mode);
            ck_assert_msg(regs[l] == want, "mul.%s.f32 %08x %08x: got %08llx"
                          " want %08x", rnd_names[mode], a, b,
                          (unsigned long long)regs[l], want);
        }
    }
}
END_TEST

/* .approx functions: error bounds of PTX ISA 9.0 against long double. */
typedef struct ApproxCase {
    const char *id;
    unsigned op;
    double lo, hi;          /* input range */
    bool rel;               /* relative (true) or absolute bound */
    double bound;
} ApproxCase;

static const ApproxCase approx_cases[] = {
    { "sin.approx.f32", PTX_OP_SIN, -3.14159265, 3.14159265, false,
      5.1e-7 },                               /* 2^-20.9 absolute */
    { "cos.approx.f32", PTX_OP_COS, -3.14159265, 3.14159265, false,
      5.1e-7 },
    { "lg2.approx.f32", PTX_OP_LG2, 0.01, 1e6, true, 1.6e-7 },
    { "ex2.approx.f32", PTX_OP_EX2, -100, 100, true, 1.8e-7 },
    { "rsqrt.approx.f32", PTX_OP_RSQRT, 1e-30, 1e30, true, 1.3e-7 },
    { "rcp.approx.f32", PTX_OP_RCP, -1e30, 1e30, true, 1.2e-7 },
    { "sqrt.approx.f32", PTX_OP_SQRT, 0, 1e30, true, 1.2e-7 },
    { "tanh.approx.f32", PTX_OP_TANH, -10, 10, true, 4.9e-4 },
};

START_TEST(test_approx)
{
    const ApproxCase *c = &approx_cases[_i];
    uint16_t mods[2] = { PTX_M_APPROX, 0 };
    EmuInsn ei;
    IrInsn in;
    IrOperand io[5];
    build(&ei, &in, io, c->op, PTX_T_F32, mods, 1);
    double worst = 0;
    for (unsigned round = 0; round < 64; round++) {
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            double t = (double)(rnd64() >> 11) / 9007199254740992.0;
            float v = (float)(c->lo + (c->hi - c->lo) * t);
            regs[1 * EMU_WARP_SIZE + l] = fp_u32(v);
        }
        run(&ei, 0xFFFFFFFFu);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            long double a = fp_f32((uint32_t)regs[1 * EMU_WARP_SIZE + l]);
            long double ref;
            switch (c->op) {
            case PTX_OP_SIN: ref = sinl(a); break;
            case PTX_OP_COS: ref = cosl(a); break;
            case PTX_OP_LG2: ref = log2l(a); break;
            case PTX_OP_EX2: ref = exp2l(a); break;
            case PTX_OP_RSQRT: ref = 1.0L / sqrtl(a); break;
            case PTX_OP_RCP: ref = 1.0L / a; break;
            case PTX_OP_SQRT: ref = sqrtl(a); break;
            default: ref = tanhl(a); break;
            }
            long double got = fp_f32((uint32_t)regs[l]);
            long double err = fabsl(got - ref);
            if (c->rel && ref != 0) {
                err /= fabsl(ref);
            }
            if (!isinf((double)ref) && ref > -3.4e38L && ref < 3.4e38L) {
                worst = err > worst ? (double)err : worst;
                ck_assert_msg(err <= c->bound, "%s(%a) = %a, ref %La, "
                              "err %Lg", c->id, (double)a, (double)got,
                              ref, err);
            }
        }
    }
}
END_TEST

/* f16/bf16 ex2 and tanh: PTX bounds 2^-9.9 (ex2.f16) and 2^-8 (tanh). */
START_TEST(test_approx_half)
{
    static const uint16_t mods[2] = { PTX_M_APPROX, 0 };
    for (unsigned t = 0; t < 4; t++) {
        PtxType ty = t & 1 ? PTX_T_BF16 : PTX_T_F16;
        unsigned op = t & 2 ? PTX_OP_TANH : PTX_OP_EX2;
        double bound = ty == PTX_T_F16 ? (op == PTX_OP_EX2 ? 1.1e-3 : 4e-3)
                                       : 8e-3;
        for (int k = -600; k <= 600; k++) {
            double x = k / 50.0;
            uint16_t hb = (uint16_t)fp_round_d(ty == PTX_T_F16 ? &fp_fmt_f16
                                               : &fp_fmt_bf16, x, FP_RN, 0);
            double xin = fp_decode(ty == PTX_T_F16 ? &fp_fmt_f16
                                   : &fp_fmt_bf16, hb);
            uint64_t r = run1(op, ty, mods, 1, hb, 0, 0);
            double got = fp_decode(ty == PTX_T_F16 ? &fp_fmt_f16
                                   : &fp_fmt_bf16, r);
            double ref = op == PTX_OP_EX2 ? exp2(xin) : tanh(xin);
            if (isinf(got) || ref > 60000) {
                continue;
            }
            double err = fabs(got - ref) / (ref != 0 ? fabs(ref) : 1);
            ck_assert_msg(err <= bound, "type %u op %u x=%g got %g ref %g",
                          ty, op, xin, got, ref);
        }
    }
}
END_TEST

/* Lanes outside the mask keep their value; d may alias a source. */
START_TEST(test_lanes_alias)
{
    uint16_t mods[2] = { PTX_M_RN, 0 };
    EmuInsn ei;
    IrInsn in;
    IrOperand io[5];
    build(&ei, &in, io, PTX_OP_ADD, PTX_T_F32, mods, 2);
    ei.o[0].reg = 1;                     /* add d=a, a, b */
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        regs[1 * EMU_WARP_SIZE + l] = fp_u32((float)l);
        regs[2 * EMU_WARP_SIZE + l] = fp_u32(0.5f);
    }
    run(&ei, 0x0000FFFFu);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        float want = l < 16 ? (float)l + 0.5f : (float)l;
        ck_assert_uint_eq(regs[1 * EMU_WARP_SIZE + l], fp_u32(want));
    }
    /* an immediate operand (raw f32 bits) */
    ei.o[2].kind = EO_IMM;
    ei.o[2].imm = 0x40000000;            /* 2.0f */
    run(&ei, 1u);
    ck_assert_uint_eq(regs[1 * EMU_WARP_SIZE], fp_u32(2.5f));
    /* the full-warp loop (vectorised) with d = a = c:
     * fma.rn d, d, b, d for f32 and f64 */
    build(&ei, &in, io, PTX_OP_FMA, PTX_T_F32, mods, 3);
    ei.o[0].reg = ei.o[1].reg = ei.o[3].reg = 1;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        regs[1 * EMU_WARP_SIZE + l] = fp_u32((float)l + 0.25f);
        regs[2 * EMU_WARP_SIZE + l] = fp_u32(3.0f);
    }
    run(&ei, 0xFFFFFFFFu);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        float a = (float)l + 0.25f;     /* 4a is exact in f32 */
        ck_assert_uint_eq(regs[1 * EMU_WARP_SIZE + l], fp_u32(4.0f * a));
    }
    build(&ei, &in, io, PTX_OP_FMA, PTX_T_F64, mods, 3);
    ei.o[0].reg = ei.o[1].reg = ei.o[3].reg = 1;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        regs[1 * EMU_WARP_SIZE + l] = fp_u64((double)l - 0.5);
        regs[2 * EMU_WARP_SIZE + l] = fp_u64(-1.0);
    }
    run(&ei, 0xFFFFFFFFu);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        ck_assert_uint_eq(regs[1 * EMU_WARP_SIZE + l], fp_u64(0.0));
    }
}
END_TEST

/* Combinations that must be refused (fn NULL), and integer forms left
 * to ops_int.c (selector returns false). */
START_TEST(test_select)
{
    EmuInsn ei;
    IrInsn in;
    IrOperand io[5];
    memset(&ei, 0, sizeof ei);
    memset(&in, 0, sizeof in);
    memset(io, 0, sizeof io);
    in.op = PTX_OP_ADD;
    in.ntypes = 1;
    in.types[0] = PTX_T_S32;
    in.opnds = io;
    ei.op = PTX_OP_ADD;
    ei.type = PTX_T_S32;
    IrFunc fn;
    memset(&fn, 0, sizeof fn);
    ck_assert(!emu_select_fp(NULL, &fn, &in, &ei));
    ei.op = in.op = PTX_OP_LD;
    ck_assert(!emu_select_fp(NULL, &fn, &in, &ei));
    /* add.f32.f16 (mixed, PTX 8.6): selected; mul has no mixed form in
     * the ISA and .ftz is not allowed: recognised, no handler */
    ei.op = in.op = PTX_OP_ADD;
    ei.type = in.types[0] = PTX_T_F32;
    in.types[1] = PTX_T_F16;
    in.ntypes = 2;
    ck_assert(emu_select_fp(NULL, &fn, &in, &ei));
    ck_assert_ptr_nonnull(ei.fn);
    ei.op = in.op = PTX_OP_MUL;
    ck_assert(emu_select_fp(NULL, &fn, &in, &ei));
    ck_assert_ptr_null(ei.fn);
    ei.op = in.op = PTX_OP_ADD;
    ei.flags = EMU_F_FTZ;
    ck_assert(emu_select_fp(NULL, &fn, &in, &ei));
    ck_assert_ptr_null(ei.fn);
}
END_TEST

/* emu/fp.c directly: formats at their edges. */
START_TEST(test_fp_round)
{
    /* f16: 65520 is the overflow tie -> inf; rz -> max */
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, 65520.0, FP_RN, 0), 0x7C00);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, 65519.99, FP_RN, 0), 0x7BFF);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, 1e9, FP_RZ, 0), 0x7BFF);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, -1e9, FP_RP, 0), 0xFBFF);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, -1e9, FP_RM, 0), 0xFC00);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, 1e9, FP_RN, FP_SATFINITE),
                      0x7BFF);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, 0x1p-25, FP_RN, 0), 0);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, 0x1.8p-25, FP_RN, 0), 1);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, 0x1p-30, FP_RP, 0), 1);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, -0x1p-30, FP_RP, 0), 0x8000);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, 0x1.ffcp-15, FP_RN, 0),
                      0x03FF + 1);  /* rounds up into the normals */
    ck_assert_uint_eq(fp_round_d(&fp_fmt_f16, NAN, FP_RN, 0), 0x7FFF);
    /* e4m3: max 448 = 0x7E; NaN 0x7F; satfinite */
    ck_assert_uint_eq(fp_round_d(&fp_fmt_e4m3, 448.0, FP_RN, FP_SATFINITE),
                      0x7E);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_e4m3, 1e6, FP_RN, FP_SATFINITE),
                      0x7E);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_e4m3, -INFINITY, FP_RN,
                                 FP_SATFINITE), 0xFE);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_e4m3, 1.0, FP_RN, FP_SATFINITE),
                      0x38);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_e4m3, 0x1p-9, FP_RN, FP_SATFINITE),
                      0x01);
    ck_assert(isnan(fp_decode(&fp_fmt_e4m3, 0x7F)));
    ck_assert(fp_decode(&fp_fmt_e4m3, 0x7E) == 448.0);
    /* e5m2: max 57344 = 0x7B */
    ck_assert_uint_eq(fp_round_d(&fp_fmt_e5m2, 1e6, FP_RN, FP_SATFINITE),
                      0x7B);
    ck_assert_uint_eq(fp_round_d(&fp_fmt_e5m2, 1.0, FP_RN, 0), 0x3C);
    ck_assert_uint_eq(fp_round(&fp_fmt_f32, false, 0xFFFFFFFFFFFFFFFFull, 0,
                               false, FP_RN, 0), 0x5F800000);
    ck_assert_uint_eq(fp_round(&fp_fmt_f32, true, 0xFFFFFFFFFFFFFFFFull, 0,
                               false, FP_RZ, 0), 0xDF7FFFFF);
    /* fp_rint: ties to even, sign of zero kept */
    ck_assert(fp_rint(2.5, FP_RN) == 2.0);
    ck_assert(fp_rint(3.5, FP_RN) == 4.0);
    ck_assert(signbit(fp_rint(-0.4, FP_RN)));
    ck_assert(fp_rint(-0.5, FP_RM) == -1.0);
    ck_assert(fp_rint(0.1, FP_RP) == 1.0);
}
END_TEST

/* The integer f16/bf16 rounding agrees with the general one. */
START_TEST(test_fast_half_round)
{
    for (unsigned k = 0; k < 200000; k++) {
        uint64_t r = rnd64();
        double v;
        if (k < 65536) {
            /* every f16 value and its midpoints, +- a little */
            v = ldexp((double)(k & 0x7FF) + 0.5 * (k >> 15),
                      (int)((k >> 11) & 15) - 28);
            v = (k & 0x10000) ? -v : v;
        } else {
            v = ldexp((double)(int64_t)r, (int)(rnd64() % 300) - 200);
        }
        uint16_t h = fp_d_to_h_rn(v, 5, 10);
        uint16_t b = fp_d_to_h_rn(v, 8, 7);
        ck_assert_msg(h == fp_round_d(&fp_fmt_f16, v, FP_RN, 0),
                      "f16 %a: %04x", v, h);
        ck_assert_msg(b == fp_round_d(&fp_fmt_bf16, v, FP_RN, 0),
                      "bf16 %a: %04x", v, b);
    }
    static const double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN,
                                 65504.0, 65519.99, 65520.0, 0x1p-24,
                                 0x1p-25, 0x1.0000001p-25, 0x1p-1074,
                                 3.3895313892515355e38, 3.39e38, 1e300 };
    for (unsigned k = 0; k < sizeof sp / sizeof sp[0]; k++) {
        ck_assert_uint_eq(fp_d_to_h_rn(sp[k], 5, 10),
                          fp_round_d(&fp_fmt_f16, sp[k], FP_RN, 0));
        ck_assert_uint_eq(fp_d_to_h_rn(sp[k], 8, 7),
                          fp_round_d(&fp_fmt_bf16, sp[k], FP_RN, 0));
    }
}
END_TEST

/* ------------------------------------------- through the decoder */

/* Rows that go through the whole front end and emu/decode.c (operand
 * types, float immediates): one instruction in a kernel that loads
 * %fd1 (f64), %f1 (f32), %h1 (b16) and %r1 (b32) and stores %r2, %fd2
 * and %f2 (each preset to 0). */
typedef struct DecRow {
    const char *id;
    const char *insn;
    double fd1;
    uint32_t f1;
    uint16_t h1;
    uint32_t r1;
    uint32_t want_r2;
    uint64_t want_fd2;
    uint32_t want_f2;
} DecRow;

static const DecRow dec_rows[] = {
    /* float immediates take the type of their operand's slot: set's
     * sources are the second type.  They were converted to types[0]
     * (u32/f32: an f32 pattern) and widened back, so an f64 literal lost
     * its low bits and its range: 1.0 < 1+2^-52 was false, 1e300 <
     * 2^128 true (2^128 became inf). */
    { "set.lt.u32.f64-imm-01",
      "set.lt.u32.f64 %r2, %fd1, 0d3FF0000000000001;", 1.0, 0, 0, 0,
      0xFFFFFFFFu, 0, 0 },
    { "set.ge.u32.f64-imm-02",
      "set.ge.u32.f64 %r2, %fd1, 0d3FF0000000000001;", 1.0, 0, 0, 0, 0, 0,
      0 },
    { "set.lt.f32.f64-imm-03",
      "set.lt.f32.f64 %f2, %fd1, 0d47F0000000000000;", 1e300, 0, 0, 0, 0,
      0, 0 },
    { "set.lt.f32.f64-imm-04",
      "set.lt.f32.f64 %f2, %fd1, 0d3FF0000000000001;", 1.0, 0, 0, 0, 0, 0,
      ONE },
    { "set.lt.u32.f64-imm-05",
      "set.lt.u32.f64 %r2, %fd1, 0d3FF8000000000000;", 1.75, 0, 0, 0, 0, 0,
      0 },
    { "set.lt.u32.f32-imm-06",
      "set.lt.u32.f32 %r2, %f1, 0f3F800000;", 0, 0x3F7FFFFF, 0, 0,
      0xFFFFFFFFu, 0, 0 },
    /* slct.f64.f32: c is .f32 */
    { "slct.f64.f32-imm-07",
      "slct.f64.f32 %fd2, 0d4000000000000000, %fd1, 0fBF800000;", 3.0, 0, 0,
      0, 0, 0x4008000000000000ull, 0 },
    { "slct.f64.f32-imm-08",
      "slct.f64.f32 %fd2, 0d4000000000000001, %fd1, 0f3F800000;", 3.0, 0, 0,
      0, 0, 0x4000000000000001ull, 0 },
    /* mixed precision (PTX ISA 9.7.5): a (and b) widen exactly, one
     * f32 rounding; %h1 is the 16-bit source, %f1 the f32 one */
    { "add.rn.f32.f16-mix-01", "add.rn.f32.f16 %f2, %h1, %f1;", 0,
      0x33800000, 0x3C00, 0, 0, 0, 0x3F800000 },     /* 1 + 2^-24: tie */
    { "add.rp.f32.f16-mix-02", "add.rp.f32.f16 %f2, %h1, %f1;", 0,
      0x33800000, 0x3C00, 0, 0, 0, 0x3F800001 },
    { "add.rz.f32.bf16-mix-03", "add.rz.f32.bf16 %f2, %h1, %f1;", 0,
      0x3F800001, 0xBF80, 0, 0, 0, 0x34000000 },     /* exact 2^-23 */
    { "sub.rn.f32.f16-mix-04", "sub.rn.f32.f16 %f2, %h1, %f1;", 0,
      0xC7800000, 0x7BFF, 0, 0, 0, 0x47FFF000 },     /* 65504 + 65536 */
    { "sub.rm.sat.f32.f16-mix-05", "sub.rm.sat.f32.f16 %f2, %h1, %f1;", 0,
      ONE, 0x3800, 0, 0, 0, 0 },                     /* -0.5 -> 0 */
    { "add.sat.f32.bf16-mix-06", "add.sat.f32.bf16 %f2, %h1, %f1;", 0, 0,
      0x4000, 0, 0, 0, ONE },
    { "fma.rn.f32.f16-mix-07", "fma.rn.f32.f16 %f2, %h1, %h1, %f1;", 0,
      0xBF800000, 0x3C01, 0, 0, 0, 0x3B001000 },     /* 2^-9 + 2^-20 */
    { "fma.rz.f32.bf16-mix-08", "fma.rz.f32.bf16 %f2, %h1, %h1, %f1;", 0,
      0x33800000, 0x3F81, 0, 0, 0, 0x3F820200 },
    { "fma.rp.f32.bf16-mix-09", "fma.rp.f32.bf16 %f2, %h1, %h1, %f1;", 0,
      0x33800000, 0x3F81, 0, 0, 0, 0x3F820201 },
    { "fma.rn.sat.f32.f16-mix-10", "fma.rn.sat.f32.f16 %f2, %h1, %h1, %f1;",
      0, 0, 0xC000, 0, 0, 0, ONE },
    { "add.rn.f32.f16-mix-11", "add.rn.f32.f16 %f2, %h1, %f1;", 0, ONE,
      0x7E00, 0, 0, 0, CNAN },                        /* NaN: canonical */
    { "add.rn.f32.f16-mix-12", "add.rn.f32.f16 %f2, %h1, %f1;", 0,
      0x33000000, 0x0001, 0, 0, 0, 0x33C00000 },     /* subnormal 2^-24 */
    { "add.rn.f32.bf16-mix-13", "add.rn.f32.bf16 %f2, %h1, %f1;", 0, NINF,
      0x7F80, 0, 0, 0, CNAN },                        /* inf - inf */
    { "fma.rn.f32.bf16-mix-14", "fma.rn.f32.bf16 %f2, %h1, %h1, %f1;", 0,
      0, 0x7F7F, 0, 0, 0, PINF },                     /* overflow */
    { "fma.rz.f32.bf16-mix-15", "fma.rz.f32.bf16 %f2, %h1, %h1, %f1;", 0,
      0, 0x7F7F, 0, 0, 0, MAXF },
    { "sub.rm.f32.f16-mix-16", "sub.rm.f32.f16 %f2, %h1, %f1;", 0, ONE,
      0x3C00, 0, 0, 0, 0x80000000 },                  /* exact 0 -> -0 */
    { "slct.f32.s32-09",
      "slct.f32.s32 %f2, 0f3F800000, %f1, %r1;", 0, 0x40000000, 0,
      0xFFFFFFFFu, 0, 0, 0x40000000 },
};

static const char dec_head[] =
    ".version 8.7\n.target sm_100a\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b16 %h<3>;\n.reg .b32 %r<3>;\n.reg .f32 %f<3>;\n"
    ".reg .b64 %rd<3>;\n.reg .f64 %fd<3>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "ld.global.f64 %fd1, [%rd1];\nld.global.f32 %f1, [%rd1+8];\n"
    "ld.global.b16 %h1, [%rd1+12];\nld.global.b32 %r1, [%rd1+36];\n"
    "mov.b32 %r2, 0;\nmov.b64 %fd2, 0;\nmov.b32 %f2, 0;\n";
static const char dec_tail[] =
    "\nst.global.b32 [%rd1+16], %r2;\nst.global.f64 [%rd1+24], %fd2;\n"
    "st.global.f32 [%rd1+32], %f2;\nret;\n}\n";

/* Run one instruction through parse, decode and a 1-thread launch. */
static void run_decoded(const char *insn, const uint8_t in[40],
                        uint8_t out[40])
{
    char src[2048];
    snprintf(src, sizeof src, "%s%s%s", dec_head, insn, dec_tail);
    ptxemu_device *dev = NULL;
    ptxemu_module *mod = NULL;
    ptxemu_function *fn = NULL;
    ptxemu_devptr p = 0;
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_module_load_string(dev, NULL, src, 0, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s", insn,
                  ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_module_get_function(mod, "k", &fn),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(dev, 40, &p), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, p, in, 40), PTXEMU_SUCCESS);
    unsigned grid[3] = { 1, 1, 1 }, block[3] = { 1, 1, 1 };
    void *params[] = { &p };
    st = ptxemu_launch(fn, grid, block, 0, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s", insn,
                  ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, out, p, 40), PTXEMU_SUCCESS);
    ptxemu_module_unload(mod);
    ptxemu_device_destroy(dev);
}

START_TEST(test_decoded_rows)
{
    const DecRow *r = &dec_rows[_i];
    uint8_t in[40] = { 0 }, out[40];
    memcpy(in, &r->fd1, 8);
    memcpy(in + 8, &r->f1, 4);
    memcpy(in + 12, &r->h1, 2);
    memcpy(in + 36, &r->r1, 4);
    run_decoded(r->insn, in, out);
    uint32_t r2, f2;
    uint64_t fd2;
    memcpy(&r2, out + 16, 4);
    memcpy(&fd2, out + 24, 8);
    memcpy(&f2, out + 32, 4);
    ck_assert_msg(r2 == r->want_r2 && fd2 == r->want_fd2 &&
                  f2 == r->want_f2,
                  "%s: got r2 0x%x fd2 0x%llx f2 0x%x, want 0x%x 0x%llx "
                  "0x%x", r->id, r2, (unsigned long long)fd2, f2,
                  r->want_r2, (unsigned long long)r->want_fd2, r->want_f2);
}
END_TEST

Suite *ops_fp_suite(void)
{
    Suite *s = suite_create("ops_fp");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, test_rows, 0,
                        (int)(sizeof rows / sizeof rows[0]));
    tcase_add_test(tc, test_lanes_alias);
    tcase_add_test(tc, test_select);
    tcase_add_test(tc, test_fp_round);
    tcase_add_loop_test(tc, test_decoded_rows, 0,
                        (int)(sizeof dec_rows / sizeof dec_rows[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("sweeps");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_sweep_f32, 0, (int)NSWEEP_OPS * 8);
    tcase_add_loop_test(tc, test_sweep_f64, 0, (int)NSWEEP_OPS * 4);
    tcase_add_loop_test(tc, test_sweep_half, 0, 32);
    tcase_add_loop_test(tc, test_sweep_mul_bf, 0, 4);
    tcase_add_loop_test(tc, test_approx, 0,
                        (int)(sizeof approx_cases / sizeof approx_cases[0]));
    tcase_add_test(tc, test_approx_half);
    tcase_add_test(tc, test_fast_half_round);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ops_fp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0;
}
