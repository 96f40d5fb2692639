#pragma once
// Host-side evaluation of a Python expression at compile time (cuTile's
// `ct.static_assert`/`ct.static_eval` evaluate their argument as the host
// would): literals, the kernel's constants, module constants, Python's
// arithmetic, tuples and lists (as tuples), comprehensions, the builtins
// len/sum/min/max/abs/int/float/bool/tuple/list/range, and calls of plain
// module-level functions, whose bodies are interpreted (assignments, if,
// for over range or a tuple, while, break/continue, return). Anything else
// (a tile, an array, a `ct.*` call, a method) makes the evaluation give up
// without a diagnostic: the caller types the expression as usual.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sema/resolve.h"
#include "syntax/ast.h"

namespace frontend {

// What a name of the calling kernel holds: unknown to it (look in the module),
// a run-time value (the evaluation gives up) or a constant.
struct ConstEvalLocal {
  enum class Kind : uint8_t { Unknown, Runtime, Constant } kind = Kind::Unknown;
  ConstValue value;
};

struct ConstEvalLimits {
  // Statements and expressions evaluated, in all (a loop that does not end stops here).
  size_t maxSteps = 1000000;
  // Nested calls of module functions.
  size_t maxDepth = 200;
};

// Evaluates `expr` in function scope `scope` of `module` (ResolvedModule::lookup),
// with the calling kernel's names from `local`; nullopt when it is not a host
// constant expression pykc can evaluate.
std::optional<ConstValue> evalHostConstant(const Ast& ast, const ResolvedModule& module, uint32_t scope,
                                           const std::function<ConstEvalLocal(const std::string&)>& local,
                                           ExprId expr, const ConstEvalLimits& limits = {});

// Calls the method `def` (a `@static_def` of a dataclass) with `self` an object whose
// attributes are `fields` and the other parameters `args`, as the host would: its body may
// read `self.f`, and `pop`/`append` its local lists. nullopt when pykc cannot evaluate it.
std::optional<ConstValue> evalHostMethod(const Ast& ast, const ResolvedModule& module, uint32_t scope, StmtId def,
                                         const std::map<std::string, ConstValue>& fields,
                                         const std::vector<ConstValue>& args, const ConstEvalLimits& limits = {});

}  // namespace frontend
