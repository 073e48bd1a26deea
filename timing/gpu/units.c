/*
 * timing/gpu/units.c: function units (gpu.h).
 *
 * Per scheduler, unit.X.count units of each class.  A unit has
 * unit.X.lanes lanes, so a 32-thread warp instruction passes through it
 * ceil(32 / lanes) times (GT200's 8 SPs take 4 cycles per warp: AFR
 * section 3.1; Wong et al. 2010) and keeps it busy passes * unit.X.ii
 * cycles; its result is ready unit.X.lat cycles after issue (measured
 * dependent-issue latencies include the passes) plus oc.latency, the
 * operand read.  The unit chosen is the one free first (the lowest
 * index on a tie), so the choice is deterministic.
 *
 * unit.full_delay D (0: off): an instruction issued to a unit that has
 * taken one back to back (each as soon as the last freed it) for at
 * least its latency, so that its pipeline is full, gets its result D
 * cycles later.  A lone warp's dependent chain always leaves the unit a
 * gap and keeps its latency; many warps waiting for the unit hide D in
 * their wait; only a number of warps whose issues just fill the pipeline
 * loses issue slots.  This is what GT200 does with one dependent add
 * chain per warp (Wong et al., ISPASS 2010, section IV-B, Fig. 6): 24
 * cycles below six warps, the 8 SPs not filled by six or seven warps
 * although 24 / 4 = 6, full from eight; no NVIDIA document names the
 * structure, so gt200.cfg sets D = 8 fitted to that curve (the largest D
 * eight warps hide: 24 + 8 = 8 x 4).
 *
 * PTX-to-machine expansion (expand.h, table for `expand.arch`): an
 * instruction ptxas turns into n machine instructions issues them as a
 * chain (the table's reading: each part waits for the previous one's
 * result): part 0 when the PTX instruction issues, part k once part
 * k-1's result is ready (its issue + its latency) and a unit of part k's
 * class is free; each part takes an issue slot of its warp's scheduler
 * (the warp issues nothing else meanwhile) and occupies its unit for
 * its ii cycles, as the machine instructions would.  The results are
 * ready at the last part's issue + its latency (+ oc.latency).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "timing/gpu/gpu.h"

/* The expansion of insn (NULL: one machine instruction), cached per
 * static instruction: the table is matched on text once. */
const GpuExpand *gpu_unit_expansion(const Gpu *g, GpuSm *sm,
                                    const ptxemu_tm_insn *insn)
{
    static const char none;
    if (g->c.expand_arch < 0 || !insn) {
        return NULL;
    }
    const void *e = tm_map_get(&sm->expand, tm_map_ptr(insn));
    if (!e) {
        e = gpu_expand(g->c.expand_arch, insn);
        if (!e || e == (const void *)&none || ((const GpuExpand *)e)->n == 0) {
            e = &none;
        }
        /* out of memory: not cached, matched again next time */
        tm_map_put(&sm->expand, tm_map_ptr(insn), (void *)e);
    }
    return e == (const void *)&none ? NULL : e;
}

unsigned gpu_unit(const ptxemu_tm_insn *insn)
{
    return insn->unit < PTXEMU_TM_UNIT_COUNT ? insn->unit
                                             : PTXEMU_TM_UNIT_MISC;
}

static uint32_t first_free(const Gpu *g, const GpuSched *sc, unsigned u)
{
    const uint64_t *f = sc->ufree[u];
    uint32_t best = 0;
    for (uint32_t i = 1; i < g->c.unit[u].count; i++) {
        if (f[i] < f[best]) {
            best = i;
        }
    }
    return best;
}

/* Whether insn is an FP32 multiply the SFUs may take (unit.sfu.mul_ii:
 * GT200's SFUs multiply too, so mul.f32 runs on SPs and SFUs at once.
 * Wong et al. 2010 IV-B measure 11.2 multiplies a clock where the 8 SPs
 * alone give 8: the SFUs add 3.2 a clock, 32 / 3.2 = 10 cycles a warp,
 * the gt200 preset). */
static bool sfu_mul(const Gpu *g, const ptxemu_tm_insn *insn)
{
    return g->c.sfu_mul_ii && gpu_unit(insn) == PTXEMU_TM_UNIT_FP32 &&
           insn->opname && strcmp(insn->opname, "mul") == 0;
}

void gpu_unit_classify(const Gpu *g, GpuWarp *w)
{
    w->unit0 = (uint8_t)(w->nexp ? w->nexp->part[0].unit
                                 : gpu_unit(w->next));
    w->sfumul = !w->nexp && sfu_mul(g, w->next);
}

/* The scoreboard kind of a unit's results: Nsight Compute calls waits
 * on fixed-latency math `wait` and on variable-latency (MIO) units
 * `short_scoreboard`. */
GpuSbKind gpu_unit_kind(const ptxemu_tm_insn *insn)
{
    switch (gpu_unit(insn)) {
    case PTXEMU_TM_UNIT_FP64:
    case PTXEMU_TM_UNIT_SFU:
    case PTXEMU_TM_UNIT_TENSOR:
    case PTXEMU_TM_UNIT_WARP:
    case PTXEMU_TM_UNIT_LDST:
    case PTXEMU_TM_UNIT_TEX:
        return GPU_SB_SHORT;
    default:
        return GPU_SB_FIXED;
    }
}

/* Occupy the first free unit of class u for `busy` cycles from now; the
 * cycles its result comes later than the class's latency says
 * (unit.full_delay when the unit's pipeline is full). */
static uint64_t occupy(Gpu *g, GpuSched *sc, unsigned u, uint64_t busy,
                       uint64_t now)
{
    uint32_t i = first_free(g, sc, u);
    uint64_t *run = &sc->ufree[u][g->c.unit[u].count + i];
    if (sc->ufree[u][i] < now) {
        *run = now; /* it was idle: a new run of issues */
    }
    uint64_t extra = g->c.full_delay && now >= *run &&
                             now - *run >= g->c.unit[u].lat
                         ? g->c.full_delay : 0;
    sc->ufree[u][i] = gpu_max(now, sc->ufree[u][i]) + busy;
    sc->umin[u] = sc->ufree[u][first_free(g, sc, u)];
    sc->sgen++; /* (sched.c: what lb[].ex read) */
    return extra;
}

/* Part w->xk of w's expanded instruction issues at now. */
static void part_issue(Gpu *g, GpuSched *sc, GpuWarp *w, uint64_t now)
{
    const GpuExpandPart *p = &w->xp->part[w->xk];
    gpu_warp_touch(w);
    uint64_t done = now + p->latency + occupy(g, sc, p->unit, p->ii, now);
    if (++w->xk < w->xp->n) {
        w->xnext = done;
        return;
    }
    /* the last part: the instruction's results */
    const ptxemu_tm_insn *in = w->xin;
    uint64_t ready = done + g->c.oc_latency;
    w->xp = NULL;
    if (w->xtag) {
        gpu_sb_release(&w->sb, w->xtag, ready);
        if (in->ndst) {
            w->drain = gpu_max(w->drain, ready);
            if (sc->oc) {
                gpu_oc_writeback(sc->oc, w->slot, in->dst, in->ndst, ready);
            }
        }
    }
}

uint64_t gpu_unit_issue(Gpu *g, GpuSched *sc, const ptxemu_tm_insn *insn,
                        uint64_t now)
{
    unsigned u = gpu_unit(insn);
    const GpuUnitCfg *uc = &g->c.unit[u];
    if (sfu_mul(g, insn)) {
        const unsigned s = PTXEMU_TM_UNIT_SFU;
        if (sc->umin[u] > now && sc->umin[s] <= now) {
            /* the FP32 unit is busy: the SFUs take it, with the
             * multiply's own latency */
            uint64_t extra = occupy(g, sc, s, g->c.sfu_mul_ii, now);
            return now + uc->lat + g->c.oc_latency + extra;
        }
    }
    uint64_t passes = (GPU_WARP_SIZE + uc->lanes - 1) / uc->lanes;
    uint64_t extra = occupy(g, sc, u, passes * uc->ii, now);
    return now + uc->lat + g->c.oc_latency + extra;
}

void gpu_unit_expand(Gpu *g, GpuWarp *w, const ptxemu_tm_insn *insn,
                     const GpuExpand *e, uint64_t tag)
{
    g->sm[w->cta->sm]->st.parts += e->n;
    gpu_warp_touch(w);
    w->xp = e;
    w->xk = 0;
    w->xin = insn;
    w->xtag = tag;
    w->xnext = GPU_NEVER;
}

void gpu_unit_part(Gpu *g, GpuSched *sc, GpuWarp *w, uint64_t now)
{
    part_issue(g, sc, w, now);
}
