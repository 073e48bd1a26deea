// Indirect calls through device function pointers (call with .callprototype),
// a dispatch table in __device__ memory, and virtual-call-like dispatch
// through a struct of function pointers.
typedef float (*unary_fn)(float);
typedef int (*binary_fn)(int, int);

__device__ float f_square(float x) { return x * x; }
__device__ float f_negate(float x) { return -x; }
__device__ float f_half(float x) { return 0.5f * x; }
__device__ float f_recip(float x) { return 1.0f / x; }

__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_sub(int a, int b) { return a - b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_min(int a, int b) { return a < b ? a : b; }

__device__ unary_fn g_unary[4] = {f_square, f_negate, f_half, f_recip};
__device__ binary_fn g_binary[4] = {op_add, op_sub, op_mul, op_min};

struct Shape {
    float (*area)(const Shape *);
    float a, b;
};

__device__ float rect_area(const Shape *s) { return s->a * s->b; }
__device__ float tri_area(const Shape *s) { return 0.5f * s->a * s->b; }
__device__ float circle_area(const Shape *s) { return 3.14159265f * s->a * s->a; }

extern "C" __global__ void indirect_unary(const float *x, const int *sel, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unary_fn f = g_unary[sel[i] & 3];
    unary_fn g = g_unary[(sel[i] >> 2) & 3];
    out[i] = g(f(x[i]));
}

extern "C" __global__ void indirect_binary(const int *a, const int *b, const int *ops,
                                           int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int acc = a[i];
    for (int k = 0; k < 4; k++) {
        binary_fn f = g_binary[(ops[i] >> (2 * k)) & 3];
        acc = f(acc, b[(i + k) % n]);
    }
    out[i] = acc;
}

extern "C" __global__ void virtual_dispatch(const float *dims, const int *kind, float *area, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Shape s;
    s.a = dims[2 * i];
    s.b = dims[2 * i + 1];
    switch (kind[i] % 3) {
    case 0:
        s.area = rect_area;
        break;
    case 1:
        s.area = tri_area;
        break;
    default:
        s.area = circle_area;
        break;
    }
    area[i] = s.area(&s);
}
