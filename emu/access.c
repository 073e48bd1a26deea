/*
 * emu/access.c: the funnel's out-of-line paths (emu/access.h): noting
 * an access in the step's list; the step record's arrays.
 */
#include <stdlib.h>

#include "emu/access.h"

/* A step's list grows to this many accesses at most: far above what
 * one instruction can make (a TMA box is bounded by shared memory), so
 * reaching it means a bug, reported as a fault rather than an
 * unbounded allocation. */
#define ACC_MAX (1u << 24)

const char *emu_acc_kind_name(EmuAccKind k)
{
    static const char *const names[EMU_ACC_KIND_COUNT] = {
        [EMU_ACC_READ] = "read",
        [EMU_ACC_WRITE] = "write",
        [EMU_ACC_ATOMIC] = "atomic",
        [EMU_ACC_ASYNC_READ] = "async-read",
        [EMU_ACC_ASYNC_WRITE] = "async-write",
        [EMU_ACC_ASYNC_ATOMIC] = "async-atomic",
        [EMU_ACC_TEXEL_READ] = "texel-read",
        [EMU_ACC_TEXEL_WRITE] = "texel-write",
    };
    return (unsigned)k < EMU_ACC_KIND_COUNT ? names[k] : "?";
}

/* Grow L by one slot; false when the host is out of memory or the
 * bound is reached. */
static bool grow(EmuAccList *L)
{
    uint32_t nc = L->cap ? L->cap * 2 : 4 * EMU_WARP_SIZE;
    if (nc > ACC_MAX) {
        return false;
    }
    EmuAccess *nv = realloc(L->v, nc * sizeof(*nv));
    if (!nv) {
        return false;
    }
    L->v = nv;
    L->cap = nc;
    return true;
}

bool emu_acclist_reserve(EmuAccList *L, uint32_t k)
{
    while (L->cap - L->n < k) {
        if (!grow(L)) {
            return false;
        }
    }
    return true;
}

bool emu_acclist_push(EmuAccList *L, const EmuAccess *a)
{
    if (L->n == L->cap && !grow(L)) {
        return false;
    }
    L->v[L->n++] = *a;
    return true;
}

void emu_access_note_slow(EmuCtx *x, unsigned lane, PtxSpace space,
                          uint64_t addr, uint32_t size, EmuAccKind kind)
{
    EmuAccList *L = x->acc;
    uint64_t off;
    PtxSpace sp = emu_space_of(space, addr, &off);
    if (sp == PTX_SPACE_SHARED_CLUSTER) {
        /* the executing CTA's own shared memory named through the
         * cluster window is its shared::cta memory */
        uint64_t rank = off >> EMU_CLUSTER_RANK_SHIFT;
        if (rank == 0 || rank - 1 == x->cta->cluster_rank) {
            sp = PTX_SPACE_SHARED;
            off &= ((uint64_t)1 << EMU_CLUSTER_RANK_SHIFT) - 1;
        }
    }
    if (!(L->spaces >> sp & 1u)) {
        return;
    }
    if (L->n == L->cap && !grow(L)) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, lane, addr, size, space,
                  "cannot note access %u of this instruction (host out of "
                  "memory or %u accesses reached)", L->n, ACC_MAX);
        return;
    }
    EmuAccess a = { off, size, (uint8_t)lane, (uint8_t)sp, (uint8_t)kind,
                    0 };
    L->v[L->n++] = a;
}

void emu_access_note(EmuCtx *x, unsigned lane, PtxSpace space,
                     uint64_t addr, uint32_t size, EmuAccKind kind)
{
    if (x->acc) {
        emu_access_note_in(x, lane, space, addr, size, kind);
    }
}

void emu_step_record_fini(EmuStepRecord *r)
{
    free(r->acc);
    free(r->wait_tokens);
    r->acc = NULL;
    r->wait_tokens = NULL;
    r->nacc = r->acc_cap = r->nwait = r->wait_cap = 0;
}
