/*
 * runtime/cuda/drv_capture.c: stream capture in the drop-in driver:
 * cuStreamBeginCapture and the rest of the capture entry points, and
 * the hooks through which the files that enqueue work record it while
 * a stream captures (drv_capture.h).  What capturing does is the shared
 * code's (runtime/graph/gcap.h); here, which stream a handle names: 0
 * and CU_STREAM_LEGACY the legacy stream, CU_STREAM_PER_THREAD (and 0
 * given to a _ptsz entry point) the calling thread's per-thread default
 * stream, which the legacy stream synchronises with as with every
 * stream not created CU_STREAM_NON_BLOCKING (CUDA Driver API, "Stream
 * synchronization behavior").
 */
#include "config.h"

#include "runtime/cuda/drv_capture.h"
#include "runtime/graph/gcap.h"

static __thread char per_thread_stream;

static gcap_stream stream_of(CUstream s, int ptsz)
{
    gcap_stream g = { s, 0, 1 };
    if (s == CU_STREAM_PER_THREAD || (ptsz && !s)) {
        g.key = &per_thread_stream;
    } else if (!s || s == CU_STREAM_LEGACY) {
        g.legacy = 1;
    } else if (drv_handle_valid(DRV_STREAM, s)) {
        g.blocking = !(s->flags & CU_STREAM_NON_BLOCKING);
    }
    return g;
}

/* ------------------------------------------------------------- hooks */

CUresult drv_capture_node(CUstream s, int type, const drv_node_params *p,
                          int *taken)
{
    return (CUresult)gcap_node(stream_of(s, 0), type, p, taken);
}

CUresult drv_capture_kernel(CUstream s, const drv_node_params *p,
                            const CUlaunchAttribute *at, unsigned nat,
                            int *taken)
{
    return (CUresult)gcap_kernel(stream_of(s, 0), CU_GRAPH_NODE_TYPE_KERNEL,
                                 p, at, nat, taken);
}

CUresult drv_capture_record(CUevent ev, CUstream s, int *taken)
{
    return (CUresult)gcap_record(ev, stream_of(s, 0), taken);
}

CUresult drv_capture_wait(CUstream s, CUevent ev, unsigned flags,
                          int *taken)
{
    return (CUresult)gcap_wait(stream_of(s, 0), ev,
                               flags & CU_EVENT_WAIT_EXTERNAL, taken);
}

void drv_capture_forget(CUevent ev)
{
    gcap_forget(ev);
}

CUresult drv_capture_event_check(CUevent ev)
{
    return (CUresult)gcap_event_check(ev);
}

CUresult drv_capture_stream_gone(CUstream s)
{
    return (CUresult)gcap_stream_gone(stream_of(s, 0));
}

CUresult drv_capture_sync(CUstream s)
{
    return (CUresult)gcap_sync(stream_of(s, 0));
}

int drv_capture_status(CUstream s)
{
    int st = CU_STREAM_CAPTURE_STATUS_NONE;
    (void)gcap_info(stream_of(s, 0), &st, NULL, NULL, NULL, NULL, NULL);
    return st;
}

CUresult drv_capture_unsafe(void)
{
    return (CUresult)gcap_unsafe();
}

/* ------------------------------------------------------- entry points */

static CUresult begin(CUstream s, int ptsz, CUgraph g,
                      const CUgraphNode *deps, const CUgraphEdgeData *edges,
                      size_t n, CUstreamCaptureMode mode)
{
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    return (CUresult)gcap_begin(stream_of(s, ptsz), g, &drv_graph_ops, deps,
                                edges, n, (int)mode);
}

/* The first form: always the global mode. */
CUresult cuStreamBeginCapture(CUstream hStream)
{
    return drv_trace(begin(hStream, 0, NULL, NULL, NULL, 0,
                           CU_STREAM_CAPTURE_MODE_GLOBAL),
                     "cuStreamBeginCapture", "%p", (void *)hStream);
}

CUresult cuStreamBeginCapture_ptsz(CUstream hStream)
{
    return drv_trace(begin(hStream, 1, NULL, NULL, NULL, 0,
                           CU_STREAM_CAPTURE_MODE_GLOBAL),
                     "cuStreamBeginCapture_ptsz", "%p", (void *)hStream);
}

CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
    return drv_trace(begin(hStream, 0, NULL, NULL, NULL, 0, mode),
                     "cuStreamBeginCapture_v2", "%p, %d", (void *)hStream,
                     (int)mode);
}

CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream,
                                      CUstreamCaptureMode mode)
{
    return drv_trace(begin(hStream, 1, NULL, NULL, NULL, 0, mode),
                     "cuStreamBeginCapture_v2_ptsz", "%p, %d",
                     (void *)hStream, (int)mode);
}

static CUresult begin_to(CUstream s, int ptsz, CUgraph g,
                         const CUgraphNode *deps,
                         const CUgraphEdgeData *edges, size_t n,
                         CUstreamCaptureMode mode)
{
    return g ? begin(s, ptsz, g, deps, edges, n, mode)
             : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph,
                                     const CUgraphNode *dependencies,
                                     const CUgraphEdgeData *dependencyData,
                                     size_t numDependencies,
                                     CUstreamCaptureMode mode)
{
    return drv_trace(begin_to(hStream, 0, hGraph, dependencies,
                              dependencyData, numDependencies, mode),
                     "cuStreamBeginCaptureToGraph", "%p, %p, %p, %p, %zu, %d",
                     (void *)hStream, (void *)hGraph,
                     (const void *)dependencies,
                     (const void *)dependencyData, numDependencies,
                     (int)mode);
}

CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream hStream, CUgraph hGraph,
                                          const CUgraphNode *dependencies,
                                          const CUgraphEdgeData
                                              *dependencyData,
                                          size_t numDependencies,
                                          CUstreamCaptureMode mode)
{
    return drv_trace(begin_to(hStream, 1, hGraph, dependencies,
                              dependencyData, numDependencies, mode),
                     "cuStreamBeginCaptureToGraph_ptsz",
                     "%p, %p, %p, %p, %zu, %d", (void *)hStream,
                     (void *)hGraph, (const void *)dependencies,
                     (const void *)dependencyData, numDependencies,
                     (int)mode);
}

static CUresult end(CUstream s, int ptsz, CUgraph *g)
{
    CUresult r = drv_ready_stream(s);
    return r ? r : (CUresult)gcap_end(stream_of(s, ptsz), g);
}

CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
    return drv_trace(end(hStream, 0, phGraph), "cuStreamEndCapture",
                     "%p, %p", (void *)hStream, (void *)phGraph);
}

CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
    return drv_trace(end(hStream, 1, phGraph), "cuStreamEndCapture_ptsz",
                     "%p, %p", (void *)hStream, (void *)phGraph);
}

/* Every query form: the status and what the caller asks for. */
static CUresult info(CUstream s, int ptsz, CUstreamCaptureStatus *st,
                     cuuint64_t *id, CUgraph *graph,
                     const CUgraphNode **deps, const CUgraphEdgeData **edges,
                     size_t *n)
{
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    if (!st) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    int status = 0;
    unsigned long long uid = 0;
    r = (CUresult)gcap_info(stream_of(s, ptsz), &status, &uid, graph, deps,
                            edges, n);
    *st = (CUstreamCaptureStatus)status;
    if (id && status == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
        *id = uid;
    }
    return r;
}

CUresult cuStreamIsCapturing(CUstream hStream,
                             CUstreamCaptureStatus *captureStatus)
{
    return drv_trace(info(hStream, 0, captureStatus, NULL, NULL, NULL, NULL,
                          NULL),
                     "cuStreamIsCapturing", "%p, %p", (void *)hStream,
                     (void *)captureStatus);
}

CUresult cuStreamIsCapturing_ptsz(CUstream hStream,
                                  CUstreamCaptureStatus *captureStatus)
{
    return drv_trace(info(hStream, 1, captureStatus, NULL, NULL, NULL, NULL,
                          NULL),
                     "cuStreamIsCapturing_ptsz", "%p, %p", (void *)hStream,
                     (void *)captureStatus);
}

CUresult cuStreamGetCaptureInfo(CUstream hStream,
                                CUstreamCaptureStatus *captureStatus,
                                cuuint64_t *id)
{
    return drv_trace(info(hStream, 0, captureStatus, id, NULL, NULL, NULL,
                          NULL),
                     "cuStreamGetCaptureInfo", "%p, %p, %p",
                     (void *)hStream, (void *)captureStatus, (void *)id);
}

CUresult cuStreamGetCaptureInfo_ptsz(CUstream hStream,
                                     CUstreamCaptureStatus *captureStatus,
                                     cuuint64_t *id)
{
    return drv_trace(info(hStream, 1, captureStatus, id, NULL, NULL, NULL,
                          NULL),
                     "cuStreamGetCaptureInfo_ptsz", "%p, %p, %p",
                     (void *)hStream, (void *)captureStatus, (void *)id);
}

CUresult cuStreamGetCaptureInfo_v2(CUstream hStream,
                                   CUstreamCaptureStatus *captureStatus,
                                   cuuint64_t *id, CUgraph *graph,
                                   const CUgraphNode **deps,
                                   size_t *numDeps)
{
    return drv_trace(info(hStream, 0, captureStatus, id, graph, deps, NULL,
                          numDeps),
                     "cuStreamGetCaptureInfo_v2", "%p, %p, %p, %p, %p, %p",
                     (void *)hStream, (void *)captureStatus, (void *)id,
                     (void *)graph, (void *)deps, (void *)numDeps);
}

CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream,
                                        CUstreamCaptureStatus *captureStatus,
                                        cuuint64_t *id, CUgraph *graph,
                                        const CUgraphNode **deps,
                                        size_t *numDeps)
{
    return drv_trace(info(hStream, 1, captureStatus, id, graph, deps, NULL,
                          numDeps),
                     "cuStreamGetCaptureInfo_v2_ptsz",
                     "%p, %p, %p, %p, %p, %p", (void *)hStream,
                     (void *)captureStatus, (void *)id, (void *)graph,
                     (void *)deps, (void *)numDeps);
}

CUresult cuStreamGetCaptureInfo_v3(CUstream hStream,
                                   CUstreamCaptureStatus *captureStatus,
                                   cuuint64_t *id, CUgraph *graph,
                                   const CUgraphNode **deps,
                                   const CUgraphEdgeData **edges,
                                   size_t *numDeps)
{
    return drv_trace(info(hStream, 0, captureStatus, id, graph, deps, edges,
                          numDeps),
                     "cuStreamGetCaptureInfo_v3",
                     "%p, %p, %p, %p, %p, %p, %p", (void *)hStream,
                     (void *)captureStatus, (void *)id, (void *)graph,
                     (void *)deps, (void *)edges, (void *)numDeps);
}

CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream,
                                        CUstreamCaptureStatus *captureStatus,
                                        cuuint64_t *id, CUgraph *graph,
                                        const CUgraphNode **deps,
                                        const CUgraphEdgeData **edges,
                                        size_t *numDeps)
{
    return drv_trace(info(hStream, 1, captureStatus, id, graph, deps, edges,
                          numDeps),
                     "cuStreamGetCaptureInfo_v3_ptsz",
                     "%p, %p, %p, %p, %p, %p, %p", (void *)hStream,
                     (void *)captureStatus, (void *)id, (void *)graph,
                     (void *)deps, (void *)edges, (void *)numDeps);
}

static CUresult update(CUstream s, int ptsz, CUgraphNode *deps,
                       const CUgraphEdgeData *edges, size_t n,
                       unsigned flags)
{
    CUresult r = drv_ready_stream(s);
    return r ? r
             : (CUresult)gcap_update_deps(stream_of(s, ptsz), deps, edges,
                                          n, flags);
}

CUresult cuStreamUpdateCaptureDependencies(CUstream hStream,
                                           CUgraphNode *dependencies,
                                           size_t numDependencies,
                                           unsigned int flags)
{
    return drv_trace(update(hStream, 0, dependencies, NULL, numDependencies,
                            flags),
                     "cuStreamUpdateCaptureDependencies", "%p, %p, %zu, 0x%x",
                     (void *)hStream, (void *)dependencies, numDependencies,
                     flags);
}

CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream,
                                                CUgraphNode *dependencies,
                                                size_t numDependencies,
                                                unsigned int flags)
{
    return drv_trace(update(hStream, 1, dependencies, NULL, numDependencies,
                            flags),
                     "cuStreamUpdateCaptureDependencies_ptsz",
                     "%p, %p, %zu, 0x%x", (void *)hStream,
                     (void *)dependencies, numDependencies, flags);
}

CUresult cuStreamUpdateCaptureDependencies_v2(CUstream hStream,
                                              CUgraphNode *dependencies,
                                              const CUgraphEdgeData
                                                  *dependencyData,
                                              size_t numDependencies,
                                              unsigned int flags)
{
    return drv_trace(update(hStream, 0, dependencies, dependencyData,
                            numDependencies, flags),
                     "cuStreamUpdateCaptureDependencies_v2",
                     "%p, %p, %p, %zu, 0x%x", (void *)hStream,
                     (void *)dependencies, (const void *)dependencyData,
                     numDependencies, flags);
}

CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream,
                                                   CUgraphNode *dependencies,
                                                   const CUgraphEdgeData
                                                       *dependencyData,
                                                   size_t numDependencies,
                                                   unsigned int flags)
{
    return drv_trace(update(hStream, 1, dependencies, dependencyData,
                            numDependencies, flags),
                     "cuStreamUpdateCaptureDependencies_v2_ptsz",
                     "%p, %p, %p, %zu, 0x%x", (void *)hStream,
                     (void *)dependencies, (const void *)dependencyData,
                     numDependencies, flags);
}

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    int m = mode ? (int)*mode : 0;
    CUresult r = (CUresult)gcap_exchange_mode(mode ? &m : NULL);
    if (!r) {
        *mode = (CUstreamCaptureMode)m;
    }
    return drv_trace(r, "cuThreadExchangeStreamCaptureMode", "%p",
                     (void *)mode);
}
