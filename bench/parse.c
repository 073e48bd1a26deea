/*
 * bench/parse.c: front-end throughput.  Parses a PTX file (default: one
 * made by bench/genptx.sh) several times and prints MB/s, instructions/s
 * and the process's peak resident memory relative to the file size.
 *
 *   bench/parse FILE [REPEATS]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "ptx/ptx.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench/parse FILE [REPEATS]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (reps < 1) {
        reps = 1;
    }
    struct stat st;
    if (stat(argv[1], &st) != 0) {
        perror(argv[1]);
        return 1;
    }
    double mb = (double)st.st_size / (1024.0 * 1024.0);
    double best = 1e30;
    unsigned long long insns = 0, funcs = 0;
    for (int r = 0; r < reps; r++) {
        PtxDiag d;
        double t0 = now();
        IrModule *m = ptx_parse_file(argv[1], &d, stderr);
        double t = now() - t0;
        if (!m) {
            fprintf(stderr, "bench/parse: %s does not parse\n", argv[1]);
            ptx_diag_fini(&d);
            return 1;
        }
        insns = 0;
        funcs = m->nfuncs;
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            insns += m->funcs[i]->ninsns;
        }
        ptx_module_free(m);
        ptx_diag_fini(&d);
        if (t < best) {
            best = t;
        }
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double peak_mb = (double)ru.ru_maxrss / 1024.0;
    printf("file: %s (%.1f MB, %llu functions, %llu instructions)\n",
           argv[1], mb, funcs, insns);
    printf("parse time (best of %d): %.3f s\n", reps, best);
    printf("throughput: %.1f MB/s, %.2f M instructions/s\n", mb / best,
           (double)insns / best / 1e6);
    printf("peak memory: %.1f MB (%.2fx the file size)\n", peak_mb,
           peak_mb / mb);
    return 0;
}
