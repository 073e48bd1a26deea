// Seeded memcheck bugs for tests/seeded.test: one bug per kernel, on
// the line marked "// @NAME" (the expected reports, in cases.txt, name
// those lines), and correct twins (*_ok) that must report nothing.
// Blocks of 64 threads unless cases.txt says otherwise; n is the
// buffer's element count.  Built to PTX by regen.sh.

// ---- global out of bounds: an off-by-one bound (i <= n), thread n
// writes or reads the element just past the buffer (GPU-tolerated
// slack: reported, counted, the kernel goes on), at each width
extern "C" __global__ void oob_g_w1(unsigned char *p, int n)
{
    int i = threadIdx.x;
    if (i <= n) p[i] = 1;  // @oob_g_w1
}
extern "C" __global__ void oob_g_w2(unsigned short *p, int n)
{
    int i = threadIdx.x;
    if (i <= n) p[i] = 2;  // @oob_g_w2
}
extern "C" __global__ void oob_g_w4(int *p, int n)
{
    int i = threadIdx.x;
    if (i <= n) p[i] = 4;  // @oob_g_w4
}
extern "C" __global__ void oob_g_w8(double *p, int n)
{
    int i = threadIdx.x;
    if (i <= n) p[i] = 8.0;  // @oob_g_w8
}
extern "C" __global__ void oob_g_w16(int4 *p, int n)
{
    int i = threadIdx.x;
    if (i <= n) p[i] = make_int4(i, i, i, i);  // @oob_g_w16
}
extern "C" __global__ void oob_g_r1(const unsigned char *p, int *out, int n)
{
    int i = threadIdx.x;
    if (i <= n) out[i] = p[i];  // @oob_g_r1
}
extern "C" __global__ void oob_g_r2(const unsigned short *p, int *out, int n)
{
    int i = threadIdx.x;
    if (i <= n) out[i] = p[i];  // @oob_g_r2
}
extern "C" __global__ void oob_g_r4(const int *p, int *out, int n)
{
    int i = threadIdx.x;
    if (i <= n) out[i] = p[i];  // @oob_g_r4
}
extern "C" __global__ void oob_g_r8(const long long *p, long long *out, int n)
{
    int i = threadIdx.x;
    if (i <= n) out[i] = p[i];  // @oob_g_r8
}
extern "C" __global__ void oob_g_r16(const float4 *p, float4 *out, int n)
{
    int i = threadIdx.x;
    if (i <= n) out[i] = p[i];  // @oob_g_r16
}
// the correct bound
extern "C" __global__ void oob_g_ok(int *p, int n)
{
    int i = threadIdx.x;
    if (i < n) p[i] = 4;
}

// ---- before the buffer: a[i - 1] for i = 0 (the allocation's page
// starts there: nothing is mapped before it, the kernel faults)
extern "C" __global__ void oob_g_under(int *p, int n)
{
    int i = threadIdx.x;
    if (i < n) p[i - 1] = i;  // @oob_g_under
}
// far past the end: 1 MiB on, an unmapped page (faults)
extern "C" __global__ void oob_g_far(int *p, int n)
{
    int i = threadIdx.x;
    if (i == 0) p[n + (1 << 18)] = i;  // @oob_g_far
}
// a null pointer
extern "C" __global__ void oob_g_null(int *p, int n)
{
    int *q = n > 1000 ? p : nullptr;
    if (threadIdx.x == 0) *q = 1;  // @oob_g_null
}

// ---- shared memory past a static array (faults: outside the CTA's
// shared bytes), at each width
extern "C" __global__ void oob_s_w1(int *out, int n)
{
    __shared__ unsigned char s[64];
    int i = threadIdx.x;
    if (i == 0) s[n] = 1;  // @oob_s_w1
    __syncthreads();
    out[i] = s[i];
}
extern "C" __global__ void oob_s_w4(int *out, int n)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    s[i] = i;
    if (i == 3) s[n + i] = 0;  // @oob_s_w4
    __syncthreads();
    out[i] = s[63 - i];
}
extern "C" __global__ void oob_s_r4(int *out, int n)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    s[i] = i;
    __syncthreads();
    out[i] = s[i + n];  // @oob_s_r4
}
extern "C" __global__ void oob_s_r8(double *out, int n)
{
    __shared__ double s[64];
    int i = threadIdx.x;
    s[i] = i;
    __syncthreads();
    if (i == 63) out[i] = s[i + n];  // @oob_s_r8
}
extern "C" __global__ void oob_s_ok(int *out, int n)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    s[i] = i;
    __syncthreads();
    out[i] = s[(i + n) % 64];
}

// ---- local memory: an index far past a thread's array (faults:
// above the thread's stack)
extern "C" __global__ void oob_l_r4(int *out, int n)
{
    int a[16];
    for (int k = 0; k < 16; k++) a[k] = k * out[k];
    out[threadIdx.x] = a[n];  // @oob_l_r4
}
extern "C" __global__ void oob_l_w4(int *out, int n)
{
    int a[16];
    for (int k = 0; k < 16; k++) a[k] = out[k];
    a[n] = 7;  // @oob_l_w4
    out[threadIdx.x] = a[threadIdx.x % 16];
}
extern "C" __global__ void oob_l_ok(int *out, int n)
{
    int a[16];
    for (int k = 0; k < 16; k++) a[k] = k * out[k];
    out[threadIdx.x] = a[n % 16];
}

// ---- misaligned: a word access at a byte offset (faults)
extern "C" __global__ void mis_g_w4(char *p, int n)
{
    if (threadIdx.x == 0) *(int *)(p + n) = 1;  // @mis_g_w4
}
extern "C" __global__ void mis_g_r8(char *p, long long *out, int n)
{
    if (threadIdx.x == 0) *out = *(long long *)(p + n);  // @mis_g_r8
}
extern "C" __global__ void mis_g_w16(char *p, int n)
{
    if (threadIdx.x == 0) *(int4 *)(p + n) = make_int4(1, 2, 3, 4);  // @mis_g_w16
}
extern "C" __global__ void mis_s_w4(int *out, int n)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    if (i == 0) *(int *)((char *)s + n) = 1;  // @mis_s_w4
    __syncthreads();
    out[i] = s[i];
}
extern "C" __global__ void mis_ok(char *p, int n)
{
    if (threadIdx.x == 0) *(int *)(p + (n & ~3)) = 1;
}

// ---- the device heap (malloc/free in a kernel)
// a block of n ints, written one past its end by thread 0
extern "C" __global__ void heap_overflow(int *out, int n)
{
    if (threadIdx.x != 0) return;
    int *b = (int *)malloc(n * sizeof(int));
    for (int k = 0; k <= n; k++) b[k] = k;  // @heap_overflow
    out[0] = b[1];
    free(b);
}
// used after its free
extern "C" __global__ void heap_uaf(int *out, int n)
{
    if (threadIdx.x != 0) return;
    int *b = (int *)malloc(n * sizeof(int));  // @heap_uaf.m
    b[0] = 5;
    free(b);  // @heap_uaf.f
    out[0] = b[0];  // @heap_uaf
}
// used after its free and 300 more blocks' (more frees than a ring of
// the last 256 would remember)
extern "C" __global__ void heap_uaf_old(int *out, int n)
{
    if (threadIdx.x != 0) return;
    int *first = (int *)malloc(n * sizeof(int));  // @heap_uaf_old.m
    first[0] = 5;
    free(first);  // @heap_uaf_old.f
    for (int k = 0; k < 300; k++) {
        int *b = (int *)malloc(n * sizeof(int));
        b[0] = k;
        out[1] = b[0];
        free(b);
    }
    out[0] = first[0];  // @heap_uaf_old
}
// its twin: the first block is read while live, then freed
extern "C" __global__ void heap_old_ok(int *out, int n)
{
    if (threadIdx.x != 0) return;
    int *first = (int *)malloc(n * sizeof(int));
    first[0] = 5;
    for (int k = 0; k < 300; k++) {
        int *b = (int *)malloc(n * sizeof(int));
        b[0] = k;
        out[1] = b[0];
        free(b);
    }
    out[0] = first[0];
    free(first);
}
// freed twice
extern "C" __global__ void heap_double_free(int *out, int n)
{
    if (threadIdx.x != 0) return;
    int *b = (int *)malloc(n * sizeof(int));
    b[0] = 5;
    out[0] = b[0];
    free(b);
    free(b);  // @heap_double_free
}
// a pointer into a block, not its start
extern "C" __global__ void heap_free_interior(int *out, int n)
{
    if (threadIdx.x != 0) return;
    int *b = (int *)malloc(n * sizeof(int));
    b[0] = 5;
    out[0] = b[0];
    free(b + 2);  // @heap_free_interior
}
// a cudaMalloc'd buffer given to the device free
extern "C" __global__ void heap_free_global(int *out, int n)
{
    if (threadIdx.x == 0) free(out);  // @heap_free_global
}
extern "C" __global__ void heap_ok(int *out, int n)
{
    if (threadIdx.x != 0) return;
    int *b = (int *)malloc(n * sizeof(int));
    for (int k = 0; k < n; k++) b[k] = k;
    out[0] = b[n - 1];
    free(b);
}
