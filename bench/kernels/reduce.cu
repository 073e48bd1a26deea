// Reduction benchmark: each CTA of 256 threads sums a grid-stride share
// of the input, then a shared-memory tree with barriers; thread 0 writes
// the CTA's partial sum (the host adds the partials).
extern "C" __global__ void reduce(unsigned *partial, const unsigned *in,
                                  int n)
{
    __shared__ unsigned s[256];
    unsigned acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x) {
        acc += in[i];
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w) {
            s[threadIdx.x] += s[threadIdx.x + w];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
    }
}
