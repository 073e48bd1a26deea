/*
 * tests/check_link.c: linking PTX modules by name (ptx/link.c through
 * ptxemu_module_load_linked): nvcc's relocatable device code (two
 * translation units, tests/link/rdc_{a,b}.cu) against a host reference,
 * and hand-written modules for each linkage rule of ptx/link.h.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

static char *slurp(const char *rel, size_t *len)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void run1(ptxemu_module *m, const char *kernel, unsigned grid,
                 unsigned block, void **params)
{
    ptxemu_function *k = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(m, kernel, &k),
                     PTXEMU_SUCCESS);
    unsigned g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    ck_assert_int_eq(ptxemu_launch(k, g, b, 0, params), PTXEMU_SUCCESS);
}

START_TEST(test_rdc_two_units)
{
    size_t la, lb;
    char *a = slurp("tests/link/rdc_a.sm80.ptx", &la);
    char *b = slurp("tests/link/rdc_b.sm80.ptx", &lb);
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(NULL, &d), PTXEMU_SUCCESS);
    /* Alone, rdc_b cannot run: lookup() has no body. */
    ptxemu_module *m = NULL;
    const char *names[] = {"rdc_b.ptx", "rdc_a.ptx"};
    const char *srcs[] = {b, a};
    size_t lens[] = {lb, la};
    ck_assert_int_eq(ptxemu_module_load_linked(d, 2, names, srcs, lens, &m),
                     PTXEMU_SUCCESS);
    enum { N = 200 };
    static const int table[8] = {1, 2, 3, 5, 8, 13, 21, 34};
    int in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = i * 7 + 3;
    }
    ptxemu_devptr din, dout, dcnt;
    ck_assert_int_eq(ptxemu_malloc(d, sizeof(in), &din), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(d, sizeof(out), &dout), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(d, 4, &dcnt), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_htod(d, din, in, sizeof(in)),
                     PTXEMU_SUCCESS);
    /* scale is defined in rdc_a and written by the host through the
     * linked module. */
    ptxemu_devptr dscale;
    size_t ssize;
    ck_assert_int_eq(ptxemu_module_get_global(m, "scale", &dscale, &ssize),
                     PTXEMU_SUCCESS);
    ck_assert_uint_eq(ssize, 4);
    int scale = 0;
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, &scale, dscale, 4),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(scale, 3);                     /* its initializer */
    scale = 5;
    ck_assert_int_eq(ptxemu_memcpy_htod(d, dscale, &scale, 4),
                     PTXEMU_SUCCESS);
    int n = N;
    void *p[] = {&din, &dout, &n};
    run1(m, "_Z5applyPKiPii", 2, 128, p);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, out, dout, sizeof(out)),
                     PTXEMU_SUCCESS);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(out[i], table[in[i] & 7] * 5 + 5);
    }
    /* Each unit's static counter is its own: lookup() (unit a) counted
     * N calls, apply (unit b) added 2 per thread to b's. */
    int cnt = -1;
    void *pc[] = {&dcnt};
    run1(m, "_Z7count_aPi", 1, 1, pc);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, &cnt, dcnt, 4), PTXEMU_SUCCESS);
    ck_assert_int_eq(cnt, N);
    run1(m, "_Z7count_bPi", 1, 1, pc);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, &cnt, dcnt, 4), PTXEMU_SUCCESS);
    ck_assert_int_eq(cnt, 2 * N);
    ptxemu_device_destroy(d);
    free(a);
    free(b);
}
END_TEST

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

/* Unit 1 declares get() and uses the variables; unit 2 and 3 define
 * them with different linkage. */
static const char use_ptx[] =
    HDR
    ".extern .func (.param .b32 r) get();\n"
    ".extern .global .align 4 .u32 shared_v;\n"
    ".weak .global .align 4 .u32 weak_v = 1;\n"
    ".global .align 4 .u32 priv = 100;\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "\t.reg .b32 %r<6>;\n"
    "\t.reg .b64 %rd<2>;\n"
    "\tld.param.u64 %rd1, [out];\n"
    "\t{\n"
    "\t.param .b32 rv;\n"
    "\tcall.uni (rv), get, ();\n"
    "\tld.param.b32 %r1, [rv];\n"
    "\t}\n"
    "\tld.global.u32 %r2, [shared_v];\n"
    "\tld.global.u32 %r3, [weak_v];\n"
    "\tld.global.u32 %r4, [priv];\n"
    "\tst.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
    "\tret;\n"
    "}\n";

static const char def_ptx[] =
    HDR
    ".visible .global .align 4 .u32 shared_v = 42;\n"
    ".visible .global .align 4 .u32 weak_v = 2;\n"     /* strong wins */
    ".global .align 4 .u32 priv = 200;\n"              /* private */
    ".weak .func (.param .b32 r) get()\n"
    "{\n"
    "\tst.param.b32 [r], 7;\n"
    "\tret;\n"
    "}\n";

static const char strong_get_ptx[] =
    HDR
    ".visible .func (.param .b32 r) get()\n"
    "{\n"
    "\tst.param.b32 [r], 9;\n"
    "\tret;\n"
    "}\n";

static ptxemu_status load_n(ptxemu_device *d, unsigned n,
                            const char *const *srcs, ptxemu_module **m)
{
    static const char *const names[] = {"u0.ptx", "u1.ptx", "u2.ptx"};
    return ptxemu_module_load_linked(d, n, names, srcs, NULL, m);
}

START_TEST(test_linkage_rules)
{
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(NULL, &d), PTXEMU_SUCCESS);
    ptxemu_devptr out;
    ck_assert_int_eq(ptxemu_malloc(d, 16, &out), PTXEMU_SUCCESS);
    void *p[] = {&out};
    uint32_t r[4];

    /* The weak get() of def_ptx, its strong weak_v, each unit's priv. */
    const char *two[] = {use_ptx, def_ptx};
    ptxemu_module *m = NULL;
    ck_assert_int_eq(load_n(d, 2, two, &m), PTXEMU_SUCCESS);
    run1(m, "k", 1, 1, p);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, r, out, 16), PTXEMU_SUCCESS);
    ck_assert_uint_eq(r[0], 7);
    ck_assert_uint_eq(r[1], 42);
    ck_assert_uint_eq(r[2], 2);
    ck_assert_uint_eq(r[3], 100);
    ptxemu_module_unload(m);

    /* A strong get() beats the weak one, in whatever order. */
    const char *three[] = {use_ptx, def_ptx, strong_get_ptx};
    ck_assert_int_eq(load_n(d, 3, three, &m), PTXEMU_SUCCESS);
    run1(m, "k", 1, 1, p);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, r, out, 16), PTXEMU_SUCCESS);
    ck_assert_uint_eq(r[0], 9);
    ptxemu_module_unload(m);
    const char *three_b[] = {strong_get_ptx, use_ptx, def_ptx};
    ck_assert_int_eq(load_n(d, 3, three_b, &m), PTXEMU_SUCCESS);
    run1(m, "k", 1, 1, p);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, r, out, 16), PTXEMU_SUCCESS);
    ck_assert_uint_eq(r[0], 9);
    ptxemu_module_unload(m);
    ptxemu_device_destroy(d);
}
END_TEST

START_TEST(test_link_errors)
{
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(NULL, &d), PTXEMU_SUCCESS);
    ptxemu_module *m = (ptxemu_module *)&m;
    /* Two strong definitions of get(): located at the second, with a
     * note at the first. */
    const char *dup[] = {strong_get_ptx, use_ptx, strong_get_ptx};
    ck_assert_int_eq(load_n(d, 3, dup, &m), PTXEMU_ERROR_INVALID_PTX);
    ck_assert_ptr_null(m);
    const char *msg = ptxemu_last_error_message(d);
    ck_assert_msg(strstr(msg, "u2.ptx:4:32: error: multiple definition of "
                              "'get'") != NULL, "%s", msg);
    ck_assert_msg(strstr(msg, "u0.ptx:4:32: note: 'get' was first defined "
                              "here") != NULL, "%s", msg);
    /* A parse error in one input is reported with its own file name. */
    const char *bad[] = {use_ptx, HDR "\n.visible .entry x()\n{\n\tfoo;\n}\n"};
    ck_assert_int_eq(load_n(d, 2, bad, &m), PTXEMU_ERROR_INVALID_PTX);
    msg = ptxemu_last_error_message(d);
    ck_assert_msg(strstr(msg, "u1.ptx:7:2: error:") != NULL, "%s", msg);
    /* Mismatched address sizes. */
    const char *as[] = {use_ptx,
                        ".version 8.0\n.target sm_80\n.address_size 32\n"};
    ck_assert_int_eq(load_n(d, 2, as, &m), PTXEMU_ERROR_INVALID_PTX);
    msg = ptxemu_last_error_message(d);
    ck_assert_msg(strstr(msg, "u1.ptx:1:1: error: '.address_size'") != NULL,
                  "%s", msg);
    /* Nothing to link. */
    ck_assert_int_eq(ptxemu_module_load_linked(d, 0, NULL, dup, NULL, &m),
                     PTXEMU_ERROR_INVALID_VALUE);
    /* The device still works. */
    const char *two[] = {use_ptx, def_ptx};
    ck_assert_int_eq(load_n(d, 2, two, &m), PTXEMU_SUCCESS);
    ptxemu_device_destroy(d);
}
END_TEST

/* A fault in the second input names that input's file and line. */
START_TEST(test_fault_location)
{
    static const char caller[] =
        HDR
        ".extern .func poke(.param .b64 p);\n"
        ".visible .entry k()\n"
        "{\n"
        "\t{\n"
        "\t.param .b64 a;\n"
        "\tst.param.b64 [a], 8;\n"
        "\tcall.uni poke, (a);\n"
        "\t}\n"
        "\tret;\n"
        "}\n";
    static const char callee[] =
        HDR
        ".visible .func poke(.param .b64 p)\n"
        "{\n"
        "\t.reg .b64 %rd<2>;\n"
        "\tld.param.b64 %rd1, [p];\n"
        "\tst.global.u32 [%rd1], 1;\n"                  /* line 8 */
        "\tret;\n"
        "}\n";
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(NULL, &d), PTXEMU_SUCCESS);
    const char *srcs[] = {caller, callee};
    ptxemu_module *m = NULL;
    ck_assert_int_eq(load_n(d, 2, srcs, &m), PTXEMU_SUCCESS);
    ptxemu_function *k = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(m, "k", &k), PTXEMU_SUCCESS);
    unsigned g[3] = {1, 1, 1};
    ck_assert_int_ne(ptxemu_launch(k, g, g, 0, NULL), PTXEMU_SUCCESS);
    const char *msg = ptxemu_last_error_message(d);
    ck_assert_msg(strstr(msg, "at u1.ptx:8:") != NULL, "%s", msg);
    ck_assert_msg(strstr(msg, "st.global.u32 [%rd1], 1;") != NULL, "%s", msg);
    ptxemu_device_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("link");
    TCase *tc = tcase_create("link");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rdc_two_units);
    tcase_add_test(tc, test_linkage_rules);
    tcase_add_test(tc, test_link_errors);
    tcase_add_test(tc, test_fault_location);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
