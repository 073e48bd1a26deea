/*
 * tests/check_shared_layout.c: each kernel gets only the .shared
 * variables it can reach (emu/shlayout.h).
 *
 *  - five kernels whose static shared sums past the 48 KiB limit all
 *    launch; each fills every one of its shared arrays with a pattern,
 *    waits at a barrier and checks them all, so any overlap inside one
 *    kernel shows as errors.  Shared variables: module ones used by one
 *    kernel and by two, a .func's own used from two kernels, dynamic
 *    shared used from a .func called by kernels of different static
 *    sizes and directly by a kernel without static shared.  Static
 *    sizes and offsets against hand-computed tables, the sizes also
 *    against `ptxas -v` when it is installed, and as the public API
 *    reports them (ptxemu_function_get_info) and launches.
 *  - dynamic shared pushed past the emulator's shared window by a
 *    kernel that cannot launch: a named launch error.
 *  - a second module: placement order (variables of more kernels
 *    first), a variable an initializer names (every kernel), a dead
 *    function's, one reached only through an indirect call.
 */
#include <stdio.h>
#include <unistd.h>

#include "runtime/ptxemu.h"
#include "tests/emutest.h"

#define NT 64                    /* threads per block */
#define OUTW (NT + 8)            /* errors per thread, then offsets */

/* fill(base, n, tag): words [tid, n) step ntid of base = tag + index;
 * check(...) -> number of words that differ. */
#define HELPERS \
    ".func fill(.param .b32 base, .param .b32 n, .param .b32 tag)\n" \
    "{\n" \
    "  .reg .pred %p<2>;\n" \
    "  .reg .b32 %r<8>;\n" \
    "  ld.param.b32 %r1, [base];\n" \
    "  ld.param.b32 %r2, [n];\n" \
    "  ld.param.b32 %r3, [tag];\n" \
    "  mov.u32 %r4, %tid.x;\n" \
    "LOOP:\n" \
    "  setp.ge.u32 %p1, %r4, %r2;\n" \
    "  @%p1 bra DONE;\n" \
    "  shl.b32 %r5, %r4, 2;\n" \
    "  add.u32 %r5, %r5, %r1;\n" \
    "  add.u32 %r6, %r3, %r4;\n" \
    "  st.shared.u32 [%r5], %r6;\n" \
    "  mov.u32 %r7, %ntid.x;\n" \
    "  add.u32 %r4, %r4, %r7;\n" \
    "  bra LOOP;\n" \
    "DONE:\n" \
    "  ret;\n" \
    "}\n" \
    ".func (.param .b32 err) check(.param .b32 base, .param .b32 n,\n" \
    "                              .param .b32 tag)\n" \
    "{\n" \
    "  .reg .pred %p<3>;\n" \
    "  .reg .b32 %r<10>;\n" \
    "  ld.param.b32 %r1, [base];\n" \
    "  ld.param.b32 %r2, [n];\n" \
    "  ld.param.b32 %r3, [tag];\n" \
    "  mov.u32 %r4, %tid.x;\n" \
    "  mov.u32 %r9, 0;\n" \
    "LOOP:\n" \
    "  setp.ge.u32 %p1, %r4, %r2;\n" \
    "  @%p1 bra DONE;\n" \
    "  shl.b32 %r5, %r4, 2;\n" \
    "  add.u32 %r5, %r5, %r1;\n" \
    "  add.u32 %r6, %r3, %r4;\n" \
    "  ld.shared.u32 %r8, [%r5];\n" \
    "  setp.ne.u32 %p2, %r8, %r6;\n" \
    "  selp.u32 %r8, 1, 0, %p2;\n" \
    "  add.u32 %r9, %r9, %r8;\n" \
    "  mov.u32 %r7, %ntid.x;\n" \
    "  add.u32 %r4, %r4, %r7;\n" \
    "  bra LOOP;\n" \
    "DONE:\n" \
    "  st.param.b32 [err], %r9;\n" \
    "  ret;\n" \
    "}\n"

#define FILL(sym, n, tag) \
    "  mov.u32 %r1, " sym ";\n" \
    "  {\n" \
    "  .param .b32 a0;\n  .param .b32 a1;\n  .param .b32 a2;\n" \
    "  st.param.b32 [a0], %r1;\n" \
    "  st.param.b32 [a1], " n ";\n" \
    "  st.param.b32 [a2], " tag ";\n" \
    "  call.uni fill, (a0, a1, a2);\n" \
    "  }\n"

/* adds the errors to %r9 */
#define CHECK(sym, n, tag) \
    "  mov.u32 %r1, " sym ";\n" \
    "  {\n" \
    "  .param .b32 a0;\n  .param .b32 a1;\n  .param .b32 a2;\n" \
    "  .param .b32 e;\n" \
    "  st.param.b32 [a0], %r1;\n" \
    "  st.param.b32 [a1], " n ";\n" \
    "  st.param.b32 [a2], " tag ";\n" \
    "  call.uni (e), check, (a0, a1, a2);\n" \
    "  ld.param.b32 %r2, [e];\n" \
    "  }\n" \
    "  add.u32 %r9, %r9, %r2;\n"

/* a call of f returning an error count, added to %r9 */
#define CALL_ERR(f) \
    "  {\n" \
    "  .param .b32 e;\n" \
    "  call.uni (e), " f ";\n" \
    "  ld.param.b32 %r2, [e];\n" \
    "  }\n" \
    "  add.u32 %r9, %r9, %r2;\n"

#define KBEGIN(name, decls) \
    ".visible .entry " name "(.param .u64 out)\n" \
    "{\n" \
    decls \
    "  .reg .b32 %r<10>;\n" \
    "  .reg .b64 %rd<8>;\n" \
    "  mov.u32 %r9, 0;\n" \
    "  mov.u32 %r8, %dynamic_smem_size;\n" \
    "  shr.u32 %r8, %r8, 2;\n"

/* out[tid] = errors; out[NT + j] = the offset of symbol j (OFFSET's
 * byte offset: 4 * (NT + j)) */
#define KSTORE \
    "  ld.param.u64 %rd1, [out];\n" \
    "  mov.u32 %r3, %tid.x;\n" \
    "  mul.wide.u32 %rd2, %r3, 4;\n" \
    "  add.s64 %rd3, %rd1, %rd2;\n" \
    "  st.global.u32 [%rd3], %r9;\n"
#define OFFSET(j, sym) \
    "  mov.u32 %r4, " sym ";\n" \
    "  st.global.u32 [%rd1+" #j "], %r4;\n"

static const char five_src[] = PTX_HDR
    ".shared .align 4 .b8 gs_one[64];\n"
    ".shared .align 8 .b8 gs_two[128];\n"
    ".extern .shared .align 16 .b8 dsm[];\n"
    HELPERS
    ".func (.param .b32 err) f_sh()\n"
    "{\n"
    "  .shared .align 4 .b8 fs[256];\n"
    "  .reg .b32 %r<10>;\n"
    "  mov.u32 %r9, 0;\n"
    FILL("fs", "64", "4000")
    "  bar.sync 0;\n"
    CHECK("fs", "64", "4000")
    "  st.param.b32 [err], %r9;\n"
    "  ret;\n"
    "}\n"
    ".func (.param .b32 err) f_dyn(.param .b32 n)\n"
    "{\n"
    "  .reg .b32 %r<10>;\n"
    "  ld.param.b32 %r8, [n];\n"
    "  mov.u32 %r9, 0;\n"
    FILL("dsm", "%r8", "7000")
    "  bar.sync 0;\n"
    CHECK("dsm", "%r8", "7000")
    "  st.param.b32 [err], %r9;\n"
    "  ret;\n"
    "}\n"
    KBEGIN("k1", "  .shared .align 16 .b8 big1[20480];\n")
    FILL("big1", "5120", "1000")
    FILL("gs_one", "16", "2000")
    "  bar.sync 0;\n"
    CHECK("big1", "5120", "1000")
    CHECK("gs_one", "16", "2000")
    KSTORE
    OFFSET(256, "big1")
    OFFSET(260, "gs_one")
    "}\n"
    KBEGIN("k2", "  .shared .align 16 .b8 big2[24576];\n")
    FILL("big2", "6144", "1100")
    FILL("gs_two", "32", "3000")
    CALL_ERR("f_sh")
    "  bar.sync 0;\n"
    CHECK("big2", "6144", "1100")
    CHECK("gs_two", "32", "3000")
    KSTORE
    OFFSET(256, "big2")
    OFFSET(260, "gs_two")
    "}\n"
    KBEGIN("k3", "  .shared .align 16 .b8 big3[32768];\n")
    FILL("big3", "8192", "1200")
    FILL("gs_two", "32", "3100")
    CALL_ERR("f_sh")
    "  {\n"
    "  .param .b32 n;\n"
    "  .param .b32 e;\n"
    "  st.param.b32 [n], %r8;\n"
    "  call.uni (e), f_dyn, (n);\n"
    "  ld.param.b32 %r2, [e];\n"
    "  }\n"
    "  add.u32 %r9, %r9, %r2;\n"
    "  bar.sync 0;\n"
    CHECK("big3", "8192", "1200")
    CHECK("gs_two", "32", "3100")
    /* what f_dyn wrote, at the kernel's own address of dsm */
    CHECK("dsm", "%r8", "7000")
    KSTORE
    OFFSET(256, "big3")
    OFFSET(260, "gs_two")
    OFFSET(264, "dsm")
    "}\n"
    KBEGIN("k4", "  .shared .align 4 .b8 small4[1024];\n")
    FILL("small4", "256", "1300")
    "  {\n"
    "  .param .b32 n;\n"
    "  .param .b32 e;\n"
    "  st.param.b32 [n], %r8;\n"
    "  call.uni (e), f_dyn, (n);\n"
    "  ld.param.b32 %r2, [e];\n"
    "  }\n"
    "  add.u32 %r9, %r9, %r2;\n"
    "  bar.sync 0;\n"
    CHECK("small4", "256", "1300")
    CHECK("dsm", "%r8", "7000")
    KSTORE
    OFFSET(256, "small4")
    OFFSET(260, "dsm")
    "}\n"
    KBEGIN("k5", "")
    FILL("dsm", "%r8", "1400")
    "  bar.sync 0;\n"
    CHECK("dsm", "%r8", "1400")
    KSTORE
    OFFSET(256, "dsm")
    "}\n";

typedef struct KernelWant {
    const char *name;
    uint32_t static_bytes;
    uint32_t dyn_bytes;          /* launched with */
    int noffs;
    uint32_t offs[3];            /* out[NT + j] */
} KernelWant;

/* By hand, following shlayout.h: sets of kernels reaching each variable
 * gs_two {k2,k3}, fs {k2,k3}, gs_one {k1}, big1 {k1}, big2 {k2},
 * big3 {k3}, small4 {k4}.  The two-kernel ones first: gs_two [0,128),
 * fs [128,384); then gs_one [0,64), big1 [64,20544), big2 [384,24960),
 * big3 [384,33152), small4 [0,1024).  f_dyn (k3, k4) names dsm: the
 * module's dynamic offset is past k3 and k4, 33152; k5 has none: 0. */
static const KernelWant five_want[] = {
    { "k1", 20544, 0, 2, { 64, 0 } },
    { "k2", 24960, 0, 2, { 384, 0 } },
    { "k3", 33152, 8192, 3, { 384, 0, 33152 } },
    { "k4", 1024, 16384, 2, { 0, 33152 } },
    { "k5", 0, 4096, 1, { 0 } },
};

static void run_and_check(EmuDevice *d, EmuModule *m, const KernelWant *w)
{
    EmuFunc *k = emu_module_kernel(m, w->name);
    ck_assert_msg(k != NULL, "no kernel %s", w->name);
    ck_assert_msg(k->shared_bytes == w->static_bytes,
                  "%s: static shared %u, want %u", w->name,
                  k->shared_bytes, w->static_bytes);
    uint64_t out = dev_alloc(d, OUTW * 4);
    uint32_t init[OUTW];
    memset(init, 0xff, sizeof(init));
    emu_mem_write(d->mem, out, init, sizeof(init));
    void *args[] = { &out };
    uint32_t g[3] = { 2, 1, 1 }, b[3] = { NT, 1, 1 };
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, w->dyn_bytes, args, &l),
                     EMU_OK);
    ck_assert_int_eq(emu_launch_run(l), EMU_OK);
    emu_launch_end(l);
    uint32_t r[OUTW];
    emu_mem_read(d->mem, out, r, sizeof(r));
    for (int t = 0; t < NT; t++) {
        ck_assert_msg(r[t] == 0, "%s: thread %d saw %u wrong words",
                      w->name, t, r[t]);
    }
    for (int j = 0; j < w->noffs; j++) {
        ck_assert_msg(r[NT + j] == w->offs[j], "%s: offset %d is %u, "
                      "want %u", w->name, j, r[NT + j], w->offs[j]);
    }
    emu_mem_release(d->mem, out);
}

START_TEST(five_kernels)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, five_src);
    uint32_t sum = 0;
    for (size_t i = 0; i < sizeof(five_want) / sizeof(five_want[0]); i++) {
        run_and_check(d, m, &five_want[i]);
        sum += five_want[i].static_bytes;
    }
    ck_assert_uint_gt(sum, d->cfg.max_shared_per_block);
    /* the limit counts static + dynamic, as CUDA does: k4 may take
     * 47 KiB of dynamic shared although it finds it past k3's static
     * shared; k3 may not take 16 KiB more */
    EmuFunc *k3 = emu_module_kernel(m, "k3");
    EmuFunc *k4 = emu_module_kernel(m, "k4");
    uint64_t out = dev_alloc(d, OUTW * 4);
    void *args[] = { &out };
    uint32_t g[3] = { 1, 1, 1 }, b[3] = { NT, 1, 1 };
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k3, g, b, 16384, args, &l),
                     EMU_ERR_LAUNCH_CONFIG);
    uint32_t dyn = d->cfg.max_shared_per_block - 1024;
    ck_assert_int_eq(emu_launch_begin(m, k4, g, b, dyn, args, &l), EMU_OK);
    ck_assert_int_eq(emu_launch_run(l), EMU_OK);
    emu_launch_end(l);
    uint32_t r[NT];
    emu_mem_read(d->mem, out, r, sizeof(r));
    for (int t = 0; t < NT; t++) {
        ck_assert_uint_eq(r[t], 0);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* The public API reports the same sizes and checks launches with them. */
START_TEST(five_kernels_api)
{
    ptxemu_device *dev = NULL;
    ptxemu_module *mod = NULL;
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_load_string(dev, "five.ptx", five_src,
                                               0, &mod), PTXEMU_SUCCESS);
    ptxemu_devptr out;
    ck_assert_int_eq(ptxemu_malloc(dev, OUTW * 4, &out), PTXEMU_SUCCESS);
    for (size_t i = 0; i < sizeof(five_want) / sizeof(five_want[0]); i++) {
        const KernelWant *w = &five_want[i];
        ptxemu_function *f = NULL;
        ck_assert_int_eq(ptxemu_module_get_function(mod, w->name, &f),
                         PTXEMU_SUCCESS);
        ptxemu_function_info fi;
        ck_assert_int_eq(ptxemu_function_get_info(f, &fi), PTXEMU_SUCCESS);
        ck_assert_uint_eq(fi.shared_bytes, w->static_bytes);
        const unsigned g[3] = { 1, 1, 1 }, b[3] = { NT, 1, 1 };
        void *pp[] = { &out };
        ptxemu_status st = ptxemu_launch(f, g, b, w->dyn_bytes, pp);
        ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s", w->name,
                      ptxemu_last_error_message(dev));
        ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_SUCCESS);
        uint32_t r[NT];
        ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, r, out, sizeof(r)),
                         PTXEMU_SUCCESS);
        for (int t = 0; t < NT; t++) {
            ck_assert_uint_eq(r[t], 0);
        }
    }
    ptxemu_module_unload(mod);
    ptxemu_device_destroy(dev);
}
END_TEST

/* A kernel that never launches (17 MiB of static shared) and calls a
 * .func using dynamic shared memory pushes the dynamic offset of the
 * other kernel calling it past the emulator's shared window: a named
 * error at launch, not a fault or a truncated size. */
static const char window_src[] = PTX_HDR
    ".extern .shared .align 16 .b8 dsm[];\n"
    ".func use_dyn()\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  mov.u32 %r1, dsm;\n"
    "  st.shared.u32 [%r1], 1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry huge()\n"
    "{\n"
    "  .shared .align 16 .b8 h[17825792];\n"
    "  .reg .b32 %r<3>;\n"
    "  mov.u32 %r1, h;\n"
    "  st.shared.u32 [%r1], 1;\n"
    "  call.uni use_dyn;\n"
    "}\n"
    ".visible .entry small()\n"
    "{\n"
    "  call.uni use_dyn;\n"
    "}\n";

START_TEST(dynamic_past_window)
{
    ptxemu_device *dev = NULL;
    ptxemu_module *mod = NULL;
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_load_string(dev, "w.ptx", window_src,
                                               0, &mod), PTXEMU_SUCCESS);
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, "small", &f),
                     PTXEMU_SUCCESS);
    ptxemu_function_info fi;
    ck_assert_int_eq(ptxemu_function_get_info(f, &fi), PTXEMU_SUCCESS);
    ck_assert_uint_eq(fi.shared_bytes, 0);
    const unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };
    ck_assert_int_eq(ptxemu_launch(f, g, b, 16, NULL),
                     PTXEMU_ERROR_LAUNCH_CONFIG);
    ck_assert_ptr_nonnull(strstr(ptxemu_last_error_message(dev),
                                 "starts at byte 17825792"));
    ck_assert_int_eq(ptxemu_module_get_function(mod, "huge", &f),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_function_get_info(f, &fi), PTXEMU_SUCCESS);
    ck_assert_uint_eq(fi.shared_bytes, 17825792);
    ck_assert_int_eq(ptxemu_launch(f, g, b, 0, NULL),
                     PTXEMU_ERROR_LAUNCH_CONFIG);
    ptxemu_module_unload(mod);
    ptxemu_device_destroy(dev);
}
END_TEST

/* ------------------------------------------------ ptxas as reference */

/* The "bytes smem" ptxas -v reports for each entry, or -1 when it
 * cannot run. */
static int ptxas_smem(const char *src, const char *const *names, int n,
                      long *smem)
{
    const char *ptxas = getenv("PTXAS");
    if (!ptxas) {
        ptxas = "/usr/local/cuda/bin/ptxas";
    }
    if (access(ptxas, X_OK) != 0) {
        return -1;
    }
    char path[] = "/tmp/check_shared_layoutXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(src, f);
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "'%s' -v -arch=sm_80 -o /dev/null %s 2>&1",
             ptxas, path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    char line[512];
    int cur = -1, found = 0;
    for (int i = 0; i < n; i++) {
        smem[i] = -1;
    }
    while (fgets(line, sizeof(line), p)) {
        const char *e = strstr(line, "Compiling entry function '");
        if (e) {
            e += strlen("Compiling entry function '");
            cur = -1;
            for (int i = 0; i < n; i++) {
                size_t len = strlen(names[i]);
                if (strncmp(e, names[i], len) == 0 && e[len] == '\'') {
                    cur = i;
                }
            }
            continue;
        }
        if (cur >= 0 && strstr(line, "Used ")) {
            /* "..., 20544 bytes smem, ..."; no smem part when none */
            const char *s = strstr(line, " bytes smem");
            long v = 0;
            if (s) {
                while (s > line && s[-1] >= '0' && s[-1] <= '9') {
                    s--;
                }
                v = strtol(s, NULL, 10);
            }
            smem[cur] = v;
            found++;
            cur = -1;
        }
    }
    int rc = pclose(p);
    unlink(path);
    ck_assert_msg(rc == 0, "ptxas failed on the test module");
    return found;
}

START_TEST(five_kernels_vs_ptxas)
{
    enum { N = sizeof(five_want) / sizeof(five_want[0]) };
    const char *names[N];
    long smem[N];
    for (int i = 0; i < N; i++) {
        names[i] = five_want[i].name;
    }
    int found = ptxas_smem(five_src, names, N, smem);
    if (found < 0) {
        printf("check_shared_layout: no ptxas, comparison skipped\n");
        return;
    }
    ck_assert_int_eq(found, N);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(smem[i] == (long)five_want[i].static_bytes,
                      "%s: ptxas says %ld bytes smem, the table %u",
                      names[i], smem[i], five_want[i].static_bytes);
    }
}
END_TEST

/* --------------------------------------------- order, dead, indirect */

static const char order_src[] = PTX_HDR
    ".shared .align 4 .b8 s_rel[16];\n"
    ".global .align 8 .u64 gp = generic(s_rel);\n"
    ".shared .align 4 .b8 s_ab[128];\n"
    ".shared .align 4 .b8 s_bc[128];\n"
    HELPERS
    ".func dead()\n"
    "{\n"
    "  .shared .align 4 .b8 huge[65536];\n"
    "  .reg .b32 %r<3>;\n"
    "  mov.u32 %r1, huge;\n"
    "  st.shared.u32 [%r1], 1;\n"
    "  ret;\n"
    "}\n"
    ".func (.param .b32 err) f_ind()\n"
    "{\n"
    "  .shared .align 16 .b8 s_ind[512];\n"
    "  .reg .b32 %r<10>;\n"
    "  mov.u32 %r9, 0;\n"
    FILL("s_ind", "128", "9000")
    "  bar.sync 0;\n"
    CHECK("s_ind", "128", "9000")
    "  st.param.b32 [err], %r9;\n"
    "  ret;\n"
    "}\n"
    KBEGIN("kA", "")
    FILL("s_ab", "32", "100")
    FILL("s_rel", "4", "500")
    "  bar.sync 0;\n"
    CHECK("s_ab", "32", "100")
    CHECK("s_rel", "4", "500")
    KSTORE
    OFFSET(256, "s_ab")
    OFFSET(260, "s_rel")
    /* the initializer's generic address of s_rel */
    "  ld.global.u64 %rd5, [gp];\n"
    "  cvta.to.shared.u64 %rd6, %rd5;\n"
    "  cvt.u32.u64 %r4, %rd6;\n"
    "  st.global.u32 [%rd1+264], %r4;\n"
    "}\n"
    KBEGIN("kB", "")
    FILL("s_ab", "32", "110")
    FILL("s_bc", "32", "200")
    "  bar.sync 0;\n"
    CHECK("s_ab", "32", "110")
    CHECK("s_bc", "32", "200")
    KSTORE
    OFFSET(256, "s_ab")
    OFFSET(260, "s_bc")
    "}\n"
    KBEGIN("kC", "  .shared .align 4 .b8 own_c[256];\n")
    FILL("s_bc", "32", "210")
    FILL("own_c", "64", "300")
    "  bar.sync 0;\n"
    CHECK("s_bc", "32", "210")
    CHECK("own_c", "64", "300")
    KSTORE
    OFFSET(256, "s_bc")
    OFFSET(260, "own_c")
    "}\n"
    KBEGIN("kD", "")
    "  mov.u64 %rd4, f_ind;\n"
    "  {\n"
    "  .param .b32 e;\n"
    "  prot: .callprototype (.param .b32 _) _ ();\n"
    "  call (e), %rd4, (), prot;\n"
    "  ld.param.b32 %r2, [e];\n"
    "  }\n"
    "  add.u32 %r9, %r9, %r2;\n"
    KSTORE
    "}\n";

/* By hand: s_rel {all: an initializer names it}, s_ab {kA,kB},
 * s_bc {kB,kC}, s_ind {kD: f_ind's address is taken, kD calls through
 * a register}, own_c {kC}, huge {} (dead).  s_rel [0,16) everywhere;
 * s_ab [16,144); s_bc above kB's 144: [144,272) (kC leaves [16,144)
 * unused: the price of one offset per variable); s_ind [16,528); own_c
 * [272,528). */
static const KernelWant order_want[] = {
    { "kA", 144, 0, 3, { 16, 0, 0 } },
    { "kB", 272, 0, 2, { 16, 144 } },
    { "kC", 528, 0, 2, { 144, 272 } },
    { "kD", 528, 0, 0, { 0 } },
};

START_TEST(order_dead_indirect)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, order_src);
    for (size_t i = 0; i < sizeof(order_want) / sizeof(order_want[0]);
         i++) {
        run_and_check(d, m, &order_want[i]);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

Suite *shared_layout_suite(void);

Suite *shared_layout_suite(void)
{
    Suite *s = suite_create("shared_layout");
    TCase *tc = tcase_create("layout");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, five_kernels);
    tcase_add_test(tc, five_kernels_api);
    tcase_add_test(tc, dynamic_past_window);
    tcase_add_test(tc, five_kernels_vs_ptxas);
    tcase_add_test(tc, order_dead_indirect);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(shared_layout_suite());
}
