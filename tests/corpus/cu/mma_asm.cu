// Warp-level matrix multiply through inline PTX: ldmatrix, mma.sync for
// f16 (f32 accumulate), bf16, tf32, s8 and f64, and movmatrix.
#include <cuda_fp16.h>

// One warp: D(16x8,f32) = A(16x16,f16,row) * B(16x8,f16,col) + C
// A, B are pre-arranged in fragment order; each lane loads its registers.
extern "C" __global__ void mma_m16n8k16_f16(const unsigned *A, const unsigned *B,
                                            const float *C, float *D)
{
    int lane = threadIdx.x & 31;
    unsigned a0 = A[lane * 4 + 0], a1 = A[lane * 4 + 1], a2 = A[lane * 4 + 2], a3 = A[lane * 4 + 3];
    unsigned b0 = B[lane * 2 + 0], b1 = B[lane * 2 + 1];
    float c0 = C[lane * 4 + 0], c1 = C[lane * 4 + 1], c2 = C[lane * 4 + 2], c3 = C[lane * 4 + 3];
    float d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1),
                   "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    D[lane * 4 + 0] = d0;
    D[lane * 4 + 1] = d1;
    D[lane * 4 + 2] = d2;
    D[lane * 4 + 3] = d3;
}

// ldmatrix from shared memory feeding m16n8k8 f16 with f16 accumulators
extern "C" __global__ void mma_ldmatrix(const __half *A, const __half *B, unsigned *D)
{
    __shared__ __align__(16) __half sa[16 * 8];
    __shared__ __align__(16) __half sb[8 * 8];
    int lane = threadIdx.x & 31;
    for (int k = lane; k < 128; k += 32)
        sa[k] = A[k];
    for (int k = lane; k < 64; k += 32)
        sb[k] = B[k];
    __syncwarp();
    unsigned a0, a1, b0, b0t;
    unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(lane & 15) * 8]);
    unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(lane & 7) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(a0), "=r"(a1) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(b0t) : "r"(pb));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(b0) : "r"(pb));
    unsigned d0, d1;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 "
                 "{%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(d0), "=r"(d1)
                 : "r"(a0), "r"(a1), "r"(b0t), "r"(0u), "r"(0u));
    unsigned m;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(m) : "r"(b0));
    D[lane * 3 + 0] = d0;
    D[lane * 3 + 1] = d1;
    D[lane * 3 + 2] = m;
}

extern "C" __global__ void mma_bf16_tf32(const unsigned *A, const unsigned *B, float *D)
{
    int lane = threadIdx.x & 31;
    unsigned a[4], b[2];
    for (int k = 0; k < 4; k++)
        a[k] = A[lane * 4 + k];
    for (int k = 0; k < 2; k++)
        b[k] = B[lane * 2 + k];
    float d[4], e[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %10, %10, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(0.0f));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(e[0]), "=f"(e[1]), "=f"(e[2]), "=f"(e[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
    for (int k = 0; k < 4; k++)
        D[lane * 4 + k] = e[k];
}

extern "C" __global__ void mma_int8_f64(const unsigned *A, const unsigned *B, const double *X,
                                        int *Di, double *Dd)
{
    int lane = threadIdx.x & 31;
    unsigned a0 = A[lane * 2], a1 = A[lane * 2 + 1], b0 = B[lane];
    int d[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32 "
                 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %7, %7, %7};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a0), "r"(a1), "r"(b0), "r"(0));
    for (int k = 0; k < 4; k++)
        Di[lane * 4 + k] = d[k];
    double x = X[lane], y = X[32 + lane], c0 = 0.0, c1 = 0.0;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+d"(c0), "+d"(c1) : "d"(x), "d"(y));
    Dd[lane * 2] = c0;
    Dd[lane * 2 + 1] = c1;
}
