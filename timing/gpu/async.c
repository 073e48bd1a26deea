/*
 * timing/gpu/async.c: completion of asynchronous operations (gpu.h).
 *
 * The host reports a token for each operation an instruction starts
 * (cp.async, bulk copies, wgmma ...) and, at a wait (cp.async.wait_group,
 * mbarrier test/try_wait, wgmma.wait_group ...), the tokens that wait
 * covered; the data are already in place (the functional emulator ran
 * the copy at issue), so the model delays the waiting warp: its next
 * instruction issues once every listed token completed.  A token
 * completes with its operation's last memory reply, or at a known cycle
 * (an operation without memory-system accesses).  Tokens the model does
 * not know (completed and forgotten) are complete.  Records whose
 * completion came from a reply are dropped at once (a later wait finds
 * them complete); those with a known future cycle stay until the kernel
 * ends.
 */
#include "config.h"

#include <stdlib.h>

#include "timing/gpu/gpu.h"

int gpu_token_start(Gpu *g, uint64_t token, uint64_t done)
{
    pthread_mutex_lock(&g->tokens_mu);
    GpuToken *t = tm_map_get(&g->tokens, token);
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t || tm_map_put(&g->tokens, token, t) != 0) {
            pthread_mutex_unlock(&g->tokens_mu);
            free(t);
            return -1;
        }
    }
    t->done = done;
    pthread_mutex_unlock(&g->tokens_mu);
    return 0;
}

static void wake(Gpu *g, GpuWarp *w, uint64_t cycle)
{
    gpu_warp_touch(w);
    if (cycle > w->not_before) {
        w->not_before = cycle;
        w->nb_why = GPU_ST_ASYNC;
    }
    gpu_poke(g, w);
}

void gpu_token_done(Gpu *g, uint64_t token, uint64_t cycle)
{
    pthread_mutex_lock(&g->tokens_mu);
    GpuToken *t = tm_map_get(&g->tokens, token);
    if (t) {
        tm_map_del(&g->tokens, token);
    }
    pthread_mutex_unlock(&g->tokens_mu);
    if (!t) {
        return;
    }
    /* (its waiters are the warps of the CTA that started it: its SM's) */
    for (uint32_t i = 0; i < t->nwaiter; i++) {
        GpuWarp *w = t->waiter[i];
        w->waits--;
        wake(g, w, cycle);
    }
    free(t->waiter);
    free(t);
}

int gpu_token_wait(Gpu *g, GpuWarp *w, const uint64_t *tok, uint32_t n,
                   uint64_t now)
{
    (void)now;
    int rc = 0;
    pthread_mutex_lock(&g->tokens_mu);
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        GpuToken *t = tm_map_get(&g->tokens, tok[i]);
        if (!t) {
            continue;
        }
        if (t->done != GPU_NEVER) {
            wake(g, w, t->done);
            continue;
        }
        if (t->nwaiter == t->cap) {
            uint32_t cap = t->cap ? t->cap * 2 : 4;
            GpuWarp **a = realloc(t->waiter, cap * sizeof *a);
            if (!a) {
                rc = -1;
                break;
            }
            t->waiter = a;
            t->cap = cap;
        }
        t->waiter[t->nwaiter++] = w;
        w->waits++;
        gpu_warp_touch(w);
    }
    pthread_mutex_unlock(&g->tokens_mu);
    return rc;
}

void gpu_tokens_clear(Gpu *g)
{
    TmMap *m = &g->tokens;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->key[i] != 0 && m->key[i] != UINT64_MAX) {
            GpuToken *t = m->val[i];
            free(t->waiter);
            free(t);
        }
    }
    tm_map_free(m);
}
