/*
 * runtime/graph/glaunch.h: a launch of an executable graph as stream
 * work, shared by both drop-in libraries (cuGraphLaunch in
 * runtime/cuda/drv_graph.c, cudaGraphLaunch in runtime/cudart/
 * rt_graph.c), each with a copy of its own.
 *
 * A launch holds the executable copy as it is when launched
 * (gph_exec_hold: later updates of the executable graph change a copy
 * of their own, as CUDA says they affect only later launches) and runs
 * its nodes in their order (gph.h) through the library's own calls made
 * at once (glaunch_ops.run): on the device worker, host nodes on the
 * callback thread as host functions (CUDA runs both on a thread of its
 * own, not the device's); event record and wait nodes are the stream's
 * own records and waits, made at the launch (drv_enqueue_seq).  A graph instantiated to free on launch first
 * frees what its allocation nodes allocated, and the conditional
 * handles take their defaults (gcond.h).
 *
 * Errors are the library's (those of run and enqueue); a failing node
 * stops the launch.  Thread-safe: a launch is put on a stream by the
 * launching thread, run by the worker, and its last reference may go on
 * either.
 */
#ifndef PTXEMU_GRAPH_GLAUNCH_H
#define PTXEMU_GRAPH_GLAUNCH_H

#include "runtime/cuda/queue_table.h"
#include "runtime/graph/gph.h"

typedef struct glaunch glaunch;

typedef struct glaunch_ops {
    /* Runs node n (not a child graph, conditional or empty node) now on
     * the launch's stream s, as the library's own call would. */
    int (*run)(CUgraphNode n, void *s);
    /* Puts steps[0..n) on stream s one after another
     * (drv_enqueue_seq): each step's fr once it is done or dropped,
     * also when putting them there fails. */
    int (*enqueue)(void *s, const DrvStep *steps, size_t n);
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
