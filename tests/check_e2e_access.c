/*
 * tests/check_e2e_access.c: how guest addresses are formed and which
 * accesses fault.
 *
 * Address arithmetic (PTX ISA 9.0 section 6.4.1, "Addresses as
 * Operands": "Addresses are zero-extended to the specified width as
 * needed, and truncated if the register width exceeds the state space
 * address width"): [reg+imm] with a 32-bit register wraps at 32 bits in
 * every space, and .shared/.local/.param addresses are 32 bits wide even
 * in a 64-bit register.  The corpus kernel addr_wrap (nvcc's own [%r+68]
 * with a "negative" 32-bit shared offset) and hand-written kernels, one
 * per space, check it.
 *
 * Accesses a GPU tolerates (emu/tolerate.h): with PTXEMU_ACCESS_GPU, a
 * global access in no allocation but in a mapped 2 MiB page reads and
 * writes memory that keeps its bytes; one in no mapped page, a
 * misaligned one, and every one of them with PTXEMU_ACCESS_STRICT (the
 * default) fault.
 */
#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

#include "tests/e2e_util.h"

/* ------------------------------------------------------ address wrap */

/* nvcc's PTX: s[row][col - k] with col - k = -1 reads s[row - 1][16] */
START_TEST(e2e_wrap_nvcc_shared)
{
    open_ptx("addr_wrap");
    enum { T = 64 };
    static int32_t out[T];
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    int k = 1;
    void *pp[] = {&dout, &k};
    launch("shared_rows", 1, T, 0, pp);
    dget(out, dout, sizeof(out));
    for (int t = 0; t < T; t++) {
        int i = (t / 16 + 1) * 17 + t % 16 - k;   /* row-major flat index */
        EQ_I("shared_rows", t, out[t], i * 3 + 1);
    }
    close_ptx();
}
END_TEST

/* One kernel per space.  Each 32-bit register holds an offset 16 below
 * the variable (wrapping below 0 when the variable is at offset 0) and
 * the displacement adds 16 + 4: the access is element 1.  For .shared,
 * also a 64-bit register with bits set above the 32-bit window. */
static const char wrap_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry wrap_shared(.param .u64 out)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
    " .shared .align 4 .b32 s[4];\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, s;\n"
    " add.u32 %r2, %r1, -16;\n"
    " st.shared.u32 [%r2+20], 0x1234;\n"
    " st.shared.u32 [%r1+8], 0x5678;\n"
    " ld.shared.u32 %r3, [%r1+4];\n"
    " cvt.u64.u32 %rd2, %r1;\n"
    " or.b64 %rd2, %rd2, 0x500000000;\n"
    " ld.shared.u32 %r4, [%rd2+8];\n"
    " st.global.u32 [%rd1], %r3;\n"
    " st.global.u32 [%rd1+4], %r4;\n"
    " ret;\n}\n"
    ".visible .entry wrap_local(.param .u64 out)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
    " .local .align 4 .b32 l[4];\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, l;\n"
    " add.u32 %r2, %r1, -16;\n"
    " st.local.u32 [%r2+20], 0x4321;\n"
    " ld.local.u32 %r3, [%r1+4];\n"
    " st.global.u32 [%rd1], %r3;\n"
    " ret;\n}\n"
    /* kernel parameters: out at offset 0, v at offset 8 */
    ".visible .entry wrap_param(.param .u64 out, .param .u32 v)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, -8;\n"
    " ld.param.u32 %r3, [%r1+16];\n"
    " st.global.u32 [%rd1], %r3;\n"
    " ret;\n}\n"
    /* global and generic: 0xfffffff0 + 0x20 is 0x10 (zero-extended), no
     * allocation: the fault names that address */
    ".visible .entry wrap_global(.param .u64 out)\n{\n"
    " .reg .b32 %r<8>;\n"
    " mov.u32 %r1, 0xfffffff0;\n"
    " ld.global.u32 %r3, [%r1+0x20];\n"
    " ret;\n}\n"
    ".visible .entry wrap_generic(.param .u64 out)\n{\n"
    " .reg .b32 %r<8>;\n"
    " mov.u32 %r1, 0xfffffff0;\n"
    " st.u32 [%r1+0x24], %r1;\n"
    " ret;\n}\n"
    /* a 64-bit register does not wrap at 32 bits in the global space */
    ".visible .entry nowrap_global(.param .u64 out)\n{\n"
    " .reg .b64 %rd<4>;\n"
    " mov.u64 %rd1, 0xfffffff0;\n"
    " ld.global.u32 %rd2, [%rd1+0x20];\n"
    " ret;\n}\n";

START_TEST(e2e_wrap_each_space)
{
    e2e_open_src("wrap.ptx", wrap_ptx);
    uint32_t out[2] = {0, 0};
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    void *pp[] = {&dout};
    launch("wrap_shared", 1, 1, 0, pp);
    dget(out, dout, sizeof(out));
    EQ_I("shared, 32-bit register", 0, out[0], 0x1234);
    EQ_I("shared, 64-bit register", 1, out[1], 0x5678);
    launch("wrap_local", 1, 1, 0, pp);
    dget(out, dout, 4);
    EQ_I("local", 0, out[0], 0x4321);
    uint32_t v = 0xbeef;
    void *pv[] = {&dout, &v};
    launch("wrap_param", 1, 1, 0, pv);
    dget(out, dout, 4);
    EQ_I("param", 0, out[0], 0xbeef);
    const char *msg = e2e_launch_fail("wrap_global", 1, 1, pp,
                                      PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_msg(strstr(msg, "global address 0x10;") != NULL, "%s", msg);
    msg = e2e_launch_fail("wrap_generic", 1, 1, pp,
                          PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_msg(strstr(msg, "generic address 0x14;") != NULL, "%s", msg);
    msg = e2e_launch_fail("nowrap_global", 1, 1, pp,
                          PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_msg(strstr(msg, "global address 0x100000010;") != NULL, "%s", msg);
    close_ptx();
}
END_TEST

/* ---------------------------------------------------- tolerated reads */

/* peek(p, off, out): out[0] = p[off] (bytes), then p[off] = 0x77 and
 * out[1] = p[off] again: what a GPU reads and whether a write sticks */
static const char peek_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry peek(.param .u64 p, .param .u64 off, .param .u64 out)\n"
    "{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [p];\n ld.param.u64 %rd2, [off];\n"
    " ld.param.u64 %rd3, [out];\n"
    " add.s64 %rd4, %rd1, %rd2;\n"
    " ld.global.u32 %r1, [%rd4];\n"
    " st.global.u32 [%rd3], %r1;\n"
    " st.global.u32 [%rd4], 0x77;\n"
    " ld.global.u32 %r2, [%rd4];\n"
    " st.global.u32 [%rd3+4], %r2;\n"
    " ret;\n}\n";

static ptxemu_devptr peek_out;     /* allocated by each test */

static void open_peek(ptxemu_access_checks access)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.access = access;
    ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_load_string(dev, "peek.ptx", peek_ptx, 0,
                                               &mod), PTXEMU_SUCCESS);
}

/* runs peek at p + off; returns the launch's status */
static ptxemu_status peek_at(ptxemu_devptr p, int64_t off, uint32_t got[2])
{
    void *pp[] = {&p, &off, &peek_out};
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, "peek", &f),
                     PTXEMU_SUCCESS);
    unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
    ptxemu_status st = ptxemu_launch(f, g, b, 0, pp);
    ptxemu_status sy = ptxemu_synchronize(dev);     /* clears it */
    ck_assert_int_eq(sy, st);
    if (st == PTXEMU_SUCCESS) {
        dget(got, peek_out, 8);
    }
    return st;
}

START_TEST(e2e_tolerated_gpu)
{
    open_peek(PTXEMU_ACCESS_GPU);
    uint32_t one[64], two[64], got[2];
    for (int i = 0; i < 64; i++) {
        one[i] = 0x1000u + (uint32_t)i;
        two[i] = 0x2000u + (uint32_t)i;
    }
    /* 100 bytes: the padding after it runs to 256 */
    ptxemu_devptr a = dbuf(one, 100), b = dbuf(two, sizeof(two));
    peek_out = dbuf(NULL, 8);
    /* 512 bytes before the first buffer (Rodinia's srad_v2): the first
     * page, which the context's own data maps */
    ck_assert_int_eq(peek_at(a, -512, got), PTXEMU_SUCCESS);
    EQ_I("before first", 0, got[0], 0);
    EQ_I("before first, written", 1, got[1], 0x77);
    /* just past the end of a (in its padding), twice: a write sticks */
    ck_assert_int_eq(peek_at(a, 100, got), PTXEMU_SUCCESS);
    EQ_I("past end", 0, got[0], 0);
    EQ_I("past end, written", 1, got[1], 0x77);
    ck_assert_int_eq(peek_at(a, 100, got), PTXEMU_SUCCESS);
    EQ_I("past end, again", 0, got[0], 0x77);
    /* the gap before b, and a write there leaves b alone */
    ck_assert_int_eq(peek_at(b, -4, got), PTXEMU_SUCCESS);
    EQ_I("gap", 0, got[0], 0);
    uint32_t back[64];
    dget(back, b, sizeof(back));
    for (int i = 0; i < 64; i++)
        EQ_I("b untouched", i, back[i], two[i]);
    /* inside a: an ordinary access */
    ck_assert_int_eq(peek_at(a, 8, got), PTXEMU_SUCCESS);
    EQ_I("inside", 0, got[0], 0x1002);
    /* the rest of b's page is mapped; the next page is not */
    uint64_t page = (b + 0x200000) & ~(uint64_t)0x1fffff;
    ck_assert_int_eq(peek_at(page - 4, 0, got), PTXEMU_SUCCESS);
    ck_assert_int_eq(peek_at(page, 0, got), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_msg(strstr(ptxemu_last_error_message(dev), "out-of-bounds"),
                  "%s", ptxemu_last_error_message(dev));
    /* misaligned still faults */
    ck_assert_int_eq(peek_at(a, 102, got), PTXEMU_ERROR_MISALIGNED);
    /* below the device range: nothing is mapped there */
    ck_assert_int_eq(peek_at(a, -(int64_t)0x400000, got),
                     PTXEMU_ERROR_ILLEGAL_ADDRESS);
    /* a page whose allocations are all freed is unmapped again */
    ptxemu_devptr big = 0;
    ck_assert_int_eq(ptxemu_malloc(dev, 6u << 20, &big), PTXEMU_SUCCESS);
    ptxemu_devptr last = dbuf(NULL, 64);
    ck_assert_int_eq(peek_at(last, 64, got), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(dev, last), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(dev, big), PTXEMU_SUCCESS);
    ck_assert_int_eq(peek_at(last, 64, got), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    close_ptx();
}
END_TEST

START_TEST(e2e_tolerated_strict)
{
    open_peek(PTXEMU_ACCESS_STRICT);
    uint32_t got[2];
    ptxemu_devptr a = dbuf(NULL, 100);
    peek_out = dbuf(NULL, 8);
    ck_assert_int_eq(peek_at(a, -512, got), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(peek_at(a, 100, got), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(peek_at(a, 96, got), PTXEMU_SUCCESS);
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ suite */

static Suite *e2e_access_suite(void)
{
    Suite *s = suite_create("e2e_access");
    TCase *tc = tcase_create("access");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, NULL, close_ptx);
    tcase_add_test(tc, e2e_wrap_nvcc_shared);
    tcase_add_test(tc, e2e_wrap_each_space);
    tcase_add_test(tc, e2e_tolerated_gpu);
    tcase_add_test(tc, e2e_tolerated_strict);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(e2e_access_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
