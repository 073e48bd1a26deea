// examples/cuda/scan.cu: an exclusive prefix sum of an array longer than
// one block.  Each block scans its 512 elements in shared memory
// (Blelloch's up-sweep/down-sweep), the block totals are scanned the
// same way, and a third kernel adds them back.
#include "check.h"

constexpr int THREADS = 256;
constexpr int ELEMS = 2 * THREADS;          // per block

// Exclusive scan of ELEMS values of in (zero past n) into out; the
// block's total goes to sums[blockIdx.x] when sums is not null.
__global__ void scan_block(const int *in, int *out, int *sums, int n)
{
    __shared__ int s[ELEMS];
    int base = blockIdx.x * ELEMS, t = threadIdx.x;
    s[t] = base + t < n ? in[base + t] : 0;
    s[t + THREADS] = base + t + THREADS < n ? in[base + t + THREADS] : 0;
    int off = 1;
    for (int d = ELEMS / 2; d > 0; d /= 2, off *= 2) {
        __syncthreads();
        if (t < d) {
            s[off * (2 * t + 2) - 1] += s[off * (2 * t + 1) - 1];
        }
    }
    if (t == 0) {
        if (sums) {
            sums[blockIdx.x] = s[ELEMS - 1];
        }
        s[ELEMS - 1] = 0;
    }
    for (int d = 1; d < ELEMS; d *= 2) {
        off /= 2;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            int v = s[ai];
            s[ai] = s[bi];
            s[bi] += v;
        }
    }
    __syncthreads();
    if (base + t < n) {
        out[base + t] = s[t];
    }
    if (base + t + THREADS < n) {
        out[base + t + THREADS] = s[t + THREADS];
    }
}

__global__ void add_offsets(int *out, const int *offsets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] += offsets[i / ELEMS];
    }
}

int main()
{
    const int n = 9000;
    const int blocks = (n + ELEMS - 1) / ELEMS;    // 18: one block of sums
    int *h = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        h[i] = (i * 37) % 19 - 9;
    }
    int *din, *dout, *dsums, *doffs;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CHECK(cudaMalloc(&dsums, blocks * sizeof(int)));
    CHECK(cudaMalloc(&doffs, blocks * sizeof(int)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));

    scan_block<<<blocks, THREADS>>>(din, dout, dsums, n);
    CHECK(cudaGetLastError());
    scan_block<<<1, THREADS>>>(dsums, doffs, nullptr, blocks);
    CHECK(cudaGetLastError());
    add_offsets<<<(n + 255) / 256, 256>>>(dout, doffs, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dout, n * sizeof(int), cudaMemcpyDeviceToHost));

    int want = 0;
    for (int i = 0; i < n; i++) {
        EXPECT(got[i] == want, "out[%d] = %d, want %d", i, got[i], want);
        want += h[i];
    }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dsums));
    CHECK(cudaFree(doffs));
    free(h);
    free(got);
    return passed();
}
