// Special registers and timing: clock/clock64, %globaltimer, %laneid,
// %warpid, %smid, %nsmid, %gridid, %nwarpid, %dynamic_smem_size,
// %total_smem_size, %envreg, nanosleep, and the 3D index registers.
extern "C" __global__ void special_registers(unsigned *out, unsigned long long *times)
{
    unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned gtid = bid * blockDim.x * blockDim.y * blockDim.z + tid;
    unsigned lane, warp, sm, nsm, nwarp, dsmem, tsmem, env0;
    unsigned long long grid, gt0, gt1;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarp));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(grid));
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dsmem));
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(tsmem));
    asm volatile("mov.u32 %0, %%envreg0;" : "=r"(env0));
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt0));
    long long c0 = clock64();
    unsigned c32 = (unsigned)clock();
    __nanosleep(100 + (lane << 4));
    long long c1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt1));
    unsigned gtlo;
    asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(gtlo));
    out[gtid * 10 + 0] = lane;
    out[gtid * 10 + 1] = warp;
    out[gtid * 10 + 2] = sm;
    out[gtid * 10 + 3] = nsm;
    out[gtid * 10 + 4] = nwarp;
    out[gtid * 10 + 5] = dsmem + tsmem;
    out[gtid * 10 + 6] = (unsigned)grid + env0;
    out[gtid * 10 + 7] = c32 ^ gtlo;
    out[gtid * 10 + 8] = tid;
    out[gtid * 10 + 9] = bid;
    times[gtid * 2] = (unsigned long long)(c1 - c0);
    times[gtid * 2 + 1] = gt1 - gt0;
}

extern "C" __global__ void clock_spin(int *out, long long cycles)
{
    long long start = clock64();
    int spins = 0;
    while (clock64() - start < cycles)
        spins++;
    unsigned pm0;
    asm volatile("mov.u32 %0, %%pm0;" : "=r"(pm0));
    out[blockIdx.x * blockDim.x + threadIdx.x] = spins + (int)(pm0 & 0);
}
