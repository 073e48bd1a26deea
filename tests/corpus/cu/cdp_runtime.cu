// The CUDA device runtime beyond launches: error strings, device and
// function queries, occupancy, and memcpy/memset into streams ordered
// with child grids.  Needs -rdc=true.  Driven by tests/check_e2e_cdp.c
// against the host API.
// regen: -rdc=true
#include <stdint.h>

// pitched and friends are host functions.
__device__ cudaPitchedPtr pitched(void *p, size_t pitch, size_t xs,
                                  size_t ys)
{
    cudaPitchedPtr r;
    r.ptr = p;
    r.pitch = pitch;
    r.xsize = xs;
    r.ysize = ys;
    return r;
}

__device__ cudaExtent extent(size_t w, size_t h, size_t d)
{
    cudaExtent r;
    r.width = w;
    r.height = h;
    r.depth = d;
    return r;
}

// What cudaFuncGetAttributes and the occupancy calculator look at:
// static shared memory, a local array, registers.
extern "C" __global__ void attr_target(float *out, int n)
{
    __shared__ float tile[1000];
    float local[24];
    int t = threadIdx.x;
    for (int k = 0; k < 24; k++)
        local[k] = out[(t + k) % n];
    tile[t % 1000] = local[t % 24];
    __syncthreads();
    out[t % n] = tile[(t + 1) % 1000] + local[(t * 7) % 24];
}

extern "C" __global__ void err_text(const char **names, const char **texts,
                                    const int *codes, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {
        names[t] = cudaGetErrorName((cudaError_t)codes[t]);
        texts[t] = cudaGetErrorString((cudaError_t)codes[t]);
    }
}

// Writes into the string cudaGetErrorString returned: read-only memory.
extern "C" __global__ void err_text_write(int code)
{
    char *p = (char *)cudaGetErrorString((cudaError_t)code);
    p[0] = 'x';
}

extern "C" __global__ void dev_attrs(int *out, int *errs, const int *attrs,
                                     int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        errs[t] = cudaDeviceGetAttribute(&out[t], (cudaDeviceAttr)attrs[t],
                                         0);
}

extern "C" __global__ void configs(int *out)
{
    enum cudaFuncCache c = cudaFuncCachePreferL1;
    enum cudaSharedMemConfig m = cudaSharedMemBankSizeEightByte;
    out[0] = cudaDeviceGetCacheConfig(&c);
    out[1] = (int)c;
    out[2] = cudaDeviceGetSharedMemConfig(&m);
    out[3] = (int)m;
}

extern "C" __global__ void func_attrs(struct cudaFuncAttributes *out,
                                      int *errs)
{
    errs[0] = cudaFuncGetAttributes(&out[0], (const void *)attr_target);
    errs[1] = cudaFuncGetAttributes(&out[1], (const void *)err_text);
}

// Thread t: blocks of bs[t] threads with dyn[t] bytes of dynamic shared
// memory, without and with flags.
extern "C" __global__ void occupancy(int *out, int *errs, const int *bs,
                                     const unsigned long long *dyn, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    errs[2 * t] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &out[2 * t], (const void *)attr_target, bs[t], dyn[t]);
    errs[2 * t + 1] = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &out[2 * t + 1], (const void *)attr_target, bs[t], dyn[t],
        cudaOccupancyDisableCachingOverride);
}

extern "C" __global__ void add_one(unsigned char *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

// One thread issues memsets, copies and child grids into one stream;
// out holds the copies (see tests/check_e2e_cdp.c for the layout).
extern "C" __global__ void async_ops(unsigned char *b, unsigned char *out,
                                     int *errs)
{
    cudaStream_t s;
    cudaEvent_t e;
    int k = 0;
    errs[k++] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    errs[k++] = cudaMemsetAsync(b, 0x11, 256, s);
    b[0] = 7;       // runs now: the memset comes after the threads
    add_one<<<2, 128, 0, s>>>(b, 256);
    errs[k++] = cudaGetLastError();
    errs[k++] = cudaMemcpyAsync(out, b, 256, cudaMemcpyDeviceToDevice, s);
    errs[k++] = cudaMemset2DAsync(b, 16, 0x33, 8, 4, s);
    errs[k++] = cudaMemcpy2DAsync(out + 256, 8, b, 16, 8, 6,
                                  cudaMemcpyDefault, s);
    add_one<<<1, 256, 0, s>>>(b, 256);
    errs[k++] = cudaGetLastError();
    struct cudaMemcpy3DParms p = {};
    p.srcPtr = pitched(b, 16, 16, 4);
    p.srcPos.x = 4;
    p.srcPos.y = 1;
    p.dstPtr = pitched(out + 320, 8, 8, 3);
    p.extent = extent(8, 2, 2);
    p.kind = cudaMemcpyDeviceToDevice;
    errs[k++] = cudaMemcpy3DAsync(&p, s);
    errs[k++] = cudaMemset3DAsync(pitched(out + 512, 32, 32, 3),
                                  0x55, extent(5, 2, 3), s);
    errs[k++] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    errs[k++] = cudaEventRecordWithFlags(e, s, 0);
    errs[k++] = cudaStreamWaitEvent_ptsz(s, e, 0);
    errs[k++] = cudaMemcpyAsync_ptsz(out + 768, b, 256,
                                     cudaMemcpyDeviceToDevice, s);
    errs[k++] = cudaMemsetAsync_ptsz(b + 250, 0x66, 6, s);
    errs[k++] = cudaMemset2DAsync_ptsz(b + 240, 4, 0x77, 2, 2, s);
    errs[k++] = cudaEventDestroy(e);
    errs[k++] = cudaStreamDestroy(s);
}

// Each call breaks one rule; errs[k] is its result.
extern "C" __global__ void async_errors(int *errs, char *buf)
{
    cudaStream_t bogus = (cudaStream_t)0x1234;
    struct cudaMemcpy3DParms p = {};
    struct cudaFuncAttributes fa;
    int v;
    errs[0] = cudaMemcpyAsync(buf, buf + 64, 16, cudaMemcpyHostToDevice, 0);
    errs[1] = cudaMemcpy2DAsync(buf, 8, buf + 64, 16, 12, 2,
                                cudaMemcpyDeviceToDevice, 0);
    errs[2] = cudaMemset2DAsync(buf, 8, 0, 12, 2, 0);
    errs[3] = cudaMemsetAsync(nullptr, 0, 16, 0);
    errs[4] = cudaMemsetAsync(buf, 0, 16, bogus);
    p.srcArray = (cudaArray_t)buf;
    p.dstPtr = pitched(buf, 8, 8, 1);
    p.extent = extent(1, 1, 1);
    p.kind = cudaMemcpyDeviceToDevice;
    errs[5] = cudaMemcpy3DAsync(&p, 0);
    errs[6] = cudaMemcpyAsync(buf, buf + 64, 0, cudaMemcpyDeviceToDevice, 0);
    errs[7] = cudaGetLastError();
    errs[8] = cudaGetLastError();
    errs[9] = cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1);
    errs[10] = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)0, 0);
    errs[11] = cudaFuncGetAttributes(&fa, (const void *)buf);
    errs[12] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &v, (const void *)attr_target, 0, 0);
    errs[13] = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &v, (const void *)attr_target, 32, 0, 2);
    errs[14] = cudaMemset2DAsync(buf, 8, 0, 12, 1, 0);
}

// Thread 1 sets one byte more than buf holds.
extern "C" __global__ void async_oob(char *buf, unsigned long long n)
{
    if (threadIdx.x == 1)
        cudaMemsetAsync(buf, 0, n + 1, 0);
}

extern "C" __global__ void free_child(void *p)
{
    cudaFree(p);
}

// The memset is queued after a child that frees its memory.
extern "C" __global__ void async_freed(int *out)
{
    void *p = nullptr;
    out[0] = cudaMalloc(&p, 64);
    free_child<<<1, 1>>>(p);
    out[1] = cudaMemsetAsync(p, 0, 64, 0);
}
