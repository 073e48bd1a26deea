/*
 * tests/timing_unload.c: the `gpu` timing model's helper threads
 * (timing/gpu/par.c) when the process lets go of the model without
 * destroying it, for tests/timing_unload.test.  Run with PTXEMU_TIMING=gpu
 * PTXEMU_THREADS=2 par.adapt=false, so that every cycle with two busy
 * SMs is stepped on two host threads.
 *
 *   timing_unload dlclose LIB ROUNDS
 *     opens the drop-in driver LIB (libcuda.so.1) with dlopen(3), runs a
 *     kernel of 64 CTAs three times, checks its values against the host's
 *     and closes LIB, ROUNDS times; the even rounds keep their context (as
 *     a CUDA program may), the odd ones destroy it first.  The helpers of
 *     a model left alive must be gone before LIB's code is unmapped
 *     (atexit(3): a handler a shared library registers runs when it is
 *     unloaded), or they crash the process when they next run.
 *   timing_unload exit LIB MICROSECONDS
 *     a second thread launches that kernel over and over while the main
 *     thread calls exit(3) after MICROSECONDS: exit must not hang on the
 *     helpers (par.c's handler leaves a set in a phase alone and joins
 *     the others), whatever the model is doing then.
 *
 * Prints "ok" and exits 0; 1 with the failing call named on stderr.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/cuda_abi.h"
#include "tests/drv_try.h"
#include "tests/sums_kernel.h"

#define CTAS 64u
#define THREADS 128u
#define N (CTAS * THREADS)


/* The driver's entry points used, looked up in the opened library. */
typedef struct Drv {
    void *lib;
    __typeof__(cuInit) *init;
    __typeof__(cuCtxCreate_v2) *ctx_create;
    __typeof__(cuCtxDestroy_v2) *ctx_destroy;
    __typeof__(cuCtxSetCurrent) *ctx_set;
    __typeof__(cuCtxSynchronize) *sync;
    __typeof__(cuModuleLoadData) *load;
    __typeof__(cuModuleGetFunction) *get;
    __typeof__(cuMemAlloc_v2) *alloc;
    __typeof__(cuMemcpyDtoH_v2) *dtoh;
    __typeof__(cuLaunchKernel) *launch;
    CUcontext ctx;
    CUfunction f;
    CUdeviceptr d;
} Drv;

#define SYM(field, name)                                                  \
    do {                                                                  \
        v->field = (__typeof__(v->field))dlsym(v->lib, name);             \
        if (!v->field) {                                                  \
            fprintf(stderr, "dlsym %s: %s\n", name, dlerror());           \
            return 1;                                                     \
        }                                                                 \
    } while (0)

/* Open lib, make a context, load the kernel and a buffer for it. */
static int drv_open(Drv *v, const char *lib)
{
    memset(v, 0, sizeof *v);
    v->lib = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!v->lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    SYM(init, "cuInit");
    SYM(ctx_create, "cuCtxCreate_v2");
    SYM(ctx_destroy, "cuCtxDestroy_v2");
    SYM(ctx_set, "cuCtxSetCurrent");
    SYM(sync, "cuCtxSynchronize");
    SYM(load, "cuModuleLoadData");
    SYM(get, "cuModuleGetFunction");
    SYM(alloc, "cuMemAlloc_v2");
    SYM(dtoh, "cuMemcpyDtoH_v2");
    SYM(launch, "cuLaunchKernel");
    CUmodule mod;
    TRY(v->init(0));
    TRY(v->ctx_create(&v->ctx, 0, 0));
    TRY(v->load(&mod, sums_ptx));
    TRY(v->get(&v->f, mod, "sums"));
    TRY(v->alloc(&v->d, N * sizeof(uint32_t)));
    return 0;
}

static int run_once(Drv *v)
{
    void *args[] = { &v->d };
    TRY(v->launch(v->f, CTAS, 1, 1, THREADS, 1, 1, 0, NULL, args, NULL));
    return 0;
}

/* Three launches, then the values. */
static int run_checked(Drv *v)
{
    static uint32_t h[N];
    for (int k = 0; k < 3; k++) {
        if (run_once(v) != 0) {
            return 1;
        }
    }
    TRY(v->dtoh(h, v->d, sizeof h));
    for (uint32_t i = 0; i < N; i++) {
        if (h[i] != 28u * i) { /* 0 + 1 + ... + 7 = 28 */
            fprintf(stderr, "p[%u] = %u, want %u\n", i, h[i], 28u * i);
            return 1;
        }
    }
    return 0;
}

static int unload_rounds(const char *lib, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        Drv v;
        if (drv_open(&v, lib) != 0 || run_checked(&v) != 0) {
            return 1;
        }
        if (r % 2) {
            TRY(v.ctx_destroy(v.ctx));
        }
        if (dlclose(v.lib) != 0) {
            fprintf(stderr, "dlclose: %s\n", dlerror());
            return 1;
        }
        /* time for helpers left behind to run into the unmapped code
         * (else the next dlopen may map it again where it was) */
        usleep(20000);
    }
    return 0;
}

static void *launcher(void *arg)
{
    Drv *v = arg;
    if (v->ctx_set(v->ctx) != CUDA_SUCCESS) {
        fprintf(stderr, "cuCtxSetCurrent failed\n");
        _exit(1);
    }
    for (;;) {
        if (run_once(v) != 0 || v->sync() != CUDA_SUCCESS) {
            fprintf(stderr, "a launch failed\n");
            _exit(1);
        }
    }
    return NULL;
}

static int exit_racing(const char *lib, unsigned us)
{
    static Drv v;
    if (drv_open(&v, lib) != 0 || run_checked(&v) != 0) {
        return 1;
    }
    pthread_t t;
    if (pthread_create(&t, NULL, launcher, &v) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    usleep(us);
    printf("ok\n");
    fflush(stdout);
    exit(0);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s dlclose|exit LIB N\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[3]);
    if (!strcmp(argv[1], "dlclose")) {
        if (unload_rounds(argv[2], n) != 0) {
            return 1;
        }
        printf("ok\n");
        return 0;
    }
    if (!strcmp(argv[1], "exit")) {
        return exit_racing(argv[2], (unsigned)n);
    }
    fprintf(stderr, "usage: %s dlclose|exit LIB N\n", argv[0]);
    return 2;
}
