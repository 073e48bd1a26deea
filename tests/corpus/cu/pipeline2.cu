// A double-buffered copy through shared memory with a block-scoped
// cuda::pipeline of two stages: tile k+2 is copied (cuda::memcpy_async)
// while tile k is consumed.  Each CTA streams its own ntiles tiles of
// 128 ints (blockDim.x == 128):
//   out[k*128 + t] = 3 * tile_k[(t + 1) % 128] + k
#include <cuda/pipeline>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#pragma nv_diag_suppress static_var_with_dynamic_init

extern "C" __global__ void pipeline_double_buffer(const int *in, int *out,
                                                  int ntiles)
{
    constexpr int T = 128;
    constexpr int stages = 2;
    __shared__ alignas(16) int buf[stages][T];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages>
        state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    const int *src = in + (size_t)blockIdx.x * ntiles * T;
    int *dst = out + (size_t)blockIdx.x * ntiles * T;
    for (int k = 0; k < stages && k < ntiles; k++) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[k], src + k * T,
                           cuda::aligned_size_t<16>(sizeof(int) * T), pipe);
        pipe.producer_commit();
    }
    int t = threadIdx.x;
    for (int k = 0; k < ntiles; k++) {
        pipe.consumer_wait();
        int v = buf[k % stages][(t + 1) % T];
        pipe.consumer_release();
        dst[k * T + t] = 3 * v + k;
        if (k + stages < ntiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[k % stages],
                               src + (k + stages) * T,
                               cuda::aligned_size_t<16>(sizeof(int) * T),
                               pipe);
            pipe.producer_commit();
        }
    }
}
