// examples/cuda/tma.cu: the Hopper tensor memory accelerator (compute
// capability 9.0).  A matrix is transposed tile by tile: a TMA load
// brings a 32 x 32 tile into shared memory with the 128-byte swizzle,
// the threads transpose it into a second swizzled tile, and a TMA store
// writes that to the transposed position.  The matrix size is not a
// multiple of the tile: edge tiles read zeros beyond the matrix and
// their stores are clipped.  The tensor maps come from the driver API
// (cuTensorMapEncodeTiled).  Build and run with
//   nvcc -arch=sm_90 tma.cu -o tma -lcuda
//   ptxemu exec --arch sm_90 -- ./tma
#include <cuda.h>
#include <cuda/ptx>

#include "check.h"

namespace ptx = cuda::ptx;

#define T 32

// Byte offset of element (r, c) of a T x T float tile stored with the
// 128-byte swizzle: the 16-byte chunks of each 128-byte row are permuted
// by XOR with the row index modulo 8 (CUDA C++ Programming Guide, "TMA
// Swizzle"; the tile is 1024-byte aligned).
__device__ __forceinline__ unsigned swz(unsigned r, unsigned c)
{
    unsigned o = r * (T * 4) + c * 4;
    return o ^ ((r & 7u) << 4);
}

__global__ void transpose(const __grid_constant__ CUtensorMap in_map,
                          const __grid_constant__ CUtensorMap out_map)
{
    __shared__ alignas(1024) unsigned char a[T * T * 4];
    __shared__ alignas(1024) unsigned char b[T * T * 4];
    __shared__ alignas(8) uint64_t bar;
    int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_proxy_async(ptx::space_shared);
        int coords[2] = {x0, y0};
        ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, a,
                                  &in_map, coords, &bar);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &bar, sizeof(a));
    }
    __syncthreads();
    while (!ptx::mbarrier_try_wait_parity(&bar, 0))
        ;
    for (unsigned k = threadIdx.x; k < T * T; k += blockDim.x) {
        unsigned r = k / T, c = k % T;
        *(float *)(b + swz(c, r)) = *(const float *)(a + swz(r, c));
    }
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        int coords[2] = {y0, x0};
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared,
                                  &out_map, coords, b);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}

#define CU(call)                                                           \
    do {                                                                   \
        CUresult r_ = (call);                                              \
        EXPECT(r_ == CUDA_SUCCESS, "%s: CUresult %d", #call, (int)r_);     \
    } while (0)

// A row-major rows x cols float matrix with a pitch of `pitch` floats.
static CUtensorMap map_of(float *p, int rows, int cols, int pitch)
{
    CUtensorMap m;
    cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    cuuint64_t stride[1] = {(cuuint64_t)pitch * sizeof(float)};
    cuuint32_t box[2] = {T, T}, est[2] = {1, 1};
    CU(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, p,
                              dim, stride, box, est,
                              CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    return m;
}

int main()
{
    const int rows = 70, cols = 100;        // input: 70 x 100
    const int ipitch = 112, opitch = 80;    // 16-byte multiples
    const float unset = -1.0f;
    static float in[rows * ipitch], out[cols * opitch];
    for (int i = 0; i < rows * ipitch; i++)
        in[i] = (float)(i % 1013) * 0.5f;
    for (int i = 0; i < cols * opitch; i++)
        out[i] = unset;
    float *din, *dout;
    CHECK(cudaMalloc(&din, sizeof(in)));
    CHECK(cudaMalloc(&dout, sizeof(out)));
    CHECK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dout, out, sizeof(out), cudaMemcpyHostToDevice));

    CUtensorMap in_map = map_of(din, rows, cols, ipitch);
    CUtensorMap out_map = map_of(dout, cols, rows, opitch);
    // a map breaking a documented rule is refused
    CUtensorMap bad;
    cuuint64_t dim[2] = {100, 70}, stride[1] = {100 * 4 + 8};
    cuuint32_t box[2] = {T, T}, est[2] = {1, 1};
    EXPECT(cuTensorMapEncodeTiled(&bad, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
                                  din, dim, stride, box, est,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ==
               CUDA_ERROR_INVALID_VALUE,
           "a stride of 408 bytes (not a multiple of 16) was accepted");

    dim3 grid((cols + T - 1) / T, (rows + T - 1) / T);
    transpose<<<grid, 128>>>(in_map, out_map);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    for (int r = 0; r < cols; r++) {
        for (int c = 0; c < opitch; c++) {
            float want = c < rows ? in[c * ipitch + r] : unset;
            EXPECT(out[r * opitch + c] == want, "out[%d][%d] = %g, not %g",
                   r, c, (double)out[r * opitch + c], (double)want);
        }
    }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    return passed();
}
