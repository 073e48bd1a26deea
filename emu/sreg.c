/*
 * emu/sreg.c: the values of PTX special registers (PTX ISA, "Special
 * Registers") for one lane of the current instruction.
 *
 * %clock/%clock64 read the counter of the SM the CTA was placed on.  The
 * functional emulator has no cycles, so there time is instructions: the
 * counter counts the SM's issued warp instructions and %globaltimer the
 * device's.  Under a timing model (EmuLaunch.timed) the model sets both
 * from simulated time (timing/host.c).
 */
#include "emu/cluster.h"
#include "emu/exec.h"

/* ------------------------------------------------- special registers */

/* %globaltimer: simulated nanoseconds under a timing model, else the
 * warp instructions issued on the device so far (a monotonic count). */
static uint64_t globaltimer(const EmuLaunch *l)
{
    return l->timed ? l->dev->timer_ns : l->dev->clock_base + l->insns;
}

uint64_t emu_sreg_value(EmuCtx *x, const EmuOpnd *o, unsigned lane)
{
    if (o->kind != EO_SREG) {
        return 0;
    }
    unsigned id = (unsigned)(o->imm & 0xffff);
    unsigned c = o->sel >= IR_SEL_X && o->sel <= IR_SEL_Z
        ? (unsigned)(o->sel - IR_SEL_X) : 0;
    EmuLaunch *l = x->launch;
    EmuCta *cta = x->cta;
    uint64_t lt = (1ull << lane) - 1, le = (2ull << lane) - 1;
    uint32_t sm = cta->sm;
    if (id == EMU_SREG_FRAME_ADDR) {
        return x->frame->local_base + o->reg;
    }
    switch ((PtxSreg)id) {
    case PTX_SREG_TID: return x->warp->tid[c][lane];
    case PTX_SREG_NTID: return l->block[c];
    case PTX_SREG_LANEID: return lane;
    case PTX_SREG_WARPID: return x->warp->id;
    case PTX_SREG_NWARPID: return cta->nwarps;
    case PTX_SREG_CTAID: return cta->ctaid[c];
    case PTX_SREG_NCTAID: return l->grid[c];
    case PTX_SREG_SMID: return sm;
    case PTX_SREG_NSMID: return l->dev->cfg.num_sms;
    case PTX_SREG_GRIDID: return l->gridid;
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return l->explicit_cluster;
    case PTX_SREG_CLUSTERID: return cta->ctaid[c] / l->cluster[c];
    case PTX_SREG_NCLUSTERID: return l->grid[c] / l->cluster[c];
    case PTX_SREG_CLUSTER_CTAID: return cta->ctaid[c] % l->cluster[c];
    case PTX_SREG_CLUSTER_NCTAID: return l->cluster[c];
    case PTX_SREG_CLUSTER_CTARANK: return cta->cluster_rank;
    case PTX_SREG_CLUSTER_NCTARANK: return emu_cluster_size(l);
    case PTX_SREG_LANEMASK_EQ: return (uint32_t)(1u << lane);
    case PTX_SREG_LANEMASK_LE: return (uint32_t)le;
    case PTX_SREG_LANEMASK_LT: return (uint32_t)lt;
    case PTX_SREG_LANEMASK_GE: return (uint32_t)~lt;
    case PTX_SREG_LANEMASK_GT: return (uint32_t)~le;
    case PTX_SREG_CLOCK: return (uint32_t)*emu_sm_clock(l->sm_clock, sm);
    case PTX_SREG_CLOCK_HI:
        return (uint32_t)(*emu_sm_clock(l->sm_clock, sm) >> 32);
    case PTX_SREG_CLOCK64: return *emu_sm_clock(l->sm_clock, sm);
    case PTX_SREG_GLOBALTIMER: return globaltimer(l);
    case PTX_SREG_GLOBALTIMER_LO: return (uint32_t)globaltimer(l);
    case PTX_SREG_GLOBALTIMER_HI: return (uint32_t)(globaltimer(l) >> 32);
    case PTX_SREG_TOTAL_SMEM_SIZE:
        return l->kernel->shared_bytes + l->dyn_shared;
    case PTX_SREG_AGGR_SMEM_SIZE:   /* the user's and the reserved bytes */
        return l->kernel->shared_bytes + l->dyn_shared +
               emu_resv_smem_bytes(l->dev);
    case PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN:
        return EMU_RESV_SMEM_BEGIN;
    case PTX_SREG_RESERVED_SMEM_OFFSET_END:
        return EMU_RESV_SMEM_BEGIN + emu_resv_smem_bytes(l->dev);
    case PTX_SREG_RESERVED_SMEM_OFFSET_CAP:
        return emu_resv_smem_bytes(l->dev);
    case PTX_SREG_RESERVED_SMEM_OFFSET:
        return EMU_RESV_SMEM_BEGIN + 8 * (o->imm >> 16);
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return l->dyn_shared;
    case PTX_SREG_ENVREG:
        /* cooperative groups: envreg1:envreg2 = grid workspace */
        switch (o->imm >> 16) {
        case 1: return (uint32_t)(l->coop_ws >> 32);
        case 2: return (uint32_t)l->coop_ws;
        default: return 0;
        }
    default:
        return 0;   /* envreg, pm, graph exec */
    }
}
