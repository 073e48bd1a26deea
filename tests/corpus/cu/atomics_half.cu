// Packed half / bfloat16 atomics: atom.add.noftz.f16x2 / bf16x2 and the
// scalar forms, plus float2/float4 vector atomics on compute_90.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void atomics_half2(__half2 *acc2, __half *acc, const __half2 *v2,
                                         __half2 *old_out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 v = v2[i];
    old_out[i] = atomicAdd(acc2, v);
    atomicAdd(acc, __low2half(v));
    atomicAdd(acc2 + 1, __lowhigh2highlow(v));
}

extern "C" __global__ void atomics_bf162(__nv_bfloat162 *acc2, __nv_bfloat16 *acc,
                                         const __nv_bfloat162 *v2, __nv_bfloat162 *old_out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat162 v = v2[i];
    old_out[i] = atomicAdd(acc2, v);
    atomicAdd(acc, __high2bfloat16(v));
    atomicAdd(acc2 + 1, v);
}

extern "C" __global__ void atomics_half_shared(const __half2 *v2, __half2 *out, int n)
{
    __shared__ __half2 s;
    if (threadIdx.x == 0)
        s = __float2half2_rn(0.0f);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&s, v2[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HAVE_VEC_ATOMICS 1
#endif

extern "C" __global__ void atomics_float_vec(float2 *acc2, float4 *acc4, const float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = v[i];
#ifdef HAVE_VEC_ATOMICS
    atomicAdd(acc2, make_float2(x, 2.0f * x));
    atomicAdd(acc4, make_float4(x, -x, 0.5f * x, 1.0f));
#else
    atomicAdd(&acc2->x, x);
    atomicAdd(&acc2->y, 2.0f * x);
    atomicAdd(&acc4->x, x);
    atomicAdd(&acc4->w, 1.0f);
#endif
}
