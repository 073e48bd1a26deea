// Asynchronous global->shared copies (cp.async.ca/cg with commit_group and
// wait_group / wait_all) through the pipeline primitives, cuda::memcpy_async
// with cuda::pipeline, and cooperative_groups::memcpy_async.
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

#define TILE 128

// Double-buffered tile sum using the __pipeline_* primitives
extern "C" __global__ void cp_async_primitives(const float4 *in, float *out, int tiles)
{
    __shared__ float4 buf[2][TILE];
    int t = threadIdx.x;      // blockDim.x == TILE
    const float4 *base = in + (size_t)blockIdx.x * tiles * TILE;
    __pipeline_memcpy_async(&buf[0][t], &base[t], sizeof(float4));
    __pipeline_commit();
    float acc = 0.0f;
    for (int k = 0; k < tiles; k++) {
        if (k + 1 < tiles)
            __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &base[(k + 1) * TILE + t], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = buf[k & 1][(t + 1) % TILE];
        acc += v.x + v.y + v.z + v.w;
        __syncthreads();
    }
    out[blockIdx.x * TILE + t] = acc;
}

// 4- and 8-byte copies (cp.async.ca) and zero-fill of the tail
extern "C" __global__ void cp_async_small(const int *in, const int2 *in2, int *out, int n)
{
    __shared__ int s1[TILE];
    __shared__ int2 s2[TILE];
    int t = threadIdx.x;
    int i = blockIdx.x * TILE + t;
    if (i < n) {
        __pipeline_memcpy_async(&s1[t], &in[i], sizeof(int));
        __pipeline_memcpy_async(&s2[t], &in2[i], sizeof(int2));
    } else {
        __pipeline_memcpy_async(&s1[t], &in[0], sizeof(int), sizeof(int));   // zero fill
        s2[t] = make_int2(0, 0);
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    if (i < n)
        out[i] = s1[TILE - 1 - t] + s2[t].x * s2[t].y;
}

// cuda::pipeline (thread scope) with cuda::memcpy_async
extern "C" __global__ void cp_async_cuda_pipeline(const double *in, double *out, int n)
{
    __shared__ double sh[TILE];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    int i = blockIdx.x * TILE + t;
    pipe.producer_acquire();
    if (i < n)
        cuda::memcpy_async(&sh[t], &in[i], sizeof(double), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    if (i < n)
        out[i] = sh[t] * 2.0 + sh[(t + 3) % TILE];
    pipe.consumer_release();
}

// cooperative_groups::memcpy_async of a whole tile with cg::wait
extern "C" __global__ void cp_async_cg(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    cg::thread_block block = cg::this_thread_block();
    int base = blockIdx.x * blockDim.x;
    int count = min((int)blockDim.x, n - base);
    if (count <= 0)
        return;
    cg::memcpy_async(block, tile, in + base, sizeof(int) * count);
    cg::wait(block);
    int t = threadIdx.x;
    if (t < count)
        out[base + t] = tile[t] + tile[count - 1 - t];
}

// Raw cp.async.cg (16B, L2 only) with explicit group waits in PTX
extern "C" __global__ void cp_async_asm(const int4 *in, int4 *out, int n)
{
    __shared__ int4 sh[TILE];
    int t = threadIdx.x;
    int i = blockIdx.x * TILE + t;
    unsigned saddr = (unsigned)__cvta_generic_to_shared(&sh[t]);
    int src_size = (i < n) ? 16 : 0;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                 :: "r"(saddr), "l"(in + (i < n ? i : 0)), "r"(src_size) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    if (i < n) {
        int4 v = sh[TILE - 1 - t];
        out[i] = make_int4(v.w, v.z, v.y, v.x);
    }
}
