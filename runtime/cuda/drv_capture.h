/*
 * runtime/cuda/drv_capture.h: stream capture and graphs in the drop-in
 * driver (drv_capture.c, drv_graph.c) over the shared graph and capture
 * code (runtime/graph/gph.h, gcap.h).  The files that enqueue work on a
 * stream (drv_launch.c, drv_mem.c, drv_array.c, drv_stream.c) ask here
 * first: while the stream captures, the work becomes a graph node and
 * is not run (CUDA Driver API, "Stream Management": cuStreamBeginCapture).
 */
#ifndef PTXEMU_CUDA_DRV_CAPTURE_H
#define PTXEMU_CUDA_DRV_CAPTURE_H

#include "runtime/cuda/drv.h"

/* What one driver graph node does (a node's p): the kernel arguments
 * are the node's own copies (gph_copy_args); child graph first, as
 * gph.h requires. */
typedef union drv_node_params {
    CUgraph child;
    CUDA_KERNEL_NODE_PARAMS kernel;
    CUDA_MEMCPY3D memcpy;
    CUDA_MEMSET_NODE_PARAMS memset;
    CUDA_HOST_NODE_PARAMS host;
    CUevent event;
    struct {                            /* memory allocation nodes */
        CUDA_MEM_ALLOC_NODE_PARAMS a;
        CUmemAccessDesc desc;           /* a.accessDescs[0], if any */
    } alloc;
    CUdeviceptr free_ptr;               /* memory free nodes */
} drv_node_params;

/* How the driver's nodes take their parameters. */
extern const struct gph_ops drv_graph_ops;

/* Work on stream s (CU_STREAM_PER_THREAD: the calling thread's
 * per-thread default stream, what 0 given to a _ptsz entry point
 * means, drv_ptsz.c): when s captures, adds a
 * node of `type` doing *p, sets *taken and returns the result;
 * otherwise *taken = 0 and CUDA_SUCCESS.  A kernel node's kernelParams
 * are copied. */
CUresult drv_capture_node(CUstream s, int type,
                          const drv_node_params *p, int *taken);
/* A kernel launch on s with the launch attributes at[nat] the node
 * keeps (cooperative, cluster dimension), as drv_capture_node. */
CUresult drv_capture_kernel(CUstream s, const drv_node_params *p,
                            const CUlaunchAttribute *at, unsigned nat,
                            int *taken);
/* Event record and wait on s, as drv_capture_node. */
CUresult drv_capture_record(CUevent ev, CUstream s, int *taken);
CUresult drv_capture_wait(CUstream s, CUevent ev, unsigned flags,
                          int *taken);
/* The event is destroyed. */
void drv_capture_forget(CUevent ev);
/* CUDA_ERROR_CAPTURED_EVENT if ev stands for nodes of a capture still
 * going on (cuEventQuery, cuEventSynchronize). */
CUresult drv_capture_event_check(CUevent ev);
/* Synchronising with s (cuStreamSynchronize, cuStreamQuery): an error, and the capture
 * invalidated, if s captures or is the legacy stream while a blocking
 * stream captures. */
CUresult drv_capture_sync(CUstream s);
/* cuStreamDestroy(s) (gcap_stream_gone): a stream forked into a capture
 * leaves it; the origin of one is refused with
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, the capture invalidated. */
CUresult drv_capture_stream_gone(CUstream s);
/* The capture status of s (CUstreamCaptureStatus). */
int drv_capture_status(CUstream s);
/* A call that a capture's mode forbids (an allocation, a free, a
 * device-wide synchronisation): CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
 * and the capture invalidated where the mode says so. */
CUresult drv_capture_unsafe(void);

/* Graph memory nodes (drv_graph_mem.c): checks an allocation node's
 * pool properties and access descriptors, and reserves its address
 * unless p->alloc.a.dptr has one already (a copy of a node). */
CUresult drv_graph_alloc_set(drv_node_params *p);
/* Frees a if it is a live graph allocation (1), fails (-1) if it is one
 * no longer live, 0 if it is none. */
int drv_graph_mem_free(CUdeviceptr a);

#endif
