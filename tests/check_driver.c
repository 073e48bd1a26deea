/*
 * tests/check_driver.c: the drop-in CUDA driver (libcuda.so.1) through
 * its exported API only, as a CUDA program sees it.
 *
 * References: results are checked against host C code computing the
 * same thing; error codes and names against the CUDA driver API's
 * documented values (typed here as literals, not taken from our
 * tables); occupancy against the CUDA occupancy rules worked by hand.
 * Each test runs in its own process (Check's fork mode), so each
 * starts from an uninitialised driver.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <check.h>
#include <math.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/cuda_abi.h"

/* Not in our ABI header: an entry point the emulator stubs. */
CUresult cuGraphicsUnregisterResource(void *resource);

#define OK(call) ck_assert_int_eq((int)(call), CUDA_SUCCESS)

static const char kernels[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".global .u32 counter;\n"
    /* c[i] = a[i] + 3 * b[i] for i < n; counts the threads that did. */
    ".visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc,"
    " .param .u32 n)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<9>; .reg .b64 %rd<9>;\n"
    " ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb];\n"
    " ld.param.u64 %rd3, [pc]; ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n"
    " @%p1 bra DONE;\n"
    " mul.wide.u32 %rd4, %r5, 4;\n"
    " add.s64 %rd5, %rd1, %rd4; add.s64 %rd6, %rd2, %rd4;\n"
    " add.s64 %rd7, %rd3, %rd4;\n"
    " ld.global.u32 %r6, [%rd5]; ld.global.u32 %r7, [%rd6];\n"
    " mad.lo.s32 %r6, %r7, 3, %r6;\n"
    " st.global.u32 [%rd7], %r6;\n"
    " atom.global.add.u32 %r8, [counter], 1;\n"
    "DONE:\n ret;\n}\n"
    /* Stores 7 at p: a fault when p is not device memory. */
    ".visible .entry fault(.param .u64 p)\n{\n"
    " .reg .b64 %rd<2>; .reg .b32 %r<2>;\n"
    " ld.param.u64 %rd1, [p]; mov.u32 %r1, 7;\n"
    " st.global.u32 [%rd1], %r1;\n ret;\n}\n"
    /* p[0..2] = a, b, c: parameters of mixed sizes and alignments. */
    ".visible .entry mixed(.param .u8 ma, .param .u64 mp, .param .u16 mb,"
    " .param .u32 mc)\n{\n"
    " .reg .b16 %rs<3>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    " ld.param.u8 %rs1, [ma]; ld.param.u16 %rs2, [mb];\n"
    " ld.param.u32 %r3, [mc]; ld.param.u64 %rd1, [mp];\n"
    " cvt.u32.u16 %r1, %rs1; cvt.u32.u16 %r2, %rs2;\n"
    " st.global.u32 [%rd1], %r1; st.global.u32 [%rd1+4], %r2;\n"
    " st.global.u32 [%rd1+8], %r3;\n ret;\n}\n"
    /* *out = (malloc(size) != NULL) */
    ".extern .func (.param .b64 rv) malloc(.param .b64 sz);\n"
    ".visible .entry domalloc(.param .u64 out, .param .u64 size)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<2>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [size];\n"
    " { .param .b64 p0; st.param.b64 [p0], %rd2; .param .b64 r0;\n"
    "   call.uni (r0), malloc, (p0); ld.param.b64 %rd3, [r0]; }\n"
    " setp.ne.u64 %p1, %rd3, 0; selp.u32 %r1, 1, 0, %p1;\n"
    " st.global.u32 [%rd1], %r1;\n ret;\n}\n"
    /* 40000 bytes of static shared memory, for occupancy. */
    ".visible .entry bigshared(.param .u64 p)\n{\n"
    " .shared .align 4 .b8 buf[40000];\n"
    " .reg .b32 %r<3>; .reg .b64 %rd<2>;\n"
    " mov.u32 %r1, %tid.x; st.shared.u32 [buf], %r1;\n"
    " ld.shared.u32 %r2, [buf]; ld.param.u64 %rd1, [p];\n"
    " st.global.u32 [%rd1], %r2;\n ret;\n}\n";

static CUcontext ctx;

/* cuInit, a context, and the kernels module. */
static CUmodule setup(void)
{
    CUdevice dev;
    CUmodule mod;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuCtxCreate_v2(&ctx, 0, dev));
    OK(cuModuleLoadData(&mod, kernels));
    return mod;
}

static const char *path(const char *rel)
{
    static char buf[4096];
    const char *top = getenv("top_srcdir");
    snprintf(buf, sizeof(buf), "%s/%s", top ? top : ".", rel);
    return buf;
}

/* Runs vadd over n elements (a[i] = i + seed, b[i] = 2i) and checks
 * c against the host.  Returns the number of mismatches. */
static int run_vadd(CUfunction f, unsigned n, unsigned seed)
{
    unsigned *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
    CUdeviceptr da = 0, db = 0, dc = 0;
    int bad = -1;
    for (unsigned i = 0; i < n; i++) {
        a[i] = i + seed;
        b[i] = 2 * i;
    }
    void *params[] = {&da, &db, &dc, &n};
    if (cuMemAlloc_v2(&da, n * 4) || cuMemAlloc_v2(&db, n * 4) ||
        cuMemAlloc_v2(&dc, n * 4) || cuMemcpyHtoD_v2(da, a, n * 4) ||
        cuMemcpyHtoD_v2(db, b, n * 4) ||
        cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params,
                       NULL) ||
        cuMemcpyDtoH_v2(c, dc, n * 4)) {
        goto out;
    }
    bad = 0;
    for (unsigned i = 0; i < n; i++) {
        bad += c[i] != a[i] + 3 * b[i];
    }
out:
    cuMemFree_v2(da);
    cuMemFree_v2(db);
    cuMemFree_v2(dc);
    free(a);
    free(b);
    free(c);
    return bad;
}

/* Capture what the driver writes on stderr between the two calls. */
static int cap_fd = -1, cap_saved = -1;

static void capture_start(void)
{
    char tmpl[] = "/tmp/check_driver_XXXXXX";
    cap_fd = mkstemp(tmpl);
    ck_assert_int_ge(cap_fd, 0);
    unlink(tmpl);
    fflush(stderr);
    cap_saved = dup(2);
    dup2(cap_fd, 2);
}

static void capture_end(char *buf, size_t len)
{
    fflush(stderr);
    dup2(cap_saved, 2);
    close(cap_saved);
    ssize_t n = pread(cap_fd, buf, len - 1, 0);
    close(cap_fd);
    ck_assert_int_ge(n, 0);
    buf[n] = 0;
}

/* ------------------------------------------------------------ tests */

START_TEST(init_and_device)
{
    CUdevice dev;
    int n, v, major, minor;
    char name[128];
    ck_assert_int_eq(cuDeviceGetCount(&n), 3);  /* NOT_INITIALIZED */
    ck_assert_int_eq(cuInit(1), 1);             /* flags must be 0 */
    OK(cuInit(0));
    OK(cuDeviceGetCount(&n));
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(cuDeviceGet(&dev, 1), 101); /* INVALID_DEVICE */
    OK(cuDeviceGet(&dev, 0));
    OK(cuDriverGetVersion(&v));
    ck_assert_int_eq(v, 13000);
    OK(cuDeviceComputeCapability(&major, &minor, dev));
    ck_assert_int_eq(major * 10 + minor, 80);   /* the default, sm_80 */
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                            dev));
    ck_assert_int_eq(v, 108);                   /* A100 */
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    ck_assert_int_eq(v, 32);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                            dev));
    ck_assert_int_eq(v, 1024);
    OK(cuDeviceGetName(name, sizeof(name), dev));
    ck_assert_ptr_nonnull(strstr(name, "sm_80"));
    /* One worker runs the device's work, one item at a time
     * (drv_queue.h): no concurrent kernels, no copy beside a kernel. */
    static const CUdevice_attribute serial[] = {
        CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS,
        CU_DEVICE_ATTRIBUTE_GPU_OVERLAP,
        CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT,
    };
    for (size_t i = 0; i < sizeof serial / sizeof *serial; i++) {
        v = -1;
        OK(cuDeviceGetAttribute(&v, serial[i], dev));
        ck_assert_int_eq(v, 0);
    }
    /* Every attribute answers; one past the last is refused. */
    for (int a = 1; a <= 147; a++) {
        ck_assert_msg(cuDeviceGetAttribute(&v, (CUdevice_attribute)a, dev)
                      == CUDA_SUCCESS, "attribute %d", a);
    }
    ck_assert_int_eq(cuDeviceGetAttribute(&v, (CUdevice_attribute)148, dev),
                     1);
    /* The A100's 40 GiB, or half the host's physical memory when that
     * is less (what can really be allocated). */
    size_t total;
    OK(cuDeviceTotalMem_v2(&total, dev));
    unsigned long long half = (unsigned long long)sysconf(_SC_PHYS_PAGES) *
                              (unsigned long long)sysconf(_SC_PAGESIZE) / 2;
    ck_assert_uint_eq(total, half < (40ull << 30) ? half : 40ull << 30);
}
END_TEST

START_TEST(arch_from_env)
{
    CUdevice dev = 0;
    int v, major, minor;
    setenv("PTXEMU_ARCH", "sm_90", 1);
    setenv("PTXEMU_SMS", "4", 1);
    OK(cuInit(0));
    OK(cuDeviceComputeCapability(&major, &minor, dev));
    ck_assert_int_eq(major, 9);
    ck_assert_int_eq(minor, 0);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                            dev));
    ck_assert_int_eq(v, 4);
    /* H100: 227 KiB of shared memory per block when opted in. */
    CUdevice_attribute optin =
        CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN;
    OK(cuDeviceGetAttribute(&v, optin, dev));
    ck_assert_int_eq(v, 227 * 1024);
}
END_TEST

/* Under a timing model events measure simulated time.  At 1 MHz a cycle
 * is 1 us: nothing between two records takes exactly 0 ms, two identical
 * launches take exactly the same time, a launch takes at least the
 * simple model's launch latency (1000 cycles = 1 ms), and every time is
 * a whole number of cycles. */
START_TEST(events_time_simulated)
{
    setenv("PTXEMU_TIMING", "simple", 1);
    setenv("PTXEMU_TIMING_SET", "clock_mhz=1", 1);
    CUmodule mod = setup();
    CUfunction f;
    OK(cuModuleGetFunction(&f, mod, "vadd"));
    CUevent ev[4];
    for (int k = 0; k < 4; k++) {
        OK(cuEventCreate(&ev[k], 0));
    }
    OK(cuEventRecord(ev[0], NULL));
    OK(cuEventRecord(ev[1], NULL));
    ck_assert_int_eq(run_vadd(f, 1000, 1), 0);
    OK(cuEventRecord(ev[2], NULL));
    ck_assert_int_eq(run_vadd(f, 1000, 1), 0);
    OK(cuEventRecord(ev[3], NULL));
    OK(cuEventSynchronize(ev[3]));
    float ms[3];
    for (int k = 0; k < 3; k++) {
        OK(cuEventElapsedTime(&ms[k], ev[k], ev[k + 1]));
        double cyc = (double)ms[k] * 1000.0;
        ck_assert_msg(fabs(cyc - round(cyc)) < 1e-2, "%g cycles", cyc);
    }
    ck_assert(ms[0] == 0.0f);
    ck_assert(ms[1] >= 1.0f);
    ck_assert(ms[1] == ms[2]);
}
END_TEST

START_TEST(contexts)
{
    CUcontext c1, c2, cur, popped, prim;
    CUdevice dev = 0;
    unsigned flags;
    int active;
    OK(cuInit(0));
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_null(cur);
    CUdeviceptr p;
    ck_assert_int_eq(cuMemAlloc_v2(&p, 16), 201); /* INVALID_CONTEXT */
    OK(cuCtxCreate_v2(&c1, 0, dev));
    OK(cuCtxCreate_v4(&c2, NULL, CU_CTX_SCHED_YIELD, dev));
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_eq(cur, c2);
    OK(cuCtxGetFlags(&flags));
    ck_assert_uint_eq(flags, CU_CTX_SCHED_YIELD);
    OK(cuCtxPopCurrent_v2(&popped));
    ck_assert_ptr_eq(popped, c2);
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_eq(cur, c1);
    OK(cuCtxPushCurrent_v2(c2));
    OK(cuCtxDestroy_v2(c2));                    /* pops it */
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_eq(cur, c1);
    ck_assert_int_eq(cuCtxPushCurrent_v2(c2), 201);
    OK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    ck_assert_int_eq(active, 0);
    OK(cuDevicePrimaryCtxRetain(&prim, dev));
    OK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    ck_assert_int_eq(active, 1);
    OK(cuCtxSetCurrent(prim));
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_eq(cur, prim);
    OK(cuMemAlloc_v2(&p, 16));
    OK(cuMemFree_v2(p));
    OK(cuDevicePrimaryCtxRelease_v2(dev));
    OK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    ck_assert_int_eq(active, 0);
}
END_TEST

START_TEST(module_from_string)
{
    CUmodule mod = setup();
    CUfunction f;
    CUdeviceptr g;
    size_t gsize;
    unsigned count;
    const char *nm;
    OK(cuModuleGetFunction(&f, mod, "vadd"));
    ck_assert_int_eq(cuModuleGetFunction(&f, mod, "nope"), 500);
    OK(cuFuncGetName(&nm, f));
    ck_assert_str_eq(nm, "vadd");
    OK(cuModuleGetFunctionCount(&count, mod));
    ck_assert_uint_eq(count, 5);
    ck_assert_int_eq(run_vadd(f, 1000, 5), 0);
    /* The .global counter saw every thread below n. */
    OK(cuModuleGetGlobal_v2(&g, &gsize, mod, "counter"));
    ck_assert_uint_eq(gsize, 4);
    unsigned cnt;
    OK(cuMemcpyDtoH_v2(&cnt, g, 4));
    ck_assert_uint_eq(cnt, 1000);
    ck_assert_int_eq(cuModuleGetGlobal_v2(&g, &gsize, mod, "nope"), 500);
    size_t off, sz;
    OK(cuFuncGetParamInfo(f, 3, &off, &sz));
    ck_assert_uint_eq(off, 24);
    ck_assert_uint_eq(sz, 4);
    OK(cuModuleUnload(mod));
    ck_assert_int_eq(cuModuleGetFunction(&f, mod, "vadd"), 400);
    /* Bad PTX: CUDA_ERROR_INVALID_PTX (218), and the log says where. */
    char log[4096] = "";
    CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER,
                          CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[] = {log, (void *)(uintptr_t)sizeof(log)};
    ck_assert_int_eq(cuModuleLoadDataEx(&mod, ".version 7.0\n.target sm_80\n"
                                        "bogus;\n", 2, opt, val), 218);
    ck_assert_ptr_nonnull(strstr(log, "error"));
    ck_assert_int_eq(cuModuleLoadData(&mod, ""), 218);
    ck_assert_int_eq(cuModuleLoadData(&mod, NULL), 1);
}
END_TEST

START_TEST(module_from_file)
{
    CUmodule mod;
    CUfunction f;
    setup();
    ck_assert_int_eq(cuModuleLoad(&mod, "/nonexistent/x.ptx"), 301);
    OK(cuModuleLoad(&mod, path("examples/vecadd.ptx")));
    OK(cuModuleGetFunction(&f, mod, "vecAdd"));
    enum { N = 300 };
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 0.5f * (float)i;
    }
    CUdeviceptr da, db, dc;
    OK(cuMemAlloc_v2(&da, sizeof(a)));
    OK(cuMemAlloc_v2(&db, sizeof(b)));
    OK(cuMemAlloc_v2(&dc, sizeof(c)));
    OK(cuMemcpyHtoD_v2(da, a, sizeof(a)));
    OK(cuMemcpyHtoD_v2(db, b, sizeof(b)));
    int n = N;
    void *params[] = {&da, &db, &dc, &n};
    OK(cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    OK(cuMemcpyDtoH_v2(c, dc, sizeof(c)));
    for (int i = 0; i < N; i++) {
        ck_assert_float_eq(c[i], a[i] + b[i]);
    }
}
END_TEST

/* vadd of the fat-binary fixtures (tests/fatbin/src/vadd.cu):
 * c = a + b on floats. */
static void fatbin_vadd(CUmodule mod)
{
    CUfunction f;
    OK(cuModuleGetFunction(&f, mod, "_Z4vaddPKfS0_Pfi"));
    enum { N = 200 };
    float *a, *b, *c;
    CUdeviceptr da, db, dc;
    OK(cuMemAllocManaged(&da, N * 4, CU_MEM_ATTACH_GLOBAL));
    OK(cuMemAllocManaged(&db, N * 4, CU_MEM_ATTACH_GLOBAL));
    OK(cuMemAllocManaged(&dc, N * 4, CU_MEM_ATTACH_GLOBAL));
    a = (float *)(uintptr_t)da;
    b = (float *)(uintptr_t)db;
    c = (float *)(uintptr_t)dc;
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 1.5f;
        b[i] = 100.0f - (float)i;
    }
    int n = N;
    void *params[] = {&da, &db, &dc, &n};
    OK(cuLaunchKernel(f, 2, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    OK(cuCtxSynchronize());
    for (int i = 0; i < N; i++) {
        ck_assert_float_eq(c[i], a[i] + b[i]);
    }
}

START_TEST(module_from_fatbin)
{
    CUmodule mod;
    setup();
    OK(cuModuleLoad(&mod, path("tests/fatbin/default.fatbin")));
    fatbin_vadd(mod);
    /* The same bytes in memory, as cuModuleLoadFatBinary gets them. */
    FILE *fp = fopen(path("tests/fatbin/lz4.fatbin"), "rb");
    ck_assert_ptr_nonnull(fp);
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof(buf), fp);
    fclose(fp);
    ck_assert_uint_gt(n, 0);
    OK(cuModuleLoadFatBinary(&mod, buf));
    fatbin_vadd(mod);
    /* SASS only: the emulator cannot run it. */
    ck_assert_int_eq(cuModuleLoad(&mod, path("tests/fatbin/sass.fatbin")),
                     209);                   /* NO_BINARY_FOR_GPU */
}
END_TEST

/* numRegs: ptxas's count where the fat binary holds sm_80 SASS
 * (tests/fatbin/ref/regs.txt, what ptxas printed for that SASS), the
 * PTX estimate (emu/regest.h) for the PTX alone */
static int num_regs(CUmodule mod, const char *name)
{
    CUfunction f;
    int v = -1;
    OK(cuModuleGetFunction(&f, mod, name));
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    return v;
}

START_TEST(num_regs_from_sass)
{
    CUmodule sass, ptx;
    setup();
    OK(cuModuleLoad(&sass, path("tests/fatbin/regs.fatbin")));
    OK(cuModuleLoad(&ptx, path("tests/fatbin/regs.ptx")));
    FILE *fp = fopen(path("tests/fatbin/ref/regs.txt"), "r");
    ck_assert_ptr_nonnull(fp);
    char name[64];
    int want, n = 0;
    while (fscanf(fp, "%63s %d", name, &want) == 2) {
        n++;
        ck_assert_int_eq(num_regs(sass, name), want);
        /* the estimate: within a quarter of ptxas's count here */
        int est = num_regs(ptx, name);
        ck_assert_msg(est * 4 >= want * 3 && est * 4 <= want * 5,
                      "%s: estimate %d, ptxas %d", name, est, want);
    }
    fclose(fp);
    ck_assert_int_eq(n, 4);
    /* __launch_bounds__(256, 8): 65536 / (8 x 256) = 32, both ways */
    ck_assert_int_eq(num_regs(ptx, "bounded"), 32);
    /* occupancy follows: wide's 40 registers x 32 lanes = 1280 per warp,
     * 10240 per 256-thread CTA: 6 CTAs in 64K registers */
    CUfunction f;
    int blocks = 0;
    OK(cuModuleGetFunction(&f, sass, "wide"));
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 256, 0));
    ck_assert_int_eq(blocks, 6);
}
END_TEST

START_TEST(memory_kinds)
{
    setup();
    CUdeviceptr d, m, base;
    size_t size;
    unsigned type, managed;
    OK(cuMemAlloc_v2(&d, 1000));
    ck_assert_int_eq(cuMemAlloc_v2(&m, 0), 1);
    OK(cuMemAllocManaged(&m, 64, CU_MEM_ATTACH_GLOBAL));
    OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
    ck_assert_uint_eq(type, CU_MEMORYTYPE_DEVICE);
    OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, d));
    ck_assert_uint_eq(managed, 0);
    OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, m));
    ck_assert_uint_eq(managed, 1);
    /* Page-locked host memory is host memory, not managed. */
    void *pinned;
    OK(cuMemHostAlloc(&pinned, 64, 0));
    CUdeviceptr pp = (CUdeviceptr)(uintptr_t)pinned;
    OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, pp + 8));
    ck_assert_uint_eq(type, CU_MEMORYTYPE_HOST);
    OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, pp));
    ck_assert_uint_eq(managed, 0);
    OK(cuMemFreeHost(pinned));
    OK(cuMemGetAddressRange_v2(&base, &size, d + 500));
    ck_assert_uint_eq(base, d);
    ck_assert_uint_eq(size, 1000);
    /* memset patterns, read back through the unified cuMemcpy. */
    unsigned char host[1000];
    OK(cuMemsetD8_v2(d, 0xab, 1000));
    OK(cuMemsetD16_v2(d + 2, 0x1234, 3));
    OK(cuMemsetD32_v2(d + 100, 0xdeadbeef, 2));
    OK(cuMemcpy((CUdeviceptr)(uintptr_t)host, d, sizeof(host)));
    ck_assert_uint_eq(host[0], 0xab);
    ck_assert_uint_eq(host[2], 0x34);
    ck_assert_uint_eq(host[3], 0x12);
    ck_assert_uint_eq(host[7], 0x12);
    ck_assert_uint_eq(host[8], 0xab);
    unsigned w;
    memcpy(&w, host + 104, 4);
    ck_assert_uint_eq(w, 0xdeadbeef);
    ck_assert_uint_eq(host[108], 0xab);
    ck_assert_int_eq(cuMemsetD32_v2(d + 1, 0, 1), 1);   /* misaligned */
    /* Managed memory is host memory: written directly, copied out. */
    unsigned *mp = (unsigned *)(uintptr_t)m;
    for (int i = 0; i < 16; i++) {
        mp[i] = (unsigned)i * 7u;
    }
    unsigned out[16];
    OK(cuMemcpyDtoH_v2(out, m, sizeof(out)));
    for (int i = 0; i < 16; i++) {
        ck_assert_uint_eq(out[i], (unsigned)i * 7u);
    }
    /* Registered host memory: device pointer == host pointer. */
    static unsigned reg[64];
    CUdeviceptr rp;
    OK(cuMemHostRegister_v2(reg, sizeof(reg), 0));
    ck_assert_int_eq(cuMemHostRegister_v2(reg, sizeof(reg), 0), 712);
    OK(cuMemHostGetDevicePointer_v2(&rp, reg, 0));
    ck_assert_uint_eq(rp, (uintptr_t)reg);
    OK(cuMemcpyDtoD_v2(rp, m, 64));
    /* A device-to-device copy does not wait for its completion (CUDA
     * Driver API, "API synchronization behavior"). */
    OK(cuCtxSynchronize());
    ck_assert_uint_eq(reg[15], 105);
    OK(cuMemHostUnregister(reg));
    ck_assert_int_eq(cuMemHostUnregister(reg), 713);
    void *ph;
    OK(cuMemAllocHost_v2(&ph, 128));
    OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                             (uintptr_t)ph));
    OK(cuMemFreeHost(ph));
    /* A 2D copy of a 3 x 4 window out of a pitched allocation. */
    CUdeviceptr pd;
    size_t pitch;
    OK(cuMemAllocPitch_v2(&pd, &pitch, 40, 6, 4));
    ck_assert_uint_ge(pitch, 40);
    unsigned char src[6][40], dst[4][3];
    for (int y = 0; y < 6; y++) {
        for (int x = 0; x < 40; x++) {
            src[y][x] = (unsigned char)(y * 40 + x);
        }
    }
    CUDA_MEMCPY2D c2;
    memset(&c2, 0, sizeof(c2));
    c2.srcMemoryType = CU_MEMORYTYPE_HOST;
    c2.srcHost = src;
    c2.srcPitch = 40;
    c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.dstDevice = pd;
    c2.dstPitch = pitch;
    c2.WidthInBytes = 40;
    c2.Height = 6;
    OK(cuMemcpy2D_v2(&c2));
    memset(&c2, 0, sizeof(c2));
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.srcDevice = pd;
    c2.srcPitch = pitch;
    c2.srcXInBytes = 5;
    c2.srcY = 1;
    c2.dstMemoryType = CU_MEMORYTYPE_HOST;
    c2.dstHost = dst;
    c2.dstPitch = 3;
    c2.WidthInBytes = 3;
    c2.Height = 4;
    OK(cuMemcpy2D_v2(&c2));
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 3; x++) {
            ck_assert_uint_eq(dst[y][x], src[y + 1][x + 5]);
        }
    }
    /* A 3D copy: a 3 x 2 x 2 box at (1, 1, 1) of a 4 x 3 x 3 host
     * volume into a device volume with 8-byte rows, back to the host
     * packed; reference computed on the host. */
    unsigned char vol[3][3][4], box[2][2][3];
    for (int z = 0; z < 3; z++) {
        for (int y = 0; y < 3; y++) {
            for (int x = 0; x < 4; x++) {
                vol[z][y][x] = (unsigned char)(z * 100 + y * 10 + x);
            }
        }
    }
    CUdeviceptr dv;
    OK(cuMemAlloc_v2(&dv, 8 * 2 * 2));
    CUDA_MEMCPY3D c3;
    memset(&c3, 0, sizeof(c3));
    c3.srcMemoryType = CU_MEMORYTYPE_HOST;
    c3.srcHost = vol;
    c3.srcPitch = 4;
    c3.srcHeight = 3;
    c3.srcXInBytes = 1;
    c3.srcY = 1;
    c3.srcZ = 1;
    c3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c3.dstDevice = dv;
    c3.dstPitch = 8;
    c3.dstHeight = 2;
    c3.WidthInBytes = 3;
    c3.Height = 2;
    c3.Depth = 2;
    OK(cuMemcpy3D_v2(&c3));
    memset(&c3, 0, sizeof(c3));
    c3.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c3.srcDevice = dv;
    c3.srcPitch = 8;
    c3.srcHeight = 2;
    c3.dstMemoryType = CU_MEMORYTYPE_HOST;
    c3.dstHost = box;
    c3.dstPitch = 3;
    c3.dstHeight = 2;
    c3.WidthInBytes = 3;
    c3.Height = 2;
    c3.Depth = 2;
    OK(cuMemcpy3D_v2(&c3));
    for (int z = 0; z < 2; z++) {
        for (int y = 0; y < 2; y++) {
            for (int x = 0; x < 3; x++) {
                ck_assert_uint_eq(box[z][y][x], vol[z + 1][y + 1][x + 1]);
            }
        }
    }
    OK(cuMemFree_v2(d));
    ck_assert_int_eq(cuMemFree_v2(d + 8), 1);
}
END_TEST

START_TEST(launch_extra)
{
    CUmodule mod = setup();
    CUfunction f;
    OK(cuModuleGetFunction(&f, mod, "mixed"));
    CUdeviceptr out;
    OK(cuMemAlloc_v2(&out, 12));
    /* The .param layout worked by hand: u8 at 0, u64 at 8 (8-aligned),
     * u16 at 16, u32 at 20; 24 bytes. */
    unsigned char buf[24];
    memset(buf, 0xee, sizeof(buf));
    buf[0] = 0xab;
    memcpy(buf + 8, &out, 8);
    unsigned short b = 0x1234;
    memcpy(buf + 16, &b, 2);
    unsigned c = 0xdeadbeef;
    memcpy(buf + 20, &c, 4);
    size_t size = sizeof(buf);
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf,
                     CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, extra));
    unsigned got[3];
    OK(cuMemcpyDtoH_v2(got, out, sizeof(got)));
    ck_assert_uint_eq(got[0], 0xab);
    ck_assert_uint_eq(got[1], 0x1234);
    ck_assert_uint_eq(got[2], 0xdeadbeef);
    /* A buffer smaller than the parameters, and both forms at once. */
    size = 16;
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL,
                                    extra), 1);
    size = sizeof(buf);
    unsigned char a8 = 1;
    void *params[] = {&a8, &out, &b, &c};
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params,
                                    extra), 1);
    /* The same through kernelParams. */
    a8 = 0x5a;
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    OK(cuMemcpyDtoH_v2(got, out, sizeof(got)));
    ck_assert_uint_eq(got[0], 0x5a);
    /* cuLaunchKernelEx with the extra form. */
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.gridDimX = cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = cfg.blockDimY = cfg.blockDimZ = 1;
    buf[0] = 0x11;
    OK(cuLaunchKernelEx(&cfg, f, NULL, extra));
    OK(cuMemcpyDtoH_v2(got, out, sizeof(got)));
    ck_assert_uint_eq(got[0], 0x11);
}
END_TEST

/* Thread-block clusters through cuLaunchKernelEx: p[ctaid] =
 * %cluster_ctarank | %cluster_nctarank << 8. */
static const char cluster_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry ranks(.param .u64 p)\n{\n"
    " .reg .b32 %r<5>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [p]; mov.u32 %r1, %ctaid.x;\n"
    " mov.u32 %r2, %cluster_ctarank; mov.u32 %r3, %cluster_nctarank;\n"
    " shl.b32 %r3, %r3, 8; or.b32 %r4, %r2, %r3;\n"
    " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r4;\n ret;\n}\n";

START_TEST(launch_cluster_dims)
{
    setup();
    CUmodule cm;
    CUfunction f;
    OK(cuModuleLoadData(&cm, cluster_ptx));
    OK(cuModuleGetFunction(&f, cm, "ranks"));
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 6 * 4));
    void *params[] = {&p};
    CUlaunchAttribute at;
    memset(&at, 0, sizeof(at));
    at.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    at.value.clusterDim.x = 3;
    at.value.clusterDim.y = 1;
    at.value.clusterDim.z = 1;
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.gridDimX = 6;
    cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = 32;
    cfg.blockDimY = cfg.blockDimZ = 1;
    cfg.attrs = &at;
    cfg.numAttrs = 1;
    OK(cuLaunchKernelEx(&cfg, f, params, NULL));
    unsigned got[6];
    OK(cuMemcpyDtoH_v2(got, p, sizeof(got)));
    /* clusters of 3 consecutive CTAs: ranks 0 1 2 0 1 2, 3 CTAs each */
    for (unsigned i = 0; i < 6; i++) {
        ck_assert_uint_eq(got[i], (i % 3) | 3u << 8);
    }
    /* a grid of 6 is no multiple of a cluster of 4: refused, and the
     * context stays usable */
    at.value.clusterDim.x = 4;
    ck_assert_int_ne(cuLaunchKernelEx(&cfg, f, params, NULL), CUDA_SUCCESS);
    at.value.clusterDim.x = 2;
    OK(cuLaunchKernelEx(&cfg, f, params, NULL));
    OK(cuMemcpyDtoH_v2(got, p, sizeof(got)));
    for (unsigned i = 0; i < 6; i++) {
        ck_assert_uint_eq(got[i], (i % 2) | 2u << 8);
    }
}
END_TEST

START_TEST(launch_config_errors)
{
    CUmodule mod = setup();
    CUfunction f;
    OK(cuModuleGetFunction(&f, mod, "vadd"));
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 64));
    unsigned n = 0;
    void *params[] = {&p, &p, &p, &n};
    /* The driver's answer to each is CUDA_ERROR_INVALID_VALUE (1). */
    static const unsigned cfg[][7] = {
        {1, 1, 1, 1025, 1, 1, 0},           /* block.x > 1024 */
        {1, 1, 1, 1, 1, 65, 0},             /* block.z > 64 */
        {1, 1, 1, 32, 32, 2, 0},            /* 2048 threads */
        {0, 1, 1, 32, 1, 1, 0},             /* empty grid */
        {1, 65536, 1, 32, 1, 1, 0},         /* grid.y > 65535 */
        {1, 1, 1, 0, 1, 1, 0},              /* empty block */
        {1, 1, 1, 32, 1, 1, 1u << 20},      /* 1 MiB dynamic shared */
    };
    for (size_t i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
        ck_assert_msg(cuLaunchKernel(f, cfg[i][0], cfg[i][1], cfg[i][2],
                                     cfg[i][3], cfg[i][4], cfg[i][5],
                                     cfg[i][6], NULL, params, NULL) == 1,
                      "configuration %zu", i);
    }
    /* The same kernel loaded as a library (as CUDA's runtime loads its
     * fat binaries): 9, the number of cudaErrorInvalidConfiguration,
     * for every dimension error; the shared-memory one stays 1. */
    CUlibrary lib;
    CUkernel k;
    OK(cuLibraryLoadData(&lib, kernels, NULL, NULL, 0, NULL, NULL, 0));
    OK(cuLibraryGetKernel(&k, lib, "vadd"));
    for (size_t i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
        int want = cfg[i][6] ? 1 : 9;
        ck_assert_msg(cuLaunchKernel((CUfunction)k, cfg[i][0], cfg[i][1],
                                     cfg[i][2], cfg[i][3], cfg[i][4],
                                     cfg[i][5], cfg[i][6], NULL, params,
                                     NULL) == (CUresult)want,
                      "library configuration %zu", i);
    }
    /* Within the device's limits but over the kernel's own .maxntid:
     * CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701), from either. */
    static const char bounded[] =
        ".version 7.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry small() .maxntid 64, 1, 1\n{\n ret;\n}\n";
    CUmodule bm;
    CUfunction small;
    OK(cuModuleLoadData(&bm, bounded));
    OK(cuModuleGetFunction(&small, bm, "small"));
    OK(cuLaunchKernel(small, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, NULL));
    ck_assert_int_eq(cuLaunchKernel(small, 1, 1, 1, 65, 1, 1, 0, NULL,
                                    NULL, NULL), 701);
    ck_assert_int_eq(cuLaunchKernel(small, 1, 1, 1, 32, 4, 1, 0, NULL,
                                    NULL, NULL), 701);
    OK(cuCtxSynchronize());
    OK(cuModuleUnload(bm));
    OK(cuLibraryUnload(lib));
    /* Missing parameters, a bad handle, a bad stream. */
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL,
                                    NULL), 1);
    ck_assert_int_eq(cuLaunchKernel((CUfunction)&n, 1, 1, 1, 1, 1, 1, 0,
                                    NULL, params, NULL), 400);
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0,
                                    (CUstream)&n, params, NULL), 400);
    /* None of these poisons the context. */
    ck_assert_int_eq(run_vadd(f, 100, 1), 0);
    /* Opting into more shared memory makes the 1 MiB case... still too
     * large (over the opt-in limit), and 64 KiB allowed. */
    ck_assert_int_eq(cuFuncSetAttribute(f,
                     CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                     1 << 20), 1);
    OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                          65536));
    OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 65536, NULL, params, NULL));
}
END_TEST

START_TEST(fault_is_sticky)
{
    CUmodule mod = setup();
    CUfunction f, v;
    OK(cuModuleGetFunction(&f, mod, "fault"));
    OK(cuModuleGetFunction(&v, mod, "vadd"));
    CUdeviceptr bad = 0x10, p;
    void *params[] = {&bad};
    /* The launch succeeds (the kernel runs later, on the device
     * worker); its CUDA_ERROR_ILLEGAL_ADDRESS (700) comes at the next
     * synchronisation, then every call needing the context gives it
     * back (CUDA Programming Guide, "Error Checking"). */
    char buf[8192];
    capture_start();
    OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    ck_assert_int_eq(cuStreamSynchronize(NULL), 700);
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params,
                                    NULL), 700);
    capture_end(buf, sizeof(buf));
    /* The report, once: the kernel, the instruction, the address. */
    const char *at = strstr(buf, "ptxemu: kernel fault");
    ck_assert_ptr_nonnull(at);
    ck_assert_ptr_null(strstr(at + 1, "ptxemu: kernel fault"));
    ck_assert_ptr_nonnull(strstr(buf, "'fault'"));
    ck_assert_ptr_nonnull(strstr(buf, "st.global.u32"));
    ck_assert_ptr_nonnull(strstr(buf, "0x0000000000000010"));
    ck_assert_int_eq(cuMemAlloc_v2(&p, 16), 700);
    ck_assert_int_eq(cuCtxSynchronize(), 700);
    ck_assert_int_eq(run_vadd(v, 10, 0), -1);
    /* The process lives on: a new context works. */
    OK(cuCtxDestroy_v2(ctx));
    OK(cuCtxCreate_v2(&ctx, 0, 0));
    ck_assert_int_eq(run_vadd(v, 10, 0), 0);
}
END_TEST

START_TEST(error_names)
{
    static const struct {
        int code;
        const char *name;
    } want[] = {
        {0, "CUDA_SUCCESS"},
        {1, "CUDA_ERROR_INVALID_VALUE"},
        {2, "CUDA_ERROR_OUT_OF_MEMORY"},
        {3, "CUDA_ERROR_NOT_INITIALIZED"},
        {201, "CUDA_ERROR_INVALID_CONTEXT"},
        {218, "CUDA_ERROR_INVALID_PTX"},
        {400, "CUDA_ERROR_INVALID_HANDLE"},
        {500, "CUDA_ERROR_NOT_FOUND"},
        {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
        {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
        {801, "CUDA_ERROR_NOT_SUPPORTED"},
        {999, "CUDA_ERROR_UNKNOWN"},
    };
    const char *s;
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        OK(cuGetErrorName((CUresult)want[i].code, &s));
        ck_assert_str_eq(s, want[i].name);
        OK(cuGetErrorString((CUresult)want[i].code, &s));
        ck_assert_uint_gt(strlen(s), 0);
    }
    ck_assert_int_eq(cuGetErrorName((CUresult)12345, &s), 1);
    ck_assert_int_eq(cuGetErrorString((CUresult)12345, &s), 1);
}
END_TEST

static int order[8], norder;

static void host_fn(void *arg)
{
    order[norder++] = (int)(intptr_t)arg;
}

static void stream_cb(CUstream s, CUresult st, void *arg)
{
    (void)s;
    order[norder++] = st == CUDA_SUCCESS ? (int)(intptr_t)arg : -1;
}

START_TEST(many_handles)
{
    enum { N = 300 };
    static CUmodule mods[N];
    static CUfunction fs[N];
    setup();
    for (int i = 0; i < N; i++) {
        OK(cuModuleLoadData(&mods[i], kernels));
        OK(cuModuleGetFunction(&fs[i], mods[i], "vadd"));
    }
    for (int i = 0; i < N; i += 2) {
        OK(cuModuleUnload(mods[i]));
    }
    const char *nm;
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(cuFuncGetName(&nm, fs[i]), i % 2 ? 0 : 400);
    }
    ck_assert_int_eq(run_vadd(fs[N - 1], 50, 9), 0);
    ck_assert_int_eq(cuModuleUnload(mods[0]), 400);
}
END_TEST

/* The device malloc heap: 8 MiB by default, as on hardware; a larger
 * one through the limit. */
START_TEST(heap_limit)
{
    CUmodule mod = setup();
    CUfunction f;
    CUdeviceptr out;
    unsigned got;
    size_t lim;
    unsigned long long size = 16 << 20;
    OK(cuModuleGetFunction(&f, mod, "domalloc"));
    OK(cuMemAlloc_v2(&out, 4));
    void *params[] = {&out, &size};
    OK(cuCtxGetLimit(&lim, CU_LIMIT_MALLOC_HEAP_SIZE));
    ck_assert_uint_eq(lim, 8 << 20);
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    OK(cuMemcpyDtoH_v2(&got, out, 4));
    ck_assert_uint_eq(got, 0);
    OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 << 20));
    OK(cuCtxGetLimit(&lim, CU_LIMIT_MALLOC_HEAP_SIZE));
    ck_assert_uint_eq(lim, 64 << 20);
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    OK(cuMemcpyDtoH_v2(&got, out, 4));
    ck_assert_uint_eq(got, 1);
    ck_assert_int_eq(cuCtxSetLimit(CU_LIMIT_CIG_ENABLED, 1), 215);
}
END_TEST

START_TEST(jit_link)
{
    setup();
    CUlinkState ls;
    void *image;
    size_t size;
    CUmodule mod;
    CUfunction f;
    OK(cuLinkCreate_v2(0, NULL, NULL, &ls));
    OK(cuLinkAddData_v2(ls, CU_JIT_INPUT_PTX, (void *)kernels,
                        sizeof(kernels), "kernels.ptx", 0, NULL, NULL));
    OK(cuLinkComplete(ls, &image, &size));
    ck_assert_uint_gt(size, 0);
    OK(cuModuleLoadData(&mod, image));
    OK(cuLinkDestroy(ls));
    OK(cuModuleGetFunction(&f, mod, "vadd"));
    ck_assert_int_eq(run_vadd(f, 77, 3), 0);
    /* A fat binary from a file links too; two inputs do not. */
    OK(cuLinkCreate_v2(0, NULL, NULL, &ls));
    OK(cuLinkAddFile_v2(ls, CU_JIT_INPUT_FATBINARY,
                        path("tests/fatbin/default.fatbin"), 0, NULL, NULL));
    OK(cuLinkComplete(ls, &image, &size));
    OK(cuModuleLoadData(&mod, image));
    OK(cuModuleGetFunction(&f, mod, "_Z4vaddPKfS0_Pfi"));
    OK(cuLinkAddData_v2(ls, CU_JIT_INPUT_PTX, (void *)kernels, 0, NULL, 0,
                        NULL, NULL));
    ck_assert_int_eq(cuLinkComplete(ls, &image, &size), 801);
    ck_assert_int_eq(cuLinkAddData_v2(ls, CU_JIT_INPUT_CUBIN,
                                      (void *)kernels, 1, NULL, 0, NULL,
                                      NULL), 801);
    OK(cuLinkDestroy(ls));
    ck_assert_int_eq(cuLinkDestroy(ls), 400);
}
END_TEST

START_TEST(streams_events)
{
    CUmodule mod = setup();
    CUfunction f;
    CUstream s;
    CUevent e1, e2, e3;
    float ms;
    OK(cuModuleGetFunction(&f, mod, "vadd"));
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&e1, 0));
    OK(cuEventCreate(&e2, 0));
    OK(cuEventCreate(&e3, CU_EVENT_DISABLE_TIMING));
    ck_assert_int_eq(cuEventElapsedTime_v2(&ms, e1, e2), 400);
    enum { N = 256 };
    unsigned a[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (unsigned)i;
    }
    CUdeviceptr da, dc;
    OK(cuMemAlloc_v2(&da, sizeof(a)));
    OK(cuMemAlloc_v2(&dc, sizeof(c)));
    OK(cuEventRecord(e1, s));
    OK(cuLaunchHostFunc(s, host_fn, (void *)1));
    OK(cuMemcpyHtoDAsync_v2(da, a, sizeof(a), s));
    unsigned n = N;
    void *params[] = {&da, &da, &dc, &n};
    OK(cuLaunchKernel(f, 2, 1, 1, 128, 1, 1, 0, s, params, NULL));
    OK(cuStreamAddCallback(s, stream_cb, (void *)2, 0));
    OK(cuMemcpyDtoHAsync_v2(c, dc, sizeof(c), s));
    OK(cuEventRecord(e2, s));
    OK(cuStreamWaitEvent(NULL, e2, 0));
    OK(cuEventSynchronize(e2));
    OK(cuStreamQuery(s));
    OK(cuEventQuery(e2));
    for (int i = 0; i < N; i++) {
        ck_assert_uint_eq(c[i], 4u * (unsigned)i);
    }
    ck_assert_int_eq(norder, 2);
    ck_assert_int_eq(order[0], 1);
    ck_assert_int_eq(order[1], 2);
    OK(cuEventElapsedTime_v2(&ms, e1, e2));
    ck_assert_float_ge(ms, 0.0f);
    OK(cuEventElapsedTime(&ms, e1, e2));
    ck_assert_float_ge(ms, 0.0f);
    OK(cuEventRecord(e3, s));
    ck_assert_int_eq(cuEventElapsedTime_v2(&ms, e1, e3), 400);
    OK(cuStreamSynchronize(s));
    OK(cuStreamDestroy_v2(s));
    ck_assert_int_eq(cuStreamQuery(s), 400);
    OK(cuEventDestroy_v2(e1));
    OK(cuEventDestroy_v2(e2));
    OK(cuEventDestroy_v2(e3));
}
END_TEST

START_TEST(proc_address)
{
    void *fn, *want;
    CUdriverProcAddressQueryResult st;
    OK(cuInit(0));
    OK(cuGetProcAddress_v2("cuMemAlloc", &fn, 13000, 0, &st));
    ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_SUCCESS);
    want = dlsym(RTLD_DEFAULT, "cuMemAlloc_v2");
    ck_assert_ptr_nonnull(want);
    ck_assert_ptr_eq(fn, want);
    /* cuEventElapsedTime became _v2 in CUDA 12.8. */
    OK(cuGetProcAddress_v2("cuEventElapsedTime", &fn, 12000, 0, &st));
    ck_assert_ptr_eq(fn, dlsym(RTLD_DEFAULT, "cuEventElapsedTime"));
    OK(cuGetProcAddress_v2("cuEventElapsedTime", &fn, 12080, 0, &st));
    ck_assert_ptr_eq(fn, dlsym(RTLD_DEFAULT, "cuEventElapsedTime_v2"));
    /* Per-thread default stream flavour. */
    OK(cuGetProcAddress_v2("cuMemcpyHtoD", &fn, 13000,
                           CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                           &st));
    ck_assert_ptr_eq(fn, dlsym(RTLD_DEFAULT, "cuMemcpyHtoD_v2_ptds"));
    /* Too old a version; an unknown name. */
    ck_assert_int_eq(cuGetProcAddress_v2("cuCtxCreate", &fn, 1000, 0, &st),
                     500);
    ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    ck_assert_int_eq(cuGetProcAddress_v2("cuNoSuchThing", &fn, 13000, 0,
                                         &st), 500);
    ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    ck_assert_ptr_null(fn);
    /* The pointer works: allocate through it. */
    OK(cuGetProcAddress("cuMemAlloc", &fn, 13000, 0));
    CUcontext c;
    OK(cuCtxCreate_v2(&c, 0, 0));
    CUresult (*alloc)(CUdeviceptr *, size_t) =
        (CUresult (*)(CUdeviceptr *, size_t))(uintptr_t)fn;
    CUdeviceptr p = 0;
    OK(alloc(&p, 64));
    ck_assert_uint_ne(p, 0);
}
END_TEST

START_TEST(unsupported_stub)
{
    char buf[512];
    capture_start();
    CUresult r1 = cuGraphicsUnregisterResource(NULL);
    CUresult r2 = cuGraphicsUnregisterResource(NULL);
    capture_end(buf, sizeof(buf));
    ck_assert_int_eq(r1, 801);
    ck_assert_int_eq(r2, 801);
    /* Said once, in one line. */
    ck_assert_str_eq(buf,
                     "ptxemu: cuGraphicsUnregisterResource is not "
                     "supported by the "
                     "emulator\n");
}
END_TEST

START_TEST(cooperative_and_occupancy)
{
    CUmodule mod = setup();
    CUfunction f, big;
    int per_sm, sms;
    OK(cuModuleGetFunction(&f, mod, "vadd"));
    OK(cuModuleGetFunction(&big, mod, "bigshared"));
    /* sm_80 by hand: 40000 + 1024 reserved bytes per block in
     * 167936 bytes per SM: 4 blocks; warps (64 threads: 2 of 64 per SM)
     * and registers (64 x 32 x 2 per block of 65536) allow more. */
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, big, 64, 0));
    ck_assert_int_eq(per_sm, 4);
    /* The preferred carve-out limits it (NVIDIA's calculator,
     * cuda_occupancy.h): 25% of 167936 is 41984 bytes, rounded up to the
     * A100's 64 KB: 1 block of 41024; 50% is 83968, 100 KB: 2 blocks;
     * 0% is less than one block, which gets the 64 KB that holds it: 1;
     * -1 (none) gives the whole 164 KB back: 4. */
    static const int carve[][2] = {{25, 1}, {50, 2}, {0, 1}, {100, 4},
                                   {-1, 4}};
    for (int k = 0; k < 5; k++) {
        OK(cuFuncSetAttribute(
            big, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
            carve[k][0]));
        OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, big, 64, 0));
        ck_assert_msg(per_sm == carve[k][1], "carveout %d: %d blocks",
                      carve[k][0], per_sm);
    }
    int v;
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, big));
    ck_assert_int_eq(v, 40000);
    /* 1024-thread blocks: at most 2048 threads per SM, so 2 or fewer. */
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, 1024, 0));
    ck_assert_int_ge(per_sm, 1);
    ck_assert_int_le(per_sm, 2);
    OK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                            0));
    CUdeviceptr p;
    unsigned n = 0;
    OK(cuMemAlloc_v2(&p, 64));
    void *params[] = {&p, &p, &p, &n};
    unsigned fit = (unsigned)(per_sm * sms);
    OK(cuLaunchCooperativeKernel(f, fit, 1, 1, 1024, 1, 1, 0, NULL,
                                 params));
    ck_assert_int_eq(cuLaunchCooperativeKernel(f, fit + 1, 1, 1, 1024, 1, 1,
                                               0, NULL, params), 720);
    OK(cuCtxSynchronize());
}
END_TEST

/* ------------------------------------------------------------ threads */

enum { NTHREADS = 8, ROUNDS = 10 };

typedef struct Worker {
    CUcontext ctx;
    CUfunction f;
    unsigned id;
    int bad;
} Worker;

static void *worker(void *arg)
{
    Worker *w = arg;
    if (cuCtxSetCurrent(w->ctx)) {
        w->bad = -1;
        return NULL;
    }
    for (unsigned r = 0; r < ROUNDS && !w->bad; r++) {
        w->bad = run_vadd(w->f, 64 + 37 * w->id + r, w->id * 1000 + r);
    }
    return NULL;
}

START_TEST(threads)
{
    CUmodule mod = setup();
    CUfunction f;
    OK(cuModuleGetFunction(&f, mod, "vadd"));
    pthread_t t[NTHREADS];
    Worker w[NTHREADS];
    for (unsigned i = 0; i < NTHREADS; i++) {
        w[i] = (Worker){ctx, f, i, 0};
        ck_assert_int_eq(pthread_create(&t[i], NULL, worker, &w[i]), 0);
    }
    for (unsigned i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        ck_assert_msg(w[i].bad == 0, "thread %u: %d", i, w[i].bad);
    }
    /* Every thread of every launch below n counted once. */
    CUdeviceptr g;
    unsigned cnt, want = 0;
    for (unsigned i = 0; i < NTHREADS; i++) {
        for (unsigned r = 0; r < ROUNDS; r++) {
            want += 64 + 37 * i + r;
        }
    }
    OK(cuModuleGetGlobal_v2(&g, NULL, mod, "counter"));
    OK(cuMemcpyDtoH_v2(&cnt, g, 4));
    ck_assert_uint_eq(cnt, want);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("driver");
    TCase *tc = tcase_create("driver");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, init_and_device);
    tcase_add_test(tc, arch_from_env);
    tcase_add_test(tc, events_time_simulated);
    tcase_add_test(tc, contexts);
    tcase_add_test(tc, module_from_string);
    tcase_add_test(tc, module_from_file);
    tcase_add_test(tc, module_from_fatbin);
    tcase_add_test(tc, memory_kinds);
    tcase_add_test(tc, launch_extra);
    tcase_add_test(tc, launch_config_errors);
    tcase_add_test(tc, launch_cluster_dims);
    tcase_add_test(tc, fault_is_sticky);
    tcase_add_test(tc, error_names);
    tcase_add_test(tc, many_handles);
    tcase_add_test(tc, heap_limit);
    tcase_add_test(tc, jit_link);
    tcase_add_test(tc, streams_events);
    tcase_add_test(tc, proc_address);
    tcase_add_test(tc, unsupported_stub);
    tcase_add_test(tc, cooperative_and_occupancy);
    tcase_add_test(tc, num_regs_from_sass);
    tcase_add_test(tc, threads);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
