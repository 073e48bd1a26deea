/*
 * emu/pool.c: the host threads that run launches, kept for the life of
 * the process, and the striped atomic locks (see emu/pool.h for the
 * contract).
 *
 * One pool serves one job at a time: the threads wait on a condition
 * variable for the next job's generation, run fn(ctx, k) for their k
 * when k is below the job's width, and the last one to finish wakes the
 * caller; at exit the idle threads are joined.  A second job that
 * arrives while one runs (two devices
 * launching from two host threads, or a job started from inside
 * another) runs on threads created for it alone, as every job did
 * before the pool was kept: it never waits for the first.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "emu/pool.h"
#include "emu/unload.h"

/* ------------------------------------------- threads for one job */

typedef struct PoolArg {
    EmuPoolFn fn;
    void *ctx;
    unsigned k;
} PoolArg;

/* Threads of ours now running or kept (emu_pool_threads). */
static unsigned live;

static void *once_main(void *p)
{
    PoolArg *a = p;
    __atomic_add_fetch(&live, 1, __ATOMIC_SEQ_CST);
    a->fn(a->ctx, a->k);
    __atomic_sub_fetch(&live, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

unsigned emu_pool_threads(void)
{
    return __atomic_load_n(&live, __ATOMIC_SEQ_CST);
}

static unsigned run_once(unsigned n, EmuPoolFn fn, void *ctx)
{
    pthread_t *t = calloc(n, sizeof(*t));
    PoolArg *a = calloc(n, sizeof(*a));
    unsigned started = 0;
    for (unsigned k = 1; t && a && k < n; k++) {
        a[k] = (PoolArg){ fn, ctx, k };
        if (pthread_create(&t[k], NULL, once_main, &a[k]) != 0) {
            break;
        }
        started = k;
    }
    fn(ctx, 0);
    for (unsigned k = 1; k <= started; k++) {
        pthread_join(t[k], NULL);
    }
    free(t);
    free(a);
    return started + 1;
}

/* ------------------------------------------------ the kept pool */

static struct {
    pthread_mutex_t mu;
    pthread_cond_t go;        /* a new generation */
    pthread_cond_t done;      /* pending reached 0 */
    bool busy;                /* a job holds the pool */
    unsigned nthreads;        /* kept threads: workers 1..nthreads */
    unsigned long gen;        /* the job's generation */
    EmuPoolFn fn;
    void *ctx;
    unsigned width;           /* workers 0..width-1 run the job */
    unsigned pending;         /* kept workers still running it */
    pthread_t *tid;           /* the kept threads, joined at exit */
    bool quit;                /* at exit: the kept threads return */
} pool = {
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .go = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
};
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

/* Launches come back to back (a program's loop of kernels): a kept
 * thread that finished a job, and a caller whose helpers are finishing,
 * poll a little before they sleep, so that the next job (or the last
 * helper) does not pay a sleeping thread's wake-up on each side.  About
 * 10-50 us of polling, then the condition variable.  gen and pending are
 * written under mu and read while polling through __atomic. */
#define POLL_SPINS 2000

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

static unsigned long gen_now(void)
{
    return __atomic_load_n(&pool.gen, __ATOMIC_ACQUIRE);
}

static void *kept_main(void *p)
{
    unsigned k = (unsigned)(uintptr_t)p;
    __atomic_add_fetch(&live, 1, __ATOMIC_SEQ_CST);     /* for good */
    pthread_mutex_lock(&pool.mu);
    /* a thread made for a job runs that job: it was counted in its width */
    unsigned long seen = pool.gen - 1;
    for (;;) {
        if (gen_now() == seen) {
            pthread_mutex_unlock(&pool.mu);
            for (int i = 0; i < POLL_SPINS && gen_now() == seen; i++) {
                cpu_relax();
            }
            pthread_mutex_lock(&pool.mu);
        }
        while (gen_now() == seen) {
            pthread_cond_wait(&pool.go, &pool.mu);
        }
        if (pool.quit) {
            pthread_mutex_unlock(&pool.mu);
            __atomic_sub_fetch(&live, 1, __ATOMIC_SEQ_CST);
            return NULL;
        }
        seen = gen_now();
        if (k >= pool.width) {
            continue;
        }
        EmuPoolFn fn = pool.fn;
        void *ctx = pool.ctx;
        pthread_mutex_unlock(&pool.mu);
        fn(ctx, k);
        pthread_mutex_lock(&pool.mu);
        if (__atomic_sub_fetch(&pool.pending, 1, __ATOMIC_ACQ_REL) == 0) {
            pthread_cond_signal(&pool.done);
        }
    }
    return NULL;
}

/* A forked child has none of the parent's threads, and a job the parent
 * ran at the fork never ends there: the child starts with an empty
 * pool.  (pthread_atfork(3): the child's handler runs in the only
 * thread; the state is reset rather than unlocked.) */
static void pool_forked(void)
{
    pthread_mutex_init(&pool.mu, NULL);
    pthread_cond_init(&pool.go, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.busy = false;
    pool.nthreads = 0;
    pool.pending = 0;
    pool.width = 0;
    free(pool.tid);
    pool.tid = NULL;
    __atomic_store_n(&live, 0, __ATOMIC_SEQ_CST);
}

/* At exit the idle kept threads return and are joined, so that nothing
 * of theirs (stacks, thread-local storage) is left for a leak checker
 * to see.  Threads still running a job (exit called while a kernel runs
 * on another host thread) are left alone: exit must not wait. */
static void pool_exit(void)
{
    if (pthread_mutex_trylock(&pool.mu) != 0) {
        return;
    }
    if (pool.busy || !pool.nthreads) {
        pthread_mutex_unlock(&pool.mu);
        return;
    }
    pool.quit = true;
    __atomic_add_fetch(&pool.gen, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&pool.go);
    unsigned n = pool.nthreads;
    pthread_t *t = pool.tid;
    pool.nthreads = 0;
    pool.tid = NULL;
    pthread_mutex_unlock(&pool.mu);
    for (unsigned k = 0; k < n; k++) {
        pthread_join(t[k], NULL);
    }
    free(t);
}

static void pool_init(void)
{
    pthread_atfork(NULL, NULL, pool_forked);
    emu_at_unload(pool_exit);
}

unsigned emu_pool_run(unsigned n, EmuPoolFn fn, void *ctx)
{
    if (n <= 1) {
        fn(ctx, 0);
        return 1;
    }
    pthread_once(&pool_once, pool_init);
    pthread_mutex_lock(&pool.mu);
    if (pool.busy || pool.quit) {
        pthread_mutex_unlock(&pool.mu);
        return run_once(n, fn, ctx);
    }
    pool.busy = true;
    __atomic_add_fetch(&pool.gen, 1, __ATOMIC_RELEASE);
    pool.fn = fn;
    pool.ctx = ctx;
    pool.width = n;
    /* new threads start in this generation (kept_main) */
    if (pool.nthreads + 1 < n) {
        pthread_t *t = realloc(pool.tid, (n - 1) * sizeof(*t));
        if (t) {
            pool.tid = t;
        }
        while (t && pool.nthreads + 1 < n &&
               pthread_create(&pool.tid[pool.nthreads], NULL, kept_main,
                              (void *)(uintptr_t)(pool.nthreads + 1)) == 0) {
            pool.nthreads++;
        }
    }
    if (pool.width > pool.nthreads + 1) {
        pool.width = pool.nthreads + 1;   /* the host refused threads */
    }
    unsigned width = pool.width;
    __atomic_store_n(&pool.pending, width - 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&pool.go);
    pthread_mutex_unlock(&pool.mu);

    fn(ctx, 0);

    for (int i = 0; i < POLL_SPINS &&
         __atomic_load_n(&pool.pending, __ATOMIC_ACQUIRE); i++) {
        cpu_relax();
    }
    pthread_mutex_lock(&pool.mu);
    while (__atomic_load_n(&pool.pending, __ATOMIC_ACQUIRE)) {
        pthread_cond_wait(&pool.done, &pool.mu);
    }
    pool.busy = false;
    pthread_mutex_unlock(&pool.mu);
    return width;
}

unsigned emu_host_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

/* 64 spin locks; 16-byte guest atomics are rare and short. */
#define STRIPES 64
static int stripe[STRIPES];

static int *stripe_of(const void *p)
{
    uintptr_t a = (uintptr_t)p >> 4;
    return &stripe[(a ^ (a >> 6)) % STRIPES];
}

void emu_atomic_lock(const void *p)
{
    int *s = stripe_of(p);
    while (__atomic_exchange_n(s, 1, __ATOMIC_ACQUIRE)) {
        while (__atomic_load_n(s, __ATOMIC_RELAXED)) {
            sched_yield();
        }
    }
}

void emu_atomic_unlock(const void *p)
{
    __atomic_store_n(stripe_of(p), 0, __ATOMIC_RELEASE);
}
