// Atomic-heavy benchmark: a 256-bin histogram with shared-memory atomics
// per CTA, merged into the global histogram with global atomics, plus one
// global atomic per element on a small second histogram.
#define BINS 256
extern "C" __global__ void histo(unsigned *hist, unsigned *hist16,
                                 const unsigned char *data, int n)
{
    __shared__ unsigned sh[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        sh[b] = 0;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x) {
        unsigned char d = data[i];
        atomicAdd(&sh[d], 1u);
        atomicAdd(&hist16[d & 15], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        atomicAdd(&hist[b], sh[b]);
    }
}
