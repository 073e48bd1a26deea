// Warp votes and matching: vote.sync.ballot/all/any/uni, activemask,
// match.any.sync / match.all.sync, and lanemask special registers.
extern "C" __global__ void warp_vote(const int *a, unsigned *ballots, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? a[i] : 0;
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int all = __all_sync(0xffffffffu, v != 0);
    int any = __any_sync(0xffffffffu, v < 0);
    int uni = __uni_sync(0xffffffffu, v & 1);
    unsigned lt;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    int rank = __popc(b & lt);  // rank among positive lanes
    if (i < n) {
        ballots[i] = b;
        flags[i] = all | (any << 1) | (uni << 2) | (rank << 8);
    }
}

extern "C" __global__ void warp_activemask(const int *a, unsigned *masks, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned m0 = __activemask();
    unsigned m1 = 0;
    if (a[i] & 1)
        m1 = __activemask();
    else
        m1 = ~__activemask();
    unsigned ge, le, gt, eq;
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    masks[i] = m0 ^ m1 ^ ge ^ (le << 1) ^ (gt >> 1) ^ eq;
}

extern "C" __global__ void warp_match(const int *a, const long long *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? a[i] : -1;
    long long w = (i < n) ? b[i] : -1;
    unsigned any32 = __match_any_sync(0xffffffffu, v);
    unsigned any64 = __match_any_sync(0xffffffffu, w);
    int pred32, pred64;
    unsigned all32 = __match_all_sync(0xffffffffu, v & 3, &pred32);
    unsigned all64 = __match_all_sync(0xffffffffu, w >> 60, &pred64);
    // leader of each group of equal keys aggregates
    int leader = __ffs(any32) - 1;
    int is_leader = (threadIdx.x & 31) == leader;
    if (i < n)
        out[i] = any32 ^ (any64 << 1) ^ all32 ^ all64 ^ (pred32 << 30) ^ (pred64 << 31) ^ is_leader;
}
