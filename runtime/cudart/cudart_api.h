/*
 * runtime/cudart/cudart_api.h: the CUDA runtime entry points our
 * libcudart.so.13 implements (the RT_API definitions of
 * runtime/cudart/rt_*.c, in file order), for the library itself and for
 * its tests.  The names and signatures are those of CUDA 13's runtime
 * API.
 */
#ifndef PTXEMU_CUDART_API_H
#define PTXEMU_CUDART_API_H

#include "runtime/cudart/cudart_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rt_device.c */
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int dev);
cudaError_t cudaInitDevice(int dev, unsigned dflags, unsigned flags);
cudaError_t cudaGetDevice(int *dev);
cudaError_t cudaSetValidDevices(int *devs, int n);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned *flags);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr_t attr, int dev);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int dev);
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int dev);
cudaError_t cudaChooseDevice(int *dev, const struct cudaDeviceProp *prop);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDriverGetVersion(int *v);
cudaError_t cudaRuntimeGetVersion(int *v);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *c);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig c);
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *c);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer);
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn,
                                             unsigned version,
                                             unsigned long long flags,
                                             int *status);
cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn,
                                    unsigned long long flags, int *status);
cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int dev);
cudaError_t cudaDeviceGetByPCIBusId(int *dev, const char *id);
cudaError_t cudaCtxResetPersistingL2Cache(void);
/* rt_error.c */
const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
/* rt_launch.c */
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem,
                                     struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem,
                                       void *stream);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
                               void **args, size_t shmem, cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block,
                                    void **args, size_t shmem,
                                    cudaStream_t stream);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
                             void **args, size_t shmem, cudaStream_t stream);
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block,
                                  void **args, size_t shmem,
                                  cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid,
                                        dim3 block, void **args, size_t shmem,
                                        cudaStream_t stream);
cudaError_t
cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid, dim3 block,
                                 void **args, size_t shmem,
                                 cudaStream_t stream);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *cfg,
                                const void *func, void **args);
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *cfg,
                                     const void *func, void **args);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                  const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                                 int value);
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache c);
cudaError_t cudaFuncSetSharedMemConfig(const void *func,
                                       enum cudaSharedMemConfig c);
cudaError_t cudaFuncGetName(const char **name, const void *func);
cudaError_t cudaGetFuncBySymbol(cudaFunction_t *out, const void *func);
cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks,
                                                       const void *func,
                                                       int block_size,
                                                       size_t shmem,
                                                       unsigned flags);
cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                              int block_size, size_t shmem);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes,
                                                     const void *func,
                                                     int blocks,
                                                     int block_size);
cudaError_t cudaFuncGetParamInfo(const void *func, size_t index,
                                 size_t *offset, size_t *size);
/* rt_memory.c */
cudaError_t cudaMalloc(void **p, size_t size);
cudaError_t cudaFree(void *p);
cudaError_t cudaMallocHost(void **p, size_t size);
cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMallocManaged(void **p, size_t size, unsigned flags);
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width,
                            size_t height);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n,
                       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n,
                            enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemcpyPeer(void *dst, int ddev, const void *src, int sdev,
                           size_t n);
cudaError_t cudaMemcpyPeerAsync(void *dst, int ddev, const void *src, int sdev,
                                size_t n, cudaStream_t s);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                              size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n,
                               size_t off, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
                                    size_t n, size_t off,
                                    enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n,
                                 size_t off, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t n,
                                      size_t off, enum cudaMemcpyKind kind,
                                      cudaStream_t s);
cudaError_t cudaGetSymbolAddress(void **p, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
cudaError_t cudaMemset(void *p, int value, size_t n);
cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s);
cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width,
                         size_t height);
cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width,
                              size_t height, cudaStream_t s);
cudaError_t cudaHostRegister(void *p, size_t size, unsigned flags);
cudaError_t cudaHostUnregister(void *p);
cudaError_t cudaHostGetDevicePointer(void **pdev, void *host, unsigned flags);
cudaError_t cudaHostGetFlags(unsigned *flags, void *host);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a,
                                     const void *p);
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n,
                                 struct cudaMemLocation loc, unsigned flags,
                                 cudaStream_t s);
cudaError_t cudaMemAdvise(const void *p, size_t n, int advice,
                          struct cudaMemLocation loc);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t n,
                                     unsigned flags);
struct cudaChannelFormatDesc
cudaCreateChannelDesc(int x, int y, int z, int w,
                      enum cudaChannelFormatKind f);
/* rt_pool.c */
cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t s);
cudaError_t cudaMallocFromPoolAsync(void **p, size_t size, cudaMemPool_t pool,
                                    cudaStream_t s);
cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int dev);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int dev);
cudaError_t cudaDeviceSetMemPool(int dev, cudaMemPool_t pool);
cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *pool,
                                     struct cudaMemLocation *loc, int type);
cudaError_t cudaMemGetMemPool(cudaMemPool_t *pool, struct cudaMemLocation *loc,
                              int type);
cudaError_t cudaMemSetMemPool(struct cudaMemLocation *loc, int type,
                              cudaMemPool_t pool);
cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool,
                              const struct cudaMemPoolProps *props);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool,
                                    enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool,
                                    enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool,
                                 const struct cudaMemAccessDesc *map,
                                 size_t count);
cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t pool,
                                 struct cudaMemLocation *loc);
cudaError_t cudaMemPoolExportToShareableHandle(void *handle,
                                               cudaMemPool_t pool, int type,
                                               unsigned flags);
cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *pool,
                                                 void *handle, int type,
                                                 unsigned flags);
cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *d,
                                     void *p);
cudaError_t cudaMemPoolImportPointer(void **p, cudaMemPool_t pool,
                                     struct cudaMemPoolPtrExportData *d);
/* rt_graph_mem.c */
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *n, cudaGraph_t g,
                                     const cudaGraphNode_t *deps, size_t nd,
                                     struct cudaMemAllocNodeParams *np);
cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t n,
                                           struct cudaMemAllocNodeParams *out);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *n, cudaGraph_t g,
                                    const cudaGraphNode_t *deps, size_t nd,
                                    void *dptr);
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t n, void *dptr_out);
cudaError_t cudaDeviceGraphMemTrim(int dev);
cudaError_t cudaDeviceGetGraphMemAttribute(int dev,
                                           enum cudaGraphMemAttributeType attr,
                                           void *value);
cudaError_t cudaDeviceSetGraphMemAttribute(int dev,
                                           enum cudaGraphMemAttributeType attr,
                                           void *value);
/* rt_graph_attr.c */
cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t n,
                                            cudaLaunchAttributeID attr,
                                            const cudaLaunchAttributeValue *v);
cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t n,
                                            cudaLaunchAttributeID attr,
                                            cudaLaunchAttributeValue *v);
cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t dst,
                                              cudaGraphNode_t src);
/* rt_graph_cond.c */
cudaError_t cudaGraphConditionalHandleCreate(unsigned long long *h,
                                             cudaGraph_t g, unsigned dflt,
                                             unsigned flags);
cudaError_t cudaGraphAddNode(cudaGraphNode_t *n, cudaGraph_t g,
                             const cudaGraphNode_t *deps,
                             const cudaGraphEdgeData *edges, size_t nd,
                             struct cudaGraphNodeParams *np);
cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t n,
                                   struct cudaGraphNodeParams *np);
cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                       struct cudaGraphNodeParams *np);
/* rt_ipc.c */
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *h, void *p);
cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t h,
                                 unsigned flags);
cudaError_t cudaIpcCloseMemHandle(void *p);
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *h, cudaEvent_t ev);
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *ev, cudaIpcEventHandle_t h);
/* rt_register.c */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun,
                            char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size,
                       int constant, int global);
void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                              char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global);
void __cudaRegisterHostVar(void **handle, const char *deviceName,
                           char *hostVar, size_t size);
char __cudaInitModule(void **handle);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host);
cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *host);
/* rt_stream.c */
cudaError_t
cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int prio);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t ev,
                                unsigned flags);
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);
cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio);
cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaLaunchAttributeID attr,
                                   const cudaLaunchAttributeValue *v);
cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaLaunchAttributeID attr,
                                   cudaLaunchAttributeValue *v);
cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
cudaError_t cudaStreamGetDevice(cudaStream_t s, int *dev);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data);
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t fn,
                                  void *data, unsigned flags);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t *ev);
cudaError_t cudaEventDestroy(cudaEvent_t ev);
cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s,
                                     unsigned flags);
cudaError_t cudaEventSynchronize(cudaEvent_t ev);
cudaError_t cudaEventQuery(cudaEvent_t ev);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                 cudaEvent_t end);
cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id);
/* rt_graph.c */
cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned flags);
cudaError_t cudaGraphDestroy(cudaGraph_t g);
cudaError_t cudaGraphClone(cudaGraph_t *out, cudaGraph_t g);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *n, cudaGraph_t g,
                                   const cudaGraphNode_t *deps, size_t nd,
                                   const struct cudaKernelNodeParams *p);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *n, cudaGraph_t g,
                                   const cudaGraphNode_t *deps, size_t nd,
                                   const struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *n, cudaGraph_t g,
                                     const cudaGraphNode_t *deps, size_t nd,
                                     void *dst, const void *src,
                                     size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *n, cudaGraph_t g,
                                   const cudaGraphNode_t *deps, size_t nd,
                                   const struct cudaMemsetParams *p);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *n, cudaGraph_t g,
                                 const cudaGraphNode_t *deps, size_t nd,
                                 const struct cudaHostNodeParams *p);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *n, cudaGraph_t g,
                                  const cudaGraphNode_t *deps, size_t nd);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *n, cudaGraph_t g,
                                       const cudaGraphNode_t *deps,
                                       size_t nd, cudaGraph_t child);
cudaError_t cudaGraphAddDependencies(cudaGraph_t g,
                                     const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to,
                                     const cudaGraphEdgeData *edges,
                                     size_t n);
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t g,
                                        const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edges,
                                        size_t n);
cudaError_t cudaGraphGetEdges(cudaGraph_t g, cudaGraphNode_t *from,
                              cudaGraphNode_t *to, cudaGraphEdgeData *edges,
                              size_t *n);
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t n);
cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes,
                              size_t *n);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t *nodes,
                                  size_t *n);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t n,
                                 enum cudaGraphNodeType *type);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t n,
                                         struct cudaKernelNodeParams *p);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t n,
                                         const struct cudaKernelNodeParams *p);
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t n,
                                       struct cudaHostNodeParams *p);
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t n,
                                       const struct cudaHostNodeParams *p);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t n,
                                         cudaGraphNode_t *deps,
                                         cudaGraphEdgeData *edges,
                                         size_t *count);
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t n,
                                         struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t n,
                                         const struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t n, void *dst,
                                           const void *src, size_t count,
                                           enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t n,
                                         struct cudaMemsetParams *p);
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t n,
                                         const struct cudaMemsetParams *p);
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t n,
                                            cudaGraph_t *g);
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t n,
                                           cudaGraphNode_t *out,
                                           cudaGraphEdgeData *edges,
                                           size_t *count);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *n, cudaGraph_t g,
                                        const cudaGraphNode_t *deps,
                                        size_t nd, cudaEvent_t ev);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *n, cudaGraph_t g,
                                      const cudaGraphNode_t *deps, size_t nd,
                                      cudaEvent_t ev);
cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t n,
                                             cudaEvent_t *ev);
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t n,
                                             cudaEvent_t ev);
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t n,
                                           cudaEvent_t *ev);
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t n,
                                           cudaEvent_t ev);
cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *out,
                                     cudaGraphNode_t n, cudaGraph_t clone);
cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t x,
                                  unsigned long long *flags);
cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t x,
                                                 cudaGraphNode_t n,
                                                 cudaEvent_t ev);
cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t x,
                                               cudaGraphNode_t n,
                                               cudaEvent_t ev);
cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *n,
                                           cudaGraph_t g,
                                           const cudaGraphNode_t *deps,
                                           size_t nd, const void *symbol,
                                           const void *src, size_t count,
                                           size_t offset,
                                           enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *n,
                                             cudaGraph_t g,
                                             const cudaGraphNode_t *deps,
                                             size_t nd, void *dst,
                                             const void *symbol, size_t count,
                                             size_t offset,
                                             enum cudaMemcpyKind kind);
cudaError_t
cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t n, const void *symbol,
                                     const void *src, size_t count,
                                     size_t offset, enum cudaMemcpyKind kind);
cudaError_t
cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t n, void *dst,
                                       const void *symbol, size_t count,
                                       size_t offset,
                                       enum cudaMemcpyKind kind);
cudaError_t
cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t x,
                                         cudaGraphNode_t n,
                                         const void *symbol, const void *src,
                                         size_t count, size_t offset,
                                         enum cudaMemcpyKind kind);
cudaError_t
cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t x,
                                           cudaGraphNode_t n, void *dst,
                                           const void *symbol, size_t count,
                                           size_t offset,
                                           enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t x,
                                                 cudaGraphNode_t n,
                                                 cudaGraph_t child);
cudaError_t cudaGraphUpload(cudaGraphExec_t x, cudaStream_t s);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t g,
                                 unsigned long long flags);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *x, cudaGraph_t g,
                                          unsigned long long flags);
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *x, cudaGraph_t g,
                                           cudaGraphInstantiateParams *p);
cudaError_t cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t s);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t x);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g,
                                cudaGraphExecUpdateResultInfo *info);
cudaError_t
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                 const struct cudaKernelNodeParams *p);
cudaError_t
cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                 const struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t x,
                                               cudaGraphNode_t n, void *dst,
                                               const void *src, size_t count,
                                               enum cudaMemcpyKind kind);
cudaError_t
cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                 const struct cudaMemsetParams *p);
cudaError_t
cudaGraphExecHostNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                               const struct cudaHostNodeParams *p);
/* rt_capture.c */
cudaError_t cudaStreamBeginCapture(cudaStream_t s,
                                   enum cudaStreamCaptureMode mode);
cudaError_t
cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g,
                              const cudaGraphNode_t *deps,
                              const cudaGraphEdgeData *edges, size_t n,
                              enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g);
cudaError_t cudaStreamIsCapturing(cudaStream_t s,
                                  enum cudaStreamCaptureStatus *status);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s,
                                     enum cudaStreamCaptureStatus *status,
                                     unsigned long long *id,
                                     cudaGraph_t *graph,
                                     const cudaGraphNode_t **deps,
                                     const cudaGraphEdgeData **edges,
                                     size_t *ndeps);
cudaError_t
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
cudaError_t
cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps,
                                    const cudaGraphEdgeData *edges,
                                    size_t n, unsigned flags);

/* Arrays, texture and surface objects (rt_array.c). */
cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
                               cudaArray_const_t array);
cudaError_t cudaMallocArray(cudaArray_t *array,
                            const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height, unsigned int flags);
cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                              const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags);
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                     const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent,
                                     unsigned int numLevels,
                                     unsigned int flags);
cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
                                       cudaMipmappedArray_const_t
                                           mipmappedArray,
                                       unsigned int level);
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
                             struct cudaExtent *extent, unsigned int *flags,
                             cudaArray_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
                                size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
                                  cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width,
                                  size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset,
                                     size_t hOffset, const void *src,
                                     size_t spitch, size_t width,
                                     size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t s);
cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
                                       cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width,
                                       size_t height,
                                       enum cudaMemcpyKind kind,
                                       cudaStream_t s);
cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                     size_t hOffsetDst, cudaArray_const_t src,
                                     size_t wOffsetSrc, size_t hOffsetSrc,
                                     size_t width, size_t height,
                                     enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset,
                              size_t hOffset, const void *src, size_t count,
                              enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
                                size_t wOffset, size_t hOffset, size_t count,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                              cudaStream_t stream);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc
                                        *pResViewDesc);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc
                                                 *pResDesc,
                                             cudaTextureObject_t texObject);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);


/* rt_ptsz.c: the per-thread-default-stream forms that take work or
 * capture (0 is the calling thread's per-thread stream). */
cudaError_t cudaMallocAsync_ptsz(void **p, size_t size, cudaStream_t s);
cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s);
cudaError_t cudaMallocFromPoolAsync_ptsz(void **p, size_t size,
                                         cudaMemPool_t pool, cudaStream_t s);
cudaError_t cudaMemPrefetchAsync_ptsz(const void *p, size_t n,
                                      struct cudaMemLocation loc,
                                      unsigned flags, cudaStream_t s);
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n,
                                 enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                   size_t spitch, size_t width, size_t height,
                                   enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
                                   cudaStream_t s);
cudaError_t
cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch,
                                cudaArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t width, size_t height,
                                enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t
cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                              size_t hOffset, const void *src, size_t spitch,
                              size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol,
                                           size_t n, size_t off,
                                           enum cudaMemcpyKind kind,
                                           cudaStream_t s);
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
                                         size_t n, size_t off,
                                         enum cudaMemcpyKind kind,
                                         cudaStream_t s);
cudaError_t cudaMemsetAsync_ptsz(void *p, int value, size_t n,
                                 cudaStream_t s);
cudaError_t cudaMemset2DAsync_ptsz(void *p, size_t pitch, int value,
                                   size_t width, size_t height,
                                   cudaStream_t s);
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s);
cudaError_t cudaStreamQuery_ptsz(cudaStream_t s);
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t ev,
                                     unsigned flags);
cudaError_t cudaEventRecord_ptsz(cudaEvent_t ev, cudaStream_t s);
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t ev, cudaStream_t s,
                                          unsigned flags);
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t s, cudaHostFn_t fn,
                                    void *data);
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t s,
                                       cudaStreamCallback_t fn, void *data,
                                       unsigned flags);
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t x, cudaStream_t s);
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t x, cudaStream_t s);
cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *x,
                                                cudaGraph_t g,
                                                cudaGraphInstantiateParams *p);
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t s,
                                        enum cudaStreamCaptureMode mode);
cudaError_t
cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t s, cudaGraph_t g,
                                   const cudaGraphNode_t *deps,
                                   const cudaGraphEdgeData *edges, size_t n,
                                   enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t *g);
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t s,
                                       enum cudaStreamCaptureStatus *st);
cudaError_t
cudaStreamGetCaptureInfo_ptsz(cudaStream_t s,
                              enum cudaStreamCaptureStatus *st,
                              unsigned long long *id, cudaGraph_t *graph,
                              const cudaGraphNode_t **deps,
                              const cudaGraphEdgeData **edges, size_t *n);
cudaError_t
cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t s,
                                         cudaGraphNode_t *deps,
                                         const cudaGraphEdgeData *edges,
                                         size_t n, unsigned flags);

#ifdef __cplusplus
}
#endif
#endif
