/*
 * emu/its.h: independent thread scheduling (its.c), the reconvergence
 * mode EMU_RECONV_ITS.
 *
 * Contract:
 *  - emu_simt_backedge(x) runs after a bra to an earlier pc (a loop back
 *    edge, where ptxas places YIELD) has been executed.  The TOS path
 *    spins when it took the same back edge before with nothing changed
 *    (its registers, its pc and mask, its CTA's progress), or, in a
 *    loop that polls memory, on the third round trip in a row in which
 *    only its registers changed, by the same steps each time (a retry
 *    counter).  A spinning path is recorded (EmuWarp.its_spin_mask: the
 *    watchdog reports a grid whose warps all spin, in both modes) and,
 *    under ITS only, gives way to a sibling path not yet at their
 *    reconvergence point, if any.
 *  - emu_its_sync(), emu_its_warpsync(): below.
 *  - emu_its_release(w): the grid has been quiet for EMU_ITS_QUIET
 *    rounds; if w's running path has no sibling left and other lanes
 *    wait for it at its reconvergence point, those lanes continue as a
 *    path of their own, run next (reconvergence then happens one level
 *    further out); returns whether it did.
 */
#ifndef PTXEMU_EMU_ITS_H
#define PTXEMU_EMU_ITS_H

#include "emu/exec.h"

/* The first compute capability with independent thread scheduling
 * (Volta, sm_70: CUDA C++ Programming Guide, "Independent Thread
 * Scheduling"); EMU_RECONV_DEFAULT picks ITS from it on. */
#define EMU_ITS_MIN_ARCH 70u

/* The mode of a module's launches.  An explicit mode (--reconvergence,
 * EmuDevice.reconv_forced) holds for every module.  Otherwise ITS needs
 * both the device's arch and the module's .target to be sm_70 or newer:
 *  - a device before sm_70 has no independent thread scheduling, so
 *    IPDOM whatever the PTX targets;
 *  - PTX for .target sm_6x or older runs IPDOM on a newer device too:
 *    CUDA's opt-in to Pascal's scheduling on Volta is compiling for
 *    compute_60 and running on sm_70 (Volta Tuning Guide, "Independent
 *    Thread Scheduling"), and the PTX ISA gives sm_6x targets the
 *    converged semantics of the .sync operations ("For .target sm_6x or
 *    below, all threads in membermask must execute the same
 *    bar.warp.sync instruction in convergence", likewise shfl.sync,
 *    vote.sync);
 *  - a module without an sm_XX .target follows the device.
 * The target is the first sm_XX of the .target list (suffixes such as
 * sm_90a count as their number). */
EmuReconvergence emu_its_module_mode(const EmuDevice *d,
                                     const IrModule *ir);

/* Scheduler rounds without progress before emu_its_release. */
#define EMU_ITS_QUIET 16

void emu_simt_backedge(EmuCtx *x);
/* The .sync warp operations under ITS (PTX ISA, shfl.sync, vote.sync,
 * match.sync, redux.sync: the executing thread waits "until all
 * non-exited threads corresponding to membermask have executed" the
 * operation; bar.warp.sync likewise).  `exec` are the lanes of the TOS
 * path that execute it now, mm its membermask operand (read per lane).
 *  - A lane whose own membermask leaves it out: an
 *    EMU_ERR_ILLEGAL_INSTRUCTION fault naming the lane and the mask.
 *  - Exited lanes and lanes that do not exist are not waited for.
 *  - emu_its_sync (shfl, vote, match, redux): when members are missing
 *    from the path, siblings waiting at the same instruction join it and
 *    the joined path executes it again; siblings waiting at another
 *    instruction with the same opcode, qualifiers and membermask (the
 *    ISA asks for the same instruction only of .target sm_6x) execute
 *    it once with the path, each lane with its own operands; otherwise
 *    the path waits at the instruction (EmuWarp.its_parked) while a
 *    sibling that can run does.  Different operations never satisfy
 *    each other.
 *    Returns true when the operation executes now for `exec`.
 *  - emu_its_warpsync (bar.warp.sync): as before, the path waits past
 *    the instruction while a sibling holding missing members runs until
 *    it executes any bar.warp.sync.
 *  - Members that cannot arrive (waiting at the reconvergence point for
 *    this path, at another .sync operation, or outside this divergent
 *    region): an EMU_ERR_ILLEGAL_INSTRUCTION fault saying where they
 *    are (never a hang).
 *  Under IPDOM none of this runs: the operation executes with the lanes
 *  present, as before. */
bool emu_its_sync(EmuCtx *x, const EmuOpnd *mm, uint32_t exec);
bool emu_its_warpsync(EmuCtx *x, const EmuOpnd *mm, uint32_t exec);
bool emu_its_release(EmuWarp *w);

#endif
