/*
 * runtime/cuda/drv_ipcev.h: the shared completion state of an
 * interprocess event (drv_ipcev.c).  Internal to libcuda.so.1.
 *
 * Contract.  An event made with CU_EVENT_INTERPROCESS keeps, besides
 * its local record (drv_queue.h), a page in a memfd that every process
 * holding the event maps: the generation of its last record, the
 * highest generation completed, and the pid of the last recorder.  A
 * record (in any process) takes the next generation; its completion
 * raises the completed generation and wakes waiters (a shared futex).
 * A generation is done once the completed one has reached it, or when
 * the process that made the last record has exited without completing
 * it (it never will: waiting on it returns rather than hang).  An
 * opened copy stays readable after the exporter has exited (the
 * mapping keeps the page).  Handles are counted; every call is
 * thread-safe.
 */
#ifndef PTXEMU_CUDA_DRV_IPCEV_H
#define PTXEMU_CUDA_DRV_IPCEV_H

#include <stdint.h>

typedef struct DrvIpcEv DrvIpcEv;

/* A new page (the exporter's), NULL on failure. */
DrvIpcEv *drv_ipcev_new(void);
/* The page mapped by `map` (DRV_IPCEV_BYTES bytes, another process's),
 * NULL when it is NULL or not one of ours; the handle owns the
 * mapping. */
DrvIpcEv *drv_ipcev_adopt(void *map);
#define DRV_IPCEV_BYTES 4096u
/* The memfd (-1 for an adopted page, or once unexported). */
int drv_ipcev_fd(DrvIpcEv *v);
/* The event is destroyed: its handle no longer opens (the memfd
 * closes), though pending records still complete on the page. */
void drv_ipcev_unexport(DrvIpcEv *v);
void drv_ipcev_ref(DrvIpcEv *v);
void drv_ipcev_unref(DrvIpcEv *v);

/* A record: its generation. */
uint32_t drv_ipcev_record(DrvIpcEv *v);
/* The record of generation gen has completed. */
void drv_ipcev_complete(DrvIpcEv *v, uint32_t gen);
/* The generation of the last record (0: never recorded). */
uint32_t drv_ipcev_last(const DrvIpcEv *v);
/* Whether generation gen is done; waits until it is. */
int drv_ipcev_done(const DrvIpcEv *v, uint32_t gen);
void drv_ipcev_wait(const DrvIpcEv *v, uint32_t gen);

#endif
