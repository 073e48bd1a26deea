/*
 * tests/gpu_mem_kernels.h: PTX kernels for the memory-system tests that
 * run on the emulator (check_gpu_mem_e2e) and through the drop-in driver
 * (check_driver_l2), so both count the same hand-worked traces.
 */
#ifndef PTXEMU_TESTS_GPU_MEM_KERNELS_H
#define PTXEMU_TESTS_GPU_MEM_KERNELS_H

/* One thread; for i in 0..n-1, three chained loads: lines 2i and 2i+1 of
 * the stream s (each line once: a stream longer than the L2) and line
 * i % 2 of the window w (re-read every other iteration). */
static const char *apw_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry sw(.param .u64 s, .param .u64 w, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [s];\n  ld.param.u64 %rd2, [w];\n"
    "  ld.param.u32 %r1, [n];\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n"
    "LOOP:\n"
    "  shl.b32 %r4, %r2, 8;\n  add.s32 %r4, %r4, %r3;\n"
    "  cvt.u64.u32 %rd3, %r4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r3, [%rd4];\n"
    "  cvt.u64.u32 %rd5, %r3;\n  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.u32 %r3, [%rd6+128];\n"
    "  and.b32 %r5, %r2, 1;\n  shl.b32 %r5, %r5, 7;\n"
    "  add.s32 %r5, %r5, %r3;\n  cvt.u64.u32 %rd7, %r5;\n"
    "  add.s64 %rd8, %rd2, %rd7;\n"
    "  ld.global.u32 %r3, [%rd8];\n"
    "  add.s32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, %r1;\n"
    "  @%p1 bra LOOP;\n"
    "  ret;\n}\n";

/* One thread reads lines 0..n-1 of p twice over, each load chained to
 * the one before (p holds zeros): a working set of n lines. */
static const char *ws_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry ws(.param .u64 p, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [n];\n"
    "  shl.b32 %r6, %r1, 1;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n"
    "LOOP:\n"
    "  rem.u32 %r4, %r2, %r1;\n  shl.b32 %r4, %r4, 7;\n"
    "  add.s32 %r4, %r4, %r3;\n  cvt.u64.u32 %rd2, %r4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r3, [%rd3];\n"
    "  add.s32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, %r6;\n"
    "  @%p1 bra LOOP;\n"
    "  ret;\n}\n";

#endif
