/*
 * tests/check_hostile.c: the CUDA drop-ins (libcuda.so.1, libcudart.so.13)
 * misused as a hostile or buggy program would (issue 16): wild and
 * freed device pointers, dead and forged streams, device resets, over-
 * allocation, unreadable module files.  Each must give the error code
 * CUDA documents for it, never touch host memory the program did not
 * name, crash or exhaust the host.
 *
 * Expected codes are CUDA's documented values typed as literals (the
 * driver API's CUresult and the runtime's cudaError_t), not taken from
 * our tables.  Check forks every test: each starts uninitialised.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/cuda_abi.h"
#include "runtime/cudart/cudart_api.h"

#define OK(call) ck_assert_int_eq((int)(call), 0)

enum {
    CU_INVALID_VALUE = 1,           /* CUDA_ERROR_INVALID_VALUE */
    CU_FILE_NOT_FOUND = 301,        /* CUDA_ERROR_FILE_NOT_FOUND */
    CU_INVALID_HANDLE = 400,        /* CUDA_ERROR_INVALID_HANDLE */
    RT_INVALID_VALUE = 1,           /* cudaErrorInvalidValue */
    RT_MEMORY_ALLOCATION = 2,       /* cudaErrorMemoryAllocation */
    RT_INVALID_HANDLE = 400,        /* cudaErrorInvalidResourceHandle */
};

static CUcontext driver_ctx(void)
{
    CUdevice dev;
    CUcontext ctx;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuDevicePrimaryCtxRetain(&ctx, dev));
    OK(cuCtxSetCurrent(ctx));
    return ctx;
}

/* ------------------------------------------------ wild device pointers */

/* Before the fix the driver took an unknown address for host memory:
 * each of these copies dereferenced a freed device pointer. */
START_TEST(test_driver_freed_pointer)
{
    driver_ctx();
    uint32_t host[4] = {1, 2, 3, 4}, back[4] = {0};
    CUdeviceptr d, live;
    OK(cuMemAlloc_v2(&d, sizeof host));
    OK(cuMemAlloc_v2(&live, sizeof host));
    OK(cuMemFree_v2(d));
    ck_assert_int_eq(cuMemcpyDtoH_v2(back, d, sizeof back),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpyHtoD_v2(d, host, sizeof host),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpyDtoD_v2(live, d, sizeof host),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpyDtoD_v2(d, live, sizeof host),
                     CU_INVALID_VALUE);
    /* Unified addressing: cuMemcpy infers each side's kind. */
    ck_assert_int_eq(cuMemcpy((CUdeviceptr)(uintptr_t)back, d, sizeof back),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpy(d, (CUdeviceptr)(uintptr_t)host, sizeof host),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpyAsync(d, live, sizeof host, NULL),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemsetD8_v2(d, 0, sizeof host), CU_INVALID_VALUE);
    /* An explicit device side that is plain host memory. */
    ck_assert_int_eq(cuMemcpyDtoH_v2(back, (CUdeviceptr)(uintptr_t)host,
                                     sizeof back), CU_INVALID_VALUE);
    /* The same calls still work on live memory and host memory. */
    OK(cuMemcpyHtoD_v2(live, host, sizeof host));
    OK(cuMemcpy((CUdeviceptr)(uintptr_t)back, live, sizeof back));
    ck_assert_int_eq(memcmp(back, host, sizeof host), 0);
    uint32_t other[4] = {0};
    OK(cuMemcpy((CUdeviceptr)(uintptr_t)other, (CUdeviceptr)(uintptr_t)host,
                sizeof host));
    ck_assert_int_eq(memcmp(other, host, sizeof host), 0);
    OK(cuMemFree_v2(live));
}
END_TEST

START_TEST(test_runtime_freed_pointer)
{
    uint32_t host[4] = {5, 6, 7, 8}, back[4] = {0};
    void *d, *live;
    OK(cudaMalloc(&d, sizeof host));
    OK(cudaMalloc(&live, sizeof host));
    OK(cudaFree(d));
    ck_assert_int_eq(cudaMemcpy(back, d, sizeof back, cudaMemcpyDefault),
                     RT_INVALID_VALUE);
    ck_assert_int_eq(cudaMemcpy(d, host, sizeof host, cudaMemcpyDefault),
                     RT_INVALID_VALUE);
    ck_assert_int_eq(cudaMemcpy(back, d, sizeof back,
                                cudaMemcpyDeviceToHost), RT_INVALID_VALUE);
    ck_assert_int_eq(cudaMemcpyAsync(live, d, sizeof host,
                                     cudaMemcpyDefault, 0),
                     RT_INVALID_VALUE);
    ck_assert_int_eq(cudaGetLastError(), RT_INVALID_VALUE);
    OK(cudaMemcpy(live, host, sizeof host, cudaMemcpyDefault));
    OK(cudaMemcpy(back, live, sizeof back, cudaMemcpyDefault));
    ck_assert_int_eq(memcmp(back, host, sizeof host), 0);
    OK(cudaFree(live));
}
END_TEST

/* ------------------------------------------------------------ streams */

/* Before the fix cudaMemcpyAsync and the other copies and memsets
 * ignored their stream: a destroyed or forged one got cudaSuccess. */
START_TEST(test_runtime_dead_stream)
{
    uint32_t host[64] = {0};
    void *d;
    cudaStream_t s;
    OK(cudaMalloc(&d, sizeof host));
    OK(cudaStreamCreate(&s));
    OK(cudaMemcpyAsync(d, host, sizeof host, cudaMemcpyHostToDevice, s));
    OK(cudaStreamDestroy(s));
    cudaStream_t forged = (cudaStream_t)(uintptr_t)0x5eed1234;
    cudaStream_t bad[2] = {s, forged};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(cudaMemcpyAsync(d, host, sizeof host,
                                         cudaMemcpyHostToDevice, bad[i]),
                         RT_INVALID_HANDLE);
        ck_assert_int_eq(cudaMemsetAsync(d, 0, sizeof host, bad[i]),
                         RT_INVALID_HANDLE);
        ck_assert_int_eq(cudaMemcpy2DAsync(d, 16, host, 16, 16, 4,
                                           cudaMemcpyHostToDevice, bad[i]),
                         RT_INVALID_HANDLE);
        ck_assert_int_eq(cudaMemset2DAsync(d, 16, 0, 16, 4, bad[i]),
                         RT_INVALID_HANDLE);
        ck_assert_int_eq(cudaStreamAttachMemAsync(bad[i], d, 0, 0),
                         RT_INVALID_HANDLE);
    }
    ck_assert_int_eq(cudaGetLastError(), RT_INVALID_HANDLE);
    /* The default streams stay valid. */
    OK(cudaMemcpyAsync(d, host, sizeof host, cudaMemcpyHostToDevice, 0));
    OK(cudaMemsetAsync(d, 0, sizeof host, cudaStreamPerThread));
    OK(cudaMemsetAsync(d, 0, sizeof host, cudaStreamLegacy));
    OK(cudaFree(d));
}
END_TEST

/* ------------------------------------------------------------- files */

START_TEST(test_module_load_device_file)
{
    driver_ctx();
    CUmodule m;
    /* Read until the OOM killer came, before the limit. */
    ck_assert_int_eq(cuModuleLoad(&m, "/dev/zero"), CU_INVALID_VALUE);
    ck_assert_int_eq(cuModuleLoad(&m, "/nonexistent/x.ptx"),
                     CU_FILE_NOT_FOUND);
}
END_TEST

static Suite *hostile_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_driver_freed_pointer);
    tcase_add_test(tc, test_runtime_freed_pointer);
    tcase_add_test(tc, test_runtime_dead_stream);
    tcase_add_test(tc, test_module_load_device_file);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(hostile_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
