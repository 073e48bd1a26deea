/*
 * bench/benchk.h: the bench kernels (the .ptx files of bench/kernels,
 * from nvcc -arch=compute_80 by bench/kernels/regen.sh), shared by
 * bench/emu (emulator throughput) and bench/timing (timed runs):
 *   alu      a long loop of dependent and independent integer and float
 *            arithmetic per thread (ALU-bound)
 *   mem      a grid-stride saxpy over a large buffer (memory-bound)
 *   diverge  data-dependent branches that split every warp (divergent)
 *   atomic   a histogram with shared and global atom.add (atomic-heavy)
 *   vecadd   c = a + b, one thread per element (streaming)
 *   reduce   per-CTA sums: a grid-stride loop, then a shared-memory
 *            tree with barriers
 *   matmul   a 16x16-tiled single-precision matrix multiply
 * Each Bench.run makes its inputs, launches its kernel through a
 * BenchIo and checks the result against a host-computed reference.
 */
#ifndef PTXEMU_BENCH_BENCHK_H
#define PTXEMU_BENCH_BENCHK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

extern const char *bench_prog; /* message prefix: "bench/emu" */
extern const char *bench_kdir; /* set by bench_find_kdir */
extern double bench_scale;     /* work of every kernel (1.0: 1-3 s each) */

/* Where a kernel runs: device memory and the launch, by the caller's
 * means (bench/emu: the public API; bench/timing: the emulator with a
 * timing model).  Each function exits the program on an error. */
typedef struct BenchIo {
    void *ctx;
    uint64_t (*alloc)(void *ctx, size_t bytes);
    void (*htod)(void *ctx, uint64_t dst, const void *src, size_t bytes);
    void (*dtoh)(void *ctx, void *dst, uint64_t src, size_t bytes);
    /* A 1-D launch of the kernel; params as cuLaunchKernel's (device
     * pointers are uint64_t).  The caller times it. */
    void (*launch)(void *ctx, unsigned gx, unsigned bx, void **params);
} BenchIo;

typedef struct Bench {
    const char *name, *file, *kernel, *desc;
    /* Runs the kernel through io; returns false on a wrong result. */
    bool (*run)(const BenchIo *io);
} Bench;

extern const Bench bench_kernels[];
extern const size_t bench_nkernels;

/* The kernels' directory: `given`, else bench/kernels, else
 * <dir of argv0>/kernels; NULL (after a message) when it has none. */
const char *bench_find_kdir(const char *argv0, const char *given);
/* Options every bench takes: --dir DIR, --scale F (> 0), --only NAME.
 * 1: argv[*i] was one (*i moved past its value); 0: not one of them;
 * -1: a bad value. */
int bench_common_arg(int argc, char **argv, int *i, const char **kdir,
                     const char **only);
/* The inputs' random numbers start again (each run sees the same). */
void bench_rng_reset(void);
double bench_clk(clockid_t id);

#endif
