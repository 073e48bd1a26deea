// Device-side heap: malloc/free (and the aligned variant), building a
// per-thread linked list on the heap and summing it.
#include <cstdlib>

struct ListNode {
    int value;
    ListNode *next;
};

extern "C" __global__ void heap_list(const int *lens, long long *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int len = lens[i] & 63;
    ListNode *head = nullptr;
    for (int k = 0; k < len; k++) {
        ListNode *nd = (ListNode *)malloc(sizeof(ListNode));
        if (!nd)
            break;
        nd->value = k * i;
        nd->next = head;
        head = nd;
    }
    long long s = 0;
    while (head) {
        ListNode *nx = head->next;
        s += head->value;
        free(head);
        head = nx;
    }
    sums[i] = s;
}

extern "C" __global__ void heap_buffer(const float *in, float *out, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float *buf = (float *)malloc(m * sizeof(float));
    float *al = (float *)__nv_aligned_device_malloc(64, 64);
    if (!buf || !al) {
        out[i] = -1.0f;
        if (buf)
            free(buf);
        if (al)
            free(al);
        return;
    }
    for (int k = 0; k < m; k++)
        buf[k] = in[(i + k) % n] * k;
    float s = 0.0f;
    for (int k = m - 1; k >= 0; k--)
        s += buf[k];
    al[0] = s;
    out[i] = al[0];
    free(al);
    free(buf);
}
