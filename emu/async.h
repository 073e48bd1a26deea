/*
 * emu/async.h: completion tokens of asynchronous operations, for the
 * step record (emu/exec.h, EmuStepRecord.async_token / wait_tokens).
 *
 * Contract.  The functional effect of an asynchronous operation is
 * complete when the instruction that starts it has run (as in
 * GPGPU-Sim's functional model); a timing model wants to delay the
 * matching wait until the operation's modelled completion.  So, while
 * steps are recorded (EmuCtx.rec != NULL; nothing is tracked on the
 * fast path), an instruction that starts an asynchronous operation gets
 * a token (non-zero, unique in the launch's device: the grid id in the
 * top 24 bits), and a wait instruction lists the tokens it depends on.
 * Tokens join channels:
 *  - EMU_CHAN_CP, per warp: cp.async joins the open group,
 *    cp.async.commit_group closes it, cp.async.wait_group N waits for
 *    every committed group but the newest N and retires them,
 *    cp.async.wait_all for every group, the open one included (PTX ISA
 *    9.7.9.25.3: wait_all is commit_group then wait_group 0).
 *  - EMU_CHAN_BULK, per warp: the bulk async-group (cp.async.bulk
 *    .bulk_group, TMA stores; commit_group, wait_group{.read} N).
 *  - EMU_CHAN_WGMMA, per warp: wgmma.mma_async, wgmma.commit_group,
 *    wgmma.wait_group N.
 *  - EMU_CHAN_MBAR, per mbarrier object: copies that complete_tx on it,
 *    explicit expect_tx/complete_tx, and cp.async.mbarrier.arrive (which
 *    brings along the warp's outstanding cp.async tokens) join its
 *    current phase; the phase flip closes it.  A test_wait/try_wait
 *    that succeeds depends on the last completed phase's tokens, one
 *    that fails on the current phase's.  mbarrier.init and .inval start
 *    the object afresh.
 * Groups are kept per warp, not per thread: a commit or wait by any
 * lanes of a warp commits or waits for the warp (programs commit and
 * wait warp-uniformly).
 */
#ifndef PTXEMU_EMU_ASYNC_H
#define PTXEMU_EMU_ASYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"

typedef struct EmuAsync EmuAsync;      /* a launch's channels */

typedef enum EmuAsyncChan {
    EMU_CHAN_CP = 1,
    EMU_CHAN_BULK,
    EMU_CHAN_WGMMA,
    EMU_CHAN_MBAR,
} EmuAsyncChan;

/* The channel id of the executing warp (CP, BULK, WGMMA) or of the
 * mbarrier whose word is at host pointer `word` (MBAR). */
uint64_t emu_async_warp_id(const EmuCtx *x);
static inline uint64_t emu_async_mbar_id(const void *word)
{
    return (uint64_t)(uintptr_t)word;
}

/* The current instruction starts an asynchronous operation that
 * belongs to channel (ch, id): its token (made on first use within the
 * step) joins the channel's open group. */
void emu_async_issue(EmuCtx *x, EmuAsyncChan ch, uint64_t id);
/* Close the open group of (ch, id). */
void emu_async_commit(EmuCtx *x, EmuAsyncChan ch, uint64_t id);
/* The instruction is a wait of kind `wait` (EmuWait, emu/insninfo.h) on
 * committed groups of (ch, id) but the newest `keep`, which it retires;
 * all = also the open group (commit first). */
void emu_async_wait(EmuCtx *x, unsigned wait, EmuAsyncChan ch, uint64_t id,
                    uint32_t keep, bool all);
/* mbarrier channel events: a phase flip; a test/try_wait that
 * succeeded (done) or not; init/inval (reset); and the transfer of the
 * executing warp's outstanding cp.async tokens (cp.async.mbarrier
 * .arrive). */
void emu_async_mbar_flip(EmuCtx *x, uint64_t id);
void emu_async_mbar_wait(EmuCtx *x, uint64_t id, bool done);
void emu_async_mbar_reset(EmuCtx *x, uint64_t id);
void emu_async_mbar_take_cp(EmuCtx *x, uint64_t id);

/* Free a launch's channels (emu_launch_end). */
void emu_async_free(EmuAsync *a);

#endif
