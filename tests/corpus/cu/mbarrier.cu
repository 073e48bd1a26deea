// Shared-memory barriers: cuda::barrier (arrive/wait/arrive_and_drop), raw
// mbarrier.init/arrive/test_wait/inval, cuda::memcpy_async with a barrier
// (cp.async.mbarrier.arrive), and on compute_90 try_wait.parity and
// expect_tx.
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;
// cuda::barrier in __shared__ has a (trivial) constructor; it is initialised
// explicitly with init() by one thread.
#pragma nv_diag_suppress static_var_with_dynamic_init
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

extern "C" __global__ void cuda_barrier_phases(const int *in, int *out, int n, int rounds)
{
    __shared__ block_barrier bar;
    __shared__ int buf[256];
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    int v = (i < n) ? in[i] : 0;
    for (int r = 0; r < rounds; r++) {
        buf[t] = v;
        bar.arrive_and_wait();
        v += buf[(t + 1) % blockDim.x];
        block_barrier::arrival_token tok = bar.arrive();
        bar.wait(cuda::std::move(tok));
    }
    if (i < n)
        out[i] = v;
}

// Split arrive/wait with independent work in between, and arrive_and_drop
extern "C" __global__ void cuda_barrier_drop(const float *in, float *out, int n)
{
    __shared__ block_barrier bar;
    __shared__ float acc[256];
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    acc[t] = (i < n) ? in[i] : 0.0f;
    if (t >= blockDim.x / 2) {
        bar.arrive_and_drop();       // upper half leaves the barrier
        return;
    }
    auto tok = bar.arrive();
    float local = acc[t] * 2.0f;     // overlapped work
    bar.wait(cuda::std::move(tok));
    if (i < n)
        out[i] = local + acc[t + blockDim.x / 2];
}

// cuda::memcpy_async completing on a cuda::barrier
extern "C" __global__ void barrier_memcpy_async(const int4 *in, int4 *out, int n)
{
    __shared__ block_barrier bar;
    __shared__ alignas(16) int4 tile[128];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    int base = blockIdx.x * 128;
    int count = min(128, n - base);
    if (count > 0)
        cuda::memcpy_async(block, tile, in + base, cuda::aligned_size_t<16>(sizeof(int4) * count), bar);
    bar.arrive_and_wait();
    int t = threadIdx.x;
    if (t < count) {
        int4 v = tile[count - 1 - t];
        out[base + t] = make_int4(v.x + 1, v.y + 2, v.z + 3, v.w + 4);
    }
}

// Raw mbarrier PTX on a 64-bit shared-memory word. Phase 0: every thread
// arrives (odd threads with arrive_drop, leaving the barrier); phase 1: only
// the even threads take part.
extern "C" __global__ void mbarrier_raw(const int *in, int *out, int n)
{
    __shared__ unsigned long long mbar;
    __shared__ int data[256];
    int t = threadIdx.x;
    unsigned bar_addr = (unsigned)__cvta_generic_to_shared(&mbar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(bar_addr), "r"(blockDim.x) : "memory");
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    data[t] = (i < n) ? in[i] : 0;
    unsigned long long state;
    if (t & 1)
        asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(state) : "r"(bar_addr) : "memory");
    else
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(bar_addr) : "memory");
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar_addr), "l"(state) : "memory");
    }
    int v = data[(t + 7) % blockDim.x];
    unsigned pending;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(state));
    if (!(t & 1)) {
        data[t] = v;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(bar_addr) : "memory");
        done = 0;
        while (!done)
            asm volatile("{\n\t.reg .pred p;\n\t"
                         "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
                         "selp.u32 %0, 1, 0, p;\n\t}"
                         : "=r"(done) : "r"(bar_addr), "r"(1u) : "memory");
        v += data[(t + 2) % blockDim.x];
    }
    __syncthreads();
    if (t == 0)
        asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(bar_addr) : "memory");
    if (i < n)
        out[i] = v + (int)pending;
}

// cp.async with mbarrier-based completion (cp.async.mbarrier.arrive.noinc)
extern "C" __global__ void mbarrier_cp_async(const int *in, int *out, int n)
{
    __shared__ unsigned long long mbar;
    __shared__ int data[128];
    int t = threadIdx.x;    // blockDim.x == 128
    unsigned bar_addr = (unsigned)__cvta_generic_to_shared(&mbar);
    if (t == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar_addr), "r"(128) : "memory");
    __syncthreads();
    int i = blockIdx.x * 128 + t;
    unsigned dst = (unsigned)__cvta_generic_to_shared(&data[t]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;"
                 :: "r"(dst), "l"(in + (i < n ? i : 0)), "r"(i < n ? 4 : 0) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(bar_addr) : "memory");
#if __CUDA_ARCH__ >= 900
    unsigned ok = 0;
    while (!ok)
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok) : "r"(bar_addr), "r"(0u) : "memory");
#else
    unsigned ok = 0;
    while (!ok)
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok) : "r"(bar_addr), "r"(0u) : "memory");
#endif
    if (i < n)
        out[i] = data[127 - t];
}
