/*
 * tests/check_ipc_proc.c: CUDA IPC of device memory between processes
 * (runtime/cuda/drv_ipc.c) through the driver API.  A forked child (a
 * process of its own, its own pid) opens the parent's handle, reads the
 * parent's bytes, writes new ones with a kernel and with cuMemcpy, and
 * closes; the parent then reads the child's writes, as two processes on
 * one GPU see one allocation (CUDA Programming Guide, "Interprocess
 * Communication").  Handles of freed memory, of an exporter that has
 * exited, and forged ones fail with CUDA_ERROR_INVALID_HANDLE (a handle
 * that is not one at all, CUDA_ERROR_INVALID_VALUE) and the process lives
 * on.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/cuda_abi.h"

#define OK(call) ck_assert_int_eq((int)(call), CUDA_SUCCESS)
#define N 1000u

/* p[i] = 3i + 1 for i < n (u32). */
static const char kernels[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry fill(.param .u64 pp, .param .u32 n)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [pp]; ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n"
    " @%p1 bra DONE;\n"
    " mad.lo.s32 %r6, %r5, 3, 1;\n"
    " mul.wide.u32 %rd2, %r5, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r6;\n"
    "DONE:\n ret;\n}\n";

static CUfunction fill;

static void setup(void)
{
    CUcontext ctx;
    CUmodule mod;
    OK(cuInit(0));
    OK(cuCtxCreate_v2(&ctx, 0, 0));
    OK(cuModuleLoadData(&mod, kernels));
    OK(cuModuleGetFunction(&fill, mod, "fill"));
}

/* Runs fn(arg) in a forked child; returns its exit status (0: passed,
 * else the number of the first failed step). */
static int in_child(int (*fn)(void *), void *arg)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        _exit(fn(arg));
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* The child: the parent's values, then 3i+1 by a kernel in [0, N/2) and
 * 5000+i by a copy in [N/2, N). */
static int child_exchange(void *arg)
{
    const CUipcMemHandle *h = arg;
    CUdeviceptr d = 0, d2 = 0;
    static unsigned v[N];
    if (cuIpcOpenMemHandle(&d, *h, 1 /* CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS */)) {
        return 1;
    }
    if (cuIpcOpenMemHandle(&d2, *h, 0) || d2 != d) {
        return 2;                       /* one address, counted */
    }
    if (cuMemcpyDtoH_v2(v, d, sizeof(v))) {
        return 3;
    }
    for (unsigned i = 0; i < N; i++) {
        if (v[i] != 7 * i + 2) {
            return 4;
        }
    }
    unsigned half = N / 2;
    void *args[] = { &d, &half };
    if (cuLaunchKernel(fill, (half + 63) / 64, 1, 1, 64, 1, 1, 0, 0, args,
                       NULL) || cuCtxSynchronize()) {
        return 5;
    }
    for (unsigned i = half; i < N; i++) {
        v[i] = 5000 + i;
    }
    if (cuMemcpyHtoD_v2(d + half * 4, v + half, (N - half) * 4)) {
        return 6;
    }
    /* An imported mapping is not the importer's to export or free. */
    CUipcMemHandle again;
    if (cuIpcGetMemHandle(&again, d) != CUDA_ERROR_INVALID_VALUE) {
        return 7;
    }
    if (cuMemFree_v2(d) == CUDA_SUCCESS) {
        return 11;
    }
    if (cuIpcCloseMemHandle(d) || cuIpcCloseMemHandle(d)) {
        return 8;
    }
    if (cuIpcCloseMemHandle(d) != CUDA_ERROR_INVALID_VALUE) {
        return 9;                       /* closed: no longer open */
    }
    if (cuMemcpyDtoH_v2(v, d, 4) == CUDA_SUCCESS) {
        return 10;                      /* unmapped here */
    }
    return 0;
}

START_TEST(test_exchange)
{
    setup();
    static unsigned v[N];
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, sizeof(v)));
    for (unsigned i = 0; i < N; i++) {
        v[i] = 7 * i + 2;
    }
    OK(cuMemcpyHtoD_v2(d, v, sizeof(v)));
    CUipcMemHandle h, h2;
    OK(cuIpcGetMemHandle(&h, d));
    OK(cuIpcGetMemHandle(&h2, d));
    ck_assert(memcmp(&h, &h2, sizeof(h)) == 0);  /* exported once */
    ck_assert_int_eq(in_child(child_exchange, &h), 0);
    memset(v, 0, sizeof(v));
    OK(cuMemcpyDtoH_v2(v, d, sizeof(v)));
    for (unsigned i = 0; i < N; i++) {
        ck_assert_uint_eq(v[i], i < N / 2 ? 3 * i + 1 : 5000 + i);
    }
    /* The parent's kernel sees the child's bytes too, and the child sees
     * the parent's later writes (a second child). */
    unsigned n = N;
    void *args[] = { &d, &n };
    OK(cuLaunchKernel(fill, (N + 63) / 64, 1, 1, 64, 1, 1, 0, 0, args,
                      NULL));
    OK(cuCtxSynchronize());
    OK(cuMemcpyDtoH_v2(v, d, sizeof(v)));
    ck_assert_uint_eq(v[N - 1], 3 * (N - 1) + 1);
    OK(cuMemFree_v2(d));
}
END_TEST

/* The child's exit status for each result (an exit status has 8 bits). */
enum { OPENED, BAD_HANDLE, BAD_VALUE, OTHER };

static int child_open(void *arg)
{
    CUdeviceptr d = 0;
    CUresult r = cuIpcOpenMemHandle(&d, *(const CUipcMemHandle *)arg, 0);
    return r == CUDA_SUCCESS ? OPENED
           : r == CUDA_ERROR_INVALID_HANDLE ? BAD_HANDLE
           : r == CUDA_ERROR_INVALID_VALUE ? BAD_VALUE : OTHER;
}

START_TEST(test_bad_handles)
{
    setup();
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, 4096));
    CUipcMemHandle h, forged;
    OK(cuIpcGetMemHandle(&h, d));
    /* Another inode behind the same descriptor number. */
    memcpy(&forged, &h, sizeof(h));
    forged.reserved[32] ^= 1;           /* the inode (ours: bytes 32..39) */
    ck_assert_int_eq(in_child(child_open, &forged), BAD_HANDLE);
    /* A size that is not the file's. */
    memcpy(&forged, &h, sizeof(h));
    forged.reserved[24] ^= 0x10;        /* the size (bytes 24..31) */
    ck_assert_int_eq(in_child(child_open, &forged), BAD_HANDLE);
    /* Random bytes after our magic. */
    memcpy(&forged, &h, sizeof(h));
    for (unsigned i = 8; i < 64; i++) {
        forged.reserved[i] = (char)(i * 37 + 11);
    }
    ck_assert_int_eq(in_child(child_open, &forged), BAD_HANDLE);
    /* Another file of the exporter's: a pipe (opening it must neither
     * block nor succeed). */
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    memcpy(&forged, &h, sizeof(h));
    int32_t fd = fds[0];
    memcpy(&forged.reserved[12], &fd, sizeof(fd));  /* bytes 12..15 */
    ck_assert_int_eq(in_child(child_open, &forged), BAD_HANDLE);
    close(fds[0]);
    close(fds[1]);
    /* Not a handle at all. */
    memset(&forged, 0xa5, sizeof(forged));
    ck_assert_int_eq(in_child(child_open, &forged), BAD_VALUE);
    ck_assert_int_eq(in_child(child_open, &h), OPENED);
    /* Freed: its memfd is closed. */
    OK(cuMemFree_v2(d));
    ck_assert_int_eq(in_child(child_open, &h), BAD_HANDLE);
    CUdeviceptr q;
    ck_assert_int_eq(cuIpcOpenMemHandle(&q, h, 0),
                     CUDA_ERROR_INVALID_HANDLE);  /* in the exporter too */
}
END_TEST

START_TEST(test_exporter_gone)
{
    setup();
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        CUdeviceptr d;
        CUipcMemHandle h;
        memset(&h, 0, sizeof(h));
        if (cuMemAlloc_v2(&d, 256) || cuIpcGetMemHandle(&h, d)) {
            _exit(1);
        }
        _exit(write(fds[1], &h, sizeof(h)) == (ssize_t)sizeof(h) ? 0 : 2);
    }
    CUipcMemHandle h;
    ck_assert_int_eq(read(fds[0], &h, sizeof(h)), (ssize_t)sizeof(h));
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    close(fds[0]);
    close(fds[1]);
    CUdeviceptr q = 0;
    ck_assert_int_eq(cuIpcOpenMemHandle(&q, h, 0), CUDA_ERROR_INVALID_HANDLE);
    /* The process lives on. */
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, 256));
    OK(cuMemFree_v2(d));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ipc_proc");
    TCase *tc = tcase_create("ipc_proc");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_exchange);
    tcase_add_test(tc, test_bad_handles);
    tcase_add_test(tc, test_exporter_gone);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
