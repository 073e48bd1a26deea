/*
 * emu/regest.c: the register estimate of emu/regest.h: backward liveness
 * over the control-flow graph (the textbook data-flow equations: Aho,
 * Lam, Sethi, Ullman, "Compilers", 2nd ed., 9.2.5), then the largest
 * live set, weighted by register width, at any instruction.
 */
#include "emu/regest.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emu/decode.h"
#include "emu/exec.h"
#include "emu/insninfo.h"

/* Bound on the bitsets (4 per block): past it the estimate gives up. */
#define REGEST_MAX_WORDS (8u << 20)

typedef struct Live {
    const EmuFunc *f;
    const uint8_t *slotw;
    uint32_t *across;            /* per pc, at calls (or NULL) */
    uint32_t words;              /* 64-bit words per set */
    uint64_t *use, *def, *in, *out;  /* nblocks sets each */
} Live;

static bool reg_slot(const Live *L, uint32_t s)
{
    return s < L->f->nregslots;
}

static bool guarded(const EmuFunc *f, uint32_t pc)
{
    return f->ir->insns[pc].guard >= 0;
}

/* use and def of each block: a slot read before it is written in the
 * block is used; an unguarded write defines it. */
static void local_sets(Live *L, uint32_t b)
{
    const IrBlock *bl = &L->f->ir->blocks[b];
    uint64_t *use = L->use + (size_t)b * L->words;
    uint64_t *def = L->def + (size_t)b * L->words;
    for (uint32_t pc = bl->first; pc < bl->end && pc < L->f->ncode; pc++) {
        const EmuInsnInfo *in = emu_insn_info(L->f, pc);
        for (uint32_t k = 0; k < in->nsrc; k++) {
            uint32_t s = in->src[k];
            if (reg_slot(L, s) && !(def[s / 64] >> (s % 64) & 1)) {
                use[s / 64] |= 1ull << (s % 64);
            }
        }
        if (!guarded(L->f, pc)) {
            for (uint32_t k = 0; k < in->ndst; k++) {
                uint32_t s = in->dst[k];
                if (reg_slot(L, s)) {
                    def[s / 64] |= 1ull << (s % 64);
                }
            }
        }
    }
}

/* Iterate out(B) = U in(S), in(B) = use(B) | (out(B) & ~def(B)) to the
 * fixed point, blocks in reverse layout order (fast for reducible
 * graphs; the sets only grow, so it terminates). */
static void solve(Live *L)
{
    const IrFunc *ir = L->f->ir;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = ir->nblocks; b-- > 0;) {
            uint64_t *out = L->out + (size_t)b * L->words;
            const IrBlock *bl = &ir->blocks[b];
            for (uint32_t k = 0; k < bl->nsucc; k++) {
                uint32_t s = bl->succ[k];
                if (s == IR_EXIT_BLOCK || s >= ir->nblocks) {
                    continue;
                }
                const uint64_t *sin = L->in + (size_t)s * L->words;
                for (uint32_t w = 0; w < L->words; w++) {
                    out[w] |= sin[w];
                }
            }
            uint64_t *in = L->in + (size_t)b * L->words;
            const uint64_t *use = L->use + (size_t)b * L->words;
            const uint64_t *def = L->def + (size_t)b * L->words;
            for (uint32_t w = 0; w < L->words; w++) {
                uint64_t v = use[w] | (out[w] & ~def[w]);
                if (v != in[w]) {
                    in[w] = v;
                    changed = true;
                }
            }
        }
    }
}

/* Walk block b backwards from out(b), keeping the live set's weight:
 * the pressure at an instruction is the larger of what is live after it
 * together with what it writes, and what is live before it. */
static uint32_t block_peak(const Live *L, uint32_t b, uint64_t *live)
{
    const IrBlock *bl = &L->f->ir->blocks[b];
    memcpy(live, L->out + (size_t)b * L->words, L->words * sizeof(*live));
    uint64_t cur = 0;
    for (uint32_t s = 0; s < L->f->nregslots; s++) {
        if (live[s / 64] >> (s % 64) & 1) {
            cur += L->slotw[s];
        }
    }
    uint64_t peak = cur;
    uint32_t end = bl->end < L->f->ncode ? bl->end : L->f->ncode;
    for (uint32_t pc = end; pc-- > bl->first;) {
        const EmuInsnInfo *in = emu_insn_info(L->f, pc);
        if (L->across && L->f->ir->insns[pc].op == PTX_OP_CALL) {
            /* live after the call but for what it returns */
            uint64_t a = cur;
            for (uint32_t k = 0; k < in->ndst; k++) {
                uint32_t s = in->dst[k];
                if (reg_slot(L, s) && (live[s / 64] >> (s % 64) & 1)) {
                    a -= L->slotw[s];
                }
            }
            L->across[pc] = a > UINT32_MAX - 1 ? UINT32_MAX - 1
                                               : (uint32_t)a;
        }
        uint64_t at = cur;
        for (uint32_t k = 0; k < in->ndst; k++) {
            uint32_t s = in->dst[k];
            if (reg_slot(L, s) && !(live[s / 64] >> (s % 64) & 1)) {
                at += L->slotw[s];
                live[s / 64] |= 1ull << (s % 64);   /* counted once */
                cur += L->slotw[s];
            }
        }
        if (at > peak) {
            peak = at;
        }
        if (!guarded(L->f, pc)) {
            for (uint32_t k = 0; k < in->ndst; k++) {
                uint32_t s = in->dst[k];
                if (reg_slot(L, s) && (live[s / 64] >> (s % 64) & 1)) {
                    live[s / 64] &= ~(1ull << (s % 64));
                    cur -= L->slotw[s];
                }
            }
        }
        for (uint32_t k = 0; k < in->nsrc; k++) {
            uint32_t s = in->src[k];
            if (reg_slot(L, s) && !(live[s / 64] >> (s % 64) & 1)) {
                live[s / 64] |= 1ull << (s % 64);
                cur += L->slotw[s];
            }
        }
        if (cur > peak) {
            peak = cur;
        }
    }
    return peak > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)peak;
}

uint32_t emu_regest_pressure(const EmuFunc *f, const uint8_t *slotw,
                             uint32_t *across)
{
    const IrFunc *ir = f->ir;
    if (!ir || ir->nblocks == 0 || !f->info || f->nregslots == 0) {
        return 0;
    }
    Live L = {.f = f, .slotw = slotw, .across = across};
    L.words = (f->nregslots + 63) / 64;
    if ((uint64_t)L.words * (ir->nblocks + 1) > REGEST_MAX_WORDS / 4) {
        return UINT32_MAX;
    }
    size_t n = (size_t)L.words * ir->nblocks;
    uint64_t *mem = calloc(4 * n + L.words, sizeof(uint64_t));
    if (!mem) {
        return UINT32_MAX;
    }
    L.use = mem;
    L.def = mem + n;
    L.in = mem + 2 * n;
    L.out = mem + 3 * n;
    uint64_t *live = mem + 4 * n;
    for (uint32_t b = 0; b < ir->nblocks; b++) {
        local_sets(&L, b);
    }
    solve(&L);
    uint32_t peak = 0;
    for (uint32_t b = 0; b < ir->nblocks; b++) {
        uint32_t p = block_peak(&L, b, live);
        if (p > peak) {
            peak = p;
        }
    }
    free(mem);
    return peak;
}

uint32_t emu_regest_regs(uint32_t pressure, const IrFunc *ir)
{
    uint64_t r = pressure == UINT32_MAX ? EMU_REGEST_MAX
                                        : (uint64_t)pressure +
                                              EMU_REGEST_RESERVED;
    if (r < EMU_REGEST_MIN) {
        r = EMU_REGEST_MIN;
    }
    uint64_t cap = EMU_REGEST_MAX;
    if (ir && ir->maxnreg && ir->maxnreg < cap) {
        cap = ir->maxnreg;
    }
    /* __launch_bounds__(maxThreads, minBlocks) becomes .maxntid and
     * .minnctapersm: ptxas keeps minBlocks CTAs of maxThreads resident
     * within 64K registers (CUDA C++ Programming Guide, "Launch
     * Bounds"), allocating 8 registers per thread at a time (256 per
     * warp, the occupancy calculator's unit). */
    if (ir && ir->minnctapersm && ir->maxntid[0]) {
        uint64_t t = (uint64_t)ir->maxntid[0] *
                     (ir->maxntid[1] ? ir->maxntid[1] : 1) *
                     (ir->maxntid[2] ? ir->maxntid[2] : 1);
        t = (t + 31) / 32 * 32 * ir->minnctapersm;
        uint64_t lim = t ? 65536 / t / 8 * 8 : cap;
        if (lim < 16) {
            lim = 16;   /* ptxas spills rather than go below this */
        }
        if (lim < cap) {
            cap = lim;
        }
    }
    return (uint32_t)(r < cap ? r : cap);
}

/* ---------------------------------------------------- over the calls */

/* The index in m of the function a call instruction names (aliases
 * resolved, emu_func_index), or -1: an indirect call, or one to a
 * function without a body. */
static long callee_of(const EmuModule *m, const IrInsn *in)
{
    for (uint32_t k = 0; k < in->nopnds; k++) {
        if (in->opnds[k].kind == IR_O_FUNC) {
            uint32_t i = emu_func_index(m, in->opnds[k].u.func);
            return i < m->nfuncs && m->funcs[i] &&
                   m->ir->funcs[i]->ninsns ? (long)i : -1;
        }
    }
    return -1;
}

static bool indirect(const IrInsn *in)
{
    for (uint32_t k = 0; k < in->nopnds; k++) {
        if (in->opnds[k].kind == IR_O_FUNC) {
            return false;
        }
    }
    return true;
}

static uint32_t add_sat(uint32_t a, uint32_t b)
{
    return a > UINT32_MAX - 1 - b ? UINT32_MAX : a + b;
}

/* need[i]: the units function i needs with its calls (memoised; state
 * 0 new, 1 in progress, 2 done).  A call back into a function in
 * progress (recursion) adds nothing: ptxas keeps such a cycle in one
 * allocation and spills to the stack.  An indirect call may reach any
 * function with a body but a kernel: their largest own need. */
static uint32_t need_of(const EmuModule *m, uint32_t i, uint32_t *need,
                        uint8_t *state, uint32_t any)
{
    if (state[i] == 2) {
        return need[i];
    }
    const EmuFunc *f = m->funcs[i];
    if (state[i] == 1) {
        return f->reg_pressure;
    }
    state[i] = 1;
    uint32_t n = f->reg_pressure;
    for (uint32_t pc = 0; f->call_across && n != UINT32_MAX &&
                          pc < f->ncode; pc++) {
        const IrInsn *in = &f->ir->insns[pc];
        if (in->op != PTX_OP_CALL) {
            continue;
        }
        long c = callee_of(m, in);
        uint32_t callee = c >= 0 ? need_of(m, (uint32_t)c, need, state, any)
                          : indirect(in) ? any : 0;
        uint32_t at = add_sat(f->call_across[pc], callee);
        if (at > n) {
            n = at;
        }
    }
    need[i] = n;
    state[i] = 2;
    return n;
}

bool emu_regest_module(EmuModule *m)
{
    uint32_t nf = m->nfuncs;
    uint32_t *need = calloc(nf ? nf : 1, sizeof(*need));
    uint8_t *state = calloc(nf ? nf : 1, 1);
    bool ok = need && state;
    uint32_t any = 0;
    for (uint32_t i = 0; ok && i < nf; i++) {
        const EmuFunc *f = m->funcs[i];
        if (f && !m->ir->funcs[i]->is_entry && f->reg_pressure > any) {
            any = f->reg_pressure;
        }
    }
    for (uint32_t i = 0; ok && i < nf; i++) {
        EmuFunc *f = m->funcs[i];
        if (f && m->ir->funcs[i]->is_entry && f->call_across) {
            f->regs = emu_regest_regs(need_of(m, i, need, state, any),
                                      f->ir);
        }
    }
    for (uint32_t i = 0; i < nf; i++) {
        if (m->funcs[i]) {
            free(m->funcs[i]->call_across);
            m->funcs[i]->call_across = NULL;
        }
    }
    free(need);
    free(state);
    return ok;
}
