/*
 * bench/micro/mb.h: what every microbenchmark of the suite shares.
 *
 * The suite follows the methods of Wong et al., "Demystifying GPU
 * Microarchitecture through Microbenchmarking" (ISPASS 2010), section
 * III: clock64() reads around an unrolled timed section, timestamps kept
 * in registers and written to global memory only at the end, every
 * measurement run twice with the first run discarded (cold instruction
 * cache); latency from one thread running a dependent chain, throughput
 * from one block of many warps, memory latency from pointer chasing.
 *
 * The same binaries run on a real GPU and under `ptxemu exec`.  Each
 * prints CSV on stdout: a header line, then one row per measurement;
 * the first column names the benchmark.  `--quick` shrinks the sweeps so
 * that a run under a cycle-level model takes seconds.
 */
#ifndef BENCH_MICRO_MB_H
#define BENCH_MICRO_MB_H

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define MB_CHECK(call)                                                     \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__,   \
                         #call, cudaGetErrorString(e_));                   \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

/* Whether argv holds `flag`. */
static inline bool mb_flag(int argc, char **argv, const char *flag)
{
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], flag) == 0) {
            return true;
        }
    }
    return false;
}

/* The integer after `opt` in argv (k/M suffixes), or def. */
static inline long long mb_opt(int argc, char **argv, const char *opt,
                               long long def)
{
    for (int i = 1; i + 1 < argc; i++) {
        if (std::strcmp(argv[i], opt) == 0) {
            char *end;
            long long v = std::strtoll(argv[i + 1], &end, 0);
            if (*end == 'k' || *end == 'K') {
                v <<= 10;
            } else if (*end == 'M') {
                v <<= 20;
            }
            return v;
        }
    }
    return def;
}

/* The string after `opt` in argv, or def. */
static inline const char *mb_sopt(int argc, char **argv, const char *opt,
                                  const char *def)
{
    for (int i = 1; i + 1 < argc; i++) {
        if (std::strcmp(argv[i], opt) == 0) {
            return argv[i + 1];
        }
    }
    return def;
}

#endif
