#!/bin/sh
# bench/genptx.sh MB OUT: write a PTX module of at least MB megabytes to
# OUT, made of many copies of kernels shaped like nvcc 13 output (params,
# address arithmetic, loads/stores, a loop, divergent branches, shared
# memory, a call sequence, floats and predicates), each renamed.
set -eu
mb=${1:-60}
out=${2:-bench/big.ptx}
awk -v mb="$mb" '
BEGIN {
    print ".version 9.0\n.target sm_80\n.address_size 64\n"
    print ".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;"
    print ".global .align 1 .b8 $str[6] = {104, 105, 32, 37, 100, 0};\n"
    target = mb * 1024 * 1024
    size = 0
    for (k = 0; size < target; k++) {
        s = sprintf(".visible .entry k%d(\n\t.param .u64 k%d_param_0,\n\t.param .u64 k%d_param_1,\n\t.param .u32 k%d_param_2\n)\n{\n", k, k, k, k)
        s = s "\t.reg .pred \t%p<5>;\n\t.reg .b32 \t%r<24>;\n\t.reg .f32 \t%f<12>;\n\t.reg .b64 \t%rd<16>;\n"
        s = s sprintf("\t// demoted variable\n\t.shared .align 4 .b8 k%d_sh[1024];\n\n", k)
        s = s sprintf("\tld.param.u64 \t%%rd1, [k%d_param_0];\n\tld.param.u64 \t%%rd2, [k%d_param_1];\n\tld.param.u32 \t%%r1, [k%d_param_2];\n", k, k, k)
        s = s "\tmov.u32 \t%r2, %ctaid.x;\n\tmov.u32 \t%r3, %ntid.x;\n\tmov.u32 \t%r4, %tid.x;\n\tmad.lo.s32 \t%r5, %r2, %r3, %r4;\n"
        s = s "\tsetp.ge.s32 \t%p1, %r5, %r1;\n\t@%p1 bra \t$L__BB0_4;\n\n"
        s = s "\tcvta.to.global.u64 \t%rd3, %rd1;\n\tmul.wide.s32 \t%rd4, %r5, 4;\n\tadd.s64 \t%rd5, %rd3, %rd4;\n\tld.global.f32 \t%f1, [%rd5];\n"
        s = s sprintf("\tshl.b32 \t%%r6, %%r4, 2;\n\tmov.u32 \t%%r7, k%d_sh;\n\tadd.s32 \t%%r8, %%r7, %%r6;\n\tst.shared.f32 \t[%%r8], %%f1;\n\tbar.sync \t0;\n", k)
        s = s "\tmov.f32 \t%f2, 0f00000000;\n\tmov.u32 \t%r9, 0;\n\n$L__BB0_2:\n"
        s = s "\tld.shared.f32 \t%f3, [%r8+4];\n\tfma.rn.f32 \t%f2, %f3, 0f3F000000, %f2;\n\tadd.s32 \t%r9, %r9, 1;\n\tsetp.lt.u32 \t%p2, %r9, 16;\n\t@%p2 bra \t$L__BB0_2;\n\n"
        s = s "\tsetp.gt.f32 \t%p3, %f2, 0f42C80000;\n\tselp.f32 \t%f4, %f2, 0fBF800000, %p3;\n\tmul.rn.f32 \t%f5, %f4, %f4;\n\tcvt.rzi.s32.f32 \t%r10, %f5;\n"
        s = s "\tand.b32 \t%r11, %r10, 255;\n\txor.b32 \t%r12, %r11, %r5;\n\tcvta.to.global.u64 \t%rd6, %rd2;\n\tadd.s64 \t%rd7, %rd6, %rd4;\n\tst.global.f32 \t[%rd7], %f4;\n"
        s = s "\tsetp.ne.s32 \t%p4, %r12, 7;\n\t@%p4 bra \t$L__BB0_4;\n\n"
        s = s "\t{ // callseq 0, 0\n\t.param .b64 param0;\n\tst.param.b64 \t[param0], %rd7;\n\t.param .b64 param1;\n\tst.param.b64 \t[param1], %rd6;\n\t.param .b32 retval0;\n"
        s = s "\tcall.uni (retval0), \n\tvprintf, \n\t(\n\tparam0, \n\tparam1\n\t);\n\tld.param.b32 \t%r13, [retval0];\n\t} // callseq 0\n\n"
        s = s "$L__BB0_4:\n\tret;\n\n}\n\n"
        printf "%s", s
        size += length(s)
    }
}' > "$out"
ls -l "$out"
