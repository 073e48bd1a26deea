/*
 * emu/pool.c: host threads for one launch and the striped atomic locks
 * (see emu/pool.h for the contract).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "emu/pool.h"

typedef struct PoolArg {
    EmuPoolFn fn;
    void *ctx;
    unsigned k;
} PoolArg;

static void *pool_main(void *p)
{
    PoolArg *a = p;
    a->fn(a->ctx, a->k);
    return NULL;
}

unsigned emu_pool_run(unsigned n, EmuPoolFn fn, void *ctx)
{
    if (n <= 1) {
        fn(ctx, 0);
        return 1;
    }
    pthread_t *t = calloc(n, sizeof(*t));
    PoolArg *a = calloc(n, sizeof(*a));
    unsigned started = 0;
    for (unsigned k = 1; t && a && k < n; k++) {
        a[k] = (PoolArg){ fn, ctx, k };
        if (pthread_create(&t[k], NULL, pool_main, &a[k]) != 0) {
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
