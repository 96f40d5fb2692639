# ARGS: --diag-kinds inspect %s::scale --emit llvm
"""`--emit llvm`: the lowered module of one kernel, before optimisation."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDOUT: ; ModuleID = 'llvm.py'
# CHECK:STDOUT: source_filename = "llvm.py"
# CHECK:STDOUT: target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
# CHECK:STDOUT: target triple = "nvptx64-nvidia-cuda"
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: nounwind
# CHECK:STDOUT: define ptx_kernel void @scale__f32a1C_f32(ptr %x.0, i64 %x.1, i64 %x.2, float %a) #0 !pykc.arrays !1 {
# CHECK:STDOUT: entry:
# CHECK:STDOUT:   %a1 = alloca float, align 4
# CHECK:STDOUT:   %i = alloca i64, align 8
# CHECK:STDOUT:   %x = alloca { ptr, [1 x i64], [1 x i64] }, align 8
# CHECK:STDOUT:   %0 = insertvalue { ptr, [1 x i64], [1 x i64] } poison, ptr %x.0, 0
# CHECK:STDOUT:   %1 = insertvalue { ptr, [1 x i64], [1 x i64] } %0, i64 %x.1, 1, 0
# CHECK:STDOUT:   %2 = insertvalue { ptr, [1 x i64], [1 x i64] } %1, i64 %x.2, 2, 0
# CHECK:STDOUT:   store { ptr, [1 x i64], [1 x i64] } %2, ptr %x, align 8
# CHECK:STDOUT:   store float %a, ptr %a1, align 4
# CHECK:STDOUT:   %3 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !3
# CHECK:STDOUT:   %4 = zext i32 %3 to i64
# CHECK:STDOUT:   %5 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !4
# CHECK:STDOUT:   %6 = zext i32 %5 to i64
# CHECK:STDOUT:   %7 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !range !5
# CHECK:STDOUT:   %8 = zext i32 %7 to i64
# CHECK:STDOUT:   %9 = mul nuw nsw i64 %6, %8
# CHECK:STDOUT:   %10 = add nuw nsw i64 %9, %4
# CHECK:STDOUT:   store i64 %10, ptr %i, align 8
# CHECK:STDOUT:   %i2 = load i64, ptr %i, align 8
# CHECK:STDOUT:   %x3 = load { ptr, [1 x i64], [1 x i64] }, ptr %x, align 8
# CHECK:STDOUT:   %11 = extractvalue { ptr, [1 x i64], [1 x i64] } %x3, 0
# CHECK:STDOUT:   %12 = extractvalue { ptr, [1 x i64], [1 x i64] } %x3, 1, 0
# CHECK:STDOUT:   %13 = extractvalue { ptr, [1 x i64], [1 x i64] } %x3, 2, 0
# CHECK:STDOUT:   %14 = mul i64 1, %12
# CHECK:STDOUT:   %15 = icmp slt i64 %i2, %14
# CHECK:STDOUT:   br i1 %15, label %if.then, label %if.end
# CHECK:STDOUT:
# CHECK:STDOUT: if.then:                                          ; preds = %entry
# CHECK:STDOUT:   %x4 = load { ptr, [1 x i64], [1 x i64] }, ptr %x, align 8
# CHECK:STDOUT:   %i5 = load i64, ptr %i, align 8
# CHECK:STDOUT:   %16 = extractvalue { ptr, [1 x i64], [1 x i64] } %x4, 0
# CHECK:STDOUT:   %17 = extractvalue { ptr, [1 x i64], [1 x i64] } %x4, 1, 0
# CHECK:STDOUT:   %18 = extractvalue { ptr, [1 x i64], [1 x i64] } %x4, 2, 0
# CHECK:STDOUT:   %19 = icmp slt i64 %i5, 0
# CHECK:STDOUT:   %20 = add i64 %i5, %17
# CHECK:STDOUT:   %21 = select i1 %19, i64 %20, i64 %i5
# CHECK:STDOUT:   %22 = getelementptr float, ptr %16, i64 %21
# CHECK:STDOUT:   %23 = load float, ptr %22, align 4
# CHECK:STDOUT:   %a6 = load float, ptr %a1, align 4
# CHECK:STDOUT:   %24 = fmul contract float %23, %a6
# CHECK:STDOUT:   %x7 = load { ptr, [1 x i64], [1 x i64] }, ptr %x, align 8
# CHECK:STDOUT:   %i8 = load i64, ptr %i, align 8
# CHECK:STDOUT:   %25 = extractvalue { ptr, [1 x i64], [1 x i64] } %x7, 0
# CHECK:STDOUT:   %26 = extractvalue { ptr, [1 x i64], [1 x i64] } %x7, 1, 0
# CHECK:STDOUT:   %27 = extractvalue { ptr, [1 x i64], [1 x i64] } %x7, 2, 0
# CHECK:STDOUT:   %28 = icmp slt i64 %i8, 0
# CHECK:STDOUT:   %29 = add i64 %i8, %26
# CHECK:STDOUT:   %30 = select i1 %28, i64 %29, i64 %i8
# CHECK:STDOUT:   %31 = getelementptr float, ptr %25, i64 %30
# CHECK:STDOUT:   store float %24, ptr %31, align 4
# CHECK:STDOUT:   br label %if.end
# CHECK:STDOUT:
# CHECK:STDOUT: if.end:                                           ; preds = %if.then, %entry
# CHECK:STDOUT:   ret void
# CHECK:STDOUT: }
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
# CHECK:STDOUT: declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
# CHECK:STDOUT: declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
# CHECK:STDOUT: declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1
# CHECK:STDOUT:
# CHECK:STDOUT: attributes #0 = { nounwind }
# CHECK:STDOUT: attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
# CHECK:STDOUT:
# CHECK:STDOUT: !nvvm.annotations = !{!0}
# CHECK:STDOUT:
# CHECK:STDOUT: !0 = !{ptr @scale__f32a1C_f32, !"kernel", i32 1}
# CHECK:STDOUT: !1 = !{!2}
# CHECK:STDOUT: !2 = !{i32 0, i32 1, i64 4, i32 1}
# CHECK:STDOUT: !3 = !{i32 0, i32 1024}
# CHECK:STDOUT: !4 = !{i32 0, i32 2147483647}
# CHECK:STDOUT: !5 = !{i32 1, i32 1025}
