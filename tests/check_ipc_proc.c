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
 *
 * Events (CU_EVENT_INTERPROCESS): the parent records an event after a
 * kernel that spins until a flag is set (the parent sets it from the
 * host, through mapped memory, only once the child has looked); the
 * child sees the record pending (CUDA_ERROR_NOT_READY) and the
 * parent's results absent, then its cuStreamWaitEvent holds its copy
 * back until the parent's kernels are done, so the copy reads them;
 * then cuEventQuery/cuEventSynchronize succeed.  A record made in the
 * importer is the event's last record in the exporter too.  Event
 * handles destroyed, forged or of an exited
 * exporter fail as memory handles do; an event opened before its
 * exporter exited stays readable.  In a process with a stream worker,
 * a stream waiting on another copy's pending record is held back while
 * the host thread goes on.
 *
 * Exported memfds are sealed against resizing (fcntl(2), "File
 * Sealing"): another process that opens one through /proc cannot
 * truncate or grow it, so the importer's next access reads on instead
 * of dying of SIGBUS; a handle naming an unsealed memfd is refused.
 */
#define _GNU_SOURCE 1 /* memfd_create(2) */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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
    "DONE:\n ret;\n}\n"
    /* Spins until *flag != 0 (the counter keeps the loop's state
     * changing, so the emulator's livelock watchdog lets it run). */
    ".visible .entry spin(.param .u64 flag)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [flag]; mov.u32 %r3, 0;\n"
    "WAIT:\n add.u32 %r3, %r3, 1;\n"
    " ld.volatile.global.u32 %r2, [%rd1];\n"
    " setp.eq.u32 %p1, %r2, 0;\n"
    " @%p1 bra WAIT;\n ret;\n}\n";

static CUfunction fill, spin;

static void setup(void)
{
    CUcontext ctx;
    CUmodule mod;
    OK(cuInit(0));
    OK(cuCtxCreate_v2(&ctx, 0, 0));
    OK(cuModuleLoadData(&mod, kernels));
    OK(cuModuleGetFunction(&fill, mod, "fill"));
    OK(cuModuleGetFunction(&spin, mod, "spin"));
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

/* ------------------------------------------------------------ events */

#define EV_FLAGS (CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING)

/* On s: spin until *flag, then fill d with 3i+1 (N), then record ev. */
static void pending_work(CUstream s, CUdeviceptr flag, CUdeviceptr d,
                         CUevent ev)
{
    unsigned n = N;
    void *sa[] = { &flag };
    void *fa[] = { &d, &n };
    OK(cuLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, s, sa, NULL));
    OK(cuLaunchKernel(fill, (N + 63) / 64, 1, 1, 64, 1, 1, 0, s, fa,
                      NULL));
    OK(cuEventRecord(ev, s));
}

typedef struct EvShare {
    CUipcMemHandle mh;
    CUipcEventHandle eh;
    int up[2], down[2];                 /* child -> parent, parent -> child */
} EvShare;

static int child_event_wait(void *arg)
{
    EvShare *sh = arg;
    CUdeviceptr d = 0;
    CUevent ev = NULL;
    static unsigned v[N];
    char c = 0;
    if (cuIpcOpenMemHandle(&d, sh->mh, 0) || cuIpcOpenEventHandle(&ev, sh->eh)) {
        return 1;
    }
    if (cuEventQuery(ev) != CUDA_SUCCESS) {
        return 2;                       /* never recorded: done */
    }
    if (write(sh->up[1], "r", 1) != 1 || read(sh->down[0], &c, 1) != 1) {
        return 3;
    }
    if (cuEventQuery(ev) != CUDA_ERROR_NOT_READY) {
        return 4;                       /* the parent's record is pending */
    }
    if (cuMemcpyDtoH_v2(v, d, sizeof(v)) || v[1] != 0) {
        return 5;                       /* and its results are not there */
    }
    if (write(sh->up[1], "q", 1) != 1) {
        return 3;
    }
    /* The parent releases its kernel only now. */
    if (cuStreamWaitEvent(0, ev, 0) || cuMemcpyDtoH_v2(v, d, sizeof(v))) {
        return 6;
    }
    for (unsigned i = 0; i < N; i++) {
        if (v[i] != 3 * i + 1) {
            return 7;
        }
    }
    if (cuEventQuery(ev) || cuEventSynchronize(ev)) {
        return 8;
    }
    if (cuEventDestroy_v2(ev) || cuIpcCloseMemHandle(d)) {
        return 9;
    }
    return 0;
}

START_TEST(test_event_wait)
{
    setup();
    int attr = -1;
    OK(cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED,
                            0));
    ck_assert_int_eq(attr, 1);
    static EvShare sh;
    CUdeviceptr d;
    CUevent ev, plain;
    CUstream s;
    volatile unsigned *flag;
    CUdeviceptr dflag;
    OK(cuMemAlloc_v2(&d, N * 4));
    OK(cuMemsetD32_v2(d, 0, N));
    OK(cuIpcGetMemHandle(&sh.mh, d));
    OK(cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING));
    ck_assert_int_eq(cuIpcGetEventHandle(&sh.eh, plain),
                     CUDA_ERROR_INVALID_HANDLE);  /* not INTERPROCESS */
    ck_assert_int_eq(cuEventCreate(&ev, CU_EVENT_INTERPROCESS),
                     CUDA_ERROR_INVALID_VALUE);   /* timing not allowed */
    OK(cuEventCreate(&ev, EV_FLAGS));
    OK(cuIpcGetEventHandle(&sh.eh, ev));
    OK(cuMemHostAlloc((void **)&flag, 4, CU_MEMHOSTALLOC_DEVICEMAP));
    *flag = 0;
    OK(cuMemHostGetDevicePointer_v2(&dflag, (void *)flag, 0));
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuCtxSynchronize());             /* nothing running at the fork */
    ck_assert_int_eq(pipe(sh.up), 0);
    ck_assert_int_eq(pipe(sh.down), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        _exit(child_event_wait(&sh));
    }
    char c = 0;
    ck_assert_int_eq(read(sh.up[0], &c, 1), 1);
    pending_work(s, dflag, d, ev);
    ck_assert_int_eq(cuEventQuery(ev), CUDA_ERROR_NOT_READY);
    ck_assert_int_eq(write(sh.down[1], "g", 1), 1);
    ck_assert_int_eq(read(sh.up[0], &c, 1), 1);
    usleep(100 * 1000);                 /* the child is waiting by now */
    ck_assert_int_eq(cuEventQuery(ev), CUDA_ERROR_NOT_READY);
    /* atomic: the spinning kernel's loads are relaxed host atomics
     * (emu/ops_mem.c), and the test has no data race of its own (a
     * ThreadSanitizer build checks it) */
    __atomic_store_n(flag, 1, __ATOMIC_RELAXED);
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 0);
    OK(cuEventSynchronize(ev));
    OK(cuEventQuery(ev));
    for (int i = 0; i < 2; i++) {
        close(sh.up[i]);
        close(sh.down[i]);
    }
    OK(cuStreamDestroy_v2(s));
    OK(cuEventDestroy_v2(ev));
    OK(cuEventDestroy_v2(plain));
    OK(cuMemFreeHost((void *)flag));
    OK(cuMemFree_v2(d));
}
END_TEST

/* The importer records: query results, then its record. */
static int child_record(void *arg)
{
    CUevent ev = NULL;
    if (cuIpcOpenEventHandle(&ev, *(const CUipcEventHandle *)arg)) {
        return 1;
    }
    if (cuEventQuery(ev) != CUDA_ERROR_NOT_READY) {
        return 2;
    }
    if (cuEventRecord(ev, 0) || cuEventQuery(ev)) {
        return 3;
    }
    return 0;
}

/* A host function holding the stream until *arg is set. */
static void hold(void *arg)
{
    while (!__atomic_load_n((int *)arg, __ATOMIC_ACQUIRE)) {
        usleep(1000);
    }
}

START_TEST(test_event_importer_records)
{
    setup();
    CUevent ev;
    CUstream s;
    CUipcEventHandle eh;
    static int go;
    OK(cuEventCreate(&ev, EV_FLAGS));
    OK(cuIpcGetEventHandle(&eh, ev));
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    /* Pending behind a host function (no kernel holds the device at
     * the fork). */
    __atomic_store_n(&go, 0, __ATOMIC_RELEASE);
    OK(cuLaunchHostFunc(s, hold, &go));
    OK(cuEventRecord(ev, s));
    ck_assert_int_eq(cuEventQuery(ev), CUDA_ERROR_NOT_READY);
    ck_assert_int_eq(in_child(child_record, &eh), 0);
    /* The child's record, done, is the event's last one here too. */
    OK(cuEventQuery(ev));
    OK(cuEventSynchronize(ev));
    ck_assert_int_eq(cuStreamQuery(s), CUDA_ERROR_NOT_READY);
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    OK(cuStreamSynchronize(s));
    OK(cuEventQuery(ev));
    OK(cuStreamDestroy_v2(s));
    OK(cuEventDestroy_v2(ev));
}
END_TEST

/* A stream waiting on another copy's record (what an importer with a
 * stream worker does with the exporter's) is held back, the host is
 * not: the wait runs beside the worker. */
START_TEST(test_event_stream_waits)
{
    setup();
    CUevent ev, copy;
    CUstream s, t;
    CUipcEventHandle eh;
    CUdeviceptr d, d2;
    static int go;
    unsigned v = 0;
    OK(cuMemAlloc_v2(&d, 4));
    OK(cuMemAlloc_v2(&d2, 4));
    OK(cuMemsetD32_v2(d, 5, 1));
    OK(cuMemsetD32_v2(d2, 0, 1));
    OK(cuEventCreate(&ev, EV_FLAGS));
    OK(cuIpcGetEventHandle(&eh, ev));
    OK(cuIpcOpenEventHandle(&copy, eh));
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&t, CU_STREAM_NON_BLOCKING));
    __atomic_store_n(&go, 0, __ATOMIC_RELEASE);
    OK(cuLaunchHostFunc(s, hold, &go));
    OK(cuMemsetD32Async(d, 9, 1, s));
    OK(cuEventRecord(ev, s));
    OK(cuStreamWaitEvent(t, copy, 0));
    OK(cuMemcpyDtoDAsync_v2(d2, d, 4, t));
    ck_assert_int_eq(cuEventQuery(copy), CUDA_ERROR_NOT_READY);
    usleep(50 * 1000);
    ck_assert_int_eq(cuStreamQuery(t), CUDA_ERROR_NOT_READY);
    OK(cuMemcpyDtoH_v2(&v, d2, 4));     /* legacy: not behind t */
    ck_assert_uint_eq(v, 0);            /* the copy has not run */
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    OK(cuStreamSynchronize(t));
    OK(cuMemcpyDtoH_v2(&v, d2, 4));
    ck_assert_uint_eq(v, 9);            /* after s's memset */
    OK(cuEventQuery(copy));
    OK(cuStreamDestroy_v2(s));
    OK(cuStreamDestroy_v2(t));
    OK(cuEventDestroy_v2(copy));
    OK(cuEventDestroy_v2(ev));
    OK(cuMemFree_v2(d));
    OK(cuMemFree_v2(d2));
}
END_TEST

static int child_open_event(void *arg)
{
    CUevent ev = NULL;
    CUresult r = cuIpcOpenEventHandle(&ev, *(const CUipcEventHandle *)arg);
    return r == CUDA_SUCCESS ? OPENED
           : r == CUDA_ERROR_INVALID_HANDLE ? BAD_HANDLE
           : r == CUDA_ERROR_INVALID_VALUE ? BAD_VALUE : OTHER;
}

START_TEST(test_event_bad_handles)
{
    setup();
    CUevent ev, ev2;
    CUipcEventHandle h, forged;
    OK(cuEventCreate(&ev, EV_FLAGS));
    OK(cuIpcGetEventHandle(&h, ev));
    memcpy(&forged, &h, sizeof(h));
    forged.reserved[32] ^= 1;           /* the inode */
    ck_assert_int_eq(in_child(child_open_event, &forged), BAD_HANDLE);
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    memcpy(&forged, &h, sizeof(h));
    int32_t fd = fds[0];
    memcpy(&forged.reserved[12], &fd, sizeof(fd));  /* a pipe */
    ck_assert_int_eq(in_child(child_open_event, &forged), BAD_HANDLE);
    close(fds[0]);
    close(fds[1]);
    /* A memory handle's memfd dressed as an event's. */
    CUdeviceptr d;
    CUipcMemHandle mh;
    OK(cuMemAlloc_v2(&d, 4096));
    OK(cuIpcGetMemHandle(&mh, d));
    memcpy(&forged, &mh, sizeof(mh));
    memcpy(forged.reserved, &h, 8);     /* the event magic */
    ck_assert_int_eq(in_child(child_open_event, &forged), BAD_HANDLE);
    OK(cuMemFree_v2(d));
    memset(&forged, 0xa5, sizeof(forged));
    ck_assert_int_eq(in_child(child_open_event, &forged), BAD_VALUE);
    ck_assert_int_eq(in_child(child_open_event, &h), OPENED);
    /* In the exporter: a second event on the same state. */
    OK(cuIpcOpenEventHandle(&ev2, h));
    OK(cuEventDestroy_v2(ev2));
    OK(cuEventDestroy_v2(ev));
    ck_assert_int_eq(in_child(child_open_event, &h), BAD_HANDLE);
    ck_assert_int_eq(cuIpcOpenEventHandle(&ev2, h),
                     CUDA_ERROR_INVALID_HANDLE);
}
END_TEST

/* An exporter that records its event and exits once the parent has
 * opened it: the parent's copy keeps the last state. */
START_TEST(test_event_exporter_gone)
{
    setup();
    int up[2], down[2];
    ck_assert_int_eq(pipe(up), 0);
    ck_assert_int_eq(pipe(down), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        CUevent ev;
        CUipcEventHandle h;
        char c;
        memset(&h, 0, sizeof(h));
        if (cuEventCreate(&ev, EV_FLAGS) || cuIpcGetEventHandle(&h, ev) ||
            write(up[1], &h, sizeof(h)) != (ssize_t)sizeof(h) ||
            read(down[0], &c, 1) != 1 || cuEventRecord(ev, 0)) {
            _exit(1);
        }
        _exit(0);
    }
    CUipcEventHandle h;
    CUevent ev;
    ck_assert_int_eq(read(up[0], &h, sizeof(h)), (ssize_t)sizeof(h));
    OK(cuIpcOpenEventHandle(&ev, h));
    ck_assert_int_eq(write(down[1], "o", 1), 1);
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    OK(cuEventQuery(ev));
    OK(cuEventSynchronize(ev));
    OK(cuStreamWaitEvent(0, ev, 0));
    OK(cuCtxSynchronize());
    OK(cuEventRecord(ev, 0));           /* still usable here */
    OK(cuEventSynchronize(ev));
    OK(cuEventDestroy_v2(ev));
    CUevent again;
    ck_assert_int_eq(cuIpcOpenEventHandle(&again, h),
                     CUDA_ERROR_INVALID_HANDLE);
    for (int i = 0; i < 2; i++) {
        close(up[i]);
        close(down[i]);
    }
}
END_TEST

/* Opens the memfd a handle names (bytes 8..11 the pid, 12..15 the
 * descriptor) as any process of the user could. */
static int open_named(const void *handle)
{
    uint32_t pid;
    int32_t fd;
    char path[64];
    memcpy(&pid, (const char *)handle + 8, sizeof(pid));
    memcpy(&fd, (const char *)handle + 12, sizeof(fd));
    snprintf(path, sizeof(path), "/proc/%u/fd/%d", pid, fd);
    return open(path, O_RDWR);
}

/* The child: opens the handle, reads 0x5a bytes, fails to shrink or
 * grow the exporter's memfd, and reads them again (with the old
 * unsealed memfd the second read died of SIGBUS). */
static int child_resize(void *arg)
{
    const CUipcMemHandle *h = arg;
    CUdeviceptr d = 0;
    static unsigned char v[4096];
    if (cuIpcOpenMemHandle(&d, *h, 0) || cuMemcpyDtoH_v2(v, d, sizeof(v))) {
        return 1;
    }
    int f = open_named(h);
    if (f < 0) {
        return 2;
    }
    if (ftruncate(f, 0) == 0 || errno != EPERM) {
        return 3;                       /* F_SEAL_SHRINK */
    }
    if (ftruncate(f, 1 << 20) == 0 || errno != EPERM) {
        return 4;                       /* F_SEAL_GROW */
    }
    if (fcntl(f, F_GET_SEALS) < 0 ||
        !(fcntl(f, F_GET_SEALS) & F_SEAL_SEAL)) {
        return 5;                       /* the seals cannot be changed */
    }
    close(f);
    memset(v, 0, sizeof(v));
    if (cuMemcpyDtoH_v2(v, d, sizeof(v))) {
        return 6;
    }
    for (unsigned i = 0; i < sizeof(v); i++) {
        if (v[i] != 0x5a) {
            return 7;
        }
    }
    if (cuIpcCloseMemHandle(d)) {
        return 8;
    }
    return 0;
}

/* Truncating the event's page fails the same way. */
static int child_resize_event(void *arg)
{
    int f = open_named(arg);
    if (f < 0) {
        return 1;
    }
    int r = ftruncate(f, 0) == 0 || errno != EPERM ? 2 : 0;
    close(f);
    return r;
}

START_TEST(test_resize_refused)
{
    setup();
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, 4096));
    OK(cuMemsetD8_v2(d, 0x5a, 4096));
    /* cuMemsetD8 is asynchronous for device memory (CUDA Driver API
     * reference): done before the child reads. */
    OK(cuCtxSynchronize());
    CUipcMemHandle h, forged;
    OK(cuIpcGetMemHandle(&h, d));
    ck_assert_int_eq(in_child(child_resize, &h), 0);
    unsigned char v[4096];
    OK(cuMemcpyDtoH_v2(v, d, sizeof(v)));   /* the exporter reads on */
    ck_assert_uint_eq(v[4095], 0x5a);
    /* An unsealed memfd of our name, size and inode: refused, since it
     * could be truncated under the importer. */
    int u = memfd_create("ptxemu-ipc", MFD_CLOEXEC);
    ck_assert_int_ge(u, 0);
    uint64_t bytes;
    memcpy(&bytes, &h.reserved[48], sizeof(bytes));
    ck_assert_int_eq(ftruncate(u, (off_t)bytes), 0);
    struct stat st;
    ck_assert_int_eq(fstat(u, &st), 0);
    uint64_t ino = (uint64_t)st.st_ino, dev = (uint64_t)st.st_dev;
    int32_t fd = u;
    memcpy(&forged, &h, sizeof(h));
    memcpy(&forged.reserved[12], &fd, sizeof(fd));
    memcpy(&forged.reserved[32], &ino, sizeof(ino));
    memcpy(&forged.reserved[40], &dev, sizeof(dev));
    ck_assert_int_eq(in_child(child_open, &forged), BAD_HANDLE);
    close(u);
    OK(cuMemFree_v2(d));
    CUevent ev;
    CUipcEventHandle eh;
    OK(cuEventCreate(&ev, EV_FLAGS));
    OK(cuIpcGetEventHandle(&eh, ev));
    ck_assert_int_eq(in_child(child_resize_event, &eh), 0);
    OK(cuEventQuery(ev));
    OK(cuEventDestroy_v2(ev));
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
    tcase_add_test(tc, test_resize_refused);
    tcase_add_test(tc, test_event_wait);
    tcase_add_test(tc, test_event_importer_records);
    tcase_add_test(tc, test_event_stream_waits);
    tcase_add_test(tc, test_event_bad_handles);
    tcase_add_test(tc, test_event_exporter_gone);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
