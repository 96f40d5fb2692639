# ARGS: --diag-kinds inspect %s::saxpy --emit llvm-opt
"""Alias versioning (docs/compile.md): the entry checks that `out`'s byte range is apart
from `x`'s and `y`'s (x and y are only read, so that pair is not checked; an empty array
reaches nothing), then branches to the no-alias body (`.noalias` blocks, each access with
its array's `!alias.scope` and the other arrays' `!noalias`), whose loop is unrolled by 4
with its loads first, or to the original body."""
from numba import cuda


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]
# CHECK:STDOUT: ; ModuleID = 'alias_versioning.py'
# CHECK:STDOUT: source_filename = "alias_versioning.py"
# CHECK:STDOUT: target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
# CHECK:STDOUT: target triple = "nvptx64-nvidia-cuda"
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite)
# CHECK:STDOUT: define ptx_kernel void @saxpy__f32_f32a1C_f32a1C_f32a1C(float %a, ptr nocapture readonly %x.0, i64 %x.1, i64 %x.2, ptr nocapture readonly %y.0, i64 %y.1, i64 %y.2, ptr nocapture writeonly %out.0, i64 %out.1, i64 %out.2) local_unnamed_addr #0 {
# CHECK:STDOUT: entry:
# CHECK:STDOUT:   %out.027 = addrspacecast ptr %out.0 to ptr addrspace(1)
# CHECK:STDOUT:   %y.025 = addrspacecast ptr %y.0 to ptr addrspace(1)
# CHECK:STDOUT:   %x.023 = addrspacecast ptr %x.0 to ptr addrspace(1)
# CHECK:STDOUT:   %0 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !1
# CHECK:STDOUT:   %1 = zext i32 %0 to i64
# CHECK:STDOUT:   %2 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !2
# CHECK:STDOUT:   %3 = zext i32 %2 to i64
# CHECK:STDOUT:   %4 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !range !3
# CHECK:STDOUT:   %5 = zext i32 %4 to i64
# CHECK:STDOUT:   %6 = mul i64 %3, %5
# CHECK:STDOUT:   %7 = add i64 %6, %1
# CHECK:STDOUT:   %8 = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x(), !range !4
# CHECK:STDOUT:   %9 = zext i32 %8 to i64
# CHECK:STDOUT:   %10 = mul i64 %5, %9
# CHECK:STDOUT:   %11 = icmp slt i64 %x.1, 1
# CHECK:STDOUT:   %12 = ptrtoint ptr %x.0 to i64
# CHECK:STDOUT:   %13 = shl i64 %x.1, 2
# CHECK:STDOUT:   %14 = add i64 %13, %12
# CHECK:STDOUT:   %15 = icmp slt i64 %y.1, 1
# CHECK:STDOUT:   %16 = ptrtoint ptr %y.0 to i64
# CHECK:STDOUT:   %17 = shl i64 %y.1, 2
# CHECK:STDOUT:   %18 = add i64 %17, %16
# CHECK:STDOUT:   %19 = icmp slt i64 %out.1, 1
# CHECK:STDOUT:   %20 = ptrtoint ptr %out.0 to i64
# CHECK:STDOUT:   %21 = shl i64 %out.1, 2
# CHECK:STDOUT:   %22 = add i64 %21, %20
# CHECK:STDOUT:   %23 = icmp ule i64 %14, %20
# CHECK:STDOUT:   %24 = icmp ule i64 %22, %12
# CHECK:STDOUT:   %25 = or i1 %11, %23
# CHECK:STDOUT:   %26 = or i1 %25, %24
# CHECK:STDOUT:   %27 = icmp ule i64 %18, %20
# CHECK:STDOUT:   %28 = icmp ule i64 %22, %16
# CHECK:STDOUT:   %29 = or i1 %15, %27
# CHECK:STDOUT:   %30 = or i1 %29, %28
# CHECK:STDOUT:   %31 = and i1 %26, %30
# CHECK:STDOUT:   %32 = or i1 %31, %19
# CHECK:STDOUT:   br i1 %32, label %alias.original.noalias, label %alias.original
# CHECK:STDOUT:
# CHECK:STDOUT: alias.original:                                   ; preds = %entry
# CHECK:STDOUT:   %33 = icmp slt i64 %7, %x.1
# CHECK:STDOUT:   br i1 %33, label %for.body.preheader, label %common.ret
# CHECK:STDOUT:
# CHECK:STDOUT: for.body.preheader:                               ; preds = %alias.original
# CHECK:STDOUT:   %34 = shl nuw nsw i64 %7, 2
# CHECK:STDOUT:   %35 = shl i64 %10, 2
# CHECK:STDOUT:   br label %for.body
# CHECK:STDOUT:
# CHECK:STDOUT: for.body:                                         ; preds = %for.body.preheader, %for.body
# CHECK:STDOUT:   %lsr.iv80 = phi i64 [ %34, %for.body.preheader ], [ %lsr.iv.next81, %for.body ]
# CHECK:STDOUT:   %.021 = phi i64 [ %40, %for.body ], [ %7, %for.body.preheader ]
# CHECK:STDOUT:   %scevgep82 = getelementptr i8, ptr addrspace(1) %x.023, i64 %lsr.iv80
# CHECK:STDOUT:   %36 = load float, ptr addrspace(1) %scevgep82, align 4
# CHECK:STDOUT:   %scevgep83 = getelementptr i8, ptr addrspace(1) %y.025, i64 %lsr.iv80
# CHECK:STDOUT:   %37 = load float, ptr addrspace(1) %scevgep83, align 4
# CHECK:STDOUT:   %38 = fmul contract float %36, %a
# CHECK:STDOUT:   %39 = fadd contract float %38, %37
# CHECK:STDOUT:   %scevgep84 = getelementptr i8, ptr addrspace(1) %out.027, i64 %lsr.iv80
# CHECK:STDOUT:   store float %39, ptr addrspace(1) %scevgep84, align 4
# CHECK:STDOUT:   %40 = add nuw nsw i64 %.021, %10
# CHECK:STDOUT:   %lsr.iv.next81 = add i64 %lsr.iv80, %35
# CHECK:STDOUT:   %41 = icmp slt i64 %40, %x.1
# CHECK:STDOUT:   br i1 %41, label %for.body, label %common.ret
# CHECK:STDOUT:
# CHECK:STDOUT: common.ret:                                       ; preds = %for.body, %for.body.noalias, %for.body.noalias.prol.loopexit, %alias.original.noalias, %alias.original
# CHECK:STDOUT:   ret void
# CHECK:STDOUT:
# CHECK:STDOUT: alias.original.noalias:                           ; preds = %entry
# CHECK:STDOUT:   %42 = icmp slt i64 %7, %x.1
# CHECK:STDOUT:   br i1 %42, label %for.body.noalias.preheader, label %common.ret
# CHECK:STDOUT:
# CHECK:STDOUT: for.body.noalias.preheader:                       ; preds = %alias.original.noalias
# CHECK:STDOUT:   %43 = add nuw nsw i64 %3, %9
# CHECK:STDOUT:   %44 = mul nuw nsw i64 %43, %5
# CHECK:STDOUT:   %45 = add nuw nsw i64 %44, %1
# CHECK:STDOUT:   %smax = tail call i64 @llvm.smax.i64(i64 %x.1, i64 %45)
# CHECK:STDOUT:   %46 = icmp slt i64 %45, %x.1
# CHECK:STDOUT:   %umin = zext i1 %46 to i64
# CHECK:STDOUT:   %47 = add nuw nsw i64 %45, %umin
# CHECK:STDOUT:   %48 = sub nsw i64 %smax, %47
# CHECK:STDOUT:   %49 = or i64 %48, %10
# CHECK:STDOUT:   %50 = and i64 %49, -4294967296
# CHECK:STDOUT:   %51 = icmp eq i64 %50, 0
# CHECK:STDOUT:   br i1 %51, label %52, label %57
# CHECK:STDOUT:
# CHECK:STDOUT: 52:                                               ; preds = %for.body.noalias.preheader
# CHECK:STDOUT:   %53 = trunc i64 %10 to i32
# CHECK:STDOUT:   %54 = trunc i64 %48 to i32
# CHECK:STDOUT:   %55 = udiv i32 %54, %53
# CHECK:STDOUT:   %56 = zext i32 %55 to i64
# CHECK:STDOUT:   br label %59
# CHECK:STDOUT:
# CHECK:STDOUT: 57:                                               ; preds = %for.body.noalias.preheader
# CHECK:STDOUT:   %58 = udiv i64 %48, %10
# CHECK:STDOUT:   br label %59
# CHECK:STDOUT:
# CHECK:STDOUT: 59:                                               ; preds = %57, %52
# CHECK:STDOUT:   %60 = phi i64 [ %56, %52 ], [ %58, %57 ]
# CHECK:STDOUT:   %61 = add i64 %60, %umin
# CHECK:STDOUT:   %62 = add i64 %61, 1
# CHECK:STDOUT:   %xtraiter = and i64 %62, 3
# CHECK:STDOUT:   %lcmp.mod.not = icmp eq i64 %xtraiter, 0
# CHECK:STDOUT:   br i1 %lcmp.mod.not, label %for.body.noalias.prol.loopexit, label %for.body.noalias.prol.preheader
# CHECK:STDOUT:
# CHECK:STDOUT: for.body.noalias.prol.preheader:                  ; preds = %59
# CHECK:STDOUT:   %63 = shl nuw nsw i64 %7, 2
# CHECK:STDOUT:   %64 = shl i64 %10, 2
# CHECK:STDOUT:   %65 = sub i64 0, %xtraiter
# CHECK:STDOUT:   br label %for.body.noalias.prol
# CHECK:STDOUT:
# CHECK:STDOUT: for.body.noalias.prol:                            ; preds = %for.body.noalias.prol.preheader, %for.body.noalias.prol
# CHECK:STDOUT:   %lsr.iv78 = phi i64 [ %65, %for.body.noalias.prol.preheader ], [ %math, %for.body.noalias.prol ]
# CHECK:STDOUT:   %lsr.iv74 = phi i64 [ %63, %for.body.noalias.prol.preheader ], [ %lsr.iv.next, %for.body.noalias.prol ]
# CHECK:STDOUT:   %.021.noalias.prol = phi i64 [ %70, %for.body.noalias.prol ], [ %7, %for.body.noalias.prol.preheader ]
# CHECK:STDOUT:   %scevgep75 = getelementptr i8, ptr addrspace(1) %x.023, i64 %lsr.iv74
# CHECK:STDOUT:   %66 = load float, ptr addrspace(1) %scevgep75, align 4, !alias.scope !5, !noalias !8
# CHECK:STDOUT:   %scevgep76 = getelementptr i8, ptr addrspace(1) %y.025, i64 %lsr.iv74
# CHECK:STDOUT:   %67 = load float, ptr addrspace(1) %scevgep76, align 4, !alias.scope !11, !noalias !12
# CHECK:STDOUT:   %68 = fmul contract float %66, %a
# CHECK:STDOUT:   %69 = fadd contract float %68, %67
# CHECK:STDOUT:   %scevgep77 = getelementptr i8, ptr addrspace(1) %out.027, i64 %lsr.iv74
# CHECK:STDOUT:   store float %69, ptr addrspace(1) %scevgep77, align 4, !alias.scope !13, !noalias !14
# CHECK:STDOUT:   %70 = add i64 %.021.noalias.prol, %10
# CHECK:STDOUT:   %lsr.iv.next = add nuw nsw i64 %lsr.iv74, %64
# CHECK:STDOUT:   %71 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %lsr.iv78, i64 1)
# CHECK:STDOUT:   %math = extractvalue { i64, i1 } %71, 0
# CHECK:STDOUT:   %ov = extractvalue { i64, i1 } %71, 1
# CHECK:STDOUT:   br i1 %ov, label %for.body.noalias.prol.loopexit, label %for.body.noalias.prol, !llvm.loop !15
# CHECK:STDOUT:
# CHECK:STDOUT: for.body.noalias.prol.loopexit:                   ; preds = %for.body.noalias.prol, %59
# CHECK:STDOUT:   %.021.noalias.unr = phi i64 [ %7, %59 ], [ %70, %for.body.noalias.prol ]
# CHECK:STDOUT:   %72 = icmp ult i64 %61, 3
# CHECK:STDOUT:   br i1 %72, label %common.ret, label %for.body.noalias.preheader29
# CHECK:STDOUT:
# CHECK:STDOUT: for.body.noalias.preheader29:                     ; preds = %for.body.noalias.prol.loopexit
# CHECK:STDOUT:   %73 = shl nuw nsw i64 %.021.noalias.unr, 2
# CHECK:STDOUT:   %74 = mul i64 %10, 12
# CHECK:STDOUT:   %scevgep = getelementptr i8, ptr addrspace(1) %x.023, i64 %74
# CHECK:STDOUT:   %75 = shl i64 %10, 4
# CHECK:STDOUT:   %76 = shl i64 %10, 3
# CHECK:STDOUT:   %scevgep33 = getelementptr i8, ptr addrspace(1) %x.023, i64 %76
# CHECK:STDOUT:   %77 = shl i64 %10, 2
# CHECK:STDOUT:   %scevgep37 = getelementptr i8, ptr addrspace(1) %x.023, i64 %77
# CHECK:STDOUT:   %scevgep44 = getelementptr i8, ptr addrspace(1) %y.025, i64 %74
# CHECK:STDOUT:   %scevgep48 = getelementptr i8, ptr addrspace(1) %y.025, i64 %76
# CHECK:STDOUT:   %scevgep52 = getelementptr i8, ptr addrspace(1) %y.025, i64 %77
# CHECK:STDOUT:   %scevgep59 = getelementptr i8, ptr addrspace(1) %out.027, i64 %74
# CHECK:STDOUT:   %scevgep63 = getelementptr i8, ptr addrspace(1) %out.027, i64 %76
# CHECK:STDOUT:   %scevgep67 = getelementptr i8, ptr addrspace(1) %out.027, i64 %77
# CHECK:STDOUT:   br label %for.body.noalias
# CHECK:STDOUT:
# CHECK:STDOUT: for.body.noalias:                                 ; preds = %for.body.noalias.preheader29, %for.body.noalias
# CHECK:STDOUT:   %lsr.iv71 = phi ptr addrspace(1) [ %out.027, %for.body.noalias.preheader29 ], [ %scevgep72, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv68 = phi ptr addrspace(1) [ %scevgep67, %for.body.noalias.preheader29 ], [ %scevgep69, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv64 = phi ptr addrspace(1) [ %scevgep63, %for.body.noalias.preheader29 ], [ %scevgep65, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv60 = phi ptr addrspace(1) [ %scevgep59, %for.body.noalias.preheader29 ], [ %scevgep61, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv56 = phi ptr addrspace(1) [ %y.025, %for.body.noalias.preheader29 ], [ %scevgep57, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv53 = phi ptr addrspace(1) [ %scevgep52, %for.body.noalias.preheader29 ], [ %scevgep54, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv49 = phi ptr addrspace(1) [ %scevgep48, %for.body.noalias.preheader29 ], [ %scevgep50, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv45 = phi ptr addrspace(1) [ %scevgep44, %for.body.noalias.preheader29 ], [ %scevgep46, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv41 = phi ptr addrspace(1) [ %x.023, %for.body.noalias.preheader29 ], [ %scevgep42, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv38 = phi ptr addrspace(1) [ %scevgep37, %for.body.noalias.preheader29 ], [ %scevgep39, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv34 = phi ptr addrspace(1) [ %scevgep33, %for.body.noalias.preheader29 ], [ %scevgep35, %for.body.noalias ]
# CHECK:STDOUT:   %lsr.iv = phi ptr addrspace(1) [ %scevgep, %for.body.noalias.preheader29 ], [ %scevgep31, %for.body.noalias ]
# CHECK:STDOUT:   %.021.noalias = phi i64 [ %97, %for.body.noalias ], [ %.021.noalias.unr, %for.body.noalias.preheader29 ]
# CHECK:STDOUT:   %scevgep43 = getelementptr i8, ptr addrspace(1) %lsr.iv41, i64 %73
# CHECK:STDOUT:   %78 = load float, ptr addrspace(1) %scevgep43, align 4, !alias.scope !5, !noalias !8
# CHECK:STDOUT:   %scevgep58 = getelementptr i8, ptr addrspace(1) %lsr.iv56, i64 %73
# CHECK:STDOUT:   %79 = load float, ptr addrspace(1) %scevgep58, align 4, !alias.scope !11, !noalias !12
# CHECK:STDOUT:   %80 = add nuw nsw i64 %.021.noalias, %10
# CHECK:STDOUT:   %scevgep40 = getelementptr i8, ptr addrspace(1) %lsr.iv38, i64 %73
# CHECK:STDOUT:   %81 = load float, ptr addrspace(1) %scevgep40, align 4, !alias.scope !5, !noalias !8
# CHECK:STDOUT:   %scevgep55 = getelementptr i8, ptr addrspace(1) %lsr.iv53, i64 %73
# CHECK:STDOUT:   %82 = load float, ptr addrspace(1) %scevgep55, align 4, !alias.scope !11, !noalias !12
# CHECK:STDOUT:   %83 = add nuw nsw i64 %80, %10
# CHECK:STDOUT:   %scevgep36 = getelementptr i8, ptr addrspace(1) %lsr.iv34, i64 %73
# CHECK:STDOUT:   %84 = load float, ptr addrspace(1) %scevgep36, align 4, !alias.scope !5, !noalias !8
# CHECK:STDOUT:   %scevgep51 = getelementptr i8, ptr addrspace(1) %lsr.iv49, i64 %73
# CHECK:STDOUT:   %85 = load float, ptr addrspace(1) %scevgep51, align 4, !alias.scope !11, !noalias !12
# CHECK:STDOUT:   %86 = add nuw nsw i64 %83, %10
# CHECK:STDOUT:   %scevgep32 = getelementptr i8, ptr addrspace(1) %lsr.iv, i64 %73
# CHECK:STDOUT:   %87 = load float, ptr addrspace(1) %scevgep32, align 4, !alias.scope !5, !noalias !8
# CHECK:STDOUT:   %scevgep47 = getelementptr i8, ptr addrspace(1) %lsr.iv45, i64 %73
# CHECK:STDOUT:   %88 = load float, ptr addrspace(1) %scevgep47, align 4, !alias.scope !11, !noalias !12
# CHECK:STDOUT:   %89 = fmul contract float %78, %a
# CHECK:STDOUT:   %90 = fadd contract float %89, %79
# CHECK:STDOUT:   %scevgep73 = getelementptr i8, ptr addrspace(1) %lsr.iv71, i64 %73
# CHECK:STDOUT:   store float %90, ptr addrspace(1) %scevgep73, align 4, !alias.scope !13, !noalias !14
# CHECK:STDOUT:   %91 = fmul contract float %81, %a
# CHECK:STDOUT:   %92 = fadd contract float %91, %82
# CHECK:STDOUT:   %scevgep70 = getelementptr i8, ptr addrspace(1) %lsr.iv68, i64 %73
# CHECK:STDOUT:   store float %92, ptr addrspace(1) %scevgep70, align 4, !alias.scope !13, !noalias !14
# CHECK:STDOUT:   %93 = fmul contract float %84, %a
# CHECK:STDOUT:   %94 = fadd contract float %93, %85
# CHECK:STDOUT:   %scevgep66 = getelementptr i8, ptr addrspace(1) %lsr.iv64, i64 %73
# CHECK:STDOUT:   store float %94, ptr addrspace(1) %scevgep66, align 4, !alias.scope !13, !noalias !14
# CHECK:STDOUT:   %95 = fmul contract float %87, %a
# CHECK:STDOUT:   %96 = fadd contract float %95, %88
# CHECK:STDOUT:   %scevgep62 = getelementptr i8, ptr addrspace(1) %lsr.iv60, i64 %73
# CHECK:STDOUT:   store float %96, ptr addrspace(1) %scevgep62, align 4, !alias.scope !13, !noalias !14
# CHECK:STDOUT:   %97 = add i64 %86, %10
# CHECK:STDOUT:   %scevgep31 = getelementptr i8, ptr addrspace(1) %lsr.iv, i64 %75
# CHECK:STDOUT:   %scevgep35 = getelementptr i8, ptr addrspace(1) %lsr.iv34, i64 %75
# CHECK:STDOUT:   %scevgep39 = getelementptr i8, ptr addrspace(1) %lsr.iv38, i64 %75
# CHECK:STDOUT:   %scevgep42 = getelementptr i8, ptr addrspace(1) %lsr.iv41, i64 %75
# CHECK:STDOUT:   %scevgep46 = getelementptr i8, ptr addrspace(1) %lsr.iv45, i64 %75
# CHECK:STDOUT:   %scevgep50 = getelementptr i8, ptr addrspace(1) %lsr.iv49, i64 %75
# CHECK:STDOUT:   %scevgep54 = getelementptr i8, ptr addrspace(1) %lsr.iv53, i64 %75
# CHECK:STDOUT:   %scevgep57 = getelementptr i8, ptr addrspace(1) %lsr.iv56, i64 %75
# CHECK:STDOUT:   %scevgep61 = getelementptr i8, ptr addrspace(1) %lsr.iv60, i64 %75
# CHECK:STDOUT:   %scevgep65 = getelementptr i8, ptr addrspace(1) %lsr.iv64, i64 %75
# CHECK:STDOUT:   %scevgep69 = getelementptr i8, ptr addrspace(1) %lsr.iv68, i64 %75
# CHECK:STDOUT:   %scevgep72 = getelementptr i8, ptr addrspace(1) %lsr.iv71, i64 %75
# CHECK:STDOUT:   %98 = icmp slt i64 %97, %x.1
# CHECK:STDOUT:   br i1 %98, label %for.body.noalias, label %common.ret, !llvm.loop !17
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
# CHECK:STDOUT: ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
# CHECK:STDOUT: declare i64 @llvm.smax.i64(i64, i64) #2
# CHECK:STDOUT:
# CHECK:STDOUT: ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
# CHECK:STDOUT: declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64) #2
# CHECK:STDOUT:
# CHECK:STDOUT: attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) "denormal-fp-math-f32"="ieee,ieee" "unsafe-fp-math"="false" }
# CHECK:STDOUT: attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
# CHECK:STDOUT: attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
# CHECK:STDOUT:
# CHECK:STDOUT: !nvvm.annotations = !{!0}
# CHECK:STDOUT:
# CHECK:STDOUT: !0 = !{ptr @saxpy__f32_f32a1C_f32a1C_f32a1C, !"kernel", i32 1}
# CHECK:STDOUT: !1 = !{i32 0, i32 1024}
# CHECK:STDOUT: !2 = !{i32 0, i32 2147483647}
# CHECK:STDOUT: !3 = !{i32 1, i32 1025}
# CHECK:STDOUT: !4 = !{i32 1, i32 -2147483648}
# CHECK:STDOUT: !5 = !{!6}
# CHECK:STDOUT: !6 = distinct !{!6, !7, !"x.0"}
# CHECK:STDOUT: !7 = distinct !{!7, !"saxpy__f32_f32a1C_f32a1C_f32a1C"}
# CHECK:STDOUT: !8 = !{!9, !10}
# CHECK:STDOUT: !9 = distinct !{!9, !7, !"y.0"}
# CHECK:STDOUT: !10 = distinct !{!10, !7, !"out.0"}
# CHECK:STDOUT: !11 = !{!9}
# CHECK:STDOUT: !12 = !{!6, !10}
# CHECK:STDOUT: !13 = !{!10}
# CHECK:STDOUT: !14 = !{!6, !9}
# CHECK:STDOUT: !15 = distinct !{!15, !16}
# CHECK:STDOUT: !16 = !{!"llvm.loop.unroll.disable"}
# CHECK:STDOUT: !17 = distinct !{!17, !16}
