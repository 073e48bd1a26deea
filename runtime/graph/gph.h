/*
 * runtime/graph/gph.h: the CUDA graph that both drop-in libraries build
 * on: our libcuda.so.1 (cuGraph*, runtime/cuda/drv_graph.c) and our
 * libcudart.so.13 (cudaGraph*, runtime/cudart/rt_graph.c), each with a
 * copy of this code of its own.  A graph is its nodes in creation
 * order, each with the nodes it depends on; instantiating copies it and
 * fixes one order of its nodes that respects every dependency (Kahn's
 * algorithm, the earliest-created ready node first), and a launch runs
 * the nodes in that order on the one emulated device, as the same calls
 * made eagerly would.
 *
 * What a node does is the library's: its parameters are stored in the
 * node (p) by the graph's gph_ops.set, the kernel arguments copied with
 * gph_copy_args.  Child graph, conditional (gcond.h) and empty nodes are
 * handled here: a child graph node's parameters begin with the child's
 * CUgraph (both libraries' parameter unions start so).
 *
 * Errors: every function returns 0 or an error code of the calling
 * library.  Those made here are the GPH_E* values, on which CUresult and
 * cudaError_t agree (CUDA 11+ numbers them alike); set's own errors pass
 * through unchanged.  Not thread-safe: the caller serialises use of one
 * graph, as CUDA requires ("Graph objects are not internally
 * synchronized", CUDA programming guide).
 */
#ifndef PTXEMU_GRAPH_GPH_H
#define PTXEMU_GRAPH_GPH_H

#include <stddef.h>

#include "abi/cuda_abi.h"

enum {
    GPH_OK = 0,
    GPH_EINVAL = 1,             /* CUDA_ERROR_INVALID_VALUE */
    GPH_ENOMEM = 2,             /* CUDA_ERROR_OUT_OF_MEMORY */
    GPH_ESTATE = 401,           /* CUDA_ERROR_ILLEGAL_STATE */
    GPH_ENOTSUP = 801,          /* CUDA_ERROR_NOT_SUPPORTED */
    GPH_ECAP_UNSUPPORTED = 900, /* CUDA_ERROR_STREAM_CAPTURE_* */
    GPH_ECAP_INVALIDATED = 901,
    GPH_ECAP_MERGE = 902,
    GPH_ECAP_UNMATCHED = 903,
    GPH_ECAP_UNJOINED = 904,
    GPH_ECAP_IMPLICIT = 906,
    GPH_ECAPTURED_EVENT = 907,
    GPH_ECAP_WRONG_THREAD = 908,
    GPH_EUPDATE = 910           /* CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE */
};

/* Bytes of a node's parameters: room for either library's union. */
enum { GPH_PARAMS_SIZE = 256 };

typedef struct gph_ops {
    /* Checks the parameters *p of a node of `type` (a kernel, memcpy,
     * memset, host or event node) and stores them in n->p, the kernel
     * arguments through gph_copy_args; on failure n keeps its old
     * parameters. */
    int (*set)(CUgraphNode n, int type, const void *p);
} gph_ops;

/* A kernel node's launch attributes (gattr.h): values by attribute id,
 * and which were set. */
enum { GPH_NATTR = 17 };
typedef struct gph_attrs {
    CUlaunchAttributeValue v[GPH_NATTR];
    unsigned set;
} gph_attrs;

struct CUgraphNode_st {
    CUgraph graph;
    size_t index;               /* position in its graph */
    /* Creation number in its graph, kept by copies: what names the
     * node in an executable graph (indices move when nodes go). */
    unsigned long long uid;
    int type;                   /* CUgraphNodeType */
    CUgraphNode *deps;
    size_t ndeps, deps_cap;
    _Alignas(16) unsigned char p[GPH_PARAMS_SIZE];
    /* A kernel node's argument values: argv[i] points into args. */
    void **argv;
    unsigned char *args;
    gph_attrs *attrs;           /* NULL until one is set; copies keep it */
};

struct CUgraph_st {
    const void *owner;          /* the copy of this code that made it */
    /* Its number, never reused (gph_create): what names the graph an
     * executable graph was made from after that graph is gone, when a
     * new one may have its address. */
    unsigned long long id;
    const gph_ops *ops;
    CUgraphNode *nodes;
    size_t n, cap;
    unsigned long long next_uid;
    size_t *order;              /* set in an executable copy */
    /* An executable copy's counted references: its executable graph's
     * (while it is the current copy) and one per launch not yet done
     * (gph_exec_hold). */
    _Atomic unsigned refs;
    /* A graph with memory nodes: its one executable graph (CUDA allows
     * one at a time, gph_instantiate), NULL if none. */
    struct CUgraphExec_st *mem_exec;
    int owned;                  /* a child graph node's graph */
    /* A conditional node's body, or a graph inside one: it may hold
     * only what gph_body_ok allows. */
    int cond_body;
    /* The graph whose node holds this one (a child graph node's graph,
     * a conditional node's body), NULL for a graph of its own: which
     * graphs a conditional handle may be used in (gcond.c). */
    CUgraph parent;
};

struct CUgraphExec_st {
    CUgraph src;                /* the graph it was made (or last
                                 * updated) from: read only while mem */
    unsigned long long src_id;  /* src->id: whose node handles address
                                 * it (gph_exec_node) */
    CUgraph g;                  /* the executable copy */
    unsigned long long flags;   /* as instantiated */
    int mem;                    /* src->mem_exec is this one (src is
                                 * then alive: its destruction clears
                                 * this) */
};

/* A child graph node's graph. */
static inline CUgraph gph_child(CUgraphNode n)
{
    CUgraph c;
    __builtin_memcpy(&c, n->p, sizeof c);
    return c;
}

/* An event record or wait node's event (both libraries' parameter
 * unions hold it first too). */
static inline CUevent gph_event(CUgraphNode n)
{
    CUevent e;
    __builtin_memcpy(&e, n->p, sizeof e);
    return e;
}

/* Copies the values of fn's arguments, params[i] (their sizes from the
 * kernel's parameter list), into n, as CUDA does when a kernel node is
 * added or set: later changes to the caller's variables do not reach
 * the node.  *argv is the node's argument array. */
int gph_copy_args(CUgraphNode n, CUfunction fn, void **params,
                  void ***argv);

/* Whether a memset node's parameters are valid (cuGraphAddMemsetNode):
 * a destination, elements of 1, 2 or 4 bytes, and rows of width
 * elements that fit the pitch when there are several. */
static inline int gph_memset_ok(int have_dst, unsigned elem, size_t width,
                                size_t height, size_t pitch)
{
    return have_dst && (elem == 1 || elem == 2 || elem == 4)
           && (height <= 1 || pitch >= width * elem);
}

/* Whether a graph (a node's, an executable graph's) was made by this
 * library's copy of this code.  A graph of the other drop-in library,
 * handed over by a program that mixes runtime and driver calls, holds
 * the other's parameters: every function here refuses it (GPH_EINVAL),
 * as it does NULL. */
int gph_mine(CUgraph g);
int gph_node_mine(CUgraphNode n);
int gph_exec_mine(CUgraphExec x);

int gph_create(CUgraph *out, const gph_ops *ops);
int gph_destroy(CUgraph g);
/* A deep copy: the same nodes in the same order, creation numbers and
 * dependencies. */
int gph_clone(CUgraph *out, CUgraph g);
/* Whether g may be (or be inside) a conditional node's body: only
 * kernel, empty, child graph, memset, memcpy and conditional nodes,
 * recursively through its child graphs (CUDA Driver API,
 * CUDA_CONDITIONAL_NODE_PARAMS::phGraph_out). */
int gph_body_ok(CUgraph g);
/* The node of clone made from n (cudaGraphNodeFindInClone). */
int gph_find_in_clone(CUgraphNode *out, CUgraphNode n, CUgraph clone);
/* Graphs with memory nodes (CUDA Driver API, cuGraphAddMemFreeNode and
 * cuGraphAddMemAllocNode: "Nodes and edges of the graph cannot be
 * deleted", "The graph cannot be used in a child node"): gph_add of a
 * child graph node, gph_destroy_node and gph_remove_deps refuse them,
 * and gph_add a memory node in a child graph node's graph
 * (cuGraphChildGraphNodeGetGraph: "Allocation and free nodes cannot be
 * added to the returned graph"), all GPH_EINVAL, the only error those
 * functions document.  So no child graph holds memory nodes. */
/* Adds a node of `type` after the nd nodes deps of g (each an earlier
 * node of g, named once); *p is the library's parameters, copied. */
int gph_add(CUgraph g, CUgraphNode *out, const CUgraphNode *deps,
            size_t nd, int type, const void *p);
/* Replaces n's parameters (n keeps the old ones if they are refused). */
int gph_set(CUgraphNode n, int type, const void *p);
/* Copies n's parameters (size bytes) to out when n is of `type`. */
int gph_get(CUgraphNode n, int type, void *out, size_t size);
/* The node goes with every edge to and from it. */
int gph_destroy_node(CUgraphNode n);

/* Edges: from[i] -> to[i]; only default (zeroed) edge data. */
int gph_add_deps(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                 const CUgraphEdgeData *edges, size_t n);
int gph_remove_deps(CUgraph g, const CUgraphNode *from,
                    const CUgraphNode *to, const CUgraphEdgeData *edges,
                    size_t n);
/* Every edge, by the creation order of the dependent node, then of its
 * dependencies as added; counted when from is NULL. */
int gph_edges(CUgraph g, CUgraphNode *from, CUgraphNode *to,
              CUgraphEdgeData *edges, size_t *n);
/* Fills out[] with at most *n nodes (all, or only the roots), NULL
 * after the last, and sets *n to how many there are (or were written),
 * as cuGraphGetNodes. */
int gph_nodes(CUgraph g, CUgraphNode *out, size_t *n, int roots_only);
/* As gph_nodes, for a node's dependencies or dependents. */
int gph_node_deps(CUgraphNode n, CUgraphNode *out, CUgraphEdgeData *edges,
                  size_t *count);
int gph_node_dependents(CUgraphNode n, CUgraphNode *out,
                        CUgraphEdgeData *edges, size_t *count);
/* Whether every node of `nodes` is one of `from` or comes before one of
 * them (a capture's streams joined back into its origin). */
int gph_precedes(CUgraph g, const CUgraphNode *nodes, size_t n,
                 const CUgraphNode *from, size_t nfrom);

/* An executable copy of g (flags checked: device launch and node
 * priorities are not modelled, GPH_ENOTSUP).  A graph with memory
 * nodes (gmem.h) has at most one executable graph at a time (CUDA
 * Driver API, cuGraphInstantiate: "An attempt to instantiate a second
 * executable graph before destroying the first with cuGraphExecDestroy
 * will result in an error"; the error is not named there: GPH_EINVAL,
 * the only error cudaGraphInstantiate documents). */
int gph_instantiate(CUgraphExec *x, CUgraph g, unsigned long long flags);
/* A node of g on a cycle of dependencies, or the child graph node or
 * conditional node whose graph or body has one; NULL if none.  A cycle is what the CUDA Driver API calls
 * an invalid structure (cuGraphInstantiateWithParams: result_out
 * CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE, hErrNode_out "one of the
 * offending nodes"). */
CUgraphNode gph_cyclic(CUgraph g);
/* x goes; its executable copy goes once no launch holds it (CUDA:
 * an executable graph destroyed while in flight is freed on
 * completion). */
int gph_exec_destroy(CUgraphExec x);

/* Launches and updates.  CUDA: an update of an executable graph
 * (cuGraphExec*SetParams, cuGraphExecUpdate) affects only launches made
 * after it, never one already put on a stream.  A launch holds the
 * executable copy it runs, as it was at the launch (gph_exec_hold; it
 * lets go with gph_release, from any thread); the changes below make a
 * fresh copy first when a launch holds the current one (copy on write),
 * and change it in place otherwise. */
CUgraph gph_exec_hold(CUgraphExec x);
void gph_release(CUgraph g);
/* The executable copy's node for n, a node of the graph x was made (or
 * last updated) from, if it is of type t, to be changed; NULL otherwise
 * (or when the fresh copy could not be made). */
CUgraphNode gph_exec_node(CUgraphExec x, CUgraphNode n, int type);
/* Replaces the graph of a child graph node of x by a copy of child,
 * which must have the topology of the one it replaces. */
int gph_exec_child(CUgraphExec x, CUgraphNode n, CUgraph child);
/* cuGraphExecUpdate: g must have x's topology (else GPH_EUPDATE with
 * info saying why); x then runs a copy of g. */
int gph_exec_update(CUgraphExec x, CUgraph g,
                    CUgraphExecUpdateResultInfo *info);
/* Runs the nodes of an executable graph in its order, child graphs
 * recursively, empty nodes skipped: run(n, arg) for each other node;
 * stops at the first non-zero answer and returns it. */
int gph_run(CUgraph g, int (*run)(CUgraphNode n, void *arg), void *arg);

#endif
