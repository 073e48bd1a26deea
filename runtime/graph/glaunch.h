/*
 * runtime/graph/glaunch.h: a launch of an executable graph as stream
 * work, shared by both drop-in libraries (cuGraphLaunch in
 * runtime/cuda/drv_graph.c, cudaGraphLaunch in runtime/cudart/
 * rt_graph.c), each with a copy of its own.
 *
 * A launch holds the executable copy as it is when launched
 * (gph_exec_hold: later updates of the executable graph change a copy
 * of their own, as CUDA says they affect only later launches) and runs
 * its nodes in their order (gph.h) on the device worker, through the
 * library's own calls made at once there (glaunch_ops.run); a graph
 * instantiated to free on launch first frees what its allocation nodes
 * allocated, and the conditional handles take their defaults (gcond.h).
 *
 * Errors are the library's (those of run and enqueue); a failing node
 * stops the launch.  Thread-safe: a launch is put on a stream by the
 * launching thread, run by the worker, and its last reference may go on
 * either.
 */
#ifndef PTXEMU_GRAPH_GLAUNCH_H
#define PTXEMU_GRAPH_GLAUNCH_H

#include "runtime/graph/gph.h"

typedef struct glaunch glaunch;

typedef struct glaunch_ops {
    /* Runs node n (not a child graph, conditional or empty node) now on
     * the launch's stream s, as the library's own call would. */
    int (*run)(CUgraphNode n, void *s);
    /* Puts fn(arg) on stream s, in stream order (drv_enqueue with a
     * pointer argument): fr(arg) once it is done or dropped, also when
     * putting it there fails. */
    int (*enqueue)(void *s, CUresult (*fn)(void *), void *arg,
                   void (*fr)(void *));
} glaunch_ops;

/* Puts a launch of x on stream s.  With `keep`, *out is the launch,
 * which the caller lets go of with glaunch_put once it has waited for
 * it (glaunch_result), and a failure of the graph is not the stream's
 * (not returned by the item) but the launch's; without, *out is left
 * alone (out may be NULL). */
int glaunch_start(CUgraphExec x, void *s, const glaunch_ops *ops, int keep,
                  glaunch **out);
/* The launch's result once it has run: 0 or the first failing node's
 * error. */
int glaunch_result(const glaunch *l);
void glaunch_put(glaunch *l);

#endif
