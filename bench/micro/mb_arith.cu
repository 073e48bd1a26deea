/*
 * bench/micro/mb_arith.cu: latency and throughput of arithmetic by
 * operation (Wong et al. 2010, section IV-A and IV-B).
 *
 * Latency: one thread runs a chain of 256 dependent operations (each
 * uses the previous result), fully unrolled, timed by clock64(); cycles
 * divided by 256.  On an in-order pipeline the result is
 * (255 * latency + c) / 256, c the cost of the clock reads.
 * Throughput: one block of W warps, every thread running 4 independent
 * chains; thread 0 times the whole block between two __syncthreads();
 * operations per clock per SM = W * 32 * 4 * n * 16 / cycles.
 * Throughput1: the same with one chain per thread, so only other warps
 * hide an operation's latency: the sweep over W shows how many warps fill
 * the pipeline (Wong et al. Fig. 6: on GT200 more than 6-7 warps for a
 * 24-cycle dependent add).
 *
 *   mb_arith [--quick] [--op NAME] [--iters N]
 *
 * CSV (bench,op,warps,value):
 *      latency,OP,0,CYCLES_PER_OP       (one thread: warps 0)
 *      throughput,OP,WARPS,OPS_PER_CLK  (thread operations per clock)
 *      throughput1,OP,WARPS,OPS_PER_CLK (one chain per thread)
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "mb.h"

/* Integer chains are written as inline PTX: the compiler would fold a
 * chain of x = x + b into x + 16*b (and likewise multiplies), leaving
 * nothing to time.  Floating-point chains cannot be reassociated
 * without fast-math, so they stay C. */
__device__ __forceinline__ unsigned a_add(unsigned x, unsigned b)
{
    asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(b));
    return x;
}
__device__ __forceinline__ unsigned a_mul(unsigned x, unsigned b)
{
    asm volatile("mul.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(b));
    return x;
}
__device__ __forceinline__ unsigned a_mad(unsigned x, unsigned b)
{
    asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(x) : "r"(b));
    return x;
}
__device__ __forceinline__ unsigned a_mul24(unsigned x, unsigned b)
{
    asm volatile("mul24.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(b));
    return x;
}
__device__ __forceinline__ unsigned a_popc(unsigned x)
{
    asm volatile("popc.b32 %0, %0;" : "+r"(x));
    return x;
}
__device__ __forceinline__ unsigned long long a_add64(unsigned long long x,
                                                      unsigned long long b)
{
    asm volatile("add.u64 %0, %0, %1;" : "+l"(x) : "l"(b));
    return x;
}
__device__ __forceinline__ unsigned long long a_mul64(unsigned long long x,
                                                      unsigned long long b)
{
    asm volatile("mul.lo.u64 %0, %0, %1;" : "+l"(x) : "l"(b));
    return x;
}

/* X(name, type, one dependent step of x using b).  Steps that add b
 * after a unary operation time the pair. */
#define MB_OPS(X)                                                          \
    X(add_u32, unsigned, a_add(x, b))                                      \
    X(mul_u32, unsigned, a_mul(x, b))                                      \
    X(mad_u32, unsigned, a_mad(x, b))                                      \
    X(mul24_u32, unsigned, a_mul24(x, b))                                  \
    X(div_u32, unsigned, x / b + 7u)                                       \
    X(rem_u32, unsigned, x % b + 7u)                                       \
    X(popc_u32, unsigned, a_popc(x))                                       \
    X(add_u64, unsigned long long, a_add64(x, b))                          \
    X(mul_u64, unsigned long long, a_mul64(x, b))                          \
    X(div_u64, unsigned long long, x / b + 7ull)                           \
    X(add_f32, float, x + b)                                               \
    X(mul_f32, float, x * b)                                               \
    X(fma_f32, float, fmaf(x, b, b))                                       \
    X(div_rn_f32, float, __fdiv_rn(x, b))                                  \
    X(div_approx_f32, float, __fdividef(x, b))                             \
    X(sqrt_rn_f32, float, __fsqrt_rn(x) + b)                               \
    X(rsqrt_f32, float, rsqrtf(x) + b)                                     \
    X(rcp_rn_f32, float, __frcp_rn(x) + b)                                 \
    X(sin_approx_f32, float, __sinf(x) + b)                                \
    X(sin_f32, float, sinf(x) + b)                                         \
    X(ex2_approx_f32, float, exp2f(x) * b)                                 \
    X(lg2_approx_f32, float, __log2f(x) + b)                               \
    X(add_f64, double, x + b)                                              \
    X(mul_f64, double, x * b)                                              \
    X(fma_f64, double, fma(x, b, b))                                       \
    X(div_rn_f64, double, x / b)                                           \
    X(sqrt_rn_f64, double, sqrt(x) + b)                                    \
    X(fma_f16x2, __half2, __hfma2(x, b, b))                                \
    X(shfl_u32, unsigned, __shfl_xor_sync(0xffffffffu, x, 1) + b)

/* The latency chain is LAT_CHAIN operations long and fully unrolled: no
 * loop counter, compare or branch is timed with it (on an in-order
 * pipeline those would add to every iteration). */
#define LAT_CHAIN 256
#define MB_KERNELS(name, T, step)                                          \
    __global__ void lat_##name(T *out, long long *cyc, T a, T b, int n)    \
    {                                                                      \
        T x = a;                                                           \
        long long t0 = 0, t1 = 0;                                          \
        (void)n;                                                           \
        for (int rep = 0; rep < 2; rep++) {                                \
            t0 = clock64();                                                \
            _Pragma("unroll") for (int k = 0; k < LAT_CHAIN; k++)          \
            {                                                              \
                x = step;                                                  \
            }                                                              \
            t1 = clock64();                                                \
        }                                                                  \
        *out = x;                                                          \
        *cyc = t1 - t0;                                                    \
    }                                                                      \
    __global__ void tput_##name(T *out, long long *cyc, T a, T b, int n)   \
    {                                                                      \
        T x0 = a, x1 = a, x2 = a, x3 = a;                                  \
        long long t0 = 0, t1 = 0;                                          \
        for (int rep = 0; rep < 2; rep++) {                                \
            __syncthreads();                                               \
            t0 = clock64();                                                \
            for (int i = 0; i < n; i++) {                                  \
                _Pragma("unroll") for (int k = 0; k < 16; k++)             \
                {                                                          \
                    T x;                                                   \
                    x = x0; x0 = step;                                     \
                    x = x1; x1 = step;                                     \
                    x = x2; x2 = step;                                     \
                    x = x3; x3 = step;                                     \
                }                                                          \
            }                                                              \
            __syncthreads();                                               \
            t1 = clock64();                                                \
        }                                                                  \
        out[threadIdx.x] = x0 + x1 + x2 + x3;                              \
        if (threadIdx.x == 0) {                                            \
            *cyc = t1 - t0;                                                \
        }                                                                  \
    }                                                                      \
    __global__ void tput1_##name(T *out, long long *cyc, T a, T b, int n)  \
    {                                                                      \
        T x = a;                                                           \
        long long t0 = 0, t1 = 0;                                          \
        for (int rep = 0; rep < 2; rep++) {                                \
            __syncthreads();                                               \
            t0 = clock64();                                                \
            for (int i = 0; i < n; i++) {                                  \
                _Pragma("unroll") for (int k = 0; k < 64; k++)             \
                {                                                          \
                    x = step;                                              \
                }                                                          \
            }                                                              \
            __syncthreads();                                               \
            t1 = clock64();                                                \
        }                                                                  \
        out[threadIdx.x] = x;                                              \
        if (threadIdx.x == 0) {                                            \
            *cyc = t1 - t0;                                                \
        }                                                                  \
    }
MB_OPS(MB_KERNELS)

template <class T> static T mb_a() { return (T)3; }
template <class T> static T mb_b() { return (T)5; }
template <> __half2 mb_a<__half2>() { return __floats2half2_rn(1.0f, 1.0f); }
template <> __half2 mb_b<__half2>() { return __floats2half2_rn(0.5f, 0.5f); }
template <> float mb_a<float>() { return 1.5f; }
template <> float mb_b<float>() { return 1.0001f; }
template <> double mb_a<double>() { return 1.5; }
template <> double mb_b<double>() { return 1.0001; }

static void *dout;
static long long *dcyc;

template <class T>
static void run(const char *name, void (*lat)(T *, long long *, T, T, int),
                void (*tput)(T *, long long *, T, T, int),
                void (*tput1)(T *, long long *, T, T, int), int iters,
                const int *warps, int nwarps, int maxthreads)
{
    long long cyc;
    lat<<<1, 1>>>((T *)dout, dcyc, mb_a<T>(), mb_b<T>(), iters);
    MB_CHECK(cudaGetLastError());
    MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
    std::printf("latency,%s,0,%.3f\n", name, (double)cyc / LAT_CHAIN);
    for (int k = 0; k < nwarps; k++) {
        int threads = warps[k] * 32;
        if (threads > maxthreads) {
            continue;
        }
        tput<<<1, threads>>>((T *)dout, dcyc, mb_a<T>(), mb_b<T>(), iters);
        MB_CHECK(cudaGetLastError());
        MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
        double ops = (double)threads * 4 * iters * 16;
        std::printf("throughput,%s,%d,%.3f\n", name, warps[k],
                    cyc > 0 ? ops / (double)cyc : 0.0);
    }
    for (int k = 0; k < nwarps; k++) {
        int threads = warps[k] * 32;
        if (threads > maxthreads) {
            continue;
        }
        tput1<<<1, threads>>>((T *)dout, dcyc, mb_a<T>(), mb_b<T>(), iters);
        MB_CHECK(cudaGetLastError());
        MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
        double ops = (double)threads * iters * 64;
        std::printf("throughput1,%s,%d,%.3f\n", name, warps[k],
                    cyc > 0 ? ops / (double)cyc : 0.0);
    }
}

int main(int argc, char **argv)
{
    bool quick = mb_flag(argc, argv, "--quick");
    const char *only = mb_sopt(argc, argv, "--op", nullptr);
    int iters = (int)mb_opt(argc, argv, "--iters", quick ? 4 : 64);
    static const int all_warps[] = {1, 2, 4, 6, 7, 8, 12, 16, 24, 32};
    static const int quick_warps[] = {1, 8, 32};
    const int *warps = quick ? quick_warps : all_warps;
    int nwarps = quick ? 3 : 10;
    cudaDeviceProp prop;
    MB_CHECK(cudaGetDeviceProperties(&prop, 0));
    MB_CHECK(cudaMalloc(&dout, 1024 * sizeof(double)));
    MB_CHECK(cudaMalloc(&dcyc, 8));
    std::printf("bench,op,warps,value\n");
#define MB_RUN(name, T, step)                                              \
    if (!only || !std::strcmp(only, #name)) {                              \
        run<T>(#name, lat_##name, tput_##name, tput1_##name, iters, warps, \
               nwarps, prop.maxThreadsPerBlock);                           \
    }
    MB_OPS(MB_RUN)
    cudaFree(dout);
    cudaFree(dcyc);
    return 0;
}
