// libcu++ atomics: cuda::atomic_ref and cuda::atomic with explicit memory
// orders and thread scopes (ld.acquire, st.release, atom.acq_rel, fence.sc).
#include <cuda/atomic>

extern "C" __global__ void atomic_ref_orders(int *counter, unsigned long long *big,
                                             float *fsum, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);
    cuda::atomic_ref<int, cuda::thread_scope_block> cb(counter[1]);
    cuda::atomic_ref<int, cuda::thread_scope_system> cs(counter[2]);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> b(*big);
    cuda::atomic_ref<float, cuda::thread_scope_device> f(*fsum);
    int r = c.fetch_add(1, cuda::std::memory_order_relaxed);
    r += c.fetch_sub(1, cuda::std::memory_order_acq_rel);
    r += cb.fetch_max(i, cuda::std::memory_order_release);
    r += cb.fetch_min(i, cuda::std::memory_order_acquire);
    r += cs.fetch_or(1 << (i & 15), cuda::std::memory_order_seq_cst);
    r += cs.exchange(i, cuda::std::memory_order_relaxed);
    r += c.load(cuda::std::memory_order_acquire);
    r += c.load(cuda::std::memory_order_seq_cst);
    cb.store(i, cuda::std::memory_order_release);
    int expected = 0;
    if (c.compare_exchange_strong(expected, i, cuda::std::memory_order_acq_rel,
                                  cuda::std::memory_order_relaxed))
        r += 1000;
    r += (int)b.fetch_add(2ull, cuda::std::memory_order_seq_cst);
    r += (int)b.fetch_xor((unsigned long long)i, cuda::std::memory_order_relaxed);
    r += (int)f.fetch_add(0.5f, cuda::std::memory_order_relaxed);
    cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_device);
    cuda::atomic_thread_fence(cuda::std::memory_order_acq_rel, cuda::thread_scope_block);
    out[i] = r;
}

// A simple spin lock using atomic_ref acquire/release semantics.
extern "C" __global__ void atomic_ref_spinlock(int *lock, int *shared_total, const int *vals, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || (threadIdx.x & 31) != 0)
        return;
    cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock);
    int v = vals[i];
    int expected;
    do {
        expected = 0;
    } while (!l.compare_exchange_weak(expected, 1, cuda::std::memory_order_acquire,
                                      cuda::std::memory_order_relaxed));
    *shared_total += v;
    l.store(0, cuda::std::memory_order_release);
}

__device__ cuda::atomic<unsigned, cuda::thread_scope_device> g_ticket(0);

extern "C" __global__ void atomic_ticket(unsigned *tickets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    tickets[i] = g_ticket.fetch_add(1u, cuda::std::memory_order_relaxed);
}
