// Recursive device functions: factorial, fibonacci, mutual recursion
// (is_even / is_odd), a recursive walk over a binary tree stored in an array,
// and a recursive merge-style inversion count. Recursion forces real .func
// calls with a stack frame (%SP, local depot). Built with -G, so the PTX is
// unoptimised and carries DWARF .section .debug_* blocks.
// regen: -G
__device__ unsigned long long factorial(unsigned k)
{
    return (k <= 1) ? 1ull : k * factorial(k - 1);
}

__device__ int fib(int k)
{
    if (k < 2)
        return k;
    return fib(k - 1) + fib(k - 2);
}

__device__ bool is_odd(unsigned k);

__device__ bool is_even(unsigned k)
{
    return k == 0 ? true : is_odd(k - 1);
}

__device__ bool is_odd(unsigned k)
{
    return k == 0 ? false : is_even(k - 1);
}

struct Node {
    int value;
    int left;    // index of left child or -1
    int right;   // index of right child or -1
};

__device__ int tree_sum(const Node *nodes, int idx, int depth, int *maxdepth)
{
    if (idx < 0)
        return 0;
    if (depth > *maxdepth)
        *maxdepth = depth;
    const Node &nd = nodes[idx];
    return nd.value + tree_sum(nodes, nd.left, depth + 1, maxdepth) +
           tree_sum(nodes, nd.right, depth + 1, maxdepth);
}

// Recursive quicksort-style partition count with a local array
__device__ int count_inversions(int *a, int lo, int hi)
{
    if (hi - lo < 2)
        return 0;
    int mid = (lo + hi) / 2;
    int c = count_inversions(a, lo, mid) + count_inversions(a, mid, hi);
    for (int x = lo; x < mid; x++)
        for (int y = mid; y < hi; y++)
            if (a[x] > a[y])
                c++;
    return c;
}

extern "C" __global__ void recursion_kernel(const int *in, unsigned long long *fact, int *fibs,
                                            int *parity, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i] & 15;
    fact[i] = factorial((unsigned)v);
    fibs[i] = fib(v);
    parity[i] = is_even((unsigned)v) ? 2 : 1;
}

extern "C" __global__ void tree_kernel(const Node *nodes, const int *roots, int *sums,
                                       int *depths, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int md = 0;
    sums[i] = tree_sum(nodes, roots[i], 0, &md);
    depths[i] = md;
}

extern "C" __global__ void inversions_kernel(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int a[8];
    for (int k = 0; k < 8; k++)
        a[k] = in[(i + k * 3) % n];
    out[i] = count_inversions(a, 0, 8);
}
