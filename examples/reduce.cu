// examples/reduce.cu: sum of n unsigned integers.  Each CTA reduces its
// blockDim.x elements in dynamic shared memory (a tree with __syncthreads,
// i.e. bar.sync, between the levels; blockDim.x must be a power of two),
// writes its sum to partial[blockIdx.x] and adds it to *total atomically.
// Regenerate reduce.ptx with examples/regen.sh.
//
//   ptxemu run examples/reduce.ptx --kernel reduceSum --grid 4 \
//       --block 256 --shared 1024 --arg buf:u32:1000:iota \
//       --arg buf:u32:4:zero --arg buf:u32:1:zero --arg u32:1000 \
//       --print 1 --print 2
extern "C" __global__ void reduceSum(const unsigned *in, unsigned *partial,
                                     unsigned *total, unsigned n)
{
    extern __shared__ unsigned sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = sdata[0];
        atomicAdd(total, sdata[0]);
    }
}
