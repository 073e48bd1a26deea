// examples/cuda/symbols.cu: module-scope device variables reached from
// the host by symbol: a __constant__ array (cudaMemcpyToSymbol, also at
// an offset), __device__ scalars and arrays (cudaMemcpyFromSymbol,
// cudaGetSymbolAddress, cudaGetSymbolSize), and a statically
// initialised __device__ table the kernel reads.
#include "check.h"

constexpr int N = 32;

__constant__ float coeff[4];
__device__ int calls;
__device__ float table[N];
__device__ int primes[6] = {2, 3, 5, 7, 11, 13};

// table[i] = c0 + c1 i + c2 i^2 + c3 * primes[i % 6]
__global__ void fill(void)
{
    int i = threadIdx.x;
    if (i < N) {
        float x = (float)i;
        table[i] = coeff[0] + coeff[1] * x + coeff[2] * x * x +
                   coeff[3] * (float)primes[i % 6];
        atomicAdd(&calls, 1);
    }
}

// out[i] = 2 * in[i], in given by its address from cudaGetSymbolAddress.
__global__ void twice(const float *in, float *out)
{
    out[threadIdx.x] = 2.0f * in[threadIdx.x];
}

int main()
{
    const float c[4] = {1.0f, 2.0f, 0.5f, 100.0f};
    // The first three coefficients at once, the last at an offset.
    CHECK(cudaMemcpyToSymbol(coeff, c, 3 * sizeof(float)));
    CHECK(cudaMemcpyToSymbol(coeff, &c[3], sizeof(float),
                             3 * sizeof(float)));
    int start = 5;
    CHECK(cudaMemcpyToSymbol(calls, &start, sizeof start));

    fill<<<1, 64>>>();
    CHECK(cudaGetLastError());
    fill<<<1, 64>>>();
    CHECK(cudaGetLastError());

    float t[N];
    int ncalls = -1;
    CHECK(cudaMemcpyFromSymbol(t, table, sizeof t));
    CHECK(cudaMemcpyFromSymbol(&ncalls, calls, sizeof ncalls));
    static const int primes_h[6] = {2, 3, 5, 7, 11, 13};
    for (int i = 0; i < N; i++) {
        float x = (float)i;
        float want = c[0] + c[1] * x + c[2] * x * x +
                     c[3] * (float)primes_h[i % 6];
        EXPECT(t[i] == want, "table[%d] = %g, want %g", i, t[i], want);
    }
    EXPECT(ncalls == 5 + 2 * N, "calls = %d, want %d", ncalls, 5 + 2 * N);

    // The back half of the table, read from an offset.
    float back[N / 2];
    CHECK(cudaMemcpyFromSymbol(back, table, sizeof back,
                               N / 2 * sizeof(float)));
    for (int i = 0; i < N / 2; i++) {
        EXPECT(back[i] == t[N / 2 + i], "offset read [%d] = %g, want %g", i,
               back[i], t[N / 2 + i]);
    }

    void *addr = nullptr;
    size_t size = 0;
    CHECK(cudaGetSymbolAddress(&addr, table));
    CHECK(cudaGetSymbolSize(&size, table));
    EXPECT(addr != nullptr, "no address for table");
    EXPECT(size == sizeof t, "sizeof table = %zu, want %zu", size, sizeof t);
    CHECK(cudaGetSymbolSize(&size, primes));
    EXPECT(size == 6 * sizeof(int), "sizeof primes = %zu", size);

    float *dout;
    CHECK(cudaMalloc(&dout, sizeof t));
    twice<<<1, N>>>((const float *)addr, dout);
    CHECK(cudaGetLastError());
    float d[N];
    CHECK(cudaMemcpy(d, dout, sizeof d, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        EXPECT(d[i] == 2.0f * t[i], "twice[%d] = %g, want %g", i, d[i],
               2.0f * t[i]);
    }
    // A device-to-device cudaMemcpy to the symbol's address reaches it.
    CHECK(cudaMemcpy(addr, dout, sizeof d, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpyFromSymbol(t, table, sizeof t));
    for (int i = 0; i < N; i++) {
        EXPECT(t[i] == d[i], "table[%d] = %g after the copy, want %g", i,
               t[i], d[i]);
    }
    CHECK(cudaFree(dout));
    return passed();
}
