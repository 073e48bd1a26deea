/*
 * tests/san_pool_uaf.c: a program for tests/sanitize_pool.test, through
 * the drop-in driver's API: a block of the default memory pool
 * (cuMemAllocAsync, CUDA Driver API reference, "Stream Ordered Memory
 * Allocator") is filled, freed with cuMemFreeAsync, and a new block of
 * the same size is allocated, which the pool hands the freed address
 * (it keeps freed blocks for reuse, runtime/cuda/drv_pool.c).  Then a
 * kernel writes through the stale pointer (the seeded bug), or with
 * the argument "ok" through the new one (its correct twin).  Prints
 * the freed address, whether the new block reused it and the launch's
 * status.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "abi/cuda_abi.h"
#include "tests/drv_try.h"

/* p[i] = 3i + 1 for i < n (u32); the st.global is instruction 8, on
 * line 13. */
static const char kernels[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry fill(.param .u64 pp, .param .u32 n)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [pp]; ld.param.u32 %r1, [n];\n"
    " mov.u32 %r4, %tid.x;\n"
    " setp.ge.u32 %p1, %r4, %r1;\n"
    " @%p1 bra DONE;\n"
    " mad.lo.s32 %r6, %r4, 3, 1;\n"
    " mul.wide.u32 %rd2, %r4, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r6;\n"
    "DONE:\n ret;\n}\n";

static CUresult run_fill(CUfunction f, CUdeviceptr d, unsigned n)
{
    void *args[] = { &d, &n };
    CUresult r = cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL);
    CUresult s = cuStreamSynchronize(NULL);
    return r != CUDA_SUCCESS ? r : s;
}

int main(int argc, char **argv)
{
    bool ok = argc > 1 && !strcmp(argv[1], "ok");
    CUcontext ctx;
    CUmodule mod;
    CUfunction fill;
    TRY(cuInit(0));
    TRY(cuCtxCreate_v2(&ctx, 0, 0));
    TRY(cuModuleLoadData(&mod, kernels));
    TRY(cuModuleGetFunction(&fill, mod, "fill"));
    CUdeviceptr a, b;
    TRY(cuMemAllocAsync(&a, 256, NULL));
    TRY(run_fill(fill, a, 64));
    TRY(cuMemFreeAsync(a, NULL));
    TRY(cuMemAllocAsync(&b, 256, NULL));
    printf("freed: 0x%llx\nreused: %s\n", (unsigned long long)a,
           a == b ? "yes" : "no");
    fflush(stdout);
    CUresult r = run_fill(fill, ok ? b : a, 1);
    printf("launch: %d\n", (int)r);
    TRY(cuMemFreeAsync(b, NULL));
    TRY(cuStreamSynchronize(NULL));
    return 0;
}
