/*
 * runtime/graph/gmem.h: graph memory (CUDA programming guide, "Graph
 * Memory Nodes"), shared by our libcuda.so.1 (cuGraphAddMemAllocNode,
 * drv_graph.c) and our libcudart.so.13 (cudaGraphAddMemAllocNode,
 * rt_graph.c), each with a copy of its own.
 *
 * An allocation node's address is fixed when the node is made and stays
 * so across instantiations and launches: gmem reserves the address
 * range then (cuMemAddressReserve) and backs it with zeroed physical
 * memory (cuMemCreate, cuMemMap, cuMemSetAccess) while the allocation
 * lives: from the run of its allocation node to its free (a free node,
 * cuMemFreeAsync / cudaFree of it, or the next launch of a graph
 * instantiated to free on launch).  Outside that lifetime the range is
 * unmapped and any access faults, as on a GPU.  Reservations are never
 * given back (a destroyed graph's addresses are not reused); they hold
 * no memory.
 *
 * Errors are gph.h's GPH_E* or the driver's CUresult (equal to the
 * runtime's for these).  Thread-safe.
 */
#ifndef PTXEMU_GRAPH_GMEM_H
#define PTXEMU_GRAPH_GMEM_H

#include "abi/cuda_abi.h"

/* A new graph allocation of `bytes`, not live; *out its address. */
int gmem_reserve(size_t bytes, CUdeviceptr *out);
/* Whether a is the address of a graph allocation (live or not). */
int gmem_known(CUdeviceptr a);
/* The allocation node runs: backs a.  GPH_EINVAL if a is live (a graph
 * relaunched before it freed what it allocated). */
int gmem_alloc(CUdeviceptr a);
/* Frees the live allocation a (GPH_EINVAL if it is not one). */
int gmem_free(CUdeviceptr a);
/* Bytes of live allocations, and their high watermark; reserved memory
 * equals used memory (freed memory goes back at once).  gmem_reset_high
 * resets the watermark to the current value. */
void gmem_usage(uint64_t *used, uint64_t *high);
void gmem_reset_high(void);

/* Whether an allocation node's pool properties and access descriptors
 * are ones the emulator takes: pinned memory of device 0, no IPC handle
 * types ("IPC is not supported": GPH_ENOTSUP), at most one descriptor,
 * device 0 read-write.  0 or the error. */
int gmem_check(const CUmemPoolProps *pp, const CUmemAccessDesc *descs,
               size_t count);

/* Graph memory nodes of either library: both keep an allocation node's
 * CUDA_MEM_ALLOC_NODE_PARAMS (the runtime's cudaMemAllocNodeParams has
 * its layout) and a free node's address at the start of the node's
 * parameters. */
/* Runs an allocation or free node. */
int gmem_run(CUgraphNode n);
/* Whether g holds memory nodes (a child graph never does, gph.h). */
int gmem_graph_has_mem(CUgraph g);
/* Frees the live allocations of the allocation nodes of g, an
 * executable copy (a launch of a graph instantiated with
 * AUTO_FREE_ON_LAUNCH). */
void gmem_auto_free(CUgraph g);

#endif
