// examples/cuda/dyn_parallel.cu: dynamic parallelism, kernels launching
// kernels (build with -rdc=true -lcudadevrt).  A recursive quicksort whose
// partitions launch child grids for both halves (into device-created
// streams and cudaStreamFireAndForget), a tail launch
// (cudaStreamTailLaunch) that adds up what the whole parent grid wrote,
// a device-side launch with a bad configuration, whose error the
// launching thread reads with cudaGetLastError, and the device runtime's
// cudaGetErrorString copied out with device-side memset and memcpy.
#include <algorithm>
#include <cstring>
#include <vector>

#include "check.h"

#define MAX_DEPTH 12      // deeper ranges are sorted in place
#define SMALL 24          // so are ranges this short

__device__ void insertion_sort(int *a, int lo, int hi)
{
    for (int i = lo + 1; i <= hi; i++) {
        int v = a[i], j = i - 1;
        while (j >= lo && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

// Sorts a[lo..hi] (inclusive): one thread partitions around the middle
// element (Hoare), then each non-empty half is a child grid.
__global__ void quicksort(int *a, int lo, int hi, int depth, int *launches)
{
    if (depth >= MAX_DEPTH || hi - lo < SMALL) {
        insertion_sort(a, lo, hi);
        return;
    }
    int pivot = a[lo + (hi - lo) / 2];
    int i = lo, j = hi;
    while (i <= j) {
        while (a[i] < pivot) {
            i++;
        }
        while (a[j] > pivot) {
            j--;
        }
        if (i <= j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }
    // the halves are disjoint: they may run in any order, or together
    if (depth % 2 == 0) {
        cudaStream_t left, right;
        cudaStreamCreateWithFlags(&left, cudaStreamNonBlocking);
        cudaStreamCreateWithFlags(&right, cudaStreamNonBlocking);
        if (lo < j) {
            quicksort<<<1, 1, 0, left>>>(a, lo, j, depth + 1, launches);
        }
        if (i < hi) {
            quicksort<<<1, 1, 0, right>>>(a, i, hi, depth + 1, launches);
        }
        cudaStreamDestroy(left);
        cudaStreamDestroy(right);
    } else {
        if (lo < j) {
            quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(a, lo, j,
                                                             depth + 1,
                                                             launches);
        }
        if (i < hi) {
            quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(a, i, hi,
                                                             depth + 1,
                                                             launches);
        }
    }
    if (cudaGetLastError() == cudaSuccess) {
        atomicAdd(launches, (lo < j) + (i < hi));
    }
}

__global__ void total(const int *partial, int n, long long *out)
{
    long long t = 0;
    for (int b = 0; b < n; b++) {
        t += partial[b];
    }
    *out = t;
}

// Per-block sums; then one tail launch, which starts only once every
// block of this grid has finished, adds them up.
__global__ void block_sums(const int *in, int n, int *partial,
                           long long *out)
{
    __shared__ int s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if ((int)threadIdx.x < k) {
            s[threadIdx.x] += s[threadIdx.x + k];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        total<<<1, 1, 0, cudaStreamTailLaunch>>>(partial, gridDim.x, out);
    }
}

__global__ void count(int *n)
{
    atomicAdd(n, 1);
}

// Every thread launches a grid: more launches pending at once than the
// default limit of 2048 (cudaLimitDevRuntimePendingLaunchCount).
__global__ void fan_out(int *n, int *failed)
{
    count<<<1, 1>>>(n);
    if (cudaGetLastError() != cudaSuccess) {
        atomicAdd(failed, 1);
    }
}

__global__ void never_runs(int *p)
{
    *p = 1;
}

// A child of 2048 threads per block cannot be launched: the launching
// thread sees the error, and the next cudaGetLastError is clean again.
__global__ void bad_child_launch(int *ran, int *errs)
{
    never_runs<<<1, 2048>>>(ran);
    errs[0] = (int)cudaGetLastError();
    errs[1] = (int)cudaGetLastError();
}

// The device runtime's text for an error, copied out by device-side
// memset and memcpy that run, in issue order, after this grid's threads.
__global__ void error_text(int code, char *out, int cap)
{
    const char *s = cudaGetErrorString((cudaError_t)code);
    int n = 0;
    while (s[n] && n < cap - 1) {
        n++;
    }
    cudaMemsetAsync(out, 0, cap, 0);
    cudaMemcpyAsync(out, s, n, cudaMemcpyDeviceToDevice, 0);
}

int main()
{
    const int n = 3000;
    std::vector<int> h(n);
    unsigned x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        h[i] = (int)(x >> 8) % 10000 - 5000;
    }
    int *da, *dl;
    CHECK(cudaMalloc(&da, n * sizeof(int)));
    CHECK(cudaMalloc(&dl, sizeof(int)));
    CHECK(cudaMemcpy(da, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dl, 0, sizeof(int)));
    quicksort<<<1, 1>>>(da, 0, n - 1, 0, dl);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<int> got(n);
    int launches = 0;
    CHECK(cudaMemcpy(got.data(), da, n * sizeof(int),
                     cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&launches, dl, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> want = h;
    std::sort(want.begin(), want.end());
    for (int i = 0; i < n; i++) {
        EXPECT(got[i] == want[i], "sorted[%d] = %d, expected %d", i, got[i],
               want[i]);
    }
    EXPECT(launches > 20, "only %d child grids launched", launches);

    const int blocks = (n + 127) / 128;
    int *dp;
    long long *dsum, sum = 0, hsum = 0;
    CHECK(cudaMalloc(&dp, blocks * sizeof(int)));
    CHECK(cudaMalloc(&dsum, sizeof(long long)));
    CHECK(cudaMemcpy(da, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    block_sums<<<blocks, 128>>>(da, n, dp, dsum);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&sum, dsum, sizeof(sum), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        hsum += h[i];
    }
    EXPECT(sum == hsum, "tail-launched sum %lld, expected %lld", sum, hsum);

    int *dran, *derr, errs[2] = {-1, -1}, ran = 0;
    CHECK(cudaMalloc(&dran, sizeof(int)));
    CHECK(cudaMalloc(&derr, 2 * sizeof(int)));
    CHECK(cudaMemset(dran, 0, sizeof(int)));
    bad_child_launch<<<1, 1>>>(dran, derr);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(errs, derr, sizeof(errs), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&ran, dran, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(errs[0] == cudaErrorInvalidConfiguration,
           "device-side launch of 2048 threads: %s",
           cudaGetErrorName((cudaError_t)errs[0]));
    EXPECT(errs[1] == cudaSuccess, "the error was not cleared: %s",
           cudaGetErrorName((cudaError_t)errs[1]));

    char *dtxt, txt[128];
    CHECK(cudaMalloc(&dtxt, sizeof(txt)));
    CHECK(cudaMemset(dtxt, 'x', sizeof(txt)));
    error_text<<<1, 1>>>(cudaErrorInvalidConfiguration, dtxt, sizeof(txt));
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(txt, dtxt, sizeof(txt), cudaMemcpyDeviceToHost));
    EXPECT(strcmp(txt, cudaGetErrorString(cudaErrorInvalidConfiguration))
               == 0,
           "device-side error text '%.127s'", txt);
    EXPECT(ran == 0, "the invalid child grid ran");

    const int fans = 3000;
    int *dn, counts[2] = {0, 0};
    CHECK(cudaMalloc(&dn, 2 * sizeof(int)));
    CHECK(cudaMemset(dn, 0, 2 * sizeof(int)));
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096));
    fan_out<<<fans / 100, 100>>>(dn, dn + 1);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(counts, dn, sizeof(counts), cudaMemcpyDeviceToHost));
    EXPECT(counts[0] == fans && counts[1] == 0,
           "%d of %d child grids ran, %d launches failed", counts[0], fans,
           counts[1]);

    CHECK(cudaFree(dn));
    CHECK(cudaFree(da));
    CHECK(cudaFree(dl));
    CHECK(cudaFree(dp));
    CHECK(cudaFree(dsum));
    CHECK(cudaFree(dran));
    CHECK(cudaFree(derr));
    CHECK(cudaFree(dtxt));
    return passed();
}
