// examples/vecadd.cu: the first kernel a new user runs.
// c[i] = a[i] + b[i] for i < n, one thread per element.
// Regenerate vecadd.ptx with examples/regen.sh (needs nvcc).
extern "C" __global__ void vecAdd(const float *a, const float *b, float *c,
                                  int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
