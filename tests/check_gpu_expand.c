/*
 * tests/check_gpu_expand.c: PTX-to-machine expansion (timing/gpu/
 * expand.c, rows in expand.def and the generated expand_sass.def).
 *
 *  - match: the lookup rule on a hand-made table (opcode name, type,
 *    modifiers as whole dot-separated words, guards and blanks, the most
 *    modifiers winning, table order breaking ties, no text).
 *  - table: every built-in row is well formed (1..GPU_EXPAND_MAX parts,
 *    known units, non-zero latency and ii, nothing past n, a source).
 *  - gt200: Wong et al.'s figures: 32-bit mul.lo is 4 SP instructions,
 *    96 cycles; mad.lo 5, 120 cycles; sin/cos/ex2 two dependent parts;
 *    a clock read a move and a shift (an operand-prefix modifier).
 *  - sass: facts read by hand off the SASS listings for sm_70/80/90 (not
 *    off the generator): div.rn.f32 is MUFU.RCP, FCHK and five FFMAs
 *    around its slow-path test; sin.approx is FMUL.RZ then MUFU.SIN;
 *    div.u64 calls a subroutine with I2F, MUFU.RCP and F2I; tanh.approx
 *    is one MUFU.TANH (no row); 64-bit rows need 64-bit types;
 *    sqrt.approx.ftz is MUFU.SQRT alone and its row beats the
 *    four-part sqrt.approx one; mad.lo.s64 is three IMADs.
 */
#include <check.h>
#include <stdlib.h>

#include "tests/testutil.h"
#include "timing/gpu/expand.h"

Suite *gpu_expand_suite(void);

static ptxemu_tm_insn mk(const char *opname, uint8_t type, const char *text)
{
    return (ptxemu_tm_insn){.struct_size = sizeof(ptxemu_tm_insn),
                            .opname = opname,
                            .type = type,
                            .text = text};
}

#define PART(u, l, i) {PTXEMU_TM_UNIT_##u, l, i}
static const GpuExpandRow toy[] = {
    {GPU_EXPAND_VOLTA, 4, "div", ".f32", {1, {PART(FP32, 1, 1)}, "A"}},
    {GPU_EXPAND_VOLTA, 4, "div", ".rn.f32", {1, {PART(FP32, 2, 1)}, "B"}},
    {GPU_EXPAND_VOLTA, 4, "div", ".f32.rn", {1, {PART(FP32, 3, 1)}, "C"}},
    {GPU_EXPAND_VOLTA, 0, "div", ".rn", {1, {PART(FP64, 4, 1)}, "D"}},
    {GPU_EXPAND_VOLTA, 8, "mul", "", {1, {PART(INT, 5, 1)}, "E"}},
    {GPU_EXPAND_AMPERE, 4, "div", ".rn.f32", {1, {PART(SFU, 6, 1)}, "F"}},
};
#define NTOY ((uint32_t)(sizeof(toy) / sizeof(toy[0])))

/* The source letter of the toy row insn matches on arch, or "-". */
static const char *which(int arch, const char *op, uint8_t type,
                         const char *text)
{
    ptxemu_tm_insn i = mk(op, type, text);
    const GpuExpand *e = gpu_expand_match(toy, NTOY, arch, &i);
    return e ? e->source : "-";
}

START_TEST(match_rule)
{
    const int V = GPU_EXPAND_VOLTA;
    /* B and C both have two modifiers; B is first; A and D have one */
    ck_assert_str_eq(which(V, "div", 4, "div.rn.f32 %f1, %f2, %f3;"), "B");
    /* extra modifiers do not hurt; order in the text does not matter */
    ck_assert_str_eq(which(V, "div", 4, "div.rn.ftz.f32 %f1, %f2, %f3;"),
                     "B");
    ck_assert_str_eq(which(V, "div", 4, "div.f32.rn %f1, %f2, %f3;"), "B");
    /* a guard and blanks before the opcode */
    ck_assert_str_eq(which(V, "div", 4, "\t@!%p1 div.rn.f32 %f1, %f2, %f3;"),
                     "B");
    ck_assert_str_eq(which(V, "div", 4, "  @%p2  div.rn.f32 %f1,%f2,%f3;"),
                     "B");
    /* only .f32 of A present */
    ck_assert_str_eq(which(V, "div", 4, "div.approx.f32 %f1, %f2, %f3;"),
                     "A");
    /* whole words only: .rnx is not .rn */
    ck_assert_str_eq(which(V, "div", 4, "div.rnx.f32 %f1, %f2, %f3;"), "A");
    /* D matches any type; A/B/C want 4 bytes */
    ck_assert_str_eq(which(V, "div", 8, "div.rn.f64 %fd1, %fd2, %fd3;"), "D");
    ck_assert_str_eq(which(V, "div", 4, "div.s32 %r1, %r2, %r3;"), "-");
    /* the opcode name must be the row's */
    ck_assert_str_eq(which(V, "rem", 4, "rem.rn.f32 %f1, %f2, %f3;"), "-");
    /* another architecture's table */
    ck_assert_str_eq(which(GPU_EXPAND_AMPERE, "div", 4, "div.rn.f32 a;"),
                     "F");
    ck_assert_str_eq(which(GPU_EXPAND_HOPPER, "div", 4, "div.rn.f32 a;"),
                     "-");
    /* no text: only rows without modifiers */
    ck_assert_str_eq(which(V, "div", 4, ""), "-");
    ck_assert_str_eq(which(V, "div", 4, NULL), "-");
    ck_assert_str_eq(which(V, "mul", 8, NULL), "E");
    ck_assert_str_eq(which(V, "mul", 4, NULL), "-");
    ck_assert_ptr_null(gpu_expand_match(toy, NTOY, V, NULL));
    ptxemu_tm_insn noname = mk(NULL, 4, "div.rn.f32 a;");
    ck_assert_ptr_null(gpu_expand_match(toy, NTOY, V, &noname));
}
END_TEST

START_TEST(arch_names)
{
    ck_assert_int_eq(gpu_expand_arch("gt200"), GPU_EXPAND_GT200);
    ck_assert_int_eq(gpu_expand_arch("fermi"), GPU_EXPAND_FERMI);
    ck_assert_int_eq(gpu_expand_arch("volta"), GPU_EXPAND_VOLTA);
    ck_assert_int_eq(gpu_expand_arch("ampere"), GPU_EXPAND_AMPERE);
    ck_assert_int_eq(gpu_expand_arch("hopper"), GPU_EXPAND_HOPPER);
    ck_assert_int_eq(gpu_expand_arch("kepler"), -1);
    ck_assert_int_eq(gpu_expand_arch(NULL), -1);
    ptxemu_tm_insn i = mk("div", 4, "div.rn.f32 %f1, %f2, %f3;");
    ck_assert_ptr_null(gpu_expand(-1, &i));
    ck_assert_ptr_null(gpu_expand(GPU_EXPAND_ARCH_COUNT, &i));
}
END_TEST

START_TEST(table_well_formed)
{
    uint32_t n = 0;
    const GpuExpandRow *t = gpu_expand_table(&n);
    ck_assert_uint_gt(n, 100);
    uint32_t per_arch[GPU_EXPAND_ARCH_COUNT] = {0};
    for (uint32_t r = 0; r < n; r++) {
        const GpuExpand *e = &t[r].e;
        ck_assert_uint_lt(t[r].arch, GPU_EXPAND_ARCH_COUNT);
        per_arch[t[r].arch]++;
        ck_assert_msg(e->n >= 1 && e->n <= GPU_EXPAND_MAX, "row %u: n %u", r,
                      e->n);
        ck_assert_ptr_nonnull(e->source);
        ck_assert_ptr_nonnull(t[r].opname);
        for (uint32_t k = 0; k < GPU_EXPAND_MAX; k++) {
            const GpuExpandPart *p = &e->part[k];
            if (k < e->n) {
                ck_assert_msg(p->unit < PTXEMU_TM_UNIT_COUNT &&
                                  p->latency > 0 && p->ii > 0,
                              "row %u (%s%s) part %u", r, t[r].opname,
                              t[r].mods, k);
            } else {
                ck_assert_msg(p->unit == 0 && p->latency == 0 && p->ii == 0,
                              "row %u (%s%s): part %u past n", r,
                              t[r].opname, t[r].mods, k);
            }
        }
    }
    for (int a = 0; a < GPU_EXPAND_ARCH_COUNT; a++) {
        ck_assert_msg(per_arch[a] > 0, "arch %d has no rows", a);
    }
}
END_TEST

/* Sum of latencies and the number of parts on unit u. */
static uint32_t total_latency(const GpuExpand *e)
{
    uint32_t s = 0;
    for (uint32_t k = 0; k < e->n; k++) {
        s += e->part[k].latency;
    }
    return s;
}

static uint32_t on_unit(const GpuExpand *e, ptxemu_tm_unit u)
{
    uint32_t c = 0;
    for (uint32_t k = 0; k < e->n; k++) {
        c += e->part[k].unit == u;
    }
    return c;
}

static const GpuExpand *look(int arch, const char *op, uint8_t type,
                             const char *text)
{
    ptxemu_tm_insn i = mk(op, type, text);
    return gpu_expand(arch, &i);
}

START_TEST(gt200_wong)
{
    const int G = GPU_EXPAND_GT200;
    const GpuExpand *e = look(G, "mul", 4, "mul.lo.s32 %r1, %r2, %r3;");
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->n, 4);
    ck_assert_uint_eq(on_unit(e, PTXEMU_TM_UNIT_INT), 4);
    ck_assert_uint_eq(total_latency(e), 96);
    ck_assert_uint_eq(e->part[0].ii, 4); /* 32 lanes on 8 SPs */
    ck_assert_ptr_eq(look(G, "mul", 4, "@%p1 mul.lo.u32 %r1, %r2, 7;"), e);
    e = look(G, "mad", 4, "mad.lo.s32 %r1, %r2, %r3, %r4;");
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->n, 5);
    ck_assert_uint_eq(total_latency(e), 120);
    /* 24-bit multiply is native; so are f32 multiplies */
    ck_assert_ptr_null(look(G, "mul24", 4, "mul24.lo.s32 %r1, %r2, %r3;"));
    ck_assert_ptr_null(look(G, "mul", 4, "mul.rn.f32 %f1, %f2, %f3;"));
    e = look(G, "sin", 4, "sin.approx.f32 %f1, %f2;");
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->n, 2);
    ck_assert_uint_eq(e->part[1].unit, PTXEMU_TM_UNIT_SFU);
    e = look(G, "sqrt", 4, "sqrt.approx.f32 %f1, %f2;");
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(on_unit(e, PTXEMU_TM_UNIT_SFU), 2);
    /* lg2 is one SFU instruction (Wong et al.): no row */
    ck_assert_ptr_null(look(G, "lg2", 4, "lg2.approx.f32 %f1, %f2;"));
    /* a clock read is a move and a dependent shift (28 cycles before an
     * independent instruction): the row names its operand, %clock or
     * %clock64, and no other move matches it */
    e = look(G, "mov", 8, "mov.u64 %rd4, %clock64;");
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->n, 2);
    ck_assert_uint_eq(e->part[0].latency + e->part[1].ii, 28);
    ck_assert_ptr_eq(look(G, "mov", 4, "mov.u32 %r1,%clock;"), e);
    ck_assert_ptr_null(look(G, "mov", 4, "mov.u32 %r1, %r2;"));
    ck_assert_ptr_null(look(G, "mov", 4, "mov.u32 %clockx, %r2;"));
    ck_assert_ptr_null(look(G, "mov", 4, "mov.u32 %r1, %clock_hi;"));
    ck_assert_ptr_null(look(GPU_EXPAND_AMPERE, "mov", 8,
                            "mov.u64 %rd4, %clock64;"));
}
END_TEST

START_TEST(sass_facts)
{
    const int modern[] = {GPU_EXPAND_VOLTA, GPU_EXPAND_AMPERE,
                          GPU_EXPAND_HOPPER};
    for (unsigned i = 0; i < 3; i++) {
        int a = modern[i];
        /* div.rn.f32: MUFU.RCP, FCHK + 5 FFMA (FP32), a branch around
         * the slow path and its convergence barrier */
        const GpuExpand *e = look(a, "div", 4, "div.rn.f32 %f1, %f2, %f3;");
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(on_unit(e, PTXEMU_TM_UNIT_SFU), 1);
        ck_assert_uint_eq(on_unit(e, PTXEMU_TM_UNIT_FP32), 6);
        ck_assert_uint_ge(on_unit(e, PTXEMU_TM_UNIT_CTRL), 3);
        /* sin.approx: FMUL.RZ by 1/(2 pi), then MUFU.SIN */
        e = look(a, "sin", 4, "sin.approx.f32 %f1, %f2;");
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(e->n, 2);
        ck_assert_uint_eq(e->part[0].unit, PTXEMU_TM_UNIT_FP32);
        ck_assert_uint_eq(e->part[1].unit, PTXEMU_TM_UNIT_SFU);
        ck_assert_ptr_nonnull(look(a, "cos", 4, "cos.approx.ftz.f32 a, b;"));
        /* div.u64: a subroutine of integer multiplies around I2F,
         * MUFU.RCP and F2I */
        e = look(a, "div", 8, "div.u64 %rd1, %rd2, %rd3;");
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(on_unit(e, PTXEMU_TM_UNIT_SFU), 3);
        ck_assert_uint_gt(e->n, 50);
        ck_assert_uint_gt(on_unit(e, PTXEMU_TM_UNIT_INT), 40);
        /* the 64-bit row wants 8-byte operands */
        ck_assert_ptr_null(look(a, "div", 4, "div.u64 %rd1, %rd2, %rd3;"));
        /* div.rn.f64: MUFU.RCP64H then DFMA refinement */
        e = look(a, "div", 8, "div.rn.f64 %fd1, %fd2, %fd3;");
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(on_unit(e, PTXEMU_TM_UNIT_SFU), 1);
        ck_assert_uint_ge(on_unit(e, PTXEMU_TM_UNIT_FP64), 8);
        /* mul.lo.s32 is one IMAD: no row */
        ck_assert_ptr_null(look(a, "mul", 4, "mul.lo.s32 %r1, %r2, %r3;"));
        /* no text, no modifiers: no row */
        ck_assert_ptr_null(look(a, "div", 4, ""));
        /* sqrt.approx.f32 scales denormals around MUFU.SQRT (FSETP,
         * FMUL, MUFU, FMUL); the .ftz form is the MUFU alone, and its
         * own row wins over the shorter modifier list */
        e = look(a, "sqrt", 4, "sqrt.approx.f32 %f1, %f2;");
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(e->n, 4);
        ck_assert_uint_eq(on_unit(e, PTXEMU_TM_UNIT_SFU), 1);
        e = look(a, "sqrt", 4, "sqrt.approx.ftz.f32 %f1, %f2;");
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(e->n, 1);
        ck_assert_uint_eq(e->part[0].unit, PTXEMU_TM_UNIT_SFU);
        /* div.approx.ftz: MUFU.RCP then FMUL */
        e = look(a, "div", 4, "div.approx.ftz.f32 %f1, %f2, %f3;");
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(e->n, 2);
        ck_assert_uint_eq(e->part[0].unit, PTXEMU_TM_UNIT_SFU);
        ck_assert_uint_eq(e->part[1].unit, PTXEMU_TM_UNIT_FP32);
        /* 64-bit mad.lo: three IMADs (two cross products, one wide) */
        e = look(a, "mad", 8, "mad.lo.s64 %rd1, %rd2, %rd3, %rd4;");
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(e->n, 3);
        ck_assert_uint_eq(on_unit(e, PTXEMU_TM_UNIT_INT), 3);
    }
    /* tanh.approx is one MUFU.TANH from sm_75 on */
    ck_assert_ptr_null(look(GPU_EXPAND_AMPERE, "tanh", 4,
                            "tanh.approx.f32 %f1, %f2;"));
}
END_TEST

Suite *gpu_expand_suite(void)
{
    Suite *s = suite_create("gpu_expand");
    TCase *tc = tcase_create("expand");
    tcase_add_test(tc, match_rule);
    tcase_add_test(tc, arch_names);
    tcase_add_test(tc, table_well_formed);
    tcase_add_test(tc, gt200_wong);
    tcase_add_test(tc, sass_facts);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(gpu_expand_suite());
}
