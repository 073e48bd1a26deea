// examples/cuda/thrust_sort.cu: Thrust (and CUB underneath it: radix
// sort, reductions, scans with warp votes and shuffles) on the
// emulator, checked against std::sort and std::accumulate on the host.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "check.h"

int main()
{
    const int n = 6000;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++) {
        h[i] = (int)((i * 7919u) % 10007u) - 5000;
    }
    thrust::device_vector<int> d(h.begin(), h.end());
    long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
    thrust::sort(d.begin(), d.end());
    thrust::device_vector<int> scan(n);
    thrust::inclusive_scan(d.begin(), d.end(), scan.begin());
    CHECK(cudaDeviceSynchronize());

    std::vector<int> want = h;
    std::sort(want.begin(), want.end());
    long long want_sum = std::accumulate(h.begin(), h.end(), 0LL);
    EXPECT(sum == want_sum, "sum %lld, expected %lld", sum, want_sum);
    thrust::host_vector<int> got = d, gscan = scan;
    int run = 0;
    for (int i = 0; i < n; i++) {
        EXPECT(got[i] == want[i], "sorted[%d] = %d, expected %d", i, got[i],
               want[i]);
        run += want[i];
        EXPECT(gscan[i] == run, "scan[%d] = %d, expected %d", i, gscan[i],
               run);
    }
    std::printf("PASSED\n");
    return 0;
}
