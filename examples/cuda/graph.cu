// examples/cuda/graph.cu: CUDA graphs, both ways.  A pipeline captured
// from two streams (forked and joined with events, as in NVIDIA's
// simpleCudaGraphs sample) is instantiated once and launched on three
// inputs; a graph built node by node gets one kernel's arguments changed
// in the executable graph (cudaGraphExecKernelNodeSetParams) and is then
// updated from a modified graph (cudaGraphExecUpdate).  Every result is
// checked against the same computation on the host.
#include "check.h"

constexpr int N = 1000;
constexpr int BLOCK = 128;
constexpr int GRID = (N + BLOCK - 1) / BLOCK;

__global__ void scale(float *x, int n, float a, float b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = x[i] * a + b;
    }
}

__global__ void axpy(float *y, const float *x, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = y[i] + a * x[i];
    }
}

// A host node: counts the launches that reached it.
static void count_launch(void *p)
{
    ++*static_cast<int *>(p);
}

// The captured pipeline on the host: y = (y*3 - 1) + 0.5 * (x*2 + 1).
static float pipeline(float x, float y)
{
    return (y * 3.0f - 1.0f) + 0.5f * (x * 2.0f + 1.0f);
}

int main()
{
    float *hx, *hy, *dx, *dy;
    CHECK(cudaMallocHost(&hx, N * sizeof(float)));
    CHECK(cudaMallocHost(&hy, N * sizeof(float)));
    CHECK(cudaMalloc(&dx, N * sizeof(float)));
    CHECK(cudaMalloc(&dy, N * sizeof(float)));
    int launches = 0;

    // 1. Capture: s0 copies x in and scales it while s1 (forked from s0)
    // copies y in and scales it; s1 joins back and s0 combines them.
    cudaStream_t s0, s1;
    cudaEvent_t fork, join;
    CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreate(&join));
    CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(fork, s0));
    CHECK(cudaStreamWaitEvent(s1, fork, 0));
    CHECK(cudaMemcpyAsync(dx, hx, N * sizeof(float), cudaMemcpyHostToDevice,
                          s0));
    scale<<<GRID, BLOCK, 0, s0>>>(dx, N, 2.0f, 1.0f);
    CHECK(cudaMemcpyAsync(dy, hy, N * sizeof(float), cudaMemcpyHostToDevice,
                          s1));
    scale<<<GRID, BLOCK, 0, s1>>>(dy, N, 3.0f, -1.0f);
    cudaStreamCaptureStatus status;
    CHECK(cudaStreamIsCapturing(s1, &status));
    EXPECT(status == cudaStreamCaptureStatusActive, "s1 not capturing");
    const cudaGraphNode_t *deps = nullptr;
    size_t ndeps = 0;
    unsigned long long id0 = 0, id1 = 1;
    CHECK(cudaStreamGetCaptureInfo(s0, &status, &id0));
    CHECK(cudaStreamGetCaptureInfo(s1, &status, &id1, nullptr, &deps,
                                   nullptr, &ndeps));
    EXPECT(id0 == id1, "two capture ids: %llu, %llu", id0, id1);
    EXPECT(ndeps == 1, "s1 depends on %zu nodes, want 1", ndeps);
    CHECK(cudaEventRecord(join, s1));
    CHECK(cudaStreamWaitEvent(s0, join, 0));
    axpy<<<GRID, BLOCK, 0, s0>>>(dy, dx, N, 0.5f);
    CHECK(cudaMemcpyAsync(hy, dy, N * sizeof(float), cudaMemcpyDeviceToHost,
                          s0));
    CHECK(cudaLaunchHostFunc(s0, count_launch, &launches));
    cudaGraph_t captured;
    CHECK(cudaStreamEndCapture(s0, &captured));
    EXPECT(launches == 0, "the capture ran work");
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(captured, nullptr, &nodes));
    EXPECT(nodes == 7, "%zu nodes captured, want 7", nodes);

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, captured, 0));
    for (int run = 0; run < 3; run++) {
        for (int i = 0; i < N; i++) {
            hx[i] = (float)(i % 50) * 0.25f + run;
            hy[i] = (float)(i % 7) - run;
        }
        float want[N];
        for (int i = 0; i < N; i++) {
            want[i] = pipeline(hx[i], hy[i]);
        }
        CHECK(cudaGraphLaunch(exec, s0));
        CHECK(cudaStreamSynchronize(s0));
        for (int i = 0; i < N; i++) {
            EXPECT(hy[i] == want[i], "run %d: y[%d] = %g, want %g", run, i,
                   hy[i], want[i]);
        }
    }
    EXPECT(launches == 3, "host node ran %d times, want 3", launches);

    // 2. Built by hand: x = x*a + b, then x = x*2 (after the first).
    for (int i = 0; i < N; i++) {
        hx[i] = (float)i;
    }
    CHECK(cudaMemcpy(dx, hx, N * sizeof(float), cudaMemcpyHostToDevice));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    int n = N;
    float a = 3.0f, b = 0.5f, two = 2.0f, zero = 0.0f;
    void *first_args[] = { &dx, &n, &a, &b };
    void *second_args[] = { &dx, &n, &two, &zero };
    cudaKernelNodeParams p = {};
    p.func = (void *)scale;
    p.gridDim = dim3(GRID);
    p.blockDim = dim3(BLOCK);
    p.kernelParams = first_args;
    cudaGraphNode_t first, second;
    CHECK(cudaGraphAddKernelNode(&first, g, nullptr, 0, &p));
    p.kernelParams = second_args;
    CHECK(cudaGraphAddKernelNode(&second, g, &first, 1, &p));
    cudaGraphExec_t gx;
    CHECK(cudaGraphInstantiate(&gx, g, 0));

    // The executable graph's first node now computes x*-1 + 4.
    a = -1.0f;
    b = 4.0f;
    p.kernelParams = first_args;
    CHECK(cudaGraphExecKernelNodeSetParams(gx, first, &p));
    CHECK(cudaGraphLaunch(gx, s0));
    CHECK(cudaMemcpyAsync(hy, dx, N * sizeof(float), cudaMemcpyDeviceToHost,
                          s0));
    CHECK(cudaStreamSynchronize(s0));
    for (int i = 0; i < N; i++) {
        float want = ((float)i * -1.0f + 4.0f) * 2.0f;
        EXPECT(hy[i] == want, "set params: x[%d] = %g, want %g", i, hy[i],
               want);
    }

    // The graph's first node becomes x*0.25 + 1 and the executable
    // graph is updated from it (same topology).
    a = 0.25f;
    b = 1.0f;
    CHECK(cudaGraphKernelNodeSetParams(first, &p));
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(gx, g, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess, "update result %d",
           (int)info.result);
    CHECK(cudaMemcpy(dx, hx, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(gx, s0));
    CHECK(cudaMemcpyAsync(hy, dx, N * sizeof(float), cudaMemcpyDeviceToHost,
                          s0));
    CHECK(cudaStreamSynchronize(s0));
    for (int i = 0; i < N; i++) {
        float want = ((float)i * 0.25f + 1.0f) * 2.0f;
        EXPECT(hy[i] == want, "update: x[%d] = %g, want %g", i, hy[i],
               want);
    }

    CHECK(cudaGraphExecDestroy(gx));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(captured));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    CHECK(cudaStreamDestroy(s0));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    CHECK(cudaFreeHost(hx));
    CHECK(cudaFreeHost(hy));
    return passed();
}
