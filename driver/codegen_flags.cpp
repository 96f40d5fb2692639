#include "driver/codegen_flags.h"

#include <algorithm>

#include "support/arch.h"

namespace driver {

std::optional<std::string> checkCodegenFlags(const CodegenFlags& flags) {
  if (flags.optLevel < 0 || flags.optLevel > 3) return std::string("-O must be 0 to 3");
  if (flags.maxRegisters < 0 || flags.maxRegisters > 255) {
    return std::string("--maxrregcount must be 0 to 255");
  }
  return std::nullopt;
}

backend::CodegenOptions codegenOptions(const CodegenFlags& flags) {
  backend::CodegenOptions codegen;
  codegen.optLevel = static_cast<unsigned>(flags.optLevel);
  codegen.fastMath = flags.fastMath;
  codegen.maxRegisters = static_cast<unsigned>(flags.maxRegisters);
  codegen.lineInfo = flags.lineInfo;
  codegen.aliasVersioning = !flags.noAliasVersioning;
  return codegen;
}

std::optional<std::string> uniqueArchs(const std::vector<std::string>& given,
                                       std::vector<std::string>& archs) {
  for (const std::string& a : given) {
    if (std::find(archs.begin(), archs.end(), a) != archs.end()) continue;
    if (std::optional<std::string> why = support::whyUnsupported(a)) return "--arch " + a + ": " + *why;
    archs.push_back(a);
  }
  return std::nullopt;
}

LinkSettings linkSettings(const CodegenFlags& flags) {
  LinkSettings settings;
  settings.files = flags.links;
  settings.includeDirs = flags.includeDirs;
  settings.defines = flags.defines;
  settings.nvrtcOptions = flags.nvrtcOptions;
  settings.lto = flags.lto;
  return settings;
}

}  // namespace driver
