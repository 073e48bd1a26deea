// Atomic read-modify-write operations on global memory for every type
// nvcc supports: int, unsigned, unsigned long long, long long, float, double.
// The value-discarding red.* forms come from inline PTX (atomics_red_asm).
extern "C" __global__ void atomics_int(int *ctr, const int *vals, int *old_out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = vals[i];
    int o = 0;
    o += atomicAdd(&ctr[0], v);
    o += atomicSub(&ctr[1], v);
    o += atomicExch(&ctr[2], v);
    o += atomicMin(&ctr[3], v);
    o += atomicMax(&ctr[4], v);
    o += atomicAnd(&ctr[5], v);
    o += atomicOr(&ctr[6], v);
    o += atomicXor(&ctr[7], v);
    o += atomicCAS(&ctr[8], i, v);
    old_out[i] = o;
    // results unused (nvcc still emits atom.*; ptxas turns them into RED)
    atomicAdd(&ctr[9], 1);
    atomicMin(&ctr[10], v);
    atomicOr(&ctr[11], 1 << (i & 31));
}

extern "C" __global__ void atomics_uint(unsigned *ctr, const unsigned *vals, unsigned *old_out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = vals[i];
    unsigned o = 0;
    o += atomicAdd(&ctr[0], v);
    o += atomicSub(&ctr[1], v);
    o += atomicExch(&ctr[2], v);
    o += atomicMin(&ctr[3], v);
    o += atomicMax(&ctr[4], v);
    o += atomicInc(&ctr[5], 17u);
    o += atomicDec(&ctr[6], 23u);
    o += atomicAnd(&ctr[7], v);
    o += atomicOr(&ctr[8], v);
    o += atomicXor(&ctr[9], v);
    o += atomicCAS(&ctr[10], 0u, v);
    old_out[i] = o;
    atomicInc(&ctr[11], 100u);
    atomicDec(&ctr[12], 100u);
    atomicMax(&ctr[13], v);
}

extern "C" __global__ void atomics_u64(unsigned long long *ctr, long long *sctr,
                                       const unsigned long long *vals,
                                       unsigned long long *old_out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long v = vals[i];
    unsigned long long o = 0;
    o += atomicAdd(&ctr[0], v);
    o += atomicExch(&ctr[1], v);
    o += atomicMin(&ctr[2], v);
    o += atomicMax(&ctr[3], v);
    o += atomicAnd(&ctr[4], v);
    o += atomicOr(&ctr[5], v);
    o += atomicXor(&ctr[6], v);
    o += atomicCAS(&ctr[7], 0ull, v);
    o += (unsigned long long)atomicMin(&sctr[0], (long long)v);
    o += (unsigned long long)atomicMax(&sctr[1], (long long)v);
    o += (unsigned long long)atomicAnd(&sctr[2], (long long)v);
    old_out[i] = o;
    atomicAdd(&ctr[8], 1ull);
    atomicXor(&ctr[9], v);
}

extern "C" __global__ void atomics_fp(float *fctr, double *dctr, const float *fv, float *fold,
                                      double *dold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = fv[i];
    fold[i] = atomicAdd(&fctr[0], v) + atomicExch(&fctr[1], v);
    dold[i] = atomicAdd(&dctr[0], (double)v);
    atomicAdd(&fctr[2], v * 2.0f);
    atomicAdd(&dctr[1], (double)v * 3.0);
}

// Lock-free float max via CAS loop on the integer view
__device__ float atomic_max_float(float *addr, float value)
{
    int *ia = (int *)addr;
    int old = *ia, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value)
            break;
        old = atomicCAS(ia, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

extern "C" __global__ void atomics_cas_loop(float *maxv, unsigned long long *packed,
                                            const float *vals, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomic_max_float(maxv, vals[i]);
    // 64-bit CAS loop that maintains (count, sum) in one word
    unsigned long long old = *packed, assumed;
    do {
        assumed = old;
        unsigned cnt = (unsigned)(assumed >> 32) + 1;
        unsigned sum = (unsigned)assumed + (unsigned)i;
        old = atomicCAS(packed, assumed, ((unsigned long long)cnt << 32) | sum);
    } while (assumed != old);
}

// nvcc emits atom.* even when the result is unused (ptxas turns those into
// RED); the value-discarding red.* instructions written directly in PTX:
extern "C" __global__ void atomics_red_asm(unsigned *uctr, float *fctr, unsigned long long *lctr,
                                           unsigned *hctr, const unsigned *vals, int n)
{
    __shared__ unsigned sh[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 4)
        sh[threadIdx.x] = 0;
    __syncthreads();
    unsigned v = (i < n) ? vals[i] : 0;
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(uctr), "r"(v) : "memory");
    asm volatile("red.global.max.u32 [%0], %1;" :: "l"(uctr + 1), "r"(v) : "memory");
    asm volatile("red.global.and.b32 [%0], %1;" :: "l"(uctr + 2), "r"(v | 0xff000000u) : "memory");
    asm volatile("red.global.inc.u32 [%0], %1;" :: "l"(uctr + 3), "r"(63u) : "memory");
    asm volatile("red.global.add.f32 [%0], %1;" :: "l"(fctr), "f"((float)v * 0.5f) : "memory");
    asm volatile("red.global.add.u64 [%0], %1;" :: "l"(lctr), "l"((unsigned long long)v) : "memory");
    asm volatile("red.global.add.noftz.f16x2 [%0], %1;" :: "l"(hctr), "r"(0x3c003c00u) : "memory");
    asm volatile("red.gpu.global.xor.b32 [%0], %1;" :: "l"(uctr + 4), "r"(v) : "memory");
    unsigned saddr = (unsigned)__cvta_generic_to_shared(&sh[v & 3]);
    asm volatile("red.shared.add.u32 [%0], %1;" :: "r"(saddr), "r"(1u) : "memory");
    __syncthreads();
    if (threadIdx.x < 4)
        atomicAdd(&uctr[5 + threadIdx.x], sh[threadIdx.x]);
}
