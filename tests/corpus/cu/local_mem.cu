// Per-thread arrays indexed with run-time values so that they live in local
// memory (.local, ld.local/st.local, __local_depot, %SP/%SPL).
extern "C" __global__ void local_array(const int *idx, const int *vals, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int arr[64];
    for (int k = 0; k < 64; k++)
        arr[k] = vals[(i + k) % n] * k;
    int r = 0;
    for (int k = 0; k < 16; k++) {
        int j = idx[(i * 16 + k) % n] & 63;
        arr[j] += k;
        r += arr[(j * 7) & 63];
    }
    out[i] = r;
}

// Local array of structs and doubles, with bubble sort (dynamic indices)
struct Rec {
    float key;
    int id;
};

extern "C" __global__ void local_sort(const float *keys, float *sorted, int *ids, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const int K = 12;
    Rec r[K];
    for (int k = 0; k < K; k++) {
        r[k].key = keys[(i * K + k) % n];
        r[k].id = k;
    }
    for (int a = 0; a < K - 1; a++)
        for (int b = 0; b < K - 1 - a; b++)
            if (r[b].key > r[b + 1].key) {
                Rec t = r[b];
                r[b] = r[b + 1];
                r[b + 1] = t;
            }
    sorted[i] = r[K / 2].key;
    ids[i] = r[0].id * 100 + r[K - 1].id;
}

// Local memory via explicit PTX .local declarations in an asm scope
extern "C" __global__ void local_asm(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = a[i], r;
    asm volatile("{\n\t"
                 ".local .align 4 .b32 tmp[4];\n\t"
                 ".reg .u64 base;\n\t"
                 "mov.u64 base, tmp;\n\t"
                 "st.local.u32 [base], %1;\n\t"
                 "st.local.u32 [base+4], %1;\n\t"
                 "ld.local.u32 %0, [base];\n\t"
                 "add.u32 %0, %0, %0;\n\t"
                 "}"
                 : "=r"(r) : "r"(v));
    out[i] = r;
}
