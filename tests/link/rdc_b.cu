// tests/link/rdc_b.cu: the second translation unit: its kernel calls
// lookup() and reads scale from rdc_a.cu, which it only declares.
extern __device__ int scale;
extern __device__ int lookup(int i);
static __device__ int hidden_counter;   // internal: not rdc_a.cu's

__global__ void apply(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = lookup(in[i]) + scale;
        atomicAdd(&hidden_counter, 2);
    }
}

__global__ void count_b(int *out)
{
    out[0] = hidden_counter;
}
