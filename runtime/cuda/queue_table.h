/*
 * runtime/cuda/queue_table.h: PTXEMU_QUEUE, a private export table of
 * our libcuda.so.1 (cuGetExportTable with the UUID below, one of ours)
 * for our libcudart.so.13: through it the runtime puts work of its own
 * on a stream (a graph launch, whose nodes then run on the device
 * worker) and takes the device lock (runtime/cuda/drv_queue.h).
 */
#ifndef PTXEMU_CUDA_QUEUE_TABLE_H
#define PTXEMU_CUDA_QUEUE_TABLE_H

#include <stddef.h>

#include "abi/cuda_abi.h"

/* "ptxemu-queue-v1" */
#define DRV_PTXEMU_QUEUE_UUID \
    {0x70, 0x74, 0x78, 0x65, 0x6d, 0x75, 0x2d, 0x71, \
     0x75, 0x65, 0x75, 0x65, 0x2d, 0x76, 0x31, 0x00}

typedef struct DrvQueueTable {
    size_t size;                        /* bytes of the table */
    /* fn(arg) on stream s, in stream order; fr(arg) once done or
     * dropped (drv_enqueue with a pointer argument) */
    CUresult (*enqueue)(CUstream s, CUresult (*fn)(void *), void *arg,
                        void (*fr)(void *));
    void (*dev_lock)(void);
    void (*dev_unlock)(void);
} DrvQueueTable;

#endif
