#pragma once
#include <string>
#include <vector>
// Type inference over the kernels of a resolved module, with numba's typing
// rules (sema/types.h): one FunctionInstance per kernel x signature and
// per device-function specialisation reached from a kernel.
#include <string>

#include "syntax/ast.h"
#include "sema/resolve.h"
#include "sema/typed_module.h"

namespace frontend {

class DiagnosticSink;

struct CheckOptions {
  // Only these kernels (by name) are instantiated and checked, with the
  // device functions they reach: an error in another kernel of the file is
  // then not reported and does not fail these. Empty: every kernel, and every
  // device function with an explicit signature (as numba compiles them).
  std::vector<std::string> kernels;
};

// Infers the types of every kernel signature of `module` and of the device
// functions they call. Type errors and constructs kernels cannot use go to
// `diags` (each once, in source order); always returns a module, which must
// not be lowered when diags.hasErrors(). `ast` must outlive the result.
TypedModule check(const Ast& ast, ResolvedModule module, DiagnosticSink& diags,
                  const CheckOptions& options = {});

// A stable text dump of the instances and their variables' types
// (`--dump-typed`, golden tests):
//
//     kernel saxpy__f32_f32a1C_f32a1C_f32a1C void(float32, float32[::1], ...)
//       a: float32
//       i: int64
std::string dumpTyped(const TypedModule& typed);

}  // namespace frontend
