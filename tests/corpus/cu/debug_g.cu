// Small kernel compiled with -G (device debug): the PTX contains .file/.loc
// directives and DWARF sections (.section .debug_info / .debug_abbrev /
// .debug_loc ...).
// regen: -G
struct Pair {
    int a;
    float b;
};

__device__ int combine(Pair p, int k)
{
    int r = p.a * k;
    if (p.b > 0.0f)
        r += (int)p.b;
    return r;
}

extern "C" __global__ void debug_kernel(const int *in, const float *fin, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Pair p;
    p.a = in[i];
    p.b = fin[i];
    int acc = 0;
    for (int k = 0; k < 4; k++)
        acc += combine(p, k);
    out[i] = acc;
}
