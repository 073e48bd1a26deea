/*
 * tests/check_api.c: the public host API (runtime/ptxemu.h) and the
 * `ptxemu run` argument specs (runtime/argspec.h).
 *
 *  - status: codes, names and their CUDA meanings.
 *  - argspec: scalars of every type with range checks, f16/bf16
 *    rounding, buffers (zero, iota, fill, rand, values, file), hex bytes.
 *  - module: loading from a string and a file, located errors, lookups
 *    of kernels (with their parameter layout) and globals.
 *  - memory: malloc/memcpy/memset round trips and range errors.
 *  - launch: vecadd-like kernels against host-computed results, mixed
 *    parameter types (u8, u64, f32, a .b8 struct with .align, u16), .global
 *    and .const variables written from the host, bad launch configs, an
 *    out-of-bounds store (its code and message) followed by a good
 *    launch, and several host threads sharing one device.
 */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/argspec.h"
#include "runtime/ptxemu.h"

Suite *api_suite(void);

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

/* vecAdd as nvcc emits it (examples/vecadd.ptx), plus an out-of-bounds
 * store: thread t stores t to p[t]; p has fewer than blockDim elements. */
static const char vec_ptx[] =
    HDR
    ".visible .entry vecAdd(\n"                                 /* 4 */
    "\t.param .u64 vecAdd_param_0,\n"
    "\t.param .u64 vecAdd_param_1,\n"
    "\t.param .u64 vecAdd_param_2,\n"
    "\t.param .u32 vecAdd_param_3\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<2>;\n"
    "\t.reg .f32 \t%f<4>;\n"
    "\t.reg .b32 \t%r<6>;\n"
    "\t.reg .b64 \t%rd<11>;\n"
    "\tld.param.u64 \t%rd1, [vecAdd_param_0];\n"
    "\tld.param.u64 \t%rd2, [vecAdd_param_1];\n"
    "\tld.param.u64 \t%rd3, [vecAdd_param_2];\n"
    "\tld.param.u32 \t%r2, [vecAdd_param_3];\n"
    "\tmov.u32 \t%r3, %ctaid.x;\n"
    "\tmov.u32 \t%r4, %ntid.x;\n"
    "\tmov.u32 \t%r5, %tid.x;\n"
    "\tmad.lo.s32 \t%r1, %r3, %r4, %r5;\n"
    "\tsetp.ge.s32 \t%p1, %r1, %r2;\n"
    "\t@%p1 bra \t$L__BB0_2;\n"
    "\tcvta.to.global.u64 \t%rd4, %rd1;\n"
    "\tmul.wide.s32 \t%rd5, %r1, 4;\n"
    "\tadd.s64 \t%rd6, %rd4, %rd5;\n"
    "\tcvta.to.global.u64 \t%rd7, %rd2;\n"
    "\tadd.s64 \t%rd8, %rd7, %rd5;\n"
    "\tld.global.f32 \t%f1, [%rd8];\n"
    "\tld.global.f32 \t%f2, [%rd6];\n"
    "\tadd.f32 \t%f3, %f2, %f1;\n"
    "\tcvta.to.global.u64 \t%rd9, %rd3;\n"
    "\tadd.s64 \t%rd10, %rd9, %rd5;\n"
    "\tst.global.f32 \t[%rd10], %f3;\n"
    "$L__BB0_2:\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry oob_store(\n"                              /* 40 */
    "\t.param .u64 oob_store_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .b32 \t%r<2>;\n"
    "\t.reg .b64 \t%rd<5>;\n"
    "\tld.param.u64 \t%rd1, [oob_store_param_0];\n"
    "\tmov.u32 \t%r1, %tid.x;\n"
    "\tcvta.to.global.u64 \t%rd2, %rd1;\n"
    "\tmul.wide.u32 \t%rd3, %r1, 4;\n"
    "\tadd.s64 \t%rd4, %rd2, %rd3;\n"
    "\tst.global.u32 \t[%rd4], %r1;\n"                         /* 51 */
    "\tret;\n"
    "}\n";
#define OOB_LINE 51

/* Mixed parameter types: each is stored to out so that the layout can be
 * checked end to end.  Offsets: a 0, out 8, f 16, s 24 (align 8), h 40;
 * 48 bytes in all. */
static const char params_ptx[] =
    HDR
    ".visible .entry params_k(\n"
    "\t.param .u8 params_k_a,\n"
    "\t.param .u64 params_k_out,\n"
    "\t.param .f32 params_k_f,\n"
    "\t.param .align 8 .b8 params_k_s[16],\n"
    "\t.param .u16 params_k_h\n"
    ")\n"
    "{\n"
    "\t.reg .b16 \t%rs<3>;\n"
    "\t.reg .b32 \t%r<4>;\n"
    "\t.reg .f32 \t%f<2>;\n"
    "\t.reg .b64 \t%rd<4>;\n"
    "\tld.param.u8 \t%rs1, [params_k_a];\n"
    "\tld.param.u64 \t%rd1, [params_k_out];\n"
    "\tld.param.f32 \t%f1, [params_k_f];\n"
    "\tld.param.u32 \t%r1, [params_k_s];\n"
    "\tld.param.u64 \t%rd2, [params_k_s+8];\n"
    "\tld.param.u16 \t%rs2, [params_k_h];\n"
    "\tcvta.to.global.u64 \t%rd3, %rd1;\n"
    "\tcvt.u32.u16 \t%r2, %rs1;\n"
    "\tst.global.u32 \t[%rd3], %r2;\n"
    "\tst.global.f32 \t[%rd3+4], %f1;\n"
    "\tst.global.u32 \t[%rd3+8], %r1;\n"
    "\tst.global.u64 \t[%rd3+16], %rd2;\n"
    "\tcvt.u32.u16 \t%r3, %rs2;\n"
    "\tst.global.u32 \t[%rd3+24], %r3;\n"
    "\tret;\n"
    "}\n";

/* A .global counter and a .const table, read by a kernel. */
static const char globals_ptx[] =
    HDR
    ".visible .global .align 4 .u32 gcount = 7;\n"
    ".const .align 4 .f32 coef[4] = {0f3F800000, 0f40000000, 0f40400000, "
    "0f40800000};\n"
    ".visible .entry use_globals(\n"
    "\t.param .u64 use_globals_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .b32 \t%r<3>;\n"
    "\t.reg .f32 \t%f<2>;\n"
    "\t.reg .b64 \t%rd<3>;\n"
    "\tld.param.u64 \t%rd1, [use_globals_param_0];\n"
    "\tcvta.to.global.u64 \t%rd2, %rd1;\n"
    "\tld.const.f32 \t%f1, [coef+4];\n"
    "\tld.global.u32 \t%r1, [gcount];\n"
    "\tst.global.f32 \t[%rd2], %f1;\n"
    "\tst.global.u32 \t[%rd2+4], %r1;\n"
    "\tatom.global.add.u32 \t%r2, [gcount], 1;\n"
    "\tret;\n"
    "}\n";

static ptxemu_device *new_dev(void)
{
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(NULL, &d), PTXEMU_SUCCESS);
    ck_assert_ptr_nonnull(d);
    return d;
}

static ptxemu_module *load_ok(ptxemu_device *d, const char *src)
{
    ptxemu_module *m = NULL;
    ptxemu_status st = ptxemu_module_load_string(d, "t.ptx", src, 0, &m);
    ck_assert_msg(st == PTXEMU_SUCCESS, "load failed (%s):\n%s",
                  ptxemu_status_name(st), ptxemu_last_error_message(d));
    ck_assert_ptr_nonnull(m);
    return m;
}

/* ------------------------------------------------------------ status */

START_TEST(test_status)
{
    ck_assert_str_eq(ptxemu_status_name(PTXEMU_SUCCESS), "PTXEMU_SUCCESS");
    ck_assert_str_eq(ptxemu_status_name(PTXEMU_ERROR_ILLEGAL_ADDRESS),
                     "PTXEMU_ERROR_ILLEGAL_ADDRESS");
    ck_assert_str_eq(ptxemu_status_name((ptxemu_status)999),
                     "PTXEMU_ERROR_UNKNOWN");
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_SUCCESS), 0);
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_ERROR_INVALID_VALUE), 1);
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_ERROR_OUT_OF_MEMORY), 2);
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_ERROR_LAUNCH_CONFIG), 9);
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_ERROR_INVALID_PTX), 218);
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_ERROR_NOT_FOUND), 500);
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_ERROR_ILLEGAL_ADDRESS),
                     700);
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_ERROR_MISALIGNED), 716);
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_ERROR_TRAP), 719);
    ck_assert_int_eq(ptxemu_status_cuda_error(PTXEMU_ERROR_ASSERT), 710);
    for (int s = 0; s < PTXEMU_STATUS_COUNT; s++) {
        ck_assert_ptr_nonnull(ptxemu_status_string((ptxemu_status)s));
        ck_assert(strncmp(ptxemu_status_name((ptxemu_status)s), "PTXEMU_",
                          7) == 0);
    }
    ck_assert_str_eq(ptxemu_space_name(PTXEMU_SPACE_SHARED), "shared");
}
END_TEST

START_TEST(test_device_options)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    ck_assert_uint_eq(o.size, sizeof(o));
    o.insn_limit = 1000000;
    o.diverge_order = PTXEMU_DIVERGE_MAJORITY_LAST;
    o.collect_stats = 1;
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(&o, &d), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_last_error(d), PTXEMU_SUCCESS);
    ck_assert_str_eq(ptxemu_last_error_message(d), "");
    ptxemu_device_destroy(d);
    o.diverge_order = (ptxemu_diverge_order)7;
    ck_assert_int_eq(ptxemu_device_create(&o, &d), PTXEMU_ERROR_INVALID_VALUE);
    o.diverge_order = PTXEMU_DIVERGE_TAKEN_FIRST;
    o.size = 3;
    ck_assert_int_eq(ptxemu_device_create(&o, &d), PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_device_create(NULL, NULL),
                     PTXEMU_ERROR_INVALID_VALUE);
    ptxemu_device_destroy(NULL);
}
END_TEST

/* ------------------------------------------------------------ argspec */

static ArgSpec parse_ok_spec(const char *s)
{
    ArgSpec a;
    char err[256];
    int r = argspec_parse(s, &a, err, sizeof(err));
    ck_assert_msg(r == ARGSPEC_OK, "'%s': %s", s, err);
    return a;
}

static void parse_bad(const char *s, int want, const char *msg)
{
    ArgSpec a;
    char err[256];
    int r = argspec_parse(s, &a, err, sizeof(err));
    argspec_free(&a);
    ck_assert_msg(r == want, "'%s': got %d, want %d (%s)", s, r, want, err);
    ck_assert_msg(strstr(err, msg) != NULL, "'%s': '%s' not in '%s'", s, msg,
                  err);
}

static uint64_t scalar_bits(const char *s, unsigned size)
{
    ArgSpec a = parse_ok_spec(s);
    ck_assert_int_eq(a.kind, ARG_SCALAR);
    ck_assert_uint_eq(a.nbytes, size);
    uint64_t v = 0;
    memcpy(&v, a.bytes, size);
    argspec_free(&a);
    return v;
}

START_TEST(test_argspec_scalars)
{
    ck_assert_uint_eq(scalar_bits("u8:255", 1), 255);
    ck_assert_uint_eq(scalar_bits("u16:0xbeef", 2), 0xbeef);
    ck_assert_uint_eq(scalar_bits("u32:5", 4), 5);
    ck_assert_uint_eq(scalar_bits("u64:18446744073709551615", 8), UINT64_MAX);
    ck_assert_uint_eq(scalar_bits("s8:-128", 1), 0x80);
    ck_assert_uint_eq(scalar_bits("s16:-2", 2), 0xfffe);
    ck_assert_uint_eq(scalar_bits("s32:-3", 4), 0xfffffffd);
    ck_assert_uint_eq(scalar_bits("s64:-3", 8), (uint64_t)-3);
    ck_assert_uint_eq(scalar_bits("b8:-1", 1), 0xff);
    ck_assert_uint_eq(scalar_bits("b32:0xdeadbeef", 4), 0xdeadbeef);
    ck_assert_uint_eq(scalar_bits("b64:0x8000000000000000", 8),
                      0x8000000000000000ull);
    ck_assert_uint_eq(scalar_bits("u32:010", 4), 10);   /* not octal */
    ck_assert_uint_eq(scalar_bits("f32:1.5", 4), 0x3fc00000);
    ck_assert_uint_eq(scalar_bits("f32:-0", 4), 0x80000000);
    ck_assert_uint_eq(scalar_bits("f32:inf", 4), 0x7f800000);
    ck_assert_uint_eq(scalar_bits("f64:0.1", 8), 0x3fb999999999999aull);
    ck_assert_uint_eq(scalar_bits("f64:0x1p-3", 8), 0x3fc0000000000000ull);
    ck_assert_uint_eq(scalar_bits("f16:1", 2), 0x3c00);
    ck_assert_uint_eq(scalar_bits("f16:-2.5", 2), 0xc100);
    ck_assert_uint_eq(scalar_bits("f16:65504", 2), 0x7bff);
    ck_assert_uint_eq(scalar_bits("f16:65520", 2), 0x7c00);   /* ties up */
    ck_assert_uint_eq(scalar_bits("f16:5.9604645e-08", 2), 0x0001);
    ck_assert_uint_eq(scalar_bits("bf16:1", 2), 0x3f80);
    ck_assert_uint_eq(scalar_bits("bf16:3.14159", 2), 0x4049);

    parse_bad("u8:256", ARGSPEC_USAGE, "not a valid u8 value");
    parse_bad("u32:-1", ARGSPEC_USAGE, "out of range");
    parse_bad("s8:128", ARGSPEC_USAGE, "s8");
    parse_bad("s8:-129", ARGSPEC_USAGE, "s8");
    parse_bad("u32:12abc", ARGSPEC_USAGE, "u32");
    parse_bad("u32:", ARGSPEC_USAGE, "u32");
    parse_bad("f32:x", ARGSPEC_USAGE, "f32");
    parse_bad("i32:4", ARGSPEC_USAGE, "unknown type 'i32'");
    parse_bad("5", ARGSPEC_USAGE, "expected TYPE:VALUE");
}
END_TEST

START_TEST(test_argspec_half)
{
    /* every finite f16 round-trips through f32 */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00) {
            continue;
        }
        float f = argspec_f16_to_f32((uint16_t)h);
        ck_assert_uint_eq(argspec_f32_to_f16(f), h);
    }
    ck_assert(isnan(argspec_f16_to_f32(argspec_f32_to_f16(NAN))));
    ck_assert_uint_eq(argspec_f32_to_f16(1.0f + 0x1p-11f), 0x3c00); /* tie even */
    ck_assert_uint_eq(argspec_f32_to_f16(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
    ck_assert_uint_eq(argspec_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80);
    ck_assert(argspec_bf16_to_f32(0x3fc0) == 1.5f);
}
END_TEST

START_TEST(test_argspec_buffers)
{
    ArgSpec a = parse_ok_spec("buf:f32:1024:zero");
    ck_assert_int_eq(a.kind, ARG_BUFFER);
    ck_assert_uint_eq(a.count, 1024);
    ck_assert_uint_eq(a.nbytes, 4096);
    for (size_t i = 0; i < a.nbytes; i++) {
        ck_assert_uint_eq(a.bytes[i], 0);
    }
    argspec_free(&a);

    a = parse_ok_spec("buf:u16:3");              /* zero by default */
    ck_assert_uint_eq(a.nbytes, 6);
    argspec_free(&a);

    a = parse_ok_spec("buf:u32:256:iota");
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t v;
        memcpy(&v, a.bytes + 4 * i, 4);
        ck_assert_uint_eq(v, i);
    }
    argspec_free(&a);

    a = parse_ok_spec("buf:f64:4:iota");
    double d[4];
    memcpy(d, a.bytes, sizeof(d));
    ck_assert(d[0] == 0.0 && d[3] == 3.0);
    argspec_free(&a);

    a = parse_ok_spec("buf:u8:300:iota");        /* wraps */
    ck_assert_uint_eq(a.bytes[299], 299 % 256);
    argspec_free(&a);

    a = parse_ok_spec("buf:s16:5:fill=-7");
    for (int i = 0; i < 5; i++) {
        int16_t v;
        memcpy(&v, a.bytes + 2 * i, 2);
        ck_assert_int_eq(v, -7);
    }
    argspec_free(&a);

    a = parse_ok_spec("buf:f32:4:values=1,2.5,-3");
    float f[4];
    memcpy(f, a.bytes, sizeof(f));
    ck_assert(f[0] == 1.0f && f[1] == 2.5f && f[2] == -3.0f && f[3] == 0.0f);
    argspec_free(&a);

    /* rand: the documented generator, twice the same */
    a = parse_ok_spec("buf:f32:1000:rand=42");
    ArgSpec b = parse_ok_spec("buf:f32:1000:rand=42");
    ck_assert(memcmp(a.bytes, b.bytes, a.nbytes) == 0);
    uint64_t x = 42;
    for (int i = 0; i < 1000; i++) {
        float want = (float)(argspec_xorshift64s(&x) >> 40) * 0x1p-24f;
        memcpy(f, a.bytes + 4 * i, 4);
        ck_assert(f[0] == want);
        ck_assert(f[0] >= 0.0f && f[0] < 1.0f);
    }
    argspec_free(&a);
    argspec_free(&b);
    a = parse_ok_spec("buf:u64:2:rand=0");
    x = 0x9E3779B97F4A7C15ULL;
    uint64_t r0 = argspec_xorshift64s(&x), r1 = argspec_xorshift64s(&x);
    uint64_t got[2];
    memcpy(got, a.bytes, 16);
    ck_assert_uint_eq(got[0], r0);
    ck_assert_uint_eq(got[1], r1);
    argspec_free(&a);
    a = parse_ok_spec("buf:f16:500:rand=7");
    for (int i = 0; i < 500; i++) {
        uint16_t h;
        memcpy(&h, a.bytes + 2 * i, 2);
        float v = argspec_f16_to_f32(h);
        ck_assert(v >= 0.0f && v < 1.0f);
    }
    argspec_free(&a);

    /* file= */
    char path[] = "/tmp/check_api_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "\x01\x02\x03", 3), 3);
    close(fd);
    char spec[128];
    snprintf(spec, sizeof(spec), "buf:u8:5:file=%s", path);
    a = parse_ok_spec(spec);
    ck_assert(memcmp(a.bytes, "\x01\x02\x03\x00\x00", 5) == 0);
    argspec_free(&a);
    snprintf(spec, sizeof(spec), "buf:u8:2:file=%s", path);
    parse_bad(spec, ARGSPEC_USAGE, "larger than the buffer");
    unlink(path);
    parse_bad(spec, ARGSPEC_IO, "cannot open");

    a = parse_ok_spec("hex:0102ff");
    ck_assert_int_eq(a.kind, ARG_RAW);
    ck_assert_uint_eq(a.nbytes, 3);
    ck_assert_uint_eq(a.bytes[2], 0xff);
    argspec_free(&a);

    parse_bad("buf:f32", ARGSPEC_USAGE, "buf:TYPE:COUNT");
    parse_bad("buf:q32:4", ARGSPEC_USAGE, "unknown element type 'q32'");
    parse_bad("buf:f32:0", ARGSPEC_USAGE, "positive integer");
    parse_bad("buf:f32:-4", ARGSPEC_USAGE, "positive integer");
    parse_bad("buf:f32:4:ones", ARGSPEC_USAGE, "unknown initialiser 'ones'");
    parse_bad("buf:f32:2:values=1,2,3", ARGSPEC_USAGE, "more values");
    parse_bad("buf:u8:2:values=1,300", ARGSPEC_USAGE, "'300' is not a u8");
    parse_bad("buf:u32:4:rand=x", ARGSPEC_USAGE, "seed");
    parse_bad("buf:u8:99999999999999999", ARGSPEC_USAGE, "too large");
    parse_bad("hex:123", ARGSPEC_USAGE, "even");
    parse_bad("hex:zz", ARGSPEC_USAGE, "not a hex byte");

    unsigned d3[3];
    ck_assert(argspec_parse_dim3("4", d3) && d3[0] == 4 && d3[1] == 1 &&
              d3[2] == 1);
    ck_assert(argspec_parse_dim3("2,3,4", d3) && d3[0] == 2 && d3[1] == 3 &&
              d3[2] == 4);
    ck_assert(!argspec_parse_dim3("0", d3));
    ck_assert(!argspec_parse_dim3("1,2,3,4", d3));
    ck_assert(!argspec_parse_dim3("1,,2", d3));
    ck_assert(!argspec_parse_dim3("x", d3));
}
END_TEST

START_TEST(test_argspec_print)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    uint8_t b[8];
    int8_t s8 = -5;
    argspec_print_elem(o, argspec_type("s8", 2), &s8);
    fputc(' ', o);
    float f = 0.1f;
    argspec_print_elem(o, argspec_type("f32", 3), &f);
    fputc(' ', o);
    double d = 0.1;
    argspec_print_elem(o, argspec_type("f64", 3), &d);
    fputc(' ', o);
    uint64_t u = UINT64_MAX;
    argspec_print_elem(o, argspec_type("u64", 3), &u);
    fputc(' ', o);
    uint16_t h = 0x3e00;
    argspec_print_elem(o, argspec_type("f16", 3), &h);
    fputc(' ', o);
    memset(b, 0xff, sizeof(b));
    argspec_print_elem(o, argspec_type("b16", 3), b);
    fclose(o);
    ck_assert_str_eq(buf, "-5 0.100000001 0.10000000000000001 "
                          "18446744073709551615 1.5 65535");
    free(buf);
}
END_TEST

/* ------------------------------------------------------------ module */

START_TEST(test_load_errors)
{
    ptxemu_device *d = new_dev();
    ptxemu_module *m = (ptxemu_module *)1;
    const char *bad = HDR ".entry k() {\n\tfoo;\n}\n";
    ck_assert_int_eq(ptxemu_module_load_string(d, "bad.ptx", bad, 0, &m),
                     PTXEMU_ERROR_INVALID_PTX);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(ptxemu_last_error(d), PTXEMU_ERROR_INVALID_PTX);
    const char *msg = ptxemu_last_error_message(d);
    ck_assert_msg(strstr(msg, "bad.ptx:5:2: error: unknown instruction 'foo'"),
                  "message: %s", msg);
    char small[8];
    size_t n = ptxemu_last_error_copy(d, small, sizeof(small));
    ck_assert_uint_eq(n, strlen(msg));
    ck_assert_str_eq(small, "bad.ptx");
    ptxemu_clear_error(d);
    ck_assert_int_eq(ptxemu_last_error(d), PTXEMU_SUCCESS);
    ck_assert_str_eq(ptxemu_last_error_message(d), "");

    /* a length that cuts the text: only that much is parsed */
    ck_assert_int_eq(ptxemu_module_load_string(d, NULL, vec_ptx, 20, &m),
                     PTXEMU_ERROR_INVALID_PTX);
    ck_assert(strstr(ptxemu_last_error_message(d), "<string>:") != NULL);

    ck_assert_int_eq(ptxemu_module_load_file(d, "/nonexistent/x.ptx", &m),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert(strstr(ptxemu_last_error_message(d),
                     "/nonexistent/x.ptx: error: cannot open") != NULL);
    ck_assert_int_eq(ptxemu_module_load_string(d, "x", NULL, 0, &m),
                     PTXEMU_ERROR_INVALID_VALUE);
    /* the device still works */
    m = load_ok(d, vec_ptx);
    ptxemu_module_unload(m);
    ptxemu_device_destroy(d);
}
END_TEST

/* Lazy loading: a kernel that cannot be loaded (its body does not parse,
 * or it holds, or calls a function that holds, an instruction the
 * emulator does not run) fails alone when it is asked for, with its
 * located errors; the module's other kernels run.  A module whose
 * every kernel fails, or with an error outside function bodies, fails. */
static const char lazy_ptx[] =
    ".version 8.1\n.target sm_90\n.address_size 64\n"       /* 1-3 */
    ".func helper()\n{\n"                                       /* 4-5 */
    "\t.reg .b16 %h<4>;\n"                                     /* 6 */
    "\tfma.rn.oob.f16 %h1, %h2, %h3, %h1;\n"                   /* 7 */
    "\tret;\n}\n"                                              /* 8-9 */
    ".visible .entry good(.param .u64 p)\n{\n"                  /* 10-11 */
    "\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n"          /* 12-13 */
    "\tst.global.u32 [%rd1], 7;\n\tret;\n}\n"                   /* 14-16 */
    ".visible .entry bad_parse(.param .u64 p)\n{\n"             /* 17-18 */
    "\t.reg .b32 %r<2>;\n"                                     /* 19 */
    "\tfrobnicate.b32 %r1, %r1;\n"                             /* 20 */
    "\tret;\n}\n"                                              /* 21-22 */
    ".visible .entry bad_call()\n{\n\tcall helper;\n\tret;\n}\n" /* 23-27 */
    ".visible .entry also_good(.param .u64 p)\n{\n"             /* 28-29 */
    "\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n"
    "\tst.global.u32 [%rd1+4], 9;\n\tret;\n}\n";

START_TEST(test_lazy_load)
{
    ptxemu_device *d = new_dev();
    ptxemu_module *m = NULL;
    ck_assert_int_eq(ptxemu_module_load_string(d, "lazy.ptx", lazy_ptx, 0,
                                               &m), PTXEMU_SUCCESS);
    ck_assert_uint_eq(ptxemu_module_num_functions(m), 2);
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(m, "bad_parse", &f),
                     PTXEMU_ERROR_INVALID_PTX);
    ck_assert_ptr_null(f);
    const char *msg = ptxemu_last_error_message(d);
    ck_assert_msg(strstr(msg, "kernel 'bad_parse' cannot be loaded") &&
                  strstr(msg, "lazy.ptx:20:2: error: unknown instruction "
                         "'frobnicate'"), "message: %s", msg);
    ck_assert_int_eq(ptxemu_module_get_function(m, "bad_call", &f),
                     PTXEMU_ERROR_UNSUPPORTED);
    msg = ptxemu_last_error_message(d);
    ck_assert_msg(strstr(msg, "'bad_call' calls 'helper'") &&
                  strstr(msg, "lazy.ptx:7:2: error: instruction "
                         "'fma.rn.oob.f16' is not supported"),
                  "message: %s", msg);
    ck_assert_int_eq(ptxemu_module_get_function(m, "nothere", &f),
                     PTXEMU_ERROR_NOT_FOUND);
    /* the others run */
    ptxemu_devptr p = 0;
    ck_assert_int_eq(ptxemu_malloc(d, 8, &p), PTXEMU_SUCCESS);
    void *args[] = {&p};
    unsigned one[3] = {1, 1, 1};
    const char *names[] = {"good", "also_good"};
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(ptxemu_module_get_function(m, names[k], &f),
                         PTXEMU_SUCCESS);
        ck_assert_int_eq(ptxemu_launch(f, one, one, 0, args),
                         PTXEMU_SUCCESS);
    }
    uint32_t h[2];
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, h, p, 8), PTXEMU_SUCCESS);
    ck_assert_uint_eq(h[0], 7);
    ck_assert_uint_eq(h[1], 9);
    ptxemu_module_unload(m);
    /* an error outside every body: the module fails */
    const char *outside = HDR ".global .frob g;\n"
        ".visible .entry k() {\n\tret;\n}\n";
    ck_assert_int_eq(ptxemu_module_load_string(d, "o.ptx", outside, 0, &m),
                     PTXEMU_ERROR_INVALID_PTX);
    ptxemu_device_destroy(d);
}
END_TEST

START_TEST(test_lookups)
{
    ptxemu_device *d = new_dev();
    ptxemu_module *m = load_ok(d, vec_ptx);
    ck_assert_uint_eq(ptxemu_module_num_functions(m), 2);
    ck_assert_str_eq(ptxemu_function_name(ptxemu_module_function(m, 0)),
                     "vecAdd");
    ck_assert_str_eq(ptxemu_function_name(ptxemu_module_function(m, 1)),
                     "oob_store");
    ck_assert_ptr_null(ptxemu_module_function(m, 2));
    ptxemu_function *k = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(m, "vecAdd", &k),
                     PTXEMU_SUCCESS);
    ck_assert_ptr_nonnull(k);
    ck_assert_uint_eq(ptxemu_function_num_params(k), 4);
    ck_assert_uint_eq(ptxemu_function_param_bytes(k), 32);
    ptxemu_param_info pi;
    ck_assert_int_eq(ptxemu_function_param(k, 3, &pi), PTXEMU_SUCCESS);
    ck_assert_str_eq(pi.name, "vecAdd_param_3");
    ck_assert_str_eq(pi.type, "u32");
    ck_assert_uint_eq(pi.offset, 24);
    ck_assert_uint_eq(pi.size, 4);
    ck_assert_int_eq(ptxemu_function_param(k, 4, &pi),
                     PTXEMU_ERROR_INVALID_VALUE);
    ptxemu_function *k2 = (ptxemu_function *)1;
    ck_assert_int_eq(ptxemu_module_get_function(m, "nosuch", &k2),
                     PTXEMU_ERROR_NOT_FOUND);
    ck_assert_ptr_null(k2);
    ck_assert(strstr(ptxemu_last_error_message(d), "'nosuch'") != NULL);
    ptxemu_devptr g;
    ck_assert_int_eq(ptxemu_module_get_global(m, "nosuch", &g, NULL),
                     PTXEMU_ERROR_NOT_FOUND);
    ptxemu_module_unload(m);

    m = load_ok(d, params_ptx);
    ck_assert_int_eq(ptxemu_module_get_function(m, "params_k", &k),
                     PTXEMU_SUCCESS);
    static const struct { const char *type; size_t off, size, align;
                          unsigned n; } want[] = {
        {"u8", 0, 1, 1, 0}, {"u64", 8, 8, 8, 0}, {"f32", 16, 4, 4, 0},
        {"b8", 24, 16, 8, 16}, {"u16", 40, 2, 2, 0},
    };
    ck_assert_uint_eq(ptxemu_function_num_params(k), 5);
    for (unsigned i = 0; i < 5; i++) {
        ck_assert_int_eq(ptxemu_function_param(k, i, &pi), PTXEMU_SUCCESS);
        ck_assert_str_eq(pi.type, want[i].type);
        ck_assert_uint_eq(pi.offset, want[i].off);
        ck_assert_uint_eq(pi.size, want[i].size);
        ck_assert_uint_eq(pi.align, want[i].align);
        ck_assert_uint_eq(pi.array_len, want[i].n);
    }
    ck_assert_uint_eq(ptxemu_function_param_bytes(k), 48);
    ptxemu_module_unload(m);

    m = load_ok(d, globals_ptx);
    size_t sz = 0;
    ck_assert_int_eq(ptxemu_module_get_global(m, "gcount", &g, &sz),
                     PTXEMU_SUCCESS);
    ck_assert_uint_eq(sz, 4);
    uint32_t v = 0;
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, &v, g, 4), PTXEMU_SUCCESS);
    ck_assert_uint_eq(v, 7);
    ck_assert_int_eq(ptxemu_module_get_global(m, "coef", &g, &sz),
                     PTXEMU_SUCCESS);
    ck_assert_uint_eq(sz, 16);
    float c[4];
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, c, g, sizeof(c)), PTXEMU_SUCCESS);
    ck_assert(c[0] == 1.0f && c[1] == 2.0f && c[2] == 3.0f && c[3] == 4.0f);
    /* the device frees the module with it */
    ptxemu_device_destroy(d);
}
END_TEST

/* ------------------------------------------------------------ memory */

START_TEST(test_memory)
{
    ptxemu_device *d = new_dev();
    uint64_t used0 = ptxemu_mem_used(d);
    ptxemu_devptr a = 0, b = 0;
    ck_assert_int_eq(ptxemu_malloc(d, 1000, &a), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(d, 1000, &b), PTXEMU_SUCCESS);
    ck_assert(a != 0 && b != 0 && a != b);
    ck_assert_uint_eq(a % 256, 0);
    ck_assert_uint_ge(ptxemu_mem_used(d), used0 + 2000);
    uint8_t host[1000], back[1000];
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, back, a, 1000), PTXEMU_SUCCESS);
    for (int i = 0; i < 1000; i++) {
        ck_assert_uint_eq(back[i], 0);             /* zeroed */
        host[i] = (uint8_t)(i * 7 + 3);
    }
    ck_assert_int_eq(ptxemu_memcpy_htod(d, a, host, 1000), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtod(d, b, a, 1000), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memset(d, b + 10, 0xab, 20), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, back, b, 1000), PTXEMU_SUCCESS);
    for (int i = 0; i < 1000; i++) {
        ck_assert_uint_eq(back[i], i >= 10 && i < 30 ? 0xab : host[i]);
    }
    /* partial copies inside an allocation */
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, back, a + 500, 500),
                     PTXEMU_SUCCESS);
    ck_assert(memcmp(back, host + 500, 500) == 0);
    /* overlapping device-to-device */
    ck_assert_int_eq(ptxemu_memcpy_dtod(d, a + 1, a, 999), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, back, a, 1000), PTXEMU_SUCCESS);
    ck_assert(memcmp(back + 1, host, 999) == 0);

    /* out of range: an error, never a crash */
    ck_assert_int_eq(ptxemu_memcpy_htod(d, a + 900, host, 200),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert(strstr(ptxemu_last_error_message(d), "ptxemu_memcpy_htod"));
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, back, a - 8, 8),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_memcpy_dtod(d, a, b + 999, 2),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_memset(d, 0x1234, 0, 1),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_memcpy_htod(d, a, NULL, 1),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_malloc(d, 0, &a), PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_free(d, a + 4), PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_free(d, 0), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(d, a), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(d, a), PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, back, a, 4),
                     PTXEMU_ERROR_INVALID_VALUE);   /* freed */
    ck_assert_int_eq(ptxemu_free(d, b), PTXEMU_SUCCESS);
    ck_assert_uint_eq(ptxemu_mem_used(d), used0);
    ptxemu_device_destroy(d);
}
END_TEST

/* ------------------------------------------------------------ launch */

/* c = a + b on n elements with `threads` threads of 128 per CTA. */
static void run_vecadd(ptxemu_device *d, ptxemu_function *k, uint32_t n,
                       uint32_t threads, unsigned seed)
{
    size_t bytes = (size_t)(n + 64) * sizeof(float);
    float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
    ck_assert(ha && hb && hc);
    for (uint32_t i = 0; i < n + 64; i++) {
        ha[i] = (float)(i * 3 + seed) * 0.25f;
        hb[i] = 1.0f / (float)(i + 1 + seed);
        hc[i] = -1.0f;
    }
    ptxemu_devptr a, b, c;
    ck_assert_int_eq(ptxemu_malloc(d, bytes, &a), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(d, bytes, &b), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(d, bytes, &c), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_htod(d, a, ha, bytes), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_htod(d, b, hb, bytes), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_htod(d, c, hc, bytes), PTXEMU_SUCCESS);
    void *params[] = {&a, &b, &c, &n};
    unsigned grid[3] = {(threads + 127) / 128, 1, 1}, block[3] = {128, 1, 1};
    ptxemu_status st = ptxemu_launch(k, grid, block, 0, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "launch: %s\n%s",
                  ptxemu_status_name(st), ptxemu_last_error_message(d));
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, hc, c, bytes), PTXEMU_SUCCESS);
    uint32_t done = n < grid[0] * 128 ? n : grid[0] * 128;
    for (uint32_t i = 0; i < n + 64; i++) {
        float want = i < done ? ha[i] + hb[i] : -1.0f;
        ck_assert_msg(hc[i] == want, "c[%u] = %.9g, want %.9g", i,
                      (double)hc[i], (double)want);
    }
    ck_assert_int_eq(ptxemu_free(d, a), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(d, b), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(d, c), PTXEMU_SUCCESS);
    free(ha);
    free(hb);
    free(hc);
}

START_TEST(test_launch_vecadd)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.collect_stats = 1;
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(&o, &d), PTXEMU_SUCCESS);
    ptxemu_module *m = load_ok(d, vec_ptx);
    ptxemu_function *k;
    ck_assert_int_eq(ptxemu_module_get_function(m, "vecAdd", &k),
                     PTXEMU_SUCCESS);
    run_vecadd(d, k, 1000, 1024, 0);     /* guard: the last 24 do nothing */
    run_vecadd(d, k, 1, 128, 5);
    run_vecadd(d, k, 4096, 1024, 9);     /* grid smaller than n */
    ck_assert_int_eq(ptxemu_synchronize(d), PTXEMU_SUCCESS);
    ptxemu_stats s;
    ck_assert_int_eq(ptxemu_get_stats(d, &s), PTXEMU_SUCCESS);
    ck_assert(s.collected & PTXEMU_STATS_LAUNCHES);
    ck_assert_uint_eq(s.launches, 3);
    ck_assert_uint_eq(s.ctas, 8 + 1 + 8);
    ck_assert_uint_eq(s.threads, 17 * 128);
    ck_assert_uint_gt(s.warp_insns, 0);
    if (s.collected & PTXEMU_STATS_STEPS) {
        ck_assert_uint_ge(s.thread_insns, s.warp_insns);
        ck_assert_uint_gt(s.mem_accesses[PTXEMU_SPACE_GLOBAL], 0);
        ptxemu_opcode_count oc[64];
        size_t n = ptxemu_get_opcode_stats(d, oc, 64);
        ck_assert_uint_gt(n, 0);
        uint64_t sum = 0;
        for (size_t i = 0; i < n && i < 64; i++) {
            sum += oc[i].warp_insns;
            if (i) {
                ck_assert_uint_ge(oc[i - 1].warp_insns, oc[i].warp_insns);
            }
        }
        ck_assert_uint_eq(sum, s.warp_insns);
    }
    ptxemu_reset_stats(d);
    ck_assert_int_eq(ptxemu_get_stats(d, &s), PTXEMU_SUCCESS);
    ck_assert_uint_eq(s.launches, 0);
    ptxemu_device_destroy(d);
}
END_TEST

/* Managed and registered host memory: kernels use the host pointer
 * itself, and the host sees the results without a copy. */
START_TEST(test_managed_memory)
{
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(NULL, &d), PTXEMU_SUCCESS);
    ptxemu_module *m = load_ok(d, vec_ptx);
    ptxemu_function *k;
    ck_assert_int_eq(ptxemu_module_get_function(m, "vecAdd", &k),
                     PTXEMU_SUCCESS);
    enum { N = 300 };
    float *a = NULL, *c = NULL;
    ck_assert_int_eq(ptxemu_malloc_managed(d, N * sizeof(float), (void **)&a),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc_managed(d, N * sizeof(float), (void **)&c),
                     PTXEMU_SUCCESS);
    ck_assert_uint_eq((uintptr_t)a % 256, 0);
    static float b[N + 7];              /* host memory, registered */
    ck_assert_int_eq(ptxemu_host_register(d, b, sizeof(b)), PTXEMU_SUCCESS);
    /* Overlapping registrations are refused. */
    ck_assert_int_eq(ptxemu_host_register(d, b + 3, 8),
                     PTXEMU_ERROR_INVALID_VALUE);
    for (int i = 0; i < N; i++) {
        ck_assert(a[i] == 0.0f);        /* zeroed */
        a[i] = (float)i * 0.5f;
        b[i] = (float)(N - i);
    }
    ptxemu_devptr pa = (uintptr_t)a, pb = (uintptr_t)b, pc = (uintptr_t)c;
    unsigned n = N;
    void *params[] = {&pa, &pb, &pc, &n};
    unsigned grid[3] = {3, 1, 1}, block[3] = {128, 1, 1};
    ck_assert_int_eq(ptxemu_launch(k, grid, block, 0, params),
                     PTXEMU_SUCCESS);
    for (int i = 0; i < N; i++) {
        ck_assert(c[i] == (float)i * 0.5f + (float)(N - i));
    }
    ptxemu_mem_kind kind;
    ptxemu_devptr base;
    size_t size;
    ck_assert_int_eq(ptxemu_pointer_info(d, pa + 40, &kind, &base, &size),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(kind, PTXEMU_MEM_MANAGED);
    ck_assert_uint_eq(base, pa);
    ck_assert_uint_eq(size, N * sizeof(float));
    ck_assert_int_eq(ptxemu_pointer_info(d, pb + 4, &kind, &base, NULL),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(kind, PTXEMU_MEM_HOST);
    ck_assert_uint_eq(base, pb);
    ptxemu_devptr dp;
    ck_assert_int_eq(ptxemu_malloc(d, 64, &dp), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_pointer_info(d, dp, &kind, NULL, NULL),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(kind, PTXEMU_MEM_DEVICE);
    int local = 0;
    ck_assert_int_eq(ptxemu_pointer_info(d, (uintptr_t)&local, &kind, NULL,
                                         NULL), PTXEMU_SUCCESS);
    ck_assert_int_eq(kind, PTXEMU_MEM_NONE);
    /* Unregistered memory is no longer visible to kernels. */
    ck_assert_int_eq(ptxemu_host_unregister(d, b), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_host_unregister(d, b),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_ne(ptxemu_launch(k, grid, block, 0, params),
                     PTXEMU_SUCCESS);
    ptxemu_synchronize(d);
    ck_assert_int_eq(ptxemu_free(d, pa), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(d, pc), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(d, dp), PTXEMU_SUCCESS);
    ptxemu_device_destroy(d);
}
END_TEST

/* Per-lane access counters: each of 40 threads loads one word, adds it
 * atomically to a counter and stores the old value: 40 loads, 40 stores
 * and 40 atomic accesses in 2 warp-level atomics (an atomic is neither a
 * load nor a store in the statistics). */
static const char atom_ptx[] =
    HDR
    ".visible .entry count(.param .u64 p_in, .param .u64 p_out)\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .b64 %rd<6>;\n"
    "\tld.param.u64 %rd1, [p_in];\n"
    "\tld.param.u64 %rd2, [p_out];\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tmul.wide.u32 %rd3, %r1, 4;\n"
    "\tadd.s64 %rd4, %rd1, %rd3;\n"
    "\tld.global.u32 %r2, [%rd4];\n"
    "\tatom.global.add.u32 %r3, [%rd2], %r2;\n"
    "\tadd.s64 %rd5, %rd4, 256;\n"
    "\tst.global.u32 [%rd5], %r3;\n"
    "\tret;\n"
    "}\n";

START_TEST(test_stats_atomics)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.collect_stats = 1;
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(&o, &d), PTXEMU_SUCCESS);
    ptxemu_module *m = load_ok(d, atom_ptx);
    ptxemu_function *k;
    ck_assert_int_eq(ptxemu_module_get_function(m, "count", &k),
                     PTXEMU_SUCCESS);
    ptxemu_devptr in, out;
    ck_assert_int_eq(ptxemu_malloc(d, 512, &in), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(d, 4, &out), PTXEMU_SUCCESS);
    uint32_t v[40];
    for (int i = 0; i < 40; i++) {
        v[i] = (uint32_t)(i * i + 1);
    }
    ck_assert_int_eq(ptxemu_memcpy_htod(d, in, v, sizeof(v)),
                     PTXEMU_SUCCESS);
    void *params[] = {&in, &out};
    unsigned grid[3] = {1, 1, 1}, block[3] = {40, 1, 1};
    ck_assert_int_eq(ptxemu_launch(k, grid, block, 0, params),
                     PTXEMU_SUCCESS);
    uint32_t sum = 0;
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, &sum, out, 4), PTXEMU_SUCCESS);
    ck_assert_uint_eq(sum, 40u * 39u * 79u / 6u + 40u);   /* sum i^2 + 1 */
    ptxemu_stats s;
    ck_assert_int_eq(ptxemu_get_stats(d, &s), PTXEMU_SUCCESS);
    if (s.collected & PTXEMU_STATS_STEPS) {
        ck_assert_uint_eq(s.atomics, 2);
        ck_assert_uint_eq(s.atomic_accesses, 40);
        /* ld.param is a load too: 2 per thread. */
        ck_assert_uint_eq(s.loads, 40 + 2 * 40);
        ck_assert_uint_eq(s.stores, 40);
    }
    ptxemu_device_destroy(d);
}
END_TEST

START_TEST(test_launch_params)
{
    ptxemu_device *d = new_dev();
    ptxemu_module *m = load_ok(d, params_ptx);
    ptxemu_function *k;
    ck_assert_int_eq(ptxemu_module_get_function(m, "params_k", &k),
                     PTXEMU_SUCCESS);
    ptxemu_devptr out;
    ck_assert_int_eq(ptxemu_malloc(d, 32, &out), PTXEMU_SUCCESS);
    uint8_t a = 0xc5;
    float f = -2.75f;
    struct { uint32_t x, pad; uint64_t y; } s = {0x01020304u, 0,
                                                 0x1122334455667788ull};
    uint16_t h = 0xfedc;
    void *params[] = {&a, &out, &f, &s, &h};
    unsigned one[3] = {1, 1, 1};
    ptxemu_status st = ptxemu_launch(k, one, one, 0, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(d));
    uint8_t r[32];
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, r, out, 32), PTXEMU_SUCCESS);
    uint32_t u;
    float g;
    uint64_t y;
    memcpy(&u, r, 4);
    ck_assert_uint_eq(u, 0xc5);
    memcpy(&g, r + 4, 4);
    ck_assert(g == -2.75f);
    memcpy(&u, r + 8, 4);
    ck_assert_uint_eq(u, 0x01020304u);
    memcpy(&y, r + 16, 8);
    ck_assert_uint_eq(y, 0x1122334455667788ull);
    memcpy(&u, r + 24, 4);
    ck_assert_uint_eq(u, 0xfedc);

    /* missing parameter values and bad configurations */
    void *missing[] = {&a, &out, NULL, &s, &h};
    ck_assert_int_eq(ptxemu_launch(k, one, one, 0, missing),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert(strstr(ptxemu_last_error_message(d), "params_k_f") != NULL);
    ck_assert_int_eq(ptxemu_launch(k, one, one, 0, NULL),
                     PTXEMU_ERROR_INVALID_VALUE);
    unsigned big[3] = {2048, 1, 1}, zero[3] = {0, 1, 1};
    ck_assert_int_eq(ptxemu_launch(k, one, big, 0, params),
                     PTXEMU_ERROR_LAUNCH_CONFIG);
    ck_assert_int_eq(ptxemu_launch(k, zero, one, 0, params),
                     PTXEMU_ERROR_LAUNCH_CONFIG);
    ck_assert_int_eq(ptxemu_launch(k, one, one, 1u << 30, params),
                     PTXEMU_ERROR_LAUNCH_CONFIG);
    ck_assert_int_eq(ptxemu_launch(NULL, one, one, 0, params),
                     PTXEMU_ERROR_INVALID_VALUE);
    /* configuration errors are not launch errors */
    ck_assert_int_eq(ptxemu_synchronize(d), PTXEMU_SUCCESS);
    ptxemu_device_destroy(d);
}
END_TEST

START_TEST(test_launch_globals)
{
    ptxemu_device *d = new_dev();
    ptxemu_module *m = load_ok(d, globals_ptx);
    ptxemu_function *k;
    ck_assert_int_eq(ptxemu_module_get_function(m, "use_globals", &k),
                     PTXEMU_SUCCESS);
    ptxemu_devptr coef, gcount, out;
    ck_assert_int_eq(ptxemu_module_get_global(m, "coef", &coef, NULL),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_get_global(m, "gcount", &gcount, NULL),
                     PTXEMU_SUCCESS);
    float five = 5.0f;               /* .const is writable from the host */
    ck_assert_int_eq(ptxemu_memcpy_htod(d, coef + 4, &five, 4),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(d, 8, &out), PTXEMU_SUCCESS);
    void *params[] = {&out};
    unsigned one[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    ptxemu_status st = ptxemu_launch(k, one, block, 0, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(d));
    struct { float f; uint32_t u; } r;
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, &r, out, 8), PTXEMU_SUCCESS);
    ck_assert(r.f == 5.0f);
    /* every thread read gcount before or after other threads' atomics */
    ck_assert_uint_ge(r.u, 7);
    ck_assert_uint_lt(r.u, 7 + 64);
    uint32_t g;
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, &g, gcount, 4), PTXEMU_SUCCESS);
    ck_assert_uint_eq(g, 7 + 64);
    ptxemu_device_destroy(d);
}
END_TEST

START_TEST(test_launch_fault)
{
    ptxemu_device *d = new_dev();
    ptxemu_module *m = load_ok(d, vec_ptx);
    ptxemu_function *bad, *good;
    ck_assert_int_eq(ptxemu_module_get_function(m, "oob_store", &bad),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_get_function(m, "vecAdd", &good),
                     PTXEMU_SUCCESS);
    ptxemu_devptr p;
    ck_assert_int_eq(ptxemu_malloc(d, 16 * 4, &p), PTXEMU_SUCCESS);
    void *params[] = {&p};
    unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    ptxemu_status st = ptxemu_launch(bad, grid, block, 0, params);
    ck_assert_int_eq(st, PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(ptxemu_last_error(d), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(ptxemu_status_cuda_error(st), 700);
    char msg[2048];
    ptxemu_last_error_copy(d, msg, sizeof(msg));
    char want[64];
    ck_assert_msg(strstr(msg, "'oob_store'") != NULL, "%s", msg);
    snprintf(want, sizeof(want), "t.ptx:%d:", OOB_LINE);
    ck_assert_msg(strstr(msg, want) != NULL, "no '%s' in %s", want, msg);
    ck_assert_msg(strstr(msg, "st.global.u32") != NULL, "%s", msg);
    ck_assert_msg(strstr(msg, "nearest allocation") != NULL, "%s", msg);
    /* the first lane past the end: thread 16, 64 bytes into p */
    snprintf(want, sizeof(want), "%" PRIx64, p + 64);
    ck_assert_msg(strstr(msg, want) != NULL, "no address %s in %s", want,
                  msg);
    ck_assert_msg(strstr(msg, "thread (16,0,0)") != NULL, "%s", msg);
    /* the error is reported once at synchronisation, as by CUDA */
    ck_assert_int_eq(ptxemu_synchronize(d), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(ptxemu_synchronize(d), PTXEMU_SUCCESS);
    /* lanes before the fault may have stored; p is intact in bounds */
    uint32_t back[16];
    ck_assert_int_eq(ptxemu_memcpy_dtoh(d, back, p, sizeof(back)),
                     PTXEMU_SUCCESS);
    /* the device is still usable */
    run_vecadd(d, good, 300, 384, 1);
    ck_assert_int_eq(ptxemu_synchronize(d), PTXEMU_SUCCESS);
    /* and the faulting kernel with enough memory is fine */
    ptxemu_devptr q;
    ck_assert_int_eq(ptxemu_malloc(d, 64 * 4, &q), PTXEMU_SUCCESS);
    void *params2[] = {&q};
    st = ptxemu_launch(bad, grid, block, 0, params2);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(d));
    ptxemu_device_destroy(d);
}
END_TEST

typedef struct ThreadArg {
    ptxemu_device *d;
    ptxemu_function *k;
    unsigned seed;
} ThreadArg;

static void *thread_main(void *p)
{
    ThreadArg *t = p;
    for (int i = 0; i < 4; i++) {
        run_vecadd(t->d, t->k, 200 + 37 * t->seed, 512, t->seed + 3 * i);
    }
    return NULL;
}

START_TEST(test_threads)
{
    ptxemu_device *d = new_dev();
    ptxemu_module *m = load_ok(d, vec_ptx);
    ptxemu_function *k;
    ck_assert_int_eq(ptxemu_module_get_function(m, "vecAdd", &k),
                     PTXEMU_SUCCESS);
    pthread_t th[4];
    ThreadArg ta[4];
    for (unsigned i = 0; i < 4; i++) {
        ta[i] = (ThreadArg){d, k, i};
        ck_assert_int_eq(pthread_create(&th[i], NULL, thread_main, &ta[i]), 0);
    }
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    }
    ptxemu_stats s;
    ptxemu_get_stats(d, &s);
    ck_assert_uint_eq(s.launches, 16);
    ptxemu_device_destroy(d);
}
END_TEST

Suite *api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("status");
    tcase_add_test(tc, test_status);
    tcase_add_test(tc, test_device_options);
    suite_add_tcase(s, tc);
    tc = tcase_create("argspec");
    tcase_add_test(tc, test_argspec_scalars);
    tcase_add_test(tc, test_argspec_half);
    tcase_add_test(tc, test_argspec_buffers);
    tcase_add_test(tc, test_argspec_print);
    suite_add_tcase(s, tc);
    tc = tcase_create("module");
    tcase_add_test(tc, test_load_errors);
    tcase_add_test(tc, test_lookups);
    tcase_add_test(tc, test_lazy_load);
    suite_add_tcase(s, tc);
    tc = tcase_create("memory");
    tcase_add_test(tc, test_memory);
    suite_add_tcase(s, tc);
    tc = tcase_create("launch");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_launch_vecadd);
    tcase_add_test(tc, test_managed_memory);
    tcase_add_test(tc, test_stats_atomics);
    tcase_add_test(tc, test_launch_params);
    tcase_add_test(tc, test_launch_globals);
    tcase_add_test(tc, test_launch_fault);
    tcase_add_test(tc, test_threads);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(api_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
