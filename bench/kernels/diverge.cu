// Divergent benchmark: data-dependent branches split every warp.
extern "C" __global__ void diverge(unsigned *out, const unsigned *in,
                                   int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[t], acc = 0;
    for (int i = 0; i < iters; i++) {
        switch (v & 3u) {
        case 0: acc += v >> 3; break;
        case 1: acc ^= v * 7u; break;
        case 2: acc = acc * 3u + 1u; break;
        default:
            if (v & 4u) {
                acc -= v;
            } else {
                acc += 0x9e3779b9u;
            }
            break;
        }
        v = v * 1103515245u + 12345u;
        v ^= v >> 11;
    }
    out[t] = acc;
}
