/*
 * emu/its.c: independent thread scheduling (EmuConfig.reconvergence ==
 * EMU_RECONV_ITS), on top of the SIMT stack of simt.c.
 *
 * The model is Hanoi's definition of Turing control flow (seed digest 1.6) as
 * if ptxas had put a BSSY before every potentially divergent branch, its
 * BSYNC at the branch's immediate post-dominator, and a YIELD on every
 * loop back edge.  Divergent paths therefore still run one after the
 * other and reconverge at the post-dominator exactly as under IPDOM: the
 * stack entries are the warp splits, an entry's rpc is the BSYNC its
 * lanes wait at.  What differs is YIELD, here emu_simt_backedge():
 *
 *  - It acts only when the path has made no progress since it last took
 *    this back edge: its CTA's progress counter (memory writes that
 *    changed a value, exits, barrier releases), the path's lanes and pc
 *    and its lanes' registers all unchanged, i.e. it spins.  Loops that
 *    compute keep running, so well-structured code runs exactly as under
 *    IPDOM (same order, results and instruction counts).
 *  - A spinning path with a sibling path not yet at their common
 *    reconvergence point switches to it (Hanoi's YIELD swaps WS[0] and
 *    WS[1]).
 *  - When the resident grid has made no progress for EMU_ITS_QUIET
 *    scheduler rounds (grid.h's watchdog calls emu_its_release), a warp
 *    whose running path has no sibling left but lanes waiting for it at
 *    the reconvergence point lets them go on without it (the
 *    convergence-barrier release rule of AFR 3.1.2: yielded threads do
 *    not hold a barrier back): the waiting lanes and the spinning ones
 *    become two paths that reconverge where the enclosing entry would,
 *    the waiting ones first.  This lets the winner of an intra-warp spin
 *    lock run its critical section and release the lock (seed digest
 *    1.4); compiled code gets the same effect on Volta+ because ptxas
 *    places that BSYNC after the release.  It waits for a quiet grid
 *    because a path may as well spin on another warp (a grid or tile
 *    sync), and barriers here count warps (Wong et al.), so lanes let go
 *    early would arrive at a bar.sync without the spinning lane.
 *
 * A spin that changes registers on every iteration (a retry counter, a
 * count-down) is seen as spinning too when, with no progress, the
 * registers change by the same steps on three round trips in a row in a
 * loop that polls memory (steady_steps): a linear hash of the registers
 * then changes by a constant.  A loop that computes changes them by
 * varying amounts, writes memory, or polls nothing (a counting loop
 * without loads reconverges as under IPDOM).  Under IPDOM the back edge
 * only records what it saw, so that the watchdog (grid.c) reports warps
 * that all spin that way, which no state hash sees repeat, as SIMT
 * deadlock in bounded time instead of running to the time limit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/exec.h"
#include "emu/insninfo.h"
#include "emu/client.h"
#include "emu/its.h"
#include "emu/ops.h"
#include "emu/rtrace.h"
#include "ptx/opcode.h"

EmuReconvergence emu_its_module_mode(const EmuDevice *d,
                                     const IrModule *ir)
{
    if (d->reconv_forced || d->cfg.reconvergence != EMU_RECONV_ITS) {
        return d->cfg.reconvergence;
    }
    for (uint32_t k = 0; k < ir->ntargets; k++) {
        const char *t = ir->targets[k];
        if (t && !strncmp(t, "sm_", 3) && t[3] >= '0' && t[3] <= '9') {
            unsigned long sm = strtoul(t + 3, NULL, 10);
            return sm >= EMU_ITS_MIN_ARCH ? EMU_RECONV_ITS
                                          : EMU_RECONV_IPDOM;
        }
    }
    return EMU_RECONV_ITS;
}

/* FNV-1a over 64-bit words. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    for (unsigned k = 0; k < 8; k++) {
        h ^= (v >> (8 * k)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Where the path takes its back edge: its CTA's progress counter
 * (EmuCta.progress), the path's pc and mask, its SIMT depth and frames.
 * Only whether this hash equals the one of the warp's previous back edge
 * matters, and the CTA's counter moves only by the CTA's own steps: so
 * the decision is the same whichever CTAs run beside it, on any number
 * of host threads (the functional pool's workers, emu/pool.h, and the
 * timed SMs stepping in parallel, timing/host.c; tests/par.test,
 * "chain"), and a timing model may step a back edge of one SM beside
 * other SMs' steps. */
static uint64_t place_state(const EmuCtx *x, const EmuSimtEntry *t)
{
    const EmuWarp *w = x->warp;
    uint64_t h = 0xcbf29ce484222325ull;
    h = mix(h, x->cta->progress);
    h = mix(h, ((uint64_t)t->npc << 32) | t->mask);
    return mix(h, ((uint64_t)w->depth << 32) | w->nframes);
}

/* What the spinning path's next iteration depends on: its place and its
 * lanes' registers (*lin: a linear hash of the registers, sum of
 * value * an odd weight per register and lane mod 2^64, so that
 * registers that all change by constant steps from one round trip to
 * the next change it by a constant step too). */
static uint64_t path_state(const EmuCtx *x, const EmuSimtEntry *t,
                           uint64_t place, uint64_t *lin)
{
    uint64_t h = place, l = 0;
    const uint32_t nreg = x->func->nregslots;
    for (uint32_t s = 0; s < nreg; s++) {
        const uint64_t *r = &x->regs[(size_t)s * EMU_WARP_SIZE];
        EMU_FOR_LANES(t->mask, lane) {
            h = mix(h, r[lane]);
            l += r[lane] * ((((uint64_t)s * EMU_WARP_SIZE + lane) * 2 + 1) *
                            0x9e3779b97f4a7c15ull);
        }
    }
    *lin = l;
    return h;
}

/* Whether the loop from `top` to the back edge at `pc` reads memory
 * that another thread can write (a load or atomic of the global, shared
 * or generic space, an mbarrier wait): what a spin waits on. */
static bool loop_polls(const EmuFunc *f, uint32_t top, uint32_t pc)
{
    for (uint32_t k = top; k <= pc && k < f->ncode; k++) {
        const EmuInsnInfo *in = emu_insn_info(f, k);
        bool shared = in->space == PTX_SPACE_GLOBAL ||
                      in->space == PTX_SPACE_SHARED ||
                      in->space == PTX_SPACE_SHARED_CLUSTER ||
                      in->space == PTX_SPACE_GENERIC;
        if ((shared && (in->op == PTX_OP_LD || in->op == PTX_OP_ATOM)) ||
            in->wait == EMU_WAIT_MBARRIER) {
            return true;
        }
    }
    return false;
}

/* A spin whose registers change: the third round trip in a row through
 * the same back edge at the same place (no progress) in which the
 * registers changed by the same non-zero steps as in the previous one
 * (a retry counter, a timeout count-down), in a loop that polls memory.
 * A loop that computes changes them by varying amounts, writes memory
 * or reads none that others write (a counting loop with no loads is
 * left alone, so that it reconverges as under IPDOM). */
static bool steady_steps(EmuWarp *w, uint32_t pc, uint64_t key,
                         uint64_t lin)
{
    uint64_t d = lin - w->its_lin;
    bool same = w->its_step_pc == pc && w->its_step_key == key;
    w->its_steady = same && d && d == w->its_dlin ? w->its_steady + 1 : 0;
    w->its_dlin = same ? d : 0;
    w->its_step_pc = pc;
    w->its_step_key = key;
    w->its_lin = lin;
    return w->its_steady >= 1;
}

static uint32_t frame_base(const EmuWarp *w)
{
    return w->nframes > 1 ? w->frames[w->nframes - 1].stack_base : 0;
}

/* Hanoi's YIELD: a sibling of the TOS path still on its way to their
 * reconvergence point runs instead; false when there is none. */
static bool swap_sibling(EmuWarp *w)
{
    uint32_t base = frame_base(w), t = w->depth - 1;
    EmuSimtEntry top = w->stack[t];
    const uint32_t r = top.rpc;
    for (uint32_t j = t; j-- > base && w->stack[j].rpc == r;) {
        if (w->stack[j].npc != r && w->stack[j].mask) {
            w->stack[t] = w->stack[j];
            w->stack[j] = top;
            return true;
        }
    }
    return false;
}

bool emu_its_release(EmuWarp *w)
{
    if (w->state != EMU_WARP_READY || w->depth < frame_base(w) + 2) {
        return false;
    }
    uint32_t base = frame_base(w), t = w->depth - 1;
    EmuSimtEntry top = w->stack[t];
    const uint32_t r = top.rpc;
    if (r == EMU_NOPC || w->its_spin_mask != top.mask ||
        w->its_spin_depth != w->depth) {
        /* the running path was not seen spinning: it computes (a quiet
         * grid only means no memory was written), and its siblings
         * wait to reconverge with it, as under IPDOM */
        return false;
    }
    /* the entry waiting at r, below the siblings that reached it */
    uint32_t j = t;
    while (j-- > base && w->stack[j].rpc == r) {
        if (w->stack[j].npc != r && w->stack[j].mask) {
            return false;               /* a sibling can still run */
        }
    }
    if (j == UINT32_MAX || j < base) {
        return false;
    }
    uint32_t waiting = w->stack[j].mask & ~top.mask;
    if (!waiting) {
        return false;
    }
    uint32_t outer = w->stack[j].rpc;
    w->stack[j] = (EmuSimtEntry){ outer, top.npc, top.mask };
    w->stack[j + 1] = (EmuSimtEntry){ outer, r, waiting };
    w->depth = j + 2;
    w->its_pc = EMU_NOPC;
    w->its_spin_mask = 0;
    w->its_yields++;
    if (emu_rtrace_on(w)) {
        emu_rtrace(w, "grid quiet: lanes 0x%08x waiting at pc %u go on, "
                   "before the spinning lanes 0x%08x at pc %u", waiting, r,
                   top.mask, top.npc);
    }
    w->its_rel++;
    return true;
}

void emu_simt_backedge(EmuCtx *x)
{
    EmuWarp *w = x->warp;
    if (x->branched || w->depth < frame_base(w) + 2) {
        /* diverged here, or a converged frame: nothing to yield to */
        w->its_pc = EMU_NOPC;
        w->its_step_pc = EMU_NOPC;
        return;
    }
    EmuSimtEntry *t = &w->stack[w->depth - 1];
    t->npc = x->next_pc;
    uint64_t lin, place = place_state(x, t);
    uint64_t h = path_state(x, t, place, &lin);
    bool steady = steady_steps(w, x->pc, place, lin) &&
                  loop_polls(x->func, x->next_pc, x->pc);
    if (!steady && (w->its_pc != x->pc || w->its_hash != h)) {
        /* a spin seen on the previous round trip stays seen until this
         * path takes a back edge in another state */
        if (w->its_pc != EMU_NOPC || t->mask != w->its_spin_mask) {
            w->its_spin_mask = 0;
        }
        w->its_pc = x->pc;
        w->its_hash = h;
        return;
    }
    w->its_pc = EMU_NOPC;
    const uint32_t spin = t->mask;
    w->its_spin_mask = spin;
    w->its_spin_depth = w->depth;
    if (x->launch->mod->reconv != EMU_RECONV_ITS) {
        return;             /* IPDOM: seen (for the watchdog), no YIELD */
    }
    if (swap_sibling(w)) {
        w->its_yields++;
        if (x->dev->cfg.trace_reconv) {
            emu_rtrace(w, "lanes 0x%08x spin at pc %u (line %u): yield to "
                       "lanes 0x%08x at pc %u", spin, x->pc,
                       emu_rtrace_line(w, x->pc), t->mask, t->npc);
        }
    }
    /* the TOS may have changed: the step takes the stack as it is */
    x->branched = true;
}

/* ------------------------------------------- .sync warp operations */

/* "shfl.sync" for the instruction at x->pc. */
static const char *op_name(const EmuCtx *x)
{
    const IrFunc *f = x->frame->func->ir;
    return x->pc < f->ninsns ? ptx_opinfo(f->insns[x->pc].op)->name : "?";
}

/* The membermask operand of every lane of `exec`, or'ed; a lane that
 * executes the operation while its own membermask leaves it out faults
 * (PTX ISA, shfl.sync and the other .sync forms: "the behavior is
 * undefined if the executing thread is not in the membermask"): CUDA
 * reports WARPSYNC with such a mask as an illegal instruction, so do
 * we.  Returns false after the fault. */
static bool members_of(EmuCtx *x, const EmuOpnd *mm, uint32_t exec,
                       uint32_t *members)
{
    uint32_t all = 0;
    EMU_FOR_LANES(exec, lane) {
        uint32_t m = (uint32_t)emu_src(x, mm, lane);
        if (!((m >> lane) & 1)) {
            char src[160];
            emu_src_pos(x->launch->mod->ir, x->frame->func->ir, x->pc, src,
                        sizeof(src));
            emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, 0, 0,
                      PTX_SPACE_NONE,
                      "%s: lane %u of warp %u (lanes 0x%08x execute it) "
                      "is not in its own membermask 0x%08x (PTX ISA: "
                      "undefined)%s%s", op_name(x), lane, x->warp->id, exec,
                      m, src[0] ? "; CUDA source: " : "", src);
            return false;
        }
        all |= m;
    }
    *members = all;
    return true;
}

/* Where the lanes `missing` of the TOS path's member mask are, for the
 * error that they never arrive: waiting at the reconvergence point, at
 * another .sync operation, or on a path outside this divergent region
 * (or returned from this function). */
static void never_arrive(EmuCtx *x, uint32_t members, uint32_t missing)
{
    EmuWarp *w = x->warp;
    const IrFunc *f = x->frame->func->ir;
    uint32_t base = frame_base(w), t = w->depth - 1;
    const uint32_t r = w->stack[t].rpc;
    char where[200] = "";
    for (uint32_t j = t; j-- > base;) {
        const EmuSimtEntry *e = &w->stack[j];
        if (!(e->mask & missing)) {
            continue;
        }
        uint32_t pc = e->rpc == r ? e->npc : r;
        if (e->rpc == r && e->npc != r) {
            /* a sibling parked at another .sync operation */
            snprintf(where, sizeof(where), "lanes 0x%08x wait at %s, pc %u "
                     "(line %u)", e->mask & missing,
                     pc < f->ninsns ? ptx_opinfo(f->insns[pc].op)->name
                                    : "?",
                     pc, pc < f->ninsns ? f->insns[pc].loc.line : 0);
        } else if (pc < f->ninsns) {
            snprintf(where, sizeof(where), "lanes 0x%08x wait at the "
                     "reconvergence point pc %u (line %u) for this path",
                     e->mask & missing, pc, f->insns[pc].loc.line);
        }
        break;
    }
    if (!where[0]) {
        snprintf(where, sizeof(where), "lanes 0x%08x are not on a path of "
                 "this function that can reach it", missing);
    }
    char src[160];
    emu_src_pos(x->launch->mod->ir, f, x->pc, src, sizeof(src));
    const EmuSimtEntry *top = &w->stack[t];
    /* the clients (synccheck) see where the lanes are before the fault */
    EmuEvent ev = { EMU_EV_DEADLOCK, x->launch, x->cta, w, top->mask,
                    members, x->pc };
    emu_client_event(x->dev, &ev);
    emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION,
              (unsigned)__builtin_ctz(top->mask | (1u << 31)), 0, 0,
              PTX_SPACE_NONE,
              "%s: lanes 0x%08x of warp %u wait for members 0x%08x that "
              "never execute it: %s (PTX ISA: every non-exited thread of "
              "the membermask must execute it; undefined otherwise)%s%s",
              op_name(x), top->mask, w->id, members, where,
              src[0] ? "; CUDA source: " : "", src);
}

/* The TOS path waits for `members` at x->pc and goes on at resume_pc
 * when it runs next; the sibling j runs. */
static void park_and_switch(EmuCtx *x, uint32_t j, uint32_t resume_pc,
                            uint32_t members)
{
    EmuWarp *w = x->warp;
    uint32_t t = w->depth - 1;
    EmuSimtEntry top = w->stack[t];
    top.npc = resume_pc;
    w->stack[t] = w->stack[j];
    w->stack[j] = top;
    x->branched = true;
    w->its_yields++;
    if (x->dev->cfg.trace_reconv) {
        emu_rtrace(w, "lanes 0x%08x wait at %s pc %u (line %u) for members "
                   "0x%08x: run lanes 0x%08x at pc %u", top.mask, op_name(x),
                   x->pc, emu_rtrace_line(w, x->pc), members,
                   w->stack[t].mask, w->stack[t].npc);
    }
}

/* A sibling of the TOS path that can run (not at the reconvergence
 * point, not waiting at a .sync operation itself) and holds lanes of
 * `want`; failing that, any that can run.  UINT32_MAX: none. */
static uint32_t runnable_sibling(const EmuWarp *w, uint32_t want)
{
    uint32_t base = frame_base(w), t = w->depth - 1, any = UINT32_MAX;
    const uint32_t r = w->stack[t].rpc;
    for (uint32_t j = t; j-- > base && w->stack[j].rpc == r;) {
        const EmuSimtEntry *e = &w->stack[j];
        if (e->npc == r || !e->mask || (e->mask & w->its_parked) == e->mask) {
            continue;
        }
        if (e->mask & want) {
            return j;
        }
        if (any == UINT32_MAX) {
            any = j;
        }
    }
    return any;
}

/* Lanes that wait (not on the running path) at an unguarded exit or at
 * the kernel's unguarded ret, so will only leave: on a GPU ptxas turns
 * the branch of `if (i >= n) return;` to the kernel's ret into an EXIT,
 * so a membermask that names them waits for them no more than for
 * exited lanes. */
static uint32_t leaving_lanes(const EmuWarp *w)
{
    const IrFunc *f = w->frames[w->nframes - 1].func->ir;
    uint32_t base = frame_base(w), above = w->stack[w->depth - 1].mask;
    uint32_t out = 0;
    for (uint32_t d = w->depth - 1; d-- > base;) {
        const EmuSimtEntry *e = &w->stack[d];
        uint32_t waiting = e->mask & ~above;
        above |= e->mask;
        if (!waiting) {
            continue;
        }
        if (e->npc >= f->ninsns) {
            out |= waiting;
            continue;
        }
        const IrInsn *in = &f->insns[e->npc];
        if (in->guard < 0 && (in->op == PTX_OP_EXIT ||
                              (in->op == PTX_OP_RET && w->nframes == 1))) {
            out |= waiting;
        }
    }
    return out;
}

/* ------------------------- the same .sync operation at two places */

/* "executed shfl.sync with the same qualifiers" (PTX ISA, shfl.sync;
 * likewise vote.sync, match.sync, redux.sync): the opcode, its types
 * and its modifiers. */
static bool same_qualifiers(const IrInsn *a, const IrInsn *b)
{
    return a && b && a->op == b->op && a->ntypes == b->ntypes &&
           a->nsfx == b->nsfx && a->nopnds == b->nopnds &&
           !memcmp(a->types, b->types, a->ntypes * sizeof(a->types[0])) &&
           !memcmp(a->sfx, b->sfx, a->nsfx * sizeof(a->sfx[0]));
}

/* Lanes of `lanes` that instruction i's guard lets execute. */
static uint32_t guarded(const EmuCtx *x, const EmuInsn *i, uint32_t lanes)
{
    if (i->guard == EMU_NOREG) {
        return lanes;
    }
    uint32_t on = 0;
    EMU_FOR_LANES(lanes, lane) {
        if (x->regs[(size_t)i->guard * EMU_WARP_SIZE + lane] & 1) {
            on |= 1u << lane;
        }
    }
    return i->guard_neg ? lanes & ~on : on;
}

/* The register slots operand o names (0, 1 or 2); false for a kind
 * this does not handle. */
static bool opnd_slots(const EmuOpnd *o, uint32_t *s, unsigned *n)
{
    if (o->kind == EO_REG && !o->neg && !o->sel) {
        s[(*n)++] = o->reg;
        return true;
    }
    if (o->kind == EO_PAIR) {
        s[(*n)++] = o->reg;
        s[(*n)++] = (uint32_t)o->imm;
        return true;
    }
    return o->kind == EO_IMM;
}

/* The TOS path executes the .sync operation at x->pc while the missing
 * members wait, parked by emu_its_sync, at another instruction of the
 * same kind, qualifiers and membermask: on Volta+ that is the same
 * synchronisation (the PTX ISA requires "the same instruction" only for
 * .target sm_6x or below), so it executes once for all of them.  The
 * handler of x->pc runs for the union, the parked lanes' source
 * operands first copied into x->pc's source registers (their values
 * saved), its destination then moved into theirs and the registers
 * restored; the parked paths go on after their instruction.  false
 * (nothing changed) when the missing lanes are not all parked so, or
 * their operands cannot be expressed in x->pc's (an immediate where
 * they differ, two sources in one register). */
static bool joint_sync(EmuCtx *x, const EmuOpnd *mm, uint32_t exec,
                       uint32_t members, uint32_t missing)
{
    EmuWarp *w = x->warp;
    const EmuFunc *fn = x->func;
    const EmuInsn *me = &fn->code[x->pc];
    const unsigned mk = (unsigned)(mm - me->o), n = me->nopnd;
    uint32_t base = frame_base(w), t = w->depth - 1;
    const uint32_t r = w->stack[t].rpc;
    uint32_t sib[EMU_WARP_SIZE], lanes[EMU_WARP_SIZE], got = 0, all = 0;
    unsigned ns = 0;
    if (mk >= n || n < 2) {
        return false;
    }
    for (uint32_t j = t; j-- > base && w->stack[j].rpc == r;) {
        const EmuSimtEntry *e = &w->stack[j];
        if (!(e->mask & missing) || (e->mask & w->its_parked) != e->mask ||
            e->npc == x->pc || e->npc >= fn->ncode ||
            !same_qualifiers(fn->code[e->npc].ir, me->ir)) {
            continue;
        }
        const EmuInsn *o = &fn->code[e->npc];
        uint32_t l = guarded(x, o, e->mask);
        EMU_FOR_LANES(l, lane) {
            if ((uint32_t)emu_src(x, &o->o[mk], lane) != members) {
                return false;           /* another membermask value */
            }
        }
        sib[ns] = j;
        lanes[ns++] = l;
        got |= e->mask;
        all |= l;
    }
    if (missing & ~got) {
        return false;
    }
    /* the registers x->pc names, and their values in the parked lanes */
    uint32_t slots[2 * EMU_MAX_OPNDS];
    unsigned nsl = 0;
    for (unsigned k = 0; k < n; k++) {
        if (!opnd_slots(&me->o[k], slots, &nsl) ||
            (k == 0 && me->o[0].kind == EO_IMM)) {
            return false;
        }
    }
    uint64_t save[2 * EMU_MAX_OPNDS][EMU_WARP_SIZE];
    for (unsigned q = 0; q < nsl; q++) {
        EMU_FOR_LANES(all, lane) {
            save[q][lane] = x->regs[(size_t)slots[q] * EMU_WARP_SIZE + lane];
        }
    }
    uint64_t want[EMU_MAX_OPNDS][EMU_WARP_SIZE];
    bool ok = true;
    for (unsigned s = 0; s < ns && ok; s++) {
        const EmuInsn *o = &fn->code[w->stack[sib[s]].npc];
        ok = o->o[0].kind == me->o[0].kind;
        for (unsigned k = 1; k < n && ok; k++) {
            EMU_FOR_LANES(lanes[s], lane) {
                want[k][lane] = emu_src(x, &o->o[k], lane);
            }
        }
    }
    for (unsigned k = 1; k < n && ok; k++) {
        if (me->o[k].kind == EO_REG) {
            EMU_FOR_LANES(all, lane) {
                x->regs[(size_t)me->o[k].reg * EMU_WARP_SIZE + lane] =
                    want[k][lane];
            }
        }
    }
    /* every source now reads as the parked lane's (an immediate that
     * differs, or one register for two sources, does not) */
    for (unsigned k = 1; k < n && ok; k++) {
        EMU_FOR_LANES(all, lane) {
            ok = ok && emu_src(x, &me->o[k], lane) == want[k][lane];
        }
    }
    uint64_t d0[EMU_WARP_SIZE], d1[EMU_WARP_SIZE];
    if (ok) {
        /* every lane of those paths counts as present, also one whose
         * guard leaves it out (it does not take part) */
        w->its_joint = got;
        me->fn(x, me, exec | all);
        w->its_joint = 0;
        EMU_FOR_LANES(all, lane) {
            d0[lane] = x->regs[(size_t)me->o[0].reg * EMU_WARP_SIZE + lane];
            d1[lane] = me->o[0].kind == EO_PAIR
                ? x->regs[(size_t)me->o[0].imm * EMU_WARP_SIZE + lane] : 0;
        }
    }
    for (unsigned q = 0; q < nsl; q++) {
        EMU_FOR_LANES(all, lane) {
            x->regs[(size_t)slots[q] * EMU_WARP_SIZE + lane] = save[q][lane];
        }
    }
    if (!ok) {
        return false;
    }
    for (unsigned s = 0; s < ns; s++) {
        EmuSimtEntry *e = &w->stack[sib[s]];
        const EmuOpnd *d = &fn->code[e->npc].o[0];
        EMU_FOR_LANES(lanes[s], lane) {
            x->regs[(size_t)d->reg * EMU_WARP_SIZE + lane] = d0[lane];
            if (d->kind == EO_PAIR) {
                x->regs[(size_t)d->imm * EMU_WARP_SIZE + lane] = d1[lane];
            }
        }
        if (x->dev->cfg.trace_reconv) {
            emu_rtrace(w, "lanes 0x%08x at %s pc %u (line %u) execute it "
                       "with lanes 0x%08x at pc %u", e->mask, op_name(x),
                       e->npc, emu_rtrace_line(w, e->npc),
                       w->stack[t].mask, x->pc);
        }
        w->its_parked &= ~e->mask;
        e->npc++;
    }
    w->its_parked &= ~w->stack[t].mask;
    return true;
}

bool emu_its_sync(EmuCtx *x, const EmuOpnd *mm, uint32_t exec)
{
    EmuWarp *w = x->warp;
    uint32_t members;
    if (!exec) {
        return true;
    }
    if (!members_of(x, mm, exec, &members)) {
        return false;
    }
    uint32_t base = frame_base(w), t = w->depth - 1;
    const uint32_t r = w->stack[t].rpc;
    uint32_t missing = members & ~w->stack[t].mask & ~w->exited & w->valid &
                       ~w->its_joint;
    if (missing) {
        missing &= ~leaving_lanes(w);
    }
    if (!missing) {
        w->its_parked &= ~w->stack[t].mask;
        return true;
    }
    /* siblings waiting at this very instruction join this path (they
     * would reconverge with it at r anyway: Hanoi's WARPSYNC reconverges
     * the lanes named); the joined path executes it again */
    bool joined = false;
    for (uint32_t j = t; j-- > base && w->stack[j].rpc == r;) {
        EmuSimtEntry *e = &w->stack[j];
        if (e->npc == x->pc && (e->mask & missing)) {
            if (x->dev->cfg.trace_reconv) {
                emu_rtrace(w, "lanes 0x%08x join lanes 0x%08x at %s pc %u "
                           "(line %u)", w->stack[t].mask, e->mask,
                           op_name(x), x->pc, emu_rtrace_line(w, x->pc));
            }
            w->stack[t].mask |= e->mask;
            w->its_parked &= ~e->mask;
            memmove(e, e + 1, (size_t)(w->depth - 1 - j) * sizeof(*e));
            w->depth--;
            t--;
            joined = true;
        }
    }
    missing &= ~w->stack[t].mask;
    if (joined && !missing) {
        w->stack[t].npc = x->pc;
        x->branched = true;
        return false;
    }
    /* the missing members wait at another instruction of the same kind:
     * all execute it now */
    if (!joined && joint_sync(x, mm, exec, members, missing)) {
        return false;
    }
    /* the missing members run until they arrive, this path waits */
    uint32_t j = runnable_sibling(w, missing);
    if (j != UINT32_MAX) {
        w->its_parked |= w->stack[t].mask;
        park_and_switch(x, j, x->pc, members);
        return false;
    }
    never_arrive(x, members, missing);
    return false;
}

bool emu_its_warpsync(EmuCtx *x, const EmuOpnd *mm, uint32_t lanes)
{
    EmuWarp *w = x->warp;
    uint32_t members;
    if (!lanes) {
        return true;
    }
    if (!members_of(x, mm, lanes, &members)) {
        return false;
    }
    w->ws_arrived |= lanes;
    uint32_t missing = members & ~w->ws_arrived & ~w->exited & w->valid;
    if (missing) {
        missing &= ~leaving_lanes(w);
    }
    if (!missing) {
        w->ws_arrived &= ~members;      /* everyone is there: released */
        EmuEvent ev = { EMU_EV_WARPSYNC, x->launch, x->cta, w, 0, 0,
                        members };
        emu_client_event(x->dev, &ev);
        return true;
    }
    /* the missing members on a sibling path: it runs, this path waits
     * past the bar.warp.sync until it comes back (any bar.warp.sync of
     * theirs counts: CUDA's __syncwarp may be called from different
     * points of the program) */
    uint32_t j = runnable_sibling(w, missing);
    if (j != UINT32_MAX && (w->stack[j].mask & missing)) {
        park_and_switch(x, j, x->pc + 1, members);
        return true;
    }
    w->ws_arrived &= ~lanes;
    never_arrive(x, members, missing);
    return false;
}

