// examples/cuda/rdc.cu: relocatable device code.  The kernel here calls
// a device function and reads a device variable that live in another
// translation unit (rdc_part.cu); build both with
//   nvcc -rdc=true -cudart shared -arch=sm_80 rdc.cu rdc_part.cu -o rdc
// ptxemu links the two PTX modules by name when the program registers
// them, as the driver's JIT linker does.
#include "check.h"

extern __device__ int offset;
extern __device__ int poly(int x);

__global__ void apply(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = poly(in[i]) + offset;
    }
}

int main()
{
    const int n = 1000;
    int in[n], out[n];
    for (int i = 0; i < n; i++) {
        in[i] = i - 500;
    }
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof(in)));
    CHECK(cudaMalloc(&dout, sizeof(out)));
    CHECK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
    apply<<<(n + 127) / 128, 128>>>(din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int x = in[i];
        int want = 3 * x * x - 7 * x + 11 + 42;   // poly(x) + offset
        EXPECT(out[i] == want, "out[%d] = %d, expected %d", i, out[i], want);
    }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    std::printf("PASSED\n");
    return 0;
}
