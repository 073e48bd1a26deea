// Separate compilation (-rdc=true): .visible / .extern / .weak linkage,
// declarations of external device functions and variables, and a device
// function exported with extern "C".
// regen: -rdc=true
extern __device__ int ext_counter;                     // .extern .global
extern __device__ float ext_table[];                    // unsized extern array
extern "C" __device__ int ext_helper(int x, int y);     // .extern .func
__device__ int visible_global = 5;                      // .visible .global
__device__ __constant__ float visible_const[2] = {0.5f, 2.0f};

extern "C" __device__ __noinline__ int exported_square(int x)   // .visible .func
{
    return x * x + visible_global;
}

__device__ __noinline__ __attribute__((weak)) int weak_fn(int x)
{
    return x + 1;
}

static __device__ __noinline__ int internal_fn(int x)
{
    return x - 1;
}

extern "C" __global__ void uses_externs(const int *in, int *out, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    out[i] = ext_helper(v, i) + exported_square(v) + weak_fn(v) + internal_fn(v) + ext_counter;
    fout[i] = ext_table[i & 7] * visible_const[i & 1];
    atomicAdd(&ext_counter, 1);
}
