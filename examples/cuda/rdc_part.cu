// examples/cuda/rdc_part.cu: the second translation unit of rdc.cu
// (built together with it, -rdc=true); not a program by itself.
__device__ int offset = 42;

__device__ int poly(int x)
{
    return 3 * x * x - 7 * x + 11;
}
