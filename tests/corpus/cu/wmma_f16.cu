// Tensor cores through nvcuda::wmma: 16x16x16 half inputs with f32 and f16
// accumulators, row/col layouts, and the 32x8x16 / 8x32x16 shapes.
#include <mma.h>
#include <cuda_fp16.h>

using namespace nvcuda;

// One warp computes one 16x16 tile of C = A*B + C, K a multiple of 16.
extern "C" __global__ void wmma_f16_f32(const __half *A, const __half *B, const float *C,
                                        float *D, int M, int N, int K)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles_n = N / 16;
    int tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm * 16 >= M)
        return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, C + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
        wmma::load_matrix_sync(b, B + tn * 16 * K + k, K);
        wmma::mma_sync(acc, a, b, acc);
    }
    for (int e = 0; e < acc.num_elements; e++)
        acc.x[e] = acc.x[e] * 0.5f;
    wmma::store_matrix_sync(D + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

// f16 accumulator, col-major A, row-major B, fill_fragment, col-major store
extern "C" __global__ void wmma_f16_f16(const __half *A, const __half *B, __half *D, int K)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
    wmma::fill_fragment(acc, __float2half(1.0f));
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + k * 16, 16);
        wmma::load_matrix_sync(b, B + k * 16, 16);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(D + blockIdx.x * 256, acc, 16, wmma::mem_col_major);
}

// The other two f16 shapes: m32n8k16 and m8n32k16
extern "C" __global__ void wmma_f16_shapes(const __half *A, const __half *B, float *D1, float *D2)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::row_major> a1;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> b1;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> c1;
    wmma::fill_fragment(c1, 0.0f);
    wmma::load_matrix_sync(a1, A, 16);
    wmma::load_matrix_sync(b1, B, 8);
    wmma::mma_sync(c1, a1, b1, c1);
    wmma::store_matrix_sync(D1, c1, 8, wmma::mem_row_major);

    wmma::fragment<wmma::matrix_a, 8, 32, 16, __half, wmma::col_major> a2;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, __half, wmma::col_major> b2;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> c2;
    wmma::fill_fragment(c2, 0.0f);
    wmma::load_matrix_sync(a2, A, 8);
    wmma::load_matrix_sync(b2, B, 16);
    wmma::mma_sync(c2, a2, b2, c2);
    wmma::store_matrix_sync(D2, c2, 32, wmma::mem_col_major);
}

// Fragments loaded from shared memory (wmma.load.*.shared)
extern "C" __global__ void wmma_shared(const __half *A, const __half *B, float *D)
{
    __shared__ __align__(32) __half sa[256];
    __shared__ __align__(32) __half sb[256];
    __shared__ __align__(32) float sd[256];
    for (int k = threadIdx.x; k < 256; k += blockDim.x) {
        sa[k] = A[k];
        sb[k] = B[k];
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    wmma::load_matrix_sync(a, sa, 16);
    wmma::load_matrix_sync(b, sb, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(sd, c, 16, wmma::mem_row_major);
    __syncthreads();
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
        D[k] = sd[k] + sd[255 - k];
}
