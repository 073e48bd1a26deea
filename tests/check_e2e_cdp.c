/*
 * tests/check_e2e_cdp.c: end-to-end tests of CUDA dynamic parallelism
 * (device-side launches, emu/devrt.h): the corpus kernels
 * dyn_parallel.parent_launch / child_scale against a host reference, and
 * hand-written PTX kernels (call sequences as nvcc -rdc=true writes
 * them) for nesting, launch order, errors returned to the launching
 * thread, a faulting child, the nesting-depth and pending-launch limits.
 *
 * References: the CUDA programming guide (CDP2: children complete before
 * the parent grid is complete; cudaGetLastError returns and clears the
 * thread's last error; pending launch count limit 2048 by default,
 * nesting depth 24) and the CUDA error codes of driver_types.h
 * (cudaErrorInvalidConfiguration 9, cudaErrorLaunchMaxDepthExceeded 65,
 * cudaErrorLaunchPendingCountExceeded 69,
 * cudaErrorInvalidDeviceFunction 98).  The order of children is
 * emu/devrt.h's documented schedule: launch order, depth first.
 */
#include <check.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

#include "tests/e2e_util.h"

/* ------------------------------------------------ corpus kernels */

/* Host reference of parent_launch: data[begin, end) of segment s is
 * multiplied by s + 1 (a float product, bit-exact on the host). */
static void ref_scale(float *data, const int *seg, int nseg)
{
    for (int s = 0; s < nseg; s++) {
        for (int i = seg[s]; i < seg[s + 1]; i++) {
            data[i] *= (float)(s + 1);
        }
    }
}

/* Run parent_launch over `seg` (nseg segments covering n floats) and
 * compare with the reference; returns the number of non-empty segments
 * and the child CTAs they need. */
static void run_segments(const int *seg, int nseg, int n, unsigned *kids,
                         unsigned *kid_ctas)
{
    float *h = malloc(sizeof(float) * (size_t)(n ? n : 1));
    float *ref = malloc(sizeof(float) * (size_t)(n ? n : 1));
    float *got = malloc(sizeof(float) * (size_t)(n ? n : 1));
    ck_assert(h && ref && got);
    for (int i = 0; i < n; i++) {
        h[i] = rndf(-4.0f, 4.0f);
    }
    memcpy(ref, h, sizeof(float) * (size_t)n);
    ref_scale(ref, seg, nseg);
    ptxemu_devptr d = dbuf(h, sizeof(float) * (size_t)(n ? n : 1));
    ptxemu_devptr ds = dbuf(seg, sizeof(int) * (size_t)(nseg + 1));
    int ns = nseg;
    void *params[] = {&d, &ds, &ns};
    unsigned grid = (unsigned)(nseg + 127) / 128;
    launch("parent_launch", grid ? grid : 1, 128, 0, params);
    dget(got, d, sizeof(float) * (size_t)n);
    for (int i = 0; i < n; i++) {
        EQ_F("data", i, got[i], ref[i]);
    }
    *kids = *kid_ctas = 0;
    for (int s = 0; s < nseg; s++) {
        int len = seg[s + 1] - seg[s];
        if (len > 0) {
            (*kids)++;
            *kid_ctas += (unsigned)(len + 127) / 128;
        }
    }
    ptxemu_free(dev, d);
    ptxemu_free(dev, ds);
    free(h);
    free(ref);
    free(got);
}

START_TEST(e2e_cdp_segments_empty)
{
    open_ptx("dyn_parallel");
    rng_seed(11);
    /* empty and inverted segments launch nothing */
    static const int seg[] = {0, 0, 5, 5, 3, 3, 8, 8};
    unsigned k, c;
    run_segments(seg, 7, 8, &k, &c);
    ck_assert_uint_eq(k, 2);    /* [0,5) and [3,8) */
}
END_TEST

START_TEST(e2e_cdp_segments_big)
{
    open_ptx("dyn_parallel");
    rng_seed(12);
    /* one segment of 1000 floats: a child of 8 CTAs of 128 threads,
     * whose last CTA is partly out of range */
    static const int seg[] = {0, 1000};
    unsigned k, c;
    run_segments(seg, 1, 1000, &k, &c);
    ck_assert_uint_eq(c, 8);
}
END_TEST

START_TEST(e2e_cdp_segments_many)
{
    open_ptx("dyn_parallel");
    rng_seed(13);
    enum { NSEG = 300 };
    int seg[NSEG + 1];
    seg[0] = 0;
    for (int s = 0; s < NSEG; s++) {
        int len = (int)(rnd() % 7) == 0 ? 0 : (int)(rnd() % 300);
        seg[s + 1] = seg[s] + len;
    }
    unsigned k, c;
    run_segments(seg, NSEG, seg[NSEG], &k, &c);
    ck_assert_uint_gt(k, 200);
}
END_TEST

/* The sm_90 PTX of the same source, and the statistics: every child
 * grid counts as a launch with its CTAs and threads, and the warp
 * instructions are the same whether or not steps are hooked. */
START_TEST(e2e_cdp_sm90_stats)
{
    static const int seg[] = {0, 3, 3, 200, 460};
    uint64_t insns[2] = {0, 0};
    for (int hooked = 0; hooked < 2; hooked++) {
        const char *top = getenv("top_srcdir");
        char path[1024];
        snprintf(path, sizeof(path), "%s/tests/corpus/ptx/"
                 "dyn_parallel.sm90.ptx", top ? top : ".");
        ptxemu_device_options o;
        ptxemu_device_options_default(&o);
        o.collect_stats = hooked;
        ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
        ck_assert_int_eq(ptxemu_module_load_file(dev, path, &mod),
                         PTXEMU_SUCCESS);
        rng_seed(14);
        unsigned k, c;
        run_segments(seg, 4, 460, &k, &c);
        ck_assert_uint_eq(k, 3);
        ck_assert_uint_eq(c, 1 + 2 + 3);
        ptxemu_stats st;
        ck_assert_int_eq(ptxemu_get_stats(dev, &st), PTXEMU_SUCCESS);
        ck_assert_uint_eq(st.launches, 1 + k);
        ck_assert_uint_eq(st.ctas, 1 + c);
        ck_assert_uint_eq(st.threads, 128 * (1 + c));
        insns[hooked] = st.warp_insns;
        close_ptx();
    }
    ck_assert_uint_eq(insns[0], insns[1]);
    ck_assert_uint_gt(insns[0], 0);
}
END_TEST

/* ------------------------------------------------ hand-written PTX */

#define CDP_DECLS                                                         \
    ".version 8.0\n.target sm_80\n.address_size 64\n"                     \
    ".extern .func (.param .b32 func_retval0) __cudaCDP2GetLastError\n"   \
    "();\n"                                                               \
    ".extern .func (.param .b32 func_retval0) __cudaCDP2PeekAtLastError\n"\
    "();\n"                                                               \
    ".extern .func (.param .b64 func_retval0)\n"                          \
    "__cudaCDP2GetParameterBufferV2\n(.param .b64 p0,\n"                  \
    ".param .align 4 .b8 p1[12], .param .align 4 .b8 p2[12],\n"           \
    ".param .b32 p3);\n"                                                  \
    ".extern .func (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2\n" \
    "(.param .b64 p0, .param .b64 p1);\n"

/* dst = GetParameterBufferV2(f, (gx,1,1), (bx,1,1), 0) */
#define GETBUF(f, gx, bx, dst)                                            \
    "{\n.param .b64 a0;\nst.param.b64 [a0], " f ";\n"                     \
    ".param .align 4 .b8 a1[12];\nst.param.b32 [a1], " gx ";\n"           \
    "st.param.b32 [a1+4], 1;\nst.param.b32 [a1+8], 1;\n"                  \
    ".param .align 4 .b8 a2[12];\nst.param.b32 [a2], " bx ";\n"           \
    "st.param.b32 [a2+4], 1;\nst.param.b32 [a2+8], 1;\n"                  \
    ".param .b32 a3;\nst.param.b32 [a3], 0;\n.param .b64 r0;\n"           \
    "call.uni (r0), __cudaCDP2GetParameterBufferV2, (a0, a1, a2, a3);\n"  \
    "ld.param.b64 " dst ", [r0];\n}\n"
/* dst = LaunchDeviceV2(buf, stream) */
#define LAUNCH(buf, stream, dst)                                          \
    "{\n.param .b64 a0;\nst.param.b64 [a0], " buf ";\n"                   \
    ".param .b64 a1;\nst.param.b64 [a1], " stream ";\n"                   \
    ".param .b32 r0;\ncall.uni (r0), __cudaCDP2LaunchDeviceV2, (a0, a1);\n"\
    "ld.param.b32 " dst ", [r0];\n}\n"
#define CALL0(fn, dst)                                                    \
    "{\n.param .b32 r0;\ncall.uni (r0), " fn ", ();\n"                    \
    "ld.param.b32 " dst ", [r0];\n}\n"

#define REGS                                                              \
    ".reg .pred %p<8>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<24>;\n"

/* nest(buf, level, tag): thread 0 appends tag to the log buf[1 + n]
 * (n = buf[0]++); below level 3 each of the 2 threads launches
 * nest<<<1, 2>>>(buf, level + 1, tag * 10 + tid + 1).  The default
 * stream; the second thread's child goes to cudaStreamTailLaunch when
 * level == 2 (tail launches run after the grid's other children). */
static const char nest_ptx[] = CDP_DECLS
    ".visible .entry nest(.param .u64 nb, .param .u32 nl, .param .u32 nt)\n"
    "{\n" REGS
    "ld.param.u64 %rd1, [nb];\nld.param.u32 %r1, [nl];\n"
    "ld.param.u32 %r2, [nt];\nmov.u32 %r3, %tid.x;\n"
    "setp.ne.u32 %p1, %r3, 0;\n@%p1 bra SKIP;\n"
    "atom.global.add.u32 %r4, [%rd1], 1;\nmul.wide.u32 %rd2, %r4, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3+4], %r2;\n"
    "SKIP:\nsetp.ge.u32 %p2, %r1, 3;\n@%p2 bra DONE;\n"
    "mov.u64 %rd4, nest;\n"
    GETBUF("%rd4", "1", "2", "%rd5")
    "setp.eq.u64 %p3, %rd5, 0;\n@%p3 bra DONE;\n"
    "add.u32 %r5, %r1, 1;\nmul.lo.u32 %r6, %r2, 10;\n"
    "add.u32 %r6, %r6, %r3;\nadd.u32 %r6, %r6, 1;\n"
    "st.u64 [%rd5], %rd1;\nst.u32 [%rd5+8], %r5;\nst.u32 [%rd5+12], %r6;\n"
    "setp.eq.u32 %p4, %r1, 2;\nsetp.eq.u32 %p5, %r3, 0;\n"
    "and.pred %p6, %p4, %p5;\n"
    "selp.b64 %rd6, 3, 0, %p6;\n"
    LAUNCH("%rd5", "%rd6", "%r7")
    "DONE:\nret;\n}\n";

/* The log nest() writes, by the documented schedule: a grid's threads,
 * then its children in launch order with their descendants (depth
 * first), tail launches last. */
static void ref_nest(uint32_t level, uint32_t tag, uint32_t *log,
                     uint32_t *n)
{
    log[(*n)++] = tag;
    if (level >= 3) {
        return;
    }
    bool tail0 = level == 2;
    if (!tail0) {
        ref_nest(level + 1, tag * 10 + 1, log, n);
    }
    ref_nest(level + 1, tag * 10 + 2, log, n);
    if (tail0) {
        ref_nest(level + 1, tag * 10 + 1, log, n);
    }
}

START_TEST(e2e_cdp_nested)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    ck_assert_msg(ptxemu_module_load_string(dev, "nest.ptx", nest_ptx, 0,
                                            &mod) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    uint32_t logv[64] = {0};
    ptxemu_devptr d = dbuf(logv, sizeof(logv));
    uint32_t level = 1, tag = 1;
    void *params[] = {&d, &level, &tag};
    launch("nest", 1, 2, 0, params);
    dget(logv, d, sizeof(logv));
    uint32_t want[64], n = 0;
    ref_nest(1, 1, want, &n);
    ck_assert_uint_eq(n, 7);     /* 1 + 2 + 4 grids, three levels */
    EQ_I("count", 0, logv[0], n);
    for (uint32_t k = 0; k < n; k++) {
        EQ_I("log", k, logv[1 + k], want[k]);
    }
}
END_TEST

/* cfg_parent(out): 4 threads; thread 0 asks for 2048 threads per block,
 * thread 1 for a valid grid, thread 2 passes a function value that is
 * no kernel, thread 3 a grid of 0.  Each stores [launch result (-1 when
 * no buffer), peek, get, get again] at out[4 * tid], then 1 at
 * out[20 + tid] (the parent goes on).  cfg_child stores 77 + ntid at
 * out[16]. */
static const char cfg_ptx[] = CDP_DECLS
    ".visible .entry cfg_child(.param .u64 co)\n{\n" REGS
    "ld.param.u64 %rd1, [co];\nmov.u32 %r1, %ntid.x;\n"
    "add.u32 %r1, %r1, 77;\nst.global.u32 [%rd1+64], %r1;\nret;\n}\n"
    ".visible .entry cfg_parent(.param .u64 po)\n{\n" REGS
    "ld.param.u64 %rd1, [po];\nmov.u32 %r1, %tid.x;\n"
    "setp.eq.u32 %p1, %r1, 0;\nselp.u32 %r2, 2048, 4, %p1;\n"
    "setp.eq.u32 %p2, %r1, 3;\nselp.u32 %r3, 0, 1, %p2;\n"
    "mov.u64 %rd2, cfg_child;\n"
    "setp.eq.u32 %p3, %r1, 2;\nselp.b64 %rd4, 12345, %rd2, %p3;\n"
    GETBUF("%rd4", "%r3", "%r2", "%rd5")
    "mov.u32 %r4, -1;\n"
    "setp.eq.u64 %p4, %rd5, 0;\n@%p4 bra NOLAUNCH;\n"
    "st.u64 [%rd5], %rd1;\n"
    LAUNCH("%rd5", "0", "%r4")
    "NOLAUNCH:\n"
    CALL0("__cudaCDP2PeekAtLastError", "%r5")
    CALL0("__cudaCDP2GetLastError", "%r6")
    CALL0("__cudaCDP2GetLastError", "%r7")
    "mul.wide.u32 %rd6, %r1, 16;\nadd.s64 %rd7, %rd1, %rd6;\n"
    "st.global.v4.u32 [%rd7], {%r4, %r5, %r6, %r7};\n"
    "mul.wide.u32 %rd8, %r1, 4;\nadd.s64 %rd9, %rd1, %rd8;\n"
    "st.global.u32 [%rd9+80], 1;\nret;\n}\n";

START_TEST(e2e_cdp_bad_config)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ck_assert_msg(ptxemu_module_load_string(dev, "cfg.ptx", cfg_ptx, 0,
                                            &mod) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    uint32_t out[32] = {0};
    ptxemu_devptr d = dbuf(out, sizeof(out));
    void *params[] = {&d};
    launch("cfg_parent", 1, 4, 0, params);
    dget(out, d, sizeof(out));
    static const uint32_t want[4][4] = {
        {9, 9, 9, 0},                   /* cudaErrorInvalidConfiguration */
        {0, 0, 0, 0},
        {UINT32_MAX, 98, 98, 0},        /* ...InvalidDeviceFunction */
        {9, 9, 9, 0},
    };
    for (int t = 0; t < 4; t++) {
        for (int k = 0; k < 4; k++) {
            EQ_I("result", 4 * t + k, out[4 * t + k], want[t][k]);
        }
        EQ_I("parent went on", t, out[20 + t], 1);
    }
    EQ_I("child ran with 4 threads", 16, out[16], 77 + 4);
}
END_TEST

/* fault_parent(p, q): thread 0 stores 5 at p[0] and launches
 * fault_child<<<2, 32>>>(q); the child's thread 33 (CTA 1, thread 1)
 * stores 9 at q[33]. */
static const char fault_ptx[] = CDP_DECLS
    ".visible .entry fault_child(.param .u64 fq)\n{\n" REGS
    "ld.param.u64 %rd1, [fq];\nmov.u32 %r1, %ctaid.x;\n"
    "mov.u32 %r2, %tid.x;\nmad.lo.u32 %r3, %r1, 32, %r2;\n"
    "setp.ne.u32 %p1, %r3, 33;\n@%p1 bra OUT;\n"
    "mul.wide.u32 %rd2, %r3, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], 9;\nOUT:\nret;\n}\n"
    ".visible .entry fault_parent(.param .u64 fp, .param .u64 fq2)\n{\n"
    REGS
    "ld.param.u64 %rd1, [fp];\nld.param.u64 %rd2, [fq2];\n"
    "st.global.u32 [%rd1], 5;\nmov.u64 %rd4, fault_child;\n"
    GETBUF("%rd4", "2", "32", "%rd5")
    "st.u64 [%rd5], %rd2;\n"
    LAUNCH("%rd5", "0", "%r4")
    "ret;\n}\n";

START_TEST(e2e_cdp_fault)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ck_assert_msg(ptxemu_module_load_string(dev, "fault.ptx", fault_ptx, 0,
                                            &mod) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    uint32_t z[64] = {0};
    ptxemu_devptr p = dbuf(z, 4), q = dbuf(z, 8);  /* q too small */
    void *params[] = {&p, &q};
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, "fault_parent", &f),
                     PTXEMU_SUCCESS);
    unsigned one[3] = {1, 1, 1};
    ck_assert_int_eq(ptxemu_launch(f, one, one, 0, params),
                     PTXEMU_ERROR_ILLEGAL_ADDRESS);
    const char *m = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(m, "kernel 'fault_child' failed") &&
                  strstr(m, "CTA (1,0,0), thread (1,0,0)") &&
                  strstr(m, "st.global.u32") &&
                  strstr(m, "launched by kernel 'fault_parent' CTA "
                         "(0,0,0) thread (0,0,0)"),
                  "message: %s", m);
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_ERROR_ILLEGAL_ADDRESS);
    /* the parent's write happened; the next launch works */
    uint32_t v = 0;
    dget(&v, p, 4);
    ck_assert_uint_eq(v, 5);
    ptxemu_devptr q2 = dbuf(z, sizeof(z));
    void *params2[] = {&p, &q2};
    launch("fault_parent", 1, 1, 0, params2);
    uint32_t got[64];
    dget(got, q2, sizeof(got));
    for (int i = 0; i < 64; i++) {
        EQ_I("q", i, got[i], i == 33 ? 9 : 0);
    }
}
END_TEST

/* deep(out, level): out[level] = level + 1, launches deep(out,
 * level + 1) (1 thread) up to level 30, stores its GetLastError at
 * out[32 + level]. */
static const char deep_ptx[] = CDP_DECLS
    ".visible .entry deep(.param .u64 dout, .param .u32 dlv)\n{\n" REGS
    "ld.param.u64 %rd1, [dout];\nld.param.u32 %r1, [dlv];\n"
    "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "add.u32 %r2, %r1, 1;\nst.global.u32 [%rd3], %r2;\n"
    "setp.ge.u32 %p1, %r1, 30;\n@%p1 bra OUT;\n"
    "mov.u64 %rd4, deep;\n"
    GETBUF("%rd4", "1", "1", "%rd5")
    "setp.eq.u64 %p2, %rd5, 0;\n@%p2 bra ERR;\n"
    "st.u64 [%rd5], %rd1;\nst.u32 [%rd5+8], %r2;\n"
    LAUNCH("%rd5", "0", "%r4")
    "ERR:\n"
    CALL0("__cudaCDP2GetLastError", "%r5")
    "st.global.u32 [%rd3+128], %r5;\nOUT:\nret;\n}\n";

START_TEST(e2e_cdp_depth_limit)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ck_assert_msg(ptxemu_module_load_string(dev, "deep.ptx", deep_ptx, 0,
                                            &mod) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    uint32_t out[64] = {0};
    ptxemu_devptr d = dbuf(out, sizeof(out));
    uint32_t level = 0;
    void *params[] = {&d, &level};
    launch("deep", 1, 1, 0, params);
    dget(out, d, sizeof(out));
    /* the host's grid is depth 0; grids of depth 1..24 exist */
    for (uint32_t k = 0; k < 32; k++) {
        EQ_I("ran", k, out[k], k <= 24 ? k + 1 : 0);
        EQ_I("error", k, out[32 + k], k < 24 ? 0 : k == 24 ? 65 : 0);
    }
}
END_TEST

/* pend_parent(cnt, errs): every thread launches pend_child<<<1,1>>>(cnt)
 * (cnt[0]++) and stores its GetLastError at errs[global id]. */
static const char pend_ptx[] = CDP_DECLS
    ".visible .entry pend_child(.param .u64 cc)\n{\n" REGS
    "ld.param.u64 %rd1, [cc];\natom.global.add.u32 %r1, [%rd1], 1;\n"
    "ret;\n}\n"
    ".visible .entry pend_parent(.param .u64 pc, .param .u64 pe)\n{\n" REGS
    "ld.param.u64 %rd1, [pc];\nld.param.u64 %rd2, [pe];\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\n"
    "mad.lo.u32 %r4, %r1, %r2, %r3;\nmov.u64 %rd4, pend_child;\n"
    GETBUF("%rd4", "1", "1", "%rd5")
    "setp.eq.u64 %p1, %rd5, 0;\n@%p1 bra ERR;\n"
    "st.u64 [%rd5], %rd1;\n"
    LAUNCH("%rd5", "0", "%r5")
    "ERR:\n"
    CALL0("__cudaCDP2GetLastError", "%r6")
    "mul.wide.u32 %rd6, %r4, 4;\nadd.s64 %rd7, %rd2, %rd6;\n"
    "st.global.u32 [%rd7], %r6;\nret;\n}\n";

START_TEST(e2e_cdp_pending_limit)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ck_assert_msg(ptxemu_module_load_string(dev, "pend.ptx", pend_ptx, 0,
                                            &mod) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    enum { N = 3 * 1024 };
    uint32_t *errs = calloc(N, 4);
    ck_assert(errs != NULL);
    uint32_t cnt = 0;
    ptxemu_devptr dc = dbuf(&cnt, 4), de = dbuf(errs, 4 * N);
    void *params[] = {&dc, &de};
    /* CTAs run one after another: the first 2048 threads (CTAs 0, 1)
     * get their launches queued, the others
     * cudaErrorLaunchPendingCountExceeded */
    launch("pend_parent", 3, 1024, 0, params);
    dget(errs, de, 4 * N);
    dget(&cnt, dc, 4);
    ck_assert_uint_eq(cnt, 2048);
    for (int i = 0; i < N; i++) {
        EQ_I("err", i, errs[i], i < 2048 ? 0 : 69);
    }
    /* once they ran, the slots are free again */
    cnt = 0;
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, dc, &cnt, 4), PTXEMU_SUCCESS);
    launch("pend_parent", 2, 1024, 0, params);
    dget(errs, de, 4 * 2048);
    dget(&cnt, dc, 4);
    ck_assert_uint_eq(cnt, 2048);
    for (int i = 0; i < 2048; i++) {
        EQ_I("err again", i, errs[i], 0);
    }
    /* cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 3000) */
    ck_assert_int_eq(ptxemu_set_pending_launch_limit(dev, 0),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxemu_set_pending_launch_limit(dev, 3000),
                     PTXEMU_SUCCESS);
    cnt = 0;
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, dc, &cnt, 4), PTXEMU_SUCCESS);
    launch("pend_parent", 3, 1024, 0, params);
    dget(errs, de, 4 * N);
    dget(&cnt, dc, 4);
    ck_assert_uint_eq(cnt, 3000);
    for (int i = 0; i < N; i++) {
        EQ_I("err, limit 3000", i, errs[i], i < 3000 ? 0 : 69);
    }
    free(errs);
}
END_TEST

/* The other device-runtime calls: out is u64[8] (answers written
 * through pointers), res = out + 64 bytes the u32 results:
 *   res[0] cudaMalloc(&out[0], 64), res[1] what was stored in the block
 *   res[2], res[3] cudaFree of the block, twice
 *   res[4] cudaGetDevice(&out[1])
 *   res[5] cudaStreamCreateWithFlags(&out[2], cudaStreamNonBlocking),
 *   res[6] the same with flags 0 (device streams must be non-blocking)
 *   res[7], res[8] cudaStreamDestroy of out[2], twice
 *   res[9] cudaDeviceGetLimit(&out[4], PendingLaunchCount), res[10] the
 *   same for cudaLimitMaxL2FetchGranularity (5, not a device limit)
 *   res[11], res[12] cudaGetLastError twice */
#define CALL(fn, args, dst)                                               \
    "{\n" args ".param .b32 r0;\ncall.uni (r0), " fn ", (" ARGN ");\n"    \
    "ld.param.b32 " dst ", [r0];\n}\n"
#define A0(t, v) ".param ." t " a0;\nst.param." t " [a0], " v ";\n"
#define A1(t, v) ".param ." t " a1;\nst.param." t " [a1], " v ";\n"
static const char misc_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 r) __cudaCDP2Malloc (.param .b64 a,"
    " .param .b64 b);\n"
    ".extern .func (.param .b32 r) __cudaCDP2Free (.param .b64 a);\n"
    ".extern .func (.param .b32 r) __cudaCDP2GetDevice (.param .b64 a);\n"
    ".extern .func (.param .b32 r) __cudaCDP2StreamCreateWithFlags"
    " (.param .b64 a, .param .b32 b);\n"
    ".extern .func (.param .b32 r) __cudaCDP2StreamDestroy"
    " (.param .b64 a);\n"
    ".extern .func (.param .b32 r) __cudaCDP2DeviceGetLimit"
    " (.param .b64 a, .param .b32 b);\n"
    ".extern .func (.param .b32 r) __cudaCDP2GetLastError ();\n"
    ".visible .entry misc(.param .u64 mo)\n{\n" REGS
    "ld.param.u64 %rd1, [mo];\n"
#define ARGN "a0, a1"
    CALL("__cudaCDP2Malloc", A0("b64", "%rd1") A1("b64", "64"), "%r1")
    "ld.global.u64 %rd2, [%rd1];\nst.u32 [%rd2+60], 7;\n"
    "ld.u32 %r2, [%rd2+60];\n"
#undef ARGN
#define ARGN "a0"
    CALL("__cudaCDP2Free", A0("b64", "%rd2"), "%r3")
    CALL("__cudaCDP2Free", A0("b64", "%rd2"), "%r4")
    "add.s64 %rd3, %rd1, 8;\n"
    CALL("__cudaCDP2GetDevice", A0("b64", "%rd3"), "%r5")
#undef ARGN
#define ARGN "a0, a1"
    "add.s64 %rd4, %rd1, 16;\n"
    CALL("__cudaCDP2StreamCreateWithFlags", A0("b64", "%rd4")
         A1("b32", "1"), "%r6")
    "add.s64 %rd5, %rd1, 24;\n"
    CALL("__cudaCDP2StreamCreateWithFlags", A0("b64", "%rd5")
         A1("b32", "0"), "%r7")
#undef ARGN
#define ARGN "a0"
    "ld.global.u64 %rd6, [%rd1+16];\n"
    CALL("__cudaCDP2StreamDestroy", A0("b64", "%rd6"), "%r8")
    CALL("__cudaCDP2StreamDestroy", A0("b64", "%rd6"), "%r9")
#undef ARGN
#define ARGN "a0, a1"
    "add.s64 %rd7, %rd1, 32;\n"
    CALL("__cudaCDP2DeviceGetLimit", A0("b64", "%rd7") A1("b32", "4"),
         "%r10")
    "add.s64 %rd8, %rd1, 40;\n"
    CALL("__cudaCDP2DeviceGetLimit", A0("b64", "%rd8") A1("b32", "5"),
         "%r11")
#undef ARGN
#define ARGN ""
    CALL("__cudaCDP2GetLastError", "", "%r12")
    CALL("__cudaCDP2GetLastError", "", "%r13")
#undef ARGN
    "st.global.v4.u32 [%rd1+64], {%r1, %r2, %r3, %r4};\n"
    "st.global.v4.u32 [%rd1+80], {%r5, %r6, %r7, %r8};\n"
    "st.global.v4.u32 [%rd1+96], {%r9, %r10, %r11, %r12};\n"
    "st.global.u32 [%rd1+112], %r13;\nret;\n}\n";

START_TEST(e2e_cdp_runtime_calls)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ck_assert_msg(ptxemu_module_load_string(dev, "misc.ptx", misc_ptx, 0,
                                            &mod) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    uint64_t out[16];
    memset(out, 0xff, sizeof(out));
    ptxemu_devptr d = dbuf(out, sizeof(out));
    void *params[] = {&d};
    launch("misc", 1, 1, 0, params);
    dget(out, d, sizeof(out));
    uint32_t res[13];
    memcpy(res, &out[8], sizeof(res));
    static const uint32_t want[13] = {
        0, 7, 0, 1,             /* cudaErrorInvalidValue: freed already */
        0, 0, 1, 0, 400,        /* cudaErrorInvalidResourceHandle */
        0, 708, 708, 0,         /* cudaErrorUnsupportedLimit, cleared */
    };
    for (int k = 0; k < 13; k++) {
        EQ_I("result", k, res[k], want[k]);
    }
    ck_assert(out[0] != 0 && out[0] != UINT64_MAX);  /* the block */
    EQ_I("device", 1, (uint32_t)out[1], 0);
    ck_assert(out[2] != 0 && out[2] != UINT64_MAX);  /* the stream */
    EQ_I("untouched", 3, out[3], UINT64_MAX);
    EQ_I("pending launch limit", 4, out[4], 2048);
    EQ_I("untouched", 5, out[5], UINT64_MAX);
}
END_TEST

/* The first-version pair cudaGetParameterBuffer(align, size) /
 * cudaLaunchDevice(func, buffer, grid, block, shmem, stream):
 * v1_kid(p, v) stores v + tid at p[tid]; v1_top launches it with 4
 * threads and v = 100 (result at p[10]), then once more with a buffer
 * of 4 bytes, too small for its 12 bytes of parameters (p[11]). */
#define V1_LAUNCH(buf, dst)                                               \
    "{\n.param .b64 a0;\nst.param.b64 [a0], %rd2;\n"                     \
    ".param .b64 a1;\nst.param.b64 [a1], " buf ";\n"                      \
    ".param .align 4 .b8 a2[12];\nst.param.b32 [a2], 1;\n"               \
    "st.param.b32 [a2+4], 1;\nst.param.b32 [a2+8], 1;\n"                  \
    ".param .align 4 .b8 a3[12];\nst.param.b32 [a3], 4;\n"               \
    "st.param.b32 [a3+4], 1;\nst.param.b32 [a3+8], 1;\n"                  \
    ".param .b32 a4;\nst.param.b32 [a4], 0;\n"                            \
    ".param .b64 a5;\nst.param.b64 [a5], 0;\n.param .b32 r0;\n"          \
    "call.uni (r0), __cudaCDP2LaunchDevice, (a0, a1, a2, a3, a4, a5);\n" \
    "ld.param.b32 " dst ", [r0];\n}\n"
#define V1_BUF(size, dst)                                                 \
    "{\n.param .b64 a0;\nst.param.b64 [a0], 64;\n"                       \
    ".param .b64 a1;\nst.param.b64 [a1], " size ";\n.param .b64 r0;\n"   \
    "call.uni (r0), __cudaCDP2GetParameterBuffer, (a0, a1);\n"           \
    "ld.param.b64 " dst ", [r0];\n}\n"
static const char v1_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b64 r) __cudaCDP2GetParameterBuffer"
    " (.param .b64 a, .param .b64 b);\n"
    ".extern .func (.param .b32 r) __cudaCDP2LaunchDevice (.param .b64 a,"
    " .param .b64 b, .param .align 4 .b8 c[12],"
    " .param .align 4 .b8 d[12], .param .b32 e, .param .b64 f);\n"
    ".visible .entry v1_kid(.param .u64 kp, .param .u32 kv)\n{\n" REGS
    "ld.param.u64 %rd1, [kp];\nld.param.u32 %r1, [kv];\n"
    "mov.u32 %r2, %tid.x;\nadd.u32 %r3, %r1, %r2;\n"
    "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r3;\nret;\n}\n"
    ".visible .entry v1_top(.param .u64 tp)\n{\n" REGS
    "ld.param.u64 %rd1, [tp];\nmov.u64 %rd2, v1_kid;\n"
    V1_BUF("16", "%rd3")
    "st.u64 [%rd3], %rd1;\nst.u32 [%rd3+8], 100;\n"
    V1_LAUNCH("%rd3", "%r1")
    V1_BUF("4", "%rd4")
    V1_LAUNCH("%rd4", "%r2")
    "st.global.u32 [%rd1+40], %r1;\nst.global.u32 [%rd1+44], %r2;\n"
    "ret;\n}\n";

START_TEST(e2e_cdp_v1_launch)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ck_assert_msg(ptxemu_module_load_string(dev, "v1.ptx", v1_ptx, 0,
                                            &mod) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    uint32_t out[12];
    memset(out, 0xee, sizeof(out));
    ptxemu_devptr d = dbuf(out, sizeof(out));
    void *params[] = {&d};
    launch("v1_top", 1, 1, 0, params);
    dget(out, d, sizeof(out));
    for (int k = 0; k < 12; k++) {
        EQ_I("out", k, out[k], k < 4 ? 100u + (uint32_t)k
                                : k == 10 ? 0 : k == 11 ? 1 : 0xeeeeeeeeu);
    }
}
END_TEST

/* A device-runtime function the emulator does not provide fails the
 * load, naming it. */
static const char unsup_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b64 func_retval0) __cudaCDP2GetErrorString\n"
    "(.param .b32 e);\n"
    ".visible .entry k(.param .u64 o)\n{\n" REGS
    "{\n.param .b32 a0;\nst.param.b32 [a0], 1;\n.param .b64 r0;\n"
    "call.uni (r0), __cudaCDP2GetErrorString, (a0);\n"
    "ld.param.b64 %rd1, [r0];\n}\nret;\n}\n";

START_TEST(e2e_cdp_unsupported)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_load_string(dev, "u.ptx", unsup_ptx, 0,
                                               &mod),
                     PTXEMU_ERROR_UNSUPPORTED);
    const char *m = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(m, "u.ptx:") &&
                  strstr(m, "calls '__cudaCDP2GetErrorString'"),
                  "message: %s", m);
}
END_TEST

/* ------------------------------------------------------------ suite */

Suite *e2e_cdp_suite(void);

Suite *e2e_cdp_suite(void)
{
    Suite *s = suite_create("e2e_cdp");
    TCase *tc = tcase_create("cdp");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, NULL, close_ptx);
    const TTest *const tests[] = {
        e2e_cdp_segments_empty,
        e2e_cdp_segments_big,
        e2e_cdp_segments_many,
        e2e_cdp_sm90_stats,
        e2e_cdp_nested,
        e2e_cdp_bad_config,
        e2e_cdp_fault,
        e2e_cdp_depth_limit,
        e2e_cdp_pending_limit,
        e2e_cdp_runtime_calls,
        e2e_cdp_v1_launch,
        e2e_cdp_unsupported,
    };
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(e2e_cdp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
