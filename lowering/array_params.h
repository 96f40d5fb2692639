#pragma once
// The record lowering leaves on each SIMT kernel of which parameters form its
// array arguments, for the back end's alias versioning (backend/passes/alias_versioning.h),
// which needs the element size that opaque pointers no longer carry.
//
//   define ptx_kernel void @k(...) !pykc.arrays !0
//   !0 = !{!1, !2}                ; one node per array argument, in order
//   !1 = !{i32 1, i32 2, i64 4, i32 1}
//        ; data pointer's parameter index, ndim, itemsize, layout (kArrayLayout*)
//
// The ndim shapes follow the data pointer, then the ndim strides (in
// elements), as docs/ABI.md passes every array. The layout may be left out
// (then strides are arbitrary, as kArrayLayoutAny). The back end removes the
// record before code generation whether or not it versions the kernel.
#include <llvm/ADT/StringRef.h>

namespace lowering {

inline constexpr llvm::StringLiteral kArrayParamsMetadata = "pykc.arrays";
// The record's layout field. Any: strides of either sign. C (F): the last
// (first) dimension's stride is 1, as lowering's indexing assumes, and no
// stride is negative (a contiguous array's strides are products of extents;
// NumPy ignores the stride of an extent-1 dimension, which reaches nothing).
inline constexpr unsigned kArrayLayoutAny = 0;
inline constexpr unsigned kArrayLayoutC = 1;
inline constexpr unsigned kArrayLayoutF = 2;

}  // namespace lowering
