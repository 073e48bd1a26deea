/*
 * tests/check_memcheck.c: the memcheck checker (check/memcheck.h)
 * through the C API, no nvcc needed: report lines compared whole with
 * ones written from the kernels' PTX (instruction index, line) and the
 * allocations the test makes; errors counted per access; the print
 * limit; leaks of ptxemu_malloc'd memory.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/memcheck.h"
#include "emu/memory.h"
#include "runtime/api_emu.h"
#include "runtime/ptxemu.h"

/* st.global is instruction 4 (0-based) on line 11 of this module. */
static const char *k_ptx =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 p)\n"
    "{\n"
    ".reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r1;\n"
    "ret;\n"
    "}\n"
    /* thread 0 stores at shared offset 4096, past the CTA's 16 bytes:
     * st.shared is instruction 1 on line 19 */
    ".visible .entry s()\n"
    "{\n"
    ".shared .align 4 .b8 buf[16];\n"
    ".reg .b32 %r<2>;\n"
    "mov.u32 %r1, 4096;\n"
    "st.shared.u32 [%r1], %r1;\n"
    "ret;\n"
    "}\n";

typedef struct Fixture {
    ptxemu_device *dev;
    ptxemu_module *mod;
    SanMemcheck *mc;
    char *text;
    size_t len;
    FILE *out;
} Fixture;

static void on_fault(void *ctx, const EmuFault *f, const EmuModule *m)
{
    san_memcheck_fault(ctx, f, m);
}

static void setup(Fixture *fx, ptxemu_access_checks access,
                  uint64_t limit)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.access = access;
    ck_assert_int_eq(ptxemu_device_create(&o, &fx->dev), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_load_string(fx->dev, "k.ptx", k_ptx, 0,
                                               &fx->mod), PTXEMU_SUCCESS);
    fx->out = open_memstream(&fx->text, &fx->len);
    ck_assert_ptr_nonnull(fx->out);
    fx->mc = san_memcheck_new(rt_device_emu(fx->dev), fx->out, limit);
    ck_assert_ptr_nonnull(fx->mc);
    rt_set_fault_hook(fx->dev, on_fault, fx->mc);
}

static void finish(Fixture *fx, bool leaks)
{
    san_memcheck_finish(fx->mc, leaks);
    fclose(fx->out);
}

static void teardown(Fixture *fx)
{
    rt_set_fault_hook(fx->dev, NULL, NULL);
    san_memcheck_free(fx->mc);
    ptxemu_device_destroy(fx->dev);
    free(fx->text);
}

static ptxemu_status run_k(Fixture *fx, ptxemu_devptr p, unsigned threads)
{
    ptxemu_function *f;
    ck_assert_int_eq(ptxemu_module_get_function(fx->mod, "k", &f),
                     PTXEMU_SUCCESS);
    unsigned g[3] = { 1, 1, 1 }, b[3] = { threads, 1, 1 };
    void *params[] = { &p };
    ptxemu_status st = ptxemu_launch(f, g, b, 0, params);
    (void)ptxemu_synchronize(fx->dev);
    return st;
}

/* The report of thread t writing 4 bytes `past` bytes after [a, a+sz). */
static void want_write(char *buf, size_t n, unsigned t, uint64_t a,
                       uint64_t sz, uint64_t past)
{
    snprintf(buf, n,
             "========= Invalid __global__ write of size 4 bytes\n"
             "=========     at k+0x4 in k.ptx:11\n"
             "=========     by thread (%u,0,0) in block (0,0,0)\n"
             "=========     Address 0x%" PRIx64 " is out of bounds\n"
             "=========     and is %" PRIu64 " bytes after the nearest "
             "allocation at 0x%" PRIx64 " of size %" PRIu64 " bytes\n"
             "=========\n", t, a + sz + past, past, a, sz);
}

/* GPU mode: threads 16 and 17 of 18 write into the slack after a
 * 64-byte buffer: two errors, the kernel completes. */
START_TEST(tolerated_writes_counted)
{
    Fixture fx;
    setup(&fx, PTXEMU_ACCESS_GPU, 0);
    ptxemu_devptr p;
    ck_assert_int_eq(ptxemu_malloc(fx.dev, 64, &p), PTXEMU_SUCCESS);
    ck_assert_int_eq(run_k(&fx, p, 18), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(fx.dev, p), PTXEMU_SUCCESS);
    finish(&fx, true);
    char a[512], b[512], want[1200];
    want_write(a, sizeof a, 16, p, 64, 0);
    want_write(b, sizeof b, 17, p, 64, 4);
    snprintf(want, sizeof want, "%s%s========= ERROR SUMMARY: 2 errors\n",
             a, b);
    ck_assert_str_eq(fx.text, want);
    ck_assert_uint_eq(san_memcheck_errors(fx.mc), 2);
    teardown(&fx);
}
END_TEST

/* Strict mode: the first out-of-bounds write stops the kernel and is
 * the one error; --print-limit 0 prints none of it but counts it. */
START_TEST(fault_reported)
{
    Fixture fx;
    setup(&fx, PTXEMU_ACCESS_STRICT, 0);
    ptxemu_devptr p;
    ck_assert_int_eq(ptxemu_malloc(fx.dev, 64, &p), PTXEMU_SUCCESS);
    ck_assert_int_ne(run_k(&fx, p, 17), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(fx.dev, p), PTXEMU_SUCCESS);
    finish(&fx, false);
    char a[512], want[800];
    want_write(a, sizeof a, 16, p, 64, 0);
    snprintf(want, sizeof want, "%s========= ERROR SUMMARY: 1 error\n", a);
    ck_assert_str_eq(fx.text, want);
    teardown(&fx);
}
END_TEST

START_TEST(shared_fault)
{
    Fixture fx;
    setup(&fx, PTXEMU_ACCESS_GPU, 0);
    ptxemu_function *f;
    ck_assert_int_eq(ptxemu_module_get_function(fx.mod, "s", &f),
                     PTXEMU_SUCCESS);
    unsigned g[3] = { 1, 1, 1 }, b[3] = { 1, 1, 1 };
    ck_assert_int_ne(ptxemu_launch(f, g, b, 0, NULL), PTXEMU_SUCCESS);
    finish(&fx, false);
    ck_assert_str_eq(fx.text,
        "========= Invalid __shared__ write of size 4 bytes\n"
        "=========     at s+0x1 in k.ptx:19\n"
        "=========     by thread (0,0,0) in block (0,0,0)\n"
        "=========     Address 0x1000 is out of bounds\n"
        "=========\n"
        "========= ERROR SUMMARY: 1 error\n");
    teardown(&fx);
}
END_TEST

/* print limit 1: three errors (slack writes of threads 16..18), one
 * printed; leaks: 100 and 7 bytes live at the end, 64 freed. */
START_TEST(limit_and_leaks)
{
    Fixture fx;
    setup(&fx, PTXEMU_ACCESS_GPU, 1);
    ptxemu_devptr p, q, r;
    ck_assert_int_eq(ptxemu_malloc(fx.dev, 100, &q), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(fx.dev, 64, &p), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(fx.dev, 7, &r), PTXEMU_SUCCESS);
    ck_assert_int_eq(run_k(&fx, p, 19), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(fx.dev, p), PTXEMU_SUCCESS);
    finish(&fx, true);
    char a[512], want[1500];
    want_write(a, sizeof a, 16, p, 64, 0);
    snprintf(want, sizeof want, "%s"
             "========= LEAK SUMMARY: 107 bytes leaked in 2 allocations\n"
             "========= ERROR SUMMARY: 5 errors\n"
             "========= (4 errors not printed: --print-limit 1)\n", a);
    ck_assert_str_eq(fx.text, want);
    ck_assert_uint_eq(san_memcheck_errors(fx.mc), 5);
    teardown(&fx);
}
END_TEST

/* A correct launch and freed memory: nothing but the summary. */
START_TEST(clean)
{
    Fixture fx;
    setup(&fx, PTXEMU_ACCESS_GPU, 0);
    ptxemu_devptr p;
    ck_assert_int_eq(ptxemu_malloc(fx.dev, 64, &p), PTXEMU_SUCCESS);
    ck_assert_int_eq(run_k(&fx, p, 16), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(fx.dev, p), PTXEMU_SUCCESS);
    finish(&fx, true);
    ck_assert_str_eq(fx.text, "========= ERROR SUMMARY: 0 errors\n");
    teardown(&fx);
}
END_TEST

/* A managed allocation freed, then 16 more of the same size (the C
 * library hands the freed address out again, glibc's malloc at once for
 * 4 KiB: the quarantine keeps it unused), and the kernel writes through
 * the stale pointer: thread 0 stops the launch with a use after free
 * naming the freed allocation.  Without the quarantine one of the new
 * allocations would be at that address and the write would land in it
 * unseen. */
START_TEST(managed_reused_address)
{
    Fixture fx;
    setup(&fx, PTXEMU_ACCESS_GPU, 0);
    void *old = NULL, *fresh[16];
    ck_assert_int_eq(ptxemu_malloc_managed(fx.dev, 4096, &old),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(fx.dev, (ptxemu_devptr)(uintptr_t)old),
                     PTXEMU_SUCCESS);
    for (int k = 0; k < 16; k++) {
        ck_assert_int_eq(ptxemu_malloc_managed(fx.dev, 4096, &fresh[k]),
                         PTXEMU_SUCCESS);
        ck_assert_ptr_ne(fresh[k], old);
    }
    ck_assert_int_ne(run_k(&fx, (ptxemu_devptr)(uintptr_t)old, 16),
                     PTXEMU_SUCCESS);
    for (int k = 0; k < 16; k++) {
        ck_assert_int_eq(ptxemu_free(fx.dev,
                                     (ptxemu_devptr)(uintptr_t)fresh[k]),
                         PTXEMU_SUCCESS);
    }
    finish(&fx, true);
    char want[800];
    uint64_t a = (uint64_t)(uintptr_t)old;
    snprintf(want, sizeof want,
             "========= Invalid __global__ write of size 4 bytes\n"
             "=========     at k+0x4 in k.ptx:11\n"
             "=========     by thread (0,0,0) in block (0,0,0)\n"
             "=========     Address 0x%" PRIx64 " is in freed memory (use "
             "after free)\n"
             "=========     of the allocation at 0x%" PRIx64 " of size 4096 "
             "bytes, freed\n"
             "=========     allocated by the host\n"
             "=========     freed by the host\n"
             "=========\n"
             "========= ERROR SUMMARY: 1 error\n", a, a);
    ck_assert_str_eq(fx.text, want);
    teardown(&fx);
}
END_TEST

/* A use after free however old the free: a 400-byte buffer freed, then
 * 300 more allocated and freed (more than a ring of the last 256 frees
 * would remember; device addresses are never handed out twice), and the
 * kernel's thread 0 writes through the stale pointer: a use after free
 * naming the first buffer and where it was allocated and freed, not an
 * out-of-bounds access. */
START_TEST(old_free_named)
{
    Fixture fx;
    setup(&fx, PTXEMU_ACCESS_GPU, 0);
    ptxemu_devptr old = 0;
    ck_assert_int_eq(ptxemu_malloc(fx.dev, 400, &old), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(fx.dev, old), PTXEMU_SUCCESS);
    for (int k = 0; k < 300; k++) {
        ptxemu_devptr p = 0;
        ck_assert_int_eq(ptxemu_malloc(fx.dev, 400, &p), PTXEMU_SUCCESS);
        ck_assert_uint_ne(p, old);
        ck_assert_int_eq(ptxemu_free(fx.dev, p), PTXEMU_SUCCESS);
    }
    /* thread 0 only; the page may be mapped still (later buffers share
     * it): the write is then tolerated, reported and counted */
    (void)run_k(&fx, old, 1);
    finish(&fx, true);
    char want[800];
    snprintf(want, sizeof want,
             "========= Invalid __global__ write of size 4 bytes\n"
             "=========     at k+0x4 in k.ptx:11\n"
             "=========     by thread (0,0,0) in block (0,0,0)\n"
             "=========     Address 0x%" PRIx64 " is in freed memory (use "
             "after free)\n"
             "=========     of the allocation at 0x%" PRIx64 " of size 400 "
             "bytes, freed\n"
             "=========     allocated by the host\n"
             "=========     freed by the host\n"
             "=========\n"
             "========= ERROR SUMMARY: 1 error\n", (uint64_t)old,
             (uint64_t)old);
    ck_assert_str_eq(fx.text, want);
    teardown(&fx);
}
END_TEST

/* Device malloc and free called past instruction 65535 of their
 * kernel are still named where they are (they read as the host's when
 * a site's key held the pc in 16 bits): `far` runs FAR_ADDS adds, then
 * p = malloc(16) at pc FAR_ADDS + 3 (line FAR_ADDS + 16), free(p) at
 * FAR_ADDS + 6 (line FAR_ADDS + 22), and stores through p. */
#define FAR_ADDS 65540u
static char *far_ptx(void)
{
    static const char head[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".extern .func (.param .b64 func_retval0) malloc\n"
        "(.param .b64 malloc_param_0);\n"
        ".extern .func free(.param .b64 free_param_0);\n"
        ".visible .entry far()\n{\n"
        ".reg .b32 %r<2>; .reg .b64 %rd<3>;\n"
        "mov.u32 %r1, 0;\n";                      /* lines 1-10 */
    static const char add[] = "add.u32 %r1, %r1, 1;\n";
    static const char tail[] =
        "mov.u64 %rd1, 16;\n"
        "{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd1;\n"
        ".param .b64 retval0;\n"
        "call.uni (retval0), malloc, (param0);\n"
        "ld.param.b64 %rd2, [retval0+0];\n}\n"
        "{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd2;\n"
        "call.uni free, (param0);\n}\n"
        "st.global.u32 [%rd2], %r1;\n"
        "ret;\n}\n";
    size_t n = sizeof head - 1 + FAR_ADDS * (sizeof add - 1) + sizeof tail;
    char *t = malloc(n), *q = t;
    ck_assert_ptr_nonnull(t);
    q = stpcpy(q, head);
    for (unsigned i = 0; i < FAR_ADDS; i++) {
        q = stpcpy(q, add);
    }
    strcpy(q, tail);
    return t;
}

START_TEST(far_heap_sites_named)
{
    Fixture fx;
    setup(&fx, PTXEMU_ACCESS_GPU, 0);
    char *src = far_ptx();
    ptxemu_module *m = NULL;
    ck_assert_int_eq(ptxemu_module_load_string(fx.dev, "far.ptx", src, 0,
                                               &m), PTXEMU_SUCCESS);
    free(src);
    ptxemu_function *f;
    ck_assert_int_eq(ptxemu_module_get_function(m, "far", &f),
                     PTXEMU_SUCCESS);
    unsigned g[3] = { 1, 1, 1 }, b[3] = { 1, 1, 1 };
    (void)ptxemu_launch(f, g, b, 0, NULL);
    (void)ptxemu_synchronize(fx.dev);
    finish(&fx, false);
    char want[256];
    snprintf(want, sizeof want,
             "=========     allocated at far+0x%x in far.ptx:%u\n"
             "=========     freed at far+0x%x in far.ptx:%u\n",
             FAR_ADDS + 3, FAR_ADDS + 16, FAR_ADDS + 6, FAR_ADDS + 22);
    ck_assert_msg(strstr(fx.text, want), "no\n%swithin\n%s", want,
                  fx.text);
    teardown(&fx);
}
END_TEST

/* The twin: the same frees and allocations, the kernel writes through
 * the new pointer: nothing to report. */
START_TEST(managed_reuse_ok)
{
    Fixture fx;
    setup(&fx, PTXEMU_ACCESS_GPU, 0);
    void *old = NULL, *fresh = NULL;
    ck_assert_int_eq(ptxemu_malloc_managed(fx.dev, 64, &old),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_free(fx.dev, (ptxemu_devptr)(uintptr_t)old),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc_managed(fx.dev, 64, &fresh),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(run_k(&fx, (ptxemu_devptr)(uintptr_t)fresh, 16),
                     PTXEMU_SUCCESS);
    ck_assert_uint_eq(((uint32_t *)fresh)[15], 15);
    ck_assert_int_eq(ptxemu_free(fx.dev, (ptxemu_devptr)(uintptr_t)fresh),
                     PTXEMU_SUCCESS);
    finish(&fx, true);
    ck_assert_str_eq(fx.text, "========= ERROR SUMMARY: 0 errors\n");
    teardown(&fx);
}
END_TEST

/* The quarantine itself (emu/memory.h): what it holds, first in first
 * out, within its count and its bytes; host spans are 4000 bytes padded
 * to 256: 4096. */
static uint64_t managed(EmuMemory *m, uint64_t size)
{
    uint64_t a = emu_mem_alloc(m, size, EMU_ALLOC_MANAGED, NULL);
    ck_assert_uint_ne(a, 0);
    return a;
}

START_TEST(quarantine_bounds)
{
    EmuMemory *m = emu_mem_new();
    ck_assert_ptr_nonnull(m);
    uint64_t bytes;
    ck_assert(emu_mem_set_quarantine(m, 2, 1u << 20));
    uint64_t a[3];
    for (int k = 0; k < 3; k++) {
        a[k] = managed(m, 4000);
    }
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(emu_mem_release(m, a[k]), EMU_OK);
        /* released: out of the table at once */
        ck_assert_ptr_null(emu_mem_find(m, a[k], 1));
        ck_assert_uint_eq(emu_mem_quarantine_held(m, &bytes),
                          k < 2 ? k + 1 : 2);
        ck_assert_uint_eq(bytes, (k < 2 ? k + 1 : 2) * 4096u);
    }
    /* device-range allocations are not held: their addresses are never
     * handed out again anyway */
    uint64_t d = emu_mem_alloc(m, 4000, EMU_ALLOC_DEVICE, NULL);
    ck_assert_int_eq(emu_mem_release(m, d), EMU_OK);
    ck_assert_uint_eq(emu_mem_quarantine_held(m, &bytes), 2);
    /* a byte bound of 6000: one 4096-byte span at a time; a span over
     * the bound is not held at all */
    ck_assert(emu_mem_set_quarantine(m, 8, 6000));
    ck_assert_uint_eq(emu_mem_quarantine_held(m, &bytes), 0);
    ck_assert_int_eq(emu_mem_release(m, managed(m, 4000)), EMU_OK);
    ck_assert_int_eq(emu_mem_release(m, managed(m, 4000)), EMU_OK);
    ck_assert_uint_eq(emu_mem_quarantine_held(m, &bytes), 1);
    ck_assert_uint_eq(bytes, 4096);
    ck_assert_int_eq(emu_mem_release(m, managed(m, 8000)), EMU_OK);
    ck_assert_uint_eq(emu_mem_quarantine_held(m, &bytes), 1);
    ck_assert_uint_eq(bytes, 4096);
    /* none: released bytes are freed at once */
    ck_assert(emu_mem_set_quarantine(m, 0, 0));
    ck_assert_int_eq(emu_mem_release(m, managed(m, 4000)), EMU_OK);
    ck_assert_uint_eq(emu_mem_quarantine_held(m, &bytes), 0);
    ck_assert(emu_mem_set_quarantine(m, 4, 1u << 20));
    ck_assert_int_eq(emu_mem_release(m, managed(m, 4000)), EMU_OK);
    emu_mem_free(m);              /* frees what it holds (valgrind) */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("memcheck");
    TCase *tc = tcase_create("memcheck");
    tcase_add_test(tc, tolerated_writes_counted);
    tcase_add_test(tc, fault_reported);
    tcase_add_test(tc, shared_fault);
    tcase_add_test(tc, old_free_named);
    tcase_add_test(tc, far_heap_sites_named);
    tcase_add_test(tc, limit_and_leaks);
    tcase_add_test(tc, clean);
    tcase_add_test(tc, managed_reused_address);
    tcase_add_test(tc, managed_reuse_ok);
    tcase_add_test(tc, quarantine_bounds);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
