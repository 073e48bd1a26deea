/*
 * runtime/cuda/drv_stream.c: streams and events.
 *
 * Work on a stream runs asynchronously, in stream order, on the device
 * worker (drv_queue.h): queries answer CUDA_ERROR_NOT_READY while work
 * is pending, synchronisations wait for it, host functions run on the
 * callback thread.  Events record, when their record is reached, the
 * host's monotonic clock, or the device's simulated time when a timing
 * model drives it.
 */
#include "config.h"

#include <stdlib.h>
#include <time.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_capture.h"
#include "runtime/cuda/drv_ipcev.h"
#include "runtime/cuda/drv_queue.h"

/* ------------------------------------------------------------ streams */

static CUresult stream_create(CUstream *ph, unsigned flags, int priority)
{
    CUcontext ctx;
    CUresult r = drv_ready(&ctx);
    if (r) {
        return r;
    }
    if (!ph || flags > CU_STREAM_NON_BLOCKING) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUstream s = calloc(1, sizeof(*s));
    if (!s) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    s->flags = flags;
    /* Clamped into the range cuCtxGetStreamPriorityRange gives. */
    s->priority = priority > 0 ? 0 : priority < -5 ? -5 : priority;
    s->ctx = ctx;
    s->id = drv_new_id();
    if (drv_queue_stream_new(s)) {
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (drv_handle_add(DRV_STREAM, s)) {
        drv_queue_stream_gone(s);
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *ph = s;
    return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    return drv_trace(stream_create(phStream, Flags, 0), "cuStreamCreate",
                     "%p, 0x%x", (void *)phStream, Flags);
}

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags,
                                    int priority)
{
    return drv_trace(stream_create(phStream, flags, priority),
                     "cuStreamCreateWithPriority", "%p, 0x%x, %d",
                     (void *)phStream, flags, priority);
}

static CUresult stream_destroy(CUstream s)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!drv_handle_valid(DRV_STREAM, s)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    CUresult r = drv_capture_stream_gone(s);
    if (r) {
        return r;
    }
    drv_handle_remove(DRV_STREAM, s);
    drv_queue_stream_gone(s);           /* its work still runs */
    free(s);
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream hStream)
{
    return drv_trace(stream_destroy(hStream), "cuStreamDestroy", "%p",
                     (void *)hStream);
}

CUresult cuStreamDestroy_v2(CUstream hStream)
{
    return drv_trace(stream_destroy(hStream), "cuStreamDestroy_v2", "%p",
                     (void *)hStream);
}

CUresult cuStreamSynchronize(CUstream hStream)
{
    CUresult r = drv_ready_stream(hStream);
    if (!r) {
        r = drv_capture_sync(hStream);
    }
    if (!r) {
        drv_queue_sync_stream(hStream);
        r = drv_synced(drv_current());
    }
    return drv_trace(r, "cuStreamSynchronize", "%p", (void *)hStream);
}

CUresult cuStreamQuery(CUstream hStream)
{
    CUresult r = drv_ready_stream(hStream);
    if (!r) {
        r = drv_capture_sync(hStream);
    }
    if (!r && !drv_queue_stream_idle(hStream)) {
        r = CUDA_ERROR_NOT_READY;
    }
    return drv_trace(r, "cuStreamQuery", "%p", (void *)hStream);
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
                           unsigned int Flags)
{
    CUresult r = drv_ready_stream(hStream);
    if (!r && !drv_handle_valid(DRV_EVENT, hEvent)) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r && Flags > CU_EVENT_WAIT_EXTERNAL) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        int taken;
        r = drv_capture_wait(hStream, hEvent, Flags, &taken);
        if (!r && !taken) {
            r = drv_enqueue_wait(hStream, hEvent);
        }
    }
    return drv_trace(r, "cuStreamWaitEvent", "%p, %p, 0x%x",
                     (void *)hStream, (void *)hEvent, Flags);
}

/* cuStreamAddCallback's callback, run as a host function: it gets its
 * stream and a status (CUDA_SUCCESS: a failure of earlier work is
 * reported by the next synchronisation). */
typedef struct Callback {
    CUstreamCallback fn;
    CUstream stream;
    void *data;
} Callback;

static void run_callback(void *p)
{
    Callback *cb = p;
    cb->fn(cb->stream, CUDA_SUCCESS, cb->data);
    free(cb);
}

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback,
                             void *userData, unsigned int flags)
{
    CUresult r = drv_ready_stream(hStream);
    if (!r && (!callback || flags)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        /* Not a graph node: a capture cannot take it (CUDA documents
         * cuLaunchHostFunc for captured host work). */
        r = drv_capture_sync(hStream);
    }
    Callback *cb = NULL;
    if (!r && !(cb = malloc(sizeof(*cb)))) {
        r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (!r) {
        cb->fn = callback;
        cb->stream = hStream;
        cb->data = userData;
        r = drv_enqueue_host(hStream, run_callback, cb);
        if (r) {
            free(cb);
        }
    }
    return drv_trace(r, "cuStreamAddCallback", "%p, %p, %p, 0x%x",
                     (void *)hStream, (void *)(uintptr_t)callback, userData,
                     flags);
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    CUresult r = drv_ready_stream(hStream);
    if (!r && !fn) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    int taken = 0;
    if (!r) {
        drv_node_params p;
        p.host.fn = fn;
        p.host.userData = userData;
        r = drv_capture_node(hStream, CU_GRAPH_NODE_TYPE_HOST, &p, &taken);
    }
    if (!r && !taken) {
        r = drv_enqueue_host(hStream, fn, userData);
    }
    return drv_trace(r, "cuLaunchHostFunc", "%p, %p, %p", (void *)hStream,
                     (void *)(uintptr_t)fn, userData);
}

/* The live stream s (NULL for the special ones). */
static CUresult stream_arg(CUstream s, CUstream *out)
{
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    *out = s && s != CU_STREAM_LEGACY && s != CU_STREAM_PER_THREAD ? s
                                                                   : NULL;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
    CUstream s;
    CUresult r = stream_arg(hStream, &s);
    if (!r && !flags) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *flags = s ? s->flags : CU_STREAM_DEFAULT;
    }
    return drv_trace(r, "cuStreamGetFlags", "%p, %p", (void *)hStream,
                     (void *)flags);
}

CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
    CUstream s;
    CUresult r = stream_arg(hStream, &s);
    if (!r && !priority) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *priority = s ? s->priority : 0;
    }
    return drv_trace(r, "cuStreamGetPriority", "%p, %p", (void *)hStream,
                     (void *)priority);
}

CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
    CUstream s;
    CUresult r = stream_arg(hStream, &s);
    if (!r && !pctx) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *pctx = s ? s->ctx : drv_current();
    }
    return drv_trace(r, "cuStreamGetCtx", "%p, %p", (void *)hStream,
                     (void *)pctx);
}

CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId)
{
    CUstream s;
    CUresult r = stream_arg(hStream, &s);
    if (!r && !streamId) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        /* The special streams: small fixed ids below every real one. */
        *streamId = s ? s->id + 16 : (unsigned long long)(uintptr_t)hStream;
    }
    return drv_trace(r, "cuStreamGetId", "%p, %p", (void *)hStream,
                     (void *)streamId);
}

CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device)
{
    CUstream s;
    CUresult r = stream_arg(hStream, &s);
    if (!r && !device) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        *device = 0;
    }
    return drv_trace(r, "cuStreamGetDevice", "%p, %p", (void *)hStream,
                     (void *)device);
}

CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr,
                                size_t length, unsigned int flags)
{
    CUresult r = drv_ready_stream(hStream);
    if (!r && (!dptr || (flags != CU_MEM_ATTACH_GLOBAL &&
                         flags != CU_MEM_ATTACH_HOST &&
                         flags != CU_MEM_ATTACH_SINGLE))) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    return drv_trace(r, "cuStreamAttachMemAsync", "%p, 0x%llx, %zu, 0x%x",
                     (void *)hStream, dptr, length, flags);
}

/* ------------------------------------------------------------ events */

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    CUresult r = drv_ready(NULL);
    if (!r && (!phEvent || Flags > 7u)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r && (Flags & CU_EVENT_INTERPROCESS) &&
        !(Flags & CU_EVENT_DISABLE_TIMING)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    CUevent e = NULL;
    if (!r && !(e = calloc(1, sizeof(*e)))) {
        r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (!r && (Flags & CU_EVENT_INTERPROCESS) &&
        !(e->ipc = drv_ipcev_new())) {
        free(e);
        r = CUDA_ERROR_OUT_OF_MEMORY;   /* no memfd for its shared state */
    }
    if (!r) {
        e->flags = Flags;
        if (drv_handle_add(DRV_EVENT, e)) {
            drv_ipcev_unref(e->ipc);
            free(e);
            r = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            *phEvent = e;
        }
    }
    return drv_trace(r, "cuEventCreate", "%p, 0x%x", (void *)phEvent, Flags);
}

static CUresult event_destroy(CUevent e)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!drv_handle_valid(DRV_EVENT, e)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    drv_handle_remove(DRV_EVENT, e);
    drv_capture_forget(e);
    drv_queue_event_gone(e);            /* pending records still run */
    free(e);
    return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent hEvent)
{
    return drv_trace(event_destroy(hEvent), "cuEventDestroy", "%p",
                     (void *)hEvent);
}

CUresult cuEventDestroy_v2(CUevent hEvent)
{
    return drv_trace(event_destroy(hEvent), "cuEventDestroy_v2", "%p",
                     (void *)hEvent);
}

static CUresult event_record(CUevent e, CUstream s, unsigned flags)
{
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    if (!drv_handle_valid(DRV_EVENT, e)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (flags > CU_EVENT_RECORD_EXTERNAL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    int taken;
    r = drv_capture_record(e, s, &taken);
    if (taken) {
        return r;
    }
    return drv_enqueue_record(s, e);
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    return drv_trace(event_record(hEvent, hStream, 0), "cuEventRecord",
                     "%p, %p", (void *)hEvent, (void *)hStream);
}

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream,
                                unsigned int flags)
{
    return drv_trace(event_record(hEvent, hStream, flags),
                     "cuEventRecordWithFlags", "%p, %p, 0x%x",
                     (void *)hEvent, (void *)hStream, flags);
}

CUresult cuEventQuery(CUevent hEvent)
{
    CUresult r = drv_ready(NULL);
    if (!r && !drv_handle_valid(DRV_EVENT, hEvent)) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r) {
        r = drv_capture_event_check(hEvent);
    }
    if (!r && !drv_queue_event_done(hEvent)) {
        r = CUDA_ERROR_NOT_READY;
    }
    return drv_trace(r, "cuEventQuery", "%p", (void *)hEvent);
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    CUresult r = drv_ready(NULL);
    if (!r && !drv_handle_valid(DRV_EVENT, hEvent)) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r) {
        r = drv_capture_event_check(hEvent);
    }
    if (!r) {
        drv_queue_sync_event(hEvent);
        r = drv_synced(drv_current());
    }
    return drv_trace(r, "cuEventSynchronize", "%p", (void *)hEvent);
}

static CUresult elapsed(float *ms, CUevent a, CUevent b)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!ms) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!drv_handle_valid(DRV_EVENT, a) || !drv_handle_valid(DRV_EVENT, b)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (!a->rec || !b->rec) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    /* Either record not reached yet: CUDA_ERROR_NOT_READY. */
    uint64_t ta, tb;
    if (drv_queue_event_ns(a, &ta) || drv_queue_event_ns(b, &tb)) {
        return CUDA_ERROR_NOT_READY;
    }
    *ms = (float)(((double)tb - (double)ta) / 1e6);
    return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart,
                            CUevent hEnd)
{
    return drv_trace(elapsed(pMilliseconds, hStart, hEnd),
                     "cuEventElapsedTime", "%p, %p, %p",
                     (void *)pMilliseconds, (void *)hStart, (void *)hEnd);
}

CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart,
                               CUevent hEnd)
{
    return drv_trace(elapsed(pMilliseconds, hStart, hEnd),
                     "cuEventElapsedTime_v2", "%p, %p, %p",
                     (void *)pMilliseconds, (void *)hStart, (void *)hEnd);
}

/* The per-thread default stream variants (_ptds, _ptsz) that behave as
 * the plain ones: queries, stream-ordered allocation (whose free waits
 * for its stream anyway) and the blocking copies and memsets, whose
 * legacy stream also waits for the per-thread one.  The forms that put
 * work on a stream are drv_ptsz.c's. */
DRV_ALIAS(cuStreamAttachMemAsync_ptsz, cuStreamAttachMemAsync)
DRV_ALIAS(cuStreamGetCtx_ptsz, cuStreamGetCtx)
DRV_ALIAS(cuStreamGetDevice_ptsz, cuStreamGetDevice)
DRV_ALIAS(cuStreamGetFlags_ptsz, cuStreamGetFlags)
DRV_ALIAS(cuStreamGetId_ptsz, cuStreamGetId)
DRV_ALIAS(cuStreamGetPriority_ptsz, cuStreamGetPriority)
