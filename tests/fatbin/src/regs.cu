// tests/fatbin/src/regs.cu: kernels whose register counts ptxas decides
// (tests/fatbin/regen_regs.sh records them): a small one, a fully
// unrolled one that declares hundreds of PTX registers but keeps few
// live, one holding 32 values at once, and one under __launch_bounds__.
extern "C" __global__ void small(int *p) { p[threadIdx.x] += 1; }

extern "C" __global__ void chain(unsigned *p, unsigned a, unsigned b)
{
    unsigned x = p[threadIdx.x];
#pragma unroll
    for (int i = 0; i < 256; i++)
        x = x * a + b;
    p[threadIdx.x] = x;
}

// 32 values live at once through 8 rounds
__device__ __forceinline__ void rounds(float *p, float a)
{
    float v[32];
#pragma unroll
    for (int i = 0; i < 32; i++)
        v[i] = p[threadIdx.x + i * 1024];
#pragma unroll
    for (int k = 0; k < 8; k++)
#pragma unroll
        for (int i = 0; i < 32; i++)
            v[i] = v[i] * a + v[(i + 1) % 32];
#pragma unroll
    for (int i = 0; i < 32; i++)
        p[threadIdx.x + i * 1024] = v[i];
}

extern "C" __global__ void wide(float *p, float a) { rounds(p, a); }

extern "C" __global__ void __launch_bounds__(256, 8)
bounded(float *p, float a)
{
    rounds(p, a);
}
