/*
 * emu/cuerr.c: the table of CUDA runtime errors.  See emu/cuerr.h.
 */
#include "emu/cuerr.h"

static const EmuCudaError errinfo[] = {
#define X(name, value, text) { value, #name, text },
#include "abi/cudart_errors.def"
#undef X
};

const EmuCudaError *emu_cuda_errors(size_t *n)
{
    *n = sizeof(errinfo) / sizeof(errinfo[0]);
    return errinfo;
}

const EmuCudaError *emu_cuda_error(int value)
{
    /* The table is sorted by value (as driver_types.h lists it). */
    size_t lo = 0, hi = sizeof(errinfo) / sizeof(errinfo[0]);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (errinfo[mid].value == value) {
            return &errinfo[mid];
        }
        if (errinfo[mid].value < value) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}
