/*
 * runtime/cmd_sweep.c: `ptxemu sweep` (the list files, the merge and the
 * naming of runs are in sweep.h).  Runs go to a local pool of processes
 * (--jobs N, default the cores available) or, with --slurm, to a Slurm
 * job array (`sbatch --wait --array=0-N-1`) whose tasks each run
 * `ptxemu sweep --run-one INDEX`; then the statistics are merged into
 * OUT/summary.csv and, where gnuplot is installed, drawn as
 * OUT/summary.png and .svg (simulated cycles per command and
 * configuration).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/gnuplot.h"
#include "runtime/sweep.h"

static void usage(FILE *o)
{
    fprintf(o,
        "usage: ptxemu sweep --configs FILE --commands FILE --out DIR\n"
        "                    [--jobs N] [--slurm [--sbatch-arg ARG]...]\n"
        "                    [--dry-run]\n"
        "       ptxemu sweep --merge --configs FILE --commands FILE --out DIR\n"
        "\n"
        "Runs every command under every configuration and merges their\n"
        "statistics into DIR/summary.csv (one row per run: config, command,\n"
        "exit status, wall seconds, then every numeric statistic).\n"
        "\n"
        "  --configs FILE   lines `NAME OPTION...`: options of run/exec,\n"
        "                   e.g. `a100 --timing simple`\n"
        "  --commands FILE  lines `NAME run|exec|sanitize ARG...`,\n"
        "                   e.g. `vecadd exec -- ./vecadd`\n"
        "  --out DIR        DIR/runs/CONFIG__COMMAND/{stdout,stderr,status,\n"
        "                   stats.json}, DIR/summary.csv (and .png/.svg)\n"
        "  --jobs N         local runs at once (default: the cores)\n"
        "  --slurm          submit a Slurm job array and wait for it\n"
        "  --sbatch-arg ARG one more sbatch option (repeatable)\n"
        "  --dry-run        print the command lines, run nothing\n"
        "  --merge          only merge what DIR/runs holds\n"
        "Blank-separated words; double quotes keep blanks; '#' comments.\n"
        "Runs start in the current directory.\n");
}

typedef struct Sweep {
    SweepList cfg, cmd;
    const char *out;
    char self[PATH_MAX];
} Sweep;

static size_t nruns(const Sweep *s)
{
    return s->cfg.n * s->cmd.n;
}

/* The argv of run r (malloc'd; strings borrowed but for the stats path,
 * which goes in *statsbuf). */
static char **run_argv(const Sweep *s, size_t r, char *statsbuf,
                       size_t len)
{
    const SweepItem *c = &s->cfg.v[r / s->cmd.n], *k = &s->cmd.v[r % s->cmd.n];
    char name[160];
    sweep_run_name(c, k, name, sizeof name);
    char **a = calloc((size_t)(c->argc + k->argc) + 6, sizeof *a);
    if (!a) {
        return NULL;
    }
    int n = 0;
    a[n++] = (char *)s->self;
    a[n++] = k->argv[0];
    if (!strcmp(k->argv[0], "run")) {
        snprintf(statsbuf, len, "--stats=%s/runs/%s/stats.json", s->out,
                 name);
        a[n++] = statsbuf;
    } else {
        snprintf(statsbuf, len, "%s/runs/%s/stats.json", s->out, name);
        a[n++] = "--stats";
        a[n++] = statsbuf;
    }
    for (int i = 0; i < c->argc; i++) {
        a[n++] = c->argv[i];
    }
    for (int i = 1; i < k->argc; i++) {
        a[n++] = k->argv[i];
    }
    a[n] = NULL;
    return a;
}

static int mkdirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST) {
                return -1;
            }
            *p = '/';
        }
    }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Start run r as a child; its pid, or -1. */
static pid_t start(const Sweep *s, size_t r)
{
    const SweepItem *c = &s->cfg.v[r / s->cmd.n], *k = &s->cmd.v[r % s->cmd.n];
    char name[160], dir[PATH_MAX], stats[PATH_MAX + 32];
    sweep_run_name(c, k, name, sizeof name);
    snprintf(dir, sizeof dir, "%s/runs/%s", s->out, name);
    if (mkdirs(dir)) {
        fprintf(stderr, "ptxemu sweep: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    unlink(path); /* a stale file must not pass for this run's */
    char **argv = run_argv(s, r, stats, sizeof stats);
    if (!argv) {
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        snprintf(path, sizeof path, "%s/stdout", dir);
        int fo = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        snprintf(path, sizeof path, "%s/stderr", dir);
        int fe = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        int fi = open("/dev/null", O_RDONLY);
        if (fo < 0 || fe < 0 || fi < 0 || dup2(fo, 1) < 0 ||
            dup2(fe, 2) < 0 || dup2(fi, 0) < 0) {
            _exit(127);
        }
        execv(argv[0], argv);
        dprintf(2, "ptxemu sweep: %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free(argv);
    return pid;
}

static void write_status(const Sweep *s, size_t r, int wstatus, double wall)
{
    char name[160], path[PATH_MAX];
    sweep_run_name(&s->cfg.v[r / s->cmd.n], &s->cmd.v[r % s->cmd.n], name,
                   sizeof name);
    snprintf(path, sizeof path, "%s/runs/%s/status", s->out, name);
    FILE *f = fopen(path, "w");
    if (f) {
        int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
                                      : 128 + WTERMSIG(wstatus);
        fprintf(f, "exit %d wall %.3f\n", code, wall);
        fclose(f);
    }
}

/* Runs [first, last) with at most `jobs` at once; the number that could
 * not start. */
static int run_local(const Sweep *s, size_t first, size_t last, long jobs)
{
    size_t n = last - first, next = first, done = 0;
    pid_t *pid = calloc(n ? n : 1, sizeof *pid);
    double *t0 = calloc(n ? n : 1, sizeof *t0);
    int failed = 0;
    long running = 0;
    if (!pid || !t0) {
        free(pid);
        free(t0);
        return (int)n;
    }
    while (done < n) {
        while (running < jobs && next < last) {
            t0[next - first] = now_s();
            pid[next - first] = start(s, next);
            if (pid[next - first] < 0) {
                failed++;
                done++;
            } else {
                running++;
            }
            next++;
        }
        if (!running) {
            break;
        }
        int ws;
        pid_t p = wait(&ws);
        if (p < 0) {
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (pid[i] == p) {
                write_status(s, first + i, ws, now_s() - t0[i]);
                pid[i] = 0;
                running--;
                done++;
            }
        }
    }
    free(pid);
    free(t0);
    return failed;
}

/* Submit the Slurm array and wait for it: sbatch's exit status. */
static int run_slurm(const Sweep *s, const char *cfgpath,
                     const char *cmdpath, char **extra, int nextra)
{
    char script[PATH_MAX], cwd[PATH_MAX], logs[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {
        return -1;
    }
    snprintf(script, sizeof script, "%s/sweep.sbatch", s->out);
    snprintf(logs, sizeof logs, "%s/runs", s->out);
    if (mkdirs(logs)) {
        return -1;
    }
    FILE *f = fopen(script, "w");
    if (!f) {
        fprintf(stderr, "ptxemu sweep: %s: %s\n", script, strerror(errno));
        return -1;
    }
    /* Each task runs one (config, command) pair: index in
     * SLURM_ARRAY_TASK_ID. */
    fprintf(f, "#!/bin/sh\n#SBATCH --job-name=ptxemu-sweep\n"
               "exec '%s' sweep --run-one \"$SLURM_ARRAY_TASK_ID\" "
               "--configs '%s' --commands '%s' --out '%s'\n",
            s->self, cfgpath, cmdpath, s->out);
    fclose(f);
    char array[64], output[PATH_MAX + 32], chdir_[PATH_MAX + 16];
    snprintf(array, sizeof array, "--array=0-%zu", nruns(s) - 1);
    snprintf(output, sizeof output, "--output=%s/runs/slurm-%%a.out", s->out);
    snprintf(chdir_, sizeof chdir_, "--chdir=%s", cwd);
    char **argv = calloc((size_t)nextra + 8, sizeof *argv);
    if (!argv) {
        return -1;
    }
    int n = 0;
    argv[n++] = "sbatch";
    argv[n++] = "--wait";
    argv[n++] = array;
    argv[n++] = output;
    argv[n++] = chdir_;
    for (int i = 0; i < nextra; i++) {
        argv[n++] = extra[i];
    }
    argv[n++] = script;
    argv[n] = NULL;
    fflush(NULL);
    pid_t p = fork();
    if (p == 0) {
        execvp("sbatch", argv);
        fprintf(stderr, "ptxemu sweep: sbatch: %s\n", strerror(errno));
        _exit(127);
    }
    free(argv);
    int ws;
    if (p < 0 || waitpid(p, &ws, 0) < 0) {
        return -1;
    }
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

/* Simulated cycles (timing.cycles) per command, one bar per
 * configuration, drawn from OUT/summary.gp (kept, so a user can edit and
 * redraw it); gnuplot reads the CSV by column name.  The picture is
 * optional: without gnuplot there is none, silently (and the caller asks
 * for it only when a run was timed). */
static void draw(const char *out, const char *csv)
{
    char script[PATH_MAX];
    snprintf(script, sizeof script, "%s/summary.gp", out);
    FILE *g = fopen(script, "w");
    if (!g) {
        fprintf(stderr, "ptxemu sweep: %s: %s\n", script, strerror(errno));
        return;
    }
    static const char *const term[][2] = {{"pngcairo", "png"},
                                          {"svg", "svg"}};
    fputs("set datafile separator ','\n"
          "set style data histogram\nset style histogram cluster\n"
          "set style fill solid 0.8\nset key autotitle columnhead\n"
          "set ylabel 'simulated cycles'\nset logscale y\n"
          "set xtics rotate by -30\n"
          "set title 'ptxemu sweep: cycles per run'\n", g);
    for (size_t k = 0; k < 2; k++) {
        char pic[PATH_MAX];
        snprintf(pic, sizeof pic, "%s/summary.%s", out, term[k][1]);
        fprintf(g, "set terminal %s size 900,560\nset output ", term[k][0]);
        gp_quote(g, pic);
        fputs("\nplot ", g);
        gp_quote(g, csv);
        fputs(" using 'timing.cycles':xticlabels(stringcolumn(1).'/'."
              "stringcolumn(2)) notitle\nunset output\n", g);
    }
    if (fclose(g) != 0) {
        fprintf(stderr, "ptxemu sweep: %s: %s\n", script, strerror(errno));
        return;
    }
    gp_run("ptxemu sweep", "gnuplot", script, true);
}

/* summary.csv, and its picture when gnuplot is there. */
static int merge(const Sweep *s)
{
    char path[PATH_MAX], err[512];
    snprintf(path, sizeof path, "%s/summary.csv", s->out);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "ptxemu sweep: %s: %s\n", path, strerror(errno));
        return 1;
    }
    bool timed = false;
    int rc = sweep_merge(s->out, &s->cfg, &s->cmd, f, &timed, err,
                         sizeof err);
    if (fclose(f) || rc) {
        fprintf(stderr, "ptxemu sweep: %s\n", rc ? err : strerror(errno));
        return 1;
    }
    if (timed) {
        draw(s->out, path);
    }
    printf("ptxemu sweep: %zu runs, summary in %s\n", nruns(s), path);
    return 0;
}

int cmd_sweep(int argc, char **argv)
{
    const char *cfgpath = NULL, *cmdpath = NULL;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN), one = -1;
    int slurm = 0, dry = 0, only_merge = 0, nextra = 0;
    char **extra = calloc((size_t)argc + 1, sizeof *extra);
    Sweep s = {0};
    int rc = 2;
    if (!extra) {
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            rc = 0;
            goto out;
        } else if (!strcmp(a, "--configs") && more) {
            cfgpath = argv[++i];
        } else if (!strcmp(a, "--commands") && more) {
            cmdpath = argv[++i];
        } else if (!strcmp(a, "--out") && more) {
            s.out = argv[++i];
        } else if (!strcmp(a, "--jobs") && more) {
            char *end;
            jobs = strtol(argv[++i], &end, 10);
            if (*end || jobs < 1 || jobs > 4096) {
                fprintf(stderr, "ptxemu sweep: error: --jobs wants 1..4096\n");
                goto out;
            }
        } else if (!strcmp(a, "--run-one") && more) {
            char *end;
            one = strtol(argv[++i], &end, 10);
            if (*end || one < 0) {
                fprintf(stderr, "ptxemu sweep: error: bad --run-one\n");
                goto out;
            }
        } else if (!strcmp(a, "--slurm")) {
            slurm = 1;
        } else if (!strcmp(a, "--sbatch-arg") && more) {
            extra[nextra++] = argv[++i];
        } else if (!strcmp(a, "--dry-run")) {
            dry = 1;
        } else if (!strcmp(a, "--merge")) {
            only_merge = 1;
        } else {
            fprintf(stderr, "ptxemu sweep: error: unknown option '%s'\n", a);
            usage(stderr);
            goto out;
        }
    }
    if (!cfgpath || !cmdpath || !s.out) {
        fprintf(stderr, "ptxemu sweep: error: --configs, --commands and "
                        "--out are required\n");
        usage(stderr);
        goto out;
    }
    char err[512];
    rc = 1;
    if (sweep_list_read(cfgpath, 0, &s.cfg, err, sizeof err) ||
        sweep_list_read(cmdpath, 1, &s.cmd, err, sizeof err)) {
        fprintf(stderr, "ptxemu sweep: error: %s\n", err);
        goto out;
    }
    ssize_t len = readlink("/proc/self/exe", s.self, sizeof s.self - 1);
    if (len <= 0) {
        fprintf(stderr, "ptxemu sweep: error: cannot find ptxemu itself\n");
        goto out;
    }
    s.self[len] = 0;
    if (dry) {
        for (size_t r = 0; r < nruns(&s); r++) {
            char stats[PATH_MAX + 32];
            char **a = run_argv(&s, r, stats, sizeof stats);
            for (int i = 0; a && a[i]; i++) {
                printf("%s%s", i ? " " : "", a[i]);
            }
            putchar('\n');
            free(a);
        }
        rc = 0;
        goto out;
    }
    if (mkdirs(s.out)) {
        fprintf(stderr, "ptxemu sweep: error: %s: %s\n", s.out,
                strerror(errno));
        goto out;
    }
    if (one >= 0) {
        if ((size_t)one >= nruns(&s)) {
            fprintf(stderr, "ptxemu sweep: error: --run-one %ld: there are "
                            "%zu runs\n", one, nruns(&s));
            goto out;
        }
        rc = run_local(&s, (size_t)one, (size_t)one + 1, 1) ? 1 : 0;
        goto out;
    }
    if (!only_merge) {
        if (slurm) {
            int st = run_slurm(&s, cfgpath, cmdpath, extra, nextra);
            if (st) {
                fprintf(stderr, "ptxemu sweep: error: sbatch failed (%d); "
                                "merging what ran\n", st);
            }
        } else if (run_local(&s, 0, nruns(&s), jobs)) {
            fprintf(stderr, "ptxemu sweep: some runs could not start\n");
        }
    }
    rc = merge(&s);
out:
    free(extra);
    sweep_list_free(&s.cfg);
    sweep_list_free(&s.cmd);
    return rc;
}
