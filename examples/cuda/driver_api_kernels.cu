// examples/cuda/driver_api_kernels.cu: the kernels of driver_api.c, which
// loads them as PTX (driver_api.ptx, from regen.sh) with cuModuleLoad.
// extern "C" keeps the names unmangled for cuModuleGetFunction.

__device__ float bias;

// y[i] = a * x[i] + y[i] + bias
extern "C" __global__ void saxpy_bias(int n, float a, const float *x,
                                      float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i] + bias;
    }
}

// A 2D launch: m[r][c] = r * 1000 + c.
extern "C" __global__ void index2d(int *m, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) {
        m[r * cols + c] = r * 1000 + c;
    }
}
