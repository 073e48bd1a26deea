/*
 * bench/micro/mb_chase.cu: memory latency by pointer chasing (Wong et
 * al. 2010, section III-B, Listings 1 and 2).
 *
 * The host builds, for an array footprint N and a stride s, the chain
 * a[i] = (i + s) mod N (in elements), so following j = a[j] touches
 * N/s elements and then wraps.  As Wong et al. do (section III-B: "the
 * precomputed stride access pattern stored in the array eliminates
 * address computation overhead in the timed inner loop"), the global
 * and shared chains hold addresses, not indices: each element holds the
 * address of the next (64-bit global addresses in 8-byte elements, so
 * the global stride is a multiple of 8; 32-bit shared-window addresses,
 * converted from the indices before the timed loop), and each step is
 * one load whose address is the previous load's value (inline PTX, so
 * the compiler cannot add arithmetic between them).  The constant chain
 * keeps indices: Wong's constant measurements include the address
 * computation (section V-E: their plotted latencies are about 48 cycles
 * above the raw ones), and so does ours.  A texture fetch takes an index
 * by nature.  One thread follows the chain: first once in
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
 *   mb_chase --space global --count K --min BYTES --max BYTES
 *            --step BYTES [--steps N]
 *
 * --carveout PCT sets the global chase's preferred shared-memory
 * carve-out (cudaFuncAttributePreferredSharedMemoryCarveout, percent of
 * the largest shared-memory capacity; CUDA C++ Programming Guide,
 * "Shared Memory" of compute capability 7.x and later): on a GPU whose
 * L1 and shared memory share one array, 100 leaves the L1 what the
 * largest carve-out leaves of it.  Without it the driver picks.
 *
 * The second form chases K elements at each stride from --min to --max
 * (footprint K x stride): Wong et al.'s TLB associativity test (section
 * V-C, Fig. 14: 16 elements always hit a 16-entry fully associative L1
 * TLB, 17 miss it once the stride reaches its 512 KB entry size).
 *
 * CSV: chase,space,footprint,stride,cycles_per_load
 */
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "mb.h"

enum Space { S_GLOBAL, S_SHARED, S_CONST, S_TEX };

/* 64 KB: the whole user constant bank (CUDA C Programming Guide,
 * "Device Memory Accesses": constant memory is 64 KB). */
#define CONST_WORDS 16384
__constant__ unsigned cbuf[CONST_WORDS];

/* What the chain holds: a 64-bit address (global) or 32 bits. */
template <int SP> struct Link {
    typedef unsigned T;
};
template <> struct Link<S_GLOBAL> {
    typedef unsigned long long T;
};

/* One step of the chain: the load whose address (or index) is J. */
template <int SP>
__device__ __forceinline__ typename Link<SP>::T
load(cudaTextureObject_t t, typename Link<SP>::T j)
{
    if (SP == S_GLOBAL) {
        unsigned long long p = j;
        asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
        return (typename Link<SP>::T)p;
    } else if (SP == S_SHARED) {
        unsigned p = (unsigned)j;
        asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
        return p;
    } else if (SP == S_CONST) {
        return cbuf[j];
    } else {
        return tex1Dfetch<unsigned>(t, (int)j);
    }
}

template <int SP>
__global__ void chase(const unsigned *a, cudaTextureObject_t t,
                      unsigned words, unsigned warm, unsigned steps,
                      unsigned long long *sink, long long *cycles)
{
    extern __shared__ unsigned sm[];
    typename Link<SP>::T j = 0;
    if (SP == S_GLOBAL) {
        j = (typename Link<SP>::T)(unsigned long long)a;
    } else if (SP == S_SHARED) {
        /* indices into shared-window addresses, before the timing */
        unsigned base = (unsigned)__cvta_generic_to_shared(sm);
        for (unsigned i = 0; i < words; i++) {
            sm[i] = base + a[i] * 4;
        }
        j = base;
    }
    long long t0 = 0, t1 = 0;
    for (int rep = 0; rep < 2; rep++) {
        unsigned n = rep ? steps : warm;
        t0 = clock64();
        for (unsigned i = 0; i < n; i += 16) {
#pragma unroll
            for (int k = 0; k < 16; k++) {
                j = load<SP>(t, j);
            }
        }
        t1 = clock64();
    }
    *sink = (unsigned long long)j;
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
    long long count = mb_opt(argc, argv, "--count", 0);
    long long carve = mb_opt(argc, argv, "--carveout", -1);
    int sp = !std::strcmp(sname, "global")   ? S_GLOBAL
             : !std::strcmp(sname, "shared") ? S_SHARED
             : !std::strcmp(sname, "const")  ? S_CONST
             : !std::strcmp(sname, "tex")    ? S_TEX
                                             : -1;
    int align = sp == S_GLOBAL ? 8 : 4;
    if (count) { /* --min/--max/--step are strides */
        stride = lo;
    }
    if (sp < 0 || lo < 4 || hi < lo || step < 4 || stride < 4 ||
        stride % align || (sp == S_GLOBAL && lo < 8) || count < 0 ||
        count > 4096 || (count && (sp != S_GLOBAL || lo % align ||
                                   step % align)) ||
        carve < -1 || carve > 100 || (carve >= 0 && sp != S_GLOBAL)) {
        std::fprintf(stderr,
            "usage: mb_chase --space global|shared|const|tex --min B "
            "--max B --step B --stride B [--steps N] [--quick]\n"
            "       mb_chase --space global --count K --min B --max B "
            "--step B [--steps N]\n"
            "       (--carveout PCT: global only, 0 to 100)\n"
            "(strides: multiples of 4 bytes, of 8 for global)\n");
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
    size_t maxw = (size_t)(count ? count * hi : hi) / 4;
    unsigned *da;
    unsigned long long *dsink;
    long long *dcyc;
    MB_CHECK(cudaMalloc(&da, maxw * 4));
    MB_CHECK(cudaMalloc(&dsink, 8));
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
    if (carve >= 0) {
        MB_CHECK(cudaFuncSetAttribute(
            chase<S_GLOBAL>, cudaFuncAttributePreferredSharedMemoryCarveout,
            (int)carve));
    }
    std::printf("chase,space,footprint,stride,cycles_per_load\n");
    std::vector<unsigned> h(sp == S_GLOBAL ? 0 : maxw);
    std::vector<unsigned long long> h64;
    for (long long pt = lo; pt <= hi; pt += step) {
        long long fp = count ? count * pt : pt;
        long long sb = count ? pt : stride;
        unsigned words = (unsigned)(fp / 4), sw = (unsigned)(sb / 4);
        unsigned long long chain = (words + sw - 1) / sw;
        unsigned warm = round16(chain);
        unsigned steps = steps_opt > 0 ? round16((unsigned long long)steps_opt)
                         : round16(chain * 2 > 512 ? chain * 2 : 512);
        if (sp == S_GLOBAL) {
            /* 8-byte elements holding the next element's address */
            unsigned long long n = (unsigned long long)fp / 8, se = sb / 8;
            unsigned long long base = (unsigned long long)(uintptr_t)da;
            if (n % se == 0) {
                /* the chain is every se-th element: write just those,
                 * one 8-byte row per stride (a TLB sweep's footprint
                 * can be far larger than its chain) */
                h64.resize(n / se);
                for (unsigned long long k = 0; k < n / se; k++) {
                    h64[k] = base + (k + 1) % (n / se) * (unsigned long long)sb;
                }
                MB_CHECK(cudaMemcpy2D(da, (size_t)sb, h64.data(), 8, 8,
                                      (size_t)(n / se),
                                      cudaMemcpyHostToDevice));
            } else {
                h64.resize(n);
                for (unsigned long long i = 0; i < n; i++) {
                    h64[i] = base + (i + se) % n * 8;
                }
                MB_CHECK(cudaMemcpy(da, h64.data(), (size_t)n * 8,
                                    cudaMemcpyHostToDevice));
            }
        } else {
            for (unsigned i = 0; i < words; i++) {
                h[i] = (unsigned)(((unsigned long long)i + sw) % words);
            }
            if (sp == S_CONST) {
                MB_CHECK(cudaMemcpyToSymbol(cbuf, h.data(),
                                            (size_t)words * 4));
            } else {
                MB_CHECK(cudaMemcpy(da, h.data(), (size_t)words * 4,
                                    cudaMemcpyHostToDevice));
            }
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
        std::printf("chase,%s,%lld,%lld,%.2f\n", sname, fp, sb,
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
