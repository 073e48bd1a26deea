// Constant memory: __constant__ scalars, arrays, structs and a polynomial
// evaluated from constant coefficients (ld.const.*).
struct Params {
    float scale;
    float offset;
    int shift;
    unsigned mask;
};

__constant__ float c_coeffs[8] = {1.0f, -0.5f, 0.25f, -0.125f, 0.0625f, -0.03125f, 0.015625f, -0.0078125f};
__constant__ Params c_params = {2.0f, -1.0f, 3, 0xff00ff00u};
__constant__ int c_lut[256];
__constant__ double c_dvals[4] = {3.14159265358979, 2.718281828459045, 1.4142135623730951, 0.5};
__constant__ short c_small[3] = {-1, 2, -3};

extern "C" __global__ void const_poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    float acc = 0.0f;
#pragma unroll
    for (int k = 7; k >= 0; k--)
        acc = acc * v + c_coeffs[k];
    y[i] = acc * c_params.scale + c_params.offset;
}

extern "C" __global__ void const_lut(const unsigned char *in, int *out, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = c_lut[in[i]];                        // dynamic index into constant bank
    v = (v << c_params.shift) & (int)c_params.mask;
    v += c_small[i % 3];
    out[i] = v;
    dout[i] = c_dvals[i & 3] * v;
}
