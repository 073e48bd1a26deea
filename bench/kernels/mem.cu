// Memory-bound benchmark: a grid-stride saxpy over a large buffer.
extern "C" __global__ void saxpy(float *y, const float *x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
