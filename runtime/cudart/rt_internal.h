/*
 * runtime/cudart/rt_internal.h: what the files of our libcudart.so.13
 * share.  The runtime is a layer over our driver API (libcuda.so.1):
 * it keeps the CUDA runtime's own state (the per-thread last error, the
 * sticky fault, the registered fat binaries, the launch configuration
 * stack) and turns every call into driver calls.
 */
#ifndef PTXEMU_CUDART_INTERNAL_H
#define PTXEMU_CUDART_INTERNAL_H

#include "abi/cuda_abi.h"
#include "runtime/cudart/cudart_abi.h"
#include "runtime/cudart/cudart_api.h"

/* Every entry point of the library. */
#define RT_API __attribute__((visibility("default")))
/* Another exported name for an entry point of the same file: the
 * per-thread-default-stream forms (_ptsz, _ptds) that behave as the
 * plain ones (those that only query, and the _ptds blocking copies,
 * whose legacy stream also waits for the per-thread one).  The _ptsz
 * forms whose stream takes work or captures are rt_ptsz.c's. */
#define RT_ALIAS(name, target) \
    extern __typeof__(target) name \
        __attribute__((alias(#target), visibility("default")))

/* Records e as the calling thread's last error when it is one, and
 * returns it (CUDA: every failing call sets the last error). */
cudaError_t rt_err(cudaError_t e);
/* `ptxemu sanitize --check-api-errors yes`: e, an error returned by the
 * entry point on the stack, is reported (rt_apierr.c). */
void rt_api_error(cudaError_t e);
/* The runtime error for a driver result (a table), recorded as above;
 * faults of a kernel become sticky. */
cudaError_t rt_cu(CUresult r);
/* The runtime error for a driver result, not recorded. */
cudaError_t rt_map(CUresult r);

/* Initialises the driver and makes the current device's primary context
 * current on the calling thread.  Returns cudaSuccess, the sticky fault
 * of an earlier launch, or the initialisation error (not recorded). */
cudaError_t rt_ctx(void);
/* As rt_ctx, recording a failure as the last error: most entry points
 * start with `if ((e = rt_enter()) != cudaSuccess) return e;`. */
cudaError_t rt_enter(void);
/* The current device of the calling thread (cudaSetDevice). */
int rt_device(void);
CUdevice rt_cudevice(void);
/* Clears the sticky fault (cudaDeviceReset). */
void rt_sticky_clear(void);
/* Marks e sticky when it is a kernel fault that corrupts the context on
 * real hardware (illegal address, trap, assert ...). */
void rt_sticky_note(cudaError_t e);
/* The sticky fault, cudaSuccess if none. */
cudaError_t rt_sticky(void);

/* The stream a runtime handle stands for in the driver: the legacy and
 * per-thread default streams are the driver's NULL stream. */
CUstream rt_stream(cudaStream_t s);
/* cudaSuccess for a live stream or a default one, else the error
 * (cudaErrorInvalidResourceHandle), recorded as the last error: what
 * every entry point taking a stream checks first. */
cudaError_t rt_stream_check(cudaStream_t s);
/* The stream a _ptsz entry point is given: there (nvcc --default-stream
 * per-thread) 0 is the calling thread's per-thread default stream. */
static inline cudaStream_t rt_ptsz(cudaStream_t s)
{
    return s ? s : cudaStreamPerThread;
}

/* Registered device code (rt_register.c). */
typedef struct rt_func rt_func;
/* The registered kernel whose host stub is `host` (or whose cudaKernel_t
 * handle is `host`), or NULL. */
rt_func *rt_func_lookup(const void *host);
/* Loads the kernel's module if needed and gives its driver function. */
cudaError_t rt_func_get(rt_func *f, CUfunction *out);
/* Forget every loaded module (cudaDeviceReset unloaded them). */
void rt_register_reset(void);
const char *rt_func_name(const rt_func *f);
/* The device address and size of the registered variable whose host
 * shadow is `host`. */
cudaError_t rt_var_get(const void *host, CUdeviceptr *addr, size_t *size);

/* CUDA graphs (rt_graph.c).  What one node does; the kernel arguments
 * and a child graph are the node's own copies. */
typedef union rt_node_params {
    struct cudaKernelNodeParams kernel;
    struct cudaMemcpy3DParms memcpy;
    struct cudaMemsetParams memset;
    struct cudaHostNodeParams host;
    cudaGraph_t child;
    cudaEvent_t event;          /* event record and wait nodes */
    struct {                    /* memory allocation nodes */
        struct cudaMemAllocNodeParams a;
        struct cudaMemAccessDesc desc;  /* a.accessDescs[0], if any */
    } alloc;
    void *free_ptr;             /* memory free nodes */
} rt_node_params;
/* How the runtime's graph nodes take their parameters (runtime/graph/
 * gph.h): a node's p holds an rt_node_params. */
extern const struct gph_ops rt_graph_ops;

/* What graph nodes run, without any capture in between (rt_launch.c,
 * rt_memory.c); errors not recorded. */
cudaError_t rt_launch_now(const void *func, dim3 grid, dim3 block,
                          void **args, size_t shmem, cudaStream_t s,
                          const CUlaunchAttribute *at, unsigned nat);
cudaError_t rt_memcpy_now(const struct cudaMemcpy3DParms *p);
/* A copy with a CUDA array on either side (rt_array.c). */
cudaError_t rt_memcpy_array(const struct cudaMemcpy3DParms *p);
cudaError_t rt_memset_now(const struct cudaMemsetParams *p);

/* Graph memory nodes (rt_graph_mem.c): checks a.poolProps and the
 * access descriptors of an allocation node's parameters, and reserves
 * its address unless p->a.dptr has one already (a copy of a node). */
cudaError_t rt_graph_alloc_set(rt_node_params *p);
/* Frees p if it is a live graph allocation (1), fails (-1) if it is
 * one no longer live, 0 if it is none (rt_pool.c). */
int rt_graph_mem_free(const void *p);
/* Stream capture (rt_capture.c). */
/* When s is capturing, adds a node doing p to its capture graph after
 * the stream's current dependencies, sets *taken and returns the result
 * (recorded); otherwise sets *taken to 0 and returns cudaSuccess. */
cudaError_t rt_capture_node(cudaStream_t s, enum cudaGraphNodeType type,
                            const rt_node_params *p, int *taken);
/* A kernel launch with the launch attributes at[nat] the node keeps
 * (cooperative, cluster dimension): as rt_capture_node. */
cudaError_t rt_capture_kernel(cudaStream_t s, const rt_node_params *p,
                              const CUlaunchAttribute *at, unsigned nat,
                              int *taken);
/* Event record and wait on capturing streams (fork and join): as
 * rt_capture_node. */
cudaError_t rt_capture_record(cudaEvent_t ev, cudaStream_t s, int *taken);
cudaError_t rt_capture_wait(cudaStream_t s, cudaEvent_t ev, unsigned flags,
                            int *taken);
void rt_capture_forget(cudaEvent_t ev);
/* cudaErrorCapturedEvent (recorded) if ev was recorded in a capture
 * still going on: it stands for graph nodes, not for work to wait on. */
cudaError_t rt_capture_event_check(cudaEvent_t ev);
/* Synchronising with a capturing stream invalidates its capture:
 * cudaErrorStreamCaptureUnsupported (recorded) if s captures. */
cudaError_t rt_capture_sync(cudaStream_t s);
/* cudaStreamDestroy(s) (gcap_stream_gone): a stream forked into a
 * capture leaves it; the origin of one is refused
 * (cudaErrorStreamCaptureUnsupported, recorded, capture invalidated). */
cudaError_t rt_capture_stream_gone(cudaStream_t s);
/* A potentially unsafe call (a blocking copy, an allocation ...) while
 * a capture forbids it (cudaStreamCaptureMode rules): the capture is
 * invalidated and the call fails with cudaErrorStreamCaptureUnsupported
 * (recorded). */
cudaError_t rt_capture_unsafe(void);

#endif
