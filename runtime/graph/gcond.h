/*
 * runtime/graph/gcond.h: conditional graph nodes (CUDA programming
 * guide, "Conditional Graph Nodes": if/else, while and switch bodies
 * chosen at run time by a condition value that kernels set with
 * cudaGraphSetConditional), shared by both drop-in libraries.
 *
 * A conditional handle (cudaGraphConditionalHandleCreate) is the device
 * address of a 32-bit cell of page-locked memory holding the condition:
 * the device runtime's cudaGraphSetConditional(handle, v) stores v
 * there (emu/devrt.h).  The cell gets the handle's default value when
 * made and, with cudaGraphCondAssignDefault, at each launch of a graph
 * whose conditional nodes use it (clones included); it goes when the
 * graph it was made for is destroyed.
 *
 * A conditional node owns its body graphs (made empty with the node,
 * for the program to fill; copies of the node copy them).  When it runs
 * it reads the cell: if: body 0 when non-zero, else body 1 if there is
 * one; while: body 0 again and again while non-zero, checked before each
 * pass; switch: body v when v < size, else none.
 *
 * Errors are gph.h's.  Not thread-safe beyond what gph.h says of graphs
 * (the handle list has its own lock).
 */
#ifndef PTXEMU_GRAPH_GCOND_H
#define PTXEMU_GRAPH_GCOND_H

#include "runtime/graph/gph.h"

enum { GCOND_IF = 0, GCOND_WHILE = 1, GCOND_SWITCH = 2 };
enum { GCOND_ASSIGN_DEFAULT = 1 };

/* A conditional node's parameters, at the start of the node's p (both
 * libraries' and CUDA's layout up to phGraph_out, which is bodies). */
typedef struct gph_cond {
    unsigned long long handle;
    int type;                   /* GCOND_* */
    unsigned size;              /* bodies */
    CUgraph *bodies;
} gph_cond;

/* cudaGraphConditionalHandleCreate for graph g. */
int gcond_handle_create(unsigned long long *out, CUgraph g, unsigned dflt,
                        unsigned flags);
/* Graph g is destroyed: its handles go once no conditional node (of an
 * executable copy) names them any more; their cells serve later handles
 * (nothing here waits for the device). */
void gcond_graph_gone(CUgraph g);
/* A launch of the executable graph g: the handles its conditional nodes
 * use (at any depth) that were made with GCOND_ASSIGN_DEFAULT take their
 * defaults. */
void gcond_launch(CUgraph g);

/* gph.c's share of conditional nodes: storing the parameters *p (new
 * empty bodies when p->bodies is NULL, else copies of them), freeing,
 * calling fn on each body until one returns non-zero (gph.c's
 * instantiation order, its cycle search), running.  A new node (no
 * bodies given) must use a handle made for its graph g or for a graph
 * that holds g at any depth, through child graph nodes and conditional
 * bodies (CUDA Driver API, cuGraphConditionalHandleCreate: "The
 * conditional handle must be associated with a conditional node in this
 * graph or one of its children"), else GPH_EINVAL; copies keep theirs. */
int gcond_node_set(CUgraph g, CUgraphNode n, const gph_cond *p);
void gcond_node_free(CUgraphNode n);
int gcond_node_each(CUgraphNode n, int (*fn)(CUgraph));
int gcond_node_run(CUgraphNode n, int (*run)(CUgraphNode, void *),
                   void *arg);

#endif
