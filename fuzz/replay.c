/*
 * fuzz/replay.c: runs a fuzz target's LLVMFuzzerTestOneInput over files
 * without libFuzzer, so that the committed corpora are replayed by
 * `make check` with any compiler (tests/fuzz_replay.test).
 *
 * Usage: replay [--seconds N] FILE|DIR...   Each regular file (a
 * directory's, not recursively) is one input.  Stops, still exiting 0,
 * when N seconds have passed (0: no limit), saying how many it ran.
 * Exit 1 on an unreadable argument; a crash is the target's.
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static unsigned ran;
static double deadline;

/* Inputs above this are not fuzz inputs (libFuzzer's default -max_len
 * is 4096 bytes; the committed ones are far below this). */
#define REPLAY_MAX_INPUT ((size_t)16 << 20)

/* One input; 1 when the time is up. */
static int run_file(const char *path)
{
    struct stat st;
    FILE *f = fopen(path, "rb");
    if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
        (unsigned long long)st.st_size > REPLAY_MAX_INPUT) {
        fprintf(stderr, "replay: %s: not a regular file of at most %zu "
                "bytes\n", path, REPLAY_MAX_INPUT);
        exit(1);
    }
    /* Exactly the file's bytes, as libFuzzer hands them over. */
    size_t len = (size_t)st.st_size;
    uint8_t *data = malloc(len ? len : 1);
    if (!data || fread(data, 1, len, f) != len) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    ran++;
    return deadline > 0 && seconds_now() > deadline;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's files in name order (a stable replay). */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open %s\n", dir);
        exit(1);
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') {
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names) {
                exit(1);
            }
        }
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        if (!names[n]) {
            exit(1);
        }
        snprintf(names[n++], l, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    int stop = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (!stop && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            stop = run_file(names[i]);
        }
        free(names[i]);
    }
    free(names);
    return stop;
}

int main(int argc, char **argv)
{
    int i = 1;
    if (argc > 2 && strcmp(argv[1], "--seconds") == 0) {
        double s = atof(argv[2]);
        deadline = s > 0 ? seconds_now() + s : 0;
        i = 3;
    }
    int stop = 0;
    for (; i < argc && !stop; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: cannot open %s\n", argv[i]);
            return 1;
        }
        stop = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
    }
    printf("replay: %u inputs%s\n", ran, stop ? " (time limit reached)" : "");
    return 0;
}
