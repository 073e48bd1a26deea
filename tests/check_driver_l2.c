/*
 * tests/check_driver_l2.c: the L2 hints of the CUDA driver API reach the
 * `gpu` timing model's L2 (issues 12 and 19): cuCtxSetLimit
 * (CU_LIMIT_PERSISTING_L2_CACHE_SIZE), cuStreamSetAttribute,
 * cuGraphKernelNodeSetAttribute and cuLaunchKernelEx's access-policy
 * window, and cuCtxResetPersistingL2Cache, counted in the L2 hits of
 * each kernel's statistics (PTXEMU_STATS); and a kernel's preferred
 * shared-memory carve-out (cuFuncSetAttribute) sizes its L1.
 *
 * The device work runs in a child process (the statistics file is
 * written at its exit, as for any program under the drop-in driver);
 * this process reads the file.  The kernel and the hand-worked counts
 * are check_gpu_mem_e2e's (tests/gpu_mem_kernels.h): one partition, an
 * L2 of one set of four ways, no L1, a 256-byte set-aside (2 ways).
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/cuda_abi.h"
#include "tests/gpu_mem_kernels.h"

#define CK(call)                                                           \
    do {                                                                   \
        CUresult r_ = (call);                                              \
        if (r_ != CUDA_SUCCESS) {                                          \
            fprintf(stderr, "%s: %d\n", #call, (int)r_);                   \
            _exit(10 + __LINE__ % 100);                                    \
        }                                                                  \
    } while (0)

static CUdeviceptr zeroed(size_t n)
{
    CUdeviceptr p;
    CK(cuMemAlloc_v2(&p, n));
    CK(cuMemsetD8_v2(p, 0, n));
    return p;
}

/* cuInit, a context, and kernel `name` of module `ptx`. */
static CUfunction kernel(const char *ptx, const char *name)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate_v2(&ctx, 0, dev));
    CK(cuModuleLoadData(&mod, ptx));
    CK(cuModuleGetFunction(&f, mod, name));
    return f;
}

static CUaccessPolicyWindow persisting(CUdeviceptr w)
{
    CUaccessPolicyWindow a;
    memset(&a, 0, sizeof a);
    a.base_ptr = (void *)(uintptr_t)w;
    a.num_bytes = 256;
    a.hitRatio = 1.0f;
    a.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
    a.missProp = CU_ACCESS_PROPERTY_STREAMING;
    return a;
}

/* The child: five launches of sw(s, w, 6).
 *  0  on a stream whose window is w (cuStreamSetAttribute): 4 hits
 *  1  on the legacy stream, no window: W0 and W1 persist, 6 hits
 *     cuCtxResetPersistingL2Cache
 *  2  no window: 0 hits (check_gpu_mem_e2e's reasoning)
 *  3  a graph kernel node whose window is w2 (a fresh buffer): the set
 *     holds only normal lines, as at a cold start: 4 hits
 *  4  cuLaunchKernelEx with a window on w3: the set-aside is full (w2's
 *     lines), so w3's lines replace them and stay: 4 hits */
static void child(void)
{
    CUfunction f = kernel(apw_ptx, "sw");
    CUdeviceptr s = zeroed(4096), w = zeroed(256), w2 = zeroed(256),
                w3 = zeroed(256);
    unsigned n = 6;
    CK(cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 256));
    size_t got = 0;
    CK(cuCtxGetLimit(&got, CU_LIMIT_PERSISTING_L2_CACHE_SIZE));
    if (got != 256) {
        _exit(2);
    }
    CUstream st;
    CK(cuStreamCreate(&st, 0));
    CUlaunchAttributeValue v;
    memset(&v, 0, sizeof v);
    v.accessPolicyWindow = persisting(w);
    CK(cuStreamSetAttribute(st, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW,
                            &v));
    void *args[] = {&s, &w, &n};
    CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, st, args, NULL));
    CK(cuStreamSynchronize(st));
    CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    CK(cuCtxResetPersistingL2Cache());
    CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    /* 3: a graph's kernel node with its own window */
    CUgraph g;
    CUgraphNode node;
    CUgraphExec x;
    void *args2[] = {&s, &w2, &n};
    CUDA_KERNEL_NODE_PARAMS kp;
    memset(&kp, 0, sizeof kp);
    kp.func = f;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = args2;
    CK(cuGraphCreate(&g, 0));
    CK(cuGraphAddKernelNode_v2(&node, g, NULL, 0, &kp));
    v.accessPolicyWindow = persisting(w2);
    CK(cuGraphKernelNodeSetAttribute(
        node, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
    CK(cuGraphInstantiateWithFlags(&x, g, 0));
    CK(cuGraphLaunch(x, NULL));
    CK(cuCtxSynchronize());
    /* 4: a launch attribute */
    void *args3[] = {&s, &w3, &n};
    CUlaunchAttribute at;
    memset(&at, 0, sizeof at);
    at.id = CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
    at.value.accessPolicyWindow = persisting(w3);
    CUlaunchConfig lc;
    memset(&lc, 0, sizeof lc);
    lc.gridDimX = lc.gridDimY = lc.gridDimZ = 1;
    lc.blockDimX = lc.blockDimY = lc.blockDimZ = 1;
    lc.attrs = &at;
    lc.numAttrs = 1;
    CK(cuLaunchKernelEx(&lc, f, args3, NULL));
    CK(cuCtxSynchronize());
    exit(0);                    /* the statistics are written at exit */
}

/* The child of carveout_sizes_l1: ws over 12 lines, without a
 * preference and then preferring 100% shared memory. */
static void child_carveout(void)
{
    CUfunction f = kernel(ws_ptx, "ws");
    CUdeviceptr p = zeroed(4096);
    unsigned n = 12;
    void *args[] = {&p, &n};
    CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                          100));
    CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    exit(0);
}

/* The values of counter `key` in the file, in order: one per kernel. */
static size_t counts(const char *file, const char *name, uint64_t *out,
                     size_t max)
{
    FILE *fp = fopen(file, "r");
    ck_assert_ptr_nonnull(fp);
    static char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[len] = 0;
    size_t n = 0;
    char key[80];
    snprintf(key, sizeof key, "\"%s\": ", name);
    for (const char *p = strstr(buf, key); p && n < max;
         p = strstr(p + 1, key)) {
        out[n++] = strtoull(p + strlen(key), NULL, 10);
    }
    return n;
}

/* Run fn in a child under the gpu model configured by the lines `cfg`
 * (a --timing-config file, as a user would write it);
 * the values of counter `name` of each kernel it ran into out (their
 * number). */
static size_t run_child(void (*fn)(void), const char *cfg,
                        const char *name, uint64_t *out, size_t max)
{
    char file[] = "/tmp/ptxemu-l2-XXXXXX";
    char conf[] = "/tmp/ptxemu-l2cfg-XXXXXX";
    int fd = mkstemp(file);
    ck_assert_int_ge(fd, 0);
    close(fd);
    fd = mkstemp(conf);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, cfg, strlen(cfg)), (int)strlen(cfg));
    close(fd);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setenv("PTXEMU_TIMING", "gpu", 1);
        setenv("PTXEMU_TIMING_CONFIG", conf, 1);
        setenv("PTXEMU_SMS", "1", 1);
        setenv("PTXEMU_STATS", file, 1);
        fn();
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "child: status %d", status);
    size_t n = counts(file, name, out, max);
    unlink(file);
    unlink(conf);
    return n;
}

START_TEST(window_reaches_l2)
{
    uint64_t hits[8];
    size_t n = run_child(child, "mem.model = hier\nmem.l1d = false\n"
                         "mem.parts = 1\nl2.sets = 1\nl2.ways = 4\n",
                         "mem.l2.hit", hits, 8);
    ck_assert_uint_eq(n, 5);
    static const uint64_t want[5] = {4, 6, 0, 4, 4};
    for (size_t k = 0; k < 5; k++) {
        ck_assert_msg(hits[k] == want[k], "kernel %zu: %llu L2 hits, not "
                      "%llu", k, (unsigned long long)hits[k],
                      (unsigned long long)want[k]);
    }
}
END_TEST

/* check_gpu_mem_e2e's carveout_sizes_l1 through the driver: an L1 of
 * two-way sets in a 2 KB array shared with 0 or 1 KB of shared memory;
 * without a preference the 12-line working set stays (12 hits of 24),
 * preferring 100% leaves 4 sets and none (0). */
START_TEST(carveout_sizes_l1)
{
    uint64_t hits[4];
    size_t n = run_child(child_carveout, "mem.model = hier\n"
                         "mem.parts = 1\nocc.shared_reserved = 0\n"
                         "l1d.ways = 2\nl1d.unified = 2k\n"
                         "l1d.carveouts = 0,1\n", "mem.l1d.hit", hits, 4);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(hits[0], 12);
    ck_assert_uint_eq(hits[1], 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("driver_l2");
    TCase *t = tcase_create("l2");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, window_reaches_l2);
    tcase_add_test(t, carveout_sizes_l1);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
