/*
 * bench/micro/mb_banks.cu: shared-memory bank conflicts (CUDA C
 * Programming Guide, "Shared Memory": successive 32-bit words go to
 * successive banks; distinct words in one bank serialise, one word read
 * by many lanes is broadcast).
 *
 * One warp; lane t chases its own self-loop in shared memory at word
 * t * S (mod the array), so each load of the timed chain is the whole
 * warp touching 32 words S words apart.  Cycles per load for strides
 * S = 0 (every lane the same word: broadcast), 1, 2, 4, 8, 16, 32 and
 * odd strides (3, 33: conflict-free on 32 banks).  With B banks a
 * stride S makes gcd(S, B)-way conflicts.
 *
 *   mb_banks [--quick] [--steps N]
 *
 * CSV: banks,stride,cycles_per_load
 */
#include <cuda_runtime.h>

#include "mb.h"

#define WORDS 2048 /* 8 KB: stride 32 x 32 lanes = 1024 words fit */

__global__ void bank_chase(unsigned *sink, long long *cyc, int stride,
                           int steps)
{
    __shared__ unsigned sm[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) {
        sm[i] = i;   /* every word points at itself */
    }
    __syncthreads();
    unsigned j = (threadIdx.x * (unsigned)stride) % WORDS;
    long long t0 = 0, t1 = 0;
    for (int rep = 0; rep < 2; rep++) {
        __syncwarp();
        t0 = clock64();
        for (int i = 0; i < steps; i += 16) {
#pragma unroll
            for (int k = 0; k < 16; k++) {
                j = sm[j];
            }
        }
        __syncwarp();
        t1 = clock64();
    }
    sink[threadIdx.x] = j;
    if (threadIdx.x == 0) {
        *cyc = t1 - t0;
    }
}

int main(int argc, char **argv)
{
    bool quick = mb_flag(argc, argv, "--quick");
    int steps = (int)mb_opt(argc, argv, "--steps", quick ? 64 : 1024);
    steps = (steps + 15) / 16 * 16;
    long long *dcyc, cyc;
    unsigned *dsink;
    MB_CHECK(cudaMalloc(&dcyc, 8));
    MB_CHECK(cudaMalloc(&dsink, 32 * 4));
    std::printf("banks,stride,cycles_per_load\n");
    static const int strides[] = {0, 1, 2, 3, 4, 8, 16, 32, 33};
    for (int s : strides) {
        bank_chase<<<1, 32>>>(dsink, dcyc, s, steps);
        MB_CHECK(cudaGetLastError());
        MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
        std::printf("banks,%d,%.2f\n", s, (double)cyc / steps);
    }
    cudaFree(dcyc);
    cudaFree(dsink);
    return 0;
}
