// Seeded initcheck bugs for tests/seeded.test: reads of bytes nothing
// wrote, one per kernel on the line marked "// @NAME", and correct
// twins (*_ok).  The global buffer g is given unwritten
// (buf:...:none) unless cases.txt says otherwise.  Built to PTX by
// regen.sh.

// ---- global memory never written since its cudaMalloc, each width
extern "C" __global__ void i_g_r1(const unsigned char *g, int *out)
{
    out[threadIdx.x] = g[threadIdx.x];  // @i_g_r1
}
extern "C" __global__ void i_g_r2(const unsigned short *g, int *out)
{
    out[threadIdx.x] = g[threadIdx.x];  // @i_g_r2
}
extern "C" __global__ void i_g_r4(const int *g, int *out)
{
    out[threadIdx.x] = g[threadIdx.x];  // @i_g_r4
}
extern "C" __global__ void i_g_r8(const double *g, double *out)
{
    out[threadIdx.x] = g[threadIdx.x];  // @i_g_r8
}
extern "C" __global__ void i_g_r16(const int4 *g, int4 *out)
{
    out[threadIdx.x] = g[threadIdx.x];  // @i_g_r16
}
// the kernel writes three bytes of a word, then reads the word
extern "C" __global__ void i_g_partial(unsigned char *g, int *out)
{
    if (threadIdx.x == 0) {
        g[0] = 1;
        g[1] = 2;
        g[2] = 3;
        out[0] = *(volatile int *)g;  // @i_g_partial
    }
}
// written by the kernel for even i only, read for all
extern "C" __global__ void i_g_holes(int *g, int *out)
{
    int i = threadIdx.x;
    if (i % 2 == 0) g[i] = i;
    __syncthreads();
    if (i == 0) out[0] = g[1];  // @i_g_holes
}
// the twins: host-initialised input (cases.txt gives it), and a
// buffer the kernel writes before reading
extern "C" __global__ void i_g_ok(const int *g, int *out)
{
    out[threadIdx.x] = g[threadIdx.x];
}
extern "C" __global__ void i_g_write_ok(int *g, int *out)
{
    int i = threadIdx.x;
    g[i] = i;
    __syncthreads();
    out[i] = g[(i + 1) % blockDim.x];
}

// ---- shared memory no thread of the CTA wrote
extern "C" __global__ void i_s_r4(int *out)
{
    __shared__ int s[64];
    out[threadIdx.x] = s[threadIdx.x];  // @i_s_r4
}
extern "C" __global__ void i_s_r8(double *out)
{
    __shared__ double s[64];
    int i = threadIdx.x;
    if (i % 2 == 0) s[i] = i;
    __syncthreads();
    if (i == 0) out[0] = s[7];  // @i_s_r8
}
// half the array written, the other half read
extern "C" __global__ void i_s_half(int *out)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    if (i < 32) s[i] = i;
    __syncthreads();
    if (i == 0) out[0] = s[40];  // @i_s_half
}
extern "C" __global__ void i_s_ok(int *out)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    s[i] = i;
    __syncthreads();
    out[i] = s[63 - i];
}

// ---- local memory the thread did not write: a array element the
// initialising loop skips (volatile keeps it in local memory)
extern "C" __global__ void i_l_r4(int *out, int n)
{
    volatile int a[8];
    for (int k = 1; k < 8; k++) a[k] = k;
    out[threadIdx.x] = a[n];  // @i_l_r4
}
extern "C" __global__ void i_l_r8(double *out, int n)
{
    volatile double a[8];
    for (int k = 0; k < 8; k += 2) a[k] = k;
    if (threadIdx.x == 0) out[0] = a[n];  // @i_l_r8
}
extern "C" __global__ void i_l_ok(int *out, int n)
{
    volatile int a[8];
    for (int k = 0; k < 8; k++) a[k] = k;
    out[threadIdx.x] = a[n];
}
