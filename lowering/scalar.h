#pragma once
// Scalar rules both dialects lower the same way: LLVM types of numbers,
// conversions between them, Python's integer `//` and `%`, CPython's float
// divmod, and libdevice's `__nv_*` names. numba's SIMT lowering
// (lowering/simt/) and the tile lowering (lowering/tile/) call these; the
// places where the dialects differ on purpose say so here.
#include <string>
#include <string_view>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "sema/types.h"

namespace lowering {

// The register type of a Bool, Int or Float type (bool is i1; float16 half,
// bfloat16 bfloat). Other kinds: nullptr (the dialects type those).
llvm::Type* scalarLlvmType(llvm::LLVMContext& context, const frontend::Type& t);

// Converts `v` between two Bool, Int or Float types: C's value conversions
// (truncation toward zero for float -> int, sign from the source for int
// widening), float16 <-> bfloat16 through float32, and to bool Python's
// truth (NaN is true). Equal register types: `v` (IRBuilder folds the no-op casts).
llvm::Value* convertScalar(llvm::IRBuilderBase& b, llvm::Value* v, const frontend::Type& from,
                           const frontend::Type& to);

// Python's `l // r` (`mod`: `l % r`) on integers: rounding toward negative
// infinity, the remainder with the divisor's sign; numba's GPU error model
// for a zero divisor (the result is 0), and INT_MIN // -1 wraps to INT_MIN
// (LLVM's sdiv would be undefined). Both dialects: cuTile leaves these cases
// undefined, so pykc's tile kernels get numba's defined values.
llvm::Value* integerFloorDivMod(llvm::IRBuilderBase& b, llvm::Value* l, llvm::Value* r, bool isSigned,
                                bool mod);

// libdevice's name for the `base` function of a float type: `__nv_<base>`,
// `__nv_<base>f` for float32 (`single`).
std::string libdeviceName(std::string_view base, bool single);

// Calls libdevice's `__nv_<base>[f]` (declared in `module` if needed) with
// `args`; the result has `args[0]`'s type unless `result` is given.
llvm::Value* callLibdevice(llvm::IRBuilderBase& b, llvm::Module& module, std::string_view base,
                           bool single, const std::vector<llvm::Value*>& args,
                           llvm::Type* result = nullptr);

}  // namespace lowering
