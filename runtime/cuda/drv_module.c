/*
 * runtime/cuda/drv_module.c: modules, libraries (CUDA 12's context-
 * independent modules: here the same thing), functions and kernels.
 *
 * Images are PTX text or fat binaries; a fat binary gives the PTX for
 * the configured architecture (fatbin_get_ptx).  SASS cannot run on the
 * emulator: an image without PTX is CUDA_ERROR_NO_BINARY_FOR_GPU with a
 * message saying how to rebuild.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_queue.h"
#include "ptx/readfile.h"
#include "runtime/fatbin/fatbin.h"

/* ------------------------------------------------------------ loading */

/* Copy the last load error into a JIT error log buffer. */
static void jit_log(char *buf, size_t len, const char *msg)
{
    if (buf && len) {
        snprintf(buf, len, "%s", msg);
    }
}

static CUresult wrap_module(ptxemu_module *pm, CUmodule *out)
{
    CUmodule m = calloc(1, sizeof(*m));
    unsigned n = ptxemu_module_num_functions(pm);
    if (m && n) {
        m->funcs = calloc(n, sizeof(*m->funcs));
    }
    if (!m || (n && !m->funcs)) {
        free(m);
        ptxemu_module_unload(pm);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->pm = pm;
    m->nfuncs = n;
    int bad = drv_handle_add(DRV_MOD, m);
    for (unsigned i = 0; i < n; i++) {
        CUfunction f = &m->funcs[i];
        f->mod = m;
        f->pf = ptxemu_module_function(pm, i);
        f->max_dyn_smem = -1;           /* the default: see get_attr */
        f->carveout = -1;
        bad |= drv_handle_add(DRV_FUNC, f);
    }
    if (bad) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = m;
    return CUDA_SUCCESS;
}

/* The CUresult of a failed module load. */
static CUresult load_error(ptxemu_status st)
{
    return st == PTXEMU_ERROR_OUT_OF_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY
           : st == PTXEMU_ERROR_UNSUPPORTED ? CUDA_ERROR_NOT_SUPPORTED
           : CUDA_ERROR_INVALID_PTX;
}

/* Load PTX text (len 0: NUL-terminated).  name: for messages. */
static CUresult load_ptx(const char *name, const char *src, size_t len,
                         CUmodule *out, char *log, size_t loglen)
{
    ptxemu_module *pm;
    ptxemu_status st = ptxemu_module_load_string(drv.dev, name, src, len,
                                                 &pm);
    if (st != PTXEMU_SUCCESS) {
        char msg[8192];
        ptxemu_last_error_copy(drv.dev, msg, sizeof(msg));
        jit_log(log, loglen, msg);
        fprintf(stderr, "ptxemu: cannot load %s:\n%s\n",
                name ? name : "the PTX image", msg);
        return load_error(st);
    }
    return wrap_module(pm, out);
}

/* Link n PTX modules by name (relocatable device code); the inputs are
 * named NAME.0.ptx, NAME.1.ptx ... in messages. */
static CUresult load_linked(const char *name, unsigned n, char **srcs,
                            const size_t *lens, CUmodule *out, char *log,
                            size_t loglen)
{
    char **names = calloc(n, sizeof(char *));
    CUresult r = names ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    for (unsigned i = 0; names && i < n; i++) {
        if (asprintf(&names[i], "%s.%u.ptx", name ? name : "fatbin", i) < 0) {
            names[i] = NULL;
            r = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    ptxemu_module *pm = NULL;
    if (r == CUDA_SUCCESS) {
        ptxemu_status st = ptxemu_module_load_linked(
            drv.dev, n, (const char *const *)names,
            (const char *const *)srcs, lens, &pm);
        if (st != PTXEMU_SUCCESS) {
            char msg[8192];
            ptxemu_last_error_copy(drv.dev, msg, sizeof(msg));
            jit_log(log, loglen, msg);
            fprintf(stderr, "ptxemu: cannot link the %u PTX modules of %s:"
                    "\n%s\n", n, name ? name : "the image", msg);
            r = load_error(st);
        }
    }
    for (unsigned i = 0; names && i < n; i++) {
        free(names[i]);
    }
    free(names);
    return r == CUDA_SUCCESS ? wrap_module(pm, out) : r;
}

/* Where the image also holds ptxas's SASS for the device (or an older
 * architecture), its kernels count the registers ptxas gave them
 * (EIATTR_REGCOUNT) rather than the estimate from the PTX
 * (emu/regest.h): numRegs then reads as on the GPU. */
static void sass_regs(CUmodule m, const void *image, size_t avail)
{
    if (!m || m->nfuncs == 0) {
        return;
    }
    const char **names = calloc(m->nfuncs, sizeof(*names));
    int *regs = calloc(m->nfuncs, sizeof(*regs));
    if (names && regs) {
        for (unsigned i = 0; i < m->nfuncs; i++) {
            names[i] = ptxemu_function_name(m->funcs[i].pf);
        }
        if (fatbin_image_regcounts(image, avail, drv.gpu.arch, names, regs,
                                   m->nfuncs) > 0) {
            for (unsigned i = 0; i < m->nfuncs; i++) {
                if (regs[i] > 0) {
                    ptxemu_function_set_regs(m->funcs[i].pf,
                                             (unsigned)regs[i]);
                }
            }
        }
    }
    free(names);
    free(regs);
}

static int is_binary_magic(const void *image, size_t avail)
{
    uint32_t magic;
    if (avail && avail < 4) {
        return 0;
    }
    memcpy(&magic, image, 4);
    return magic == FATBIN_WRAPPER_MAGIC || magic == FATBIN_MAGIC;
}

/* Any image: fat binary, cubin (refused), or PTX text.  avail 0: the
 * size is not known (the headers are trusted, as CUDA does). */
static CUresult load_image(const char *name, const void *image,
                           size_t avail, CUmodule *out, char *log,
                           size_t loglen)
{
    if (!image) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* An image in memory has no file name; messages and fault reports
     * ("FILE:LINE") name the program's device code instead of
     * "<string>": `ptxemu fatbin --extract PROGRAM` writes that PTX. */
    char own[128];
    if (!name) {
        snprintf(own, sizeof(own), "%s.ptx", program_invocation_short_name);
        name = own;
    }
    /* With no size known, the pointer must at least lead to readable
     * memory (the reader bounds itself by how much, fatbin_readable);
     * look at the first 4 bytes only when they hold no NUL (a shorter
     * PTX string ends before them). */
    size_t ext;
    if (!avail && fatbin_readable(image, &ext) == 0) {
        char msg[128];
        snprintf(msg, sizeof(msg), "the image at %p is not in readable "
                 "memory", image);
        jit_log(log, loglen, msg);
        fprintf(stderr, "ptxemu: %s\n", msg);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!avail && strnlen(image, 4) < 4) {
        return load_ptx(name, image, 0, out, log, loglen);
    }
    if (fatbin_is_elf(image, avail ? avail : 4)) {
        char msg[512];
        snprintf(msg, sizeof(msg), "%s is an ELF file (a SASS cubin?); "
                 "the emulator runs PTX only: rebuild with -gencode "
                 "arch=compute_%u,code=compute_%u", name ? name : "the image",
                 drv.gpu.arch, drv.gpu.arch);
        jit_log(log, loglen, msg);
        fprintf(stderr, "ptxemu: %s\n", msg);
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    if (!is_binary_magic(image, avail)) {
        return load_ptx(name, image, avail, out, log, loglen);
    }
    /* Relocatable device code (nvcc -rdc=true) registers one image that
     * holds a PTX module per translation unit: they are linked by name,
     * as the driver's JIT linker would. */
    enum { MAX_UNITS = 256 };
    char *ptx[MAX_UNITS], err[512];
    size_t len[MAX_UNITS];
    int n = fatbin_get_all_ptx(image, avail, drv.gpu.arch, ptx, len,
                               MAX_UNITS, err, sizeof(err));
    if (n > MAX_UNITS) {
        for (int i = 0; i < MAX_UNITS; i++) {
            free(ptx[i]);
        }
        snprintf(err, sizeof(err), "%d PTX modules to link: at most %d",
                 n, MAX_UNITS);
        n = -1;
    }
    if (n <= 0) {
        if (n == 0) {
            snprintf(err, sizeof(err), "no PTX in the fat binary");
        }
        jit_log(log, loglen, err);
        fprintf(stderr, "ptxemu: %s%s%s\n", name ? name : "",
                name ? ": " : "", err);
        return strstr(err, "SASS") || strstr(err, "no PTX")
               ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_IMAGE;
    }
    CUresult r = n == 1 ? load_ptx(name, ptx[0], len[0], out, log, loglen)
                        : load_linked(name, (unsigned)n, ptx, len, out, log,
                                      loglen);
    for (int i = 0; i < n; i++) {
        free(ptx[i]);
    }
    if (r == CUDA_SUCCESS) {
        sass_regs(*out, image, avail);
    }
    return r;
}

static CUresult read_file(const char *fname, char **data, size_t *len)
{
    char why[128];
    ptx_read_status rs = ptx_read_file(fname, PTX_READ_LIMIT, data, len,
                                       why, sizeof why);
    if (rs == PTX_READ_OK) {
        return CUDA_SUCCESS;
    }
    fprintf(stderr, "ptxemu: cuModuleLoad: cannot read %s: %s\n", fname,
            why);
    return rs == PTX_READ_NOT_FOUND ? CUDA_ERROR_FILE_NOT_FOUND
           : rs == PTX_READ_NO_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY
           : rs == PTX_READ_IO ? CUDA_ERROR_OPERATING_SYSTEM
           : CUDA_ERROR_INVALID_VALUE;
}

/* load_file and load_data_ex need no current context: the cuModule*
 * calls check for one (the cuModule* wrappers), the cuLibrary* ones do not. */
static CUresult load_file(CUmodule *module, const char *fname)
{
    if (!module || !fname) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    char *data;
    size_t len;
    CUresult r = read_file(fname, &data, &len);
    if (!r) {
        r = len ? load_image(fname, data, len, module, NULL, 0)
                : CUDA_ERROR_INVALID_IMAGE;
        free(data);
    }
    return r;
}

CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    CUresult r = drv_ready(NULL);
    return drv_trace(r ? r : load_file(module, fname), "cuModuleLoad", "%p, \"%s\"",
                     (void *)module, fname ? fname : "(null)");
}

/* The JIT options we honour: the error and info logs. */
static CUresult load_data_ex(CUmodule *module, const void *image,
                             unsigned n, const CUjit_option *opt,
                             void **val)
{
    if (!module || !image || (n && (!opt || !val))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    char *log = NULL, *info = NULL;
    size_t loglen = 0;
    for (unsigned i = 0; i < n; i++) {
        if (opt[i] == CU_JIT_ERROR_LOG_BUFFER) {
            log = val[i];
        } else if (opt[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) {
            loglen = (size_t)(uintptr_t)val[i];
        } else if (opt[i] == CU_JIT_INFO_LOG_BUFFER) {
            info = val[i];
        } else if ((unsigned)opt[i] >= CU_JIT_NUM_OPTIONS) {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    if (info) {
        info[0] = 0;                /* nothing to report: no JIT */
    }
    if (log && loglen) {
        log[0] = 0;
    }
    return load_image(NULL, image, 0, module, log, loglen);
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    CUresult r = drv_ready(NULL);
    return drv_trace(r ? r : load_data_ex(module, image, 0, NULL, NULL),
                     "cuModuleLoadData", "%p, %p", (void *)module, image);
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned int numOptions, CUjit_option *options,
                            void **optionValues)
{
    CUresult r = drv_ready(NULL);
    return drv_trace(r ? r : load_data_ex(module, image, numOptions, options,
                                          optionValues),
                     "cuModuleLoadDataEx", "%p, %p, %u, %p, %p",
                     (void *)module, image, numOptions, (void *)options,
                     (void *)optionValues);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    CUresult r = drv_ready(NULL);
    return drv_trace(r ? r : load_data_ex(module, fatCubin, 0, NULL, NULL),
                     "cuModuleLoadFatBinary", "%p, %p", (void *)module,
                     fatCubin);
}

static CUresult unload(CUmodule m)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!drv_handle_valid(DRV_MOD, m)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    /* Queued launches of its kernels run first. */
    drv_queue_sync_ctx(NULL);
    drv_handle_remove(DRV_MOD, m);
    for (unsigned i = 0; i < m->nfuncs; i++) {
        drv_handle_remove(DRV_FUNC, &m->funcs[i]);
    }
    ptxemu_module_unload(m->pm);
    free(m->funcs);
    free(m);
    return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule hmod)
{
    return drv_trace(unload(hmod), "cuModuleUnload", "%p", (void *)hmod);
}

/* ------------------------------------------------------------ lookups */

static CUresult get_function(CUfunction *hfunc, CUmodule m,
                             const char *name)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!hfunc || !name) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!drv_handle_valid(DRV_MOD, m)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    for (unsigned i = 0; i < m->nfuncs; i++) {
        if (!strcmp(ptxemu_function_name(m->funcs[i].pf), name)) {
            *hfunc = &m->funcs[i];
            return CUDA_SUCCESS;
        }
    }
    /* a kernel that could not be loaded fails here, when it is asked
     * for (at its launch or attribute query), with its located errors */
    ptxemu_function *pf;
    ptxemu_status st = ptxemu_module_get_function(m->pm, name, &pf);
    if (st != PTXEMU_SUCCESS && st != PTXEMU_ERROR_NOT_FOUND) {
        char msg[8192];
        ptxemu_last_error_copy(drv.dev, msg, sizeof(msg));
        fprintf(stderr, "ptxemu: %s\n", msg);
        return load_error(st);
    }
    return CUDA_ERROR_NOT_FOUND;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                             const char *name)
{
    return drv_trace(get_function(hfunc, hmod, name), "cuModuleGetFunction",
                     "%p, %p, \"%s\"", (void *)hfunc, (void *)hmod,
                     name ? name : "(null)");
}

CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !count ? CUDA_ERROR_INVALID_VALUE
                 : !drv_handle_valid(DRV_MOD, mod) ? CUDA_ERROR_INVALID_HANDLE
                 : CUDA_SUCCESS;
    if (!r) {
        *count = mod->nfuncs;
    }
    return drv_trace(r, "cuModuleGetFunctionCount", "%p, %p", (void *)count,
                     (void *)mod);
}

CUresult cuModuleEnumerateFunctions(CUfunction *functions,
                                    unsigned int numFunctions, CUmodule mod)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !functions ? CUDA_ERROR_INVALID_VALUE
                 : !drv_handle_valid(DRV_MOD, mod) ? CUDA_ERROR_INVALID_HANDLE
                 : CUDA_SUCCESS;
    for (unsigned i = 0; !r && i < numFunctions && i < mod->nfuncs; i++) {
        functions[i] = &mod->funcs[i];
    }
    return drv_trace(r, "cuModuleEnumerateFunctions", "%p, %u, %p",
                     (void *)functions, numFunctions, (void *)mod);
}

static CUresult get_global(CUdeviceptr *dptr, size_t *bytes, CUmodule m,
                           const char *name)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!name) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!drv_handle_valid(DRV_MOD, m)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    ptxemu_devptr a;
    size_t sz;
    if (ptxemu_module_get_global(m->pm, name, &a, &sz) != PTXEMU_SUCCESS) {
        return CUDA_ERROR_NOT_FOUND;
    }
    if (dptr) {
        *dptr = a;
    }
    if (bytes) {
        *bytes = sz;
    }
    return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes,
                              CUmodule hmod, const char *name)
{
    return drv_trace(get_global(dptr, bytes, hmod, name),
                     "cuModuleGetGlobal_v2", "%p, %p, %p, \"%s\"",
                     (void *)dptr, (void *)bytes, (void *)hmod,
                     name ? name : "(null)");
}

CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !mode ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    if (!r) {
        *mode = CU_MODULE_EAGER_LOADING;
    }
    return drv_trace(r, "cuModuleGetLoadingMode", "%p", (void *)mode);
}

/* ------------------------------------------------------------ libraries */

/* A CUlibrary is a CUmodule and a CUkernel a CUfunction: with one
 * device there is no per-context instance to tell apart.  Loading needs
 * no current context (the CUDA driver API reference, "Library
 * Management": a library is loaded for every context); the statically
 * linked runtime loads its fat binaries before making one current. */

static CUresult lib_load(CUlibrary *lib, const char *fname, const void *code,
                         unsigned nj, CUjit_option *jo, void **jv)
{
    CUmodule m = NULL;
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : drv_current() ? drv_ready(NULL) : CUDA_SUCCESS;
    if (!r && !lib) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        r = fname ? load_file(&m, fname)
                  : load_data_ex(&m, code, nj, jo, jv);
    }
    if (!r) {
        m->library = 1;
        *lib = (CUlibrary)m;
    }
    return r;
}

CUresult cuLibraryLoadData(CUlibrary *library, const void *code,
                           CUjit_option *jitOptions,
                           void **jitOptionsValues,
                           unsigned int numJitOptions,
                           CUlibraryOption *libraryOptions,
                           void **libraryOptionValues,
                           unsigned int numLibraryOptions)
{
    (void)libraryOptions;
    (void)libraryOptionValues;
    return drv_trace(lib_load(library, NULL, code, numJitOptions,
                              jitOptions, jitOptionsValues),
                     "cuLibraryLoadData", "%p, %p, %u, %u", (void *)library,
                     code, numJitOptions, numLibraryOptions);
}

CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
                               CUjit_option *jitOptions,
                               void **jitOptionsValues,
                               unsigned int numJitOptions,
                               CUlibraryOption *libraryOptions,
                               void **libraryOptionValues,
                               unsigned int numLibraryOptions)
{
    (void)jitOptions;
    (void)jitOptionsValues;
    (void)libraryOptions;
    (void)libraryOptionValues;
    CUresult r = fileName ? lib_load(library, fileName, NULL, 0, NULL, NULL)
                          : CUDA_ERROR_INVALID_VALUE;
    return drv_trace(r, "cuLibraryLoadFromFile", "%p, \"%s\", %u, %u",
                     (void *)library, fileName ? fileName : "(null)",
                     numJitOptions, numLibraryOptions);
}

CUresult cuLibraryUnload(CUlibrary library)
{
    return drv_trace(unload((CUmodule)library), "cuLibraryUnload", "%p",
                     (void *)library);
}

CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library,
                            const char *name)
{
    CUfunction f = NULL;
    CUresult r = get_function(&f, (CUmodule)library, name);
    if (!r && pKernel) {
        *pKernel = (CUkernel)f;
    }
    if (!r && !pKernel) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    return drv_trace(r, "cuLibraryGetKernel", "%p, %p, \"%s\"",
                     (void *)pKernel, (void *)library,
                     name ? name : "(null)");
}

CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !pMod ? CUDA_ERROR_INVALID_VALUE
                 : !drv_handle_valid(DRV_MOD, library)
                 ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
    if (!r) {
        *pMod = (CUmodule)library;
    }
    return drv_trace(r, "cuLibraryGetModule", "%p, %p", (void *)pMod,
                     (void *)library);
}

CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes,
                            CUlibrary library, const char *name)
{
    return drv_trace(get_global(dptr, bytes, (CUmodule)library, name),
                     "cuLibraryGetGlobal", "%p, %p, %p, \"%s\"",
                     (void *)dptr, (void *)bytes, (void *)library,
                     name ? name : "(null)");
}

/* A __managed__ variable's address: device memory is host-addressable
 * here, so it is the variable's global address (the statically linked
 * runtime sets the program's host pointer to it). */
CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes,
                             CUlibrary library, const char *name)
{
    return drv_trace(get_global(dptr, bytes, (CUmodule)library, name),
                     "cuLibraryGetManaged", "%p, %p, %p, \"%s\"",
                     (void *)dptr, (void *)bytes, (void *)library,
                     name ? name : "(null)");
}

CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !pFunc ? CUDA_ERROR_INVALID_VALUE
                 : !drv_handle_valid(DRV_FUNC, kernel)
                 ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
    if (!r) {
        *pFunc = (CUfunction)kernel;
    }
    return drv_trace(r, "cuKernelGetFunction", "%p, %p", (void *)pFunc,
                     (void *)kernel);
}

/* ------------------------------------------------------------ attributes */

/* The emulator has no register allocator: report what ptxas would
 * plausibly allocate, the register-pressure estimate of emu/regest.h,
 * so that occupancy figures stay those of a real kernel. */
static int num_regs(const ptxemu_function_info *fi)
{
    return (int)fi->regs;
}

size_t drv_static_smem(CUfunction f)
{
    ptxemu_function_info fi;
    ptxemu_function_get_info(f->pf, &fi);
    return fi.shared_bytes;
}

static int max_dyn_smem(CUfunction f)
{
    if (f->max_dyn_smem >= 0) {
        return f->max_dyn_smem;
    }
    size_t st = drv_static_smem(f);
    return st >= DRV_SMEM_STATIC_MAX ? 0
                                     : (int)(DRV_SMEM_STATIC_MAX - st);
}

CUresult drv_func_attr(int *pi, CUfunction_attribute a, CUfunction f)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!pi) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!drv_handle_valid(DRV_FUNC, f)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    ptxemu_function_info fi;
    ptxemu_function_get_info(f->pf, &fi);
    int v;
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
        v = fi.max_threads && fi.max_threads < 1024 ? (int)fi.max_threads
                                                    : 1024;
        break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: v = (int)fi.shared_bytes; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: v = 0; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: v = (int)fi.local_bytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: v = num_regs(&fi); break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: v = (int)drv.gpu.arch; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        v = max_dyn_smem(f);
        break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        v = f->carveout;
        break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        v = 0;
        break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pi = v;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
                            CUfunction hfunc)
{
    return drv_trace(drv_func_attr(pi, attrib, hfunc), "cuFuncGetAttribute",
                     "%p, %d, %p", (void *)pi, (int)attrib, (void *)hfunc);
}

CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib,
                              CUkernel kernel, CUdevice dev)
{
    CUresult r = dev != 0 ? CUDA_ERROR_INVALID_DEVICE
                          : drv_func_attr(pi, attrib, (CUfunction)kernel);
    return drv_trace(r, "cuKernelGetAttribute", "%p, %d, %p, %d",
                     (void *)pi, (int)attrib, (void *)kernel, dev);
}

static CUresult func_set_attr(CUfunction f, CUfunction_attribute a, int v)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!drv_handle_valid(DRV_FUNC, f)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        if (v < 0 || (size_t)v + drv_static_smem(f) > drv.gpu.smem_optin) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        f->max_dyn_smem = v;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        if (v < -1 || v > 100) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        f->carveout = v;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
        return v == 0 ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
    default:
        return CUDA_ERROR_INVALID_VALUE;        /* read-only */
    }
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib,
                            int value)
{
    return drv_trace(func_set_attr(hfunc, attrib, value),
                     "cuFuncSetAttribute", "%p, %d, %d", (void *)hfunc,
                     (int)attrib, value);
}

CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val,
                              CUkernel kernel, CUdevice dev)
{
    CUresult r = dev != 0 ? CUDA_ERROR_INVALID_DEVICE
                          : func_set_attr((CUfunction)kernel, attrib, val);
    return drv_trace(r, "cuKernelSetAttribute", "%d, %d, %p, %d",
                     (int)attrib, val, (void *)kernel, dev);
}

CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !drv_handle_valid(DRV_FUNC, hfunc)
                 ? CUDA_ERROR_INVALID_HANDLE
                 : (unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL
                 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    if (!r) {
        hfunc->cache = config;
    }
    return drv_trace(r, "cuFuncSetCacheConfig", "%p, %d", (void *)hfunc,
                     (int)config);
}

CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !drv_handle_valid(DRV_FUNC, hfunc)
                 ? CUDA_ERROR_INVALID_HANDLE
                 : (unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE
                 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    return drv_trace(r, "cuFuncSetSharedMemConfig", "%p, %d", (void *)hfunc,
                     (int)config);
}

CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !hmod ? CUDA_ERROR_INVALID_VALUE
                 : !drv_handle_valid(DRV_FUNC, hfunc)
                 ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
    if (!r) {
        *hmod = hfunc->mod;
    }
    return drv_trace(r, "cuFuncGetModule", "%p, %p", (void *)hmod,
                     (void *)hfunc);
}

static CUresult func_name(const char **name, CUfunction f)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!name) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!drv_handle_valid(DRV_FUNC, f)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    *name = ptxemu_function_name(f->pf);
    return CUDA_SUCCESS;
}

CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    return drv_trace(func_name(name, hfunc), "cuFuncGetName", "%p, %p",
                     (void *)name, (void *)hfunc);
}

CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
    return drv_trace(func_name(name, (CUfunction)hfunc), "cuKernelGetName",
                     "%p, %p", (void *)name, (void *)hfunc);
}

CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex,
                            size_t *paramOffset, size_t *paramSize)
{
    ptxemu_param_info pi;
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !drv_handle_valid(DRV_FUNC, func)
                 ? CUDA_ERROR_INVALID_HANDLE
                 : paramIndex > ~0u || ptxemu_function_param(
                       func->pf, (unsigned)paramIndex, &pi)
                 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    if (!r) {
        if (paramOffset) {
            *paramOffset = pi.offset;
        }
        if (paramSize) {
            *paramSize = pi.size;
        }
    }
    return drv_trace(r, "cuFuncGetParamInfo", "%p, %zu, %p, %p",
                     (void *)func, paramIndex, (void *)paramOffset,
                     (void *)paramSize);
}

CUresult cuFuncIsLoaded(int *state, CUfunction function)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !state ? CUDA_ERROR_INVALID_VALUE
                 : !drv_handle_valid(DRV_FUNC, function)
                 ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
    if (!r) {
        *state = 1;                 /* CU_FUNCTION_LOADING_STATE_LOADED */
    }
    return drv_trace(r, "cuFuncIsLoaded", "%p, %p", (void *)state,
                     (void *)function);
}

CUresult cuFuncLoad(CUfunction function)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !drv_handle_valid(DRV_FUNC, function)
                 ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
    return drv_trace(r, "cuFuncLoad", "%p", (void *)function);
}

/* ------------------------------------------------------------ kernels */

CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !pLib ? CUDA_ERROR_INVALID_VALUE
                 : !drv_handle_valid(DRV_FUNC, kernel)
                 ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
    if (!r) {
        *pLib = (CUlibrary)((CUfunction)kernel)->mod;
    }
    return drv_trace(r, "cuKernelGetLibrary", "%p, %p", (void *)pLib,
                     (void *)kernel);
}

CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex,
                              size_t *paramOffset, size_t *paramSize)
{
    return cuFuncGetParamInfo((CUfunction)kernel, paramIndex, paramOffset,
                              paramSize);
}

CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config,
                                CUdevice dev)
{
    return dev != 0 ? drv_trace(CUDA_ERROR_INVALID_DEVICE,
                                "cuKernelSetCacheConfig", "%p, %d, %d",
                                (void *)kernel, (int)config, dev)
                    : cuFuncSetCacheConfig((CUfunction)kernel, config);
}

CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
    return cuModuleGetFunctionCount(count, (CUmodule)lib);
}

CUresult cuLibraryEnumerateKernels(CUkernel *kernels,
                                   unsigned int numKernels, CUlibrary lib)
{
    return cuModuleEnumerateFunctions((CUfunction *)kernels, numKernels,
                                      (CUmodule)lib);
}
