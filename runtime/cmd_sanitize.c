/*
 * runtime/cmd_sanitize.c: `ptxemu sanitize [--tool TOOL[,TOOL]]
 * [--error-exitcode N] [--print-limit N] [--leak-check full|no]
 * [--racecheck-report hazard|analysis] [--format text|json|xml]
 * [--log-file F] [--check-api-errors yes|no]
 * [--synccheck-exited-lanes yes|no] [exec options] -- PROG
 * [ARGS]`: `ptxemu exec` with
 * checkers (runtime/sanitize.h).  The sanitizer's options (compute-sanitizer's names) become
 * the PTXEMU_SANITIZE* variables that the drop-in driver reads
 * (runtime/cuda/drv_sanitize.c); the rest go to cmd_exec unchanged.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/sanitize.h"

int cmd_exec(int argc, char **argv);
int cmd_sanitize(int argc, char **argv);
void sanitize_env_help(FILE *out);

static const struct {
    const char *flag, *env, *arg, *help;
} sopts[] = {
    {"--tool", "PTXEMU_SANITIZE", "LIST",
     "checkers: memcheck,racecheck,initcheck,synccheck"},
    {"--error-exitcode", "PTXEMU_SANITIZE_ERROR_EXITCODE", "N",
     "exit status N when errors were found"},
    {"--print-limit", "PTXEMU_SANITIZE_PRINT_LIMIT", "N",
     "print at most N errors (all counted; 0: all)"},
    {"--leak-check", "PTXEMU_SANITIZE_LEAK_CHECK", "full|no",
     "full: report allocations live at exit"},
    {"--racecheck-report", "PTXEMU_SANITIZE_RACECHECK_REPORT",
     "hazard|analysis", "racecheck: each hazard or grouped pairs"},
    {"--format", "PTXEMU_SANITIZE_FORMAT", "text|json|xml",
     "the report: text (default), JSON Lines, XML"},
    {"--log-file", "PTXEMU_SANITIZE_LOG", "FILE",
     "reports to FILE instead of stderr"},
    {"--check-api-errors", "PTXEMU_SANITIZE_CHECK_API_ERRORS", "yes|no",
     "report CUDA API calls that return an error"},
    {"--synccheck-exited-lanes", "PTXEMU_SANITIZE_SYNCCHECK_EXITED_LANES",
     "yes|no", "synccheck: masks naming exited lanes"},
};
#define NSOPTS (sizeof(sopts) / sizeof(sopts[0]))

void sanitize_env_help(FILE *out)
{
    for (size_t k = 0; k < NSOPTS; k++) {
        fprintf(out, "  %-28s %s\n", sopts[k].flag, sopts[k].env);
    }
}

static void usage(FILE *out)
{
    fprintf(out, "usage: ptxemu sanitize [options] [exec options] -- PROG "
            "[ARGS...]\n\nRun PROG as `ptxemu exec` does, with a checker; "
            "reports follow\ncompute-sanitizer's layout and end with "
            "\"ERROR SUMMARY: N errors\".\n\nOptions:\n");
    for (size_t k = 0; k < NSOPTS; k++) {
        char head[64];
        snprintf(head, sizeof head, "%s %s", sopts[k].flag, sopts[k].arg);
        fprintf(out, "  %-28s %s\n", head, sopts[k].help);
    }
    fprintf(out, "\nAny other option is `ptxemu exec`'s (ptxemu exec "
            "--help).\n");
}

static bool valid(size_t k, const char *v)
{
    if (!strcmp(sopts[k].arg, "N")) {
        char *end;
        errno = 0;
        (void)strtoul(v, &end, 10);
        return *v && !*end && !errno && *v != '-';
    }
    if (!strcmp(sopts[k].flag, "--tool")) {
        unsigned mask;
        return rt_sanitize_tools(v, &mask);
    }
    if (!strcmp(sopts[k].flag, "--racecheck-report")) {
        return !strcmp(v, "hazard") || !strcmp(v, "analysis");
    }
    if (!strcmp(sopts[k].flag, "--format")) {
        return !strcmp(v, "text") || !strcmp(v, "json") || !strcmp(v, "xml");
    }
    if (!strcmp(sopts[k].flag, "--check-api-errors") ||
        !strcmp(sopts[k].flag, "--synccheck-exited-lanes")) {
        return !strcmp(v, "yes") || !strcmp(v, "no");
    }
    if (!strcmp(sopts[k].flag, "--leak-check")) {
        return !strcmp(v, "full") || !strcmp(v, "no");
    }
    return *v != '\0';
}

int cmd_sanitize(int argc, char **argv)
{
    char **rest = calloc((size_t)argc + 1, sizeof(*rest));
    if (!rest) {
        fputs("ptxemu sanitize: error: out of memory\n", stderr);
        return 1;
    }
    int n = 0, i = 1;
    rest[n++] = argv[0];
    setenv("PTXEMU_SANITIZE", "memcheck", 1);
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            free(rest);
            return 0;
        }
        size_t k = 0;
        const char *eq = strchr(argv[i], '=');
        size_t flen = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
        while (k < NSOPTS && (strlen(sopts[k].flag) != flen ||
                              strncmp(sopts[k].flag, argv[i], flen))) {
            k++;
        }
        if (k == NSOPTS) {
            rest[n++] = argv[i];      /* an exec option (or its value) */
            continue;
        }
        const char *v = eq ? eq + 1
                        : i + 1 < argc && strcmp(argv[i + 1], "--")
                              ? argv[++i] : NULL;
        if (!v || !valid(k, v)) {
            fprintf(stderr, "ptxemu sanitize: error: %s needs %s\n",
                    sopts[k].flag, sopts[k].arg);
            free(rest);
            return 2;
        }
        setenv(sopts[k].env, v, 1);
    }
    for (; i < argc; i++) {
        rest[n++] = argv[i];
    }
    int rc = cmd_exec(n, rest);       /* returns only when PROG did not
                                         start */
    free(rest);
    return rc;
}
