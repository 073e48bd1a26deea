// examples/cuda/cluster.cu: thread-block clusters (compute capability
// 9.0): each CTA reads its neighbour's shared memory through the
// cluster (distributed shared memory).  Build for sm_90 and run with
//   ptxemu exec --arch sm_90 -- ./cluster
#include <cooperative_groups.h>

#include "check.h"

namespace cg = cooperative_groups;

__global__ void ring(int *out)
{
    __shared__ int mine[64];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    mine[threadIdx.x] = (int)(blockIdx.x * 1000 + threadIdx.x);
    cluster.sync();               // every CTA's shared array is written
    unsigned next = (rank + 1) % cluster.num_blocks();
    int *peer = cluster.map_shared_rank(mine, next);
    out[blockIdx.x * blockDim.x + threadIdx.x] = peer[threadIdx.x];
    cluster.sync();               // keep our shared memory alive
}

int main()
{
    const int ctas = 12, threads = 64, csize = 4;
    int *d;
    CHECK(cudaMalloc(&d, ctas * threads * sizeof(int)));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(ctas);
    cfg.blockDim = dim3(threads);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = csize;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, ring, d));
    int h[ctas * threads];
    CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int b = 0; b < ctas; b++) {
        int peer = b / csize * csize + (b % csize + 1) % csize;
        for (int t = 0; t < threads; t++) {
            int want = peer * 1000 + t;
            EXPECT(h[b * threads + t] == want, "CTA %d thread %d: %d, "
                   "expected %d", b, t, h[b * threads + t], want);
        }
    }
    CHECK(cudaFree(d));
    std::printf("PASSED\n");
    return 0;
}
