/*
 * runtime/graph/gcond.c: conditional graph nodes (contract in gcond.h).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/graph/gcond.h"

/* A handle lives while its graph does or any conditional node names it:
 * an executable graph keeps working after its source graph is destroyed
 * (instantiate, then destroy the graph, is the usual pattern), and its
 * conditional nodes are copies that name the source graph's handles. */
typedef struct Handle {
    unsigned long long addr;    /* the cell; the handle's value */
    CUgraph graph;              /* NULL once that graph is destroyed */
    unsigned dflt, flags;
    unsigned nodes;             /* conditional nodes naming it */
    struct Handle *next;
} Handle;

static pthread_mutex_t cond_lock = PTHREAD_MUTEX_INITIALIZER;
static Handle *handles;

static Handle *find(unsigned long long h)
{
    for (Handle *k = handles; k; k = k->next)
        if (k->addr == h)
            return k;
    return NULL;
}

/* The cell of a live handle, or NULL (a forged handle, or its memory
 * freed by a device reset): never dereferenced unless the driver still
 * knows it as an allocation starting there. */
static uint32_t *cell(unsigned long long h)
{
    CUdeviceptr base = 0;
    size_t size = 0;
    if (!h || cuMemGetAddressRange_v2(&base, &size, (CUdeviceptr)h)
                   != CUDA_SUCCESS || base != h || size < 4)
        return NULL;
    return (uint32_t *)(uintptr_t)h;
}

/* Handles nothing names any more (cond_lock): their cells serve later
 * handles instead of being freed.  cuMemFreeHost waits for the device,
 * and neither destroying a graph or an executable graph (which CUDA
 * does not make wait) nor freeing a node (done also where the queue's
 * lock is held, at the end of a launch) may; the cells are the
 * context's page-locked memory and go with it. */
static Handle *spare;

/* Moves k (cond_lock held) to the spares when nothing keeps it. */
static void bury_if_unused(Handle *k)
{
    if (k->graph || k->nodes)
        return;
    for (Handle **l = &handles; *l; l = &(*l)->next) {
        if (*l == k) {
            *l = k->next;
            k->next = spare;
            spare = k;
            return;
        }
    }
}

/* A spare handle whose cell the driver still knows (a device reset
 * frees the cells), or NULL (cond_lock held). */
static Handle *take_spare(void)
{
    while (spare) {
        Handle *k = spare;
        spare = k->next;
        if (cell(k->addr))
            return k;
        free(k);
    }
    return NULL;
}

int gcond_handle_create(unsigned long long *out, CUgraph g, unsigned dflt,
                        unsigned flags)
{
    if (!out || !gph_mine(g) || (flags & ~(unsigned)GCOND_ASSIGN_DEFAULT))
        return GPH_EINVAL;
    pthread_mutex_lock(&cond_lock);
    Handle *k = take_spare();
    pthread_mutex_unlock(&cond_lock);
    if (!k) {
        void *c = NULL;
        /* Page-locked memory: the device writes it, the host reads it. */
        k = calloc(1, sizeof *k);
        if (!k || cuMemAllocHost_v2(&c, sizeof(uint32_t)) != CUDA_SUCCESS) {
            free(k);
            return GPH_ENOMEM;
        }
        k->addr = (unsigned long long)(uintptr_t)c;
    }
    *(uint32_t *)(uintptr_t)k->addr = dflt;
    k->graph = g;
    k->dflt = dflt;
    k->flags = flags;
    k->nodes = 0;
    pthread_mutex_lock(&cond_lock);
    k->next = handles;
    handles = k;
    pthread_mutex_unlock(&cond_lock);
    *out = k->addr;
    return GPH_OK;
}

void gcond_graph_gone(CUgraph g)
{
    pthread_mutex_lock(&cond_lock);
    for (Handle *k = handles, *nx; k; k = nx) {
        nx = k->next;
        if (k->graph == g) {
            k->graph = NULL;
            bury_if_unused(k);
        }
    }
    pthread_mutex_unlock(&cond_lock);
}

/* The handles of g's conditional nodes, in bodies and child graphs at
 * any depth, with GCOND_ASSIGN_DEFAULT take their defaults (cond_lock
 * held). */
static void assign_defaults(CUgraph g)
{
    for (size_t i = 0; i < g->n; i++) {
        CUgraphNode n = g->nodes[i];
        if (n->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            assign_defaults(gph_child(n));
            continue;
        }
        if (n->type != CU_GRAPH_NODE_TYPE_CONDITIONAL)
            continue;
        gph_cond c;
        memcpy(&c, n->p, sizeof c);
        Handle *k = find(c.handle);
        uint32_t *p = k && (k->flags & GCOND_ASSIGN_DEFAULT) ? cell(k->addr)
                                                             : NULL;
        if (p)
            *p = k->dflt;
        for (unsigned b = 0; b < c.size; b++)
            assign_defaults(c.bodies[b]);
    }
}

void gcond_launch(CUgraph g)
{
    pthread_mutex_lock(&cond_lock);
    assign_defaults(g);
    pthread_mutex_unlock(&cond_lock);
}

/* ------------------------------------------------------------ nodes */

/* Whether g is h or lies inside h (a child graph node's graph or a
 * conditional body, at any depth). */
static int within(CUgraph g, CUgraph h)
{
    for (; g; g = g->parent)
        if (g == h)
            return 1;
    return 0;
}

int gcond_node_set(CUgraph g, CUgraphNode n, const gph_cond *p)
{
    pthread_mutex_lock(&cond_lock);
    Handle *h = find(p->handle);
    int known = h && (p->bodies || within(g, h->graph));
    pthread_mutex_unlock(&cond_lock);
    if (!known || n->type != -1 || !p->size ||
        (p->type == GCOND_IF && p->size > 2) ||
        (p->type == GCOND_WHILE && p->size != 1) ||
        (p->type != GCOND_IF && p->type != GCOND_WHILE &&
         p->type != GCOND_SWITCH))
        return GPH_EINVAL;
    gph_cond c = *p;
    c.bodies = calloc(c.size, sizeof *c.bodies);
    if (!c.bodies)
        return GPH_ENOMEM;
    int e = GPH_OK;
    for (unsigned b = 0; b < c.size && e == GPH_OK; b++) {
        if (p->bodies && !gph_body_ok(p->bodies[b]))
            e = GPH_EINVAL;
        else
            e = p->bodies ? gph_clone(&c.bodies[b], p->bodies[b])
                          : gph_create(&c.bodies[b], g->ops);
        if (e == GPH_OK) {
            c.bodies[b]->cond_body = 1;
            c.bodies[b]->parent = g;
        }
    }
    if (e != GPH_OK) {
        for (unsigned b = 0; b < c.size; b++)
            if (c.bodies[b])
                (void)gph_destroy(c.bodies[b]);
        free(c.bodies);
        return e;
    }
    pthread_mutex_lock(&cond_lock);
    Handle *k = find(p->handle);
    if (k)
        k->nodes++;
    pthread_mutex_unlock(&cond_lock);
    if (!k) {                   /* its graph went meanwhile */
        for (unsigned b = 0; b < c.size; b++)
            (void)gph_destroy(c.bodies[b]);
        free(c.bodies);
        return GPH_EINVAL;
    }
    n->type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    memcpy(n->p, &c, sizeof c);
    return GPH_OK;
}

void gcond_node_free(CUgraphNode n)
{
    gph_cond c;
    memcpy(&c, n->p, sizeof c);
    for (unsigned b = 0; b < c.size; b++)
        (void)gph_destroy(c.bodies[b]);
    free(c.bodies);
    pthread_mutex_lock(&cond_lock);
    Handle *k = find(c.handle);
    if (k && k->nodes) {
        k->nodes--;
        bury_if_unused(k);
    }
    pthread_mutex_unlock(&cond_lock);
}

int gcond_node_each(CUgraphNode n, int (*fn)(CUgraph))
{
    gph_cond c;
    memcpy(&c, n->p, sizeof c);
    int e = 0;
    for (unsigned b = 0; b < c.size && e == 0; b++)
        e = fn(c.bodies[b]);
    return e;
}

int gcond_node_run(CUgraphNode n, int (*run)(CUgraphNode, void *),
                   void *arg)
{
    gph_cond c;
    memcpy(&c, n->p, sizeof c);
    for (;;) {
        pthread_mutex_lock(&cond_lock);
        uint32_t *p = find(c.handle) ? cell(c.handle) : NULL;
        uint32_t v = p ? *p : 0;
        pthread_mutex_unlock(&cond_lock);
        if (!p)
            return GPH_EINVAL;      /* its graph (and cell) are gone */
        CUgraph body = NULL;
        if (c.type == GCOND_SWITCH)
            body = v < c.size ? c.bodies[v] : NULL;
        else if (v)
            body = c.bodies[0];
        else if (c.type == GCOND_IF && c.size == 2)
            body = c.bodies[1];
        if (!body)
            return GPH_OK;
        int e = gph_run(body, run, arg);
        if (e != GPH_OK || c.type != GCOND_WHILE)
            return e;
    }
}
