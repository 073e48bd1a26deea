// Integer tensor cores via nvcuda::wmma: s8/u8 inputs with s32 accumulate
// (with and without saturation), plus the experimental 4-bit and 1-bit
// (precision::s4 / precision::b1) shapes.
#include <mma.h>

using namespace nvcuda;

extern "C" __global__ void wmma_s8(const signed char *A, const signed char *B, const int *C,
                                   int *D, int K)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + k, K);
        wmma::load_matrix_sync(b, B + k, K);
        wmma::mma_sync(c, a, b, c, true);   // saturating
    }
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_u8(const unsigned char *A, const unsigned char *B, int *D)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, int> c;
    wmma::fill_fragment(c, 0);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 8);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_col_major);
}

extern "C" __global__ void wmma_s4_b1(const void *A4, const void *B4, const void *A1,
                                      const void *B1, int *D4, int *D1)
{
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> a4;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> b4;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> c4;
    wmma::fill_fragment(c4, 0);
    wmma::load_matrix_sync(a4, A4, 32);
    wmma::load_matrix_sync(b4, B4, 32);
    wmma::mma_sync(c4, a4, b4, c4);
    wmma::store_matrix_sync(D4, c4, 8, wmma::mem_row_major);

    wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> a1;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> b1;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> c1;
    wmma::fill_fragment(c1, 0);
    wmma::load_matrix_sync(a1, A1, 128);
    wmma::load_matrix_sync(b1, B1, 128);
    wmma::bmma_sync(c1, a1, b1, c1, bmmaBitOpAND);
    wmma::store_matrix_sync(D1, c1, 8, wmma::mem_row_major);
}
