/*
 * runtime/cudart/rt_apierr.c: `ptxemu sanitize --check-api-errors yes`
 * for the runtime: a failing call is named and handed to the driver's
 * sanitizer session through our private export table
 * (runtime/sanitize.h, RT_SAN_TABLE_UUID), which reports it as
 * compute-sanitizer does.  Off (nothing but one test per error) unless
 * PTXEMU_SANITIZE and PTXEMU_SANITIZE_CHECK_API_ERRORS=yes are set.
 *
 * The call's name is the runtime entry point on the stack: the nearest
 * frame whose address lies in an exported cuda* function of this
 * library (dladdr finds only exported symbols, and every entry point
 * is one: RT_API).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"
#include "runtime/sanitize.h"

typedef void (*ApiErrorFn)(const char *api, int code, const char *name,
                           const char *text);

static ApiErrorFn report;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const void *self_base;     /* this library's load address */

static void init(void)
{
    const char *tool = getenv("PTXEMU_SANITIZE");
    const char *on = getenv("PTXEMU_SANITIZE_CHECK_API_ERRORS");
    if (!tool || !*tool || !on || strcmp(on, "yes")) {
        return;
    }
    Dl_info di;
    if (!dladdr((const void *)(uintptr_t)rt_api_error, &di)) {
        return;
    }
    self_base = di.dli_fbase;
    static const CUuuid id = { RT_SAN_TABLE_UUID };
    const void *table;
    if (cuGetExportTable(&table, &id) == CUDA_SUCCESS && table) {
        report = (ApiErrorFn)(uintptr_t)((const void *const *)table)[1];
    }
}

/* The runtime entry point on the stack, without the _ptsz/_ptds of the
 * per-thread-default-stream aliases, into buf. */
static const char *api_name(char *buf, size_t n)
{
    void *pc[16];
    int depth = backtrace(pc, 16);
    for (int i = 1; i < depth; i++) {
        Dl_info di;
        if (dladdr(pc[i], &di) && di.dli_fbase == self_base &&
            di.dli_sname && !strncmp(di.dli_sname, "cuda", 4)) {
            snprintf(buf, n, "%s", di.dli_sname);
            char *u = strstr(buf, "_pt");
            if (u && (!strcmp(u, "_ptsz") || !strcmp(u, "_ptds"))) {
                *u = '\0';
            }
            return buf;
        }
    }
    return "?";
}

void rt_api_error(cudaError_t e)
{
    /* cudaErrorNotReady (cudaStreamQuery, cudaEventQuery) "is not
     * actually an error" (CUDA Runtime API, cudaError) */
    if (e == cudaSuccess || e == cudaErrorNotReady) {
        return;
    }
    pthread_once(&once, init);
    if (report) {
        char name[128];
        report(api_name(name, sizeof(name)), (int)e, cudaGetErrorName(e),
               cudaGetErrorString(e));
    }
}
