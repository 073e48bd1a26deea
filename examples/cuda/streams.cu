// examples/cuda/streams.cu: four streams, each copying its slice of a
// pinned buffer in, transforming it and copying it out asynchronously;
// events time each stream and order a final kernel on another stream
// after all four (cudaStreamWaitEvent).
#include "check.h"

constexpr int NSTREAMS = 4;
constexpr int SLICE = 2048;

__global__ void transform(int *x, int n, int mul, int add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = x[i] * mul + add;
    }
}

// Sums all slices into total[0]; runs only after every slice is done.
__global__ void total(const int *x, int n, long long *out)
{
    long long s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        s += x[i];
    }
    atomicAdd((unsigned long long *)out, (unsigned long long)s);
}

int main()
{
    const int n = NSTREAMS * SLICE;
    int *h, *d;
    long long *dsum, hsum = 0;
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMalloc(&dsum, sizeof(long long)));
    for (int i = 0; i < n; i++) {
        h[i] = i - 3000;
    }
    cudaStream_t s[NSTREAMS], last;
    cudaEvent_t start[NSTREAMS], stop[NSTREAMS];
    for (int k = 0; k < NSTREAMS; k++) {
        CHECK(cudaStreamCreate(&s[k]));
        CHECK(cudaEventCreate(&start[k]));
        CHECK(cudaEventCreate(&stop[k]));
    }
    CHECK(cudaStreamCreateWithFlags(&last, cudaStreamNonBlocking));
    CHECK(cudaMemsetAsync(dsum, 0, sizeof(long long), last));

    for (int k = 0; k < NSTREAMS; k++) {
        int *hk = h + k * SLICE, *dk = d + k * SLICE;
        CHECK(cudaEventRecord(start[k], s[k]));
        CHECK(cudaMemcpyAsync(dk, hk, SLICE * sizeof(int),
                              cudaMemcpyHostToDevice, s[k]));
        transform<<<SLICE / 256, 256, 0, s[k]>>>(dk, SLICE, k + 2, k);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(hk, dk, SLICE * sizeof(int),
                              cudaMemcpyDeviceToHost, s[k]));
        CHECK(cudaEventRecord(stop[k], s[k]));
        CHECK(cudaStreamWaitEvent(last, stop[k], 0));
    }
    total<<<1, 128, 0, last>>>(d, n, dsum);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(&hsum, dsum, sizeof hsum, cudaMemcpyDeviceToHost,
                          last));
    CHECK(cudaStreamSynchronize(last));
    EXPECT(cudaStreamQuery(last) == cudaSuccess, "stream not idle");

    long long want_sum = 0;
    for (int k = 0; k < NSTREAMS; k++) {
        CHECK(cudaEventSynchronize(stop[k]));
        EXPECT(cudaEventQuery(stop[k]) == cudaSuccess, "event %d pending",
               k);
        float ms = -1.0f;
        CHECK(cudaEventElapsedTime(&ms, start[k], stop[k]));
        EXPECT(ms >= 0.0f, "stream %d: elapsed %g ms", k, ms);
        for (int i = 0; i < SLICE; i++) {
            int x = k * SLICE + i - 3000;
            int want = x * (k + 2) + k;
            EXPECT(h[k * SLICE + i] == want, "h[%d] = %d, want %d",
                   k * SLICE + i, h[k * SLICE + i], want);
            want_sum += want;
        }
    }
    EXPECT(hsum == want_sum, "total %lld, want %lld", hsum, want_sum);

    // A pair of events around one kernel on the legacy default stream.
    float ms = -1.0f;
    CHECK(cudaEventRecord(start[0], 0));
    transform<<<1, 64>>>(d, 64, 1, 1);
    CHECK(cudaEventRecord(stop[0], 0));
    CHECK(cudaEventSynchronize(stop[0]));
    CHECK(cudaEventElapsedTime(&ms, start[0], stop[0]));
    EXPECT(ms >= 0.0f, "default stream: elapsed %g ms", ms);

    for (int k = 0; k < NSTREAMS; k++) {
        CHECK(cudaStreamDestroy(s[k]));
        CHECK(cudaEventDestroy(start[k]));
        CHECK(cudaEventDestroy(stop[k]));
    }
    CHECK(cudaStreamDestroy(last));
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d));
    CHECK(cudaFree(dsum));
    return passed();
}
