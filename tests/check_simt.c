/*
 * tests/check_simt.c: the SIMT reconvergence stack, barriers, exits,
 * calls and the scheduler's watchdog.
 *
 *  - afr: the seed digest's worked example (AFR Figs. 3.2-3.4) as a
 *    4-thread kernel; the exact (pc, active mask) sequence of the warp
 *    under both divergence-order policies, against hand-written tables.
 *  - loop: lanes leave a loop at different iterations and reconverge at
 *    the instruction after the loop branch.
 *  - barrier: Wong et al.: bar.sync counts warps, a thread count of 32
 *    needs one warp, exited warps do not block, a divergent warp's
 *    paths arrive separately (and run taken-first, so a one-warp
 *    consumer reads stale data), bar.arrive, bar.red.
 *  - exit: early and divergent exits.
 *  - calls: direct, recursive, indirect and divergent indirect calls.
 *  - watchdog: SIMT spin-lock deadlock, barrier deadlock, the
 *    instruction limit, trap; the next launch still works.
 *  - the scheduler's fast loop and single steps agree under every
 *    instruction limit (status, count, fault, results).
 */
#include "emu/access.h"
#include "emu/client.h"
#include "tests/emutest.h"

/* 3-D blocks: warps in hardware order (x fastest); elect.sync */
static const char tid3_src[] = PTX_HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %tid.y;\n"
    "  mov.u32 %r3, %tid.z;\n"
    "  mov.u32 %r4, %ctaid.y;\n"
    "  mov.u32 %r5, %warpid;\n"
    "  mov.u32 %r6, %laneid;\n"
    "  mad.lo.u32 %r7, %r5, 32, %r6;\n"
    "  mov.u32 %r10, %nctaid.y;\n"
    "  mad.lo.u32 %r7, %r4, 48, %r7;\n"
    "  mul.wide.u32 %rd2, %r7, 16;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  elect.sync %r8|%p1, 0xffffffff;\n"
    "  selp.u32 %r9, 1, 0, %p1;\n"
    "  add.u32 %r9, %r9, %r8;\n"
    "  add.u32 %r9, %r9, %r10;\n"
    "  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r9};\n"
    "}\n";

START_TEST(block_3d_order)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, tid3_src);
    uint64_t out = dev_alloc(d, 2 * 48 * 16);
    void *args[] = { &out };
    EmuFunc *k = emu_module_kernel(m, "k");
    uint32_t g[3] = { 1, 2, 1 }, b[3] = { 3, 4, 4 };   /* 48 threads */
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, 0, args, &l), EMU_OK);
    ck_assert_int_eq(emu_launch_run(l), EMU_OK);
    emu_launch_end(l);
    uint32_t r[2 * 48 * 4];
    emu_mem_read(d->mem, out, r, sizeof(r));
    for (uint32_t c = 0; c < 2; c++) {
        for (uint32_t t = 0; t < 48; t++) {
            const uint32_t *e = &r[(c * 48 + t) * 4];
            ck_assert_uint_eq(e[0], t % 3);
            ck_assert_uint_eq(e[1], (t / 3) % 4);
            ck_assert_uint_eq(e[2], t / 12);
            /* elect: lane 0 of each warp is the leader (id 0) */
            ck_assert_uint_eq(e[3], (t % 32 == 0 ? 1 : 0) + 2);
        }
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Cooperative launch: the corpus's grid_two_phase (cooperative groups
 * this_grid().sync(), twice) with every CTA resident; without the
 * cooperative flag grid.sync() traps, as on hardware. */
START_TEST(cooperative_grid_sync)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/grid_sync.sm80.ptx",
             top ? top : ".");
    PtxDiag dg;
    IrModule *ir = ptx_parse_file(path, &dg, NULL);
    ptx_diag_fini(&dg);
    ck_assert_msg(ir != NULL, "cannot parse %s", path);
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuStatus st;
    char *msg = NULL;
    EmuModule *m = emu_module_load(d, ir, &st, &msg);
    ck_assert_msg(m != NULL, "%s", msg ? msg : "");
    enum { N = 300 };
    uint64_t data = dev_alloc(d, N * 4), valid = dev_alloc(d, 4);
    int32_t n = N;
    void *args[] = { &data, &n, &valid };
    EmuFunc *k = emu_module_kernel(m, "grid_two_phase");
    uint32_t g[3] = { 5, 1, 1 }, b[3] = { 64, 1, 1 };
    for (int coop = 0; coop < 2; coop++) {
        int32_t init[N];
        for (int i = 0; i < N; i++) {
            init[i] = i;
        }
        emu_mem_write(d->mem, data, init, sizeof(init));
        EmuLaunch *l;
        ck_assert_int_eq(emu_launch_begin(m, k, g, b, 0, args, &l), EMU_OK);
        l->cooperative = coop;
        st = emu_launch_run(l);
        emu_launch_end(l);
        if (!coop) {
            ck_assert_int_eq(st, EMU_ERR_TRAP);
            continue;
        }
        ck_assert_int_eq(st, EMU_OK);
        int32_t out[N], v;
        emu_mem_read(d->mem, data, out, sizeof(out));
        emu_mem_read(d->mem, valid, &v, 4);
        ck_assert_int_eq(v, 1);
        for (int i = 0; i < N; i++) {
            ck_assert_int_eq(out[i], 2 * i + 2 * ((i + 37) % N));
        }
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Decode: float immediates converted to the instruction's type, symbol
 * addresses folded, vector constants, located "not supported" errors. */
static const char dec_src[] = PTX_HDR
    ".global .align 4 .u32 gv[4];\n"
    ".visible .entry k(.param .u32 a, .param .u64 b)\n"
    "{\n"
    "  .local .align 8 .b8 depot[32];\n"
    "  .shared .align 4 .u32 sv[8];\n"
    "  .reg .f32 %f<3>;\n"
    "  .reg .f64 %fd<3>;\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  mov.f32 %f1, 0d3FF8000000000000;\n"     /* 0: 1.5 rounded to f32 */
    "  add.f64 %fd1, %fd2, 0f3F800000;\n"      /* 1: 1.0 widened */
    "  ld.param.u64 %rd1, [b];\n"              /* 2: param offset 8 */
    "  ld.global.u32 %r1, [gv+8];\n"           /* 3 */
    "  st.shared.u32 [sv+4], %r1;\n"           /* 4 */
    "  mov.u64 %rd2, depot;\n"                 /* 5: frame address */
    "  st.local.v2.u32 [depot+8], {%r1, 7};\n" /* 6: constant slot */
    "}\n";

START_TEST(decode_operands)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, dec_src);
    EmuFunc *k = emu_module_kernel(m, "k");
    ck_assert_uint_eq(k->param_bytes, 16);
    ck_assert_uint_eq(k->param_offset[1], 8);
    const EmuInsn *c = k->code;
    ck_assert_int_eq(c[0].o[1].kind, EO_IMM);
    ck_assert_uint_eq(c[0].o[1].imm, 0x3fc00000u);
    ck_assert_uint_eq(c[1].o[2].imm, 0x3ff0000000000000ull);
    ck_assert_int_eq(c[2].space, PTX_SPACE_PARAM);
    ck_assert_uint_eq(c[2].o[1].imm, 8);
    ck_assert_uint_eq(c[2].o[1].reg, EMU_NOREG);
    ck_assert_uint_eq(c[3].o[1].imm, emu_module_global(m, "gv", NULL) + 8);
    ck_assert_int_eq(c[4].space, PTX_SPACE_SHARED);
    ck_assert_uint_eq(c[4].o[0].imm, 4);             /* sv at offset 0 */
    ck_assert_int_eq(c[5].o[1].kind, EO_SREG);
    ck_assert_uint_eq(c[5].o[1].imm, EMU_SREG_FRAME_ADDR);
    ck_assert_uint_eq(c[5].o[1].reg, 0);
    ck_assert_int_eq(c[6].space, PTX_SPACE_LOCAL);
    ck_assert_uint_eq(c[6].o[0].sel, EMU_ADDR_FRAME);
    ck_assert_uint_eq(c[6].o[0].imm, 8);
    ck_assert_int_eq(c[6].o[1].kind, EO_VEC);
    uint32_t cs = k->vslots[c[6].o[1].reg + 1];
    ck_assert_uint_ge(cs, k->nregslots);
    ck_assert_uint_eq(k->consts[cs], 7);
    ck_assert_uint_eq(k->shared_bytes, 32);
    emu_module_free(m);

    static const char bad[] =
        ".version 9.0\n.target sm_100a\n.address_size 64\n"
        ".visible .entry w()\n{\n  tcgen05.wait::ld.sync.aligned;\n}\n";
    IrModule *ir = parse_ok(bad);
    EmuStatus st;
    char *msg = NULL;
    ck_assert_ptr_null(emu_module_load(d, ir, &st, &msg));
    ck_assert_int_eq(st, EMU_ERR_UNSUPPORTED);
    ck_assert_str_eq(msg, "t.ptx:6:3: error: instruction "
                     "'tcgen05.wait::ld.sync.aligned' is not supported by the "
                     "emulator yet");
    free(msg);
    /* the same status without a message (the status once came from the
     * message's text, so this was EMU_ERR_OUT_OF_MEMORY) */
    st = EMU_OK;
    ck_assert_ptr_null(emu_module_load(d, parse_ok(bad), &st, NULL));
    ck_assert_int_eq(st, EMU_ERR_UNSUPPORTED);
    emu_device_free(d);
}
END_TEST

Suite *simt_suite(void);

/* ------------------------------------------------------------- afr */

static const char afr_src[] = PTX_HDR
    ".visible .entry afr(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"            /* 0 */
    "  mov.u32 %r2, 0;\n"                 /* 1  i */
    "  mov.u32 %r3, 0;\n"                 /* 2  x */
    "A:\n"
    "  setp.eq.u32 %p1, %r1, 3;\n"        /* 3 */
    "  @%p1 bra F;\n"                     /* 4  lane 3 -> F */
    "B:\n"
    "  setp.ne.u32 %p2, %r1, 0;\n"        /* 5 */
    "  @%p2 bra D;\n"                     /* 6  lanes 1,2 -> D */
    "C:\n"
    "  add.u32 %r3, %r3, 1;\n"            /* 7 */
    "  bra E;\n"                          /* 8 */
    "D:\n"
    "  add.u32 %r3, %r3, 2;\n"            /* 9 */
    "E:\n"
    "  bra G;\n"                          /* 10 */
    "F:\n"
    "  add.u32 %r3, %r3, 3;\n"            /* 11 */
    "G:\n"
    "  add.u32 %r2, %r2, 1;\n"            /* 12 */
    "  setp.lt.u32 %p3, %r2, 2;\n"        /* 13 */
    "  @%p3 bra A;\n"                     /* 14 */
    "  ld.param.u64 %rd1, [out];\n"       /* 15 */
    "  mul.wide.u32 %rd2, %r1, 4;\n"      /* 16 */
    "  add.s64 %rd3, %rd1, %rd2;\n"       /* 17 */
    "  st.global.u32 [%rd3], %r3;\n"      /* 18 */
    "  exit;\n"                           /* 19 */
    "}\n";

/* One loop iteration, from A to the loop branch. */
#define AFR_ITER(b1, b2)                                                  \
    { 3, 0xF }, { 4, 0xF }, { 11, 0x8 }, { 5, 0x7 }, { 6, 0x7 }, b1, b2,   \
    { 10, 0x7 }, { 12, 0xF }, { 13, 0xF }, { 14, 0xF }

/* Taken first (GT200): D (taken, lanes 1,2) before C (lane 0). */
#define TF_B1 { 9, 0x6 }
#define TF_B2 { 7, 0x1 }, { 8, 0x1 }
static const TraceStep afr_taken_first[] = {
    { 0, 0xF }, { 1, 0xF }, { 2, 0xF },
    AFR_ITER(TF_B1, TF_B2),
    AFR_ITER(TF_B1, TF_B2),
    { 15, 0xF }, { 16, 0xF }, { 17, 0xF }, { 18, 0xF }, { 19, 0xF },
};

/* Majority pushed first (AFR's recommendation): the smaller path runs
 * first, so C (1 lane) before D (2 lanes); F (1 lane) before B (3). */
#define ML_B1 { 7, 0x1 }, { 8, 0x1 }
#define ML_B2 { 9, 0x6 }
static const TraceStep afr_majority_last[] = {
    { 0, 0xF }, { 1, 0xF }, { 2, 0xF },
    AFR_ITER(ML_B1, ML_B2),
    AFR_ITER(ML_B1, ML_B2),
    { 15, 0xF }, { 16, 0xF }, { 17, 0xF }, { 18, 0xF }, { 19, 0xF },
};

static void check_trace(EmuDivergeOrder order, const TraceStep *want,
                        unsigned nwant)
{
    EmuDevice *d = dev_new(order);
    EmuModule *m = mod_load(d, afr_src);
    uint64_t out = dev_alloc(d, 16);
    void *args[] = { &out };
    TraceStep got[128];
    unsigned n = trace_warp0(m, "afr", 4, args, got, 128);
    for (unsigned k = 0; k < n && k < nwant; k++) {
        ck_assert_msg(got[k].pc == want[k].pc && got[k].mask == want[k].mask,
                      "step %u: got (pc %u, mask 0x%x), want (pc %u, "
                      "mask 0x%x)", k, got[k].pc, got[k].mask, want[k].pc,
                      want[k].mask);
    }
    ck_assert_uint_eq(n, nwant);
    uint32_t res[4];
    ck_assert_int_eq(emu_mem_read(d->mem, out, res, 16), EMU_OK);
    /* lane 0 takes C (+1), lanes 1-2 D (+2), lane 3 F (+3); twice */
    ck_assert_uint_eq(res[0], 2);
    ck_assert_uint_eq(res[1], 4);
    ck_assert_uint_eq(res[2], 4);
    ck_assert_uint_eq(res[3], 6);
    emu_module_free(m);
    emu_device_free(d);
}

START_TEST(afr_taken_first_order)
{
    check_trace(EMU_TAKEN_FIRST, afr_taken_first,
                sizeof(afr_taken_first) / sizeof(afr_taken_first[0]));
}
END_TEST

START_TEST(afr_majority_last_order)
{
    check_trace(EMU_MAJORITY_LAST, afr_majority_last,
                sizeof(afr_majority_last) / sizeof(afr_majority_last[0]));
}
END_TEST

/* ------------------------------------------------------------ loop */

static const char loop_src[] = PTX_HDR
    ".visible .entry loop(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"            /* 0 */
    "  mov.u32 %r2, 0;\n"                 /* 1 */
    "L:\n"
    "  add.u32 %r2, %r2, 1;\n"            /* 2 */
    "  setp.lt.u32 %p1, %r2, %r1;\n"      /* 3 */
    "  @%p1 bra L;\n"                     /* 4 */
    "  ld.param.u64 %rd1, [out];\n"       /* 5: reconvergence */
    "  mul.wide.u32 %rd2, %r1, 4;\n"      /* 6 */
    "  add.s64 %rd3, %rd1, %rd2;\n"       /* 7 */
    "  st.global.u32 [%rd3], %r2;\n"      /* 8 */
    "  ret;\n"                            /* 9 */
    "}\n";

START_TEST(loop_exit_reconverges)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, loop_src);
    uint64_t out = dev_alloc(d, 16);
    void *args[] = { &out };
    TraceStep got[64];
    unsigned n = trace_warp0(m, "loop", 4, args, got, 64);
    static const TraceStep want[] = {
        { 0, 0xF }, { 1, 0xF },
        { 2, 0xF }, { 3, 0xF }, { 4, 0xF },   /* lanes 0,1 leave */
        { 2, 0xC }, { 3, 0xC }, { 4, 0xC },   /* lane 2 leaves */
        { 2, 0x8 }, { 3, 0x8 }, { 4, 0x8 },   /* lane 3 leaves */
        { 5, 0xF }, { 6, 0xF }, { 7, 0xF }, { 8, 0xF }, { 9, 0xF },
    };
    ck_assert_uint_eq(n, sizeof(want) / sizeof(want[0]));
    for (unsigned k = 0; k < n; k++) {
        ck_assert_msg(got[k].pc == want[k].pc && got[k].mask == want[k].mask,
                      "step %u: got (%u, 0x%x)", k, got[k].pc, got[k].mask);
    }
    uint32_t res[4];
    emu_mem_read(d->mem, out, res, 16);
    ck_assert_uint_eq(res[0], 1);
    ck_assert_uint_eq(res[1], 1);
    ck_assert_uint_eq(res[2], 2);
    ck_assert_uint_eq(res[3], 3);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* --------------------------------------------------------- barrier */

/* 64 threads; warp 1 exits at once, warp 0 waits at bar.sync 0, 32
 * (one warp's worth): completes.  Then bar.sync 0 without a count:
 * completes too, since exited warps are not waited for. */
static const char bar_count_src[] = PTX_HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 exit;\n"
    "  bar.sync 0, 32;\n"
    "  barrier.sync 0;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], 7;\n"
    "}\n";

START_TEST(barrier_counts_warps)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, bar_count_src);
    uint64_t out = dev_alloc(d, 64 * 4);
    void *args[] = { &out };
    EmuFault f;
    ck_assert_int_eq(run_kernel(m, "k", 1, 64, args, &f), EMU_OK);
    uint32_t res[64];
    emu_mem_read(d->mem, out, res, sizeof(res));
    for (int t = 0; t < 64; t++) {
        ck_assert_uint_eq(res[t], t < 32 ? 7u : 0u);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Wong Listing 5: one warp, lanes 16-31 consume what lanes 0-15 produce,
 * each side after its own bar.sync.  The consumers' path is the taken
 * one, runs first, and reads stale (zero) data; no deadlock. */
static const char bar_stale_src[] = PTX_HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .shared .align 4 .b8 buf[64];\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r5, buf;\n"
    "  setp.ge.u32 %p1, %r1, 16;\n"
    "  @%p1 bra CONS;\n"
    "  add.u32 %r2, %r1, %r1;\n"
    "  add.u32 %r2, %r2, %r2;\n"
    "  add.u32 %r3, %r5, %r2;\n"
    "  add.u32 %r4, %r1, 100;\n"
    "  st.shared.u32 [%r3], %r4;\n"
    "  bar.sync 0;\n"
    "  mov.u32 %r6, 1;\n"
    "  bra DONE;\n"
    "CONS:\n"
    "  bar.sync 0;\n"
    "  add.u32 %r2, %r1, -16;\n"
    "  add.u32 %r2, %r2, %r2;\n"
    "  add.u32 %r2, %r2, %r2;\n"
    "  add.u32 %r3, %r5, %r2;\n"
    "  ld.shared.u32 %r6, [%r3];\n"
    "DONE:\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r6;\n"
    "}\n";

START_TEST(barrier_divergent_stale)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, bar_stale_src);
    uint64_t out = dev_alloc(d, 32 * 4);
    void *args[] = { &out };
    ck_assert_int_eq(run_kernel(m, "k", 1, 32, args, NULL), EMU_OK);
    uint32_t res[32];
    emu_mem_read(d->mem, out, res, sizeof(res));
    for (int t = 0; t < 32; t++) {
        ck_assert_uint_eq(res[t], t < 16 ? 1u : 0u);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Wong Listing 7: warp 0 diverges, each of its paths has a bar.sync;
 * warp 1 has two bar.syncs in straight-line code.  Warp 0's taken path
 * pairs with warp 1's first barrier, its other path (which writes the
 * flag) with warp 1's second: warp 1 sees 0, then 1. */
static const char bar_pair_src[] = PTX_HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .shared .align 4 .u32 flag;\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra W1;\n"
    "  setp.ge.u32 %p2, %r1, 16;\n"
    "  @%p2 bra TAKEN;\n"
    "  st.shared.u32 [flag], 1;\n"
    "  bar.sync 0;\n"                 /* #1, runs second */
    "  bra J;\n"
    "TAKEN:\n"
    "  bar.sync 0;\n"                 /* #2, runs first */
    "J:\n"
    "  exit;\n"
    "W1:\n"
    "  bar.sync 0;\n"                 /* #3 */
    "  ld.shared.u32 %r2, [flag];\n"
    "  bar.sync 0;\n"                 /* #4 */
    "  ld.shared.u32 %r3, [flag];\n"
    "  setp.eq.u32 %p2, %r1, 32;\n"
    "  @!%p2 exit;\n"
    "  st.global.u32 [%rd1], %r2;\n"
    "  st.global.u32 [%rd1+4], %r3;\n"
    "}\n";

START_TEST(barrier_divergent_pairs)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, bar_pair_src);
    uint64_t out = dev_alloc(d, 8);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "k", 1, 64, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint32_t res[2];
    emu_mem_read(d->mem, out, res, sizeof(res));
    ck_assert_uint_eq(res[0], 0);
    ck_assert_uint_eq(res[1], 1);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* bar.arrive (producer does not wait) and bar.red */
static const char bar_red_src[] = PTX_HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .shared .align 4 .u32 val;\n"
    "  .reg .pred %p<6>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r2, 1;\n"
    "  bar.red.popc.u32 %r3, 0, %p1;\n"
    "  bar.red.and.pred %p2, 1, %p1;\n"
    "  setp.lt.u32 %p3, %r1, 64;\n"
    "  bar.red.or.pred %p4, 2, %p1;\n"
    "  barrier.red.and.pred %p5, 3, %p3;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra CONS;\n"
    "  st.shared.u32 [val], 42;\n"
    "  bar.arrive 1, 64;\n"
    "  exit;\n"
    "CONS:\n"
    "  bar.sync 1, 64;\n"
    "  ld.shared.u32 %r4, [val];\n"
    "  setp.ne.u32 %p1, %r1, 32;\n"
    "  @%p1 exit;\n"
    "  st.global.u32 [%rd1], %r3;\n"
    "  selp.u32 %r5, 1, 0, %p2;\n"
    "  st.global.u32 [%rd1+4], %r5;\n"
    "  selp.u32 %r5, 1, 0, %p4;\n"
    "  st.global.u32 [%rd1+8], %r5;\n"
    "  selp.u32 %r5, 1, 0, %p5;\n"
    "  st.global.u32 [%rd1+12], %r5;\n"
    "  st.global.u32 [%rd1+16], %r4;\n"
    "}\n";

START_TEST(barrier_red_arrive)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, bar_red_src);
    uint64_t out = dev_alloc(d, 20);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "k", 1, 64, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint32_t res[5];
    emu_mem_read(d->mem, out, res, sizeof(res));
    ck_assert_uint_eq(res[0], 32);   /* popc of odd tids */
    ck_assert_uint_eq(res[1], 0);    /* not all odd */
    ck_assert_uint_eq(res[2], 1);    /* some odd */
    ck_assert_uint_eq(res[3], 1);    /* all < 64 */
    ck_assert_uint_eq(res[4], 42);   /* bar.arrive published the store */
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* ------------------------------------------------------------ exit */

static const char exit_src[] = PTX_HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  and.b32 %r2, %r1, 3;\n"
    "  setp.eq.u32 %p1, %r2, 1;\n"
    "  @%p1 exit;\n"                      /* tid % 4 == 1 leave */
    "  setp.eq.u32 %p2, %r2, 2;\n"
    "  @%p2 bra SKIP;\n"
    "  st.global.u32 [%rd3], 5;\n"
    "  exit;\n"                           /* divergent exit */
    "SKIP:\n"
    "  bar.sync 0;\n"                     /* only tid%4==2 lanes left */
    "  st.global.u32 [%rd3], 9;\n"
    "}\n";

START_TEST(early_exit)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, exit_src);
    uint64_t out = dev_alloc(d, 96 * 4);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "k", 1, 96, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint32_t res[96];
    emu_mem_read(d->mem, out, res, sizeof(res));
    for (int t = 0; t < 96; t++) {
        uint32_t want = (t & 3) == 1 ? 0 : (t & 3) == 2 ? 9 : 5;
        ck_assert_uint_eq(res[t], want);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* ----------------------------------------------------------- calls */

static const char call_src[] = PTX_HDR
    ".func (.param .b32 ret) fact(.param .b32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  ld.param.u32 %r1, [n];\n"
    "  setp.le.u32 %p1, %r1, 1;\n"
    "  @%p1 bra BASE;\n"
    "  add.u32 %r2, %r1, -1;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  st.param.b32 [a0], %r2;\n"
    "  .param .b32 r0;\n"
    "  call (r0), fact, (a0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  mul.lo.u32 %r4, %r3, %r1;\n"
    "  st.param.b32 [ret], %r4;\n"
    "  ret;\n"
    "BASE:\n"
    "  st.param.b32 [ret], 1;\n"
    "  ret;\n"
    "}\n"
    ".func (.param .b32 ret) twice(.param .b32 n)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [n];\n"
    "  add.u32 %r2, %r1, %r1;\n"
    "  st.param.b32 [ret], %r2;\n"
    "  ret;\n"
    "}\n"
    ".func (.param .b32 ret) plus7(.param .b32 n)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [n];\n"
    "  add.u32 %r2, %r1, 7;\n"
    "  st.param.b32 [ret], %r2;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 8;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  and.b32 %r2, %r1, 7;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  st.param.b32 [a0], %r2;\n"
    "  .param .b32 r0;\n"
    "  call (r0), fact, (a0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  and.b32 %r4, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r4, 1;\n"
    "  mov.u64 %rd4, twice;\n"
    "  mov.u64 %rd5, plus7;\n"
    "  selp.b64 %rd6, %rd4, %rd5, %p1;\n"
    "  {\n"
    "  .param .b32 a1;\n"
    "  st.param.b32 [a1], %r1;\n"
    "  .param .b32 r1;\n"
    "  prot: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "  call (r1), %rd6, (a1), prot;\n"
    "  ld.param.b32 %r5, [r1];\n"
    "  }\n"
    "  st.global.u32 [%rd3+4], %r5;\n"
    "}\n";

START_TEST(calls_recursive_indirect)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, call_src);
    uint64_t out = dev_alloc(d, 40 * 8);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "k", 1, 40, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint32_t res[80];
    emu_mem_read(d->mem, out, res, sizeof(res));
    static const uint32_t fact[8] = { 1, 1, 2, 6, 24, 120, 720, 5040 };
    for (uint32_t t = 0; t < 40; t++) {
        ck_assert_uint_eq(res[2 * t], fact[t & 7]);
        ck_assert_uint_eq(res[2 * t + 1], (t & 1) ? 2 * t : t + 7);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* brx.idx with divergent targets; a guarded call whose callee returns
 * early on one path and exits some lanes on another. */
static const char brx_src[] = PTX_HDR
    ".func (.param .b32 ret) f2(.param .b32 n)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [n];\n"
    "  setp.lt.u32 %p1, %r1, 10;\n"
    "  @%p1 bra EARLY;\n"
    "  st.param.b32 [ret], 100;\n"
    "  ret;\n"
    "EARLY:\n"
    "  setp.eq.u32 %p2, %r1, 3;\n"
    "  @%p2 exit;\n"
    "  st.param.b32 [ret], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 8;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  rem.u32 %r2, %r1, 3;\n"
    "  ts: .branchtargets T0, T1, T2;\n"
    "  brx.idx %r2, ts;\n"
    "T0:\n"
    "  mov.u32 %r3, 10;\n"
    "  bra.uni J;\n"
    "T1:\n"
    "  mov.u32 %r3, 20;\n"
    "  bra.uni J;\n"
    "T2:\n"
    "  mov.u32 %r3, 30;\n"
    "J:\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  setp.ne.u32 %p1, %r1, 7;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  st.param.b32 [a0], %r1;\n"
    "  .param .b32 r0;\n"
    "  st.param.b32 [r0], 555;\n"
    "  @%p1 call (r0), f2, (a0);\n"
    "  ld.param.b32 %r4, [r0];\n"
    "  }\n"
    "  st.global.u32 [%rd3+4], %r4;\n"
    "}\n";

START_TEST(brx_and_divergent_returns)
{
    for (int pol = 0; pol < 2; pol++) {
        EmuDevice *d = dev_new(pol ? EMU_MAJORITY_LAST : EMU_TAKEN_FIRST);
        EmuModule *m = mod_load(d, brx_src);
        uint64_t out = dev_alloc(d, 40 * 8);
        void *args[] = { &out };
        EmuFault f;
        EmuStatus st = run_kernel(m, "k", 1, 40, args, &f);
        ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st),
                      f.detail);
        uint32_t res[80];
        emu_mem_read(d->mem, out, res, sizeof(res));
        for (uint32_t t = 0; t < 40; t++) {
            ck_assert_uint_eq(res[2 * t], 10 * (t % 3 + 1));
            uint32_t want = t == 7 ? 555 : t == 3 ? 0 : t < 10 ? t : 100;
            ck_assert_uint_eq(res[2 * t + 1], want);
        }
        emu_module_free(m);
        emu_device_free(d);
    }
}
END_TEST

/* The step record: kinds, masks, divergence, per-lane accesses. */
START_TEST(step_record)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, loop_src);
    uint64_t out = dev_alloc(d, 16);
    void *args[] = { &out };
    EmuFunc *k = emu_module_kernel(m, "loop");
    uint32_t g[3] = { 1, 1, 1 }, b[3] = { 4, 1, 1 };
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, 0, args, &l), EMU_OK);
    EmuCta cta;
    ck_assert_int_eq(emu_cta_init(l, 0, &cta), EMU_OK);
    static EmuStepRecord rec;
    EmuWarp *w = &cta.warps[0];
    bool saw_div = false, saw_st = false;
    while (w->state != EMU_WARP_EXITED) {
        ck_assert_int_eq(emu_warp_step(&cta, w, &rec), EMU_OK);
        ck_assert_ptr_eq(rec.func, k);
        if (rec.pc == 4 && rec.active == 0xF) {
            ck_assert_int_eq(rec.kind, EMU_STEP_BRANCH);
            ck_assert_uint_eq(rec.exec, 0xC);     /* lanes 2, 3 loop */
            ck_assert(rec.diverged);
            saw_div = true;
        }
        if (rec.pc == 8) {
            ck_assert_int_eq(rec.kind, EMU_STEP_MEM);
            ck_assert_uint_eq(rec.nacc, 4);
            for (unsigned a = 0; a < 4; a++) {
                ck_assert_uint_eq(rec.acc[a].lane, a);
                ck_assert_uint_eq(rec.acc[a].addr, out + 4 * a);
                ck_assert_uint_eq(rec.acc[a].size, 4);
                ck_assert_uint_eq(rec.acc[a].space, PTX_SPACE_GLOBAL);
                ck_assert_uint_eq(rec.acc[a].kind, EMU_ACC_WRITE);
            }
            saw_st = true;
        }
        if (rec.pc == 9) {
            ck_assert_int_eq(rec.kind, EMU_STEP_RET);
        }
    }
    ck_assert(saw_div && saw_st);
    ck_assert_uint_eq(w->ninsns, 16);
    ck_assert_uint_eq(l->insns, 16);
    emu_cta_fini(&cta);
    emu_launch_end(l);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* -------------------------------------------------------- watchdog */

static const char spin_src[] = PTX_HDR
    ".visible .entry spin(.param .u64 mutex)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [mutex];\n"
    "L:\n"
    "  atom.global.cas.b32 %r1, [%rd1], 0, 1;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra L;\n"
    "  atom.global.exch.b32 %r2, [%rd1], 0;\n"
    "}\n";

/* A SIMT deadlock of the pre-Volta stack on purpose: pinned to IPDOM
 * (the default sm_80 runs it with independent thread scheduling, where
 * the lock works: check_its). */
START_TEST(simt_spinlock_deadlock)
{
    EmuDevice *d = dev_new_mode(EMU_TAKEN_FIRST, EMU_RECONV_IPDOM);
    EmuModule *m = mod_load(d, spin_src);
    uint64_t mutex = dev_alloc(d, 4);
    void *args[] = { &mutex };
    EmuFault f;
    EmuStatus st = run_kernel(m, "spin", 1, 4, args, &f);
    ck_assert_int_eq(st, EMU_ERR_DEADLOCK);
    ck_assert_int_eq(f.status, EMU_ERR_DEADLOCK);
    ck_assert_ptr_nonnull(strstr(f.detail, "warp 0"));
    ck_assert_ptr_nonnull(strstr(f.detail, "pc "));
    /* one lane only: no divergence, no deadlock; next launch works */
    uint32_t zero = 0;
    emu_mem_write(d->mem, mutex, &zero, 4);
    ck_assert_int_eq(run_kernel(m, "spin", 1, 1, args, NULL), EMU_OK);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

static const char bar_dead_src[] = PTX_HDR
    ".visible .entry k()\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra W1;\n"
    "  bar.sync 0;\n"
    "  exit;\n"
    "W1:\n"
    "  bar.sync 1;\n"
    "}\n";

START_TEST(barrier_deadlock)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, bar_dead_src);
    EmuFault f;
    ck_assert_int_eq(run_kernel(m, "k", 1, 64, NULL, &f), EMU_ERR_DEADLOCK);
    ck_assert_ptr_nonnull(strstr(f.detail, "at a barrier"));
    ck_assert_ptr_nonnull(strstr(f.detail, "warp 1"));
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

static const char forever_src[] = PTX_HDR
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, 0;\n"
    "L:\n"
    "  add.u32 %r1, %r1, 1;\n"
    "  bra L;\n"
    "}\n"
    ".visible .entry t()\n"
    "{\n"
    "  trap;\n"
    "}\n"
    ".visible .entry ok()\n"
    "{\n"
    "  ret;\n"
    "}\n";

START_TEST(insn_limit_and_trap)
{
    EmuConfig c;
    emu_config_default(&c);
    c.insn_limit = 10000;
    EmuDevice *d = emu_device_new(&c);
    EmuModule *m = mod_load(d, forever_src);
    EmuFault f;
    ck_assert_int_eq(run_kernel(m, "k", 2, 64, NULL, &f), EMU_ERR_TIMEOUT);
    ck_assert_int_eq(f.status, EMU_ERR_TIMEOUT);
    ck_assert_int_eq(run_kernel(m, "t", 1, 32, NULL, &f), EMU_ERR_TRAP);
    ck_assert_str_eq(f.kernel, "t");
    ck_assert_uint_eq(f.loc.line, 14);
    ck_assert_int_eq(run_kernel(m, "ok", 4, 128, NULL, &f), EMU_OK);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Special registers through a kernel: %ntid, %ctaid, %laneid, %warpid,
 * %lanemask_lt, %clock64 monotonic. */
static const char sreg_src[] = PTX_HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd2, %r4, 16;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r5, %laneid;\n"
    "  mov.u32 %r6, %warpid;\n"
    "  mov.u32 %r7, %lanemask_lt;\n"
    "  st.global.v4.u32 [%rd3], {%r4, %r5, %r6, %r7};\n"
    "  mov.u64 %rd4, %clock64;\n"
    "  mov.u64 %rd5, %clock64;\n"
    "  sub.s64 %rd6, %rd5, %rd4;\n"
    "  setp.eq.u32 %p1, %r4, 0;\n"
    "  @%p1 st.global.u64 [%rd1+1024], %rd6;\n"
    "}\n";

START_TEST(special_registers)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, sreg_src);
    uint64_t out = dev_alloc(d, 1024 + 8);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "k", 2, 32, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint32_t res[256];
    emu_mem_read(d->mem, out, res, 1024);
    for (uint32_t g = 0; g < 64; g++) {
        ck_assert_uint_eq(res[4 * g], g);
        ck_assert_uint_eq(res[4 * g + 1], g % 32);
        ck_assert_uint_eq(res[4 * g + 2], 0);
        ck_assert_uint_eq(res[4 * g + 3], (1u << (g % 32)) - 1);
    }
    uint64_t dclk;
    emu_mem_read(d->mem, out + 1024, &dclk, 8);
    ck_assert_uint_eq(dclk, 1);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* ------------------------------------------------ fast loop vs steps */

/* The scheduler's fast loop (emu_warp_run, no hook) and single steps
 * (emu_warp_step with a record, taken when a client wants steps) must
 * agree step for step: run kernels with divergence, loops, calls,
 * returns, exits and barriers both ways under every instruction limit
 * from 1 to past the end, and compare the status, the instruction
 * count, the fault and the output bytes.  A step miscounted by either
 * path moves where the limit strikes. */
static void count_hook(void *ctx, const EmuCta *cta, const EmuWarp *w,
                       const EmuStepRecord *rec)
{
    (void)cta;
    (void)w;
    (void)rec;
    (*(uint64_t *)ctx)++;
}

typedef struct FastRun {
    EmuStatus st;
    uint64_t insns, hooked;
    EmuFault f;
    uint8_t out[512];
} FastRun;

static void fast_run(const char *src, const char *kname, uint32_t ctas,
                     uint32_t block, EmuDivergeOrder pol, uint64_t limit,
                     bool hook, FastRun *r)
{
    EmuConfig c;
    emu_config_default(&c);
    c.diverge_order = pol;
    c.watchdog_rounds = 50;
    c.insn_limit = limit;
    EmuDevice *d = emu_device_new(&c);
    ck_assert_ptr_nonnull(d);
    EmuModule *m = mod_load(d, src);
    uint64_t out = dev_alloc(d, sizeof(r->out));
    uint8_t zero[sizeof(r->out)] = {0};
    emu_mem_write(d->mem, out, zero, sizeof(zero));
    void *args[] = { &out };
    EmuFunc *k = emu_module_kernel(m, kname);
    ck_assert_ptr_nonnull(k);
    uint32_t g[3] = { ctas, 1, 1 }, b[3] = { block, 1, 1 };
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, 0, args, &l), EMU_OK);
    r->hooked = 0;
    if (hook) {
        EmuClient cl = { EMU_CLIENT_ABI, sizeof(cl), "count", 0, 0, true,
                         &r->hooked, NULL, NULL, count_hook };
        char why[160];
        ck_assert_int_ge(emu_client_attach(d, &cl, why, sizeof(why)), 0);
    }
    r->st = emu_launch_run(l);
    r->insns = l->insns;
    memset(&r->f, 0, sizeof(r->f));
    if (r->st != EMU_OK) {
        r->f = l->fault;
    }
    emu_launch_end(l);
    emu_mem_read(d->mem, out, r->out, sizeof(r->out));
    emu_module_free(m);
    emu_device_free(d);
}

START_TEST(fast_loop_matches_steps)
{
    static const struct {
        const char *src, *kernel;
        uint32_t ctas, block;
    } ks[] = {
        { afr_src, "afr", 1, 4 },
        { loop_src, "loop", 2, 40 },
        { bar_stale_src, "k", 1, 32 },
        { bar_pair_src, "k", 1, 64 },
        { bar_red_src, "k", 1, 64 },
        { exit_src, "k", 1, 96 },
        { call_src, "k", 1, 40 },
        { brx_src, "k", 1, 40 },
    };
    for (size_t k = 0; k < sizeof(ks) / sizeof(ks[0]); k++) {
        for (int pol = 0; pol < 2; pol++) {
            EmuDivergeOrder o = pol ? EMU_MAJORITY_LAST : EMU_TAKEN_FIRST;
            FastRun a, b;
            fast_run(ks[k].src, ks[k].kernel, ks[k].ctas, ks[k].block, o,
                     0, true, &a);
            ck_assert_int_eq(a.st, EMU_OK);
            ck_assert_uint_eq(a.hooked, a.insns);
            uint64_t total = a.insns;
            ck_assert_uint_gt(total, 10);
            for (uint64_t lim = 0; lim <= total + 1; lim++) {
                fast_run(ks[k].src, ks[k].kernel, ks[k].ctas,
                         ks[k].block, o, lim, false, &a);
                fast_run(ks[k].src, ks[k].kernel, ks[k].ctas,
                         ks[k].block, o, lim, true, &b);
                ck_assert_msg(a.st == b.st && a.insns == b.insns,
                              "kernel %zu policy %d limit %llu: %s/%llu "
                              "fast, %s/%llu stepped", k, pol,
                              (unsigned long long)lim,
                              emu_status_name(a.st),
                              (unsigned long long)a.insns,
                              emu_status_name(b.st),
                              (unsigned long long)b.insns);
                ck_assert_uint_eq(b.hooked, b.insns);
                /* the limit strikes after the step that reaches it
                 * unless that step ends its warp; then the next step of
                 * another warp trips it */
                if (lim == 0 || lim >= total) {
                    ck_assert_int_eq(a.st, EMU_OK);
                    ck_assert_uint_eq(a.insns, total);
                } else if (a.st == EMU_OK) {
                    ck_assert_uint_eq(a.insns, total);
                } else {
                    ck_assert_int_eq(a.st, EMU_ERR_TIMEOUT);
                    ck_assert_uint_ge(a.insns, lim);
                    ck_assert_uint_lt(a.insns, total);
                }
                ck_assert_uint_eq(a.f.pc, b.f.pc);
                ck_assert_mem_eq(a.f.tid, b.f.tid, sizeof(a.f.tid));
                ck_assert_mem_eq(a.f.ctaid, b.f.ctaid, sizeof(a.f.ctaid));
                ck_assert_mem_eq(a.out, b.out, sizeof(a.out));
            }
        }
    }
}
END_TEST

Suite *simt_suite(void)
{
    Suite *s = suite_create("simt");
    TCase *tc = tcase_create("afr");
    tcase_add_test(tc, afr_taken_first_order);
    tcase_add_test(tc, afr_majority_last_order);
    tcase_add_test(tc, loop_exit_reconverges);
    tcase_add_test(tc, step_record);
    tcase_add_test(tc, decode_operands);
    suite_add_tcase(s, tc);
    tc = tcase_create("barrier");
    tcase_add_test(tc, barrier_counts_warps);
    tcase_add_test(tc, barrier_divergent_stale);
    tcase_add_test(tc, barrier_divergent_pairs);
    tcase_add_test(tc, barrier_red_arrive);
    suite_add_tcase(s, tc);
    tc = tcase_create("exit_calls");
    tcase_add_test(tc, early_exit);
    tcase_add_test(tc, calls_recursive_indirect);
    tcase_add_test(tc, brx_and_divergent_returns);
    tcase_add_test(tc, special_registers);
    tcase_add_test(tc, block_3d_order);
    tcase_add_test(tc, cooperative_grid_sync);
    suite_add_tcase(s, tc);
    tc = tcase_create("watchdog");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, simt_spinlock_deadlock);
    tcase_add_test(tc, barrier_deadlock);
    tcase_add_test(tc, insn_limit_and_trap);
    tcase_add_test(tc, fast_loop_matches_steps);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(simt_suite());
}
