/*
 * bench/micro/mb_sync.cu: the cost of reading the clock, of a barrier,
 * and of divergence (Wong et al. 2010, sections III-A, IV-D and IV-E).
 *
 *  clock:   two back-to-back clock64() reads by one thread (the
 *           measurement overhead; GT200: 28 cycles for clock() followed
 *           by an independent operation);
 *  barrier: one block of W warps runs 16 x n __syncthreads(); cycles per
 *           barrier as thread 0 sees it (GT200: 20 cycles for one warp);
 *  diverge: one warp whose lanes take K different paths (lane % K) of
 *           the same length; cycles for the whole switch.  Paths
 *           serialise, so the time grows linearly with K on every NVIDIA
 *           GPU (Wong et al. Fig. 7).
 *
 *   mb_sync [--quick] [--iters N]
 *
 * CSV: bench,param,value
 *      clock,0,CYCLES           barrier,WARPS,CYCLES    diverge,K,CYCLES
 */
#include <cuda_runtime.h>

#include "mb.h"

__global__ void clock_overhead(long long *cyc)
{
    long long t0 = 0, t1 = 0;
    for (int rep = 0; rep < 2; rep++) {
        t0 = clock64();
        t1 = clock64();
    }
    *cyc = t1 - t0;
}

__global__ void barrier_cost(long long *cyc, int n)
{
    long long t0 = 0, t1 = 0;
    for (int rep = 0; rep < 2; rep++) {
        t0 = clock64();
        for (int i = 0; i < n; i++) {
#pragma unroll
            for (int k = 0; k < 16; k++) {
                __syncthreads();
            }
        }
        t1 = clock64();
    }
    if (threadIdx.x == 0) {
        *cyc = t1 - t0;
    }
}

/* Every path does the same 16 dependent integer steps on x. */
#define PATH(c)                                                            \
    case c:                                                                \
        _Pragma("unroll") for (int i = 0; i < 16; i++)                     \
        {                                                                  \
            asm volatile("mad.lo.u32 %0, %0, %1, " #c ";"                  \
                         : "+r"(x) : "r"(b));                              \
        }                                                                  \
        break;

__global__ void diverge(unsigned *out, long long *cyc, int k, unsigned b)
{
    unsigned x = threadIdx.x;
    long long t0 = 0, t1 = 0;
    for (int rep = 0; rep < 2; rep++) {
        __syncwarp();
        t0 = clock64();
        switch (threadIdx.x % k) {
            PATH(0) PATH(1) PATH(2) PATH(3) PATH(4) PATH(5) PATH(6) PATH(7)
            PATH(8) PATH(9) PATH(10) PATH(11) PATH(12) PATH(13) PATH(14)
            PATH(15) PATH(16) PATH(17) PATH(18) PATH(19) PATH(20) PATH(21)
            PATH(22) PATH(23) PATH(24) PATH(25) PATH(26) PATH(27) PATH(28)
            PATH(29) PATH(30) PATH(31)
        }
        __syncwarp();
        t1 = clock64();
    }
    out[threadIdx.x] = x;
    if (threadIdx.x == 0) {
        *cyc = t1 - t0;
    }
}

int main(int argc, char **argv)
{
    bool quick = mb_flag(argc, argv, "--quick");
    int iters = (int)mb_opt(argc, argv, "--iters", quick ? 2 : 16);
    long long *dcyc, cyc;
    unsigned *dout;
    MB_CHECK(cudaMalloc(&dcyc, 8));
    MB_CHECK(cudaMalloc(&dout, 32 * 4));
    cudaDeviceProp prop;
    MB_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("bench,param,value\n");

    clock_overhead<<<1, 1>>>(dcyc);
    MB_CHECK(cudaGetLastError());
    MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
    std::printf("clock,0,%lld\n", cyc);

    static const int warps[] = {1, 2, 4, 8, 16, 32};
    for (int w : warps) {
        if (w * 32 > prop.maxThreadsPerBlock) {
            continue;
        }
        barrier_cost<<<1, w * 32>>>(dcyc, iters);
        MB_CHECK(cudaGetLastError());
        MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
        std::printf("barrier,%d,%.2f\n", w, (double)cyc / (iters * 16.0));
    }

    static const int ks[] = {1, 2, 4, 8, 16, 32};
    for (int k : ks) {
        diverge<<<1, 32>>>(dout, dcyc, k, 3u);
        MB_CHECK(cudaGetLastError());
        MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
        std::printf("diverge,%d,%lld\n", k, cyc);
    }
    cudaFree(dcyc);
    cudaFree(dout);
    return 0;
}
