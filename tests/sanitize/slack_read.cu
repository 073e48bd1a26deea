// tests/sanitize/slack_read.cu: seeded bug for `ptxemu sanitize`: threads
// 64..67 of a 68-thread block read one int each past a 256-byte
// (64-int) cudaMalloc, inside the 256-byte slack a GPU tolerates (no
// fault; issue 19 item 8): four memcheck errors, and the kernel
// completes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void slack_read(const int *in, int *out)
{
    int i = threadIdx.x;
    out[i] = in[i];          // the bug: i up to 67, in holds 64
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 68 * sizeof(int));
    cudaMemset(in, 0, 64 * sizeof(int));
    slack_read<<<1, 68>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
