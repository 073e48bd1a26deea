// examples/cuda/ipc.cu: CUDA IPC of device memory between two processes,
// as NVIDIA's simpleIPC sample uses it.  The parent fills a buffer with a
// kernel, exports it with cudaIpcGetMemHandle and starts this program
// again (fork and exec: a fresh process, since CUDA does not support
// using a context across fork) with the handle as a hex argument.  The
// child opens the handle, checks the parent's values, rewrites the buffer
// in place with a kernel of its own, synchronises and closes the handle;
// the parent then checks the child's values.  After cudaFree the handle
// no longer opens in another process.
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

constexpr int N = 1 << 14;
constexpr int BLOCK = 256;

__global__ void fill(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i] = 3 * i + 1;
    }
}

// The child's work: checks the parent's values (counts mismatches) and
// rewrites each as 2v - i.
__global__ void rewrite(int *p, int n, int *bad)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (p[i] != 3 * i + 1) {
            atomicAdd(bad, 1);
        }
        p[i] = 2 * p[i] - i;
    }
}

static void to_hex(const cudaIpcMemHandle_t &h, char *hex)
{
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&h);
    for (size_t i = 0; i < sizeof(h); i++) {
        std::sprintf(hex + 2 * i, "%02x", b[i]);
    }
}

static bool from_hex(const char *hex, cudaIpcMemHandle_t *h)
{
    unsigned char *b = reinterpret_cast<unsigned char *>(h);
    if (std::strlen(hex) != 2 * sizeof(*h)) {
        return false;
    }
    for (size_t i = 0; i < sizeof(*h); i++) {
        unsigned v;
        if (std::sscanf(hex + 2 * i, "%2x", &v) != 1) {
            return false;
        }
        b[i] = static_cast<unsigned char>(v);
    }
    return true;
}

// Runs this program again as `ipc child HEX` (or `ipc stale HEX`);
// returns its exit status.
static int run_child(const char *what, const cudaIpcMemHandle_t &h)
{
    char hex[2 * sizeof(h) + 1], self[4096];
    to_hex(h, hex);
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    EXPECT(n > 0, "cannot find this program");
    self[n] = 0;
    std::fflush(stdout);
    pid_t pid = fork();
    EXPECT(pid >= 0, "fork failed");
    if (pid == 0) {
        execl(self, self, what, hex, static_cast<char *>(nullptr));
        _exit(127);
    }
    int st = 0;
    EXPECT(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "child lost");
    return WEXITSTATUS(st);
}

static int child(const char *what, const char *hex)
{
    cudaIpcMemHandle_t h;
    EXPECT(from_hex(hex, &h), "bad handle argument");
    int *p = nullptr;
    cudaError_t e = cudaIpcOpenMemHandle(reinterpret_cast<void **>(&p), h,
                                         cudaIpcMemLazyEnablePeerAccess);
    if (std::strcmp(what, "stale") == 0) {
        // a freed allocation's handle: an error, and the process lives on
        EXPECT(e != cudaSuccess, "a freed allocation's handle opened");
        (void)cudaGetLastError();
        return 0;
    }
    CHECK(e);
    int *bad;
    CHECK(cudaMalloc(&bad, sizeof(int)));
    CHECK(cudaMemset(bad, 0, sizeof(int)));
    rewrite<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(p, N, bad);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int nbad = -1;
    CHECK(cudaMemcpy(&nbad, bad, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(nbad == 0, "child: %d of the parent's values wrong", nbad);
    CHECK(cudaFree(bad));
    CHECK(cudaIpcCloseMemHandle(p));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3) {
        return child(argv[1], argv[2]);
    }
    int *d;
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    fill<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(d, N);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaIpcMemHandle_t h;
    CHECK(cudaIpcGetMemHandle(&h, d));
    EXPECT(run_child("child", h) == 0, "the child process failed");

    static int host[N];
    CHECK(cudaMemcpy(host, d, sizeof(host), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        EXPECT(host[i] == 5 * i + 2, "host[%d] = %d, expected %d", i,
               host[i], 5 * i + 2);
    }
    CHECK(cudaFree(d));
    EXPECT(run_child("stale", h) == 0, "the stale-handle child failed");
    std::printf("PASSED\n");
    return 0;
}
