// examples/cmake/saxpy.cu: y = a x + y on the device, checked against
// the same arithmetic on the host.
#include <cstdio>
#include <vector>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

static bool ok(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    }
    return e == cudaSuccess;
}

int run_saxpy(int n)
{
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 1000);
        y[i] = 1.0f;
    }
    size_t bytes = n * sizeof(float);
    float *dx, *dy;
    if (!ok(cudaMalloc(&dx, bytes), "cudaMalloc") ||
        !ok(cudaMalloc(&dy, bytes), "cudaMalloc") ||
        !ok(cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice),
            "cudaMemcpy") ||
        !ok(cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice),
            "cudaMemcpy")) {
        return -1;
    }
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
    if (!ok(cudaGetLastError(), "launch") ||
        !ok(cudaMemcpy(y.data(), dy, bytes, cudaMemcpyDeviceToHost),
            "cudaMemcpy")) {
        return -1;
    }
    cudaFree(dx);
    cudaFree(dy);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        bad += y[i] != 2.0f * (float)(i % 1000) + 1.0f;
    }
    return bad;
}
