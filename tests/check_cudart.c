/*
 * tests/check_cudart.c: our libcudart.so.13 driven as a program built by
 * nvcc drives it: the test registers a "fat binary" (the registration
 * wrapper around PTX text written here), its kernels and variables,
 * exactly as nvcc's generated host code does (crt/host_runtime.h), then
 * launches through the <<< >>> entry points and cudaLaunchKernel and
 * checks results against host reference computations.
 *
 * Check forks every test, so each registers the binary afresh and a
 * sticky fault stays in its own process.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/cuda_abi.h"
#include "runtime/cudart/cudart_api.h"

/* Entry points of nvcc's generated code (crt/host_runtime.h). */
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
                              int ext, size_t size, int constant,
                              int global);
char __cudaInitModule(void **handle);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem,
                                     struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block,
                                       size_t *shmem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
                               void **args, size_t shmem,
                               cudaStream_t stream);
/* One of the stubs (declared as the library defines them). */
cudaError_t cudaGraphDebugDotPrint(void);

/* axpb(x, n): x[i] = x[i] * cscale + gbias for i < n, and each such
 * thread adds 1 to the managed counter mcount.
 * fault(p): stores through p (an invalid address in the tests).
 * hello(): thread 0 prints "cudart says hi 7". */
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".extern .func (.param .b32 func_retval0) vprintf\n"
    "(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
    ".const .align 4 .f32 cscale;\n"
    ".global .align 4 .u32 gbias;\n"
    ".global .attribute(.managed) .align 4 .u32 mcount;\n"
    ".global .align 1 .b8 fmt[18] = {99, 117, 100, 97, 114, 116, 32, 115,"
    " 97, 121, 115, 32, 104, 105, 32, 37, 100, 0};\n"
    ".visible .entry axpb(.param .u64 p_x, .param .u32 p_n)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .f32 %f<5>; .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [p_x];\n"
    "  ld.param.u32 %r1, [p_n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.s32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.s32 %rd3, %r5, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n"
    "  ld.const.f32 %f2, [cscale];\n"
    "  ld.global.u32 %r6, [gbias];\n"
    "  cvt.rn.f32.u32 %f3, %r6;\n"
    "  fma.rn.f32 %f4, %f1, %f2, %f3;\n"
    "  st.global.f32 [%rd4], %f4;\n"
    "  atom.global.add.u32 %r7, [mcount], 1;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry fault(.param .u64 p_p)\n"
    "{\n"
    "  .reg .b64 %rd<2>; .reg .b32 %r<2>;\n"
    "  ld.param.u64 %rd1, [p_p];\n"
    "  mov.u32 %r1, 7;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry hello()\n"
    "{\n"
    "  .local .align 4 .b8 buf[4];\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra END;\n"
    "  mov.u32 %r2, 7;\n"
    "  st.local.u32 [buf], %r2;\n"
    "  mov.u64 %rd1, buf;\n"
    "  cvta.local.u64 %rd2, %rd1;\n"
    "  mov.u64 %rd3, fmt;\n"
    "  cvta.global.u64 %rd3, %rd3;\n"
    "  {\n"
    "  .param .b64 param0; st.param.b64 [param0+0], %rd3;\n"
    "  .param .b64 param1; st.param.b64 [param1+0], %rd2;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), vprintf, (param0, param1);\n"
    "  ld.param.b32 %r3, [retval0+0];\n"
    "  }\n"
    "END:\n"
    "  ret;\n"
    "}\n";

/* __fatBinC_Wrapper_t: magic, version, data, filename_or_fatbins. */
static const struct {
    unsigned magic, version;
    const void *data;
    void *unused;
} wrapper = { 0x466243b1u, 1, ptx, NULL };

/* The host side of the program: stubs and shadows whose addresses the
 * runtime maps to the device entities. */
static void axpb_stub(void) {}
static void fault_stub(void) {}
static void hello_stub(void) {}
static void unregistered_stub(void) {}
static float cscale;
static unsigned gbias;
static unsigned *mcount;        /* __managed__: a host pointer */
static void **handle;

static void reg_fn(void (*stub)(void), const char *name)
{
    __cudaRegisterFunction(handle, (const char *)(uintptr_t)stub,
                           (char *)name, name, -1, NULL, NULL, NULL, NULL,
                           NULL);
}

static void setup(void)
{
    handle = __cudaRegisterFatBinary((void *)&wrapper);
    ck_assert_ptr_nonnull(handle);
    reg_fn(axpb_stub, "axpb");
    reg_fn(fault_stub, "fault");
    reg_fn(hello_stub, "hello");
    __cudaRegisterVar(handle, (char *)&cscale, (char *)"cscale", "cscale",
                      0, sizeof cscale, 1, 0);
    __cudaRegisterVar(handle, (char *)&gbias, (char *)"gbias", "gbias", 0,
                      sizeof gbias, 0, 0);
    __cudaRegisterManagedVar(handle, (void **)&mcount, (char *)"mcount",
                             "mcount", 0, sizeof *mcount, 0, 0);
    __cudaRegisterFatBinaryEnd(handle);
    (void)cudaGetLastError();   /* CK_FORK=no: the previous test's */
}

static void teardown(void)
{
    __cudaUnregisterFatBinary(handle);
}

static dim3 d3(unsigned x, unsigned y, unsigned z)
{
    dim3 d = { x, y, z };
    return d;
}

/* What `axpb<<<grid, block, 0, s>>>(x, n)` compiles to: the push, then
 * the host stub's pop, kernel lookup and launch. */
static cudaError_t launch_chevrons(dim3 grid, dim3 block, cudaStream_t s,
                                   float *x, int n)
{
    if (__cudaPushCallConfiguration(grid, block, 0, s) != 0)
        return cudaErrorUnknown;
    void *args[] = { &x, &n };
    dim3 g, b;
    size_t shmem;
    cudaStream_t st;
    cudaKernel_t k;
    ck_assert_int_eq(__cudaPopCallConfiguration(&g, &b, &shmem, &st),
                     cudaSuccess);
    ck_assert_int_eq(__cudaGetKernel(&k, (const void *)axpb_stub),
                     cudaSuccess);
    return __cudaLaunchKernel(k, g, b, args, shmem, st);
}

static void set_coeffs(float scale, unsigned bias)
{
    ck_assert_int_eq(cudaMemcpyToSymbol(&cscale, &scale, sizeof scale, 0,
                                        cudaMemcpyHostToDevice),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpyToSymbol(&gbias, &bias, sizeof bias, 0,
                                        cudaMemcpyHostToDevice),
                     cudaSuccess);
}

/* Runs axpb over n values i*0.5 (+ padding left untouched), through
 * the chevrons or cudaLaunchKernel, and checks each element against the
 * host's x * scale + bias. */
static void check_axpb(int chevrons)
{
    enum { N = 250, PAD = 6 };
    const float scale = 2.5f;
    const unsigned bias = 3;
    float h[N + PAD], *d;
    for (int i = 0; i < N + PAD; i++)
        h[i] = (float)i * 0.5f;
    set_coeffs(scale, bias);
    ck_assert_int_eq(cudaMalloc((void **)&d, sizeof h), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice),
                     cudaSuccess);
    int n = N;
    cudaError_t e;
    if (chevrons) {
        e = launch_chevrons(d3(4, 1, 1), d3(64, 1, 1), 0, d, n);
    } else {
        void *args[] = { &d, &n };
        e = cudaLaunchKernel((const void *)axpb_stub, d3(4, 1, 1),
                             d3(64, 1, 1), args, 0, 0);
    }
    ck_assert_int_eq(e, cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    float out[N + PAD];
    ck_assert_int_eq(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int i = 0; i < N + PAD; i++) {
        float want = i < N ? h[i] * scale + (float)bias : h[i];
        ck_assert_msg(out[i] == want, "x[%d] = %g, want %g", i,
                      (double)out[i], (double)want);
    }
    ck_assert_int_eq(cudaFree(d), cudaSuccess);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
}

START_TEST(test_launch_chevrons)
{
    check_axpb(1);
}
END_TEST

START_TEST(test_launch_kernel)
{
    check_axpb(0);
    /* The kernel handle stands for the kernel too (CUDA 12+). */
    cudaKernel_t k;
    ck_assert_int_eq(cudaGetKernel(&k, (const void *)axpb_stub),
                     cudaSuccess);
    float *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, 4), cudaSuccess);
    int n = 1;
    void *args[] = { &d, &n };
    ck_assert_int_eq(cudaLaunchKernel((const void *)k, d3(1, 1, 1),
                                      d3(1, 1, 1), args, 0, 0),
                     cudaSuccess);
    ck_assert_int_eq(cudaLaunchKernel((const void *)unregistered_stub,
                                      d3(1, 1, 1), d3(1, 1, 1), args, 0,
                                      0),
                     cudaErrorInvalidDeviceFunction);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
    /* cudaLaunchKernelEx's entry point, cooperative attribute set. */
    set_coeffs(2.0f, 1);
    float h = 5.0f;
    ck_assert_int_eq(cudaMemcpy(d, &h, 4, cudaMemcpyHostToDevice),
                     cudaSuccess);
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
    cudaLaunchConfig_t cfg = { d3(1, 1, 1), d3(32, 1, 1), 0, NULL, &attr,
                               1 };
    ck_assert_int_eq(cudaLaunchKernelExC(&cfg, (const void *)axpb_stub,
                                         args), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert(h == 11.0f);
    /* An access-policy window attribute goes to the driver's launch
     * (and from there to a timing model's L2, check_driver_l2), which
     * checks it as cuStreamSetAttribute does: a hitRatio above 1 is
     * refused, a valid window launches. */
    cudaLaunchAttribute win;
    memset(&win, 0, sizeof win);
    win.id = cudaLaunchAttributeAccessPolicyWindow;
    win.val.accessPolicyWindow.base_ptr = d;
    win.val.accessPolicyWindow.num_bytes = 4;
    win.val.accessPolicyWindow.hitRatio = 2.0f;
    win.val.accessPolicyWindow.hitProp = 2;     /* persisting */
    cudaLaunchConfig_t wcfg = { d3(1, 1, 1), d3(32, 1, 1), 0, NULL, &win,
                                1 };
    ck_assert_int_eq(cudaLaunchKernelExC(&wcfg, (const void *)axpb_stub,
                                         args), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidValue);
    win.val.accessPolicyWindow.hitRatio = 1.0f;
    ck_assert_int_eq(cudaLaunchKernelExC(&wcfg, (const void *)axpb_stub,
                                         args), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    cfg.blockDim = d3(2048, 1, 1);
    ck_assert_int_eq(cudaLaunchKernelExC(&cfg, (const void *)axpb_stub,
                                         args),
                     cudaErrorInvalidConfiguration);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    const char *name = NULL;
    ck_assert_int_eq(cudaFuncGetName(&name, (const void *)axpb_stub),
                     cudaSuccess);
    ck_assert_str_eq(name, "axpb");
}
END_TEST

START_TEST(test_symbols)
{
    size_t size = 0;
    ck_assert_int_eq(cudaGetSymbolSize(&size, &cscale), cudaSuccess);
    ck_assert_uint_eq(size, sizeof(float));
    void *addr = NULL;
    ck_assert_int_eq(cudaGetSymbolAddress(&addr, &gbias), cudaSuccess);
    ck_assert_ptr_nonnull(addr);
    /* Written through the symbol, read through its address. */
    unsigned v = 0xabcd1234u, back = 0;
    ck_assert_int_eq(cudaMemcpyToSymbol(&gbias, &v, 4, 0,
                                        cudaMemcpyDefault), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(&back, addr, 4, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert_uint_eq(back, v);
    /* Offsets: the upper two bytes of the little-endian value. */
    uint16_t hi = 0;
    ck_assert_int_eq(cudaMemcpyFromSymbol(&hi, &gbias, 2, 2,
                                          cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert_uint_eq(hi, 0xabcdu);
    ck_assert_int_eq(cudaMemcpyFromSymbol(&hi, &gbias, 4, 2,
                                          cudaMemcpyDeviceToHost),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMemcpyToSymbol(&gbias, &v, 4, 0,
                                        cudaMemcpyDeviceToHost),
                     cudaErrorInvalidMemcpyDirection);
    int not_a_symbol;
    ck_assert_int_eq(cudaGetSymbolSize(&size, &not_a_symbol),
                     cudaErrorInvalidSymbol);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidSymbol);
    /* Device-to-device into a symbol. */
    unsigned *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, 4), cudaSuccess);
    v = 77;
    ck_assert_int_eq(cudaMemcpy(d, &v, 4, cudaMemcpyHostToDevice),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpyToSymbol(&gbias, d, 4, 0,
                                        cudaMemcpyDeviceToDevice),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpyFromSymbolAsync(&back, &gbias, 4, 0,
                                               cudaMemcpyDefault, 0),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    ck_assert_uint_eq(back, 77);
    cudaFree(d);
}
END_TEST

START_TEST(test_managed)
{
    ck_assert_int_eq(__cudaInitModule(handle), 1);
    ck_assert_ptr_nonnull(mcount);
    /* The host uses the managed variable directly. */
    *mcount = 100;
    set_coeffs(1.0f, 0);
    enum { N = 77 };
    float *x;
    ck_assert_int_eq(cudaMallocManaged((void **)&x, N * sizeof *x,
                                       cudaMemAttachGlobal), cudaSuccess);
    for (int i = 0; i < N; i++)
        x[i] = (float)(N - i);
    ck_assert_int_eq(launch_chevrons(d3(2, 1, 1), d3(64, 1, 1), 0, x, N),
                     cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_uint_eq(*mcount, 100 + N);
    for (int i = 0; i < N; i++)
        ck_assert(x[i] == (float)(N - i));
    /* The managed variable is a symbol at the managed address. */
    void *addr;
    ck_assert_int_eq(cudaGetSymbolAddress(&addr, mcount), cudaSuccess);
    ck_assert_ptr_eq(addr, mcount);
    struct cudaPointerAttributes pa;
    ck_assert_int_eq(cudaPointerGetAttributes(&pa, x), cudaSuccess);
    ck_assert_int_eq(pa.type, cudaMemoryTypeManaged);
    ck_assert_ptr_eq(pa.hostPointer, x);
    ck_assert_ptr_eq(pa.devicePointer, x);
    ck_assert_int_eq(cudaFree(x), cudaSuccess);
}
END_TEST

START_TEST(test_memcpy_kinds)
{
    enum { N = 64 };
    unsigned char a[N], b[N], c[N];
    for (int i = 0; i < N; i++)
        a[i] = (unsigned char)(i * 7 + 1);
    unsigned char *d1, *d2;
    ck_assert_int_eq(cudaMalloc((void **)&d1, N), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&d2, N), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d1, a, N, cudaMemcpyHostToDevice),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d2, d1, N, cudaMemcpyDeviceToDevice),
                     cudaSuccess);
    memset(b, 0, N);
    ck_assert_int_eq(cudaMemcpy(b, d2, N, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert_mem_eq(a, b, N);
    ck_assert_int_eq(cudaMemcpy(c, b, N, cudaMemcpyHostToHost),
                     cudaSuccess);
    ck_assert_mem_eq(a, c, N);
    /* cudaMemcpyDefault: the direction from the pointers. */
    ck_assert_int_eq(cudaMemset(d1, 0x5a, N), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d1 + 8, a, 8, cudaMemcpyDefault),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d2, d1, N, cudaMemcpyDefault), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(b, d2, N, cudaMemcpyDefault), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_uint_eq(b[i], i >= 8 && i < 16 ? a[i - 8] : 0x5a);
    memset(c, 0, N);
    ck_assert_int_eq(cudaMemcpy(c, a, N, cudaMemcpyDefault), cudaSuccess);
    ck_assert_mem_eq(a, c, N);
    ck_assert_int_eq(cudaMemcpy(b, d2, N, (enum cudaMemcpyKind)7),
                     cudaErrorInvalidMemcpyDirection);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
    /* Pinned host memory is device-visible at the same address. */
    unsigned char *pinned;
    ck_assert_int_eq(cudaMallocHost((void **)&pinned, N), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(pinned, d1, N, cudaMemcpyDefault),
                     cudaSuccess);
    ck_assert_uint_eq(pinned[9], a[1]);
    /* Pinned memory is host memory to CUDA, not managed memory. */
    struct cudaPointerAttributes pa;
    ck_assert_int_eq(cudaPointerGetAttributes(&pa, pinned), cudaSuccess);
    ck_assert_int_eq(pa.type, cudaMemoryTypeHost);
    ck_assert_int_eq(cudaPointerGetAttributes(&pa, pinned + 7),
                     cudaSuccess);
    ck_assert_int_eq(pa.type, cudaMemoryTypeHost);
    ck_assert_int_eq(cudaPointerGetAttributes(&pa, pinned), cudaSuccess);
    ck_assert_ptr_eq(pa.hostPointer, pinned);
    ck_assert_ptr_eq(pa.devicePointer, pinned);
    ck_assert_int_eq(cudaPointerGetAttributes(&pa, d1), cudaSuccess);
    ck_assert_int_eq(pa.type, cudaMemoryTypeDevice);
    ck_assert_ptr_eq(pa.devicePointer, d1);
    ck_assert_int_eq(cudaPointerGetAttributes(&pa, a), cudaSuccess);
    ck_assert_int_eq(pa.type, cudaMemoryTypeUnregistered);
    ck_assert_int_eq(cudaFreeHost(pinned), cudaSuccess);
    /* Registered host memory. */
    static unsigned char reg[4096] __attribute__((aligned(4096)));
    ck_assert_int_eq(cudaHostRegister(reg, sizeof reg,
                                      cudaHostRegisterMapped), cudaSuccess);
    void *dp = NULL;
    ck_assert_int_eq(cudaHostGetDevicePointer(&dp, reg, 0), cudaSuccess);
    ck_assert_ptr_eq(dp, reg);
    ck_assert_int_eq(cudaMemcpy(reg, d2, N, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert_uint_eq(reg[0], 0x5a);
    ck_assert_int_eq(cudaHostUnregister(reg), cudaSuccess);
    cudaFree(d1);
    cudaFree(d2);
}
END_TEST

START_TEST(test_memcpy_2d)
{
    enum { W = 10, H = 5 };
    unsigned char src[H][W], dst[H][W + 3];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            src[y][x] = (unsigned char)(y * 16 + x);
    unsigned char *d;
    size_t pitch = 0;
    ck_assert_int_eq(cudaMallocPitch((void **)&d, &pitch, W, H),
                     cudaSuccess);
    ck_assert_uint_ge(pitch, W);
    ck_assert_int_eq(cudaMemset2D(d, pitch, 0xee, pitch, H), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2D(d, pitch, src, W, W, H,
                                  cudaMemcpyHostToDevice), cudaSuccess);
    memset(dst, 0, sizeof dst);
    ck_assert_int_eq(cudaMemcpy2D(dst, W + 3, d, pitch, W + 3, H,
                                  cudaMemcpyDeviceToHost), cudaSuccess);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W + 3; x++)
            ck_assert_uint_eq(dst[y][x], x < W ? src[y][x] : 0xee);
    ck_assert_int_eq(cudaMemcpy2D(dst, 2, d, pitch, W, H,
                                  cudaMemcpyDeviceToHost),
                     cudaErrorInvalidPitchValue);
    cudaFree(d);
}
END_TEST

START_TEST(test_error_strings)
{
    /* Reference texts: the output of NVIDIA's libcudart.so.13. */
    ck_assert_str_eq(cudaGetErrorString(cudaSuccess), "no error");
    ck_assert_str_eq(cudaGetErrorString(cudaErrorInvalidValue),
                     "invalid argument");
    ck_assert_str_eq(cudaGetErrorString(cudaErrorMemoryAllocation),
                     "out of memory");
    ck_assert_str_eq(cudaGetErrorString(cudaErrorIllegalAddress),
                     "an illegal memory access was encountered");
    ck_assert_str_eq(cudaGetErrorString(cudaErrorInvalidConfiguration),
                     "invalid configuration argument");
    ck_assert_str_eq(cudaGetErrorName(cudaErrorNotSupported),
                     "cudaErrorNotSupported");
    ck_assert_str_eq(cudaGetErrorName(cudaErrorUnknown), "cudaErrorUnknown");
    ck_assert_str_eq(cudaGetErrorName((cudaError_t)12345),
                     "unrecognized error code");
    ck_assert_str_eq(cudaGetErrorString((cudaError_t)10),
                     "unrecognized error code");
}
END_TEST

static void *other_thread_error(void *arg)
{
    (void)arg;
    /* The main thread's error is not this thread's. */
    return (void *)(intptr_t)cudaPeekAtLastError();
}

START_TEST(test_last_error)
{
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    ck_assert_int_eq(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaPeekAtLastError(), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaPeekAtLastError(), cudaErrorInvalidValue);
    pthread_t t;
    void *res;
    ck_assert_int_eq(pthread_create(&t, NULL, other_thread_error, NULL), 0);
    ck_assert_int_eq(pthread_join(t, &res), 0);
    ck_assert_int_eq((int)(intptr_t)res, cudaSuccess);
    /* A success does not clear it; cudaGetLastError does. */
    void *p;
    ck_assert_int_eq(cudaMalloc(&p, 16), cudaSuccess);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    cudaFree(p);
}
END_TEST

START_TEST(test_bad_config)
{
    float *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, 4096 * sizeof *d), cudaSuccess);
    int n = 4096;
    void *args[] = { &d, &n };
    ck_assert_int_eq(cudaLaunchKernel((const void *)axpb_stub, d3(1, 1, 1),
                                      d3(2048, 1, 1), args, 0, 0),
                     cudaErrorInvalidConfiguration);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);     /* not sticky */
    /* The <<< >>> path: the stub ignores the result, the program reads it
     * with cudaGetLastError. */
    launch_chevrons(d3(1, 1, 1), d3(32, 32, 2), 0, d, n);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    launch_chevrons(d3(0, 1, 1), d3(32, 1, 1), 0, d, n);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    launch_chevrons(d3(1, 1, 1), d3(1, 1, 65), 0, d, n);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    /* 1024 threads is the limit, and works. */
    set_coeffs(1.0f, 1);
    ck_assert_int_eq(launch_chevrons(d3(4, 1, 1), d3(1024, 1, 1), 0, d, n),
                     cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    float h[4];
    ck_assert_int_eq(cudaMemcpy(h, d + 4092, sizeof h,
                                cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert(h[0] == 1.0f && h[3] == 1.0f);
    cudaFree(d);
}
END_TEST

START_TEST(test_sticky_fault)
{
    void *bad = (void *)(uintptr_t)0x10;
    void *args[] = { &bad };
    /* The launch itself is accepted; the fault surfaces at the next
     * synchronisation and stays. */
    cudaError_t e = cudaLaunchKernel((const void *)fault_stub, d3(1, 1, 1),
                                     d3(1, 1, 1), args, 0, 0);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    ck_assert_int_eq(e, cudaErrorIllegalAddress);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorIllegalAddress);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorIllegalAddress);
    void *p;
    ck_assert_int_eq(cudaMalloc(&p, 16), cudaErrorIllegalAddress);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    /* Only a reset makes the device usable again. */
    ck_assert_int_eq(cudaDeviceReset(), cudaSuccess);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    ck_assert_int_eq(cudaMalloc(&p, 16), cudaSuccess);
    ck_assert_int_eq(cudaFree(p), cudaSuccess);
    check_axpb(0);
}
END_TEST

static int callback_count;

static void host_fn(void *data)
{
    *(int *)data += 1;
    callback_count++;
}

static void stream_cb(cudaStream_t s, cudaError_t st, void *data)
{
    ck_assert_int_eq(st, cudaSuccess);
    *(cudaStream_t *)data = s;
    callback_count++;
}

/* Stream attributes (CUDA Runtime API, cudaStreamSetAttribute: the
 * access-policy window, synchronization policy, priority and memory
 * sync domain are a stream's; values checked as their types document;
 * recorded and read back, copied, and defaulted). */
START_TEST(test_stream_attributes)
{
    cudaStream_t s, t;
    ck_assert_int_eq(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking,
                                                  -1), cudaSuccess);
    ck_assert_int_eq(cudaStreamCreate(&t), cudaSuccess);
    void *buf;
    ck_assert_int_eq(cudaMalloc(&buf, 1 << 20), cudaSuccess);
    CUlaunchAttributeValue v, got;
    memset(&v, 0, sizeof(v));
    v.accessPolicyWindow.base_ptr = buf;
    v.accessPolicyWindow.num_bytes = 1 << 20;
    v.accessPolicyWindow.hitRatio = 0.6f;
    v.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
    v.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
    const cudaLaunchAttributeID apw = (cudaLaunchAttributeID)1,
        sync = (cudaLaunchAttributeID)3, prio = (cudaLaunchAttributeID)8,
        map = (cudaLaunchAttributeID)9;
#define SET(st, id, val) cudaStreamSetAttribute(st, id, \
        (const cudaLaunchAttributeValue *)(const void *)(val))
#define GET(st, id, val) cudaStreamGetAttribute(st, id, \
        (cudaLaunchAttributeValue *)(void *)(val))
    /* defaults: the stream's priority, auto sync, domain map {0, 1} */
    ck_assert_int_eq(GET(s, prio, &got), cudaSuccess);
    ck_assert_int_eq(got.priority, -1);
    ck_assert_int_eq(GET(s, sync, &got), cudaSuccess);
    ck_assert_int_eq(got.syncPolicy, CU_SYNC_POLICY_AUTO);
    ck_assert_int_eq(GET(s, map, &got), cudaSuccess);
    ck_assert_int_eq(got.memSyncDomainMap.default_, 0);
    ck_assert_int_eq(got.memSyncDomainMap.remote, 1);
    ck_assert_int_eq(GET(s, apw, &got), cudaSuccess);
    ck_assert_uint_eq(got.accessPolicyWindow.num_bytes, 0);
    /* set, read back, copy */
    ck_assert_int_eq(SET(s, apw, &v), cudaSuccess);
    memset(&got, 0, sizeof(got));
    ck_assert_int_eq(GET(s, apw, &got), cudaSuccess);
    ck_assert_ptr_eq(got.accessPolicyWindow.base_ptr, buf);
    ck_assert_uint_eq(got.accessPolicyWindow.num_bytes, 1 << 20);
    ck_assert(got.accessPolicyWindow.hitRatio == 0.6f);
    ck_assert_int_eq(got.accessPolicyWindow.hitProp,
                     CU_ACCESS_PROPERTY_PERSISTING);
    ck_assert_int_eq(cudaStreamCopyAttributes(t, s), cudaSuccess);
    memset(&got, 0, sizeof(got));
    ck_assert_int_eq(GET(t, apw, &got), cudaSuccess);
    ck_assert_uint_eq(got.accessPolicyWindow.num_bytes, 1 << 20);
    CUlaunchAttributeValue p;
    memset(&p, 0, sizeof(p));
    p.priority = 0;
    ck_assert_int_eq(SET(s, prio, &p), cudaSuccess);
    int pr = -7;
    ck_assert_int_eq(cudaStreamGetPriority(s, &pr), cudaSuccess);
    ck_assert_int_eq(pr, 0);
    /* the default stream has its own */
    ck_assert_int_eq(SET(0, apw, &v), cudaSuccess);
    ck_assert_int_eq(GET(0, apw, &got), cudaSuccess);
    ck_assert_uint_eq(got.accessPolicyWindow.num_bytes, 1 << 20);
    /* refused: a launch-only attribute, bad values */
    ck_assert_int_eq(SET(s, cudaLaunchAttributeCooperative, &v),
                     cudaErrorInvalidValue);
    CUlaunchAttributeValue b = v;
    b.accessPolicyWindow.hitRatio = 1.5f;
    ck_assert_int_eq(SET(s, apw, &b), cudaErrorInvalidValue);
    b = v;
    b.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_PERSISTING;
    ck_assert_int_eq(SET(s, apw, &b), cudaErrorInvalidValue);
    b = v;
    b.accessPolicyWindow.num_bytes = (size_t)1 << 40;
    ck_assert_int_eq(SET(s, apw, &b), cudaErrorInvalidValue);
    b = v;
    b.syncPolicy = (CUsynchronizationPolicy)9;
    ck_assert_int_eq(SET(s, sync, &b), cudaErrorInvalidValue);
    ck_assert_int_eq(GET(s, apw, NULL), cudaErrorInvalidValue);
    cudaGetLastError();
#undef SET
#undef GET
    ck_assert_int_eq(cudaFree(buf), cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(s), cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(t), cudaSuccess);
}
END_TEST

START_TEST(test_streams_events)
{
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                     cudaSuccess);
    unsigned flags = 0;
    ck_assert_int_eq(cudaStreamGetFlags(s, &flags), cudaSuccess);
    ck_assert_uint_eq(flags, cudaStreamNonBlocking);
    cudaEvent_t a, b;
    ck_assert_int_eq(cudaEventCreate(&a), cudaSuccess);
    ck_assert_int_eq(cudaEventCreateWithFlags(&b, cudaEventDefault),
                     cudaSuccess);
    enum { N = 128 };
    float h[N], *d;
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    ck_assert_int_eq(cudaMalloc((void **)&d, sizeof h), cudaSuccess);
    set_coeffs(3.0f, 2);
    ck_assert_int_eq(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice,
                                     s), cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(a, s), cudaSuccess);
    ck_assert_int_eq(launch_chevrons(d3(1, 1, 1), d3(N, 1, 1), s, d, N),
                     cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(b, s), cudaSuccess);
    int hits = 0;
    cudaStream_t seen = NULL;
    callback_count = 0;
    ck_assert_int_eq(cudaLaunchHostFunc(s, host_fn, &hits), cudaSuccess);
    ck_assert_int_eq(cudaStreamAddCallback(s, stream_cb, &seen, 0),
                     cudaSuccess);
    ck_assert_int_eq(cudaEventSynchronize(b), cudaSuccess);
    ck_assert_int_eq(cudaEventQuery(b), cudaSuccess);
    float ms = -1.0f;
    ck_assert_int_eq(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    ck_assert(ms >= 0.0f);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    ck_assert_int_eq(cudaStreamQuery(s), cudaSuccess);
    enum cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusActive;
    ck_assert_int_eq(cudaStreamIsCapturing(s, &capturing), cudaSuccess);
    ck_assert_int_eq(capturing, 0);
    ck_assert_int_eq(hits, 1);
    ck_assert_int_eq(callback_count, 2);
    ck_assert_ptr_eq(seen, s);
    /* Another stream waits for an event of the first. */
    cudaStream_t s2;
    ck_assert_int_eq(cudaStreamCreateWithPriority(&s2, 0, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamWaitEvent(s2, b, 0), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost,
                                     s2), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s2), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert(h[i] == (float)i * 3.0f + 2.0f);
    ck_assert_int_eq(cudaEventDestroy(a), cudaSuccess);
    ck_assert_int_eq(cudaEventDestroy(b), cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(s), cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(s2), cudaSuccess);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    cudaFree(d);
}
END_TEST

/* Runs f with stderr (or stdout) going to a temporary file; returns
 * what was written (static buffer). */
static const char *capture(int fd, void (*f)(void))
{
    static char buf[4096];
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    fflush(fd == 1 ? stdout : stderr);
    int saved = dup(fd);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(dup2(fileno(tmp), fd), 0);
    f();
    fflush(fd == 1 ? stdout : stderr);
    ck_assert_int_ge(dup2(saved, fd), 0);
    close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
    return buf;
}

static cudaError_t unsupported_result[2];

static void call_unsupported(void)
{
    unsupported_result[0] = cudaGraphDebugDotPrint();
    unsupported_result[1] = cudaGraphDebugDotPrint();
}

START_TEST(test_unsupported)
{
    const char *out = capture(2, call_unsupported);
    ck_assert_str_eq(out, "ptxemu: cudaGraphDebugDotPrint is not "
                          "supported by the emulator\n");
    ck_assert_int_eq(unsupported_result[0], cudaErrorNotSupported);
    ck_assert_int_eq(unsupported_result[1], cudaErrorNotSupported);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorNotSupported);
}
END_TEST

static cudaError_t printf_sync_result;

static void run_hello(void)
{
    void *none[1] = { NULL };
    if (cudaLaunchKernel((const void *)hello_stub, d3(1, 1, 1),
                         d3(32, 1, 1), none, 0, 0) == cudaSuccess)
        printf_sync_result = cudaDeviceSynchronize();
    else
        printf_sync_result = cudaErrorUnknown;
}

START_TEST(test_printf)
{
    const char *out = capture(1, run_hello);
    ck_assert_int_eq(printf_sync_result, cudaSuccess);
    ck_assert_str_eq(out, "cudart says hi 7");
}
END_TEST

START_TEST(test_device)
{
    int count = 0;
    ck_assert_int_eq(cudaGetDeviceCount(&count), cudaSuccess);
    ck_assert_int_ge(count, 1);
    ck_assert_int_eq(cudaSetDevice(count), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaSetDevice(0), cudaSuccess);
    int dev = -1;
    ck_assert_int_eq(cudaGetDevice(&dev), cudaSuccess);
    ck_assert_int_eq(dev, 0);
    struct cudaDeviceProp p;
    ck_assert_int_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    ck_assert_int_gt((int)strlen(p.name), 0);
    /* Facts of every CUDA device of compute capability 8.x. */
    ck_assert_int_eq(p.warpSize, 32);
    ck_assert_int_eq(p.maxThreadsPerBlock, 1024);
    ck_assert_int_eq(p.maxThreadsDim[2], 64);
    ck_assert_int_eq(p.maxGridSize[1], 65535);
    ck_assert_int_ge(p.major, 8);
    ck_assert_uint_gt(p.totalGlobalMem, 0);
    /* the emulated device runs one kernel at a time (README) */
    ck_assert_int_eq(p.concurrentKernels, 0);
    ck_assert_int_eq(p.asyncEngineCount, 0);
    int v = 0;
    ck_assert_int_eq(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0),
                     cudaSuccess);
    ck_assert_int_eq(v, 32);
    ck_assert_int_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount,
                                            0), cudaSuccess);
    ck_assert_int_eq(v, p.multiProcessorCount);
    ck_assert_int_eq(cudaRuntimeGetVersion(&v), cudaSuccess);
    ck_assert_int_eq(v, 13000);
    ck_assert_int_eq(cudaDriverGetVersion(&v), cudaSuccess);
    ck_assert_int_ge(v, 13000);
    size_t fr = 0, total = 0;
    ck_assert_int_eq(cudaMemGetInfo(&fr, &total), cudaSuccess);
    ck_assert_uint_gt(total, 0);
    ck_assert_uint_le(fr, total);
    /* The heap is sized when the device is made (PTXEMU_HEAP): asking
     * for the current size or less is granted. */
    size_t lim = 0, got = 0;
    ck_assert_int_eq(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize),
                     cudaSuccess);
    ck_assert_uint_gt(lim, 0);
    ck_assert_int_eq(cudaDeviceSetLimit(cudaLimitMallocHeapSize, lim),
                     cudaSuccess);
    ck_assert_int_eq(cudaDeviceGetLimit(&got, cudaLimitMallocHeapSize),
                     cudaSuccess);
    ck_assert_uint_eq(got, lim);
    ck_assert_int_eq(cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize),
                     cudaSuccess);
    ck_assert_uint_gt(got, 0);
    ck_assert_int_eq(cudaSetDeviceFlags(cudaDeviceMapHost), cudaSuccess);
    unsigned fl = 0;
    ck_assert_int_eq(cudaGetDeviceFlags(&fl), cudaSuccess);
    ck_assert_uint_eq(fl & cudaDeviceMapHost, cudaDeviceMapHost);
    ck_assert_int_eq(cudaChooseDevice(&dev, &p), cudaSuccess);
    ck_assert_int_eq(dev, 0);
    ck_assert_int_eq(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1),
                     cudaSuccess);
    char bus[32] = "";
    ck_assert_int_eq(cudaDeviceGetPCIBusId(bus, sizeof bus, 0), cudaSuccess);
    dev = -1;
    ck_assert_int_eq(cudaDeviceGetByPCIBusId(&dev, bus), cudaSuccess);
    ck_assert_int_eq(dev, 0);
    ck_assert_int_eq(cudaProfilerStart(), cudaSuccess);
    ck_assert_int_eq(cudaProfilerStop(), cudaSuccess);
}
END_TEST

START_TEST(test_func_attributes)
{
    struct cudaFuncAttributes a;
    memset(&a, 0xff, sizeof a);
    ck_assert_int_eq(cudaFuncGetAttributes(&a, (const void *)axpb_stub),
                     cudaSuccess);
    ck_assert_int_eq(a.maxThreadsPerBlock, 1024);
    ck_assert_uint_eq(a.sharedSizeBytes, 0);
    ck_assert_int_eq(a.reserved[0], 0);
    ck_assert_int_eq(cudaFuncGetAttributes(&a,
                                           (const void *)unregistered_stub),
                     cudaErrorInvalidDeviceFunction);
    ck_assert_int_eq(cudaFuncSetAttribute((const void *)axpb_stub,
                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                          1024), cudaSuccess);
    ck_assert_int_eq(cudaFuncSetCacheConfig((const void *)axpb_stub,
                                            cudaFuncCachePreferShared),
                     cudaSuccess);
    /* axpb(.u64, .u32): the parameter buffer's layout. */
    size_t off = 99, size = 99;
    ck_assert_int_eq(cudaFuncGetParamInfo((const void *)axpb_stub, 1, &off,
                                          &size), cudaSuccess);
    ck_assert_uint_eq(off, 8);
    ck_assert_uint_eq(size, 4);
    int blocks = 0;
    ck_assert_int_eq(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                         &blocks, (const void *)axpb_stub, 256, 0),
                     cudaSuccess);
    ck_assert_int_ge(blocks, 1);
    /* 256-thread blocks: at most the SM's thread limit / 256. */
    int per_sm = 0;
    ck_assert_int_eq(cudaDeviceGetAttribute(&per_sm,
                         cudaDevAttrMaxThreadsPerMultiProcessor, 0),
                     cudaSuccess);
    ck_assert_int_le(blocks, per_sm / 256);
}
END_TEST

/* Host threads each run their own buffer through the kernel at once. */
static void *thread_body(void *arg)
{
    int id = (int)(intptr_t)arg;
    enum { N = 96 };
    float h[N], *d;
    for (int i = 0; i < N; i++)
        h[i] = (float)(id * 1000 + i);
    if (cudaMalloc((void **)&d, sizeof h) != cudaSuccess)
        return (void *)1;
    if (cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess)
        return (void *)2;
    int n = N;
    void *args[] = { &d, &n };
    for (int rep = 0; rep < 4; rep++)
        if (cudaLaunchKernel((const void *)axpb_stub, d3(3, 1, 1),
                             d3(32, 1, 1), args, 0, 0) != cudaSuccess)
            return (void *)3;
    if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
        return (void *)4;
    for (int i = 0; i < N; i++)
        if (h[i] != (float)(id * 1000 + i))     /* scale 1, bias 0 */
            return (void *)5;
    /* Each thread's own last error. */
    if (cudaMalloc(NULL, 4) != cudaErrorInvalidValue
        || cudaGetLastError() != cudaErrorInvalidValue
        || cudaGetLastError() != cudaSuccess)
        return (void *)6;
    cudaFree(d);
    return NULL;
}

START_TEST(test_threads)
{
    enum { T = 6 };
    set_coeffs(1.0f, 0);
    ck_assert_int_eq(__cudaInitModule(handle), 1);
    *mcount = 0;
    pthread_t t[T];
    for (int i = 0; i < T; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, thread_body,
                                        (void *)(intptr_t)i), 0);
    for (int i = 0; i < T; i++) {
        void *res;
        ck_assert_int_eq(pthread_join(t[i], &res), 0);
        ck_assert_msg(res == NULL, "thread %d failed at step %d", i,
                      (int)(intptr_t)res);
    }
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_uint_eq(*mcount, T * 4 * 96);
}
END_TEST

/* Bad arguments give errors, never a crash, and leave the device
 * usable. */
START_TEST(test_bad_input)
{
    ck_assert_int_ne(cudaLaunchKernel((const void *)axpb_stub, d3(1, 1, 1),
                                      d3(1, 1, 1), NULL, 0, 0),
                     cudaSuccess);
    ck_assert_int_eq(cudaLaunchKernel(NULL, d3(1, 1, 1), d3(1, 1, 1), NULL,
                                      0, 0),
                     cudaErrorInvalidDeviceFunction);
    unsigned h = 0;
    ck_assert_int_ne(cudaMemcpy(&h, (void *)(uintptr_t)0x1234, 4,
                                cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_ne(cudaMemcpy((void *)(uintptr_t)0x1234, &h, 4,
                                cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_ne(cudaFree((void *)(uintptr_t)0x1234), cudaSuccess);
    ck_assert_int_ne(cudaMemset((void *)(uintptr_t)0x1234, 0, 4),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(&h, NULL, 4, cudaMemcpyDeviceToHost),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGetSymbolAddress(NULL, &gbias),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaEventElapsedTime(NULL, NULL, NULL),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaStreamAddCallback(0, NULL, NULL, 0),
                     cudaErrorInvalidValue);
    dim3 g, b;
    size_t shmem;
    cudaStream_t st;
    ck_assert_int_eq(__cudaPopCallConfiguration(&g, &b, &shmem, &st),
                     cudaErrorMissingConfiguration);
    (void)cudaGetLastError();
    check_axpb(1);
}
END_TEST

/* A thread with its own driver context: the runtime works in it. */
static void *own_context_body(void *arg)
{
    (void)arg;
    CUcontext mine = NULL, cur = NULL;
    if (cuInit(0) != CUDA_SUCCESS || cuCtxCreate_v2(&mine, 0, 0)
        != CUDA_SUCCESS)
        return (void *)1;
    float *d;
    if (cudaMalloc((void **)&d, 64) != cudaSuccess)
        return (void *)2;
    if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS || cur != mine)
        return (void *)3;
    cudaFree(d);
    cuCtxDestroy_v2(mine);
    return NULL;
}

START_TEST(test_driver_context)
{
    pthread_t t;
    void *res;
    ck_assert_int_eq(pthread_create(&t, NULL, own_context_body, NULL), 0);
    ck_assert_int_eq(pthread_join(t, &res), 0);
    ck_assert_msg(res == NULL, "step %d", (int)(intptr_t)res);
}
END_TEST

static Suite *cudart_suite(void)
{
    Suite *s = suite_create("cudart");
    TCase *tc = tcase_create("cudart");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_launch_chevrons);
    tcase_add_test(tc, test_launch_kernel);
    tcase_add_test(tc, test_symbols);
    tcase_add_test(tc, test_managed);
    tcase_add_test(tc, test_memcpy_kinds);
    tcase_add_test(tc, test_memcpy_2d);
    tcase_add_test(tc, test_error_strings);
    tcase_add_test(tc, test_last_error);
    tcase_add_test(tc, test_bad_config);
    tcase_add_test(tc, test_sticky_fault);
    tcase_add_test(tc, test_streams_events);
    tcase_add_test(tc, test_stream_attributes);
    tcase_add_test(tc, test_unsupported);
    tcase_add_test(tc, test_printf);
    tcase_add_test(tc, test_device);
    tcase_add_test(tc, test_func_attributes);
    tcase_add_test(tc, test_threads);
    tcase_add_test(tc, test_driver_context);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cudart_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
