// examples/cmake/main.cpp: the host side, plain C++ (compiled by the C++
// compiler, not nvcc); the CUDA work is in saxpy.cu.
#include <cstdio>

// y = 2 x + 1 over n elements on the device; the number of elements
// that differ from the host's answer, or -1 on a CUDA error.
int run_saxpy(int n);

int main()
{
    int bad = run_saxpy(100000);
    if (bad != 0) {
        std::printf("FAILED: %d\n", bad);
        return 1;
    }
    std::printf("PASSED\n");
    return 0;
}
