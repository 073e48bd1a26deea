/*
 * runtime/cudart/rt_ptsz.c: the per-thread-default-stream entry points
 * (_ptsz) of the calls that put work on a stream or wait for one.  A
 * program built with `nvcc --default-stream per-thread` calls these,
 * and passes 0 to mean its thread's per-thread default stream
 * (cudaStreamPerThread); each is the plain call with that stream: the
 * thread's own blocking stream (runtime/cuda/drv_queue.h), which in
 * stream capture (rt_capture.c) is another stream in each thread, not
 * the legacy one.  The _ptsz forms of
 * the launches are rt_launch.c's; the forms that only query a stream,
 * and the _ptds synchronous copies, stay aliases of the plain calls.
 */
#include "runtime/cudart/rt_internal.h"

/* name_ptsz(params): name(args), args passing rt_ptsz(s) as the stream. */
#define PTSZ(name, params, args) \
    RT_API cudaError_t name##_ptsz params { return name args; }

/* ------------------------------------------------------------ memory */

PTSZ(cudaMallocAsync, (void **p, size_t size, cudaStream_t s),
     (p, size, rt_ptsz(s)))
PTSZ(cudaFreeAsync, (void *p, cudaStream_t s), (p, rt_ptsz(s)))
PTSZ(cudaMallocFromPoolAsync,
     (void **p, size_t size, cudaMemPool_t pool, cudaStream_t s),
     (p, size, pool, rt_ptsz(s)))
PTSZ(cudaMemPrefetchAsync,
     (const void *p, size_t n, struct cudaMemLocation loc, unsigned flags,
      cudaStream_t s),
     (p, n, loc, flags, rt_ptsz(s)))
PTSZ(cudaMemcpyAsync,
     (void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
      cudaStream_t s),
     (dst, src, n, kind, rt_ptsz(s)))
PTSZ(cudaMemcpy2DAsync,
     (void *dst, size_t dpitch, const void *src, size_t spitch,
      size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t s),
     (dst, dpitch, src, spitch, width, height, kind, rt_ptsz(s)))
PTSZ(cudaMemcpy3DAsync, (const struct cudaMemcpy3DParms *p, cudaStream_t s),
     (p, rt_ptsz(s)))
PTSZ(cudaMemcpy2DFromArrayAsync,
     (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
      size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
      cudaStream_t s),
     (dst, dpitch, src, wOffset, hOffset, width, height, kind, rt_ptsz(s)))
PTSZ(cudaMemcpy2DToArrayAsync,
     (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
      size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
      cudaStream_t s),
     (dst, wOffset, hOffset, src, spitch, width, height, kind, rt_ptsz(s)))
PTSZ(cudaMemcpyFromSymbolAsync,
     (void *dst, const void *symbol, size_t n, size_t off,
      enum cudaMemcpyKind kind, cudaStream_t s),
     (dst, symbol, n, off, kind, rt_ptsz(s)))
PTSZ(cudaMemcpyToSymbolAsync,
     (const void *symbol, const void *src, size_t n, size_t off,
      enum cudaMemcpyKind kind, cudaStream_t s),
     (symbol, src, n, off, kind, rt_ptsz(s)))
PTSZ(cudaMemsetAsync, (void *p, int value, size_t n, cudaStream_t s),
     (p, value, n, rt_ptsz(s)))
PTSZ(cudaMemset2DAsync,
     (void *p, size_t pitch, int value, size_t width, size_t height,
      cudaStream_t s),
     (p, pitch, value, width, height, rt_ptsz(s)))

/* ------------------------------------------------ streams and events */

PTSZ(cudaStreamSynchronize, (cudaStream_t s), (rt_ptsz(s)))
PTSZ(cudaStreamQuery, (cudaStream_t s), (rt_ptsz(s)))
PTSZ(cudaStreamWaitEvent, (cudaStream_t s, cudaEvent_t ev, unsigned flags),
     (rt_ptsz(s), ev, flags))
PTSZ(cudaEventRecord, (cudaEvent_t ev, cudaStream_t s), (ev, rt_ptsz(s)))
PTSZ(cudaEventRecordWithFlags,
     (cudaEvent_t ev, cudaStream_t s, unsigned flags),
     (ev, rt_ptsz(s), flags))
PTSZ(cudaLaunchHostFunc, (cudaStream_t s, cudaHostFn_t fn, void *data),
     (rt_ptsz(s), fn, data))
PTSZ(cudaStreamAddCallback,
     (cudaStream_t s, cudaStreamCallback_t fn, void *data, unsigned flags),
     (rt_ptsz(s), fn, data, flags))

/* ------------------------------------------------------------ graphs */

PTSZ(cudaGraphLaunch, (cudaGraphExec_t x, cudaStream_t s), (x, rt_ptsz(s)))
PTSZ(cudaGraphUpload, (cudaGraphExec_t x, cudaStream_t s), (x, rt_ptsz(s)))

/* ----------------------------------------------------------- capture */

PTSZ(cudaStreamBeginCapture,
     (cudaStream_t s, enum cudaStreamCaptureMode mode),
     (rt_ptsz(s), mode))
PTSZ(cudaStreamBeginCaptureToGraph,
     (cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *deps,
      const cudaGraphEdgeData *edges, size_t n,
      enum cudaStreamCaptureMode mode),
     (rt_ptsz(s), g, deps, edges, n, mode))
PTSZ(cudaStreamEndCapture, (cudaStream_t s, cudaGraph_t *g),
     (rt_ptsz(s), g))
PTSZ(cudaStreamIsCapturing,
     (cudaStream_t s, enum cudaStreamCaptureStatus *st), (rt_ptsz(s), st))
PTSZ(cudaStreamGetCaptureInfo,
     (cudaStream_t s, enum cudaStreamCaptureStatus *st,
      unsigned long long *id, cudaGraph_t *graph,
      const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges,
      size_t *n),
     (rt_ptsz(s), st, id, graph, deps, edges, n))
PTSZ(cudaStreamUpdateCaptureDependencies,
     (cudaStream_t s, cudaGraphNode_t *deps, const cudaGraphEdgeData *edges,
      size_t n, unsigned flags),
     (rt_ptsz(s), deps, edges, n, flags))
