#pragma once
// Type checking of cuTile Python tile kernels (`@ct.kernel`, docs/TILE.md):
// tiles of compile-time power-of-two shapes, NumPy broadcasting, cuTile's
// arithmetic promotion (Python number constants take the other operand's
// dtype), and the `ct.*` operations pykc lowers.
#include <vector>

#include "frontend/ast.h"
#include "frontend/resolve.h"
#include "frontend/typed_module.h"

namespace frontend {

class DiagnosticSink;

// Checks the tile kernel `inst.function` of `module` for the runtime
// parameter types `inst.argTypes` and the Constant values
// `inst.tileConstValues`; fills `inst`'s side tables, variables, symbol
// and signature. Errors go to `diags`; `ast` must outlive `inst`.
void checkTileKernel(const Ast& ast, ResolvedModule& module, FunctionInstance& inst,
                     DiagnosticSink& diags);

}  // namespace frontend
