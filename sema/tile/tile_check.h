#pragma once
// Type checking of cuTile Python tile kernels (`@ct.kernel`, docs/TILE.md):
// tiles of compile-time power-of-two shapes, NumPy broadcasting, cuTile's
// arithmetic promotion (Python number constants take the other operand's
// dtype), and the `ct.*` operations pykc lowers.
#include <vector>

#include "syntax/ast.h"
#include "sema/resolve.h"
#include "sema/typed_module.h"

namespace frontend {

class DiagnosticSink;

// Checks the tile kernel `inst.function` of `module` for the runtime
// parameter types `inst.argTypes` and the Constant values
// `inst.tileConstValues`; fills `inst`'s side tables, variables, symbol
// and signature. Errors go to `diags`; `ast` must outlive `inst`.
//
// Plain module-level functions the kernel calls (helpers, docs/TILE.md) are
// typed per call site: their instances are appended to `helpers` (one per
// distinct argument types and constants; `callees` of `inst` and of the
// helpers index into `helpers`), and each such function gets an entry in
// `module.functions` (JitFunction::tileHelper) on first use, so references
// into `module.functions` do not survive this call.
void checkTileKernel(const Ast& ast, ResolvedModule& module, FunctionInstance& inst,
                     std::vector<FunctionInstance>& helpers, DiagnosticSink& diags);

}  // namespace frontend
