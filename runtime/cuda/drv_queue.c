/*
 * runtime/cuda/drv_queue.c: asynchronous streams (contract in
 * drv_queue.h).
 *
 * Every stream (the legacy one of each context, each thread's
 * per-thread stream, each created stream) has a queue of items.  One
 * lock (qlock) guards every queue and item.  The device worker takes
 * the earliest device item that is at the head of its queue and whose
 * dependencies are done, and runs it outside qlock; the callback thread
 * does the same for host functions; marks (event records and waits),
 * which do nothing, are completed by whoever changes the queues.  Dependencies are
 * items: the legacy stream's implicit synchronisation makes an item
 * depend on the last item of each blocking stream (or of the legacy
 * stream), and an event wait on the event's last record item.  Items
 * are counted references, so that an event or a stream may go while
 * work that names it is pending.
 */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/cuda/drv_ipcev.h"
#include "runtime/cuda/drv_queue.h"
#include "runtime/cuda/drv_quiet.h"
#include "runtime/rt_timing.h"
#include "timing/session.h"

enum { ITEM_DEVICE, ITEM_HOST, ITEM_MARK };
enum { PENDING, RUNNING, DONE };

typedef struct DrvItem {
    struct DrvItem *next;               /* in its queue */
    struct DrvQueue *q;
    unsigned long long seq;             /* order of enqueueing */
    int kind, state, refs;
    unsigned waiters;                   /* host threads in wait_item on it */
    int record;                         /* an event record: stamps ns */
    CUcontext ctx;
    struct DrvItem *deps[4];
    struct DrvItem **more;              /* deps beyond the four */
    unsigned ndeps;
    DrvItemFn fn;
    void (*host)(void *);
    void *arg;
    void (*fr)(void *);
    uint64_t ns;
    struct DrvIpcEv *ipc;               /* an interprocess event's page */
    uint32_t gen;                       /* record: its generation; wait:
                                         * the one waited for */
    int ipc_wait;                       /* waiting for gen (a mark) */
    _Alignas(16) unsigned char inl[];   /* a copied argument */
} DrvItem;

typedef struct DrvQueue {
    struct DrvQueue *next;              /* every queue */
    DrvItem *head, *tail;               /* items not done, in order */
    DrvItem *last;                      /* last item put there (ref) */
    CUcontext ctx;
    int legacy, blocking, dead;
    pthread_t thread;                   /* a per-thread stream's */
} DrvQueue;

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static DrvQueue *queues;
static unsigned long long next_seq;
static pthread_once_t started = PTHREAD_ONCE_INIT;
/* PTXEMU_SYNC_STREAMS=1, no threads, a forked child, or after
 * drv_queue_stop (atomic: read without qlock) */
static _Atomic int sync_mode;
/* The worker threads (device, host functions), joinable; whether each
 * was started and is running an item now (qlock) */
static pthread_t workers[2];
static int worker_started[2], worker_busy[2];
static int stopping;                    /* drv_queue_stop (qlock) */

static pthread_mutex_t devlock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int flush_wanted;        /* device printf to flush */
static __thread int dev_depth;
static __thread int on_worker;

void drv_dev_lock(void)
{
    if (dev_depth++ == 0) {
        pthread_mutex_lock(&devlock);
    }
}

void drv_dev_unlock(void)
{
    if (--dev_depth == 0) {
        pthread_mutex_unlock(&devlock);
    }
}

/* An event's time stamp: under a timing model the device's simulated
 * time (cuEventElapsedTime then measures simulated time, as a GPU's
 * events do), else the host's monotonic clock. */
static uint64_t now_ns(void)
{
    TmSession *tm = drv.dev ? rt_device_timing(drv.dev) : NULL;
    if (tm) {
        return tm_session_time_ns(tm);
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ items */

static DrvItem *item_new(int kind, size_t size)
{
    DrvItem *it = calloc(1, sizeof(*it) + size);
    if (it) {
        it->kind = kind;
        it->refs = 1;
        it->ctx = drv_current();
    }
    return it;
}

/* qlock held, or the item never shared. */
static void item_unref(DrvItem *it)
{
    if (!it || --it->refs > 0) {
        return;
    }
    for (unsigned i = 0; i < it->ndeps; i++) {
        item_unref(i < 4 ? it->deps[i] : it->more[i - 4]);
    }
    free(it->more);
    drv_ipcev_unref(it->ipc);
    if (it->fr) {
        it->fr(it->arg);
    }
    free(it);
}

static DrvItem *dep_at(const DrvItem *it, unsigned i)
{
    return i < 4 ? it->deps[i] : it->more[i - 4];
}

/* qlock held.  Adds d (not done) as a dependency of it; -1 on OOM. */
static int add_dep(DrvItem *it, DrvItem *d)
{
    if (!d || d->state == DONE) {
        return 0;
    }
    if (it->ndeps >= 4) {
        unsigned k = it->ndeps - 4;
        if ((k & (k - 1)) == 0) {
            DrvItem **m = realloc(it->more, (k ? 2 * k : 4) * sizeof(*m));
            if (!m) {
                return -1;
            }
            it->more = m;
        }
        it->more[k] = d;
    } else {
        it->deps[it->ndeps] = d;
    }
    it->ndeps++;
    d->refs++;
    return 0;
}

/* qlock held. */
static int ready(const DrvItem *it)
{
    if (it->ipc_wait) {
        return 0;
    }
    for (unsigned i = 0; i < it->ndeps; i++) {
        if (dep_at(it, i)->state != DONE) {
            return 0;
        }
    }
    return 1;
}

/* ------------------------------------------------------------ queues */

static DrvQueue *queue_new(CUcontext ctx, int legacy, int blocking)
{
    DrvQueue *q = calloc(1, sizeof(*q));
    if (q) {
        q->ctx = ctx;
        q->legacy = legacy;
        q->blocking = blocking;
        q->next = queues;
        queues = q;
    }
    return q;
}

/* qlock held.  A dead queue with no work left goes. */
static void queue_reap(DrvQueue *q)
{
    if (!q->dead || q->head) {
        return;
    }
    for (DrvQueue **pp = &queues; *pp; pp = &(*pp)->next) {
        if (*pp == q) {
            *pp = q->next;
            break;
        }
    }
    item_unref(q->last);
    free(q);
}

/* qlock held.  The queue behind a stream handle (made on first use for
 * the legacy and per-thread streams), NULL on OOM. */
static DrvQueue *queue_of(CUstream s, CUcontext ctx)
{
    if (s && s != CU_STREAM_LEGACY && s != CU_STREAM_PER_THREAD) {
        return s->q;
    }
    int legacy = s != CU_STREAM_PER_THREAD;
    pthread_t self = pthread_self();
    for (DrvQueue *q = queues; q; q = q->next) {
        if (q->ctx == ctx && !q->dead && q->legacy == legacy &&
            (legacy || (!q->legacy && q->thread == self && q->blocking == 2))) {
            return q;
        }
    }
    DrvQueue *q = queue_new(ctx, legacy, legacy ? 0 : 2);
    if (q) {
        q->thread = self;
    }
    return q;
}

int drv_queue_stream_new(CUstream s)
{
    pthread_mutex_lock(&qlock);
    s->q = queue_new(s->ctx, 0, !(s->flags & CU_STREAM_NON_BLOCKING));
    pthread_mutex_unlock(&qlock);
    return s->q ? 0 : -1;
}

void drv_queue_stream_gone(CUstream s)
{
    pthread_mutex_lock(&qlock);
    if (s->q) {
        s->q->dead = 1;
        queue_reap(s->q);
        s->q = NULL;
    }
    pthread_mutex_unlock(&qlock);
}

/* ------------------------------------------------------------ running */

/* qlock held.  it (the head of its queue) is done. */
static void complete(DrvItem *it)
{
    DrvQueue *q = it->q;
    it->state = DONE;
    /* its waiters will run again: no longer quiet from now, whenever
     * they are scheduled (drv_quiet.h) */
    if (it->waiters) {
        drv_quiet_wait_released(it->waiters);
        it->waiters = 0;
    }
    if (it->record) {
        it->ns = now_ns();
        if (it->ipc) {
            drv_ipcev_complete(it->ipc, it->gen);
        }
    }
    if (q) {
        q->head = it->next;
        if (!q->head) {
            q->tail = NULL;
        }
        it->next = NULL;
        it->q = NULL;
    }
    pthread_cond_broadcast(&done_cv);
    pthread_cond_broadcast(&work_cv);
    if (q) {
        queue_reap(q);
    }
    item_unref(it);                     /* the queue's reference */
}

/* qlock held.  Completes every mark (an event record, an event wait, a
 * synchronisation's mark) that its queue and dependencies allow: they
 * do nothing, so whoever changes the queues moves them on, and neither
 * the worker in a long kernel nor a blocked host function holds them
 * up. */
static void settle(void)
{
    for (int again = 1; again;) {
        again = 0;
        for (DrvQueue *q = queues; q; q = q->next) {
            DrvItem *it = q->head;
            if (it && it->kind == ITEM_MARK && it->state == PENDING &&
                ready(it)) {
                complete(it);           /* may free q: start over */
                again = 1;
                break;
            }
        }
    }
}

/* A failure the item's caller never sees: kept for the next
 * synchronisation unless it is the context's sticky fault. */
static void note_error(CUcontext ctx, CUresult r)
{
    if (r && ctx && r != ctx->sticky && !ctx->async_err) {
        ctx->async_err = r;
    }
}

static CUresult run_device(DrvItem *it)
{
    drv_dev_lock();
    CUresult r = it->fn ? it->fn(it->arg) : CUDA_SUCCESS;
    drv_dev_unlock();
    return r;
}

/* qlock held.  The earliest ready item of `kind` at the head of a
 * queue. */
static DrvItem *pick(int kind)
{
    DrvItem *best = NULL;
    for (DrvQueue *q = queues; q; q = q->next) {
        DrvItem *it = q->head;
        if (it && it->kind == kind && it->state == PENDING &&
            (!best || it->seq < best->seq) && ready(it)) {
            best = it;
        }
    }
    return best;
}

/* The device worker runs device items; the callback thread host
 * functions (CUDA runs them on a thread of its own, and a blocked one
 * holds back only its stream). */
static void *run_items(void *kindp)
{
    int kind = (int)(intptr_t)kindp;
    /* CUDA forbids CUDA calls in host functions; one made anyway runs
     * at once rather than waiting for its own stream. */
    on_worker = 1;
    drv_quiet_ours(1);
    pthread_mutex_lock(&qlock);
    /* stopping (at exit): no new item, not even a ready one, so that
     * drv_queue_stop's join never waits for a kernel */
    while (!stopping) {
        DrvItem *it = pick(kind);
        if (!it) {
            pthread_cond_wait(&work_cv, &qlock);
            continue;
        }
        it->state = RUNNING;
        worker_busy[kind] = 1;
        pthread_mutex_unlock(&qlock);
        CUresult r = CUDA_SUCCESS;
        if (kind == ITEM_DEVICE) {
            drv_ctx_set_thread(it->ctx);
            r = run_device(it);
            if (atomic_exchange(&flush_wanted, 0)) {
                (void)ptxemu_synchronize(drv.dev);
            }
        } else {
            /* the program's code: it may write host-visible memory */
            drv_quiet_ours(-1);
            it->host(it->arg);
            drv_quiet_ours(1);
        }
        pthread_mutex_lock(&qlock);
        worker_busy[kind] = 0;
        note_error(it->ctx, r);
        complete(it);
        settle();
    }
    pthread_mutex_unlock(&qlock);
    drv_quiet_ours(-1);
    return NULL;
}

/* Whether m was held at the fork by a thread other than this one (the
 * child's only thread): nobody in the child will ever unlock it. */
static int held_elsewhere(pthread_mutex_t *m)
{
    if (pthread_mutex_trylock(m) != 0) {
        return 1;
    }
    pthread_mutex_unlock(m);
    return 0;
}

/* The queues' lock is held only for short changes of the queues, never
 * across a kernel or a host function, so a fork waits for it: a worker
 * that merely woke up (complete() wakes both) and held it for a moment
 * at the fork must not leave the child's driver unusable.  (Checked in
 * the child as the locks below are, it made a child forked right after
 * cuCtxSynchronize fail now and then; ThreadSanitizer, which widens
 * that moment, made it frequent.) */
static void fork_prepare(void)
{
    pthread_mutex_lock(&qlock);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&qlock);
}

/* A forked child has no worker threads: its work runs synchronously
 * (CUDA does not support using a context across fork at all).  When a
 * driver lock was held at the fork (the worker inside a kernel, a
 * thread in the driver), the child's driver is unusable instead:
 * every call fails at once rather than waiting for that lock forever
 * (fork itself does not wait for them: the kernel may be waiting for
 * the parent).  The condition variables may count the parent's
 * waiters, which do not exist here: they start afresh. */
static void forked_child(void)
{
    pthread_mutex_unlock(&qlock);       /* fork_prepare's */
    sync_mode = 1;
    worker_started[ITEM_DEVICE] = worker_started[ITEM_HOST] = 0;
    pthread_cond_init(&work_cv, NULL);
    pthread_cond_init(&done_cv, NULL);
    if ((dev_depth == 0 && held_elsewhere(&devlock)) ||
        held_elsewhere(&drv.lock)) {
        drv.forked_broken = 1;
        drv.initialized = 0;
    }
}

static void start(void)
{
    const char *e = getenv("PTXEMU_SYNC_STREAMS");
    pthread_mutex_lock(&qlock);
    int stopped = stopping;
    pthread_mutex_unlock(&qlock);
    if (stopped || (e && *e && strcmp(e, "0") != 0)) {
        sync_mode = 1;          /* after drv_queue_stop too */
        return;
    }
    pthread_atfork(fork_prepare, fork_parent, forked_child);
    static const int kinds[2] = {ITEM_DEVICE, ITEM_HOST};
    for (int k = 0; k < 2; k++) {
        if (pthread_create(&workers[kinds[k]], NULL, run_items,
                           (void *)(intptr_t)kinds[k]) != 0) {
            /* no threads: the old synchronous behaviour (one started
             * waits for work that never comes) */
            sync_mode = 1;
            return;
        }
        worker_started[kinds[k]] = 1;
    }
}

void drv_queue_stop(void)
{
    pthread_mutex_lock(&qlock);
    /* from now on, work runs on the calling thread */
    sync_mode = 1;
    stopping = 1;
    pthread_cond_broadcast(&work_cv);
    int join[2];
    for (int k = 0; k < 2; k++) {
        /* one inside an item (a kernel that never ends, a host function
         * that blocks) is left to the process's end: exit must not wait
         * for it */
        join[k] = worker_started[k] && !worker_busy[k];
        worker_started[k] = 0;
    }
    pthread_mutex_unlock(&qlock);
    for (int k = 0; k < 2; k++) {
        if (join[k]) {
            pthread_join(workers[k], NULL);
        }
    }
}

int drv_queue_host_ready(void)
{
    if (pthread_mutex_trylock(&qlock) != 0) {
        return -1;
    }
    int ready = pick(ITEM_HOST) != NULL;
    pthread_mutex_unlock(&qlock);
    return ready;
}

int drv_queue_immediate(void)
{
    pthread_once(&started, start);
    return sync_mode || on_worker;
}

/* ------------------------------------------------------------ enqueueing */

/* Runs it now, on the calling thread; returns its result. */
static CUresult run_now(DrvItem *it)
{
    CUresult r = CUDA_SUCCESS;
    if (it->kind == ITEM_DEVICE) {
        /* a host thread running device work writes nothing of its own
         * meanwhile (the worker is counted already) */
        if (!on_worker) {
            drv_quiet_wait_begin();
        }
        r = run_device(it);
        if (!on_worker) {
            drv_quiet_wait_end();
        }
    } else if (it->kind == ITEM_HOST) {
        it->host(it->arg);
    }
    pthread_mutex_lock(&qlock);
    complete(it);
    settle();
    pthread_mutex_unlock(&qlock);
    return r;
}

/* qlock held.  Puts it on s's queue after its implicit dependencies;
 * -1 on OOM (it is freed). */
static int put(CUstream s, DrvItem *it)
{
    DrvQueue *q = queue_of(s, it->ctx);
    if (!q) {
        item_unref(it);
        return -1;
    }
    for (DrvQueue *o = queues; o; o = o->next) {
        if (o == q || o->ctx != q->ctx || !o->last) {
            continue;
        }
        /* The legacy stream against the blocking streams. */
        if ((q->legacy && o->blocking) || (q->blocking && o->legacy)) {
            if (add_dep(it, o->last)) {
                item_unref(it);
                return -1;
            }
        }
    }
    it->q = q;
    it->seq = ++next_seq;
    if (q->tail) {
        q->tail->next = it;
    } else {
        q->head = it;
    }
    q->tail = it;
    it->refs++;                         /* q->last's */
    item_unref(q->last);
    q->last = it;
    settle();
    pthread_cond_broadcast(&work_cv);
    return 0;
}

/* Puts it (with its explicit dependencies set) on s, or runs it now. */
static CUresult submit(CUstream s, DrvItem *it)
{
    if (drv_queue_immediate()) {
        CUresult r = run_now(it);
        CUcontext ctx = drv_current();
        return on_worker || !ctx || r != ctx->sticky ? r : CUDA_SUCCESS;
    }
    pthread_mutex_lock(&qlock);
    int bad = put(s, it);
    pthread_mutex_unlock(&qlock);
    return bad ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

CUresult drv_enqueue(CUstream s, DrvItemFn fn, const void *arg, size_t size,
                     void (*fr)(void *))
{
    DrvItem *it = item_new(ITEM_DEVICE, size);
    if (!it) {
        if (fr) {
            fr((void *)arg);
        }
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    it->fn = fn;
    if (size) {
        memcpy(it->inl, arg, size);
        it->arg = it->inl;
    } else {
        it->arg = (void *)arg;
        it->fr = fr;
    }
    return submit(s, it);
}

CUresult drv_enqueue_host(CUstream s, void (*fn)(void *), void *data)
{
    DrvItem *it = item_new(ITEM_HOST, 0);
    if (!it) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    it->host = fn;
    it->arg = data;
    return submit(s, it);
}

/* What a wait on e waits for: its local last record (LOCAL), another
 * process's or another opened copy's record of an interprocess event,
 * generation *gen, still pending (FOREIGN) or done (NONE). */
enum { LOCAL, FOREIGN, NONE };

/* qlock held. */
static int last_record(CUevent e, uint32_t *gen)
{
    if (!e->ipc) {
        return LOCAL;
    }
    *gen = drv_ipcev_last(e->ipc);
    if (e->rec && e->rec->ipc && e->rec->gen == *gen) {
        return LOCAL;
    }
    return drv_ipcev_done(e->ipc, *gen) ? NONE : FOREIGN;
}

/* A thread of its own per pending wait on another process's record
 * (nothing here signals its completion): it holds back only the
 * waiting stream, not the worker.  It is not counted as a quiet thread
 * of ours (drv_quiet.h): the other process may record at any time,
 * and a host thread waiting for this stream then goes on. */
static void *ipc_waiter(void *arg)
{
    DrvItem *it = arg;
    drv_ipcev_wait(it->ipc, it->gen);
    pthread_mutex_lock(&qlock);
    it->ipc_wait = 0;
    settle();
    pthread_cond_broadcast(&work_cv);
    pthread_cond_broadcast(&done_cv);
    item_unref(it);
    pthread_mutex_unlock(&qlock);
    return NULL;
}

/* qlock held.  Makes the mark it wait for e's generation gen (a thread
 * of its own waits; without one, the host waits here). */
static void ipc_wait_on(DrvItem *it, CUevent e, uint32_t gen)
{
    drv_ipcev_ref(e->ipc);
    it->ipc = e->ipc;
    it->gen = gen;
    it->ipc_wait = 1;
    it->refs++;                         /* the waiter's */
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, ipc_waiter, it)) {
        /* No thread: wait here (the host blocks, the order holds). */
        pthread_mutex_unlock(&qlock);
        drv_ipcev_wait(e->ipc, gen);
        pthread_mutex_lock(&qlock);
        it->ipc_wait = 0;
        item_unref(it);
    }
    pthread_attr_destroy(&a);
}

/* qlock held.  Makes the mark it wait for e's last record as of now
 * (CUDA: cuStreamWaitEvent waits for "all work captured in" the event,
 * its most recent cuEventRecord); -1 on OOM. */
static int wait_on(DrvItem *it, CUevent e)
{
    uint32_t gen = 0;
    switch (last_record(e, &gen)) {
    case LOCAL:
        return add_dep(it, e->rec);
    case FOREIGN:
        ipc_wait_on(it, e, gen);
        return 0;
    default:
        return 0;
    }
}

/* qlock held.  Makes the mark it e's last record. */
static void record_as(DrvItem *it, CUevent e)
{
    it->record = 1;
    if (e->ipc) {
        drv_ipcev_ref(e->ipc);
        it->ipc = e->ipc;
        it->gen = drv_ipcev_record(e->ipc);
    }
    it->refs++;                         /* the event's */
    item_unref(e->rec);
    e->rec = it;
}

CUresult drv_enqueue_wait(CUstream s, CUevent e)
{
    uint32_t gen = 0;
    if (drv_queue_immediate()) {
        /* Everything earlier here is done; another process's record
         * may not be. */
        pthread_mutex_lock(&qlock);
        int what = last_record(e, &gen);
        pthread_mutex_unlock(&qlock);
        if (what == FOREIGN) {
            drv_ipcev_wait(e->ipc, gen);
        }
        return CUDA_SUCCESS;
    }
    DrvItem *it = item_new(ITEM_MARK, 0);
    if (!it) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    int bad = 0;
    pthread_mutex_lock(&qlock);
    if (wait_on(it, e)) {
        item_unref(it);
        bad = 1;
    } else if (it->ndeps == 0 && !it->ipc_wait) {
        item_unref(it);                 /* nothing to wait for */
    } else {
        bad = put(s, it);
    }
    pthread_mutex_unlock(&qlock);
    return bad ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

CUresult drv_enqueue_record(CUstream s, CUevent e)
{
    DrvItem *it = item_new(ITEM_MARK, 0);
    if (!it) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&qlock);
    record_as(it, e);
    pthread_mutex_unlock(&qlock);
    return submit(s, it);
}

/* Calls each step's fr (a failure to put them on the stream). */
static void drop_steps(const DrvStep *steps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (steps[i].fr) {
            steps[i].fr(steps[i].arg);
        }
    }
}

/* Runs the steps now, on this thread, in order; the first failure. */
static CUresult seq_now(CUstream s, const DrvStep *steps, DrvItem **its,
                        size_t n)
{
    CUresult r = CUDA_SUCCESS, ri;
    for (size_t i = 0; i < n; i++) {
        switch (steps[i].mark) {
        case DRV_STEP_RECORD:
            ri = drv_enqueue_record(s, steps[i].event);
            break;
        case DRV_STEP_WAIT:
            ri = drv_enqueue_wait(s, steps[i].event);
            break;
        default:
            ri = submit(s, its[i]);
            its[i] = NULL;
        }
        if (its[i]) {
            item_unref(its[i]);         /* a mark's, unused */
            if (steps[i].fr) {
                steps[i].fr(steps[i].arg);
            }
        }
        if (!r) {
            r = ri;
        }
    }
    return r;
}

CUresult drv_enqueue_seq(CUstream s, const DrvStep *steps, size_t n)
{
    /* The events of the marks first: none is put on a bad handle. */
    for (size_t i = 0; i < n; i++) {
        if (steps[i].mark != DRV_STEP_WORK &&
            !drv_handle_valid(DRV_EVENT, steps[i].event)) {
            drop_steps(steps, n);
            return CUDA_ERROR_INVALID_HANDLE;
        }
    }
    DrvItem **its = calloc(n ? n : 1, sizeof(*its));
    size_t made = 0;
    while (its && made < n &&
           (its[made] = item_new(steps[made].mark ? ITEM_MARK
                                 : steps[made].fn ? ITEM_DEVICE
                                 : ITEM_HOST, 0))) {
        made++;
    }
    if (made < n) {
        for (size_t i = 0; i < made; i++) {
            item_unref(its[i]);         /* never shared; no fr yet */
        }
        drop_steps(steps, n);
        free(its);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        its[i]->fn = steps[i].fn;
        its[i]->host = steps[i].host;
        its[i]->arg = steps[i].arg;
        /* A mark may outlive the launch by far (an event holds its last
         * record): its step is let go of once it is on the stream. */
        its[i]->fr = steps[i].mark ? NULL : steps[i].fr;
    }
    CUresult r = CUDA_SUCCESS;
    if (drv_queue_immediate()) {
        r = seq_now(s, steps, its, n);
        free(its);
        return r;
    }
    pthread_mutex_lock(&qlock);
    for (size_t i = 0; i < n; i++) {
        if (!r && steps[i].mark == DRV_STEP_RECORD) {
            record_as(its[i], steps[i].event);
        } else if (!r && steps[i].mark == DRV_STEP_WAIT &&
                   wait_on(its[i], steps[i].event)) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        }
        if (r) {
            item_unref(its[i]);         /* dropped: its fr runs */
        } else if (put(s, its[i])) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    pthread_mutex_unlock(&qlock);
    for (size_t i = 0; i < n; i++) {
        if (steps[i].mark && steps[i].fr) {
            steps[i].fr(steps[i].arg);
        }
    }
    free(its);
    return r;
}

/* ------------------------------------------------------------ waiting */

/* qlock held.  Waits until it is done. */
static void wait_item(DrvItem *it)
{
    if (!it) {
        return;
    }
    it->refs++;
    if (it->state != DONE) {
        /* counted quiet until complete() releases it */
        it->waiters++;
        drv_quiet_wait_begin();
        while (it->state != DONE) {
            pthread_cond_wait(&done_cv, &qlock);
        }
    }
    item_unref(it);
}

/* qlock held.  Waits until no queue of ctx (of any, ctx NULL) has
 * work left. */
static void sync_ctx_locked(CUcontext ctx)
{
    for (;;) {
        DrvQueue *busy = NULL;
        for (DrvQueue *q = queues; q && !busy; q = q->next) {
            if ((!ctx || q->ctx == ctx) && q->head) {
                busy = q;
            }
        }
        if (!busy) {
            return;
        }
        wait_item(busy->last);
    }
}

void drv_queue_sync_stream(CUstream s)
{
    if (drv_queue_immediate()) {
        return;
    }
    CUcontext ctx = drv_current();
    pthread_mutex_lock(&qlock);
    DrvQueue *q = queue_of(s, ctx);
    if (q && q->legacy) {
        /* A mark on the legacy stream: its work and, through the
         * implicit synchronisation, every blocking stream's. */
        DrvItem *it = item_new(ITEM_MARK, 0);
        if (it && put(s, it) == 0) {
            wait_item(it);
        } else {
            sync_ctx_locked(ctx);
        }
    } else if (q) {
        wait_item(q->last);
    }
    pthread_mutex_unlock(&qlock);
}

void drv_queue_sync_ctx(CUcontext ctx)
{
    if (drv_queue_immediate()) {
        return;
    }
    pthread_mutex_lock(&qlock);
    sync_ctx_locked(ctx);
    pthread_mutex_unlock(&qlock);
}

void drv_queue_sync_event(CUevent e)
{
    uint32_t gen = 0;
    pthread_mutex_lock(&qlock);
    int what = last_record(e, &gen);
    if (what == LOCAL && !drv_queue_immediate()) {
        wait_item(e->rec);
    }
    pthread_mutex_unlock(&qlock);
    if (what == FOREIGN) {
        drv_ipcev_wait(e->ipc, gen);
    }
}

int drv_queue_stream_idle(CUstream s)
{
    if (drv_queue_immediate()) {
        return 1;
    }
    pthread_mutex_lock(&qlock);
    DrvQueue *q = queue_of(s, drv_current());
    int idle = !q || !q->head;
    pthread_mutex_unlock(&qlock);
    return idle;
}

int drv_queue_event_done(CUevent e)
{
    if (e->ipc) {
        /* The shared page: every process's records complete there. */
        return drv_ipcev_done(e->ipc, drv_ipcev_last(e->ipc));
    }
    pthread_mutex_lock(&qlock);
    int done = !e->rec || e->rec->state == DONE;
    pthread_mutex_unlock(&qlock);
    return done;
}

int drv_queue_event_ns(CUevent e, uint64_t *ns)
{
    pthread_mutex_lock(&qlock);
    int r = e->rec && e->rec->state == DONE ? 0 : -1;
    if (!r) {
        *ns = e->rec->ns;
    }
    pthread_mutex_unlock(&qlock);
    return r;
}

void drv_queue_event_gone(CUevent e)
{
    pthread_mutex_lock(&qlock);
    item_unref(e->rec);
    e->rec = NULL;
    drv_ipcev_unexport(e->ipc);
    drv_ipcev_unref(e->ipc);
    e->ipc = NULL;
    pthread_mutex_unlock(&qlock);
}

CUresult drv_queue_take_error(CUcontext ctx)
{
    pthread_mutex_lock(&qlock);
    CUresult r = ctx ? ctx->async_err : CUDA_SUCCESS;
    if (ctx) {
        ctx->async_err = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&qlock);
    return r;
}

void drv_queue_ctx_gone(CUcontext ctx)
{
    pthread_mutex_lock(&qlock);
    if (!sync_mode) {
        sync_ctx_locked(ctx);
    }
    for (DrvQueue *q = queues, *n; q; q = n) {
        n = q->next;
        if (q->ctx == ctx && (q->legacy || q->blocking == 2)) {
            q->dead = 1;
            queue_reap(q);
        }
    }
    ctx->async_err = CUDA_SUCCESS;
    pthread_mutex_unlock(&qlock);
}

void drv_queue_flush(void)
{
    if (!drv.dev) {
        return;
    }
    if (dev_depth > 0) {
        (void)ptxemu_synchronize(drv.dev);
    } else if (pthread_mutex_trylock(&devlock) == 0) {
        dev_depth++;
        (void)ptxemu_synchronize(drv.dev);
        drv_dev_unlock();
    } else {
        /* The worker is in an item: it flushes when it is done. */
        flush_wanted = 1;
    }
}

void drv_queue_idle(void)
{
    drv_queue_sync_ctx(NULL);
    drv_queue_flush();
}
