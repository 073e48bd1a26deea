/*
 * tests/check_cudart_pool.c: stream-ordered allocation, memory pools and
 * graph memory nodes in our libcudart.so.13, against the CUDA runtime
 * API reference ("Stream Ordered Memory Allocator", "Graph Management":
 * cudaGraphAddMemAllocNode) and our model's documented choices
 * (runtime/cuda/drv_pool.c: a free block goes back to the stream that
 * freed it; across streams only as the reuse attributes or a
 * synchronisation allow; free memory above the release threshold goes
 * at synchronisation).  Values written by memsets and kernels are read
 * back and compared with what the host computes.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart/cudart_api.h"

/* inc(x, n): x[i] += i + 1 for i < n (one block of n threads). */
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry inc(.param .u64 p_x, .param .u32 p_n)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<6>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p_x];\n"
    "  ld.param.u32 %r1, [p_n];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  setp.ge.u32 %p1, %r2, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r3, [%rd3];\n"
    "  add.u32 %r4, %r3, %r2;\n"
    "  add.u32 %r5, %r4, 1;\n"
    "  st.global.u32 [%rd3], %r5;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

static const struct {
    unsigned magic, version;
    const void *data;
    void *unused;
} wrapper = { 0x466243b1u, 1, ptx, NULL };

static void inc_stub(void) {}
static void **handle;

static void setup(void)
{
    handle = __cudaRegisterFatBinary((void *)&wrapper);
    ck_assert_ptr_nonnull(handle);
    __cudaRegisterFunction(handle, (const char *)(uintptr_t)inc_stub,
                           (char *)"inc", "inc", -1, NULL, NULL, NULL, NULL,
                           NULL);
    __cudaRegisterFatBinaryEnd(handle);
    (void)cudaGetLastError();
}

static void teardown(void)
{
    __cudaUnregisterFatBinary(handle);
}

#define OK(call) ck_assert_int_eq((call), cudaSuccess)

static uint64_t pool_attr(cudaMemPool_t p, enum cudaMemPoolAttr a)
{
    uint64_t v = 0;
    OK(cudaMemPoolGetAttribute(p, a, &v));
    return v;
}

static struct cudaMemPoolProps device_props(void)
{
    struct cudaMemPoolProps pp;
    memset(&pp, 0, sizeof pp);
    pp.allocType = 1;           /* cudaMemAllocationTypePinned */
    pp.location.type = 1;       /* cudaMemLocationTypeDevice */
    pp.location.id = 0;
    return pp;
}

/* Disables the three reuse attributes of p (on by default). */
static void no_reuse(cudaMemPool_t p)
{
    int off = 0, v = -1;
    for (int a = cudaMemPoolReuseFollowEventDependencies;
         a <= cudaMemPoolReuseAllowInternalDependencies; a++) {
        OK(cudaMemPoolGetAttribute(p, (enum cudaMemPoolAttr)a, &v));
        ck_assert_int_eq(v, 1);
        OK(cudaMemPoolSetAttribute(p, (enum cudaMemPoolAttr)a, &off));
        OK(cudaMemPoolGetAttribute(p, (enum cudaMemPoolAttr)a, &v));
        ck_assert_int_eq(v, 0);
    }
}

START_TEST(test_support_reported)
{
    int v = -1;
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, 0));
    ck_assert_int_eq(v, 1);
    /* No IPC handle types: pools are not shareable. */
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolSupportedHandleTypes,
                              0));
    ck_assert_int_eq(v, 0);
    struct cudaDeviceProp prop;
    OK(cudaGetDeviceProperties(&prop, 0));
    ck_assert_int_eq(prop.memoryPoolsSupported, 1);
}
END_TEST

START_TEST(test_default_pool)
{
    cudaMemPool_t def = NULL, cur = NULL, p = NULL;
    OK(cudaDeviceGetDefaultMemPool(&def, 0));
    ck_assert_ptr_nonnull(def);
    OK(cudaDeviceGetMemPool(&cur, 0));
    ck_assert_ptr_eq(cur, def);
    ck_assert_int_eq(cudaDeviceGetDefaultMemPool(&cur, 1),
                     cudaErrorInvalidDevice);
    /* "A device's default memory pool cannot be destroyed." */
    ck_assert_int_eq(cudaMemPoolDestroy(def), cudaErrorInvalidValue);
    (void)cudaGetLastError();

    /* cudaMallocAsync takes from the current pool. */
    struct cudaMemPoolProps pp = device_props();
    OK(cudaMemPoolCreate(&p, &pp));
    OK(cudaDeviceSetMemPool(0, p));
    OK(cudaDeviceGetMemPool(&cur, 0));
    ck_assert_ptr_eq(cur, p);
    void *a = NULL;
    OK(cudaMallocAsync(&a, 3000, 0));
    ck_assert_uint_ge(pool_attr(p, cudaMemPoolAttrUsedMemCurrent), 3000);
    OK(cudaFreeAsync(a, 0));
    ck_assert_uint_eq(pool_attr(p, cudaMemPoolAttrUsedMemCurrent), 0);
    /* "Destroying the current mempool of a device sets the default
     * mempool of that device as the current mempool." */
    OK(cudaMemPoolDestroy(p));
    OK(cudaDeviceGetMemPool(&cur, 0));
    ck_assert_ptr_eq(cur, def);
    ck_assert_int_eq(cudaMemPoolTrimTo(p, 0), cudaErrorInvalidValue);
    (void)cudaGetLastError();
}
END_TEST

/* The memory works: a memset, a kernel in stream order, a copy back. */
START_TEST(test_alloc_use)
{
    enum { N = 64 };
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    unsigned *d = NULL, h[N];
    OK(cudaMallocAsync((void **)&d, N * sizeof *d, s));
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq((uintptr_t)d % 256, 0);
    OK(cudaMemsetAsync(d, 0, N * sizeof *d, s));
    unsigned n = N;
    void *args[] = { &d, &n };
    OK(cudaLaunchKernel((const void *)(uintptr_t)inc_stub, (dim3){ 1, 1, 1 },
                        (dim3){ N, 1, 1 }, args, 0, s));
    OK(cudaLaunchKernel((const void *)(uintptr_t)inc_stub, (dim3){ 1, 1, 1 },
                        (dim3){ N, 1, 1 }, args, 0, s));
    OK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    OK(cudaFreeAsync(d, s));
    OK(cudaStreamSynchronize(s));
    for (unsigned i = 0; i < N; i++)
        ck_assert_uint_eq(h[i], 2 * (i + 1));
    void *z = (void *)1;
    OK(cudaMallocAsync(&z, 0, s));      /* as cudaMalloc: no allocation */
    ck_assert_ptr_null(z);
    ck_assert_int_eq(cudaMallocAsync(NULL, 16, s), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMallocFromPoolAsync(&z, 16, NULL, s),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    OK(cudaStreamDestroy(s));
}
END_TEST

/* Release threshold: free memory stays reserved until a
 * synchronisation, then only the threshold is kept; cudaMemPoolTrimTo
 * releases down to its argument. */
START_TEST(test_release_threshold)
{
    cudaMemPool_t p;
    struct cudaMemPoolProps pp = device_props();
    OK(cudaMemPoolCreate(&p, &pp));
    uint64_t t = 0;
    OK(cudaMemPoolGetAttribute(p, cudaMemPoolAttrReleaseThreshold, &t));
    ck_assert_uint_eq(t, 0);            /* CUDA's default */
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    void *a, *b;
    OK(cudaMallocFromPoolAsync(&a, 4096, p, s));
    OK(cudaMallocFromPoolAsync(&b, 8192, p, s));
    uint64_t res = pool_attr(p, cudaMemPoolAttrReservedMemCurrent);
    ck_assert_uint_ge(res, 4096 + 8192);
    ck_assert_uint_ge(pool_attr(p, cudaMemPoolAttrUsedMemCurrent),
                      4096 + 8192);
    OK(cudaFreeAsync(a, s));
    OK(cudaFreeAsync(b, s));
    ck_assert_uint_eq(pool_attr(p, cudaMemPoolAttrUsedMemCurrent), 0);
    /* Not released before a synchronisation. */
    ck_assert_uint_eq(pool_attr(p, cudaMemPoolAttrReservedMemCurrent), res);
    OK(cudaStreamSynchronize(s));
    ck_assert_uint_eq(pool_attr(p, cudaMemPoolAttrReservedMemCurrent), 0);
    ck_assert_uint_eq(pool_attr(p, cudaMemPoolAttrReservedMemHigh), res);

    /* A high threshold keeps it; trimming releases it. */
    t = UINT64_MAX;
    OK(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &t));
    OK(cudaMallocFromPoolAsync(&a, 4096, p, s));
    OK(cudaMallocFromPoolAsync(&b, 8192, p, s));
    OK(cudaFreeAsync(a, s));
    OK(cudaFreeAsync(b, s));
    OK(cudaDeviceSynchronize());
    ck_assert_uint_eq(pool_attr(p, cudaMemPoolAttrReservedMemCurrent), res);
    OK(cudaMemPoolTrimTo(p, 8192));
    uint64_t kept = pool_attr(p, cudaMemPoolAttrReservedMemCurrent);
    ck_assert_uint_le(kept, 8192);
    ck_assert_uint_gt(kept, 0);        /* one block fits what is kept */
    OK(cudaMemPoolTrimTo(p, 0));
    ck_assert_uint_eq(pool_attr(p, cudaMemPoolAttrReservedMemCurrent), 0);
    OK(cudaStreamDestroy(s));
    OK(cudaMemPoolDestroy(p));
}
END_TEST

/* High watermarks "can only be reset to zero", to the current value. */
START_TEST(test_watermarks)
{
    cudaMemPool_t p;
    struct cudaMemPoolProps pp = device_props();
    OK(cudaMemPoolCreate(&p, &pp));
    void *a, *b;
    OK(cudaMallocFromPoolAsync(&a, 1024, p, 0));
    OK(cudaMallocFromPoolAsync(&b, 1024, p, 0));
    OK(cudaFreeAsync(b, 0));
    uint64_t used = pool_attr(p, cudaMemPoolAttrUsedMemCurrent);
    uint64_t high = pool_attr(p, cudaMemPoolAttrUsedMemHigh);
    ck_assert_uint_eq(high, 2 * used);
    uint64_t v = 1;
    ck_assert_int_eq(cudaMemPoolSetAttribute(p, cudaMemPoolAttrUsedMemHigh,
                                             &v), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMemPoolSetAttribute(p,
                                             cudaMemPoolAttrUsedMemCurrent,
                                             &v), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    v = 0;
    OK(cudaMemPoolSetAttribute(p, cudaMemPoolAttrUsedMemHigh, &v));
    ck_assert_uint_eq(pool_attr(p, cudaMemPoolAttrUsedMemHigh), used);
    OK(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReservedMemHigh, &v));
    ck_assert_uint_eq(pool_attr(p, cudaMemPoolAttrReservedMemHigh),
                      pool_attr(p, cudaMemPoolAttrReservedMemCurrent));
    OK(cudaFreeAsync(a, 0));
    OK(cudaMemPoolDestroy(p));
}
END_TEST

/* Stream-ordered reuse: a block freed on a stream serves the next
 * allocation on that stream; with the reuse attributes off, never one
 * on another stream before a synchronisation says the free is done. */
START_TEST(test_reuse_order)
{
    cudaMemPool_t p;
    struct cudaMemPoolProps pp = device_props();
    OK(cudaMemPoolCreate(&p, &pp));
    uint64_t t = UINT64_MAX;
    OK(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &t));
    cudaStream_t s1, s2;
    OK(cudaStreamCreate(&s1));
    OK(cudaStreamCreate(&s2));
    void *a, *b, *c;
    OK(cudaMallocFromPoolAsync(&a, 5000, p, s1));
    OK(cudaFreeAsync(a, s1));
    OK(cudaMallocFromPoolAsync(&b, 5000, p, s1));
    ck_assert_ptr_eq(b, a);             /* same stream: in order */
    OK(cudaFreeAsync(b, s1));

    no_reuse(p);
    OK(cudaMallocFromPoolAsync(&c, 5000, p, s2));
    ck_assert_ptr_ne(c, a);             /* no dependency on the free */
    OK(cudaFreeAsync(c, s2));
    OK(cudaMallocFromPoolAsync(&b, 5000, p, s1));
    ck_assert_ptr_eq(b, a);             /* its own stream still may */
    OK(cudaFreeAsync(b, s1));
    OK(cudaStreamSynchronize(s1));      /* the free is known done */
    OK(cudaMallocFromPoolAsync(&b, 5000, p, s2));
    ck_assert(b == a || b == c);
    OK(cudaFreeAsync(b, s2));
    /* Much larger blocks are not cut down for small requests. */
    OK(cudaMallocFromPoolAsync(&c, 100, p, s2));
    ck_assert_ptr_ne(c, a);
    OK(cudaFreeAsync(c, s2));
    OK(cudaStreamDestroy(s1));
    OK(cudaStreamDestroy(s2));
    OK(cudaMemPoolDestroy(p));
}
END_TEST

START_TEST(test_max_size)
{
    cudaMemPool_t p;
    struct cudaMemPoolProps pp = device_props();
    pp.maxSize = 8192;
    OK(cudaMemPoolCreate(&p, &pp));
    void *a, *b;
    OK(cudaMallocFromPoolAsync(&a, 8192, p, 0));
    ck_assert_int_eq(cudaMallocFromPoolAsync(&b, 256, p, 0),
                     cudaErrorMemoryAllocation);
    (void)cudaGetLastError();
    OK(cudaFreeAsync(a, 0));
    OK(cudaMallocFromPoolAsync(&b, 4096, p, 0));   /* the free block serves */
    OK(cudaFreeAsync(b, 0));
    OK(cudaMemPoolDestroy(p));
}
END_TEST

/* Pools made with IPC handle types are refused (the device reports no
 * supported handle type), and so is exporting; bad properties are
 * invalid values. */
START_TEST(test_props_and_ipc)
{
    cudaMemPool_t p = NULL;
    struct cudaMemPoolProps pp = device_props();
    pp.handleTypes = 1;         /* cudaMemHandleTypePosixFileDescriptor */
    ck_assert_int_eq(cudaMemPoolCreate(&p, &pp), cudaErrorNotSupported);
    pp = device_props();
    pp.allocType = 0;
    ck_assert_int_eq(cudaMemPoolCreate(&p, &pp), cudaErrorInvalidValue);
    pp = device_props();
    pp.location.id = 3;
    ck_assert_int_eq(cudaMemPoolCreate(&p, &pp), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaMemPoolCreate(&p, NULL), cudaErrorInvalidValue);
    pp = device_props();
    OK(cudaMemPoolCreate(&p, &pp));
    int fd = -1;
    ck_assert_int_eq(cudaMemPoolExportToShareableHandle(&fd, p, 1, 0),
                     cudaErrorNotSupported);
    void *a;
    OK(cudaMallocFromPoolAsync(&a, 64, p, 0));
    struct cudaMemPoolPtrExportData ed;
    ck_assert_int_eq(cudaMemPoolExportPointer(&ed, a),
                     cudaErrorNotSupported);
    (void)cudaGetLastError();
    /* Destroyed with an allocation outstanding: the handle is gone at
     * once, the memory stays usable until freed. */
    OK(cudaMemPoolDestroy(p));
    OK(cudaMemset(a, 0x5a, 64));
    unsigned char h[64];
    OK(cudaMemcpy(h, a, 64, cudaMemcpyDeviceToHost));
    ck_assert_uint_eq(h[63], 0x5a);
    OK(cudaFreeAsync(a, 0));
    uint64_t v;
    ck_assert_int_eq(cudaMemPoolGetAttribute(p,
                                             cudaMemPoolAttrUsedMemCurrent,
                                             &v), cudaErrorInvalidValue);
    (void)cudaGetLastError();
}
END_TEST

START_TEST(test_access)
{
    cudaMemPool_t p;
    OK(cudaDeviceGetDefaultMemPool(&p, 0));
    struct cudaMemLocation loc = { 1, 0 };          /* device 0 */
    int flags = -1;
    OK(cudaMemPoolGetAccess(&flags, p, &loc));
    ck_assert_int_eq(flags, 3);                     /* ProtReadWrite */
    struct cudaMemAccessDesc d = { { 1, 0 }, 3 };
    OK(cudaMemPoolSetAccess(p, &d, 1));
    d.location.id = 1;                              /* no such device */
    ck_assert_int_eq(cudaMemPoolSetAccess(p, &d, 1), cudaErrorInvalidDevice);
    d.location.id = 0;
    d.flags = 0;                /* the owning device keeps its access */
    ck_assert_int_eq(cudaMemPoolSetAccess(p, &d, 1), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    OK(cudaMemPoolGetAccess(&flags, p, &loc));
    ck_assert_int_eq(flags, 3);
}
END_TEST

/* A graph that allocates, fills, copies out and frees: its address is
 * fixed when the node is made and the graph runs more than once. */
START_TEST(test_graph_nodes)
{
    enum { N = 256 };
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    struct cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps = device_props();
    ap.bytesize = N;
    cudaGraphNode_t an, mn, cn, fn;
    OK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
    ck_assert_ptr_nonnull(ap.dptr);
    struct cudaMemsetParams ms;
    memset(&ms, 0, sizeof ms);
    ms.dst = ap.dptr;
    ms.value = 0x3c;
    ms.elementSize = 1;
    ms.width = N;
    ms.height = 1;
    OK(cudaGraphAddMemsetNode(&mn, g, &an, 1, &ms));
    static unsigned char host[N];
    OK(cudaGraphAddMemcpyNode1D(&cn, g, &mn, 1, host, ap.dptr, N,
                                cudaMemcpyDeviceToHost));
    OK(cudaGraphAddMemFreeNode(&fn, g, &cn, 1, ap.dptr));

    struct cudaMemAllocNodeParams got;
    OK(cudaGraphMemAllocNodeGetParams(an, &got));
    ck_assert_ptr_eq(got.dptr, ap.dptr);
    ck_assert_uint_eq(got.bytesize, N);
    void *fp = NULL;
    OK(cudaGraphMemFreeNodeGetParams(fn, &fp));
    ck_assert_ptr_eq(fp, ap.dptr);
    enum cudaGraphNodeType t;
    OK(cudaGraphNodeGetType(an, &t));
    ck_assert_int_eq(t, cudaGraphNodeTypeMemAlloc);
    OK(cudaGraphNodeGetType(fn, &t));
    ck_assert_int_eq(t, cudaGraphNodeTypeMemFree);
    /* "The graph cannot be cloned." */
    cudaGraph_t c;
    ck_assert_int_eq(cudaGraphClone(&c, g), cudaErrorNotSupported);
    /* "Nodes and edges of the graph cannot be deleted", "The graph
     * cannot be used in a child node" (the functions document
     * cudaErrorInvalidValue); nor are memory nodes added to a child
     * graph node's graph (cudaGraphChildGraphNodeGetGraph). */
    ck_assert_int_eq(cudaGraphDestroyNode(cn), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphRemoveDependencies(g, &mn, &cn, NULL, 1),
                     cudaErrorInvalidValue);
    size_t nn = 0;
    OK(cudaGraphGetNodes(g, NULL, &nn));
    ck_assert_uint_eq(nn, 4);
    cudaGraph_t parent, child, inner;
    cudaGraphNode_t pn, bad;
    OK(cudaGraphCreate(&parent, 0));
    ck_assert_int_eq(cudaGraphAddChildGraphNode(&pn, parent, NULL, 0, g),
                     cudaErrorInvalidValue);
    OK(cudaGraphCreate(&child, 0));
    OK(cudaGraphAddEmptyNode(&pn, child, NULL, 0));
    OK(cudaGraphAddChildGraphNode(&pn, parent, NULL, 0, child));
    OK(cudaGraphChildGraphNodeGetGraph(pn, &inner));
    struct cudaMemAllocNodeParams ap2 = ap;
    ck_assert_int_eq(cudaGraphAddMemAllocNode(&bad, inner, NULL, 0, &ap2),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddMemFreeNode(&bad, inner, NULL, 0, ap.dptr),
                     cudaErrorInvalidValue);
    OK(cudaGraphDestroy(parent));
    OK(cudaGraphDestroy(child));
    /* A free node must name a graph allocation. */
    int x;
    ck_assert_int_eq(cudaGraphAddMemFreeNode(&fn, g, NULL, 0, &x),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();

    cudaGraphExec_t e;
    OK(cudaGraphInstantiate(&e, g, 0));
    for (int run = 0; run < 2; run++) {
        memset(host, 0, sizeof host);
        OK(cudaGraphLaunch(e, 0));
        OK(cudaStreamSynchronize(0));
        for (int i = 0; i < N; i++)
            ck_assert_uint_eq(host[i], 0x3c);
        uint64_t used = 1;
        OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent,
                                          &used));
        ck_assert_uint_eq(used, 0);     /* freed within the graph */
    }
    uint64_t high = 0;
    OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    ck_assert_uint_ge(high, N);
    /* Outside its lifetime the memory is not there. */
    struct cudaPointerAttributes pa;
    OK(cudaPointerGetAttributes(&pa, ap.dptr));
    ck_assert_int_eq(pa.type, cudaMemoryTypeUnregistered);
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));
}
END_TEST

/* An allocation the graph does not free outlives the launch: later
 * stream work uses it and cudaFreeAsync frees it; a relaunch before
 * that fails, unless the graph was instantiated to free on launch. */
START_TEST(test_graph_alloc_outlives)
{
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    struct cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps = device_props();
    ap.bytesize = 100;
    cudaGraphNode_t an;
    OK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
    cudaGraphExec_t e, ea;
    OK(cudaGraphInstantiate(&e, g, 0));
    /* cudaGraphAddMemAllocNode: "Only one instantiation of the graph
     * may exist at any point in time." */
    ck_assert_int_eq(cudaGraphInstantiate(&ea, g, 0), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphInstantiateWithFlags(&ea, g, 0),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    OK(cudaGraphLaunch(e, 0));
    uint64_t used = 0;
    OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent,
                                      &used));
    ck_assert_uint_ge(used, 100);
    OK(cudaMemset(ap.dptr, 9, 100));
    unsigned char h[100];
    OK(cudaMemcpy(h, ap.dptr, 100, cudaMemcpyDeviceToHost));
    ck_assert_uint_eq(h[99], 9);
    ck_assert_int_eq(cudaGraphLaunch(e, 0), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    OK(cudaFreeAsync(ap.dptr, 0));
    ck_assert_int_eq(cudaFree(ap.dptr), cudaErrorInvalidValue); /* twice */
    (void)cudaGetLastError();
    OK(cudaGraphLaunch(e, 0));
    OK(cudaFree(ap.dptr));
    OK(cudaGraphExecDestroy(e));

    OK(cudaGraphInstantiate(&ea, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    OK(cudaGraphLaunch(ea, 0));
    OK(cudaGraphLaunch(ea, 0));
    OK(cudaFreeAsync(ap.dptr, 0));
    OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent,
                                      &used));
    ck_assert_uint_eq(used, 0);
    OK(cudaGraphExecDestroy(ea));
    OK(cudaGraphDestroy(g));
}
END_TEST

/* Captured, cudaMallocAsync and cudaFreeAsync become allocation and
 * free nodes, and the captured work runs when the graph is launched. */
START_TEST(test_capture)
{
    enum { N = 32 };
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    static unsigned h[N];
    unsigned *d = NULL;
    unsigned n = N;
    void *args[] = { &d, &n };
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMallocAsync((void **)&d, N * sizeof *d, s));
    ck_assert_ptr_nonnull(d);
    OK(cudaMemsetAsync(d, 0, N * sizeof *d, s));
    OK(cudaLaunchKernel((const void *)(uintptr_t)inc_stub, (dim3){ 1, 1, 1 },
                        (dim3){ N, 1, 1 }, args, 0, s));
    OK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    OK(cudaFreeAsync(d, s));
    cudaGraph_t g;
    OK(cudaStreamEndCapture(s, &g));
    size_t count = 0;
    OK(cudaGraphGetNodes(g, NULL, &count));
    ck_assert_uint_eq(count, 5);
    cudaGraphNode_t nodes[5];
    OK(cudaGraphGetNodes(g, nodes, &count));
    static const enum cudaGraphNodeType want[5] = {
        cudaGraphNodeTypeMemAlloc, cudaGraphNodeTypeMemset,
        cudaGraphNodeTypeKernel, cudaGraphNodeTypeMemcpy,
        cudaGraphNodeTypeMemFree
    };
    for (size_t i = 0; i < 5; i++) {
        enum cudaGraphNodeType t;
        OK(cudaGraphNodeGetType(nodes[i], &t));
        ck_assert_int_eq(t, want[i]);
    }
    cudaGraphExec_t e;
    OK(cudaGraphInstantiate(&e, g, 0));
    for (int run = 0; run < 2; run++) {
        memset(h, 0xff, sizeof h);
        OK(cudaGraphLaunch(e, s));
        OK(cudaStreamSynchronize(s));
        for (unsigned i = 0; i < N; i++)
            ck_assert_uint_eq(h[i], i + 1);
    }
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));
    OK(cudaStreamDestroy(s));
}
END_TEST

/* CUDA 13's cudaMemPrefetchAsync(ptr, count, location, flags, stream). */
START_TEST(test_prefetch_signature)
{
    void *m = NULL;
    OK(cudaMallocManaged(&m, 4096, 1));
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    struct cudaMemLocation dev0 = { 1, 0 }, dev1 = { 1, 1 }, host = { 2, 0 };
    OK(cudaMemPrefetchAsync(m, 4096, dev0, 0, s));
    OK(cudaMemPrefetchAsync(m, 4096, host, 0, s));
    ck_assert_int_eq(cudaMemPrefetchAsync(m, 4096, dev1, 0, s),
                     cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaMemPrefetchAsync(m, 4096, dev0, 1, s),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMemPrefetchAsync(m, 8192, dev0, 0, s),
                     cudaErrorInvalidValue);
    OK(cudaMemAdvise(m, 4096, 3 /* SetPreferredLocation */, dev0));
    (void)cudaGetLastError();
    OK(cudaStreamDestroy(s));
    OK(cudaFree(m));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cudart_pool");
    TCase *tc = tcase_create("pool");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_support_reported);
    tcase_add_test(tc, test_default_pool);
    tcase_add_test(tc, test_alloc_use);
    tcase_add_test(tc, test_release_threshold);
    tcase_add_test(tc, test_watermarks);
    tcase_add_test(tc, test_reuse_order);
    tcase_add_test(tc, test_max_size);
    tcase_add_test(tc, test_props_and_ipc);
    tcase_add_test(tc, test_access);
    tcase_add_test(tc, test_graph_nodes);
    tcase_add_test(tc, test_graph_alloc_outlives);
    tcase_add_test(tc, test_capture);
    tcase_add_test(tc, test_prefetch_signature);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
