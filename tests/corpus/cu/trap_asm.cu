// Traps, breakpoints, exit, and asm volatile blocks with their own { .reg }
// scopes, predicates, labels and branches.
extern "C" __global__ void checked_div(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int d = b[i];
    if (d == 0)
        __trap();                         // trap
    if (d == -1 && a[i] == (int)0x80000000)
        __brkpt();                        // brkpt
    out[i] = a[i] / d;
}

extern "C" __global__ void asm_exit(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        asm volatile("exit;");
    out[i] = a[i] + 1;
}

// Inline PTX with nested scopes, local predicates and labels
extern "C" __global__ void asm_scopes(const unsigned *a, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], r, cnt;
    // count trailing zeros with a loop inside the asm block
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 ".reg .u32 t, c;\n\t"
                 "mov.u32 t, %2;\n\t"
                 "mov.u32 c, 0;\n\t"
                 "setp.eq.u32 p, t, 0;\n\t"
                 "@p bra.uni DONE_%=;\n"
                 "LOOP_%=:\n\t"
                 "and.b32 %0, t, 1;\n\t"
                 "setp.ne.u32 p, %0, 0;\n\t"
                 "@p bra.uni DONE_%=;\n\t"
                 "shr.u32 t, t, 1;\n\t"
                 "add.u32 c, c, 1;\n\t"
                 "bra.uni LOOP_%=;\n"
                 "DONE_%=:\n\t"
                 "mov.u32 %1, c;\n\t"
                 "}"
                 : "=r"(r), "=r"(cnt) : "r"(x));
    unsigned y;
    asm("{\n\t"
        ".reg .u32 lo, hi;\n\t"
        ".reg .u64 w;\n\t"
        "mul.wide.u32 w, %1, %1;\n\t"
        "mov.b64 {lo, hi}, w;\n\t"
        "{\n\t"
        "  .reg .u32 inner;\n\t"
        "  xor.b32 inner, lo, hi;\n\t"
        "  lop3.b32 %0, inner, lo, hi, 0x96;\n\t"
        "}\n\t"
        "}"
        : "=r"(y) : "r"(x));
    unsigned z;
    asm("{\n\t"
        ".reg .pred p, q;\n\t"
        "setp.lt.u32 p, %1, 100;\n\t"
        "setp.gt.and.u32 q, %1, 10, p;\n\t"
        "selp.u32 %0, 1, 0, q;\n\t"
        "@!q add.u32 %0, %0, 2;\n\t"
        "}"
        : "=r"(z) : "r"(x));
    out[i] = cnt + y + z + r;
}

// Predicate logic instructions
extern "C" __global__ void asm_predicates(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], r;
    asm("{\n\t"
        ".reg .pred p<4>;\n\t"
        "setp.gt.s32 p0, %1, 0;\n\t"
        "setp.lt.s32 p1, %1, 50;\n\t"
        "and.pred p2, p0, p1;\n\t"
        "or.pred p3, p0, p1;\n\t"
        "xor.pred p3, p3, p2;\n\t"
        "not.pred p0, p3;\n\t"
        "selp.s32 %0, 10, 20, p0;\n\t"
        "@p2 add.s32 %0, %0, 1;\n\t"
        "}"
        : "=r"(r) : "r"(x));
    out[i] = r;
}
