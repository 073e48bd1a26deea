/*
 * bench/micro/mb_atomic.cu: atomic throughput by contention.
 *
 * One block of W warps; every thread does n atomicAdd()s on one of A
 * addresses (thread t uses address t % A): A = 1 is full contention, A =
 * the thread count none.  Global and shared memory.  Thread 0 times the
 * block between two barriers; the result is atomics per clock.
 *
 *   mb_atomic [--quick] [--iters N]
 *
 * CSV: atomic,space,addresses,atomics_per_clk
 */
#include <cuda_runtime.h>

#include "mb.h"

template <bool SHARED>
__global__ void atomics(unsigned *g, long long *cyc, int addrs, int n)
{
    __shared__ unsigned sm[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) {
        sm[i] = 0;
    }
    unsigned *p = (SHARED ? sm : g) + threadIdx.x % addrs;
    long long t0 = 0, t1 = 0;
    for (int rep = 0; rep < 2; rep++) {
        __syncthreads();
        t0 = clock64();
        for (int i = 0; i < n; i++) {
            atomicAdd(p, 1u);
        }
        __syncthreads();
        t1 = clock64();
    }
    if (SHARED && threadIdx.x < addrs) {
        g[threadIdx.x] = sm[threadIdx.x];
    }
    if (threadIdx.x == 0) {
        *cyc = t1 - t0;
    }
}

int main(int argc, char **argv)
{
    bool quick = mb_flag(argc, argv, "--quick");
    int iters = (int)mb_opt(argc, argv, "--iters", quick ? 4 : 64);
    int threads = quick ? 256 : 1024;
    long long *dcyc, cyc;
    unsigned *dg;
    MB_CHECK(cudaMalloc(&dcyc, 8));
    MB_CHECK(cudaMalloc(&dg, 1024 * 4));
    MB_CHECK(cudaMemset(dg, 0, 1024 * 4));
    std::printf("atomic,space,addresses,atomics_per_clk\n");
    static const int addrs[] = {1, 2, 32, 256, 1024};
    for (int sh = 0; sh < 2; sh++) {
        for (int a : addrs) {
            if (a > threads) {
                continue;
            }
            if (sh) {
                atomics<true><<<1, threads>>>(dg, dcyc, a, iters);
            } else {
                atomics<false><<<1, threads>>>(dg, dcyc, a, iters);
            }
            MB_CHECK(cudaGetLastError());
            MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
            std::printf("atomic,%s,%d,%.3f\n", sh ? "shared" : "global", a,
                        cyc > 0 ? (double)threads * iters / cyc : 0.0);
        }
    }
    cudaFree(dcyc);
    cudaFree(dg);
    return 0;
}
