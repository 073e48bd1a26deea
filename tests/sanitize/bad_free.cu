// Seeded bad frees for `ptxemu sanitize` (memcheck, tests/sanitize.test):
// a 400-byte buffer freed twice, and cudaFree of a pointer 16 bytes into
// a live 256-byte buffer.  Both cudaFree calls fail with
// cudaErrorInvalidValue, as on a GPU; memcheck reports each.
#include <cstdio>

int main()
{
    int *a, *b;
    cudaMalloc(&a, 400);
    cudaMalloc(&b, 256);
    cudaFree(a);
    cudaError_t e1 = cudaFree(a);
    cudaError_t e2 = cudaFree(b + 4);
    printf("double: %s\ninterior: %s\n", cudaGetErrorName(e1),
           cudaGetErrorName(e2));
    cudaFree(b);
    return 0;
}
