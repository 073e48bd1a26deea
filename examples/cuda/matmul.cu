// examples/cuda/matmul.cu: C = A B with 16x16 shared-memory tiles, on
// sizes that are not multiples of the tile.  The entries are small
// integers, so every float sum is exact and compared with ==.
#include "check.h"

constexpr int TILE = 16;

__global__ void matmul(const float *a, const float *b, float *c, int m,
                       int k, int n)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        int ak = t + threadIdx.x, bk = t + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] =
            row < m && ak < k ? a[row * k + ak] : 0.0f;
        tb[threadIdx.y][threadIdx.x] =
            bk < k && col < n ? b[bk * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; i++) {
            acc += ta[threadIdx.y][i] * tb[i][threadIdx.x];
        }
        __syncthreads();
    }
    if (row < m && col < n) {
        c[row * n + col] = acc;
    }
}

int main()
{
    const int m = 72, k = 40, n = 88;
    float *a = (float *)malloc(m * k * sizeof(float));
    float *b = (float *)malloc(k * n * sizeof(float));
    float *c = (float *)malloc(m * n * sizeof(float));
    for (int i = 0; i < m * k; i++) {
        a[i] = (float)((i * 7) % 11 - 5);
    }
    for (int i = 0; i < k * n; i++) {
        b[i] = (float)((i * 5) % 13 - 6);
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, m * k * sizeof(float)));
    CHECK(cudaMalloc(&db, k * n * sizeof(float)));
    CHECK(cudaMalloc(&dc, m * n * sizeof(float)));
    CHECK(cudaMemcpy(da, a, m * k * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, k * n * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul<<<grid, block>>>(da, db, dc, m, k, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c, dc, m * n * sizeof(float), cudaMemcpyDeviceToHost));

    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            float want = 0.0f;
            for (int t = 0; t < k; t++) {
                want += a[i * k + t] * b[t * n + j];
            }
            EXPECT(c[i * n + j] == want, "c[%d][%d] = %g, want %g", i, j,
                   c[i * n + j], want);
        }
    }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    free(a);
    free(b);
    free(c);
    return passed();
}
