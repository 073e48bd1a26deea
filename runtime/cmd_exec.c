/*
 * runtime/cmd_exec.c: `ptxemu exec [options] -- PROG [ARGS]`, an
 * unmodified CUDA program run on the emulator.
 *
 * Nothing is emulated here: the program's own dynamic loader does the
 * work.  We put the directory of our drop-in libcudart.so.13 and
 * libcuda.so.1 first on LD_LIBRARY_PATH (a program linked with
 * -cudart shared finds our runtime there; one with nvcc's default static
 * runtime dlopens libcuda.so.1 by name, which the same path resolves,
 * but then asks the driver for private interfaces, cuGetExportTable,
 * that our libcuda does not provide),
 * turn the emulator options into the PTXEMU_* variables the drop-ins
 * read (runtime/envopts.h), and exec the program in place of ourselves
 * so that its exit status and signals reach the caller unchanged.
 *
 * Exit status when the program cannot be started: 2 bad usage or a bad
 * option value, 1 no drop-in libraries found, 127 program not found,
 * 126 found but not executable (the shell's conventions).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/envopts.h"
#include "runtime/exec_paths.h"
#include "timing/tm.h"

int cmd_exec(int argc, char **argv);
void sanitize_env_help(FILE *out);   /* runtime/cmd_sanitize.c */

/* The file whose presence marks a drop-in directory. */
#define DROPIN_MARK "libcudart.so.13"

static void exec_error(const char *fmt, ...)
{
    va_list ap;
    fputs("ptxemu exec: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* The build tree's libtool output directory next to the running binary
 * (the `.libs` beside ./ptxemu), written to buf; false when the binary's
 * path cannot be read. */
static bool build_libs_dir(char *buf, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        return false;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) {
        return false;
    }
    *slash = '\0';
    int w = snprintf(buf, len, "%s/.libs", exe);
    return w > 0 && (size_t)w < len;
}

static bool holds_dropins(const char *dir)
{
    char path[PATH_MAX];
    int w = snprintf(path, sizeof path, "%s/" DROPIN_MARK, dir);
    return w > 0 && (size_t)w < sizeof path && access(path, R_OK) == 0;
}

/* The build tree's drop-ins win over installed ones, so that a freshly
 * built ptxemu never runs programs against an older installed copy. */
static const char *find_dropins(char *buf, size_t len)
{
    if (build_libs_dir(buf, len) && holds_dropins(buf)) {
        return buf;
    }
    if (holds_dropins(PTXEMU_DROPIN_DIR)) {
        return PTXEMU_DROPIN_DIR;
    }
    return NULL;
}

static void exec_usage(FILE *out)
{
    char libs[PATH_MAX];
    fprintf(out,
        "usage: ptxemu exec [options] -- PROG [ARGS...]\n"
        "\n"
        "Run an unmodified CUDA program on the emulator: PROG finds our\n"
        "libcudart.so.13 and libcuda.so.1 first on LD_LIBRARY_PATH.  Build\n"
        "it with `nvcc -cudart shared` (nvcc's default static runtime needs\n"
        "private driver interfaces the emulator does not provide) or on the\n"
        "driver API alone.  PROG's exit status is ptxemu's.\n"
        "\n"
        "Options (each sets the environment variable shown, which may also\n"
        "be set directly):\n"
        "\n");
    for (const ptxemu_env_option *o = ptxemu_env_options; o->env; o++) {
        char head[128];
        snprintf(head, sizeof head, "%s%s%s", o->flag, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        if (strlen(head) > 28) {    /* the variable on a line of its own */
            fprintf(out, "  %s\n%31s", head, "");
        } else {
            fprintf(out, "  %-28s ", head);
        }
        fprintf(out, "%s%s\n", o->env, o->arg ? "" : "=1");
        tm_print_wrapped(out, o->help, 6);
    }
    fprintf(out,
        "  %-28s PTXEMU_PROGRESS=0\n"
        "      no progress line, even on a terminal\n", "--no-progress");
    fprintf(out,
        "  %-28s the timing model's parameters (name, type,\n"
        "  %-28s default, help), then exit\n", "--timing-help", "");
    fprintf(out,
        "\nSet by `ptxemu sanitize` (see its --help), with its flags:\n");
    sanitize_env_help(out);
    fprintf(out,
        "\n  %-28s this text\n"
        "\n"
        "The drop-in libraries come from the first of these directories\n"
        "that holds " DROPIN_MARK " (the build tree's, then the installed\n"
        "ones):\n", "-h, --help");
    if (build_libs_dir(libs, sizeof libs)) {
        fprintf(out, "  %s%s\n", libs,
                holds_dropins(libs) ? "" : " (none there)");
    }
    fprintf(out, "  %s%s\n", PTXEMU_DROPIN_DIR,
            holds_dropins(PTXEMU_DROPIN_DIR) ? "" : " (none there)");
    fprintf(out,
        "\n"
        "Exit status if PROG does not start: 2 bad usage, 1 no drop-in\n"
        "libraries, 126 PROG not executable, 127 PROG not found.\n");
}

/* Sets the variable of option `arg` ("--arch", "--arch=sm_90" or a
 * switch); the value may be the next word, in which case *i advances.
 * *seen: the options (bit = row of ptxemu_env_options) given so far.
 * Returns 0, or the exit status after reporting the error. */
static int take_option(int argc, char **argv, int *i, unsigned *seen)
{
    const char *arg = argv[*i];
    char flag[64];
    const char *eq = strchr(arg, '=');
    size_t flen = eq ? (size_t)(eq - arg) : strlen(arg);
    if (flen >= sizeof flag) {
        exec_error("unknown option '%s' (see ptxemu exec --help)", arg);
        return 2;
    }
    memcpy(flag, arg, flen);
    flag[flen] = '\0';
    const ptxemu_env_option *o = ptxemu_env_option_by_flag(flag);
    if (!o) {
        exec_error("unknown option '%s' (see ptxemu exec --help)", flag);
        return 2;
    }
    const char *value;
    if (!o->arg) {
        if (eq) {
            exec_error("%s takes no value", flag);
            return 2;
        }
        value = "1";
    } else if (eq) {
        value = eq + 1;
    } else if (*i + 1 < argc && strcmp(argv[*i + 1], "--") != 0) {
        value = argv[++*i];
    } else {
        exec_error("%s needs a value (%s)", flag, o->arg);
        return 2;
    }
    if (!*value) {
        exec_error("%s needs a value (%s)", flag, o->arg);
        return 2;
    }
    /* A repeatable option given again adds to what it set before. */
    char *joined = NULL;
    const char *old = getenv(o->env);
    if (o->repeat && (*seen & (1u << (o - ptxemu_env_options))) && old) {
        size_t n = strlen(old) + strlen(value) + 2;
        if (!(joined = malloc(n))) {
            exec_error("out of memory");
            return 1;
        }
        snprintf(joined, n, "%s;%s", old, value);
        value = joined;
    }
    *seen |= 1u << (o - ptxemu_env_options);
    int rc = setenv(o->env, value, 1);
    free(joined);
    if (rc != 0) {
        exec_error("cannot set %s: %s", o->env, strerror(errno));
        return 1;
    }
    return 0;
}

/* The values the driver would reject at cuInit are reported now, while
 * the user is still looking at the command line. */
static int check_values(void)
{
    ptxemu_device_options opts;
    unsigned arch;
    char err[1024];
    ptxemu_device_options_default(&opts);
    if (ptxemu_env_device_options(&opts, &arch, err, sizeof err) != 0) {
        exec_error("%s", err);
        return 2;
    }
    /* A timing model that cannot load, or a bad timing parameter, is
     * refused now, not at cuInit: open it as the driver will. */
    int rc = 0;
    bool timed = opts.timing && *opts.timing && strcmp(opts.timing, "none");
    if (opts.stats_interval && !timed) {
        exec_error("--stats-interval needs a timing model (--timing NAME)");
        rc = 2;
    } else if (timed) {
        ptxemu_device *dev;
        if (ptxemu_device_create(&opts, &dev) != PTXEMU_SUCCESS) {
            exec_error("%s", *ptxemu_device_create_error()
                                 ? ptxemu_device_create_error()
                                 : "cannot create the device");
            rc = 2;
        } else {
            ptxemu_device_destroy(dev);
        }
    }
    ptxemu_env_device_options_fini(&opts);
    return rc;
}

/* --timing-help: the model named by PTXEMU_TIMING, with the
 * configuration and overrides of PTXEMU_TIMING_CONFIG / _SET (after the
 * options). */
static int timing_help(void)
{
    ptxemu_device_options opts;
    unsigned arch;
    char err[1024];
    ptxemu_device_options_default(&opts);
    if (ptxemu_env_device_options(&opts, &arch, err, sizeof err) != 0) {
        exec_error("%s", err);
        return 2;
    }
    int rc = 0;
    if (!opts.timing || !*opts.timing || !strcmp(opts.timing, "none")) {
        exec_error("--timing-help needs --timing NAME|PATH.so");
        rc = 2;
    } else {
        char *text = ptxemu_timing_help_options(&opts, err, sizeof err);
        if (!text) {
            exec_error("%s", err);
            rc = 1;
        } else {
            fputs(text, stdout);
            free(text);
        }
    }
    ptxemu_env_device_options_fini(&opts);
    return rc;
}

static int prepend_library_path(const char *dir)
{
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *path = malloc(n);
    if (!path) {
        exec_error("out of memory");
        return 1;
    }
    if (old && *old) {
        snprintf(path, n, "%s:%s", dir, old);
    } else {
        snprintf(path, n, "%s", dir);
    }
    int rc = setenv("LD_LIBRARY_PATH", path, 1);
    free(path);
    if (rc != 0) {
        exec_error("cannot set LD_LIBRARY_PATH: %s", strerror(errno));
        return 1;
    }
    return 0;
}

int cmd_exec(int argc, char **argv)
{
    int i = 1;
    unsigned seen = 0;
    bool help_timing = false;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            exec_usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--timing-help")) {
            help_timing = true;
            continue;
        }
        if (!strcmp(argv[i], "--no-progress")) {
            if (setenv("PTXEMU_PROGRESS", "0", 1) != 0) {
                exec_error("cannot set PTXEMU_PROGRESS: %s", strerror(errno));
                return 1;
            }
            continue;
        }
        if (argv[i][0] != '-') {
            exec_error("'%s' is not an option; the program comes after "
                       "'--': ptxemu exec [options] -- PROG [ARGS...]",
                       argv[i]);
            return 2;
        }
        int rc = take_option(argc, argv, &i, &seen);
        if (rc) {
            return rc;
        }
    }
    if (help_timing) {
        return timing_help();
    }
    if (i >= argc) {
        exec_error("missing '--' before the program: ptxemu exec "
                   "[options] -- PROG [ARGS...]");
        return 2;
    }
    if (i + 1 >= argc || !*argv[i + 1]) {
        exec_error("no program after '--': ptxemu exec [options] -- PROG "
                   "[ARGS...]");
        return 2;
    }
    int rc = check_values();
    if (rc) {
        return rc;
    }
    char buf[PATH_MAX];
    const char *dir = find_dropins(buf, sizeof buf);
    if (!dir) {
        exec_error("no CUDA drop-in libraries (" DROPIN_MARK ") in the "
                   "build tree beside this ptxemu nor in %s; run 'make' "
                   "or 'make install'", PTXEMU_DROPIN_DIR);
        return 1;
    }
    if ((rc = prepend_library_path(dir))) {
        return rc;
    }
    char **prog = argv + i + 1;
    fflush(NULL);
    execvp(prog[0], prog);
    int e = errno;
    exec_error("cannot run '%s': %s", prog[0], strerror(e));
    return e == ENOENT || e == ENOTDIR ? 127 : 126;
}
