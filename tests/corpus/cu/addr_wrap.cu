// 32-bit address arithmetic (PTX ISA 6.4.1): nvcc addresses shared
// memory with 32-bit registers and folds a row's displacement into the
// address ([%r+68]), so a register may hold a "negative" offset that the
// displacement brings back into the array (Rodinia's nw indexes its
// tiles this way).  The sum wraps at 32 bits.
extern "C" __global__ void shared_rows(int *out, int k)
{
    __shared__ int s[17][17];
    int t = threadIdx.x;
    for (int i = t; i < 17 * 17; i += blockDim.x)
        s[i / 17][i % 17] = i * 3 + 1;
    __syncthreads();
    int row = t / 16 + 1, col = t % 16;
    // col - k is -1 for col 0 when k = 1: s[row][-1] is s[row - 1][16]
    out[blockIdx.x * blockDim.x + t] = s[row][col - k];
}
