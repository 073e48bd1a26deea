/*
 * bench/hostmem.c: how far the host itself lets the memory-bound kernel
 * of bench/emu scale, without the emulator.
 *
 * bench/emu's `mem` kernel (bench/kernels/mem.cu: a grid-stride saxpy
 * over 12 Mi floats, 128 CTAs of 256 threads) reads x and y and writes y
 * once per element, 128 KiB apart from one iteration of a warp to its
 * next.  This program makes the same host memory accesses in the order
 * the functional pool makes them (--chunk CTAs at a time on each thread
 * in turn, 4 as emu/par.c takes for this kernel; each CTA's 8 warps in
 * turn for 5 iterations at a time, about the 64-instruction quantum of
 * emu/sched.c), with --work N dependent operations per
 * element standing for the emulator's own work between its accesses,
 * on 1, 2, 4, ... --threads host threads, and prints the speed-up.
 * With --work chosen so that one thread takes about as long as
 * `bench/emu --only mem --threads 1`, the speed-up it prints bounds the
 * emulator's on that host: what is left is the host's memory system
 * under two cores' misses, not the emulator's.
 *
 * Usage: bench/hostmem [--threads N] [--work N] [--chunk C] [--repeat R]
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_ELEMS (12u << 20)   /* bench/benchk.c mem_n() at scale 1 */
#define CTAS 128u
#define BLOCK 256u
#define WARPS (BLOCK / 32u)
#define STRIDE (CTAS * BLOCK) /* the grid stride, in elements */
#define ITERS (N_ELEMS / STRIDE)
#define QUANTUM_ITERS 5u      /* loop iterations in a 64-instruction quantum */

typedef struct {
    float *x, *y;
    unsigned threads, me, work, chunk;
} Job;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One CTA's accesses: its warps in turn, a quantum of iterations each. */
static void cta(const Job *j, unsigned c)
{
    for (unsigned i0 = 0; i0 < ITERS; i0 += QUANTUM_ITERS) {
        for (unsigned w = 0; w < WARPS; w++) {
            for (unsigned i = i0; i < i0 + QUANTUM_ITERS && i < ITERS; i++) {
                size_t base = (size_t)i * STRIDE + c * BLOCK + w * 32u;
                for (unsigned l = 0; l < 32; l++) {
                    float v = j->x[base + l];
                    for (unsigned k = 0; k < j->work; k++) {
                        __asm__ volatile("" : "+x"(v));
                    }
                    j->y[base + l] = 2.5f * v + j->y[base + l];
                }
            }
        }
    }
}

static void *run(void *arg)
{
    const Job *j = arg;
    for (unsigned c0 = j->me * j->chunk; c0 < CTAS;
         c0 += j->threads * j->chunk) {
        for (unsigned c = c0; c < c0 + j->chunk && c < CTAS; c++) {
            cta(j, c);
        }
    }
    return NULL;
}

/* Wall seconds of one pass on t threads. */
static double pass(float *x, float *y, unsigned t, unsigned work,
                   unsigned chunk)
{
    pthread_t th[64];
    Job jobs[64];
    double t0 = now_s();
    for (unsigned i = 0; i < t; i++) {
        jobs[i] = (Job){x, y, t, i, work, chunk};
        if (i && pthread_create(&th[i], NULL, run, &jobs[i]) != 0) {
            fprintf(stderr, "hostmem: cannot make a thread\n");
            exit(1);
        }
    }
    run(&jobs[0]);
    for (unsigned i = 1; i < t; i++) {
        pthread_join(th[i], NULL);
    }
    return now_s() - t0;
}

int main(int argc, char **argv)
{
    unsigned threads = 2, work = 40, chunk = 4, repeat = 3;
    for (int i = 1; i < argc; i++) {
        unsigned *to = NULL;
        if (!strcmp(argv[i], "--threads")) {
            to = &threads;
        } else if (!strcmp(argv[i], "--work")) {
            to = &work;
        } else if (!strcmp(argv[i], "--chunk")) {
            to = &chunk;
        } else if (!strcmp(argv[i], "--repeat")) {
            to = &repeat;
        }
        if (!to || i + 1 >= argc) {
            fprintf(stderr, "usage: %s [--threads N] [--work N] "
                            "[--chunk C] [--repeat R]\n", argv[0]);
            return 2;
        }
        *to = (unsigned)strtoul(argv[++i], NULL, 10);
    }
    if (threads < 1 || threads > 64 || repeat < 1 || chunk < 1) {
        fprintf(stderr, "hostmem: --threads 1..64, --chunk and --repeat "
                        "1 or more\n");
        return 2;
    }
    float *x = aligned_alloc(4096, (size_t)N_ELEMS * 4);
    float *y = aligned_alloc(4096, (size_t)N_ELEMS * 4);
    if (!x || !y) {
        fprintf(stderr, "hostmem: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < N_ELEMS; i++) {
        x[i] = (float)(i & 0xffff);
        y[i] = 1.0f;
    }
    printf("%7s %9s %9s %10s\n", "threads", "wall-s", "speed-up",
           "efficiency");
    double one = 0;
    for (unsigned t = 1;; t = t * 2 > threads && t < threads ? threads
                                                            : t * 2) {
        double best = 0;
        for (unsigned r = 0; r < repeat; r++) {
            double s = pass(x, y, t, work, chunk);
            best = r == 0 || s < best ? s : best;
        }
        if (t == 1) {
            one = best;
        }
        printf("%7u %9.3f %8.2fx %9.0f%%\n", t, best, one / best,
               100.0 * one / best / t);
        if (t >= threads) {
            break;
        }
    }
    printf("saxpy's accesses in the functional pool's order, %u CTA(s) "
           "at a time, %u operations per element between them, best of "
           "%u\n", chunk, work, repeat);
    free(x);
    free(y);
    return 0;
}
