/*
 * runtime/cuda/drv_sanitize.c: the checkers of `ptxemu sanitize`, chosen
 * by environment variables that runtime/cmd_sanitize.c sets:
 *   PTXEMU_SANITIZE=TOOL[,TOOL]       memcheck, racecheck, initcheck,
 *                                     synccheck (runtime/sanitize.h)
 *   PTXEMU_SANITIZE_LOG=FILE          reports there instead of stderr
 *   PTXEMU_SANITIZE_FORMAT=json       JSON Lines instead of text
 *   PTXEMU_SANITIZE_PRINT_LIMIT=N     at most N errors printed
 *   PTXEMU_SANITIZE_LEAK_CHECK=full   report allocations live at exit
 *   PTXEMU_SANITIZE_RACECHECK_REPORT=analysis  hazards grouped by
 *                                     location pair, at exit
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

#include "runtime/api_emu.h"
#include "runtime/cuda/drv.h"
#include "runtime/sanitize.h"

static RtSanitize *session;
static FILE *log_fp;

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
    o.print_limit = env_ulong("PTXEMU_SANITIZE_PRINT_LIMIT", 0);
    o.leak_check = env_is("PTXEMU_SANITIZE_LEAK_CHECK", "full");
    o.race_analysis = env_is("PTXEMU_SANITIZE_RACECHECK_REPORT", "analysis");
    char why[128];
    if (!(session = rt_sanitize_start(drv.dev, &o, why, sizeof(why)))) {
        fprintf(stderr, "ptxemu: sanitize: %s\n", why);
    }
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
    uint64_t errors = rt_sanitize_finish(session);
    session = NULL;
    if (log_fp != stderr) {
        fclose(log_fp);
    }
    unsigned long code = env_ulong("PTXEMU_SANITIZE_ERROR_EXITCODE", 0);
    if (errors && code) {
        fflush(NULL);
        _exit((int)(code & 255));
    }
}
