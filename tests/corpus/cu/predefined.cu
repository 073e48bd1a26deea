// Predefined identifiers (PTX ISA section 4.4) and the reserved shared
// memory registers (section 10): warpSize is WARP_SZ in nvcc's PTX, and a
// cooperative-groups tile wider than a warp keeps its barrier word at
// %reserved_smem_offset_1 (nvcc 13).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// out[i] = warpSize * 1000 + the thread's lane (threadIdx.x % warpSize)
extern "C" __global__ void warp_size(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = warpSize * 1000 + (int)(threadIdx.x % warpSize);
}

// Tiles of 64 threads: each thread writes its slot, the tile syncs, and
// each reads the slot of the thread 33 ranks further on (in the other warp
// of the tile).  out[i] = meta_group_rank * 100000 + thread_rank * 1000 +
// the value read (the other thread's rank * 3 + 1).
extern "C" __global__ void wide_tile(int *out)
{
    __shared__ int slot[256];
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<64> t = cg::tiled_partition<64>(b);
    unsigned r = t.thread_rank();
    unsigned base = threadIdx.x - r;
    slot[threadIdx.x] = (int)(r * 3 + 1);
    t.sync();
    int got = slot[base + (r + 33) % 64];
    t.sync();
    slot[threadIdx.x] = -1;     // overwritten only after every read
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        (int)t.meta_group_rank() * 100000 + (int)r * 1000 + got;
}

// The reserved region's registers, the shared sizes (%aggr_smem_size
// needs sm_90), where the user's shared memory lies, and a store/load of
// the word at %reserved_smem_offset_0 (which a user may not rely on, but
// which is shared memory of the CTA: it does not fault).
extern "C" __global__ void reserved_smem(unsigned *out, unsigned v)
{
    extern __shared__ unsigned dyn[];
    __shared__ unsigned stat[40];
    unsigned b, e, c, o0, o1, tot, dsz, got;
    asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(b));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(e));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(c));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(o0));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(o1));
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(tot));
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dsz));
    stat[threadIdx.x % 40] = v;
    dyn[threadIdx.x] = v + 1;
    if (threadIdx.x == 0)
        asm volatile("st.shared.u32 [%0], %1;" :: "r"(o0), "r"(v + 2) : "memory");
    __syncthreads();
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(got) : "r"(o0) : "memory");
    unsigned *o = out + threadIdx.x * 12;
    o[0] = b; o[1] = e; o[2] = c; o[3] = o0; o[4] = o1;
    o[5] = tot; o[6] = (unsigned)__cvta_generic_to_shared(&dyn[0]); o[7] = dsz; o[8] = got;
    o[9] = stat[(threadIdx.x + 1) % 40];
    o[10] = dyn[threadIdx.x];
    o[11] = (unsigned)__cvta_generic_to_shared(&stat[0]);
}
