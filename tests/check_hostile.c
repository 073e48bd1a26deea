/*
 * tests/check_hostile.c: the CUDA drop-ins (libcuda.so.1, libcudart.so.13)
 * misused as a hostile or buggy program would (issue 16): wild and
 * freed device pointers, dead and forged streams, device resets, over-
 * allocation, unreadable module files.  Each must give the error code
 * CUDA documents for it, never touch host memory the program did not
 * name, crash or exhaust the host.
 *
 * Expected codes are CUDA's documented values typed as literals (the
 * driver API's CUresult and the runtime's cudaError_t), not taken from
 * our tables.  Check forks every test: each starts uninitialised.
 */
#include <check.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zstd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/cuda_abi.h"
#include "runtime/cudart/cudart_api.h"

/* Entry points of nvcc's generated host code (crt/host_runtime.h). */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun,
                            char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);

#define OK(call) ck_assert_int_eq((int)(call), 0)

enum {
    CU_INVALID_VALUE = 1,           /* CUDA_ERROR_INVALID_VALUE */
    CU_FILE_NOT_FOUND = 301,        /* CUDA_ERROR_FILE_NOT_FOUND */
    CU_INVALID_HANDLE = 400,        /* CUDA_ERROR_INVALID_HANDLE */
    CU_INVALID_IMAGE = 200,         /* CUDA_ERROR_INVALID_IMAGE */
    RT_INVALID_KERNEL_IMAGE = 200,  /* cudaErrorInvalidKernelImage */
    RT_INVALID_VALUE = 1,           /* cudaErrorInvalidValue */
    RT_MEMORY_ALLOCATION = 2,       /* cudaErrorMemoryAllocation */
    RT_INVALID_HANDLE = 400,        /* cudaErrorInvalidResourceHandle */
};

static CUcontext driver_ctx(void)
{
    CUdevice dev;
    CUcontext ctx;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuDevicePrimaryCtxRetain(&ctx, dev));
    OK(cuCtxSetCurrent(ctx));
    return ctx;
}

/* ------------------------------------------------ wild device pointers */

/* Before the fix the driver took an unknown address for host memory:
 * each of these copies dereferenced a freed device pointer. */
START_TEST(test_driver_freed_pointer)
{
    driver_ctx();
    uint32_t host[4] = {1, 2, 3, 4}, back[4] = {0};
    CUdeviceptr d, live;
    OK(cuMemAlloc_v2(&d, sizeof host));
    OK(cuMemAlloc_v2(&live, sizeof host));
    OK(cuMemFree_v2(d));
    ck_assert_int_eq(cuMemcpyDtoH_v2(back, d, sizeof back),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpyHtoD_v2(d, host, sizeof host),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpyDtoD_v2(live, d, sizeof host),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpyDtoD_v2(d, live, sizeof host),
                     CU_INVALID_VALUE);
    /* Unified addressing: cuMemcpy infers each side's kind. */
    ck_assert_int_eq(cuMemcpy((CUdeviceptr)(uintptr_t)back, d, sizeof back),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpy(d, (CUdeviceptr)(uintptr_t)host, sizeof host),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpyAsync(d, live, sizeof host, NULL),
                     CU_INVALID_VALUE);
    ck_assert_int_eq(cuMemsetD8_v2(d, 0, sizeof host), CU_INVALID_VALUE);
    /* An explicit device side that is plain host memory. */
    ck_assert_int_eq(cuMemcpyDtoH_v2(back, (CUdeviceptr)(uintptr_t)host,
                                     sizeof back), CU_INVALID_VALUE);
    /* The same calls still work on live memory and host memory. */
    OK(cuMemcpyHtoD_v2(live, host, sizeof host));
    OK(cuMemcpy((CUdeviceptr)(uintptr_t)back, live, sizeof back));
    ck_assert_int_eq(memcmp(back, host, sizeof host), 0);
    uint32_t other[4] = {0};
    OK(cuMemcpy((CUdeviceptr)(uintptr_t)other, (CUdeviceptr)(uintptr_t)host,
                sizeof host));
    ck_assert_int_eq(memcmp(other, host, sizeof host), 0);
    OK(cuMemFree_v2(live));
}
END_TEST

START_TEST(test_runtime_freed_pointer)
{
    uint32_t host[4] = {5, 6, 7, 8}, back[4] = {0};
    void *d, *live;
    OK(cudaMalloc(&d, sizeof host));
    OK(cudaMalloc(&live, sizeof host));
    OK(cudaFree(d));
    ck_assert_int_eq(cudaMemcpy(back, d, sizeof back, cudaMemcpyDefault),
                     RT_INVALID_VALUE);
    ck_assert_int_eq(cudaMemcpy(d, host, sizeof host, cudaMemcpyDefault),
                     RT_INVALID_VALUE);
    ck_assert_int_eq(cudaMemcpy(back, d, sizeof back,
                                cudaMemcpyDeviceToHost), RT_INVALID_VALUE);
    ck_assert_int_eq(cudaMemcpyAsync(live, d, sizeof host,
                                     cudaMemcpyDefault, 0),
                     RT_INVALID_VALUE);
    ck_assert_int_eq(cudaGetLastError(), RT_INVALID_VALUE);
    OK(cudaMemcpy(live, host, sizeof host, cudaMemcpyDefault));
    OK(cudaMemcpy(back, live, sizeof back, cudaMemcpyDefault));
    ck_assert_int_eq(memcmp(back, host, sizeof host), 0);
    OK(cudaFree(live));
}
END_TEST

/* ------------------------------------------------------------ streams */

/* Before the fix cudaMemcpyAsync and the other copies and memsets
 * ignored their stream: a destroyed or forged one got cudaSuccess. */
START_TEST(test_runtime_dead_stream)
{
    uint32_t host[64] = {0};
    void *d;
    cudaStream_t s;
    OK(cudaMalloc(&d, sizeof host));
    OK(cudaStreamCreate(&s));
    OK(cudaMemcpyAsync(d, host, sizeof host, cudaMemcpyHostToDevice, s));
    OK(cudaStreamDestroy(s));
    cudaStream_t forged = (cudaStream_t)(uintptr_t)0x5eed1234;
    cudaStream_t bad[2] = {s, forged};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(cudaMemcpyAsync(d, host, sizeof host,
                                         cudaMemcpyHostToDevice, bad[i]),
                         RT_INVALID_HANDLE);
        ck_assert_int_eq(cudaMemsetAsync(d, 0, sizeof host, bad[i]),
                         RT_INVALID_HANDLE);
        ck_assert_int_eq(cudaMemcpy2DAsync(d, 16, host, 16, 16, 4,
                                           cudaMemcpyHostToDevice, bad[i]),
                         RT_INVALID_HANDLE);
        ck_assert_int_eq(cudaMemset2DAsync(d, 16, 0, 16, 4, bad[i]),
                         RT_INVALID_HANDLE);
        ck_assert_int_eq(cudaStreamAttachMemAsync(bad[i], d, 0, 0),
                         RT_INVALID_HANDLE);
    }
    ck_assert_int_eq(cudaGetLastError(), RT_INVALID_HANDLE);
    /* The default streams stay valid. */
    OK(cudaMemcpyAsync(d, host, sizeof host, cudaMemcpyHostToDevice, 0));
    OK(cudaMemsetAsync(d, 0, sizeof host, cudaStreamPerThread));
    OK(cudaMemsetAsync(d, 0, sizeof host, cudaStreamLegacy));
    OK(cudaFree(d));
}
END_TEST

/* ------------------------------------------------------------- files */

START_TEST(test_module_load_device_file)
{
    driver_ctx();
    CUmodule m;
    /* Read until the OOM killer came, before the limit. */
    ck_assert_int_eq(cuModuleLoad(&m, "/dev/zero"), CU_INVALID_VALUE);
    ck_assert_int_eq(cuModuleLoad(&m, "/nonexistent/x.ptx"),
                     CU_FILE_NOT_FOUND);
}
END_TEST


/* ------------------------------------------------------------ memory */

/* cudaMalloc handed out 64 GiB while reporting 40 on a 23 GiB host: a
 * program allocating until failure met the OOM killer when it wrote. */
START_TEST(test_memory_is_honest)
{
    size_t free_b, total;
    OK(cudaMemGetInfo(&free_b, &total));
    long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
    ck_assert_uint_le(total, (uint64_t)pages * (uint64_t)pg / 2);
    ck_assert_uint_le(total, (uint64_t)40 << 30);   /* the A100's 40 GiB */
    void *p;
    ck_assert_int_eq(cudaMalloc(&p, total + ((size_t)1 << 20)),
                     RT_MEMORY_ALLOCATION);
    struct cudaDeviceProp prop;
    OK(cudaGetDeviceProperties(&prop, 0));
    ck_assert_uint_eq(prop.totalGlobalMem, total);
}
END_TEST

START_TEST(test_memory_limit_configured)
{
    setenv("PTXEMU_DEVICE_MEMORY", "67108864", 1);      /* 64 MiB */
    size_t free_b, total;
    OK(cudaMemGetInfo(&free_b, &total));
    ck_assert_uint_eq(total, 64u << 20);
    /* Allocate until failure, then write everything allocated. */
    void *blocks[128];
    int n = 0;
    while (n < 128 && cudaMalloc(&blocks[n], 1u << 20) == cudaSuccess)
        n++;
    ck_assert_int_eq(n, 64);
    ck_assert_int_eq(cudaGetLastError(), RT_MEMORY_ALLOCATION);
    OK(cudaMemGetInfo(&free_b, &total));
    ck_assert_uint_eq(free_b, 0);
    for (int i = 0; i < n; i++)
        OK(cudaMemset(blocks[i], 0xab, 1u << 20));
    for (int i = 0; i < n; i++)
        OK(cudaFree(blocks[i]));
    OK(cudaMemGetInfo(&free_b, &total));
    ck_assert_uint_eq(free_b, 64u << 20);
}
END_TEST

/* ------------------------------------------------------------ reset */

static const char inc_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry inc(.param .u64 p)\n{\n"
    " .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [p]; ld.global.u32 %r1, [%rd1];\n"
    " add.u32 %r1, %r1, 1; st.global.u32 [%rd1], %r1;\n ret;\n}\n";

static void inc_stub(void)
{
}

/* Launches inc on a fresh counter; its value afterwards. */
static uint32_t run_inc(void)
{
    uint32_t *d, v = 41;
    OK(cudaMalloc((void **)&d, sizeof v));
    OK(cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice));
    void *args[] = {&d};
    dim3 one = {1, 1, 1};
    OK(cudaLaunchKernel((const void *)(uintptr_t)inc_stub, one, one, args,
                        0, 0));
    OK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
    OK(cudaFree(d));
    return v;
}

/* cudaDeviceReset kept every allocation: old pointers still read old
 * data, and 200 cycles of (4 MiB cudaMalloc + reset) grew the process
 * by 800 MB.  A reset frees what the context owned; its handles become
 * invalid; registered kernels load again at their next launch. */
START_TEST(test_reset_frees)
{
    static struct {
        uint32_t magic, version;
        const void *data, *list;
    } wrapper = {0x466243b1u, 1, inc_ptx, NULL};
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, (const char *)(uintptr_t)inc_stub, "inc",
                           "inc", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);
    size_t free0, free1, total;
    OK(cudaMemGetInfo(&free0, &total));
    void *p = NULL;
    for (int i = 0; i < 50; i++) {
        OK(cudaMalloc(&p, 4u << 20));
        OK(cudaMemset(p, 1, 4u << 20));
        OK(cudaDeviceReset());
    }
    OK(cudaMemGetInfo(&free1, &total));
    ck_assert_uint_eq(free1, free0);
    uint32_t back[4];
    ck_assert_int_eq(cudaMemcpy(back, p, sizeof back,
                                cudaMemcpyDeviceToHost), RT_INVALID_VALUE);
    ck_assert_int_eq(cudaMemcpy(back, p, sizeof back, cudaMemcpyDefault),
                     RT_INVALID_VALUE);
    /* Streams and events die with it. */
    cudaStream_t s;
    cudaEvent_t ev;
    OK(cudaStreamCreate(&s));
    OK(cudaEventCreate(&ev));
    ck_assert_uint_eq(run_inc(), 42);
    OK(cudaDeviceReset());
    ck_assert_int_eq(cudaStreamQuery(s), RT_INVALID_HANDLE);
    ck_assert_int_eq(cudaEventQuery(ev), RT_INVALID_HANDLE);
    /* The kernel's module was unloaded; it loads again. */
    ck_assert_uint_eq(run_inc(), 42);
    OK(cudaMemGetInfo(&free1, &total));
}
END_TEST

/* A fault in registered device code was located as "<string>:LINE";
 * it names the program's PTX now (what ptxemu fatbin --extract writes). */
static const char fault_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry wild()\n{\n"
    " .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    " mov.u64 %rd1, 16; mov.u32 %r1, 7;\n"
    " st.global.u32 [%rd1], %r1;\n ret;\n}\n";

static void wild_stub(void)
{
}

START_TEST(test_fault_names_module)
{
    static struct {
        uint32_t magic, version;
        const void *data, *list;
    } wrapper = {0x466243b1u, 1, fault_ptx, NULL};
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, (const char *)(uintptr_t)wild_stub, "wild",
                           "wild", -1, NULL, NULL, NULL, NULL, NULL);
    FILE *cap = tmpfile();
    ck_assert_ptr_nonnull(cap);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(cap), 2);
    dim3 one = {1, 1, 1};
    cudaError_t e = cudaLaunchKernel((const void *)(uintptr_t)wild_stub, one,
                                     one, NULL, 0, 0);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[4096] = "";
    rewind(cap);
    text[fread(text, 1, sizeof text - 1, cap)] = 0;
    fclose(cap);
    ck_assert_int_eq(e, 700);       /* cudaErrorIllegalAddress */
    ck_assert_msg(strstr(text, "check_hostile.ptx:8") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "<string>") == NULL, "%s", text);
}
END_TEST

/* ------------------------------------------------------ fat binaries */

/* Fat-binary layout (runtime/fatbin/fatbin.c): a 16-byte container
 * header, then entries of a 64-byte header and a payload. */
static void put32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, 4);               /* little-endian hosts only */
}

static void put64(unsigned char *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static void container_header(unsigned char *p, uint64_t body)
{
    put32(p, 0xba55ed50u);
    p[4] = 1;                       /* version 1 */
    p[6] = 16;                      /* header size */
    put64(p + 8, body);
}

/* A PTX entry for compute_`arch` at p: payload bytes of `stored` (a
 * multiple of 8), zstd-compressed to `packed` of them when size != 0. */
static void entry_header(unsigned char *p, unsigned arch, uint64_t stored,
                         uint32_t packed, uint64_t size)
{
    memset(p, 0, 64);
    p[0] = 1;                       /* PTX */
    p[2] = p[3] = 1;
    put32(p + 4, 64);
    put64(p + 8, stored);
    put32(p + 0x10, packed);
    p[0x18] = 0;
    p[0x1a] = 9;                    /* PTX ISA 9.0 */
    put32(p + 0x1c, arch);
    put64(p + 0x28, 0x11 | (size ? 0x8000 : 0));
    put64(p + 0x38, size);
}

/* A zstd frame of `size` zero bytes, compressed a MiB at a time. */
static void *zero_frame(uint64_t size, size_t *packed)
{
    static unsigned char zeros[1 << 20];
    size_t cap = 1 << 16, n = 0;
    unsigned char *out = malloc(cap);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ck_assert(out && c);
    ZSTD_CCtx_setPledgedSrcSize(c, size);
    for (uint64_t done = 0; done < size;) {
        size_t chunk = size - done < sizeof zeros ? (size_t)(size - done)
                                                  : sizeof zeros;
        ZSTD_inBuffer in = {zeros, chunk, 0};
        while (in.pos < in.size) {
            ZSTD_outBuffer o = {out + n, cap - n, 0};
            ck_assert(!ZSTD_isError(ZSTD_compressStream2(c, &o, &in,
                                                         ZSTD_e_continue)));
            n += o.pos;
            ck_assert_uint_lt(n, cap);
        }
        done += chunk;
    }
    for (size_t left = 1; left;) {
        ZSTD_inBuffer in = {NULL, 0, 0};
        ZSTD_outBuffer o = {out + n, cap - n, 0};
        left = ZSTD_compressStream2(c, &o, &in, ZSTD_e_end);
        ck_assert(!ZSTD_isError(left));
        n += o.pos;
    }
    ZSTD_freeCCtx(c);
    *packed = n;
    return out;
}

/* Keeps the test's own memory bounded where a sanitizer does not need
 * the address space (AddressSanitizer's and ThreadSanitizer's shadow
 * memory do): an unbounded allocation fails instead. */
static void cap_memory(uint64_t bytes)
{
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    struct rlimit r = {bytes, bytes};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &r), 0);
#else
    (void)bytes;
#endif
}

/* cuModuleLoadDataEx with its error log into log[len]. */
static CUresult load_logged(const void *img, char *log, size_t len)
{
    CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER,
                           CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(uintptr_t)len};
    CUmodule m;
    log[0] = 0;
    return cuModuleLoadDataEx(&m, img, 2, opt, val);
}

/* 16 entries of 128 MiB of zeros each, 2 GiB in all from a few dozen
 * kilobytes: loading it held every decompressed entry at once. */
START_TEST(test_decompression_bomb)
{
    enum { N = 16 };
    const uint64_t size = (uint64_t)128 << 20;
    size_t packed;
    unsigned char *frame = zero_frame(size, &packed);
    size_t stored = (packed + 7) & ~(size_t)7;
    size_t body = N * (64 + stored);
    unsigned char *img = calloc(1, 16 + body);
    ck_assert_ptr_nonnull(img);
    container_header(img, body);
    for (int i = 0; i < N; i++) {
        unsigned char *e = img + 16 + i * (64 + stored);
        entry_header(e, 80, stored, (uint32_t)packed, size);
        memcpy(e + 64, frame, packed);
    }
    free(frame);
    driver_ctx();
    cap_memory((uint64_t)1 << 30);
    char log[512];
    ck_assert_int_eq(load_logged(img, log, sizeof log), CU_INVALID_IMAGE);
    ck_assert_msg(strstr(log, "the PTX entries for compute_80: 2147483648 "
                         "bytes once decompressed, over the 1073741824 a "
                         "load may decompress") != NULL, "%s", log);
    free(img);
}
END_TEST

/* A valid compute_80 module beside a compute_90 entry that declares
 * 1 GiB: asking for sm_80 never decompresses the other. */
START_TEST(test_only_the_chosen_entry)
{
    static const char ptx[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k() { ret; }\n";
    size_t packed;
    unsigned char *frame = zero_frame((uint64_t)1 << 30, &packed);
    size_t stored = (packed + 7) & ~(size_t)7;
    size_t t = (sizeof ptx + 7) & ~(size_t)7;
    size_t body = 64 + stored + 64 + t;
    unsigned char *img = calloc(1, 16 + body);
    container_header(img, body);
    entry_header(img + 16, 90, stored, (uint32_t)packed, (uint64_t)1 << 30);
    memcpy(img + 16 + 64, frame, packed);
    entry_header(img + 16 + 64 + stored, 80, t, 0, 0);
    memcpy(img + 16 + 64 + stored + 64, ptx, sizeof ptx);
    free(frame);
    driver_ctx();
    cap_memory((uint64_t)768 << 20);
    CUmodule m;
    CUfunction f;
    OK(cuModuleLoadData(&m, img));
    OK(cuModuleGetFunction(&f, m, "k"));
    OK(cuModuleUnload(m));
    free(img);
}
END_TEST

/* A container at the end of a mapping whose header claims 256 MiB of
 * entries: the reader must stop at the mapping's end.  Returns the
 * container; the page after it is inaccessible. */
static unsigned char *container_at_guard(void)
{
    static const char ptx[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k() { ret; }\n";
    long pg = sysconf(_SC_PAGESIZE);
    unsigned char *map = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert(map != MAP_FAILED);
    ck_assert_int_eq(mprotect(map + pg, (size_t)pg, PROT_NONE), 0);
    size_t t = (sizeof ptx + 7) & ~(size_t)7;
    unsigned char *c = map + pg - (16 + 64 + t);
    container_header(c, (uint64_t)256 << 20);       /* the lie */
    entry_header(c + 16, 80, t, 0, 0);
    memcpy(c + 16 + 64, ptx, sizeof ptx);
    return c;
}

START_TEST(test_corrupt_header_driver)
{
    unsigned char *c = container_at_guard();
    driver_ctx();
    char log[512];
    ck_assert_int_eq(load_logged(c, log, sizeof log), CU_INVALID_IMAGE);
    char want[128];
    snprintf(want, sizeof want, "16 header and 268435456 body bytes run "
             "past the %ld bytes left",
             (long)(sysconf(_SC_PAGESIZE) - ((uintptr_t)c & 4095)));
    ck_assert_msg(strstr(log, want) != NULL, "%s", log);
}
END_TEST

static void host_stub(void)
{
}

/* The same image registered as nvcc's start-up code registers it:
 * the program's first launch segfaulted; now it is an error. */
START_TEST(test_corrupt_header_registered)
{
    static struct {
        uint32_t magic, version;
        const void *data, *list;
    } wrapper = {0x466243b1u, 1, NULL, NULL};
    wrapper.data = container_at_guard();
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, (const char *)(uintptr_t)host_stub, "k", "k",
                           -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);
    dim3 one = {1, 1, 1};
    ck_assert_int_eq(cudaLaunchKernel((const void *)(uintptr_t)host_stub,
                                      one, one, NULL, 0, 0),
                     RT_INVALID_KERNEL_IMAGE);
    /* A wild data pointer is refused the same way. */
    wrapper.data = (const void *)(uintptr_t)0x10;
    void **h2 = __cudaRegisterFatBinary(&wrapper);
    static char stub2;
    __cudaRegisterFunction(h2, &stub2, "k", "k", -1, NULL, NULL, NULL, NULL,
                           NULL);
    ck_assert_int_eq(cudaLaunchKernel(&stub2, one, one, NULL, 0, 0),
                     RT_INVALID_KERNEL_IMAGE);
}
END_TEST

static Suite *hostile_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_driver_freed_pointer);
    tcase_add_test(tc, test_runtime_freed_pointer);
    tcase_add_test(tc, test_runtime_dead_stream);
    tcase_add_test(tc, test_module_load_device_file);
    tcase_add_test(tc, test_reset_frees);
    tcase_add_test(tc, test_fault_names_module);
    tcase_add_test(tc, test_memory_is_honest);
    tcase_add_test(tc, test_memory_limit_configured);
    tcase_add_test(tc, test_decompression_bomb);
    tcase_add_test(tc, test_only_the_chosen_entry);
    tcase_add_test(tc, test_corrupt_header_driver);
    tcase_add_test(tc, test_corrupt_header_registered);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(hostile_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
