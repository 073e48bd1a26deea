/*
 * tests/check_ipc.c: CUDA IPC handles through our libcudart.so.13
 * (cudaIpcGetMemHandle, cudaIpcOpenMemHandle, cudaIpcCloseMemHandle,
 * cudaIpcGetEventHandle, cudaIpcOpenEventHandle).  The emulator shares
 * handles within one process (runtime/cuda/drv_ipc.c): there an opened
 * memory handle gives the exported allocation (CUDA: repeated opens
 * count, each closed once), an opened event handle a usable event.
 * Memory handles also open in another process (this program run again,
 * `--open HEX`, a fresh process that initialises CUDA itself): it reads
 * the bytes written here and writes its own, which this process then
 * reads; once the allocation is freed the handle no longer opens there
 * (cudaErrorInvalidResourceHandle).  Event handles open there too
 * (cudaDevAttrIpcEventSupport 1): the other process sees this one's
 * record done, records the event itself, and this process then sees
 * that record as the event's last; with this process's record pending
 * (behind a host function waiting on a pipe), the other process's
 * cudaStreamWaitEvent holds its stream back (cudaErrorNotReady) but
 * not its host thread, which then releases us through the pipe, and its
 * stream completes.  A record left pending by a process that exited
 * never completes: waiting on it returns instead of hanging.  Argument errors
 * are the ones the CUDA runtime reference lists: the base of a device
 * allocation only, events made with cudaEventInterprocess only.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/cudart/cudart_api.h"

#define OK(call) ck_assert_int_eq((call), cudaSuccess)

START_TEST(test_mem_handles)
{
    int v = -1;
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrIpcEventSupport, 0));
    ck_assert_int_eq(v, 1);             /* events: across processes too */
    unsigned *p = NULL, h[16];
    OK(cudaMalloc((void **)&p, sizeof h));
    for (unsigned i = 0; i < 16; i++)
        h[i] = 100 + i;
    OK(cudaMemcpy(p, h, sizeof h, cudaMemcpyHostToDevice));
    cudaIpcMemHandle_t mh;
    OK(cudaIpcGetMemHandle(&mh, p));
    cudaIpcMemHandle_t bad;
    ck_assert_int_eq(cudaIpcGetMemHandle(&bad, p + 1), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaIpcGetMemHandle(&bad, h), cudaErrorInvalidValue);
    (void)cudaGetLastError();

    unsigned *q = NULL, *q2 = NULL;
    OK(cudaIpcOpenMemHandle((void **)&q, mh, 1 /* LazyEnablePeerAccess */));
    ck_assert_ptr_eq(q, p);
    OK(cudaIpcOpenMemHandle((void **)&q2, mh, 1));
    ck_assert_ptr_eq(q2, p);
    unsigned back[16];
    OK(cudaMemcpy(back, q, sizeof back, cudaMemcpyDeviceToHost));
    ck_assert_uint_eq(back[15], 115);
    ck_assert_int_eq(cudaIpcOpenMemHandle((void **)&q, mh, 2),
                     cudaErrorInvalidValue);
    memset(&bad, 0, sizeof bad);
    ck_assert_int_eq(cudaIpcOpenMemHandle((void **)&q, bad, 1),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    OK(cudaIpcCloseMemHandle(q));
    OK(cudaIpcCloseMemHandle(q2));
    ck_assert_int_eq(cudaIpcCloseMemHandle(q), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    /* Closing leaves the exporter's memory. */
    OK(cudaMemcpy(back, p, sizeof back, cudaMemcpyDeviceToHost));
    ck_assert_uint_eq(back[0], 100);
    OK(cudaFree(p));
    ck_assert_int_eq(cudaIpcOpenMemHandle((void **)&q, mh, 1),
                     cudaErrorInvalidResourceHandle);    /* freed since */
    (void)cudaGetLastError();
}
END_TEST

START_TEST(test_event_handles)
{
    cudaEvent_t plain, ev, opened;
    cudaIpcEventHandle_t eh;
    OK(cudaEventCreate(&plain));
    ck_assert_int_eq(cudaIpcGetEventHandle(&eh, plain),
                     cudaErrorInvalidResourceHandle);
    (void)cudaGetLastError();
    OK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess |
                                         cudaEventDisableTiming));
    OK(cudaEventRecord(ev, 0));
    OK(cudaIpcGetEventHandle(&eh, ev));
    OK(cudaIpcOpenEventHandle(&opened, eh));
    ck_assert_ptr_ne(opened, ev);
    OK(cudaEventSynchronize(ev));   /* the record is reached */
    OK(cudaEventQuery(opened));
    OK(cudaStreamWaitEvent(0, opened, 0));
    OK(cudaEventSynchronize(opened));
    float ms;
    /* Its flags are the exported event's: no timing. */
    ck_assert_int_eq(cudaEventElapsedTime(&ms, opened, opened),
                     cudaErrorInvalidResourceHandle);
    (void)cudaGetLastError();
    OK(cudaEventDestroy(opened));
    OK(cudaEventDestroy(ev));
    ck_assert_int_eq(cudaIpcOpenEventHandle(&opened, eh),
                     cudaErrorInvalidResourceHandle);    /* gone */
    (void)cudaGetLastError();
    OK(cudaEventDestroy(plain));
}
END_TEST

static char self[4096];

/* A host function: waits for a byte on the pipe *arg. */
static void hold(void *arg)
{
    char c;
    if (read(*(int *)arg, &c, 1) != 1)
        abort();
}

/* Runs this program again on handle mh; its printed numbers into out. */
static int run_other(const char *what, const void *mh, int *out, int n)
{
    char cmd[4096 + 200], hex[129];
    for (size_t i = 0; i < 64; i++)
        sprintf(hex + 2 * i, "%02x", ((const unsigned char *)mh)[i]);
    snprintf(cmd, sizeof cmd, "'%s' %s %s", self, what, hex);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    int got = 0;
    while (got < n && fscanf(f, "%d", &out[got]) == 1)
        got++;
    pclose(f);
    return got;
}

/* Another process opening handles of this one. */
START_TEST(test_other_process)
{
    unsigned *p, v[64];
    OK(cudaMalloc((void **)&p, sizeof v));
    for (unsigned i = 0; i < 64; i++)
        v[i] = 11 * i;
    OK(cudaMemcpy(p, v, sizeof v, cudaMemcpyHostToDevice));
    cudaIpcMemHandle_t mh;
    OK(cudaIpcGetMemHandle(&mh, p));
    int r[3] = {-1, -1, -1};
    ck_assert_int_eq(run_other("--open", &mh, r, 3), 3);
    ck_assert_int_eq(r[0], cudaSuccess);        /* opened */
    ck_assert_int_eq(r[1], 64);                 /* all values seen */
    ck_assert_int_eq(r[2], cudaSuccess);        /* closed */
    OK(cudaMemcpy(v, p, sizeof v, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < 64; i++)
        ck_assert_uint_eq(v[i], 900 + i);       /* its writes */
    OK(cudaFree(p));
    ck_assert_int_eq(run_other("--open", &mh, r, 1), 1);
    ck_assert_int_eq(r[0], cudaErrorInvalidResourceHandle);

    cudaEvent_t ev;
    cudaIpcEventHandle_t eh;
    OK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess |
                                         cudaEventDisableTiming));
    OK(cudaIpcGetEventHandle(&eh, ev));
    OK(cudaEventRecord(ev, 0));
    OK(cudaEventSynchronize(ev));
    ck_assert_int_eq(run_other("--event", &eh, r, 3), 3);
    ck_assert_int_eq(r[0], cudaSuccess);        /* opened */
    ck_assert_int_eq(r[1], cudaSuccess);        /* our record: done */
    ck_assert_int_eq(r[2], cudaSuccess);        /* its record, synced */
    OK(cudaEventQuery(ev));
    OK(cudaStreamWaitEvent(0, ev, 0));
    OK(cudaDeviceSynchronize());
    /* Our record pending (behind a host function that waits for a byte
     * on a pipe the other process inherits): its stream waits, its host
     * thread does not, and it is the one that lets our stream go. */
    int rel[2];
    ck_assert_int_eq(pipe(rel), 0);
    char fdarg[16];
    snprintf(fdarg, sizeof fdarg, "%d", rel[1]);
    ck_assert_int_eq(setenv("CHECK_IPC_RELEASE_FD", fdarg, 1), 0);
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaLaunchHostFunc(s, hold, &rel[0]));
    OK(cudaEventRecord(ev, s));
    ck_assert_int_eq(cudaEventQuery(ev), cudaErrorNotReady);
    ck_assert_int_eq(run_other("--wait", &eh, r, 3), 3);
    ck_assert_int_eq(r[0], cudaErrorNotReady);  /* its query */
    ck_assert_int_eq(r[1], cudaErrorNotReady);  /* its stream, held */
    ck_assert_int_eq(r[2], cudaSuccess);        /* released: synced */
    OK(cudaStreamSynchronize(s));
    OK(cudaEventQuery(ev));
    OK(cudaStreamDestroy(s));
    close(rel[0]);
    close(rel[1]);
    /* The other process records behind work that never ends, then
     * exits: that record never completes, and waiting on it here
     * returns rather than hang. */
    ck_assert_int_eq(run_other("--die", &eh, r, 1), 1);
    ck_assert_int_eq(r[0], cudaErrorNotReady);  /* pending there */
    OK(cudaEventQuery(ev));
    OK(cudaEventSynchronize(ev));
    OK(cudaStreamWaitEvent(0, ev, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaEventDestroy(ev));
    ck_assert_int_eq(run_other("--event", &eh, r, 1), 1);
    ck_assert_int_eq(r[0], cudaErrorInvalidResourceHandle);  /* gone */
}
END_TEST

/* The other process: open the handle given in hex; print the results
 * (open, how many of the 64 values were 11i, then it writes 900+i, and
 * close). */
static int open_other(const char *what, const char *hex)
{
    unsigned char b[64];
    memset(b, 0, sizeof b);
    for (size_t i = 0; i < 64 && hex[2 * i] && hex[2 * i + 1]; i++) {
        unsigned x;
        if (sscanf(hex + 2 * i, "%2x", &x) != 1)
            return 2;
        b[i] = (unsigned char)x;
    }
    if (strcmp(what, "--die") == 0) {
        cudaIpcEventHandle_t eh;
        cudaEvent_t ev;
        cudaStream_t t;
        static int never[2];
        memcpy(&eh, b, sizeof eh);
        if (pipe(never) || cudaIpcOpenEventHandle(&ev, eh) ||
            cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking) ||
            cudaLaunchHostFunc(t, hold, &never[0]) ||
            cudaEventRecord(ev, t))
            return 3;
        printf("%d\n", (int)cudaEventQuery(ev));
        fflush(stdout);
        _exit(0);                       /* the record still pending */
    }
    if (strcmp(what, "--wait") == 0) {
        /* The other process's record is pending: query it, hold a
         * stream of ours on it, then release it (a byte on the pipe). */
        cudaIpcEventHandle_t eh;
        cudaEvent_t ev;
        cudaStream_t t;
        const char *fd = getenv("CHECK_IPC_RELEASE_FD");
        memcpy(&eh, b, sizeof eh);
        if (!fd || cudaIpcOpenEventHandle(&ev, eh) ||
            cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking))
            return 3;
        printf("%d\n", (int)cudaEventQuery(ev));
        if (cudaStreamWaitEvent(t, ev, 0))
            return 4;
        usleep(50 * 1000);
        printf("%d\n", (int)cudaStreamQuery(t));
        fflush(stdout);
        if (write(atoi(fd), "g", 1) != 1)
            return 5;
        cudaError_t e = cudaStreamSynchronize(t);
        printf("%d\n", (int)(e ? e : cudaEventQuery(ev)));
        cudaStreamDestroy(t);
        cudaEventDestroy(ev);
        return 0;
    }
    if (strcmp(what, "--event") == 0) {
        cudaIpcEventHandle_t eh;
        cudaEvent_t ev;
        memcpy(&eh, b, sizeof eh);
        cudaError_t e = cudaIpcOpenEventHandle(&ev, eh);
        printf("%d\n", (int)e);
        if (e == cudaSuccess) {
            printf("%d\n", (int)cudaEventQuery(ev));
            e = cudaEventRecord(ev, 0);
            printf("%d\n", (int)(e ? e : cudaEventSynchronize(ev)));
            cudaEventDestroy(ev);
        }
        return 0;
    }
    cudaIpcMemHandle_t mh;
    memcpy(&mh, b, sizeof mh);
    unsigned *p = NULL, v[64];
    cudaError_t e = cudaIpcOpenMemHandle((void **)&p, mh, 1);
    printf("%d\n", (int)e);
    if (e != cudaSuccess)
        return 0;
    int same = 0;
    if (cudaMemcpy(v, p, sizeof v, cudaMemcpyDeviceToHost) == cudaSuccess)
        for (unsigned i = 0; i < 64; i++)
            same += v[i] == 11 * i;
    for (unsigned i = 0; i < 64; i++)
        v[i] = 900 + i;
    if (cudaMemcpy(p, v, sizeof v, cudaMemcpyHostToDevice) != cudaSuccess)
        same = -1;
    printf("%d\n%d\n", same, (int)cudaIpcCloseMemHandle(p));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strncmp(argv[1], "--", 2) == 0)
        return open_other(argv[1], argv[2]);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return EXIT_FAILURE;
    self[n] = 0;
    Suite *s = suite_create("ipc");
    TCase *tc = tcase_create("ipc");
    /* Check's default of 4 s: test_other_process starts a second
     * process that runs kernels, which under ThreadSanitizer on a
     * loaded machine takes longer (as tests/check_ipc_proc.c) */
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_mem_handles);
    tcase_add_test(tc, test_event_handles);
    tcase_add_test(tc, test_other_process);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
