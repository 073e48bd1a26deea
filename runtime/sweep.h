/*
 * runtime/sweep.h: `ptxemu sweep`, many configurations x many programs.
 *
 * Two list files name what to run.  Each line is NAME followed by words
 * (blank-separated; double quotes keep blanks; '#' starts a comment):
 *  - configurations: NAME OPTION...   e.g. `a100 --timing simple`
 *  - commands:       NAME SUBCOMMAND ARG...  SUBCOMMAND is run, exec or
 *                    sanitize, e.g. `vecadd exec -- ./vecadd`.
 * Run (c, k), index c * ncommands + k, is
 *     ptxemu SUBCOMMAND --stats FILE  OPTION...  ARG...
 * in the caller's directory, its output in OUT/runs/C__K/ (stdout,
 * stderr, status, stats.json).  Runs go to a local pool of processes or
 * to a Slurm job array whose tasks run `ptxemu sweep --run-one INDEX`;
 * then every run's statistics are merged into OUT/summary.csv.
 *
 * Files: sweep_spec.c (the list files), sweep_merge.c (statistics ->
 * CSV), cmd_sweep.c (the command, the local pool, Slurm).
 */
#ifndef PTXEMU_RUNTIME_SWEEP_H
#define PTXEMU_RUNTIME_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct SweepItem {
    char *name;          /* [A-Za-z0-9_.-]+ */
    char **argv;         /* the words after the name, NULL-terminated */
    int argc;
    int line;            /* in its file */
} SweepItem;

typedef struct SweepList {
    SweepItem *v;
    size_t n;
    const char *path;    /* not owned */
} SweepList;

/* Read a list file (at most 1 MiB, 4096 items).  commands: the second
 * word must be a subcommand (run, exec, sanitize).  Names are unique.
 * 0, or -1 with "FILE:LINE: message" in err. */
int sweep_list_read(const char *path, int commands, SweepList *out,
                    char *err, size_t errlen);
void sweep_list_free(SweepList *l);

/* Run (c, k)'s directory name: "C__K". */
void sweep_run_name(const SweepItem *c, const SweepItem *k, char *buf,
                    size_t len);

/* Merge OUT/runs/<run>/{status,stats.json} of every run into CSV on out:
 * config,command,exit,wall_s, then every numeric statistic any run
 * reported, as a dotted path (nested objects flattened; the model's
 * counters of every timed kernel summed as timing.model.NAME), in the
 * order first seen; a run without a value leaves its cell empty.
 * *timed: whether some run reported timing.cycles (a timed run).
 * 0, or -1 with a message in err. */
int sweep_merge(const char *outdir, const SweepList *cfg,
                const SweepList *cmd, FILE *out, bool *timed, char *err,
                size_t errlen);

/* A message into err[len] (nothing when err is NULL). */
void sweep_seterr(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The command: `ptxemu sweep ...` (argv[0] is "sweep"). */
int cmd_sweep(int argc, char **argv);

#endif
