// OpenCL C reduction compiled by clang: __local tree reduction, loop with
// barriers, 64-bit accumulation, and a global atomic add via a GCC-style
// __sync builtin (atom.global.add).
#define TID_X() __nvvm_read_ptx_sreg_tid_x()
#define CTAID_X() __nvvm_read_ptx_sreg_ctaid_x()
#define NTID_X() __nvvm_read_ptx_sreg_ntid_x()

__kernel void block_reduce(__global const int *in, __global long *partial,
                           __global int *total, int n)
{
    __local long sums[256];
    int t = TID_X();
    int bs = NTID_X();
    long acc = 0;
    for (int i = CTAID_X() * bs + t; i < n; i += bs * __nvvm_read_ptx_sreg_nctaid_x())
        acc += in[i];
    sums[t] = acc;
    __nvvm_bar_sync(0);
    for (int s = bs / 2; s > 0; s >>= 1) {
        if (t < s)
            sums[t] += sums[t + s];
        __nvvm_bar_sync(0);
    }
    if (t == 0) {
        partial[CTAID_X()] = sums[0];
        __sync_fetch_and_add(total, (int)sums[0]);
    }
}

__kernel void minmax(__global const float *in, __global float *out, int n)
{
    int i = CTAID_X() * NTID_X() + TID_X();
    if (i >= n)
        return;
    float lo = in[i], hi = in[i];
    for (int k = 1; k < 8 && i + k < n; k++) {
        float v = in[i + k];
        lo = __builtin_fminf(lo, v);
        hi = __builtin_fmaxf(hi, v);
    }
    out[2 * i] = lo;
    out[2 * i + 1] = hi;
}
