/*
 * tests/check_quiet.c: a kernel spinning on a flag in host-visible
 * memory (managed, page-locked) under the drop-in driver
 * (runtime/cuda/drv_quiet.h).  When every host thread is blocked in a
 * synchronising CUDA call nobody can set the flag: the watchdog reports
 * the livelock at once (not after the time limit).  While some host
 * thread may still set it (the main thread before it synchronises, a
 * thread that never calls CUDA, a host function on the callback
 * thread, another process that records an event a host thread waits
 * for), the kernel runs until the flag is set and succeeds; also in a
 * child forked after the driver's threads started.  Allocations
 * (cuMemAlloc, cuMemAllocManaged, cuMemAllocHost) do not wait for the
 * running kernel (CUDA does not list them among the synchronising
 * calls), and the kernel can use them at once.
 *
 * References: CUDA's rule that a fault or deadlock in a kernel is
 * reported by the next synchronising call (not CUDA_SUCCESS), and the
 * values the kernel writes (2 once released), worked by hand.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/cuda_abi.h"

#define OK(call) ck_assert_int_eq((int)(call), CUDA_SUCCESS)

/* Every thread waits until *f != 0 (its registers do not change while
 * it waits), then thread 0 of CTA 0 stores 2 at *s. */
static const char kernels[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry spin(.param .u64 s, .param .u64 f)\n{\n"
    " .reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [s]; ld.param.u64 %rd2, [f];\n"
    "WAIT:\n ld.volatile.global.u32 %r2, [%rd2];\n"
    " setp.eq.u32 %p1, %r2, 0;\n"
    " @%p1 bra WAIT;\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r3, %ctaid.x; or.b32 %r1, %r1, %r3;\n"
    " setp.ne.u32 %p2, %r1, 0;\n"
    " @%p2 bra DONE;\n"
    " mov.u32 %r1, 2; st.volatile.global.u32 [%rd1], %r1;\n"
    "DONE:\n ret;\n}\n"
    /* f[1] = 1 (running); waits until f[0] != 0; then stores 42 at the
     * u32 the u64 at f+8 points to, 43 at f+16's, 44 at f+24's, and
     * f[1] = 2 */
    ".visible .entry spin_alloc(.param .u64 f)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [f];\n"
    " mov.u32 %r1, 1; st.volatile.global.u32 [%rd1+4], %r1;\n"
    "AWAIT:\n ld.volatile.global.u32 %r2, [%rd1];\n"
    " setp.eq.u32 %p1, %r2, 0;\n"
    " @%p1 bra AWAIT;\n"
    " ld.volatile.global.u64 %rd2, [%rd1+8];\n"
    " ld.volatile.global.u64 %rd3, [%rd1+16];\n"
    " mov.u32 %r1, 42; st.global.u32 [%rd2], %r1;\n"
    " mov.u32 %r1, 43; st.global.u32 [%rd3], %r1;\n"
    " ld.volatile.global.u64 %rd3, [%rd1+24];\n"
    " mov.u32 %r1, 44; st.global.u32 [%rd3], %r1;\n"
    " mov.u32 %r1, 2; st.volatile.global.u32 [%rd1+4], %r1;\n"
    " ret;\n}\n";

static CUfunction spin, spin_alloc;
static volatile unsigned *flag, *status;
static const char *time_limit = "60";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The driver with a time limit far above what a diagnosis takes, and
 * the flag and status word in memory of the kind asked for. */
static void setup_kind(int pinned)
{
    CUcontext ctx;
    CUmodule mod;
    setenv("PTXEMU_TIME_LIMIT", time_limit, 1);
    OK(cuInit(0));
    OK(cuCtxCreate_v2(&ctx, 0, 0));
    OK(cuModuleLoadData(&mod, kernels));
    OK(cuModuleGetFunction(&spin, mod, "spin"));
    OK(cuModuleGetFunction(&spin_alloc, mod, "spin_alloc"));
    void *p;
    if (pinned) {
        OK(cuMemAllocHost_v2(&p, 64));
    } else {
        CUdeviceptr d;
        OK(cuMemAllocManaged(&d, 64, CU_MEM_ATTACH_GLOBAL));
        p = (void *)(uintptr_t)d;
    }
    flag = p;
    status = flag + 1;
    *flag = 0;
    *status = 0;
}

/* The host's side of the words a running kernel polls and writes: the
 * emulator's guest loads and stores are relaxed host atomics
 * (emu/ops_mem.c), so the host's are atomic too and the test program
 * has no data race of its own (a ThreadSanitizer build checks it).  On
 * x86-64 these are the same moves as the volatile ones a CUDA program
 * writes. */
static void set_flag(unsigned v)
{
    __atomic_store_n(flag, v, __ATOMIC_RELAXED);
}

static unsigned get_status(void)
{
    return __atomic_load_n(status, __ATOMIC_RELAXED);
}

static void launch(CUstream s)
{
    CUdeviceptr sp = (CUdeviceptr)(uintptr_t)status;
    CUdeviceptr fp = (CUdeviceptr)(uintptr_t)flag;
    void *args[] = { &sp, &fp };
    OK(cuLaunchKernel(spin, 2, 1, 1, 64, 1, 1, 0, s, args, NULL));
}

static void nap(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
    nanosleep(&ts, NULL);
}

/* Nobody can set the flag: diagnosed, well before the time limit. */
static void never_set(int pinned)
{
    setup_kind(pinned);
    double t0 = now_s();
    launch(NULL);
    CUresult r = cuCtxSynchronize();
    double t = now_s() - t0;
    ck_assert_msg(r != CUDA_SUCCESS, "the livelock went unreported");
    ck_assert_msg(t < 20, "reported after %.1f s: the time limit, not "
                  "the watchdog", t);
    ck_assert_uint_eq(get_status(), 0);
}

START_TEST(never_set_managed) { never_set(0); }
END_TEST

START_TEST(never_set_pinned) { never_set(1); }
END_TEST

/* The main thread sets the flag before it synchronises. */
START_TEST(set_by_main)
{
    setup_kind(0);
    launch(NULL);
    nap(0.3);
    set_flag(1);
    OK(cuCtxSynchronize());
    ck_assert_uint_eq(get_status(), 2);
}
END_TEST

static void *late_setter(void *arg)
{
    (void)arg;
    nap(0.5);
    set_flag(1);
    return NULL;
}

/* A thread that never calls CUDA sets it while main waits. */
START_TEST(set_by_other_thread)
{
    setup_kind(1);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, late_setter, NULL), 0);
    launch(NULL);
    OK(cuCtxSynchronize());
    pthread_join(t, NULL);
    ck_assert_uint_eq(get_status(), 2);
}
END_TEST

/* (Not under ThreadSanitizer, which cannot follow a thread started in
 * the child of a multi-threaded fork: the new thread gets the pthread_t
 * of one of the parent's threads, which TSan still counts, and TSan
 * stops the child with "dup thread with used id".) */
#if !defined(__SANITIZE_THREAD__)
/* As late_setter, later than the watchdog's diagnosis of never_set
 * (about a second). */
static void *slow_setter(void *arg)
{
    (void)arg;
    nap(3);
    set_flag(1);
    return NULL;
}

/* In a child forked after the driver's threads started (the child has
 * none of them, and runs its work on its own thread), a thread that
 * never calls CUDA still counts as one that may set the flag. */
START_TEST(set_by_other_thread_after_fork)
{
    setup_kind(0);
    launch(NULL);                       /* the worker threads run */
    set_flag(1);
    OK(cuCtxSynchronize());
    ck_assert_uint_eq(get_status(), 2);
    set_flag(0);
    *status = 0;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        pthread_t t;
        int ok = pthread_create(&t, NULL, slow_setter, NULL) == 0;
        launch(NULL);
        ok = ok && cuCtxSynchronize() == CUDA_SUCCESS;
        pthread_join(t, NULL);
        if (!ok || get_status() != 2) {
            _exit(1);
        }
        /* ...and with no such thread left, a spin is still diagnosed */
        set_flag(0);
        double t0 = now_s();
        launch(NULL);
        _exit(cuCtxSynchronize() != CUDA_SUCCESS && now_s() - t0 < 20
                  ? 0 : 2);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) != 1,
                  "the child's kernel was called stuck while a thread "
                  "of the child was about to set its flag");
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                  "the child's livelock went unreported (status 0x%x)", st);
}
END_TEST
#endif

static void nap_fn(void *arg)
{
    nap(*(const double *)arg);
}

/* A stream of the main thread waits for another process's pending
 * record of an interprocess event (cuStreamWaitEvent on its copy),
 * then main sets the flag: the other process may release it any time,
 * so the spin is no livelock.  The other process, forked before any
 * stream work here, records behind a host function of 3 s. */
START_TEST(ipc_wait_from_other_process)
{
    setup_kind(1);
    CUevent ev;
    CUipcEventHandle eh;
    OK(cuEventCreate(&ev, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    OK(cuIpcGetEventHandle(&eh, ev));
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        static const double three = 3;
        CUevent mine;
        CUstream cs;
        char c = 1;
        if (cuIpcOpenEventHandle(&mine, eh) ||
            cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING) ||
            cuLaunchHostFunc(cs, nap_fn, (void *)&three) ||
            cuEventRecord(mine, cs) ||
            cuEventQuery(mine) != CUDA_ERROR_NOT_READY ||
            write(fds[1], &c, 1) != 1 || cuStreamSynchronize(cs)) {
            _exit(1);
        }
        _exit(0);
    }
    char c = 0;
    ck_assert_int_eq(read(fds[0], &c, 1), 1);
    ck_assert_int_eq(cuEventQuery(ev), CUDA_ERROR_NOT_READY);
    CUstream k, t;
    OK(cuStreamCreate(&k, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&t, CU_STREAM_NON_BLOCKING));
    launch(k);
    OK(cuStreamWaitEvent(t, ev, 0));
    OK(cuStreamSynchronize(t));
    set_flag(1);
    OK(cuCtxSynchronize());
    ck_assert_uint_eq(get_status(), 2);
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
END_TEST

static void host_fn(void *arg)
{
    (void)arg;
    nap(0.3);
    set_flag(1);
}

/* A host function on another stream (the callback thread) sets it
 * while the kernel runs and main waits. */
START_TEST(set_by_host_function)
{
    setup_kind(0);
    CUstream a, b;
    OK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    launch(a);
    OK(cuLaunchHostFunc(b, host_fn, NULL));
    OK(cuCtxSynchronize());
    ck_assert_uint_eq(get_status(), 2);
}
END_TEST

/* A module with a variable (7 at first) and a kernel that copies it. */
static const char late_module[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .global .align 4 .u32 g = 7;\n"
    ".visible .entry copyg(.param .u64 o)\n{\n"
    " .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [o]; ld.global.u32 %r1, [g];\n"
    " st.global.u32 [%rd1], %r1;\n ret;\n}\n";

/* While the kernel spins (it said so in f[1]), main allocates device,
 * managed and page-locked memory, loads a module and looks up its
 * kernel and variable, hands the kernel the two allocations and the
 * variable and sets the flag: none of these calls waits for the kernel
 * (before, they did: the time limit, 15 s here, ended it), and the
 * kernel writes into all three. */
START_TEST(alloc_while_kernel_runs)
{
    time_limit = "15";
    setup_kind(1);
    volatile uint64_t *ptrs = (volatile uint64_t *)(flag + 2);
    CUdeviceptr fp = (CUdeviceptr)(uintptr_t)flag;
    void *args[] = { &fp };
    OK(cuLaunchKernel(spin_alloc, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    double t0 = now_s();
    while (get_status() != 1 && now_s() - t0 < 10) {
        nap(0.01);
    }
    ck_assert_uint_eq(get_status(), 1);
    t0 = now_s();
    CUdeviceptr d, m;
    void *h;
    OK(cuMemAlloc_v2(&d, 256));
    OK(cuMemAllocManaged(&m, 64, CU_MEM_ATTACH_GLOBAL));
    OK(cuMemAllocHost_v2(&h, 64));
    CUmodule late;
    CUfunction copyg;
    CUdeviceptr g;
    size_t gsize = 0;
    OK(cuModuleLoadData(&late, late_module));
    OK(cuModuleGetFunction(&copyg, late, "copyg"));
    OK(cuModuleGetGlobal_v2(&g, &gsize, late, "g"));
    ck_assert_uint_eq(gsize, 4);
    CUmodule bad;                       /* a failure returns at once too */
    ck_assert_int_eq(cuModuleLoadData(&bad, ".version 7.0\nnot ptx\n"),
                     CUDA_ERROR_INVALID_PTX);
    double t = now_s() - t0;
    ck_assert_msg(t < 5, "the calls waited %.1f s for the kernel", t);
    ck_assert_uint_eq(get_status(), 1);  /* the kernel still runs */
    /* (atomic, as set_flag: the kernel reads them once the flag is set) */
    __atomic_store_n(&ptrs[0], d, __ATOMIC_RELAXED);
    __atomic_store_n(&ptrs[1], m, __ATOMIC_RELAXED);
    __atomic_store_n(&ptrs[2], g, __ATOMIC_RELAXED);
    set_flag(1);
    OK(cuCtxSynchronize());
    ck_assert_uint_eq(get_status(), 2);
    unsigned v = 0;
    OK(cuMemcpyDtoH_v2(&v, d, sizeof(v)));
    ck_assert_uint_eq(v, 42);
    ck_assert_uint_eq(*(volatile unsigned *)(uintptr_t)m, 43);
    /* the late module's kernel sees what the first kernel wrote */
    void *cargs[] = { &d };
    OK(cuLaunchKernel(copyg, 1, 1, 1, 1, 1, 1, 0, NULL, cargs, NULL));
    OK(cuMemcpyDtoH_v2(&v, d, sizeof(v)));
    ck_assert_uint_eq(v, 44);
    OK(cuModuleUnload(late));
    /* and they are ordinary allocations afterwards */
    OK(cuMemFree_v2(d));
    OK(cuMemFree_v2(m));
    OK(cuMemFreeHost(h));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("quiet");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 90);
    tcase_add_test(tc, never_set_managed);
    tcase_add_test(tc, never_set_pinned);
    tcase_add_test(tc, set_by_main);
    tcase_add_test(tc, set_by_other_thread);
    tcase_add_test(tc, set_by_host_function);
#if !defined(__SANITIZE_THREAD__)
    tcase_add_test(tc, set_by_other_thread_after_fork);
#endif
    tcase_add_test(tc, ipc_wait_from_other_process);
    tcase_add_test(tc, alloc_while_kernel_runs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
