// examples/cuda/mempool.cu: stream-ordered allocation, graph memory
// nodes and a conditional graph node, as NVIDIA's streamOrderedAllocation,
// graphMemoryNodes and graphConditionalNodes samples use them.
//  1. cudaMallocAsync / cudaFreeAsync on two streams ordered by events,
//     from the default pool kept warm by a release threshold;
//  2. the same work captured into a graph (allocation and free nodes),
//     the forked stream destroyed before the capture ends;
//  3. a while node whose body kernel counts down and sets the condition
//     with cudaGraphSetConditional.
// Every result is checked against the host.
#include <cstdint>

#include "check.h"

constexpr int N = 4096;
constexpr int BLOCK = 256;

__global__ void square(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * in[i];
    }
}

__global__ void negate(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = -in[i];
    }
}

// One pass of the while body: count down, keep looping while non-zero.
__global__ void countdown(cudaGraphConditionalHandle h, int *left,
                          int *passes)
{
    int v = --*left;
    ++*passes;
    cudaGraphSetConditional(h, v > 0 ? 1 : 0);
}

// s1: in -> square -> (s2: copy squares out) -> negate -> copy out.
static void negate_squares(cudaStream_t s1, const float *hin, float *hsq,
                           float *hneg)
{
    size_t bytes = N * sizeof(float);
    cudaStream_t s2;
    cudaEvent_t squared, negated, freed;
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&squared));
    CHECK(cudaEventCreate(&negated));
    CHECK(cudaEventCreate(&freed));
    float *din, *dsq, *dneg;
    CHECK(cudaMallocAsync(&din, bytes, s1));
    CHECK(cudaMallocAsync(&dsq, bytes, s1));
    CHECK(cudaMemcpyAsync(din, hin, bytes, cudaMemcpyHostToDevice, s1));
    square<<<N / BLOCK, BLOCK, 0, s1>>>(din, dsq, N);
    CHECK(cudaEventRecord(squared, s1));
    CHECK(cudaStreamWaitEvent(s2, squared, 0));
    CHECK(cudaMemcpyAsync(hsq, dsq, bytes, cudaMemcpyDeviceToHost, s2));
    CHECK(cudaFreeAsync(din, s1));
    CHECK(cudaMallocAsync(&dneg, bytes, s1));
    negate<<<N / BLOCK, BLOCK, 0, s1>>>(dsq, dneg, N);
    CHECK(cudaEventRecord(negated, s1));
    CHECK(cudaMemcpyAsync(hneg, dneg, bytes, cudaMemcpyDeviceToHost, s1));
    CHECK(cudaFreeAsync(dneg, s1));
    CHECK(cudaStreamWaitEvent(s2, negated, 0));
    CHECK(cudaFreeAsync(dsq, s2));
    CHECK(cudaEventRecord(freed, s2));
    CHECK(cudaStreamWaitEvent(s1, freed, 0));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaEventDestroy(squared));
    CHECK(cudaEventDestroy(negated));
    CHECK(cudaEventDestroy(freed));
}

static void check_results(const float *hin, const float *hsq,
                          const float *hneg)
{
    for (int i = 0; i < N; i++) {
        float sq = hin[i] * hin[i];
        EXPECT(hsq[i] == sq && hneg[i] == -sq,
               "element %d: %g, %g for input %g", i, hsq[i], hneg[i],
               hin[i]);
    }
}

int main()
{
    int dev = 0, pools = 0;
    CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported,
                                 dev));
    EXPECT(pools == 1, "memory pools not supported");
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
    uint64_t threshold = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                  &threshold));

    float *hin, *hsq, *hneg;
    CHECK(cudaMallocHost(&hin, N * sizeof(float)));
    CHECK(cudaMallocHost(&hsq, N * sizeof(float)));
    CHECK(cudaMallocHost(&hneg, N * sizeof(float)));
    for (int i = 0; i < N; i++) {
        hin[i] = (float)(i % 97) - 48.0f;
    }
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    // 1. In streams.
    negate_squares(s, hin, hsq, hneg);
    CHECK(cudaStreamSynchronize(s));
    check_results(hin, hsq, hneg);
    uint64_t reserved = 0, used = 1;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent,
                                  &reserved));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent,
                                  &used));
    EXPECT(used == 0 && reserved >= 2 * N * sizeof(float),
           "pool: %llu used, %llu reserved", (unsigned long long)used,
           (unsigned long long)reserved);

    // 2. Captured: allocation and free nodes.
    cudaGraph_t g;
    cudaGraphExec_t x;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    negate_squares(s, hin, hsq, hneg);
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int run = 0; run < 2; run++) {
        for (int i = 0; i < N; i++) {
            hsq[i] = hneg[i] = 0.0f;
        }
        CHECK(cudaGraphLaunch(x, s));
        CHECK(cudaStreamSynchronize(s));
        check_results(hin, hsq, hneg);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));

    // 3. while (left > 0) countdown.
    int *dleft, *dpasses;
    CHECK(cudaMalloc(&dleft, sizeof(int)));
    CHECK(cudaMalloc(&dpasses, sizeof(int)));
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1,
                                           cudaGraphCondAssignDefault));
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeWhile;
    cp.conditional.size = 1;
    cudaGraphNode_t cn, kn;
    CHECK(cudaGraphAddNode(&cn, g, nullptr, nullptr, 0, &cp));
    cudaGraph_t body = cp.conditional.phGraph_out[0];
    void *args[] = { &h, &dleft, &dpasses };
    cudaKernelNodeParams kp = {};
    kp.func = (void *)countdown;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kn, body, nullptr, 0, &kp));
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int want = 3; want <= 7; want += 4) {
        int zero = 0;
        CHECK(cudaMemcpy(dleft, &want, sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dpasses, &zero, sizeof(int),
                         cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(x, s));
        // s does not synchronise with the legacy stream of cudaMemcpy
        CHECK(cudaStreamSynchronize(s));
        int passes = -1;
        CHECK(cudaMemcpy(&passes, dpasses, sizeof(int),
                         cudaMemcpyDeviceToHost));
        EXPECT(passes == want, "while: %d passes, want %d", passes, want);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));

    CHECK(cudaFree(dleft));
    CHECK(cudaFree(dpasses));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(hin));
    CHECK(cudaFreeHost(hsq));
    CHECK(cudaFreeHost(hneg));
    std::printf("PASSED\n");
    return 0;
}
