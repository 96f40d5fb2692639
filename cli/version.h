#pragma once
// pykc's identity: its version and the versions of the tools it builds with.
#include <string>

namespace cli {

// The text `pykc --version` prints: pykc's, LLVM's and nvJitLink's versions,
// one per line. nvJitLink is loaded with dlopen; if that fails, its line says why.
std::string versionText();

}  // namespace cli
