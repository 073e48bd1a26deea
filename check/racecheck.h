/*
 * check/racecheck.h: the race checker of `ptxemu sanitize --tool
 * racecheck`: hazards between accesses of different threads of one
 * launch that nothing orders, in shared memory (as compute-sanitizer's
 * racecheck) and in global memory (which it does not check).
 *
 * What is detected (per byte; the model is documented in README.md):
 *  - Two accesses to one byte, at least one a write, by threads of
 *    different warps, none of the pairs below: RAW (write then read),
 *    WAR (read then write), WAW (write then write).
 *  - Two lanes of one warp under independent thread scheduling
 *    (EMU_RECONV_ITS): a hazard as above when, at one of the two
 *    accesses, the other lane was not on the path that made it
 *    (diverged), and no bar.warp.sync naming both lanes
 *    (EMU_EV_WARPSYNC) nor CTA barrier was released between them.
 *  - Not hazards: accesses of one warp without independent thread
 *    scheduling (warp-synchronous), or in lock step (both lanes on the
 *    path at both accesses; one instruction's lanes); two atomics or
 *    other strong accesses (atom/red, mbarrier operations, and ld/st
 *    .volatile, .relaxed, .acquire, .release); a plain read and an
 *    atomic (the CAS loop's first guess); two writes of the same byte
 *    value (benign, as compute-sanitizer has them); accesses with a CTA
 *    barrier release between them that the first's warp arrived at and
 *    the second's waited at (same CTA; a named barrier with a thread
 *    count orders only the warps taking part); accesses such that the
 *    first was released and the second's thread acquired that release
 *    (PTX ISA, "Memory Consistency Model", release and acquire
 *    patterns): released by a fence (membar/fence, or a .release,
 *    .acq_rel or .sc operation; of .gpu or .sys scope when the CTAs
 *    differ) of its own thread after it, or of a thread of its CTA
 *    after a barrier of the whole CTA after it, or of a lane of its
 *    warp after a bar.warp.sync naming both (barriers are
 *    cumulative); acquired when the second's thread, or one whose
 *    acquires a later barrier or bar.warp.sync passed on to it, read
 *    with a strong access (an atomic, a volatile/relaxed/acquire load)
 *    a location whose last strong write published a fence at or after
 *    that release (its writer's last fence then; read-modify-writes
 *    add theirs, a release sequence).  Per warp without independent
 *    thread scheduling; per CTA for launches of over 16M threads.
 *    Approximations, all toward fewer reports: a thread's last two
 *    fences are kept (a write before both counts as released), the
 *    acquired release is one clock (which thread published it is not
 *    kept), and a barrier passes on the acquires of its whole CTA.
 *  - Not checked: asynchronous copies (cp.async, bulk, TMA), texture
 *    and surface accesses, another CTA's shared memory (shared::cluster),
 *    and accesses in different launches.  An mbarrier phase completing
 *    counts as a barrier of its CTA.
 *
 * Contract.
 *  - san_racecheck_new() attaches a client to the device; reports go
 *    through `out` (shared with other tools).  analysis: group hazards
 *    by location pair and print them at san_racecheck_finish() (with
 *    counts) instead of each pair at its first hazard.
 *  - Each distinct (kind, first location, second location) pair counts
 *    as one error.
 *  - Detach with san_racecheck_free() before freeing the device.
 */
#ifndef PTXEMU_CHECK_RACECHECK_H
#define PTXEMU_CHECK_RACECHECK_H

#include <stdbool.h>

#include "check/report.h"
#include "emu/exec.h"

typedef struct SanRacecheck SanRacecheck;

SanRacecheck *san_racecheck_new(EmuDevice *d, SanOut *out, bool analysis);
void san_racecheck_finish(SanRacecheck *r);
void san_racecheck_free(SanRacecheck *r);

#endif
