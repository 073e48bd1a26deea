/*
 * emu/par.c: the parallel functional driver.  The CTAs of one launch run
 * on a pool of host threads (emu/pool.h holds the contract: what is
 * shared, what each worker keeps, and what runs on one thread).
 *
 * Workers claim CTAs in linear order from one counter, a few at a time
 * (chunk_of: neighbouring CTAs touch neighbouring memory).  CTA k waits for
 * CTA k - SMs (the previous CTA of its SM) to finish, so %clock is what
 * one thread gives; runs against the worker's copy of the launch; and
 * leaves its printf records, its fault or, when its warps spin waiting
 * for a CTA not started yet, itself (parked) to the driver.  After the
 * join the driver sums the counters in worker order, reports the lowest
 * fault, appends the printf records in CTA order, and runs what is left
 * (parked CTAs, then the CTAs not started) on one thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/builtins.h"
#include "emu/client.h"
#include "emu/cluster.h"
#include "emu/grid.h"
#include "emu/par.h"
#include "emu/pool.h"
#include "emu/sched.h"
#include "emu/tolerate.h"

/* One CTA's printf records (length-framed, builtins.c). */
typedef struct ParOut {
    uint64_t k;
    char *buf;
    size_t len;
    uint64_t dropped;
} ParOut;

/* Aligned (and so sized) to 128 bytes, a pair of cache lines (the
 * unit Intel's spatial prefetcher fetches): workers' copies side by side
 * in one array shared lines, which every step of theirs wrote (alu, 2
 * threads: 1.5x before, 2.0x after). */
typedef struct Worker {
    _Alignas(128) EmuLaunch sh;   /* the worker's copy of the launch */
    ParOut *out;
    uint32_t nout, capout;
    EmuCta **parked;              /* stuck CTAs, kept alive */
    uint32_t nparked, capparked;
    uint32_t *unstarted;          /* claimed, never started (abort) */
    uint32_t nunstarted, capunstarted;
    uint64_t fk;                  /* lowest failed CTA, UINT64_MAX: none */
    EmuStatus fst;
    bool fguest;                  /* fk's failure is a guest fault */
    EmuFault ff;
    char ftext[sizeof(((EmuLaunch *)0)->fault_text)];
} Worker;

typedef struct EmuPar {
    EmuLaunch *l;
    uint64_t total;
    uint32_t nsm;
    uint64_t cap;                 /* the scheduler's resident cap */
    uint64_t next;                /* atomic: next CTA to claim */
    uint64_t chunk;               /* CTAs claimed at once (chunk_of) */
    uint64_t stop;                /* atomic: lowest failed CTA so far */
    int abort;                    /* atomic: stop starting CTAs */
    uint64_t *turn;               /* per SM, atomic: the CTA that may
                                     start there next */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    Worker *w;
    /* deterministic mode (!cfg.fast): the CTA each worker has claimed
     * and not finished (UINT64_MAX: none), under mu */
    bool det;
    uint64_t *cur;
    unsigned nw;
} Par;

/* ------------------------------------------------ why one thread */

static const char *module_reason(const EmuModule *m)
{
    const IrModule *ir = m->ir;
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        const IrFunc *f = ir->funcs[i];
        if (f->is_decl && !f->is_proto && strcmp(f->name, "vprintf") &&
            strcmp(f->name, "__assertfail")) {
            return "the module calls a device library function that "
                   "changes shared state (malloc/free or the device "
                   "runtime)";
        }
        for (uint32_t j = 0; j < f->ninsns; j++) {
            switch (f->insns[j].op) {
            case PTX_OP_CP_REDUCE_ASYNC_BULK:
            case PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
            case PTX_OP_MULTIMEM_CP_REDUCE_ASYNC_BULK:
                return "the module uses cp.reduce.async.bulk (bulk "
                       "reductions are not host atomics yet)";
            default:
                break;
            }
        }
    }
    return NULL;
}

/* The reasons shared by functional and timed launches. */
static const char *common_reason(const EmuLaunch *l)
{
    const EmuDevice *d = l->dev;
    if (l->cooperative) {
        return "a cooperative launch (grid.sync needs every CTA "
               "resident)";
    }
    if (emu_cluster_size(l) > 1 || l->explicit_cluster) {
        return "thread-block clusters (distributed shared memory)";
    }
    if (l->depth || l->parent) {
        return "a child grid of dynamic parallelism";
    }
    if (d->cfg.insn_limit) {
        return "an instruction limit (one count per launch)";
    }
    if (d->cfg.trace_reconv) {
        return "the reconvergence trace (one stream in step order)";
    }
    if ((uint64_t)l->grid[0] * l->grid[1] * l->grid[2] < 2) {
        return "a grid of one CTA";
    }
    return module_reason(l->mod);
}

const char *emu_par_serial_reason(const EmuLaunch *l)
{
    if (l->driver) {
        return "a timing model drives the launch";
    }
    if (l->dev->clients) {
        return "clients are attached (sanitize checkers, statistics, "
               "tracing)";
    }
    return common_reason(l);
}

const char *emu_par_timed_reason(const EmuLaunch *l)
{
    const EmuClients *cs = l->dev->clients;
    if (cs && (cs->spaces || cs->events || cs->nacc)) {
        return "clients that watch accesses or events are attached "
               "(sanitize checkers, tracing)";
    }
    return common_reason(l);
}

unsigned emu_par_threads(EmuLaunch *l)
{
    unsigned n = l->dev->cfg.threads;
    if (n <= 1) {
        return 1;
    }
    const char *why = emu_par_serial_reason(l);
    if (why) {
        if (l->dev->cfg.par_log) {
            fprintf(l->dev->cfg.par_log, "ptxemu: kernel '%s' runs on one "
                    "host thread of %u: %s\n", l->kernel->ir->name, n, why);
        }
        return 1;
    }
    return n;
}

/* ------------------------------------------------------ the workers */

static bool grow(void **p, uint32_t *cap, uint32_t n, size_t elem)
{
    if (n < *cap) {
        return true;
    }
    uint32_t nc = *cap ? 2 * *cap : 8;
    void *q = realloc(*p, nc * elem);
    if (!q) {
        return false;
    }
    *p = q;
    *cap = nc;
    return true;
}

static void wake(Par *p)
{
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

static bool stopping(Par *p, uint64_t k)
{
    return __atomic_load_n(&p->abort, __ATOMIC_ACQUIRE) ||
           k >= __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
}

/* Wait until CTA k may start on its SM; false when it must not start. */
static bool wait_turn(Par *p, uint64_t k)
{
    uint64_t *t = &p->turn[k % p->nsm];
    if (__atomic_load_n(t, __ATOMIC_ACQUIRE) == k) {
        return !stopping(p, k);
    }
    pthread_mutex_lock(&p->mu);
    while (__atomic_load_n(t, __ATOMIC_ACQUIRE) != k && !stopping(p, k)) {
        pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return !stopping(p, k);
}

static void fail(Par *p, Worker *w, uint64_t k, EmuStatus st)
{
    if (k < w->fk) {
        w->fk = k;
        w->fst = st;
        w->fguest = w->sh.faulted;
        if (w->sh.faulted) {
            w->ff = w->sh.fault;
            memcpy(w->ftext, w->sh.fault_text, sizeof(w->ftext));
        }
    }
    uint64_t cur = __atomic_load_n(&p->stop, __ATOMIC_RELAXED);
    while (k < cur && !__atomic_compare_exchange_n(&p->stop, &cur, k, false,
                                                   __ATOMIC_ACQ_REL,
                                                   __ATOMIC_RELAXED)) {
    }
    wake(p);
}

static void keep_printf(Worker *w, uint64_t k)
{
    EmuLaunch *s = &w->sh;
    if (!s->printf_len && !s->printf_dropped) {
        return;
    }
    if (!grow((void **)&w->out, &w->capout, w->nout, sizeof(*w->out))) {
        s->printf_len = 0;        /* out of host memory: dropped */
        return;
    }
    w->out[w->nout++] = (ParOut){ k, s->printf_buf, s->printf_len,
                                  s->printf_dropped };
    s->printf_buf = NULL;
    s->printf_len = s->printf_cap = 0;
    s->printf_dropped = 0;
}

static void run_cta(Par *p, Worker *w, uint64_t k)
{
    EmuLaunch *s = &w->sh;
    EmuCta *cta;
    s->faulted = false;
    s->det_ok = s->det_stop = false;
    EmuStatus st = emu_grid_make_one(s, (uint32_t)k, &cta);
    if (st != EMU_OK) {
        fail(p, w, k, st);
        return;
    }
    bool stuck = false;
    /* any CTA may spin on another: one not started, or one running on
     * another worker (whose progress this worker's watchdog does not
     * see), so even the last CTA parks rather than report a deadlock;
     * a real one is reported when the parked CTAs resume on one thread */
    st = emu_sched_resident(s, &cta, 1, p->total > 1, &stuck);
    keep_printf(w, k);
    if (st == EMU_ERR_DEADLOCK && s->det_stop) {
        /* stopped before a global atomic it may not take in CTA order
         * (emu_par_atomic_turn): set aside as a stuck one, or dropped
         * below a fault */
        stuck = true;
    }
    if (st == EMU_ERR_DEADLOCK && stuck) {
        /* its warps wait for another CTA: the rest of the launch runs
         * on one thread, with this CTA resident */
        if (grow((void **)&w->parked, &w->capparked, w->nparked,
                 sizeof(*w->parked))) {
            w->parked[w->nparked++] = cta;
            __atomic_store_n(&p->abort, 1, __ATOMIC_RELEASE);
            wake(p);
            return;
        }
        st = EMU_ERR_OUT_OF_MEMORY;
    }
    emu_grid_drop(cta);
    if (st != EMU_OK) {
        fail(p, w, k, st);
        return;
    }
    pthread_mutex_lock(&p->mu);
    __atomic_store_n(&p->turn[k % p->nsm], k + p->nsm, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* ------------------------------------------- deterministic mode */

/* Deterministic mode orders the global atomics and morally strong
 * accesses (emu/ops_mem.c) of a parallel run as one thread does, where
 * CTAs run one after another in linear order: CTA k makes its first such
 * access only once every CTA below k has finished (a turnstile).  From
 * there on it sees every lower CTA's effects and none of a higher CTA's
 * synchronising accesses (those wait at the turnstile), so what they
 * read, return and leave, float rounding included, is one thread's
 * whenever the CTAs' plain accesses do not race.  Work before a CTA's
 * first such access overlaps with lower CTAs. */

/* A worker claims the next chunk of p->chunk CTAs, [k, *end): under mu
 * in deterministic mode, so that every CTA below a claimed one is
 * claimed and either finished or at or above its worker's cur (a worker
 * runs its chunk in order, cur its CTA running, the rest of the chunk
 * above it). */
static uint64_t claim(Par *p, unsigned wi, uint64_t *end)
{
    if (p->det) {
        pthread_mutex_lock(&p->mu);
    }
    uint64_t k = __atomic_fetch_add(&p->next, p->chunk, __ATOMIC_ACQ_REL);
    *end = k + p->chunk < p->total ? k + p->chunk : p->total;
    if (p->det) {
        p->cur[wi] = k < p->total ? k : UINT64_MAX;
        pthread_cond_broadcast(&p->cv); /* (its last CTA is finished) */
        pthread_mutex_unlock(&p->mu);
    }
    return k;
}

/* The worker's CTA running from now on: k (UINT64_MAX: none). */
static void running(Par *p, unsigned wi, uint64_t k)
{
    if (p->det) {
        pthread_mutex_lock(&p->mu);
        p->cur[wi] = k;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

static void finished(Par *p, unsigned wi)
{
    running(p, wi, UINT64_MAX);
}

/* mu held: no CTA below k is claimed and unfinished */
static bool lowest(const Par *p, uint64_t k)
{
    for (unsigned i = 0; i < p->nw; i++) {
        if (p->cur[i] < k) {
            return false;
        }
    }
    return true;
}

bool emu_par_atomic_turn(EmuLaunch *l, const EmuCta *cta)
{
    Par *p = l->det;
    uint64_t k = cta->linear;
    pthread_mutex_lock(&p->mu);
    while (!lowest(p, k) && !stopping(p, k)) {
        pthread_cond_wait(&p->cv, &p->mu);
    }
    bool ok = !stopping(p, k);
    pthread_mutex_unlock(&p->mu);
    l->det_ok = ok;
    l->det_stop = !ok;
    return ok;
}

/* ------------------------------------------------------ the loop */

/* CTAs [k, end) of a claimed chunk will not start here (an abort):
 * the driver runs those below the stop on one thread. */
static void unstarted(Par *p, Worker *w, uint64_t k, uint64_t end)
{
    for (; k < end && k < __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
         k++) {
        if (grow((void **)&w->unstarted, &w->capunstarted,
                 w->nunstarted, sizeof(*w->unstarted))) {
            w->unstarted[w->nunstarted++] = (uint32_t)k;
        } else {
            fail(p, w, k, EMU_ERR_OUT_OF_MEMORY);
        }
    }
}

static void worker_main(void *ctx, unsigned wi)
{
    Par *p = ctx;
    Worker *w = &p->w[wi];
    /* claims only grow: past a failure or an abort nothing more starts */
    uint64_t k = 0, end = 0; /* the chunk's next CTA and its end */
    for (;;) {
        if (k == end) {
            if (__atomic_load_n(&p->abort, __ATOMIC_ACQUIRE)) {
                break;
            }
            k = claim(p, wi, &end);
        }
        if (k >= p->total ||
            k >= __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
            break;
        }
        if (!wait_turn(p, k)) {
            /* past a failure nothing more runs; after an abort the rest
             * of the chunk runs later, on one thread */
            if (__atomic_load_n(&p->abort, __ATOMIC_ACQUIRE)) {
                unstarted(p, w, k, end);
            }
            break;
        }
        run_cta(p, w, k);
        if (++k < end && !__atomic_load_n(&p->abort, __ATOMIC_ACQUIRE)) {
            running(p, wi, k);
        } else if (k < end) {
            unstarted(p, w, k, end);
            break;
        }
    }
    finished(p, wi);
}

/* ------------------------------------------------------- the driver */

static int by_k(const void *a, const void *b)
{
    const ParOut *x = a, *y = b;
    return x->k < y->k ? -1 : x->k > y->k;
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int by_linear(const void *a, const void *b)
{
    const EmuCta *x = *(EmuCta *const *)a, *y = *(EmuCta *const *)b;
    return x->linear < y->linear ? -1 : x->linear > y->linear;
}

/* The printf records of CTAs up to `upto`, in CTA order. */
static EmuStatus merge_printf(Par *p, unsigned n, uint64_t upto)
{
    size_t total = 0;
    for (unsigned i = 0; i < n; i++) {
        total += p->w[i].nout;
    }
    ParOut *all = total ? malloc(total * sizeof(*all)) : NULL;
    if (total && !all) {
        return EMU_ERR_OUT_OF_MEMORY;
    }
    size_t m = 0;
    for (unsigned i = 0; i < n; i++) {
        memcpy(all + m, p->w[i].out, p->w[i].nout * sizeof(*all));
        m += p->w[i].nout;
    }
    qsort(all, m, sizeof(*all), by_k);
    for (size_t j = 0; j < m; j++) {
        if (all[j].k <= upto) {
            emu_printf_merge(p->l, all[j].buf, all[j].len, all[j].dropped);
        }
    }
    free(all);
    return EMU_OK;
}

/* Parked CTAs first, then the CTAs never started, on one thread. */
static EmuStatus finish_serial(Par *p, unsigned n)
{
    EmuLaunch *l = p->l;
    uint32_t np = 0, nu = 0;
    for (unsigned i = 0; i < n; i++) {
        np += p->w[i].nparked;
        nu += p->w[i].nunstarted;
    }
    uint64_t from = p->next < p->total ? p->next : p->total;
    EmuCta **adopt = malloc((np ? np : 1) * sizeof(*adopt));
    uint32_t *order = malloc((nu ? nu : 1) * sizeof(*order));
    if (!adopt || !order) {
        free(adopt);
        free(order);
        return EMU_ERR_OUT_OF_MEMORY;
    }
    uint32_t a = 0, o = 0;
    for (unsigned i = 0; i < n; i++) {
        Worker *w = &p->w[i];
        for (uint32_t j = 0; j < w->nparked; j++) {
            adopt[a++] = w->parked[j];
            adopt[a - 1]->launch = l;
        }
        w->nparked = 0;
        memcpy(order + o, w->unstarted, w->nunstarted * sizeof(*order));
        o += w->nunstarted;
    }
    qsort(adopt, a, sizeof(*adopt), by_linear);
    qsort(order, o, sizeof(*order), by_u32);
    if (l->dev->cfg.par_log) {
        fprintf(l->dev->cfg.par_log, "ptxemu: kernel '%s': %u CTA(s) wait "
                "for other CTAs; the launch goes on on one host "
                "thread\n", l->kernel->ir->name, a);
    }
    EmuGrid *g;
    EmuStatus st = emu_grid_resume(l, adopt, a, order, o, from, &g);
    if (st != EMU_OK) {
        for (uint32_t j = 0; j < a; j++) {
            emu_grid_drop(adopt[j]);
        }
    } else {
        st = emu_sched_grid(l, g);
    }
    free(adopt);
    return st;
}

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* A chunk holds at least this many threads' CTAs: so many 4-byte
 * elements are a 4 KiB page, the span within which a core's L2 streamer
 * prefetches (Intel 64 and IA-32 Architectures Optimization Reference
 * Manual, "Data Prefetching").  Workers claiming one CTA at a time ran
 * neighbouring CTAs side by side, whose accesses to consecutive blocks
 * of an array then fetched each other's lines (bench/hostmem, the
 * memory-bound kernel's accesses alone, 2 threads: 1.84-1.88x one CTA
 * at a time, 1.93-1.94x four at a time; bench/emu --only mem: 1.69-1.71x
 * before, 1.90-1.96x after). */
#define CHUNK_THREADS 1024u
/* ... and every worker gets at least this many chunks (the balance at
 * the end of the grid). */
#define CHUNKS_PER_WORKER 8u

/* How many CTAs a worker claims at once (Par.chunk): 1 in deterministic
 * mode when the module has an instruction that waits at the turnstile
 * (emu_par_atomic_turn: a CTA there waits for every lower CTA, so the
 * rest of a worker's chunk would wait for it), and no more than the
 * workers can run on different SMs (CTAs of one SM run in turn). */
static uint64_t chunk_of(const Par *p, const EmuLaunch *l)
{
    if (p->det) {
        const EmuModule *m = l->mod;
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            if (m->funcs[i] && emu_func_has_turnstile(m->funcs[i])) {
                return 1;
            }
        }
    }
    uint64_t per = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t c = per ? (CHUNK_THREADS + per - 1) / per : 1;
    uint64_t most = p->total / ((uint64_t)p->nw * CHUNKS_PER_WORKER);
    if (c > most) {
        c = most;
    }
    if (c > p->nsm / p->nw) {
        c = p->nsm / p->nw;
    }
    return c ? c : 1;
}

EmuStatus emu_par_run(EmuLaunch *l, unsigned threads)
{
    Par p;
    memset(&p, 0, sizeof(p));
    p.l = l;
    p.total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    p.nsm = l->dev->cfg.num_sms ? l->dev->cfg.num_sms : 1;
    p.cap = emu_sched_cap(l);
    p.stop = UINT64_MAX;
    if (threads > p.total) {
        threads = (unsigned)p.total;
    }
    p.turn = malloc(p.nsm * sizeof(*p.turn));
    p.w = aligned_alloc(_Alignof(Worker), threads * sizeof(*p.w));
    if (p.w) {
        memset(p.w, 0, threads * sizeof(*p.w));
    }
    p.det = !l->dev->cfg.fast;
    p.nw = threads;
    p.cur = malloc(threads * sizeof(*p.cur));
    if (!p.turn || !p.w || !p.cur) {
        free(p.turn);
        free(p.w);
        free(p.cur);
        return EMU_ERR_OUT_OF_MEMORY;
    }
    for (unsigned i = 0; i < threads; i++) {
        p.cur[i] = UINT64_MAX;
    }
    p.chunk = chunk_of(&p, l);
    for (uint32_t s = 0; s < p.nsm; s++) {
        p.turn[s] = s;
    }
    if (!l->start_ms) {
        l->start_ms = mono_ms();
    }
    for (unsigned i = 0; i < threads; i++) {
        Worker *w = &p.w[i];
        w->sh = *l;
        w->sh.worker = true;
        w->sh.det = p.det ? &p : NULL;
        w->sh.insns = 0;
        w->sh.progress = 0;
        w->sh.faulted = false;
        w->sh.printf_buf = NULL;
        w->sh.printf_len = w->sh.printf_cap = 0;
        w->sh.printf_dropped = 0;
        memset(&w->sh.mhit, 0, sizeof(w->sh.mhit));
        w->fk = UINT64_MAX;
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    emu_pool_run(threads, worker_main, &p);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);

    /* counters, in worker order */
    Worker *low = NULL;
    for (unsigned i = 0; i < threads; i++) {
        Worker *w = &p.w[i];
        l->insns += w->sh.insns;
        l->progress += w->sh.progress;
        l->reads_host |= w->sh.reads_host;
        if (w->fk != UINT64_MAX && (!low || w->fk < low->fk)) {
            low = w;
        }
    }
    EmuStatus st = merge_printf(&p, threads, low ? low->fk : UINT64_MAX);
    if (low) {
        /* what CTAs above the fault met: dropped, as their printf */
        emu_tolerate_drop_above(l->dev, low->fk);
        st = low->fst;
        if (low->fguest) {
            l->fault = low->ff;
            l->faulted = true;
            memcpy(l->fault_text, low->ftext, sizeof(l->fault_text));
            l->dev->last_fault = low->ff;
            l->dev->has_fault = true;
        }
    } else if (st == EMU_OK && p.abort) {
        st = finish_serial(&p, threads);
    }
    for (unsigned i = 0; i < threads; i++) {
        Worker *w = &p.w[i];
        for (size_t j = 0; j < w->nout; j++) {
            free(w->out[j].buf);
        }
        for (uint32_t j = 0; j < w->nparked; j++) {
            emu_grid_drop(w->parked[j]);
        }
        free(w->sh.printf_buf);
        free(w->out);
        free(w->parked);
        free(w->unstarted);
    }
    free(p.w);
    free(p.turn);
    free(p.cur);
    return st;
}
