// Seeded racecheck hazards for tests/seeded.test: one bug per kernel
// on the lines marked "// @NAME.w" (the first access) and "// @NAME.r"
// or "// @NAME.w2" (the second), and correct twins (*_ok).  Blocks of
// 64 threads: threads 0 and 32 are in different warps.  Built to PTX
// by regen.sh.

// ---- shared memory, across the two warps of a CTA, no barrier
extern "C" __global__ void s_raw(int *out)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    s[i] = i;  // @s_raw.w
    if (i >= 32) out[i] = s[i - 32];  // @s_raw.r
}
extern "C" __global__ void s_war(int *out)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    if (i < 32) out[i] = s[i + 32];  // @s_war.r
    s[i] = i;  // @s_war.w
}
extern "C" __global__ void s_waw(int *out)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    s[i % 32] = i;  // @s_waw.w
    __syncthreads();
    out[i] = s[i % 32];
}
// byte and 8-byte accesses
extern "C" __global__ void s_raw_u8(int *out)
{
    __shared__ unsigned char s[64];
    int i = threadIdx.x;
    s[i] = i;  // @s_raw_u8.w
    if (i >= 32) out[i] = s[i - 32];  // @s_raw_u8.r
}
extern "C" __global__ void s_raw_u64(long long *out)
{
    __shared__ long long s[64];
    int i = threadIdx.x;
    s[i] = i;  // @s_raw_u64.w
    if (i >= 32) out[i] = s[i - 32];  // @s_raw_u64.r
}
// a tree reduction that forgot the barrier between two of its steps
extern "C" __global__ void s_reduce_nosync(int *out)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    s[i] = i;  // @s_reduce_nosync.w
    if (i < 32) s[i] += s[i + 32];  // @s_reduce_nosync.r
    __syncthreads();
    if (i == 0) out[0] = s[0] + s[1];
}
// the twins: a barrier between, and the full reduction
extern "C" __global__ void s_raw_ok(int *out)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    s[i] = i;
    __syncthreads();
    if (i >= 32) out[i] = s[i - 32];
}
extern "C" __global__ void s_reduce_ok(int *out)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    s[i] = i;
    __syncthreads();
    for (int k = 32; k > 0; k >>= 1) {
        if (i < k) s[i] += s[i + k];
        __syncthreads();
    }
    if (i == 0) out[0] = s[0];
}
// shared atomics from both warps: no hazard
extern "C" __global__ void s_atomic_ok(int *out)
{
    __shared__ int s[1];
    int i = threadIdx.x;
    if (i == 0) s[0] = 0;
    __syncthreads();
    atomicAdd(&s[0], 1);
    __syncthreads();
    if (i == 0) out[0] = s[0];
}

// ---- global memory, across warps of one CTA (block 64) and across
// CTAs (grid 2 x block 1), no barrier, fence or atomic between
extern "C" __global__ void g_raw_warp(int *g, int *out)
{
    int i = threadIdx.x;
    if (i == 0) g[1] = 7;  // @g_raw_warp.w
    if (i == 32) out[0] = g[1];  // @g_raw_warp.r
}
extern "C" __global__ void g_war_warp(int *g, int *out)
{
    int i = threadIdx.x;
    if (i == 0) out[0] = g[2];  // @g_war_warp.r
    if (i == 32) g[2] = 9;  // @g_war_warp.w
}
extern "C" __global__ void g_waw_warp(int *g, int *out)
{
    int i = threadIdx.x;
    if (i == 0 || i == 32) g[3] = i;  // @g_waw_warp.w
}
extern "C" __global__ void g_raw_cta(int *g, int *out)
{
    if (blockIdx.x == 0) g[0] = 7;  // @g_raw_cta.w
    if (blockIdx.x == 1) out[0] = g[0];  // @g_raw_cta.r
}
extern "C" __global__ void g_war_cta(int *g, int *out)
{
    if (blockIdx.x == 0) out[0] = g[0];  // @g_war_cta.r
    if (blockIdx.x == 1) g[0] = 9;  // @g_war_cta.w
}
extern "C" __global__ void g_waw_cta(int *g, int *out)
{
    g[0] = blockIdx.x;  // @g_waw_cta.w
}
// a flag handshake without the fence: the data write is not ordered
// before the flag, so the data read races with it
extern "C" __global__ void g_flag_nofence(int *g, int *out)
{
    if (blockIdx.x == 0) {
        g[1] = 42;  // @g_flag_nofence.w
        atomicExch(&g[0], 1);
    } else {
        while (atomicAdd(&g[0], 0) == 0) {
        }
        out[0] = g[1];  // @g_flag_nofence.r
    }
}
// the handshake done right by thread 0 of the second CTA, but thread
// 32 (another warp, no barrier after thread 0's acquire) reads the data
// (run with --grid 2 --block 64)
extern "C" __global__ void g_flag_other(int *g, int *out)
{
    int i = threadIdx.x;
    if (blockIdx.x == 0) {
        if (i == 0) {
            g[1] = 42;  // @g_flag_other.w
            __threadfence();
            atomicExch(&g[0], 1);
        }
    } else if (i == 0) {
        while (atomicAdd(&g[0], 0) == 0) {
        }
        __threadfence();
    } else if (i == 32) {
        out[0] = g[1];  // @g_flag_other.r
    }
}
// the twins: a barrier (same CTA), the handshake with its fence (also
// passed on by a barrier to the other threads of the CTA), and atomics
// only
extern "C" __global__ void g_warp_ok(int *g, int *out)
{
    int i = threadIdx.x;
    if (i == 0) g[1] = 7;
    __syncthreads();
    if (i == 32) out[0] = g[1];
}
extern "C" __global__ void g_flag_ok(int *g, int *out)
{
    if (blockIdx.x == 0) {
        g[1] = 42;
        __threadfence();
        atomicExch(&g[0], 1);
    } else {
        while (atomicAdd(&g[0], 0) == 0) {
        }
        __threadfence();
        out[0] = g[1];
    }
}
// the handshake's two sides for the twins below: block 0's thread 0
// publishes g[1] behind the flag g[0]; thread 0 of the other acquires
__device__ void publish(int *g)
{
    g[1] = 42;
    __threadfence();
    atomicExch(&g[0], 1);
}
__device__ void acquire_flag(int *g)
{
    while (atomicAdd(&g[0], 0) == 0) {
    }
    __threadfence();
}
extern "C" __global__ void g_flag_bar_ok(int *g, int *out)
{
    int i = threadIdx.x;
    if (blockIdx.x == 0) {
        if (i == 0)
            publish(g);
        return;
    }
    if (i == 0)
        acquire_flag(g);
    __syncthreads();
    if (i == 32)
        out[0] = g[1];
}
// one lane acquires, __syncwarp() passes it to the warp's others
extern "C" __global__ void g_flag_warp_ok(int *g, int *out)
{
    int i = threadIdx.x;
    if (blockIdx.x == 0) {
        if (i == 0)
            publish(g);
        return;
    }
    if (i == 0)
        acquire_flag(g);
    __syncwarp();
    if (i == 5)
        out[0] = g[1];
}
// ---- release per thread, acquires matched by address (PTX ISA,
// "Memory Consistency Model": a fence releases its own thread's
// writes, and other threads' only through a barrier before it; an
// acquire synchronizes with the release whose flag it reads)
// (run with --grid 2 --block 64)
// thread 32 fences and raises the flag, but thread 0's data write is
// not its own and no barrier passed it on: the fence releases nothing
extern "C" __global__ void g_rel_other(int *g, int *out)
{
    int i = threadIdx.x;
    if (blockIdx.x == 0) {
        if (i == 0)
            g[1] = 42;  // @g_rel_other.w
        if (i == 32) {
            while (atomicAdd(&g[2], 0) == 0) {  // thread 0 ran first
            }
            __threadfence();
            atomicExch(&g[0], 1);
        }
        if (i == 0)
            atomicExch(&g[2], 1);
    } else if (i == 0) {
        acquire_flag(g);
        out[0] = g[1];  // @g_rel_other.r
    }
}
// the data is released behind flag g[0], but the reader waits for
// another flag, g[3], that thread 32 raises after seeing g[0] with no
// fence of its own (a relaxed chain carries no release)
extern "C" __global__ void g_acq_other(int *g, int *out)
{
    int i = threadIdx.x;
    if (blockIdx.x == 0) {
        if (i == 0) {
            g[1] = 42;  // @g_acq_other.w
            __threadfence();
            atomicExch(&g[0], 1);
        }
        if (i == 32) {
            while (atomicAdd(&g[0], 0) == 0) {
            }
            atomicExch(&g[3], 1);
        }
    } else if (i == 0) {
        while (atomicAdd(&g[3], 0) == 0) {
        }
        __threadfence();
        out[0] = g[1];  // @g_acq_other.r
    }
}
// the twin of both: thread 0's write reaches thread 32's fence through a
// barrier (cumulativity), and the reader waits for that flag
extern "C" __global__ void g_rel_bar_ok(int *g, int *out)
{
    int i = threadIdx.x;
    if (blockIdx.x == 0) {
        if (i == 0)
            g[1] = 42;
        __syncthreads();
        if (i == 32) {
            __threadfence();
            atomicExch(&g[0], 1);
        }
    } else if (i == 0) {
        acquire_flag(g);
        out[0] = g[1];
    }
}
// and through __syncwarp() (bar.warp.sync is cumulative too): lane 1
// writes, lane 0 fences and raises the flag
extern "C" __global__ void g_rel_warp_ok(int *g, int *out)
{
    int i = threadIdx.x;
    if (blockIdx.x == 0) {
        if (i == 1)
            g[1] = 42;
        __syncwarp();
        if (i == 0) {
            __threadfence();
            atomicExch(&g[0], 1);
        }
    } else if (i == 0) {
        acquire_flag(g);
        out[0] = g[1];
    }
}
// ---- a named barrier orders only the warps taking part (PTX ISA,
// "bar, barrier"); run with --block 96
// warps 0 and 1 meet at barrier 1 of 64 threads; warp 2 writes without
// taking part
extern "C" __global__ void s_named_other(int *g, int *out)
{
    __shared__ int s[4];
    int w = threadIdx.x / 32;
    if (w == 2 && threadIdx.x == 64)
        s[0] = g[5];  // @s_named_other.w
    if (w < 2) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        if (threadIdx.x == 0)
            out[0] = s[0];  // @s_named_other.r
    }
}
// the twin: warp 2 produces and arrives (bar.arrive), warps 0 and 1
// wait for all 96
extern "C" __global__ void s_named_ok(int *g, int *out)
{
    __shared__ int s[4];
    int w = threadIdx.x / 32;
    if (w == 2) {
        if (threadIdx.x == 64)
            s[0] = g[5];
        asm volatile("bar.arrive 1, 96;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 96;" ::: "memory");
        if (threadIdx.x == 0)
            out[0] = s[0];
    }
}
extern "C" __global__ void g_atomic_ok(int *g, int *out)
{
    atomicAdd(&g[0], (int)blockIdx.x);
}
// each thread its own element: no two threads touch one byte
extern "C" __global__ void g_disjoint_ok(int *g, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    g[i] = i;
    out[0] = 0;
}
// ---- within one warp, under independent thread scheduling (the PTX
// targets sm_80): lanes on diverged paths that touch one address with
// no __syncwarp() between them race (CUDA C++ Programming Guide,
// "Independent Thread Scheduling").  Blocks of 32 threads (one warp);
// in[] holds 0, 1, 2, ... (iota), so lane i's loop runs i times and
// keeps the two paths apart.
// the upper half reads what the lower half writes on the other path
extern "C" __global__ void w_raw_div(int *out, const int *in)
{
    __shared__ int s[32];
    int i = threadIdx.x;
    if (i < 16) {
        s[i] = in[i];  // @w_raw_div.w
    } else {
        int v = 0;
        for (int k = 0; k < in[i]; k++)
            v += in[k];
        out[i] = s[i - 16] + v;  // @w_raw_div.r
    }
}
// two paths write one global word
extern "C" __global__ void w_waw_div(int *out, const int *in)
{
    int i = threadIdx.x;
    if (i == 0) {
        out[0] = 1;  // @w_waw_div.w
    } else if (i == 16) {
        int v = 0;
        for (int k = 0; k < in[i]; k++)
            v += in[k];
        out[0] = v;  // @w_waw_div.w2
    }
}
// writes on two paths, read after the paths meet again: without a
// __syncwarp() their reconvergence orders nothing
extern "C" __global__ void w_nosync(int *out, const int *in)
{
    __shared__ int s[32];
    int i = threadIdx.x;
    if (i < 16) {
        s[i] = in[i] + 1;  // @w_nosync.w
    } else {
        int v = 0;
        for (int k = 0; k < in[i]; k++)
            v += in[k];
        s[i] = v;  // @w_nosync.w2
        out[i + 32] = v;
    }
    out[i] = s[i ^ 16];  // @w_nosync.r
}
// the twins: the same with __syncwarp(); a converged warp's lanes
// (lock step: every lane on the path at both accesses)
extern "C" __global__ void w_syncwarp_ok(int *out, const int *in)
{
    __shared__ int s[32];
    int i = threadIdx.x;
    if (i < 16) {
        s[i] = in[i] + 1;
    } else {
        int v = 0;
        for (int k = 0; k < in[i]; k++)
            v += in[k];
        s[i] = v;
        out[i + 32] = v;
    }
    __syncwarp();
    out[i] = s[i ^ 16];
}
extern "C" __global__ void w_lockstep_ok(int *out, const int *in)
{
    __shared__ int s[32];
    int i = threadIdx.x;
    s[i] = in[i];
    out[i] = s[i ^ 1];
}
