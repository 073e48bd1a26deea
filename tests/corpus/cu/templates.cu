// Templates instantiated for several types and exposed through extern "C"
// wrappers; also a templated __device__ function kept out of line so the
// mangled .func names appear in the PTX.
// regen: -lineinfo
#include <cuda_fp16.h>

template <typename T>
struct Accum {
    T sum;
    T maxv;
    __device__ void add(T v)
    {
        sum += v;
        maxv = v > maxv ? v : maxv;
    }
};

template <typename T, int N>
__device__ __noinline__ T dot_fixed(const T *a, const T *b)
{
    T r = T(0);
#pragma unroll
    for (int k = 0; k < N; k++)
        r += a[k] * b[k];
    return r;
}

template <typename T>
__device__ void saxpy_impl(T alpha, const T *x, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
}

template <typename T, int BLOCK>
__device__ void reduce_impl(const T *in, T *out, T *maxout, int n)
{
    __shared__ T s_sum[BLOCK];
    __shared__ T s_max[BLOCK];
    Accum<T> acc = {T(0), in[0]};
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        acc.add(in[i]);
    s_sum[threadIdx.x] = acc.sum;
    s_max[threadIdx.x] = acc.maxv;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if ((int)threadIdx.x < s) {
            s_sum[threadIdx.x] += s_sum[threadIdx.x + s];
            if (s_max[threadIdx.x + s] > s_max[threadIdx.x])
                s_max[threadIdx.x] = s_max[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[blockIdx.x] = s_sum[0];
        maxout[blockIdx.x] = s_max[0];
    }
}

extern "C" __global__ void saxpy_f32(float a, const float *x, float *y, int n) { saxpy_impl(a, x, y, n); }
extern "C" __global__ void saxpy_f64(double a, const double *x, double *y, int n) { saxpy_impl(a, x, y, n); }
extern "C" __global__ void saxpy_i32(int a, const int *x, int *y, int n) { saxpy_impl(a, x, y, n); }
extern "C" __global__ void saxpy_f16(__half a, const __half *x, __half *y, int n) { saxpy_impl(a, x, y, n); }

extern "C" __global__ void reduce_f32(const float *in, float *out, float *m, int n) { reduce_impl<float, 128>(in, out, m, n); }
extern "C" __global__ void reduce_i64(const long long *in, long long *out, long long *m, int n) { reduce_impl<long long, 64>(in, out, m, n); }
extern "C" __global__ void reduce_u8(const unsigned char *in, unsigned char *out, unsigned char *m, int n) { reduce_impl<unsigned char, 32>(in, out, m, n); }

extern "C" __global__ void dots(const float *a, const double *b, const int *c, float *fo, double *dout,
                                int *io)
{
    int i = threadIdx.x;
    fo[i] = dot_fixed<float, 4>(a + 4 * i, a + 4 * i + 4);
    dout[i] = dot_fixed<double, 3>(b + 3 * i, b + 3 * i + 3);
    io[i] = dot_fixed<int, 8>(c + 8 * i, c + 8 * i + 8);
}

// A C++ kernel template that is NOT extern "C": the mangled entry name appears
template <typename T>
__global__ void scale_kernel(T *data, T factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}
template __global__ void scale_kernel<float>(float *, float, int);
template __global__ void scale_kernel<unsigned short>(unsigned short *, unsigned short, int);
