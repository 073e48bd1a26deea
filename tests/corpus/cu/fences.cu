// Memory fences and warp/CTA synchronisation: membar.gl/cta/sys,
// fence.*, bar.warp.sync, and a producer/consumer pattern using volatile.
extern "C" __global__ void fence_publish(int *data, volatile int *flags, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    data[i] = i * 3 + 1;
    __threadfence();            // membar.gl / fence.sc.gpu
    flags[i] = 1;
    __threadfence_block();      // membar.cta
    __threadfence_system();     // membar.sys
    int partner = i ^ 1;
    int v = 0;
    if (partner < n && flags[partner])
        v = data[partner];
    out[i] = v;
}

extern "C" __global__ void syncwarp_exchange(const int *a, int *out, int n)
{
    __shared__ int buf[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t & 255] = (i < n) ? a[i] : 0;
    __syncwarp();
    int lane = t & 31;
    int base = t & ~31;
    int v = buf[(base + ((lane + 1) & 31)) & 255];
    __syncwarp(0xffffffffu);
    buf[t & 255] = v * 2;
    __syncwarp(0x0000ffffu | 0xffff0000u);
    if (i < n)
        out[i] = buf[(base + (31 - lane)) & 255];
}

// Explicit PTX membar/fence forms
extern "C" __global__ void fence_asm(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    data[i] += 1;
    asm volatile("membar.cta;" ::: "memory");
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("membar.sys;" ::: "memory");
    asm volatile("fence.sc.cta;" ::: "memory");
    asm volatile("fence.acq_rel.sys;" ::: "memory");
    asm volatile("fence.proxy.alias;" ::: "memory");
    data[i] *= 2;
}
