// Type expressions (resolve.h, evalTypeExpr).
#include "sema/resolve.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <set>

#include "diagnostics/diagnostics.h"
#include "sema/tile/tile_ops.h"
#include "sema/resolve_internal.h"

namespace frontend {

// --- type expressions -------------------------------------------------------------

using resolve_detail::TypeExprEvaluator;

std::optional<TypeId> evalTypeExpr(const Ast& ast, ExprId expr, ResolvedModule& module,
                                   DiagnosticSink& diags) {
  TypeExprEvaluator evaluator(ast, module, diags);
  auto r = evaluator.eval(expr, false);
  if (!r) return std::nullopt;
  return r->type;
}

}  // namespace frontend
