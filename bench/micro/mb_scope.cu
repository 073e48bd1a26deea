/*
 * bench/micro/mb_scope.cu: what is shared between SMs: the clock
 * register and the caches (Wong et al. 2010, section IV-A Fig. 5 and
 * section IV-J Fig. 20).
 *
 * Clock scope (--clock): B one-thread blocks, launched together, each
 * read %smid and clock64() as they start, spin a fixed number of cycles
 * and read the clock again.  Blocks whose SMs share one clock register
 * read start values a launch's skew apart; SMs with counters of their
 * own read unrelated ones.  Wong et al. find one counter per TPC on
 * GT200 (blocks of one TPC agree).  Each row is a block's start
 * relative to block 0's, and its own elapsed cycles:
 *   clock,BLOCK,SMID,START_MINUS_BLOCK0,ELAPSED
 *
 * Cache sharing scope (--space global|const|tex): two chasers follow
 * pointer chains (as mb_chase: a[i] = i + stride, one thread each) over
 * two disjoint arrays of the same footprint at once, first in full to
 * warm the caches, then timed.  Placed in one CTA (two warps: the same
 * SM) or in two CTAs (one warp each, on the SMs the block scheduler
 * picks; both SMs are printed).  A cache the two share holds both
 * arrays, so its capacity shows at half the footprint a single chaser
 * sees: Wong et al. find the constant L1 looking like 1 KB on one SM
 * (2 KB alone), the L2 4 KB on one TPC (8 KB) and the L3 16 KB anywhere
 * (32 KB).  Rows (the slower chaser's cycles per load):
 *   share,SPACE,PLACEMENT,SMID0,SMID1,FOOTPRINT,STRIDE,CYCLES
 *   PLACEMENT: sm (one CTA) or ctas (two CTAs)
 *
 *   mb_scope --clock [--blocks B] [--spin CYCLES]
 *   mb_scope --space global|const|tex --min B --max B --step B
 *            --stride B [--steps N] [--quick]
 */
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "mb.h"

__global__ void clock_scope(long long spin, long long *start,
                            long long *elapsed, unsigned *smid)
{
    long long t0 = clock64(), t1;
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    do {
        t1 = clock64();
    } while (t1 - t0 < spin);
    start[blockIdx.x] = t0;
    elapsed[blockIdx.x] = t1 - t0;
    smid[blockIdx.x] = s;
}

enum Space { S_GLOBAL, S_CONST, S_TEX };

#define CONST_WORDS 16384 /* the 64 KB constant bank: two halves */
__constant__ unsigned cbuf[CONST_WORDS];

template <int SP>
__device__ __forceinline__ unsigned long long
step(cudaTextureObject_t t, unsigned long long j)
{
    if (SP == S_GLOBAL) {
        asm volatile("ld.global.u64 %0, [%0];" : "+l"(j));
        return j;
    } else if (SP == S_CONST) {
        return cbuf[j];
    } else {
        return tex1Dfetch<unsigned>(t, (int)j);
    }
}

/* Chaser c (lane 0 of warp c in one CTA, or of CTA c) starts at
 * first[c]; both warm, meet at a barrier when they share a CTA, and
 * time `steps` loads. */
template <int SP>
__global__ void share_chase(cudaTextureObject_t t,
                            const unsigned long long *first, unsigned warm,
                            unsigned steps, unsigned long long *sink,
                            long long *cycles, unsigned *smid)
{
    bool one_cta = blockDim.x > 32;
    int c = one_cta ? threadIdx.x / 32 : blockIdx.x;
    bool lead = (threadIdx.x & 31) == 0;
    unsigned long long j = first[c];
    long long t0 = 0, t1 = 0;
    for (int rep = 0; rep < 2; rep++) {
        if (one_cta) {
            __syncthreads();
        }
        if (lead) {
            unsigned n = rep ? steps : warm;
            t0 = clock64();
            for (unsigned i = 0; i < n; i += 16) {
#pragma unroll
                for (int k = 0; k < 16; k++) {
                    j = step<SP>(t, j);
                }
            }
            t1 = clock64();
        }
    }
    if (lead) {
        unsigned s;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
        sink[c] = j;
        cycles[c] = t1 - t0;
        smid[c] = s;
    }
}

static int clock_mode(int argc, char **argv)
{
    int blocks = (int)mb_opt(argc, argv, "--blocks", 0);
    long long spin = mb_opt(argc, argv, "--spin", 20000);
    if (blocks <= 0) {
        cudaDeviceProp prop;
        MB_CHECK(cudaGetDeviceProperties(&prop, 0));
        blocks = prop.multiProcessorCount; /* one per SM, typically */
    }
    long long *st, *el;
    unsigned *sm;
    MB_CHECK(cudaMalloc(&st, blocks * 8));
    MB_CHECK(cudaMalloc(&el, blocks * 8));
    MB_CHECK(cudaMalloc(&sm, blocks * 4));
    clock_scope<<<blocks, 1>>>(spin, st, el, sm); /* warm-up */
    clock_scope<<<blocks, 1>>>(spin, st, el, sm);
    MB_CHECK(cudaGetLastError());
    std::vector<long long> hs(blocks), he(blocks);
    std::vector<unsigned> hm(blocks);
    MB_CHECK(cudaMemcpy(hs.data(), st, blocks * 8, cudaMemcpyDeviceToHost));
    MB_CHECK(cudaMemcpy(he.data(), el, blocks * 8, cudaMemcpyDeviceToHost));
    MB_CHECK(cudaMemcpy(hm.data(), sm, blocks * 4, cudaMemcpyDeviceToHost));
    std::printf("clock,block,smid,start_minus_block0,elapsed\n");
    for (int b = 0; b < blocks; b++) {
        std::printf("clock,%d,%u,%lld,%lld\n", b, hm[b], hs[b] - hs[0], he[b]);
    }
    cudaFree(st);
    cudaFree(el);
    cudaFree(sm);
    return 0;
}

int main(int argc, char **argv)
{
    if (mb_flag(argc, argv, "--clock")) {
        return clock_mode(argc, argv);
    }
    const char *sname = mb_sopt(argc, argv, "--space", "const");
    bool quick = mb_flag(argc, argv, "--quick");
    long long lo = mb_opt(argc, argv, "--min", 512);
    long long hi = mb_opt(argc, argv, "--max", quick ? 4096 : 16384);
    long long stepb = mb_opt(argc, argv, "--step", 256);
    long long stride = mb_opt(argc, argv, "--stride", 64);
    long long steps_opt = mb_opt(argc, argv, "--steps", 0);
    int sp = !std::strcmp(sname, "global") ? S_GLOBAL
             : !std::strcmp(sname, "const") ? S_CONST
             : !std::strcmp(sname, "tex")   ? S_TEX
                                            : -1;
    int esz = sp == S_GLOBAL ? 8 : 4; /* an address or an index */
    if (sp < 0 || lo < esz || hi < lo || stepb < esz || stride < esz ||
        stride % esz || lo % esz || stepb % esz ||
        (sp == S_CONST && hi > CONST_WORDS * 2)) {
        std::fprintf(stderr,
            "usage: mb_scope --clock [--blocks B] [--spin CYCLES]\n"
            "       mb_scope --space global|const|tex --min B --max B "
            "--step B --stride B [--steps N] [--quick]\n"
            "(sizes: multiples of 8 bytes for global, 4 otherwise; const: "
            "--max up to 32 KB, half the bank)\n");
        return 2;
    }
    /* the second array starts after the first, a 4 KB-aligned gap on */
    size_t half = ((size_t)hi + 4095) / 4096 * 4096;
    unsigned *da;
    unsigned long long *dfirst, *dsink;
    long long *dcyc;
    unsigned *dsm;
    MB_CHECK(cudaMalloc(&da, 2 * half));
    MB_CHECK(cudaMalloc(&dfirst, 16));
    MB_CHECK(cudaMalloc(&dsink, 16));
    MB_CHECK(cudaMalloc(&dcyc, 16));
    MB_CHECK(cudaMalloc(&dsm, 8));
    cudaTextureObject_t tex = 0;
    if (sp == S_TEX) {
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = da;
        rd.res.linear.desc = cudaCreateChannelDesc<unsigned>();
        rd.res.linear.sizeInBytes = 2 * half;
        cudaTextureDesc td = {};
        td.readMode = cudaReadModeElementType;
        MB_CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    }
    if (sp == S_CONST) {
        half = CONST_WORDS * 2; /* the chains in the bank's two halves */
    }
    std::printf("share,space,placement,smid0,smid1,footprint,stride,"
                "cycles_per_load\n");
    for (long long fp = lo; fp <= hi; fp += stepb) {
        unsigned long long n = (unsigned long long)fp / esz, se = stride / esz;
        unsigned long long chain = (n + se - 1) / se;
        unsigned warm = (unsigned)((chain + 15) / 16 * 16);
        unsigned steps = steps_opt > 0
                             ? (unsigned)((steps_opt + 15) / 16 * 16)
                             : (unsigned)((chain * 2 > 512 ? chain * 2 : 512)
                                          + 15) / 16 * 16;
        unsigned long long first[2];
        std::vector<unsigned long long> h64;
        std::vector<unsigned> h32;
        for (int c = 0; c < 2; c++) {
            size_t off = c * half; /* bytes */
            if (sp == S_GLOBAL) {
                unsigned long long base = (uintptr_t)da + off;
                h64.resize(n);
                for (unsigned long long i = 0; i < n; i++) {
                    h64[i] = base + (i + se) % n * 8;
                }
                MB_CHECK(cudaMemcpy((char *)da + off, h64.data(), n * 8,
                                    cudaMemcpyHostToDevice));
                first[c] = base;
            } else {
                unsigned long long b = off / 4; /* index of element 0 */
                h32.resize(n);
                for (unsigned long long i = 0; i < n; i++) {
                    h32[i] = (unsigned)(b + (i + se) % n);
                }
                if (sp == S_CONST) {
                    MB_CHECK(cudaMemcpyToSymbol(cbuf, h32.data(), n * 4, off));
                } else {
                    MB_CHECK(cudaMemcpy((char *)da + off, h32.data(), n * 4,
                                        cudaMemcpyHostToDevice));
                }
                first[c] = b;
            }
        }
        MB_CHECK(cudaMemcpy(dfirst, first, 16, cudaMemcpyHostToDevice));
        for (int ctas = 0; ctas < 2; ctas++) {
            dim3 g(ctas ? 2 : 1), b(ctas ? 32 : 64);
            switch (sp) {
            case S_GLOBAL:
                share_chase<S_GLOBAL><<<g, b>>>(tex, dfirst, warm, steps,
                                                dsink, dcyc, dsm);
                break;
            case S_CONST:
                share_chase<S_CONST><<<g, b>>>(tex, dfirst, warm, steps,
                                               dsink, dcyc, dsm);
                break;
            default:
                share_chase<S_TEX><<<g, b>>>(tex, dfirst, warm, steps, dsink,
                                             dcyc, dsm);
                break;
            }
            MB_CHECK(cudaGetLastError());
            long long cyc[2];
            unsigned sm[2];
            MB_CHECK(cudaMemcpy(cyc, dcyc, 16, cudaMemcpyDeviceToHost));
            MB_CHECK(cudaMemcpy(sm, dsm, 8, cudaMemcpyDeviceToHost));
            long long worst = cyc[0] > cyc[1] ? cyc[0] : cyc[1];
            std::printf("share,%s,%s,%u,%u,%lld,%lld,%.2f\n", sname,
                        ctas ? "ctas" : "sm", sm[0], sm[1], fp, stride,
                        (double)worst / steps);
        }
    }
    if (tex) {
        cudaDestroyTextureObject(tex);
    }
    cudaFree(da);
    cudaFree(dfirst);
    cudaFree(dsink);
    cudaFree(dcyc);
    cudaFree(dsm);
    return 0;
}
