/*
 * bench/benchk.h: the bench kernels (the .ptx files of bench/kernels,
 * from nvcc -arch=compute_80 by bench/kernels/regen.sh), shared by
 * bench/emu (emulator throughput) and bench/timing (timed runs):
 *   alu      a long loop of dependent and independent integer and float
 *            arithmetic per thread (ALU-bound)
 *   mem      a grid-stride saxpy over a large buffer (memory-bound)
 *   diverge  data-dependent branches that split every warp (divergent)
 *   atomic   a histogram with shared and global atom.add (atomic-heavy)
 * Each Bench.run launches its kernel on the Run's device (only the
 * launch is timed: CLOCK_MONOTONIC and the thread's CPU time), reads the
 * statistics and checks the result against a host-computed reference.
 */
#ifndef PTXEMU_BENCH_BENCHK_H
#define PTXEMU_BENCH_BENCHK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "runtime/ptxemu.h"

extern const char *bench_prog; /* message prefix: "bench/emu" */
extern const char *bench_kdir; /* set by bench_find_kdir */
extern double bench_scale;     /* work of every kernel (1.0: 1-3 s each) */

typedef struct Run {
    ptxemu_device *dev;
    ptxemu_module *mod;
    ptxemu_function *fn;
    double secs;                  /* wall (CLOCK_MONOTONIC) */
    double cpu;                   /* CLOCK_THREAD_CPUTIME_ID */
    ptxemu_stats st;
} Run;

typedef struct Bench {
    const char *name, *file, *kernel, *desc;
    /* Runs the kernel on r's device; returns false on a wrong result. */
    bool (*run)(Run *r);
} Bench;

extern const Bench bench_kernels[];
extern const size_t bench_nkernels;

/* The kernels' directory: `given`, else bench/kernels, else
 * <dir of argv0>/kernels; NULL (after a message) when it has none. */
const char *bench_find_kdir(const char *argv0, const char *given);
/* A device made with *o, the kernel loaded (exits 2 on an API error). */
void bench_run_open(Run *r, const char *file, const char *kernel,
                    const ptxemu_device_options *o);
void bench_run_close(Run *r);
/* The inputs' random numbers start again (each run sees the same). */
void bench_rng_reset(void);
double bench_clk(clockid_t id);

#endif
