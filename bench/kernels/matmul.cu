// Compute-bound benchmark: C = A * B for n x n floats (n a multiple of
// 16), 16 x 16 tiles of A and B staged in shared memory per CTA.  A 1-D
// launch: CTA i computes tile (i % (n/16), i / (n/16)) with 256 threads.
#define T 16
extern "C" __global__ void matmul(float *c, const float *a, const float *b,
                                  int n)
{
    __shared__ float as[T][T], bs[T][T];
    int tx = threadIdx.x % T, ty = threadIdx.x / T;
    int tiles = n / T;
    int row = blockIdx.x / tiles * T + ty, col = blockIdx.x % tiles * T + tx;
    float sum = 0.0f;
    for (int t = 0; t < n; t += T) {
        as[ty][tx] = a[row * n + t + tx];
        bs[ty][tx] = b[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++) {
            sum += as[ty][k] * bs[k][tx];
        }
        __syncthreads();
    }
    c[row * n + col] = sum;
}
