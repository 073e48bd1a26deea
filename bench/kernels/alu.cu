// ALU-bound benchmark: a long loop of dependent and independent integer
// and float arithmetic per thread; one store at the end.
extern "C" __global__ void alu(unsigned *out, float *fout, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = t, b = t * 2654435761u + 1u, c = 12345u;
    float x = (float)(t & 255) * 0.25f, y = 1.0f;
    for (int i = 0; i < iters; i++) {
        a = a * 1664525u + 1013904223u;     // dependent chain
        b ^= b << 13;                        // independent chain
        b ^= b >> 17;
        b ^= b << 5;
        c += (a >> 7) & 0xffu;
        x = fmaf(x, 0.999f, 0.5f);           // float chains
        y = y * 0.5f + 0.25f;
    }
    out[t] = a ^ b ^ c;
    fout[t] = x + y;
}
