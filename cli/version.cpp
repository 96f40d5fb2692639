#include "cli/version.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/Support/Error.h>

#include <string>

#include "backend/cuda/nvjitlink.h"

namespace cli {

std::string versionText() {
  std::string text = "pykc " PYKC_VERSION "\n";
  text += "LLVM " LLVM_VERSION_STRING " (NVPTX backend, linked statically into libpykc_codegen.so, loaded on a cache miss)\n";
  llvm::Expected<backend::NvJitLink> library = backend::NvJitLink::load();
  if (!library) {
    text += "nvJitLink not found: " + llvm::toString(library.takeError()) + "\n";
    return text;
  }
  llvm::Expected<std::pair<int, int>> version = backend::nvJitLinkVersion(*library);
  if (!version) {
    text += "nvJitLink version unknown: " + llvm::toString(version.takeError()) + "\n";
    return text;
  }
  text += "nvJitLink " + std::to_string(version->first) + "." +
          std::to_string(version->second) + " (" + library->path() + ", loaded on demand)\n";
  return text;
}

}  // namespace cli
