/*
 * fuzz/fuzz_register.c: libFuzzer entry for module registration: the
 * input is the container a program's registration wrapper points to,
 * handed to the drop-in driver without a size, as nvcc's start-up code
 * and cudart hand it over (__cudaRegisterFatBinary, then
 * cuModuleLoadData at the first launch).  The reader must bound itself
 * by readable memory, validate, and load what it accepts; a corrupt
 * image is a CUDA error, never a crash.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "abi/cuda_abi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static CUcontext ctx;
    if (!ctx) {
        CUdevice dev;
        if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != 0 ||
            cuDevicePrimaryCtxRetain(&ctx, dev) != 0 ||
            cuCtxSetCurrent(ctx) != 0) {
            abort();
        }
    }
    /* The input ends where an inaccessible page begins: the reader has
     * no size (the API gives none), so it must bound itself by what is
     * readable, and reading past the input faults here.  (A heap copy
     * of the input's size cannot test that: a header the input only
     * begins is read to its end, as on CUDA, inside readable memory
     * that AddressSanitizer reports as past the object.) */
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t span = (size + pg - 1) / pg * pg;
    span = span ? span : pg;
    unsigned char *base = mmap(NULL, span + pg, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        return 0;
    }
    if (mprotect(base + span, pg, PROT_NONE) != 0) {
        abort();
    }
    unsigned char *copy = base + span - size;
    memcpy(copy, data, size);
    struct {
        uint32_t magic, version;
        const void *data, *list;
    } wrapper = {0x466243b1u, 1, copy, NULL};
    CUmodule m;
    if (size >= 4 && cuModuleLoadData(&m, &wrapper) == CUDA_SUCCESS) {
        cuModuleUnload(m);
    }
    munmap(base, span + pg);
    return 0;
}
