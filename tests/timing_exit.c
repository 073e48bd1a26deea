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
#include "tests/sums_kernel.h"

#define CTAS 16u
#define THREADS 64u


int main(void)
{
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    CUdeviceptr d;
    static uint32_t h[CTAS * THREADS];
    TRY(cuInit(0));
    TRY(cuCtxCreate_v2(&ctx, 0, 0));
    TRY(cuModuleLoadData(&mod, sums_ptx));
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
