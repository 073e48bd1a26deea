// Scoped atomics: the _block (.cta) and _system (.sys) variants, plus
// explicit release/acquire/relaxed atom/red/ld/st via inline PTX.
extern "C" __global__ void atomics_block_scope(int *ctr, unsigned *uctr, float *fctr,
                                               unsigned long long *lctr, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int o = atomicAdd_block(&ctr[0], 1);
    o += atomicSub_block(&ctr[1], 2);
    o += atomicExch_block(&ctr[2], i);
    o += atomicMin_block(&ctr[3], i);
    o += atomicMax_block(&ctr[4], i);
    o += (int)atomicInc_block(&uctr[0], 255u);
    o += (int)atomicDec_block(&uctr[1], 255u);
    o += atomicCAS_block(&ctr[5], i, i + 1);
    o += atomicAnd_block(&ctr[6], ~i);
    o += atomicOr_block(&ctr[7], i);
    o += atomicXor_block(&ctr[8], i);
    o += (int)atomicAdd_block(&fctr[0], 0.5f);
    o += (int)atomicAdd_block(&lctr[0], 3ull);
    out[i] = o;
}

extern "C" __global__ void atomics_system_scope(int *ctr, unsigned *uctr, double *dctr,
                                                unsigned long long *lctr, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int o = atomicAdd_system(&ctr[0], 1);
    o += atomicSub_system(&ctr[1], 2);
    o += atomicExch_system(&ctr[2], i);
    o += atomicMin_system(&ctr[3], i);
    o += atomicMax_system(&ctr[4], i);
    o += (int)atomicInc_system(&uctr[0], 255u);
    o += (int)atomicDec_system(&uctr[1], 255u);
    o += atomicCAS_system(&ctr[5], i, i + 1);
    o += atomicAnd_system(&ctr[6], ~i);
    o += atomicOr_system(&ctr[7], i);
    o += atomicXor_system(&ctr[8], i);
    o += (int)atomicAdd_system(&dctr[0], 0.25);
    o += (int)atomicMax_system(&lctr[0], (unsigned long long)i);
    out[i] = o;
}

// Memory-ordering qualified forms written directly in PTX
extern "C" __global__ void atomics_ordered_asm(int *flag, int *data, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int old, seen, cas;
    asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], %2;"
                 : "=r"(old) : "l"(flag), "r"(1) : "memory");
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"(flag + 1), "r"(2) : "memory");
    asm volatile("red.relaxed.cta.global.max.s32 [%0], %1;" :: "l"(flag + 2), "r"(i) : "memory");
    asm volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(data + i), "r"(old) : "memory");
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(flag) : "memory");
    asm volatile("ld.relaxed.cta.global.s32 %0, [%1];" : "=r"(cas) : "l"(flag + 2) : "memory");
    asm volatile("atom.relaxed.sys.global.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(cas) : "l"(flag + 3), "r"(0), "r"(i) : "memory");
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    asm volatile("fence.sc.sys;" ::: "memory");
    out[i] = old + seen + cas;
}
