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
    /* A copy of exactly the input's size: reading past it is a bug
     * that AddressSanitizer reports. */
    unsigned char *copy = malloc(size ? size : 1);
    if (!copy) {
        return 0;
    }
    memcpy(copy, data, size);
    struct {
        uint32_t magic, version;
        const void *data, *list;
    } wrapper = {0x466243b1u, 1, copy, NULL};
    CUmodule m;
    if (size >= 4 && cuModuleLoadData(&m, &wrapper) == CUDA_SUCCESS) {
        cuModuleUnload(m);
    }
    free(copy);
    return 0;
}
