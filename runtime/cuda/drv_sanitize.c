/*
 * runtime/cuda/drv_sanitize.c: the checkers of `ptxemu sanitize`, chosen
 * by environment variables that runtime/cmd_sanitize.c sets:
 *   PTXEMU_SANITIZE=TOOL[,TOOL]       memcheck, racecheck, initcheck,
 *                                     synccheck (runtime/sanitize.h)
 *   PTXEMU_SANITIZE_LOG=FILE          reports there instead of stderr
 *   PTXEMU_SANITIZE_FORMAT=json|xml   JSON Lines or XML instead of text
 *   PTXEMU_SANITIZE_PRINT_LIMIT=N     at most N errors printed
 *   PTXEMU_SANITIZE_LEAK_CHECK=full   report allocations live at exit
 *   PTXEMU_SANITIZE_RACECHECK_REPORT=analysis  hazards grouped by
 *                                     location pair, at exit
 *   PTXEMU_SANITIZE_ERROR_EXITCODE=N  exit status N when errors were found
 *   PTXEMU_SANITIZE_CHECK_API_ERRORS=yes  report CUDA API calls that
 *                                     return an error: our runtime's
 *                                     through the export table
 *                                     (runtime/sanitize.h), the
 *                                     driver's from drv_trace
 * Started at cuInit, finished at process exit (drv_at_exit), where the
 * error summary is printed and, with errors and an exit code, the
 * process ends with that status (compute-sanitizer's --error-exitcode).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/api_emu.h"
#include "runtime/cuda/drv.h"
#include "runtime/sanitize.h"

static RtSanitize *session;
static FILE *log_fp;
bool drv_sanitize_api;
bool drv_sanitize_memcheck;
/* API errors come from any host thread */
static pthread_mutex_t api_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long env_ulong(const char *name, unsigned long dflt)
{
    const char *v = getenv(name);
    if (!v || !*v) {
        return dflt;
    }
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (errno || *end) {
        fprintf(stderr, "ptxemu: %s=%s: expected a number; ignored\n",
                name, v);
        return dflt;
    }
    return n;
}

static bool env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v && !strcmp(v, value);
}

/* Page-locked host memory (cuMemAllocHost, cuMemHostAlloc): not device
 * memory, so no leak for memcheck (compute-sanitizer's leak check is of
 * device allocations: "Compute Sanitizer User Manual", "Leak
 * Checking"). */
static bool pinned(uint64_t addr)
{
    return drv_handle_valid(DRV_PINNED, (const void *)(uintptr_t)addr);
}

void drv_sanitize_init(void)
{
    const char *tool = getenv("PTXEMU_SANITIZE");
    if (!tool || !*tool) {
        return;
    }
    RtSanOptions o = { 0 };
    if (!rt_sanitize_tools(tool, &o.tools)) {
        fprintf(stderr, "ptxemu: PTXEMU_SANITIZE=%s: unknown tool "
                "(memcheck, racecheck, initcheck, synccheck)\n", tool);
        return;
    }
    const char *log = getenv("PTXEMU_SANITIZE_LOG");
    log_fp = stderr;
    if (log && *log) {
        if (!(log_fp = fopen(log, "w"))) {
            fprintf(stderr, "ptxemu: PTXEMU_SANITIZE_LOG=%s: %s\n", log,
                    strerror(errno));
            log_fp = stderr;
        }
    }
    o.out = log_fp;
    o.json = env_is("PTXEMU_SANITIZE_FORMAT", "json");
    o.xml = env_is("PTXEMU_SANITIZE_FORMAT", "xml");
    o.print_limit = env_ulong("PTXEMU_SANITIZE_PRINT_LIMIT", 0);
    o.leak_check = env_is("PTXEMU_SANITIZE_LEAK_CHECK", "full");
    o.race_analysis = env_is("PTXEMU_SANITIZE_RACECHECK_REPORT", "analysis");
    o.api_errors = env_is("PTXEMU_SANITIZE_CHECK_API_ERRORS", "yes");
    o.exited_lanes = env_is("PTXEMU_SANITIZE_SYNCCHECK_EXITED_LANES", "yes");
    o.not_device = pinned;
    char why[128];
    if (!(session = rt_sanitize_start(drv.dev, &o, why, sizeof(why)))) {
        fprintf(stderr, "ptxemu: sanitize: %s\n", why);
    }
    drv_sanitize_api = session && o.api_errors;
    drv_sanitize_memcheck = session && (o.tools >> RT_SAN_MEMCHECK & 1u);
}

void drv_sanitize_api_error(const char *api, int code, const char *name,
                            const char *text)
{
    pthread_mutex_lock(&api_lock);
    if (session && drv_sanitize_api) {
        rt_sanitize_api_error(session, api, code, name, text);
    }
    pthread_mutex_unlock(&api_lock);
}

/* True when a caller on the stack is in our runtime (a libcudart.so
 * file): it reports the runtime call, which is what the program made. */
static bool from_runtime(void)
{
    void *pc[12];
    int n = backtrace(pc, 12);
    for (int i = 1; i < n; i++) {
        Dl_info di;
        if (dladdr(pc[i], &di) && di.dli_fname &&
            strstr(di.dli_fname, "libcudart.so")) {
            return true;
        }
    }
    return false;
}

void drv_sanitize_driver_error(CUresult r, const char *name)
{
    /* The entry points a runtime probes, expecting refusals
     * (cuGetProcAddress of a newer symbol, private tables), and the
     * private tables' slots, are not the program's calls; "not ready"
     * (cuStreamQuery, cuEventQuery) is a status, not an error (CUDA
     * Driver API, CUresult). */
    static _Thread_local bool busy;   /* cuGetErrorString below */
    if (busy || r == CUDA_ERROR_NOT_READY || !name ||
        strncmp(name, "cu", 2) || name[2] < 'A' || name[2] > 'Z' ||
        !strncmp(name, "cuGetProcAddress", 16) ||
        !strcmp(name, "cuGetExportTable") || from_runtime()) {
        return;
    }
    busy = true;
    const char *text = NULL;
    cuGetErrorString(r, &text);
    drv_sanitize_api_error(name, (int)r, drv_result_name(r), text);
    busy = false;
}

void drv_sanitize_bad_free(CUdeviceptr p)
{
    if (session) {
        rt_sanitize_bad_free(session, (uint64_t)p);
    }
}

void drv_sanitize_exit(void)
{
    if (!session) {
        return;
    }
    pthread_mutex_lock(&api_lock);
    drv_sanitize_api = false;
    uint64_t errors = rt_sanitize_finish(session);
    session = NULL;
    pthread_mutex_unlock(&api_lock);
    if (log_fp != stderr) {
        fclose(log_fp);
    }
    unsigned long code = env_ulong("PTXEMU_SANITIZE_ERROR_EXITCODE", 0);
    if (errors && code) {
        fflush(NULL);
        _exit((int)(code & 255));
    }
}
