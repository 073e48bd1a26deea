/*
 * runtime/cudart/rt_register.c: what nvcc's generated host code
 * registers at program start (crt/host_runtime.h names the entry
 * points): the fat binary of each translation unit, its kernels by host
 * stub and its variables by host shadow.
 *
 * Device code is loaded lazily, as CUDA's default lazy module loading
 * does: the first launch, symbol access or managed-variable access of a
 * binary loads its module into the current device's primary context.
 * A program whose device code we cannot run thus still starts, and fails
 * only where it needs that code.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"
#include "runtime/fatbin/fatbin.h"

typedef struct rt_binary rt_binary;
typedef struct rt_var rt_var;

struct rt_binary {
    const void *image;          /* the __fatBinC_Wrapper_t */
    CUmodule mod;
    int loaded;                 /* 1: mod valid; -1: loading failed */
    cudaError_t load_error;
    rt_var *vars;               /* registered variables */
    rt_func *funcs;
    rt_binary *next;
};

struct rt_func {
    rt_binary *bin;
    const void *host;           /* host stub */
    char *name;                 /* the .entry's name */
    CUfunction fn;
    rt_func *next;              /* in bin->funcs */
};

struct rt_var {
    rt_binary *bin;
    const void *host;           /* host shadow */
    char *name;
    size_t size;
    void **managed_ptr;         /* __managed__: the host pointer to set */
    CUdeviceptr addr;           /* once resolved */
    rt_var *next;               /* in bin->vars */
};

/* One pointer-keyed table: host stubs, kernel handles and host shadows
 * (and managed addresses) all lead to their entry. */
typedef struct rt_entry {
    const void *key;
    void *val;                  /* rt_func or rt_var */
    int is_var;
    struct rt_entry *next;
} rt_entry;

#define RT_BUCKETS 1024u

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_entry *table[RT_BUCKETS];
static rt_binary *binaries;

static unsigned bucket(const void *key)
{
    uintptr_t k = (uintptr_t)key;
    k ^= k >> 17;
    k *= UINT64_C(0x9e3779b97f4a7c15);
    return (unsigned)(k >> 40) % RT_BUCKETS;
}

/* reg_lock held. */
static void table_put(const void *key, void *val, int is_var)
{
    unsigned b = bucket(key);
    for (rt_entry *e = table[b]; e; e = e->next)
        if (e->key == key && e->is_var == is_var) {
            e->val = val;           /* registered again: the last wins */
            return;
        }
    rt_entry *e = malloc(sizeof *e);
    if (!e)
        return;                 /* the lookup will report it missing */
    e->key = key;
    e->val = val;
    e->is_var = is_var;
    e->next = table[b];
    table[b] = e;
}

/* reg_lock held. */
static void *table_get(const void *key, int is_var)
{
    for (rt_entry *e = table[bucket(key)]; e; e = e->next)
        if (e->key == key && e->is_var == is_var)
            return e->val;
    return NULL;
}

/* reg_lock held: drops every entry pointing to val. */
static void table_drop(void *val)
{
    for (unsigned b = 0; b < RT_BUCKETS; b++) {
        rt_entry **pp = &table[b];
        while (*pp) {
            if ((*pp)->val == val) {
                rt_entry *dead = *pp;
                *pp = dead->next;
                free(dead);
            } else {
                pp = &(*pp)->next;
            }
        }
    }
}

static char *dup_name(const char *s)
{
    return s ? strdup(s) : NULL;
}

RT_API void **__cudaRegisterFatBinary(void *fatCubin)
{
    rt_binary *bin = calloc(1, sizeof *bin);
    if (!bin) {
        fputs("ptxemu: out of memory registering device code\n", stderr);
        return NULL;
    }
    bin->image = fatCubin;
    pthread_mutex_lock(&reg_lock);
    bin->next = binaries;
    binaries = bin;
    pthread_mutex_unlock(&reg_lock);
    /* The handle is opaque to the program: it only passes it back. */
    return (void **)bin;
}

RT_API void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;               /* loading waits for the first use */
}

/* After cudaDeviceReset: the driver has unloaded the modules, so every
 * binary loads again at its next use (and its managed variables get new
 * addresses). */
void rt_register_reset(void)
{
    pthread_mutex_lock(&reg_lock);
    for (rt_binary *bin = binaries; bin; bin = bin->next) {
        bin->loaded = 0;
        bin->mod = NULL;
        for (rt_func *f = bin->funcs; f; f = f->next)
            f->fn = NULL;
        for (rt_var *v = bin->vars; v; v = v->next)
            v->addr = 0;
    }
    pthread_mutex_unlock(&reg_lock);
}

RT_API void __cudaUnregisterFatBinary(void **handle)
{
    rt_binary *bin = (rt_binary *)handle;
    if (!bin)
        return;
    pthread_mutex_lock(&reg_lock);
    for (rt_binary **pp = &binaries; *pp; pp = &(*pp)->next)
        if (*pp == bin) {
            *pp = bin->next;
            break;
        }
    while (bin->funcs) {
        rt_func *f = bin->funcs;
        bin->funcs = f->next;
        table_drop(f);
        free(f->name);
        free(f);
    }
    while (bin->vars) {
        rt_var *v = bin->vars;
        bin->vars = v->next;
        table_drop(v);
        free(v->name);
        free(v);
    }
    pthread_mutex_unlock(&reg_lock);
    if (bin->loaded == 1)
        (void)cuModuleUnload(bin->mod);
    free(bin);
}

RT_API void __cudaRegisterFunction(void **handle, const char *hostFun,
                                   char *deviceFun, const char *deviceName,
                                   int thread_limit, uint3 *tid, uint3 *bid,
                                   dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceName; (void)thread_limit; (void)tid; (void)bid;
    (void)bDim; (void)gDim; (void)wSize;
    rt_binary *bin = (rt_binary *)handle;
    rt_func *f = calloc(1, sizeof *f);
    if (!bin || !f || !(f->name = dup_name(deviceFun))) {
        free(f);
        return;
    }
    f->bin = bin;
    f->host = hostFun;
    pthread_mutex_lock(&reg_lock);
    f->next = bin->funcs;
    bin->funcs = f;
    table_put(hostFun, f, 0);
    table_put(f, f, 0);         /* the cudaKernel_t handle */
    pthread_mutex_unlock(&reg_lock);
}

static void register_var(void **handle, const void *host, void **managed,
                         const char *name, size_t size)
{
    rt_binary *bin = (rt_binary *)handle;
    rt_var *v = calloc(1, sizeof *v);
    if (!bin || !v || !(v->name = dup_name(name))) {
        free(v);
        return;
    }
    v->bin = bin;
    v->host = host;
    v->size = size;
    v->managed_ptr = managed;
    pthread_mutex_lock(&reg_lock);
    v->next = bin->vars;
    bin->vars = v;
    table_put(host, v, 1);
    pthread_mutex_unlock(&reg_lock);
}

RT_API void __cudaRegisterVar(void **handle, char *hostVar,
                              char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global)
{
    (void)deviceName; (void)ext; (void)constant; (void)global;
    register_var(handle, hostVar, NULL, deviceAddress, size);
}

RT_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                                     char *deviceAddress,
                                     const char *deviceName, int ext,
                                     size_t size, int constant, int global)
{
    (void)deviceName; (void)ext; (void)constant; (void)global;
    register_var(handle, hostVarPtrAddress, hostVarPtrAddress,
                 deviceAddress, size);
}

/* Host variables (__host__ __device__ shared with the device through
 * the driver's host-variable mechanism) have no use on the emulator. */
RT_API void __cudaRegisterHostVar(void **handle, const char *deviceName,
                                  char *hostVar, size_t size)
{
    (void)handle; (void)deviceName; (void)hostVar; (void)size;
}

/* reg_lock held; the current thread has the context.  Loads bin and
 * resolves its managed variables: their host pointers become the
 * managed addresses (the device address is a host pointer here), and
 * those addresses are keys too, as programs take &var of them. */
static cudaError_t load_locked(rt_binary *bin)
{
    if (bin->loaded == 1)
        return cudaSuccess;
    if (bin->loaded == -1)
        return bin->load_error;
    /* The wrapper as registered: the driver's reader validates it and
     * whatever it points to (a container, or PTX text registered by
     * hand) within readable memory. */
    CUresult r = cuModuleLoadData(&bin->mod, bin->image);
    if (r != CUDA_SUCCESS) {
        bin->loaded = -1;
        bin->load_error = rt_map(r);
        fprintf(stderr, "ptxemu: cannot load the program's device code: "
                "%s\n", cudaGetErrorString(bin->load_error));
        return bin->load_error;
    }
    bin->loaded = 1;
    for (rt_var *v = bin->vars; v; v = v->next) {
        if (!v->managed_ptr)
            continue;
        size_t size;
        if (cuModuleGetGlobal_v2(&v->addr, &size, bin->mod, v->name)
            != CUDA_SUCCESS)
            continue;
        *v->managed_ptr = (void *)(uintptr_t)v->addr;
        table_put((const void *)(uintptr_t)v->addr, v, 1);
    }
    return cudaSuccess;
}

static cudaError_t load(rt_binary *bin)
{
    cudaError_t e = rt_ctx();
    if (e != cudaSuccess)
        return e;
    pthread_mutex_lock(&reg_lock);
    e = load_locked(bin);
    pthread_mutex_unlock(&reg_lock);
    return e;
}

/* Called by the host code of a program before its first access to a
 * __managed__ variable; true when the variables are usable. */
RT_API char __cudaInitModule(void **handle)
{
    rt_binary *bin = (rt_binary *)handle;
    return bin && load(bin) == cudaSuccess;
}

rt_func *rt_func_lookup(const void *host)
{
    pthread_mutex_lock(&reg_lock);
    rt_func *f = table_get(host, 0);
    pthread_mutex_unlock(&reg_lock);
    return f;
}

const char *rt_func_name(const rt_func *f)
{
    return f->name;
}

cudaError_t rt_func_get(rt_func *f, CUfunction *out)
{
    cudaError_t e = load(f->bin);
    if (e != cudaSuccess)
        return e;
    pthread_mutex_lock(&reg_lock);
    CUresult r = CUDA_SUCCESS;
    if (!f->fn)
        r = cuModuleGetFunction(&f->fn, f->bin->mod, f->name);
    *out = f->fn;
    pthread_mutex_unlock(&reg_lock);
    /* a kernel that could not be loaded (lazily, alone) */
    return r == CUDA_SUCCESS ? cudaSuccess
           : r == CUDA_ERROR_INVALID_PTX ? cudaErrorInvalidPtx
           : r == CUDA_ERROR_NOT_SUPPORTED ? cudaErrorNotSupported
           : cudaErrorInvalidDeviceFunction;
}

cudaError_t rt_var_get(const void *host, CUdeviceptr *addr, size_t *size)
{
    pthread_mutex_lock(&reg_lock);
    rt_var *v = table_get(host, 1);
    rt_binary *bin = v ? v->bin : NULL;
    pthread_mutex_unlock(&reg_lock);
    if (!v)
        return cudaErrorInvalidSymbol;
    cudaError_t e = load(bin);
    if (e != cudaSuccess)
        return e;
    pthread_mutex_lock(&reg_lock);
    /* Looked up again: the binary may have been unregistered while it
     * was loading. */
    if (!(v = table_get(host, 1))) {
        pthread_mutex_unlock(&reg_lock);
        return cudaErrorInvalidSymbol;
    }
    CUresult r = CUDA_SUCCESS;
    size_t sz = v->size;
    if (!v->addr)
        r = cuModuleGetGlobal_v2(&v->addr, &sz, bin->mod, v->name);
    if (addr)
        *addr = v->addr;
    if (size)
        *size = v->size ? v->size : sz;
    pthread_mutex_unlock(&reg_lock);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidSymbol;
}

/* The handle nvcc's launch stubs pass to __cudaLaunchKernel: our entry
 * for the kernel itself. */
RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host)
{
    if (!kernel)
        return rt_err(cudaErrorInvalidValue);
    rt_func *f = rt_func_lookup(host);
    *kernel = (cudaKernel_t)f;
    return f ? cudaSuccess : rt_err(cudaErrorInvalidDeviceFunction);
}

RT_API cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *host)
{
    return __cudaGetKernel(kernel, host);
}
