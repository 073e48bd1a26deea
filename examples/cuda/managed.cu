// examples/cuda/managed.cu: unified memory.  The host writes a
// cudaMallocManaged array, kernels update it in place, the host reads it
// back with no cudaMemcpy; a __managed__ variable is shared the same
// way, and cudaPointerGetAttributes reports the kind of each pointer.
#include "check.h"

__managed__ int hits;
__managed__ float scale = 1.5f;

__global__ void scale_odd(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (i & 1)) {
        x[i] *= scale;
        atomicAdd(&hits, 1);
    }
}

// A managed linked list built on the host, walked on the device.
struct Node {
    int value;
    Node *next;
};

__global__ void list_sum(const Node *head, int *out)
{
    int s = 0;
    for (const Node *p = head; p; p = p->next) {
        s += p->value;
    }
    *out = s;
}

int main()
{
    const int n = 3000;
    float *x;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    for (int i = 0; i < n; i++) {
        x[i] = (float)i;
    }
    hits = 0;
    scale_odd<<<(n + 127) / 128, 128>>>(x, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    EXPECT(hits == n / 2, "hits = %d, want %d", hits, n / 2);

    // The host changes the managed scale between launches.
    scale = -2.0f;
    scale_odd<<<(n + 127) / 128, 128>>>(x, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    EXPECT(hits == n, "hits = %d, want %d", hits, n);
    for (int i = 0; i < n; i++) {
        float want = (i & 1) ? (float)i * 1.5f * -2.0f : (float)i;
        EXPECT(x[i] == want, "x[%d] = %g, want %g", i, x[i], want);
    }

    Node *nodes;
    int *sum;
    CHECK(cudaMallocManaged(&nodes, 10 * sizeof(Node)));
    CHECK(cudaMallocManaged(&sum, sizeof(int)));
    for (int k = 0; k < 10; k++) {
        // Linked in a scrambled order: 0 -> 3 -> 6 -> 9 -> 2 -> ...
        nodes[(3 * k) % 10].value = k * k;
        nodes[(3 * k) % 10].next =
            k < 9 ? &nodes[(3 * (k + 1)) % 10] : nullptr;
    }
    *sum = -1;
    list_sum<<<1, 1>>>(nodes, sum);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    EXPECT(*sum == 285, "list sum = %d, want 285", *sum);

    cudaPointerAttributes a;
    CHECK(cudaPointerGetAttributes(&a, x));
    EXPECT(a.type == cudaMemoryTypeManaged, "x: memory type %d, want %d",
           (int)a.type, (int)cudaMemoryTypeManaged);
    EXPECT(a.devicePointer == x && a.hostPointer == x,
           "x: device %p host %p, want %p for both", a.devicePointer,
           a.hostPointer, (void *)x);
    float *dev;
    CHECK(cudaMalloc(&dev, 16));
    CHECK(cudaPointerGetAttributes(&a, dev));
    EXPECT(a.type == cudaMemoryTypeDevice, "cudaMalloc: memory type %d",
           (int)a.type);
    CHECK(cudaFree(dev));
    CHECK(cudaFree(x));
    CHECK(cudaFree(nodes));
    CHECK(cudaFree(sum));
    return passed();
}
