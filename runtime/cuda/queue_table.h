/*
 * runtime/cuda/queue_table.h: PTXEMU_QUEUE, a private export table of
 * our libcuda.so.1 (cuGetExportTable with the UUID below, one of ours)
 * for our libcudart.so.13: through it the runtime puts work of its own
 * on a stream (a graph launch, whose nodes then run on the device
 * worker, its host nodes on the callback thread, its event record and
 * wait nodes as the stream's records and waits) and takes the device
 * lock (runtime/cuda/drv_queue.h).
 */
#ifndef PTXEMU_CUDA_QUEUE_TABLE_H
#define PTXEMU_CUDA_QUEUE_TABLE_H

#include <stddef.h>

#include "abi/cuda_abi.h"

/* "ptxemu-queue-v3" */
#define DRV_PTXEMU_QUEUE_UUID \
    {0x70, 0x74, 0x78, 0x65, 0x6d, 0x75, 0x2d, 0x71, \
     0x75, 0x65, 0x75, 0x65, 0x2d, 0x76, 0x33, 0x00}

/* What a step is besides device work or a host function: an event
 * record or an event wait, as cuEventRecord and cuStreamWaitEvent put
 * on the stream at that point (a graph's event record and wait nodes). */
enum { DRV_STEP_WORK = 0, DRV_STEP_RECORD = 1, DRV_STEP_WAIT = 2 };

/* One step of a sequence of stream work (drv_enqueue_seq): device work
 * fn(arg) on the device worker or, fn NULL, a host function host(arg)
 * on the callback thread; or (mark not DRV_STEP_WORK) a record of, or a
 * wait for, `event`.  fr(arg), when not NULL, once the step is done or
 * dropped (a mark's: once it is on the stream). */
typedef struct DrvStep {
    CUresult (*fn)(void *arg);
    void (*host)(void *arg);
    void *arg;
    void (*fr)(void *arg);
    int mark;
    CUevent event;
} DrvStep;

typedef struct DrvQueueTable {
    size_t size;                        /* bytes of the table */
    /* steps[0..n) on stream s, one after another (drv_enqueue_seq) */
    CUresult (*enqueue_seq)(CUstream s, const DrvStep *steps, size_t n);
    void (*dev_lock)(void);
    void (*dev_unlock)(void);
} DrvQueueTable;

#endif
