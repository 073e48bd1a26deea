/*
 * emu/pool.h: host threads that run the CTAs of one launch (the
 * parallel functional driver, emu/par.c), and the host primitives its
 * guest atomics need.
 *
 * Contract: the per-launch mutable state and who may touch it.
 * An audit of what the functional emulator shares between the CTAs of
 * one launch; the parallel driver keeps every row true.
 *
 *  - EmuLaunch counters and caches (emu/exec.h): insns (warp
 *    instructions), progress (the watchdog's), fault/faulted/fault_text,
 *    mhit (the access cache of emu/memory.c), start_ms, the printf buffer.
 *    Written by every step.  Each worker runs its CTAs against a private
 *    copy of the launch (EmuLaunch.worker), so the step path takes no
 *    lock; the driver sums insns and progress over the workers in worker
 *    order after they are joined.
 *  - %clock (EmuDevice.sm_clock, one counter per SM): CTA k runs on SM
 *    k mod SMs.  A worker starts CTA k only after CTA k - SMs has
 *    finished (a hand-off per SM), so every SM's counter sees the same
 *    CTAs in the same order as with one thread: %clock values are
 *    identical.  With the default 108 SMs the hand-off almost never
 *    waits.  %globaltimer reads the launch's instruction count, which is
 *    per worker: its values differ from one thread's (time, as on a GPU).
 *  - Faults: each worker keeps its lowest faulting CTA; no CTA above the
 *    lowest fault seen so far is started.  The driver reports the fault
 *    of the lowest CTA index, which is the one a single thread (CTAs one
 *    after another in linear order) reports; only then is it published
 *    to EmuDevice.last_fault.  CTAs above it that were already running
 *    finish or stop, and their printf output is discarded.
 *  - Device printf (emu/builtins.h): a worker's records are kept per CTA
 *    and appended to the launch's buffer in CTA order after the join,
 *    with the single-threaded drop rule, so the output is byte for byte
 *    that of one thread while the buffer does not overflow.
 *  - Guest atomics (atom, red, vector atom): host atomics of the same
 *    width (a compare-and-swap loop per lane, __atomic builtins), and
 *    128-bit ones under a lock striped by address (emu_atomic_lock), so
 *    their results stay exact.  Shared memory is private to its CTA.
 *  - Device memory table (emu/memory.c): read-only while CTAs run in
 *    parallel.  Device malloc/free insert into it, so a kernel whose
 *    module calls malloc, free or any other external function but
 *    vprintf and __assertfail (the device runtime: launches, streams,
 *    cudaMalloc) runs on one thread.
 *  - Runs on one thread, with the reason on EmuConfig.par_log: a timing
 *    model driving the launch (SM clocks, the model's state), attached
 *    clients (the checkers of `ptxemu sanitize`, statistics, tracing),
 *    cooperative launches (grid.sync needs all CTAs co-resident),
 *    clusters (distributed shared memory), child grids and the device
 *    runtime, an instruction limit (one count per launch) and the
 *    reconvergence trace (one stream in step order).
 *  - CTAs that spin waiting for a CTA not started yet (which may be
 *    the next CTA of the worker's own claim: workers take a few at a
 *    time, emu/par.c chunk_of): the scheduler's
 *    watchdog stops such a CTA (emu/grid.h, can_grow).  The pool then
 *    stops starting CTAs, and the rest of the launch (the stopped CTAs
 *    resident, then the CTAs not started, in linear order) runs on one
 *    thread with the scheduler's admission growth.
 *  - Determinism: a race-free program gives the same memory, printf
 *    output and fault report at any thread count.  In deterministic mode
 *    (the default; EmuConfig.fast false) global atomics and morally
 *    strong accesses (volatile, relaxed/acquire/release above CTA scope)
 *    also happen in CTA order (emu_par_atomic_turn, emu/par.c), so
 *    programs whose plain accesses do not race across CTAs give one
 *    thread's results; plain accesses that race across CTAs may still
 *    differ between runs.  In fast mode contended atomics land in any
 *    order.
 */
#ifndef PTXEMU_EMU_POOL_H
#define PTXEMU_EMU_POOL_H

#include <stdint.h>

/* Runs fn(ctx, k) for k = 0..n-1 at once: k = 0 on the calling thread,
 * the others on host threads the pool keeps for later calls (created on
 * first need, joined at exit when idle; a call made while another runs
 * gets threads of its own); returns when all have returned.  Returns how many ran
 * (fewer than n when the host refused threads: the work must not depend
 * on n).  Safe across fork(2): the child starts with no kept threads. */
typedef void (*EmuPoolFn)(void *ctx, unsigned worker);
unsigned emu_pool_run(unsigned n, EmuPoolFn fn, void *ctx);

/* The host's online cores (at least 1). */
unsigned emu_host_cores(void);
/* How many threads of emu_pool_run's exist now (kept ones and those
 * made for one job; not its callers): the emulator's own, which never
 * run the host program's code (the drop-in driver's livelock rule
 * counts the process's threads, runtime/cuda/drv_quiet.h). */
unsigned emu_pool_threads(void);

/* A lock striped by address, for host atomics wider than the host's
 * compare-and-swap (128-bit guest atomics). */
void emu_atomic_lock(const void *p);
void emu_atomic_unlock(const void *p);

#endif
