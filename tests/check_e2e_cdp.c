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
#include <unistd.h>

#include "abi/cuda_abi.h"
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

/* text with every `from` replaced by `to` (malloc'd) */
static char *subst(const char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    for (const char *p = strstr(text, from); p; p = strstr(p + nf, from)) {
        n++;
    }
    char *out = malloc(strlen(text) + n * nt + 1), *o = out;
    ck_assert(out != NULL);
    for (const char *p = text;;) {
        const char *q = strstr(p, from);
        size_t k = q ? (size_t)(q - p) : strlen(p);
        memcpy(o, p, k);
        o += k;
        if (!q) {
            break;
        }
        memcpy(o, to, nt);
        o += nt;
        p = q + nf;
    }
    *o = 0;
    return out;
}

static void run_nested(const char *ptx)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    ck_assert_msg(ptxemu_module_load_string(dev, "nest.ptx", ptx, 0,
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

START_TEST(e2e_cdp_nested)
{
    run_nested(nest_ptx);
}
END_TEST

/* the per-thread default stream entry point (nvcc --default-stream
 * per-thread) behaves the same */
START_TEST(e2e_cdp_nested_ptsz)
{
    char *t = subst(nest_ptx, "__cudaCDP2LaunchDeviceV2",
                    "__cudaCDP2LaunchDeviceV2_ptsz");
    run_nested(t);
    free(t);
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
    e2e_device();
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
    e2e_device();
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
    e2e_device();
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
    e2e_device();
    ck_assert_msg(ptxemu_module_load_string(dev, "pend.ptx", pend_ptx, 0,
                                            &mod) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    enum { N = 3 * 1024 };
    uint32_t *errs = calloc(N, 4);
    ck_assert(errs != NULL);
    uint32_t cnt = 0;
    ptxemu_devptr dc = dbuf(&cnt, 4), de = dbuf(errs, 4 * N);
    void *params[] = {&dc, &de};
    /* The functional scheduler runs CTAs one after another: the first
     * 2048 threads (CTAs 0, 1) get their launches queued, the others
     * cudaErrorLaunchPendingCountExceeded.  Under a timing model
     * (tests/timing_corpus.test) the CTAs run together and which 1024
     * threads fail is the model's order (CUDA defines none): count. */
    const char *tm = getenv("PTXEMU_TEST_TIMING");
    bool any_order = tm && *tm;
    launch("pend_parent", 3, 1024, 0, params);
    dget(errs, de, 4 * N);
    dget(&cnt, dc, 4);
    ck_assert_uint_eq(cnt, 2048);
    int queued = 0, refused = 0;
    for (int i = 0; i < N; i++) {
        if (any_order) {
            queued += errs[i] == 0;
            refused += errs[i] == 69;
        } else {
            EQ_I("err", i, errs[i], i < 2048 ? 0 : 69);
        }
    }
    if (any_order) {
        ck_assert_int_eq(queued, 2048);
        ck_assert_int_eq(refused, 1024);
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
    queued = refused = 0;
    for (int i = 0; i < N; i++) {
        if (any_order) {
            queued += errs[i] == 0;
            refused += errs[i] == 69;
        } else {
            EQ_I("err, limit 3000", i, errs[i], i < 3000 ? 0 : 69);
        }
    }
    if (any_order) {
        ck_assert_int_eq(queued, 3000);
        ck_assert_int_eq(refused, N - 3000);
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
    e2e_device();
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

static void run_v1(const char *ptx)
{
    e2e_device();
    ck_assert_msg(ptxemu_module_load_string(dev, "v1.ptx", ptx, 0,
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

START_TEST(e2e_cdp_v1_launch)
{
    run_v1(v1_ptx);
}
END_TEST

START_TEST(e2e_cdp_v1_launch_ptsz)
{
    char *t = subst(v1_ptx, "__cudaCDP2LaunchDevice",
                    "__cudaCDP2LaunchDevice_ptsz");
    run_v1(t);
    free(t);
}
END_TEST

/* A __cudaCDP2 function the device runtime does not declare (here the
 * host-only cudaDeviceSetLimit) fails the load, naming it. */
static const char unsup_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 func_retval0) __cudaCDP2DeviceSetLimit\n"
    "(.param .b32 l, .param .b64 v);\n"
    ".visible .entry k(.param .u64 o)\n{\n" REGS
    "{\n.param .b32 a0;\nst.param.b32 [a0], 1;\n.param .b64 a1;\n"
    "st.param.b64 [a1], 0;\n.param .b32 r0;\n"
    "call.uni (r0), __cudaCDP2DeviceSetLimit, (a0, a1);\n"
    "ld.param.b32 %r1, [r0];\n}\nret;\n}\n";

START_TEST(e2e_cdp_unsupported)
{
    e2e_device();
    ck_assert_int_eq(ptxemu_module_load_string(dev, "u.ptx", unsup_ptx, 0,
                                               &mod),
                     PTXEMU_ERROR_UNSUPPORTED);
    const char *m = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(m, "u.ptx:") &&
                  strstr(m, "calls '__cudaCDP2DeviceSetLimit'"),
                  "message: %s", m);
}
END_TEST

/* ------------------------------------- device runtime: the rest */

/* tests/corpus/cu/cdp_runtime.cu against the host API: libcudart for
 * error strings and configurations, libcuda (the same emulated GPU,
 * chosen with PTXEMU_ARCH) for device and function attributes and
 * occupancy.  Each test runs in its own process (CK_FORK), so cuInit
 * sees the environment the test sets. */

const char *cudaGetErrorString(int e);
const char *cudaGetErrorName(int e);
int cudaDeviceGetCacheConfig(int *c);
int cudaDeviceGetSharedMemConfig(int *c);

static char *corpus_text(const char *base)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/%s.sm80.ptx",
             top ? top : ".", base);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    ck_assert_int_ge(n, 0);
    rewind(f);
    char *t = malloc((size_t)n + 1);
    ck_assert(t != NULL);
    ck_assert_uint_eq(fread(t, 1, (size_t)n, f), (size_t)n);
    t[n] = 0;
    fclose(f);
    return t;
}

/* A device for sm_<arch> (0: the default) with the corpus module, and
 * when host_f is not NULL the driver's view of the same GPU and module
 * (*host_f: the kernel attr_target). */
static void open_arch(unsigned arch, CUfunction *host_f)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.arch = arch;
    ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    char *t = corpus_text("cdp_runtime");
    ck_assert_msg(ptxemu_module_load_string(dev, "cdp_runtime.ptx", t, 0,
                                            &mod) == PTXEMU_SUCCESS,
                  "%s", ptxemu_last_error_message(dev));
    if (host_f) {
        char env[16];
        snprintf(env, sizeof(env), "sm_%u", arch);
        setenv("PTXEMU_ARCH", env, 1);
        unsetenv("PTXEMU_SMS");
        CUcontext ctx;
        CUmodule hm;
        ck_assert_int_eq(cuInit(0), CUDA_SUCCESS);
        ck_assert_int_eq(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
        ck_assert_int_eq(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
        ck_assert_int_eq(cuModuleLoadData(&hm, t), CUDA_SUCCESS);
        ck_assert_int_eq(cuModuleGetFunction(host_f, hm, "attr_target"),
                         CUDA_SUCCESS);
    }
    free(t);
}

/* The NUL-terminated string at device address a (at most 255 bytes). */
static void dstring(char *out, uint64_t a)
{
    for (int k = 0; k < 255; k++) {
        dget(&out[k], a + (uint64_t)k, 1);
        if (!out[k]) {
            return;
        }
    }
    ck_abort_msg("string at 0x%" PRIx64 " has no end", a);
}

START_TEST(e2e_cdp_error_strings)
{
    open_arch(0, NULL);
    enum { N = 1104 };
    int codes[N];
    for (int k = 0; k < N - 3; k++) {
        codes[k] = k;
    }
    codes[N - 3] = -1;
    codes[N - 2] = 99999;
    codes[N - 1] = 10;      /* a gap in the table */
    ptxemu_devptr dn = dbuf(NULL, 8 * N), dt = dbuf(NULL, 8 * N);
    ptxemu_devptr dc = dbuf(codes, sizeof(codes));
    int n = N;
    void *params[] = {&dn, &dt, &dc, &n};
    static uint64_t names[N], texts[N], again[N];
    launch("err_text", (N + 127) / 128, 128, 0, params);
    dget(names, dn, sizeof(names));
    dget(texts, dt, sizeof(texts));
    unsigned known = 0;
    for (int k = 0; k < N; k++) {
        char got[256];
        dstring(got, names[k]);
        ck_assert_msg(strcmp(got, cudaGetErrorName(codes[k])) == 0,
                      "name of %d: '%s', host '%s'", codes[k], got,
                      cudaGetErrorName(codes[k]));
        dstring(got, texts[k]);
        ck_assert_msg(strcmp(got, cudaGetErrorString(codes[k])) == 0,
                      "text of %d: '%s', host '%s'", codes[k], got,
                      cudaGetErrorString(codes[k]));
        known += strcmp(got, "unrecognized error code") != 0;
    }
    /* every cudaError_t of CUDA 13 below 1104 has its text */
    ck_assert_uint_gt(known, 100);
    ck_assert_str_eq(cudaGetErrorString(1), "invalid argument");
    /* one copy of the strings per device, made on first use */
    uint64_t used = ptxemu_mem_used(dev);
    launch("err_text", (N + 127) / 128, 128, 0, params);
    dget(again, dn, sizeof(again));
    ck_assert_uint_eq(ptxemu_mem_used(dev), used);
    for (int k = 0; k < N; k++) {
        EQ_I("same pointer", k, again[k], names[k]);
    }
}
END_TEST

START_TEST(e2e_cdp_error_string_read_only)
{
    open_arch(0, NULL);
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, "err_text_write", &f),
                     PTXEMU_SUCCESS);
    unsigned one[3] = {1, 1, 1};
    int code = 2;
    void *params[] = {&code};
    ck_assert_int_ne(ptxemu_launch(f, one, one, 0, params), PTXEMU_SUCCESS);
    const char *m = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(m, "err_text_write"), "message: %s", m);
}
END_TEST

enum { NATTR = CU_DEVICE_ATTRIBUTE_MAX + 2 };

/* main --host-attrs ARCH: the host driver's answer to every attribute
 * number on a device of sm_ARCH, one "ok value" line each. */
static int print_host_attrs(const char *arch)
{
    char env[16];
    snprintf(env, sizeof(env), "sm_%s", arch);
    setenv("PTXEMU_ARCH", env, 1);
    unsetenv("PTXEMU_SMS");
    if (cuInit(0) != CUDA_SUCCESS) {
        return 1;
    }
    for (int k = 0; k < NATTR; k++) {
        int v = -12345;
        CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)k, 0);
        printf("%d %d\n", r == CUDA_SUCCESS, v);
    }
    return 0;
}

/* The host driver's attributes on sm_<arch> (ok[k]: whether number k is
 * one).  The driver is made once per process, by cuInit, for the
 * PTXEMU_ARCH of that moment: in a process where another test made it
 * for another architecture (CK_FORK=no) it would answer for that one,
 * so a fresh process of this program answers. */
static void host_attrs(unsigned arch, int *ok, int *val)
{
    char self[4096], cmd[4200];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    ck_assert_int_gt(len, 0);
    self[len] = '\0';
    snprintf(cmd, sizeof(cmd), "'%s' --host-attrs %u", self, arch);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    int k = 0;
    while (k < NATTR && fscanf(p, "%d %d", &ok[k], &val[k]) == 2) {
        k++;
    }
    ck_assert_int_eq(pclose(p), 0);
    ck_assert_int_eq(k, NATTR);
}

/* Every attribute number (and some that are none) on sm_<arch>. */
static void check_attributes(unsigned arch)
{
    CUfunction hf;
    open_arch(arch, &hf);
    enum { N = NATTR };
    int attrs[N], out[N], errs[N], hok[N], hval[N];
    host_attrs(arch, hok, hval);
    for (int k = 0; k < N; k++) {
        attrs[k] = k;        /* 0 and MAX, MAX + 1 are no attributes */
    }
    ptxemu_devptr da = dbuf(attrs, sizeof(attrs));
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    ptxemu_devptr de = dbuf(NULL, sizeof(errs));
    int n = N;
    void *params[] = {&dout, &de, &da, &n};
    launch("dev_attrs", 1, 256, 0, params);
    dget(out, dout, sizeof(out));
    dget(errs, de, sizeof(errs));
    unsigned valid = 0;
    for (int k = 0; k < N; k++) {
        EQ_I("error", k, errs[k], hok[k] ? 0 : 1);
        if (hok[k]) {
            EQ_I("value", k, out[k], hval[k]);
            valid++;
        }
    }
    ck_assert_uint_gt(valid, 100);
    /* independent figures: CUDA's compute capability and warp size */
    EQ_I("major", 0, out[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR],
         (int)arch / 10);
    EQ_I("minor", 0, out[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR],
         (int)arch % 10);
    EQ_I("warp", 0, out[CU_DEVICE_ATTRIBUTE_WARP_SIZE], 32);
    /* cache and shared-memory configuration, as libcudart answers */
    int cfg[4] = {-1, -1, -1, -1}, hc = -1, hs = -1;
    ptxemu_devptr dcfg = dbuf(cfg, sizeof(cfg));
    void *p2[] = {&dcfg};
    launch("configs", 1, 1, 0, p2);
    dget(cfg, dcfg, sizeof(cfg));
    ck_assert_int_eq(cudaDeviceGetCacheConfig(&hc), 0);
    ck_assert_int_eq(cudaDeviceGetSharedMemConfig(&hs), 0);
    EQ_I("cache config", 0, cfg[0], 0);
    EQ_I("cache config", 1, cfg[1], hc);
    EQ_I("shmem config", 2, cfg[2], 0);
    EQ_I("shmem config", 3, cfg[3], hs);
}

START_TEST(e2e_cdp_attributes_sm90)
{
    check_attributes(90);
}
END_TEST

START_TEST(e2e_cdp_attributes_sm75)
{
    check_attributes(75);
}
END_TEST

/* struct cudaFuncAttributes (driver_types.h): 144 bytes; the byte
 * offsets of the fields cuFuncGetAttribute also gives (attribute
 * numbers of CUfunction_attribute, cuda.h), the rest is zero */
static const struct {
    uint32_t off, size;
    CUfunction_attribute attr;
} fa_fields[] = {
    {0, 8, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES},
    {8, 8, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES},
    {16, 8, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES},
    {24, 4, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
    {28, 4, CU_FUNC_ATTRIBUTE_NUM_REGS},
    {32, 4, CU_FUNC_ATTRIBUTE_PTX_VERSION},
    {36, 4, CU_FUNC_ATTRIBUTE_BINARY_VERSION},
    {40, 4, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA},
    {44, 4, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES},
    {48, 4, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT},
};

START_TEST(e2e_cdp_func_attributes)
{
    CUfunction hf;
    open_arch(90, &hf);
    uint8_t fa[2][144];
    int errs[2] = {-1, -1};
    memset(fa, 0xee, sizeof(fa));
    ptxemu_devptr dfa = dbuf(fa, sizeof(fa)), de = dbuf(errs, 8);
    void *params[] = {&dfa, &de};
    launch("func_attrs", 1, 1, 0, params);
    dget(fa, dfa, sizeof(fa));
    dget(errs, de, sizeof(errs));
    EQ_I("error", 0, errs[0], 0);
    EQ_I("error", 1, errs[1], 0);
    uint8_t zero[144 - 52];
    memset(zero, 0, sizeof(zero));
    for (size_t k = 0; k < sizeof(fa_fields) / sizeof(fa_fields[0]); k++) {
        int hv = 0;
        ck_assert_int_eq(cuFuncGetAttribute(&hv, fa_fields[k].attr, hf),
                         CUDA_SUCCESS);
        int64_t v = 0;
        if (fa_fields[k].size == 8) {
            memcpy(&v, fa[0] + fa_fields[k].off, 8);
        } else {
            int32_t w;
            memcpy(&w, fa[0] + fa_fields[k].off, 4);
            v = w;
        }
        EQ_I("attribute", (int)fa_fields[k].attr, v, (int64_t)hv);
    }
    ck_assert(memcmp(fa[0] + 52, zero, sizeof(zero)) == 0);
    /* float tile[1000]: 4000 bytes of static shared memory; err_text
     * has none */
    uint64_t sh;
    memcpy(&sh, fa[0], 8);
    ck_assert_uint_eq(sh, 4000);
    memcpy(&sh, fa[1], 8);
    ck_assert_uint_eq(sh, 0);
}
END_TEST

START_TEST(e2e_cdp_occupancy)
{
    CUfunction hf;
    open_arch(90, &hf);
    static const int sizes[] = {1, 32, 64, 96, 128, 256, 512, 768, 1024,
                                1025};
    static const unsigned long long dyns[] = {0, 1000, 16384, 48000,
                                              100000, 300000};
    enum { NS = 10, ND = 6, N = NS * ND };
    int bs[N], out[2 * N], errs[2 * N];
    unsigned long long dyn[N];
    for (int k = 0; k < N; k++) {
        bs[k] = sizes[k % NS];
        dyn[k] = dyns[k / NS];
    }
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    ptxemu_devptr de = dbuf(NULL, sizeof(errs));
    ptxemu_devptr db = dbuf(bs, sizeof(bs)), dd = dbuf(dyn, sizeof(dyn));
    int n = N;
    void *params[] = {&dout, &de, &db, &dd, &n};
    launch("occupancy", 1, 64, 0, params);
    dget(out, dout, sizeof(out));
    dget(errs, de, sizeof(errs));
    unsigned nonzero = 0;
    for (int k = 0; k < N; k++) {
        int h0 = -1, h1 = -1;
        ck_assert_int_eq(cuOccupancyMaxActiveBlocksPerMultiprocessor(
                             &h0, hf, bs[k], (size_t)dyn[k]), CUDA_SUCCESS);
        ck_assert_int_eq(
            cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                &h1, hf, bs[k], (size_t)dyn[k], 1), CUDA_SUCCESS);
        EQ_I("error", 2 * k, errs[2 * k], 0);
        EQ_I("error", 2 * k + 1, errs[2 * k + 1], 0);
        EQ_I("blocks", 2 * k, out[2 * k], h0);
        EQ_I("blocks with flags", 2 * k + 1, out[2 * k + 1], h1);
        nonzero += h0 != 0;
    }
    ck_assert_uint_gt(nonzero, N / 2);
    /* the block-size bound of sm_90 (32 blocks of 32 threads) and the
     * 1024-thread limit: an independent check of two figures */
    EQ_I("bs 32", 1, out[2 * 1], 32);
    EQ_I("bs 1025", 9, out[2 * 9], 0);
}
END_TEST

/* async_ops' effect by its documented order: the thread's own stores
 * first, then the queued work in issue order. */
static void ref_async(uint8_t *b, uint8_t *o)
{
    b[0] = 7;
    memset(b, 0x11, 256);
    for (int i = 0; i < 256; i++) {
        b[i]++;
    }
    memcpy(o, b, 256);
    for (int y = 0; y < 4; y++) {
        memset(b + 16 * y, 0x33, 8);
    }
    for (int y = 0; y < 6; y++) {
        memcpy(o + 256 + 8 * y, b + 16 * y, 8);
    }
    for (int i = 0; i < 256; i++) {
        b[i]++;
    }
    for (int z = 0; z < 2; z++) {
        for (int y = 0; y < 2; y++) {
            memcpy(o + 320 + 24 * z + 8 * y, b + 64 * z + 16 * (1 + y) + 4,
                   8);
        }
    }
    for (int z = 0; z < 3; z++) {
        for (int y = 0; y < 2; y++) {
            memset(o + 512 + 96 * z + 32 * y, 0x55, 5);
        }
    }
    memcpy(o + 768, b, 256);
    memset(b + 250, 0x66, 6);
    for (int y = 0; y < 2; y++) {
        memset(b + 240 + 4 * y, 0x77, 2);
    }
}

START_TEST(e2e_cdp_async_ops)
{
    open_arch(0, NULL);
    rng_seed(21);
    uint8_t b[256], o[1024], rb[256], ro[1024];
    int errs[24];
    for (int i = 0; i < 256; i++) {
        b[i] = (uint8_t)rnd();
    }
    memset(o, 0xee, sizeof(o));
    memset(errs, 0xff, sizeof(errs));
    memcpy(rb, b, sizeof(b));
    memcpy(ro, o, sizeof(o));
    ref_async(rb, ro);
    ptxemu_devptr db = dbuf(b, sizeof(b)), dout = dbuf(o, sizeof(o));
    ptxemu_devptr de = dbuf(errs, sizeof(errs));
    void *params[] = {&db, &dout, &de};
    launch("async_ops", 1, 1, 0, params);
    dget(b, db, sizeof(b));
    dget(o, dout, sizeof(o));
    dget(errs, de, sizeof(errs));
    for (int k = 0; k < 24; k++) {
        EQ_I("result", k, errs[k], k < 17 ? 0 : -1);
    }
    for (int i = 0; i < 256; i++) {
        EQ_I("b", i, b[i], rb[i]);
    }
    for (int i = 0; i < 1024; i++) {
        EQ_I("out", i, o[i], ro[i]);
    }
}
END_TEST

START_TEST(e2e_cdp_async_errors)
{
    open_arch(0, NULL);
    int errs[16];
    memset(errs, 0xff, sizeof(errs));
    ptxemu_devptr de = dbuf(errs, sizeof(errs)), dbuf1 = dbuf(NULL, 128);
    void *params[] = {&de, &dbuf1};
    launch("async_errors", 1, 1, 0, params);
    dget(errs, de, sizeof(errs));
    /* driver_types.h: InvalidMemcpyDirection 21, InvalidPitchValue 12,
     * InvalidValue 1, InvalidResourceHandle 400, InvalidDevice 101,
     * InvalidDeviceFunction 98 */
    static const int want[16] = {21, 12, 12, 1, 400, 1, 0, 1, 0, 101, 1,
                                 98, 1, 1, 12, -1};
    for (int k = 0; k < 16; k++) {
        EQ_I("result", k, errs[k], want[k]);
    }
    /* nothing was queued: the buffer is untouched */
    uint8_t z[128];
    dget(z, dbuf1, sizeof(z));
    for (int k = 0; k < 128; k++) {
        EQ_I("buf", k, z[k], 0);
    }
}
END_TEST

START_TEST(e2e_cdp_async_faults)
{
    open_arch(0, NULL);
    ptxemu_function *f = NULL;
    unsigned one[3] = {1, 1, 1}, two[3] = {2, 1, 1};
    /* a range past the allocation: a fault of the calling thread */
    ck_assert_int_eq(ptxemu_module_get_function(mod, "async_oob", &f),
                     PTXEMU_SUCCESS);
    ptxemu_devptr d = dbuf(NULL, 64);
    unsigned long long n = 64;
    void *p1[] = {&d, &n};
    ck_assert_int_eq(ptxemu_launch(f, one, two, 0, p1),
                     PTXEMU_ERROR_ILLEGAL_ADDRESS);
    const char *m = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(m, "kernel 'async_oob' failed") &&
                  strstr(m, "thread (1,0,0)") &&
                  strstr(m, "cudaMemsetAsync: destination") &&
                  strstr(m, "+65)"), "message: %s", m);
    /* memory a child freed before the memset ran: located at the call */
    ck_assert_int_eq(ptxemu_module_get_function(mod, "async_freed", &f),
                     PTXEMU_SUCCESS);
    int out[2] = {-1, -1};
    ptxemu_devptr dout = dbuf(out, sizeof(out));
    void *p2[] = {&dout};
    ck_assert_int_eq(ptxemu_launch(f, one, one, 0, p2),
                     PTXEMU_ERROR_ILLEGAL_ADDRESS);
    m = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(m, "kernel 'async_freed' failed") &&
                  strstr(m, "cudaMemsetAsync") &&
                  strstr(m, "when it ran after the grid's threads"),
                  "message: %s", m);
    dget(out, dout, sizeof(out));
    EQ_I("malloc", 0, out[0], 0);
    EQ_I("memset queued", 1, out[1], 0);
}
END_TEST

/* A device-side memset is the device's write: into a mapping made
 * read-only (cuMemSetAccess PROT_READ) it faults, as the grid's own
 * stores there do; read-write again, it runs. */
START_TEST(e2e_cdp_async_read_only)
{
    open_arch(0, NULL);
    ptxemu_function *f = NULL;
    unsigned one[3] = {1, 1, 1}, two[3] = {2, 1, 1};
    ck_assert_int_eq(ptxemu_module_get_function(mod, "async_oob", &f),
                     PTXEMU_SUCCESS);
    const size_t size = (size_t)1 << 21;
    uint8_t *host = malloc(size);
    ck_assert_ptr_nonnull(host);
    memset(host, 0xab, size);
    ptxemu_devptr va = 0;
    ck_assert_int_eq(ptxemu_va_reserve(dev, size, size, &va),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_va_map(dev, va, host, size), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_va_protect(dev, va, 1), PTXEMU_SUCCESS);
    unsigned long long n = 63;          /* 64 bytes */
    void *p[] = {&va, &n};
    ck_assert_int_eq(ptxemu_launch(f, one, two, 0, p),
                     PTXEMU_ERROR_ILLEGAL_ADDRESS);
    const char *m = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(m, "cudaMemsetAsync: destination"), "message: %s",
                  m);
    ck_assert_uint_eq(host[0], 0xab);
    ck_assert_int_eq(ptxemu_va_protect(dev, va, 0), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_launch(f, one, two, 0, p), PTXEMU_SUCCESS);
    ck_assert_uint_eq(host[0], 0);
    ck_assert_uint_eq(host[63], 0);
    ck_assert_uint_eq(host[64], 0xab);
    ck_assert_int_eq(ptxemu_va_unmap(dev, va), PTXEMU_SUCCESS);
    free(host);
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
        e2e_cdp_nested_ptsz,
        e2e_cdp_bad_config,
        e2e_cdp_fault,
        e2e_cdp_depth_limit,
        e2e_cdp_pending_limit,
        e2e_cdp_runtime_calls,
        e2e_cdp_v1_launch,
        e2e_cdp_v1_launch_ptsz,
        e2e_cdp_unsupported,
        e2e_cdp_error_strings,
        e2e_cdp_error_string_read_only,
        e2e_cdp_attributes_sm90,
        e2e_cdp_attributes_sm75,
        e2e_cdp_func_attributes,
        e2e_cdp_occupancy,
        e2e_cdp_async_ops,
        e2e_cdp_async_errors,
        e2e_cdp_async_faults,
        e2e_cdp_async_read_only,
    };
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--host-attrs") == 0) {
        return print_host_attrs(argv[2]);
    }
    SRunner *sr = srunner_create(e2e_cdp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
