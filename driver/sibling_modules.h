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
std::optional<SiblingPaste> pasteSiblingHelpers(const frontend::SourceFile& main,
                                                        const frontend::TokenBuffer& tokens,
                                                        const frontend::Ast& ast,
                                                        const std::vector<std::string>& modulePath,
                                                        frontend::DiagnosticSink& diags);

}  // namespace driver
