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
 *    this back edge: the launch's progress counter (memory writes that
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
 * A spin that changes registers on every iteration (a counter, %clock)
 * is not seen as spinning; the watchdog and the instruction limit bound
 * such loops as before.
 */
#include <stdint.h>

#include "emu/exec.h"
#include "emu/its.h"

/* FNV-1a over 64-bit words. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    for (unsigned k = 0; k < 8; k++) {
        h ^= (v >> (8 * k)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* What the spinning path's next iteration depends on. */
static uint64_t path_state(const EmuCtx *x, const EmuSimtEntry *t)
{
    const EmuWarp *w = x->warp;
    uint64_t h = 0xcbf29ce484222325ull;
    h = mix(h, x->launch->progress);
    h = mix(h, ((uint64_t)t->npc << 32) | t->mask);
    h = mix(h, ((uint64_t)w->depth << 32) | w->nframes);
    const uint32_t nreg = x->func->nregslots;
    for (uint32_t s = 0; s < nreg; s++) {
        const uint64_t *r = &x->regs[(size_t)s * EMU_WARP_SIZE];
        EMU_FOR_LANES(t->mask, lane) {
            h = mix(h, r[lane]);
        }
    }
    return h;
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
    if (r == EMU_NOPC) {
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
    w->its_yields++;
    return true;
}

void emu_simt_backedge(EmuCtx *x)
{
    EmuWarp *w = x->warp;
    if (x->branched || w->depth < frame_base(w) + 2) {
        /* diverged here, or a converged frame: nothing to yield to */
        w->its_pc = EMU_NOPC;
        return;
    }
    EmuSimtEntry *t = &w->stack[w->depth - 1];
    t->npc = x->next_pc;
    uint64_t h = path_state(x, t);
    if (w->its_pc != x->pc || w->its_hash != h) {
        w->its_pc = x->pc;
        w->its_hash = h;
        return;
    }
    w->its_pc = EMU_NOPC;
    if (swap_sibling(w)) {
        w->its_yields++;
    }
    /* the TOS may have changed: the step takes the stack as it is */
    x->branched = true;
}

void emu_simt_warpsync(EmuCtx *x, uint32_t members, uint32_t lanes)
{
    EmuWarp *w = x->warp;
    w->ws_arrived |= lanes;
    uint32_t missing = members & ~w->ws_arrived & ~w->exited & w->valid;
    if (!missing) {
        w->ws_arrived &= ~members;      /* everyone is there: released */
        return;
    }
    /* the missing members on a sibling path: it runs, this path waits
     * past the bar.warp.sync until it comes back */
    uint32_t base = frame_base(w), t = w->depth - 1;
    EmuSimtEntry top = w->stack[t];
    for (uint32_t j = t; j-- > base && w->stack[j].rpc == top.rpc;) {
        if (w->stack[j].npc != top.rpc && (w->stack[j].mask & missing)) {
            top.npc = x->pc + 1;
            w->stack[t] = w->stack[j];
            w->stack[j] = top;
            x->branched = true;
            return;
        }
    }
    /* the missing members cannot arrive before this path goes on (they
     * wait at a reconvergence point or are further out): as IPDOM */
    w->ws_arrived &= ~members;
}

