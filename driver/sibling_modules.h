#pragma once
// Helpers from other modules (docs/compile.md, "Helpers from other modules"): a kernel
// file's top-level `from .gelu import gelu_ct` / `from kernels.matmul import swizzle_2d`
// that names a Python file beside it (or under a --python-path folder) has the imported
// functions and constants pasted in after the import, with what they use from their own
// module (its imports, constants and functions, and in turn their own sibling imports).
// Locations map back to the helper's file and lines (SourceFile::Segment); the cache key
// sees the pasted text, so editing a helper recompiles its callers.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "syntax/ast.h"
#include "syntax/source.h"
#include "syntax/tokens.h"

namespace frontend {
class DiagnosticSink;
}

namespace driver {

// What pasteSiblingHelpers made of a kernel file.
struct SiblingPaste {
  frontend::SourceFile file;
  // Sibling modules imported as objects (`from . import core`): the name bound to each,
  // and the names of it the file uses (`core.f`), pasted in as the module's own.
  std::map<std::string, std::set<std::string>> moduleObjects;
};

// The file with the helpers pasted in, or nullopt when it imports nothing from a sibling
// module. `tokens` and `ast` are `main`'s. A name the pasted code binds that means something
// else in the kernel's file is an error (`module-conflict`) at the import. A module imported
// as an object (`from . import core`, `from pkg import core`) has the attributes the file
// reads of it (`core.f`, `core.LIMIT`) pasted in the same way.
// `jitWrappers` (jitWrapperImports' names that mean `cuda.jit`) are not pasted: the
// kernel file's import of them stands.
std::optional<SiblingPaste> pasteSiblingHelpers(const frontend::SourceFile& main,
                                                        const frontend::TokenBuffer& tokens,
                                                        const frontend::Ast& ast,
                                                        const std::vector<std::string>& modulePath,
                                                        const std::map<std::string, std::string>& jitWrappers,
                                                        frontend::DiagnosticSink& diags);

// The decorators of `main`'s functions that `main` imports from a project module found
// beside it or under `modulePath` (`from fbpic.utils.cuda import compile_cupy`), by the
// name bound: empty when the definition (at the module's top level, or under a
// module-level `if`/`try`, such as `if cuda_installed:`) only applies `cuda.jit` to the
// function: `def d(f): return cuda.jit(f)` / `return cuda.jit()(f)`, or a class whose
// `__init__(self, f)` stores `f` in an attribute that its methods only pass to
// `cuda.jit(...)` with no options, at most a signature their caller gives (fbpic's
// `compile_cupy`, which launches numba's PTX through CuPy). Otherwise `path:line` of the
// definition. Decorators of other modules are not listed.
std::map<std::string, std::string> jitWrapperImports(const frontend::SourceFile& main, const frontend::Ast& ast,
                                                     const std::vector<std::string>& modulePath);

}  // namespace driver
