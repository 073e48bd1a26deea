// Asynchronous streams (tests/samples.test): stream work returns to the
// host at once and runs in stream order, so that host and device overlap
// (CUDA Programming Guide, "Asynchronous Concurrent Execution").  Each
// check prints "ok NAME" or "FAIL NAME: why"; PASSED at the end when all
// held.  Every ordering asserted is one CUDA defines; the kernels that
// must still be running when the host looks spin on a flag in mapped
// host memory (cudaHostAllocMapped) that only the host sets, so that
// what is asserted does not depend on how fast the device is.
#include <cstdio>
#include <cstring>
#include <pthread.h>
#include <cuda_runtime.h>

static int failures;

#define CHECK(name, cond, ...) do { \
        if (cond) { \
            printf("ok %s\n", name); \
        } else { \
            printf("FAIL %s: ", name); \
            printf(__VA_ARGS__); \
            printf("\n"); \
            failures++; \
        } \
    } while (0)

#define CU(call) do { \
        cudaError_t e_ = (call); \
        if (e_ != cudaSuccess) { \
            printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); \
            return 1; \
        } \
    } while (0)

// Waits until the host sets *flag, then writes 42 to *out.
__global__ void spin(volatile int *flag, int *out)
{
    while (*flag == 0) {
    }
    *out = 42;
}

// The same, after setting *started: the host knows the kernel runs.
__global__ void spin_started(volatile int *flag, volatile int *started,
                             int *out)
{
    *started = 1;
    __threadfence_system();
    while (*flag == 0) {
    }
    *out = 42;
}

// Some work that takes a while: n iterations of a recurrence.
__global__ void busy(unsigned *out, unsigned n)
{
    unsigned x = threadIdx.x + 1;
    for (unsigned i = 0; i < n; i++)
        x = x * 1664525u + 1013904223u;
    out[threadIdx.x] = x;
}

// What the host functions append to, and on which thread they ran.
static char order[16];
static int norder;
static pthread_t cb_thread;
static pthread_mutex_t order_lock = PTHREAD_MUTEX_INITIALIZER;

static void CUDART_CB tag(void *p)
{
    pthread_mutex_lock(&order_lock);
    order[norder++] = *(const char *)p;
    cb_thread = pthread_self();
    pthread_mutex_unlock(&order_lock);
}

static void order_get(char *buf)
{
    pthread_mutex_lock(&order_lock);
    memcpy(buf, order, norder);
    buf[norder] = 0;
    pthread_mutex_unlock(&order_lock);
}

static void release(int *flag)
{
    __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
}

int main()
{
    int *flags, *dflags, *out;
    CU(cudaHostAlloc(&flags, 8 * sizeof(int), cudaHostAllocMapped));
    memset(flags, 0, 8 * sizeof(int));
    CU(cudaHostGetDevicePointer(&dflags, flags, 0));
    CU(cudaMalloc(&out, 8 * sizeof(int)));
    CU(cudaMemset(out, 0, 8 * sizeof(int)));
    cudaStream_t s1, s2, s3;
    CU(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CU(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CU(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
    cudaEvent_t before, after;
    CU(cudaEventCreate(&before));
    CU(cudaEventCreate(&after));

    // 1. A kernel waits for a flag that the host sets after enqueueing
    //    more work; meanwhile queries say the work is not done, and a
    //    host loop counts its iterations while the device works.
    CU(cudaEventRecord(before, s1));
    spin<<<1, 1, 0, s1>>>(dflags, out);
    CU(cudaGetLastError());
    CU(cudaEventRecord(after, s1));
    cudaError_t q = cudaStreamQuery(s1);
    CHECK("stream-query-not-ready", q == cudaErrorNotReady, "%s",
          cudaGetErrorName(q));
    q = cudaEventQuery(after);
    CHECK("event-query-not-ready", q == cudaErrorNotReady, "%s",
          cudaGetErrorName(q));
    float ms = -1;
    q = cudaEventElapsedTime(&ms, before, after);
    CHECK("elapsed-not-ready", q == cudaErrorNotReady, "%s",
          cudaGetErrorName(q));
    CHECK("not-ready-is-no-error", cudaGetLastError() == cudaSuccess,
          "cudaErrorNotReady became the last error");
    long count = 0;
    while (cudaEventQuery(after) == cudaErrorNotReady) {
        if (++count == 1000)
            release(&flags[0]);
    }
    CHECK("host-overlaps-device", count >= 1000, "count %ld", count);
    q = cudaStreamQuery(s1);
    CHECK("stream-query-success", q == cudaSuccess, "%s",
          cudaGetErrorName(q));
    int v = 0;
    CU(cudaMemcpy(&v, out, sizeof v, cudaMemcpyDeviceToHost));
    CHECK("spin-result", v == 42, "out %d", v);
    CU(cudaEventElapsedTime(&ms, before, after));
    CHECK("elapsed-after", ms >= 0, "%g ms", ms);

    // 2. Host functions: in stream order, after the work before them,
    //    on a thread of their own; another stream's run meanwhile, and
    //    an event wait orders them across streams.
    static const char A = 'A', B = 'B', C = 'C', L = 'L', N = 'N';
    spin<<<1, 1, 0, s1>>>(dflags + 1, out + 1);
    CU(cudaLaunchHostFunc(s1, tag, (void *)&A));
    CU(cudaEventRecord(after, s1));
    CU(cudaStreamWaitEvent(s3, after, 0));
    CU(cudaLaunchHostFunc(s3, tag, (void *)&C));
    CU(cudaLaunchHostFunc(s2, tag, (void *)&B));
    CU(cudaStreamSynchronize(s2));
    char got[17];
    order_get(got);
    CHECK("callback-other-stream-first", strcmp(got, "B") == 0,
          "order '%s' while s1 waits", got);
    CHECK("callback-thread", !pthread_equal(cb_thread, pthread_self()),
          "host function ran on the calling thread");
    q = cudaStreamQuery(s3);
    CHECK("wait-event-holds", q == cudaErrorNotReady, "%s",
          cudaGetErrorName(q));
    release(&flags[1]);
    CU(cudaStreamSynchronize(s3));
    order_get(got);
    CHECK("callback-order", strcmp(got, "BAC") == 0, "order '%s'", got);

    // 3. The legacy default stream waits for a blocking stream's earlier
    //    work; a non-blocking stream does not.
    cudaStream_t sb;
    CU(cudaStreamCreate(&sb));
    norder = 0;
    spin<<<1, 1, 0, sb>>>(dflags + 2, out + 2);
    CU(cudaLaunchHostFunc(0, tag, (void *)&L));
    CU(cudaLaunchHostFunc(s2, tag, (void *)&N));
    CU(cudaStreamSynchronize(s2));
    order_get(got);
    CHECK("legacy-waits-for-blocking", strcmp(got, "N") == 0,
          "order '%s' while the blocking stream's kernel runs", got);
    release(&flags[2]);
    CU(cudaDeviceSynchronize());
    order_get(got);
    CHECK("legacy-runs-after", strcmp(got, "NL") == 0, "order '%s'", got);

    // 4. Event time stamps follow stream order.
    unsigned *bout;
    CU(cudaMalloc(&bout, 32 * sizeof(unsigned)));
    cudaEvent_t e[3];
    for (int i = 0; i < 3; i++)
        CU(cudaEventCreate(&e[i]));
    CU(cudaEventRecord(e[0], s1));
    busy<<<1, 32, 0, s1>>>(bout, 2000);
    CU(cudaEventRecord(e[1], s1));
    busy<<<1, 32, 0, s1>>>(bout, 2000);
    CU(cudaEventRecord(e[2], s1));
    CU(cudaEventSynchronize(e[2]));
    float t01, t12, t02;
    CU(cudaEventElapsedTime(&t01, e[0], e[1]));
    CU(cudaEventElapsedTime(&t12, e[1], e[2]));
    CU(cudaEventElapsedTime(&t02, e[0], e[2]));
    CHECK("event-order", t01 > 0 && t12 > 0 && t02 >= t01 && t02 >= t12,
          "%g %g %g ms", t01, t12, t02);

    // 5. An asynchronous copy from mapped host memory is done by the
    //    stream's synchronisation, in order after the kernel before it.
    int *hin;
    CU(cudaHostAlloc(&hin, sizeof(int), cudaHostAllocDefault));
    *hin = 7;
    //    The copy is put on the stream while the kernel runs (it has
    //    set flags[6]): classifying its pointers must not wait for the
    //    kernel, which waits for the host.
    spin_started<<<1, 1, 0, s1>>>(dflags + 3, dflags + 6, out + 3);
    while (!__atomic_load_n(&flags[6], __ATOMIC_SEQ_CST)) {
    }
    CU(cudaMemcpyAsync(out + 3, hin, sizeof(int), cudaMemcpyHostToDevice,
                       s1));
    release(&flags[3]);
    CU(cudaStreamSynchronize(s1));
    CU(cudaMemcpy(&v, out + 3, sizeof v, cudaMemcpyDeviceToHost));
    CHECK("copy-after-kernel", v == 7, "out %d (the kernel's 42 after)", v);

    // 6. A stream destroyed with work pending: cudaStreamDestroy returns
    //    at once and the work still runs (CUDA Runtime API,
    //    cudaStreamDestroy).
    static const char D = 'D', P = 'P', Q = 'Q';
    cudaStream_t sd;
    CU(cudaStreamCreate(&sd));
    norder = 0;
    spin<<<1, 1, 0, sd>>>(dflags + 4, out + 4);
    CU(cudaLaunchHostFunc(sd, tag, (void *)&D));
    CU(cudaStreamDestroy(sd));
    order_get(got);
    CHECK("destroy-returns-at-once", strcmp(got, "") == 0, "order '%s'",
          got);
    release(&flags[4]);
    CU(cudaDeviceSynchronize());
    CU(cudaMemcpy(&v, out + 4, sizeof v, cudaMemcpyDeviceToHost));
    order_get(got);
    CHECK("destroyed-stream-work-runs", v == 42 && strcmp(got, "D") == 0,
          "out %d, order '%s'", v, got);

    // 7. cudaStreamPerThread is a blocking stream: the legacy stream
    //    waits for it, a non-blocking stream does not.
    norder = 0;
    spin<<<1, 1, 0, cudaStreamPerThread>>>(dflags + 5, out + 5);
    CU(cudaLaunchHostFunc(cudaStreamLegacy, tag, (void *)&P));
    CU(cudaLaunchHostFunc(s2, tag, (void *)&Q));
    CU(cudaStreamSynchronize(s2));
    q = cudaStreamQuery(cudaStreamPerThread);
    CHECK("per-thread-not-ready", q == cudaErrorNotReady, "%s",
          cudaGetErrorName(q));
    order_get(got);
    CHECK("legacy-waits-for-per-thread", strcmp(got, "Q") == 0,
          "order '%s'", got);
    release(&flags[5]);
    CU(cudaStreamSynchronize(cudaStreamLegacy));
    order_get(got);
    CHECK("per-thread-then-legacy", strcmp(got, "QP") == 0, "order '%s'",
          got);

    CU(cudaFreeHost(hin));
    CU(cudaFree(bout));
    CU(cudaFree(out));
    CU(cudaFreeHost(flags));
    if (failures == 0)
        printf("PASSED\n");
    return failures != 0;
}
