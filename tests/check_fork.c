/*
 * tests/check_fork.c: the driver in a child forked from a process with
 * asynchronous streams (runtime/cuda/drv_queue.c).  CUDA does not
 * support a context across fork (CUDA Programming Guide, "Fork"): a
 * child forked while the device worker is inside a kernel (holding the
 * device lock) must not hang; every call there fails at once with
 * CUDA_ERROR_NOT_INITIALIZED, and the parent's kernel, released by the
 * parent afterwards, finishes normally.  A child forked with nothing
 * running still uses the driver (synchronously).
 */
#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "abi/cuda_abi.h"

#define OK(call) ck_assert_int_eq((int)(call), CUDA_SUCCESS)

/* *s = 1; waits until *f != 0 (the counter keeps the loop's state
 * changing, so the livelock watchdog lets it run); *s = 2. */
static const char kernels[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry spin(.param .u64 s, .param .u64 f)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [s]; ld.param.u64 %rd2, [f];\n"
    " mov.u32 %r3, 0; mov.u32 %r1, 1;\n"
    " st.volatile.global.u32 [%rd1], %r1;\n"
    "WAIT:\n add.u32 %r3, %r3, 1;\n"
    " ld.volatile.global.u32 %r2, [%rd2];\n"
    " setp.eq.u32 %p1, %r2, 0;\n"
    " @%p1 bra WAIT;\n"
    " mov.u32 %r1, 2; st.volatile.global.u32 [%rd1], %r1;\n ret;\n}\n";

static CUfunction spin;

static void setup(void)
{
    CUcontext ctx;
    CUmodule mod;
    OK(cuInit(0));
    OK(cuCtxCreate_v2(&ctx, 0, 0));
    OK(cuModuleLoadData(&mod, kernels));
    OK(cuModuleGetFunction(&spin, mod, "spin"));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Waits for the child; its exit status (a signal, such as alarm's on a
 * hang, fails). */
static int child_status(pid_t pid)
{
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st), "child killed by signal %d",
                  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return WEXITSTATUS(st);
}

/* The child of a fork made while the kernel runs: every call fails at
 * once.  Returns 0, else the first failed step. */
static int child_busy(CUdeviceptr d)
{
    uint32_t x = 7;
    double t0 = now_s();
    alarm(5);                           /* a hang dies of SIGALRM */
    if (cuMemcpyHtoD_v2(d, &x, 4) != CUDA_ERROR_NOT_INITIALIZED) {
        return 1;
    }
    if (cuCtxSynchronize() != CUDA_ERROR_NOT_INITIALIZED) {
        return 2;
    }
    if (cuInit(0) != CUDA_ERROR_NOT_INITIALIZED) {
        return 3;
    }
    CUdeviceptr p;
    if (cuMemAlloc_v2(&p, 4) != CUDA_ERROR_NOT_INITIALIZED) {
        return 4;
    }
    if (now_s() - t0 > 1.0) {
        return 5;                       /* at once, not after a wait */
    }
    return 0;
}

START_TEST(test_fork_during_kernel)
{
    setup();
    volatile uint32_t *h;
    OK(cuMemHostAlloc((void **)&h, 8, CU_MEMHOSTALLOC_DEVICEMAP));
    h[0] = 0;
    h[1] = 0;
    CUdeviceptr dh, d;
    OK(cuMemHostGetDevicePointer_v2(&dh, (void *)h, 0));
    OK(cuMemAlloc_v2(&d, 4));
    CUdeviceptr ds = dh, df = dh + 4;
    void *args[] = { &ds, &df };
    OK(cuLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL));
    double t0 = now_s();
    /* h[0] and h[1] atomically: the running kernel's guest accesses are
     * relaxed host atomics (emu/ops_mem.c), and the test itself has no
     * data race (a ThreadSanitizer build checks it) */
    while (__atomic_load_n(&h[0], __ATOMIC_RELAXED) != 1 &&
           now_s() - t0 < 30) {
        usleep(1000);                   /* until the kernel is running */
    }
    ck_assert_uint_eq(__atomic_load_n(&h[0], __ATOMIC_RELAXED), 1);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        _exit(child_busy(d));
    }
    ck_assert_int_eq(child_status(pid), 0);
    __atomic_store_n(&h[1], 1, __ATOMIC_RELAXED);  /* release the kernel */
    OK(cuCtxSynchronize());
    ck_assert_uint_eq(h[0], 2);
    uint32_t x = 9, y = 0;
    OK(cuMemcpyHtoD_v2(d, &x, 4));
    OK(cuMemcpyDtoH_v2(&y, d, 4));
    ck_assert_uint_eq(y, 9);
}
END_TEST

/* The child of a fork made with nothing running: a kernel and copies
 * work.  Exits through exit() (the driver's atexit work runs there). */
static int child_idle(void)
{
    alarm(20);
    CUdeviceptr d;
    uint32_t v[2] = { 0, 1 }, w[2] = { 5, 5 };
    if (cuMemAlloc_v2(&d, 8) || cuMemcpyHtoD_v2(d, v, 8)) {
        return 1;
    }
    CUdeviceptr ds = d, df = d + 4;
    void *args[] = { &ds, &df };
    if (cuLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL) ||
        cuCtxSynchronize()) {
        return 2;
    }
    if (cuMemcpyDtoH_v2(w, d, 8) || w[0] != 2 || w[1] != 1) {
        return 3;
    }
    return 0;
}

START_TEST(test_fork_idle)
{
    setup();
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, 4));           /* the stream worker has run */
    uint32_t x = 3;
    OK(cuMemcpyHtoDAsync_v2(d, &x, 4, 0));
    OK(cuCtxSynchronize());
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        exit(child_idle());
    }
    ck_assert_int_eq(child_status(pid), 0);
}
END_TEST

/* A timing model that steps SMs on host threads (timing/gpu/par.c)
 * keeps its helper threads across kernels; a child forked after such a
 * kernel has none of them, and its own timed kernel must make new ones
 * (or run on one thread) instead of waiting for the parent's forever.
 * Each of the 4 CTAs (on 4 SMs: both phases of every cycle fan out,
 * par.adapt = false) adds 1..200 and stores the sum 20100. */
static const char timed_kernel[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry sum(.param .u64 o)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [o]; mov.u32 %r1, 0; mov.u32 %r2, 0;\n"
    "L:\n add.u32 %r2, %r2, 1; add.u32 %r1, %r1, %r2;\n"
    " setp.lt.u32 %p1, %r2, 200;\n @%p1 bra.uni L;\n"
    " mov.u32 %r3, %ctaid.x; mul.wide.u32 %rd2, %r3, 4;\n"
    " add.u64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r1;\n ret;\n}\n";

/* Runs sum on 4 CTAs: 0, else the failed step. */
static int run_timed(CUfunction f)
{
    CUdeviceptr d;
    uint32_t v[4] = {0};
    if (cuMemAlloc_v2(&d, sizeof v) || cuMemcpyHtoD_v2(d, v, sizeof v)) {
        return 1;
    }
    void *args[] = { &d };
    if (cuLaunchKernel(f, 4, 1, 1, 32, 1, 1, 0, 0, args, NULL) ||
        cuCtxSynchronize()) {
        return 2;
    }
    if (cuMemcpyDtoH_v2(v, d, sizeof v)) {
        return 3;
    }
    for (int i = 0; i < 4; i++) {
        if (v[i] != 20100) {
            return 4;
        }
    }
    return cuMemFree_v2(d) ? 5 : 0;
}

START_TEST(test_fork_after_parallel_timing)
{
    setenv("PTXEMU_TIMING", "gpu", 1);
    setenv("PTXEMU_TIMING_SET", "par.adapt=false", 1);
    setenv("PTXEMU_THREADS", "3", 1);
    setenv("PTXEMU_SMS", "4", 1);
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    OK(cuInit(0));
    OK(cuCtxCreate_v2(&ctx, 0, 0));
    OK(cuModuleLoadData(&mod, timed_kernel));
    OK(cuModuleGetFunction(&f, mod, "sum"));
    ck_assert_int_eq(run_timed(f), 0);  /* the helpers are made */
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        /* ThreadSanitizer refuses to start threads in the child of a
         * multi-threaded fork (its die_after_fork), and the child's
         * kernel would start helpers: there only the parent's part runs */
#ifdef __SANITIZE_THREAD__
        _exit(0);
#endif
        alarm(30);                      /* a hang dies of SIGALRM */
        _exit(run_timed(f));
    }
    ck_assert_int_eq(child_status(pid), 0);
    ck_assert_int_eq(run_timed(f), 0);  /* the parent's helpers still work */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fork");
    TCase *tc = tcase_create("fork");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fork_during_kernel);
    tcase_add_test(tc, test_fork_idle);
    tcase_add_test(tc, test_fork_after_parallel_timing); /* (last: env) */
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
