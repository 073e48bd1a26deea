/*
 * examples/cuda/driver_api.c: a C program on the driver API alone.  It
 * loads driver_api.ptx (or the file named by argv[1]) with cuModuleLoad,
 * sets a __device__ variable through cuModuleGetGlobal and launches two
 * kernels with cuLaunchKernel, checking the results on the host.
 *
 *   nvcc -arch=sm_80 driver_api.c -o driver_api -lcuda
 *   ptxemu exec -- ./driver_api driver_api.ptx
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(call)                                                           \
    do {                                                                   \
        CUresult r_ = (call);                                              \
        if (r_ != CUDA_SUCCESS) {                                          \
            const char *name_ = "?";                                       \
            cuGetErrorName(r_, &name_);                                    \
            printf("FAILED: %s:%d: %s: %s (%d)\n", __FILE__, __LINE__,     \
                   #call, name_, (int)r_);                                 \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

#define EXPECT(cond, ...)                                                  \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("FAILED: %s:%d: ", __FILE__, __LINE__);                 \
            printf(__VA_ARGS__);                                           \
            printf("\n");                                                  \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

int main(int argc, char **argv)
{
    const char *ptx = argc > 1 ? argv[1] : "driver_api.ptx";
    CK(cuInit(0));
    int ndev = 0;
    CK(cuDeviceGetCount(&ndev));
    EXPECT(ndev >= 1, "%d devices", ndev);
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    char name[256];
    CK(cuDeviceGetName(name, sizeof name, dev));
    int major = 0, minor = 0, maxthreads = 0;
    CK(cuDeviceGetAttribute(&major,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                            dev));
    CK(cuDeviceGetAttribute(&minor,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                            dev));
    CK(cuDeviceGetAttribute(&maxthreads,
                            CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev));
    EXPECT(major >= 5 && maxthreads == 1024, "%s: sm_%d%d, %d threads",
           name, major, minor, maxthreads);

    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CUmodule mod;
    CK(cuModuleLoad(&mod, ptx));
    CUfunction saxpy, index2d;
    CK(cuModuleGetFunction(&saxpy, mod, "saxpy_bias"));
    CK(cuModuleGetFunction(&index2d, mod, "index2d"));
    CUfunction none;
    EXPECT(cuModuleGetFunction(&none, mod, "no_such_kernel") ==
           CUDA_ERROR_NOT_FOUND, "a missing kernel was found");

    /* bias = 0.25 through the module's global. */
    CUdeviceptr dbias;
    size_t bias_size = 0;
    CK(cuModuleGetGlobal(&dbias, &bias_size, mod, "bias"));
    EXPECT(bias_size == sizeof(float), "sizeof bias = %zu", bias_size);
    float bias = 0.25f;
    CK(cuMemcpyHtoD(dbias, &bias, sizeof bias));

    enum { N = 1000 };
    float x[N], y[N], out[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = (float)(N - i);
    }
    CUdeviceptr dx, dy;
    CK(cuMemAlloc(&dx, sizeof x));
    CK(cuMemAlloc(&dy, sizeof y));
    CK(cuMemcpyHtoD(dx, x, sizeof x));
    CK(cuMemcpyHtoD(dy, y, sizeof y));
    int n = N;
    float a = 3.0f;
    void *args[] = {&n, &a, &dx, &dy};
    CK(cuLaunchKernel(saxpy, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL,
                      args, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(out, dy, sizeof out));
    for (int i = 0; i < N; i++) {
        float want = 3.0f * x[i] + y[i] + 0.25f;
        EXPECT(out[i] == want, "y[%d] = %g, want %g", i, out[i], want);
    }

    enum { ROWS = 37, COLS = 45 };
    static int m[ROWS * COLS];
    CUdeviceptr dm;
    CK(cuMemAlloc(&dm, sizeof m));
    CK(cuMemsetD32(dm, 0xffffffffu, ROWS * COLS));
    int rows = ROWS, cols = COLS;
    void *args2[] = {&dm, &rows, &cols};
    CK(cuLaunchKernel(index2d, (COLS + 15) / 16, (ROWS + 7) / 8, 1, 16, 8,
                      1, 0, NULL, args2, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(m, dm, sizeof m));
    for (int r = 0; r < ROWS; r++) {
        for (int c = 0; c < COLS; c++) {
            EXPECT(m[r * COLS + c] == r * 1000 + c, "m[%d][%d] = %d", r, c,
                   m[r * COLS + c]);
        }
    }

    /* Too many threads per block: refused at launch. */
    EXPECT(cuLaunchKernel(saxpy, 1, 1, 1, 2048, 1, 1, 0, NULL, args,
                          NULL) == CUDA_ERROR_INVALID_VALUE,
           "a 2048-thread launch was accepted");

    CK(cuMemFree(dx));
    CK(cuMemFree(dy));
    CK(cuMemFree(dm));
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    printf("PASSED\n");
    return 0;
}
