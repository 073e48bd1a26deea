/*
 * tests/timing_exit.c: a program of the drop-in driver (libcuda.so.1)
 * for tests/valgrind.test, run with the `gpu` timing model on several
 * host threads (PTXEMU_TIMING=gpu PTXEMU_THREADS=2): a kernel of 16 CTAs
 * keeps several SMs busy at once, so the model steps them on its helper
 * threads (timing/gpu/par.c), and the program then returns without
 * destroying its context, as CUDA programs may.  Checks the kernel's
 * values against the host's and prints "values: ok".
 */
#include <stdint.h>
#include <stdio.h>

#include "abi/cuda_abi.h"
#include "tests/drv_try.h"

#define CTAS 16u
#define THREADS 64u

/* p[i] = sum of k * i for k < 8 (u32), i the global thread index. */
static const char kernels[] =
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

int main(void)
{
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    CUdeviceptr d;
    static uint32_t h[CTAS * THREADS];
    TRY(cuInit(0));
    TRY(cuCtxCreate_v2(&ctx, 0, 0));
    TRY(cuModuleLoadData(&mod, kernels));
    TRY(cuModuleGetFunction(&f, mod, "sums"));
    TRY(cuMemAlloc_v2(&d, sizeof(h)));
    void *args[] = { &d };
    TRY(cuLaunchKernel(f, CTAS, 1, 1, THREADS, 1, 1, 0, NULL, args, NULL));
    TRY(cuMemcpyDtoH_v2(h, d, sizeof(h)));
    unsigned bad = 0;
    for (uint32_t i = 0; i < CTAS * THREADS; i++) {
        bad += h[i] != 28u * i; /* 0 + 1 + ... + 7 = 28 */
    }
    printf("values: %s\n", bad ? "wrong" : "ok");
    return bad != 0;
}
