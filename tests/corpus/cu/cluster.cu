// Thread block clusters (compute_90): __cluster_dims__ (.reqnctapercluster /
// .explicitcluster), cluster.sync() (barrier.cluster.arrive/wait),
// distributed shared memory through map_shared_rank (mapa + ld.shared::cluster),
// cluster special registers, getctarank, barrier.cluster.arrive/wait and
// fence.acq_rel.cluster.
// regen: sm90-only
#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;

#define BLOCK 128

// Each CTA of a 2-CTA cluster loads a tile; then every CTA reads the tile of
// its peer through distributed shared memory.
extern "C" __global__ void __cluster_dims__(2, 1, 1)
cluster_exchange(const int *in, int *out, int n)
{
    __shared__ int buf[BLOCK];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    buf[t] = (i < n) ? in[i] : 0;
    cluster.sync();
    int *peer = cluster.map_shared_rank(buf, rank ^ 1u);
    int v = peer[BLOCK - 1 - t];
    cluster.sync();           // keep peer smem alive until everyone has read
    if (i < n)
        out[i] = v * 2 + buf[t] + (int)cluster.num_blocks();
}

// Cluster-wide histogram: each CTA accumulates into the shared memory of
// CTA rank 0 with atomics on distributed shared memory.
extern "C" __global__ void __cluster_dims__(4, 1, 1)
cluster_histogram(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned bins[32];
    cg::cluster_group cluster = cg::this_cluster();
    int t = threadIdx.x;
    if (t < 32)
        bins[t] = 0;
    cluster.sync();
    unsigned *root = cluster.map_shared_rank(bins, 0);
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&root[data[i] & 31], 1u);
    cluster.sync();
    if (cluster.block_rank() == 0 && t < 32)
        atomicAdd(&hist[t], bins[t]);
}

// Cluster special registers and the split arrive/wait barrier in PTX
extern "C" __global__ void __cluster_dims__(2, 2, 1) cluster_sregs(unsigned *out)
{
    unsigned cid_x, ncid_x, cta_x, ncta_x, crank, nrank, isexp;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid_x));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(ncid_x));
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(cta_x));
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(ncta_x));
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
    asm("{\n\t.reg .pred p;\n\tmov.pred p, %%is_explicit_cluster;\n\tselp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(isexp));
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    unsigned g = blockIdx.x + gridDim.x * blockIdx.y;
    if (threadIdx.x == 0) {
        out[g * 8 + 0] = cid_x;
        out[g * 8 + 1] = ncid_x;
        out[g * 8 + 2] = cta_x;
        out[g * 8 + 3] = ncta_x;
        out[g * 8 + 4] = crank;
        out[g * 8 + 5] = nrank;
        out[g * 8 + 6] = isexp;
        out[g * 8 + 7] = cuda::ptx::get_sreg_cluster_ctarank();
    }
}

// Raw mapa / getctarank / ld.shared::cluster / st.shared::cluster, and the
// fence.acq_rel.cluster ordering
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_dsmem_asm(const int *in, int *out)
{
    __shared__ int slot[BLOCK];
    int t = threadIdx.x;
    unsigned my_rank = cg::this_cluster().block_rank();
    slot[t] = in[blockIdx.x * BLOCK + t];
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    unsigned local = (unsigned)__cvta_generic_to_shared(&slot[t]);
    unsigned remote, owner;
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(my_rank ^ 1u));
    asm("getctarank.shared::cluster.u32 %0, %1;" : "=r"(owner) : "r"(remote));
    int v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(remote), "r"(v + 1) : "memory");
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    out[blockIdx.x * BLOCK + t] = slot[t] * 16 + (int)owner;
}

// Kernel without compile-time cluster dims: the cluster shape comes from the
// launch (cudaLaunchKernelEx); map_shared_rank works the same way.
extern "C" __global__ void cluster_dynamic(const float *in, float *out, int n)
{
    __shared__ float v;
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0)
        v = in[blockIdx.x % n];
    cluster.sync();
    float s = 0.0f;
    for (unsigned r = 0; r < cluster.num_blocks(); r++)
        s += *cluster.map_shared_rank(&v, r);
    cluster.sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}
