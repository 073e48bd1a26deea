/*
 * runtime/cuda/drv_link.c: the JIT linker (cuLink*), for the case JIT
 * front ends use: one PTX module (or one fat binary's PTX) "linked"
 * into an image for cuModuleLoadData.  The emulator loads PTX, so the
 * linked image is that PTX text.  Linking several modules together
 * (cross-module symbol resolution) is not supported: cuLinkComplete
 * says so.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/readfile.h"
#include "runtime/cuda/drv.h"
#include "runtime/fatbin/fatbin.h"

struct CUlinkState_st {
    char *ptx;                          /* the one PTX input, malloc'd */
    size_t len;
    unsigned inputs;
};

static CUresult link_create(unsigned n, CUjit_option *opt, void **val,
                            CUlinkState *out)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!out || (n && (!opt || !val))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUlinkState s = calloc(1, sizeof(*s));
    if (!s) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (drv_handle_add(DRV_LINK, s)) {
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = s;
    return CUDA_SUCCESS;
}

CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options,
                         void **optionValues, CUlinkState *stateOut)
{
    return drv_trace(link_create(numOptions, options, optionValues,
                                 stateOut),
                     "cuLinkCreate_v2", "%u, %p, %p, %p", numOptions,
                     (void *)options, (void *)optionValues,
                     (void *)stateOut);
}

CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options,
                      void **optionValues, CUlinkState *stateOut)
{
    return drv_trace(link_create(numOptions, options, optionValues,
                                 stateOut),
                     "cuLinkCreate", "%u, %p, %p, %p", numOptions,
                     (void *)options, (void *)optionValues,
                     (void *)stateOut);
}

/* Adds the PTX of one input (size 0: NUL-terminated text). */
static CUresult add(CUlinkState s, CUjitInputType type, const void *data,
                    size_t size, const char *name)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!drv_handle_valid(DRV_LINK, s)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (!data) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    char *ptx = NULL, err[512];
    size_t len = 0;
    switch (type) {
    case CU_JIT_INPUT_PTX:
        len = size ? strnlen(data, size) : strlen(data);
        ptx = malloc(len + 1);
        if (!ptx) {
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        memcpy(ptx, data, len);
        ptx[len] = 0;
        break;
    case CU_JIT_INPUT_FATBINARY:
        if (fatbin_get_ptx(data, size, drv.gpu.arch, &ptx, &len, NULL, err,
                           sizeof(err))) {
            fprintf(stderr, "ptxemu: cuLinkAddData: %s: %s\n",
                    name ? name : "fat binary", err);
            return CUDA_ERROR_INVALID_IMAGE;
        }
        break;
    default:
        fprintf(stderr, "ptxemu: cuLinkAddData: %s: only PTX and fat "
                "binaries can be linked on the emulator (input type %d)\n",
                name ? name : "input", (int)type);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    s->inputs++;
    if (s->ptx) {
        free(ptx);                      /* refused at cuLinkComplete */
    } else {
        s->ptx = ptx;
        s->len = len;
    }
    return CUDA_SUCCESS;
}

CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type,
                          void *data, size_t size, const char *name,
                          unsigned int numOptions, CUjit_option *options,
                          void **optionValues)
{
    (void)options;
    (void)optionValues;
    return drv_trace(add(state, type, data, size, name), "cuLinkAddData_v2",
                     "%p, %d, %p, %zu, \"%s\", %u", (void *)state,
                     (int)type, data, size, name ? name : "(null)",
                     numOptions);
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data,
                       size_t size, const char *name,
                       unsigned int numOptions, CUjit_option *options,
                       void **optionValues)
{
    (void)options;
    (void)optionValues;
    return drv_trace(add(state, type, data, size, name), "cuLinkAddData",
                     "%p, %d, %p, %zu, \"%s\", %u", (void *)state,
                     (int)type, data, size, name ? name : "(null)",
                     numOptions);
}

static CUresult add_file(CUlinkState s, CUjitInputType type,
                         const char *path)
{
    if (!path) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    char *buf, why[128];
    size_t n;
    ptx_read_status rs = ptx_read_file(path, PTX_READ_LIMIT, &buf, &n, why,
                                       sizeof why);
    if (rs != PTX_READ_OK) {
        fprintf(stderr, "ptxemu: cuLinkAddFile: cannot read %s: %s\n", path,
                why);
        return rs == PTX_READ_NOT_FOUND ? CUDA_ERROR_FILE_NOT_FOUND
               : rs == PTX_READ_NO_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY
               : CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = add(s, type, buf, n, path);
    free(buf);
    return r;
}

CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type,
                          const char *path, unsigned int numOptions,
                          CUjit_option *options, void **optionValues)
{
    (void)options;
    (void)optionValues;
    return drv_trace(add_file(state, type, path), "cuLinkAddFile_v2",
                     "%p, %d, \"%s\", %u", (void *)state, (int)type,
                     path ? path : "(null)", numOptions);
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type,
                       const char *path, unsigned int numOptions,
                       CUjit_option *options, void **optionValues)
{
    (void)options;
    (void)optionValues;
    return drv_trace(add_file(state, type, path), "cuLinkAddFile",
                     "%p, %d, \"%s\", %u", (void *)state, (int)type,
                     path ? path : "(null)", numOptions);
}

static CUresult complete(CUlinkState s, void **out, size_t *size)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!drv_handle_valid(DRV_LINK, s)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (!out || !size) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (s->inputs != 1) {
        fprintf(stderr, "ptxemu: cuLinkComplete: %s\n", s->inputs
                ? "linking several modules together is not supported by "
                  "the emulator"
                : "nothing to link");
        return s->inputs ? CUDA_ERROR_NOT_SUPPORTED
                         : CUDA_ERROR_INVALID_VALUE;
    }
    *out = s->ptx;
    *size = s->len + 1;
    return CUDA_SUCCESS;
}

CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    return drv_trace(complete(state, cubinOut, sizeOut), "cuLinkComplete",
                     "%p, %p, %p", (void *)state, (void *)cubinOut,
                     (void *)sizeOut);
}

CUresult cuLinkDestroy(CUlinkState state)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (!r && !drv_handle_valid(DRV_LINK, state)) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r) {
        drv_handle_remove(DRV_LINK, state);
        free(state->ptx);
        free(state);
    }
    return drv_trace(r, "cuLinkDestroy", "%p", (void *)state);
}
