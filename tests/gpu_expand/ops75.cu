// tests/gpu_expand/ops75.cu: kernels for PTX instructions that need
// sm_75 or later (tanh.approx), compiled by regen.sh only for ampere and
// hopper.  Same shapes as ops.cu.
#define OP1(T, C, R, name, insn)                                          \
    extern "C" __global__ void k_##name(T *o, const T *a)                 \
    {                                                                     \
        T x = a[threadIdx.x], r;                                          \
        asm volatile(insn " %0, %1;" : "=" R(r) : C(x));                  \
        o[threadIdx.x] = r;                                               \
    }

OP1(float, "f", "f", f32_base1, "abs.f32")
OP1(float, "f", "f", f32_tanh_approx, "tanh.approx.f32")
