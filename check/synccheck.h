/*
 * check/synccheck.h: the synchronisation checker of `ptxemu sanitize
 * --tool synccheck`.
 *
 * What is detected:
 *  - A CTA barrier that must be reached by whole warps (bar.sync,
 *    bar.red, bar.arrive and the barrier.*.aligned forms, PTX ISA
 *    "Parallel Synchronization and Communication Instructions: bar,
 *    barrier") executed by part of a warp's live lanes (divergent code,
 *    or a guard false in some lanes).
 *  - A barrier with a thread count that differs from the count another
 *    warp gave for the same barrier in the same round.
 *  - A barrier without a thread count that not every warp of the CTA
 *    reached as many times as the others before the CTA ended (a
 *    __syncthreads() that some threads skip).
 *  - bar.warp.sync, shfl.sync, vote.sync, match.sync, redux.sync and
 *    elect.sync whose member mask does not include the executing lane
 *    (undefined, PTX ISA "shfl.sync").  A mask naming exited lanes, or
 *    lanes that exit without executing the instruction, is allowed (CUDA
 *    C++ Programming Guide: "all non-exited threads named in mask must
 *    execute the same intrinsic"), and is not reported.
 *  - Threads that never arrive: when the launch deadlocks
 *    (EMU_EV_DEADLOCK), each CTA barrier with waiting warps is one error
 *    naming its thread count, how many wait, and each warp that does not
 *    arrive with where it is (exited there, waiting at another barrier
 *    there, running there); and each warp with lanes that executed a
 *    bar.warp.sync (under independent thread scheduling, emu/its.h)
 *    whose other live members never come, with where those are.  A
 *    barrier whose count was already reported as inconsistent is not
 *    reported again.
 *  - .sync warp operations (shfl, vote, match, redux) under independent
 *    thread scheduling whose other live members never execute them:
 *    spinning elsewhere (the launch deadlocks) or waiting at another
 *    operation (the emulator stops the kernel, emu/its.h); one error
 *    naming the lanes that wait and where the missing ones are.
 *  - mbarrier misuse, which the emulator stops the kernel on
 *    (emu/ops_mbarrier.c; san_synccheck_fault): more arrivals than the
 *    current phase awaits (arrive counts exceeded), a wait with a state
 *    token older than the preceding phase, .noComplete completing a
 *    phase, an arrive_drop past the expected count, a tx-count out of
 *    range, an operation on a word that holds no initialised mbarrier.
 *  - Not checked: barrier.cluster, named barriers' id reuse with
 *    different participant sets, a try_wait.parity on a parity two
 *    phases old (the parity cannot tell).
 *
 * Contract.
 *  - san_synccheck_new() attaches a client that wants steps (slower
 *    than the access-only clients); reports go through `out`.  Each
 *    occurrence is one error; the first of each instruction and kind is
 *    printed, the others counted.
 *  - Detach with san_synccheck_free() before freeing the device.
 */
#ifndef PTXEMU_CHECK_SYNCCHECK_H
#define PTXEMU_CHECK_SYNCCHECK_H

#include "check/report.h"
#include "emu/exec.h"

typedef struct SanSynccheck SanSynccheck;

SanSynccheck *san_synccheck_new(EmuDevice *d, SanOut *out);
/* Also report a .sync warp operation whose member mask names lanes
 * that exited (off by default: the CUDA C++ Programming Guide allows
 * them, "all non-exited threads named in mask must execute the same
 * intrinsic", so the report flags suspect code, not an error). */
void san_synccheck_set_exited_lanes(SanSynccheck *s, bool on);
/* A launch of module mod stopped on fault f: reported when it is an
 * mbarrier instruction's illegal-instruction fault (mbarrier misuse). */
void san_synccheck_fault(SanSynccheck *s, const EmuFault *f,
                         const EmuModule *mod);
void san_synccheck_free(SanSynccheck *s);

#endif
