/*
 * runtime/cudart/rt_stream.c: streams, events and host callbacks, as
 * thin layers over the driver's (cudaStream_t and cudaEvent_t are the
 * driver's handles, as in CUDA).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"

CUstream rt_stream(cudaStream_t s)
{
    if (s == cudaStreamLegacy)
        return NULL;
    if (s == cudaStreamPerThread)
        return CU_STREAM_PER_THREAD;
    return (CUstream)s;
}

cudaError_t rt_stream_check(cudaStream_t s)
{
    unsigned flags;
    CUresult r = cuStreamGetFlags(rt_stream(s), &flags);
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

static cudaError_t done(CUresult r)
{
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

/* Queries answer cudaErrorNotReady without it becoming the last
 * error (CUDA documents it as "not an error"). */
static cudaError_t query_done(CUresult r)
{
    return r == CUDA_ERROR_NOT_READY ? cudaErrorNotReady : done(r);
}

/* Synchronising with a capturing stream fails and ends its capture. */
#define NOT_CAPTURING(s) do { \
        cudaError_t c_ = rt_capture_sync(s); \
        if (c_ != cudaSuccess) \
            return c_; \
    } while (0)

/* An event recorded in a capture cannot be waited for. */
#define NOT_CAPTURED(ev) do { \
        cudaError_t c_ = rt_capture_event_check(ev); \
        if (c_ != cudaSuccess) \
            return c_; \
    } while (0)

#define ENTER() do { \
        cudaError_t e_ = rt_enter(); \
        if (e_ != cudaSuccess) \
            return e_; \
    } while (0)

RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s,
                                                unsigned flags, int prio)
{
    if (!s)
        return rt_err(cudaErrorInvalidValue);
    ENTER();
    CUstream cs = NULL;
    CUresult r = cuStreamCreateWithPriority(&cs, flags, prio);
    *s = (cudaStream_t)cs;
    return done(r);
}

RT_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    return cudaStreamCreateWithPriority(s, flags, 0);
}

RT_API cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    return cudaStreamCreateWithPriority(s, cudaStreamDefault, 0);
}

RT_API cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    ENTER();
    if (!rt_stream(s) || s == cudaStreamPerThread)
        return rt_err(cudaErrorInvalidResourceHandle);
    cudaError_t e = rt_stream_check(s);
    if (e == cudaSuccess)
        e = rt_capture_stream_gone(s);
    return e != cudaSuccess ? e : done(cuStreamDestroy_v2(rt_stream(s)));
}

/* Work that a capturing stream takes as a graph node or an edge
 * (rt_capture.c) instead of doing it. */
#define CAPTURED(call) do { \
        int taken_; \
        cudaError_t c_ = (call); \
        if (taken_) \
            return c_; \
    } while (0)

RT_API cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    ENTER();
    NOT_CAPTURING(s);
    return done(cuStreamSynchronize(rt_stream(s)));
}

RT_API cudaError_t cudaStreamQuery(cudaStream_t s)
{
    ENTER();
    NOT_CAPTURING(s);
    return query_done(cuStreamQuery(rt_stream(s)));
}

RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t ev,
                                       unsigned flags)
{
    ENTER();
    CAPTURED(rt_capture_wait(s, ev, flags, &taken_));
    return done(cuStreamWaitEvent(rt_stream(s), (CUevent)ev, flags));
}

RT_API cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags)
{
    if (!flags)
        return rt_err(cudaErrorInvalidValue);
    ENTER();
    return done(cuStreamGetFlags(rt_stream(s), flags));
}

RT_API cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio)
{
    if (!prio)
        return rt_err(cudaErrorInvalidValue);
    ENTER();
    return done(cuStreamGetPriority(rt_stream(s), prio));
}

RT_API cudaError_t cudaStreamGetDevice(cudaStream_t s, int *dev)
{
    (void)s;
    if (!dev)
        return rt_err(cudaErrorInvalidValue);
    ENTER();
    *dev = rt_device();
    return cudaSuccess;
}

RT_API cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn,
                                      void *data)
{
    if (!fn)
        return rt_err(cudaErrorInvalidValue);
    ENTER();
    rt_node_params p;
    memset(&p, 0, sizeof p);
    p.host.fn = fn;
    p.host.userData = data;
    CAPTURED(rt_capture_node(s, cudaGraphNodeTypeHost, &p, &taken_));
    return done(cuLaunchHostFunc(rt_stream(s), fn, data));
}

/* cudaStreamAddCallback's callback also gets the stream and a status
 * (always cudaSuccess: a failed stream reports at synchronisation). */
typedef struct rt_callback {
    cudaStreamCallback_t fn;
    cudaStream_t stream;
    void *data;
} rt_callback;

static void run_callback(void *p)
{
    rt_callback *cb = p;
    cb->fn(cb->stream, cudaSuccess, cb->data);
    free(cb);
}

RT_API cudaError_t cudaStreamAddCallback(cudaStream_t s,
                                         cudaStreamCallback_t fn,
                                         void *data, unsigned flags)
{
    if (!fn || flags != 0)
        return rt_err(cudaErrorInvalidValue);
    ENTER();
    /* Not capturable (CUDA: use cudaLaunchHostFunc). */
    NOT_CAPTURING(s);
    rt_callback *cb = malloc(sizeof *cb);
    if (!cb)
        return rt_err(cudaErrorMemoryAllocation);
    cb->fn = fn;
    cb->stream = s;
    cb->data = data;
    CUresult r = cuLaunchHostFunc(rt_stream(s), run_callback, cb);
    if (r != CUDA_SUCCESS)
        free(cb);
    return done(r);
}

/* ---------------------------------------------------------- events */

RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned flags)
{
    if (!ev)
        return rt_err(cudaErrorInvalidValue);
    ENTER();
    CUevent ce = NULL;
    CUresult r = cuEventCreate(&ce, flags);
    *ev = (cudaEvent_t)ce;
    return done(r);
}

RT_API cudaError_t cudaEventCreate(cudaEvent_t *ev)
{
    return cudaEventCreateWithFlags(ev, cudaEventDefault);
}

RT_API cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
    ENTER();
    rt_capture_forget(ev);
    return done(cuEventDestroy_v2((CUevent)ev));
}

RT_API cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s)
{
    ENTER();
    CAPTURED(rt_capture_record(ev, s, &taken_));
    return done(cuEventRecord((CUevent)ev, rt_stream(s)));
}

RT_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s,
                                            unsigned flags)
{
    ENTER();
    CAPTURED(rt_capture_record(ev, s, &taken_));
    return done(cuEventRecordWithFlags((CUevent)ev, rt_stream(s), flags));
}

RT_API cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
    ENTER();
    NOT_CAPTURED(ev);
    return done(cuEventSynchronize((CUevent)ev));
}

RT_API cudaError_t cudaEventQuery(cudaEvent_t ev)
{
    ENTER();
    NOT_CAPTURED(ev);
    return query_done(cuEventQuery((CUevent)ev));
}

RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                        cudaEvent_t end)
{
    if (!ms)
        return rt_err(cudaErrorInvalidValue);
    ENTER();
    /* cudaErrorNotReady while either record is pending: not an error
     * either. */
    return query_done(cuEventElapsedTime_v2(ms, (CUevent)start,
                                            (CUevent)end));
}

/* Stream attributes (the access-policy window, synchronization policy,
 * priority, memory sync domain and map): recorded by the driver
 * (runtime/cuda/drv_sattr.c); the value unions are the same 64 bytes. */
RT_API cudaError_t cudaStreamSetAttribute(cudaStream_t s,
                                          cudaLaunchAttributeID attr,
                                          const cudaLaunchAttributeValue *v)
{
    ENTER();
    return done(cuStreamSetAttribute(rt_stream(s), (CUlaunchAttributeID)attr,
                                     (const CUlaunchAttributeValue *)v));
}

RT_API cudaError_t cudaStreamGetAttribute(cudaStream_t s,
                                          cudaLaunchAttributeID attr,
                                          cudaLaunchAttributeValue *v)
{
    ENTER();
    return done(cuStreamGetAttribute(rt_stream(s), (CUlaunchAttributeID)attr,
                                     (CUlaunchAttributeValue *)v));
}

RT_API cudaError_t cudaStreamCopyAttributes(cudaStream_t dst,
                                            cudaStream_t src)
{
    ENTER();
    return done(cuStreamCopyAttributes(rt_stream(dst), rt_stream(src)));
}

RT_API cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id)
{
    if (!id)
        return rt_err(cudaErrorInvalidValue);
    ENTER();
    return done(cuStreamGetId(rt_stream(s), id));
}

/* Per-thread default stream forms. */
RT_ALIAS(cudaStreamGetDevice_ptsz, cudaStreamGetDevice);
RT_ALIAS(cudaStreamGetFlags_ptsz, cudaStreamGetFlags);
RT_ALIAS(cudaStreamGetPriority_ptsz, cudaStreamGetPriority);
RT_ALIAS(cudaStreamGetId_ptsz, cudaStreamGetId);
RT_ALIAS(cudaStreamSetAttribute_ptsz, cudaStreamSetAttribute);
RT_ALIAS(cudaStreamGetAttribute_ptsz, cudaStreamGetAttribute);
RT_ALIAS(cudaStreamCopyAttributes_ptsz, cudaStreamCopyAttributes);
