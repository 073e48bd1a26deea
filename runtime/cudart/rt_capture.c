/*
 * runtime/cudart/rt_capture.c: stream capture.  While a stream
 * captures, the work issued to it becomes nodes of the capture's graph
 * instead of running: each after the stream's current dependencies (its
 * last node, or the nodes an event wait joined in), as CUDA's
 * "capture sequence".  An event recorded on a capturing stream stands
 * for the stream's dependencies at that point; another stream waiting
 * for it joins the capture (a fork) or merges those dependencies into
 * its own (a join), as CUDA's samples do.
 *
 * The per-thread default stream (cudaStreamPerThread, or 0 given to a
 * _ptsz entry point) is a different stream in every host thread: a
 * capture of it takes only the capturing thread's work.  The legacy
 * stream synchronises with every blocking stream, so while one of those
 * captures, work on the legacy stream would depend on the capture: it
 * fails with cudaErrorStreamCaptureImplicit and invalidates the capture
 * (CUDA programming guide, "Prohibited and Unhandled Operations";
 * cudaStreamIsCapturing's documentation for the query).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"

/* One capture sequence. */
typedef struct rt_cap {
    cudaGraph_t graph;
    int owned;                  /* made by the capture, not the caller's */
    void *origin;               /* key_of() the stream that began it */
    enum cudaStreamCaptureMode mode;
    enum cudaStreamCaptureStatus status;
    unsigned long long id;
    pthread_t thread;
} rt_cap;

/* A set of nodes: a stream's or an event's dependencies. */
typedef struct rt_deps {
    cudaGraphNode_t *v;
    cudaGraphEdgeData *edges;   /* zeroed, for cudaStreamGetCaptureInfo */
    size_t n, cap;
} rt_deps;

/* A stream taking part in a capture (handle: its key_of()), or an event
 * recorded in one. */
typedef struct rt_member {
    void *handle;
    rt_cap *cap;
    int blocking;               /* a stream that the legacy one waits for */
    rt_deps deps;
    struct rt_member *next;
} rt_member;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static rt_member *streams, *events;
static unsigned long long next_id = 1;
static __thread enum cudaStreamCaptureMode thread_mode;   /* Global */

static int deps_add(rt_deps *d, cudaGraphNode_t n)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->v[i] == n)
            return 0;
    if (d->n == d->cap) {
        size_t c = d->cap ? 2 * d->cap : 4;
        cudaGraphNode_t *v = realloc(d->v, c * sizeof *v);
        if (!v)
            return -1;
        d->v = v;
        cudaGraphEdgeData *e = realloc(d->edges, c * sizeof *e);
        if (!e)
            return -1;
        d->edges = e;
        d->cap = c;
    }
    memset(&d->edges[d->n], 0, sizeof *d->edges);
    d->v[d->n++] = n;
    return 0;
}

static int deps_copy(rt_deps *to, const rt_deps *from)
{
    to->n = 0;
    for (size_t i = 0; i < from->n; i++)
        if (deps_add(to, from->v[i]))
            return -1;
    return 0;
}

static rt_member **find(rt_member **list, const void *h)
{
    for (rt_member **m = list; *m; m = &(*m)->next)
        if ((*m)->handle == h)
            return m;
    return NULL;
}

static void unlink_free(rt_member **m)
{
    rt_member *x = *m;
    *m = x->next;
    free(x->deps.v);
    free(x->deps.edges);
    free(x);
}

static rt_member *add_member(rt_member **list, void *h, rt_cap *cap)
{
    rt_member *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->handle = h;
    m->cap = cap;
    m->next = *list;
    *list = m;
    return m;
}

/* The legacy stream (and 0) cannot capture: it synchronises with every
 * other blocking stream. */
static int is_legacy(cudaStream_t s)
{
    return s == NULL || s == cudaStreamLegacy;
}

/* What identifies a stream here: the per-thread default stream is an
 * address of the calling thread's own. */
static __thread char per_thread_stream;

static void *key_of(cudaStream_t s)
{
    return s == cudaStreamPerThread ? (void *)&per_thread_stream
                                    : (void *)s;
}

/* Whether the legacy stream synchronises with s (every stream but the
 * cudaStreamNonBlocking ones; the per-thread default stream too). */
static int is_blocking(cudaStream_t s)
{
    unsigned fl = 0;
    if (s == cudaStreamPerThread)
        return 1;
    return cuStreamGetFlags(rt_stream(s), &fl) != CUDA_SUCCESS
           || !(fl & CU_STREAM_NON_BLOCKING);
}

/* Use of the legacy stream while a blocking stream captures (under the
 * lock): cudaErrorStreamCaptureImplicit, and with `invalidate` those
 * captures are invalidated. */
static cudaError_t legacy_use(int invalidate)
{
    cudaError_t e = cudaSuccess;
    for (rt_member *m = streams; m; m = m->next)
        if (m->blocking
            && m->cap->status == cudaStreamCaptureStatusActive) {
            e = cudaErrorStreamCaptureImplicit;
            if (invalidate)
                m->cap->status = cudaStreamCaptureStatusInvalidated;
        }
    return e;
}

/* --------------------------------------------------------- beginning */

/* Begins a capture of s into graph (a new one, owned, when NULL),
 * the first work depending on deps. */
static cudaError_t begin(cudaStream_t s, cudaGraph_t graph,
                         const cudaGraphNode_t *deps,
                         const cudaGraphEdgeData *edges, size_t n,
                         enum cudaStreamCaptureMode mode)
{
    static const cudaGraphEdgeData zero;
    if ((unsigned)mode > cudaStreamCaptureModeRelaxed || (n && !deps))
        return rt_err(cudaErrorInvalidValue);
    for (size_t i = 0; edges && i < n; i++)
        if (memcmp(&edges[i], &zero, sizeof zero) != 0)
            return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (is_legacy(s))
        return rt_err(cudaErrorStreamCaptureUnsupported);
    int blocking = is_blocking(s);
    void *key = key_of(s);
    rt_cap *cap = calloc(1, sizeof *cap);
    if (!cap)
        return rt_err(cudaErrorMemoryAllocation);
    cap->owned = !graph;
    if (cap->owned && cudaGraphCreate(&graph, 0) != cudaSuccess) {
        free(cap);
        return rt_err(cudaErrorMemoryAllocation);
    }
    cap->graph = graph;
    cap->origin = key;
    cap->mode = mode;
    cap->status = cudaStreamCaptureStatusActive;
    cap->thread = pthread_self();
    pthread_mutex_lock(&lock);
    rt_member *m = NULL;
    if (find(&streams, key))
        e = cudaErrorIllegalState;      /* already capturing */
    else if (!(m = add_member(&streams, key, cap)))
        e = cudaErrorMemoryAllocation;
    else
        m->blocking = blocking;
    for (size_t i = 0; e == cudaSuccess && i < n; i++)
        if (!deps[i])
            e = cudaErrorInvalidValue;
        else if (deps_add(&m->deps, deps[i]))
            e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess)
        cap->id = next_id++;
    else if (m)
        unlink_free(find(&streams, key));
    pthread_mutex_unlock(&lock);
    if (e != cudaSuccess) {
        if (cap->owned)
            cudaGraphDestroy(cap->graph);
        free(cap);
    }
    return rt_err(e);
}

RT_API cudaError_t cudaStreamBeginCapture(cudaStream_t s,
                                          enum cudaStreamCaptureMode mode)
{
    return begin(s, NULL, NULL, NULL, 0, mode);
}

/* Captures into an existing graph, after the nodes deps of it. */
RT_API cudaError_t
cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g,
                              const cudaGraphNode_t *deps,
                              const cudaGraphEdgeData *edges, size_t n,
                              enum cudaStreamCaptureMode mode)
{
    if (!g)
        return rt_err(cudaErrorInvalidValue);
    return begin(s, g, deps, edges, n, mode);
}

/* ------------------------------------------------------------ ending */

/* Whether every stream that joined cap has been joined back into the
 * origin: each of its dependencies precedes the origin's. */
static int all_joined(rt_cap *cap, const rt_member *origin)
{
    for (rt_member *m = streams; m; m = m->next)
        if (m->cap == cap && m != origin
            && !rt_graph_precedes(cap->graph, m->deps.v, m->deps.n,
                                  origin->deps.v, origin->deps.n))
            return 0;
    return 1;
}

/* Drops every stream and event of cap (under the lock). */
static void drop_members(rt_cap *cap)
{
    rt_member **lists[2] = { &streams, &events };
    for (int l = 0; l < 2; l++)
        for (rt_member **m = lists[l]; *m;) {
            if ((*m)->cap == cap)
                unlink_free(m);
            else
                m = &(*m)->next;
        }
}

RT_API cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g)
{
    if (!g)
        return rt_err(cudaErrorInvalidValue);
    pthread_mutex_lock(&lock);
    rt_member **mp = find(&streams, key_of(s));
    rt_cap *cap = mp ? (*mp)->cap : NULL;
    cudaError_t e = cudaSuccess;
    if (!cap)
        e = cudaErrorIllegalState;
    else if (cap->origin != key_of(s))
        e = cudaErrorStreamCaptureUnmatched;
    else if (cap->mode != cudaStreamCaptureModeRelaxed
             && !pthread_equal(cap->thread, pthread_self()))
        e = cudaErrorStreamCaptureWrongThread;
    if (e != cudaSuccess) {
        pthread_mutex_unlock(&lock);
        return rt_err(e);
    }
    if (cap->status == cudaStreamCaptureStatusInvalidated)
        e = cudaErrorStreamCaptureInvalidated;
    else if (!all_joined(cap, *mp))
        e = cudaErrorStreamCaptureUnjoined;
    drop_members(cap);
    pthread_mutex_unlock(&lock);
    if (e != cudaSuccess) {
        if (cap->owned)
            cudaGraphDestroy(cap->graph);
        *g = NULL;
    } else {
        *g = cap->graph;
    }
    free(cap);
    return rt_err(e);
}

/* ----------------------------------------------------------- queries */

RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t s,
                                         enum cudaStreamCaptureStatus *st)
{
    if (!st)
        return rt_err(cudaErrorInvalidValue);
    pthread_mutex_lock(&lock);
    cudaError_t e = is_legacy(s) ? legacy_use(0) : cudaSuccess;
    rt_member **m = is_legacy(s) ? NULL : find(&streams, key_of(s));
    *st = m ? (*m)->cap->status : cudaStreamCaptureStatusNone;
    pthread_mutex_unlock(&lock);
    return rt_err(e);
}

/* CUDA 13's form: the dependencies and their edge data stay valid until
 * the stream's next capture call. */
RT_API cudaError_t
cudaStreamGetCaptureInfo(cudaStream_t s, enum cudaStreamCaptureStatus *st,
                         unsigned long long *id, cudaGraph_t *graph,
                         const cudaGraphNode_t **deps,
                         const cudaGraphEdgeData **edges, size_t *ndeps)
{
    if (!st)
        return rt_err(cudaErrorInvalidValue);
    pthread_mutex_lock(&lock);
    cudaError_t e = is_legacy(s) ? legacy_use(0) : cudaSuccess;
    rt_member **mp = is_legacy(s) ? NULL : find(&streams, key_of(s));
    rt_member *m = mp ? *mp : NULL;
    *st = m ? m->cap->status : cudaStreamCaptureStatusNone;
    if (m && m->cap->status == cudaStreamCaptureStatusActive) {
        if (id)
            *id = m->cap->id;
        if (graph)
            *graph = m->cap->graph;
        if (deps)
            *deps = m->deps.v;
        if (edges)
            *edges = m->deps.edges;
        if (ndeps)
            *ndeps = m->deps.n;
    }
    pthread_mutex_unlock(&lock);
    return rt_err(e);
}

RT_API cudaError_t
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    if (!mode || (unsigned)*mode > cudaStreamCaptureModeRelaxed)
        return rt_err(cudaErrorInvalidValue);
    enum cudaStreamCaptureMode old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return cudaSuccess;
}

/* ---------------------------------------------------- captured work */

cudaError_t rt_capture_node(cudaStream_t s, enum cudaGraphNodeType type,
                            const rt_node_params *p, int *taken)
{
    *taken = 0;
    pthread_mutex_lock(&lock);
    rt_member **mp = is_legacy(s) ? NULL : find(&streams, key_of(s));
    cudaError_t e = is_legacy(s) ? legacy_use(1) : cudaSuccess;
    if (e != cudaSuccess) {
        *taken = 1;
    } else if (mp) {
        rt_member *m = *mp;
        *taken = 1;
        cudaGraphNode_t n;
        if (m->cap->status != cudaStreamCaptureStatusActive)
            e = cudaErrorStreamCaptureInvalidated;
        else if ((e = rt_graph_add(m->cap->graph, &n, m->deps.v, m->deps.n,
                                   type, p)) == cudaSuccess) {
            m->deps.n = 0;
            if (deps_add(&m->deps, n))
                e = cudaErrorMemoryAllocation;
        }
    }
    pthread_mutex_unlock(&lock);
    return rt_err(e);
}

cudaError_t rt_capture_record(cudaEvent_t ev, cudaStream_t s, int *taken)
{
    *taken = 0;
    pthread_mutex_lock(&lock);
    cudaError_t e = is_legacy(s) ? legacy_use(1) : cudaSuccess;
    rt_member **sp = is_legacy(s) ? NULL : find(&streams, key_of(s));
    rt_member **ep = find(&events, ev);
    if (e != cudaSuccess) {
        *taken = 1;
    } else if (!sp) {
        /* Recorded outside any capture: no longer a captured event. */
        if (ep)
            unlink_free(ep);
    } else {
        *taken = 1;
        rt_member *m = ep ? *ep : add_member(&events, ev, (*sp)->cap);
        if (m)
            m->cap = (*sp)->cap;    /* a re-record may change capture */
        if (!m || deps_copy(&m->deps, &(*sp)->deps))
            e = cudaErrorMemoryAllocation;
    }
    pthread_mutex_unlock(&lock);
    return rt_err(e);
}

cudaError_t rt_capture_wait(cudaStream_t s, cudaEvent_t ev, int *taken)
{
    *taken = 0;
    int blocking = is_legacy(s) ? 1 : is_blocking(s);
    pthread_mutex_lock(&lock);
    cudaError_t e = is_legacy(s) ? legacy_use(1) : cudaSuccess;
    rt_member **sp = is_legacy(s) ? NULL : find(&streams, key_of(s));
    rt_member **ep = find(&events, ev);
    if (e != cudaSuccess) {
        *taken = 1;
    } else if (ep) {
        rt_member *evm = *ep;
        *taken = 1;
        if (sp && (*sp)->cap != evm->cap) {
            e = cudaErrorStreamCaptureMerge;
        } else if (is_legacy(s)) {
            /* The legacy stream cannot join a capture. */
            e = cudaErrorStreamCaptureImplicit;
        } else if (!sp) {
            /* A fork: s joins the capture after the event's nodes. */
            rt_member *m = add_member(&streams, key_of(s), evm->cap);
            if (!m || deps_copy(&m->deps, &evm->deps))
                e = cudaErrorMemoryAllocation;
            else
                m->blocking = blocking;
        } else {
            /* A join: s now also waits for the event's nodes. */
            for (size_t i = 0; i < evm->deps.n && e == cudaSuccess; i++)
                if (deps_add(&(*sp)->deps, evm->deps.v[i]))
                    e = cudaErrorMemoryAllocation;
        }
    } else if (sp) {
        /* An event recorded outside the capture: its work has already
         * run (the emulator runs everything in order), so the wait adds
         * nothing to the graph. */
        *taken = 1;
    }
    pthread_mutex_unlock(&lock);
    return rt_err(e);
}

void rt_capture_forget(cudaEvent_t ev)
{
    pthread_mutex_lock(&lock);
    rt_member **ep = find(&events, ev);
    if (ep)
        unlink_free(ep);
    pthread_mutex_unlock(&lock);
}

cudaError_t rt_capture_event_check(cudaEvent_t ev)
{
    pthread_mutex_lock(&lock);
    int captured = find(&events, ev) != NULL;
    pthread_mutex_unlock(&lock);
    return captured ? rt_err(cudaErrorCapturedEvent) : cudaSuccess;
}

/* Replaces (flags 1) or extends (flags 0) the nodes the stream's next
 * captured work will depend on. */
RT_API cudaError_t
cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps,
                                    const cudaGraphEdgeData *edges,
                                    size_t n, unsigned flags)
{
    static const cudaGraphEdgeData zero;
    if (flags > 1 || (n && !deps))
        return rt_err(cudaErrorInvalidValue);
    for (size_t i = 0; edges && i < n; i++)
        if (memcmp(&edges[i], &zero, sizeof zero) != 0)
            return rt_err(cudaErrorInvalidValue);
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&lock);
    rt_member **sp = is_legacy(s) ? NULL : find(&streams, key_of(s));
    if (!sp || (*sp)->cap->status != cudaStreamCaptureStatusActive) {
        e = cudaErrorIllegalState;
    } else {
        if (flags == 1)
            (*sp)->deps.n = 0;
        for (size_t i = 0; i < n && e == cudaSuccess; i++)
            if (!deps[i])
                e = cudaErrorInvalidValue;
            else if (deps_add(&(*sp)->deps, deps[i]))
                e = cudaErrorMemoryAllocation;
    }
    pthread_mutex_unlock(&lock);
    return rt_err(e);
}

/* ------------------------------------------------ forbidden calls */

cudaError_t rt_capture_sync(cudaStream_t s)
{
    pthread_mutex_lock(&lock);
    cudaError_t e = is_legacy(s) ? legacy_use(1) : cudaSuccess;
    rt_member **sp = is_legacy(s) ? NULL : find(&streams, key_of(s));
    if (sp) {
        (*sp)->cap->status = cudaStreamCaptureStatusInvalidated;
        e = cudaErrorStreamCaptureUnsupported;
    }
    pthread_mutex_unlock(&lock);
    return rt_err(e);
}

/* The cudaStreamCaptureMode rules: under the thread's mode Relaxed
 * nothing is forbidden; under ThreadLocal, what the thread's own
 * non-relaxed captures forbid; under Global, also what other threads'
 * Global captures forbid. */
static int forbids(const rt_cap *cap)
{
    if (thread_mode == cudaStreamCaptureModeRelaxed
        || cap->status != cudaStreamCaptureStatusActive)
        return 0;
    if (pthread_equal(cap->thread, pthread_self()))
        return cap->mode != cudaStreamCaptureModeRelaxed;
    return thread_mode == cudaStreamCaptureModeGlobal
           && cap->mode == cudaStreamCaptureModeGlobal;
}

cudaError_t rt_capture_unsafe(void)
{
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&lock);
    for (rt_member *m = streams; m; m = m->next)
        if (m->handle == m->cap->origin && forbids(m->cap)) {
            m->cap->status = cudaStreamCaptureStatusInvalidated;
            e = cudaErrorStreamCaptureUnsupported;
        }
    pthread_mutex_unlock(&lock);
    return rt_err(e);
}
