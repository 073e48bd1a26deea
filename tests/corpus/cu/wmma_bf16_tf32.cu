// Tensor cores with bfloat16, tf32 (precision::tf32) and double (m8n8k4)
// inputs via nvcuda::wmma.
#include <mma.h>
#include <cuda_bf16.h>

using namespace nvcuda;

extern "C" __global__ void wmma_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *D, int K)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + k, K);
        wmma::load_matrix_sync(b, B + k, K);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_tf32(const float *A, const float *B, float *D, int K)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < K; k += 8) {
        wmma::load_matrix_sync(a, A + k, K);
        wmma::load_matrix_sync(b, B + k * 16, 16);
        for (int e = 0; e < a.num_elements; e++)
            a.x[e] = wmma::__float_to_tf32(a.x[e]);     // cvt.rna.tf32.f32
        for (int e = 0; e < b.num_elements; e++)
            b.x[e] = wmma::__float_to_tf32(b.x[e]);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(D, c, 16, wmma::mem_col_major);
}

extern "C" __global__ void wmma_f64(const double *A, const double *B, double *D)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
    wmma::fill_fragment(c, 0.0);
    wmma::load_matrix_sync(a, A, 4);
    wmma::load_matrix_sync(b, B, 4);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}
