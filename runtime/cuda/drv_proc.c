/*
 * runtime/cuda/drv_proc.c: cuGetProcAddress.
 *
 * The table (drv_proc.def, generated) lists for each entry point the
 * symbol in force from each CUDA version on: "cuMemAlloc" asked for
 * with cudaVersion 3020 or later is cuMemAlloc_v2, before that the
 * legacy cuMemAlloc.  The per-thread-default-stream flag picks the
 * _ptds/_ptsz symbols where there are some.  The symbols are looked up
 * in this library itself, so unsupported entry points resolve to their
 * stubs, like any other import.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <dlfcn.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_export.h"

enum { PLAIN, PTDS, PTSZ };

static const struct {
    const char *base;
    int version;
    int flavour;
    const char *symbol;
} procs[] = {
#define plain PLAIN
#define ptds PTDS
#define ptsz PTSZ
#define X(base, version, flavour, symbol) \
    {#base, version, flavour, #symbol},
#include "runtime/cuda/drv_proc.def"
#undef X
#undef plain
#undef ptds
#undef ptsz
};

static void *self;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;

/* This library's own handle (already loaded: RTLD_NOLOAD). */
static void find_self(void)
{
    Dl_info info;
    if (dladdr((void *)(uintptr_t)cuInit, &info) && info.dli_fname) {
        self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    }
}

static void *self_symbol(const char *name)
{
    pthread_once(&self_once, find_self);
    return self ? dlsym(self, name) : NULL;
}

static CUresult lookup(const char *symbol, void **pfn, int version,
                       cuuint64_t flags,
                       CUdriverProcAddressQueryResult *status)
{
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (!symbol || !pfn) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pfn = NULL;
    if (flags & ~(cuuint64_t)3) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    drv_export_note_version(version);
    int per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
                     != 0;
    const char *best = NULL;
    int best_v = -1, best_pt = 0;
    for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
        if (strcmp(procs[i].base, symbol)) {
            continue;
        }
        st = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
        int pt = procs[i].flavour != PLAIN;
        if (procs[i].version > version || (pt && !per_thread)) {
            continue;
        }
        /* A per-thread symbol wins over a plain one of any version. */
        if (pt > best_pt || (pt == best_pt && procs[i].version > best_v)) {
            best = procs[i].symbol;
            best_v = procs[i].version;
            best_pt = pt;
        }
    }
    if (best) {
        *pfn = self_symbol(best);
    }
    CUresult r = CUDA_SUCCESS;
    if (*pfn) {
        st = CU_GET_PROC_ADDRESS_SUCCESS;
    } else {
        r = CUDA_ERROR_NOT_FOUND;
    }
    if (status) {
        *status = st;
    }
    return r;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
                          cuuint64_t flags)
{
    return drv_trace(lookup(symbol, pfn, cudaVersion, flags, NULL),
                     "cuGetProcAddress", "\"%s\", %p, %d, 0x%llx",
                     symbol ? symbol : "(null)", (void *)pfn, cudaVersion,
                     (unsigned long long)flags);
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn,
                             int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus)
{
    return drv_trace(lookup(symbol, pfn, cudaVersion, flags, symbolStatus),
                     "cuGetProcAddress_v2", "\"%s\", %p, %d, 0x%llx, %p",
                     symbol ? symbol : "(null)", (void *)pfn, cudaVersion,
                     (unsigned long long)flags, (void *)symbolStatus);
}
