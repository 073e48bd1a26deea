/*
 * runtime/cudart/rt_capture.c: stream capture for the runtime: the
 * runtime's streams handed to the shared capture (runtime/graph/gcap.h,
 * which says what capturing does).  The per-thread default stream
 * (cudaStreamPerThread, or 0 given to a _ptsz entry point) is a
 * different stream in every host thread; the legacy stream (0) cannot
 * capture (cudaStreamIsCapturing's documentation for the query).
 */
#include "runtime/cudart/rt_internal.h"
#include "runtime/graph/gcap.h"

/* The shared code's errors are codes on which both APIs agree. */
_Static_assert((int)cudaErrorIllegalState == GPH_ESTATE
               && (int)cudaErrorStreamCaptureImplicit == GPH_ECAP_IMPLICIT
               && (int)cudaErrorCapturedEvent == GPH_ECAPTURED_EVENT
               && (int)cudaErrorStreamCaptureWrongThread
                      == GPH_ECAP_WRONG_THREAD
               && (int)cudaStreamCaptureModeRelaxed
                      == (int)CU_STREAM_CAPTURE_MODE_RELAXED
               && (int)cudaStreamCaptureStatusInvalidated
                      == (int)CU_STREAM_CAPTURE_STATUS_INVALIDATED
               && sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData),
               "runtime and driver capture codes differ");

/* What identifies a stream here: the per-thread default stream is an
 * address of the calling thread's own. */
static __thread char per_thread_stream;

static gcap_stream stream_of(cudaStream_t s)
{
    gcap_stream g = { s, s == NULL || s == cudaStreamLegacy, 1 };
    unsigned fl = 0;
    if (s == cudaStreamPerThread)
        g.key = &per_thread_stream;
    else if (!g.legacy && cuStreamGetFlags(rt_stream(s), &fl) == CUDA_SUCCESS)
        g.blocking = !(fl & CU_STREAM_NON_BLOCKING);
    return g;
}

static cudaError_t begin(cudaStream_t s, cudaGraph_t graph,
                         const cudaGraphNode_t *deps,
                         const cudaGraphEdgeData *edges, size_t n,
                         enum cudaStreamCaptureMode mode)
{
    if ((unsigned)mode > cudaStreamCaptureModeRelaxed || (n && !deps))
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_err((cudaError_t)gcap_begin(stream_of(s), graph, &rt_graph_ops,
                                          deps,
                                          (const CUgraphEdgeData *)edges, n,
                                          mode));
}

RT_API cudaError_t cudaStreamBeginCapture(cudaStream_t s,
                                          enum cudaStreamCaptureMode mode)
{
    return begin(s, NULL, NULL, NULL, 0, mode);
}

/* Captures into an existing graph, after the nodes deps of it. */
RT_API cudaError_t
cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g,
                              const cudaGraphNode_t *deps,
                              const cudaGraphEdgeData *edges, size_t n,
                              enum cudaStreamCaptureMode mode)
{
    if (!g)
        return rt_err(cudaErrorInvalidValue);
    return begin(s, g, deps, edges, n, mode);
}

RT_API cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g)
{
    return rt_err((cudaError_t)gcap_end(stream_of(s), g));
}

RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t s,
                                         enum cudaStreamCaptureStatus *st)
{
    int status = 0;
    int e = gcap_info(stream_of(s), st ? &status : NULL, NULL, NULL, NULL,
                      NULL, NULL);
    if (st)
        *st = (enum cudaStreamCaptureStatus)status;
    return rt_err((cudaError_t)e);
}

/* CUDA 13's form: the dependencies and their edge data stay valid until
 * the stream's next capture call. */
RT_API cudaError_t
cudaStreamGetCaptureInfo(cudaStream_t s, enum cudaStreamCaptureStatus *st,
                         unsigned long long *id, cudaGraph_t *graph,
                         const cudaGraphNode_t **deps,
                         const cudaGraphEdgeData **edges, size_t *ndeps)
{
    int status = 0;
    int e = gcap_info(stream_of(s), st ? &status : NULL, id, graph, deps,
                      (const CUgraphEdgeData **)edges, ndeps);
    if (st)
        *st = (enum cudaStreamCaptureStatus)status;
    return rt_err((cudaError_t)e);
}

RT_API cudaError_t
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    int m = mode ? (int)*mode : 0;
    int e = gcap_exchange_mode(mode ? &m : NULL);
    if (mode && e == GPH_OK)
        *mode = (enum cudaStreamCaptureMode)m;
    return rt_err((cudaError_t)e);
}

/* Replaces (flags 1) or extends (flags 0) the nodes the stream's next
 * captured work will depend on. */
RT_API cudaError_t
cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps,
                                    const cudaGraphEdgeData *edges,
                                    size_t n, unsigned flags)
{
    return rt_err((cudaError_t)gcap_update_deps(
        stream_of(s), deps, (const CUgraphEdgeData *)edges, n, flags));
}

/* ---------------------------------------------------- captured work */

cudaError_t rt_capture_node(cudaStream_t s, enum cudaGraphNodeType type,
                            const rt_node_params *p, int *taken)
{
    return rt_err((cudaError_t)gcap_node(stream_of(s), (int)type, p, taken));
}

cudaError_t rt_capture_kernel(cudaStream_t s, const rt_node_params *p,
                              const CUlaunchAttribute *at, unsigned nat,
                              int *taken)
{
    return rt_err((cudaError_t)gcap_kernel(stream_of(s),
                                           cudaGraphNodeTypeKernel, p, at,
                                           nat, taken));
}

cudaError_t rt_capture_record(cudaEvent_t ev, cudaStream_t s, int *taken)
{
    return rt_err((cudaError_t)gcap_record(ev, stream_of(s), taken));
}

cudaError_t rt_capture_wait(cudaStream_t s, cudaEvent_t ev, unsigned flags,
                            int *taken)
{
    /* cudaEventWaitExternal is CU_EVENT_WAIT_EXTERNAL, 1. */
    int external = (flags & CU_EVENT_WAIT_EXTERNAL) != 0;
    return rt_err((cudaError_t)gcap_wait(stream_of(s), ev, external, taken));
}

void rt_capture_forget(cudaEvent_t ev)
{
    gcap_forget(ev);
}

cudaError_t rt_capture_event_check(cudaEvent_t ev)
{
    return rt_err((cudaError_t)gcap_event_check(ev));
}

cudaError_t rt_capture_sync(cudaStream_t s)
{
    return rt_err((cudaError_t)gcap_sync(stream_of(s)));
}

cudaError_t rt_capture_stream_gone(cudaStream_t s)
{
    return rt_err((cudaError_t)gcap_stream_gone(stream_of(s)));
}

cudaError_t rt_capture_unsafe(void)
{
    return rt_err((cudaError_t)gcap_unsafe());
}
