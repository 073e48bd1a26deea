/*
 * runtime/cuda/drv_quiet.h: whether the host program could be writing
 * host-visible memory while a kernel runs (drv_quiet.c).  Internal to
 * libcuda.so.1.
 *
 * Contract.  The emulator's watchdog asks, for a kernel that reads
 * managed or registered host memory and repeats its state, whether any
 * host thread may have written that memory meanwhile
 * (ptxemu_set_host_stamp).  No host thread can when every thread of the
 * process is either one of ours that never runs the program's code (the
 * device worker, the callback thread between host functions, the
 * emulator's CTA threads) or blocked in a synchronising CUDA call
 * waiting for the device (or running the kernel itself, with
 * synchronous streams).  Threads that never call CUDA count as writers,
 * so a flag set by such a thread is never mistaken for a livelock; so
 * do the threads waiting for another process's record of an
 * interprocess event (drv_queue.c's ipc_waiter), since that process may
 * record at any time and release a host thread waiting for the stream.
 *
 * A host function ready to run counts as running (the callback thread
 * is about to run it), and no thread may be runnable besides the
 * kernel's and the emulator's CTA threads (proc(5)'s state R): a thread
 * still counted but about to run is caught that way too.
 *
 * The stamp changes each time a counted thread stops being counted
 * (a wait returns, a host function starts), so two equal stamps mean no
 * host thread ran in between.  Counters are updated before a thread
 * becomes a possible writer and after it stops being one.
 */
#ifndef PTXEMU_CUDA_DRV_QUIET_H
#define PTXEMU_CUDA_DRV_QUIET_H

#include <stdint.h>

/* Once, before any thread of ours starts: a forked child starts its
 * counts afresh. */
void drv_quiet_init(void);
/* A thread of ours starts (+1) or ends (-1), or the callback thread
 * leaves (-1) or re-enters (+1) the program's code. */
void drv_quiet_ours(int delta);
/* A host thread starts or stops waiting for the device inside a CUDA
 * call (or running device work on its own thread).  A wait for a queue
 * item ends when the item completes, not when the waiter runs again
 * (drv_quiet_wait_released, by the completer, for all its waiters): a
 * waiter whose item is done is about to run the program's code, however
 * long the host takes to schedule it. */
void drv_quiet_wait_begin(void);
void drv_quiet_wait_end(void);
void drv_quiet_wait_released(unsigned n);
/* The stamp (ptxemu_set_host_stamp): -1 when some host thread may run
 * the program's code now. */
int64_t drv_quiet_stamp(void *arg);

#endif
