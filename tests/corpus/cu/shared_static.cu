// Static shared memory: tiled matrix transpose and a 1D stencil with halo,
// using __syncthreads (bar.sync 0).
#define TILE 32
#define RADIUS 3
#define BLOCK 128

extern "C" __global__ void transpose_tiled(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];   // padded to avoid bank conflicts
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void stencil_1d(const int *in, int *out, int n)
{
    __shared__ int temp[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    temp[l] = (g < n) ? in[g] : 0;
    if (threadIdx.x < RADIUS) {
        temp[l - RADIUS] = (g >= RADIUS) ? in[g - RADIUS] : 0;
        temp[l + BLOCK] = (g + BLOCK < n) ? in[g + BLOCK] : 0;
    }
    __syncthreads();
    int r = 0;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; k++)
        r += temp[l + k];
    if (g < n)
        out[g] = r;
}

// Shared memory of several element types and sizes (ld/st.shared.{u8,u16,f64,v2,v4})
extern "C" __global__ void shared_types(const double *a, double *out, int n)
{
    __shared__ unsigned char bytes[BLOCK];
    __shared__ short halves[BLOCK];
    __shared__ double dbl[BLOCK];
    __shared__ float4 vec[BLOCK / 4];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    double v = (i < n) ? a[i] : 0.0;
    bytes[t] = (unsigned char)(int)v;
    halves[t] = (short)(int)(v * 2.0);
    dbl[t] = v;
    if (t < BLOCK / 4)
        vec[t] = make_float4((float)v, 1.0f, 2.0f, 3.0f);
    __syncthreads();
    int o = (t + 1) % BLOCK;
    float4 q = vec[(t / 4) % (BLOCK / 4)];
    double r = dbl[o] + bytes[o] + halves[BLOCK - 1 - t] + q.x + q.w;
    if (i < n)
        out[i] = r;
}
