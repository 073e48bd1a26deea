// OpenCL C kernels compiled by clang's NVPTX backend (no libclc: work-item
// ids come from the __nvvm_read_ptx_sreg_* builtins). Exercises vector
// types, __local memory with barriers, and integer/float helpers.
#define TID_X() __nvvm_read_ptx_sreg_tid_x()
#define GID_X() (__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x())

__kernel void vec4_madd(__global const float4 *a, __global const float4 *b, __global float4 *c,
                        float s, int n)
{
    int i = GID_X();
    if (i >= n)
        return;
    float4 x = a[i], y = b[i];
    c[i] = x * s + y.wzyx;
}

__kernel void int2_ops(__global const int2 *a, __global int2 *out, int n)
{
    int i = GID_X();
    if (i >= n)
        return;
    int2 v = a[i];
    int2 r;
    r.x = v.x * v.y + (v.x >> 3);
    r.y = (v.x ^ v.y) | (v.y << 2);
    out[i] = r;
}

// Block-local reversal through __local memory (blockDim.x <= 256)
__kernel void local_reverse(__global const int *in, __global int *out, int n)
{
    __local int tile[256];
    int t = TID_X();
    int i = GID_X();
    int bs = __nvvm_read_ptx_sreg_ntid_x();
    tile[t] = (i < n) ? in[i] : 0;
    __nvvm_bar_sync(0);
    if (i < n)
        out[i] = tile[bs - 1 - t];
}

__kernel void uchar_saturate(__global const float *in, __global uchar *out, int n)
{
    int i = GID_X();
    if (i >= n)
        return;
    float v = in[i] * 255.0f;
    v = v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v);
    out[i] = (uchar)(v + 0.5f);
}
