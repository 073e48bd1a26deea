// Atomics on shared memory (atom.shared.*) used for a histogram and
// block-local reductions, then flushed to global memory.
#define BINS 64

extern "C" __global__ void shared_histogram(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&hist[b], local[b]);
}

extern "C" __global__ void shared_atomic_mix(const int *vals, int *out, float *fout,
                                             unsigned long long *uout, double *dout, int n)
{
    __shared__ int si[12];
    __shared__ unsigned su[4];
    __shared__ float sf[2];
    __shared__ unsigned long long sull[4];
    __shared__ double sd;
    int t = threadIdx.x;
    if (t < 12)
        si[t] = (t == 3) ? 0x7fffffff : 0;
    if (t < 4) {
        su[t] = 0;
        sull[t] = 0;
    }
    if (t < 2)
        sf[t] = 0.0f;
    if (t == 0)
        sd = 0.0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    int v = (i < n) ? vals[i] : 0;
    int o = atomicAdd(&si[0], v);
    o ^= atomicSub(&si[1], v);
    o ^= atomicExch(&si[2], v);
    o ^= atomicMin(&si[3], v);
    o ^= atomicMax(&si[4], v);
    o ^= atomicAnd(&si[5], v);
    o ^= atomicOr(&si[6], v);
    o ^= atomicXor(&si[7], v);
    o ^= atomicCAS(&si[8], 0, v);
    o ^= (int)atomicInc(&su[0], 31u);
    o ^= (int)atomicDec(&su[1], 31u);
    atomicAdd(&sf[0], (float)v);
    float fo = atomicExch(&sf[1], (float)v);
    unsigned long long uo = atomicAdd(&sull[0], (unsigned long long)v);
    uo ^= atomicCAS(&sull[1], 0ull, (unsigned long long)i);
    uo ^= atomicMax(&sull[2], (unsigned long long)v);
    atomicAdd(&sd, (double)v);
    __syncthreads();
    if (i < n) {
        out[i] = o;
        fout[i] = fo;
        uout[i] = uo;
    }
    if (t == 0) {
        for (int k = 0; k < 9; k++)
            out[n + blockIdx.x * 16 + k] = si[k];
        fout[n + blockIdx.x] = sf[0];
        dout[blockIdx.x] = sd;
    }
}
