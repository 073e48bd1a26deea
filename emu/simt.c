/*
 * emu/simt.c: the SIMT stack, call frames and CTA barriers.
 *
 * The SIMT stack follows the seed digest 1.3 exactly: a divergent branch
 * turns the top entry into the reconvergence entry (npc = IPDOM) and
 * pushes one entry per path, the path that runs first last.  After every
 * instruction, emu_simt_settle() pops entries whose npc reached their
 * rpc or whose mask became empty (exited or returned lanes), and
 * finishes a call frame when the stack is back at the depth it had when
 * the frame was entered.
 *
 * Frames: each call pushes an EmuFrame with its own register slots and a
 * slice of every lane's local memory (local_base .. + local_bytes).  A
 * .func's params and return variables live in its frame; call copies the
 * caller's argument variables in and return copies the results out to
 * the caller's return variables, so recursion needs nothing special.
 *
 * Barriers count warp arrivals (Wong et al.); a barrier releases when
 * its expected count, or every warp that has not exited, arrived.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/client.h"
#include "emu/cluster.h"
#include "emu/decode.h"
#include "emu/exec.h"
#include "emu/panic.h"
#include "emu/rtrace.h"
#include "emu/simt.h"

bool emu_frame_regs(EmuFrame *fr, const EmuFunc *f)
{
    size_t need = (size_t)(f->nslots ? f->nslots : 1) * EMU_WARP_SIZE;
    if (fr->regs_cap < need) {
        uint64_t *p = realloc(fr->regs, need * sizeof(uint64_t));
        if (!p) {
            return false;
        }
        fr->regs = p;
        fr->regs_cap = need;
    }
    memset(fr->regs, 0, (size_t)f->nregslots * EMU_WARP_SIZE *
           sizeof(uint64_t));
    for (uint32_t s = f->nregslots; s < f->nslots; s++) {
        uint64_t *r = &fr->regs[(size_t)s * EMU_WARP_SIZE];
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            r[l] = f->consts[s];
        }
    }
    return true;
}
/* ------------------------------------------------------- SIMT stack */

static bool stack_push(EmuWarp *w, EmuSimtEntry e)
{
    if (w->depth == w->cap) {
        uint32_t nc = w->cap * 2;
        EmuSimtEntry *p = realloc(w->stack, nc * sizeof(*p));
        if (!p) {
            return false;
        }
        w->stack = p;
        w->cap = nc;
    }
    w->stack[w->depth++] = e;
    return true;
}

/* The order policy in force for x's warp: EMU_DIVERGE_BY_MODE follows
 * the launch's reconvergence mode. */
static EmuDivergeOrder order_of(const EmuCtx *x)
{
    EmuDivergeOrder o = x->dev->cfg.diverge_order;
    if (o == EMU_DIVERGE_BY_MODE) {
        o = x->launch && x->launch->mod &&
                    x->launch->mod->reconv == EMU_RECONV_ITS
                ? EMU_MAJORITY_FIRST : EMU_TAKEN_FIRST;
    }
    return o;
}

void emu_simt_split(EmuCtx *x, uint32_t n, const uint32_t *pcs,
                    const uint32_t *masks, uint32_t reconv)
{
    EmuWarp *w = x->warp;
    EMU_ASSERT(w->depth > 0);          /* the step runs the TOS entry */
    if (n == 2 && masks[0] && masks[1] && w->depth + 2 <= w->cap) {
        /* a divergent bra: the loop below, unrolled for two paths with
         * room on the stack.  Path 0 (taken) runs first, or under the
         * majority policy the path with fewer lanes (taken on a tie). */
        int d = __builtin_popcount(masks[0]) - __builtin_popcount(masks[1]);
        EmuDivergeOrder o = order_of(x);
        unsigned first = (o == EMU_MAJORITY_LAST && d > 0) ||
                         (o == EMU_MAJORITY_FIRST && d < 0);
        x->branched = true;
        w->stack[w->depth - 1].npc = reconv;
        w->stack[w->depth++] = (EmuSimtEntry){ reconv, pcs[!first],
                                               masks[!first] };
        w->stack[w->depth++] = (EmuSimtEntry){ reconv, pcs[first],
                                               masks[first] };
        if (x->dev->cfg.trace_reconv) {
            emu_rtrace_split(w, x->pc, 2);
        }
        return;
    }
    uint32_t idx[EMU_WARP_SIZE + 1];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && k < EMU_WARP_SIZE + 1; i++) {
        if (masks[i]) {
            idx[k++] = i;
        }
    }
    x->branched = true;
    EmuSimtEntry *top = &w->stack[w->depth - 1];
    if (k == 0) {
        top->npc = x->pc + 1;
        return;
    }
    if (k == 1) {
        top->npc = pcs[idx[0]];
        return;
    }
    /* push order: the path pushed last runs first.  idx[] holds the
     * paths in "run first" order of the taken-first policy (callers put
     * the taken path first); majority-last runs the smaller paths first,
     * majority-first the larger ones (both stable on ties). */
    EmuDivergeOrder o = order_of(x);
    if (o == EMU_MAJORITY_LAST || o == EMU_MAJORITY_FIRST) {
        int sign = o == EMU_MAJORITY_LAST ? 1 : -1;
        for (uint32_t a = 1; a < k; a++) {
            uint32_t v = idx[a], b = a;
            while (b > 0 && sign * (__builtin_popcount(masks[idx[b - 1]]) -
                                    __builtin_popcount(masks[v])) > 0) {
                idx[b] = idx[b - 1];
                b--;
            }
            idx[b] = v;
        }
    }
    top->npc = reconv;
    for (uint32_t j = k; j-- > 0;) {
        if (!stack_push(w, (EmuSimtEntry){ reconv, pcs[idx[j]],
                                          masks[idx[j]] })) {
            emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                      "SIMT stack overflow");
            return;
        }
    }
    if (x->dev->cfg.trace_reconv) {
        emu_rtrace_split(w, x->pc, k);
    }
}

static void warp_remove_lanes(EmuWarp *w, uint32_t from, uint32_t lanes)
{
    for (uint32_t d = from; d < w->depth; d++) {
        w->stack[d].mask &= ~lanes;
    }
}

void emu_simt_exit(EmuCtx *x, uint32_t lanes)
{
    EmuWarp *w = x->warp;
    EMU_ASSERT(w->depth > 0);
    x->branched = true;
    w->exited |= lanes;
    warp_remove_lanes(w, 0, lanes);
    for (uint32_t f = 0; f < w->nframes; f++) {
        w->frames[f].call_mask &= ~lanes;
    }
    w->stack[w->depth - 1].npc = x->pc + 1;
    /* exited threads no longer hold back a cluster barrier */
    emu_cluster_check(x->cta->cluster, x->launch);
}

void emu_simt_ret(EmuCtx *x, uint32_t lanes)
{
    EmuWarp *w = x->warp;
    if (w->nframes <= 1) {
        emu_simt_exit(x, lanes);
        return;
    }
    EmuFrame *fr = &w->frames[w->nframes - 1];
    EMU_ASSERT(w->depth > fr->stack_base);
    x->branched = true;
    fr->returned |= lanes;
    warp_remove_lanes(w, fr->stack_base, lanes);
    w->stack[w->depth - 1].npc = x->pc + 1;
}

static inline uint8_t *lane_local(EmuCta *cta, EmuWarp *w, unsigned lane)
{
    return cta->local + ((size_t)w->id * EMU_WARP_SIZE + lane) *
           cta->local_stride;
}

static void copy_in(uint8_t *dst, uint64_t v, uint64_t n)
{
    for (uint64_t k = 0; k < n && k < 8; k++) {
        dst[k] = (uint8_t)(v >> (8 * k));
    }
}

static uint64_t read_le(const uint8_t *p, uint64_t n)
{
    uint64_t v = 0;
    for (uint64_t k = 0; k < n && k < 8; k++) {
        v |= (uint64_t)p[k] << (8 * k);
    }
    return v;
}

void emu_call_layout(const EmuInsn *c, int *ri, int *ti, int *ai)
{
    *ri = *ti = *ai = -1;
    for (int k = 0; k < c->nopnd; k++) {
        if (c->o[k].kind == EO_LIST) {
            if (*ti < 0) {
                *ri = k;
            } else if (*ai < 0) {
                *ai = k;
            }
        } else if (*ti < 0) {
            *ti = k;
        }
    }
}

void emu_simt_call(EmuCtx *x, uint32_t lanes, const EmuFunc *callee,
                   const EmuInsn *call)
{
    EmuWarp *w = x->warp;
    EmuCta *cta = x->cta;
    EmuFrame *fr = x->frame;
    /* the callee's frame (uniform over the warp) starts above every
     * calling lane's stack, allocas included */
    uint64_t base = fr->local_base + fr->func->local_bytes;
    EMU_FOR_LANES(lanes, l) {
        base = fr->sp[l] > base ? fr->sp[l] : base;
    }
    base = emu_align_up(base, 16);
    EMU_ASSERT(w->depth > 0);
    x->branched = true;
    w->stack[w->depth - 1].npc = x->pc + 1;
    if (!lanes) {
        return;
    }
    if (w->nframes >= x->dev->cfg.max_call_depth ||
        base + callee->local_bytes > cta->local_stride) {
        emu_fault(x, EMU_ERR_STACK_OVERFLOW, (unsigned)__builtin_ctz(lanes),
                  0, 0, PTX_SPACE_LOCAL,
                  "call stack overflow calling %s (depth %u, %llu bytes "
                  "of local memory per thread)", callee->ir->name,
                  w->nframes, (unsigned long long)cta->local_stride);
        return;
    }
    if (!emu_local_bytes(cta)) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_LOCAL,
                  "cannot allocate local memory");
        return;
    }
    if (w->nframes == w->capframes) {
        uint32_t nc = w->capframes * 2;
        EmuFrame *p = realloc(w->frames, nc * sizeof(*p));
        if (!p) {
            emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                      "out of memory for call frames");
            return;
        }
        memset(p + w->capframes, 0, (nc - w->capframes) * sizeof(*p));
        w->frames = p;
        w->capframes = nc;
        fr = &w->frames[w->nframes - 1];
        x->frame = fr;
    }
    EmuFrame *nf = &w->frames[w->nframes];
    if (!emu_frame_regs(nf, callee)) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                  "out of memory for call frames");
        return;
    }
    nf->func = callee;
    nf->local_base = base;
    emu_frame_sp_init(nf);
    nf->ret_pc = x->pc + 1;
    nf->stack_base = w->depth;
    nf->call_mask = lanes;
    nf->call = call;
    nf->returned = 0;
    /* arguments */
    int ri, ti, ai;
    emu_call_layout(call, &ri, &ti, &ai);
    const EmuFunc *cf = fr->func;
    if (ai >= 0) {
        const EmuOpnd *a = &call->o[ai];
        for (uint32_t j = 0; j < a->n && j < callee->ir->nparams; j++) {
            uint32_t v = cf->vslots[a->reg + j];
            uint64_t sz = callee->param_size[j];
            uint64_t dst = base + callee->param_offset[j];
            EMU_FOR_LANES(lanes, lane) {
                uint8_t *tl = lane_local(cta, w, lane);
                if (v & EMU_LIST_REG) {
                    copy_in(tl + dst, fr->regs[(size_t)(v & ~EMU_LIST_REG) *
                                               EMU_WARP_SIZE + lane], sz);
                } else {
                    memmove(tl + dst, tl + fr->local_base + v, sz);
                }
            }
        }
    }
    w->nframes++;
    if (!stack_push(w, (EmuSimtEntry){ EMU_NOPC, 0, lanes })) {
        w->nframes--;
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                  "SIMT stack overflow");
        return;
    }
    x->frame = &w->frames[w->nframes - 1];
    x->func = callee;
}

/* The top frame's lanes have all returned: copy results, pop it. */
static void frame_return(EmuCta *cta, EmuWarp *w)
{
    /* settle() returns only from a frame a call pushed */
    EMU_ASSERT(w->nframes >= 2 && w->frames[w->nframes - 1].call);
    EmuFrame *fr = &w->frames[w->nframes - 1];
    EmuFrame *caller = &w->frames[w->nframes - 2];
    uint32_t lanes = fr->returned & ~w->exited;
    int ri, ti, ai;
    const EmuInsn *call = fr->call;
    emu_call_layout(call, &ri, &ti, &ai);
    const EmuFunc *callee = fr->func;
    if (ri >= 0 && lanes) {
        const EmuOpnd *r = &call->o[ri];
        for (uint32_t j = 0; j < r->n && j < callee->ir->nrets; j++) {
            uint32_t v = caller->func->vslots[r->reg + j];
            uint64_t sz = callee->ret_size[j];
            uint64_t src = fr->local_base + callee->ret_offset[j];
            EMU_FOR_LANES(lanes, lane) {
                uint8_t *tl = lane_local(cta, w, lane);
                if (v & EMU_LIST_REG) {
                    caller->regs[(size_t)(v & ~EMU_LIST_REG) *
                                 EMU_WARP_SIZE + lane] = read_le(tl + src, sz);
                } else {
                    memmove(tl + caller->local_base + v, tl + src, sz);
                }
            }
        }
    }
    w->nframes--;
}

static void barrier_check(EmuCta *cta, unsigned id);

void emu_simt_settle(EmuCta *cta, EmuWarp *w)
{
    for (;;) {
        if (w->depth == 0) {
            if (w->state != EMU_WARP_EXITED) {
                emu_warp_set_state(w, EMU_WARP_EXITED);
                w->exited |= w->valid;
                cta->nexited++;
                EMU_ASSERT(cta->nexited <= cta->nwarps);
                emu_progress(cta);
                EmuEvent ev = { EMU_EV_WARP_EXIT, cta->launch, cta, w, 0, 0,
                                0 };
                emu_client_event(cta->launch->dev, &ev);
                for (unsigned b = 0; b < EMU_MAX_BARRIERS; b++) {
                    if (cta->bar_arrived[b]) {
                        barrier_check(cta, b);
                    }
                }
                emu_cluster_check(cta->cluster, cta->launch);
            }
            return;
        }
        EMU_ASSERT(w->nframes > 0);    /* the kernel's frame stays */
        EmuFrame *fr = &w->frames[w->nframes - 1];
        if (w->nframes > 1 && w->depth == fr->stack_base) {
            frame_return(cta, w);
            continue;
        }
        EmuSimtEntry *e = &w->stack[w->depth - 1];
        if (e->mask == 0 || e->npc == e->rpc) {
            if (e->mask && cta->launch->dev->cfg.trace_reconv) {
                emu_rtrace_arrive(w);
            }
            w->depth--;
            continue;
        }
        if (e->npc >= fr->func->ncode) {
            if (w->state == EMU_WARP_AT_BARRIER) {
                return;    /* leaves after the barrier releases it */
            }
            /* fell off the end (or a path to "exit" that never met an
             * instruction): the lanes leave the function */
            uint32_t lanes = e->mask;
            if (w->nframes > 1) {
                fr->returned |= lanes;
                warp_remove_lanes(w, fr->stack_base, lanes);
            } else {
                w->exited |= lanes;
                warp_remove_lanes(w, 0, lanes);
                emu_cluster_check(cta->cluster, cta->launch);
            }
            continue;
        }
        return;
    }
}

/* ---------------------------------------------------------- barriers */

static void barrier_release(EmuCta *cta, unsigned id)
{
    uint32_t result = cta->bar_red[id], released = 0, waited = 0;
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        EmuWarp *w = &cta->warps[wi];
        if (w->state == EMU_WARP_AT_BARRIER && w->barrier_id == id) {
            emu_warp_set_state(w, EMU_WARP_READY);
            released++;
            waited |= 1u << (wi & 31);
            if (w->red_dst != EMU_NOREG) {
                uint64_t *r = &w->frames[w->nframes - 1]
                                   .regs[(size_t)w->red_dst * EMU_WARP_SIZE];
                uint64_t v = result;
                if (w->red_pred || cta->bar_op[id] != PTX_M_POPC) {
                    v = result != 0;
                }
                EMU_FOR_LANES(w->red_lanes, lane) {
                    r[lane] = v;
                }
                w->red_dst = EMU_NOREG;
            }
        }
    }
    /* every waiting warp arrived (one warp may arrive more than once:
     * each serialised path of a divergent warp does) */
    EMU_ASSERT(released <= cta->bar_arrived[id]);
    cta->bar_arrived[id] = 0;
    cta->bar_expected[id] = 0;
    cta->bar_red[id] = 0;
    cta->bar_releases++;
    cta->wstate_gen++;
    emu_progress(cta);
    EmuEvent ev = { EMU_EV_BARRIER, cta->launch, cta, NULL,
                    cta->bar_warps[id], waited, id };
    cta->bar_warps[id] = 0;
    emu_client_event(cta->launch->dev, &ev);
}

static void barrier_check(EmuCta *cta, unsigned id)
{
    EMU_ASSERT(id < EMU_MAX_BARRIERS);
    uint32_t need = cta->bar_expected[id]
        ? cta->bar_expected[id] : cta->nwarps - cta->nexited;
    if (cta->bar_arrived[id] >= need) {
        barrier_release(cta, id);
    }
}

void emu_barrier_arrive(EmuCtx *x, unsigned id, uint32_t expected,
                        bool wait)
{
    EmuCta *cta = x->cta;
    id &= EMU_MAX_BARRIERS - 1;
    cta->bar_arrived[id]++;
    cta->bar_warps[id] |= 1u << (x->warp->id & 31);
    if (expected) {
        cta->bar_expected[id] = expected;
    }
    if (wait) {
        emu_warp_set_state(x->warp, EMU_WARP_AT_BARRIER);
        x->warp->barrier_id = id;
    }
    barrier_check(cta, id);
}
