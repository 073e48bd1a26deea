/*
 * bench/micro/mb_icache.cu: instruction-cache capacity by straight-line
 * code of growing size (Wong et al. 2010, section IV-K: sequences of
 * independent instructions of increasing length; the time per
 * instruction steps up where the code stops fitting a cache level, at
 * 4 KB (L1), 8 KB (L2 per TPC) and 32 KB (L3) on GT200).
 *
 * One warp runs N independent integer adds (eight register chains, so
 * no add waits for the previous one's result: a chain's next add comes
 * eight instructions later, more than the dependent latency at one issue
 * per cycle) fully unrolled, twice; the second pass is timed with
 * clock64(), so a body that fits a cache level runs from it.  The code
 * size is N times the instruction size: 16 bytes from sm_70 on, 8
 * before (NVIDIA's SASS encodings; --insn-bytes overrides it).
 *
 * With --fetch it measures the fetch granularity instead: kernels of
 * 1 to 48 independent adds, each run once (cold), timed whole; the
 * time steps up each time the code reaches a new fetch block, so the
 * steps are the fetch granularity apart (Wong et al. 2010, Fig. 24:
 * 64 bytes on GT200).
 *
 *   mb_icache [--quick] [--insn-bytes B] [--fetch]
 *
 * CSV: icache,insns,bytes,cycles_per_insn
 *      fetch,insns,bytes,cycles            (--fetch)
 */
#include <cuda_runtime.h>

#include <utility>

#include "mb.h"

#define ADD(r) asm volatile("add.u32 %0, %0, 1;" : "+r"(r))

template <int N>
__global__ void straight(unsigned *out, long long *cyc)
{
    unsigned r0 = threadIdx.x, r1 = r0 + 1, r2 = r0 + 2, r3 = r0 + 3,
             r4 = r0 + 4, r5 = r0 + 5, r6 = r0 + 6, r7 = r0 + 7;
    long long t0 = 0, t1 = 0;
    /* not unrolled: both passes must run the same code */
#pragma unroll 1
    for (int rep = 0; rep < 2; rep++) {
        t0 = clock64();
#pragma unroll
        for (int i = 0; i < N / 8; i++) {
            ADD(r0); ADD(r1); ADD(r2); ADD(r3);
            ADD(r4); ADD(r5); ADD(r6); ADD(r7);
        }
        t1 = clock64();
    }
    out[threadIdx.x] = r0 + r1 + r2 + r3 + r4 + r5 + r6 + r7;
    if (threadIdx.x == 0) {
        *cyc = t1 - t0;
    }
}

/* One cold pass over N independent adds (the kernel's first and only
 * run): every instruction fetch block the code reaches is fetched for
 * the first time, so the time grows in a step each time N crosses into
 * a new block; the steps' width in bytes is the fetch granularity
 * (Wong et al. 2010, section IV-K and Fig. 24, see misses only at
 * 64-byte boundaries on GT200). */
template <int N>
__global__ void cold(unsigned *out, long long *cyc)
{
    unsigned r[8];
#pragma unroll
    for (int i = 0; i < 8; i++) {
        r[i] = threadIdx.x + i;
    }
    long long t0, t1;
    /* clock reads that no memory access crosses, and the results
     * stored one by one after the second: nothing but the adds is timed
     * (a sum of the chains would be scheduled between the reads) */
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0)::"memory");
#pragma unroll
    for (int i = 0; i < N; i++) {
        ADD(r[i % 8]);
    }
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1)::"memory");
#pragma unroll
    for (int i = 0; i < 8; i++) {
        out[threadIdx.x + 32 * i] = r[i];
    }
    if (threadIdx.x == 0) {
        *cyc = t1 - t0;
    }
}

typedef void (*Kernel)(unsigned *, long long *);

/* cold<1> ... cold<COLD_MAX>, in a table */
#define COLD_MAX 48
template <int... I>
static const Kernel *cold_table(std::integer_sequence<int, I...>)
{
    static const Kernel t[] = {cold<I + 1>...};
    return t;
}

/* Sizes in instructions: 0.5 KB to 64 KB of 8-byte code, 1 KB to
 * 128 KB of 16-byte code, denser around GT200's 4/8/32 KB steps. */
static const struct Size {
    int n;
    Kernel k;
    bool quick;
} sizes[] = {
    {64, straight<64>, true},       {128, straight<128>, false},
    {256, straight<256>, true},     {384, straight<384>, false},
    {448, straight<448>, false},    {512, straight<512>, true},
    {576, straight<576>, false},    {640, straight<640>, true},
    {768, straight<768>, false},    {896, straight<896>, false},
    {1024, straight<1024>, true},   {1152, straight<1152>, false},
    {1280, straight<1280>, true},   {1536, straight<1536>, false},
    {2048, straight<2048>, false},  {3072, straight<3072>, false},
    {3584, straight<3584>, false},  {4096, straight<4096>, false},
    {4608, straight<4608>, false},  {5120, straight<5120>, false},
    {6144, straight<6144>, false},  {8192, straight<8192>, false},
};

int main(int argc, char **argv)
{
    bool quick = mb_flag(argc, argv, "--quick");
    cudaDeviceProp prop;
    MB_CHECK(cudaGetDeviceProperties(&prop, 0));
    long long ib = mb_opt(argc, argv, "--insn-bytes", prop.major >= 7 ? 16 : 8);
    if (ib <= 0 || ib > 64) {
        std::fprintf(stderr, "usage: mb_icache [--quick] [--insn-bytes B]\n");
        return 2;
    }
    unsigned *dout;
    long long *dcyc;
    MB_CHECK(cudaMalloc(&dout, 8 * 32 * sizeof(unsigned)));
    MB_CHECK(cudaMalloc(&dcyc, 8));
    if (mb_flag(argc, argv, "--fetch")) {
        const Kernel *t = cold_table(std::make_integer_sequence<int, COLD_MAX>());
        std::printf("fetch,insns,bytes,cycles\n");
        for (int n = 1; n <= COLD_MAX; n++) {
            t[n - 1]<<<1, 32>>>(dout, dcyc);
            MB_CHECK(cudaGetLastError());
            long long cyc;
            MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
            std::printf("fetch,%d,%lld,%lld\n", n, n * ib, cyc);
        }
        return 0;
    }
    std::printf("icache,insns,bytes,cycles_per_insn\n");
    for (const Size &s : sizes) {
        if (quick && !s.quick) {
            continue;
        }
        s.k<<<1, 32>>>(dout, dcyc);
        MB_CHECK(cudaGetLastError());
        long long cyc;
        MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
        std::printf("icache,%d,%lld,%.3f\n", s.n, s.n * ib,
                    (double)cyc / s.n);
    }
    cudaFree(dout);
    cudaFree(dcyc);
    return 0;
}
