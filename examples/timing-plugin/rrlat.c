/*
 * rrlat.c: a small timing model for ptxemu, built out of tree against
 * the installed header only (see README.md).
 *
 * The model ("round-robin, fixed latency"):
 *  - each SM holds at most `ctas_per_sm` CTAs; when one finishes, the
 *    next CTA of the grid takes its place (the host hands CTAs out in
 *    order through cta_next);
 *  - each cycle, each SM issues at most one warp instruction: it looks at
 *    its warps round-robin, starting after the warp that issued last,
 *    and issues the first one that is ready;
 *  - an instruction keeps its warp busy for `latency` cycles, or
 *    `mem_latency` cycles when it accessed memory (any access reported
 *    by the step, in any space): the warp cannot issue again before;
 *  - a warp the host says cannot issue (waiting at a barrier, exited) is
 *    skipped; the host tells us when a CTA is done (an event) and we
 *    retire it at the end of the cycle.
 * When no SM can issue before some later cycle, the model jumps to that
 * cycle (the ABI allows a cycle() call to advance by more than one).
 * Results never depend on any of this: the host executes every
 * instruction functionally when we call warp_step.
 *
 * Counters (reported per kernel in `--stats` under "timing"):
 *   issued          warp instructions issued
 *   mem_insns       of those, instructions that accessed memory
 *   cycles          cycles the kernel took
 *   idle_sm_cycles  SM-cycles in which an SM with work issued nothing
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ptxemu/ptxemu_timing.h>

/* The model's parameters: --timing-help prints this table, and
 * `--timing-set latency=8` or a --timing-config file sets them. */
static const ptxemu_tm_param rr_params[] = {
    {"latency", PTXEMU_TM_P_UINT, "4",
     "cycles a warp waits after issuing an instruction"},
    {"mem_latency", PTXEMU_TM_P_UINT, "100",
     "cycles a warp waits after an instruction that accessed memory"},
    {"ctas_per_sm", PTXEMU_TM_P_UINT, "8",
     "CTAs resident on one SM at a time"},
};

/* A warp as the model sees it. */
typedef struct RrWarp {
    ptxemu_tm_warp *w;
    ptxemu_tm_cta *cta;
    uint64_t ready;             /* first cycle it may issue again */
} RrWarp;

typedef struct RrSm {
    RrWarp *warps;              /* of every resident CTA */
    uint32_t nwarps, capwarps;
    uint32_t next;              /* round-robin position */
    uint32_t nctas;             /* resident CTAs */
} RrSm;

typedef struct Rr {
    const ptxemu_tm_host_api *api;
    ptxemu_tm_host *h;
    uint64_t latency, mem_latency, ctas_per_sm;
    uint32_t nsms;
    RrSm *sms;
    uint64_t now, start;
    int grid_left;              /* cta_next may still give CTAs */
    ptxemu_tm_cta **done;       /* CTAs finished this cycle */
    uint32_t ndone, capdone;
    int oom;
    uint64_t stuck;             /* cycles in a row nothing could issue */
    /* statistics (registered with the host) */
    uint64_t issued, mem_insns, cycles, idle_sm_cycles;
} Rr;

static void *grow(void *p, uint32_t *cap, size_t elem)
{
    uint32_t ncap = *cap ? *cap * 2 : 16;
    void *q = realloc(p, (size_t)ncap * elem);
    if (q) {
        *cap = ncap;
    }
    return q;
}

static void *rr_create(const ptxemu_tm_host_api *api, ptxemu_tm_host *h)
{
    Rr *m = calloc(1, sizeof(*m));
    if (!m) {
        api->error(h, "rrlat: out of memory");
        return NULL;
    }
    m->api = api;
    m->h = h;
    m->latency = api->param_uint(h, "latency");
    m->mem_latency = api->param_uint(h, "mem_latency");
    m->ctas_per_sm = api->param_uint(h, "ctas_per_sm");
    if (!m->latency || !m->ctas_per_sm) {
        api->error(h, "rrlat: latency and ctas_per_sm must be at least 1");
        free(m);
        return NULL;
    }
    static const struct {
        const char *path;
        size_t off;
        const char *help;
    } stats[] = {
        {"issued", offsetof(Rr, issued), "warp instructions issued"},
        {"mem_insns", offsetof(Rr, mem_insns),
         "warp instructions that accessed memory"},
        {"cycles", offsetof(Rr, cycles), "cycles the kernels took"},
        {"idle_sm_cycles", offsetof(Rr, idle_sm_cycles),
         "SM-cycles with resident warps and no issue"},
    };
    for (size_t k = 0; k < sizeof(stats) / sizeof(stats[0]); k++) {
        const uint64_t *ctr = (const uint64_t *)((char *)m + stats[k].off);
        if (api->stat(h, stats[k].path, ctr, stats[k].help)) {
            free(m);
            return NULL;        /* the host has said why */
        }
    }
    return m;
}

static void rr_free_sms(Rr *m)
{
    for (uint32_t s = 0; m->sms && s < m->nsms; s++) {
        free(m->sms[s].warps);
    }
    free(m->sms);
    m->sms = NULL;
}

static void rr_destroy(void *tm)
{
    Rr *m = tm;
    rr_free_sms(m);
    free(m->done);
    free(m);
}

/* Fill SM s up to ctas_per_sm from the grid. */
static int rr_fill(Rr *m, uint32_t s)
{
    RrSm *sm = &m->sms[s];
    while (m->grid_left && sm->nctas < m->ctas_per_sm) {
        ptxemu_tm_cta *cta;
        int rc = m->api->cta_next(m->h, s, &cta);
        if (rc == PTXEMU_TM_NONE) {
            m->grid_left = 0;
            break;
        }
        if (rc != PTXEMU_TM_OK) {
            return rc;
        }
        ptxemu_tm_warp *const *ws;
        uint32_t n = m->api->cta_warps(m->h, cta, &ws);
        for (uint32_t i = 0; i < n; i++) {
            if (sm->nwarps == sm->capwarps) {
                RrWarp *g = grow(sm->warps, &sm->capwarps, sizeof(RrWarp));
                if (!g) {
                    m->api->error(m->h, "rrlat: out of memory");
                    return PTXEMU_TM_ERROR;
                }
                sm->warps = g;
            }
            sm->warps[sm->nwarps++] = (RrWarp){ws[i], cta, m->now};
        }
        sm->nctas++;
    }
    return PTXEMU_TM_OK;
}

static int rr_kernel_begin(void *tm, const ptxemu_tm_kernel *k)
{
    Rr *m = tm;
    m->nsms = m->api->num_sms(m->h);
    m->sms = calloc(m->nsms, sizeof(RrSm));
    if (!m->sms) {
        m->api->error(m->h, "rrlat: out of memory");
        return PTXEMU_TM_ERROR;
    }
    m->now = m->start = k->start_cycle;
    m->grid_left = 1;
    m->ndone = 0;
    m->stuck = 0;
    for (uint32_t s = 0; s < m->nsms; s++) {
        int rc = rr_fill(m, s);
        if (rc) {
            return rc;
        }
    }
    return PTXEMU_TM_OK;
}

/* Told from inside warp_step: remember finished CTAs, retire them once
 * this cycle's issue is over (their warps are still in our lists). */
static void rr_event(void *tm, ptxemu_tm_event ev, ptxemu_tm_cta *cta,
                     ptxemu_tm_warp *w)
{
    Rr *m = tm;
    (void)w;
    if (ev != PTXEMU_TM_EV_CTA_DONE) {
        return;
    }
    if (m->ndone == m->capdone) {
        ptxemu_tm_cta **d = grow(m->done, &m->capdone, sizeof(*d));
        if (!d) {
            m->oom = 1;
            return;
        }
        m->done = d;
    }
    m->done[m->ndone++] = cta;
}

/* Drop a finished CTA's warps from its SM, free it, place the next. */
static int rr_retire(Rr *m, ptxemu_tm_cta *cta)
{
    for (uint32_t s = 0; s < m->nsms; s++) {
        RrSm *sm = &m->sms[s];
        uint32_t kept = 0, dropped = 0;
        for (uint32_t i = 0; i < sm->nwarps; i++) {
            if (sm->warps[i].cta == cta) {
                dropped++;
            } else {
                sm->warps[kept++] = sm->warps[i];
            }
        }
        if (!dropped) {
            continue;
        }
        sm->nwarps = kept;
        sm->next = kept ? sm->next % kept : 0;
        sm->nctas--;
        m->api->cta_retire(m->h, cta);
        return rr_fill(m, s);
    }
    return PTXEMU_TM_OK;
}

/* One SM's issue slot this cycle: 1 issued, 0 not, negative: stop.
 * *wake: the earliest cycle a busy warp becomes ready. */
static int rr_issue(Rr *m, uint32_t s, uint64_t *wake)
{
    RrSm *sm = &m->sms[s];
    for (uint32_t k = 0; k < sm->nwarps; k++) {
        uint32_t i = (sm->next + k) % sm->nwarps;
        RrWarp *rw = &sm->warps[i];
        if (rw->ready > m->now) {
            *wake = rw->ready < *wake ? rw->ready : *wake;
            continue;
        }
        uint32_t active, exec;
        if (!m->api->warp_peek(m->h, rw->w, &active, &exec)) {
            continue;           /* at a barrier, or exited */
        }
        ptxemu_tm_step st = {.struct_size = sizeof(st)};
        int rc = m->api->warp_step(m->h, rw->w, &st);
        if (rc < 0) {
            return rc;
        }
        /* Events during the step only record finished CTAs (retired
         * after this cycle's issue), so rw is still ours. */
        m->issued += st.insn != NULL;   /* NULL: only settled its stack */
        int mem = st.nacc > 0;
        m->mem_insns += (uint64_t)mem;
        rw->ready = m->now + (mem ? m->mem_latency : m->latency);
        sm->next = i + 1;
        return 1;
    }
    return 0;
}

static int rr_cycle(void *tm, uint64_t *now)
{
    Rr *m = tm;
    uint64_t wake = UINT64_MAX;
    uint32_t busy = 0;
    int issued = 0;
    for (uint32_t s = 0; s < m->nsms; s++) {
        if (!m->sms[s].nwarps) {
            continue;
        }
        busy++;
        m->api->set_time(m->h, s, m->now);
        int rc = rr_issue(m, s, &wake);
        if (rc < 0) {
            return rc;
        }
        issued |= rc;
        m->idle_sm_cycles += (uint64_t)!rc;
    }
    if (m->oom) {
        m->api->error(m->h, "rrlat: out of memory");
        return PTXEMU_TM_ERROR;
    }
    uint32_t retired = m->ndone;
    for (uint32_t d = 0; d < m->ndone; d++) {
        int rc = rr_retire(m, m->done[d]);
        if (rc) {
            return rc;
        }
    }
    m->ndone = 0;
    if (!busy) {
        *now = m->now;
        return 0;               /* every CTA has retired */
    }
    uint64_t next = m->now + 1;
    m->stuck = issued || retired || wake != UINT64_MAX ? 0 : m->stuck + 1;
    if (!issued && !retired) {
        if (wake == UINT64_MAX) {
            /* Every resident warp is blocked or exited and none has an
             * instruction in flight: a guest deadlock.  Keep time going
             * one cycle at a time so that the host's watchdog reports it
             * with the emulator's located message; give up ourselves
             * only if it does not. */
            if (m->stuck > 100000) {
                m->api->error(m->h, "rrlat: no warp can issue (a barrier "
                              "no warp will reach?)");
                return PTXEMU_TM_ERROR;
            }
        } else if (wake > next) {
            /* Every warp waits on its latency: jump to the first cycle
             * one is ready; the SMs with work idle through the skipped
             * cycles. */
            m->idle_sm_cycles += (wake - next) * busy;
            next = wake;
        }
    }
    m->now = next;
    *now = m->now;
    return 1;
}

static int rr_kernel_end(void *tm, uint64_t *end_cycle)
{
    Rr *m = tm;
    *end_cycle = m->now;
    m->cycles += m->now - m->start;
    rr_free_sms(m);
    return PTXEMU_TM_OK;
}

/* The one symbol the host looks up.  It fills the table the host gave
 * it (zero-filled, stamped with the host's version and size) and says
 * which version of the ABI it was built for. */
int ptxemu_timing_plugin_init(uint32_t host_abi_version, ptxemu_tm_ops *ops)
{
    if (host_abi_version < PTXEMU_TM_ABI_VERSION ||
        ops->struct_size < sizeof(*ops)) {
        return 1;               /* an older host: refuse to load */
    }
    ops->abi_version = PTXEMU_TM_ABI_VERSION;
    ops->struct_size = sizeof(*ops);
    ops->name = "rrlat";
    ops->help = "round-robin issue, one warp instruction per SM per cycle, "
                "fixed latencies (examples/timing-plugin)";
    ops->params = rr_params;
    ops->nparams = sizeof(rr_params) / sizeof(rr_params[0]);
    ops->create = rr_create;
    ops->destroy = rr_destroy;
    ops->kernel_begin = rr_kernel_begin;
    ops->cycle = rr_cycle;
    ops->kernel_end = rr_kernel_end;
    ops->event = rr_event;
    return 0;
}
