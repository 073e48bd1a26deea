// Streaming benchmark: c = a + b, one thread per element.
extern "C" __global__ void vecadd(float *c, const float *a, const float *b,
                                  int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
