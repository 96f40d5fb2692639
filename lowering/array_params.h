#pragma once
// The record lowering leaves on each SIMT kernel of which parameters form its
// array arguments, for the back end's alias versioning (backend/passes/alias_versioning.h),
// which needs the element size that opaque pointers no longer carry.
//
//   define ptx_kernel void @k(...) !pykc.arrays !0
//   !0 = !{!1, !2}                ; one node per array argument, in order
//   !1 = !{i32 1, i32 2, i64 4}   ; data pointer's parameter index, ndim, itemsize
//
// The ndim shapes follow the data pointer, then the ndim strides (in
// elements), as docs/ABI.md passes every array. The back end removes the
// record before code generation whether or not it versions the kernel.
#include <llvm/ADT/StringRef.h>

namespace lowering {

inline constexpr llvm::StringLiteral kArrayParamsMetadata = "pykc.arrays";

}  // namespace lowering
