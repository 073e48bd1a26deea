/*
 * emu/devrt_query.c: the device runtime's queries: error names and
 * strings, device attributes, cache and shared-memory configuration,
 * function attributes and occupancy.  See emu/devrt.h.
 *
 * The answers come from the sources the host API uses: the error table
 * of emu/cuerr.h (host cudaGetErrorString), the GPU figures and the
 * occupancy calculator of emu/gpuspec.h (cuDeviceGetAttribute,
 * cuOccupancyMaxActiveBlocksPerMultiprocessor).  Function settings
 * made on the host (cudaFuncSetAttribute: maximum dynamic shared size,
 * carveout) live in the drop-in driver and are not seen here: device
 * code gets the defaults.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/builtins.h"
#include "emu/cuerr.h"
#include "emu/devrt_int.h"
#include "emu/memory.h"

/* ------------------------------------------------- error strings */

/* The strings live in one read-only allocation of the device, made on
 * first use: entry k's name at errstr_off[2k], its text at
 * errstr_off[2k + 1], the text for unknown codes at errstr_off[2n]. */
static bool make_strings(EmuDevice *d)
{
    size_t n;
    const EmuCudaError *t = emu_cuda_errors(&n);
    uint32_t *off = malloc((2 * n + 1) * sizeof(*off));
    if (!off) {
        return false;
    }
    uint64_t size = sizeof(EMU_CUDA_ERROR_UNKNOWN_TEXT);
    for (size_t k = 0; k < n; k++) {
        size += strlen(t[k].name) + strlen(t[k].text) + 2;
    }
    uint64_t a = emu_mem_alloc(d->mem, size, EMU_ALLOC_CONST,
                               "device runtime error strings");
    const EmuAlloc *al = a ? emu_mem_find(d->mem, a, size) : NULL;
    if (!al) {
        free(off);
        return false;
    }
    char *p = (char *)al->host;
    uint32_t at = 0;
    for (size_t k = 0; k < n; k++) {
        const char *s[2] = {t[k].name, t[k].text};
        for (int j = 0; j < 2; j++) {
            off[2 * k + j] = at;
            size_t len = strlen(s[j]) + 1;
            memcpy(p + at, s[j], len);
            at += (uint32_t)len;
        }
    }
    off[2 * n] = at;
    memcpy(p + at, EMU_CUDA_ERROR_UNKNOWN_TEXT,
           sizeof(EMU_CUDA_ERROR_UNKNOWN_TEXT));
    d->errstr_addr = a;
    d->errstr_off = off;
    return true;
}

/* cudaGetErrorName(e) / cudaGetErrorString(e): a generic pointer to a
 * constant string; no error of their own. */
static void error_text(EmuCtx *x, const EmuInsn *i, uint32_t mask,
                       int which)
{
    EmuDevice *d = x->dev;
    if (!d->errstr_off && !make_strings(d)) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                  "device runtime: no memory for the error strings");
        return;
    }
    size_t n;
    const EmuCudaError *t = emu_cuda_errors(&n);
    EMU_FOR_LANES(mask, lane) {
        int e = (int)(uint32_t)emu_builtin_arg(x, i, lane, 0);
        const EmuCudaError *c = emu_cuda_error(e);
        size_t k = c ? 2 * (size_t)(c - t) + (size_t)which : 2 * n;
        emu_builtin_ret(x, i, lane, d->errstr_addr + d->errstr_off[k]);
    }
}

void cdp_op_error_string(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    error_text(x, i, mask, 1);
}

void cdp_op_error_name(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    error_text(x, i, mask, 0);
}

/* --------------------------------------------------- the device */

/* cudaDeviceGetAttribute(&v, attr, device): device 0 is the only one
 * (cudaErrorInvalidDevice otherwise), an unknown attribute is
 * cudaErrorInvalidValue, as on the host. */
void cdp_op_device_attribute(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        int attr = (int)(uint32_t)emu_builtin_arg(x, i, lane, 1);
        int dev = (int)(uint32_t)emu_builtin_arg(x, i, lane, 2);
        int v;
        if (dev != 0) {
            cdp_result(x, i, lane, CDP_ERR_INVALID_DEVICE);
            continue;
        }
        if (emu_gpu_attribute(&x->dev->gpu, attr, &v) != 0) {
            cdp_result(x, i, lane, CDP_ERR_INVALID_VALUE);
            continue;
        }
        cdp_answer(x, i, lane, (uint32_t)v, 4, "cudaDeviceGetAttribute");
        if (x->fault) {
            return;
        }
    }
}

/* cudaDeviceGetCacheConfig: cudaFuncCachePreferNone (0), the host's
 * default (there is no L1/shared split to configure);
 * cudaDeviceGetSharedMemConfig: cudaSharedMemBankSizeFourByte (1), what
 * the host API answers. */
static void answer_all(EmuCtx *x, const EmuInsn *i, uint32_t mask,
                       uint32_t v, const char *what)
{
    EMU_FOR_LANES(mask, lane) {
        cdp_answer(x, i, lane, v, 4, what);
        if (x->fault) {
            return;
        }
    }
}

void cdp_op_cache_config(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    answer_all(x, i, mask, 0, "cudaDeviceGetCacheConfig");
}

void cdp_op_shmem_config(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    answer_all(x, i, mask, 1, "cudaDeviceGetSharedMemConfig");
}

/* ------------------------------------------------- the functions */

/* The .reqntid/.maxntid bound of a kernel, as ptxemu_function_get_info
 * and cuFuncGetAttribute give it. */
static int max_threads(const EmuFunc *f)
{
    const uint32_t *nt = f->ir->reqntid[0] ? f->ir->reqntid
                                           : f->ir->maxntid;
    uint64_t v = nt[0] ? (uint64_t)nt[0] * (nt[1] ? nt[1] : 1) *
                         (nt[2] ? nt[2] : 1) : 0;
    return v && v < 1024 ? (int)v : 1024;
}

static int num_regs(const EmuFunc *f)
{
    return (int)f->regs;
}

/* struct cudaFuncAttributes (driver_types.h, 144 bytes): the offsets
 * of its fields */
enum {
    FA_SHARED = 0, FA_CONST = 8, FA_LOCAL = 16, FA_MAX_THREADS = 24,
    FA_REGS = 28, FA_PTX = 32, FA_BINARY = 36, FA_CACHE_CA = 40,
    FA_MAX_DYN_SHARED = 44, FA_CARVEOUT = 48, FA_SIZE = 144
};

static void put32(uint8_t *b, uint32_t off, int32_t v)
{
    memcpy(b + off, &v, 4);
}

static void put64(uint8_t *b, uint32_t off, uint64_t v)
{
    memcpy(b + off, &v, 8);
}

/* cudaFuncGetAttributes(&attr, func): the values cudaFuncGetAttributes
 * gives on the host for a kernel not changed by cudaFuncSetAttribute. */
void cdp_op_func_attributes(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t p = emu_builtin_arg(x, i, lane, 0);
        const EmuFunc *f = cdp_kernel_of(x, emu_builtin_arg(x, i, lane, 1));
        if (!p) {
            cdp_result(x, i, lane, CDP_ERR_INVALID_VALUE);
            continue;
        }
        if (!f) {
            cdp_result(x, i, lane, CDP_ERR_INVALID_DEVICE_FUNCTION);
            continue;
        }
        uint8_t b[FA_SIZE];
        memset(b, 0, sizeof(b));
        put64(b, FA_SHARED, f->shared_bytes);
        put64(b, FA_LOCAL, f->local_bytes);
        put32(b, FA_MAX_THREADS, max_threads(f));
        put32(b, FA_REGS, num_regs(f));
        put32(b, FA_PTX, (int32_t)x->dev->gpu.arch);
        put32(b, FA_BINARY, (int32_t)x->dev->gpu.arch);
        put32(b, FA_MAX_DYN_SHARED,
              f->shared_bytes >= EMU_GPU_SMEM_STATIC_MAX
              ? 0 : (int32_t)(EMU_GPU_SMEM_STATIC_MAX - f->shared_bytes));
        put32(b, FA_CARVEOUT, -1);
        /* in 8-byte words: the struct is 8-byte aligned */
        for (uint32_t k = 0; k < FA_SIZE; k += 8) {
            uint64_t w;
            memcpy(&w, b + k, 8);
            if (!cdp_gwrite(x, lane, p + k, w, 8, "cudaFuncGetAttributes")) {
                return;
            }
        }
        cdp_result(x, i, lane, CDP_OK);
    }
}

/* cudaOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags](&n, func,
 * blockSize, dynamicSmem[, flags]): cudaOccupancyDefault (0) and
 * cudaOccupancyDisableCachingOverride (1) are the flags. */
static void occupancy(EmuCtx *x, const EmuInsn *i, uint32_t mask,
                      bool with_flags)
{
    EMU_FOR_LANES(mask, lane) {
        const EmuFunc *f = cdp_kernel_of(x, emu_builtin_arg(x, i, lane, 1));
        int bs = (int)(uint32_t)emu_builtin_arg(x, i, lane, 2);
        uint64_t dyn = emu_builtin_arg(x, i, lane, 3);
        uint32_t flags = with_flags
                         ? (uint32_t)emu_builtin_arg(x, i, lane, 4) : 0;
        if (!f) {
            cdp_result(x, i, lane, CDP_ERR_INVALID_DEVICE_FUNCTION);
            continue;
        }
        if (bs <= 0 || flags > 1) {
            cdp_result(x, i, lane, CDP_ERR_INVALID_VALUE);
            continue;
        }
        int n = bs > max_threads(f) ? 0
                : emu_func_blocks_per_sm(&x->dev->gpu, f, bs, dyn, -1);
        cdp_answer(x, i, lane, (uint32_t)n, 4,
                   "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        if (x->fault) {
            return;
        }
    }
}

void cdp_op_occupancy(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    occupancy(x, i, mask, false);
}

void cdp_op_occupancy_flags(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    occupancy(x, i, mask, true);
}
