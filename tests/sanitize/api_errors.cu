// Seeded CUDA API errors for `ptxemu sanitize --check-api-errors yes`
// (tests/sanitize.test): three runtime calls that fail, each as the
// CUDA Runtime API documents, then correct calls that do not.
//   cudaFree of a pointer freed before      cudaErrorInvalidValue (1)
//   cudaMemcpy with a kind out of the enum  cudaErrorInvalidMemcpyDirection (21)
//   cudaSetDevice(99) with one device       cudaErrorInvalidDevice (101)
#include <cstdio>

int main()
{
    int *a;
    cudaMalloc(&a, 400);
    cudaFree(a);
    cudaError_t e1 = cudaFree(a);
    int h = 0;
    cudaError_t e2 = cudaMemcpy(&h, a, sizeof(h), (cudaMemcpyKind)99);
    cudaError_t e3 = cudaSetDevice(99);
    printf("%s %s %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2),
           cudaGetErrorName(e3));
    // correct: a stream that is queried (cudaErrorNotReady is a status,
    // not an error), a device that exists
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamQuery(s);
    cudaStreamDestroy(s);
    cudaSetDevice(0);
    cudaGetLastError();
    return 0;
}
