/*
 * runtime/cuda/drv_queue.h: asynchronous streams (drv_queue.c).
 * Internal to libcuda.so.1.
 *
 * Contract.  Work put on a stream (a kernel, an asynchronous copy or
 * memset, an event record, a wait on an event, a host function, a graph
 * launch) returns to the host at once and runs later on one device
 * worker thread, in stream order, as the CUDA programming guide's
 * "Asynchronous Concurrent Execution" describes:
 *   - each stream runs its work in the order it was put there;
 *   - the legacy default stream (NULL, CU_STREAM_LEGACY) waits for all
 *     earlier work of the context's blocking streams, and a blocking
 *     stream waits for all earlier work of the legacy stream; streams
 *     made with CU_STREAM_NON_BLOCKING do neither;
 *   - CU_STREAM_PER_THREAD is each host thread's own blocking stream;
 *   - a wait on an event (cuStreamWaitEvent) holds back later work of
 *     the stream until the event's last record, as of the wait call,
 *     has completed; a wait on an event never recorded waits for
 *     nothing;
 *   - host functions (cuLaunchHostFunc, cuStreamAddCallback) run on a
 *     callback thread of their own, one at a time, and hold back only
 *     their own stream while they run.
 * The worker holds the device lock (drv_dev_lock) while it runs one
 * item and lets go of it between items; host-side code that touches
 * what items touch takes it too.
 *
 * A failure of an item that does not return to its caller is recorded
 * on its context: a kernel fault becomes the context's sticky error
 * (drv_fault), anything else is returned once by the next
 * synchronising call (drv_queue_take_error).
 *
 * Items run immediately, on the calling thread, instead (the old
 * synchronous behaviour): on the worker thread itself (a graph launch's
 * nodes) and, for debugging, everywhere when PTXEMU_SYNC_STREAMS=1.
 */
#ifndef PTXEMU_CUDA_DRV_QUEUE_H
#define PTXEMU_CUDA_DRV_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/queue_table.h"

/* One item's device work: runs with the device lock held and the
 * item's context current; returns its result. */
typedef CUresult (*DrvItemFn)(void *arg);

/* Puts fn(arg) on stream s (0, a special handle or a live stream,
 * already checked).  arg is `size` bytes, copied into the item (size 0:
 * the pointer itself is passed, and fr(arg), when fr is not NULL, is
 * called once the item is done or dropped).  Returns CUDA_SUCCESS, or,
 * when the item ran immediately, its result (a kernel fault, which is
 * sticky, is not returned to the launch: CUDA reports it at the next
 * synchronisation). */
/* Whether a host function is ready to run (the callback thread is about
 * to run the program's code); -1 when the queues' lock is busy (it is
 * only tried: the livelock rule asks from inside a kernel). */
int drv_queue_host_ready(void);
CUresult drv_enqueue(CUstream s, DrvItemFn fn, const void *arg, size_t size,
                     void (*fr)(void *));
/* Puts a host function on stream s: fn(data) runs on the callback
 * thread once every earlier item of s is done. */
CUresult drv_enqueue_host(CUstream s, void (*fn)(void *), void *data);
/* Puts steps[0..n) (queue_table.h) on stream s one after another, with
 * no other work of s between them (a graph launch: its device work, its
 * host nodes, its event records and waits, each as drv_enqueue_record
 * and drv_enqueue_wait at that point).  Returns as drv_enqueue does;
 * run immediately, the first failing step's result;
 * CUDA_ERROR_INVALID_HANDLE, putting none, if a step's event is not
 * live.  On a failure to put them there, every step's fr is called
 * (the steps already put still run). */
CUresult drv_enqueue_seq(CUstream s, const DrvStep *steps, size_t n);
/* Records event e on s (its time stamp is taken when the record is
 * reached), and makes later work of s wait for e's last record. */
CUresult drv_enqueue_record(CUstream s, CUevent e);
CUresult drv_enqueue_wait(CUstream s, CUevent e);

/* Waits until every item of s put there so far is done (for the legacy
 * stream, with its implicit synchronisation), every item of ctx (of
 * every context: NULL), or e's last record. */
void drv_queue_sync_stream(CUstream s);
void drv_queue_sync_ctx(CUcontext ctx);
void drv_queue_sync_event(CUevent e);
/* Whether s has no work left; whether e's last record is done. */
int drv_queue_stream_idle(CUstream s);
int drv_queue_event_done(CUevent e);
/* e's last record's time stamp, when done (returns 0), else -1. */
int drv_queue_event_ns(CUevent e, uint64_t *ns);
/* cuEventDestroy: forgets e's record and lets go of its shared page
 * (pending work is not touched).  An interprocess event (e->ipc,
 * drv_ipcev.h) records, completes, is queried and waited for through
 * its shared page too, so that records made by another process count:
 * a wait on one (cuStreamWaitEvent) holds back the stream, not the
 * worker. */
void drv_queue_event_gone(CUevent e);

/* Stream life: the queue behind a new stream; a destroyed stream's
 * queue goes once its work is done (CUDA: cuStreamDestroy returns at
 * once). */
int drv_queue_stream_new(CUstream s);
void drv_queue_stream_gone(CUstream s);

/* cuCtxDestroy, a primary context's reset: waits for ctx's work, then
 * its legacy and per-thread streams go. */
void drv_queue_ctx_gone(CUcontext ctx);

/* The error of a failed item of ctx not yet reported (CUDA_SUCCESS if
 * none), cleared by the call. */
CUresult drv_queue_take_error(CUcontext ctx);

/* Whether items run on the calling thread (the worker, or
 * PTXEMU_SYNC_STREAMS=1, or after drv_queue_stop). */
int drv_queue_immediate(void);
/* At exit, once the work is done (drv_at_exit): later work runs on the
 * calling thread, and the worker threads end and are joined (their
 * memory goes, which leak checkers would otherwise report); one still
 * inside an item (a kernel that never ends, a blocked host function) is
 * not waited for. */
void drv_queue_stop(void);

/* A synchronisation point's flush of device printf (the output of the
 * kernels done so far): now, unless the worker is running an item (a
 * kernel holds the emulator), then by the worker once that item is
 * done; never waits for a kernel. */
void drv_queue_flush(void);
/* Waits for every context's work, then flushes (what a call that frees
 * or changes device state, such as an array, does first). */
void drv_queue_idle(void);

/* The device lock (recursive for the thread that holds it). */
void drv_dev_lock(void);
void drv_dev_unlock(void);

#endif
