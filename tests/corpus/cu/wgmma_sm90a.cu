// Architecture-specific Hopper features (compute_90a only): warpgroup MMA
// (wgmma.fence / mma_async / commit_group / wait_group) with shared-memory
// matrix descriptors, and warp-specialised register reallocation
// (setmaxnreg.inc / setmaxnreg.dec).
// regen: sm90-only sm90a
#include <cuda_fp16.h>

// Build a wgmma matrix descriptor for a no-swizzle K-major tile.
__device__ __forceinline__ unsigned long long make_desc(const void *smem, unsigned lbo, unsigned sbo)
{
    unsigned addr = (unsigned)__cvta_generic_to_shared(smem);
    unsigned long long d = 0;
    d |= (unsigned long long)((addr & 0x3ffff) >> 4);
    d |= (unsigned long long)((lbo & 0x3ffff) >> 4) << 16;
    d |= (unsigned long long)((sbo & 0x3ffff) >> 4) << 32;
    return d;   // swizzle mode 0 (none) in bits 62-63
}

// One warpgroup (128 threads): D(64x8, f32) = A(64x16, f16) * B(16x8, f16)
extern "C" __global__ void __launch_bounds__(128) wgmma_m64n8k16(const __half *A, const __half *B, float *D)
{
    __shared__ alignas(128) __half sa[64 * 16];
    __shared__ alignas(128) __half sb[16 * 8];
    int t = threadIdx.x;
    for (int k = t; k < 64 * 16; k += 128)
        sa[k] = A[k];
    for (int k = t; k < 16 * 8; k += 128)
        sb[k] = B[k];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned long long da = make_desc(sa, 128, 256);
    unsigned long long db = make_desc(sb, 128, 256);
    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %6, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
                 "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n\t}"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "l"(da), "l"(db), "r"(0));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    D[t * 4 + 0] = d0;
    D[t * 4 + 1] = d1;
    D[t * 4 + 2] = d2;
    D[t * 4 + 3] = d3;
}

// Warp specialisation: warpgroup 0 (producer) gives registers back,
// warpgroup 1 (consumer) takes more. blockDim.x == 256.
extern "C" __global__ void __launch_bounds__(256, 1) setmaxnreg_specialised(const float *in, float *out, int n)
{
    __shared__ float stage[128];
    int wg = threadIdx.x / 128;
    int t = threadIdx.x % 128;
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        int i = blockIdx.x * 128 + t;
        stage[t] = (i < n) ? in[i] : 0.0f;
        asm volatile("bar.arrive 1, 256;" ::: "memory");
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        asm volatile("bar.sync 1, 256;" ::: "memory");
        float v = stage[t];
        float acc = 0.0f;
#pragma unroll 8
        for (int k = 0; k < 32; k++)
            acc = fmaf(acc, 0.5f, v * (float)k);
        int i = blockIdx.x * 128 + t;
        if (i < n)
            out[i] = acc;
    }
}
