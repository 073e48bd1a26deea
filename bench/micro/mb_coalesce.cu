/*
 * bench/micro/mb_coalesce.cu: the cost of one warp's global load by
 * access pattern (memory coalescing: CUDA C++ Programming Guide,
 * "Device Memory Accesses" and the compute-capability sections' global
 * memory rules; Wong et al. 2010 measure the GT200 case).
 *
 * One warp follows a dependent chain x = a[off(lane) + x] over an array
 * of zeros, so every step of the chain is one warp-wide load with the
 * same addresses, each waiting for the previous one: the cycles per step
 * are the latency of one load of that pattern, and grow as the pattern
 * needs more memory transactions.  The host prints, with each pattern,
 * how many 32-byte sectors and 128-byte lines its 32 addresses touch
 * (the units of compute capability 6.0 and later; for 1.2/1.3 count
 * segments with the Guide's rule yourself from the offsets).
 *
 * Patterns (4-byte words, lane l = 0..31):
 *   unit       off = l                  4 sectors, 1 line
 *   reverse    off = 31 - l             4 sectors, 1 line (permuted)
 *   broadcast  off = 0                  1 sector
 *   offsetK    off = l + K              crossing a line boundary
 *   strideK    off = K l                K = 2, 4, 8, 16, 32
 *
 *   mb_coalesce [--quick] [--steps N]     (--quick: 64 steps, not 512)
 *
 * CSV: coalesce,pattern,sectors,lines,cycles_per_load
 */
#include <cuda_runtime.h>

#include <set>

#include "mb.h"

__global__ void chase(const unsigned *a, const unsigned *off, unsigned steps,
                      unsigned *sink, long long *cycles)
{
    unsigned o = off[threadIdx.x], x = 0;
    long long t0 = 0, t1 = 0;
#pragma unroll 1
    for (int rep = 0; rep < 2; rep++) {
        t0 = clock64();
        for (unsigned i = 0; i < steps; i += 8) {
#pragma unroll
            for (int k = 0; k < 8; k++) {
                x = a[o + x];
            }
        }
        t1 = clock64();
    }
    sink[threadIdx.x] = x;
    if (threadIdx.x == 0) {
        *cycles = t1 - t0;
    }
}

struct Pattern {
    const char *name;
    int mul, add, rev;  /* off = rev ? 31 - l : mul * l + add */
};

static const Pattern patterns[] = {
    {"unit", 1, 0, 0},      {"reverse", 1, 0, 1},   {"broadcast", 0, 0, 0},
    {"offset1", 1, 1, 0},   {"offset16", 1, 16, 0}, {"stride2", 2, 0, 0},
    {"stride4", 4, 0, 0},   {"stride8", 8, 0, 0},   {"stride16", 16, 0, 0},
    {"stride32", 32, 0, 0},
};

int main(int argc, char **argv)
{
    bool quick = mb_flag(argc, argv, "--quick");
    long long steps = mb_opt(argc, argv, "--steps", quick ? 64 : 512);
    if (steps < 8 || steps > (1 << 20)) {
        std::fprintf(stderr, "usage: mb_coalesce [--quick] [--steps N]\n");
        return 2;
    }
    steps = (steps + 7) / 8 * 8;
    const size_t words = 32 * 32 + 64;
    unsigned *da, *doff, *dsink;
    long long *dcyc;
    MB_CHECK(cudaMalloc(&da, words * 4));
    MB_CHECK(cudaMemset(da, 0, words * 4));
    MB_CHECK(cudaMalloc(&doff, 32 * 4));
    MB_CHECK(cudaMalloc(&dsink, 32 * 4));
    MB_CHECK(cudaMalloc(&dcyc, 8));
    std::printf("coalesce,pattern,sectors,lines,cycles_per_load\n");
    for (const Pattern &p : patterns) {
        unsigned off[32];
        std::set<unsigned> sectors, lines;
        for (unsigned l = 0; l < 32; l++) {
            off[l] = p.rev ? 31 - l : p.mul * l + p.add;
            /* cudaMalloc memory is aligned to at least 256 bytes */
            sectors.insert(off[l] * 4 / 32);
            lines.insert(off[l] * 4 / 128);
        }
        MB_CHECK(cudaMemcpy(doff, off, sizeof off, cudaMemcpyHostToDevice));
        chase<<<1, 32>>>(da, doff, (unsigned)steps, dsink, dcyc);
        MB_CHECK(cudaGetLastError());
        long long cyc;
        MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
        std::printf("coalesce,%s,%zu,%zu,%.2f\n", p.name, sectors.size(),
                    lines.size(), (double)cyc / steps);
    }
    cudaFree(da);
    cudaFree(doff);
    cudaFree(dsink);
    cudaFree(dcyc);
    return 0;
}
