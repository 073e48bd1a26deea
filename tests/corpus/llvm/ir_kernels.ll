; Hand-written LLVM IR compiled with llc -march=nvptx64: kernels marked via
; !nvvm.annotations (with maxntid), address spaces, NVVM intrinsics, i128
; arithmetic, a select-heavy loop and a switch.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = internal addrspace(1) global [4 x i32] [i32 3, i32 5, i32 7, i32 11], align 4
@smem = internal addrspace(3) global [64 x float] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare float @llvm.fma.f32(float, float, float)

define internal i32 @global_index() {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %cta, %ntid
  %r = add i32 %m, %tid
  ret i32 %r
}

; out[i] = in[i] * table[i & 3] + popc(in[i]) + clz(in[i])
define void @int_kernel(i32 addrspace(1)* %in, i32 addrspace(1)* %out, i32 %n) {
entry:
  %i = call i32 @global_index()
  %inb = icmp slt i32 %i, %n
  br i1 %inb, label %body, label %exit

body:
  %idx = sext i32 %i to i64
  %pin = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %idx
  %v = load i32, i32 addrspace(1)* %pin, align 4
  %k = and i32 %i, 3
  %k64 = zext i32 %k to i64
  %pt = getelementptr inbounds [4 x i32], [4 x i32] addrspace(1)* @table, i64 0, i64 %k64
  %t = load i32, i32 addrspace(1)* %pt, align 4
  %mul = mul i32 %v, %t
  %pc = call i32 @llvm.ctpop.i32(i32 %v)
  %lz = call i32 @llvm.ctlz.i32(i32 %v, i1 false)
  %s1 = add i32 %mul, %pc
  %s2 = add i32 %s1, %lz
  %pout = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %idx
  store i32 %s2, i32 addrspace(1)* %pout, align 4
  br label %exit

exit:
  ret void
}

; 128-bit multiply-accumulate over pairs of u64
define void @i128_kernel(i64 addrspace(1)* %a, i64 addrspace(1)* %b, i64 addrspace(1)* %out) {
entry:
  %i = call i32 @global_index()
  %idx = zext i32 %i to i64
  %pa = getelementptr inbounds i64, i64 addrspace(1)* %a, i64 %idx
  %pb = getelementptr inbounds i64, i64 addrspace(1)* %b, i64 %idx
  %x = load i64, i64 addrspace(1)* %pa, align 8
  %y = load i64, i64 addrspace(1)* %pb, align 8
  %xw = zext i64 %x to i128
  %yw = zext i64 %y to i128
  %p = mul i128 %xw, %yw
  %q = add i128 %p, %xw
  %lo = trunc i128 %q to i64
  %hi128 = lshr i128 %q, 64
  %hi = trunc i128 %hi128 to i64
  %o2 = shl i64 %idx, 1
  %plo = getelementptr inbounds i64, i64 addrspace(1)* %out, i64 %o2
  store i64 %lo, i64 addrspace(1)* %plo, align 8
  %o3 = add i64 %o2, 1
  %phi = getelementptr inbounds i64, i64 addrspace(1)* %out, i64 %o3
  store i64 %hi, i64 addrspace(1)* %phi, align 8
  ret void
}

; shared-memory staging with a barrier, a counted loop and a switch
define void @float_kernel(float addrspace(1)* %in, float addrspace(1)* %out, i32 %mode) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = call i32 @global_index()
  %idx = zext i32 %i to i64
  %pin = getelementptr inbounds float, float addrspace(1)* %in, i64 %idx
  %v = load float, float addrspace(1)* %pin, align 4
  %t64 = zext i32 %tid to i64
  %ps = getelementptr inbounds [64 x float], [64 x float] addrspace(3)* @smem, i64 0, i64 %t64
  store float %v, float addrspace(3)* %ps, align 4
  call void @llvm.nvvm.barrier0()
  %t1 = add i32 %tid, 1
  %t1m = and i32 %t1, 63
  %t164 = zext i32 %t1m to i64
  %pn = getelementptr inbounds [64 x float], [64 x float] addrspace(3)* @smem, i64 0, i64 %t164
  %w = load float, float addrspace(3)* %pn, align 4
  br label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi float [ %v, %entry ], [ %acc1, %loop ]
  %acc1 = call float @llvm.fma.f32(float %acc, float 5.000000e-01, float %w)
  %k1 = add nuw nsw i32 %k, 1
  %done = icmp eq i32 %k1, 8
  br i1 %done, label %sw, label %loop

sw:
  switch i32 %mode, label %def [
    i32 0, label %m0
    i32 1, label %m1
  ]

m0:
  %r0 = fneg float %acc1
  br label %store

m1:
  %r1 = fmul float %acc1, %acc1
  br label %store

def:
  br label %store

store:
  %r = phi float [ %r0, %m0 ], [ %r1, %m1 ], [ %acc1, %def ]
  %pout = getelementptr inbounds float, float addrspace(1)* %out, i64 %idx
  store float %r, float addrspace(1)* %pout, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32)* @int_kernel, !"kernel", i32 1}
!1 = !{void (i64 addrspace(1)*, i64 addrspace(1)*, i64 addrspace(1)*)* @i128_kernel, !"kernel", i32 1}
!2 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @float_kernel, !"kernel", i32 1}
!3 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @float_kernel, !"maxntidx", i32 64}
