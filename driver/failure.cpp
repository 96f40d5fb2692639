#include "driver/failure.h"

#include "backend/cuda/nvrtc.h"
#include "driver/link_inputs.h"

namespace driver {

Failure failureOf(llvm::Error error) {
  Failure failure;
  bool source = false;
  llvm::Error rest = llvm::handleErrors(std::move(error), [&](const LinkSourceError& e) {
    failure.diagnostics.insert(failure.diagnostics.end(), e.diagnostics().begin(), e.diagnostics().end());
    source = true;
  });
  if (!rest) {
    failure.exit = source ? ExitClass::SourceErrors : ExitClass::Environment;
    return failure;
  }
  bool usage = false;
  rest = llvm::handleErrors(std::move(rest), [&](const backend::NvrtcOptionError& e) {
    failure.errors.push_back(e.text());
    usage = true;
  });
  if (!rest) {
    failure.exit = usage ? ExitClass::Usage : ExitClass::Environment;
    return failure;
  }
  failure.errors.push_back(llvm::toString(std::move(rest)));
  failure.exit = ExitClass::Environment;
  return failure;
}

}  // namespace driver
