/*
 * timing/host.c: a timing model's host, backed by the functional
 * emulator; the timed driver of a launch.
 *
 * A TmSession is one configured model instance attached to an EmuDevice.
 * tm_session_attach() makes a launch run through tm_session_run() (the
 * EmuLaunch.driver seam, inherited by child grids), which calls the
 * model's kernel_begin / cycle / kernel_end and serves its calls:
 *  - cta_next   -> emu_grid_next (emu/grid.h), on the SM the model names;
 *  - warp_peek  -> emu_warp_peek, translated to the model's static
 *                  instruction table (one ptxemu_tm_insn per EmuInsn,
 *                  made on first sight and kept for the session);
 *  - warp_step  -> emu_warp_step with a step record, translated;
 *  - set_time   -> EmuDevice.sm_clock (%clock) and timer_ns
 *                  (%globaltimer), the launch being `timed`.
 * Events (barrier release, warp exit, CTA done) are found by comparing
 * warp states around each step: the emulator changes them only inside
 * a step.
 *
 * Parallel stepping (ptxemu_timing.h, ABI 3).  threads() is
 * EmuConfig.threads unless the launch must stay on one thread
 * (emu_par_timed_reason; said on EmuConfig.par_log).  Inside a parallel
 * section each SM steps against its own TmStepCtx: a copy of the launch
 * (a worker's, as the functional pool's: emu/pool.h) that its CTAs
 * point at during the step, so the instruction and progress counters,
 * the access cache and a fault are the SM's; its own step record and
 * access array.  parallel(0) folds the counters into the launch in SM
 * order; a fault stays with its SM until the kernel stops (the lowest
 * SM's is reported, unless a serial step faulted).  Steps outside the
 * section run against the launch itself, as without threads.  The
 * static instruction table grows under a lock (readers walk a list
 * published with release stores); clients that only count steps are
 * called under a lock.
 *
 * Watchdog.  Deadlocks and livelocks are the grid's (emu/grid.h): at
 * every TM_ROUND_CYCLES-th device cycle, when instructions ran since the
 * last, the resident CTAs get one watchdog round (at fixed cycles, so
 * that a model may run SMs ahead to the next: h_ahead, ABI 5).  A
 * model that issues nothing for
 * TM_IDLE_LIMIT cycles while warps are ready is reported as the model's
 * error (a broken model must not hang the host).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/access.h"
#include "emu/client.h"
#include "emu/grid.h"
#include "emu/insninfo.h"
#include "emu/its.h"
#include "emu/memory.h"
#include "emu/panic.h"
#include "emu/par.h"
#include "emu/shadow.h"
#include "ptx/opcode.h"
#include "ptx/ptx.h"
#include "timing/intervals.h"
#include "timing/progress.h"
#include "timing/session.h"

#define TM_IDLE_LIMIT 100000000ull   /* cycles with nothing issued */
/* A watchdog round every TM_ROUND_CYCLES device cycles in which a step
 * ran: about the functional scheduler's quantum of 64 steps per warp
 * (sched.c) for a warp that issues every 16th cycle, and at fixed
 * cycles, so that a model running SMs ahead (ABI 5) knows where the
 * host looks. */
#define TM_ROUND_CYCLES 1024ull

struct ptxemu_tm_warp {
    EmuWarp *w;
    struct ptxemu_tm_cta *tc;
    uint32_t slot;
    uint32_t state;               /* last state seen (events) */
    uint32_t its_rel;             /* w->its_rel seen (its_told) */
};

struct ptxemu_tm_cta {
    EmuCta *cta;
    struct ptxemu_tm_warp *warps;
    struct ptxemu_tm_warp **ptrs;
    uint32_t nlive;               /* warps not exited */
    uint32_t seen_gen;            /* cta->wstate_gen at the last scan */
    uint32_t seen_rel;            /* cta->bar_releases at the last scan */
    bool done_told;
    struct ptxemu_tm_cta *next;   /* the session's live list */
    struct ptxemu_tm_cta **pprev; /* what points at it there: a CTA
                                     leaves in O(1) (thousands live) */
};

/* Static info of one function: one ptxemu_tm_insn per instruction. */
typedef struct TmFuncInfo {
    const EmuFunc *fn;
    ptxemu_tm_insn *insn;         /* fn->ncode, made on first sight */
    char *text;                   /* the insns' PTX lines, NUL-separated */
    struct TmFuncInfo *next;
} TmFuncInfo;

struct ptxemu_tm_host {
    TmSession *s;
};

/* What one stepping context writes: the launch's (outside a parallel
 * section) or an SM's (inside). */
/* Aligned (and so sized) to 128 bytes, a pair of cache lines: SMs side
 * by side in TmSession.smx step on different threads (as emu/par.c's
 * Worker). */
typedef struct TmStepCtx {
    _Alignas(128) EmuLaunch l;    /* an SM's copy (unused for the main) */
    EmuStepRecord rec;
    ptxemu_tm_access *acc;
    uint32_t capacc;
    uint64_t issued;
    EmuStatus fault;              /* an SM's first fault in a section */
    EmuShadow shadow;             /* its buffered global stores (ABI 6) */
} TmStepCtx;
/* A TmStepCtx's counts are folded into the launch after each of the
 * model's cycles (smx_fold): no step reads them (a back edge's spin
 * detector reads its CTA's progress, emu/its.c), only the host between
 * cycles (the watchdog, --progress). */

struct TmSession {
    TmLoaded model;
    void *tm;
    TmParams *params;
    TmStats *stats;
    ptxemu_tm_host host;
    ptxemu_tm_host_api api;
    EmuDevice *dev;
    double mhz;
    uint64_t now;                 /* device cycle */
    /* now in nanoseconds at mhz, published for other host threads:
     * the drop-ins stamp CUDA events (tm_session_time_ns) on whichever
     * thread completes the record, while the device worker runs a
     * kernel and moves now.  Written by the thread that runs launches,
     * read anywhere, always through __atomic (relaxed: a time stamp
     * orders nothing). */
    uint64_t now_ns;
    char err[512];
    /* the running launch */
    EmuLaunch *l;
    EmuGrid *grid;
    struct ptxemu_tm_cta *live;
    EmuStatus fault;              /* first guest fault of the launch */
    uint64_t issued;              /* steps in this launch */
    EmuStepRecord *rec;
    ptxemu_tm_access *acc;
    uint32_t capacc;
    TmFuncInfo *funcs;            /* most recently made first (published
                                     with release stores, under mu) */
    pthread_mutex_t mu;           /* funcs and step-only clients while
                                     SMs step in parallel */
    /* parallel stepping of the running launch (threads > 1) */
    uint32_t threads;
    bool par;                     /* inside a parallel section */
    TmStepCtx *smx;               /* per SM (NULL: none made) */
    uint32_t *dirty;              /* the SMs whose counts smx_fold folds
                                     (those with issued > 0) */
    uint32_t ndirty;              /* (atomic: taken in a section) */
    bool *shadowed;               /* per SM: its buffer holds stores */
    uint64_t round_at;            /* the watchdog's next round (cycle) */
    /* The running launch's per-SM contexts are made: parallel sections
     * work (threads > 1, or SMs running ahead: h_ahead) */
    bool smx_on;
    uint8_t ahead_ok;             /* h_ahead: 0 not asked, 1 yes, 2 no */
    uint32_t nsmx;
    uint64_t ctas_done;           /* CTAs retired in this launch */
    uint64_t runs;                /* launches timed so far (nesting) */
    /* per kernel, for --stats */
    TmKernelStats *kstats;
    size_t nk, capk;
    TmIntervals *iv;              /* --stats-interval, or NULL */
    TmProgress prog;
    bool progress;                /* --progress */
};

/* ------------------------------------------------------- messages */

static void set_err(TmSession *s, const char *fmt, ...)
{
    if (s->err[0]) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof(s->err), fmt, ap);
    va_end(ap);
}

static void h_error(ptxemu_tm_host *h, const char *msg)
{
    set_err(h->s, "timing model '%s': %s", h->s->model.ops.name
            ? h->s->model.ops.name : h->s->model.spec, msg ? msg : "error");
}

static void h_log(ptxemu_tm_host *h, const char *msg)
{
    fprintf(stderr, "ptxemu: timing model '%s': %s\n",
            h->s->model.ops.name ? h->s->model.ops.name : h->s->model.spec,
            msg ? msg : "");
}

/* ------------------------------------------------------- parameters */

static int h_declare(ptxemu_tm_host *h, const ptxemu_tm_param *p,
                     uint32_t n)
{
    char e[256];
    if (tm_params_declare(h->s->params, p, n, e, sizeof(e)) != 0) {
        set_err(h->s, "%s", e);
        return PTXEMU_TM_ERROR;
    }
    return PTXEMU_TM_OK;
}

static int64_t h_pint(ptxemu_tm_host *h, const char *name)
{
    return tm_params_int(h->s->params, name);
}

static uint64_t h_puint(ptxemu_tm_host *h, const char *name)
{
    return tm_params_uint(h->s->params, name);
}

static double h_pdouble(ptxemu_tm_host *h, const char *name)
{
    return tm_params_double(h->s->params, name);
}

static bool h_pbool(ptxemu_tm_host *h, const char *name)
{
    return tm_params_bool(h->s->params, name);
}

static const char *h_pstring(ptxemu_tm_host *h, const char *name)
{
    return tm_params_string(h->s->params, name);
}

static int h_stat(ptxemu_tm_host *h, const char *path, const uint64_t *ctr,
                  const char *help)
{
    if (!path || !ctr || tm_stats_add(h->s->stats, path, ctr, help) != 0) {
        set_err(h->s, "statistic '%s' is invalid or registered twice",
                path ? path : "(null)");
        return PTXEMU_TM_ERROR;
    }
    return PTXEMU_TM_OK;
}

static uint32_t h_num_sms(ptxemu_tm_host *h)
{
    return h->s->dev->cfg.num_sms;
}

/* ------------------------------------------------ static information */

static uint8_t tm_space(unsigned ptx)
{
    switch ((PtxSpace)ptx) {
    case PTX_SPACE_GLOBAL: return PTXEMU_TM_SPACE_GLOBAL;
    case PTX_SPACE_SHARED: return PTXEMU_TM_SPACE_SHARED;
    case PTX_SPACE_SHARED_CLUSTER: return PTXEMU_TM_SPACE_SHARED_CLUSTER;
    case PTX_SPACE_LOCAL: return PTXEMU_TM_SPACE_LOCAL;
    case PTX_SPACE_CONST: return PTXEMU_TM_SPACE_CONST;
    case PTX_SPACE_PARAM: return PTXEMU_TM_SPACE_PARAM;
    case PTX_SPACE_TEX: return PTXEMU_TM_SPACE_TEX;
    default: return PTXEMU_TM_SPACE_NONE;
    }
}

/* EmuAccKind (emu/access.h) -> ptxemu_tm_access_kind: texel accesses
 * read or write, an asynchronous reduction is an atomic. */
static const uint8_t tm_kind[EMU_ACC_KIND_COUNT] = {
    [EMU_ACC_READ] = PTXEMU_TM_READ,
    [EMU_ACC_WRITE] = PTXEMU_TM_WRITE,
    [EMU_ACC_ATOMIC] = PTXEMU_TM_ATOMIC,
    [EMU_ACC_ASYNC_READ] = PTXEMU_TM_ASYNC_READ,
    [EMU_ACC_ASYNC_WRITE] = PTXEMU_TM_ASYNC_WRITE,
    [EMU_ACC_ASYNC_ATOMIC] = PTXEMU_TM_ATOMIC,
    [EMU_ACC_TEXEL_READ] = PTXEMU_TM_READ,
    [EMU_ACC_TEXEL_WRITE] = PTXEMU_TM_WRITE,
};

static uint16_t insn_flags(uint32_t opf, bool async)
{
    return (uint16_t)(
        (opf & OPF_LOAD ? PTXEMU_TM_I_LOAD : 0) |
        (opf & OPF_STORE ? PTXEMU_TM_I_STORE : 0) |
        (opf & OPF_ATOMIC ? PTXEMU_TM_I_ATOMIC : 0) |
        (opf & (OPF_BRANCH | OPF_BRX) ? PTXEMU_TM_I_BRANCH : 0) |
        (opf & OPF_CALL ? PTXEMU_TM_I_CALL : 0) |
        (opf & OPF_RET ? PTXEMU_TM_I_RET : 0) |
        (opf & OPF_EXIT ? PTXEMU_TM_I_EXIT : 0) |
        (opf & OPF_BARRIER ? PTXEMU_TM_I_BARRIER : 0) |
        (async ? PTXEMU_TM_I_ASYNC : 0) |
        (opf & OPF_WARP ? PTXEMU_TM_I_WARP : 0));
}

/* Whether a plain load or store of global memory (ptxemu_timing.h's
 * "Buffered global accesses"): ld, ldu or st of the .global or generic
 * space, neither strong (emu_access_strong: strong only at the CTA's
 * scope is plain, no other SM's thread shares it) nor .mmio. */
static bool plain_global(const IrInsn *in)
{
    if (!in || (in->op != PTX_OP_LD && in->op != PTX_OP_LDU &&
                in->op != PTX_OP_ST) ||
        emu_access_strong(in, PTX_SPACE_GLOBAL)) {
        return false;
    }
    for (unsigned i = 0; i < in->nsfx; i++) {
        if (in->sfx[i] == PTX_M_MMIO) {
            return false;
        }
    }
    return true;
}

/* Whether an instruction's functional effect may be seen by (or depend
 * on) other SMs in the same cycle (PTXEMU_TM_I_SHARED): anything that
 * reaches memory other than the CTA's shared, the thread's local, the
 * constant and the parameter space, atomics (but on the CTA's shared
 * memory), asynchronous operations
 * and the waits for them, fences, calls (device library functions:
 * printf, malloc, the device runtime), exits and barriers wider than
 * the CTA (and, in func_info, reads of %globaltimer). */
static bool shared_effect(const ptxemu_tm_insn *t, uint32_t opf)
{
    /* an atomic on the CTA's own shared memory is the CTA's (a launch
     * with clusters, whose CTAs reach each other's, is never stepped in
     * parallel: emu_par_timed_reason) */
    const bool cta_atomic = (opf & OPF_ATOMIC) &&
                            t->space == PTXEMU_TM_SPACE_SHARED;
    if (((opf & (OPF_ATOMIC | OPF_CALL | OPF_EXIT)) && !cta_atomic) ||
        (t->flags & PTXEMU_TM_I_ASYNC) || t->unit == PTXEMU_TM_UNIT_TEX ||
        t->unit == PTXEMU_TM_UNIT_ASYNC) {
        return true;
    }
    switch (t->wait) {
    case PTXEMU_TM_WAIT_NONE:
    case PTXEMU_TM_WAIT_BARRIER:
    case PTXEMU_TM_WAIT_WARP:
    case PTXEMU_TM_WAIT_SLEEP:
        break;
    default:
        return true;
    }
    if (t->unit == PTXEMU_TM_UNIT_SYNC &&
        (!(opf & OPF_BARRIER) || strstr(t->opname, "cluster"))) {
        /* the group and mbarrier bookkeeping of asynchronous operations
         * (launch-wide token numbering): all but the CTA's barriers */
        return true;
    }
    if (!(opf & (OPF_LOAD | OPF_STORE)) && t->unit != PTXEMU_TM_UNIT_LDST) {
        return false;
    }
    return t->space != PTXEMU_TM_SPACE_SHARED &&
           t->space != PTXEMU_TM_SPACE_LOCAL &&
           t->space != PTXEMU_TM_SPACE_CONST &&
           t->space != PTXEMU_TM_SPACE_PARAM;
}

/* Whether operand o reads %globaltimer: the host's time (set_now),
 * which only the cycles every SM has finished set; a window's step
 * (ABI 5) runs ahead of it. */
static bool opnd_globaltimer(const IrOperand *o)
{
    if (o->kind == IR_O_SREG) {
        return o->id == PTX_SREG_GLOBALTIMER ||
               o->id == PTX_SREG_GLOBALTIMER_LO ||
               o->id == PTX_SREG_GLOBALTIMER_HI;
    }
    if (o->kind == IR_O_VEC || o->kind == IR_O_LIST ||
        o->kind == IR_O_PAIR || o->kind == IR_O_TUPLE) {
        for (uint32_t k = 0; k < o->n; k++) {
            if (opnd_globaltimer(&o->u.elems[k])) {
                return true;
            }
        }
    }
    return false;
}

static bool reads_globaltimer(const IrInsn *in)
{
    for (uint32_t k = 0; in && k < in->nopnds; k++) {
        if (opnd_globaltimer(&in->opnds[k])) {
            return true;
        }
    }
    return false;
}

/* emu/insninfo.h numbers units, waits and implicit-state slots as the
 * ABI does (check_insninfo holds it to that), so they pass unchanged. */
/* Each instruction's PTX line (ptxemu_tm_insn.text: what the ABI
 * promises, and how a model reads modifiers such as .rn or .approx);
 * left "" when there is no memory for them. */
static void insn_texts(TmFuncInfo *f)
{
    const EmuFunc *fn = f->fn;
    size_t *off = calloc(fn->ncode ? fn->ncode : 1, sizeof(*off));
    char *buf = NULL;
    size_t len = 0;
    FILE *ms = off ? open_memstream(&buf, &len) : NULL;
    if (!ms) {
        free(off);
        return;
    }
    for (uint32_t pc = 0; pc < fn->ncode; pc++) {
        off[pc] = (size_t)ftell(ms);
        if (fn->code[pc].ir) {
            ptx_print_insn(ms, NULL, fn->ir, fn->code[pc].ir);
        }
        fputc('\0', ms);
    }
    if (fclose(ms) == 0 && buf) {
        f->text = buf;
        for (uint32_t pc = 0; pc < fn->ncode; pc++) {
            f->insn[pc].text = buf + off[pc];
        }
    } else {
        free(buf);
    }
    free(off);
}

static TmFuncInfo *func_info(TmSession *s, const EmuFunc *fn)
{
    TmFuncInfo *f = calloc(1, sizeof(*f));
    if (f) {
        f->insn = calloc(fn->ncode ? fn->ncode : 1, sizeof(*f->insn));
    }
    if (!f || !f->insn) {
        free(f);
        return NULL;
    }
    f->fn = fn;
    for (uint32_t pc = 0; pc < fn->ncode; pc++) {
        const EmuInsnInfo *ii = emu_insn_info(fn, pc);
        ptxemu_tm_insn *t = &f->insn[pc];
        t->struct_size = sizeof(*t);
        t->opcode = ii->op;
        t->unit = ii->unit;
        t->wait = ii->wait;
        t->space = tm_space(ii->space);
        t->type = (uint8_t)(ptx_type_bits((PtxType)ii->type) / 8);
        t->flags = insn_flags(ii->opf, ii->async);
        t->opname = ptx_opinfo((PtxOpcode)ii->op)->name;
        t->text = "";
        t->func = fn->ir->name;
        t->pc = pc;
        t->line = fn->code[pc].ir ? fn->code[pc].ir->loc.line : 0;
        t->func_id = fn->index;
        t->func_slots = fn->nslots;
        t->nsrc = ii->nsrc;
        t->ndst = ii->ndst;
        t->src = ii->src;
        t->dst = ii->dst;
        if (shared_effect(t, ii->opf) || reads_globaltimer(fn->code[pc].ir)) {
            t->flags |= PTXEMU_TM_I_SHARED;
        }
        if (s->model.ops.abi_version >= 6 &&
            (t->space == PTXEMU_TM_SPACE_GLOBAL ||
             t->space == PTXEMU_TM_SPACE_NONE) &&
            !(t->flags & PTXEMU_TM_I_ASYNC) &&
            plain_global(fn->code[pc].ir)) {
            t->flags |= PTXEMU_TM_I_BUFFERED;
        }
    }
    insn_texts(f);
    f->next = s->funcs;
    __atomic_store_n(&s->funcs, f, __ATOMIC_RELEASE);
    return f;
}

static TmFuncInfo *func_find(TmFuncInfo *f, const EmuFunc *fn)
{
    while (f && f->fn != fn) {
        f = f->next;
    }
    return f;
}

static const ptxemu_tm_insn *insn_of(TmSession *s, const EmuFunc *fn,
                                     uint32_t pc)
{
    /* a kernel's functions are few: a list, most recently made first;
     * made under the lock (SMs stepping in parallel may meet a function
     * together), read without */
    TmFuncInfo *f = func_find(__atomic_load_n(&s->funcs, __ATOMIC_ACQUIRE),
                              fn);
    if (!f) {
        pthread_mutex_lock(&s->mu);
        f = func_find(s->funcs, fn);
        if (!f) {
            f = func_info(s, fn);
        }
        pthread_mutex_unlock(&s->mu);
        if (!f) {
            return NULL;
        }
    }
    return pc < fn->ncode ? &f->insn[pc] : NULL;
}

/* Where the model sees host-backed memory: managed and registered host
 * allocations live at host pointers (emu/memory.h), which the C
 * library's heap and address-space randomisation choose anew on every
 * run, and the model's caches, TLBs and coalescing follow addresses:
 * cycles would follow them too.  So the model sees each such allocation
 * in a 4 GiB slot of its own from TM_HOST_WINDOW, by its place among the
 * memory's allocations (EmuAlloc.seq), at its offset in its first
 * 128-byte line (a managed block's is 0: EMU_ALLOC_ALIGN).  Below the
 * device range and above the generic windows. */
#define TM_HOST_WINDOW 0x0000100000000000ull
#define TM_HOST_SLOTS 4096u

static uint64_t model_addr(const EmuMemory *m, uint64_t addr, uint32_t size)
{
    if (addr < EMU_PARAM_WINDOW + EMU_PARAM_LIMIT ||
        emu_mem_in_device_range(m, addr)) {
        return addr; /* (the windows and the device range: as they are) */
    }
    const EmuAlloc *e = emu_mem_find(m, addr, size ? size : 1);
    if (!e || (e->kind != EMU_ALLOC_MANAGED && e->kind != EMU_ALLOC_HOST)) {
        return addr;
    }
    return TM_HOST_WINDOW + ((e->seq % TM_HOST_SLOTS) << 32) +
           (e->addr & 127) + (addr - e->addr);
}

/* ----------------------------------------------------------- CTAs */

static int h_cta_next(ptxemu_tm_host *h, uint32_t sm, ptxemu_tm_cta **out)
{
    TmSession *s = h->s;
    *out = NULL;
    if (sm >= s->dev->cfg.num_sms) {
        set_err(s, "cta_next: SM %u does not exist (%u SMs)", sm,
                s->dev->cfg.num_sms);
        return PTXEMU_TM_ERROR;
    }
    EmuCta *cta;
    EmuStatus st = emu_grid_next(s->grid, sm, &cta);
    if (st != EMU_OK) {
        if (s->fault == EMU_OK) {
            s->fault = st;
        }
        return PTXEMU_TM_FAULT;
    }
    if (!cta) {
        return PTXEMU_TM_NONE;
    }
    struct ptxemu_tm_cta *tc = calloc(1, sizeof(*tc));
    if (tc) {
        tc->warps = calloc(cta->nwarps, sizeof(*tc->warps));
        tc->ptrs = calloc(cta->nwarps, sizeof(*tc->ptrs));
    }
    if (!tc || !tc->warps || !tc->ptrs) {
        if (tc) {
            free(tc->warps);
            free(tc->ptrs);
        }
        free(tc);
        s->fault = EMU_ERR_OUT_OF_MEMORY;
        return PTXEMU_TM_FAULT;
    }
    tc->cta = cta;
    tc->seen_gen = cta->wstate_gen;
    tc->seen_rel = cta->bar_releases;
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        tc->warps[k].w = &cta->warps[k];
        tc->warps[k].tc = tc;
        tc->warps[k].slot = k;
        tc->warps[k].state = cta->warps[k].state;
        tc->warps[k].its_rel = cta->warps[k].its_rel;
        tc->ptrs[k] = &tc->warps[k];
        tc->nlive += cta->warps[k].state != EMU_WARP_EXITED;
    }
    tc->next = s->live;
    tc->pprev = &s->live;
    if (s->live) {
        s->live->pprev = &tc->next;
    }
    s->live = tc;
    *out = tc;
    return PTXEMU_TM_OK;
}

static uint32_t h_cta_warps(ptxemu_tm_host *h, ptxemu_tm_cta *tc,
                            ptxemu_tm_warp *const **warps)
{
    (void)h;
    *warps = tc->ptrs;
    return tc->cta->nwarps;
}

/* Unlink tc from the list it is on and free it.  The unlinking needs
 * only tc's own links, not the session's current head; the list is
 * always the running kernel's (s->live).  tc comes either from that list
 * (the end of tm_session_run) or from the model through h_cta_retire,
 * after emu_grid_retire found its CTA resident in the running grid,
 * which holds only CTAs made by h_cta_make in this run, each put on
 * s->live then (a CTA of another grid panics there first).  A list saved
 * by an enclosing run (tm_session_run's plive) is therefore never
 * touched meanwhile.  A broken link is our bug: a panic rather than a
 * write through a stale pointer. */
static void free_tc(TmSession *s, struct ptxemu_tm_cta *tc)
{
    (void)s;
    if (*tc->pprev != tc || (tc->next && tc->next->pprev != &tc->next)) {
        /* (tc->cta may be freed already: emu_grid_retire) */
        EMU_PANIC("timing host: a retired CTA is not linked on the "
                  "session's list of live CTAs");
    }
    *tc->pprev = tc->next;
    if (tc->next) {
        tc->next->pprev = tc->pprev;
    }
    free(tc->warps);
    free(tc->ptrs);
    free(tc);
}

static void h_cta_retire(ptxemu_tm_host *h, ptxemu_tm_cta *tc)
{
    TmSession *s = h->s;
    emu_grid_retire(s->grid, tc->cta);
    free_tc(s, tc);
    s->ctas_done++;
}

/* ---------------------------------------------------------- warps */

static void events(TmSession *s, struct ptxemu_tm_warp *stepped);
static void smx_fold(TmSession *s);

static const ptxemu_tm_insn *h_peek(ptxemu_tm_host *h, ptxemu_tm_warp *tw,
                                    uint32_t *active, uint32_t *exec)
{
    const EmuFunc *fn;
    uint32_t pc, a = 0, e = 0;
    EmuCta *cta = tw->tc->cta;
    EmuLaunch *l = cta->launch;
    if (h->s->par) {
        cta->launch = &h->s->smx[cta->sm].l;
    }
    const EmuInsn *i = emu_warp_peek(cta, tw->w, &fn, &pc, &a, &e);
    cta->launch = l;
    if (active) {
        *active = a;
    }
    if (exec) {
        *exec = e;
    }
    if (tw->w->state != tw->state) {
        /* the peek settled a warp released at the end of a function */
        events(h->s, tw);
    }
    return i ? insn_of(h->s, fn, pc) : NULL;
}

/* After a watchdog round: tell a model of ABI 5 on which warps' next
 * instructions the round changed (emu_its_release), so that it peeks
 * them again instead of timing (and, running ahead, stepping in a
 * section) the one it peeked before. */
static void its_told(TmSession *s)
{
    void (*ev)(void *, ptxemu_tm_event, ptxemu_tm_cta *, ptxemu_tm_warp *)
        = s->model.ops.event;
    for (struct ptxemu_tm_cta *tc = s->live; tc; tc = tc->next) {
        for (uint32_t k = 0; k < tc->cta->nwarps; k++) {
            struct ptxemu_tm_warp *tw = &tc->warps[k];
            if (tw->its_rel != tw->w->its_rel) {
                tw->its_rel = tw->w->its_rel;
                if (ev && s->model.ops.abi_version >= 5) {
                    ev(s->tm, PTXEMU_TM_EV_WARP_CHANGED, tc, tw);
                }
            }
        }
    }
}

/* Tell the model what the step changed: barrier releases, exits. */
static void events(TmSession *s, struct ptxemu_tm_warp *stepped)
{
    void (*ev)(void *, ptxemu_tm_event, ptxemu_tm_cta *, ptxemu_tm_warp *)
        = s->model.ops.event;
    struct ptxemu_tm_cta *tc = stepped->tc;
    if (tc->cta->wstate_gen == tc->seen_gen && (tc->nlive || tc->done_told)) {
        return;                   /* no warp of the CTA changed state */
    }
    tc->seen_gen = tc->cta->wstate_gen;
    /* a release no warp waited for (a CTA of one warp) changes no
     * state, and is an event all the same (ptxemu_timing.h) */
    bool released = tc->cta->bar_releases != tc->seen_rel;
    tc->seen_rel = tc->cta->bar_releases;
    for (uint32_t k = 0; k < tc->cta->nwarps; k++) {
        struct ptxemu_tm_warp *tw = &tc->warps[k];
        uint32_t now = tw->w->state;
        if (now == tw->state) {
            continue;
        }
        if (tw->state == EMU_WARP_AT_BARRIER && now == EMU_WARP_READY) {
            released = true;
        }
        if (now == EMU_WARP_EXITED) {
            tc->nlive--;
            if (ev) {
                ev(s->tm, PTXEMU_TM_EV_WARP_EXIT, tc, tw);
            }
        }
        tw->state = now;
    }
    if (released && ev) {
        ev(s->tm, PTXEMU_TM_EV_BARRIER_RELEASE, tc, stepped);
    }
    if (tc->nlive == 0 && !tc->done_told) {
        tc->done_told = true;
        if (ev) {
            ev(s->tm, PTXEMU_TM_EV_CTA_DONE, tc, NULL);
        }
    }
}

static int h_step(ptxemu_tm_host *h, ptxemu_tm_warp *tw,
                  ptxemu_tm_step *out)
{
    TmSession *s = h->s;
    if (!out || out->struct_size < sizeof(*out)) {
        set_err(s, "warp_step: the step record's struct_size is %u, "
                "expected at least %zu", out ? out->struct_size : 0,
                sizeof(*out));
        return PTXEMU_TM_ERROR;
    }
    if (s->fault != EMU_OK) {
        return PTXEMU_TM_FAULT;
    }
    EmuCta *cta = tw->tc->cta;
    /* inside a parallel section: the SM's context (see the top) */
    TmStepCtx *x = s->par ? &s->smx[cta->sm] : NULL;
    EmuStepRecord *rec = x ? &x->rec : s->rec;
    ptxemu_tm_access **acc = x ? &x->acc : &s->acc;
    uint32_t *capacc = x ? &x->capacc : &s->capacc;
    EmuStatus *fault = x ? &x->fault : &s->fault;
    EmuLaunch *l = cta->launch;
    if (x) {
        cta->launch = &x->l;
    }
    uint64_t before = cta->launch->insns;
    /* what the step must execute: the peek the model relied on */
    const EmuFunc *pfn = NULL;
    uint32_t ppc = 0, pact = 0, pexec = 0;
    const EmuInsn *pin = emu_warp_peek(cta, tw->w, &pfn, &ppc, &pact,
                                       &pexec);
    if (x && pin) {
        const ptxemu_tm_insn *pi = insn_of(s, pfn, ppc);
        if (pi && (pi->flags & PTXEMU_TM_I_SHARED) &&
            !((pi->flags & PTXEMU_TM_I_BUFFERED) && x->l.shadow)) {
            cta->launch = l;
            pthread_mutex_lock(&s->mu);
            set_err(s, "warp_step: '%s' stepped inside a parallel section "
                    "(PTXEMU_TM_I_SHARED)", pi->opname);
            pthread_mutex_unlock(&s->mu);
            return PTXEMU_TM_ERROR;
        }
    }
    EmuStatus st = emu_warp_step(cta, tw->w, rec);
    bool ran = cta->launch->insns != before;
    cta->launch = l;
    EMU_ASSERT(!ran || (pin && rec->func == pfn && rec->pc == ppc &&
                        rec->active == pact && rec->exec == pexec));
    if (ran && s->dev->clients && s->dev->clients->steps) {
        /* clients (statistics, tracing) see timed steps as untimed ones;
         * in a parallel section only clients that count steps are
         * attached (emu_par_timed_reason), one at a time */
        if (x) {
            pthread_mutex_lock(&s->mu);
        }
        emu_client_step(s->dev, cta, tw->w, rec);
        if (x) {
            pthread_mutex_unlock(&s->mu);
        }
    }
    memset((char *)out + sizeof(out->struct_size), 0,
           sizeof(*out) - sizeof(out->struct_size));
    if (ran) {
        if (x) {
            if (!x->issued++) { /* its first step since the fold (the
                                   SM's steps: one thread at a time) */
                s->dirty[__atomic_fetch_add(&s->ndirty, 1,
                                            __ATOMIC_RELAXED)] = cta->sm;
            }
        } else {
            s->issued++;
        }
        out->insn = insn_of(s, rec->func, rec->pc);
        out->active = rec->active;
        out->exec = rec->exec;
        out->diverged = rec->diverged;
        if (rec->nacc > *capacc) {
            ptxemu_tm_access *p = realloc(*acc, rec->nacc * sizeof(*p));
            if (!p) {
                if (*fault == EMU_OK) {
                    *fault = EMU_ERR_OUT_OF_MEMORY;
                }
                return PTXEMU_TM_FAULT;
            }
            *acc = p;
            *capacc = rec->nacc;
        }
        for (uint32_t k = 0; k < rec->nacc; k++) {
            const EmuAccess *a = &rec->acc[k];
            ptxemu_tm_access *t = &(*acc)[k];
            t->addr = model_addr(s->dev->mem, a->addr, a->size);
            t->size = a->size;
            t->lane = a->lane;
            /* Texel and surface accesses go through the texture path
             * (the ABI's TEX space) at their global addresses. */
            t->space = a->kind == EMU_ACC_TEXEL_READ ||
                               a->kind == EMU_ACC_TEXEL_WRITE
                           ? PTXEMU_TM_SPACE_TEX
                           : tm_space(a->space);
            t->kind = tm_kind[a->kind];
            t->pad = 0;
        }
        out->nacc = rec->nacc;
        out->acc = *acc;
        out->async_token = rec->async_token;
        out->nwait = rec->nwait;
        out->wait_tokens = rec->wait_tokens;
    }
    events(s, tw);
    if (st != EMU_OK) {
        if (!x || *fault == EMU_OK) {
            *fault = st;
        }
        return PTXEMU_TM_FAULT;
    }
    return PTXEMU_TM_OK;
}

static int h_state(ptxemu_tm_host *h, ptxemu_tm_warp *tw)
{
    (void)h;
    switch (tw->w->state) {
    case EMU_WARP_READY: return PTXEMU_TM_WARP_READY;
    case EMU_WARP_AT_BARRIER: return PTXEMU_TM_WARP_BARRIER;
    default: return PTXEMU_TM_WARP_EXITED;
    }
}

static void h_info(ptxemu_tm_host *h, ptxemu_tm_warp *tw,
                   ptxemu_tm_warp_info *out)
{
    (void)h;
    if (!out || out->struct_size < sizeof(*out)) {
        return;
    }
    const EmuCta *cta = tw->tc->cta;
    out->cta = cta->linear;
    out->warp = tw->w->id;
    out->sm = cta->sm;
    out->lanes = tw->w->valid;
    out->slot = tw->slot;
}

/* ----------------------------------------------------------- time */

static void h_set_time(ptxemu_tm_host *h, uint32_t sm, uint64_t cycle)
{
    TmSession *s = h->s;
    if (sm < s->dev->cfg.num_sms) {
        *emu_sm_clock(s->dev->sm_clock, sm) = cycle;
    }
}

/* ------------------------------------------------- parallel stepping */

static void smx_free(TmSession *s)
{
    for (uint32_t i = 0; i < s->nsmx; i++) {
        emu_step_record_fini(&s->smx[i].rec);
        emu_shadow_fini(&s->smx[i].shadow);
        free(s->smx[i].acc);
    }
    free(s->smx);
    free(s->dirty);
    free(s->shadowed);
    s->smx = NULL;
    s->dirty = NULL;
    s->shadowed = NULL;
    s->nsmx = 0;
}

/* Each SM's context: a worker's copy of the running launch. */
static bool smx_make(TmSession *s)
{
    uint32_t n = s->dev->cfg.num_sms;
    if (n > s->nsmx) {
        TmStepCtx *p = aligned_alloc(_Alignof(TmStepCtx), n * sizeof(*p));
        if (!p) {
            return false;
        }
        if (s->nsmx) {
            memcpy(p, s->smx, s->nsmx * sizeof(*p));
        }
        memset(p + s->nsmx, 0, (n - s->nsmx) * sizeof(*p));
        free(s->smx);
        s->smx = p;
        uint32_t *d = realloc(s->dirty, n * sizeof(*d));
        if (!d) {
            return false; /* (smx stays, nsmx does not grow) */
        }
        s->dirty = d;
        bool *b = realloc(s->shadowed, n * sizeof(*b));
        if (!b) {
            return false;
        }
        s->shadowed = b;
        memset(b + s->nsmx, 0, (n - s->nsmx) * sizeof(*b));
        s->nsmx = n;
    }
    s->ndirty = 0;
    for (uint32_t i = 0; i < n; i++) {
        TmStepCtx *x = &s->smx[i];
        x->l = *s->l;
        x->l.worker = true;       /* faults are published by the host */
        x->l.det = NULL;
        x->l.insns = 0;
        x->l.progress = 0;
        x->l.faulted = false;
        x->l.reads_host = false;
        x->l.printf_buf = NULL;
        x->l.printf_len = x->l.printf_cap = 0;
        x->l.printf_dropped = 0;
        memset(&x->l.mhit, 0, sizeof(x->l.mhit));
        /* (a model of ABI 6 gets plain global steps in sections) */
        x->l.shadow = s->model.ops.abi_version >= 6 ? &x->shadow : NULL;
        x->shadow.mark = &s->shadowed[i];
        x->shadow.hit = (EmuMemHit){0};
        x->issued = 0;
        x->fault = EMU_OK;
    }
    return true;
}

static uint32_t h_threads(ptxemu_tm_host *h)
{
    TmSession *s = h->s;
    EmuLaunch *l = s->l;
    uint32_t n = s->dev->cfg.threads;
    if (!l || n <= 1 || s->threads > 1) {
        return s->threads > 1 ? s->threads : 1;
    }
    const char *why = emu_par_timed_reason(l);
    if (!why && !s->smx_on && !smx_make(s)) {
        why = "out of memory";
    }
    if (why) {
        if (s->dev->cfg.par_log) {
            fprintf(s->dev->cfg.par_log, "ptxemu: kernel '%s' runs on one "
                    "host thread of %u (timing model '%s'): %s\n",
                    l->kernel->ir->name, n, tm_session_model(s), why);
        }
        return 1;
    }
    if (s->dev->cfg.par_log) {
        fprintf(s->dev->cfg.par_log, "ptxemu: kernel '%s': timing model "
                "'%s' steps its SMs on %u host threads\n",
                l->kernel->ir->name, tm_session_model(s), n);
    }
    s->threads = n;
    s->smx_on = true;
    return n;
}

/* Fold the SMs' counts into the launch. */
static void smx_fold(TmSession *s)
{
    if (!s->smx_on) {
        return;
    }
    /* (only the SMs that stepped: the others' lines stay where they
     * are, in another core's cache perhaps) */
    for (uint32_t k = 0; k < s->ndirty; k++) {
        TmStepCtx *x = &s->smx[s->dirty[k]];
        s->l->insns += x->l.insns;
        s->l->progress += x->l.progress;
        s->l->reads_host |= x->l.reads_host;
        s->issued += x->issued;
        x->l.insns = x->l.progress = x->issued = 0;
    }
    s->ndirty = 0;
}

static void h_parallel(ptxemu_tm_host *h, int on)
{
    TmSession *s = h->s;
    if (!s->smx_on || (bool)on == s->par) {
        return;
    }
    s->par = on;
    if (!on) { /* the section's buffered stores, in SM order (ABI 6) */
        for (uint32_t i = 0; i < s->nsmx; i++) {
            if (s->shadowed[i]) {
                s->shadowed[i] = false;
                emu_shadow_commit(&s->smx[i].shadow);
            }
        }
    }
}

static uint32_t h_buffered(ptxemu_tm_host *h)
{
    TmSession *s = h->s;
    if (!s->l || s->model.ops.abi_version < 6) {
        return 0;
    }
    if (!s->smx_on) { /* (set only for a launch without a reason) */
        if (emu_par_timed_reason(s->l) || !smx_make(s)) {
            return 0;
        }
        s->smx_on = true;
    }
    return 1;
}

/* Running ahead needs what stepping SMs on threads needs (whatever the
 * thread count: one thread runs ahead as several do, so that every
 * count is the same at any) and the per-SM contexts, where a window's
 * fault waits until the model knows it is the first. */
static uint64_t h_ahead(ptxemu_tm_host *h)
{
    TmSession *s = h->s;
    if (s->iv || !s->l) {
        return 0; /* (statistics intervals read the counters each cycle) */
    }
    if (!s->ahead_ok) {
        s->ahead_ok = !emu_par_timed_reason(s->l) &&
                      (s->smx_on || smx_make(s)) ? 1 : 2;
        s->smx_on = s->smx_on || s->ahead_ok == 1;
    }
    return s->ahead_ok == 1 ? s->round_at : 0;
}

static void h_drop_fault(ptxemu_tm_host *h, uint32_t sm)
{
    TmSession *s = h->s;
    if (s->smx_on && !s->par && sm < s->nsmx) {
        TmStepCtx *x = &s->smx[sm];
        x->fault = EMU_OK;
        x->l.faulted = false;
    }
}

/* The kernel stopped on a fault of a parallel step (none of a serial
 * one): the lowest SM's becomes the launch's, as if stepped alone. */
static void par_fault(TmSession *s)
{
    for (uint32_t i = 0; s->smx_on && i < s->dev->cfg.num_sms; i++) {
        TmStepCtx *x = &s->smx[i];
        if (x->fault == EMU_OK) {
            continue;
        }
        s->fault = x->fault;
        if (x->l.faulted) {
            s->l->fault = x->l.fault;
            s->l->faulted = true;
            memcpy(s->l->fault_text, x->l.fault_text,
                   sizeof(s->l->fault_text));
            s->dev->last_fault = x->l.fault;
            s->dev->has_fault = true;
        }
        return;
    }
}

static uint64_t cycles_to_ns(const TmSession *s, uint64_t c)
{
    return (uint64_t)((double)c * 1000.0 / s->mhz);
}

/* Simulated time is c: %globaltimer (EmuDevice.timer_ns, read by the
 * launch's own steps) and the published now_ns. */
static void set_now(TmSession *s, uint64_t c)
{
    s->now = c;
    uint64_t ns = cycles_to_ns(s, c);
    s->dev->timer_ns = ns;
    __atomic_store_n(&s->now_ns, ns, __ATOMIC_RELAXED);
}

static void h_set_mhz(ptxemu_tm_host *h, double mhz)
{
    if (mhz > 0 && mhz < 1e6) {
        h->s->mhz = mhz;
        __atomic_store_n(&h->s->now_ns, cycles_to_ns(h->s, h->s->now),
                         __ATOMIC_RELAXED);
    }
}

/* -------------------------------------------------------- session */

static void fill_api(TmSession *s)
{
    ptxemu_tm_host_api *a = &s->api;
    a->abi_version = PTXEMU_TM_ABI_VERSION;
    a->struct_size = sizeof(*a);
    a->declare_params = h_declare;
    a->param_int = h_pint;
    a->param_uint = h_puint;
    a->param_double = h_pdouble;
    a->param_bool = h_pbool;
    a->param_string = h_pstring;
    a->stat = h_stat;
    a->num_sms = h_num_sms;
    a->cta_next = h_cta_next;
    a->cta_warps = h_cta_warps;
    a->cta_retire = h_cta_retire;
    a->warp_peek = h_peek;
    a->warp_step = h_step;
    a->warp_state = h_state;
    a->warp_info = h_info;
    a->set_time = h_set_time;
    a->set_clock_mhz = h_set_mhz;
    a->error = h_error;
    a->log = h_log;
    a->threads = h_threads;
    a->parallel = h_parallel;
    a->buffered = h_buffered;
    a->ahead = h_ahead;
    a->drop_fault = h_drop_fault;
}

/* A session around an already loaded model (s->model filled). */
static int session_start(TmSession *s, const char *config,
                         const char *const *sets, size_t nsets, char *err,
                         size_t errlen)
{
    const ptxemu_tm_ops *ops = &s->model.ops;
    char path[4096];
    config = tm_config_resolve(config, path, sizeof path);
    if ((config && tm_params_read_file(s->params, config, err, errlen)) ||
        (ops->nparams && tm_params_declare(s->params, ops->params,
                                           ops->nparams, err, errlen))) {
        return -1;
    }
    for (size_t k = 0; k < nsets; k++) {
        if (tm_params_set(s->params, sets[k], err, errlen) != 0) {
            return -1;
        }
    }
    s->tm = ops->create(&s->api, &s->host);
    if (!s->tm || s->err[0]) {
        snprintf(err, errlen, "%s", s->err[0] ? s->err
                 : "the timing model refused to start");
        return -1;
    }
    return tm_params_check_unused(s->params, err, errlen);
}

static TmSession *session_new(EmuDevice *dev)
{
    TmSession *s = calloc(1, sizeof(*s));
    if (!s) {
        return NULL;
    }
    s->dev = dev;
    s->mhz = 1000.0;
    s->host.s = s;
    pthread_mutex_init(&s->mu, NULL);
    fill_api(s);
    s->params = tm_params_new();
    s->stats = tm_stats_new();
    s->rec = calloc(1, sizeof(*s->rec));
    if (!s->params || !s->stats || !s->rec) {
        tm_session_close(s);
        return NULL;
    }
    return s;
}

int tm_session_open(EmuDevice *dev, const char *spec, const char *config,
                    const char *const *sets, size_t nsets, TmSession **out,
                    char *err, size_t errlen)
{
    *out = NULL;
    TmSession *s = session_new(dev);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (tm_load(spec, &s->model, err, errlen) != 0 ||
        session_start(s, config, sets, nsets, err, errlen) != 0) {
        tm_session_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

int tm_session_open_ops(EmuDevice *dev, const ptxemu_tm_ops *ops,
                        const char *config, const char *const *sets,
                        size_t nsets, TmSession **out, char *err,
                        size_t errlen)
{
    *out = NULL;
    TmSession *s = session_new(dev);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->model.ops = *ops;
    s->model.spec = ops->name;
    if (session_start(s, config, sets, nsets, err, errlen) != 0) {
        s->model.spec = NULL;
        tm_session_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

void tm_session_close(TmSession *s)
{
    if (!s) {
        return;
    }
    if (s->tm && s->model.ops.destroy) {
        s->model.ops.destroy(s->tm);
    }
    tm_unload(&s->model);
    tm_params_free(s->params);
    tm_stats_free(s->stats);
    tm_intervals_close(s->iv);
    while (s->funcs) {
        TmFuncInfo *f = s->funcs;
        s->funcs = f->next;
        free(f->insn);
        free(f->text);
        free(f);
    }
    for (size_t k = 0; k < s->nk; k++) {
        free(s->kstats[k].name);
        free(s->kstats[k].json);
    }
    free(s->kstats);
    free(s->acc);
    smx_free(s);
    pthread_mutex_destroy(&s->mu);
    if (s->rec) {
        emu_step_record_fini(s->rec);
    }
    free(s->rec);
    free(s);
}

void tm_session_attach(TmSession *s, EmuLaunch *l)
{
    l->driver = tm_session_run;
    l->driver_ctx = s;
    l->timed = true;
}

void tm_session_set_intervals(TmSession *s, TmIntervals *iv)
{
    tm_intervals_close(s->iv);
    s->iv = iv;
}

void tm_session_set_progress(TmSession *s, bool on, bool tty)
{
    s->progress = on;
    tm_progress_init(&s->prog, stderr, tty);
}

static void fill_kernel(const TmSession *s, const EmuLaunch *l,
                        ptxemu_tm_kernel *k)
{
    memset(k, 0, sizeof(*k));
    k->struct_size = sizeof(*k);
    k->name = l->kernel->ir->name;
    memcpy(k->grid, l->grid, sizeof(k->grid));
    memcpy(k->block, l->block, sizeof(k->block));
    memcpy(k->cluster, l->cluster, sizeof(k->cluster));
    k->nctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    k->threads_per_cta = l->block[0] * l->block[1] * l->block[2];
    k->warps_per_cta = (k->threads_per_cta + EMU_WARP_SIZE - 1) /
                       EMU_WARP_SIZE;
    k->regs_per_thread = l->kernel->regs;   /* emu/regest.h */
    k->shared_per_cta = (uint32_t)(l->kernel->shared_bytes + l->dyn_shared);
    k->local_per_thread = (uint32_t)l->local_stride;
    k->depth = l->depth;
    k->cooperative = l->cooperative;
    k->start_cycle = s->now;
    k->carveout = l->carveout;
    k->l2_resets = l->dev->l2_resets;
    k->l2_persist_bytes = l->dev->l2_persist_bytes;
    k->apw_base = l->apw.base;
    k->apw_bytes = l->apw.bytes;
    k->apw_hit_ratio = l->apw.hit_ratio;
    k->apw_hit_prop = l->apw.hit_prop;
    k->apw_miss_prop = l->apw.miss_prop;
}

/* Record the kernel's cycles and the model's counters (deltas). */
static void keep_stats(TmSession *s, const EmuLaunch *l, uint64_t begin,
                       uint64_t end)
{
    if (s->nk == s->capk) {
        size_t cap = s->capk ? 2 * s->capk : 8;
        TmKernelStats *p = realloc(s->kstats, cap * sizeof(*p));
        if (!p) {
            return;
        }
        s->kstats = p;
        s->capk = cap;
    }
    TmKernelStats *k = &s->kstats[s->nk];
    memset(k, 0, sizeof(*k));
    k->name = strdup(l->kernel->ir->name);
    k->cycles = end - begin;
    k->warp_insns = l->insns;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        tm_stats_json(s->stats, f);
        fclose(f);
    }
    k->json = buf;
    s->nk++;
}

static uint64_t live_warps(EmuCta *const *res, uint32_t n)
{
    uint64_t live = 0;
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t w = 0; w < res[c]->nwarps; w++) {
            live += res[c]->warps[w].state != EMU_WARP_EXITED;
        }
    }
    return live;
}

EmuStatus tm_session_run(void *ctx, EmuLaunch *l)
{
    TmSession *s = ctx;
    /* keep an enclosing run's state (none today: a child grid of
     * dynamic parallelism runs after its parent's driver call has
     * returned, emu_devrt_finish; free_tc says why its list is safe) */
    EmuLaunch *pl = s->l;
    EmuGrid *pg = s->grid;
    struct ptxemu_tm_cta *plive = s->live;
    EmuStatus pfault = s->fault;
    uint64_t pissued = s->issued;
    uint64_t pdone = s->ctas_done;
    uint32_t pthreads = s->threads;
    bool psmx = s->smx_on;
    uint8_t pahead = s->ahead_ok;
    uint64_t pround = s->round_at;
    EmuStatus st = emu_grid_open(l, &s->grid);
    if (st != EMU_OK) {
        s->grid = pg;
        return st;
    }
    s->l = l;
    s->live = NULL;
    s->fault = EMU_OK;
    s->issued = 0;
    s->ctas_done = 0;
    s->threads = 1;               /* until the model asks (h_threads) */
    s->smx_on = false;
    s->ahead_ok = 0;
    s->runs++;
    s->err[0] = '\0';
    ptxemu_tm_kernel k;
    fill_kernel(s, l, &k);
    uint64_t begin = s->now;
    set_now(s, s->now);
    tm_stats_mark(s->stats);
    /* Observers (intervals.h, progress.h): they read, never change. */
    TmIvRun ivr;
    TmProgRun pr;
    if (s->iv) {
        tm_iv_begin(s->iv, &ivr, s->stats, k.name, begin);
    }
    if (s->progress) {
        tm_progress_begin(&s->prog, &pr, k.name, begin, k.nctas);
    }
    const ptxemu_tm_ops *ops = &s->model.ops;
    s->round_at = (begin / TM_ROUND_CYCLES + 1) * TM_ROUND_CYCLES;
    int r = ops->kernel_begin(s->tm, &k);
    const bool began = r >= 0;
    EmuWatch wd;
    emu_watch_init(&wd, l);
    uint64_t idle = 0, last_issued = 0, round_issued = 0;
    while (r >= 0) {
        uint64_t now = s->now, runs = s->runs;
        r = ops->cycle(s->tm, &now);
        smx_fold(s);
        if (now > s->now) {
            set_now(s, now);
        }
        if (s->iv) {
            if (ops->stats_sync) {
                ops->stats_sync(s->tm);
            }
            if (runs != s->runs) {
                tm_iv_rebase(&ivr, s->stats); /* a child grid's were its */
            } else {
                tm_iv_advance(s->iv, &ivr, s->stats, s->now);
            }
        }
        if (s->progress && tm_progress_due(&pr, s->now, l->insns)) {
            tm_progress_update(&s->prog, &pr, s->now, l->insns,
                               s->ctas_done);
        }
        if (r <= 0 || s->fault != EMU_OK) {
            break;
        }
        EmuCta *const *res;
        uint32_t n = emu_grid_resident(s->grid, &res);
        if (s->now >= s->round_at) {
            /* A watchdog round (TM_ROUND_CYCLES: the mbarrier rule counts
             * failed polls per round); rounds in which nothing issued
             * are none. */
            if (s->issued != round_issued) {
                round_issued = s->issued;
                st = emu_watch_round(&wd, l, res, n, true);
                its_told(s);
            }
            s->round_at = (s->now / TM_ROUND_CYCLES + 1) * TM_ROUND_CYCLES;
        }
        if (st != EMU_OK) {
            break;
        }
        if (s->issued != last_issued) {
            last_issued = s->issued;
            idle = 0;
        } else if (n) {
            /* nothing issued: deadlocked if no resident warp can */
            bool ready = false;
            for (uint32_t c = 0; c < n && !ready; c++) {
                for (uint32_t w = 0; w < res[c]->nwarps; w++) {
                    if (res[c]->warps[w].state == EMU_WARP_READY) {
                        ready = true;
                        break;
                    }
                }
            }
            bool live = ready || live_warps(res, n) != 0;
            if (live && !ready && !emu_grid_left(s->grid)) {
                st = emu_watch_report(l, res, n, false);
            } else if (live && !ready) {
                /* every resident warp waits at a barrier and the model
                 * places no more CTAs until one retires: as a GPU that
                 * holds only these CTAs, a deadlock */
                idle++;
                if (idle > 1000) {
                    st = emu_watch_report(l, res, n, false);
                }
            } else if (++idle > TM_IDLE_LIMIT) {
                set_err(s, "timing model '%s' issued no instruction for "
                        "%llu cycles while warps were ready",
                        ops->name ? ops->name : s->model.spec,
                        (unsigned long long)TM_IDLE_LIMIT);
                r = PTXEMU_TM_ERROR;
            }
        }
        if (st != EMU_OK) {
            break;
        }
    }
    h_parallel(&s->host, 0);      /* (a model that left a section open) */
    smx_fold(s);
    if (s->fault == EMU_OK && (r < 0 || st != EMU_OK)) {
        par_fault(s);
    }
    uint64_t end = s->now;
    if (began) {
        /* Also after a guest fault, a deadlock or a model's error: the
         * model drops what it holds of this kernel now (its CTAs are
         * freed below); the end cycle of a stopped kernel means
         * nothing. */
        bool clean = r >= 0 && st == EMU_OK && s->fault == EMU_OK;
        if (ops->kernel_end(s->tm, &end) < 0 && clean) {
            r = PTXEMU_TM_ERROR;
        }
        if (clean && end > s->now) {
            set_now(s, end);
        }
    }
    if (st == EMU_OK) {
        st = s->fault;
    }
    if (st == EMU_OK && r < 0) {
        st = EMU_ERR_INVALID_VALUE;
        if (!s->err[0]) {
            set_err(s, "timing model '%s' stopped with an error",
                    ops->name ? ops->name : s->model.spec);
        }
    }
    if (st == EMU_OK && emu_grid_left(s->grid)) {
        st = EMU_ERR_INVALID_VALUE;
        set_err(s, "timing model '%s' ended the kernel with %llu CTAs "
                "never placed", ops->name ? ops->name : s->model.spec,
                (unsigned long long)emu_grid_left(s->grid));
    }
    if (st == EMU_OK) {
        keep_stats(s, l, begin, s->now);
    }
    if (s->iv) {
        tm_iv_end(s->iv, &ivr, s->stats, s->now);
    }
    if (s->progress) {
        tm_progress_end(&s->prog, &pr, s->now, l->insns, s->ctas_done,
                        st == EMU_OK);
    }
    while (s->live) {
        free_tc(s, s->live);
    }
    emu_grid_close(s->grid);
    s->grid = pg;
    s->l = pl;
    s->live = plive;
    s->fault = pfault;
    s->issued = pissued;
    s->ctas_done = pdone;
    s->threads = pthreads;
    s->smx_on = psmx;
    s->ahead_ok = pahead;
    s->round_at = pround;
    return st;
}

size_t tm_session_kernels(const TmSession *s, const TmKernelStats **out)
{
    *out = s->kstats;
    return s->nk;
}

const char *tm_session_error(const TmSession *s)
{
    return s->err[0] ? s->err : NULL;
}

const TmParams *tm_session_params(const TmSession *s)
{
    return s->params;
}

const char *tm_session_model(const TmSession *s)
{
    return s->model.ops.name ? s->model.ops.name : s->model.spec;
}

uint64_t tm_session_now(const TmSession *s)
{
    return s->now;
}

uint64_t tm_session_time_ns(const TmSession *s)
{
    return __atomic_load_n(&s->now_ns, __ATOMIC_RELAXED);
}

double tm_session_mhz(const TmSession *s)
{
    return s->mhz;
}

void tm_session_json(const TmSession *s, FILE *o)
{
    uint64_t cycles = 0, insns = 0;
    for (size_t k = 0; k < s->nk; k++) {
        cycles += s->kstats[k].cycles;
        insns += s->kstats[k].warp_insns;
    }
    fprintf(o, "{\n    \"model\": ");
    tm_json_string(o, tm_session_model(s));
    fprintf(o, ",\n    \"clock_mhz\": %g,\n    \"cycles\": %" PRIu64
            ",\n    \"warp_instructions\": %" PRIu64
            ",\n    \"ipc\": %.4f,\n    \"kernels\": [", s->mhz, cycles,
            insns, cycles ? (double)insns / (double)cycles : 0.0);
    for (size_t k = 0; k < s->nk; k++) {
        const TmKernelStats *ks = &s->kstats[k];
        fprintf(o, "%s\n      {\"kernel\": ", k ? "," : "");
        tm_json_string(o, ks->name);
        fprintf(o, ", \"cycles\": %" PRIu64 ", \"warp_instructions\": %"
                PRIu64 ", \"ipc\": %.4f,\n       \"model\": %s}",
                ks->cycles, ks->warp_insns,
                ks->cycles ? (double)ks->warp_insns / (double)ks->cycles
                           : 0.0, ks->json ? ks->json : "{}");
    }
    fprintf(o, "%s]\n  }", s->nk ? "\n    " : "");
}
