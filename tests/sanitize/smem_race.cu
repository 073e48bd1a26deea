// A seeded shared-memory race for `ptxemu sanitize --tool racecheck`
// (tests/sanitize.test): each thread writes s[tid] and, with no
// __syncthreads() between, reads s[(tid + 32) % 64], written by a thread
// of the other warp.  Warp 0 runs first here: thread 0 reads s[32]
// before thread 32 writes it (WAR), and thread 32 reads s[0] after
// thread 0 wrote it (RAW).
#include <cstdio>

__global__ void smem_race(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[(threadIdx.x + 32) % 64];
}

int main()
{
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    smem_race<<<1, 64>>>(d);
    printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(d);
    return 0;
}
