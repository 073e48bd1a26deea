/*
 * timing/gpu/gpu.c: the `gpu` model's ops table, statistics, events and
 * the cycle loop (the model: gpu.h).
 *
 * One cycle t:
 *   1. the memory system runs up to t and delivers the replies due;
 *   2. CTAs finished and drained by t retire;
 *   3. if nothing is resident and no CTA is left: the kernel ended at t;
 *   4. from launch + launch.latency on, CTAs are placed while they fit;
 *   5. each SM with resident CTAs: set_time; one on which nothing can
 *      act before a known cycle is only counted (sm_visit); else its
 *      LSU sends queued requests, its fetch queue sends one fetch
 *      (memory-backed I-cache);
 *   6. each SM visited: its collectors, then each scheduler issues or
 *      records why not;
 *   7. the next cycle: t + 1 if anything issued or a queue still holds
 *      requests; else the earliest of the schedulers' wake-ups, the
 *      memory system's next event, CTA retirements and the launch; the
 *      skipped cycles get cycle t's stall reasons (nothing changes until
 *      then).
 * Every scheduler of every SM is counted once per cycle, so
 * gpu.stall.selected + the other gpu.stall.* = gpu.cycles x SMs x
 * sched.per_sm.  With one host thread steps 5 and 6 run SM by SM; with
 * several, step 5 for every SM first (the same: a scheduler never calls
 * the memory system, whose replies come only from advance, and only a
 * cluster's or grid's barrier, which runs on one thread, touches
 * another SM).
 *
 * Parallel stepping (host->threads() > 1, ptxemu_timing.h's ABI 3).
 * Step 6 runs for the SMs on host threads (par.c) with sm->defer set:
 * an SM touches only its own state (GpuSm: counters, tags, scratch,
 * ops, its CTAs' warps) and steps only instructions that are not
 * PTXEMU_TM_I_SHARED; a scheduler about to issue one stops there
 * (GpuHeld) and the rest of that SM's cycle waits.  Phase 2, on the
 * calling thread, goes through the SMs in SM order: a phase-1 failure
 * stops the kernel there, a held SM issues the instruction and finishes
 * its cycle.  Then the SMs' counts are folded in SM order.  Every step
 * of phase 1 commutes with what SMs before it do in phase 2 (ALU, the
 * CTA's shared memory and its atomics, the thread's local memory,
 * constants; a buffered global step, below, does not, but it runs in
 * phase 1 at any thread count), and phase 2 is one SM after another, so
 * cycles, statistics and results are those of one thread for every
 * program, racy or not.  With one thread, or one SM with work in a
 * cycle, step 6 runs in SM order without phases or synchronisation
 * (unless steps are buffered).
 *
 * Buffered global steps (the host's ABI 6).  With a memory system
 * split by SM (below), where SMs run far ahead, and when
 * host->buffered() says so (g->buffered), plain global loads and
 * stores (PTXEMU_TM_I_BUFFERED) run in phase 1, each SM's stores into a
 * buffer of its own that the host writes to memory in SM order when
 * the section ends.  Whether a step runs inside a section then changes
 * what it reads, so every SM steps in one, one thread too (cycle_par
 * always, phase 1 in a section even when it does not fan out); the
 * results are the same at any thread count and in every run, racy
 * programs included.  With `hier` an SM with requests in flight meets
 * the others about every cycle, and buffering cost more than it gave
 * (1.1x slower on one thread, no faster on two): plain global steps
 * stay SHARED there.
 *
 * A memory system split by SM (gpu_mem.h; g->split: `ideal`) is driven
 * SM by SM: an SM takes its replies due and sends its queued requests
 * at the start of each of its visits (gpu_sm_run), on its own thread,
 * and its next reply is in sm->next; step 1 delivers only the replies
 * of an SM with a CTA to retire (so that the retirement sees them, as
 * it would after advance).  Replies of different SMs touch different
 * SMs (and tokens_mu keeps the asynchronous-token table), so the order
 * in which SMs take theirs changes nothing; but a cluster's CTAs
 * complete each other's tokens, so a kernel with clusters is driven as
 * one (g->split is per kernel, g->split_ok the memory system's).
 *
 * Running ahead (ahead.c; the host's ABI 5).  When the host lets it
 * (host->ahead(): not under statistics intervals, and only for launches
 * it would step on several threads), phase 1 of an SM goes on through
 * its own later cycles for as long as nothing outside the SM can reach
 * it: up to the memory system's next event and the host's next look,
 * stopping early where it leaves something for this thread (a request
 * to send, a step held for phase 2, a CTA to retire, a failure).  The
 * loop then skips it until then (sm->ahead), takes a held step or a
 * failure up in phase 2 of its own cycle, in SM order (cycle_par), and
 * adds what it counted straight to the statistics.  One thread runs
 * ahead exactly as several do, so every count is the same at any
 * thread count; and the cycles, results and statistics are those of
 * the loop that steps every SM cycle by cycle (check_timing_gpu's
 * running_ahead_*, tests/timing_par.test, bench/timing_identity.sh),
 * but for the counts of a kernel stopped by a fault, which hold the
 * steps other SMs ran past its cycle, and what the loads of SMs that
 * race on plain global memory read when steps are buffered (another
 * SM's store becomes visible when the section that made it ends, and
 * sections end elsewhere cycle by cycle).  Under a policy whose demotions
 * number warps launch-wide (GpuPolicy.numbers: two-level) no SM runs
 * ahead.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/gpu/gpu.h"
#include "timing/tm.h"

static const char *const stall_help[GPU_ST_COUNT] = {
    [GPU_ST_SELECTED] = "scheduler cycles that issued (not a stall)",
    [GPU_ST_BARRIER] = "scheduler cycles without issue: warps at a barrier",
    [GPU_ST_MEMBAR] = "scheduler cycles without issue: a fence waits for "
                      "memory",
    [GPU_ST_ASYNC] = "scheduler cycles without issue: waiting for "
                     "asynchronous operations",
    [GPU_ST_SLEEPING] = "scheduler cycles without issue: nanosleep",
    [GPU_ST_NO_INSTRUCTION] = "scheduler cycles without issue: the next "
                              "instruction is not fetched",
    [GPU_ST_BRANCH] = "scheduler cycles without issue: a branch resolves",
    [GPU_ST_LONG_SB] = "scheduler cycles without issue: a memory result",
    [GPU_ST_SHORT_SB] = "scheduler cycles without issue: a shared-memory "
                        "or variable-latency result",
    [GPU_ST_WAIT] = "scheduler cycles without issue: a fixed-latency result",
    [GPU_ST_MATH] = "scheduler cycles without issue: the unit is busy",
    [GPU_ST_MIO] = "scheduler cycles without issue: the shared-memory pipe "
                   "is backed up",
    [GPU_ST_LG] = "scheduler cycles without issue: the LSU queue is full",
    [GPU_ST_DISPATCH] = "scheduler cycles without issue: no free operand "
                        "collector",
    [GPU_ST_IDLE] = "scheduler cycles without a live warp",
};

static int stat(Gpu *g, const char *path, const uint64_t *ctr,
                const char *help)
{
    return g->api->stat(g->h, path, ctr, help);
}

static int ensure_sms(Gpu *g, uint32_t n)
{
    if (n > g->smcap) {
        GpuSm **a = realloc(g->sm, n * sizeof *a);
        if (!a) {
            return -1;
        }
        g->sm = a;
        a = realloc(g->run, n * sizeof *a);
        if (!a) {
            return -1;
        }
        g->run = a;
        g->smcap = n;
    }
    while (g->nsms < n) {
        GpuSm *sm = gpu_sm_new(&g->c, g->nsms);
        if (!sm) {
            return -1;
        }
        g->sm[g->nsms++] = sm;
        char path[64];
        int rc = 0;
        snprintf(path, sizeof path, "gpu.sm%u.issued", sm->id);
        rc |= stat(g, path, &sm->issued, "warp instructions issued");
        snprintf(path, sizeof path, "gpu.sm%u.cycles", sm->id);
        rc |= stat(g, path, &sm->cycles, "cycles with a resident CTA");
        snprintf(path, sizeof path, "gpu.sm%u.warps_resident", sm->id);
        rc |= stat(g, path, &sm->warps_resident,
                   "resident warps summed over cycles (occupancy)");
        if (rc != 0) {
            return -1;
        }
    }
    return 0;
}

static void gpu_destroy(void *tm)
{
    Gpu *g = tm;
    if (!g) {
        return;
    }
    g->c.oc.enabled = false;
    gpu_collect_reset(g); /* frees the collectors and what they hold */
    gpu_par_free(g->par);
    gpu_lsu_free_all(g);
    for (uint32_t i = 0; i < g->nsms; i++) {
        gpu_sm_free(g->sm[i]);
    }
    free(g->sm);
    free(g->run);
    tm_kern_free_all(&g->kern);
    if (g->mem) {
        g->c.mem->destroy(g->mem);
    }
    gpu_tokens_clear(g);
    pthread_mutex_destroy(&g->tokens_mu);
    tm_map_free(&g->warps);
    tm_map_free(&g->fetching);
    free(g);
}

static int register_stats(Gpu *g)
{
    int rc = stat(g, "gpu.cycles", &g->st_cycles,
                  "cycles from launch to the last CTA's retirement");
    rc |= stat(g, "gpu.issued", &g->st_issued, "warp instructions issued");
    rc |= stat(g, "gpu.thread_insns", &g->st_thread_insns,
               "thread instructions (lanes that executed)");
    rc |= stat(g, "gpu.ctas", &g->st_ctas, "CTAs placed");
    rc |= stat(g, "gpu.mem_requests", &g->st_txn,
               "requests (one 128-byte line each) sent to the memory system");
    rc |= stat(g, "gpu.smem_wavefronts", &g->st_wavefronts,
               "shared-memory passes (1 per access without conflicts)");
    rc |= stat(g, "gpu.fetches", &g->st_fetches, "instruction fetches");
    rc |= stat(g, "gpu.machine_parts", &g->st_parts,
               "machine instructions of expanded PTX instructions "
               "(expand.arch)");
    rc |= stat(g, "gpu.replays", &g->st_replays,
               "memory instructions issued while the LSU queue was full, "
               "refused and replayed (lsu.replay; Nsight: inst_issued - "
               "inst_executed)");
    rc |= stat(g, "gpu.not_selected", &g->st_not_selected,
               "warp cycles eligible to issue while the scheduler issued "
               "another warp (Nsight's not_selected; per warp, not among "
               "the per-scheduler gpu.stall.* cycles)");
    rc |= stat(g, "gpu.oc.reads", &g->st_oc_reads,
               "register-file reads by operand collectors (oc.enabled)");
    rc |= stat(g, "gpu.oc.conflicts", &g->st_oc_conflicts,
               "register reads that waited for their bank (oc.enabled)");
    for (int r = 0; r < GPU_ST_COUNT; r++) {
        char path[64];
        snprintf(path, sizeof path, "gpu.stall.%s", gpu_stall_name[r]);
        rc |= stat(g, path, &g->st_stall[r], stall_help[r]);
    }
    return rc;
}

static void *gpu_create(const ptxemu_tm_host_api *api, ptxemu_tm_host *h)
{
    Gpu *g = calloc(1, sizeof *g);
    if (!g) {
        api->error(h, "gpu: out of memory");
        return NULL;
    }
    g->api = api;
    g->h = h;
    pthread_mutex_init(&g->tokens_mu, NULL);
    if (gpu_config_read(&g->c, api, h) != 0) {
        pthread_mutex_destroy(&g->tokens_mu);
        free(g);
        return NULL;
    }
    g->mem = g->c.mem->create(api, h, api->num_sms(h), g->c.clock_mhz,
                              gpu_mem_done, g);
    if (!g->mem) {
        gpu_destroy(g);
        return NULL;
    }
    /* (instruction fetches from memory keep a set of warps of every SM:
     * with them the system is driven as one) */
    const GpuMemOps *mo = g->c.mem;
    g->split_ok = mo->split && mo->advance_sm && mo->next_sm &&
                  !mo->sticky && mo->split(g->mem) && g->c.perfect_icache &&
                  g->c.par_split;
    if (register_stats(g) != 0 || ensure_sms(g, api->num_sms(h)) != 0) {
        api->error(h, "gpu: cannot register statistics");
        gpu_destroy(g);
        return NULL;
    }
    return g;
}

/* An SM not visited in a cycle counts, per scheduler, idle when it has
 * no CTA, else the reason its scheduler gave when it last looked (as
 * gpu_sched_cycle answers asleep).  Those reasons change only in a
 * visit, so the SM's are kept in g->rest from the first cycle it is not
 * visited until the next visit (or CTA change), and each cycle adds
 * g->rest once instead of every such SM its own. */
enum { GPU_REST_NONE, GPU_REST_IDLE, GPU_REST_ASLEEP };

/* Add d (mod 2^64) times what sm counts in state st to cnt. */
void gpu_sm_count_asleep(uint64_t *cnt, const GpuSm *sm, uint64_t d)
{
    for (uint32_t k = 0; k < sm->nsched; k++) {
        cnt[sm->sched[k].why] += d;
    }
}

static void rest_add(uint64_t *cnt, const GpuSm *sm, uint8_t st, uint64_t d)
{
    if (st == GPU_REST_IDLE) {
        cnt[GPU_ST_IDLE] += d * sm->nsched;
    } else if (st == GPU_REST_ASLEEP) {
        gpu_sm_count_asleep(cnt, sm, d);
    }
}

static void rest_set(Gpu *g, GpuSm *sm, uint8_t to)
{
    rest_add(g->rest, sm, sm->rest, (uint64_t)-1);
    rest_add(g->rest, sm, to, 1);
    sm->rest = to;
}

/* Every SM out of g->rest (a new launch, not a child grid's: the SMs
 * counted may change). */
static void rest_clear(Gpu *g)
{
    for (uint32_t i = 0; i < g->nsms; i++) {
        g->sm[i]->rest = GPU_REST_NONE;
    }
    memset(g->rest, 0, sizeof g->rest);
}

/* A child grid begins inside a step of its parent's cycle (nesting:
 * timing/lib/kernel.h), whose SMs it steps too.  The SMs that cycle has
 * looked at keep what they counted then, moved into its sum; out of
 * g->rest, the child's cycles count them afresh (rest_nest_end).  The
 * others the parent's cycle looks at after the child. */
static void rest_nest_begin(Gpu *g)
{
    for (uint32_t i = 0; i < g->cyc_seen; i++) {
        GpuSm *sm = g->sm[i];
        rest_add(g->cyc_cnt, sm, sm->rest, 1);
        rest_set(g, sm, GPU_REST_NONE);
    }
}

/* The child grid ended: what its cycles left in g->rest they counted;
 * the parent's cycle goes on as rest_nest_begin left it. */
static void rest_nest_end(Gpu *g)
{
    for (uint32_t i = 0; i < g->nsms; i++) {
        rest_set(g, g->sm[i], GPU_REST_NONE);
    }
}

static void settle_all(Gpu *g);

/* A new launch: the SMs' pipelines are empty.  0, or -1 when out of
 * memory. */
static int reset_sms(Gpu *g, uint64_t start)
{
    for (uint32_t i = 0; i < g->nsms; i++) {
        GpuSm *sm = g->sm[i];
        sm->mio_free = 0;
        sm->fport = (GpuFetchPort){0};
        sm->held = false;
        sm->ahead = 0;
        sm->pend = false;
        for (uint32_t k = 0; k < sm->nsched; k++) {
            GpuSched *sc = &sm->sched[k];
            sc->fport = (GpuFetchPort){0};
            for (unsigned u = 0; u < PTXEMU_TM_UNIT_COUNT; u++) {
                memset(sc->ufree[u], 0,
                       2 * g->c.unit[u].count * sizeof(uint64_t));
            }
            memset(sc->umin, 0, sizeof sc->umin);
            sc->has_last = false;
            sc->last_w = NULL;
            sc->order_ok = false;
            sc->held.on = false;
            for (uint32_t j = 0; j < sc->nw; j++) {
                /* the units are free again: see sched.c */
                sc->lb[j] = (GpuLb){0, GPU_NEVER, 0};
            }
            sc->sgen++;
        }
    }
    gpu_tokens_clear(g);
    const TmOccUse none = {0};
    const ptxemu_tm_kernel *k = &g->kern->k;
    GpuMemKernel mk = {
        .shared = g->kern->need.shared *
                  tm_occ_room(&g->c.occ, &none, &g->kern->need),
        .cta_shared = g->kern->need.shared,
        .carveout = k->carveout,
        .persist_bytes = k->l2_persist_bytes,
        .resets = k->l2_resets,
        .apw_base = k->apw_base,
        .apw_bytes = k->apw_bytes,
        .apw_hit_ratio = k->apw_hit_ratio,
        .apw_hit_prop = k->apw_hit_prop,
        .apw_miss_prop = k->apw_miss_prop,
    };
    /* the carve-out limits the kernel's residency (CUDA's occupancy
     * calculator, cuda_occupancy.h: the shared memory per SM is the
     * carve-out chosen) */
    uint64_t cap = g->c.mem->kernel_begin(g->mem, start, &mk);
    g->occ_k = g->c.occ;
    if (cap < g->occ_k.shared) {
        g->occ_k.shared = cap;
    }
    return gpu_collect_reset(g);
}

/* The host's ABI-6 table (buffered global steps), or none. */
static bool host_has_buffered(const Gpu *g)
{
    return g->api->struct_size >= offsetof(ptxemu_tm_host_api, buffered) +
                                      sizeof(g->api->buffered) &&
           g->api->buffered && g->api->parallel;
}

/* The host's ABI-5 table (running ahead), or none. */
static bool host_has_ahead(const Gpu *g)
{
    return g->api->struct_size >= offsetof(ptxemu_tm_host_api, drop_fault) +
                                      sizeof(g->api->drop_fault) &&
           g->api->ahead && g->api->drop_fault && g->api->parallel;
}

static int gpu_kernel_begin(void *tm, const ptxemu_tm_kernel *k)
{
    Gpu *g = tm;
    uint32_t nsms = g->api->num_sms(g->h);
    if (nsms == 0 || nsms > g->nsms) {
        /* The memory system was made for the device's SMs. */
        g->api->error(g->h, "gpu: the device's SM count changed");
        return PTXEMU_TM_ERROR;
    }
    if (!g->in_cycle) {
        /* Not a child grid's launch: anything still resident belongs to
         * a kernel abandoned without kernel_end (a host older than the
         * ABI's rule that a stopped kernel gets one) and freed; forget
         * it, so that it neither holds the SMs nor makes this kernel
         * its child.  (Its counters count up to where it stopped.) */
        settle_all(g);
        gpu_lsu_orphan(g, true);
        for (uint32_t i = 0; i < g->nsms; i++) {
            gpu_sm_drop_all(g, g->sm[i]);
        }
        if (g->kern) {
            g->kern->running = false;
        }
    }
    bool fresh;
    g->place_full = false;
    if (!tm_kern_begin(&g->kern, k, g->c.launch_latency, &g->c.occ,
                       &fresh)) {
        g->api->error(g->h, "gpu: out of memory");
        return PTXEMU_TM_ERROR;
    }
    if (fresh && reset_sms(g, g->kern->start) != 0) {
        g->api->error(g->h, "gpu: out of memory");
        return PTXEMU_TM_ERROR;
    }
    g->active_sms = nsms;
    if (g->in_cycle) {
        /* a child grid: SMs past its own leave the counts */
        rest_nest_begin(g);
        for (uint32_t i = nsms; i < g->nsms; i++) {
            rest_set(g, g->sm[i], GPU_REST_NONE);
        }
    } else {
        rest_clear(g);
        /* (a child grid's SMs step as its parent's) */
        g->threads = 1;
        if (g->api->struct_size >= offsetof(ptxemu_tm_host_api, parallel) +
                                       sizeof(g->api->parallel) &&
            g->api->threads) {
            g->threads = g->api->threads(g->h);
        }
        /* (one thread runs ahead as several do: the same counts) */
        g->ahead_on = host_has_ahead(g) && !g->c.policy->numbers &&
                      g->api->ahead(g->h) != 0;
        /* (a cluster's CTAs complete each other's asynchronous tokens:
         * a reply may wake another SM's warp, which must then come
         * before every SM's visit, as advance delivers it) */
        g->split = g->split_ok && g->kern->cluster_size <= 1;
        /* (buffered steps are worth their cost where SMs run far: with
         * a split memory system, ahead.c) */
        g->buffered = g->split && host_has_buffered(g) &&
                      g->api->buffered(g->h) != 0;
    }
    gpu_poke_all(g);
    g->api->set_clock_mhz(g->h, g->c.clock_mhz);
    return PTXEMU_TM_OK;
}

/* ---- events ---- */

static void release_warp(Gpu *g, GpuWarp *x, uint64_t now)
{
    gpu_warp_touch(x);
    x->at_barrier = false;
    x->peeked = false;
    uint64_t t = now + (g->c.bar_latency ? g->c.bar_latency : 1);
    if (t > x->not_before) {
        x->not_before = t;
        x->nb_why = GPU_ST_BARRIER;
    }
    gpu_poke(g, x);
}

/* Look at the kernel's warps waiting at a barrier again: a cluster or
 * grid barrier releases other CTAs' warps without an event of theirs. */
void gpu_recheck_barriers(Gpu *g, uint64_t now)
{
    for (uint32_t i = 0; i < g->active_sms; i++) {
        for (GpuCta *c = g->sm[i]->ctas; c; c = c->next) {
            for (uint32_t j = 0; j < c->nwarps && c->kern == g->kern; j++) {
                GpuWarp *x = &c->w[j];
                if (x->at_barrier &&
                    g->api->warp_state(g->h, x->h) == PTXEMU_TM_WARP_READY) {
                    release_warp(g, x, now);
                }
            }
        }
    }
}

static void gpu_event(void *tm, ptxemu_tm_event ev, ptxemu_tm_cta *cta,
                      ptxemu_tm_warp *w)
{
    Gpu *g = tm;
    (void)cta;
    if (!g->kern) {
        return;
    }
    GpuWarp *gw = w ? tm_map_get(&g->warps, tm_map_ptr(w)) : NULL;
    /* the cycle of the step: its SM's visit, which may run ahead of
     * the kernel's cycle (ahead.c) */
    const uint64_t now = gw ? gpu_max(g->kern->now, gw->cta->smp->visit_t)
                            : g->kern->now;
    if (ev == PTXEMU_TM_EV_WARP_EXIT) {
        if (gw) {
            gpu_warp_exited(g, gw, now);
        }
        return;
    }
    if (ev == PTXEMU_TM_EV_WARP_CHANGED) { /* (between cycles) */
        if (gw) {
            gpu_warp_touch(gw);
            gw->peeked = false;
            gpu_poke(g, gw);
        }
        return;
    }
    if (ev != PTXEMU_TM_EV_BARRIER_RELEASE) {
        return; /* CTA_DONE: the exits were counted */
    }
    if (g->kern->cluster_size > 1 || !gw) {
        gpu_recheck_barriers(g, now);
        if (gw) {
            release_warp(g, gw, now);
        }
        return;
    }
    GpuCta *c = gw->cta;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        if (c->w[i].at_barrier || &c->w[i] == gw) {
            release_warp(g, &c->w[i], now);
        }
    }
}

/* ---- the cycle loop ---- */

static int stop(Gpu *g, int rc)
{
    /* failures an SM ran ahead to, in cycles after the stop: dropped
     * (cycle_par drops those of its own cycle after the first) */
    for (uint32_t i = 0; i < g->nsms; i++) {
        GpuSm *sm = g->sm[i];
        if (sm->pend && sm->rc < 0 && host_has_ahead(g)) {
            g->api->drop_fault(g->h, sm->id);
        }
        sm->err = NULL;
    }
    return tm_kern_stop(g->kern, rc);
}

void gpu_sm_visit_begin(Gpu *g, GpuSm *sm, uint64_t t)
{
    /* %clock is read only by the steps of a visit: an SM not visited
     * needs no time */
    g->api->set_time(g->h, sm->id, t - t % g->c.clock_div);
    sm->visit_t = t;
    sm->look = GPU_NEVER; /* a poke or touch during the visit clears it */
}

/* Step 5 for an SM that step 6 visits (sm_visit). */
static void sm_enter(Gpu *g, GpuSm *sm, uint64_t t)
{
    if (sm->rest != GPU_REST_NONE) {
        rest_set(g, sm, GPU_REST_NONE);
    }
    gpu_sm_visit_begin(g, sm, t);
    if (g->split) {
        return; /* (gpu_sm_run sends, on the SM's thread) */
    }
    if (sm->qhead) {
        gpu_lsu_cycle(g, sm, t);
    }
    if (sm->nfq) {
        gpu_fetch_send(g, sm, t);
    }
}

/* Step 5 for one SM; whether step 6 visits it.  An SM on which nothing
 * can act before sm->look (its schedulers asleep, no collector, CTA
 * retirement, queued transaction or fetch due) is only counted, in
 * g->rest.  (Inline: most SMs are not visited in most cycles.) */
static inline bool sm_visit(Gpu *g, GpuSm *sm, uint64_t t, uint64_t *next)
{
    if (!sm->used.ctas) {
        if (sm->rest != GPU_REST_IDLE) {
            rest_set(g, sm, GPU_REST_IDLE);
        }
        return false;
    }
    if (t >= sm->look) {
        sm_enter(g, sm, t);
        return true;
    }
    if (sm->rest != GPU_REST_ASLEEP) {
        rest_set(g, sm, GPU_REST_ASLEEP);
    }
    *next = gpu_min(*next, sm->look);
    return false;
}

int gpu_sm_run(Gpu *g, GpuSm *sm, uint64_t t)
{
    const uint32_t nsched = sm->nsched;
    uint32_t k0 = 0;
    if (sm->held) { /* phase 2: from the held scheduler on */
        k0 = sm->hk;
        sm->held = false;
    } else {
        if (sm->cnt == sm->cnt_own) {
            memset(sm->cnt_own, 0, sizeof sm->cnt_own);
        }
        sm->next = GPU_NEVER;
        sm->rc = 0;
        if (g->split) { /* steps 1 and 5 for this SM */
            g->c.mem->advance_sm(g->mem, sm->id, t);
            /* (this visit sees what the replies poked: as the visit
             * that comes after advance's deliveries starts afresh) */
            sm->look = GPU_NEVER;
            if (sm->qhead) {
                gpu_lsu_cycle(g, sm, t);
            }
        }
        for (uint32_t k = 0; k < nsched && g->c.oc.enabled; k++) {
            GpuSched *sc = &sm->sched[k];
            if (gpu_oc_next(sc->oc) <= t) {
                gpu_collect_cycle(g, sm, sc, t);
            }
        }
    }
    for (uint32_t k = k0; k < nsched; k++) {
        GpuSched *sc = &sm->sched[k];
        uint32_t n = 0;
        GpuStall why = (GpuStall)sc->why;
        uint64_t wake = sc->wake;
        if (t >= wake || sc->held.on) {
            /* (else asleep: what gpu_sched_cycle says) */
            int rc = gpu_sched_cycle(g, sm, k, t, &n, &why, &wake);
            if (rc < 0) {
                return sm->rc = rc;
            }
            if (rc > 0) {
                sm->held = true;
                sm->hk = k;
                return 1;
            }
        }
        sm->cnt[n ? GPU_ST_SELECTED : why]++;
        sm->next = gpu_min(sm->next, wake);
        if (sc->oc) {
            sm->next = gpu_min(sm->next, gpu_oc_next(sc->oc));
        }
    }
    sm->next = gpu_min(sm->next, gpu_sm_retire_at(g, sm));
    if (g->split) { /* (its replies: only this SM's sends add any) */
        sm->next = gpu_min(sm->next, g->c.mem->next_sm(g->mem, sm->id));
    }
    sm->busy = (sm->qhead && !sm->lsu_sleep) || sm->nfq;
    /* nothing acts on it before then, unless a poke or touch during
     * the visit cleared sm->look (GPU_NEVER before it) */
    if (!sm->look) {
        sm->next = t + 1;
    }
    sm->look = sm->busy || !sm->look ? t + 1 : sm->next;
    return 0;
}

/* Fold what an SM's cycle counted (in SM order). */
static void sm_fold(Gpu *g, GpuSm *sm, uint64_t cnt[GPU_ST_COUNT])
{
    for (int r = 0; sm->cnt != cnt && r < GPU_ST_COUNT; r++) {
        cnt[r] += sm->cnt[r];
    }
    GpuSmStat *s = &sm->st;
    g->st_issued += s->issued;
    g->st_thread_insns += s->thread_insns;
    g->st_replays += s->replays;
    g->st_not_selected += s->not_selected;
    g->st_txn += s->txn;
    g->st_wavefronts += s->wavefronts;
    g->st_fetches += s->fetches;
    g->st_oc_reads += s->oc_reads;
    g->st_oc_conflicts += s->oc_conflicts;
    g->st_parts += s->parts;
    *s = (GpuSmStat){0};
    g->next_age += sm->pool_n;
    sm->pool_n = 0;
}

/* sm's cycle failed with rc: its message to the host (on the calling
 * thread), once; rc. */
static int sm_failed(Gpu *g, GpuSm *sm, int rc)
{
    if (sm->err) {
        g->api->error(g->h, sm->err);
        sm->err = NULL;
    }
    return rc;
}

/* Cycles an SM may run ahead for its phase 1 to be worth a hand-over
 * to another thread whatever the measure says (par.c). */
#define FAR_CYCLES 64u

/* Steps 5 and 6 with several host threads (the top): the SMs visited
 * in cycle t, and those asleep that wake before the horizon, run their
 * phase 1 on the threads (ahead.c: an SM may run ahead); then phase 2
 * in SM order for every SM whose cycle t waits for it (held, or a
 * failure met in that cycle).  Counts into cnt (the cycle's, for SMs
 * that did cycle t alone) or straight into the statistics (the cycles
 * an SM ran ahead through); *next, *busy as in the one-thread loop.
 * 0, or the first failure in cycle t in SM order (its message reported,
 * the later ones' dropped: their steps ran past the kernel's stop). */
static int cycle_par(Gpu *g, uint64_t t, uint64_t *cnt, uint64_t *next,
                     bool *busy)
{
    GpuSm **list = g->run;
    uint32_t n = 0;
    bool pending = false;
    for (uint32_t i = 0; i < g->active_sms; i++) {
        GpuSm *sm = g->sm[i];
        if (sm->ahead > t) { /* done and counted until then */
            *next = gpu_min(*next, sm->ahead);
        } else if (sm->pend) { /* its cycle t: phase 2's */
            pending = true;
        } else if (sm_visit(g, sm, t, next)) {
            list[n++] = sm;
        }
    }
    g->cyc_seen = g->active_sms;
    /* (after the sends of step 5: the memory system's next event) */
    const uint64_t until = g->ahead_on ? g->api->ahead(g->h) : 0;
    g->until = until > t + 1 ? until : t + 1;
    g->horizon = g->split ? g->until
                          : gpu_min(g->until, g->c.mem->next(g->mem));
    /* Run ahead only when an SM visited may run far: else (the memory
     * system about to answer every SM) the loop below is as without
     * (decided from the model's state alone: the same at any thread
     * count) */
    uint32_t far = 0; /* SMs that may run far ahead */
    for (uint32_t i = 0; i < n; i++) {
        far += gpu_sm_horizon(g, list[i]) - t >= FAR_CYCLES;
    }
    const bool ahead = g->horizon - t >= FAR_CYCLES || far > 0;
    if (!ahead) {
        g->until = g->horizon = t + 1;
    }
    for (uint32_t i = 0; ahead && i < g->active_sms; i++) {
        GpuSm *sm = g->sm[i];
        if (sm->rest == GPU_REST_ASLEEP && gpu_sm_may_wake(g, sm, t)) {
            rest_set(g, sm, GPU_REST_NONE); /* (its window counts it) */
            list[n++] = sm;
            far += gpu_sm_horizon(g, sm) - t >= FAR_CYCLES;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        list[i]->cnt = list[i]->cnt_own;
    }
    g->pool_base = g->next_age;
    /* Fan out when two SMs may run far ahead (their work dwarfs the
     * hand-over); else whether it is faster is measured (par.c). */
    const bool measured = n >= 2 && far < 2;
    const bool fan = far >= 2 || (measured && gpu_par_want(g));
    if (!ahead && !pending && !fan && !g->buffered) {
        /* one after another, in SM order (list is, without wakes) */
        int rc = 0;
        for (uint32_t i = 0; i < n; i++) {
            GpuSm *sm = list[i];
            sm->defer = false;
            sm->ahead = 0;
            sm->cnt = cnt; /* (counted where they are summed) */
            rc = gpu_sm_run(g, sm, t);
            sm_fold(g, sm, cnt);
            sm->cnt = sm->cnt_own; /* (cnt is this call's) */
            *next = gpu_min(*next, sm->next);
            *busy = *busy || sm->busy;
            if (rc < 0) {
                return sm_failed(g, sm, rc);
            }
        }
        if (measured) {
            gpu_par_took(g, n);
        }
        return 0;
    }
    gpu_par_phase1(g, list, n, t, fan);
    if (measured) {
        gpu_par_took(g, n);
    }
    int rc = 0;
    const GpuSm *failed = NULL;
    for (uint32_t i = 0; i < g->active_sms; i++) {
        GpuSm *sm = g->sm[i];
        const bool ran = sm->defer;
        sm->defer = false;
        if (sm->ahead > t) { /* ran ahead (perhaps to a pending cycle) */
            *next = gpu_min(*next, sm->ahead);
            if (ran) {
                sm_fold(g, sm, sm->cnt); /* (its counts: below) */
                for (int r = 0; r < GPU_ST_COUNT; r++) {
                    g->st_stall[r] += sm->ra_cnt[r];
                }
            }
            continue;
        }
        if (!ran && !sm->pend) {
            continue;
        }
        /* cycle t: done by phase 1, or held or failed there */
        sm->pend = false;
        sm->ahead = 0;
        if (rc == 0 && sm->rc < 0) {
            rc = sm_failed(g, sm, sm->rc);
            failed = sm;
        } else if (rc == 0 && sm->held) {
            rc = gpu_sm_run(g, sm, t);
            if (rc < 0) {
                sm_failed(g, sm, rc);
                failed = sm;
            }
        } else if (sm->held) { /* the kernel stops: dropped */
            sm->held = false;
            sm->sched[sm->hk].held.on = false;
        }
        sm_fold(g, sm, cnt);
        *next = gpu_min(*next, sm->next);
        *busy = *busy || sm->busy;
    }
    for (uint32_t i = 0; rc < 0 && i < g->active_sms; i++) {
        /* later failures (in SM order, or in cycles an SM ran ahead
         * to): their steps ran past the stop, dropped */
        GpuSm *sm = g->sm[i];
        if (sm != failed && sm->rc < 0) {
            if (host_has_ahead(g)) {
                g->api->drop_fault(g->h, sm->id);
            }
            sm->rc = 0; /* (dropped once: stop() drops the others') */
        }
        sm->err = NULL;
    }
    return rc;
}

static int cycle(Gpu *g, uint64_t *now);

static int gpu_cycle(void *tm, uint64_t *now)
{
    Gpu *g = tm;
    bool outer = g->in_cycle; /* a child grid's cycles nest in ours */
    uint64_t *cnt = g->cyc_cnt;
    uint32_t seen = g->cyc_seen, threads = g->threads;
    bool ahead_on = g->ahead_on, buffered = g->buffered;
    if (outer) {
        /* one SM after another: our cycle's SMs hold its counts in
         * cnt_own until cycle_par ends, which a phase would clear */
        g->threads = 1;
        g->ahead_on = false;
        g->buffered = false;
    }
    g->in_cycle = true;
    g->cyc_seen = 0; /* (no SM looked at before cycle() sets cyc_cnt) */
    int rc = cycle(g, now);
    g->in_cycle = outer;
    g->cyc_cnt = cnt;
    g->cyc_seen = seen;
    g->threads = threads;
    g->ahead_on = ahead_on;
    g->buffered = buffered;
    return rc;
}

static int cycle(Gpu *g, uint64_t *now)
{
    GpuKernel *kn = g->kern;
    if (!kn || !kn->running) {
        *now = kn ? kn->end : 0;
        return 0;
    }
    const uint64_t t = kn->now;
    if (!g->split) {
        g->c.mem->advance(g->mem, t);
    }
    for (uint32_t i = 0; i < g->active_sms; i++) {
        GpuSm *sm = g->sm[i];
        if (g->split && sm->ndone && sm->ahead <= t) {
            /* step 1 for an SM with a CTA to retire: the replies it
             * waits for (the others' come in their visits) */
            g->c.mem->advance_sm(g->mem, sm->id, t);
        }
        if (sm->ndone && (!sm->retire_ok || sm->retire_min <= t)) {
            gpu_sm_retire(g, sm, t, false); /* (else none can retire) */
        }
    }
    if (tm_kern_over(kn, t)) {
        g->st_cycles += t - kn->start;
        *now = t;
        return 0;
    }
    uint64_t next = GPU_NEVER;
    if (t >= kn->launch_at) {
        int rc = gpu_cta_place_all(g);
        if (rc < 0) {
            return stop(g, rc);
        }
    } else {
        next = kn->launch_at;
    }
    uint64_t cnt[GPU_ST_COUNT] = {0};
    bool busy = false;
    g->cyc_cnt = cnt;
    if (g->threads <= 1 && !g->ahead_on && !g->buffered) {
        /* steps 5 and 6 one SM after another */
        for (uint32_t i = 0; i < g->active_sms; i++) {
            GpuSm *sm = g->sm[i];
            g->cyc_seen = i + 1;
            if (!sm_visit(g, sm, t, &next)) {
                continue;
            }
            g->pool_base = g->next_age;
            sm->defer = false;
            /* counted where they are summed; a child grid's cycles
             * inside this run count in theirs and give it back */
            uint64_t *outer_cnt = sm->cnt;
            sm->cnt = cnt;
            int rc = gpu_sm_run(g, sm, t);
            sm_fold(g, sm, cnt); /* (also a stopped kernel's counts) */
            sm->cnt = outer_cnt;
            if (rc < 0) {
                return stop(g, sm_failed(g, sm, rc));
            }
            next = gpu_min(next, sm->next);
            busy = busy || sm->busy;
        }
    } else {
        int rc = cycle_par(g, t, cnt, &next, &busy);
        if (rc < 0) {
            return stop(g, rc);
        }
    }
    /* (split: each SM's next reply is in its sm->next) */
    uint64_t m = g->split ? GPU_NEVER : g->c.mem->next(g->mem);
    if (m < next) {
        next = m;
    }
    /* Nothing can happen: every live warp waits for an event nothing
     * will send (a guest deadlock, which the host's watchdog reports
     * with the emulator's message), or a cluster or grid barrier
     * released warps of another CTA without an event of theirs. */
    int idle = tm_kern_next(kn, t, &next, cnt[GPU_ST_SELECTED] || busy);
    if (idle < 0) {
        g->api->error(g->h, "gpu: no warp can ever issue again (every live "
                            "warp waits for an event that nothing will "
                            "send)");
        return stop(g, PTXEMU_TM_ERROR);
    }
    if (idle) {
        gpu_recheck_barriers(g, t);
    }
    const uint64_t d = next - t;
    for (int r = 0; r < GPU_ST_COUNT; r++) {
        g->st_stall[r] += (cnt[r] + g->rest[r]) * d;
    }
    /* (each SM's cycles, resident warps and a sleeping LSU's offers
     * are counted lazily: gpu_sm_settle) */
    kn->now = next;
    *now = next;
    return 1;
}

void gpu_sm_settle(Gpu *g, GpuSm *sm, uint64_t t)
{
    if (t > sm->acct_t) {
        if (sm->used.ctas) {
            const uint64_t d = t - sm->acct_t;
            sm->cycles += d;
            sm->warps_resident += sm->used.warps * d;
        }
        sm->acct_t = t;
    }
    gpu_lsu_settle(g, sm, t);
}

void gpu_lsu_settle(Gpu *g, GpuSm *sm, uint64_t t)
{
    /* An LSU asleep since rf_from would have offered its refused
     * request each cycle (gpu_lsu_cycle's offer while awake). */
    if (sm->lsu_sleep && sm->qhead && t > sm->rf_from) {
        g->c.mem->refused_again(g->mem, sm->id, t - sm->rf_from);
        sm->rf_from = t;
    }
}

/* Every SM's lazy counters up to the current cycle (what the host reads
 * after a cycle() call: the cycles before it). */
static void settle_all(Gpu *g)
{
    if (g->kern) {
        for (uint32_t i = 0; i < g->nsms; i++) {
            gpu_sm_settle(g, g->sm[i], g->kern->now);
        }
    }
}

/* The memory system's counters kept per SM (gpu_mem.h). */
static void mem_stats_sync(Gpu *g)
{
    if (g->c.mem->stats_sync) {
        g->c.mem->stats_sync(g->mem);
    }
}

static void gpu_stats_sync(void *tm)
{
    settle_all(tm);
    mem_stats_sync(tm);
}

static int gpu_kernel_end(void *tm, uint64_t *end_cycle)
{
    Gpu *g = tm;
    if (!g->kern) {
        *end_cycle = 0;
        return PTXEMU_TM_OK;
    }
    settle_all(g);
    mem_stats_sync(g);
    if (g->kern->running) { /* stopped early: replies still to come */
        gpu_lsu_orphan(g, false);
    }
    for (uint32_t i = 0; i < g->nsms; i++) {
        gpu_sm_retire(g, g->sm[i], 0, true); /* only after an error */
    }
    g->place_full = false;
    if (tm_kern_end(&g->kern, end_cycle)) {
        rest_nest_end(g);
        gpu_poke_all(g);
    }
    return PTXEMU_TM_OK;
}

static const char gpu_help[] =
    "A cycle-level SM pipeline (the three-loop model of Aamodt et al.): "
    "per-warp fetch into I-buffers, a scoreboard keeping fixed-, short- "
    "and long-latency producers apart, several warp schedulers per SM "
    "with a policy by name (lrr, gto, oldest, two-level) and optional "
    "dual issue, function units with lane widths, latencies, initiation "
    "intervals and counts, a load/store unit with per-generation "
    "coalescing, shared-memory bank conflicts and back-pressure from a "
    "pluggable memory system (mem.model), asynchronous copies and their "
    "waits, barriers, occupancy-limited CTA dispatch with clusters on a "
    "GPC.  Presets: gpu.arch = ampere (A100), gt200 (GTX 280).";

int tm_gpu_init(uint32_t host_abi_version, ptxemu_tm_ops *ops)
{
    if (host_abi_version < PTXEMU_TM_ABI_MIN ||
        ops->struct_size < sizeof *ops) {
        return -1;
    }
    ops->abi_version = PTXEMU_TM_ABI_VERSION;
    ops->name = "gpu";
    ops->help = gpu_help;
    ops->params = gpu_params;
    ops->nparams = gpu_nparams;
    ops->create = gpu_create;
    ops->destroy = gpu_destroy;
    ops->kernel_begin = gpu_kernel_begin;
    ops->cycle = gpu_cycle;
    ops->kernel_end = gpu_kernel_end;
    ops->event = gpu_event;
    ops->stats_sync = gpu_stats_sync;
    return 0;
}
