// __device__ global variables with initializers: scalars, arrays, arrays of
// structs, pointers to other globals (address-of initializers -> generic()
// in .global initialisers), const data in .global, and mutable state.
struct Entry {
    int key;
    float weight;
    const char *name;
};

__device__ int g_counter = 42;
__device__ unsigned long long g_big = 0x0123456789abcdefull;
__device__ float g_scale = 1.5f;
__device__ double g_pi = 3.141592653589793;
__device__ int g_table[10] = {1, 1, 2, 3, 5, 8, 13, 21, 34, 55};
__device__ char g_message[] = "ptxemu";
__device__ short g_shorts[4] = {-1, 0, 1, 32767};
__device__ Entry g_entries[3] = {
    {7, 0.5f, "seven"},
    {11, 1.25f, "eleven"},
    {13, -2.0f, "thirteen"},
};
__device__ int *g_ptr = &g_table[3];
__device__ int *g_ptrs[3] = {&g_counter, &g_table[0], &g_table[9]};
__device__ Entry *g_entry_ptr = &g_entries[1];
__device__ float g_zeroed[16];
static __device__ int s_hidden = -7;     // internal linkage (not .visible)

extern "C" __global__ void globals_read(int *out, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int r = g_counter + g_table[i % 10] + *g_ptr + *g_ptrs[i % 3] + s_hidden;
    r += g_message[i % 6] + g_shorts[i & 3];
    const Entry &e = g_entries[i % 3];
    r += e.key + e.name[0] + g_entry_ptr->key;
    r += (int)(g_big >> (i & 63));
    out[i] = r;
    fout[i] = e.weight * g_scale + (float)g_pi + g_zeroed[i & 15];
}

extern "C" __global__ void globals_write(const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (i < 16)
        g_zeroed[i] = (float)in[i];
    if (i == 0) {
        g_counter += in[0];
        g_ptrs[0] = &g_table[in[0] % 10];
        s_hidden = in[0];
    }
    atomicAdd(&g_table[i % 10], 1);
}
