/*
 * emu/ops_cluster.c: the cluster instructions: barrier.cluster.arrive /
 * .wait, mapa and getctarank (addressing in emu/cluster.h).  The memory
 * accesses to shared::cluster addresses are ordinary ld/st/atom/red
 * (ops_mem.c) resolved by emu_mem_guest.
 */
#include "emu/cluster.h"
#include "emu/ops.h"
#include "ptx/opcode.h"

static void op_cluster_arrive(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)i;
    if (mask) {
        emu_cluster_arrive(x, mask);
    }
}

static void op_cluster_wait(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)i;
    if (mask) {
        emu_cluster_wait(x, mask);
    }
}

static uint32_t nctarank(const EmuCtx *x)
{
    return x->cta->cluster ? x->cta->cluster->nctas : 1;
}

/* The shared::cluster offset of address a (generic when the instruction
 * has no state space); false after a fault. */
static bool cluster_offset(EmuCtx *x, const EmuInsn *i, unsigned lane,
                           uint64_t a, uint64_t *off)
{
    const char *what = i->op == PTX_OP_MAPA ? "mapa" : "getctarank";
    if (i->space != PTX_SPACE_SHARED_CLUSTER) {
        if (a - EMU_SHARED_WINDOW >= EMU_SHARED_CLUSTER_LIMIT) {
            emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, a, 0,
                      PTX_SPACE_GENERIC, "%s of generic address 0x%llx, "
                      "which is not in shared memory", what,
                      (unsigned long long)a);
            return false;
        }
        a -= EMU_SHARED_WINDOW;
    }
    uint64_t field = a >> EMU_CLUSTER_RANK_SHIFT;
    if (field > nctarank(x)) {
        emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, a, 0,
                  PTX_SPACE_SHARED_CLUSTER, "%s of shared::cluster address "
                  "0x%llx, which names CTA rank %llu of a cluster of %u",
                  what, (unsigned long long)a,
                  (unsigned long long)(field - 1), nctarank(x));
        return false;
    }
    *off = a;
    return true;
}

/* mapa{.shared::cluster}.type d, a, b: a's variable in CTA rank b */
static void op_mapa(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    bool narrow = ptx_type_bits((PtxType)i->type) == 32;
    bool generic = i->space != PTX_SPACE_SHARED_CLUSTER;
    EMU_FOR_LANES(mask, lane) {
        uint64_t a = emu_src(x, &i->o[1], lane);
        uint32_t b = (uint32_t)emu_src(x, &i->o[2], lane);
        uint64_t off;
        if (b >= nctarank(x)) {
            emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, a, 0, i->space,
                      "mapa to CTA rank %u, outside the cluster of %u "
                      "CTA(s)", b, nctarank(x));
            return;
        }
        if (!cluster_offset(x, i, lane, a, &off)) {
            return;
        }
        off &= ((uint64_t)1 << EMU_CLUSTER_RANK_SHIFT) - 1;
        off |= (uint64_t)(b + 1) << EMU_CLUSTER_RANK_SHIFT;
        uint64_t v = generic ? EMU_SHARED_WINDOW + off : off;
        d[lane] = narrow ? (uint32_t)v : v;
    }
}

/* getctarank{.shared::cluster}.type d, a: the rank owning address a */
static void op_getctarank(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    EMU_FOR_LANES(mask, lane) {
        uint64_t off;
        if (!cluster_offset(x, i, lane, emu_src(x, &i->o[1], lane),
                            &off)) {
            return;
        }
        uint64_t field = off >> EMU_CLUSTER_RANK_SHIFT;
        d[lane] = field ? (uint32_t)(field - 1) : x->cta->cluster_rank;
    }
}

EMU_SELECTOR(cluster)
{
    (void)m;
    (void)f;
    /* no state space: generic addresses */
    bool space_ok = ei->space == PTX_SPACE_SHARED_CLUSTER ||
                    ei->space == PTX_SPACE_GENERIC ||
                    ei->space == PTX_SPACE_NONE;
    switch ((PtxOpcode)in->op) {
    case PTX_OP_BARRIER_CLUSTER_ARRIVE:
        ei->fn = op_cluster_arrive;
        return true;
    case PTX_OP_BARRIER_CLUSTER_WAIT:
        ei->fn = op_cluster_wait;
        return true;
    case PTX_OP_MAPA:
        ei->fn = space_ok && ei->o[0].kind == EO_REG ? op_mapa : NULL;
        return true;
    case PTX_OP_GETCTARANK:
        ei->fn = space_ok && ei->o[0].kind == EO_REG ? op_getctarank : NULL;
        return true;
    default:
        return false;
    }
}
