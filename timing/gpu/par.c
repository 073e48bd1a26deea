/*
 * timing/gpu/par.c: the host threads that run phase 1 of the `gpu`
 * model's cycles (gpu.c's top says what a phase is and why the result
 * is one thread's).
 *
 * g->threads - 1 helper threads are made at the first phase that needs
 * them and kept until the model is destroyed (or the count changes).
 * A phase hands the cycle's busy SMs out one at a time: each thread
 * (the calling one too) first takes those it ran last, whose state its
 * core's caches hold (running SMs ahead, gpu.c, makes that the larger
 * cost: moving every SM to the other core each phase cost a third of
 * the time), then any left, so that a thread the host does not
 * schedule holds up no more than the SM it took; which thread steps an
 * SM never changes a result (each SM touches only its own state).
 * Starting and ending a phase costs a few atomic
 * operations: a helper spins (yielding) for a while for the next phase
 * and then sleeps on a condition variable; the caller spins, then
 * sleeps, for the helpers' ends (a phase on a loaded host must not burn
 * the cores its helpers need).
 *
 * Whether a cycle fans out at all is measured (gpu_par_want): the wall
 * time per SM visited of SAMPLE cycles run on the calling thread alone
 * and of SAMPLE cycles fanned out are compared, whole cycles from one to
 * the next (the state a fanned-out phase moved to another core slows the
 * calling thread's next steps of those SMs, outside the phase: timing
 * only the phase chose fanning out for a memory-bound kernel that then
 * ran at 0.83x), and the faster way is kept for the next KEEP cycles,
 * then measured again.  A
 * cycle's work is too small for the hand-over when few SMs are busy or
 * the host's cores are taken by others; the choice changes only how
 * fast the result comes (either way it is one thread's, gpu.c).
 *
 * A child forked after a phase has none of the helpers (pthread_atfork(3)
 * says only the forking thread is copied): its next phase, or the
 * model's end, frees only the memory of the parent's set (no threads to
 * wake or join; their mutex may have been held at the fork), and the
 * phase makes the child's own.
 *
 * At exit the helpers of every set not in a phase are told to quit and
 * joined (an exit handler), so that nothing of theirs (stacks, thread-
 * local storage) is left for a leak checker to see: the drop-in driver
 * keeps its device, and so the model, to the end of the process, as
 * CUDA programs may keep their contexts.  A set in a phase (exit called
 * while another host thread runs a kernel) is left alone: exit must not
 * wait.  Phases that begin after the handler ran run on the calling
 * thread alone.  The handler also runs when a library holding the model
 * (the drop-in libcuda.so.1) is unloaded by dlclose (emu_at_unload,
 * emu/unload.h), so that no helper is left in unmapped code
 * (tests/timing_unload.test).
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/unload.h"
#include "timing/gpu/gpu.h"

#define SPIN 2000u          /* polls before sleeping */
#define YIELD_EVERY 16u     /* polls between sched_yield calls */
#define SAMPLE 64u          /* cycles measured each way */
#define KEEP 4096u          /* cycles run the faster way, then again */

typedef struct GpuPar {
    Gpu *g;
    uint32_t n;             /* threads, the caller's included */
    uint32_t nth;           /* helpers made */
    pthread_t *th;
    /* the phase: written by the caller before gen moves */
    GpuSm **list;
    uint32_t nlist;
    uint64_t t;
    bool quit;
    /* atomics */
    uint8_t *taken;         /* atomics: list[i] handed out */
    uint32_t captaken;
    uint32_t ids;           /* atomic: helpers numbered so far */
    uint32_t gen;           /* bumped to start a phase (or to quit) */
    uint32_t done;          /* helpers finished with the phase */
    uint32_t sleepers;      /* helpers asleep on cv */
    uint32_t main_sleep;    /* the caller asleep on dcv */
    pthread_mutex_t mu;
    pthread_cond_t cv, dcv;
    /* gpu_par_want: 0 measuring alone, 1 measuring fanned out, 2 kept */
    uint32_t stage, left;
    bool fan;               /* this cycle fans out */
    double ns[2];           /* wall time of the measured cycles */
    uint64_t visits[2];     /* SMs they visited */
    double t0;
    uint32_t forks;         /* fork_gen when made */
    /* the exit handler (par_exit) */
    uint32_t busy;          /* atomic: a phase is running */
    bool joined;            /* the helpers are gone */
    struct GpuPar *next, **prev; /* on the list of live sets */
} GpuPar;

/* Forks so far (bumped in the child). */
static atomic_uint fork_gen;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
/* The live sets, for the exit handler, under live_mu; exiting (atomic):
 * the handler has begun. */
static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;
static GpuPar *live;
static uint32_t exiting;

static void forked_child(void)
{
    atomic_fetch_add(&fork_gen, 1);
    /* another thread may have held it at the fork (pthread_atfork(3):
     * the child's handler runs in the only thread) */
    pthread_mutex_init(&live_mu, NULL);
}

static void join_helpers(GpuPar *p);
static bool from_parent(const GpuPar *p);

/* Join the helpers of the live sets that are not in a phase (the top).
 * exiting is set before each set's busy is read, and a phase sets busy
 * before it reads exiting (both sequentially consistent): either the
 * phase sees exiting and leaves the helpers alone, or the handler sees
 * it busy and leaves the set alone. */
static void par_exit(void)
{
    __atomic_store_n(&exiting, 1, __ATOMIC_SEQ_CST);
    if (pthread_mutex_trylock(&live_mu) != 0) {
        return;     /* a set being made or freed meanwhile: not waited */
    }
    for (GpuPar *p = live; p; p = p->next) {
        if (!from_parent(p) && !p->joined &&
            !__atomic_load_n(&p->busy, __ATOMIC_SEQ_CST)) {
            join_helpers(p);
        }
    }
    pthread_mutex_unlock(&live_mu);
}

static void fork_hook(void)
{
    pthread_atfork(NULL, NULL, forked_child);
    emu_at_unload(par_exit);
}

static inline void relax(uint32_t i)
{
    if (i % YIELD_EVERY == YIELD_EVERY - 1) {
        sched_yield();
    } else {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

/* Phase 1 for the SMs of the list that thread `me` (0: the caller)
 * takes: first those it ran last (their state is in its core's caches:
 * an SM moved between cores costs more than its visit), then any left,
 * from the end of the list. */
static void work(GpuPar *p, uint32_t me)
{
    for (uint32_t i = 0; i < p->nlist; i++) {
        GpuSm *sm = p->list[i];
        if (__atomic_load_n(&sm->owner, __ATOMIC_RELAXED) == me &&
            !__atomic_exchange_n(&p->taken[i], 1, __ATOMIC_RELAXED)) {
            gpu_sm_phase1(p->g, sm, p->t); /* (its rc in sm->rc) */
        }
    }
    for (uint32_t i = p->nlist; i-- > 0;) {
        if (!__atomic_exchange_n(&p->taken[i], 1, __ATOMIC_RELAXED)) {
            __atomic_store_n(&p->list[i]->owner, me, __ATOMIC_RELAXED);
            gpu_sm_phase1(p->g, p->list[i], p->t);
        }
    }
}

/* Wait for gen to move past seen; the new value. */
static uint32_t wait_gen(GpuPar *p, uint32_t seen)
{
    for (uint32_t i = 0; i < SPIN; i++) {
        uint32_t g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE);
        if (g != seen) {
            return g;
        }
        relax(i);
    }
    pthread_mutex_lock(&p->mu);
    __atomic_add_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
    uint32_t g;
    while ((g = __atomic_load_n(&p->gen, __ATOMIC_SEQ_CST)) == seen) {
        pthread_cond_wait(&p->cv, &p->mu);
    }
    __atomic_sub_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&p->mu);
    return g;
}

static void *helper(void *arg)
{
    GpuPar *p = arg;
    const uint32_t me = __atomic_add_fetch(&p->ids, 1, __ATOMIC_RELAXED);
    uint32_t seen = 0;
    for (;;) {
        seen = wait_gen(p, seen);
        if (p->quit) {
            return NULL;
        }
        work(p, me);
        if (__atomic_add_fetch(&p->done, 1, __ATOMIC_SEQ_CST) == p->nth &&
            __atomic_load_n(&p->main_sleep, __ATOMIC_SEQ_CST)) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_broadcast(&p->dcv);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

static void start_gen(GpuPar *p)
{
    __atomic_add_fetch(&p->gen, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

/* Whether p was made before a fork (its threads are the parent's). */
static bool from_parent(const GpuPar *p)
{
    return p->forks != atomic_load_explicit(&fork_gen, memory_order_relaxed);
}

/* Tell the helpers to quit and join them. */
static void join_helpers(GpuPar *p)
{
    p->quit = true;
    start_gen(p);
    for (uint32_t i = 0; i < p->nth; i++) {
        pthread_join(p->th[i], NULL);
    }
    p->joined = true;
}

void gpu_par_free(GpuPar *p)
{
    if (!p) {
        return;
    }
    pthread_mutex_lock(&live_mu);
    *p->prev = p->next;
    if (p->next) {
        p->next->prev = p->prev;
    }
    pthread_mutex_unlock(&live_mu);
    if (from_parent(p)) { /* nothing to join or wake: only the memory */
        free(p->taken);
        free(p->th);
        free(p);
        return;
    }
    if (!p->joined) {
        join_helpers(p);
    }
    pthread_cond_destroy(&p->cv);
    pthread_cond_destroy(&p->dcv);
    pthread_mutex_destroy(&p->mu);
    free(p->taken);
    free(p->th);
    free(p);
}

/* The helpers for g->threads threads (fewer when the host refuses
 * threads: the SMs are then shared out among those there are). */
static GpuPar *par_get(Gpu *g)
{
    if (__atomic_load_n(&exiting, __ATOMIC_SEQ_CST)) {
        return NULL;            /* (the helpers may have been joined) */
    }
    if (g->par && from_parent(g->par)) {
        gpu_par_free(g->par);
        g->par = NULL;
    }
    if (g->par && g->par->n == g->threads) {
        return g->par;
    }
    gpu_par_free(g->par);
    g->par = NULL;
    GpuPar *p = calloc(1, sizeof *p);
    uint32_t want = g->threads - 1;
    if (!p || !(p->th = calloc(want, sizeof *p->th))) {
        free(p);
        return NULL;
    }
    p->g = g;
    pthread_once(&fork_once, fork_hook);
    p->forks = atomic_load(&fork_gen);
    /* made and listed under live_mu, so that the exit handler either
     * finds the set with its helpers or finds the lock held */
    pthread_mutex_lock(&live_mu);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    pthread_cond_init(&p->dcv, NULL);
    for (uint32_t i = 0; i < want; i++) {
        if (pthread_create(&p->th[i], NULL, helper, p) != 0) {
            break;
        }
        p->nth++;
    }
    p->n = p->nth + 1;
    if (p->n != g->threads) {
        g->threads = p->n; /* (so that the next phase does not retry) */
    }
    p->next = live;
    p->prev = &live;
    if (live) {
        live->prev = &p->next;
    }
    live = p;
    pthread_mutex_unlock(&live_mu);
    g->par = p;
    return p;
}

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

bool gpu_par_want(Gpu *g)
{
    GpuPar *p = par_get(g);
    if (!p || p->n < 2) {
        return false;
    }
    if (!g->c.par_adapt) {
        return true;
    }
    if (p->stage < 2) {
        p->fan = p->stage == 1;
    }
    return p->fan;
}

void gpu_par_took(Gpu *g, uint32_t n)
{
    GpuPar *p = g->par;
    if (!p || p->n < 2 || !g->c.par_adapt) {
        return;
    }
    /* whole cycles are timed, from one to the next: an SM's state that
     * a fanned-out phase moved to another core costs the next cycle's
     * steps on this one, outside the phase */
    const double now = p->stage < 2 ? mono_ns() : 0;
    if (p->stage < 2 && p->t0 > 0) {
        p->ns[p->stage] += now - p->t0;
        p->visits[p->stage] += n;
    }
    if (++p->left >= (p->stage < 2 ? SAMPLE : KEEP)) {
        p->left = 0;
        if (p->stage == 2) { /* measure again */
            p->stage = 0;
            p->ns[0] = p->ns[1] = 0;
            p->visits[0] = p->visits[1] = 0;
        } else if (p->stage == 0) {
            p->stage = 1;
        } else {
            p->stage = 2;
            p->fan = p->ns[1] * (double)p->visits[0] <
                     p->ns[0] * (double)p->visits[1];
        }
    }
    p->t0 = p->stage < 2 ? (now > 0 ? now : mono_ns()) : 0;
}

void gpu_par_phase1(Gpu *g, GpuSm **list, uint32_t n, uint64_t t,
                    bool fan)
{
    for (uint32_t i = 0; i < n; i++) {
        list[i]->defer = true;
    }
    GpuPar *p = fan && g->threads > 1 ? par_get(g) : NULL;
    if (p) {
        /* busy before exiting is read: par_exit's contract */
        __atomic_store_n(&p->busy, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&exiting, __ATOMIC_SEQ_CST)) {
            __atomic_store_n(&p->busy, 0, __ATOMIC_RELEASE);
            p = NULL;
        }
    }
    if (p && p->n >= 2 && n >= 2 && n > p->captaken) {
        uint8_t *a = realloc(p->taken, n);
        if (a) {
            p->taken = a;
            p->captaken = n;
        }
    }
    if (!p || p->n < 2 || n < 2 || n > p->captaken) {
        /* no threads, one SM (or no memory for the hand-out): the phase
         * on this one, in a section all the same (a step's fault waits
         * with its SM, gpu.c) */
        if (p) {
            __atomic_store_n(&p->busy, 0, __ATOMIC_RELEASE);
        }
        g->api->parallel(g->h, 1);
        for (uint32_t i = 0; i < n; i++) {
            gpu_sm_phase1(g, list[i], t);
        }
        g->api->parallel(g->h, 0);
        return;
    }
    memset(p->taken, 0, n);
    p->list = list;
    p->nlist = n;
    p->t = t;
    __atomic_store_n(&p->done, 0, __ATOMIC_RELAXED);
    g->api->parallel(g->h, 1);
    start_gen(p);
    work(p, 0);
    uint32_t i = 0;
    while (__atomic_load_n(&p->done, __ATOMIC_ACQUIRE) != p->nth) {
        if (++i < SPIN) {
            relax(i);
            continue;
        }
        pthread_mutex_lock(&p->mu);
        __atomic_store_n(&p->main_sleep, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&p->done, __ATOMIC_SEQ_CST) != p->nth) {
            pthread_cond_wait(&p->dcv, &p->mu);
        }
        __atomic_store_n(&p->main_sleep, 0, __ATOMIC_SEQ_CST);
        pthread_mutex_unlock(&p->mu);
    }
    __atomic_store_n(&p->busy, 0, __ATOMIC_RELEASE);
    g->api->parallel(g->h, 0);
}
