// tests/link/rdc_a.cu: the first of two translation units built with
// relocatable device code (nvcc -rdc=true): it defines a device
// function, a device variable and a constant table that rdc_b.cu uses.
__device__ int scale = 3;
__constant__ int table[8] = {1, 2, 3, 5, 8, 13, 21, 34};
static __device__ int hidden_counter;   // internal: same name in rdc_b.cu

__device__ int lookup(int i)
{
    atomicAdd(&hidden_counter, 1);
    return table[i & 7] * scale;
}

__global__ void count_a(int *out)
{
    out[0] = hidden_counter;
}
