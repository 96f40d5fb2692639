#pragma once
// cuda.ld<op> / cuda.st<op> (numba-cuda's cache_hints.py): one PTX
// `ld.global.<op>.b<bits>` / `st.global.<op>.b<bits>` through inline
// assembly, as numba emits it.
#include <string_view>

namespace llvm {
class IRBuilderBase;
class Type;
class Value;
}  // namespace llvm

namespace lowering {

// Loads the `element` (an 8-64 bit integer or float type) at `ptr` with the
// cache operator `op` (ca cg cs lu cv).
llvm::Value* lowerCacheLoad(llvm::IRBuilderBase& b, std::string_view op, llvm::Value* ptr,
                            llvm::Type* element);

// Stores `value` (already of the element's type) at `ptr` with the cache
// operator `op` (cg cs wb wt).
void lowerCacheStore(llvm::IRBuilderBase& b, std::string_view op, llvm::Value* ptr,
                     llvm::Value* value);

}  // namespace lowering
