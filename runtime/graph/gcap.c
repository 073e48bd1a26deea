/*
 * runtime/graph/gcap.c: stream capture, shared by both drop-in
 * libraries (contract in gcap.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/graph/gattr.h"
#include "runtime/graph/gcap.h"

/* One capture sequence. */
typedef struct cap {
    CUgraph graph;
    int owned;                  /* made by the capture, not the caller's */
    void *origin;               /* the key of the stream that began it */
    int mode;                   /* CUstreamCaptureMode */
    int status;                 /* CUstreamCaptureStatus */
    unsigned long long id;
    pthread_t thread;
} cap;

/* A set of nodes: a stream's or an event's dependencies. */
typedef struct deps {
    CUgraphNode *v;
    CUgraphEdgeData *edges;     /* zeroed, for the capture info */
    size_t n, cap;
} deps;

/* A stream taking part in a capture (handle: its key), or an event
 * recorded in one. */
typedef struct member {
    void *handle;
    cap *cap;
    int blocking;               /* a stream that the legacy one waits for */
    deps deps;
    struct member *next;
} member;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static member *streams, *events;
static unsigned long long next_id = 1;
static __thread int thread_mode;        /* CU_STREAM_CAPTURE_MODE_GLOBAL */

static int deps_add(deps *d, CUgraphNode n)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->v[i] == n)
            return 0;
    if (d->n == d->cap) {
        size_t c = d->cap ? 2 * d->cap : 4;
        CUgraphNode *v = realloc(d->v, c * sizeof *v);
        if (!v)
            return -1;
        d->v = v;
        CUgraphEdgeData *e = realloc(d->edges, c * sizeof *e);
        if (!e)
            return -1;
        d->edges = e;
        d->cap = c;
    }
    memset(&d->edges[d->n], 0, sizeof *d->edges);
    d->v[d->n++] = n;
    return 0;
}

static int deps_copy(deps *to, const deps *from)
{
    to->n = 0;
    for (size_t i = 0; i < from->n; i++)
        if (deps_add(to, from->v[i]))
            return -1;
    return 0;
}

static member **find(member **list, const void *h)
{
    for (member **m = list; *m; m = &(*m)->next)
        if ((*m)->handle == h)
            return m;
    return NULL;
}

static void unlink_free(member **m)
{
    member *x = *m;
    *m = x->next;
    free(x->deps.v);
    free(x->deps.edges);
    free(x);
}

static member *add_member(member **list, void *h, cap *c)
{
    member *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->handle = h;
    m->cap = c;
    m->next = *list;
    *list = m;
    return m;
}

/* The capturing stream s (under the lock), NULL if none. */
static member *stream_of(gcap_stream s)
{
    member **m = s.legacy ? NULL : find(&streams, s.key);
    return m ? *m : NULL;
}

/* Use of the legacy stream while a blocking stream captures (under the
 * lock): ..._IMPLICIT, and with `invalidate` those captures are
 * invalidated. */
static int legacy_use(int invalidate)
{
    int e = GPH_OK;
    for (member *m = streams; m; m = m->next)
        if (m->blocking && m->cap->status == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
            e = GPH_ECAP_IMPLICIT;
            if (invalidate)
                m->cap->status = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
        }
    return e;
}

static int edges_default(const CUgraphEdgeData *edges, size_t n)
{
    static const CUgraphEdgeData zero;
    for (size_t i = 0; edges && i < n; i++)
        if (memcmp(&edges[i], &zero, sizeof zero) != 0)
            return 0;
    return 1;
}

/* --------------------------------------------------------- beginning */

int gcap_begin(gcap_stream s, CUgraph graph, const gph_ops *ops,
               const CUgraphNode *dv, const CUgraphEdgeData *edges,
               size_t n, int mode)
{
    if ((unsigned)mode > CU_STREAM_CAPTURE_MODE_RELAXED || (n && !dv)
        || !edges_default(edges, n))
        return GPH_EINVAL;
    if (graph && !gph_mine(graph))
        return GPH_EINVAL;
    if (s.legacy)
        return GPH_ECAP_UNSUPPORTED;
    cap *c = calloc(1, sizeof *c);
    if (!c)
        return GPH_ENOMEM;
    c->owned = !graph;
    if (c->owned && gph_create(&graph, ops) != GPH_OK) {
        free(c);
        return GPH_ENOMEM;
    }
    c->graph = graph;
    c->origin = s.key;
    c->mode = mode;
    c->status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
    c->thread = pthread_self();
    int e = GPH_OK;
    pthread_mutex_lock(&lock);
    member *m = NULL;
    if (find(&streams, s.key))
        e = GPH_ESTATE;                 /* already capturing */
    else if (!(m = add_member(&streams, s.key, c)))
        e = GPH_ENOMEM;
    else
        m->blocking = s.blocking;
    for (size_t i = 0; e == GPH_OK && i < n; i++)
        if (!dv[i])
            e = GPH_EINVAL;
        else if (deps_add(&m->deps, dv[i]))
            e = GPH_ENOMEM;
    if (e == GPH_OK)
        c->id = next_id++;
    else if (m)
        unlink_free(find(&streams, s.key));
    pthread_mutex_unlock(&lock);
    if (e != GPH_OK) {
        if (c->owned)
            gph_destroy(c->graph);
        free(c);
    }
    return e;
}

/* ------------------------------------------------------------ ending */

/* Whether every stream that joined c has been joined back into the
 * origin: each of its dependencies precedes the origin's. */
static int all_joined(cap *c, const member *origin)
{
    for (member *m = streams; m; m = m->next)
        if (m->cap == c && m != origin
            && !gph_precedes(c->graph, m->deps.v, m->deps.n,
                             origin->deps.v, origin->deps.n))
            return 0;
    return 1;
}

/* Drops every stream and event of c (under the lock). */
static void drop_members(cap *c)
{
    member **lists[2] = { &streams, &events };
    for (int l = 0; l < 2; l++)
        for (member **m = lists[l]; *m;) {
            if ((*m)->cap == c)
                unlink_free(m);
            else
                m = &(*m)->next;
        }
}

int gcap_end(gcap_stream s, CUgraph *g)
{
    pthread_mutex_lock(&lock);
    member *m = stream_of(s);
    cap *c = m ? m->cap : NULL;
    int e = GPH_OK;
    /* A capture into the caller's graph (cudaStreamBeginCaptureToGraph)
     * may end without asking for it back (NVIDIA's graphConditionalNodes
     * sample passes NULL). */
    if (!g && (!c || c->owned))
        e = GPH_EINVAL;
    else if (!c)
        e = GPH_ESTATE;
    else if (c->origin != s.key)
        e = GPH_ECAP_UNMATCHED;
    else if (c->mode != CU_STREAM_CAPTURE_MODE_RELAXED
             && !pthread_equal(c->thread, pthread_self()))
        e = GPH_ECAP_WRONG_THREAD;
    if (e != GPH_OK) {
        pthread_mutex_unlock(&lock);
        return e;
    }
    if (c->status == CU_STREAM_CAPTURE_STATUS_INVALIDATED)
        e = GPH_ECAP_INVALIDATED;
    else if (!all_joined(c, m))
        e = GPH_ECAP_UNJOINED;
    drop_members(c);
    pthread_mutex_unlock(&lock);
    if (e != GPH_OK && c->owned)
        gph_destroy(c->graph);
    if (g)
        *g = e == GPH_OK ? c->graph : NULL;
    free(c);
    return e;
}

/* ----------------------------------------------------------- queries */

int gcap_info(gcap_stream s, int *status, unsigned long long *id,
              CUgraph *graph, const CUgraphNode **dv,
              const CUgraphEdgeData **edges, size_t *ndeps)
{
    if (!status)
        return GPH_EINVAL;
    pthread_mutex_lock(&lock);
    int e = s.legacy ? legacy_use(0) : GPH_OK;
    member *m = stream_of(s);
    *status = m ? m->cap->status : CU_STREAM_CAPTURE_STATUS_NONE;
    if (m && m->cap->status == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
        if (id)
            *id = m->cap->id;
        if (graph)
            *graph = m->cap->graph;
        if (dv)
            *dv = m->deps.v;
        if (edges)
            *edges = m->deps.edges;
        if (ndeps)
            *ndeps = m->deps.n;
    }
    pthread_mutex_unlock(&lock);
    return e;
}

int gcap_exchange_mode(int *mode)
{
    if (!mode || (unsigned)*mode > CU_STREAM_CAPTURE_MODE_RELAXED)
        return GPH_EINVAL;
    int old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return GPH_OK;
}

int gcap_update_deps(gcap_stream s, const CUgraphNode *dv,
                     const CUgraphEdgeData *edges, size_t n, unsigned flags)
{
    if (flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES || (n && !dv)
        || !edges_default(edges, n))
        return GPH_EINVAL;
    int e = GPH_OK;
    pthread_mutex_lock(&lock);
    member *m = stream_of(s);
    if (!m || m->cap->status != CU_STREAM_CAPTURE_STATUS_ACTIVE) {
        e = GPH_ESTATE;
    } else {
        if (flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES)
            m->deps.n = 0;
        for (size_t i = 0; i < n && e == GPH_OK; i++)
            if (!dv[i])
                e = GPH_EINVAL;
            else if (deps_add(&m->deps, dv[i]))
                e = GPH_ENOMEM;
    }
    pthread_mutex_unlock(&lock);
    return e;
}

/* ---------------------------------------------------- captured work */

int gcap_node(gcap_stream s, int type, const void *p, int *taken)
{
    return gcap_kernel(s, type, p, NULL, 0, taken);
}

int gcap_kernel(gcap_stream s, int type, const void *p,
                const CUlaunchAttribute *at, unsigned nat, int *taken)
{
    *taken = 0;
    pthread_mutex_lock(&lock);
    member *m = stream_of(s);
    int e = s.legacy ? legacy_use(1) : GPH_OK;
    if (e != GPH_OK) {
        *taken = 1;
    } else if (m) {
        *taken = 1;
        CUgraphNode n;
        if (m->cap->status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
            e = GPH_ECAP_INVALIDATED;
        else if ((e = gph_add(m->cap->graph, &n, m->deps.v, m->deps.n,
                              type, p)) == GPH_OK) {
            m->deps.n = 0;
            if (deps_add(&m->deps, n))
                e = GPH_ENOMEM;
            /* The launch's attributes, checked by the launch already
             * (no access-policy window among them). */
            for (unsigned i = 0; i < nat && e == GPH_OK; i++)
                if (at[i].id != CU_LAUNCH_ATTRIBUTE_IGNORE)
                    e = gattr_node_set(n, at[i].id, &at[i].value, 0);
        }
    }
    pthread_mutex_unlock(&lock);
    return e;
}

int gcap_record(void *ev, gcap_stream s, int *taken)
{
    *taken = 0;
    pthread_mutex_lock(&lock);
    int e = s.legacy ? legacy_use(1) : GPH_OK;
    member *sm = stream_of(s);
    member **ep = find(&events, ev);
    if (e != GPH_OK) {
        *taken = 1;
    } else if (!sm) {
        /* Recorded outside any capture: no longer a captured event. */
        if (ep)
            unlink_free(ep);
    } else {
        *taken = 1;
        member *m = ep ? *ep : add_member(&events, ev, sm->cap);
        if (m)
            m->cap = sm->cap;       /* a re-record may change capture */
        if (!m || deps_copy(&m->deps, &sm->deps))
            e = GPH_ENOMEM;
    }
    pthread_mutex_unlock(&lock);
    return e;
}

int gcap_wait(gcap_stream s, void *ev, int external, int *taken)
{
    *taken = 0;
    pthread_mutex_lock(&lock);
    int e = s.legacy ? legacy_use(1) : GPH_OK;
    member *sm = stream_of(s);
    member **ep = find(&events, ev);
    if (e != GPH_OK) {
        *taken = 1;
    } else if (ep) {
        member *evm = *ep;
        *taken = 1;
        if (sm && sm->cap != evm->cap) {
            e = GPH_ECAP_MERGE;
        } else if (s.legacy) {
            /* The legacy stream cannot join a capture. */
            e = GPH_ECAP_IMPLICIT;
        } else if (!sm) {
            /* A fork: s joins the capture after the event's nodes. */
            member *m = add_member(&streams, s.key, evm->cap);
            if (!m || deps_copy(&m->deps, &evm->deps))
                e = GPH_ENOMEM;
            else
                m->blocking = s.blocking;
        } else {
            /* A join: s now also waits for the event's nodes. */
            for (size_t i = 0; i < evm->deps.n && e == GPH_OK; i++)
                if (deps_add(&sm->deps, evm->deps.v[i]))
                    e = GPH_ENOMEM;
        }
    } else if (sm && external) {
        /* An event recorded outside the capture, waited for by the
         * graph: an event wait node (added below, gcap_node locks). */
        pthread_mutex_unlock(&lock);
        return gcap_node(s, CU_GRAPH_NODE_TYPE_WAIT_EVENT, &ev, taken);
    } else if (sm) {
        /* An event recorded outside the capture, without
         * CU_EVENT_WAIT_EXTERNAL: not a dependency of the capture's
         * nodes (CUDA programming guide, stream capture: cross-stream
         * dependencies are made by events recorded in the capture), so
         * the wait adds nothing to the graph. */
        *taken = 1;
    }
    pthread_mutex_unlock(&lock);
    return e;
}

void gcap_forget(void *ev)
{
    pthread_mutex_lock(&lock);
    member **ep = find(&events, ev);
    if (ep)
        unlink_free(ep);
    pthread_mutex_unlock(&lock);
}

int gcap_event_check(void *ev)
{
    pthread_mutex_lock(&lock);
    int captured = find(&events, ev) != NULL;
    pthread_mutex_unlock(&lock);
    return captured ? GPH_ECAPTURED_EVENT : GPH_OK;
}

/* ------------------------------------------------ forbidden calls */

int gcap_sync(gcap_stream s)
{
    pthread_mutex_lock(&lock);
    int e = s.legacy ? legacy_use(1) : GPH_OK;
    member *m = stream_of(s);
    if (m) {
        m->cap->status = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
        e = GPH_ECAP_UNSUPPORTED;
    }
    pthread_mutex_unlock(&lock);
    return e;
}

int gcap_stream_gone(gcap_stream s)
{
    pthread_mutex_lock(&lock);
    member *m = stream_of(s);
    int e = GPH_OK;
    if (m && m->cap->origin == s.key) {
        m->cap->status = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
        e = GPH_ECAP_UNSUPPORTED;
    } else if (m) {
        /* Its work stays in the capture, and so does the check that it
         * was joined back: under a key no stream can have. */
        m->handle = m;
    }
    pthread_mutex_unlock(&lock);
    return e;
}

/* The capture mode rules (cuThreadExchangeStreamCaptureMode): under
 * the thread's mode Relaxed nothing is forbidden; under ThreadLocal,
 * what the thread's own non-relaxed captures forbid; under Global,
 * also what other threads' Global captures forbid. */
static int forbids(const cap *c)
{
    if (thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED
        || c->status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
        return 0;
    if (pthread_equal(c->thread, pthread_self()))
        return c->mode != CU_STREAM_CAPTURE_MODE_RELAXED;
    return thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL
           && c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL;
}

int gcap_unsafe(void)
{
    int e = GPH_OK;
    pthread_mutex_lock(&lock);
    for (member *m = streams; m; m = m->next)
        if (m->handle == m->cap->origin && forbids(m->cap)) {
            m->cap->status = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
            e = GPH_ECAP_UNSUPPORTED;
        }
    pthread_mutex_unlock(&lock);
    return e;
}
