# ARGS: --diag-kinds inspect %s::scale --emit llvm-opt
"""`--emit llvm-opt`: the module after optimisation, as codegen sees it."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDOUT: ; ModuleID = 'llvm_opt.py'
# CHECK:STDOUT: source_filename = "llvm_opt.py"
# CHECK:STDOUT: target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
# CHECK:STDOUT: target triple = "nvptx64-nvidia-cuda"
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
# CHECK:STDOUT: define ptx_kernel void @scale__f32a1C_f32(ptr nocapture %x.0, i64 %x.1, i64 %x.2, float %a) local_unnamed_addr #0 {
# CHECK:STDOUT: entry:
# CHECK:STDOUT:   %x.015 = addrspacecast ptr %x.0 to ptr addrspace(1)
# CHECK:STDOUT:   %0 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !1
# CHECK:STDOUT:   %1 = zext nneg i32 %0 to i64
# CHECK:STDOUT:   %2 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !2
# CHECK:STDOUT:   %3 = zext nneg i32 %2 to i64
# CHECK:STDOUT:   %4 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !range !3
# CHECK:STDOUT:   %5 = zext nneg i32 %4 to i64
# CHECK:STDOUT:   %6 = mul nuw nsw i64 %3, %5
# CHECK:STDOUT:   %7 = add nuw nsw i64 %6, %1
# CHECK:STDOUT:   %8 = icmp slt i64 %7, %x.1
# CHECK:STDOUT:   %9 = getelementptr float, ptr addrspace(1) %x.015, i64 %7
# CHECK:STDOUT:   br i1 %8, label %if.then, label %if.end
# CHECK:STDOUT:
# CHECK:STDOUT: if.then:                                          ; preds = %entry
# CHECK:STDOUT:   %10 = load float, ptr addrspace(1) %9, align 4
# CHECK:STDOUT:   %11 = fmul contract float %10, %a
# CHECK:STDOUT:   store float %11, ptr addrspace(1) %9, align 4
# CHECK:STDOUT:   br label %if.end
# CHECK:STDOUT:
# CHECK:STDOUT: if.end:                                           ; preds = %if.then, %entry
# CHECK:STDOUT:   ret void
# CHECK:STDOUT: }
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
# CHECK:STDOUT: declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
# CHECK:STDOUT: declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
# CHECK:STDOUT: declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1
# CHECK:STDOUT:
# CHECK:STDOUT: attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "denormal-fp-math-f32"="ieee,ieee" "unsafe-fp-math"="false" }
# CHECK:STDOUT: attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
# CHECK:STDOUT:
# CHECK:STDOUT: !nvvm.annotations = !{!0}
# CHECK:STDOUT:
# CHECK:STDOUT: !0 = !{ptr @scale__f32a1C_f32, !"kernel", i32 1}
# CHECK:STDOUT: !1 = !{i32 0, i32 1024}
# CHECK:STDOUT: !2 = !{i32 0, i32 2147483647}
# CHECK:STDOUT: !3 = !{i32 1, i32 1025}
