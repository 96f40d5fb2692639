#pragma once
// The command-line spelling of driver::CodegenFlags, shared by `pykc compile`,
// `pykc inspect` and `pykc cache populate` so that a flag means the same in
// each (docs/CACHE.md).
#include "driver/codegen_flags.h"

namespace CLI {
class App;
}

namespace cli {

// Adds -D, -O, --lineinfo, --use-fast-math, --maxrregcount,
// --no-alias-versioning, --link, -I, --nvrtc-option and --lto to `sub`,
// writing into `flags` (which must outlive the parse).
void addCodegenFlags(CLI::App& sub, driver::CodegenFlags& flags);

// `flags` with $PYTHONPATH's folders after --python-path's (as Python searches them).
driver::CodegenFlags withEnvironmentPythonPath(driver::CodegenFlags flags);

}  // namespace cli
