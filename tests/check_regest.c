/*
 * tests/check_regest.c: the register estimate (emu/regest.h) on small
 * kernels whose largest live set was worked out by hand, instruction by
 * instruction (the comments give the live sets; 64-bit registers weigh
 * 2, predicates 0), and the caps ptxas applies (255, .maxnreg,
 * __launch_bounds__).
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/regest.h"
#include "tests/emutest.h"

/* A module with a callee g whose peak live set is {t1 t2 t3 t4 t5}
 * (t0 dies at t5's add: 5 units), and kernel k whose own peak is
 * {rd1 r1 r2} = 4 units, with {rd1 r1} = 3 units live across the call:
 * k needs 3 + 5 = 8 units with g (ptxas counts a kernel's callees in
 * its registers: see emu/regest.h). */
#define CALLEE                                                            \
    ".func (.param .b32 rv) g(.param .b32 a)\n{\n"                       \
    ".reg .b32 %t<8>;\n"                                                  \
    "ld.param.u32 %t0, [a];\n"                                            \
    "add.u32 %t1, %t0, 1;\nadd.u32 %t2, %t0, 2;\nadd.u32 %t3, %t0, 3;\n" \
    "add.u32 %t4, %t0, 4;\nadd.u32 %t5, %t0, 5;\n"                        \
    "add.u32 %t6, %t1, %t2;\nadd.u32 %t6, %t6, %t3;\n"                    \
    "add.u32 %t6, %t6, %t4;\nadd.u32 %t6, %t6, %t5;\n"                    \
    "st.param.b32 [rv], %t6;\nret;\n}\n"
#define CALLER(call)                                                      \
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n"              \
    ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"                               \
    "ld.param.u64 %rd1, [p0];\nld.param.u32 %r1, [p1];\n"                 \
    "{\n.param .b32 pa;\n.param .b32 pr;\n"                               \
    "st.param.b32 [pa], %r1;\n" call "ld.param.b32 %r2, [pr];\n}\n"      \
    "add.u32 %r3, %r2, %r1;\nst.global.u32 [%rd1], %r3;\nret;\n}\n"
#define MODHDR ".version 8.0\n.target sm_80\n.address_size 64\n"

/* kernel k's and function g's registers of module src */
static void call_regs(const char *src, uint32_t *k_regs, uint32_t *g_own)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, src);
    EmuFunc *k = emu_module_kernel(m, "k");
    ck_assert_ptr_nonnull(k);
    *k_regs = k->regs;
    *g_own = UINT32_MAX;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (m->funcs[i] && !strcmp(m->ir->funcs[i]->name, "g")) {
            *g_own = m->funcs[i]->reg_pressure;
        }
        /* emu_regest_module freed what it needed */
        ck_assert_ptr_null(m->funcs[i] ? m->funcs[i]->call_across : NULL);
    }
    emu_module_free(m);
    emu_device_free(d);
}

START_TEST(test_call_tree)
{
    uint32_t kr, g;
    call_regs(MODHDR CALLEE CALLER("call.uni (pr), g, (pa);\n"), &kr, &g);
    ck_assert_uint_eq(g, 5);
    ck_assert_uint_eq(kr, 3 + 5 + EMU_REGEST_RESERVED);
    /* the same kernel without the call: its own 4 units */
    call_regs(MODHDR CALLEE CALLER("mov.u32 %r2, 0;\n"
                                   "st.param.b32 [pr], %r2;\n"), &kr, &g);
    ck_assert_uint_eq(kr, 4 + EMU_REGEST_RESERVED);
}
END_TEST

/* g calls itself: the estimate ends (a call back into the tree adds
 * nothing more) and counts g once with what k keeps across its call */
START_TEST(test_call_recursive)
{
    uint32_t kr, g;
    call_regs(MODHDR
        ".func (.param .b32 rv) g(.param .b32 a);\n"
        ".func (.param .b32 rv) g(.param .b32 a)\n{\n"
        ".reg .pred %p<2>;\n.reg .b32 %t<4>;\n"
        "ld.param.u32 %t0, [a];\n"
        "setp.eq.u32 %p1, %t0, 0;\n@%p1 bra DONE;\n"
        "add.u32 %t1, %t0, -1;\n"
        "{\n.param .b32 qa;\n.param .b32 qr;\n"
        "st.param.b32 [qa], %t1;\ncall.uni (qr), g, (qa);\n"
        "ld.param.b32 %t2, [qr];\n}\n"
        "add.u32 %t0, %t0, %t2;\n"
        "DONE:\nst.param.b32 [rv], %t0;\nret;\n}\n"
        CALLER("call.uni (pr), g, (pa);\n"), &kr, &g);
    ck_assert_uint_ge(g, 2);                /* {t0 t1} at least */
    ck_assert_uint_le(g, 3);
    /* across k's call 3; g's own pressure plus what g keeps across its
     * own call (t0: 1 unit), counted once */
    ck_assert_uint_eq(kr, 3 + 1 + g + EMU_REGEST_RESERVED);
}
END_TEST

Suite *regest_suite(void);

#define HDR                                                               \
    ".version 8.0\n.target sm_80\n.address_size 64\n"                     \
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n"
#define REGS                                                              \
    "{\n.reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"

/* registers per thread the decoder gives kernel k of BODY */
static uint32_t regs_of(const char *dirs, const char *body)
{
    char src[4096];
    snprintf(src, sizeof(src), "%s%s%s%s\nret;\n}\n", HDR, dirs, REGS,
             body);
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, src);
    EmuFunc *k = emu_module_kernel(m, "k");
    ck_assert_ptr_nonnull(k);
    uint32_t r = k->regs;
    emu_module_free(m);
    emu_device_free(d);
    return r;
}

/* live sets after each instruction: {rd1} {rd1 r1} {rd1 r1 r2}
 * {rd1 r2 r3} {rd1 r4} {}; before the 4th add {rd1 r2 r3}: peak 4 */
START_TEST(test_straight)
{
    ck_assert_uint_eq(regs_of("",
        "ld.param.u64 %rd1, [p0];\n"
        "ld.param.u32 %r1, [p1];\n"
        "add.u32 %r2, %r1, 1;\n"
        "add.u32 %r3, %r1, 2;\n"
        "add.u32 %r4, %r2, %r3;\n"
        "st.global.u32 [%rd1], %r4;\n"), 4 + EMU_REGEST_RESERVED);
}
END_TEST

/* the same with 64-bit values: {rd1 rd2 rd3} then {rd1 rd3 rd4}:
 * 3 x 2 = 6; a predicate computed beside them adds nothing */
START_TEST(test_wide)
{
    ck_assert_uint_eq(regs_of("",
        "ld.param.u64 %rd1, [p0];\n"
        "ld.param.u64 %rd2, [p0];\n"
        "add.u64 %rd3, %rd2, 1;\n"
        "add.u64 %rd4, %rd2, 2;\n"
        "setp.eq.u64 %p1, %rd3, %rd4;\n"
        "add.u64 %rd5, %rd3, %rd4;\n"
        "@%p1 add.u64 %rd5, %rd5, 1;\n"
        "st.global.u64 [%rd1], %rd5;\n"), 6 + EMU_REGEST_RESERVED);
}
END_TEST

/* a loop: r5 is read only at the top of the body, but the back edge
 * keeps it live through the whole body; at `add r7` the live set is
 * {rd1 r1 r3 r5 r6 r7} = 7 units (a scan in layout order, blind to the
 * back edge, would end r5 at its one use and find 6) */
START_TEST(test_loop)
{
    ck_assert_uint_eq(regs_of("",
        "ld.param.u64 %rd1, [p0];\n"
        "ld.param.u32 %r1, [p1];\n"
        "mov.u32 %r2, 0;\n"
        "mov.u32 %r3, 0;\n"
        "mov.u32 %r5, 7;\n"
        "L:\n"
        "add.u32 %r4, %r3, %r5;\n"
        "add.u32 %r3, %r4, %r2;\n"
        "add.u32 %r6, %r2, 1;\n"
        "add.u32 %r7, %r2, 2;\n"
        "add.u32 %r2, %r6, %r7;\n"
        "setp.lt.u32 %p1, %r2, %r1;\n"
        "@%p1 bra L;\n"
        "st.global.u32 [%rd1], %r3;\n"), 7 + EMU_REGEST_RESERVED);
}
END_TEST

/* a diamond: r5 lives across both arms to the join; the then arm peaks
 * at {rd1 r1 r2 r5} / {rd1 r2 r3 r5} = 5, the else arm at {rd1 r4 r5}
 * = 4; values of one arm never count in the other */
START_TEST(test_diamond)
{
    ck_assert_uint_eq(regs_of("",
        "ld.param.u64 %rd1, [p0];\n"
        "ld.param.u32 %r1, [p1];\n"
        "mov.u32 %r5, 9;\n"
        "setp.eq.u32 %p1, %r1, 0;\n"
        "@%p1 bra ELSE;\n"
        "add.u32 %r2, %r1, 1;\n"
        "add.u32 %r3, %r1, 2;\n"
        "add.u32 %r4, %r2, %r3;\n"
        "bra JOIN;\n"
        "ELSE:\n"
        "mov.u32 %r4, 5;\n"
        "JOIN:\n"
        "add.u32 %r4, %r4, %r5;\n"
        "st.global.u32 [%rd1], %r4;\n"), 5 + EMU_REGEST_RESERVED);
}
END_TEST

/* many declared registers, few live at once: 12 values chained, each
 * read only by the next, which may take its register: before each add
 * {rd1 previous}, after it {rd1 next}: 3 */
START_TEST(test_declared_not_live)
{
    ck_assert_uint_eq(regs_of("",
        "ld.param.u64 %rd1, [p0];\n"
        "ld.param.u32 %r1, [p1];\n"
        "add.u32 %r2, %r1, 1;\nadd.u32 %r3, %r2, 1;\n"
        "add.u32 %r4, %r3, 1;\nadd.u32 %r5, %r4, 1;\n"
        "add.u32 %r6, %r5, 1;\nadd.u32 %r7, %r6, 1;\n"
        "add.u32 %r8, %r7, 1;\nadd.u32 %r9, %r8, 1;\n"
        "add.u32 %r10, %r9, 1;\nadd.u32 %r11, %r10, 1;\n"
        "add.u32 %r12, %r11, 1;\n"
        "st.global.u32 [%rd1], %r12;\n"), 3 + EMU_REGEST_RESERVED);
}
END_TEST

/* .maxnreg bounds the count */
START_TEST(test_maxnreg_directive)
{
    ck_assert_uint_eq(regs_of(".maxnreg 5\n",
        "ld.param.u64 %rd1, [p0];\n"
        "ld.param.u64 %rd2, [p0];\n"
        "add.u64 %rd3, %rd2, 1;\n"
        "add.u64 %rd4, %rd2, 2;\n"
        "add.u64 %rd5, %rd3, %rd4;\n"
        "st.global.u64 [%rd1], %rd5;\n"), 5);
}
END_TEST

/* the caps, directly */
START_TEST(test_caps)
{
    IrFunc f;
    memset(&f, 0, sizeof(f));
    ck_assert_uint_eq(emu_regest_regs(0, &f), EMU_REGEST_MIN);
    ck_assert_uint_eq(emu_regest_regs(30, &f), 30 + EMU_REGEST_RESERVED);
    ck_assert_uint_eq(emu_regest_regs(600, &f), 255);
    ck_assert_uint_eq(emu_regest_regs(UINT32_MAX, &f), 255);
    f.maxnreg = 32;
    ck_assert_uint_eq(emu_regest_regs(100, &f), 32);
    ck_assert_uint_eq(emu_regest_regs(10, &f), 10 + EMU_REGEST_RESERVED);
    /* __launch_bounds__(256, 4): 65536 / (4 x 256) = 64 per thread */
    f.maxnreg = 0;
    f.maxntid[0] = 256;
    f.minnctapersm = 4;
    ck_assert_uint_eq(emu_regest_regs(100, &f), 64);
    /* (1000, 1): 1024 threads after rounding to warps: 64 */
    f.maxntid[0] = 1000;
    f.minnctapersm = 1;
    ck_assert_uint_eq(emu_regest_regs(100, &f), 64);
    /* (96, 3): 288 threads, 227 -> 224 in units of 8 */
    f.maxntid[0] = 96;
    f.minnctapersm = 3;
    ck_assert_uint_eq(emu_regest_regs(250, &f), 224);
}
END_TEST

Suite *regest_suite(void)
{
    Suite *s = suite_create("regest");
    TCase *tc = tcase_create("liveness");
    tcase_add_test(tc, test_straight);
    tcase_add_test(tc, test_wide);
    tcase_add_test(tc, test_loop);
    tcase_add_test(tc, test_diamond);
    tcase_add_test(tc, test_declared_not_live);
    tcase_add_test(tc, test_maxnreg_directive);
    tcase_add_test(tc, test_caps);
    tcase_add_test(tc, test_call_tree);
    tcase_add_test(tc, test_call_recursive);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(regest_suite());
}
