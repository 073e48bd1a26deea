/*
 * emu/regest.h: an estimate of the registers per thread that ptxas would
 * allocate for a kernel, from its PTX, for the occupancy figures
 * (cudaFuncGetAttributes().numRegs, cuFuncGetAttribute(NUM_REGS), the
 * occupancy API, the timing models' residency).
 *
 * PTX registers are virtual: a compiler emits a fresh one per value
 * (an unrolled loop declares hundreds), and ptxas maps them onto at most
 * 255 physical 32-bit registers per thread (PTX ISA, "Registers";
 * CUDA C++ Programming Guide, "Compute Capabilities": 255 registers
 * per thread).  Without ptxas we count what a register allocator must
 * hold at once.
 *
 * Contract:
 *  - emu_regest_pressure(f, slotw) is the largest number of 32-bit
 *    register units live at once in f, over its control-flow graph
 *    (IrFunc.blocks, ptx/cfg.h) and the decoded instructions' read and
 *    written slots (emu/insninfo.h).  A slot's width in 32-bit units is
 *    slotw[slot] (0 for predicates, which live in their own file;
 *    1 up to 32 bits, 2 for 64 bits); slots at or above f->nregslots
 *    (constants) and pseudo slots count nothing.  A value is live from
 *    its definition to its last use; a definition under a guard does not
 *    end the life of the value it may leave in place; a slot read before
 *    any write is live from the entry.  Instructions whose results are
 *    never read still hold their result at the point they write it.
 *    Returns UINT32_MAX when the analysis would need more than a bounded
 *    amount of memory (an enormous function): the caller falls back.
 *    across, when not NULL, has f->ncode entries: at each call it gets
 *    the units live across the call (live after it, but for what it
 *    returns); the others are left as they were.
 *  - emu_regest_module(m), once every function of m is decoded (each
 *    with EmuFunc.reg_pressure and, when it calls, call_across): sets
 *    the regs of each kernel that calls to the estimate of what the
 *    whole call tree needs, since ptxas allocates a kernel's registers
 *    for its callees too (a kernel of 9 registers calling a function of
 *    25, both estimated, reports 31 from ptxas; tests/check_regest.c):
 *    the largest of its own pressure and, at each call, what is live
 *    across it plus what the callee needs, recursively.  A call back
 *    into the tree (recursion) adds nothing; an indirect call adds the
 *    largest pressure of the module's functions.  Frees call_across.
 *    False when out of memory (kernels keep their own estimate).
 *  - emu_regest_regs(pressure, ir) turns that into a register count as
 *    ptxas reports it: pressure plus EMU_REGEST_RESERVED, at least
 *    EMU_REGEST_MIN, at most 255, and no more than the function's
 *    .maxnreg or what its .maxntid and .minnctapersm leave (64K
 *    registers per SM shared by minnctapersm CTAs of maxntid threads,
 *    in units of 8 per thread).  pressure UINT32_MAX means "unknown"
 *    and yields the cap.  This is an estimate: ptxas also rematerialises,
 *    spills, schedules and coalesces, so the true count may differ in
 *    both directions (README, "numRegs").
 */
#ifndef PTXEMU_EMU_REGEST_H
#define PTXEMU_EMU_REGEST_H

#include <stdint.h>

#include "emu/emu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers ptxas keeps beside the values: the ABI's stack pointer (R1)
 * and one address or scratch register (an estimate). */
#define EMU_REGEST_RESERVED 2u
#define EMU_REGEST_MIN 2u
#define EMU_REGEST_MAX 255u

uint32_t emu_regest_pressure(const EmuFunc *f, const uint8_t *slotw,
                             uint32_t *across);
bool emu_regest_module(EmuModule *m);
uint32_t emu_regest_regs(uint32_t pressure, const IrFunc *ir);

#ifdef __cplusplus
}
#endif
#endif
