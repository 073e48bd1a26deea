/*
 * bench/micro/mb_chase.cu: memory latency by pointer chasing (Wong et
 * al. 2010, section III-B, Listings 1 and 2).
 *
 * The host builds, for an array footprint N and a stride s, the chain
 * a[i] = (i + s) mod N (in elements), so following j = a[j] touches
 * N/s elements and then wraps.  One thread follows it: first once in
 * full to warm the caches (discarded), then `steps` more loads timed
 * with clock64(), sixteen per unrolled loop body, so that no address
 * arithmetic sits between loads.  The result is the average number of
 * clock64() cycles per load, loop overhead included (a few cycles per
 * sixteen loads).  Plotted against the footprint, the curve's steps give
 * a cache's capacity, line size, sets and associativity (Wong et al.,
 * section III-C; bench/micro/geom.c infers them).
 *
 *   mb_chase --space global|shared|const|tex --min BYTES --max BYTES
 *            --step BYTES --stride BYTES [--steps N] [--quick]
 *
 * CSV: chase,space,footprint,stride,cycles_per_load
 */
#include <cuda_runtime.h>

#include <vector>

#include "mb.h"

enum Space { S_GLOBAL, S_SHARED, S_CONST, S_TEX };

/* 64 KB: the whole user constant bank (CUDA C Programming Guide,
 * "Device Memory Accesses": constant memory is 64 KB). */
#define CONST_WORDS 16384
__constant__ unsigned cbuf[CONST_WORDS];

template <int SP>
__device__ __forceinline__ unsigned load(const unsigned *a, const unsigned *s,
                                         cudaTextureObject_t t, unsigned j)
{
    if (SP == S_GLOBAL) {
        return a[j];
    } else if (SP == S_SHARED) {
        return s[j];
    } else if (SP == S_CONST) {
        return cbuf[j];
    } else {
        return tex1Dfetch<unsigned>(t, (int)j);
    }
}

template <int SP>
__global__ void chase(const unsigned *a, cudaTextureObject_t t,
                      unsigned words, unsigned warm, unsigned steps,
                      unsigned *sink, long long *cycles)
{
    extern __shared__ unsigned sm[];
    if (SP == S_SHARED) {
        for (unsigned i = 0; i < words; i++) {
            sm[i] = a[i];
        }
    }
    unsigned j = 0;
    long long t0 = 0, t1 = 0;
    for (int rep = 0; rep < 2; rep++) {
        unsigned n = rep ? steps : warm;
        t0 = clock64();
        for (unsigned i = 0; i < n; i += 16) {
#pragma unroll
            for (int k = 0; k < 16; k++) {
                j = load<SP>(a, sm, t, j);
            }
        }
        t1 = clock64();
    }
    *sink = j;
    *cycles = t1 - t0;
}

static unsigned round16(unsigned long long n)
{
    return (unsigned)((n + 15) / 16 * 16);
}

int main(int argc, char **argv)
{
    const char *sname = mb_sopt(argc, argv, "--space", "global");
    bool quick = mb_flag(argc, argv, "--quick");
    long long lo = mb_opt(argc, argv, "--min", 1024);
    long long hi = mb_opt(argc, argv, "--max", quick ? 8192 : 65536);
    long long step = mb_opt(argc, argv, "--step", quick ? 1024 : 1024);
    long long stride = mb_opt(argc, argv, "--stride", 32);
    long long steps_opt = mb_opt(argc, argv, "--steps", 0);
    int sp = !std::strcmp(sname, "global")   ? S_GLOBAL
             : !std::strcmp(sname, "shared") ? S_SHARED
             : !std::strcmp(sname, "const")  ? S_CONST
             : !std::strcmp(sname, "tex")    ? S_TEX
                                             : -1;
    if (sp < 0 || lo < 4 || hi < lo || step < 4 || stride < 4 ||
        stride % 4) {
        std::fprintf(stderr, "usage: mb_chase --space global|shared|const|"
                             "tex --min B --max B --step B --stride B "
                             "[--steps N] [--quick]\n");
        return 2;
    }
    if (sp == S_CONST && hi > CONST_WORDS * 4) {
        hi = CONST_WORDS * 4;
    }
    int dev = 0;
    cudaDeviceProp prop;
    MB_CHECK(cudaGetDeviceProperties(&prop, dev));
    if (sp == S_SHARED && (size_t)hi > prop.sharedMemPerBlockOptin) {
        hi = (long long)prop.sharedMemPerBlockOptin;
    }
    size_t maxw = (size_t)hi / 4;
    unsigned *da, *dsink;
    long long *dcyc;
    MB_CHECK(cudaMalloc(&da, maxw * 4));
    MB_CHECK(cudaMalloc(&dsink, 4));
    MB_CHECK(cudaMalloc(&dcyc, 8));
    cudaTextureObject_t tex = 0;
    if (sp == S_TEX) {
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = da;
        rd.res.linear.desc = cudaCreateChannelDesc<unsigned>();
        rd.res.linear.sizeInBytes = maxw * 4;
        cudaTextureDesc td = {};
        td.readMode = cudaReadModeElementType;
        MB_CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    }
    if (sp == S_SHARED) {
        MB_CHECK(cudaFuncSetAttribute(
            chase<S_SHARED>, cudaFuncAttributeMaxDynamicSharedMemorySize,
            (int)prop.sharedMemPerBlockOptin));
    }
    std::printf("chase,space,footprint,stride,cycles_per_load\n");
    std::vector<unsigned> h(maxw);
    for (long long fp = lo; fp <= hi; fp += step) {
        unsigned words = (unsigned)(fp / 4), sw = (unsigned)(stride / 4);
        for (unsigned i = 0; i < words; i++) {
            h[i] = (unsigned)(((unsigned long long)i + sw) % words);
        }
        unsigned long long chain = (words + sw - 1) / sw;
        unsigned warm = round16(chain);
        unsigned steps = steps_opt > 0 ? round16((unsigned long long)steps_opt)
                         : round16(chain * 2 > 512 ? chain * 2 : 512);
        if (sp == S_CONST) {
            MB_CHECK(cudaMemcpyToSymbol(cbuf, h.data(), (size_t)words * 4));
        } else {
            MB_CHECK(cudaMemcpy(da, h.data(), (size_t)words * 4,
                                cudaMemcpyHostToDevice));
        }
        size_t smem = sp == S_SHARED ? (size_t)words * 4 : 0;
        switch (sp) {
        case S_GLOBAL:
            chase<S_GLOBAL><<<1, 1>>>(da, tex, words, warm, steps, dsink, dcyc);
            break;
        case S_SHARED:
            chase<S_SHARED><<<1, 1, smem>>>(da, tex, words, warm, steps, dsink,
                                            dcyc);
            break;
        case S_CONST:
            chase<S_CONST><<<1, 1>>>(da, tex, words, warm, steps, dsink, dcyc);
            break;
        default:
            chase<S_TEX><<<1, 1>>>(da, tex, words, warm, steps, dsink, dcyc);
            break;
        }
        MB_CHECK(cudaGetLastError());
        long long cyc;
        MB_CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
        std::printf("chase,%s,%lld,%lld,%.2f\n", sname, fp, stride,
                    (double)cyc / steps);
    }
    if (tex) {
        cudaDestroyTextureObject(tex);
    }
    cudaFree(da);
    cudaFree(dsink);
    cudaFree(dcyc);
    return 0;
}
