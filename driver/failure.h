#pragma once
// A compile's failure as data: its exit class, the diagnostics and the
// messages to render. What the code generator (driver/codegen.h) hands back
// instead of an llvm::Error, which must not cross libpykc_codegen.so's
// boundary: that library holds an LLVM of its own, whose error classes the
// caller's LLVM cannot tell apart.
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

#include "diagnostics/diagnostics.h"

namespace driver {

// Process exit codes (`pykc --help`): the outcome's class.
enum class ExitClass : int { Ok = 0, SourceErrors = 1, Usage = 2, Environment = 3 };

struct Failure {
  ExitClass exit = ExitClass::Environment;
  // Rendered first, in order (linked C++ mistakes at their lines) ...
  std::vector<frontend::Diagnostic> diagnostics;
  // ... then these, as `pykc: error: MESSAGE`.
  std::vector<std::string> errors;
};

// `error` (not success) classified and consumed: linked code's mistakes
// (LinkSourceError, driver/link_inputs.h) are source errors with their
// diagnostics, an `--nvrtc-option` NVRTC refuses a usage error, anything else
// the environment's, its message as the error.
Failure failureOf(llvm::Error error);

}  // namespace driver
