/*
 * tests/fbprobe.c: a stand-in for libcudart.so.13 used by fatbin.test to
 * see the registration wrappers a real nvcc-built program hands over at
 * start-up (the fixtures tests/fatbin/vadd.exe and rdc.exe).  For each
 * __cudaRegisterFatBinary it prints one line and writes the PTX that
 * fatbin_get_all_ptx returns for sm_80 to $FBPROBE_OUT/R.K.ptx; the
 * program's first runtime call (cudaMallocManaged) ends the process.
 * Only the entry points these programs call before main are defined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fatbin/fatbin.h"

void **__cudaRegisterFatBinary(void *wrapper);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *host_fun,
                            char *device_fun, const char *device_name,
                            int thread_limit, void *tid, void *bid,
                            void *bdim, void *gdim, int *wsize);
char __cudaInitModule(void **handle);
int cudaMallocManaged(void **ptr, size_t size, unsigned flags);

enum { PROBE_MAX = 16 };
static void *handles[PROBE_MAX];
static int nreg;

static void write_ptx(int reg, int k, const char *text, size_t len)
{
    const char *dir = getenv("FBPROBE_OUT");
    char path[4096];
    if (!dir) {
        return;
    }
    snprintf(path, sizeof path, "%s/%d.%d.ptx", dir, reg, k);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        printf("probe: cannot write %s\n", path);
    }
}

void **__cudaRegisterFatBinary(void *wrapper)
{
    const unsigned char *w = wrapper;
    char *ptx[PROBE_MAX] = {0}, err[512];
    size_t len[PROBE_MAX];
    fatbin_entry e[PROBE_MAX];
    int ne = fatbin_list(wrapper, 0, e, PROBE_MAX, err, sizeof err);
    int n = fatbin_get_all_ptx(wrapper, 0, 80, ptx, len, PROBE_MAX, err,
                               sizeof err);
    unsigned version = w[4] | (unsigned)w[5] << 8;
    printf("register %d: wrapper version %u, %d entries, %d PTX\n", nreg,
           version, ne, n);
    if (n < 0) {
        printf("probe: %s\n", err);
    }
    for (int k = 0; k < n && k < PROBE_MAX; k++) {
        write_ptx(nreg, k, ptx[k], len[k]);
        free(ptx[k]);
    }
    return &handles[nreg < PROBE_MAX - 1 ? nreg++ : nreg];
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

void __cudaUnregisterFatBinary(void **handle)
{
    (void)handle;
}

void __cudaRegisterFunction(void **handle, const char *host_fun,
                            char *device_fun, const char *device_name,
                            int thread_limit, void *tid, void *bid,
                            void *bdim, void *gdim, int *wsize)
{
    printf("function %s\n", device_name);
}

char __cudaInitModule(void **handle)
{
    return 0;
}

int cudaMallocManaged(void **ptr, size_t size, unsigned flags)
{
    printf("main reached\n");
    fflush(stdout);
    exit(0);
}
