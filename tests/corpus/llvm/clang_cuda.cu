// CUDA compiled by clang (device-only, without the CUDA headers): kernels are
// marked with __attribute__((global)), shared memory with
// __attribute__((shared)), and intrinsics come from clang's NVVM builtins.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

static __device__ int gid()
{
    return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}

__device__ __attribute__((noinline)) float poly(float x)
{
    return ((0.25f * x - 0.5f) * x + 1.0f) * x;
}

extern "C" __global__ void saxpy_clang(float a, const float *x, float *y, int n)
{
    int i = gid();
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void shared_rotate(const int *in, int *out, int n)
{
    __shared__ int buf[128];
    int t = __nvvm_read_ptx_sreg_tid_x();
    int i = gid();
    buf[t] = (i < n) ? in[i] : 0;
    __syncthreads();
    if (i < n)
        out[i] = buf[(t + 1) & 127] + __nvvm_shfl_sync_bfly_i32(0xffffffffu, buf[t], 1, 0x1f);
}

extern "C" __global__ void math_clang(const float *x, float *y, double *d, int n)
{
    int i = gid();
    if (i >= n)
        return;
    float v = x[i];
    y[i] = poly(v) + __nvvm_fma_rn_f(v, v, 1.0f) + __nvvm_sqrt_approx_f(__builtin_fabsf(v)) +
           __nvvm_fmin_f(v, 0.0f) + __nvvm_ex2_approx_f(v);
    d[i] = __nvvm_fma_rn_d((double)v, 2.0, 0.5) + (double)__builtin_popcount(i) +
           (double)__builtin_bitreverse32((unsigned)i);
    __nvvm_atom_add_gen_f(&y[0], 1.0f);
}
