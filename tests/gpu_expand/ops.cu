// tests/gpu_expand/ops.cu: one kernel per PTX instruction whose machine
// expansion timing/gpu/expand.def records.  Each kernel loads its
// operands, runs exactly one PTX instruction (inline asm, so the PTX is
// the one named, not what the compiler would choose) and stores the
// result; regen.sh compiles them for sm_70/80/90, disassembles them and
// counts the machine instructions of each kernel's body beyond its
// type's baseline kernel (the same shape with one plain add).
//
// Kernel names: k_<f32|f64|s32|u32|s64|u64>_<op with . as _>.

#define OP2(T, C, R, name, insn)                                          \
    extern "C" __global__ void k_##name(T *o, const T *a)                 \
    {                                                                     \
        T x = a[threadIdx.x], y = a[threadIdx.x + 32], r;                 \
        asm volatile(insn " %0, %1, %2;" : "=" R(r) : C(x), C(y));        \
        o[threadIdx.x] = r;                                               \
    }
#define OP1(T, C, R, name, insn)                                          \
    extern "C" __global__ void k_##name(T *o, const T *a)                 \
    {                                                                     \
        T x = a[threadIdx.x], r;                                          \
        asm volatile(insn " %0, %1;" : "=" R(r) : C(x));                  \
        o[threadIdx.x] = r;                                               \
    }
/* a 32-bit op with a 64-bit result (mul.wide) */
#define OPW(T, C, name, insn)                                             \
    extern "C" __global__ void k_##name(long long *o, const T *a)         \
    {                                                                     \
        T x = a[threadIdx.x], y = a[threadIdx.x + 32];                    \
        long long r;                                                      \
        asm volatile(insn " %0, %1, %2;" : "=l"(r) : C(x), C(y));         \
        o[threadIdx.x] = r;                                               \
    }

/* baselines: the same shapes around one native instruction */
OP2(float, "f", "f", f32_base2, "add.f32")
OP1(float, "f", "f", f32_base1, "abs.f32")
OP2(double, "d", "d", f64_base2, "add.f64")
OP1(double, "d", "d", f64_base1, "abs.f64")
OP2(int, "r", "r", s32_base2, "add.s32")
OP2(unsigned, "r", "r", u32_base2, "add.u32")
OP2(long long, "l", "l", s64_base2, "add.s64")
OP2(unsigned long long, "l", "l", u64_base2, "add.u64")
/* the wide shape's baseline packs the two halves: no arithmetic */
extern "C" __global__ void k_s32_basew(long long *o, const int *a)
{
    int x = a[threadIdx.x], y = a[threadIdx.x + 32];
    long long r;
    asm volatile("mov.b64 %0, {%1, %2};" : "=l"(r) : "r"(x), "r"(y));
    o[threadIdx.x] = r;
}

/* single precision */
OP2(float, "f", "f", f32_div_rn, "div.rn.f32")
OP2(float, "f", "f", f32_div_approx, "div.approx.f32")
OP2(float, "f", "f", f32_div_full, "div.full.f32")
OP1(float, "f", "f", f32_sqrt_rn, "sqrt.rn.f32")
OP1(float, "f", "f", f32_sqrt_approx, "sqrt.approx.f32")
OP1(float, "f", "f", f32_rcp_rn, "rcp.rn.f32")
OP1(float, "f", "f", f32_rcp_approx, "rcp.approx.f32")
OP1(float, "f", "f", f32_rsqrt_approx, "rsqrt.approx.f32")
OP1(float, "f", "f", f32_sin_approx, "sin.approx.f32")
OP1(float, "f", "f", f32_cos_approx, "cos.approx.f32")
OP1(float, "f", "f", f32_ex2_approx, "ex2.approx.f32")
OP1(float, "f", "f", f32_lg2_approx, "lg2.approx.f32")
OP2(float, "f", "f", f32_mul, "mul.f32")
/* flush-to-zero forms (nvcc -ftz=true, -use_fast_math): no denormal
 * scaling, so shorter */
OP2(float, "f", "f", f32_div_rn_ftz, "div.rn.ftz.f32")
OP2(float, "f", "f", f32_div_full_ftz, "div.full.ftz.f32")
OP2(float, "f", "f", f32_div_approx_ftz, "div.approx.ftz.f32")
OP1(float, "f", "f", f32_sqrt_rn_ftz, "sqrt.rn.ftz.f32")
OP1(float, "f", "f", f32_sqrt_approx_ftz, "sqrt.approx.ftz.f32")
OP1(float, "f", "f", f32_rcp_rn_ftz, "rcp.rn.ftz.f32")
OP1(float, "f", "f", f32_rcp_approx_ftz, "rcp.approx.ftz.f32")
OP1(float, "f", "f", f32_rsqrt_approx_ftz, "rsqrt.approx.ftz.f32")
OP1(float, "f", "f", f32_ex2_approx_ftz, "ex2.approx.ftz.f32")
OP1(float, "f", "f", f32_lg2_approx_ftz, "lg2.approx.ftz.f32")

/* double precision */
OP2(double, "d", "d", f64_div_rn, "div.rn.f64")
OP1(double, "d", "d", f64_sqrt_rn, "sqrt.rn.f64")
OP1(double, "d", "d", f64_rcp_rn, "rcp.rn.f64")
OP1(double, "d", "d", f64_rcp_approx, "rcp.approx.ftz.f64")
OP1(double, "d", "d", f64_rsqrt_approx, "rsqrt.approx.f64")
OP2(double, "d", "d", f64_mul, "mul.f64")

/* 64-bit multiply-add */
extern "C" __global__ void k_s64_mad_lo(long long *o, const long long *a)
{
    long long x = a[threadIdx.x], y = a[threadIdx.x + 32], r;
    asm volatile("mad.lo.s64 %0, %1, %2, %1;" : "=l"(r) : "l"(x), "l"(y));
    o[threadIdx.x] = r;
}

/* integer division and remainder */
OP2(int, "r", "r", s32_div, "div.s32")
OP2(unsigned, "r", "r", u32_div, "div.u32")
OP2(int, "r", "r", s32_rem, "rem.s32")
OP2(unsigned, "r", "r", u32_rem, "rem.u32")
OP2(long long, "l", "l", s64_div, "div.s64")
OP2(unsigned long long, "l", "l", u64_div, "div.u64")
OP2(long long, "l", "l", s64_rem, "rem.s64")
OP2(unsigned long long, "l", "l", u64_rem, "rem.u64")

/* multiplies */
OP2(int, "r", "r", s32_mul_lo, "mul.lo.s32")
OP2(unsigned, "r", "r", u32_mul_hi, "mul.hi.u32")
OPW(int, "r", s32_mul_wide, "mul.wide.s32")
OPW(unsigned, "r", u32_mul_wide, "mul.wide.u32")
OP2(long long, "l", "l", s64_mul_lo, "mul.lo.s64")
OP2(unsigned long long, "l", "l", u64_mul_hi, "mul.hi.u64")
