/*
 * runtime/graph/gcap.h: stream capture, shared by our libcuda.so.1
 * (cuStreamBeginCapture ..., runtime/cuda/drv_capture.c) and our
 * libcudart.so.13 (cudaStreamBeginCapture ..., rt_capture.c), each with
 * its own copy and its own captures.  While a stream captures, the work
 * issued to it becomes nodes of the capture's graph (gph.h) instead of
 * running: each after the stream's current dependencies (its last node,
 * or the nodes an event wait joined in), CUDA's "capture sequence".  An
 * event recorded on a capturing stream stands for the stream's
 * dependencies at that point; another stream waiting for it joins the
 * capture (a fork) or merges those dependencies into its own (a join).
 *
 * The library names a stream by a gcap_stream: a key (the per-thread
 * default stream is an address of the calling thread's own, so that a
 * capture of it takes only that thread's work), whether it is the
 * legacy stream, and whether the legacy stream synchronises with it
 * (every stream but the non-blocking ones).  The legacy stream cannot
 * capture; while a blocking stream captures, work on the legacy stream
 * would depend on the capture: it fails with ..._IMPLICIT and
 * invalidates the capture (CUDA programming guide, "Prohibited and
 * Unhandled Operations").
 *
 * Errors are gph.h's GPH_E* (both libraries' codes); every function is
 * thread-safe (one lock per library).
 */
#ifndef PTXEMU_GRAPH_GCAP_H
#define PTXEMU_GRAPH_GCAP_H

#include "runtime/graph/gph.h"

typedef struct gcap_stream {
    void *key;
    int legacy;
    int blocking;
} gcap_stream;

/* Begins a capture of s into graph (a new one with ops, owned by the
 * capture, when NULL), the first work depending on the n nodes deps
 * (default edge data only); mode a CUstreamCaptureMode. */
int gcap_begin(gcap_stream s, CUgraph graph, const gph_ops *ops,
               const CUgraphNode *deps, const CUgraphEdgeData *edges,
               size_t n, int mode);
/* Ends the capture that s began: *g its graph, or NULL and the error
 * (invalidated, unjoined streams); other streams' ..._UNMATCHED.  g may
 * be NULL for a capture into the caller's graph. */
int gcap_end(gcap_stream s, CUgraph *g);
/* The capture status of s (CUstreamCaptureStatus) and, while active,
 * its id, graph and current dependencies (valid until the stream's
 * next capture call); any may be NULL but status.  On the legacy
 * stream: ..._IMPLICIT while a blocking stream captures. */
int gcap_info(gcap_stream s, int *status, unsigned long long *id,
              CUgraph *graph, const CUgraphNode **deps,
              const CUgraphEdgeData **edges, size_t *ndeps);
/* cuThreadExchangeStreamCaptureMode. */
int gcap_exchange_mode(int *mode);
/* Replaces (flags 1) or extends (flags 0) the nodes the next captured
 * work of s depends on. */
int gcap_update_deps(gcap_stream s, const CUgraphNode *deps,
                     const CUgraphEdgeData *edges, size_t n,
                     unsigned flags);

/* Work issued to s: when s captures (or is the legacy stream while a
 * blocking one captures), sets *taken and returns the result of adding
 * a node doing *p; otherwise *taken = 0 and GPH_OK, and the caller
 * runs the work. */
int gcap_node(gcap_stream s, int type, const void *p, int *taken);
/* As gcap_node for a kernel launched with the launch attributes at[nat]
 * that a kernel node takes (gattr.h: cooperative, cluster dimension ...),
 * which the node keeps. */
int gcap_kernel(gcap_stream s, int type, const void *p,
                const CUlaunchAttribute *at, unsigned nat, int *taken);
/* Event record and wait (fork and join), as gcap_node.  A wait with
 * `external` (CU_EVENT_WAIT_EXTERNAL, cudaEventWaitExternal) on an
 * event recorded outside the capture is an event wait node (CUDA
 * Driver API, cuStreamWaitEvent: "Event is captured in the graph as an
 * external event node when performing stream capture"). */
int gcap_record(void *ev, gcap_stream s, int *taken);
int gcap_wait(gcap_stream s, void *ev, int external, int *taken);
/* The event is destroyed. */
void gcap_forget(void *ev);
/* GPH_ECAPTURED_EVENT if ev was recorded in a capture still going on:
 * it stands for graph nodes, not for work to wait on. */
int gcap_event_check(void *ev);
/* Synchronising with a capturing stream invalidates its capture:
 * GPH_ECAP_UNSUPPORTED (the legacy stream: ..._IMPLICIT). */
int gcap_sync(gcap_stream s);
/* Stream s is destroyed.  A stream forked into a capture leaves it
 * (CUDA lets a program destroy such a stream before the capture ends):
 * the work it captured stays, and the capture still ends with
 * ..._UNJOINED unless that work was joined back into the origin.  The
 * origin stream of a capture is not destroyed: GPH_ECAP_UNSUPPORTED,
 * the capture invalidated. */
int gcap_stream_gone(gcap_stream s);
/* A potentially unsafe call (a blocking copy, an allocation ...) while
 * a capture forbids it (the cudaStreamCaptureMode rules): the capture
 * is invalidated and the call fails with GPH_ECAP_UNSUPPORTED. */
int gcap_unsafe(void);

#endif
