/*
 * runtime/cuda/drv_sanitize.c: the checker of `ptxemu sanitize`, chosen
 * by environment variables that runtime/cmd_sanitize.c sets:
 *   PTXEMU_SANITIZE=memcheck          the tool (only memcheck today)
 *   PTXEMU_SANITIZE_LOG=FILE          reports there instead of stderr
 *   PTXEMU_SANITIZE_PRINT_LIMIT=N     at most N errors printed
 *   PTXEMU_SANITIZE_LEAK_CHECK=full   report allocations live at exit
 *   PTXEMU_SANITIZE_ERROR_EXITCODE=N  exit status N when errors were found
 * Started at cuInit, finished at process exit (drv_at_exit), where the
 * error summary is printed and, with errors and an exit code, the
 * process ends with that status (compute-sanitizer's --error-exitcode).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/memcheck.h"
#include "runtime/api_emu.h"
#include "runtime/cuda/drv.h"

static SanMemcheck *memcheck;
static FILE *log_fp;

static void on_fault(void *ctx, const EmuFault *f)
{
    san_memcheck_fault(ctx, f);
}

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

void drv_sanitize_init(void)
{
    const char *tool = getenv("PTXEMU_SANITIZE");
    if (!tool || !*tool) {
        return;
    }
    if (strcmp(tool, "memcheck") != 0) {
        fprintf(stderr, "ptxemu: PTXEMU_SANITIZE=%s: unknown tool "
                "(memcheck)\n", tool);
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
    memcheck = san_memcheck_new(rt_device_emu(drv.dev), log_fp,
                                env_ulong("PTXEMU_SANITIZE_PRINT_LIMIT", 0));
    if (!memcheck) {
        fprintf(stderr, "ptxemu: cannot start memcheck\n");
        return;
    }
    rt_set_fault_hook(drv.dev, on_fault, memcheck);
}

void drv_sanitize_exit(void)
{
    if (!memcheck) {
        return;
    }
    const char *leak = getenv("PTXEMU_SANITIZE_LEAK_CHECK");
    san_memcheck_finish(memcheck, leak && !strcmp(leak, "full"));
    uint64_t errors = san_memcheck_errors(memcheck);
    rt_set_fault_hook(drv.dev, NULL, NULL);
    san_memcheck_free(memcheck);
    memcheck = NULL;
    if (log_fp != stderr) {
        fclose(log_fp);
    }
    unsigned long code = env_ulong("PTXEMU_SANITIZE_ERROR_EXITCODE", 0);
    if (errors && code) {
        fflush(NULL);
        _exit((int)(code & 255));
    }
}
