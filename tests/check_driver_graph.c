/*
 * tests/check_driver_graph.c: CUDA graphs and stream capture through
 * our driver API (libcuda.so.1: runtime/cuda/drv_graph.c,
 * drv_capture.c).  Graphs built node by node (a diamond of memset,
 * kernel, memcpy, host and event nodes) and by capturing two streams
 * forked and joined with events are instantiated and launched twice;
 * a kernel node's parameters are changed in the executable graph,
 * also while a launch of it is queued (which keeps the old ones).
 * Every result is checked against the same computation on the host;
 * a graph of our libcudart's is refused;
 * the capture rules against the CUDA Driver API reference
 * (cuStreamBeginCapture, cuStreamEndCapture, cuStreamIsCapturing,
 * cuThreadExchangeStreamCaptureMode).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abi/cuda_abi.h"
#include "runtime/graph/gph.h"

#define OK(call) ck_assert_int_eq((int)(call), CUDA_SUCCESS)

/* Two entry points of our libcudart (cudaError_t: 0 success, 1
 * cudaErrorInvalidValue): a graph of the runtime's. */
int cudaGraphCreate(CUgraph *g, unsigned flags);
int cudaGraphDestroy(CUgraph g);

/* The _ptsz forms our ABI header does not declare. */
extern __typeof__(cuLaunchKernel) cuLaunchKernel_ptsz;
extern __typeof__(cuStreamSynchronize) cuStreamSynchronize_ptsz;

enum { N = 300, HALF = N / 2 };

/* x[i] = x[i] * a + b for i < n (32-bit, exact on the host too). */
static const char kernels[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry axpb(.param .u64 px, .param .u32 n, .param .u32 a,"
    " .param .u32 b)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<9>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [px]; ld.param.u32 %r1, [n];\n"
    " ld.param.u32 %r6, [a]; ld.param.u32 %r7, [b];\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n"
    " @%p1 bra DONE;\n"
    " mul.wide.u32 %rd2, %r5, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " ld.global.u32 %r8, [%rd3]; mad.lo.s32 %r8, %r8, %r6, %r7;\n"
    " st.global.u32 [%rd3], %r8;\n"
    "DONE:\n ret;\n}\n"
    /* Spins until the 32-bit word at pf (host-mapped memory the host
     * sets) is non-zero: holds back the rest of its stream. */
    ".visible .entry wait_flag(.param .u64 pf)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [pf];\n"
    "SPIN:\n ld.volatile.global.u32 %r1, [%rd1];\n"
    " setp.eq.u32 %p1, %r1, 0;\n"
    " @%p1 bra SPIN;\n ret;\n}\n";

static CUcontext ctx;
static CUfunction axpb, wait_flag;

static void setup(void)
{
    CUdevice dev;
    CUmodule mod;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuCtxCreate_v2(&ctx, 0, dev));
    OK(cuModuleLoadData(&mod, kernels));
    OK(cuModuleGetFunction(&axpb, mod, "axpb"));
    OK(cuModuleGetFunction(&wait_flag, mod, "wait_flag"));
}

static void teardown(void)
{
    cuCtxDestroy_v2(ctx);
}

/* The host's model of the two halves after one run: every element
 * set to `fill`, then the first half * a1 + b1, the second * a2 + b2. */
static unsigned model(unsigned i, unsigned fill, unsigned a1, unsigned b1,
                      unsigned a2, unsigned b2)
{
    return i < HALF ? fill * a1 + b1 : fill * a2 + b2;
}

/* What the host node saw: the copy's result, when it ran. */
typedef struct Seen {
    unsigned *out;
    unsigned runs;
    unsigned long long sum;     /* of out[] when the host node ran */
} Seen;

static void host_node(void *p)
{
    Seen *s = p;
    s->runs++;
    s->sum = 0;
    for (unsigned i = 0; i < N; i++) {
        s->sum += s->out[i];
    }
}

static unsigned long long model_sum(unsigned fill, unsigned a1, unsigned b1,
                                    unsigned a2, unsigned b2)
{
    unsigned long long sum = 0;
    for (unsigned i = 0; i < N; i++) {
        sum += model(i, fill, a1, b1, a2, b2);
    }
    return sum;
}

static CUDA_KERNEL_NODE_PARAMS kparams(void **args, unsigned n)
{
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof(k));
    k.func = axpb;
    k.gridDimX = (n + 63) / 64;
    k.gridDimY = k.gridDimZ = 1;
    k.blockDimX = 64;
    k.blockDimY = k.blockDimZ = 1;
    k.kernelParams = args;
    return k;
}

static void check_out(const unsigned *out, unsigned fill, unsigned a1,
                      unsigned b1, unsigned a2, unsigned b2, int run)
{
    for (unsigned i = 0; i < N; i++) {
        unsigned want = model(i, fill, a1, b1, a2, b2);
        ck_assert_msg(out[i] == want, "run %d: out[%u] = %u, want %u", run,
                      i, out[i], want);
    }
}

/* Launches the diamond (memset 5; halves * 2 + 1 and * 3 + 0; copied
 * to seen->out; the host node) twice and checks both runs. */
static void launch_twice(CUgraphExec x, CUstream s, Seen *seen)
{
    unsigned *out = seen->out;
    for (int run = 0; run < 2; run++) {
        memset(out, 0, N * sizeof(*out));
        OK(cuGraphLaunch(x, s));
        OK(cuStreamSynchronize(s));
        check_out(out, 5, 2, 1, 3, 0, run);
        ck_assert_uint_eq(seen->runs, (unsigned)run + 1);
        /* The host node ran after the copy it depends on. */
        ck_assert_uint_eq(seen->sum, model_sum(5, 2, 1, 3, 0));
    }
}

/* A diamond built node by node: memset (root) -> two kernels, one per
 * half -> a copy to the host -> a host node and an event record node. */
START_TEST(explicit_diamond)
{
    setup();
    CUdeviceptr buf, hi;
    unsigned out[N];
    Seen seen = { out, 0, 0 };
    OK(cuMemAlloc_v2(&buf, N * 4));
    hi = buf + HALF * 4;
    CUstream s;
    CUevent ev;
    OK(cuStreamCreate(&s, 0));
    OK(cuEventCreate(&ev, 0));
    CUgraph g;
    OK(cuGraphCreate(&g, 0));
    CUgraphNode ms, k1, k2, cp, hn, er;
    CUDA_MEMSET_NODE_PARAMS mp = { buf, 0, 5, 4, N, 1 };
    OK(cuGraphAddMemsetNode(&ms, g, NULL, 0, &mp, ctx));
    unsigned half = HALF, a1 = 2, b1 = 1, a2 = 3, b2 = 0;
    void *args1[] = { &buf, &half, &a1, &b1 };
    void *args2[] = { &hi, &half, &a2, &b2 };
    CUDA_KERNEL_NODE_PARAMS kp1 = kparams(args1, HALF);
    CUDA_KERNEL_NODE_PARAMS kp2 = kparams(args2, HALF);
    OK(cuGraphAddKernelNode_v2(&k1, g, &ms, 1, &kp1));
    OK(cuGraphAddKernelNode_v2(&k2, g, &ms, 1, &kp2));
    /* The node copied the arguments: later changes do not reach it. */
    a1 = 100;
    CUDA_MEMCPY3D cpy;
    memset(&cpy, 0, sizeof(cpy));
    cpy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    cpy.srcDevice = buf;
    cpy.dstMemoryType = CU_MEMORYTYPE_HOST;
    cpy.dstHost = out;
    cpy.WidthInBytes = N * 4;
    cpy.Height = cpy.Depth = 1;
    CUgraphNode both[] = { k1, k2 };
    OK(cuGraphAddMemcpyNode(&cp, g, both, 2, &cpy, ctx));
    CUDA_HOST_NODE_PARAMS hp = { host_node, &seen };
    OK(cuGraphAddHostNode(&hn, g, &cp, 1, &hp));
    OK(cuGraphAddEventRecordNode(&er, g, &cp, 1, ev));

    size_t count = 0;
    OK(cuGraphGetNodes(g, NULL, &count));
    ck_assert_uint_eq(count, 6);
    CUgraphNode roots[2];
    count = 2;
    OK(cuGraphGetRootNodes(g, roots, &count));
    ck_assert_uint_eq(count, 1);
    ck_assert_ptr_eq(roots[0], ms);
    OK(cuGraphGetEdges_v2(g, NULL, NULL, NULL, &count));
    ck_assert_uint_eq(count, 6);
    CUgraphNodeType type;
    OK(cuGraphNodeGetType(cp, &type));
    ck_assert_int_eq(type, CU_GRAPH_NODE_TYPE_MEMCPY);

    /* Kernel node attributes (cuGraphKernelNodeSetAttribute): recorded,
     * defaulted, copied; k1 launches cooperatively with the same
     * result; a stream-only attribute and a non-kernel node refused. */
    CUlaunchAttributeValue av, ag;
    memset(&av, 0, sizeof(av));
    av.cooperative = 1;
    OK(cuGraphKernelNodeSetAttribute(k1, CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
                                     &av));
    av.memSyncDomain = 2;
    ck_assert_int_eq(cuGraphKernelNodeSetAttribute(
                         k1, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &av),
                     CUDA_ERROR_INVALID_VALUE);
    av.syncPolicy = CU_SYNC_POLICY_YIELD;
    ck_assert_int_eq(cuGraphKernelNodeSetAttribute(
                         k1, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &av),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuGraphKernelNodeSetAttribute(
                         cp, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &av),
                     CUDA_ERROR_INVALID_VALUE);
    OK(cuGraphKernelNodeGetAttribute(k2, CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
                                     &ag));
    ck_assert_int_eq(ag.cooperative, 0);
    memset(&av, 0, sizeof(av));
    av.priority = -3;
    OK(cuGraphKernelNodeSetAttribute(k2, CU_LAUNCH_ATTRIBUTE_PRIORITY, &av));
    OK(cuGraphKernelNodeCopyAttributes(k1, k2));    /* k1's go */
    OK(cuGraphKernelNodeGetAttribute(k1, CU_LAUNCH_ATTRIBUTE_PRIORITY, &ag));
    ck_assert_int_eq(ag.priority, -3);
    OK(cuGraphKernelNodeGetAttribute(k1, CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
                                     &ag));
    ck_assert_int_eq(ag.cooperative, 0);
    av.cooperative = 1;
    OK(cuGraphKernelNodeSetAttribute(k1, CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
                                     &av));

    CUgraphExec x;
    OK(cuGraphInstantiateWithFlags(&x, g, 0));
    launch_twice(x, s, &seen);
    OK(cuEventQuery(ev));

    /* The executable graph's first kernel now computes x * 4 + 7; the
     * graph's own node keeps its arguments. */
    a1 = 4;
    b1 = 7;
    OK(cuGraphExecKernelNodeSetParams_v2(x, k1, &kp1));
    memset(out, 0, sizeof(out));
    OK(cuGraphLaunch(x, s));
    OK(cuStreamSynchronize(s));
    check_out(out, 5, 4, 7, 3, 0, 2);
    CUDA_KERNEL_NODE_PARAMS got;
    OK(cuGraphKernelNodeGetParams_v2(k1, &got));
    ck_assert_uint_eq(*(unsigned *)got.kernelParams[2], 2);
    ck_assert_uint_eq(*(unsigned *)got.kernelParams[3], 1);

    /* Another topology cannot update it. */
    CUgraphNode extra;
    OK(cuGraphAddEmptyNode(&extra, g, &hn, 1));
    CUgraphExecUpdateResultInfo info;
    ck_assert_int_eq(cuGraphExecUpdate_v2(x, g, &info),
                     CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    ck_assert_int_eq(info.result, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
    /* A cycle cannot be instantiated. */
    CUgraphExec bad;
    OK(cuGraphAddDependencies(g, &extra, &ms, 1));
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&bad, g, 0),
                     CUDA_ERROR_INVALID_VALUE);
    OK(cuGraphExecDestroy(x));
    OK(cuGraphDestroy(g));
    OK(cuEventDestroy_v2(ev));
    OK(cuStreamDestroy_v2(s));
    OK(cuMemFree_v2(buf));
    teardown();
}
END_TEST

/* The same diamond captured from two streams, forked and joined with
 * events, as CUDA's stream-capture samples do. */
START_TEST(captured_diamond)
{
    setup();
    CUdeviceptr buf, hi;
    unsigned out[N];
    Seen seen = { out, 0, 0 };
    OK(cuMemAlloc_v2(&buf, N * 4));
    hi = buf + HALF * 4;
    CUstream s1, s2;
    CUevent fork, join;
    OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&fork, 0));
    OK(cuEventCreate(&join, 0));
    unsigned half = HALF, a1 = 2, b1 = 1, a2 = 3, b2 = 0;
    void *args1[] = { &buf, &half, &a1, &b1 };
    void *args2[] = { &hi, &half, &a2, &b2 };
    unsigned grid = (HALF + 63) / 64;
    memset(out, 0xff, sizeof(out));

    OK(cuStreamBeginCapture_v2(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuMemsetD32Async(buf, 5, N, s1));
    OK(cuEventRecord(fork, s1));
    OK(cuStreamWaitEvent(s2, fork, 0));
    OK(cuLaunchKernel(axpb, grid, 1, 1, 64, 1, 1, 0, s1, args1, NULL));
    OK(cuLaunchKernel(axpb, grid, 1, 1, 64, 1, 1, 0, s2, args2, NULL));
    CUstreamCaptureStatus st;
    OK(cuStreamIsCapturing(s2, &st));
    ck_assert_int_eq(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    cuuint64_t id1 = 1, id2 = 2;
    const CUgraphNode *deps = NULL;
    size_t ndeps = 0;
    OK(cuStreamGetCaptureInfo_v3(s1, &st, &id1, NULL, NULL, NULL, NULL));
    OK(cuStreamGetCaptureInfo_v3(s2, &st, &id2, NULL, &deps, NULL,
                                 &ndeps));
    ck_assert_uint_eq(id1, id2);
    ck_assert_uint_eq(ndeps, 1);
    /* A captured event stands for nodes, not for work to wait on. */
    ck_assert_int_eq(cuEventQuery(fork), CUDA_ERROR_CAPTURED_EVENT);
    OK(cuEventRecord(join, s2));
    OK(cuStreamWaitEvent(s1, join, 0));
    OK(cuMemcpyDtoHAsync_v2(out, buf, N * 4, s1));
    OK(cuLaunchHostFunc(s1, host_node, &seen));
    CUgraph g;
    OK(cuStreamEndCapture(s1, &g));
    ck_assert_ptr_nonnull(g);
    /* Nothing ran while capturing. */
    ck_assert_uint_eq(seen.runs, 0);
    ck_assert_uint_eq(out[0], 0xffffffffu);
    OK(cuStreamIsCapturing(s2, &st));
    ck_assert_int_eq(st, CU_STREAM_CAPTURE_STATUS_NONE);

    /* memset -> two kernels -> copy -> host function. */
    size_t count = 0;
    OK(cuGraphGetNodes(g, NULL, &count));
    ck_assert_uint_eq(count, 5);
    OK(cuGraphGetEdges(g, NULL, NULL, &count));
    ck_assert_uint_eq(count, 5);

    CUgraphExec x;
    OK(cuGraphInstantiateWithFlags(&x, g, 0));
    launch_twice(x, s1, &seen);
    OK(cuGraphExecDestroy(x));
    OK(cuGraphDestroy(g));
    OK(cuMemFree_v2(buf));
    teardown();
}
END_TEST

/* What a capture forbids (CUDA Driver API, cuStreamBeginCapture and
 * cuThreadExchangeStreamCaptureMode). */
START_TEST(capture_rules)
{
    setup();
    CUdeviceptr buf;
    OK(cuMemAlloc_v2(&buf, N * 4));
    CUstream s, s2;
    OK(cuStreamCreate(&s, 0));          /* blocking: the legacy stream
                                           synchronises with it */
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUgraph g = (CUgraph)1;
    CUstreamCaptureStatus st;

    /* The legacy stream cannot capture; ending what did not begin. */
    ck_assert_int_eq(cuStreamBeginCapture_v2(NULL,
                                             CU_STREAM_CAPTURE_MODE_GLOBAL),
                     CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    ck_assert_int_eq(cuStreamEndCapture(s, &g), CUDA_ERROR_ILLEGAL_STATE);

    /* Work on the legacy stream would depend on the capture: it fails
     * and the capture is invalidated. */
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    ck_assert_int_eq(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL),
                     CUDA_ERROR_ILLEGAL_STATE);
    ck_assert_int_eq(cuMemsetD32Async(buf, 1, N, NULL),
                     CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
    OK(cuStreamIsCapturing(s, &st));
    ck_assert_int_eq(st, CU_STREAM_CAPTURE_STATUS_INVALIDATED);
    ck_assert_int_eq(cuStreamEndCapture(s, &g),
                     CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    ck_assert_ptr_null(g);

    /* Synchronising with a capturing stream invalidates it. */
    OK(cuStreamBeginCapture_v2(s2, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuMemsetD32_v2(buf, 9, N));      /* s2 is non-blocking */
    ck_assert_int_eq(cuStreamSynchronize(s2),
                     CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    ck_assert_int_eq(cuStreamEndCapture(s2, &g),
                     CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    unsigned v = 0;
    OK(cuMemcpyDtoH_v2(&v, buf, 4));
    ck_assert_uint_eq(v, 9);

    /* Global mode forbids allocating; relaxed on this thread allows
     * it; relaxed captures forbid nothing. */
    CUdeviceptr p;
    OK(cuStreamBeginCapture_v2(s2, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    OK(cuThreadExchangeStreamCaptureMode(&mode));
    ck_assert_int_eq(mode, CU_STREAM_CAPTURE_MODE_GLOBAL);
    OK(cuMemAlloc_v2(&p, 64));
    OK(cuMemFree_v2(p));
    OK(cuThreadExchangeStreamCaptureMode(&mode));
    ck_assert_int_eq(cuMemAlloc_v2(&p, 64),
                     CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    ck_assert_int_eq(cuStreamEndCapture(s2, &g),
                     CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    OK(cuStreamBeginCapture_v2(s2, CU_STREAM_CAPTURE_MODE_RELAXED));
    OK(cuMemAlloc_v2(&p, 64));
    OK(cuStreamEndCapture(s2, &g));
    OK(cuGraphDestroy(g));
    OK(cuMemFree_v2(p));

    /* Stream-ordered allocation is captured as allocation and free
     * nodes: the memory lives from the one to the other in each launch
     * (cuMemAllocAsync: "results in the creation of an allocation
     * node"), and is not there outside. */
    CUdeviceptr q;
    CUgraphExec x;
    OK(cuStreamBeginCapture_v2(s2, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuMemAllocAsync(&q, 64, s2));
    OK(cuMemsetD32Async(q, 7, 16, s2));
    OK(cuMemcpyDtoHAsync_v2(&v, q + 60, 4, s2));
    OK(cuMemFreeAsync(q, s2));
    OK(cuStreamEndCapture(s2, &g));
    OK(cuGraphInstantiateWithFlags(&x, g, 0));
    for (int run = 0; run < 2; run++) {
        v = 0;
        OK(cuGraphLaunch(x, s2));
        OK(cuStreamSynchronize(s2));
        ck_assert_uint_eq(v, 7);
        ck_assert_int_eq(cuMemsetD32_v2(q, 0, 16), CUDA_ERROR_INVALID_VALUE);
    }
    OK(cuGraphExecDestroy(x));
    OK(cuGraphDestroy(g));
    ck_assert_int_eq(cuMemFree_v2(q), CUDA_ERROR_INVALID_VALUE);

    /* A stream forked into the capture must be joined back. */
    CUevent ev;
    OK(cuEventCreate(&ev, 0));
    OK(cuStreamBeginCapture_v2(s2, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuEventRecord(ev, s2));
    OK(cuStreamWaitEvent(s, ev, 0));
    OK(cuMemsetD32Async(buf, 3, N, s));
    ck_assert_int_eq(cuStreamEndCapture(s, &g),
                     CUDA_ERROR_STREAM_CAPTURE_UNMATCHED);
    ck_assert_int_eq(cuStreamEndCapture(s2, &g),
                     CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
    OK(cuStreamIsCapturing(s, &st));
    ck_assert_int_eq(st, CU_STREAM_CAPTURE_STATUS_NONE);
    OK(cuMemcpyDtoH_v2(&v, buf, 4));
    ck_assert_uint_eq(v, 9);            /* the captured memset never ran */
    OK(cuMemFree_v2(buf));
    teardown();
}
END_TEST

/* The per-thread default stream: CU_STREAM_PER_THREAD, or 0 given to a
 * _ptsz entry point; the legacy stream is a different one. */
START_TEST(per_thread_stream)
{
    setup();
    CUdeviceptr buf;
    OK(cuMemAlloc_v2(&buf, N * 4));
    unsigned n = N, a = 3, b = 4;
    void *args[] = { &buf, &n, &a, &b };
    unsigned grid = (N + 63) / 64;
    OK(cuMemsetD32_v2(buf, 2, N));
    OK(cuStreamBeginCapture_v2(CU_STREAM_PER_THREAD,
                               CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    OK(cuLaunchKernel_ptsz(axpb, grid, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
    OK(cuLaunchKernel(axpb, grid, 1, 1, 64, 1, 1, 0, CU_STREAM_PER_THREAD,
                      args, NULL));
    CUgraph g;
    CUstreamCaptureStatus st;
    OK(cuStreamIsCapturing_ptsz(NULL, &st));
    ck_assert_int_eq(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    OK(cuStreamEndCapture_ptsz(NULL, &g));
    size_t count = 0;
    OK(cuGraphGetNodes(g, NULL, &count));
    ck_assert_uint_eq(count, 2);
    CUgraphExec x;
    OK(cuGraphInstantiateWithFlags(&x, g, 0));
    OK(cuGraphDestroy(g));              /* x keeps its own copy */
    unsigned want = 2;
    unsigned h[N];
    for (int run = 0; run < 2; run++) {
        OK(cuGraphLaunch_ptsz(x, NULL));
        OK(cuStreamSynchronize_ptsz(NULL));
        want = (want * 3 + 4) * 3 + 4;
        OK(cuMemcpyDtoH_v2(h, buf, sizeof(h)));
        for (unsigned i = 0; i < N; i++) {
            ck_assert_uint_eq(h[i], want);
        }
    }
    /* The per-thread stream is blocking: the legacy one cannot be used
     * while it captures. */
    OK(cuStreamBeginCapture_v2(CU_STREAM_PER_THREAD,
                               CU_STREAM_CAPTURE_MODE_RELAXED));
    ck_assert_int_eq(cuLaunchKernel(axpb, grid, 1, 1, 64, 1, 1, 0, NULL,
                                    args, NULL),
                     CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
    ck_assert_int_eq(cuStreamEndCapture(CU_STREAM_PER_THREAD, &g),
                     CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    OK(cuGraphExecDestroy(x));
    OK(cuMemFree_v2(buf));
    teardown();
}
END_TEST

/* Every element of the device buffer d (N words) equals want. */
static void check_all(CUdeviceptr d, unsigned want, const char *what)
{
    unsigned h[N];
    OK(cuMemcpyDtoH_v2(h, d, sizeof(h)));
    for (unsigned i = 0; i < N; i++) {
        ck_assert_msg(h[i] == want, "%s[%u] = %u, want %u", what, i, h[i],
                      want);
    }
}

/* CUDA Driver API, cuGraphExecKernelNodeSetParams and the other
 * cuGraphExec*SetParams, cuGraphExecUpdate: changes of an executable
 * graph affect only launches made after them, not one already put on
 * a stream; cuGraphExecDestroy of a graph still in flight frees it on
 * completion.  The graph's first node, a kernel, spins on a host-mapped
 * flag, so its launch stays queued while the host changes the
 * executable graph: a kernel (x = x * a + b), a memset and a copy, all
 * after the wait. */
START_TEST(update_spares_queued_launch)
{
    setup();
    unsigned *flag;
    CUdeviceptr dflag, xb, mb, cb, src1, src2;
    OK(cuMemHostAlloc((void **)&flag, sizeof(*flag),
                      CU_MEMHOSTALLOC_DEVICEMAP));
    OK(cuMemHostGetDevicePointer_v2(&dflag, flag, 0));
    __atomic_store_n(flag, 0, __ATOMIC_SEQ_CST);
    CUdeviceptr *bufs[] = { &xb, &mb, &cb, &src1, &src2 };
    for (unsigned i = 0; i < 5; i++) {
        OK(cuMemAlloc_v2(bufs[i], N * 4));
    }
    OK(cuMemsetD32_v2(xb, 7, N));
    OK(cuMemsetD32_v2(mb, 0, N));
    OK(cuMemsetD32_v2(src1, 11, N));
    OK(cuMemsetD32_v2(src2, 22, N));
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

    /* wait -> { x * 2 + 1, memset m to 3, copy src1 to c } */
    CUgraph g;
    CUgraphNode w, k, m, c;
    OK(cuGraphCreate(&g, 0));
    void *wargs[] = { &dflag };
    CUDA_KERNEL_NODE_PARAMS wp = kparams(wargs, 1);
    wp.func = wait_flag;
    OK(cuGraphAddKernelNode_v2(&w, g, NULL, 0, &wp));
    unsigned n = N, a = 2, b = 1;
    void *kargs[] = { &xb, &n, &a, &b };
    CUDA_KERNEL_NODE_PARAMS kp = kparams(kargs, N);
    OK(cuGraphAddKernelNode_v2(&k, g, &w, 1, &kp));
    CUDA_MEMSET_NODE_PARAMS mp = { mb, 0, 3, 4, N, 1 };
    OK(cuGraphAddMemsetNode(&m, g, &w, 1, &mp, ctx));
    CUDA_MEMCPY3D cp;
    memset(&cp, 0, sizeof(cp));
    cp.srcMemoryType = cp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    cp.srcDevice = src1;
    cp.dstDevice = cb;
    cp.WidthInBytes = N * 4;
    cp.Height = cp.Depth = 1;
    OK(cuGraphAddMemcpyNode(&c, g, &w, 1, &cp, ctx));
    CUgraphExec x;
    OK(cuGraphInstantiateWithFlags(&x, g, 0));

    /* Launched, held back by the wait; then every changeable node of
     * the executable graph changes: x * 3 + 4, memset 5, copy src2. */
    OK(cuGraphLaunch(x, s));
    ck_assert_int_eq(cuStreamQuery(s), CUDA_ERROR_NOT_READY);
    a = 3;
    b = 4;
    OK(cuGraphExecKernelNodeSetParams_v2(x, k, &kp));
    mp.value = 5;
    OK(cuGraphExecMemsetNodeSetParams(x, m, &mp, ctx));
    cp.srcDevice = src2;
    OK(cuGraphExecMemcpyNodeSetParams(x, c, &cp, ctx));
    ck_assert_int_eq(cuStreamQuery(s), CUDA_ERROR_NOT_READY);
    __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
    OK(cuStreamSynchronize(s));
    check_all(xb, 7 * 2 + 1, "x (queued launch)");
    check_all(mb, 3, "m (queued launch)");
    check_all(cb, 11, "c (queued launch)");
    /* A launch made after the changes has them. */
    OK(cuGraphLaunch(x, s));
    OK(cuStreamSynchronize(s));
    check_all(xb, 15 * 3 + 4, "x (later launch)");
    check_all(mb, 5, "m (later launch)");
    check_all(cb, 22, "c (later launch)");

    /* cuGraphExecUpdate from a graph of the same shape (x * 5 + 6,
     * memset 9, copy src1) between two queued launches: the first runs
     * the old parameters, the second the new; the executable graph is
     * destroyed while both are in flight. */
    CUgraph g2;
    CUgraphNode w2, k2, m2, c2;
    OK(cuGraphCreate(&g2, 0));
    OK(cuGraphAddKernelNode_v2(&w2, g2, NULL, 0, &wp));
    a = 5;
    b = 6;
    OK(cuGraphAddKernelNode_v2(&k2, g2, &w2, 1, &kp));
    mp.value = 9;
    OK(cuGraphAddMemsetNode(&m2, g2, &w2, 1, &mp, ctx));
    cp.srcDevice = src1;
    OK(cuGraphAddMemcpyNode(&c2, g2, &w2, 1, &cp, ctx));
    OK(cuMemsetD32_v2(xb, 7, N));
    __atomic_store_n(flag, 0, __ATOMIC_SEQ_CST);
    OK(cuGraphLaunch(x, s));
    CUgraphExecUpdateResultInfo info;
    OK(cuGraphExecUpdate_v2(x, g2, &info));
    ck_assert_int_eq(info.result, CU_GRAPH_EXEC_UPDATE_SUCCESS);
    OK(cuGraphLaunch(x, s));
    OK(cuGraphExecDestroy(x));
    ck_assert_int_eq(cuStreamQuery(s), CUDA_ERROR_NOT_READY);
    __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
    OK(cuStreamSynchronize(s));
    /* (7 * 3 + 4) * 5 + 6; the new parameters twice would give 211. */
    check_all(xb, 131, "x (old, then new)");
    check_all(mb, 9, "m (new)");
    check_all(cb, 11, "c (new)");

    OK(cuGraphDestroy(g));
    OK(cuGraphDestroy(g2));
    OK(cuStreamDestroy_v2(s));
    for (unsigned i = 0; i < 5; i++) {
        OK(cuMemFree_v2(*bufs[i]));
    }
    OK(cuMemFreeHost(flag));
    teardown();
}
END_TEST

/* What the waiting host node saw. */
typedef struct Waiter {
    const unsigned *go;         /* host-mapped, set by a kernel */
    const unsigned *xs;         /* host-mapped, the kernel before it */
    unsigned *v;                /* host-mapped, read by the kernel after */
    int saw_go;
    unsigned long long sum;
} Waiter;

/* Whether the word at p became non-zero within 20 s. */
static int spin_until(const unsigned *p)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        if (__atomic_load_n(p, __ATOMIC_SEQ_CST)) {
            return 1;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while (t.tv_sec - t0.tv_sec < 20);
    return 0;
}

/* A host node that waits (at most 20 s) for a kernel of another
 * stream, launched after the graph, to set *go. */
static void wait_for_go(void *p)
{
    Waiter *w = p;
    w->saw_go = spin_until(w->go);
    w->sum = 0;
    for (unsigned i = 0; i < N; i++) {
        w->sum += w->xs[i];
    }
    *w->v = 42;
}

/* Host-mapped memory of `bytes`, zeroed, and its device address. */
static void *mapped(size_t bytes, CUdeviceptr *dev)
{
    void *h;
    OK(cuMemHostAlloc(&h, bytes, CU_MEMHOSTALLOC_DEVICEMAP));
    OK(cuMemHostGetDevicePointer_v2(dev, h, 0));
    memset(h, 0, bytes);
    return h;
}

/* CUDA Driver API, cuGraphAddHostNode: a host node runs as
 * cuLaunchHostFunc's functions do, on a thread of the driver's, in the
 * graph's order, not on the device: a host node that waits for a
 * kernel of another stream lets that kernel run.  Graph: x = x * 2 + 1
 * -> the host node (waits for go, sums x, sets v = 42) -> v = v * 2 + 0;
 * then, on a second stream, go = go * 0 + 1. */
START_TEST(host_node_off_device)
{
    setup();
    CUdeviceptr dx, dgo, dv;
    unsigned *xs = mapped(N * 4, &dx);
    unsigned *go = mapped(4, &dgo);
    unsigned *v = mapped(4, &dv);
    for (unsigned i = 0; i < N; i++) {
        xs[i] = 7;
    }
    Waiter w = { go, xs, v, 0, 0 };
    CUstream s1, s2;
    OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUgraph g;
    CUgraphNode k1, h, k2;
    OK(cuGraphCreate(&g, 0));
    unsigned n = N, one = 1, a = 2, b = 1, zero = 0;
    void *args1[] = { &dx, &n, &a, &b };
    CUDA_KERNEL_NODE_PARAMS kp1 = kparams(args1, N);
    OK(cuGraphAddKernelNode_v2(&k1, g, NULL, 0, &kp1));
    CUDA_HOST_NODE_PARAMS hp = { wait_for_go, &w };
    OK(cuGraphAddHostNode(&h, g, &k1, 1, &hp));
    void *args2[] = { &dv, &one, &a, &zero };
    CUDA_KERNEL_NODE_PARAMS kp2 = kparams(args2, 1);
    OK(cuGraphAddKernelNode_v2(&k2, g, &h, 1, &kp2));
    CUgraphExec x;
    OK(cuGraphInstantiateWithFlags(&x, g, 0));
    OK(cuGraphLaunch(x, s1));
    void *set_go[] = { &dgo, &one, &zero, &one };
    OK(cuLaunchKernel(axpb, 1, 1, 1, 1, 1, 1, 0, s2, set_go, NULL));
    OK(cuStreamSynchronize(s2));
    OK(cuStreamSynchronize(s1));
    ck_assert_msg(w.saw_go, "the host node held up the other stream");
    ck_assert_uint_eq(w.sum, (unsigned long long)N * (7 * 2 + 1));
    ck_assert_uint_eq(*v, 84);  /* the kernel after it saw its 42 */
    OK(cuGraphExecDestroy(x));
    OK(cuGraphDestroy(g));
    OK(cuStreamDestroy_v2(s1));
    OK(cuStreamDestroy_v2(s2));
    OK(cuMemFreeHost(xs));
    OK(cuMemFreeHost(go));
    OK(cuMemFreeHost(v));
    teardown();
}
END_TEST

/* A host function that returns once *(unsigned *)p is set (by the
 * test's thread; at most 20 s). */
static void hold_until(void *p)
{
    (void)spin_until(p);
}

static void nap_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

/* Runs x on s1 after another stream's held work and event record:
 * x's kernel (x = x * 2 + 1 on xs, host-mapped) must wait for the
 * record.  xs holds `before` until the host lets the work go. */
static void check_held(CUgraphExec x, CUstream s1, CUstream s2, CUevent ev,
                       const unsigned *xs, unsigned before, const char *what)
{
    unsigned release = 0;
    OK(cuLaunchHostFunc(s2, hold_until, &release));
    OK(cuEventRecord(ev, s2));
    OK(cuGraphLaunch(x, s1));
    nap_ms(300);
    ck_assert_msg(xs[0] == before && xs[N - 1] == before,
                  "%s: the node after the wait ran before the record "
                  "(x = %u)", what, xs[0]);
    ck_assert_int_eq(cuStreamQuery(s1), CUDA_ERROR_NOT_READY);
    __atomic_store_n(&release, 1, __ATOMIC_SEQ_CST);
    OK(cuStreamSynchronize(s1));
    for (unsigned i = 0; i < N; i++) {
        ck_assert_uint_eq(xs[i], before * 2 + 1);
    }
    OK(cuStreamSynchronize(s2));
}

/* CUDA programming guide, graphs (event record and wait nodes), and
 * CUDA Driver API, cuGraphAddEventWaitNode: the nodes after an event
 * wait node wait for the event's record, here made by work of another
 * stream still pending (a host function the test holds): graph = wait
 * -> x = x * 2 + 1.  The same for a wait captured with
 * CU_EVENT_WAIT_EXTERNAL (cuStreamWaitEvent: "Event is captured in the
 * graph as an external event node"). */
START_TEST(event_wait_node_waits)
{
    setup();
    CUdeviceptr dx;
    unsigned *xs = mapped(N * 4, &dx);
    for (unsigned i = 0; i < N; i++) {
        xs[i] = 7;
    }
    CUstream s1, s2;
    OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUevent ev;
    OK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    unsigned n = N, a = 2, b = 1;
    void *args[] = { &dx, &n, &a, &b };
    CUDA_KERNEL_NODE_PARAMS kp = kparams(args, N);

    CUgraph g;
    CUgraphNode w, k;
    OK(cuGraphCreate(&g, 0));
    OK(cuGraphAddEventWaitNode(&w, g, NULL, 0, ev));
    OK(cuGraphAddKernelNode_v2(&k, g, &w, 1, &kp));
    CUgraphExec x;
    OK(cuGraphInstantiateWithFlags(&x, g, 0));
    check_held(x, s1, s2, ev, xs, 7, "explicit wait node");

    /* Captured: the external wait becomes the graph's first node. */
    CUgraph cg;
    OK(cuStreamBeginCapture_v2(s1, CU_STREAM_CAPTURE_MODE_RELAXED));
    OK(cuStreamWaitEvent(s1, ev, CU_EVENT_WAIT_EXTERNAL));
    OK(cuLaunchKernel(axpb, kp.gridDimX, 1, 1, kp.blockDimX, 1, 1, 0, s1,
                      args, NULL));
    OK(cuStreamEndCapture(s1, &cg));
    CUgraphNode nodes[3];
    size_t count = 3;
    OK(cuGraphGetRootNodes(cg, nodes, &count));
    ck_assert_uint_eq(count, 1);
    CUgraphNodeType t;
    OK(cuGraphNodeGetType(nodes[0], &t));
    ck_assert_int_eq(t, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    CUevent got;
    OK(cuGraphEventWaitNodeGetEvent(nodes[0], &got));
    ck_assert_ptr_eq(got, ev);
    CUgraphExec cx;
    OK(cuGraphInstantiateWithFlags(&cx, cg, 0));
    check_held(cx, s1, s2, ev, xs, 15, "captured external wait");

    OK(cuGraphExecDestroy(x));
    OK(cuGraphExecDestroy(cx));
    OK(cuGraphDestroy(g));
    OK(cuGraphDestroy(cg));
    OK(cuEventDestroy_v2(ev));
    OK(cuStreamDestroy_v2(s1));
    OK(cuStreamDestroy_v2(s2));
    OK(cuMemFreeHost(xs));
    teardown();
}
END_TEST

/* CUDA Driver API, cuGraphInstantiateWithParams: with
 * CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD the graph is uploaded to
 * hUploadStream, which must be a usable stream (the _ptsz form's 0 is
 * the per-thread stream); cuGraphExecGetFlags: the upload flag "will
 * not be returned by this API". */
START_TEST(instantiate_with_params)
{
    setup();
    CUgraph g;
    CUgraphNode e;
    OK(cuGraphCreate(&g, 0));
    OK(cuGraphAddEmptyNode(&e, g, NULL, 0));
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0xff, sizeof(ip));
    ip.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD
               | CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH;
    ip.hUploadStream = s;
    CUgraphExec x;
    OK(cuGraphInstantiateWithParams(&x, g, &ip));
    ck_assert_int_eq(ip.result_out, CUDA_GRAPH_INSTANTIATE_SUCCESS);
    ck_assert_ptr_null(ip.hErrNode_out);
    cuuint64_t flags = 99;
    OK(cuGraphExecGetFlags(x, &flags));
    ck_assert_uint_eq(flags, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
    OK(cuGraphExecDestroy(x));
    ip.hUploadStream = NULL;
    OK(cuGraphInstantiateWithParams_ptsz(&x, g, &ip));
    OK(cuGraphLaunch(x, s));
    OK(cuStreamSynchronize(s));
    OK(cuGraphExecDestroy(x));
    /* A cycle (e -> f -> e): CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE,
     * "invalid structure, such as cycles"; another failure (an unknown
     * flag) stays CUDA_GRAPH_INSTANTIATE_ERROR. */
    memset(&ip, 0, sizeof(ip));
    ip.flags = 1ull << 40;
    ck_assert_int_ne(cuGraphInstantiateWithParams(&x, g, &ip), 0);
    ck_assert_int_eq(ip.result_out, CUDA_GRAPH_INSTANTIATE_ERROR);
    CUgraphNode f;
    OK(cuGraphAddEmptyNode(&f, g, &e, 1));
    OK(cuGraphAddDependencies(g, &f, &e, 1));
    memset(&ip, 0, sizeof(ip));
    ck_assert_int_eq(cuGraphInstantiateWithParams(&x, g, &ip),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ip.result_out, CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE);
    ck_assert(ip.hErrNode_out == e || ip.hErrNode_out == f);
    OK(cuGraphDestroy(g));
    OK(cuStreamDestroy_v2(s));
    teardown();
}
END_TEST

/* CUDA Driver API, cuGraphExecKernelNodeSetParams: hNode must be a
 * node of the graph the executable graph was made from.  That graph is
 * destroyed and a new one made, at its address when the allocator
 * gives it back (as glibc's does for a block of the same size just
 * freed): the new graph's first node is not the executable graph's,
 * although it has the same creation number, and the executable graph
 * keeps its parameters. */
START_TEST(exec_node_of_new_graph)
{
    setup();
    CUdeviceptr xb;
    OK(cuMemAlloc_v2(&xb, N * 4));
    OK(cuMemsetD32_v2(xb, 7, N));
    unsigned n = N, a = 2, b = 1;
    void *args[] = { &xb, &n, &a, &b };
    CUDA_KERNEL_NODE_PARAMS kp = kparams(args, N);
    CUgraph g1, g2[8];
    CUgraphNode k1, k2;
    OK(cuGraphCreate(&g1, 0));
    OK(cuGraphAddKernelNode_v2(&k1, g1, NULL, 0, &kp));
    CUgraphExec x;
    OK(cuGraphInstantiateWithFlags(&x, g1, 0));
    uintptr_t old = (uintptr_t)g1;
    /* glibc's calloc does not take blocks from the per-thread cache:
     * filled first, it leaves the graph's block to calloc. */
    void *fillers[8];
    for (unsigned i = 0; i < 8; i++) {
        fillers[i] = malloc(sizeof(struct CUgraph_st));
    }
    for (unsigned i = 0; i < 8; i++) {
        free(fillers[i]);
    }
    OK(cuGraphDestroy(g1));
    unsigned made = 0;
    do {
        OK(cuGraphCreate(&g2[made], 0));
    } while ((uintptr_t)g2[made++] != old && made < 8);
    a = 3;
    b = 4;
    OK(cuGraphAddKernelNode_v2(&k2, g2[made - 1], NULL, 0, &kp));
    ck_assert_int_eq(cuGraphExecKernelNodeSetParams_v2(x, k2, &kp),
                     CUDA_ERROR_INVALID_VALUE);
    OK(cuGraphLaunch(x, NULL));
    OK(cuStreamSynchronize(NULL));
    check_all(xb, 7 * 2 + 1, "x (the executable graph's own parameters)");
    OK(cuGraphExecDestroy(x));
    for (unsigned i = 0; i < made; i++) {
        OK(cuGraphDestroy(g2[i]));
    }
    OK(cuMemFree_v2(xb));
    teardown();
}
END_TEST

/* A graph of the runtime's holds the runtime's node parameters: the
 * driver refuses it, and the runtime the driver's, instead of reading
 * one as the other (a program mixing cudaGraph* and cuGraph* calls). */
START_TEST(foreign_graph)
{
    setup();
    CUgraph rg, dg;
    CUgraphNode n;
    CUgraphExec x;
    ck_assert_int_eq(cudaGraphCreate(&rg, 0), 0);
    OK(cuGraphCreate(&dg, 0));
    ck_assert_int_eq(cuGraphAddEmptyNode(&n, rg, NULL, 0),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&x, rg, 0),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuGraphDestroy(rg), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cudaGraphDestroy(dg), 1);
    ck_assert_int_eq(cudaGraphDestroy(rg), 0);
    OK(cuGraphDestroy(dg));
    teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("driver_graph");
    TCase *tc = tcase_create("graph");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, explicit_diamond);
    tcase_add_test(tc, captured_diamond);
    tcase_add_test(tc, capture_rules);
    tcase_add_test(tc, per_thread_stream);
    tcase_add_test(tc, foreign_graph);
    tcase_add_test(tc, update_spares_queued_launch);
    tcase_add_test(tc, host_node_off_device);
    tcase_add_test(tc, event_wait_node_waits);
    tcase_add_test(tc, instantiate_with_params);
    tcase_add_test(tc, exec_node_of_new_graph);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
