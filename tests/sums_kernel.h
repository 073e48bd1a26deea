/*
 * tests/sums_kernel.h: the kernel the small drop-in driver programs of
 * the tests launch (tests/timing_exit.c, tests/timing_unload.c), as PTX:
 * p[i] = the sum of k * i for k < 8 (u32), i the global thread index,
 * so every value is 28 * i.
 */
#ifndef PTXEMU_TESTS_SUMS_KERNEL_H
#define PTXEMU_TESTS_SUMS_KERNEL_H

static const char sums_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry sums(.param .u64 pp)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [pp];\n"
    " mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n"
    " mov.u32 %r5, 0; mov.u32 %r6, 0;\n"
    "LOOP:\n"
    " mad.lo.u32 %r6, %r5, %r4, %r6;\n"
    " add.u32 %r5, %r5, 1;\n"
    " setp.lt.u32 %p1, %r5, 8;\n"
    " @%p1 bra LOOP;\n"
    " mul.wide.u32 %rd2, %r4, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r6;\n"
    " ret;\n}\n";

#endif
