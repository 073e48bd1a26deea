/*
 * tests/check_driver_pool.c: stream-ordered allocation, memory pools and
 * graph memory nodes through the drop-in driver's exported API (CUDA
 * Driver API reference, "Stream Ordered Memory Allocator", "Graph
 * Management": cuGraphAddMemAllocNode), a kernel using the memory.
 *
 * References: values written by the kernel are worked by hand
 * (p[i] = 3i + 1); error codes are the driver API's documented values,
 * typed as literals (CUDA_ERROR_INVALID_VALUE 1, CUDA_ERROR_OUT_OF_MEMORY
 * 2, CUDA_ERROR_INVALID_DEVICE 101, CUDA_ERROR_NOT_SUPPORTED 801).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi/cuda_abi.h"

#define OK(call) ck_assert_int_eq((int)(call), CUDA_SUCCESS)

/* p[i] = 3i + 1 for i < n (u32). */
static const char kernels[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry fill(.param .u64 pp, .param .u32 n)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [pp]; ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n"
    " @%p1 bra DONE;\n"
    " mad.lo.s32 %r6, %r5, 3, 1;\n"
    " mul.wide.u32 %rd2, %r5, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r6;\n"
    "DONE:\n ret;\n}\n";

static CUfunction fill;

static void setup(void)
{
    CUcontext ctx;
    CUmodule mod;
    OK(cuInit(0));
    OK(cuCtxCreate_v2(&ctx, 0, 0));
    OK(cuModuleLoadData(&mod, kernels));
    OK(cuModuleGetFunction(&fill, mod, "fill"));
}

static CUmemPoolProps dev_props(void)
{
    CUmemPoolProps p;
    memset(&p, 0, sizeof(p));
    p.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    return p;
}

static uint64_t attr(CUmemoryPool p, CUmemPool_attribute a)
{
    uint64_t v = 0;
    OK(cuMemPoolGetAttribute(p, a, &v));
    return v;
}

static void run_fill(CUdeviceptr d, unsigned n, CUstream s)
{
    void *args[] = { &d, &n };
    OK(cuLaunchKernel(fill, (n + 63) / 64, 1, 1, 64, 1, 1, 0, s, args, NULL));
}

START_TEST(test_attributes)
{
    int v = -1;
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                            0));
    ck_assert_int_eq(v, 1);
    OK(cuDeviceGetAttribute(&v,
                            CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES,
                            0));
    ck_assert_int_eq(v, 0);
}
END_TEST

START_TEST(test_alloc_async)
{
    enum { N = 100 };
    CUstream s;
    OK(cuStreamCreate(&s, 0));
    CUdeviceptr d = 0, d2 = 0;
    OK(cuMemAllocAsync(&d, N * 4, s));
    run_fill(d, N, s);
    unsigned h[N];
    OK(cuMemcpyDtoHAsync_v2(h, d, sizeof(h), s));
    OK(cuStreamSynchronize(s));
    for (unsigned i = 0; i < N; i++) {
        ck_assert_uint_eq(h[i], 3 * i + 1);
    }
    CUmemoryPool def, cur;
    OK(cuDeviceGetDefaultMemPool(&def, 0));
    OK(cuDeviceGetMemPool(&cur, 0));
    ck_assert_ptr_eq(def, cur);
    ck_assert_uint_ge(attr(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), N * 4);
    OK(cuMemFreeAsync(d, s));
    ck_assert_uint_eq(attr(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0);
    /* Same stream, before any synchronisation: the block serves again. */
    OK(cuMemAllocAsync(&d2, N * 4, s));
    ck_assert_uint_eq(d2, d);
    /* cuMemFree of a pool allocation gives it back too. */
    OK(cuMemFree_v2(d2));
    ck_assert_uint_eq(attr(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0);
    OK(cuStreamSynchronize(s));        /* threshold 0: all released */
    ck_assert_uint_eq(attr(def, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0);
    ck_assert_int_eq(cuMemAllocAsync(&d, 0, s), 1);
    ck_assert_int_eq(cuMemAllocFromPoolAsync(&d, 16, NULL, s), 1);
    OK(cuStreamDestroy_v2(s));
}
END_TEST

START_TEST(test_pools)
{
    CUmemoryPool p, def, cur;
    CUmemPoolProps pp = dev_props();
    pp.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    ck_assert_int_eq(cuMemPoolCreate(&p, &pp), 801);
    pp = dev_props();
    pp.location.id = 1;
    ck_assert_int_eq(cuMemPoolCreate(&p, &pp), 101);
    pp = dev_props();
    OK(cuMemPoolCreate(&p, &pp));
    OK(cuDeviceSetMemPool(0, p));
    CUdeviceptr d;
    OK(cuMemAllocAsync(&d, 1000, NULL));
    ck_assert_uint_ge(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 1000);
    OK(cuMemFreeAsync(d, NULL));
    uint64_t t = 1 << 20;
    OK(cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &t));
    OK(cuCtxSynchronize());
    ck_assert_uint_ge(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 1000);
    OK(cuMemPoolTrimTo(p, 0));
    ck_assert_uint_eq(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0);
    int fl = -1;
    CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    OK(cuMemPoolGetAccess(&fl, p, &loc));
    ck_assert_int_eq(fl, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    ck_assert_int_eq(cuMemPoolExportToShareableHandle(&fl, p, 1, 0), 801);
    OK(cuMemPoolDestroy(p));
    OK(cuDeviceGetDefaultMemPool(&def, 0));
    OK(cuDeviceGetMemPool(&cur, 0));
    ck_assert_ptr_eq(cur, def);
    ck_assert_int_eq(cuMemPoolDestroy(def), 1);
    /* The location forms: device 0's pinned pool is the device's. */
    OK(cuMemGetDefaultMemPool(&cur, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
    ck_assert_ptr_eq(cur, def);
    ck_assert_int_eq(cuMemGetMemPool(&cur, &loc, 7), 1);
}
END_TEST

/* Host and managed pools (CUDA 12.6+/13): what the host writes the
 * kernel reads and what the kernel writes the host reads directly, and
 * each location and type has its own default and current pool. */
START_TEST(test_host_managed_pools)
{
    enum { N = 100 };
    int v = -1;
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED,
                            0));
    ck_assert_int_eq(v, 1);
    static const struct {
        int type, loc;
    } kinds[] = {
        {CU_MEM_ALLOCATION_TYPE_PINNED, CU_MEM_LOCATION_TYPE_HOST},
        {CU_MEM_ALLOCATION_TYPE_MANAGED, CU_MEM_LOCATION_TYPE_NONE},
        {CU_MEM_ALLOCATION_TYPE_MANAGED, CU_MEM_LOCATION_TYPE_DEVICE},
        {CU_MEM_ALLOCATION_TYPE_MANAGED, CU_MEM_LOCATION_TYPE_HOST},
    };
    CUmemoryPool devdef, defs[4];
    OK(cuDeviceGetDefaultMemPool(&devdef, 0));
    for (int k = 0; k < 4; k++) {
        CUmemLocation loc = { kinds[k].loc, 0 };
        OK(cuMemGetDefaultMemPool(&defs[k], &loc, kinds[k].type));
        ck_assert_ptr_ne(defs[k], devdef);
        for (int j = 0; j < k; j++) {
            ck_assert_ptr_ne(defs[k], defs[j]);
        }
        CUmemoryPool cur;
        OK(cuMemGetMemPool(&cur, &loc, kinds[k].type));
        ck_assert_ptr_eq(cur, defs[k]);
        /* A pool of this kind, made current for its location. */
        CUmemPoolProps pp;
        memset(&pp, 0, sizeof(pp));
        pp.allocType = kinds[k].type;
        pp.location = loc;
        CUmemoryPool p;
        OK(cuMemPoolCreate(&p, &pp));
        OK(cuMemSetMemPool(&loc, kinds[k].type, p));
        OK(cuMemGetMemPool(&cur, &loc, kinds[k].type));
        ck_assert_ptr_eq(cur, p);
        /* ...but not the device's, nor another kind's. */
        ck_assert_int_eq(cuDeviceSetMemPool(0, p), 1);
        CUmemLocation dl = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
        ck_assert_int_eq(cuMemSetMemPool(&dl, CU_MEM_ALLOCATION_TYPE_PINNED,
                                         p), 1);
        /* The kernel writes, the host reads the block directly. */
        CUdeviceptr d = 0;
        OK(cuMemAllocFromPoolAsync(&d, N * 4, p, NULL));
        void *owner = NULL;
        OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                                 d + 8));
        ck_assert_ptr_eq(owner, p);
        /* A host pool's memory is host memory, a managed pool's managed. */
        int host_pool = kinds[k].type == CU_MEM_ALLOCATION_TYPE_PINNED;
        unsigned mt = 0, im = 9;
        OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
        OK(cuPointerGetAttribute(&im, CU_POINTER_ATTRIBUTE_IS_MANAGED, d));
        ck_assert_uint_eq(mt, host_pool ? CU_MEMORYTYPE_HOST
                                        : CU_MEMORYTYPE_DEVICE);
        ck_assert_uint_eq(im, !host_pool);
        unsigned *h = (unsigned *)(uintptr_t)d;
        h[N - 1] = 12345;
        run_fill(d, N - 1, NULL);
        OK(cuCtxSynchronize());
        for (unsigned i = 0; i < N - 1; i++) {
            ck_assert_uint_eq(h[i], 3 * i + 1);
        }
        ck_assert_uint_eq(h[N - 1], 12345);
        ck_assert_uint_ge(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), N * 4);
        OK(cuMemFreeAsync(d, NULL));
        ck_assert_uint_eq(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0);
        /* Access: the host reads and writes all of them; device 0 a
         * managed pool always, a host pool once granted. */
        int fl = -1;
        CUmemLocation hl = { CU_MEM_LOCATION_TYPE_HOST, 0 };
        OK(cuMemPoolGetAccess(&fl, p, &hl));
        ck_assert_int_eq(fl, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        OK(cuMemPoolGetAccess(&fl, p, &dl));
        ck_assert_int_eq(fl, host_pool ? CU_MEM_ACCESS_FLAGS_PROT_NONE
                                       : CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        CUmemAccessDesc ad = { dl, CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
        OK(cuMemPoolSetAccess(p, &ad, 1));
        OK(cuMemPoolGetAccess(&fl, p, &dl));
        ck_assert_int_eq(fl, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        /* Destroying the current pool makes the default current again. */
        OK(cuMemPoolDestroy(p));
        OK(cuMemGetMemPool(&cur, &loc, kinds[k].type));
        ck_assert_ptr_eq(cur, defs[k]);
    }
    /* The device's current pool was never touched. */
    CUmemoryPool cur;
    OK(cuDeviceGetMemPool(&cur, 0));
    ck_assert_ptr_eq(cur, devdef);
    /* What CUDA refuses: a host pool with an IPC handle type (invalid
     * value, cuMemPoolCreate's documentation), HOST_NUMA_CURRENT as a
     * pool's location, a pinned pool with no location; and host NUMA
     * nodes, which this emulated system does not have. */
    CUmemPoolProps pp;
    memset(&pp, 0, sizeof(pp));
    pp.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    pp.location.type = CU_MEM_LOCATION_TYPE_HOST;
    pp.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUmemoryPool p;
    ck_assert_int_eq(cuMemPoolCreate(&p, &pp), 1);
    pp.handleTypes = 0;
    pp.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
    ck_assert_int_eq(cuMemPoolCreate(&p, &pp), 1);
    pp.location.type = CU_MEM_LOCATION_TYPE_NONE;
    ck_assert_int_eq(cuMemPoolCreate(&p, &pp), 1);
    pp.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
    ck_assert_int_eq(cuMemPoolCreate(&p, &pp), 801);
    OK(cuDeviceGetAttribute(&v,
                            CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED,
                            0));
    ck_assert_int_eq(v, 0);
    /* A device pool's allocation names its pool too. */
    CUdeviceptr d = 0;
    OK(cuMemAllocAsync(&d, 64, NULL));
    void *owner = NULL;
    OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, d));
    ck_assert_ptr_eq(owner, devdef);
    OK(cuMemFreeAsync(d, NULL));
    OK(cuCtxSynchronize());
}
END_TEST

/* A pool's block is the pool's to free: cuMemFreeHost takes only what
 * cuMemAllocHost or cuMemHostAlloc gave ("p ... must have been returned
 * by a previous call to cuMemAllocHost()", CUDA Driver API reference),
 * so a host or managed pool's block, which is the same kind of memory
 * here, is refused and stays its pool's (else the pool would later hand
 * out memory the C library had taken back). */
START_TEST(test_free_host_pool_block)
{
    static const struct {
        int type, loc;
    } kinds[] = {
        {CU_MEM_ALLOCATION_TYPE_PINNED, CU_MEM_LOCATION_TYPE_HOST},
        {CU_MEM_ALLOCATION_TYPE_MANAGED, CU_MEM_LOCATION_TYPE_NONE},
    };
    for (int k = 0; k < 2; k++) {
        CUmemPoolProps pp;
        memset(&pp, 0, sizeof(pp));
        pp.allocType = kinds[k].type;
        pp.location.type = kinds[k].loc;
        CUmemoryPool p;
        OK(cuMemPoolCreate(&p, &pp));
        CUdeviceptr d = 0;
        OK(cuMemAllocFromPoolAsync(&d, 256, p, NULL));
        OK(cuStreamSynchronize(NULL));
        ck_assert_int_eq(cuMemFreeHost((void *)(uintptr_t)d), 1);
        /* Still the pool's, still usable. */
        void *owner = NULL;
        OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                                 d));
        ck_assert_ptr_eq(owner, p);
        memset((void *)(uintptr_t)d, 0x5a, 256);
        OK(cuMemFreeAsync(d, NULL));
        OK(cuStreamSynchronize(NULL));
        OK(cuMemPoolDestroy(p));
    }
    /* What cuMemAllocHost gave is freed as before; managed memory is
     * not cuMemFreeHost's either. */
    void *h = NULL;
    OK(cuMemAllocHost_v2(&h, 64));
    OK(cuMemFreeHost(h));
    CUdeviceptr m = 0;
    OK(cuMemAllocManaged(&m, 64, CU_MEM_ATTACH_GLOBAL));
    ck_assert_int_eq(cuMemFreeHost((void *)(uintptr_t)m), 1);
    OK(cuMemFree_v2(m));
}
END_TEST

/* An allocation node, a kernel node writing the memory, a copy out, a
 * free node; and the same work captured from a stream. */
START_TEST(test_graph_nodes)
{
    enum { N = 80 };
    CUgraph g;
    OK(cuGraphCreate(&g, 0));
    CUDA_MEM_ALLOC_NODE_PARAMS ap;
    memset(&ap, 0, sizeof(ap));
    ap.poolProps = dev_props();
    ap.bytesize = N * 4;
    CUgraphNode an, kn, cn, fn;
    OK(cuGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
    ck_assert_uint_ne(ap.dptr, 0);
    unsigned n = N;
    CUdeviceptr d = ap.dptr;
    void *args[] = { &d, &n };
    CUDA_KERNEL_NODE_PARAMS kp;
    memset(&kp, 0, sizeof(kp));
    kp.func = fill;
    kp.gridDimX = 2;
    kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = 64;
    kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = args;
    OK(cuGraphAddKernelNode_v2(&kn, g, &an, 1, &kp));
    static unsigned h[N];
    CUDA_MEMCPY3D cp;
    memset(&cp, 0, sizeof(cp));
    cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    cp.srcDevice = ap.dptr;
    cp.dstMemoryType = CU_MEMORYTYPE_HOST;
    cp.dstHost = h;
    cp.WidthInBytes = sizeof(h);
    cp.Height = cp.Depth = 1;
    OK(cuGraphAddMemcpyNode(&cn, g, &kn, 1, &cp, NULL));
    OK(cuGraphAddMemFreeNode(&fn, g, &cn, 1, ap.dptr));
    CUdeviceptr fp = 0;
    OK(cuGraphMemFreeNodeGetParams(fn, &fp));
    ck_assert_uint_eq(fp, ap.dptr);
    CUgraph c;
    ck_assert_int_eq(cuGraphClone(&c, g), 801);
    ck_assert_int_eq(cuGraphAddMemFreeNode(&fn, g, NULL, 0, 0x1234), 1);
    /* cuGraphAddMemFreeNode: "Nodes and edges of the graph cannot be
     * deleted", "The graph cannot be used in a child node" (the
     * functions document CUDA_ERROR_INVALID_VALUE); the graph is left
     * as it was. */
    ck_assert_int_eq(cuGraphDestroyNode(cn), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuGraphRemoveDependencies(g, &kn, &cn, 1),
                     CUDA_ERROR_INVALID_VALUE);
    size_t nn = 0, ne = 0;
    OK(cuGraphGetNodes(g, NULL, &nn));
    OK(cuGraphGetEdges(g, NULL, NULL, &ne));
    ck_assert_uint_eq(nn, 4);
    ck_assert_uint_eq(ne, 3);
    CUgraph parent, child;
    CUgraphNode pn;
    OK(cuGraphCreate(&parent, 0));
    ck_assert_int_eq(cuGraphAddChildGraphNode(&pn, parent, NULL, 0, g),
                     CUDA_ERROR_INVALID_VALUE);
    /* Nor are memory nodes added to a child graph node's graph
     * (cuGraphChildGraphNodeGetGraph). */
    OK(cuGraphCreate(&child, 0));
    OK(cuGraphAddEmptyNode(&pn, child, NULL, 0));
    OK(cuGraphAddChildGraphNode(&pn, parent, NULL, 0, child));
    CUgraph inner;
    OK(cuGraphChildGraphNodeGetGraph(pn, &inner));
    CUDA_MEM_ALLOC_NODE_PARAMS ap2 = ap;
    CUgraphNode bad;
    ck_assert_int_eq(cuGraphAddMemAllocNode(&bad, inner, NULL, 0, &ap2),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuGraphAddMemFreeNode(&bad, inner, NULL, 0, ap.dptr),
                     CUDA_ERROR_INVALID_VALUE);
    OK(cuGraphDestroy(parent));
    OK(cuGraphDestroy(child));
    CUgraphExec x;
    OK(cuGraphInstantiateWithFlags(&x, g, 0));
    for (int run = 0; run < 2; run++) {
        memset(h, 0, sizeof(h));
        OK(cuGraphLaunch(x, NULL));
        OK(cuStreamSynchronize(NULL));
        for (unsigned i = 0; i < N; i++) {
            ck_assert_uint_eq(h[i], 3 * i + 1);
        }
        uint64_t used = 1;
        OK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT,
                                        &used));
        ck_assert_uint_eq(used, 0);
    }
    OK(cuGraphExecDestroy(x));
    OK(cuGraphDestroy(g));

    /* Captured: allocation and free nodes around the work. */
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUdeviceptr cd = 0;
    OK(cuMemAllocAsync(&cd, N * 4, s));
    ck_assert_uint_ne(cd, 0);
    run_fill(cd, N, s);
    OK(cuMemcpyDtoHAsync_v2(h, cd, sizeof(h), s));
    OK(cuMemFreeAsync(cd, s));
    OK(cuStreamEndCapture(s, &g));
    size_t count = 0;
    OK(cuGraphGetNodes(g, NULL, &count));
    ck_assert_uint_eq(count, 4);
    CUgraphNode nodes[4];
    OK(cuGraphGetNodes(g, nodes, &count));
    CUgraphNodeType t;
    OK(cuGraphNodeGetType(nodes[0], &t));
    ck_assert_int_eq(t, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    OK(cuGraphNodeGetType(nodes[3], &t));
    ck_assert_int_eq(t, CU_GRAPH_NODE_TYPE_MEM_FREE);
    OK(cuGraphInstantiateWithFlags(&x, g, 0));
    /* cuGraphInstantiate: with allocation or free nodes, "at most one
     * executable graph in existence for that graph at a time"; a
     * second instantiation before cuGraphExecDestroy of the first
     * fails, every form of it (with CUDA_ERROR_INVALID_VALUE: the
     * error is not named there, and cuGraphInstantiate documents no
     * other); after, it works. */
    CUgraphExec x2;
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&x2, g, 0),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuGraphInstantiate_v2(&x2, g, NULL, NULL, 0),
                     CUDA_ERROR_INVALID_VALUE);
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0, sizeof(ip));
    ck_assert_int_eq(cuGraphInstantiateWithParams(&x2, g, &ip),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ip.result_out, CUDA_GRAPH_INSTANTIATE_ERROR);
    memset(h, 0, sizeof(h));
    OK(cuGraphLaunch(x, s));
    OK(cuStreamSynchronize(s));
    for (unsigned i = 0; i < N; i++) {
        ck_assert_uint_eq(h[i], 3 * i + 1);
    }
    OK(cuGraphExecDestroy(x));
    OK(cuGraphInstantiateWithFlags(&x2, g, 0));
    /* The graph may go first; its executable graph still runs. */
    OK(cuGraphDestroy(g));
    memset(h, 0, sizeof(h));
    OK(cuGraphLaunch(x2, s));
    OK(cuStreamSynchronize(s));
    ck_assert_uint_eq(h[N - 1], 3 * (N - 1) + 1);
    OK(cuGraphExecDestroy(x2));
    OK(cuStreamDestroy_v2(s));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("driver_pool");
    TCase *tc = tcase_create("pool");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_attributes);
    tcase_add_test(tc, test_alloc_async);
    tcase_add_test(tc, test_pools);
    tcase_add_test(tc, test_host_managed_pools);
    tcase_add_test(tc, test_free_host_pool_block);
    tcase_add_test(tc, test_graph_nodes);
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
