/*
 * tests/check_cudart_graph.c: CUDA graphs and stream capture in our
 * libcudart.so.13.  One program of 20 operations (kernels, copies,
 * memsets, host calls) whose result depends on their order is run three
 * ways: by a host model written here (the reference), eagerly through
 * the runtime, and as a graph (built node by node, or captured from two
 * streams forked and joined with events); all must agree exactly.
 * Registration of the PTX is done as nvcc's host code does it (see
 * tests/check_cudart.c).
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abi/cuda_abi.h"
#include "runtime/cudart/cudart_api.h"

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size,
                       int constant, int global);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun,
                            char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);

/* scale_add(x, n, a, b): x[i] = x[i] * a + b.
 * mix(y, x, n, c): y[i] = y[i] + c * x[i].
 * Both round each operation separately (no fused multiply-add), as the
 * host model does; the test values are exact in float anyway. */
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".global .align 4 .u32 gvar[8];\n"
    ".visible .entry scale_add(.param .u64 p_x, .param .u32 p_n,\n"
    "    .param .f32 p_a, .param .f32 p_b)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .f32 %f<6>; .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p_x];\n"
    "  ld.param.u32 %r1, [p_n];\n"
    "  ld.param.f32 %f1, [p_a];\n"
    "  ld.param.f32 %f2, [p_b];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.f32 %f3, [%rd3];\n"
    "  mul.rn.f32 %f4, %f3, %f1;\n"
    "  add.rn.f32 %f5, %f4, %f2;\n"
    "  st.global.f32 [%rd3], %f5;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry mix(.param .u64 p_y, .param .u64 p_x,\n"
    "    .param .u32 p_n, .param .f32 p_c)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .f32 %f<6>; .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [p_y];\n"
    "  ld.param.u64 %rd2, [p_x];\n"
    "  ld.param.u32 %r1, [p_n];\n"
    "  ld.param.f32 %f1, [p_c];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd3, %r5, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.f32 %f2, [%rd4];\n"
    "  ld.global.f32 %f3, [%rd5];\n"
    "  mul.rn.f32 %f4, %f3, %f1;\n"
    "  add.rn.f32 %f5, %f2, %f4;\n"
    "  st.global.f32 [%rd4], %f5;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    /* wait_flag(f): spins until the word at f (host-mapped memory the
     * host sets) is non-zero. */
    ".visible .entry wait_flag(.param .u64 p_f)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p_f];\n"
    "SPIN:\n"
    "  ld.volatile.global.u32 %r1, [%rd1];\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 bra SPIN;\n"
    "  ret;\n"
    "}\n";

static const struct {
    unsigned magic, version;
    const void *data;
    void *unused;
} wrapper = { 0x466243b1u, 1, ptx, NULL };

static void scale_add_stub(void) {}
static void mix_stub(void) {}
static void wait_flag_stub(void) {}
static unsigned gvar[8];        /* the host shadow of gvar */
static void **handle;

static void setup(void)
{
    handle = __cudaRegisterFatBinary((void *)&wrapper);
    ck_assert_ptr_nonnull(handle);
    __cudaRegisterFunction(handle, (const char *)(uintptr_t)scale_add_stub,
                           (char *)"scale_add", "scale_add", -1, NULL, NULL,
                           NULL, NULL, NULL);
    __cudaRegisterFunction(handle, (const char *)(uintptr_t)mix_stub,
                           (char *)"mix", "mix", -1, NULL, NULL, NULL,
                           NULL, NULL);
    __cudaRegisterFunction(handle, (const char *)(uintptr_t)wait_flag_stub,
                           (char *)"wait_flag", "wait_flag", -1, NULL, NULL,
                           NULL, NULL, NULL);
    __cudaRegisterVar(handle, (char *)gvar, (char *)"gvar", "gvar", 0,
                      sizeof gvar, 0, 0);
    __cudaRegisterFatBinaryEnd(handle);
    (void)cudaGetLastError();
}

static void teardown(void)
{
    __cudaUnregisterFatBinary(handle);
}

/* ------------------------------------------------ the test program */

enum { N = 96, NOPS = 20, NHOST = 2 };
#define TPB 32u

/* Buffers: three on the device, four on the host. */
enum buf { A, B, C, HIN, HTMP, OUTA, OUTC, NBUF };

typedef enum op_kind { SCALE, MIX, MEMSET, COPY, HOST, EMPTY } op_kind;

typedef struct op {
    op_kind kind;
    enum buf dst, src;          /* src: MIX, COPY */
    float a, b;                 /* SCALE: a, b; MIX: c = a */
    unsigned value;             /* MEMSET: 4-byte value */
    size_t count;               /* MEMSET: elements from the start */
    int deps[3];                /* earlier ops, -1 ends */
} op;

/* Every pair of operations touching a buffer, one writing, is ordered
 * through the dependencies, so every order they allow gives one result;
 * two diamonds (0,1 -> 2,3 -> 4; 5 -> 6,7 -> 8) and a join (15). */
static const op prog[NOPS] = {
    /*  0 */ { MEMSET, A, A, 0, 0, 0u, N, { -1 } },
    /*  1 */ { COPY, B, HIN, 0, 0, 0, 0, { -1 } },
    /*  2 */ { SCALE, A, A, 2.0f, 3.0f, 0, 0, { 0, -1 } },
    /*  3 */ { SCALE, B, B, 0.5f, 1.0f, 0, 0, { 1, -1 } },
    /*  4 */ { MIX, A, B, 2.0f, 0, 0, 0, { 2, 3, -1 } },
    /*  5 */ { COPY, C, A, 0, 0, 0, 0, { 4, -1 } },
    /*  6 */ { SCALE, C, C, -1.0f, 4.0f, 0, 0, { 5, -1 } },
    /*  7 */ { SCALE, A, A, 3.0f, 0.0f, 0, 0, { 5, -1 } },
    /*  8 */ { MIX, C, A, 1.0f, 0, 0, 0, { 6, 7, -1 } },
    /*  9 */ { COPY, HTMP, C, 0, 0, 0, 0, { 8, -1 } },
    /* 10 */ { HOST, HTMP, HTMP, 0.5f, -1.0f, 0, 0, { 9, -1 } },
    /* 11 */ { COPY, B, HTMP, 0, 0, 0, 0, { 10, 4, -1 } },
    /* 12 */ { MEMSET, C, C, 0, 0, 0x3e3e3e3eu, N / 2, { 9, -1 } },
    /* 13 */ { SCALE, B, B, 1.5f, -2.0f, 0, 0, { 11, -1 } },
    /* 14 */ { MIX, C, B, 0.25f, 0, 0, 0, { 12, 13, -1 } },
    /* 15 */ { EMPTY, A, A, 0, 0, 0, 0, { 14, 7, -1 } },
    /* 16 */ { MIX, A, C, -1.0f, 0, 0, 0, { 15, -1 } },
    /* 17 */ { HOST, HTMP, HTMP, 2.0f, 0.5f, 0, 0, { 15, -1 } },
    /* 18 */ { COPY, OUTA, A, 0, 0, 0, 0, { 16, -1 } },
    /* 19 */ { COPY, OUTC, C, 0, 0, 0, 0, { 16, -1 } },
};

/* The state of one run: where each buffer is and, for the model, the
 * device buffers as host arrays. */
typedef struct world {
    float *buf[NBUF];
    int model;                  /* 1: everything on the host */
    /* What the host nodes saw: each call's op and sequence number. */
    int host_calls, host_seq[8];
} world;

static float host_in[N], host_tmp[N], out_a[N], out_c[N];
static float model_dev[3][N];

/* A host node's work: h[i] = h[i] * a + b, and it notes its call. */
typedef struct host_arg {
    world *w;
    int op;
    float *h;
    float a, b;
} host_arg;

static void host_fn(void *p)
{
    host_arg *ha = p;
    for (int i = 0; i < N; i++)
        ha->h[i] = ha->h[i] * ha->a + ha->b;
    if (ha->w->host_calls < 8)
        ha->w->host_seq[ha->w->host_calls] = ha->op;
    ha->w->host_calls++;
}

static host_arg host_args[NOPS];

static int is_dev(enum buf b)
{
    return b == A || b == B || b == C;
}

static enum cudaMemcpyKind kind_of(const op *o)
{
    return is_dev(o->dst) ? (is_dev(o->src) ? cudaMemcpyDeviceToDevice
                                            : cudaMemcpyHostToDevice)
                          : cudaMemcpyDeviceToHost;
}

static void world_init(world *w, int model, float *dev[3])
{
    memset(w, 0, sizeof *w);
    w->model = model;
    for (int b = 0; b < 3; b++)
        w->buf[b] = model ? model_dev[b] : dev[b];
    w->buf[HIN] = host_in;
    w->buf[HTMP] = host_tmp;
    w->buf[OUTA] = out_a;
    w->buf[OUTC] = out_c;
    for (int i = 0; i < NOPS; i++) {
        host_args[i].w = w;
        host_args[i].op = i;
        host_args[i].h = w->buf[prog[i].dst];
        host_args[i].a = prog[i].a;
        host_args[i].b = prog[i].b;
    }
}

/* The host model of one operation: the reference. */
static void model_op(world *w, int k)
{
    const op *o = &prog[k];
    float *d = w->buf[o->dst], *s = w->buf[o->src];
    switch (o->kind) {
    case SCALE:
        for (int i = 0; i < N; i++)
            d[i] = d[i] * o->a + o->b;
        break;
    case MIX:
        for (int i = 0; i < N; i++)
            d[i] = d[i] + o->a * s[i];
        break;
    case MEMSET:
        for (size_t i = 0; i < o->count; i++)
            memcpy(&d[i], &o->value, 4);
        break;
    case COPY:
        memcpy(d, s, N * sizeof *d);
        break;
    case HOST:
        host_fn(&host_args[k]);
        break;
    case EMPTY:
        break;
    }
}

static dim3 d3(unsigned x)
{
    dim3 d = { x, 1, 1 };
    return d;
}

/* A kernel node of stub's kernel on a 1-D grid. */
static struct cudaKernelNodeParams knode(void (*stub)(void), unsigned grid,
                                         unsigned block, void **args)
{
    struct cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)(uintptr_t)stub;
    kp.gridDim = d3(grid);
    kp.blockDim = d3(block);
    kp.kernelParams = args;
    return kp;
}

/* Kernel node parameters for op k; the argument values live in *store
 * (the runtime copies them when the node is made). */
typedef struct kargs {
    float *x, *y;
    unsigned n;
    float a, b;
    void *argv[4];
} kargs;

static struct cudaKernelNodeParams kernel_params(const world *w, int k,
                                                 kargs *st)
{
    const op *o = &prog[k];
    struct cudaKernelNodeParams p;
    memset(&p, 0, sizeof p);
    p.gridDim = d3((N + TPB - 1) / TPB);
    p.blockDim = d3(TPB);
    st->n = N;
    st->a = o->a;
    st->b = o->b;
    if (o->kind == SCALE) {
        st->x = w->buf[o->dst];
        p.func = (void *)(uintptr_t)scale_add_stub;
        st->argv[0] = &st->x;
        st->argv[1] = &st->n;
        st->argv[2] = &st->a;
        st->argv[3] = &st->b;
    } else {
        st->y = w->buf[o->dst];
        st->x = w->buf[o->src];
        p.func = (void *)(uintptr_t)mix_stub;
        st->argv[0] = &st->y;
        st->argv[1] = &st->x;
        st->argv[2] = &st->n;
        st->argv[3] = &st->a;
    }
    p.kernelParams = st->argv;
    return p;
}

/* Issues op k to stream s through the ordinary (eager or captured)
 * entry points. */
static void stream_op(world *w, int k, cudaStream_t s)
{
    const op *o = &prog[k];
    float *d = w->buf[o->dst], *src = w->buf[o->src];
    kargs st;
    struct cudaKernelNodeParams p;
    switch (o->kind) {
    case SCALE:
    case MIX:
        p = kernel_params(w, k, &st);
        ck_assert_int_eq(cudaLaunchKernel(p.func, p.gridDim, p.blockDim,
                                          p.kernelParams, 0, s),
                         cudaSuccess);
        break;
    case MEMSET:
        /* Whole words: a byte memset of the repeated byte. */
        ck_assert_uint_eq(o->value & 0xff, o->value >> 24);
        ck_assert_int_eq(cudaMemsetAsync(d, (int)(o->value & 0xff),
                                         o->count * 4, s), cudaSuccess);
        break;
    case COPY:
        ck_assert_int_eq(cudaMemcpyAsync(d, src, N * sizeof *d,
                                         kind_of(o), s), cudaSuccess);
        break;
    case HOST:
        ck_assert_int_eq(cudaLaunchHostFunc(s, host_fn, &host_args[k]),
                         cudaSuccess);
        break;
    case EMPTY:
        break;
    }
}

/* Adds op k as a node of g, without dependencies. */
static cudaGraphNode_t add_op(world *w, cudaGraph_t g, int k)
{
    const op *o = &prog[k];
    cudaGraphNode_t n = NULL;
    cudaError_t e = cudaErrorUnknown;
    kargs st;
    struct cudaKernelNodeParams kp;
    struct cudaMemsetParams mp;
    struct cudaHostNodeParams hp;
    switch (o->kind) {
    case SCALE:
    case MIX:
        kp = kernel_params(w, k, &st);
        e = cudaGraphAddKernelNode(&n, g, NULL, 0, &kp);
        /* The node keeps the values it was given. */
        memset(&st, 0xff, sizeof st);
        break;
    case MEMSET:
        memset(&mp, 0, sizeof mp);
        mp.dst = w->buf[o->dst];
        mp.value = o->value;
        mp.elementSize = 4;
        mp.width = o->count;
        mp.height = 1;
        e = cudaGraphAddMemsetNode(&n, g, NULL, 0, &mp);
        break;
    case COPY:
        e = cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, w->buf[o->dst],
                                     w->buf[o->src], N * sizeof(float),
                                     kind_of(o));
        break;
    case HOST:
        hp.fn = host_fn;
        hp.userData = &host_args[k];
        e = cudaGraphAddHostNode(&n, g, NULL, 0, &hp);
        break;
    case EMPTY:
        e = cudaGraphAddEmptyNode(&n, g, NULL, 0);
        break;
    }
    ck_assert_int_eq(e, cudaSuccess);
    ck_assert_ptr_nonnull(n);
    return n;
}

/* The program as a graph, its nodes created in reverse (so that only
 * the dependencies, added afterwards, can give the order). */
static cudaGraph_t build_graph(world *w, cudaGraphNode_t nodes[NOPS])
{
    cudaGraph_t g;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    for (int k = NOPS - 1; k >= 0; k--)
        nodes[k] = add_op(w, g, k);
    for (int k = 0; k < NOPS; k++)
        for (int j = 0; prog[k].deps[j] >= 0; j++) {
            cudaGraphNode_t from = nodes[prog[k].deps[j]], to = nodes[k];
            ck_assert_int_eq(cudaGraphAddDependencies(g, &from, &to, NULL,
                                                      1), cudaSuccess);
        }
    return g;
}

static void fill_input(float seed)
{
    for (int i = 0; i < N; i++)
        host_in[i] = (float)(i % 17) * 0.5f + seed;
    memset(host_tmp, 0, sizeof host_tmp);
    memset(out_a, 0, sizeof out_a);
    memset(out_c, 0, sizeof out_c);
}

/* The model's results for input `seed`. */
typedef struct result {
    float a[N], c[N], tmp[N];
    int host_calls, host_seq[2];
} result;

static void model_run(result *r, float seed)
{
    world w;
    fill_input(seed);
    memset(model_dev, 0, sizeof model_dev);
    world_init(&w, 1, NULL);
    for (int k = 0; k < NOPS; k++)
        model_op(&w, k);
    memcpy(r->a, out_a, sizeof r->a);
    memcpy(r->c, out_c, sizeof r->c);
    memcpy(r->tmp, host_tmp, sizeof r->tmp);
    r->host_calls = w.host_calls;
    r->host_seq[0] = w.host_seq[0];
    r->host_seq[1] = w.host_seq[1];
}

static void check_result(const result *want, const world *w,
                         const char *how)
{
    for (int i = 0; i < N; i++) {
        ck_assert_msg(out_a[i] == want->a[i], "%s: A[%d] = %g, want %g",
                      how, i, (double)out_a[i], (double)want->a[i]);
        ck_assert_msg(out_c[i] == want->c[i], "%s: C[%d] = %g, want %g",
                      how, i, (double)out_c[i], (double)want->c[i]);
        ck_assert_msg(host_tmp[i] == want->tmp[i], "%s: tmp[%d]", how, i);
    }
    ck_assert_int_eq(w->host_calls, want->host_calls);
    ck_assert_int_eq(w->host_seq[0], want->host_seq[0]);
    ck_assert_int_eq(w->host_seq[1], want->host_seq[1]);
}

static void dev_alloc(float *dev[3])
{
    for (int b = 0; b < 3; b++) {
        ck_assert_int_eq(cudaMalloc((void **)&dev[b], N * sizeof(float)),
                         cudaSuccess);
        /* Garbage the program must overwrite before reading. */
        ck_assert_int_eq(cudaMemset(dev[b], 0x41, N * sizeof(float)),
                         cudaSuccess);
    }
    memset(model_dev, 0x41, sizeof model_dev);
}

static void dev_free(float *dev[3])
{
    for (int b = 0; b < 3; b++)
        ck_assert_int_eq(cudaFree(dev[b]), cudaSuccess);
}

/* ------------------------------------------------------------ tests */

/* The model itself is order-sensitive: running two dependent
 * operations swapped changes the result (else the checks below could
 * not see a wrong order). */
START_TEST(test_model_order_matters)
{
    result r;
    model_run(&r, 1.0f);
    world w;
    fill_input(1.0f);
    memset(model_dev, 0, sizeof model_dev);
    world_init(&w, 1, NULL);
    static const int swapped[NOPS] = { 0, 1, 3, 2, 5, 4, 6, 7, 8, 9, 10,
                                       11, 12, 13, 14, 15, 16, 17, 18,
                                       19 };
    for (int k = 0; k < NOPS; k++)
        model_op(&w, swapped[k]);
    ck_assert(memcmp(out_a, r.a, sizeof r.a) != 0);
    ck_assert_int_eq(r.host_calls, 2);
    ck_assert_int_eq(r.host_seq[0], 10);
    ck_assert_int_eq(r.host_seq[1], 17);
    /* Hand check of the last element (input 10 * 0.5 + 1 = 6, past the
     * memset of op 12): A = 0*2+3 = 3, B = 6*0.5+1 = 4, A = 3+2*4 = 11,
     * C = 11, C = -11+4 = -7, A = 33, C = -7+33 = 26, tmp = 26*0.5-1 =
     * 12, B = 12*1.5-2 = 16, C = 26+0.25*16 = 30, A = 33-30 = 3, and
     * op 17 makes tmp 12*2+0.5 = 24.5. */
    ck_assert(r.a[N - 1] == 3.0f);
    ck_assert(r.c[N - 1] == 30.0f);
    ck_assert(r.tmp[N - 1] == 24.5f);
}
END_TEST

START_TEST(test_eager_matches_model)
{
    result want;
    model_run(&want, 1.0f);
    float *dev[3];
    dev_alloc(dev);
    world w;
    fill_input(1.0f);
    world_init(&w, 0, dev);
    for (int k = 0; k < NOPS; k++)
        stream_op(&w, k, 0);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    check_result(&want, &w, "eager");
    dev_free(dev);
}
END_TEST

START_TEST(test_explicit_graph)
{
    float *dev[3];
    dev_alloc(dev);
    world w;
    world_init(&w, 0, dev);
    cudaGraphNode_t nodes[NOPS];
    cudaGraph_t g = build_graph(&w, nodes);
    /* Introspection. */
    size_t n = 0;
    ck_assert_int_eq(cudaGraphGetNodes(g, NULL, &n), cudaSuccess);
    ck_assert_uint_eq(n, NOPS);
    cudaGraphNode_t list[NOPS + 2];
    n = NOPS + 2;
    ck_assert_int_eq(cudaGraphGetNodes(g, list, &n), cudaSuccess);
    ck_assert_uint_eq(n, NOPS);
    ck_assert_ptr_eq(list[0], nodes[NOPS - 1]);     /* creation order */
    ck_assert_ptr_null(list[NOPS]);
    ck_assert_int_eq(cudaGraphGetRootNodes(g, NULL, &n), cudaSuccess);
    ck_assert_uint_eq(n, 2);                        /* ops 0 and 1 */
    n = 2;
    ck_assert_int_eq(cudaGraphGetRootNodes(g, list, &n), cudaSuccess);
    ck_assert_ptr_eq(list[0], nodes[1]);
    ck_assert_ptr_eq(list[1], nodes[0]);
    static const enum cudaGraphNodeType types[] = {
        [SCALE] = cudaGraphNodeTypeKernel, [MIX] = cudaGraphNodeTypeKernel,
        [MEMSET] = cudaGraphNodeTypeMemset, [COPY] = cudaGraphNodeTypeMemcpy,
        [HOST] = cudaGraphNodeTypeHost, [EMPTY] = cudaGraphNodeTypeEmpty,
    };
    for (int k = 0; k < NOPS; k++) {
        enum cudaGraphNodeType t;
        ck_assert_int_eq(cudaGraphNodeGetType(nodes[k], &t), cudaSuccess);
        ck_assert_int_eq(t, types[prog[k].kind]);
    }
    struct cudaKernelNodeParams kp;
    ck_assert_int_eq(cudaGraphKernelNodeGetParams(nodes[2], &kp),
                     cudaSuccess);
    ck_assert_ptr_eq(kp.func, (void *)(uintptr_t)scale_add_stub);
    ck_assert_uint_eq(kp.blockDim.x, TPB);
    ck_assert(*(float *)kp.kernelParams[2] == 2.0f);
    ck_assert_int_eq(cudaGraphKernelNodeGetParams(nodes[0], &kp),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();

    /* Op 4's dependencies are ops 2 and 3, in the order added. */
    cudaGraphEdgeData ed[3];
    memset(ed, 0x5a, sizeof ed);
    n = 3;
    ck_assert_int_eq(cudaGraphNodeGetDependencies(nodes[4], list, ed, &n),
                     cudaSuccess);
    ck_assert_uint_eq(n, 2);
    ck_assert_ptr_eq(list[0], nodes[2]);
    ck_assert_ptr_eq(list[1], nodes[3]);
    ck_assert_ptr_null(list[2]);
    ck_assert_uint_eq(ed[1].type, 0);
    ck_assert_uint_eq(ed[1].reserved[4], 0);
    struct cudaHostNodeParams hp;
    ck_assert_int_eq(cudaGraphHostNodeGetParams(nodes[10], &hp),
                     cudaSuccess);
    ck_assert_ptr_eq(hp.userData, &host_args[10]);
    ck_assert_int_eq(cudaGraphHostNodeSetParams(nodes[10], &hp),
                     cudaSuccess);

    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphUpload(x, 0), cudaSuccess);
    /* Instantiated once, launched with three inputs. */
    for (int run = 0; run < 3; run++) {
        float seed = 1.0f + (float)run * 0.25f;
        result want;
        model_run(&want, seed);
        fill_input(seed);
        world_init(&w, 0, dev);
        ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
        ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
        check_result(&want, &w, "graph");
    }
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    dev_free(dev);
}
END_TEST

/* The same program captured from two streams: odd operations go to
 * the second, forked from the first by an event; each cross-stream
 * dependency is an event record and wait; the second joins back. */
static cudaGraph_t capture_program(world *w, cudaStream_t s[2])
{
    cudaEvent_t ev[NOPS], fork, join;
    for (int k = 0; k < NOPS; k++)
        ck_assert_int_eq(cudaEventCreate(&ev[k]), cudaSuccess);
    ck_assert_int_eq(cudaEventCreate(&fork), cudaSuccess);
    ck_assert_int_eq(cudaEventCreate(&join), cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(s[0],
                                            cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(fork, s[0]), cudaSuccess);
    ck_assert_int_eq(cudaStreamWaitEvent(s[1], fork, 0), cudaSuccess);
    enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    ck_assert_int_eq(cudaStreamIsCapturing(s[1], &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusActive);
    for (int k = 0; k < NOPS; k++) {
        int on = k % 2;
        for (int j = 0; prog[k].deps[j] >= 0; j++) {
            int d = prog[k].deps[j];
            if (d % 2 != on)
                ck_assert_int_eq(cudaStreamWaitEvent(s[on], ev[d], 0),
                                 cudaSuccess);
        }
        stream_op(w, k, s[on]);
        ck_assert_int_eq(cudaEventRecord(ev[k], s[on]), cudaSuccess);
    }
    ck_assert_int_eq(cudaEventRecord(join, s[1]), cudaSuccess);
    ck_assert_int_eq(cudaStreamWaitEvent(s[0], join, 0), cudaSuccess);
    cudaGraph_t g = NULL;
    ck_assert_int_eq(cudaStreamEndCapture(s[0], &g), cudaSuccess);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(cudaStreamIsCapturing(s[1], &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusNone);
    for (int k = 0; k < NOPS; k++)
        ck_assert_int_eq(cudaEventDestroy(ev[k]), cudaSuccess);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    return g;
}

START_TEST(test_captured_graph)
{
    float *dev[3];
    dev_alloc(dev);
    cudaStream_t s[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(cudaStreamCreateWithFlags(&s[i],
                                                   cudaStreamNonBlocking),
                         cudaSuccess);
    world w;
    fill_input(9.0f);
    world_init(&w, 0, dev);
    cudaGraph_t g = capture_program(&w, s);
    /* Nothing ran while capturing. */
    ck_assert_int_eq(w.host_calls, 0);
    float probe;
    ck_assert_int_eq(cudaMemcpy(&probe, dev[A], 4, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    unsigned bits;
    memcpy(&bits, &probe, sizeof bits);
    ck_assert_uint_eq(bits, 0x41414141u);
    /* Every operation but the empty one is a node (events are
     * edges); the roots are ops 0 and 1. */
    size_t n = 0;
    ck_assert_int_eq(cudaGraphGetNodes(g, NULL, &n), cudaSuccess);
    ck_assert_uint_eq(n, NOPS - 1);
    ck_assert_int_eq(cudaGraphGetRootNodes(g, NULL, &n), cudaSuccess);
    ck_assert_uint_eq(n, 2);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiateWithFlags(&x, g, 0), cudaSuccess);
    for (int run = 0; run < 2; run++) {
        float seed = 2.0f - (float)run;
        result want;
        model_run(&want, seed);
        fill_input(seed);
        world_init(&w, 0, dev);
        ck_assert_int_eq(cudaGraphLaunch(x, s[1]), cudaSuccess);
        ck_assert_int_eq(cudaStreamSynchronize(s[1]), cudaSuccess);
        check_result(&want, &w, "captured");
    }
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(cudaStreamDestroy(s[i]), cudaSuccess);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    dev_free(dev);
}
END_TEST

/* Runs x once on fresh input 1.0 and returns the A output's element
 * 0 (static outputs in out_a). */
static void launch_fresh(cudaGraphExec_t x, world *w, float *dev[3])
{
    fill_input(1.0f);
    world_init(w, 0, dev);
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
}

/* The model with op 2's coefficients replaced. */
static void model_with(result *r, float a2, float b2)
{
    world w;
    fill_input(1.0f);
    memset(model_dev, 0, sizeof model_dev);
    world_init(&w, 1, NULL);
    for (int k = 0; k < NOPS; k++) {
        if (k == 2) {
            for (int i = 0; i < N; i++)
                model_dev[A][i] = model_dev[A][i] * a2 + b2;
            continue;
        }
        model_op(&w, k);
    }
    memcpy(r->a, out_a, sizeof r->a);
    memcpy(r->c, out_c, sizeof r->c);
    memcpy(r->tmp, host_tmp, sizeof r->tmp);
    r->host_calls = w.host_calls;
    r->host_seq[0] = w.host_seq[0];
    r->host_seq[1] = w.host_seq[1];
}

START_TEST(test_exec_updates)
{
    float *dev[3];
    dev_alloc(dev);
    world w;
    world_init(&w, 0, dev);
    cudaGraphNode_t nodes[NOPS];
    cudaGraph_t g = build_graph(&w, nodes);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    result want;

    /* cudaGraphExecKernelNodeSetParams: op 2 becomes A = A * 4 - 1 in
     * the executable graph only. */
    kargs st;
    struct cudaKernelNodeParams kp = kernel_params(&w, 2, &st);
    st.a = 4.0f;
    st.b = -1.0f;
    ck_assert_int_eq(cudaGraphExecKernelNodeSetParams(x, nodes[2], &kp),
                     cudaSuccess);
    launch_fresh(x, &w, dev);
    model_with(&want, 4.0f, -1.0f);
    check_result(&want, &w, "exec set params");
    /* The graph itself is unchanged. */
    cudaGraphExec_t x2;
    ck_assert_int_eq(cudaGraphInstantiate(&x2, g, 0), cudaSuccess);
    launch_fresh(x2, &w, dev);
    model_with(&want, 2.0f, 3.0f);
    check_result(&want, &w, "original");
    /* A node of another kind or graph is refused. */
    ck_assert_int_eq(cudaGraphExecKernelNodeSetParams(x, nodes[0], &kp),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();

    /* cudaGraphKernelNodeSetParams then cudaGraphExecUpdate: the same
     * topology with op 2 as A * 0.5 + 6. */
    st.a = 0.5f;
    st.b = 6.0f;
    ck_assert_int_eq(cudaGraphKernelNodeSetParams(nodes[2], &kp),
                     cudaSuccess);
    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0x5a, sizeof info);
    ck_assert_int_eq(cudaGraphExecUpdate(x2, g, &info), cudaSuccess);
    ck_assert_int_eq(info.result, cudaGraphExecUpdateSuccess);
    ck_assert_ptr_null(info.errorNode);
    launch_fresh(x2, &w, dev);
    model_with(&want, 0.5f, 6.0f);
    check_result(&want, &w, "updated");

    /* Another topology (one more edge) or a node of another type: the
     * update fails and the executable graph is left as it was. */
    cudaGraphNode_t gn[NOPS];
    cudaGraph_t g2 = build_graph(&w, gn);
    ck_assert_int_eq(cudaGraphAddDependencies(g2, &gn[0], &gn[1], NULL, 1),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphExecUpdate(x2, g2, &info),
                     cudaErrorGraphExecUpdateFailure);
    ck_assert_int_eq(info.result, cudaGraphExecUpdateErrorTopologyChanged);
    ck_assert_ptr_eq(info.errorNode, gn[1]);
    cudaGraph_t g3;
    ck_assert_int_eq(cudaGraphCreate(&g3, 0), cudaSuccess);
    for (int k = 0; k < NOPS; k++) {
        cudaGraphNode_t e;
        ck_assert_int_eq(cudaGraphAddEmptyNode(&e, g3, NULL, 0),
                         cudaSuccess);
    }
    ck_assert_int_eq(cudaGraphExecUpdate(x2, g3, &info),
                     cudaErrorGraphExecUpdateFailure);
    ck_assert_int_eq(info.result, cudaGraphExecUpdateErrorNodeTypeChanged);
    (void)cudaGetLastError();
    launch_fresh(x2, &w, dev);
    check_result(&want, &w, "after failed update");

    cudaGraphExecDestroy(x);
    cudaGraphExecDestroy(x2);
    cudaGraphDestroy(g);
    cudaGraphDestroy(g2);
    cudaGraphDestroy(g3);
    dev_free(dev);
}
END_TEST

START_TEST(test_cycle_and_bad_edges)
{
    cudaGraph_t g;
    cudaGraphNode_t a, b, c, other;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&a, g, NULL, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&b, g, &a, 1), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&c, g, &b, 1), cudaSuccess);
    /* c -> a closes a cycle a -> b -> c -> a. */
    ck_assert_int_eq(cudaGraphAddDependencies(g, &c, &a, NULL, 1),
                     cudaSuccess);
    cudaGraphExec_t x = NULL;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidValue);
    /* Self edges, duplicates and nodes of another graph. */
    ck_assert_int_eq(cudaGraphAddDependencies(g, &a, &a, NULL, 1),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddDependencies(g, &a, &b, NULL, 1),
                     cudaErrorInvalidValue);
    cudaGraph_t g2;
    ck_assert_int_eq(cudaGraphCreate(&g2, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&other, g2, NULL, 0),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphAddDependencies(g, &other, &a, NULL, 1),
                     cudaErrorInvalidValue);
    cudaGraphNode_t n;
    ck_assert_int_eq(cudaGraphAddEmptyNode(&n, g2, &a, 1),
                     cudaErrorInvalidValue);
    cudaGraphNode_t twice[2] = { other, other };
    ck_assert_int_eq(cudaGraphAddEmptyNode(&n, g2, twice, 2),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphCreate(&g2, 1), cudaErrorInvalidValue);
    /* Bad node parameters. */
    float *d = NULL;
    unsigned cnt = 1;
    float one = 1.0f;
    void *args[] = { &d, &cnt, &one, &one };
    struct cudaKernelNodeParams kp = {
        (void *)(uintptr_t)teardown, d3(1), d3(1), 0, args, NULL
    };
    ck_assert_int_eq(cudaGraphAddKernelNode(&n, g2, NULL, 0, &kp),
                     cudaErrorInvalidDeviceFunction);
    kp.func = (void *)(uintptr_t)scale_add_stub;
    kp.kernelParams = NULL;
    ck_assert_int_eq(cudaGraphAddKernelNode(&n, g2, NULL, 0, &kp),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddKernelNode(&n, g2, NULL, 0, NULL),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddMemsetNode(&n, g2, NULL, 0, NULL),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddHostNode(&n, g2, NULL, 0, NULL),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddMemcpyNode(&n, g2, NULL, 0, NULL),
                     cudaErrorInvalidValue);
    struct cudaMemsetParams mp = { &one, 4, 0, 3, 1, 1 };
    ck_assert_int_eq(cudaGraphAddMemsetNode(&n, g2, NULL, 0, &mp),
                     cudaErrorInvalidValue);
    struct cudaHostNodeParams hp = { NULL, NULL };
    ck_assert_int_eq(cudaGraphAddHostNode(&n, g2, NULL, 0, &hp),
                     cudaErrorInvalidValue);
    struct cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcArray = (cudaArray_t)(uintptr_t)64;    /* and no destination */
    ck_assert_int_eq(cudaGraphAddMemcpyNode(&n, g2, NULL, 0, &cp),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddChildGraphNode(&n, g2, NULL, 0, g2),
                     cudaErrorInvalidValue);
    size_t count = 0;
    ck_assert_int_eq(cudaGraphGetNodes(g2, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 1);            /* only `other` */
    ck_assert_int_eq(cudaGraphGetNodes(g2, NULL, NULL),
                     cudaErrorInvalidValue);
    const unsigned long long dev_launch =
        cudaGraphInstantiateFlagDeviceLaunch;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g2, dev_launch),
                     cudaErrorNotSupported);
    /* A kernel node whose launch fails: the graph runs on the stream,
     * so the failure comes at the next synchronisation. */
    kp.kernelParams = args;
    kp.blockDim = d3(4096);
    ck_assert_int_eq(cudaGraphAddKernelNode(&n, g2, NULL, 0, &kp),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphInstantiate(&x, g2, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0),
                     cudaErrorInvalidConfiguration);
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    (void)cudaGetLastError();
    cudaGraphDestroy(g);
    cudaGraphDestroy(g2);
}
END_TEST

static void stream_cb(cudaStream_t s, cudaError_t e, void *data)
{
    (void)s; (void)e; (void)data;
    ck_abort_msg("a callback of a capture ran");
}

START_TEST(test_capture_errors)
{
    cudaStream_t s, s2;
    ck_assert_int_eq(cudaStreamCreate(&s), cudaSuccess);
    ck_assert_int_eq(cudaStreamCreate(&s2), cudaSuccess);
    float *d, h[4] = { 0 };
    ck_assert_int_eq(cudaMalloc((void **)&d, 16), cudaSuccess);
    ck_assert_int_eq(cudaMemset(d, 7, 16), cudaSuccess);
    cudaGraph_t g = (cudaGraph_t)(uintptr_t)1;

    /* The legacy stream cannot capture; a capture cannot begin twice
     * nor end where none began. */
    ck_assert_int_eq(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal),
                     cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g), cudaErrorIllegalState);
    ck_assert_int_eq(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)7),
                     cudaErrorInvalidValue);

    /* A blocking copy in global mode: refused, capture invalidated. */
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaErrorIllegalState);
    ck_assert_int_eq(cudaMemsetAsync(d, 0, 16, s), cudaSuccess);
    unsigned long long id = 0;
    cudaGraph_t cg = NULL;
    const cudaGraphNode_t *deps = NULL;
    const cudaGraphEdgeData *edges = NULL;
    size_t nd = 0;
    enum cudaStreamCaptureStatus st;
    ck_assert_int_eq(cudaStreamGetCaptureInfo(s, &st, &id, &cg, &deps,
                                              &edges, &nd), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusActive);
    ck_assert(id != 0);
    ck_assert_ptr_nonnull(cg);
    ck_assert_uint_eq(nd, 1);
    enum cudaGraphNodeType t;
    ck_assert_int_eq(cudaGraphNodeGetType(deps[0], &t), cudaSuccess);
    ck_assert_int_eq(t, cudaGraphNodeTypeMemset);
    ck_assert_uint_eq(edges[0].type, 0);
    ck_assert_int_eq(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost),
                     cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(cudaStreamIsCapturing(s, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusInvalidated);
    ck_assert_int_eq(cudaMemsetAsync(d, 0, 16, s),
                     cudaErrorStreamCaptureInvalidated);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g),
                     cudaErrorStreamCaptureInvalidated);
    ck_assert_ptr_null(g);

    /* Synchronising with a capturing stream. */
    ck_assert_int_eq(cudaStreamBeginCapture(s,
                                            cudaStreamCaptureModeThreadLocal),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s),
                     cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(cudaStreamDestroy(s),
                     cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g),
                     cudaErrorStreamCaptureInvalidated);

    /* In relaxed mode the blocking copy is allowed, and the capture
     * goes on; the thread's mode can relax a global capture too. */
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    ck_assert_int_eq(cudaThreadExchangeStreamCaptureMode(&mode),
                     cudaSuccess);
    ck_assert_int_eq(mode, cudaStreamCaptureModeGlobal);
    ck_assert_int_eq(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert_int_eq(cudaThreadExchangeStreamCaptureMode(&mode),
                     cudaSuccess);
    ck_assert_int_eq(mode, cudaStreamCaptureModeRelaxed);

    /* A forked stream that is not joined back; ending on it. */
    cudaEvent_t ev;
    ck_assert_int_eq(cudaEventCreate(&ev), cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(ev, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamWaitEvent(s2, ev, 0), cudaSuccess);
    ck_assert_int_eq(cudaMemsetAsync(d, 1, 4, s2), cudaSuccess);
    /* The event stands for nodes: it cannot be waited for. */
    ck_assert_int_eq(cudaEventQuery(ev), cudaErrorCapturedEvent);
    ck_assert_int_eq(cudaEventSynchronize(ev), cudaErrorCapturedEvent);
    ck_assert_int_eq(cudaStreamEndCapture(s2, &g),
                     cudaErrorStreamCaptureUnmatched);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g),
                     cudaErrorStreamCaptureUnjoined);
    ck_assert_ptr_null(g);
    ck_assert_int_eq(cudaStreamIsCapturing(s2, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusNone);
    /* Stream callbacks cannot be captured (cudaLaunchHostFunc can). */
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamAddCallback(s, stream_cb, NULL, 0),
                     cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g),
                     cudaErrorStreamCaptureInvalidated);
    (void)cudaGetLastError();

    /* Stream-ordered allocation is capturable. */
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    unsigned *da = NULL, ha[4] = { 0 };
    ck_assert_int_eq(cudaMallocAsync((void **)&da, sizeof ha, s),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemsetAsync(da, 0x11, sizeof ha, s), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyAsync(ha, da, sizeof ha,
                                     cudaMemcpyDeviceToHost, s),
                     cudaSuccess);
    ck_assert_int_eq(cudaFreeAsync(da, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g), cudaSuccess);
    ck_assert_uint_eq(ha[3], 0);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(ha[i], 0x11111111u);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);

    /* None of the captured memsets ran. */
    unsigned char bytes[16];
    ck_assert_int_eq(cudaMemcpy(bytes, d, 16, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < 16; i++)
        ck_assert_uint_eq(bytes[i], 7);
    cudaEventDestroy(ev);
    cudaStreamDestroy(s);
    cudaStreamDestroy(s2);
    cudaFree(d);
}
END_TEST

/* Another thread's calls under a capture of this one: a Global capture
 * forbids its cudaMalloc (unless that thread relaxes its own mode), a
 * ThreadLocal one does not; only the capturing thread may end it. */
typedef struct other_result {
    cudaStream_t s;
    cudaError_t malloc_default, malloc_relaxed, end;
} other_result;

static void *other_thread(void *p)
{
    other_result *r = p;
    void *d = NULL;
    r->malloc_default = cudaMalloc(&d, 64);
    if (r->malloc_default == cudaSuccess)
        cudaFree(d);
    enum cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
    cudaThreadExchangeStreamCaptureMode(&m);
    r->malloc_relaxed = cudaMalloc(&d, 64);
    if (r->malloc_relaxed == cudaSuccess)
        cudaFree(d);
    cudaGraph_t g = NULL;
    r->end = cudaStreamEndCapture(r->s, &g);
    if (r->end == cudaSuccess)
        cudaGraphDestroy(g);
    return NULL;
}

static other_result run_other(cudaStream_t s)
{
    other_result r = { s, cudaErrorUnknown, cudaErrorUnknown,
                       cudaErrorUnknown };
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, other_thread, &r), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    return r;
}

START_TEST(test_capture_modes_threads)
{
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreate(&s), cudaSuccess);
    cudaGraph_t g;
    enum cudaStreamCaptureStatus st;

    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    other_result r = run_other(s);
    ck_assert_int_eq(r.malloc_default, cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(r.malloc_relaxed, cudaSuccess);
    ck_assert_int_eq(r.end, cudaErrorStreamCaptureWrongThread);
    ck_assert_int_eq(cudaStreamIsCapturing(s, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusInvalidated);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g),
                     cudaErrorStreamCaptureInvalidated);

    ck_assert_int_eq(cudaStreamBeginCapture(s,
                                            cudaStreamCaptureModeThreadLocal),
                     cudaSuccess);
    r = run_other(s);
    ck_assert_int_eq(r.malloc_default, cudaSuccess);
    ck_assert_int_eq(r.end, cudaErrorStreamCaptureWrongThread);
    /* This thread's own capture forbids its cudaMalloc. */
    void *d = NULL;
    ck_assert_int_eq(cudaMalloc(&d, 64), cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g),
                     cudaErrorStreamCaptureInvalidated);

    /* A relaxed capture may be ended by another thread. */
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed),
                     cudaSuccess);
    ck_assert_int_eq(cudaMalloc(&d, 64), cudaSuccess);
    r = run_other(s);
    ck_assert_int_eq(r.malloc_default, cudaSuccess);
    ck_assert_int_eq(r.end, cudaSuccess);
    ck_assert_int_eq(cudaStreamIsCapturing(s, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusNone);
    cudaFree(d);
    cudaStreamDestroy(s);
    (void)cudaGetLastError();
}
END_TEST

/* The per-thread default stream (nvcc --default-stream per-thread: the
 * _ptsz entry points, where 0 is cudaStreamPerThread) is another
 * stream in every thread: a capture of it takes only the capturing
 * thread's work.  Another thread's per-thread work runs; its legacy
 * stream work would depend on the capture (the per-thread stream is a
 * blocking one) and fails with cudaErrorStreamCaptureImplicit,
 * invalidating the capture (CUDA programming guide, "Prohibited and
 * Unhandled Operations"). */
typedef struct pt_other {
    unsigned char *d;           /* 48 bytes */
    int use_legacy;
    cudaError_t pt, pt0, legacy;
    enum cudaStreamCaptureStatus st;
} pt_other;

static void *pt_other_thread(void *p)
{
    pt_other *r = p;
    r->pt = cudaMemsetAsync(r->d, 5, 16, cudaStreamPerThread);
    r->pt0 = cudaMemsetAsync_ptsz(r->d + 16, 6, 16, 0);
    if (cudaStreamIsCapturing_ptsz(0, &r->st) != cudaSuccess)
        r->st = (enum cudaStreamCaptureStatus)-1;
    if (r->use_legacy)
        r->legacy = cudaMemsetAsync(r->d + 32, 9, 16, 0);
    (void)cudaStreamSynchronize_ptsz(0);
    return NULL;
}

static pt_other run_pt_other(unsigned char *d, int legacy)
{
    pt_other r = { d, legacy, cudaErrorUnknown, cudaErrorUnknown,
                   cudaErrorUnknown, cudaStreamCaptureStatusNone };
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, pt_other_thread, &r), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    return r;
}

START_TEST(test_per_thread_capture)
{
    float *d, h[4];
    unsigned char *d2, h2[48];
    unsigned n = 4;
    float a = 2.0f, b = 3.0f;
    void *args[4] = { &d, &n, &a, &b };
    dim3 grid = { 1, 1, 1 }, block = { 4, 1, 1 };
    ck_assert_int_eq(cudaMalloc((void **)&d, 16), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&d2, 48), cudaSuccess);
    ck_assert_int_eq(cudaMemset(d, 7, 16), cudaSuccess);
    ck_assert_int_eq(cudaMemset(d2, 0, 48), cudaSuccess);

    /* Begun on cudaStreamPerThread, fed through the _ptsz forms with 0:
     * a memset and a kernel, as nodes, not run. */
    ck_assert_int_eq(cudaStreamBeginCapture(cudaStreamPerThread,
                                            cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemsetAsync_ptsz(d, 0, 16, 0), cudaSuccess);
    ck_assert_int_eq(cudaLaunchKernel_ptsz((const void *)scale_add_stub,
                                           grid, block, args, 0, 0),
                     cudaSuccess);
    enum cudaStreamCaptureStatus st;
    ck_assert_int_eq(cudaStreamIsCapturing_ptsz(0, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusActive);
    /* The legacy stream is not the per-thread one. */
    ck_assert_int_eq(cudaStreamIsCapturing(cudaStreamLegacy, &st),
                     cudaErrorStreamCaptureImplicit);
    (void)cudaGetLastError();
    const cudaGraphNode_t *deps = NULL;
    size_t nd = 0;
    ck_assert_int_eq(cudaStreamGetCaptureInfo(cudaStreamPerThread, &st,
                                              NULL, NULL, &deps, NULL,
                                              &nd), cudaSuccess);
    ck_assert_uint_eq(nd, 1);
    enum cudaGraphNodeType t;
    ck_assert_int_eq(cudaGraphNodeGetType(deps[0], &t), cudaSuccess);
    ck_assert_int_eq(t, cudaGraphNodeTypeKernel);

    /* Another thread's per-thread stream: its work runs, uncaptured. */
    pt_other r = run_pt_other(d2, 0);
    ck_assert_int_eq(r.pt, cudaSuccess);
    ck_assert_int_eq(r.pt0, cudaSuccess);
    ck_assert_int_eq(r.st, cudaStreamCaptureStatusNone);
    cudaGraph_t g = NULL;
    ck_assert_int_eq(cudaStreamEndCapture_ptsz(0, &g), cudaSuccess);
    size_t nn = 0;
    ck_assert_int_eq(cudaGraphGetNodes(g, NULL, &nn), cudaSuccess);
    ck_assert_uint_eq(nn, 2);
    ck_assert_int_eq(cudaMemcpy(h2, d2, 48, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < 32; i++)
        ck_assert_uint_eq(h2[i], i < 16 ? 5 : 6);
    unsigned bits[4];
    ck_assert_int_eq(cudaMemcpy(bits, d, 16, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(bits[i], 0x07070707u);     /* nothing ran */

    /* The graph: memset 0, then x * 2 + 3 = 3. */
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch_ptsz(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize_ptsz(0), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < 4; i++)
        ck_assert(h[i] == 3.0f);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);

    /* Legacy-stream work while the per-thread stream captures, from
     * this thread (plain entry point, 0) or another: refused, nothing
     * runs, the capture is invalidated. */
    ck_assert_int_eq(cudaMemset(d, 7, 16), cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture_ptsz(0,
                                                 cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemsetAsync(d, 0, 16, 0),
                     cudaErrorStreamCaptureImplicit);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorStreamCaptureImplicit);
    ck_assert_int_eq(cudaStreamIsCapturing(cudaStreamPerThread, &st),
                     cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusInvalidated);
    ck_assert_int_eq(cudaStreamEndCapture(cudaStreamPerThread, &g),
                     cudaErrorStreamCaptureInvalidated);
    ck_assert_ptr_null(g);

    ck_assert_int_eq(cudaStreamBeginCapture(cudaStreamPerThread,
                                            cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaLaunchKernel((const void *)scale_add_stub, grid,
                                      block, args, 0, cudaStreamLegacy),
                     cudaErrorStreamCaptureImplicit);
    ck_assert_int_eq(cudaStreamEndCapture(cudaStreamPerThread, &g),
                     cudaErrorStreamCaptureInvalidated);

    ck_assert_int_eq(cudaStreamBeginCapture(cudaStreamPerThread,
                                            cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    r = run_pt_other(d2, 1);
    ck_assert_int_eq(r.pt, cudaSuccess);
    ck_assert_int_eq(r.legacy, cudaErrorStreamCaptureImplicit);
    ck_assert_int_eq(cudaStreamIsCapturing(cudaStreamPerThread, &st),
                     cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusInvalidated);
    ck_assert_int_eq(cudaStreamEndCapture(cudaStreamPerThread, &g),
                     cudaErrorStreamCaptureInvalidated);
    ck_assert_int_eq(cudaMemcpy(h2, d2, 48, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 32; i < 48; i++)
        ck_assert_uint_eq(h2[i], 0);                 /* did not run */
    ck_assert_int_eq(cudaMemcpy(bits, d, 16, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(bits[i], 0x07070707u);

    /* A query of the legacy stream during a capture fails the same
     * way but leaves the capture alone; a non-blocking stream's capture
     * does not involve the legacy stream at all. */
    cudaStream_t s, nb;
    ck_assert_int_eq(cudaStreamCreate(&s), cudaSuccess);
    ck_assert_int_eq(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamIsCapturing(0, &st),
                     cudaErrorStreamCaptureImplicit);
    ck_assert_int_eq(cudaStreamIsCapturing(s, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusActive);
    ck_assert_int_eq(cudaStreamSynchronize(0),
                     cudaErrorStreamCaptureImplicit);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g),
                     cudaErrorStreamCaptureInvalidated);
    ck_assert_int_eq(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemsetAsync(d, 1, 16, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamIsCapturing(0, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusNone);
    ck_assert_int_eq(cudaMemsetAsync(d, 2, 4, nb), cudaSuccess);
    ck_assert_int_eq(cudaStreamEndCapture(nb, &g), cudaSuccess);
    ck_assert_int_eq(cudaGraphGetNodes(g, NULL, &nn), cudaSuccess);
    ck_assert_uint_eq(nn, 1);
    cudaGraphDestroy(g);
    ck_assert_int_eq(cudaMemcpy(bits, d, 16, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(bits[i], 0x01010101u);     /* legacy one ran */
    cudaStreamDestroy(s);
    cudaStreamDestroy(nb);
    cudaFree(d);
    cudaFree(d2);
    (void)cudaGetLastError();
}
END_TEST

static void add_to(void *p)
{
    int *v = p;
    v[0] += v[1];
}

/* Memset, memcpy and host nodes read back and changed, in the graph
 * and in an executable graph only. */
START_TEST(test_node_params)
{
    enum { M = 16 };
    unsigned *d, out[M], out2[M];
    ck_assert_int_eq(cudaMalloc((void **)&d, sizeof out), cudaSuccess);
    cudaGraph_t g;
    cudaGraphNode_t ms, cp, hn;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaMemsetParams mp = { d, 0, 0x01020304u, 4, M, 1 };
    ck_assert_int_eq(cudaGraphAddMemsetNode(&ms, g, NULL, 0, &mp),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemcpyNode1D(&cp, g, &ms, 1, out, d,
                                              sizeof out,
                                              cudaMemcpyDeviceToHost),
                     cudaSuccess);
    int acc[2] = { 0, 1 };
    struct cudaHostNodeParams hp = { add_to, acc };
    ck_assert_int_eq(cudaGraphAddHostNode(&hn, g, &cp, 1, &hp),
                     cudaSuccess);
    /* Dependents. */
    cudaGraphNode_t dep[2];
    size_t nd = 2;
    ck_assert_int_eq(cudaGraphNodeGetDependentNodes(ms, dep, NULL, &nd),
                     cudaSuccess);
    ck_assert_uint_eq(nd, 1);
    ck_assert_ptr_eq(dep[0], cp);
    ck_assert_ptr_null(dep[1]);
    ck_assert_int_eq(cudaGraphNodeGetDependentNodes(hn, NULL, NULL, &nd),
                     cudaSuccess);
    ck_assert_uint_eq(nd, 0);
    /* Read back. */
    struct cudaMemsetParams mp2;
    ck_assert_int_eq(cudaGraphMemsetNodeGetParams(ms, &mp2), cudaSuccess);
    ck_assert_ptr_eq(mp2.dst, d);
    ck_assert_uint_eq(mp2.value, 0x01020304u);
    ck_assert_uint_eq(mp2.width, M);
    struct cudaMemcpy3DParms cp2;
    ck_assert_int_eq(cudaGraphMemcpyNodeGetParams(cp, &cp2), cudaSuccess);
    ck_assert_ptr_eq(cp2.dstPtr.ptr, out);
    ck_assert_uint_eq(cp2.extent.width, sizeof out);
    ck_assert_int_eq(cp2.kind, cudaMemcpyDeviceToHost);
    ck_assert_int_eq(cudaGraphMemsetNodeGetParams(cp, &mp2),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();

    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    /* Only the executable graph: value 7 in 2-byte elements over the
     * first half, copied to out2, the host node adding 10. */
    struct cudaMemsetParams half = { d, 0, 7, 2, M, 1 };
    ck_assert_int_eq(cudaGraphExecMemsetNodeSetParams(x, ms, &half),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphExecMemcpyNodeSetParams1D(
                         x, cp, out2, d, sizeof out2,
                         cudaMemcpyDeviceToHost), cudaSuccess);
    int acc2[2] = { 0, 10 };
    struct cudaHostNodeParams hp2 = { add_to, acc2 };
    ck_assert_int_eq(cudaGraphExecHostNodeSetParams(x, hn, &hp2),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphExecHostNodeSetParams(x, ms, &hp2),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    memset(out, 0, sizeof out);
    memset(out2, 0, sizeof out2);
    ck_assert_int_eq(cudaMemset(d, 0xee, sizeof out), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    for (int i = 0; i < M; i++) {
        ck_assert_uint_eq(out[i], 0);
        /* M two-byte elements cover the first M / 2 words. */
        ck_assert_uint_eq(out2[i], i < M / 2 ? 0x00070007u : 0xeeeeeeeeu);
    }
    ck_assert_int_eq(acc[0], 0);
    ck_assert_int_eq(acc2[0], 10);

    /* The graph's own nodes changed, then a fresh instance. */
    mp.value = 0xa5u;
    mp.elementSize = 1;
    mp.width = sizeof out;
    ck_assert_int_eq(cudaGraphMemsetNodeSetParams(ms, &mp), cudaSuccess);
    mp.elementSize = 5;
    ck_assert_int_eq(cudaGraphMemsetNodeSetParams(ms, &mp),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    cp2.dstPtr.ptr = out2;
    ck_assert_int_eq(cudaGraphMemcpyNodeSetParams(cp, &cp2), cudaSuccess);
    cudaGraphExec_t x2;
    ck_assert_int_eq(cudaGraphInstantiate(&x2, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x2, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    for (int i = 0; i < M; i++)
        ck_assert_uint_eq(out2[i], 0xa5a5a5a5u);
    ck_assert_int_eq(acc[0], 1);
    ck_assert_int_eq(cudaGraphMemcpyNodeSetParams1D(cp, out, d, sizeof out,
                                                    cudaMemcpyDefault),
                     cudaSuccess);

    /* A child graph node's own graph. */
    cudaGraphNode_t ch;
    cudaGraph_t parent, inner;
    ck_assert_int_eq(cudaGraphCreate(&parent, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddChildGraphNode(&ch, parent, NULL, 0, g),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphChildGraphNodeGetGraph(ch, &inner),
                     cudaSuccess);
    ck_assert_ptr_ne(inner, g);
    size_t n = 0;
    ck_assert_int_eq(cudaGraphGetNodes(inner, NULL, &n), cudaSuccess);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(cudaGraphChildGraphNodeGetGraph(ms, &inner),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    cudaGraphExecDestroy(x);
    cudaGraphExecDestroy(x2);
    cudaGraphDestroy(g);
    cudaGraphDestroy(parent);
    cudaFree(d);
}
END_TEST

/* Host nodes that append their tag to a log. */
static char tag_log[16];
static size_t tag_len;

static void log_tag(void *p)
{
    if (tag_len + 1 < sizeof tag_log)
        tag_log[tag_len++] = *(const char *)p;
    tag_log[tag_len] = '\0';
}

static cudaGraphNode_t tag_node(cudaGraph_t g, const char *tag,
                                const cudaGraphNode_t *deps, size_t nd)
{
    struct cudaHostNodeParams hp = { log_tag, (void *)tag };
    cudaGraphNode_t n;
    ck_assert_int_eq(cudaGraphAddHostNode(&n, g, deps, nd, &hp),
                     cudaSuccess);
    return n;
}

START_TEST(test_edges_and_destroy)
{
    cudaGraph_t g;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    cudaGraphNode_t a = tag_node(g, "a", NULL, 0);
    cudaGraphNode_t b = tag_node(g, "b", &a, 1);
    cudaGraphNode_t ab[2] = { b, a };
    cudaGraphNode_t c = tag_node(g, "c", ab, 2);
    cudaGraphNode_t from[4], to[4];
    cudaGraphEdgeData ed[4];
    size_t n = 0;
    ck_assert_int_eq(cudaGraphGetEdges(g, NULL, NULL, NULL, &n),
                     cudaSuccess);
    ck_assert_uint_eq(n, 3);
    n = 4;
    ck_assert_int_eq(cudaGraphGetEdges(g, from, to, ed, &n), cudaSuccess);
    ck_assert_uint_eq(n, 3);
    ck_assert(from[0] == a && to[0] == b);
    ck_assert(from[1] == b && to[1] == c);
    ck_assert(from[2] == a && to[2] == c);
    ck_assert(from[3] == NULL && to[3] == NULL);
    /* a -> c goes; it is not there twice. */
    ck_assert_int_eq(cudaGraphRemoveDependencies(g, &a, &c, NULL, 1),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphRemoveDependencies(g, &a, &c, NULL, 1),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    ck_assert_int_eq(cudaGraphGetEdges(g, NULL, NULL, NULL, &n),
                     cudaSuccess);
    ck_assert_uint_eq(n, 2);

    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    /* b goes: c becomes a root; the executable graph keeps b, and c
     * still names c there. */
    ck_assert_int_eq(cudaGraphDestroyNode(b), cudaSuccess);
    ck_assert_int_eq(cudaGraphGetNodes(g, NULL, &n), cudaSuccess);
    ck_assert_uint_eq(n, 2);
    cudaGraphNode_t roots[2];
    n = 2;
    ck_assert_int_eq(cudaGraphGetRootNodes(g, roots, &n), cudaSuccess);
    ck_assert_uint_eq(n, 2);
    ck_assert(roots[0] == a && roots[1] == c);
    struct cudaHostNodeParams hp = { log_tag, (void *)"C" };
    ck_assert_int_eq(cudaGraphExecHostNodeSetParams(x, c, &hp),
                     cudaSuccess);
    tag_len = 0;
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_str_eq(tag_log, "abC");
    cudaGraphExec_t x2;
    ck_assert_int_eq(cudaGraphInstantiate(&x2, g, 0), cudaSuccess);
    tag_len = 0;
    ck_assert_int_eq(cudaGraphLaunch(x2, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_str_eq(tag_log, "ac");
    cudaGraphExecDestroy(x);
    cudaGraphExecDestroy(x2);
    cudaGraphDestroy(g);

    /* Capture: the stream's dependencies replaced, then extended. */
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreate(&s), cudaSuccess);
    ck_assert_int_eq(cudaStreamUpdateCaptureDependencies(s, NULL, NULL, 0,
                                                         1),
                     cudaErrorIllegalState);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaLaunchHostFunc(s, log_tag, (void *)"1"),
                     cudaSuccess);
    cudaGraph_t cg;
    const cudaGraphNode_t *deps;
    size_t nd;
    enum cudaStreamCaptureStatus st;
    ck_assert_int_eq(cudaStreamGetCaptureInfo(s, &st, NULL, &cg, &deps,
                                              NULL, &nd), cudaSuccess);
    ck_assert_uint_eq(nd, 1);
    cudaGraphNode_t first = deps[0];
    ck_assert_int_eq(cudaStreamUpdateCaptureDependencies(s, NULL, NULL, 0,
                                                         1), cudaSuccess);
    ck_assert_int_eq(cudaLaunchHostFunc(s, log_tag, (void *)"2"),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamUpdateCaptureDependencies(s, &first, NULL,
                                                         1, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps,
                                              NULL, &nd), cudaSuccess);
    ck_assert_uint_eq(nd, 2);
    ck_assert_int_eq(cudaLaunchHostFunc(s, log_tag, (void *)"3"),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g), cudaSuccess);
    ck_assert_ptr_eq(g, cg);
    ck_assert_int_eq(cudaGraphGetRootNodes(g, NULL, &n), cudaSuccess);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(cudaGraphGetEdges(g, NULL, NULL, NULL, &n),
                     cudaSuccess);
    ck_assert_uint_eq(n, 2);
    /* Capture into that graph, after its first root. */
    cudaGraphNode_t r0;
    n = 1;
    ck_assert_int_eq(cudaGraphGetRootNodes(g, &r0, &n), cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCaptureToGraph(
                         s, g, &r0, NULL, 1, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaLaunchHostFunc(s, log_tag, (void *)"4"),
                     cudaSuccess);
    cudaGraph_t same = NULL;
    ck_assert_int_eq(cudaStreamEndCapture(s, &same), cudaSuccess);
    ck_assert_ptr_eq(same, g);
    ck_assert_int_eq(cudaGraphGetNodes(g, NULL, &n), cudaSuccess);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(cudaGraphGetEdges(g, NULL, NULL, NULL, &n),
                     cudaSuccess);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    tag_len = 0;
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    /* Roots 1 and 2 by creation; 3 after both; 4 after 1, created
     * last. */
    ck_assert_str_eq(tag_log, "1234");
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
}
END_TEST

/* Event record and wait nodes, clones' nodes, instantiation flags. */
START_TEST(test_event_nodes)
{
    cudaEvent_t start, stop, other;
    ck_assert_int_eq(cudaEventCreate(&start), cudaSuccess);
    ck_assert_int_eq(cudaEventCreate(&stop), cudaSuccess);
    ck_assert_int_eq(cudaEventCreate(&other), cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(start, 0), cudaSuccess);
    float ms = -1.0f;
    /* Never recorded: no elapsed time yet. */
    ck_assert_int_ne(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    (void)cudaGetLastError();

    cudaGraph_t g;
    cudaGraphNode_t a, rec, wait;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    a = tag_node(g, "a", NULL, 0);
    ck_assert_int_eq(cudaGraphAddEventRecordNode(&rec, g, &a, 1, other),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEventWaitNode(&wait, g, &rec, 1, start),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEventRecordNode(&rec, g, NULL, 0, NULL),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    cudaEvent_t got;
    ck_assert_int_eq(cudaGraphEventRecordNodeGetEvent(rec, &got),
                     cudaSuccess);
    ck_assert_ptr_eq(got, other);
    ck_assert_int_eq(cudaGraphEventRecordNodeSetEvent(rec, stop),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphEventWaitNodeGetEvent(wait, &got),
                     cudaSuccess);
    ck_assert_ptr_eq(got, start);
    ck_assert_int_eq(cudaGraphEventWaitNodeGetEvent(rec, &got),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    enum cudaGraphNodeType t;
    ck_assert_int_eq(cudaGraphNodeGetType(wait, &t), cudaSuccess);
    ck_assert_int_eq(t, cudaGraphNodeTypeWaitEvent);

    /* A clone's counterparts. */
    cudaGraph_t c;
    cudaGraphNode_t in_clone;
    ck_assert_int_eq(cudaGraphClone(&c, g), cudaSuccess);
    ck_assert_int_eq(cudaGraphNodeFindInClone(&in_clone, rec, c),
                     cudaSuccess);
    ck_assert_ptr_ne(in_clone, rec);
    ck_assert_int_eq(cudaGraphEventRecordNodeGetEvent(in_clone, &got),
                     cudaSuccess);
    ck_assert_ptr_eq(got, stop);
    ck_assert_int_eq(cudaGraphNodeFindInClone(&in_clone, rec, g),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();

    cudaGraphExec_t x;
    const unsigned long long flags = cudaGraphInstantiateFlagAutoFreeOnLaunch;
    ck_assert_int_eq(cudaGraphInstantiateWithFlags(&x, c, flags),
                     cudaSuccess);
    unsigned long long got_flags = 0;
    ck_assert_int_eq(cudaGraphExecGetFlags(x, &got_flags), cudaSuccess);
    ck_assert_uint_eq(got_flags, flags);
    tag_len = 0;
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_str_eq(tag_log, "a");
    ck_assert_int_eq(cudaEventSynchronize(stop), cudaSuccess);
    ck_assert_int_eq(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    ck_assert(ms >= 0.0f);
    /* In the executable graph only, the record node takes `other`. */
    ck_assert_int_eq(cudaGraphExecEventRecordNodeSetEvent(x, in_clone,
                                                          other),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphExecEventWaitNodeSetEvent(x, in_clone,
                                                        other),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    ck_assert_int_ne(cudaEventElapsedTime(&ms, start, other), cudaSuccess);
    (void)cudaGetLastError();
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_int_eq(cudaEventElapsedTime(&ms, start, other), cudaSuccess);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaGraphDestroy(c);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaEventDestroy(other);
}
END_TEST

/* Copies to and from a device variable; a child graph replaced in an
 * executable graph. */
START_TEST(test_symbols_and_child_set)
{
    unsigned in[8], out[8], out2[4];
    for (int i = 0; i < 8; i++)
        in[i] = 100u + (unsigned)i;
    cudaGraph_t g;
    cudaGraphNode_t to, from;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemcpyNodeToSymbol(
                         &to, g, NULL, 0, gvar, in, sizeof in, 0,
                         cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemcpyNodeFromSymbol(
                         &from, g, &to, 1, out, gvar, sizeof out, 0,
                         cudaMemcpyDeviceToHost), cudaSuccess);
    /* Out of the variable, a wrong direction, not a variable. */
    cudaGraphNode_t bad;
    ck_assert_int_eq(cudaGraphAddMemcpyNodeFromSymbol(
                         &bad, g, NULL, 0, out, gvar, 8, 28,
                         cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddMemcpyNodeToSymbol(
                         &bad, g, NULL, 0, gvar, in, 4, 0,
                         cudaMemcpyDeviceToHost),
                     cudaErrorInvalidMemcpyDirection);
    ck_assert_int_eq(cudaGraphAddMemcpyNodeToSymbol(
                         &bad, g, NULL, 0, in, in, 4, 0,
                         cudaMemcpyHostToDevice),
                     cudaErrorInvalidSymbol);
    (void)cudaGetLastError();
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    memset(out, 0, sizeof out);
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(out[i], in[i]);
    /* The executable graph reads words 4..7 into out2 instead. */
    ck_assert_int_eq(cudaGraphExecMemcpyNodeSetParamsFromSymbol(
                         x, from, out2, gvar, sizeof out2, 16,
                         cudaMemcpyDefault), cudaSuccess);
    ck_assert_int_eq(cudaGraphExecMemcpyNodeSetParamsToSymbol(
                         x, to, in, gvar, 4, 0, cudaMemcpyHostToDevice),
                     cudaErrorInvalidSymbol);
    (void)cudaGetLastError();
    in[5] = 7;
    memset(out, 0, sizeof out);
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_uint_eq(out[0], 0);
    ck_assert_uint_eq(out2[0], 104);
    ck_assert_uint_eq(out2[1], 7);
    /* The graph's own nodes: write at word 2, read it all. */
    ck_assert_int_eq(cudaGraphMemcpyNodeSetParamsToSymbol(
                         to, gvar, in, 4, 8, cudaMemcpyHostToDevice),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphMemcpyNodeSetParamsFromSymbol(
                         from, out, gvar, sizeof out, 0,
                         cudaMemcpyDeviceToHost), cudaSuccess);
    cudaGraphExec_t x2;
    ck_assert_int_eq(cudaGraphInstantiate(&x2, g, 0), cudaSuccess);
    in[0] = 55;
    ck_assert_int_eq(cudaGraphLaunch(x2, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_uint_eq(out[2], 55);
    ck_assert_uint_eq(out[5], 7);
    ck_assert_uint_eq(gvar[0], 0);      /* the shadow is not the device's */
    cudaGraphExecDestroy(x);
    cudaGraphExecDestroy(x2);
    cudaGraphDestroy(g);

    /* Child graphs: "p" then the child (a, b) in the parent. */
    cudaGraph_t child, child2, child3, parent;
    ck_assert_int_eq(cudaGraphCreate(&child, 0), cudaSuccess);
    cudaGraphNode_t ca = tag_node(child, "a", NULL, 0);
    tag_node(child, "b", &ca, 1);
    ck_assert_int_eq(cudaGraphCreate(&child2, 0), cudaSuccess);
    cudaGraphNode_t cx = tag_node(child2, "x", NULL, 0);
    tag_node(child2, "y", &cx, 1);
    ck_assert_int_eq(cudaGraphCreate(&child3, 0), cudaSuccess);
    tag_node(child3, "z", NULL, 0);
    ck_assert_int_eq(cudaGraphCreate(&parent, 0), cudaSuccess);
    cudaGraphNode_t pn = tag_node(parent, "p", NULL, 0), cn;
    ck_assert_int_eq(cudaGraphAddChildGraphNode(&cn, parent, &pn, 1, child),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphInstantiate(&x, parent, 0), cudaSuccess);
    tag_len = 0;
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_str_eq(tag_log, "pab");
    ck_assert_int_eq(cudaGraphExecChildGraphNodeSetParams(x, cn, child2),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphExecChildGraphNodeSetParams(x, cn, child3),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphExecChildGraphNodeSetParams(x, pn, child2),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    tag_len = 0;
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_str_eq(tag_log, "pxy");
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(parent);
    cudaGraphDestroy(child);
    cudaGraphDestroy(child2);
    cudaGraphDestroy(child3);
}
END_TEST

/* A child graph, a clone, and a graph launched into a capture. */
START_TEST(test_child_and_clone)
{
    enum { M = 40 };
    float h[M], out[M], *d;
    for (int i = 0; i < M; i++)
        h[i] = (float)i;
    ck_assert_int_eq(cudaMalloc((void **)&d, sizeof h), cudaSuccess);
    unsigned n = M;
    float a = 3.0f, b = 1.0f, c = -2.0f;
    void *sa_args[] = { &d, &n, &a, &b };
    struct cudaKernelNodeParams kp = {
        (void *)(uintptr_t)scale_add_stub, d3(2), d3(32), 0, sa_args, NULL
    };
    /* child: x = x * 3 + 1, then x = x * -2 + 1 */
    cudaGraph_t child, parent;
    cudaGraphNode_t k1, k2, cp_in, ch, cp_out;
    ck_assert_int_eq(cudaGraphCreate(&child, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddKernelNode(&k1, child, NULL, 0, &kp),
                     cudaSuccess);
    a = c;
    ck_assert_int_eq(cudaGraphAddKernelNode(&k2, child, &k1, 1, &kp),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphCreate(&parent, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemcpyNode1D(&cp_in, parent, NULL, 0, d, h,
                                              sizeof h,
                                              cudaMemcpyHostToDevice),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphAddChildGraphNode(&ch, parent, &cp_in, 1,
                                                child), cudaSuccess);
    /* The node embeds a copy: destroying the child changes nothing. */
    ck_assert_int_eq(cudaGraphDestroy(child), cudaSuccess);
    struct cudaMemcpy3DParms mp;
    memset(&mp, 0, sizeof mp);
    mp.srcPtr.ptr = d;
    mp.srcPtr.pitch = sizeof h;
    mp.srcPtr.xsize = sizeof h;
    mp.srcPtr.ysize = 1;
    mp.dstPtr = mp.srcPtr;
    mp.dstPtr.ptr = out;
    mp.extent.width = sizeof h;
    mp.extent.height = 1;
    mp.extent.depth = 1;
    mp.kind = cudaMemcpyDeviceToHost;
    ck_assert_int_eq(cudaGraphAddMemcpyNode(&cp_out, parent, &ch, 1, &mp),
                     cudaSuccess);
    enum cudaGraphNodeType t;
    ck_assert_int_eq(cudaGraphNodeGetType(ch, &t), cudaSuccess);
    ck_assert_int_eq(t, cudaGraphNodeTypeGraph);
    cudaGraph_t clone;
    ck_assert_int_eq(cudaGraphClone(&clone, parent), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(parent), cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, clone, 0), cudaSuccess);
    memset(out, 0, sizeof out);
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    for (int i = 0; i < M; i++)
        ck_assert(out[i] == ((float)i * 3.0f + 1.0f) * -2.0f + 1.0f);

    /* Launched into a capture, the graph becomes a child node: the new
     * graph runs it twice. */
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreate(&s), cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyAsync(h, out, sizeof h,
                                     cudaMemcpyHostToHost, s), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    cudaGraph_t g2;
    ck_assert_int_eq(cudaStreamEndCapture(s, &g2), cudaSuccess);
    size_t nn = 0;
    ck_assert_int_eq(cudaGraphGetNodes(g2, NULL, &nn), cudaSuccess);
    ck_assert_uint_eq(nn, 3);
    cudaGraphExec_t x2;
    ck_assert_int_eq(cudaGraphInstantiate(&x2, g2, 0), cudaSuccess);
    for (int i = 0; i < M; i++)
        h[i] = (float)i;
    ck_assert_int_eq(cudaGraphLaunch(x2, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    for (int i = 0; i < M; i++) {
        float once = ((float)i * 3.0f + 1.0f) * -2.0f + 1.0f;
        float twice = (once * 3.0f + 1.0f) * -2.0f + 1.0f;
        ck_assert_msg(out[i] == twice, "out[%d] = %g, want %g", i,
                      (double)out[i], (double)twice);
    }
    cudaGraphExecDestroy(x);
    cudaGraphExecDestroy(x2);
    cudaGraphDestroy(clone);
    cudaGraphDestroy(g2);
    cudaStreamDestroy(s);
    cudaFree(d);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
}
END_TEST

/* Kernel node attributes (cudaGraphKernelNodeSetAttribute: the ids
 * cuda.h marks "valid for graph nodes"): checked as their types
 * document, recorded, read back (unset ones as CUDA's defaults), copied
 * between nodes and kept by clones; a cooperative node still computes
 * x * a + b. */
START_TEST(test_kernel_node_attributes)
{
    enum { M = 40 };
    const cudaLaunchAttributeID apw = (cudaLaunchAttributeID)1,
        coop = (cudaLaunchAttributeID)2, sync = (cudaLaunchAttributeID)3,
        prio = (cudaLaunchAttributeID)8, map = (cudaLaunchAttributeID)9;
    float *d = NULL, h[M];
    for (int i = 0; i < M; i++)
        h[i] = (float)i;
    ck_assert_int_eq(cudaMalloc((void **)&d, sizeof h), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice),
                     cudaSuccess);
    unsigned n = M;
    float a = 2.0f, b = -1.0f;
    void *args[] = { &d, &n, &a, &b };
    struct cudaKernelNodeParams kp = knode(scale_add_stub, 2, 32, args);
    cudaGraph_t g;
    cudaGraphNode_t k1, k2, ms;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddKernelNode(&k1, g, NULL, 0, &kp),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphAddKernelNode(&k2, g, NULL, 0, &kp),
                     cudaSuccess);
    struct cudaMemsetParams mp;
    memset(&mp, 0, sizeof mp);
    mp.dst = d;
    mp.elementSize = 4;
    mp.width = 1;
    mp.height = 1;
    ck_assert_int_eq(cudaGraphAddMemsetNode(&ms, g, NULL, 0, &mp),
                     cudaSuccess);

    /* Values are the driver's 64-byte union (cuda.h's layout). */
    CUlaunchAttributeValue v, got;
    memset(&v, 0, sizeof v);
    v.accessPolicyWindow.base_ptr = d;
    v.accessPolicyWindow.num_bytes = sizeof h;
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
    v.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
#define SETA(nd, id, val) cudaGraphKernelNodeSetAttribute(nd, id, \
        (const cudaLaunchAttributeValue *)(const void *)(val))
#define GETA(nd, id, val) cudaGraphKernelNodeGetAttribute(nd, id, \
        (cudaLaunchAttributeValue *)(void *)(val))
    ck_assert_int_eq(SETA(k1, apw, &v), cudaSuccess);
    ck_assert_int_eq(GETA(k1, apw, &got), cudaSuccess);
    ck_assert_ptr_eq(got.accessPolicyWindow.base_ptr, d);
    ck_assert_uint_eq(got.accessPolicyWindow.num_bytes, sizeof h);
    ck_assert(got.accessPolicyWindow.hitRatio == 0.5f);
    ck_assert_int_eq(got.accessPolicyWindow.hitProp,
                     CU_ACCESS_PROPERTY_PERSISTING);
    v.accessPolicyWindow.hitRatio = 1.5f;       /* not in [0, 1] */
    ck_assert_int_eq(SETA(k1, apw, &v), cudaErrorInvalidValue);
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_PERSISTING;
    ck_assert_int_eq(SETA(k1, apw, &v), cudaErrorInvalidValue);
    /* A stream-only attribute, a memset node. */
    memset(&v, 0, sizeof v);
    v.syncPolicy = CU_SYNC_POLICY_SPIN;
    ck_assert_int_eq(SETA(k1, sync, &v), cudaErrorInvalidValue);
    v.priority = -1;
    ck_assert_int_eq(SETA(ms, prio, &v), cudaErrorInvalidValue);
    ck_assert_int_eq(GETA(ms, prio, &got), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    /* Defaults of unset attributes. */
    memset(&got, 0x55, sizeof got);
    ck_assert_int_eq(GETA(k2, prio, &got), cudaSuccess);
    ck_assert_int_eq(got.priority, 0);
    ck_assert_int_eq(GETA(k2, map, &got), cudaSuccess);
    ck_assert_uint_eq(got.memSyncDomainMap.default_, 0);
    ck_assert_uint_eq(got.memSyncDomainMap.remote, 1);
    /* Priority and cooperative on k1, copied to k2. */
    memset(&v, 0, sizeof v);
    v.priority = -2;
    ck_assert_int_eq(SETA(k1, prio, &v), cudaSuccess);
    v.cooperative = 1;
    ck_assert_int_eq(SETA(k1, coop, &v), cudaSuccess);
    ck_assert_int_eq(cudaGraphKernelNodeCopyAttributes(k2, k1), cudaSuccess);
    ck_assert_int_eq(GETA(k2, prio, &got), cudaSuccess);
    ck_assert_int_eq(got.priority, -2);
    ck_assert_int_eq(GETA(k2, apw, &got), cudaSuccess);
    ck_assert_uint_eq(got.accessPolicyWindow.num_bytes, sizeof h);
    ck_assert_int_eq(cudaGraphKernelNodeCopyAttributes(ms, k1),
                     cudaErrorInvalidValue);
    (void)cudaGetLastError();
    /* Clones keep them. */
    cudaGraph_t c;
    cudaGraphNode_t ck2;
    ck_assert_int_eq(cudaGraphClone(&c, g), cudaSuccess);
    ck_assert_int_eq(cudaGraphNodeFindInClone(&ck2, k2, c), cudaSuccess);
    ck_assert_int_eq(GETA(ck2, coop, &got), cudaSuccess);
    ck_assert_int_eq(got.cooperative, 1);
    ck_assert_int_eq(cudaGraphDestroy(c), cudaSuccess);
#undef SETA
#undef GETA

    /* Launched: k1 then k2 (cooperative both), the memset first. */
    cudaGraphNode_t from[2] = { ms, k1 }, to[2] = { k1, k2 };
    ck_assert_int_eq(cudaGraphAddDependencies(g, from, to, NULL, 2),
                     cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < M; i++) {
        float x0 = i == 0 ? 0.0f : (float)i;    /* the memset's zero */
        ck_assert(h[i] == (x0 * 2.0f - 1.0f) * 2.0f - 1.0f);
    }
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);

    /* A captured cooperative launch is a kernel node with that
     * attribute, and runs as one more x * 2 - 1. */
    cudaStream_t cs;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaLaunchCooperativeKernel(
                         (const void *)(uintptr_t)scale_add_stub, d3(2),
                         d3(32), args, 0, cs), cudaSuccess);
    ck_assert_int_eq(cudaStreamEndCapture(cs, &g), cudaSuccess);
    size_t count = 1;
    ck_assert_int_eq(cudaGraphGetNodes(g, &k1, &count), cudaSuccess);
    ck_assert_uint_eq(count, 1);
    ck_assert_int_eq(cudaGraphKernelNodeGetAttribute(
                         k1, coop, (cudaLaunchAttributeValue *)(void *)&got),
                     cudaSuccess);
    ck_assert_int_eq(got.cooperative, 1);
    float before[M];
    memcpy(before, h, sizeof h);
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, cs), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(cs), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < M; i++)
        ck_assert(h[i] == before[i] * 2.0f - 1.0f);
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(cs), cudaSuccess);
    ck_assert_int_eq(cudaFree(d), cudaSuccess);
}
END_TEST

/* A stream forked into a capture may be destroyed before the capture
 * ends (CUDA's graphMemoryNodes sample does so once it has been joined
 * back): its captured work stays; if it was not joined back the capture
 * ends unjoined.  The origin itself cannot go. */
START_TEST(test_destroy_forked_stream)
{
    unsigned char *d = NULL, h[8];
    ck_assert_int_eq(cudaMalloc((void **)&d, 8), cudaSuccess);
    ck_assert_int_eq(cudaMemset(d, 0, 8), cudaSuccess);
    cudaStream_t s, s2;
    cudaEvent_t fork, join;
    cudaGraph_t g;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                     cudaSuccess);
    ck_assert_int_eq(cudaEventCreate(&fork), cudaSuccess);
    ck_assert_int_eq(cudaEventCreate(&join), cudaSuccess);
    for (int joined = 1; joined >= 0; joined--) {
        ck_assert_int_eq(cudaStreamCreateWithFlags(&s2,
                                                   cudaStreamNonBlocking),
                         cudaSuccess);
        ck_assert_int_eq(cudaStreamBeginCapture(s,
                                                cudaStreamCaptureModeGlobal),
                         cudaSuccess);
        ck_assert_int_eq(cudaMemsetAsync(d, 1, 4, s), cudaSuccess);
        ck_assert_int_eq(cudaEventRecord(fork, s), cudaSuccess);
        ck_assert_int_eq(cudaStreamWaitEvent(s2, fork, 0), cudaSuccess);
        ck_assert_int_eq(cudaMemsetAsync(d + 4, 2, 4, s2), cudaSuccess);
        if (joined) {
            ck_assert_int_eq(cudaEventRecord(join, s2), cudaSuccess);
            ck_assert_int_eq(cudaStreamWaitEvent(s, join, 0), cudaSuccess);
        }
        ck_assert_int_eq(cudaStreamDestroy(s2), cudaSuccess);
        cudaError_t e = cudaStreamEndCapture(s, &g);
        if (!joined) {
            ck_assert_int_eq(e, cudaErrorStreamCaptureUnjoined);
            (void)cudaGetLastError();
            break;
        }
        ck_assert_int_eq(e, cudaSuccess);
        cudaGraphExec_t x;
        ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
        ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
        ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
        ck_assert_int_eq(cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost),
                         cudaSuccess);
        for (int i = 0; i < 8; i++)
            ck_assert_uint_eq(h[i], i < 4 ? 1 : 2);
        cudaGraphExecDestroy(x);
        cudaGraphDestroy(g);
    }
    /* The origin stays while it captures. */
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(s), cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g),
                     cudaErrorStreamCaptureInvalidated);
    (void)cudaGetLastError();
    ck_assert_int_eq(cudaStreamDestroy(s), cudaSuccess);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    cudaFree(d);
}
END_TEST

/* Sets the N floats of the device buffer d to v. */
static void fill_floats(float *d, float v)
{
    float h[N];
    for (int i = 0; i < N; i++)
        h[i] = v;
    ck_assert_int_eq(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice),
                     cudaSuccess);
}

/* Every float of the device buffer d (N of them) equals want. */
static void check_floats(const float *d, float want, const char *what)
{
    float h[N];
    ck_assert_int_eq(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_msg(h[i] == want, "%s[%d] = %g, want %g", what, i,
                      (double)h[i], (double)want);
}

/* CUDA runtime API, cudaGraphExecKernelNodeSetParams and the other
 * cudaGraphExec*SetParams, cudaGraphExecUpdate: changes of an
 * executable graph affect only launches made after them, not one
 * already put on a stream; cudaGraphExecDestroy of a graph in flight
 * frees it on completion.  The first node spins on a host-mapped flag,
 * holding the launch back while the host changes a kernel (x * a + b),
 * a memset and a copy that follow it. */
START_TEST(test_update_spares_queued_launch)
{
    unsigned *flag, *dflag;
    ck_assert_int_eq(cudaHostAlloc((void **)&flag, sizeof *flag,
                                   cudaHostAllocMapped), cudaSuccess);
    ck_assert_int_eq(cudaHostGetDevicePointer((void **)&dflag, flag, 0),
                     cudaSuccess);
    __atomic_store_n(flag, 0, __ATOMIC_SEQ_CST);
    float *xb, *mb, *cb, *src1, *src2;
    float **bufs[] = { &xb, &mb, &cb, &src1, &src2 };
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(cudaMalloc((void **)bufs[i], N * sizeof(float)),
                         cudaSuccess);
    fill_floats(xb, 7.0f);
    fill_floats(src1, 11.0f);
    fill_floats(src2, 22.0f);
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                     cudaSuccess);

    /* wait -> { x * 2 + 1, memset m to 0x3f800000 (1.0f), copy src1 to c } */
    cudaGraph_t g;
    cudaGraphNode_t w, k, m, c;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    void *wargs[] = { &dflag };
    struct cudaKernelNodeParams wp = knode(wait_flag_stub, 1, 1, wargs);
    ck_assert_int_eq(cudaGraphAddKernelNode(&w, g, NULL, 0, &wp),
                     cudaSuccess);
    unsigned n = N;
    float a = 2.0f, b = 1.0f;
    void *sargs[] = { &xb, &n, &a, &b };
    struct cudaKernelNodeParams kp =
        knode(scale_add_stub, (N + TPB - 1) / TPB, TPB, sargs);
    ck_assert_int_eq(cudaGraphAddKernelNode(&k, g, &w, 1, &kp), cudaSuccess);
    struct cudaMemsetParams mp = { mb, 0, 0x3f800000u, 4, N, 1 };
    ck_assert_int_eq(cudaGraphAddMemsetNode(&m, g, &w, 1, &mp), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemcpyNode1D(&c, g, &w, 1, cb, src1,
                                              N * sizeof(float),
                                              cudaMemcpyDeviceToDevice),
                     cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);

    /* Queued behind the wait, then changed: x * 3 + 4, memset 2.0f,
     * copy src2. */
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamQuery(s), cudaErrorNotReady);
    (void)cudaGetLastError();
    a = 3.0f;
    b = 4.0f;
    ck_assert_int_eq(cudaGraphExecKernelNodeSetParams(x, k, &kp),
                     cudaSuccess);
    mp.value = 0x40000000u;
    ck_assert_int_eq(cudaGraphExecMemsetNodeSetParams(x, m, &mp),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphExecMemcpyNodeSetParams1D(
                         x, c, cb, src2, N * sizeof(float),
                         cudaMemcpyDeviceToDevice), cudaSuccess);
    __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    check_floats(xb, 15.0f, "x (queued launch)");
    check_floats(mb, 1.0f, "m (queued launch)");
    check_floats(cb, 11.0f, "c (queued launch)");
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    check_floats(xb, 49.0f, "x (later launch)");
    check_floats(mb, 2.0f, "m (later launch)");
    check_floats(cb, 22.0f, "c (later launch)");

    /* cudaGraphExecUpdate (x * 5 + 6) between two queued launches, the
     * executable graph destroyed while they are in flight. */
    cudaGraph_t g2;
    cudaGraphNode_t w2, k2, m2, c2;
    ck_assert_int_eq(cudaGraphCreate(&g2, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddKernelNode(&w2, g2, NULL, 0, &wp),
                     cudaSuccess);
    a = 5.0f;
    b = 6.0f;
    ck_assert_int_eq(cudaGraphAddKernelNode(&k2, g2, &w2, 1, &kp),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemsetNode(&m2, g2, &w2, 1, &mp),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemcpyNode1D(&c2, g2, &w2, 1, cb, src1,
                                              N * sizeof(float),
                                              cudaMemcpyDeviceToDevice),
                     cudaSuccess);
    fill_floats(xb, 7.0f);
    __atomic_store_n(flag, 0, __ATOMIC_SEQ_CST);
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    cudaGraphExecUpdateResultInfo info;
    ck_assert_int_eq(cudaGraphExecUpdate(x, g2, &info), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaStreamQuery(s), cudaErrorNotReady);
    (void)cudaGetLastError();
    __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    /* (7 * 3 + 4) * 5 + 6; the new parameters twice would give 211. */
    check_floats(xb, 131.0f, "x (old, then new)");
    check_floats(cb, 11.0f, "c (new)");

    cudaGraphDestroy(g);
    cudaGraphDestroy(g2);
    cudaStreamDestroy(s);
    for (int i = 0; i < 5; i++)
        cudaFree(*bufs[i]);
    cudaFreeHost(flag);
}
END_TEST

/* Whether the word at p became non-zero within 20 s. */
static int spin_until(const void *p)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        if (__atomic_load_n((const unsigned *)p, __ATOMIC_SEQ_CST))
            return 1;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while (t.tv_sec - t0.tv_sec < 20);
    return 0;
}

/* A host node that waits (at most 20 s) for *(float *)p, host-mapped
 * memory a kernel of another stream sets, and counts whether it came. */
static int saw_go;
static void wait_for_go(void *p)
{
    saw_go = spin_until(p);
}

/* CUDA runtime API, cudaGraphAddHostNode: a host node runs as
 * cudaLaunchHostFunc's functions do, on a thread of the runtime's, not
 * on the device: one that waits for a kernel of another stream,
 * launched after the graph, lets that kernel run. */
START_TEST(test_host_node_off_device)
{
    float *go, *dgo;
    ck_assert_int_eq(cudaHostAlloc((void **)&go, sizeof *go,
                                   cudaHostAllocMapped), cudaSuccess);
    ck_assert_int_eq(cudaHostGetDevicePointer((void **)&dgo, go, 0),
                     cudaSuccess);
    *go = 0.0f;
    saw_go = 0;
    cudaStream_t s1, s2;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking),
                     cudaSuccess);
    cudaGraph_t g;
    cudaGraphNode_t h;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaHostNodeParams hp = { wait_for_go, go };
    ck_assert_int_eq(cudaGraphAddHostNode(&h, g, NULL, 0, &hp), cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, s1), cudaSuccess);
    /* go = go * 0 + 1 */
    unsigned one = 1;
    float zero = 0.0f, onef = 1.0f;
    void *args[] = { &dgo, &one, &zero, &onef };
    ck_assert_int_eq(cudaLaunchKernel((const void *)(uintptr_t)scale_add_stub,
                                      d3(1), d3(1), args, 0, s2),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s2), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s1), cudaSuccess);
    ck_assert_msg(saw_go, "the host node held up the other stream");
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFreeHost(go);
}
END_TEST

/* A host function that returns once *(unsigned *)p is set (by the
 * test's thread; at most 20 s). */
static void hold_until(void *p)
{
    (void)spin_until(p);
}

/* Runs x on s1 after another stream's held work and event record:
 * x's kernel (x = x * 2 + 1 on xs, host-mapped) must wait for the
 * record; xs holds `before` until the host lets the work go. */
static void check_held(cudaGraphExec_t x, cudaStream_t s1, cudaStream_t s2,
                       cudaEvent_t ev, const float *xs, float before,
                       const char *what)
{
    unsigned release = 0;
    ck_assert_int_eq(cudaLaunchHostFunc(s2, hold_until, &release),
                     cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(ev, s2), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, s1), cudaSuccess);
    struct timespec nap = { 0, 300000000L };
    nanosleep(&nap, NULL);
    ck_assert_msg(xs[0] == before && xs[N - 1] == before,
                  "%s: the node after the wait ran before the record "
                  "(x = %g)", what, (double)xs[0]);
    ck_assert_int_eq(cudaStreamQuery(s1), cudaErrorNotReady);
    (void)cudaGetLastError();
    __atomic_store_n(&release, 1, __ATOMIC_SEQ_CST);
    ck_assert_int_eq(cudaStreamSynchronize(s1), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_msg(xs[i] == before * 2 + 1, "%s: x[%d] = %g", what, i,
                      (double)xs[i]);
    ck_assert_int_eq(cudaStreamSynchronize(s2), cudaSuccess);
}

/* CUDA programming guide, graphs (event record and wait nodes), and
 * CUDA runtime API, cudaGraphAddEventWaitNode: the nodes after an event
 * wait node wait for the event's record, made here by work of another
 * stream still pending (a host function the test holds): graph = wait
 * -> x = x * 2 + 1.  The same for a wait captured with
 * cudaEventWaitExternal (cudaStreamWaitEvent: "Event is captured in the
 * graph as an external event node"). */
START_TEST(test_event_wait_node_waits)
{
    float *xs, *dx;
    ck_assert_int_eq(cudaHostAlloc((void **)&xs, N * sizeof *xs,
                                   cudaHostAllocMapped), cudaSuccess);
    ck_assert_int_eq(cudaHostGetDevicePointer((void **)&dx, xs, 0),
                     cudaSuccess);
    for (int i = 0; i < N; i++)
        xs[i] = 7.0f;
    cudaStream_t s1, s2;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking),
                     cudaSuccess);
    cudaEvent_t ev;
    ck_assert_int_eq(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming),
                     cudaSuccess);
    unsigned n = N;
    float a = 2.0f, b = 1.0f;
    void *args[] = { &dx, &n, &a, &b };
    struct cudaKernelNodeParams kp =
        knode(scale_add_stub, (N + TPB - 1) / TPB, TPB, args);

    cudaGraph_t g;
    cudaGraphNode_t w, k;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEventWaitNode(&w, g, NULL, 0, ev),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphAddKernelNode(&k, g, &w, 1, &kp), cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    check_held(x, s1, s2, ev, xs, 7.0f, "explicit wait node");

    /* Captured: the external wait (cudaEventWaitExternal, 1) becomes
     * the graph's first node. */
    cudaGraph_t cg;
    ck_assert_int_eq(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamWaitEvent(s1, ev, 1), cudaSuccess);
    ck_assert_int_eq(cudaLaunchKernel((const void *)(uintptr_t)scale_add_stub,
                                      kp.gridDim, kp.blockDim, args, 0, s1),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamEndCapture(s1, &cg), cudaSuccess);
    cudaGraphNode_t roots[3];
    size_t count = 3;
    ck_assert_int_eq(cudaGraphGetRootNodes(cg, roots, &count), cudaSuccess);
    ck_assert_uint_eq(count, 1);
    enum cudaGraphNodeType t;
    ck_assert_int_eq(cudaGraphNodeGetType(roots[0], &t), cudaSuccess);
    ck_assert_int_eq(t, cudaGraphNodeTypeWaitEvent);
    cudaEvent_t got;
    ck_assert_int_eq(cudaGraphEventWaitNodeGetEvent(roots[0], &got),
                     cudaSuccess);
    ck_assert_ptr_eq(got, ev);
    cudaGraphExec_t cx;
    ck_assert_int_eq(cudaGraphInstantiate(&cx, cg, 0), cudaSuccess);
    check_held(cx, s1, s2, ev, xs, 15.0f, "captured external wait");

    cudaGraphExecDestroy(x);
    cudaGraphExecDestroy(cx);
    cudaGraphDestroy(g);
    cudaGraphDestroy(cg);
    cudaEventDestroy(ev);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFreeHost(xs);
}
END_TEST

/* CUDA runtime API: a graph's failing node reports the error its
 * eager call would (a kernel node whose block is larger than the
 * device allows: cudaErrorInvalidConfiguration, which the driver API
 * has no code of the same number for), at the next synchronisation. */
START_TEST(test_failing_node_error)
{
    float *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, N * sizeof(float)),
                     cudaSuccess);
    unsigned n = N;
    float a = 1.0f, b = 1.0f;
    void *args[] = { &d, &n, &a, &b };
    struct cudaKernelNodeParams kp = knode(scale_add_stub, 1, 4096, args);
    cudaGraph_t g;
    cudaGraphNode_t k;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddKernelNode(&k, g, NULL, 0, &kp),
                     cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaErrorInvalidConfiguration);
    (void)cudaGetLastError();
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    cudaFree(d);
}
END_TEST

/* CUDA runtime API, cudaGraphInstantiateWithParams: instantiates with
 * params->flags, uploads to params->uploadStream with
 * cudaGraphInstantiateFlagUpload, and reports in result_out
 * (cudaGraphInstantiateSuccess or cudaGraphInstantiateError) and
 * errNode_out; cudaGraphExecGetFlags does not return the upload flag
 * ("it does not affect the resulting executable graph"). */
START_TEST(test_instantiate_with_params)
{
    float *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, N * sizeof(float)),
                     cudaSuccess);
    fill_floats(d, 7.0f);
    unsigned n = N;
    float a = 2.0f, b = 1.0f;
    void *args[] = { &d, &n, &a, &b };
    struct cudaKernelNodeParams kp =
        knode(scale_add_stub, (N + TPB - 1) / TPB, TPB, args);
    cudaGraph_t g;
    cudaGraphNode_t k;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddKernelNode(&k, g, NULL, 0, &kp), cudaSuccess);
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                     cudaSuccess);

    cudaGraphInstantiateParams ip;
    memset(&ip, 0xff, sizeof ip);
    ip.flags = cudaGraphInstantiateFlagUpload
               | cudaGraphInstantiateFlagAutoFreeOnLaunch;
    ip.uploadStream = s;
    cudaGraphExec_t x = NULL;
    ck_assert_int_eq(cudaGraphInstantiateWithParams(&x, g, &ip), cudaSuccess);
    ck_assert_ptr_nonnull(x);
    ck_assert_int_eq(ip.result_out, cudaGraphInstantiateSuccess);
    ck_assert_ptr_null(ip.errNode_out);
    unsigned long long flags = 99;
    ck_assert_int_eq(cudaGraphExecGetFlags(x, &flags), cudaSuccess);
    ck_assert_uint_eq(flags, cudaGraphInstantiateFlagAutoFreeOnLaunch);
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    check_floats(d, 15.0f, "x (instantiated with params)");
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);

    /* The per-thread form: upload stream 0 is the per-thread stream. */
    memset(&ip, 0, sizeof ip);
    ip.flags = cudaGraphInstantiateFlagUpload;
    ck_assert_int_eq(cudaGraphInstantiateWithParams_ptsz(&x, g, &ip),
                     cudaSuccess);
    ck_assert_int_eq(ip.result_out, cudaGraphInstantiateSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    check_floats(d, 31.0f, "x (per-thread form)");
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);

    /* Refused: no parameters; device launch (not modelled). */
    ck_assert_int_eq(cudaGraphInstantiateWithParams(&x, g, NULL),
                     cudaErrorInvalidValue);
    memset(&ip, 0, sizeof ip);
    ip.flags = cudaGraphInstantiateFlagDeviceLaunch;
    ck_assert_int_eq(cudaGraphInstantiateWithParams(&x, g, &ip),
                     cudaErrorNotSupported);
    ck_assert_int_eq(ip.result_out, cudaGraphInstantiateError);
    (void)cudaGetLastError();
    /* A cycle (k -> k2 -> k): cudaGraphInstantiateInvalidStructure,
     * "invalid structure, such as cycles". */
    cudaGraphNode_t k2;
    ck_assert_int_eq(cudaGraphAddEmptyNode(&k2, g, &k, 1), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddDependencies(g, &k2, &k, NULL, 1),
                     cudaSuccess);
    memset(&ip, 0, sizeof ip);
    ck_assert_int_eq(cudaGraphInstantiateWithParams(&x, g, &ip),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(ip.result_out, cudaGraphInstantiateInvalidStructure);
    ck_assert(ip.errNode_out == k || ip.errNode_out == k2);
    (void)cudaGetLastError();

    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    cudaFree(d);
}
END_TEST

static Suite *graph_suite(void)
{
    Suite *s = suite_create("cudart_graph");
    TCase *tc = tcase_create("graph");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_model_order_matters);
    tcase_add_test(tc, test_eager_matches_model);
    tcase_add_test(tc, test_explicit_graph);
    tcase_add_test(tc, test_captured_graph);
    tcase_add_test(tc, test_exec_updates);
    tcase_add_test(tc, test_cycle_and_bad_edges);
    tcase_add_test(tc, test_capture_errors);
    tcase_add_test(tc, test_capture_modes_threads);
    tcase_add_test(tc, test_per_thread_capture);
    tcase_add_test(tc, test_child_and_clone);
    tcase_add_test(tc, test_node_params);
    tcase_add_test(tc, test_edges_and_destroy);
    tcase_add_test(tc, test_event_nodes);
    tcase_add_test(tc, test_symbols_and_child_set);
    tcase_add_test(tc, test_kernel_node_attributes);
    tcase_add_test(tc, test_destroy_forked_stream);
    tcase_add_test(tc, test_update_spares_queued_launch);
    tcase_add_test(tc, test_host_node_off_device);
    tcase_add_test(tc, test_event_wait_node_waits);
    tcase_add_test(tc, test_failing_node_error);
    tcase_add_test(tc, test_instantiate_with_params);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(graph_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
