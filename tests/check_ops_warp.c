/*
 * tests/check_ops_warp.c: the warp-level handlers of emu/ops_warp.c
 * (shfl, shfl.sync, vote, vote.sync, match.any/all.sync, redux.sync,
 * activemask).
 *
 * Each case is one PTX instruction parsed by the front end, lowered here
 * (register i -> slot i) and selected with emu_select_warp(), run over a
 * fake 32-lane warp.  Expected source lanes and predicates for shfl are
 * hand-computed from the PTX ISA 9.0 pseudo-code of shfl.sync, for
 * the segment widths CUDA's __shfl_*_sync(width) produce; vote/match/redux
 * expectations are hand-computed masks and sums.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/exec.h"
#include "emu/ops.h"
#include "ptx/ptx.h"

Suite *ops_warp_suite(void);

#define NSLOT 64
#define M32 0xffffffffu
#define HDR ".version 9.0\n.target sm_100a\n.address_size 64\n"        \
            ".visible .entry k()\n{\n"                                   \
            ".reg .b32 %r<8>;\n.reg .b64 %d<8>;\n.reg .pred %p<8>;\n"    \
            ".reg .f32 %f<8>;\n"

static IrModule *mod;
static IrFunc *fn;
static EmuInsn ins;
static uint64_t regs[NSLOT * EMU_WARP_SIZE];
static EmuWarp warp;
static EmuCtx ctx;
/* The handlers' lane arithmetic as such: a device pinned to IPDOM, where
 * the .sync forms run with the lanes given (under ITS they first wait
 * for their membermask: emu/its.h, tests/check_its.c). */
static EmuDevice ipdom_dev = { .cfg = { .reconvergence = EMU_RECONV_IPDOM } };
static EmuModule ipdom_mod = { .dev = &ipdom_dev,
                               .reconv = EMU_RECONV_IPDOM };
static EmuLaunch ipdom_launch = { .dev = &ipdom_dev, .mod = &ipdom_mod };

static void lower(const IrOperand *o, EmuOpnd *e)
{
    memset(e, 0, sizeof(*e));
    e->neg = o->neg;
    e->sel = o->sel;
    switch (o->kind) {
    case IR_O_REG:
        e->kind = EO_REG;
        e->reg = (uint32_t)o->id;
        break;
    case IR_O_IMM:
        e->kind = EO_IMM;
        e->imm = (uint64_t)o->imm;
        break;
    case IR_O_PAIR:
        e->kind = EO_PAIR;
        e->reg = (uint32_t)o->u.elems[0].id;
        e->imm = (uint64_t)o->u.elems[1].id;
        break;
    default:
        ck_abort_msg("operand kind %d not handled by the test", o->kind);
    }
}

static void load(const char *insn)
{
    char src[2048];
    snprintf(src, sizeof(src), "%s%s\nret;\n}\n", HDR, insn);
    PtxDiag d;
    mod = ptx_parse_string("t.ptx", src, strlen(src), &d, NULL);
    if (!mod) {
        ck_abort_msg("parse failed: %s\n%s", insn, d.buf ? d.buf : "");
    }
    ptx_diag_fini(&d);
    fn = mod->funcs[0];
    ck_assert_uint_le(fn->nregs, NSLOT);
    const IrInsn *in = &fn->insns[0];
    memset(&ins, 0, sizeof(ins));
    ins.op = in->op;
    ins.type = in->ntypes ? in->types[0] : 0;
    ins.type2 = in->ntypes > 1 ? in->types[1] : 0;
    ins.nopnd = in->nopnds;
    ins.guard = EMU_NOREG;
    for (unsigned j = 0; j < in->nopnds; j++) {
        lower(&in->opnds[j], &ins.o[j]);
    }
    ck_assert(emu_select_warp(mod, fn, in, &ins));
    ck_assert_msg(ins.fn != NULL, "no handler for %s", insn);
    memset(regs, 0, sizeof(regs));
    memset(&warp, 0, sizeof(warp));
    memset(&ctx, 0, sizeof(ctx));
    ctx.regs = regs;
    ctx.warp = &warp;
    ctx.dev = &ipdom_dev;
    ctx.launch = &ipdom_launch;
}

static void unload(void)
{
    ptx_module_free(mod);
    mod = NULL;
}

static uint64_t *R(const char *name)
{
    for (uint32_t r = 0; r < fn->nregs; r++) {
        if (strcmp(fn->regs[r].name, name) == 0) {
            return &regs[r * EMU_WARP_SIZE];
        }
    }
    ck_abort_msg("no register %s", name);
    return NULL;
}

/* ------------------------------------------------------------ shfl */

/* A lane, the lane it must read and the predicate it must get. */
typedef struct ShflLane {
    int lane, src, p;
} ShflLane;

typedef struct ShflRow {
    const char *id;
    const char *mode;
    uint32_t b, c;
    ShflLane lanes[4];
} ShflRow;

/* c = ((32 - width) << 8) | clamp, as CUDA's __shfl_*_sync emit it. */
static const ShflRow shfl_rows[] = {
    { "shfl.idx-00", "idx", 3, 0x1f, { { 0, 3, 1 }, { 31, 3, 1 },
                                       { 3, 3, 1 }, { 17, 3, 1 } } },
    { "shfl.idx-01", "idx", 35, 0x1f, { { 0, 3, 1 }, { 31, 3, 1 },
                                        { 3, 3, 1 }, { 9, 3, 1 } } },
    /* width 8: segmask 0x18, the source is within the lane's segment */
    { "shfl.idx-02", "idx", 3, 0x181f, { { 13, 11, 1 }, { 0, 3, 1 },
                                         { 31, 27, 1 }, { 16, 19, 1 } } },
    /* clamp 15: sources past 15 are out of range */
    { "shfl.idx-03", "idx", 20, 0x0f, { { 0, 0, 0 }, { 7, 7, 0 },
                                        { 31, 31, 0 }, { 20, 20, 0 } } },
    { "shfl.idx-04", "idx", 10, 0x0f, { { 0, 10, 1 }, { 31, 10, 1 },
                                        { 10, 10, 1 }, { 5, 10, 1 } } },
    { "shfl.up-00", "up", 1, 0, { { 0, 0, 0 }, { 5, 4, 1 }, { 31, 30, 1 },
                                  { 1, 0, 1 } } },
    { "shfl.up-01", "up", 2, 0x1800, { { 9, 9, 0 }, { 10, 8, 1 },
                                       { 1, 1, 0 }, { 31, 29, 1 } } },
    { "shfl.up-02", "up", 0, 0, { { 0, 0, 1 }, { 5, 5, 1 }, { 31, 31, 1 },
                                  { 16, 16, 1 } } },
    { "shfl.down-00", "down", 1, 0x1f, { { 31, 31, 0 }, { 30, 31, 1 },
                                         { 0, 1, 1 }, { 15, 16, 1 } } },
    { "shfl.down-01", "down", 3, 0x181f, { { 13, 13, 0 }, { 12, 15, 1 },
                                           { 0, 3, 1 }, { 29, 29, 0 } } },
    { "shfl.down-02", "down", 16, 0x1f, { { 15, 31, 1 }, { 16, 16, 0 },
                                          { 0, 16, 1 }, { 31, 31, 0 } } },
    { "shfl.bfly-00", "bfly", 1, 0x1f, { { 6, 7, 1 }, { 7, 6, 1 },
                                         { 0, 1, 1 }, { 31, 30, 1 } } },
    /* width 8, xor 8: j = lane ^ 8 must be <= the segment's last lane */
    { "shfl.bfly-01", "bfly", 8, 0x181f, { { 13, 5, 1 }, { 5, 5, 0 },
                                           { 24, 16, 1 }, { 16, 16, 0 } } },
    { "shfl.bfly-02", "bfly", 4, 0x181f, { { 13, 9, 1 }, { 9, 13, 1 },
                                           { 0, 4, 1 }, { 31, 27, 1 } } },
};

START_TEST(test_shfl_rows)
{
    const ShflRow *r = &shfl_rows[_i];
    for (int legacy = 0; legacy < 2; legacy++) {
        char insn[128];
        if (legacy) {
            snprintf(insn, sizeof(insn), "shfl.%s.b32 %%r0|%%p0, %%r1, %u, "
                     "%u;", r->mode, r->b, r->c);
        } else {
            snprintf(insn, sizeof(insn), "shfl.sync.%s.b32 %%r0|%%p0, %%r1, "
                     "%%r2, %%r3, -1;", r->mode);
        }
        load(insn);
        for (unsigned l = 0; l < 32; l++) {
            R("%r1")[l] = 100 + l;
            R("%r2")[l] = r->b;
            R("%r3")[l] = r->c;
        }
        ins.fn(&ctx, &ins, M32);
        for (unsigned k = 0; k < 4; k++) {
            const ShflLane *sl = &r->lanes[k];
            ck_assert_msg(R("%r0")[sl->lane] == 100u + (unsigned)sl->src,
                          "%s%s lane %d: got %llu want %d", r->id,
                          legacy ? " (legacy)" : "", sl->lane,
                          (unsigned long long)R("%r0")[sl->lane],
                          100 + sl->src);
            ck_assert_msg(R("%p0")[sl->lane] == (uint64_t)sl->p,
                          "%s lane %d: predicate", r->id, sl->lane);
        }
        unload();
    }
}
END_TEST

/* The destination is the source: every lane reads the old values; lanes
 * outside the mask are left alone. */
START_TEST(test_shfl_alias_mask)
{
    load("shfl.sync.bfly.b32 %r0, %r0, 1, 0x1f, -1;");
    for (unsigned l = 0; l < 32; l++) {
        R("%r0")[l] = l;
    }
    ins.fn(&ctx, &ins, 0x0000ffffu);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(R("%r0")[l], l < 16 ? (l ^ 1) : l);
    }
    unload();
    /* an immediate source is the same for every lane */
    load("shfl.sync.down.b32 %r0, 7, 1, 0x1f, -1;");
    ins.fn(&ctx, &ins, M32);
    ck_assert_uint_eq(R("%r0")[5], 7);
    unload();
}
END_TEST

/* ------------------------------------------------------------ vote */

START_TEST(test_vote)
{
    /* p1 = (lane % 3 == 0): lanes 0, 3, ..., 30 */
    static const struct {
        const char *insn;
        uint32_t mask;
        uint32_t want0, want31;    /* results in lanes 0 and 31 (or 15) */
    } rows[] = {
        { "vote.sync.ballot.b32 %r0, %p1, -1;", M32, 0x49249249u,
          0x49249249u },
        { "vote.sync.ballot.b32 %r0, %p1, 0xffff;", M32, 0x9249u, 0x9249u },
        { "vote.sync.ballot.b32 %r0, !%p1, -1;", M32, ~0x49249249u,
          ~0x49249249u },
        { "vote.ballot.b32 %r0, %p1;", 0x0000000fu, 0x9u, 0 },
        { "vote.sync.all.pred %p0, %p1, -1;", M32, 0, 0 },
        { "vote.sync.all.pred %p0, %p1, 0x9;", 0x9u, 1, 0 },
        { "vote.sync.any.pred %p0, %p1, -1;", M32, 1, 1 },
        { "vote.sync.any.pred %p0, %p1, 0x6;", 0x6u, 0, 0 },
        { "vote.sync.any.pred %p0, !%p1, 0x9;", 0x9u, 0, 0 },
        { "vote.sync.uni.pred %p0, %p1, -1;", M32, 0, 0 },
        { "vote.sync.uni.pred %p0, %p1, 0x6;", 0x6u, 1, 0 },
        { "vote.sync.uni.pred %p0, %p1, 0x7;", 0x7u, 0, 0 },
        { "vote.sync.uni.pred %p0, %p1, 0x9;", 0x9u, 1, 0 },
        { "vote.all.pred %p0, %p1;", 0x49249249u, 1, 0 },
        { "vote.uni.pred %p0, !%p1;", 0x49249249u, 1, 0 },
        { "vote.any.pred %p0, %p1;", 0x06u, 0, 0 },
    };
    unsigned k = (unsigned)_i;
    load(rows[k].insn);
    bool pred = strstr(rows[k].insn, ".pred") != NULL;
    uint64_t *d = pred ? R("%p0") : R("%r0");
    for (unsigned l = 0; l < 32; l++) {
        R("%p1")[l] = l % 3 == 0;
        d[l] = 0xabc;
    }
    ins.fn(&ctx, &ins, rows[k].mask);
    unsigned first = (unsigned)__builtin_ctz(rows[k].mask);
    unsigned last = 31u - (unsigned)__builtin_clz(rows[k].mask);
    ck_assert_msg(d[first] == rows[k].want0, "vote-%02u: %s lane %u got "
                  "0x%llx", k, rows[k].insn, first,
                  (unsigned long long)d[first]);
    if (last == 31) {
        ck_assert_msg(d[31] == rows[k].want31, "vote-%02u lane 31", k);
    }
    for (unsigned l = 0; l < 32; l++) {
        if (!((rows[k].mask >> l) & 1)) {
            ck_assert_uint_eq(d[l], 0xabc);
        }
    }
    unload();
}
END_TEST

/* ------------------------------------------------------------ match */

START_TEST(test_match)
{
    load("match.any.sync.b32 %r0, %r1, -1;");
    for (unsigned l = 0; l < 32; l++) {
        R("%r1")[l] = l & 3;
    }
    ins.fn(&ctx, &ins, M32);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(R("%r0")[l], 0x11111111u << (l & 3));
    }
    /* only some lanes take part */
    ins.fn(&ctx, &ins, 0x000000f0u);
    ck_assert_uint_eq(R("%r0")[5], 0x20u);
    unload();

    load("match.any.sync.b64 %r0, %d1, 0xff;");
    for (unsigned l = 0; l < 32; l++) {
        R("%d1")[l] = (uint64_t)(l & 1) << 40;    /* differ above bit 31 */
    }
    ins.fn(&ctx, &ins, M32);
    ck_assert_uint_eq(R("%r0")[0], 0x55u);
    ck_assert_uint_eq(R("%r0")[3], 0xaau);
    unload();

    load("match.all.sync.b32 %r0|%p0, %r1, -1;");
    for (unsigned l = 0; l < 32; l++) {
        R("%r1")[l] = 42;
    }
    ins.fn(&ctx, &ins, 0x00ff00ffu);
    ck_assert_uint_eq(R("%r0")[0], 0x00ff00ffu);
    ck_assert_uint_eq(R("%p0")[0], 1);
    R("%r1")[7] = 43;
    ins.fn(&ctx, &ins, 0x00ff00ffu);
    ck_assert_uint_eq(R("%r0")[0], 0);
    ck_assert_uint_eq(R("%p0")[7], 0);
    ins.fn(&ctx, &ins, 0x00ff007fu);   /* lane 7 is not taking part */
    ck_assert_uint_eq(R("%r0")[0], 0x00ff007fu);
    unload();
}
END_TEST

/* ------------------------------------------------------------ redux */

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

START_TEST(test_redux)
{
    load("redux.sync.add.u32 %r0, %r1, -1;");
    for (unsigned l = 0; l < 32; l++) {
        R("%r1")[l] = l;
    }
    ins.fn(&ctx, &ins, M32);
    ck_assert_uint_eq(R("%r0")[0], 496);
    ck_assert_uint_eq(R("%r0")[31], 496);
    ins.fn(&ctx, &ins, 0x0000000fu);
    ck_assert_uint_eq(R("%r0")[2], 6);
    unload();

    load("redux.sync.add.s32 %r0, %r1, 0x3;");
    R("%r1")[0] = 0xffffffffu;
    R("%r1")[1] = 0xffffffffu;
    ins.fn(&ctx, &ins, M32);
    ck_assert_uint_eq(R("%r0")[0], 0xfffffffeu);
    unload();

    static const struct {
        const char *insn;
        uint32_t want;
    } rows[] = {
        { "redux.sync.min.s32 %r0, %r1, -1;", 0xfffffff1u },  /* -15 */
        { "redux.sync.max.s32 %r0, %r1, -1;", 16 },
        { "redux.sync.min.u32 %r0, %r1, -1;", 0 },
        { "redux.sync.max.u32 %r0, %r1, -1;", 0xffffffffu },
        { "redux.sync.and.b32 %r0, %r1, -1;", 0 },
        { "redux.sync.or.b32 %r0, %r1, -1;", 0xffffffffu },
        { "redux.sync.xor.b32 %r0, %r1, 0x3;", 0xeu },
    };
    for (unsigned k = 0; k < 7; k++) {
        load(rows[k].insn);
        /* values -15 .. 16 as lane - 15, lane 31 = 16; lane 0 = 0 and
         * lane 16 = -1 too */
        for (unsigned l = 0; l < 32; l++) {
            R("%r1")[l] = (uint32_t)((int)l - 15);
        }
        R("%r1")[15] = 0;
        R("%r1")[16] = 0xffffffffu;
        R("%r1")[0] = 0xfffffff1u;
        R("%r1")[1] = 0xffffffffu;
        ins.fn(&ctx, &ins, M32);
        ck_assert_msg(R("%r0")[3] == rows[k].want, "redux-%02u: %s got "
                      "0x%llx", k, rows[k].insn,
                      (unsigned long long)R("%r0")[3]);
        unload();
    }

    /* f32 min/max: NaN ignored unless .NaN, -0 < +0, .abs */
    static const struct {
        const char *insn;
        float v[4];
        uint32_t want;
    } frows[] = {
        { "redux.sync.min.f32 %f0, %f1, 0xf;", { 1, -2, 3, 4 },
          0xc0000000u },
        { "redux.sync.max.f32 %f0, %f1, 0xf;", { 1, -2, 3, 4 },
          0x40800000u },
        { "redux.sync.min.f32 %f0, %f1, 0xf;", { 1, __builtin_nanf(""), 3,
                                                  4 }, 0x3f800000u },
        { "redux.sync.min.NaN.f32 %f0, %f1, 0xf;", { 1, __builtin_nanf(""),
                                                      3, 4 }, 0x7fffffffu },
        { "redux.sync.min.f32 %f0, %f1, 0xf;", { 0.0f, -0.0f, 1, 1 },
          0x80000000u },
        { "redux.sync.max.f32 %f0, %f1, 0xf;", { -0.0f, 0.0f, -1, -1 },
          0x00000000u },
        { "redux.sync.max.abs.f32 %f0, %f1, 0xf;", { 1, -5, 3, 4 },
          0x40a00000u },
        { "redux.sync.min.abs.f32 %f0, %f1, 0xf;", { -1, -5, 3, 4 },
          0x3f800000u },
    };
    for (unsigned k = 0; k < 8; k++) {
        load(frows[k].insn);
        for (unsigned l = 0; l < 4; l++) {
            R("%f1")[l] = fbits(frows[k].v[l]);
        }
        ins.fn(&ctx, &ins, 0xfu);
        ck_assert_msg(R("%f0")[2] == frows[k].want, "redux.f32-%02u: %s got "
                      "0x%llx want 0x%x", k, frows[k].insn,
                      (unsigned long long)R("%f0")[2], frows[k].want);
        unload();
    }
}
END_TEST

START_TEST(test_activemask)
{
    load("activemask.b32 %r0;");
    ins.fn(&ctx, &ins, 0x80000101u);
    ck_assert_uint_eq(R("%r0")[8], 0x80000101u);
    ck_assert_uint_eq(R("%r0")[1], 0);
    unload();
}
END_TEST

Suite *ops_warp_suite(void)
{
    Suite *s = suite_create("ops_warp");
    TCase *tc = tcase_create("warp");
    tcase_add_loop_test(tc, test_shfl_rows, 0,
                        (int)(sizeof(shfl_rows) / sizeof(shfl_rows[0])));
    tcase_add_test(tc, test_shfl_alias_mask);
    tcase_add_loop_test(tc, test_vote, 0, 16);
    tcase_add_test(tc, test_match);
    tcase_add_test(tc, test_redux);
    tcase_add_test(tc, test_activemask);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ops_warp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
