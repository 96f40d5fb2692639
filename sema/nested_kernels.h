#pragma once
// Kernels defined inside functions or classes (`def make(): @ct.kernel def k(...)`,
// cuTile's and numba's tests, kernel factories): found by name for `pykc compile
// --kernel make.k` (the resolver gives such a kernel the names of the functions
// around it, docs/compile.md "Kernels made inside functions"), and listed when a
// file has no module-level kernel, so that the error names them.
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "sema/resolve.h"
#include "syntax/ast.h"

namespace frontend {

struct NestedKernel {
  std::string name;       // the decorated function
  std::string enclosing;  // the function or class it is defined in
  std::string qualname;   // `enclosing.name` from module level (`Cls.test.kernel`)
  NodeRange range;        // its `def` statement
};

// Functions below module level whose decorator is `jit`/`kernel` or an attribute
// of that name (`cuda.jit`, `ct.kernel`, called or not), in source order.
std::vector<NestedKernel> findNestedKernels(const Ast& ast);

// `test.<locals>.kernel` (Python's __qualname__) as `test.kernel`.
std::string normalizeQualname(std::string name);

// Where the function `parts` (a dotted qualname split at its dots) is defined, through
// the functions and classes around it.
struct NestedPath {
  struct Level {
    std::string name;
    StmtId stmt;  // its `def` or `class`
    bool isClass = false;
    // A function level's parameters and every name its body binds (Python's locals:
    // assignments, imports, defs, loop and `with` targets), before or after the def.
    std::set<std::string> locals;
    // The statements of the level that run before the next level's def (in the
    // containers, `if`/`for`/`with`/`try`, that hold it too), in order.
    std::vector<StmtId> prelude;
  };
  std::vector<Level> levels;  // outermost first; the function itself is not one
  StmtId def;                 // the function's `def`
};
// nullopt when no such function exists (`why` says which part was not found).
std::optional<NestedPath> findNestedPath(const Ast& ast, const std::string& qualname, std::string& why);

// The dotted (nested) kernel names of `--kernel` and `--sig` values, normalised,
// each once, in order.
std::vector<std::string> nestedKernelNames(const std::vector<std::string>& kernels,
                                           const std::vector<std::string>& sigs);

// The entries of `after` that are not in `before` or differ there, into `out`.
void scopeChanges(const std::map<std::string, Entity>& before, const std::map<std::string, Entity>& after,
                  std::map<std::string, Entity>& out);
void scopeChanges(const std::map<std::string, StmtId>& before, const std::map<std::string, StmtId>& after,
                  std::map<std::string, StmtId>& out);

// The functions a nested visit added to `module` from `first` on take `scope` and
// qualified names (`test.kernel`: symbols stay distinct); a device function that an
// earlier visit of the same enclosing function added is that one (the scope's
// Function entities follow).
void shareNestedFunctions(ResolvedModule& module, size_t first, uint32_t scope, const std::string& qualifier);

// The statement lists a compound statement holds at its own level (an `if`'s branches,
// a loop's body and `else`, ...; not a nested function's or class's body).
std::vector<std::span<const StmtId>> innerBodies(const Ast& ast, const Stmt& s);

// The names a block binds at its own level (assignments, imports, defs, classes,
// loop/`with`/`except` targets; not inside nested functions or classes).
void collectBoundNames(const Ast& ast, std::span<const StmtId> body, std::set<std::string>& out);

}  // namespace frontend
