/*
 * tests/check_graph_cond.c: conditional graph nodes through our
 * libcudart.so.13 and libcuda.so.1 (CUDA programming guide,
 * "Conditional Graph Nodes"; cudaGraphConditionalHandleCreate,
 * cudaGraphAddNode): while, if/else and switch bodies chosen by values
 * that kernels set with cudaGraphSetConditional.  Expected values are
 * worked by hand from the guide's semantics: a while body runs while
 * the condition is non-zero, checked before each pass; an if runs body
 * 0 on non-zero, body 1 (if any) on zero; a switch runs body v if
 * v < size; cudaGraphCondAssignDefault resets the value at each launch.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abi/cuda_abi.h"
#include "runtime/cudart/cudart_api.h"

/* countdown(h, x, n): *x -= 1; *n += 1; set(h, *x != 0).
 * setc(h, pv): set(h, *pv). */
static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func cudaGraphSetConditional(.param .b64 h, .param .b32 v);\n"
    ".visible .entry countdown(.param .u64 p_h, .param .u64 p_x,\n"
    "    .param .u64 p_n)\n{\n"
    "  .reg .pred %p1; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p_h]; ld.param.u64 %rd2, [p_x];\n"
    "  ld.param.u64 %rd3, [p_n];\n"
    "  ld.global.u32 %r1, [%rd2]; sub.u32 %r1, %r1, 1;\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ld.global.u32 %r2, [%rd3]; add.u32 %r2, %r2, 1;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "  setp.ne.u32 %p1, %r1, 0; selp.u32 %r3, 1, 0, %p1;\n"
    "  { .param .b64 a0; .param .b32 a1;\n"
    "    st.param.b64 [a0], %rd1; st.param.b32 [a1], %r3;\n"
    "    call.uni cudaGraphSetConditional, (a0, a1); }\n"
    "  ret;\n}\n"
    ".visible .entry setc(.param .u64 p_h, .param .u64 p_v)\n{\n"
    "  .reg .b32 %r1; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p_h]; ld.param.u64 %rd2, [p_v];\n"
    "  ld.global.u32 %r1, [%rd2];\n"
    "  { .param .b64 a0; .param .b32 a1;\n"
    "    st.param.b64 [a0], %rd1; st.param.b32 [a1], %r1;\n"
    "    call.uni cudaGraphSetConditional, (a0, a1); }\n"
    "  ret;\n}\n";

static const struct {
    unsigned magic, version;
    const void *data;
    void *unused;
} wrapper = { 0x466243b1u, 1, ptx, NULL };

static void countdown_stub(void) {}
static void setc_stub(void) {}
static void **handle;

static void setup(void)
{
    handle = __cudaRegisterFatBinary((void *)&wrapper);
    ck_assert_ptr_nonnull(handle);
    __cudaRegisterFunction(handle, (const char *)(uintptr_t)countdown_stub,
                           (char *)"countdown", "countdown", -1, NULL, NULL,
                           NULL, NULL, NULL);
    __cudaRegisterFunction(handle, (const char *)(uintptr_t)setc_stub,
                           (char *)"setc", "setc", -1, NULL, NULL, NULL,
                           NULL, NULL);
    __cudaRegisterFatBinaryEnd(handle);
    (void)cudaGetLastError();
}

static void teardown(void)
{
    __cudaUnregisterFatBinary(handle);
}

#define OK(call) ck_assert_int_eq((call), cudaSuccess)

static const dim3 one = { 1, 1, 1 };

static void add_kernel(cudaGraph_t g, void (*stub)(void), void **args,
                       cudaGraphNode_t *dep, cudaGraphNode_t *out)
{
    struct cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)(uintptr_t)stub;
    kp.gridDim = one;
    kp.blockDim = one;
    kp.kernelParams = args;
    OK(cudaGraphAddKernelNode(out, g, dep, dep ? 1 : 0, &kp));
}

/* A memset node writing the 4-byte value v over d[0]. */
static void add_set(cudaGraph_t g, unsigned *d, unsigned v)
{
    struct cudaGraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = d;
    np.memset.value = v;
    np.memset.elementSize = 4;
    np.memset.width = 1;
    np.memset.height = 1;
    cudaGraphNode_t n;
    OK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &np));
}

static cudaGraph_t *add_cond(cudaGraph_t g, cudaGraphNode_t *dep,
                             unsigned long long h, int type, unsigned size,
                             cudaGraphNode_t *out)
{
    struct cudaGraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeConditional;
    np.conditional.handle = h;
    np.conditional.type = type;
    np.conditional.size = size;
    OK(cudaGraphAddNode(out, g, dep, NULL, dep ? 1 : 0, &np));
    ck_assert_ptr_nonnull(np.conditional.phGraph_out);
    return np.conditional.phGraph_out;
}

static unsigned get(const unsigned *d)
{
    unsigned v = 0;
    OK(cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost));
    return v;
}

static void put(unsigned *d, unsigned v)
{
    OK(cudaMemcpy(d, &v, 4, cudaMemcpyHostToDevice));
}

/* A graph of one while node (default 1, assigned at each launch) whose
 * body is countdown(h, x, n), over x = d[0], n = d[1]; *cn its node. */
static cudaGraph_t countdown_graph(unsigned *d, unsigned long long *hp,
                                   cudaGraphNode_t *cn)
{
    unsigned *x = d, *n = d + 1;
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    unsigned long long h;
    OK(cudaGraphConditionalHandleCreate(&h, g, 1, 1));
    cudaGraphNode_t kn;
    cudaGraph_t *body = add_cond(g, NULL, h, 1 /* while */, 1, cn);
    void *args[] = { &h, &x, &n };
    add_kernel(body[0], countdown_stub, args, NULL, &kn);
    *hp = h;
    return g;
}

/* while (cond) countdown: runs x times; the default (1, assigned at each
 * launch) starts it again on the next launch. */
START_TEST(test_while)
{
    unsigned *d;
    OK(cudaMalloc((void **)&d, 8));
    unsigned *x = d, *n = d + 1;
    unsigned long long h;
    cudaGraphNode_t cn;
    cudaGraph_t g = countdown_graph(d, &h, &cn);
    enum cudaGraphNodeType t;
    OK(cudaGraphNodeGetType(cn, &t));
    ck_assert_int_eq(t, cudaGraphNodeTypeConditional);
    cudaGraphExec_t e;
    OK(cudaGraphInstantiate(&e, g, 0));
    put(x, 5);
    put(n, 0);
    OK(cudaGraphLaunch(e, 0));
    OK(cudaStreamSynchronize(0));
    ck_assert_uint_eq(get(x), 0);
    ck_assert_uint_eq(get(n), 5);
    put(x, 3);
    put(n, 0);
    OK(cudaGraphLaunch(e, 0));
    OK(cudaStreamSynchronize(0));
    ck_assert_uint_eq(get(n), 3);
    /* A clone runs the same bodies. */
    cudaGraph_t c;
    cudaGraphExec_t ec;
    OK(cudaGraphClone(&c, g));
    OK(cudaGraphInstantiate(&ec, c, 0));
    put(x, 2);
    put(n, 0);
    OK(cudaGraphLaunch(ec, 0));
    ck_assert_uint_eq(get(n), 2);
    OK(cudaGraphExecDestroy(ec));
    OK(cudaGraphDestroy(c));
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));

    /* Default 0 without cudaGraphCondAssignDefault: checked before the
     * first pass, the body never runs. */
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    cudaGraphNode_t kn;
    void *args[] = { &h, &x, &n };
    add_kernel(add_cond(g, NULL, h, 1, 1, &cn)[0], countdown_stub, args,
               NULL, &kn);
    OK(cudaGraphInstantiate(&e, g, 0));
    put(x, 4);
    put(n, 0);
    OK(cudaGraphLaunch(e, 0));
    ck_assert_uint_eq(get(n), 0);
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));
    OK(cudaFree(d));
}
END_TEST

static int hold_flag;

static void hold_until_released(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&hold_flag, __ATOMIC_ACQUIRE)) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
}

/* The usual pattern: instantiate, destroy the graph, launch the
 * executable graph (CUDA: an executable graph does not depend on its
 * source graph).  Its while node still runs its body 4 then 2 times,
 * with the default assigned at each launch; its handle's cell outlives
 * the last executable graph and serves the next handle. */
START_TEST(test_exec_outlives_graph)
{
    unsigned *d;
    OK(cudaMalloc((void **)&d, 8));
    unsigned *x = d, *n = d + 1;
    unsigned long long h;
    cudaGraphNode_t cn;
    cudaGraph_t g = countdown_graph(d, &h, &cn);
    cudaGraphExec_t e, e2;
    OK(cudaGraphInstantiate(&e, g, 0));
    OK(cudaGraphInstantiate(&e2, g, 0));
    OK(cudaGraphDestroy(g));
    put(x, 4);
    put(n, 0);
    OK(cudaGraphLaunch(e, 0));
    OK(cudaStreamSynchronize(0));
    ck_assert_uint_eq(get(n), 4);
    OK(cudaGraphExecDestroy(e));
    /* the other executable graph still has it */
    put(x, 2);
    put(n, 0);
    OK(cudaGraphLaunch(e2, 0));
    OK(cudaStreamSynchronize(0));
    ck_assert_uint_eq(get(x), 0);
    ck_assert_uint_eq(get(n), 2);
    /* Destroying it waits for no device work (CUDA's does not): a host
     * function holds a stream until after the destroy returns. */
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    hold_flag = 0;
    OK(cudaLaunchHostFunc(s, hold_until_released, NULL));
    OK(cudaGraphExecDestroy(e2));
    __atomic_store_n(&hold_flag, 1, __ATOMIC_RELEASE);
    OK(cudaStreamSynchronize(s));
    OK(cudaStreamDestroy(s));
    /* its cell serves the next handle, holding that one's default */
    cudaGraph_t g2;
    unsigned long long h2;
    OK(cudaGraphCreate(&g2, 0));
    OK(cudaGraphConditionalHandleCreate(&h2, g2, 7, 0));
    ck_assert_uint_eq(h2, h);
    ck_assert_uint_eq(*(volatile unsigned *)(uintptr_t)h2, 7);
    OK(cudaGraphDestroy(g2));
    OK(cudaFree(d));
}
END_TEST

/* setc(h, *v) then if/else: body 0 writes 1, body 1 writes 2. */
START_TEST(test_if_else)
{
    unsigned *d;
    OK(cudaMalloc((void **)&d, 8));
    unsigned *v = d, *out = d + 1;
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    unsigned long long h;
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, 1));
    cudaGraphNode_t kn, cn;
    void *args[] = { &h, &v };
    add_kernel(g, setc_stub, args, NULL, &kn);
    cudaGraph_t *body = add_cond(g, &kn, h, 0 /* if */, 2, &cn);
    add_set(body[0], out, 1);
    add_set(body[1], out, 2);
    cudaGraphExec_t e;
    OK(cudaGraphInstantiate(&e, g, 0));
    static const unsigned vals[] = { 7, 0, 1 }, want[] = { 1, 2, 1 };
    for (int k = 0; k < 3; k++) {
        put(v, vals[k]);
        put(out, 0);
        OK(cudaGraphLaunch(e, 0));
        ck_assert_uint_eq(get(out), want[k]);
    }
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));

    /* An if without else on zero runs nothing. */
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, 1));
    add_kernel(g, setc_stub, args, NULL, &kn);
    body = add_cond(g, &kn, h, 0, 1, &cn);
    add_set(body[0], out, 9);
    OK(cudaGraphInstantiate(&e, g, 0));
    put(v, 0);
    put(out, 5);
    OK(cudaGraphLaunch(e, 0));
    ck_assert_uint_eq(get(out), 5);
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));
    OK(cudaFree(d));
}
END_TEST

START_TEST(test_switch)
{
    unsigned *d;
    OK(cudaMalloc((void **)&d, 8));
    unsigned *v = d, *out = d + 1;
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    unsigned long long h;
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    cudaGraphNode_t kn, cn;
    void *args[] = { &h, &v };
    add_kernel(g, setc_stub, args, NULL, &kn);
    cudaGraph_t *body = add_cond(g, &kn, h, 2 /* switch */, 3, &cn);
    for (unsigned b = 0; b < 3; b++)
        add_set(body[b], out, 10 + b);
    cudaGraphExec_t e;
    OK(cudaGraphInstantiate(&e, g, 0));
    static const unsigned vals[] = { 2, 0, 1, 3 }, want[] = { 12, 10, 11, 77 };
    for (int k = 0; k < 4; k++) {
        put(v, vals[k]);
        put(out, 77);
        OK(cudaGraphLaunch(e, 0));
        ck_assert_uint_eq(get(out), want[k]);
    }
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));
    OK(cudaFree(d));
}
END_TEST

START_TEST(test_errors)
{
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    unsigned long long h;
    ck_assert_int_eq(cudaGraphConditionalHandleCreate(&h, g, 0, 2),
                     cudaErrorInvalidValue);
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    struct cudaGraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeConditional;
    np.conditional.handle = h;
    cudaGraphNode_t n;
    np.conditional.type = 0;
    np.conditional.size = 3;            /* if: 1 or 2 */
    ck_assert_int_eq(cudaGraphAddNode(&n, g, NULL, NULL, 0, &np),
                     cudaErrorInvalidValue);
    np.conditional.type = 1;
    np.conditional.size = 2;            /* while: 1 */
    ck_assert_int_eq(cudaGraphAddNode(&n, g, NULL, NULL, 0, &np),
                     cudaErrorInvalidValue);
    np.conditional.type = 2;
    np.conditional.size = 0;            /* switch: more than 0 */
    ck_assert_int_eq(cudaGraphAddNode(&n, g, NULL, NULL, 0, &np),
                     cudaErrorInvalidValue);
    np.conditional.size = 1;
    np.conditional.handle = h + 64;     /* not a handle */
    ck_assert_int_eq(cudaGraphAddNode(&n, g, NULL, NULL, 0, &np),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    OK(cudaGraphDestroy(g));
}
END_TEST

/* Which graphs a handle may be used in (CUDA Driver API,
 * cuGraphConditionalHandleCreate: "The conditional handle must be
 * associated with a conditional node in this graph or one of its
 * children"): the graph it was made for, a body of it and a child graph
 * node's graph inside it take it; another graph, and the outer graph
 * for a handle made for a body, refuse it with cudaErrorInvalidValue. */
START_TEST(test_handle_graph)
{
    cudaGraph_t g, other, child;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphCreate(&other, 0));
    OK(cudaGraphCreate(&child, 0));
    unsigned long long h, ho;
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    OK(cudaGraphConditionalHandleCreate(&ho, other, 0, 0));
    struct cudaGraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeConditional;
    np.conditional.type = 0;
    np.conditional.size = 1;
    np.conditional.handle = ho;
    cudaGraphNode_t n, cn;
    ck_assert_int_eq(cudaGraphAddNode(&n, g, NULL, NULL, 0, &np),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    cudaGraph_t *body = add_cond(g, NULL, h, 0, 1, &n);
    add_cond(body[0], NULL, h, 0, 1, &n);       /* in a body of g */
    unsigned long long hb;
    OK(cudaGraphConditionalHandleCreate(&hb, body[0], 0, 0));
    np.conditional.handle = hb;                 /* a body's, in g */
    ck_assert_int_eq(cudaGraphAddNode(&n, g, NULL, NULL, 0, &np),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    OK(cudaGraphAddChildGraphNode(&cn, g, NULL, 0, child));
    cudaGraph_t inner;
    OK(cudaGraphChildGraphNodeGetGraph(cn, &inner));
    add_cond(inner, NULL, h, 0, 1, &n);         /* a child node's graph */
    np.conditional.handle = ho;
    ck_assert_int_eq(cudaGraphAddNode(&n, inner, NULL, NULL, 0, &np),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    /* copies keep their handles */
    cudaGraph_t copy;
    OK(cudaGraphClone(&copy, g));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphExecDestroy(x));
    cudaGraph_t all[] = { copy, child, other, g };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        OK(cudaGraphDestroy(all[i]));
}
END_TEST

/* A cycle inside a conditional body makes the graph's structure invalid
 * (cudaGraphInstantiateWithParams: cudaGraphInstantiateInvalidStructure,
 * errNode_out one of the offending nodes: the conditional node, as for a
 * child graph node whose graph has one). */
START_TEST(test_cycle_in_body)
{
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    unsigned long long h;
    OK(cudaGraphConditionalHandleCreate(&h, g, 1, 1));
    cudaGraphNode_t c, a, b;
    cudaGraph_t *body = add_cond(g, NULL, h, 1, 1, &c);
    OK(cudaGraphAddEmptyNode(&a, body[0], NULL, 0));
    OK(cudaGraphAddEmptyNode(&b, body[0], &a, 1));
    OK(cudaGraphAddDependencies(body[0], &b, &a, NULL, 1));
    cudaGraphExec_t x = NULL;
    cudaGraphInstantiateParams ip;
    memset(&ip, 0, sizeof ip);
    ck_assert_int_ne(cudaGraphInstantiateWithParams(&x, g, &ip),
                     cudaSuccess);
    (void)cudaGetLastError();
    ck_assert_int_eq(ip.result_out, cudaGraphInstantiateInvalidStructure);
    ck_assert_ptr_eq(ip.errNode_out, c);
    OK(cudaGraphDestroy(g));
}
END_TEST

static void host_fn(void *arg) { (void)arg; }

/* What a body may hold (CUDA Driver API, CUDA_CONDITIONAL_NODE_PARAMS:
 * "kernel nodes, empty nodes, child graphs, memsets, memcopies, and
 * conditionals", recursively through child graphs and nested bodies):
 * host, event, memory-allocation nodes and child graphs holding them are
 * refused with cudaErrorInvalidValue, in the body, in a nested body and
 * in a child graph node's graph inside a body; the allowed kinds go in,
 * and the same refused nodes still go into an ordinary graph. */
START_TEST(test_body_node_kinds)
{
    cudaGraph_t g, plain;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphCreate(&plain, 0));
    unsigned long long h, h2;
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    OK(cudaGraphConditionalHandleCreate(&h2, g, 0, 0));
    cudaGraphNode_t cn, inner, n;
    cudaGraph_t body = add_cond(g, NULL, h, 0, 1, &cn)[0];
    cudaGraph_t nested = add_cond(body, NULL, h2, 1, 1, &inner)[0];
    unsigned *d;
    OK(cudaMalloc((void **)&d, 16));
    struct cudaHostNodeParams hp = { host_fn, NULL };
    cudaEvent_t ev;
    OK(cudaEventCreate(&ev));
    struct cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = 1;          /* cudaMemAllocationTypePinned */
    ap.poolProps.location.type = 1;      /* cudaMemLocationTypeDevice */
    ap.bytesize = 256;
    /* a child graph with a host node, and one with a memset only */
    cudaGraph_t with_host, clean;
    OK(cudaGraphCreate(&with_host, 0));
    OK(cudaGraphAddHostNode(&n, with_host, NULL, 0, &hp));
    OK(cudaGraphCreate(&clean, 0));
    add_set(clean, d, 7);
    cudaGraph_t targets[2] = { body, nested };
    for (int t = 0; t < 2; t++) {
        cudaGraph_t b = targets[t];
        ck_assert_int_eq(cudaGraphAddHostNode(&n, b, NULL, 0, &hp),
                         cudaErrorInvalidValue);
        ck_assert_int_eq(cudaGraphAddEventRecordNode(&n, b, NULL, 0, ev),
                         cudaErrorInvalidValue);
        ck_assert_int_eq(cudaGraphAddEventWaitNode(&n, b, NULL, 0, ev),
                         cudaErrorInvalidValue);
        ck_assert_int_eq(cudaGraphAddMemAllocNode(&n, b, NULL, 0, &ap),
                         cudaErrorInvalidValue);
        ck_assert_int_eq(cudaGraphAddChildGraphNode(&n, b, NULL, 0,
                                                    with_host),
                         cudaErrorInvalidValue);
        (void)cudaGetLastError();
        OK(cudaGraphAddEmptyNode(&n, b, NULL, 0));
        add_set(b, d, 1);
        OK(cudaGraphAddChildGraphNode(&n, b, NULL, 0, clean));
        /* the child's own graph is inside the body too */
        cudaGraph_t cg;
        OK(cudaGraphChildGraphNodeGetGraph(n, &cg));
        ck_assert_int_eq(cudaGraphAddHostNode(&n, cg, NULL, 0, &hp),
                         cudaErrorInvalidValue);
        (void)cudaGetLastError();
    }
    OK(cudaGraphAddHostNode(&n, plain, NULL, 0, &hp));
    OK(cudaGraphAddEventRecordNode(&n, plain, NULL, 0, ev));
    OK(cudaGraphAddChildGraphNode(&n, plain, NULL, 0, with_host));
    OK(cudaGraphDestroy(with_host));
    OK(cudaGraphDestroy(clean));
    OK(cudaGraphDestroy(plain));
    OK(cudaGraphDestroy(g));
    OK(cudaEventDestroy(ev));
    OK(cudaFree(d));
}
END_TEST

/* The driver's forms: a while node made with cuGraphAddNode, its body a
 * kernel node made the same way. */
START_TEST(test_driver)
{
    CUmodule mod;
    CUfunction f;
    OK(cudaFree(0));                    /* the primary context */
    ck_assert_int_eq(cuModuleLoadData(&mod, ptx), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleGetFunction(&f, mod, "countdown"), CUDA_SUCCESS);
    CUdeviceptr d;
    ck_assert_int_eq(cuMemAlloc_v2(&d, 8), CUDA_SUCCESS);
    CUgraph g;
    ck_assert_int_eq(cuGraphCreate(&g, 0), CUDA_SUCCESS);
    CUgraphConditionalHandle h;
    ck_assert_int_eq(cuGraphConditionalHandleCreate(&h, g, NULL, 1, 1),
                     CUDA_SUCCESS);
    CUgraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    np.conditional.handle = h;
    np.conditional.type = 1;
    np.conditional.size = 1;
    CUgraphNode cn, kn;
    ck_assert_int_eq(cuGraphAddNode(&cn, g, NULL, 0, &np), CUDA_SUCCESS);
    CUgraph body = np.conditional.phGraph_out[0];
    CUdeviceptr x = d, n = d + 4;
    void *args[] = { &h, &x, &n };
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_KERNEL;
    np.kernel.func = f;
    np.kernel.gridDimX = np.kernel.gridDimY = np.kernel.gridDimZ = 1;
    np.kernel.blockDimX = np.kernel.blockDimY = np.kernel.blockDimZ = 1;
    np.kernel.kernelParams = args;
    ck_assert_int_eq(cuGraphAddNode_v2(&kn, body, NULL, NULL, 0, &np),
                     CUDA_SUCCESS);
    CUgraphExec e;
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&e, g, 0), CUDA_SUCCESS);
    unsigned init[2] = { 6, 0 }, res[2];
    ck_assert_int_eq(cuMemcpyHtoD_v2(d, init, 8), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphLaunch(e, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(res, d, 8), CUDA_SUCCESS);
    ck_assert_uint_eq(res[0], 0);
    ck_assert_uint_eq(res[1], 6);
    ck_assert_int_eq(cuGraphExecDestroy(e), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphDestroy(g), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFree_v2(d), CUDA_SUCCESS);
}
END_TEST

/* The bodies filled by stream capture (cudaStreamBeginCaptureToGraph,
 * ended without asking for the graph back, as NVIDIA's
 * graphConditionalNodes sample does), the conditional node itself added
 * to a capture graph between captured work. */
START_TEST(test_captured_bodies)
{
    unsigned *d;
    OK(cudaMalloc((void **)&d, 8));
    unsigned *v = d, *out = d + 1;
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t g, cg;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaStreamBeginCaptureToGraph(s, g, NULL, NULL, 0,
                                     cudaStreamCaptureModeGlobal));
    unsigned long long h;
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, 1));
    void *args[] = { &h, &v };
    OK(cudaLaunchKernel((const void *)(uintptr_t)setc_stub, one, one, args,
                        0, s));
    enum cudaStreamCaptureStatus st;
    const cudaGraphNode_t *deps;
    size_t nd;
    OK(cudaStreamGetCaptureInfo(s, &st, NULL, &cg, &deps, NULL, &nd));
    ck_assert_ptr_eq(cg, g);
    ck_assert_uint_eq(nd, 1);
    cudaGraphNode_t cn;
    cudaGraph_t *body = add_cond(cg, (cudaGraphNode_t *)deps, h, 0, 1, &cn);
    OK(cudaStreamUpdateCaptureDependencies(s, &cn, NULL, 1, 1));
    OK(cudaStreamEndCapture(s, NULL));
    OK(cudaStreamBeginCaptureToGraph(s, body[0], NULL, NULL, 0,
                                     cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(out, 0x11, 4, s));
    OK(cudaStreamEndCapture(s, NULL));
    cudaGraphExec_t e;
    OK(cudaGraphInstantiate(&e, g, 0));
    static const unsigned vals[] = { 1, 0 }, want[] = { 0x11111111u, 5 };
    for (int k = 0; k < 2; k++) {
        put(v, vals[k]);
        put(out, 5);
        OK(cudaGraphLaunch(e, s));
        OK(cudaStreamSynchronize(s));
        ck_assert_uint_eq(get(out), want[k]);
    }
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));
    /* A capture into a graph of its own must hand it back. */
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    ck_assert_int_eq(cudaStreamEndCapture(s, NULL), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    OK(cudaStreamEndCapture(s, &g));
    OK(cudaGraphDestroy(g));
    OK(cudaStreamDestroy(s));
    OK(cudaFree(d));
}
END_TEST

/* The generic update (cudaGraphNodeSetParams, cudaGraphExecNodeSetParams
 * and the driver's): a memset node's value changed in the graph, then in
 * the executable graph only; memory nodes cannot change. */
START_TEST(test_generic_set)
{
    unsigned *d;
    OK(cudaMalloc((void **)&d, 4));
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    struct cudaGraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = d;
    np.memset.value = 1;
    np.memset.elementSize = 4;
    np.memset.width = 1;
    np.memset.height = 1;
    cudaGraphNode_t n;
    OK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &np));
    np.memset.value = 2;
    OK(cudaGraphNodeSetParams(n, &np));
    cudaGraphExec_t e;
    OK(cudaGraphInstantiate(&e, g, 0));
    OK(cudaGraphLaunch(e, 0));
    ck_assert_uint_eq(get(d), 2);
    np.memset.value = 3;
    OK(cudaGraphExecNodeSetParams(e, n, &np));
    OK(cudaGraphLaunch(e, 0));
    ck_assert_uint_eq(get(d), 3);
    struct cudaMemsetParams mp;
    OK(cudaGraphMemsetNodeGetParams(n, &mp));
    ck_assert_uint_eq(mp.value, 2);     /* the graph's node kept its own */
    /* The driver's form refuses a runtime node (each library keeps graphs
     * of its own). */
    CUgraphNodeParams cp;
    memset(&cp, 0, sizeof cp);
    cp.type = CU_GRAPH_NODE_TYPE_MEMSET;
    ck_assert_int_eq(cuGraphNodeSetParams(n, &cp), CUDA_ERROR_INVALID_VALUE);
    np.type = cudaGraphNodeTypeHost;    /* not the node's type */
    ck_assert_int_eq(cudaGraphNodeSetParams(n, &np), cudaErrorInvalidValue);
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemAlloc;
    np.alloc.poolProps.allocType = 1;
    np.alloc.poolProps.location.type = 1;
    np.alloc.bytesize = 64;
    cudaGraphNode_t an;
    OK(cudaGraphAddNode(&an, g, NULL, NULL, 0, &np));
    ck_assert_ptr_nonnull(np.alloc.dptr);
    ck_assert_int_eq(cudaGraphNodeSetParams(an, &np), cudaErrorNotSupported);
    (void)cudaGetLastError();
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));
    OK(cudaFree(d));
}
END_TEST

/* A host function that holds its stream until released. */
static volatile int held_go;

static void hold(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&held_go, __ATOMIC_ACQUIRE)) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
}

static void *release_later(void *arg)
{
    (void)arg;
    struct timespec ts = { 0, 300000000 };
    nanosleep(&ts, NULL);
    __atomic_store_n(&held_go, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* A graph with a conditional handle destroyed while an executable graph
 * destroyed in flight (CUDA frees it when its launch is done) still
 * waits in a stream: the launch's end frees the executable copy on the
 * device worker while cuGraphDestroy frees the handle's cell, which
 * waits for the device (cuMemFreeHost).  Both complete; this hung when
 * the handles' lock was held across that wait. */
START_TEST(test_destroy_while_exec_in_flight)
{
    OK(cudaFree(0));                    /* the primary context */
    CUgraph g, other;
    ck_assert_int_eq(cuGraphCreate(&g, 0), CUDA_SUCCESS);
    CUgraphConditionalHandle h;
    ck_assert_int_eq(cuGraphConditionalHandleCreate(&h, g, NULL, 0, 0),
                     CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphCreate(&other, 0), CUDA_SUCCESS);
    CUgraphNode en;
    ck_assert_int_eq(cuGraphAddEmptyNode(&en, other, NULL, 0), CUDA_SUCCESS);
    CUgraphExec x;
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&x, other, 0), CUDA_SUCCESS);
    CUstream s;
    ck_assert_int_eq(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING),
                     CUDA_SUCCESS);
    held_go = 0;
    ck_assert_int_eq(cuLaunchHostFunc(s, hold, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphLaunch(x, s), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphExecDestroy(x), CUDA_SUCCESS);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, release_later, NULL), 0);
    ck_assert_int_eq(cuGraphDestroy(g), CUDA_SUCCESS);
    pthread_join(t, NULL);
    ck_assert_int_eq(cuStreamSynchronize(s), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamDestroy_v2(s), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphDestroy(other), CUDA_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("graph_cond");
    TCase *tc = tcase_create("cond");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_while);
    tcase_add_test(tc, test_exec_outlives_graph);
    tcase_add_test(tc, test_if_else);
    tcase_add_test(tc, test_switch);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_handle_graph);
    tcase_add_test(tc, test_cycle_in_body);
    tcase_add_test(tc, test_body_node_kinds);
    tcase_add_test(tc, test_captured_bodies);
    tcase_add_test(tc, test_generic_set);
    tcase_add_test(tc, test_driver);
    tcase_add_test(tc, test_destroy_while_exec_in_flight);
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
