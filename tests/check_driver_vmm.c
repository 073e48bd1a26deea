/*
 * tests/check_driver_vmm.c: virtual memory management through the
 * drop-in driver's exported API (CUDA Driver API reference, "Virtual
 * Memory Management"): reserve a range, create physical allocations, map
 * them side by side, enable access, run a kernel across the seam, unmap,
 * release.
 *
 * References: the granularity is the 2 MiB NVIDIA GPUs report; values
 * written by the kernel are worked by hand (p[i] = 3i + 1); error codes
 * are the driver API's documented values, typed as literals
 * (CUDA_ERROR_INVALID_VALUE 1, CUDA_ERROR_NOT_SUPPORTED 801,
 * CUDA_ERROR_ILLEGAL_ADDRESS 700).  Each test runs in its own process
 * (Check's fork mode): a kernel fault makes the context unusable.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/cuda_abi.h"

#define OK(call) ck_assert_int_eq((int)(call), CUDA_SUCCESS)
#define GRAN ((size_t)2 << 20)

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

/* A context, and kernel `name` of module `ptx`. */
static CUfunction start(const char *ptx, const char *name)
{
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    OK(cuInit(0));
    OK(cuCtxCreate_v2(&ctx, 0, 0));
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&f, mod, name));
    return f;
}

static void setup(void)
{
    fill = start(kernels, "fill");
}

static CUmemAllocationProp dev_prop(void)
{
    CUmemAllocationProp p;
    memset(&p, 0, sizeof(p));
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    return p;
}

static CUresult run_fill(CUdeviceptr p, unsigned n)
{
    void *params[] = {&p, &n};
    CUresult r = cuLaunchKernel(fill, (n + 127) / 128, 1, 1, 128, 1, 1, 0,
                                NULL, params, NULL);
    return r ? r : cuCtxSynchronize();
}

static void set_rw(CUdeviceptr p, size_t n, int flags)
{
    CUmemAccessDesc d;
    memset(&d, 0, sizeof(d));
    d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    d.location.id = 0;
    d.flags = flags;
    OK(cuMemSetAccess(p, n, &d, 1));
}

START_TEST(attribute_and_granularity)
{
    setup();
    int v = -1;
    OK(cuDeviceGetAttribute(&v, 102, 0));   /* VIRTUAL_MEMORY_MANAGEMENT */
    ck_assert_int_eq(v, 1);
    v = -1;
    OK(cuDeviceGetAttribute(&v, 107, 0));   /* GENERIC_COMPRESSION */
    ck_assert_int_eq(v, 0);
    CUmemAllocationProp p = dev_prop();
    size_t g = 0;
    OK(cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    ck_assert_uint_eq(g, GRAN);
    OK(cuMemGetAllocationGranularity(&g, &p,
                                     CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    ck_assert_uint_eq(g, GRAN);
    p.location.id = 3;
    ck_assert_int_eq(cuMemGetAllocationGranularity(&g, &p, 0), 101);
    p = dev_prop();
    p.type = 0;
    ck_assert_int_eq(cuMemGetAllocationGranularity(&g, &p, 0), 1);
    /* sizes not a multiple of the granularity */
    p = dev_prop();
    CUmemGenericAllocationHandle h;
    ck_assert_int_eq(cuMemCreate(&h, GRAN / 2, &p, 0), 1);
    CUdeviceptr va;
    ck_assert_int_eq(cuMemAddressReserve(&va, GRAN + 4096, 0, 0, 0), 1);
    /* compression requested: uncompressed memory, as reported */
    p.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
    OK(cuMemCreate(&h, GRAN, &p, 0));
    CUmemAllocationProp q;
    memset(&q, 0xff, sizeof(q));
    OK(cuMemGetAllocationPropertiesFromHandle(&q, h));
    ck_assert_int_eq(q.type, CU_MEM_ALLOCATION_TYPE_PINNED);
    ck_assert_int_eq(q.location.type, CU_MEM_LOCATION_TYPE_DEVICE);
    ck_assert_int_eq(q.location.id, 0);
    ck_assert_int_eq(q.allocFlags.compressionType, CU_MEM_ALLOCATION_COMP_NONE);
    /* not made exportable: exporting is refused cleanly */
    int fd = -1;
    ck_assert_int_eq(cuMemExportToShareableHandle(&fd, h, 1, 0), 1);
    ck_assert_int_eq(fd, -1);
    OK(cuMemRelease(h));
    /* a released (or forged) handle is invalid */
    ck_assert_int_eq(cuMemRelease(h), 1);
    ck_assert_int_eq(cuMemGetAllocationPropertiesFromHandle(&q, h), 1);
    ck_assert_int_eq(cuMemRelease(0x1234), 1);
    /* handle types other than POSIX descriptors (Win32 2, fabric 8) */
    p = dev_prop();
    p.requestedHandleTypes = 2;
    ck_assert_int_eq(cuMemCreate(&h, GRAN, &p, 0), 801);
    p.requestedHandleTypes = 8;
    ck_assert_int_eq(cuMemCreate(&h, GRAN, &p, 0), 801);
}
END_TEST

/* An allocation made exportable as a POSIX file descriptor, exported and
 * imported again (here, and in a forked process): both handles name the
 * same bytes, mapped at two addresses; the descriptor is the caller's. */
START_TEST(export_import_fd)
{
    setup();
    CUmemAllocationProp p = dev_prop();
    p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUmemGenericAllocationHandle h, h2;
    OK(cuMemCreate(&h, GRAN, &p, 0));
    int fd = -1;
    ck_assert_int_eq(cuMemExportToShareableHandle(&fd, h, 2, 0), 801);
    OK(cuMemExportToShareableHandle(&fd, h, 1, 0));
    ck_assert_int_ge(fd, 0);
    OK(cuMemImportFromShareableHandle(&h2, (void *)(intptr_t)fd, 1));
    close(fd);                          /* the import keeps its own */
    ck_assert(h2 != h);
    CUmemAllocationProp q;
    OK(cuMemGetAllocationPropertiesFromHandle(&q, h2));
    ck_assert_int_eq(q.requestedHandleTypes,
                     CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    CUdeviceptr va;
    OK(cuMemAddressReserve(&va, 2 * GRAN, 0, 0, 0));
    OK(cuMemMap(va, GRAN, 0, h, 0));
    OK(cuMemMap(va + GRAN, GRAN, 0, h2, 0));
    set_rw(va, 2 * GRAN, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    OK(run_fill(va, 64));               /* through the first mapping */
    unsigned w[64];
    OK(cuMemcpyDtoH_v2(w, va + GRAN, sizeof(w)));    /* the second */
    for (unsigned i = 0; i < 64; i++) {
        ck_assert_uint_eq(w[i], 3 * i + 1);
    }
    /* another process maps the same memory: it writes 77 at word 5 */
    OK(cuMemExportToShareableHandle(&fd, h, 1, 0));
    pid_t pid = fork();
    if (pid == 0) {
        CUmemGenericAllocationHandle hc;
        unsigned v = 77;
        CUdeviceptr vc;
        int bad = cuMemImportFromShareableHandle(&hc, (void *)(intptr_t)fd,
                                                 1) ||
                  cuMemAddressReserve(&vc, GRAN, 0, 0, 0) ||
                  cuMemMap(vc, GRAN, 0, hc, 0);
        CUmemAccessDesc d = {{CU_MEM_LOCATION_TYPE_DEVICE, 0},
                             CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
        bad = bad || cuMemSetAccess(vc, GRAN, &d, 1) ||
              cuMemcpyHtoD_v2(vc + 20, &v, 4);
        _exit(bad ? 1 : 0);
    }
    int status = -1;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(fd);
    OK(cuMemcpyDtoH_v2(w, va, 4 * 6));
    ck_assert_uint_eq(w[5], 77);
    ck_assert_uint_eq(w[4], 13);
    /* a descriptor that is not such a memfd, a bad type */
    ck_assert_int_eq(cuMemImportFromShareableHandle(&h2, (void *)(intptr_t)0,
                                                    1), 1);
    ck_assert_int_eq(cuMemImportFromShareableHandle(&h2, (void *)(intptr_t)-1,
                                                    1), 1);
    OK(cuMemUnmap(va, GRAN));
    OK(cuMemUnmap(va + GRAN, GRAN));
    OK(cuMemRelease(h));
    OK(cuMemRelease(h2));
    OK(cuMemAddressFree(va, 2 * GRAN));
}
END_TEST

/* What a device-to-device copy answers, at the call or (it runs on
 * the stream) at the next synchronisation. */
static int dtod_error(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    CUresult r = cuMemcpyDtoD_v2(dst, src, n);
    return r ? (int)r : (int)cuCtxSynchronize();
}

/* The scenario, end to end. */
/* One physical allocation mapped at two addresses, a thread's store
 * through one read back through the other in the same kernel, under
 * the `gpu` timing model on one and on two host threads: whatever the
 * model buffers (emu/shadow.h: plain global stores of an SM, named by
 * host address), the thread reads its own store, as it does untimed. */
static const char alias_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry al(.param .u64 pa, .param .u64 pb)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb];\n"
    " mov.u32 %r1, %ctaid.x; mov.u32 %r2, %tid.x;\n"
    " mad.lo.s32 %r5, %r1, 32, %r2;\n"
    " mul.wide.u32 %rd3, %r5, 8;\n"
    " add.s64 %rd4, %rd1, %rd3; add.s64 %rd5, %rd2, %rd3;\n"
    " add.u32 %r3, %r5, 100;\n"
    " st.global.u32 [%rd4], %r3;\n"
    " ld.global.u32 %r4, [%rd5];\n"
    " st.global.u32 [%rd4+4], %r4;\n"
    " ret;\n}\n";

START_TEST(alias_timed)
{
    setenv("PTXEMU_TIMING", "gpu", 1);
    setenv("PTXEMU_THREADS", _i ? "2" : "1", 1);
    CUfunction al = start(alias_ptx, "al");
    CUmemAllocationProp p = dev_prop();
    CUmemGenericAllocationHandle h;
    OK(cuMemCreate(&h, GRAN, &p, 0));
    CUdeviceptr va = 0;
    OK(cuMemAddressReserve(&va, 2 * GRAN, 0, 0, 0));
    OK(cuMemMap(va, GRAN, 0, h, 0));
    OK(cuMemMap(va + GRAN, GRAN, 0, h, 0));
    set_rw(va, 2 * GRAN, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    CUdeviceptr a = va, b = va + GRAN;
    void *params[] = {&a, &b};
    OK(cuLaunchKernel(al, 16, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    OK(cuCtxSynchronize());
    unsigned out[2 * 16 * 32];
    OK(cuMemcpyDtoH_v2(out, b, sizeof(out)));
    for (unsigned i = 0; i < 16 * 32; i++) {
        ck_assert_uint_eq(out[2 * i], i + 100);
        ck_assert_uint_eq(out[2 * i + 1], i + 100); /* its own store */
    }
}
END_TEST

START_TEST(map_two_across_seam)
{
    setup();
    CUmemAllocationProp p = dev_prop();
    CUdeviceptr va = 0;
    OK(cuMemAddressReserve(&va, 4 * GRAN, 0, 0, 0));
    ck_assert_uint_eq(va % GRAN, 0);
    CUmemGenericAllocationHandle ha, hb;
    size_t free0, free1, free2, total;
    OK(cuMemGetInfo_v2(&free0, &total));
    OK(cuMemCreate(&ha, GRAN, &p, 0));
    OK(cuMemCreate(&hb, GRAN, &p, 0));
    ck_assert(ha != hb);
    /* physical memory is device memory in use; reserving is not */
    OK(cuMemGetInfo_v2(&free1, &total));
    ck_assert_uint_eq(free0 - free1, 2 * GRAN);
    /* A at [va+G, va+2G), B right after it */
    OK(cuMemMap(va + GRAN, GRAN, 0, ha, 0));
    OK(cuMemMap(va + 2 * GRAN, GRAN, 0, hb, 0));
    /* overlapping, outside the reservation, unaligned, nonzero offset */
    ck_assert_int_eq(cuMemMap(va + GRAN, GRAN, 0, hb, 0), 1);
    ck_assert_int_eq(cuMemMap(va + 4 * GRAN, GRAN, 0, hb, 0), 1);
    ck_assert_int_eq(cuMemMap(va + 4096, GRAN, 0, hb, 0), 1);
    ck_assert_int_eq(cuMemMap(va, GRAN, GRAN, hb, 0), 1);
    unsigned long long fl = 99;
    CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    OK(cuMemGetAccess(&fl, &loc, va + GRAN));
    ck_assert_uint_eq(fl, CU_MEM_ACCESS_FLAGS_PROT_NONE);
    set_rw(va + GRAN, 2 * GRAN, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    OK(cuMemGetAccess(&fl, &loc, va + 2 * GRAN + 12));
    ck_assert_uint_eq(fl, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    /* 256 words from 512 bytes before the seam: 128 in A, 128 in B */
    CUdeviceptr start = va + 2 * GRAN - 512;
    OK(run_fill(start, 256));
    unsigned a[128], b[128];
    OK(cuMemcpyDtoH_v2(a, start, sizeof(a)));
    OK(cuMemcpyDtoH_v2(b, va + 2 * GRAN, sizeof(b)));
    for (unsigned i = 0; i < 128; i++) {
        ck_assert_uint_eq(a[i], 3 * i + 1);
        ck_assert_uint_eq(b[i], 3 * (i + 128) + 1);
    }
    ck_assert_uint_eq(a[0], 1);
    ck_assert_uint_eq(a[127], 382);
    ck_assert_uint_eq(b[0], 385);
    ck_assert_uint_eq(b[127], 766);
    /* Copies and memsets across the seam treat A and B as one buffer:
     * read the 256 words back in one copy, write 64 words straddling
     * the seam, set 16 bytes straddling it, copy device to device from
     * one side of the seam to across it. */
    unsigned all[256], mid[64], back[64];
    OK(cuMemcpyDtoH_v2(all, start, sizeof(all)));
    for (unsigned i = 0; i < 256; i++) {
        ck_assert_uint_eq(all[i], 3 * i + 1);
    }
    for (unsigned i = 0; i < 64; i++) {
        mid[i] = 1000 + i;
    }
    CUdeviceptr seam = va + 2 * GRAN;
    OK(cuMemcpyHtoD_v2(seam - 128, mid, sizeof(mid)));
    OK(cuMemcpyDtoH_v2(back, seam - 128, sizeof(back)));
    ck_assert_mem_eq(back, mid, sizeof(mid));
    OK(cuMemsetD8_v2(seam - 8, 0xab, 16));
    OK(cuMemcpyDtoH_v2(back, seam - 128, sizeof(back)));
    ck_assert_uint_eq(back[29], 1029);
    ck_assert_uint_eq(back[30], 0xababababu);
    ck_assert_uint_eq(back[33], 0xababababu);
    ck_assert_uint_eq(back[34], 1034);
    OK(cuMemcpyDtoD_v2(seam - 64, start, 128));
    OK(cuMemcpyDtoH_v2(back, seam - 64, 128));
    for (unsigned i = 0; i < 32; i++) {
        ck_assert_uint_eq(back[i], 3 * i + 1);
    }
    /* A device-to-device copy past the allocations' end is invalid
     * value, whatever its size: no host buffer of its size is asked
     * for first (that answered out of memory for a huge one). */
    CUdeviceptr d1, d2;
    OK(cuMemAlloc_v2(&d1, 4096));
    OK(cuMemAlloc_v2(&d2, 4096));
    ck_assert_int_eq(dtod_error(d1, d2, 8192), 1);
    ck_assert_int_eq(dtod_error(d1, d2, (size_t)1 << 52), 1);
    ck_assert_int_eq(dtod_error(seam - 64, start, (size_t)1 << 52), 1);
    OK(cuMemFree_v2(d1));
    OK(cuMemFree_v2(d2));
    /* past B's end is outside: the copy fails */
    ck_assert_int_eq(cuMemcpyDtoH_v2(back, seam + GRAN - 16, 64), 1);
    OK(run_fill(start, 256));           /* as before, for what follows */
    /* The handle behind an address is A's; releasing both references
     * keeps A's memory while it is mapped. */
    CUmemGenericAllocationHandle hr = 0;
    OK(cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)(start + 4)));
    ck_assert(hr == ha);
    OK(cuMemRelease(hr));
    OK(cuMemRelease(ha));
    ck_assert_int_eq(cuMemRelease(ha), 1);
    unsigned w = 0;
    OK(cuMemcpyDtoH_v2(&w, start + 4, 4));
    ck_assert_uint_eq(w, 4);
    /* Unmap B: the range must be B's whole mapping. */
    ck_assert_int_eq(cuMemUnmap(va + 2 * GRAN, GRAN / 2), 1);
    OK(cuMemUnmap(va + 2 * GRAN, GRAN));
    ck_assert_int_eq(cuMemGetAccess(&fl, &loc, va + 2 * GRAN), 1);
    ck_assert_int_eq(cuMemcpyDtoH_v2(&w, va + 2 * GRAN, 4), 1);
    /* B's handle is still held: remap it below A; its bytes survived */
    OK(cuMemMap(va, GRAN, 0, hb, 0));
    set_rw(va, GRAN, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    OK(cuMemcpyDtoH_v2(&w, va + 8, 4));
    ck_assert_uint_eq(w, 3 * 130 + 1);
    OK(cuMemRelease(hb));
    /* No handle left, but both are mapped: both still held */
    OK(cuMemGetInfo_v2(&free2, &total));
    ck_assert_uint_eq(free0 - free2, 2 * GRAN);
    /* Still mapped: the reservation cannot be freed yet. */
    ck_assert_int_eq(cuMemAddressFree(va, 4 * GRAN), 1);
    /* Each physical allocation goes with its last mapping. */
    OK(cuMemUnmap(va, GRAN));
    OK(cuMemGetInfo_v2(&free2, &total));
    ck_assert_uint_eq(free0 - free2, GRAN);
    OK(cuMemUnmap(va + GRAN, GRAN));
    OK(cuMemGetInfo_v2(&free2, &total));
    ck_assert_uint_eq(free2, free0);
    ck_assert_int_eq(cuMemAddressFree(va, 2 * GRAN), 1);
    OK(cuMemAddressFree(va, 4 * GRAN));
    ck_assert_int_eq(cuMemAddressFree(va, 4 * GRAN), 1);
}
END_TEST

/* A store to a reserved range faults where nothing is mapped, where a
 * mapping has no access yet, and where a mapping was taken away:
 * CUDA_ERROR_ILLEGAL_ADDRESS, as on a GPU. */
static void fault_case(int which)
{
    setup();
    CUmemAllocationProp p = dev_prop();
    CUdeviceptr va;
    CUmemGenericAllocationHandle h;
    OK(cuMemAddressReserve(&va, 2 * GRAN, 0, 0, 0));
    OK(cuMemCreate(&h, GRAN, &p, 0));
    OK(cuMemMap(va, GRAN, 0, h, 0));
    if (which == 0) {
        set_rw(va, GRAN, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        OK(run_fill(va + GRAN - 256, 64));      /* the control */
        ck_assert_int_eq(run_fill(va + GRAN, 1), 700);
    } else if (which == 1) {
        ck_assert_int_eq(run_fill(va, 1), 700);
    } else if (which == 2) {
        set_rw(va, GRAN, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        OK(run_fill(va, 1));
        set_rw(va, GRAN, CU_MEM_ACCESS_FLAGS_PROT_NONE);
        ck_assert_int_eq(run_fill(va, 1), 700);
    } else {
        /* read-only: reported as such, the host still copies both ways,
         * a device store faults */
        set_rw(va, GRAN, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        OK(run_fill(va, 4));
        set_rw(va, GRAN, CU_MEM_ACCESS_FLAGS_PROT_READ);
        unsigned long long fl = 0;
        CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
        OK(cuMemGetAccess(&fl, &loc, va + 4));
        ck_assert_uint_eq(fl, CU_MEM_ACCESS_FLAGS_PROT_READ);
        unsigned w[4], nine = 9;
        OK(cuMemcpyDtoH_v2(w, va, sizeof(w)));
        ck_assert_uint_eq(w[3], 10);
        OK(cuMemcpyHtoD_v2(va, &nine, 4));
        OK(cuMemcpyDtoH_v2(w, va, 4));
        ck_assert_uint_eq(w[0], 9);
        ck_assert_int_eq(run_fill(va, 1), 700);
    }
}

START_TEST(fault_unmapped)
{
    fault_case(0);
}
END_TEST

START_TEST(fault_no_access)
{
    fault_case(1);
}
END_TEST

START_TEST(fault_access_revoked)
{
    fault_case(2);
}
END_TEST

START_TEST(fault_read_only)
{
    fault_case(3);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("driver_vmm");
    TCase *tc = tcase_create("vmm");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, attribute_and_granularity);
    tcase_add_test(tc, map_two_across_seam);
    tcase_add_loop_test(tc, alias_timed, 0, 2);
    tcase_add_test(tc, export_import_fd);
    tcase_add_test(tc, fault_unmapped);
    tcase_add_test(tc, fault_no_access);
    tcase_add_test(tc, fault_access_revoked);
    tcase_add_test(tc, fault_read_only);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
