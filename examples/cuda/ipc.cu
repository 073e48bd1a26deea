// examples/cuda/ipc.cu: CUDA IPC of device memory and events between two
// processes, as NVIDIA's simpleIPC sample uses them.  The parent fills a
// buffer with a kernel on a stream, records an interprocess event after
// it (without waiting for it), exports both with cudaIpcGetMemHandle and
// cudaIpcGetEventHandle and starts this program again (fork and exec: a
// fresh process, since CUDA does not support using a context across
// fork) with the handles as hex arguments.  The child opens them, makes
// its stream wait for the parent's event (so it runs after the parent's
// kernel), checks the parent's values, rewrites the buffer in place with
// a kernel of its own, synchronises and closes the handle; the parent
// then checks the child's values.  After cudaFree the handle no longer
// opens in another process.
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

// Both handle types are 64 opaque bytes.
template <typename H> static void to_hex(const H &h, char *hex)
{
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&h);
    for (size_t i = 0; i < sizeof(h); i++) {
        std::sprintf(hex + 2 * i, "%02x", b[i]);
    }
}

template <typename H> static bool from_hex(const char *hex, H *h)
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

// Runs this program again as `ipc child HEX EVHEX` (or `ipc stale HEX`);
// returns its exit status.
static int run_child(const char *what, const cudaIpcMemHandle_t &h,
                     const cudaIpcEventHandle_t *eh)
{
    char hex[2 * sizeof(h) + 1], evhex[2 * sizeof(*eh) + 1], self[4096];
    to_hex(h, hex);
    if (eh) {
        to_hex(*eh, evhex);
    }
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    EXPECT(n > 0, "cannot find this program");
    self[n] = 0;
    std::fflush(stdout);
    pid_t pid = fork();
    EXPECT(pid >= 0, "fork failed");
    if (pid == 0) {
        execl(self, self, what, hex, eh ? evhex : nullptr,
              static_cast<char *>(nullptr));
        _exit(127);
    }
    int st = 0;
    EXPECT(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "child lost");
    return WEXITSTATUS(st);
}

static int child(const char *what, const char *hex, const char *evhex)
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
    // The parent's kernel may still be running: wait for its event.
    int ipc_events = 0;
    CHECK(cudaDeviceGetAttribute(&ipc_events, cudaDevAttrIpcEventSupport, 0));
    EXPECT(ipc_events == 1 && evhex, "no IPC events");
    cudaIpcEventHandle_t eh;
    EXPECT(from_hex(evhex, &eh), "bad event handle argument");
    cudaEvent_t done;
    CHECK(cudaIpcOpenEventHandle(&done, eh));
    CHECK(cudaStreamWaitEvent(0, done, 0));
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
    CHECK(cudaEventQuery(done));    // the parent's kernel is done
    CHECK(cudaEventDestroy(done));
    CHECK(cudaIpcCloseMemHandle(p));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 || argc == 4) {
        return child(argv[1], argv[2], argc == 4 ? argv[3] : nullptr);
    }
    int *d;
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    cudaIpcMemHandle_t h;
    CHECK(cudaIpcGetMemHandle(&h, d));
    // IPC events must not time (CUDA runtime reference,
    // cudaEventCreateWithFlags).
    cudaEvent_t done;
    CHECK(cudaEventCreateWithFlags(&done, cudaEventInterprocess |
                                              cudaEventDisableTiming));
    cudaIpcEventHandle_t eh;
    CHECK(cudaIpcGetEventHandle(&eh, done));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    fill<<<(N + BLOCK - 1) / BLOCK, BLOCK, 0, s>>>(d, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(done, s));    // no synchronisation here
    EXPECT(run_child("child", h, &eh) == 0, "the child process failed");
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaEventDestroy(done));

    static int host[N];
    CHECK(cudaMemcpy(host, d, sizeof(host), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        EXPECT(host[i] == 5 * i + 2, "host[%d] = %d, expected %d", i,
               host[i], 5 * i + 2);
    }
    CHECK(cudaFree(d));
    EXPECT(run_child("stale", h, nullptr) == 0, "the stale-handle child failed");
    std::printf("PASSED\n");
    return 0;
}
