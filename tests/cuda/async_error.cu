// Asynchronous error reporting (tests/samples.test; CUDA Programming
// Guide, "Error Checking"): a launch-configuration error is returned by
// the launch and leaves the context usable; an error raised while a
// kernel executes is not the launch's (cudaGetLastError right after it
// is cudaSuccess) but the next synchronising call's, and is sticky:
// every later call returns it.  Prints "ok NAME" per check and PASSED
// when all held.
#include <cstdio>
#include <cuda_runtime.h>

static int failures;

static void check(const char *name, cudaError_t got, cudaError_t want)
{
    if (got == want) {
        printf("ok %s\n", name);
    } else {
        printf("FAIL %s: %s, want %s\n", name, cudaGetErrorName(got),
               cudaGetErrorName(want));
        failures++;
    }
}

__global__ void store(int *p)
{
    *p = 1;
}

int main()
{
    int *good;
    check("malloc", cudaMalloc(&good, sizeof(int)), cudaSuccess);
    // 2048 threads per block: refused at the launch, nothing sticky.
    store<<<1, 2048>>>(good);
    check("config-at-launch", cudaGetLastError(),
          cudaErrorInvalidConfiguration);
    check("config-not-sticky", cudaDeviceSynchronize(), cudaSuccess);

    // A store to an address no allocation holds.
    store<<<1, 1>>>((int *)0x10);
    check("fault-not-at-launch", cudaGetLastError(), cudaSuccess);
    printf("kernel launched\n");
    check("fault-at-sync", cudaDeviceSynchronize(),
          cudaErrorIllegalAddress);
    // Sticky: later calls, synchronising or not, give it back.
    int *p = nullptr;
    check("sticky-malloc", cudaMalloc(&p, 16), cudaErrorIllegalAddress);
    check("sticky-stream-sync", cudaStreamSynchronize(0),
          cudaErrorIllegalAddress);
    int v;
    check("sticky-memcpy",
          cudaMemcpy(&v, good, sizeof v, cudaMemcpyDeviceToHost),
          cudaErrorIllegalAddress);
    store<<<1, 1>>>(good);
    check("sticky-launch", cudaGetLastError(), cudaErrorIllegalAddress);
    check("sticky-last-error", cudaPeekAtLastError(),
          cudaErrorIllegalAddress);
    check("sticky-sync-again", cudaDeviceSynchronize(),
          cudaErrorIllegalAddress);
    if (failures == 0)
        printf("PASSED\n");
    return failures != 0;
}
