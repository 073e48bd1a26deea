/*
 * runtime/graph/gph.c: the graph both drop-in libraries share
 * (contract in gph.h).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/graph/gcond.h"
#include "runtime/graph/gmem.h"
#include "runtime/graph/gph.h"

/* What marks this library's graphs (gph_mine). */
static const char owner_tag;

int gph_mine(CUgraph g)
{
    return g && g->owner == &owner_tag;
}

int gph_node_mine(CUgraphNode n)
{
    return n && gph_mine(n->graph);
}

int gph_exec_mine(CUgraphExec x)
{
    return x && gph_mine(x->g);
}

static void graph_free(CUgraph g);

static void node_free(CUgraphNode n)
{
    if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
        graph_free(gph_child(n));
    else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        gcond_node_free(n);
    free(n->deps);
    free(n->argv);
    free(n->args);
    free(n->attrs);
    free(n);
}

static void graph_free(CUgraph g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    gcond_graph_gone(g);
    free(g->nodes);
    free(g->order);
    free(g);
}

int gph_destroy(CUgraph g)
{
    if (!gph_mine(g))
        return GPH_EINVAL;
    if (g->mem_exec)
        g->mem_exec->mem = 0;       /* it lives on without its graph */
    graph_free(g);
    return GPH_OK;
}

int gph_create(CUgraph *out, const gph_ops *ops)
{
    if (!out)
        return GPH_EINVAL;
    *out = calloc(1, sizeof **out);
    if (!*out)
        return GPH_ENOMEM;
    static _Atomic unsigned long long last_id;
    (*out)->owner = &owner_tag;
    (*out)->ops = ops;
    (*out)->id = atomic_fetch_add(&last_id, 1) + 1;
    return GPH_OK;
}

static int push_dep(CUgraphNode n, CUgraphNode d)
{
    if (n->ndeps == n->deps_cap) {
        size_t c = n->deps_cap ? 2 * n->deps_cap : 4;
        CUgraphNode *p = realloc(n->deps, c * sizeof *p);
        if (!p)
            return -1;
        n->deps = p;
        n->deps_cap = c;
    }
    n->deps[n->ndeps++] = d;
    return 0;
}

static int has_dep(CUgraphNode n, CUgraphNode d)
{
    for (size_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == d)
            return 1;
    return 0;
}

int gph_copy_args(CUgraphNode n, CUfunction fn, void **params,
                  void ***argv_out)
{
    size_t count = 0, total = 0, off, size;
    while (cuFuncGetParamInfo(fn, count, &off, &size) == CUDA_SUCCESS) {
        if (off + size > total)
            total = off + size;
        count++;
    }
    if (count && !params)
        return GPH_EINVAL;
    void **argv = calloc(count ? count : 1, sizeof *argv);
    unsigned char *args = calloc(total ? total : 1, 1);
    if (!argv || !args) {
        free(argv);
        free(args);
        return GPH_ENOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        (void)cuFuncGetParamInfo(fn, i, &off, &size);
        if (!params[i]) {
            free(argv);
            free(args);
            return GPH_EINVAL;
        }
        memcpy(args + off, params[i], size);
        argv[i] = args + off;
    }
    free(n->argv);
    free(n->args);
    n->argv = argv;
    n->args = args;
    *argv_out = argv;
    return GPH_OK;
}

/* ---------------------------------------------------------- nodes */

static int body_allows(int type)
{
    return type == CU_GRAPH_NODE_TYPE_KERNEL ||
           type == CU_GRAPH_NODE_TYPE_EMPTY ||
           type == CU_GRAPH_NODE_TYPE_GRAPH ||
           type == CU_GRAPH_NODE_TYPE_MEMSET ||
           type == CU_GRAPH_NODE_TYPE_MEMCPY ||
           type == CU_GRAPH_NODE_TYPE_CONDITIONAL;
}

int gph_body_ok(CUgraph g)
{
    for (size_t i = 0; i < g->n; i++) {
        CUgraphNode n = g->nodes[i];
        if (!body_allows(n->type))
            return 0;
        if (n->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            CUgraph child;
            memcpy(&child, n->p, sizeof child);
            if (!gph_body_ok(child))
                return 0;
        }
    }
    return 1;
}

/* Checks and stores a node's parameters: child graph and empty nodes
 * here (the node embeds a copy of the child graph, as CUDA clones it),
 * the others by the library. */
static int set_params(CUgraph g, CUgraphNode n, int type, const void *p)
{
    switch (type) {
    case CU_GRAPH_NODE_TYPE_GRAPH: {
        CUgraph child, copy;
        memcpy(&child, p, sizeof child);
        if (!child || (gph_mine(child) && gmem_graph_has_mem(child)) ||
            (g->cond_body && gph_mine(child) && !gph_body_ok(child)))
            return GPH_EINVAL;
        int e = gph_clone(&copy, child);
        if (e == GPH_OK) {
            copy->owned = 1;
            copy->cond_body = g->cond_body;
            copy->parent = g;
            n->type = type;
            memcpy(n->p, &copy, sizeof copy);
        }
        return e;
    }
    case CU_GRAPH_NODE_TYPE_EMPTY:
        n->type = type;
        return GPH_OK;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return gcond_node_set(g, n, p);
    default: {
        int e = g->ops->set(n, type, p);
        if (e == GPH_OK)
            n->type = type;
        return e;
    }
    }
}

static int append(CUgraph g, CUgraphNode n)
{
    if (g->n == g->cap) {
        size_t c = g->cap ? 2 * g->cap : 16;
        CUgraphNode *p = realloc(g->nodes, c * sizeof *p);
        if (!p)
            return GPH_ENOMEM;
        g->nodes = p;
        g->cap = c;
    }
    n->graph = g;
    n->index = g->n;
    n->uid = g->next_uid++;
    g->nodes[g->n++] = n;
    return GPH_OK;
}

/* A new node, type -1 until its parameters are set (nothing to free). */
static CUgraphNode node_new(void)
{
    CUgraphNode n = calloc(1, sizeof *n);
    if (n)
        n->type = -1;
    return n;
}

int gph_add(CUgraph g, CUgraphNode *out, const CUgraphNode *deps,
            size_t nd, int type, const void *p)
{
    if (!gph_mine(g) || !out || !p || (nd && !deps))
        return GPH_EINVAL;
    if (g->owned && (type == CU_GRAPH_NODE_TYPE_MEM_ALLOC
                     || type == CU_GRAPH_NODE_TYPE_MEM_FREE))
        return GPH_EINVAL;
    if (g->cond_body && !body_allows(type))
        return GPH_EINVAL;
    CUgraphNode n = node_new();
    if (!n)
        return GPH_ENOMEM;
    int e = GPH_OK;
    for (size_t i = 0; i < nd && e == GPH_OK; i++) {
        if (!deps[i] || deps[i]->graph != g || has_dep(n, deps[i]))
            e = GPH_EINVAL;
        else if (push_dep(n, deps[i]))
            e = GPH_ENOMEM;
    }
    if (e == GPH_OK)
        e = set_params(g, n, type, p);
    if (e == GPH_OK)
        e = append(g, n);
    if (e != GPH_OK) {
        node_free(n);
        return e;
    }
    *out = n;
    return GPH_OK;
}

int gph_set(CUgraphNode n, int type, const void *p)
{
    if (!gph_node_mine(n) || !p || n->type != type)
        return GPH_EINVAL;
    return set_params(n->graph, n, type, p);
}

int gph_get(CUgraphNode n, int type, void *out, size_t size)
{
    if (!gph_node_mine(n) || !out || n->type != type || size > sizeof n->p)
        return GPH_EINVAL;
    memcpy(out, n->p, size);
    return GPH_OK;
}

/* ---------------------------------------------------------- graphs */

/* Nodes first, then the dependencies by index: an edge added later may
 * point forwards. */
int gph_clone(CUgraph *out, CUgraph g)
{
    if (!out || !gph_mine(g))
        return GPH_EINVAL;
    CUgraph c;
    int e = gph_create(&c, g->ops);
    if (e != GPH_OK)
        return e;
    for (size_t i = 0; i < g->n && e == GPH_OK; i++) {
        CUgraphNode n = node_new();
        e = n ? set_params(c, n, g->nodes[i]->type, g->nodes[i]->p)
              : GPH_ENOMEM;
        if (e == GPH_OK && g->nodes[i]->attrs) {
            n->attrs = malloc(sizeof *n->attrs);
            if (n->attrs)
                *n->attrs = *g->nodes[i]->attrs;
            else
                e = GPH_ENOMEM;
        }
        if (e == GPH_OK)
            e = append(c, n);
        if (e == GPH_OK)
            n->uid = g->nodes[i]->uid;
        else if (n)
            node_free(n);
    }
    c->next_uid = g->next_uid;
    for (size_t i = 0; i < g->n && e == GPH_OK; i++) {
        CUgraphNode s = g->nodes[i];
        for (size_t d = 0; d < s->ndeps && e == GPH_OK; d++)
            if (push_dep(c->nodes[i], c->nodes[s->deps[d]->index]))
                e = GPH_ENOMEM;
    }
    if (e != GPH_OK) {
        graph_free(c);
        return e;
    }
    *out = c;
    return GPH_OK;
}

/* The node of g with creation number uid, or NULL.  Copies keep the
 * creation order, so the numbers increase: a binary search. */
static CUgraphNode find_uid(CUgraph g, unsigned long long uid)
{
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->nodes[mid]->uid < uid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->n && g->nodes[lo]->uid == uid ? g->nodes[lo] : NULL;
}

int gph_find_in_clone(CUgraphNode *out, CUgraphNode n, CUgraph clone)
{
    if (!out || !gph_node_mine(n) || !gph_mine(clone) || n->graph == clone)
        return GPH_EINVAL;
    *out = find_uid(clone, n->uid);
    return *out ? GPH_OK : GPH_EINVAL;
}

static int edge_is_default(const CUgraphEdgeData *e)
{
    static const CUgraphEdgeData zero;
    return memcmp(e, &zero, sizeof zero) == 0;
}

int gph_add_deps(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                 const CUgraphEdgeData *edges, size_t n)
{
    if (!gph_mine(g) || (n && (!from || !to)))
        return GPH_EINVAL;
    /* All checked first: a failing call adds no edge. */
    for (size_t i = 0; i < n; i++) {
        if (!from[i] || !to[i] || from[i]->graph != g || to[i]->graph != g
            || from[i] == to[i] || has_dep(to[i], from[i]))
            return GPH_EINVAL;
        /* Only full-completion edges (ports and programmatic
         * dependencies are not modelled). */
        if (edges && !edge_is_default(&edges[i]))
            return GPH_ENOTSUP;
        for (size_t j = 0; j < i; j++)
            if (from[j] == from[i] && to[j] == to[i])
                return GPH_EINVAL;
    }
    for (size_t i = 0; i < n; i++)
        if (push_dep(to[i], from[i]))
            return GPH_ENOMEM;
    return GPH_OK;
}

static void drop_dep(CUgraphNode n, CUgraphNode d)
{
    for (size_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == d) {
            memmove(&n->deps[i], &n->deps[i + 1],
                    (n->ndeps - i - 1) * sizeof *n->deps);
            n->ndeps--;
            return;
        }
}

int gph_remove_deps(CUgraph g, const CUgraphNode *from,
                    const CUgraphNode *to, const CUgraphEdgeData *edges,
                    size_t n)
{
    if (!gph_mine(g) || (n && (!from || !to)) || gmem_graph_has_mem(g))
        return GPH_EINVAL;
    for (size_t i = 0; i < n; i++) {
        if (!from[i] || !to[i] || to[i]->graph != g
            || !has_dep(to[i], from[i]))
            return GPH_EINVAL;
        if (edges && !edge_is_default(&edges[i]))
            return GPH_EINVAL;
    }
    for (size_t i = 0; i < n; i++)
        drop_dep(to[i], from[i]);
    return GPH_OK;
}

int gph_edges(CUgraph g, CUgraphNode *from, CUgraphNode *to,
              CUgraphEdgeData *edges, size_t *n)
{
    if (!gph_mine(g) || !n || (!from != !to) || (edges && !from))
        return GPH_EINVAL;
    size_t have = 0;
    for (size_t i = 0; i < g->n; i++)
        for (size_t d = 0; d < g->nodes[i]->ndeps; d++, have++)
            if (from && have < *n) {
                from[have] = g->nodes[i]->deps[d];
                to[have] = g->nodes[i];
                if (edges)
                    memset(&edges[have], 0, sizeof *edges);
            }
    if (from) {
        for (size_t i = have; i < *n; i++) {
            from[i] = to[i] = NULL;
            if (edges)
                memset(&edges[i], 0, sizeof *edges);
        }
        if (have > *n)
            have = *n;
    }
    *n = have;
    return GPH_OK;
}

int gph_destroy_node(CUgraphNode n)
{
    if (!gph_node_mine(n) || gmem_graph_has_mem(n->graph))
        return GPH_EINVAL;
    CUgraph g = n->graph;
    for (size_t i = 0; i < g->n; i++)
        drop_dep(g->nodes[i], n);
    memmove(&g->nodes[n->index], &g->nodes[n->index + 1],
            (g->n - n->index - 1) * sizeof *g->nodes);
    g->n--;
    for (size_t i = n->index; i < g->n; i++)
        g->nodes[i]->index = i;
    node_free(n);
    return GPH_OK;
}

/* The nodes of g that `pick` accepts (all when NULL), into out[] as
 * gph_nodes says, default edge data alongside when edges. */
static void list(CUgraph g, int (*pick)(CUgraphNode, CUgraphNode),
                 CUgraphNode ref, CUgraphNode *out, CUgraphEdgeData *edges,
                 size_t *count)
{
    size_t have = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (pick && !pick(g->nodes[i], ref))
            continue;
        if (out && have < *count) {
            out[have] = g->nodes[i];
            if (edges)
                memset(&edges[have], 0, sizeof *edges);
        }
        have++;
    }
    if (out) {
        for (size_t i = have; i < *count; i++) {
            out[i] = NULL;
            if (edges)
                memset(&edges[i], 0, sizeof *edges);
        }
        if (have > *count)
            have = *count;
    }
    *count = have;
}

static int is_root(CUgraphNode n, CUgraphNode ref)
{
    (void)ref;
    return n->ndeps == 0;
}

static int depends_on(CUgraphNode n, CUgraphNode ref)
{
    return has_dep(n, ref);
}

int gph_nodes(CUgraph g, CUgraphNode *out, size_t *n, int roots_only)
{
    if (!gph_mine(g) || !n)
        return GPH_EINVAL;
    list(g, roots_only ? is_root : NULL, NULL, out, NULL, n);
    return GPH_OK;
}

int gph_node_deps(CUgraphNode n, CUgraphNode *out, CUgraphEdgeData *edges,
                  size_t *count)
{
    if (!gph_node_mine(n) || !count || (edges && !out))
        return GPH_EINVAL;
    if (!out) {
        *count = n->ndeps;
        return GPH_OK;
    }
    for (size_t i = 0; i < *count; i++) {
        out[i] = i < n->ndeps ? n->deps[i] : NULL;
        if (edges)
            memset(&edges[i], 0, sizeof edges[i]);
    }
    if (*count > n->ndeps)
        *count = n->ndeps;
    return GPH_OK;
}

int gph_node_dependents(CUgraphNode n, CUgraphNode *out,
                        CUgraphEdgeData *edges, size_t *count)
{
    if (!gph_node_mine(n) || !count || (edges && !out))
        return GPH_EINVAL;
    list(n->graph, depends_on, n, out, edges, count);
    return GPH_OK;
}

int gph_precedes(CUgraph g, const CUgraphNode *nodes, size_t n,
                 const CUgraphNode *from, size_t nfrom)
{
    if (n == 0)
        return 1;
    unsigned char *seen = calloc(g->n ? g->n : 1, 1);
    CUgraphNode *stack = malloc((g->n ? g->n : 1) * sizeof *stack);
    int ok = seen && stack;
    size_t top = 0;
    /* Nodes of other graphs (handed to a capture by the caller) precede
     * nothing here and are preceded by nothing. */
    for (size_t i = 0; ok && i < nfrom; i++)
        if (from[i]->graph == g && !seen[from[i]->index]) {
            seen[from[i]->index] = 1;
            stack[top++] = from[i];
        }
    while (ok && top) {
        CUgraphNode x = stack[--top];
        for (size_t d = 0; d < x->ndeps; d++)
            if (!seen[x->deps[d]->index]) {
                seen[x->deps[d]->index] = 1;
                stack[top++] = x->deps[d];
            }
    }
    for (size_t i = 0; ok && i < n; i++)
        ok = nodes[i]->graph == g && seen[nodes[i]->index];
    free(seen);
    free(stack);
    return ok;
}

/* ------------------------------------------------- instantiation */

/* Orders g and, recursively, its child graphs: Kahn's algorithm taking
 * the earliest-created ready node each time, so that the order is the
 * creation order wherever the dependencies allow.  A cycle leaves
 * nodes unordered: GPH_EINVAL. */
static int graph_order(CUgraph g)
{
    size_t n = g->n;
    free(g->order);
    g->order = malloc((n ? n : 1) * sizeof *g->order);
    size_t *pending = calloc(n ? n : 1, sizeof *pending);
    unsigned char *done = calloc(n ? n : 1, 1);
    int e = g->order && pending && done ? GPH_OK : GPH_ENOMEM;
    for (size_t i = 0; e == GPH_OK && i < n; i++)
        pending[i] = g->nodes[i]->ndeps;
    /* Each pass takes the first ready node: O(n^2 + edges), which is
     * small next to running the nodes. */
    for (size_t k = 0; e == GPH_OK && k < n; k++) {
        size_t pick = n;
        for (size_t i = 0; i < n && pick == n; i++)
            if (!done[i] && pending[i] == 0)
                pick = i;
        if (pick == n) {
            e = GPH_EINVAL;         /* a cycle */
            break;
        }
        done[pick] = 1;
        g->order[k] = pick;
        CUgraphNode p = g->nodes[pick];
        for (size_t i = 0; i < n; i++)
            for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
                if (g->nodes[i]->deps[d] == p)
                    pending[i]--;
    }
    for (size_t i = 0; e == GPH_OK && i < n; i++)
        if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_GRAPH)
            e = graph_order(gph_child(g->nodes[i]));
        else if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
            e = gcond_node_each(g->nodes[i], graph_order);
    free(pending);
    free(done);
    return e;
}

/* An ordered copy of g. */
static int ordered_copy(CUgraph *out, CUgraph g)
{
    int e = gph_clone(out, g);
    if (e == GPH_OK && (e = graph_order(*out)) != GPH_OK)
        graph_free(*out);
    return e;
}

/* gcond_node_each's test: a body with a cycle. */
static int body_cyclic(CUgraph body)
{
    return gph_cyclic(body) != NULL;
}

CUgraphNode gph_cyclic(CUgraph g)
{
    if (!gph_mine(g))
        return NULL;
    size_t n = g->n;
    unsigned char *done = calloc(n ? n : 1, 1);
    if (!done)
        return NULL;
    /* Kahn's algorithm: what it cannot order lies on a cycle or after
     * one, and each such node has a dependency left unordered */
    for (int again = 1; again;) {
        again = 0;
        for (size_t i = 0; i < n; i++) {
            CUgraphNode m = g->nodes[i];
            size_t d = 0;
            while (!done[i] && d < m->ndeps && done[m->deps[d]->index])
                d++;
            if (!done[i] && d == m->ndeps) {
                done[i] = 1;
                again = 1;
            }
        }
    }
    CUgraphNode bad = NULL;
    for (size_t i = 0; i < n && !bad; i++)
        if (!done[i])
            bad = g->nodes[i];
    /* n steps back along unordered dependencies end on the cycle */
    for (size_t k = 0; bad && k < n; k++)
        for (size_t d = 0; d < bad->ndeps; d++)
            if (!done[bad->deps[d]->index]) {
                bad = bad->deps[d];
                break;
            }
    free(done);
    for (size_t i = 0; i < n && !bad; i++)
        if ((g->nodes[i]->type == CU_GRAPH_NODE_TYPE_GRAPH &&
             gph_cyclic(gph_child(g->nodes[i]))) ||
            (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_CONDITIONAL &&
             gcond_node_each(g->nodes[i], body_cyclic)))
            bad = g->nodes[i];
    return bad;
}

int gph_instantiate(CUgraphExec *x, CUgraph g, unsigned long long flags)
{
    if (!x || !gph_mine(g))
        return GPH_EINVAL;
    /* Device launch and node priorities are not modelled; freeing on
     * launch and uploading have nothing to act on. */
    if (flags & ~(unsigned long long)(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH
                                     | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD))
        return flags & (CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH
                        | CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY)
                   ? GPH_ENOTSUP : GPH_EINVAL;
    int mem = gmem_graph_has_mem(g);
    if (mem && g->mem_exec)
        return GPH_EINVAL;          /* one executable graph at a time */
    CUgraphExec ex = calloc(1, sizeof *ex);
    if (!ex)
        return GPH_ENOMEM;
    int e = ordered_copy(&ex->g, g);
    if (e != GPH_OK) {
        free(ex);
        return e;
    }
    atomic_init(&ex->g->refs, 1);
    ex->src = g;
    ex->src_id = g->id;
    /* cuGraphExecGetFlags: "CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD will not
     * be returned by this API as it does not affect the resulting
     * executable graph". */
    ex->flags = flags & ~(unsigned long long)CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
    if (mem) {
        g->mem_exec = ex;
        ex->mem = 1;
    }
    *x = ex;
    return GPH_OK;
}

CUgraph gph_exec_hold(CUgraphExec x)
{
    atomic_fetch_add(&x->g->refs, 1);
    return x->g;
}

void gph_release(CUgraph g)
{
    if (g && atomic_fetch_sub(&g->refs, 1) == 1)
        graph_free(g);
}

int gph_exec_destroy(CUgraphExec x)
{
    if (!gph_exec_mine(x))
        return GPH_EINVAL;
    if (x->mem)
        x->src->mem_exec = NULL;
    gph_release(x->g);
    free(x);
    return GPH_OK;
}

/* Makes x's executable copy its own before a change: a fresh copy when
 * a launch holds the current one (the launch keeps running the old). */
static int exec_private(CUgraphExec x)
{
    if (atomic_load(&x->g->refs) == 1)
        return GPH_OK;
    CUgraph c;
    int e = ordered_copy(&c, x->g);
    if (e != GPH_OK)
        return e;
    atomic_init(&c->refs, 1);
    gph_release(x->g);
    x->g = c;
    return GPH_OK;
}

CUgraphNode gph_exec_node(CUgraphExec x, CUgraphNode n, int type)
{
    /* By number, not address: the graph may be gone and another made
     * at its address, whose nodes are not x's. */
    CUgraphNode c = gph_exec_mine(x) && n && n->graph->id == x->src_id
                        ? find_uid(x->g, n->uid) : NULL;
    if (!c || c->type != type || exec_private(x) != GPH_OK)
        return NULL;
    return find_uid(x->g, n->uid);
}

int gph_run(CUgraph g, int (*run)(CUgraphNode n, void *arg), void *arg)
{
    for (size_t i = 0; i < g->n; i++) {
        CUgraphNode n = g->nodes[g->order[i]];
        int e = GPH_OK;
        if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
            e = gph_run(gph_child(n), run, arg);
        else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
            e = gcond_node_run(n, run, arg);
        else if (n->type != CU_GRAPH_NODE_TYPE_EMPTY)
            e = run(n, arg);
        if (e != GPH_OK)
            return e;
    }
    return GPH_OK;
}

/* ----------------------------------------------------------- updates */

/* Whether g has the topology of the executable copy x: as many nodes,
 * of the same types, with the same dependencies, child graphs alike.
 * Otherwise fills info with why. */
static int same_shape(CUgraph x, CUgraph g, CUgraphExecUpdateResultInfo *info)
{
    if (x->n != g->n) {
        info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
        return 0;
    }
    for (size_t i = 0; i < g->n; i++) {
        CUgraphNode a = x->nodes[i], b = g->nodes[i];
        info->errorNode = b;
        if (a->type != b->type) {
            info->result = CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
            return 0;
        }
        if (a->ndeps != b->ndeps) {
            info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
            return 0;
        }
        for (size_t d = 0; d < b->ndeps; d++) {
            int found = 0;
            for (size_t k = 0; k < a->ndeps && !found; k++)
                found = a->deps[k]->index == b->deps[d]->index;
            if (!found) {
                info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
                info->errorFromNode = b->deps[d];
                return 0;
            }
        }
        if (b->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            CUgraphExecUpdateResultInfo sub = { 0, NULL, NULL };
            if (!same_shape(gph_child(a), gph_child(b), &sub)) {
                info->result = sub.result;
                return 0;
            }
        }
    }
    info->errorNode = NULL;
    return 1;
}

int gph_exec_child(CUgraphExec x, CUgraphNode n, CUgraph child)
{
    CUgraphNode c = gph_mine(child)
                        ? gph_exec_node(x, n, CU_GRAPH_NODE_TYPE_GRAPH)
                        : NULL;
    if (!c)
        return GPH_EINVAL;
    CUgraphExecUpdateResultInfo info = { 0, NULL, NULL };
    if (!same_shape(gph_child(c), child, &info))
        return GPH_EINVAL;
    CUgraph copy;
    int e = ordered_copy(&copy, child);
    if (e != GPH_OK)
        return e;
    graph_free(gph_child(c));
    memcpy(c->p, &copy, sizeof copy);
    return GPH_OK;
}

int gph_exec_update(CUgraphExec x, CUgraph g,
                    CUgraphExecUpdateResultInfo *info)
{
    if (!gph_exec_mine(x) || !gph_mine(g) || !info)
        return GPH_EINVAL;
    info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
    info->errorNode = NULL;
    info->errorFromNode = NULL;
    if (!same_shape(x->g, g, info))
        return GPH_EUPDATE;
    CUgraph c;
    int e = ordered_copy(&c, g);
    if (e != GPH_OK) {
        info->result = CU_GRAPH_EXEC_UPDATE_ERROR;
        return e == GPH_ENOMEM ? e : GPH_EUPDATE;
    }
    atomic_init(&c->refs, 1);
    gph_release(x->g);
    x->g = c;
    if (x->mem)
        x->src->mem_exec = NULL;
    x->src = g;
    x->src_id = g->id;
    x->mem = gmem_graph_has_mem(g) && !g->mem_exec;
    if (x->mem)
        g->mem_exec = x;
    return GPH_OK;
}
