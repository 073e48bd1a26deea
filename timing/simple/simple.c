/*
 * timing/simple/simple.c: the `simple` model's ops table, its
 * statistics, events and the cycle loop (see simple.h for the model).
 *
 * One cycle t:
 *   1. retire the CTAs finished and drained by t;
 *   2. if nothing is resident and no CTA is left: the kernel ended at t;
 *   3. from launch + launch_latency on, place CTAs while they fit
 *      (round robin over the SMs, one CTA or one whole cluster at a
 *      time);
 *   4. every SM with resident CTAs: set_time(sm, t), then each of its
 *      schedulers issues one warp or records why not;
 *   5. next cycle: t + 1 if anything issued; else the earliest cycle a
 *      warp could issue or a CTA retire, and the skipped cycles get the
 *      stall reasons and resident warps of cycle t (nothing changes
 *      until then).
 * Every scheduler of every SM is counted once per cycle, issued or
 * stalled, so simple.issued + the simple.stall.* counters equal
 * simple.cycles * SMs * schedulers_per_sm.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/simple/simple.h"
#include "timing/tm.h"

static const char *const stall_name[SIMPLE_STALL_COUNT] = {
    [SIMPLE_STALL_SCOREBOARD] = "scoreboard",
    [SIMPLE_STALL_UNIT] = "unit",
    [SIMPLE_STALL_BARRIER] = "barrier",
    [SIMPLE_STALL_ASYNC] = "async",
    [SIMPLE_STALL_THROTTLE] = "throttle",
    [SIMPLE_STALL_IDLE] = "idle",
};
static const char *const stall_help[SIMPLE_STALL_COUNT] = {
    [SIMPLE_STALL_SCOREBOARD] =
        "scheduler cycles without issue: a register write pending",
    [SIMPLE_STALL_UNIT] = "scheduler cycles without issue: the unit is busy",
    [SIMPLE_STALL_BARRIER] =
        "scheduler cycles without issue: warps at a barrier",
    [SIMPLE_STALL_ASYNC] =
        "scheduler cycles without issue: waiting for an async operation",
    [SIMPLE_STALL_THROTTLE] =
        "scheduler cycles without issue: the SM's memory port is busy",
    [SIMPLE_STALL_IDLE] = "scheduler cycles without a live warp",
};

static int stat(Simple *s, const char *path, const uint64_t *ctr,
                const char *help)
{
    return s->api->stat(s->h, path, ctr, help);
}

/* Make SMs up to n (their counters are registered once, when made). */
static int ensure_sms(Simple *s, uint32_t n)
{
    if (n > s->smcap) {
        SimpleSm **a = realloc(s->sm, n * sizeof *a);
        if (!a) {
            return -1;
        }
        s->sm = a;
        s->smcap = n;
    }
    while (s->nsms < n) {
        SimpleSm *sm = simple_sm_new(s->nsms, s->c.schedulers, s->c.occ.max_warps);
        if (!sm) {
            return -1;
        }
        s->sm[s->nsms++] = sm;
        char path[48];
        snprintf(path, sizeof path, "simple.sm%u.issued", sm->id);
        if (stat(s, path, &sm->issued,
                 "warp instructions issued on this SM") != 0) {
            return -1;
        }
        snprintf(path, sizeof path, "simple.sm%u.warps_resident", sm->id);
        if (stat(s, path, &sm->warps_resident,
                 "resident warps summed over cycles (occupancy: divide by "
                 "cycles)") != 0) {
            return -1;
        }
    }
    return 0;
}

static void simple_destroy(void *tm)
{
    Simple *s = tm;
    if (!s) {
        return;
    }
    for (uint32_t i = 0; i < s->nsms; i++) {
        simple_sm_free(s->sm[i]);
    }
    free(s->sm);
    tm_kern_free_all(&s->kern);
    tm_map_free(&s->warps);
    free(s->scratch.iv);
    free(s);
}

static void *simple_create(const ptxemu_tm_host_api *api, ptxemu_tm_host *h)
{
    Simple *s = calloc(1, sizeof *s);
    if (!s) {
        api->error(h, "simple: out of memory");
        return NULL;
    }
    s->api = api;
    s->h = h;
    if (simple_config_read(&s->c, api, h) != 0) {
        free(s);
        return NULL;
    }
    int rc = stat(s, "simple.cycles", &s->st_cycles,
                  "cycles from launch to the last CTA's retirement");
    rc |= stat(s, "simple.issued", &s->st_issued, "warp instructions issued");
    rc |= stat(s, "simple.thread_insns", &s->st_thread_insns,
               "thread instructions (lanes that executed)");
    rc |= stat(s, "simple.ctas", &s->st_ctas, "CTAs placed");
    for (int r = 0; r < SIMPLE_STALL_COUNT; r++) {
        char path[48];
        snprintf(path, sizeof path, "simple.stall.%s", stall_name[r]);
        rc |= stat(s, path, &s->st_stall[r], stall_help[r]);
    }
    if (rc != 0 || ensure_sms(s, api->num_sms(h)) != 0) {
        api->error(h, "simple: cannot register statistics");
        simple_destroy(s);
        return NULL;
    }
    return s;
}

static int simple_kernel_begin(void *tm, const ptxemu_tm_kernel *k)
{
    Simple *s = tm;
    uint32_t nsms = s->api->num_sms(s->h);
    if (nsms == 0) {
        s->api->error(s->h, "simple: the device has no SM");
        return PTXEMU_TM_ERROR;
    }
    if (s->kern && s->kern->running && nsms != s->active_sms) {
        s->api->error(s->h, "simple: the SM count changed inside a kernel");
        return PTXEMU_TM_ERROR;
    }
    if (!s->kern || !s->kern->running) {
        for (uint32_t i = 0; i < s->nsms; i++) {
            simple_sm_drop_stale(s, s->sm[i]);
        }
    }
    bool fresh;
    if (ensure_sms(s, nsms) != 0 ||
        !tm_kern_begin(&s->kern, k, s->c.launch_latency, &s->c.occ, &fresh)) {
        s->api->error(s->h, "simple: out of memory");
        return PTXEMU_TM_ERROR;
    }
    if (fresh) { /* a new launch: the SMs' pipelines are empty */
        for (uint32_t i = 0; i < s->nsms; i++) {
            SimpleSm *sm = s->sm[i];
            sm->port_free = 0;
            for (uint64_t j = 0; j < s->c.schedulers; j++) {
                memset(sm->sched[j].unit_free, 0,
                       sizeof sm->sched[j].unit_free);
                sm->sched[j].last = UINT32_MAX;
            }
        }
    }
    s->active_sms = nsms;
    simple_sched_poke_all(s);
    s->api->set_clock_mhz(s->h, s->c.clock_mhz);
    return PTXEMU_TM_OK;
}

/* ---- placement ---- */

/* Place `group` CTAs (one cluster, or one CTA) if they fit, spreading
 * from next_sm; force them when none of the kernel's CTAs is resident
 * (those of a parent grid may fill the SMs: they wait for this one).
 * 1 placed, 0 not now, negative: error. */
static int place_group(Simple *s, uint64_t group)
{
    SimpleKernel *kn = s->kern;
    const uint32_t n = s->active_sms;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n && total < group; i++) {
        uint64_t r = simple_sm_room(s, s->sm[(kn->next_sm + i) % n]);
        total += r > group ? group : r;
    }
    bool force = total < group;
    if (force && kn->resident) {
        return 0;
    }
    if (force && !kn->warned) {
        kn->warned = true;
        s->api->log(s->h, "simple: a CTA (or cluster) exceeds an SM's "
                          "limits; placed anyway, alone");
    }
    uint64_t left = group;
    for (uint32_t i = 0; left > 0 && !kn->grid_done; i = (i + 1) % n) {
        SimpleSm *sm = s->sm[(kn->next_sm + i) % n];
        uint64_t r = force ? 1 : simple_sm_room(s, sm);
        if (r == 0) {
            continue;
        }
        for (uint64_t j = 0; j < r && left > 0 && !kn->grid_done; j++) {
            int rc = simple_sm_place(s, sm);
            if (rc < 0) {
                return rc;
            }
            left -= rc == 1;
        }
        if (left == 0 || kn->grid_done) {
            kn->next_sm = (sm->id + 1) % n;
        }
    }
    return 1;
}

static int place_all(Simple *s)
{
    SimpleKernel *kn = s->kern;
    while (!kn->grid_done) {
        int rc = place_group(s, tm_kern_group(kn));
        if (rc <= 0) {
            return rc;
        }
    }
    return 0;
}

/* ---- events ---- */

/* Peek the kernel's warps waiting at a barrier again, from the next
 * cycle. */
static void recheck_barriers(Simple *s, uint64_t now)
{
    for (uint32_t i = 0; i < s->active_sms; i++) {
        for (SimpleCta *c = s->sm[i]->ctas; c; c = c->next) {
            for (uint32_t j = 0; j < c->nwarps && c->kern == s->kern; j++) {
                SimpleWarp *x = &c->w[j];
                if (x->at_barrier) {
                    x->peeked = false;
                    x->not_before = now + 1;
                    simple_sched_poke(s, x);
                }
            }
        }
    }
}

static SimpleCta *find_cta(Simple *s, const ptxemu_tm_cta *h)
{
    for (uint32_t i = 0; i < s->nsms; i++) {
        for (SimpleCta *c = s->sm[i]->ctas; c; c = c->next) {
            if (c->h == h) {
                return c;
            }
        }
    }
    return NULL;
}

static void simple_event(void *tm, ptxemu_tm_event ev, ptxemu_tm_cta *cta,
                         ptxemu_tm_warp *w)
{
    Simple *s = tm;
    if (!s->kern) {
        return;
    }
    const uint64_t now = s->kern->now;
    SimpleWarp *sw = w ? tm_map_get(&s->warps, tm_map_ptr(w)) : NULL;
    if (ev == PTXEMU_TM_EV_WARP_EXIT) {
        if (sw) {
            simple_warp_exited(s, sw, now);
        }
        return;
    }
    if (ev == PTXEMU_TM_EV_WARP_CHANGED) { /* its next instruction */
        if (sw) {
            sw->peeked = false;
        }
        return;
    }
    if (ev != PTXEMU_TM_EV_BARRIER_RELEASE) {
        return; /* CTA_DONE: the exits were counted */
    }
    if (s->kern->cluster_size > 1) {
        /* A cluster or grid barrier also releases other CTAs' warps, and
         * the event names only the releasing CTA. */
        recheck_barriers(s, now);
        return;
    }
    SimpleCta *c = sw ? sw->cta : find_cta(s, cta);
    if (!c) {
        return;
    }
    /* Released warps issue from the next cycle; peeked again lazily. */
    for (uint32_t i = 0; i < c->nwarps; i++) {
        SimpleWarp *x = &c->w[i];
        if (x->at_barrier) {
            x->at_barrier = false;
            x->peeked = false;
            x->not_before = now + 1;
            simple_sched_poke(s, x);
        }
    }
}

/* ---- the cycle loop ---- */

static int stop(Simple *s, int rc)
{
    return tm_kern_stop(s->kern, rc);
}

/* Steps 4 and 5 of one cycle for one SM: its schedulers' issues and
 * stalls tallied into cnt (SIMPLE_STALL_COUNT: issued); *next: the
 * earliest cycle something can happen on it. */
static int sm_cycle(Simple *s, SimpleSm *sm, uint64_t t,
                    uint64_t cnt[SIMPLE_STALL_COUNT + 1], uint64_t *next)
{
    const uint32_t nsched = (uint32_t)s->c.schedulers;
    if (!sm->used.ctas) {
        cnt[SIMPLE_STALL_IDLE] += nsched;
        return 0;
    }
    s->api->set_time(s->h, sm->id, t);
    for (uint32_t k = 0; k < nsched; k++) {
        int done;
        SimpleStall why;
        uint64_t wake;
        int rc = simple_sched_cycle(s, sm, k, t, &done, &why, &wake);
        if (rc < 0) {
            return rc;
        }
        if (done) {
            cnt[SIMPLE_STALL_COUNT]++;
        } else {
            cnt[why]++;
            if (wake < *next) {
                *next = wake;
            }
        }
    }
    for (SimpleCta *c = sm->ctas; c; c = c->next) {
        uint64_t r = c->kern == s->kern ? simple_cta_retire_at(c)
                                        : SIMPLE_NEVER;
        if (r < *next) {
            *next = r;
        }
    }
    return 0;
}

static int simple_cycle(void *tm, uint64_t *now)
{
    Simple *s = tm;
    SimpleKernel *kn = s->kern;
    if (!kn || !kn->running) {
        *now = kn ? kn->end : 0;
        return 0;
    }
    const uint64_t t = kn->now;
    uint64_t next = SIMPLE_NEVER;
    for (uint32_t i = 0; i < s->active_sms; i++) {
        simple_sm_retire(s, s->sm[i], t);
    }
    if (tm_kern_over(kn, t)) {
        *now = t;
        return 0;
    }
    if (t >= kn->launch_at) {
        int rc = place_all(s);
        if (rc < 0) {
            return stop(s, rc);
        }
    } else {
        next = kn->launch_at;
    }
    uint64_t cnt[SIMPLE_STALL_COUNT + 1] = {0};
    for (uint32_t i = 0; i < s->active_sms; i++) {
        int rc = sm_cycle(s, s->sm[i], t, cnt, &next);
        if (rc < 0) {
            return stop(s, rc);
        }
    }
    /* Every live warp may wait at a barrier.  One released by a warp of
     * another CTA (a cluster or grid barrier) may come without an event
     * for its own CTA: look again.  If nothing changes it is a guest
     * deadlock; the host's watchdog reports it with the emulator's
     * located message, and a host that never does is told by the
     * model's error. */
    int idle = tm_kern_next(kn, t, &next, cnt[SIMPLE_STALL_COUNT] > 0);
    if (idle < 0) {
        s->api->error(s->h, "simple: no warp can ever issue again (every "
                            "live warp waits at a barrier that nothing "
                            "will release)");
        return stop(s, PTXEMU_TM_ERROR);
    }
    if (idle) {
        recheck_barriers(s, t);
    }
    /* Nothing changes before `next` (or something issued and next is
     * t + 1): cycle t's stalls hold for every cycle until then. */
    for (int r = 0; r < SIMPLE_STALL_COUNT; r++) {
        s->st_stall[r] += cnt[r] * (next - t);
    }
    for (uint32_t i = 0; i < s->active_sms; i++) {
        s->sm[i]->warps_resident += s->sm[i]->used.warps * (next - t);
    }
    s->st_cycles += next - t; /* as time passes: per-interval rows */
    kn->now = next;
    *now = next;
    return 1;
}

static int simple_kernel_end(void *tm, uint64_t *end_cycle)
{
    Simple *s = tm;
    if (!s->kern) {
        *end_cycle = 0;
        return PTXEMU_TM_OK;
    }
    for (uint32_t i = 0; i < s->nsms; i++) {
        simple_sm_drop(s, s->sm[i]); /* only after an error */
    }
    if (tm_kern_end(&s->kern, end_cycle)) {
        simple_sched_poke_all(s);
    }
    return PTXEMU_TM_OK;
}

static const char simple_help[] =
    "A fast first model: per SM, warp schedulers issuing one warp "
    "instruction per cycle each, a per-warp register scoreboard, a fixed "
    "latency and initiation interval per unit class, barriers and async "
    "waits that stall, a fixed latency per memory space with a bandwidth "
    "cap on global/local sectors, occupancy-limited CTA residency and a "
    "launch latency.  Defaults: an A100-class SM.";

int tm_simple_init(uint32_t host_abi_version, ptxemu_tm_ops *ops)
{
    if (host_abi_version < PTXEMU_TM_ABI_MIN ||
        ops->struct_size < sizeof *ops) {
        return -1;
    }
    ops->abi_version = PTXEMU_TM_ABI_VERSION;
    ops->name = "simple";
    ops->help = simple_help;
    ops->params = simple_params;
    ops->nparams = simple_nparams;
    ops->create = simple_create;
    ops->destroy = simple_destroy;
    ops->kernel_begin = simple_kernel_begin;
    ops->cycle = simple_cycle;
    ops->kernel_end = simple_kernel_end;
    ops->event = simple_event;
    return 0;
}
