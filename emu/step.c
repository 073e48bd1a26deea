/*
 * emu/step.c: executing a warp's next instruction (emu_warp_step, with a
 * step record) and the functional scheduler's fast loop (emu_warp_run,
 * without one).  Both have the same effects step for step: the guard
 * mask, the handler, the counters (%clock, the launch's instructions),
 * the SIMT settle and the instruction limit.
 */
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "emu/access.h"
#include "emu/client.h"
#include "emu/exec.h"
#include "emu/insninfo.h"
#include "emu/rtrace.h"
#include "emu/simt.h"
#include "ptx/opcode.h"

#define LIKELY(c) __builtin_expect(!!(c), 1)
#define UNLIKELY(c) __builtin_expect(!!(c), 0)

/* -------------------------------------------------------------- step */

static EmuStepKind step_kind(uint16_t op)
{
    uint32_t fl = ptx_opinfo((PtxOpcode)op)->flags;
    if (fl & (OPF_BRANCH | OPF_BRX)) {
        return EMU_STEP_BRANCH;
    }
    if (fl & OPF_ATOMIC) {
        return EMU_STEP_ATOMIC;
    }
    if (fl & (OPF_LOAD | OPF_STORE)) {
        return EMU_STEP_MEM;
    }
    if (fl & OPF_BARRIER) {
        return EMU_STEP_BARRIER;
    }
    if (fl & OPF_CALL) {
        return EMU_STEP_CALL;
    }
    if (fl & OPF_RET) {
        return EMU_STEP_RET;
    }
    if (fl & OPF_EXIT) {
        return EMU_STEP_EXIT;
    }
    return EMU_STEP_ALU;
}

/* The lanes whose predicate slot is true (non-zero: the test does not
 * rely on predicates being kept 0/1). */
#ifdef __SSE2__
/* Per 4 lanes: gather the low and the high 32-bit halves of the 64-bit
 * slots (shufps moves bits, it does no float arithmetic), OR them and
 * compare with zero; the 32 results are packed to bytes with signed
 * saturation (0 and -1 stay 0 and -1) and movemask takes one bit per
 * lane: about 70 instructions instead of about 160 for the scalar loop,
 * which runs for every guarded instruction. */
static inline uint32_t pred_mask(const uint64_t *g)
{
    const __m128i zero = _mm_setzero_si128();
    uint32_t zmask = 0;
#pragma GCC unroll 2
    for (unsigned h = 0; h < 2; h++) {
        __m128i c[4];
#pragma GCC unroll 4
        for (unsigned q = 0; q < 4; q++) {
            const __m128i *p = (const __m128i *)(g + 16 * h + 4 * q);
            __m128 a = _mm_castsi128_ps(_mm_loadu_si128(p));
            __m128 b = _mm_castsi128_ps(_mm_loadu_si128(p + 1));
            __m128i lo = _mm_castps_si128(
                _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
            __m128i hi = _mm_castps_si128(
                _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
            c[q] = _mm_cmpeq_epi32(_mm_or_si128(lo, hi), zero);
        }
        __m128i bytes = _mm_packs_epi16(_mm_packs_epi32(c[0], c[1]),
                                        _mm_packs_epi32(c[2], c[3]));
        zmask |= (uint32_t)_mm_movemask_epi8(bytes) << (16 * h);
    }
    return ~zmask;
}
#else
static inline uint32_t pred_mask(const uint64_t *g)
{
    uint32_t m = 0;
#pragma GCC unroll 32
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        m |= (uint32_t)(g[lane] != 0) << lane;
    }
    return m;
}
#endif

/* Nothing to pop: the common case after an ordinary instruction. */
static inline bool settled(const EmuWarp *w)
{
    if (w->depth == 0) {
        return false;
    }
    const EmuSimtEntry *e = &w->stack[w->depth - 1];
    const EmuFrame *fr = &w->frames[w->nframes - 1];
    return e->mask != 0 && e->npc != e->rpc && e->npc < fr->func->ncode &&
           (w->nframes == 1 || w->depth != fr->stack_base);
}

/* The launch reached EmuConfig.insn_limit after the instruction at pc
 * (x: that step's context). */
static __attribute__((noinline, cold)) EmuStatus
limit_fault(EmuWarp *w, const EmuCtx *x, uint32_t pc)
{
    EmuCtx y = *x;
    y.frame = &w->frames[w->nframes - 1];
    y.pc = w->depth ? w->stack[w->depth - 1].npc : pc;
    if (y.pc >= y.frame->func->ncode) {
        y.pc = pc;
    }
    emu_fault(&y, EMU_ERR_TIMEOUT, w->depth
              ? (unsigned)__builtin_ctz(w->stack[w->depth - 1].mask |
                                        1u << 31) : 0,
              0, 0, PTX_SPACE_NONE,
              "instruction limit of %llu warp instructions reached",
              (unsigned long long)x->dev->cfg.insn_limit);
    return EMU_ERR_TIMEOUT;
}

/* A step that ran no instruction. */
static void record_none(EmuStepRecord *rec)
{
    rec->kind = EMU_STEP_OTHER;
    rec->nacc = rec->nwait = 0;
    rec->active = rec->exec = 0;
    rec->async_token = 0;
    rec->wait = EMU_WAIT_NONE;
    rec->info = NULL;
}

static inline __attribute__((always_inline)) EmuStatus
step_impl(EmuCta *cta, EmuWarp *w, EmuStepRecord *rec)
{
    EmuLaunch *l = cta->launch;
    if (w->state != EMU_WARP_READY || w->depth == 0) {
        if (rec) {
            record_none(rec);
        }
        return EMU_OK;
    }
    EmuFrame *fr = &w->frames[w->nframes - 1];
    EmuSimtEntry *e = &w->stack[w->depth - 1];
    if (e->npc >= fr->func->ncode) {
        /* released from a barrier at the end of the function */
        emu_simt_settle(cta, w);
        if (rec) {
            record_none(rec);
        }
        return EMU_OK;
    }
    const EmuFunc *fn = fr->func;
    uint32_t pc = e->npc;
    const EmuInsn *i = &fn->code[pc];
    uint32_t active = e->mask, exec = active;
    if (i->guard != EMU_NOREG) {
        const uint64_t *g = &fr->regs[(size_t)i->guard * EMU_WARP_SIZE];
        uint32_t gm = pred_mask(g);
        exec = active & (i->guard_neg ? ~gm : gm);
    }
    uint32_t depth0 = w->depth;
    EmuCtx x;
    x.dev = l->dev;
    x.launch = l;
    x.cta = cta;
    x.warp = w;
    x.regs = fr->regs;
    x.fault = NULL;
    /* the record's access list, reused from step to step */
    EmuAccList acc = { NULL, 0, 0, EMU_ACC_ALL_SPACES };
    x.acc = NULL;
    x.rec = rec;
    if (rec) {
        acc.v = rec->acc;
        acc.cap = rec->acc_cap;
        x.acc = &acc;
        rec->async_token = 0;
        rec->nwait = 0;
        rec->wait = EMU_WAIT_NONE;
    } else if (UNLIKELY(l->dev->clients != NULL)) {
        x.acc = emu_client_acclist(l);
    }
    x.next_pc = pc + 1;
    x.branched = false;
    x.pc = pc;
    x.active = active;
    x.frame = fr;
    x.func = fn;
    i->fn(&x, i, exec);
    if (UNLIKELY(l->dev->clients != NULL) && x.acc && x.acc->n &&
        l->dev->clients->spaces) {
        emu_client_access(&x, x.acc->v, x.acc->n);
        if (!rec) {
            x.acc->n = 0;
        }
    }
    w->ninsns++;
    l->insns++;
    (*cta->clock)++;
    if (!x.branched) {
        w->stack[w->depth - 1].npc = x.next_pc;
    }
    if (!settled(w)) {
        emu_simt_settle(cta, w);
    }
    if (rec) {
        rec->kind = x.fault ? EMU_STEP_FAULT : step_kind(i->op);
        rec->op = i->op;
        rec->pc = pc;
        rec->func = fn;
        rec->active = active;
        rec->exec = exec;
        rec->diverged = w->depth > depth0;
        rec->info = emu_insn_info(fn, pc);
        rec->acc = acc.v;
        rec->acc_cap = acc.cap;
        rec->nacc = acc.n;
    }
    if (x.fault) {
        return x.fault->status;
    }
    if (l->dev->cfg.insn_limit && l->insns >= l->dev->cfg.insn_limit &&
        w->state != EMU_WARP_EXITED) {
        return limit_fault(w, &x, pc);
    }
    return EMU_OK;
}

const EmuInsn *emu_warp_peek(EmuCta *cta, EmuWarp *w, const EmuFunc **fn,
                             uint32_t *pc, uint32_t *active, uint32_t *exec)
{
    for (unsigned tries = 0; tries < 2; tries++) {
        if (w->state != EMU_WARP_READY || w->depth == 0) {
            return NULL;
        }
        const EmuFrame *fr = &w->frames[w->nframes - 1];
        const EmuSimtEntry *e = &w->stack[w->depth - 1];
        if (e->npc >= fr->func->ncode) {
            /* released from a barrier at the end of the function: what
             * the next step would do before any instruction */
            emu_simt_settle(cta, w);
            continue;
        }
        const EmuInsn *i = &fr->func->code[e->npc];
        uint32_t x = e->mask;
        if (i->guard != EMU_NOREG) {
            uint32_t gm = pred_mask(&fr->regs[(size_t)i->guard *
                                              EMU_WARP_SIZE]);
            x &= i->guard_neg ? ~gm : gm;
        }
        *fn = fr->func;
        *pc = e->npc;
        *active = e->mask;
        *exec = x;
        return i;
    }
    return NULL;
}

EmuStatus emu_warp_step(EmuCta *cta, EmuWarp *w, EmuStepRecord *rec)
{
    return step_impl(cta, w, rec);
}


/*
 * The fast loop: step_impl(cta, w, NULL) repeated, with the same effects
 * step for step.  A run of steps with one TOS entry and one frame (a
 * segment) keeps the entry, frame, code, context and masks in locals:
 * only control-flow handlers (which set x.branched: split, call, ret,
 * exit) push or pop entries, add frames or change entry masks, so while
 * x.branched stays false the TOS entry, its mask and the frame cannot
 * change and settled(w) reduces to "the next pc is neither the entry's
 * rpc nor past the code".  Anything else (a branch that diverged, a
 * fault, a barrier, a settle) ends the segment; unusual entry states
 * take step_impl itself.  Only steps change EmuLaunch.insns, one each, so
 * the quantum and the instruction limit are one countdown.
 */
static inline __attribute__((always_inline)) EmuStatus
run_impl(EmuCta *cta, EmuWarp *w, uint32_t max, EmuAccList *cl)
{
    EmuLaunch *l = cta->launch;
    uint64_t *clock = cta->clock;
    const uint64_t limit = l->dev->cfg.insn_limit;
    uint32_t n = 0;
    /* the fields no handler changes; a fault returns at once */
    EmuCtx x;
    x.dev = l->dev;
    x.launch = l;
    x.cta = cta;
    x.warp = w;
    x.fault = NULL;
    x.acc = cl;
    x.rec = NULL;
    while (n < max && w->state == EMU_WARP_READY) {
        EmuFrame *fr = w->depth ? &w->frames[w->nframes - 1] : NULL;
        EmuSimtEntry *e = w->depth ? &w->stack[w->depth - 1] : NULL;
        if (UNLIKELY(!e || e->npc >= fr->func->ncode || e->mask == 0 ||
                     (w->nframes > 1 && w->depth == fr->stack_base) ||
                     (limit && l->insns >= limit))) {
            EmuStatus st = step_impl(cta, w, NULL);
            n++;
            if (st != EMU_OK) {
                return st;
            }
            continue;
        }
        /* steps this segment may take before the quantum ends or the
         * limit needs its check */
        uint32_t left = max - n;
        if (limit && limit - l->insns < left) {
            left = (uint32_t)(limit - l->insns);
        }
        const EmuFunc *fn = fr->func;
        const EmuInsn *code = fn->code;
        const uint32_t ncode = fn->ncode, rpc = e->rpc, active = e->mask;
        /* below lim no pc can be the rpc or past the code: one compare
         * per step */
        const uint32_t lim = rpc < ncode ? rpc : ncode;
        uint64_t *regs = fr->regs;
        uint32_t pc = e->npc, done = 0;
        x.regs = regs;
        x.branched = false;
        x.active = active;
        x.frame = fr;
        x.func = fn;
        for (;;) {
            const EmuInsn *i = &code[pc];
            uint32_t exec = active;
            if (i->guard != EMU_NOREG) {
                uint32_t gm = pred_mask(&regs[(size_t)i->guard *
                                              EMU_WARP_SIZE]);
                exec = active & (i->guard_neg ? ~gm : gm);
            }
            x.pc = pc;
            x.next_pc = pc + 1;
            i->fn(&x, i, exec);
            if (cl && UNLIKELY(cl->n)) {
                emu_client_access(&x, cl->v, cl->n);
                cl->n = 0;
            }
            done++;
            l->insns++;
            (*clock)++;
            if (UNLIKELY(x.branched)) {
                if (!settled(w)) {
                    emu_simt_settle(cta, w);
                }
                break;
            }
            pc = x.next_pc;
            e->npc = pc;
            if (UNLIKELY(pc >= lim) && (pc == rpc || pc >= ncode)) {
                /* emu_simt_settle()'s first round, inline for the
                 * common case: a path reached its reconvergence point */
                if (pc == rpc) {
                    if (UNLIKELY(l->dev->cfg.trace_reconv != NULL)) {
                        emu_rtrace_arrive(w);
                    }
                    w->depth--;
                }
                if (!settled(w)) {
                    emu_simt_settle(cta, w);
                }
                break;
            }
            if (UNLIKELY(x.fault) || done == left ||
                w->state != EMU_WARP_READY) {
                break;
            }
        }
        n += done;
        w->ninsns += done;            /* read by no handler */
        if (UNLIKELY(x.fault)) {
            return x.fault->status;
        }
        if (UNLIKELY(limit) && l->insns >= limit &&
            w->state != EMU_WARP_EXITED) {
            return limit_fault(w, &x, x.pc);
        }
    }
    return EMU_OK;
}

/* The fast loop while clients are attached: accesses are noted for
 * those that watch a space and given to them after each instruction
 * (emu/client.h); out of line, so that emu_warp_run's loop without
 * clients stays as it was. */
static __attribute__((noinline)) EmuStatus
run_watched(EmuCta *cta, EmuWarp *w, uint32_t max)
{
    return run_impl(cta, w, max, emu_client_acclist(cta->launch));
}

EmuStatus emu_warp_run(EmuCta *cta, EmuWarp *w, uint32_t max)
{
    if (UNLIKELY(cta->launch->dev->clients != NULL)) {
        return run_watched(cta, w, max);
    }
    return run_impl(cta, w, max, NULL);
}
