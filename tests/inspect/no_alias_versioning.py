# ARGS: --diag-kinds inspect %s::saxpy --emit llvm-opt --no-alias-versioning
"""`--no-alias-versioning`: one body, no overlap check, no scope metadata; the loop is
not unrolled (its store may alias its loads)."""
from numba import cuda


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]
# CHECK:STDOUT: ; ModuleID = 'no_alias_versioning.py'
# CHECK:STDOUT: source_filename = "no_alias_versioning.py"
# CHECK:STDOUT: target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
# CHECK:STDOUT: target triple = "nvptx64-nvidia-cuda"
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite)
# CHECK:STDOUT: define ptx_kernel void @saxpy__f32_f32a1C_f32a1C_f32a1C(float %a, ptr nocapture readonly %x.0, i64 %x.1, i64 %x.2, ptr nocapture readonly %y.0, i64 %y.1, i64 %y.2, ptr nocapture writeonly %out.0, i64 %out.1, i64 %out.2) local_unnamed_addr #0 {
# CHECK:STDOUT: entry:
# CHECK:STDOUT:   %out.026 = addrspacecast ptr %out.0 to ptr addrspace(1)
# CHECK:STDOUT:   %y.024 = addrspacecast ptr %y.0 to ptr addrspace(1)
# CHECK:STDOUT:   %x.022 = addrspacecast ptr %x.0 to ptr addrspace(1)
# CHECK:STDOUT:   %0 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !1
# CHECK:STDOUT:   %1 = zext nneg i32 %0 to i64
# CHECK:STDOUT:   %2 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !2
# CHECK:STDOUT:   %3 = zext nneg i32 %2 to i64
# CHECK:STDOUT:   %4 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !range !3
# CHECK:STDOUT:   %5 = zext nneg i32 %4 to i64
# CHECK:STDOUT:   %6 = mul i64 %3, %5
# CHECK:STDOUT:   %7 = add i64 %6, %1
# CHECK:STDOUT:   %8 = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x(), !range !4
# CHECK:STDOUT:   %9 = zext i32 %8 to i64
# CHECK:STDOUT:   %10 = mul i64 %5, %9
# CHECK:STDOUT:   %11 = icmp slt i64 %7, %x.1
# CHECK:STDOUT:   br i1 %11, label %for.body.preheader, label %for.end
# CHECK:STDOUT:
# CHECK:STDOUT: for.body.preheader:                               ; preds = %entry
# CHECK:STDOUT:   %12 = shl nuw nsw i64 %7, 2
# CHECK:STDOUT:   %13 = shl i64 %10, 2
# CHECK:STDOUT:   br label %for.body
# CHECK:STDOUT:
# CHECK:STDOUT: for.body:                                         ; preds = %for.body.preheader, %for.body
# CHECK:STDOUT:   %lsr.iv30 = phi i64 [ %7, %for.body.preheader ], [ %lsr.iv.next31, %for.body ]
# CHECK:STDOUT:   %lsr.iv = phi i64 [ %12, %for.body.preheader ], [ %lsr.iv.next, %for.body ]
# CHECK:STDOUT:   %scevgep = getelementptr i8, ptr addrspace(1) %x.022, i64 %lsr.iv
# CHECK:STDOUT:   %14 = load float, ptr addrspace(1) %scevgep, align 4
# CHECK:STDOUT:   %scevgep28 = getelementptr i8, ptr addrspace(1) %y.024, i64 %lsr.iv
# CHECK:STDOUT:   %15 = load float, ptr addrspace(1) %scevgep28, align 4
# CHECK:STDOUT:   %16 = fmul contract float %14, %a
# CHECK:STDOUT:   %17 = fadd contract float %16, %15
# CHECK:STDOUT:   %scevgep29 = getelementptr i8, ptr addrspace(1) %out.026, i64 %lsr.iv
# CHECK:STDOUT:   store float %17, ptr addrspace(1) %scevgep29, align 4
# CHECK:STDOUT:   %lsr.iv.next = add i64 %lsr.iv, %13
# CHECK:STDOUT:   %lsr.iv.next31 = add i64 %lsr.iv30, %10
# CHECK:STDOUT:   %18 = icmp slt i64 %lsr.iv.next31, %x.1
# CHECK:STDOUT:   br i1 %18, label %for.body, label %for.end
# CHECK:STDOUT:
# CHECK:STDOUT: for.end:                                          ; preds = %for.body, %entry
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
# CHECK:STDOUT: ; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
# CHECK:STDOUT: declare noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #1
# CHECK:STDOUT:
# CHECK:STDOUT: attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) "denormal-fp-math-f32"="ieee,ieee" "unsafe-fp-math"="false" }
# CHECK:STDOUT: attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
# CHECK:STDOUT:
# CHECK:STDOUT: !nvvm.annotations = !{!0}
# CHECK:STDOUT:
# CHECK:STDOUT: !0 = !{ptr @saxpy__f32_f32a1C_f32a1C_f32a1C, !"kernel", i32 1}
# CHECK:STDOUT: !1 = !{i32 0, i32 1024}
# CHECK:STDOUT: !2 = !{i32 0, i32 2147483647}
# CHECK:STDOUT: !3 = !{i32 1, i32 1025}
# CHECK:STDOUT: !4 = !{i32 1, i32 -2147483648}
