// Dense switch on a run-time value lowered to a jump table (brx.idx with a
// .branchtargets list). NVVM only emits jump tables when the density
// threshold is lowered (its default of 101 disables them), hence the flag
// below. Also a sparse switch that becomes a compare tree.
// regen: -Xcicc -jump-table-density=50
__device__ __noinline__ int dense_switch(int op, int a, int b)
{
    int r;
    switch (op) {
    case 0: r = a + b; break;
    case 1: r = a - b; break;
    case 2: r = a * b; break;
    case 3: r = b ? a / b : 0; break;
    case 4: r = b ? a % b : 0; break;
    case 5: r = a & b; break;
    case 6: r = a | b; break;
    case 7: r = a ^ b; break;
    case 8: r = a << (b & 31); break;
    case 9: r = a >> (b & 31); break;
    case 10: r = (int)((unsigned)a >> (b & 31)); break;
    case 11: r = a < b ? a : b; break;
    case 12: r = a > b ? a : b; break;
    case 13: r = a == b; break;
    case 14: r = ~a; break;
    case 15: r = -b; break;
    case 16: r = a * a + b; break;
    case 17: r = __popc(a) + b; break;
    case 18: r = __clz(a) - b; break;
    case 19: r = (a + b) >> 1; break;
    default: r = 0x7fffffff; break;
    }
    return r;
}

// A byte-code interpreter: the main loop switch becomes brx.idx.
extern "C" __global__ void interpreter(const unsigned char *code, int code_len,
                                       const int *inputs, int *outputs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int stack[16];
    int sp = 0;
    stack[sp++] = inputs[i];
    for (int pc = 0; pc < code_len; pc++) {
        unsigned char ins = code[pc];
        int op = ins & 31;
        if (op == 31) {             // push immediate
            stack[sp++ & 15] = ins >> 5;
            continue;
        }
        if (op == 30)               // halt
            break;
        int b = stack[--sp & 15];
        int a = (sp > 0) ? stack[--sp & 15] : 0;
        stack[sp++ & 15] = dense_switch(op, a, b);
    }
    outputs[i] = stack[(sp - 1) & 15];
}

extern "C" __global__ void switch_direct(const int *ops, const int *a, const int *b,
                                         int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i], r;
    switch (ops[i]) {
    case 0: r = x + 1; break;
    case 1: r = y * 3; break;
    case 2: r = x - y; break;
    case 3: r = x * y + 7; break;
    case 4: r = x ^ 0x55; break;
    case 5: r = y << 2; break;
    case 6: r = x >> 1; break;
    case 7: r = x | y; break;
    case 8: r = -x; break;
    case 9: r = x & 0xff; break;
    case 10: r = y / 3; break;
    case 11: r = x % 5; break;
    case 12: r = x + y + 12; break;
    case 13: r = y - 13; break;
    case 14: r = x * 14; break;
    case 15: r = y ^ x ^ 15; break;
    case 16: r = x + 16 * y; break;
    case 17: r = 17; break;
    default: r = -1; break;
    }
    // sparse switch: compare chain
    switch (x) {
    case -1000: r += 1; break;
    case 7: r += 2; break;
    case 4096: r += 3; break;
    case 123456: r += 4; break;
    }
    out[i] = r;
}
