#pragma once
// Kernels defined inside functions or classes (`def make(): @ct.kernel def k(...)`,
// cuTile's and numba's tests): what `pykc compile` reports when a file has no
// module-level kernel, so that the error names them instead of "no kernels".
#include <string>
#include <vector>

#include "syntax/ast.h"

namespace frontend {

struct NestedKernel {
  std::string name;       // the decorated function
  std::string enclosing;  // the function or class it is defined in
  NodeRange range;        // its `def` statement
};

// Functions below module level whose decorator is `jit`/`kernel` or an attribute
// of that name (`cuda.jit`, `ct.kernel`, called or not), in source order.
std::vector<NestedKernel> findNestedKernels(const Ast& ast);

}  // namespace frontend
