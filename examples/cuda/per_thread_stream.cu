// examples/cuda/per_thread_stream.cu: built with
// `nvcc --default-stream per-thread` (tests/exec.test), so every call
// goes to the _ptsz/_ptds entry points and the default stream (0, or a
// launch without a stream) is the calling thread's own.  The main thread
// captures its per-thread stream into a graph while a second thread runs
// work on its per-thread stream: that work runs at once and is not part
// of the graph.  The graph is then launched twice; every result is
// checked against the same computation on the host.
#include <thread>
#include <vector>

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

// The second thread: y = 2 * 1 + 1 = 3 on its per-thread stream.
static void other(float *y, cudaError_t *err, cudaStreamCaptureStatus *st)
{
    *err = cudaStreamIsCapturing(cudaStreamPerThread, st);
    if (*err != cudaSuccess) {
        return;
    }
    std::vector<float> ones(N, 1.0f);
    *err = cudaMemcpyAsync(y, ones.data(), N * sizeof(float),
                           cudaMemcpyHostToDevice);
    if (*err != cudaSuccess) {
        return;
    }
    scale<<<GRID, BLOCK>>>(y, N, 2.0f, 1.0f);
    *err = cudaGetLastError();
    if (*err == cudaSuccess) {
        *err = cudaStreamSynchronize(0);
    }
}

int main()
{
    float *x, *y;
    CHECK(cudaMalloc(&x, N * sizeof(float)));
    CHECK(cudaMalloc(&y, N * sizeof(float)));
    CHECK(cudaMemset(x, 0, N * sizeof(float)));

    // Captured: x = (x * 0 + 4) * 0.5 - 1 = 1, as two kernels.
    CHECK(cudaStreamBeginCapture(cudaStreamPerThread,
                                 cudaStreamCaptureModeThreadLocal));
    scale<<<GRID, BLOCK>>>(x, N, 0.0f, 4.0f);
    CHECK(cudaGetLastError());
    scale<<<GRID, BLOCK>>>(x, N, 0.5f, -1.0f);
    CHECK(cudaGetLastError());
    cudaError_t oerr = cudaErrorUnknown;
    cudaStreamCaptureStatus ost = cudaStreamCaptureStatusActive;
    std::thread t(other, y, &oerr, &ost);
    t.join();
    CHECK(oerr);
    EXPECT(ost == cudaStreamCaptureStatusNone,
           "the other thread's per-thread stream captures (%d)", (int)ost);
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(cudaStreamPerThread, &g));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
    EXPECT(nodes == 2, "%zu nodes captured, expected 2", nodes);

    std::vector<float> h(N);
    CHECK(cudaMemcpy(h.data(), y, N * sizeof(float),
                     cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        EXPECT(h[i] == 3.0f, "y[%d] = %g, expected 3", i, h[i]);
    }
    CHECK(cudaMemcpy(h.data(), x, N * sizeof(float),
                     cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        EXPECT(h[i] == 0.0f, "x[%d] = %g before the graph ran", i, h[i]);
    }

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int run = 0; run < 2; run++) {
        CHECK(cudaGraphLaunch(exec, 0));
        CHECK(cudaStreamSynchronize(0));
        CHECK(cudaMemcpy(h.data(), x, N * sizeof(float),
                         cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; i++) {
            EXPECT(h[i] == 1.0f, "run %d: x[%d] = %g, expected 1", run, i,
                   h[i]);
        }
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return passed();
}
