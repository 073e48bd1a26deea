// Seeded synccheck bugs for tests/seeded.test: one bug per kernel on
// the line marked "// @NAME", and correct twins (*_ok).  Blocks of 64
// threads (two warps) unless cases.txt says otherwise.  Built to PTX
// by regen.sh.

// ---- __syncthreads() reached by part of a warp
extern "C" __global__ void y_div_warp(int *out)
{
    int i = threadIdx.x;
    if (i % 32 < 16) {
        out[i] = i;
        __syncthreads();  // @y_div_warp
    }
}
// reached by one lane only
extern "C" __global__ void y_div_lane(int *out)
{
    int i = threadIdx.x;
    if (i == 5) {
        __syncthreads();  // @y_div_lane
        out[0] = i;
    }
}
// ---- a warp returns before a __syncthreads() the other reaches
extern "C" __global__ void y_exit_before(int *out)
{
    int i = threadIdx.x;
    if (i >= 32) return;
    out[i] = i;
    __syncthreads();  // @y_exit_before
    out[i] += 1;
}
// reached by one warp of the two (the other skips it whole)
extern "C" __global__ void y_skip_warp(int *out)
{
    int i = threadIdx.x;
    out[i] = i;
    if (i < 32) __syncthreads();  // @y_skip_warp
    out[i] += 1;
}
// ---- barrier thread counts that differ between warps
extern "C" __global__ void y_count(int *out)
{
    int i = threadIdx.x;
    if (i < 32)
        asm volatile("bar.sync 1, 64;");
    else
        asm volatile("bar.sync 1, 96;");  // @y_count
    out[i] = i;
}
// ---- a .sync warp operation whose member mask leaves out the
// executing lane (the PTX instructions themselves, so that the
// reported line is this file's, not that of the intrinsic's header)
extern "C" __global__ void y_shfl_mask(int *out)
{
    int i = threadIdx.x, v;
    asm volatile("shfl.sync.idx.b32 %0, %1, 1, 31, %2;" : "=r"(v) : "r"(i), "r"(0xfffffffeu));  // @y_shfl_mask
    out[i] = v;
}
extern "C" __global__ void y_ballot_mask(int *out)
{
    int i = threadIdx.x;
    unsigned b;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }" : "=r"(b) : "r"(i & 1), "r"(0x0000ffffu));  // @y_ballot_mask
    out[i] = b;
}
extern "C" __global__ void y_syncwarp_mask(int *out)
{
    int i = threadIdx.x;
    out[i] = i;
    asm volatile("bar.warp.sync %0;" : : "r"(0x7fffffffu) : "memory");  // @y_syncwarp_mask
    out[i] += out[(i + 1) % 64];
}
extern "C" __global__ void y_any_mask(int *out)
{
    int i = threadIdx.x, a = 0;
    if (i % 32 < 8)
        asm volatile("{ .reg .pred p, q; setp.eq.u32 p, %1, 3; vote.sync.any.pred q, p, %2; selp.u32 %0, 1, 0, q; }" : "=r"(a) : "r"(i), "r"(0xf0u));  // @y_any_mask
    out[i] = a;
}
// through the CUDA intrinsic: its code is inlined from the CUDA header
// (.loc ... inlined_at), and the report names this line, the call site
extern "C" __global__ void y_shfl_intrinsic(int *out)
{
    int i = threadIdx.x;
    out[i] = __shfl_sync(0xfffffffeu, i, 1);  // @y_shfl_intrinsic
}
// ---- the twins
extern "C" __global__ void y_bar_ok(int *out)
{
    int i = threadIdx.x;
    out[i] = i;
    __syncthreads();
    out[i] += out[63 - i];
}
extern "C" __global__ void y_partial_mask_ok(int *out)
{
    int i = threadIdx.x;
    if (i % 32 < 16)
        out[i] = __shfl_sync(0x0000ffffu, i, 0);
}
extern "C" __global__ void y_syncwarp_ok(int *out)
{
    int i = threadIdx.x;
    out[i] = i;
    __syncwarp();
    out[i] += __ballot_sync(0xffffffffu, i & 1) != 0;
}
// ---- threads that never arrive: the launch deadlocks, and the report
// names the barrier, how many wait, and where the others went
// a counted barrier (64 threads) that warp 1 never reaches: it exited
extern "C" __global__ void y_never_exit(int *out)
{
    int i = threadIdx.x;
    if (i >= 32)
        return;  // (nvcc branches to the ret at the closing brace)
    asm volatile("bar.sync 1, 64;");  // @y_never_exit
    out[i] = i;
}  // @y_never_exit.gone
// the two warps wait at different barriers (two errors: each barrier
// waits for the warp at the other)
extern "C" __global__ void y_never_other(int *out)
{
    int i = threadIdx.x;
    if (i < 32)
        asm volatile("bar.sync 1;");  // @y_never_other
    else
        asm volatile("bar.sync 2;");  // @y_never_other.b
    out[i] = i;
}
// warp 1 spins on a flag that only threads past the barrier set
extern "C" __global__ void y_never_spin(volatile int *out)
{
    int i = threadIdx.x;
    if (i < 32) {
        __syncthreads();  // @y_never_spin
        out[0] = 1;
    } else {
        while (out[0] == 0)  // @y_never_spin.loop
            ;
    }
}
// __syncwarp() of the whole warp while half of it spins (independent
// thread scheduling: the PTX targets sm_80)
extern "C" __global__ void y_never_warp(volatile int *out)
{
    int i = threadIdx.x;
    if (i % 32 < 16) {
        __syncwarp();  // @y_never_warp
        out[i] = 1;
    } else {
        while (out[40] != 12345)  // @y_never_warp.loop
            ;
    }
}
// a thread count larger than the block
extern "C" __global__ void y_never_big(int *out)
{
    int i = threadIdx.x;
    out[i] = i;
    asm volatile("bar.sync 1, 96;" ::: "memory");  // @y_never_big
    out[i] += 1;
}
// the twins: every thread a counted barrier counts arrives; a
// __syncwarp() whose missing members have exited (allowed: "all
// non-exited threads named in mask must execute the same intrinsic")
extern "C" __global__ void y_count_ok(int *out)
{
    int i = threadIdx.x;
    out[i] = i;
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[i] += out[63 - i];
}
extern "C" __global__ void y_warp_exit_ok(int *out)
{
    int i = threadIdx.x;
    if (i % 32 >= 16)
        return;
    out[i] = i;
    __syncwarp();
    out[i] += 1;
}
// ---- .sync warp operations under independent thread scheduling whose
// members never come (the emulator must report, not hang)
// a shuffle of the whole warp while half of it spins
extern "C" __global__ void y_never_shfl(volatile int *out)
{
    int i = threadIdx.x;
    if (i % 32 < 16) {
        out[i] = __shfl_sync(0xffffffffu, i, 0);  // @y_never_shfl
    } else {
        while (out[40] != 12345)  // @y_never_shfl.loop
            ;
    }
}
// a vote of the whole warp while the other half waits at a shuffle
extern "C" __global__ void y_never_vote(int *out)
{
    int i = threadIdx.x;
    int v;
    if (i % 32 < 16)
        v = __ballot_sync(0xffffffffu, i & 1);  // @y_never_vote
    else
        v = __shfl_sync(0xffffffffu, i, 3);  // @y_never_vote.other
    out[i] = v;
}
// the twin: both halves reach the same shuffle after their branches
extern "C" __global__ void y_shfl_diverged_ok(int *out)
{
    int i = threadIdx.x;
    int v;
    if (i % 32 < 16)
        v = i * 2;
    else
        v = i + 7;
    out[i] = __shfl_sync(0xffffffffu, v, 17);
}
// ---- mbarrier misuse (PTX ISA, "mbarrier": an mbarrier in shared memory)
__device__ unsigned long long mb_arrive(unsigned a)
{
    unsigned long long s;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];"
                 : "=l"(s) : "r"(a) : "memory");
    return s;
}
__device__ unsigned long long mb_arrive_nc(unsigned a, unsigned n)
{
    unsigned long long s;
    asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;"
                 : "=l"(s) : "r"(a), "r"(n) : "memory");
    return s;
}
__device__ int mb_test(unsigned a, unsigned long long s)
{
    unsigned p;
    asm volatile("{\n\t.reg .pred q;\n\t"
                 "mbarrier.test_wait.shared.b64 q, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(p) : "r"(a), "l"(s) : "memory");
    return (int)p;
}
__device__ void mb_init(unsigned a, unsigned n)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a), "r"(n)
                 : "memory");
}
// the block's mbarrier, initialised by thread 0 to expect n arrivals
__device__ unsigned mb_shared(unsigned n)
{
    __shared__ unsigned long long bar;
    unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) mb_init(a, n);
    __syncthreads();
    return a;
}
// a wait with the token of a phase two phases back (its parity is the
// current phase's: on a GPU the wait never succeeds)
extern "C" __global__ void y_mbar_stale(int *out)
{
    unsigned a = mb_shared(1);
    if (threadIdx.x == 0) {
        unsigned long long t0 = mb_arrive(a);
        mb_arrive(a);
        out[0] = mb_test(a, t0);  // @y_mbar_stale
    }
}
// more arrivals than the phase awaits: 4 expected, 3 + 3 arrive
extern "C" __global__ void y_mbar_over(int *out)
{
    unsigned a = mb_shared(4);
    if (threadIdx.x < 2) {
        unsigned long long t = mb_arrive_nc(a, 3);  // @y_mbar_over
        out[threadIdx.x] = (int)t;
    }
}
// the twin: each phase waited for with its own token; 1 + 1 early
// arrivals then the last two
extern "C" __global__ void y_mbar_ok(int *out)
{
    unsigned a = mb_shared(4);
    if (threadIdx.x < 2) {
        mb_arrive_nc(a, 1);
        unsigned long long t = mb_arrive(a);
        while (!mb_test(a, t))
            ;
        out[threadIdx.x] = 1;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int k = 0; k < 3; k++) {
            mb_init(a, 1);
            unsigned long long t = mb_arrive(a);
            out[2 + k] = mb_test(a, t);
        }
    }
}
