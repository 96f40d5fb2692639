#pragma once
// The command-line options that change what a compile produces and so enter
// its cache key (docs/CACHE.md): -O, --use-fast-math, --maxrregcount,
// --lineinfo, --no-alias-versioning, -D and the linking ones (--link, -I, --nvrtc-option, --lto;
// docs/INTEROP.md). `pykc compile` and `pykc cache populate` both add them
// with cli::addCodegenFlags, so that they mean the same in both and a populate
// with the same flags stores exactly the entries that compile then hits.
#include <optional>
#include <string>
#include <vector>

#include "backend/options.h"
#include "driver/link_inputs.h"

namespace driver {

struct CodegenFlags {
  int optLevel = 3;
  bool fastMath = false;
  bool lineInfo = false;
  // 0: no limit; checkCodegenFlags wants 0 to 255.
  int maxRegisters = 0;
  // `-D NAME=VALUE` as given: module constants, and NVRTC's -D.
  std::vector<std::string> defines;
  std::vector<std::string> links;
  std::vector<std::string> includeDirs;
  std::vector<std::string> nvrtcOptions;
  bool lto = false;
  // --no-alias-versioning (backend::CodegenOptions::aliasVersioning).
  bool noAliasVersioning = false;
  // --python-path: folders searched for the modules a kernel file imports helpers
  // from (after the file's own folder; driver/sibling_modules.h). Not a key field
  // itself: the helpers' text that a search finds is.
  std::vector<std::string> pythonPath;
};

// What CLI11's checks cannot say: nullopt when `flags` are valid, else the
// message for `pykc: error: ...` (exit 2), e.g. `--maxrregcount must be 0 to
// 255`. Also checks values that did not come from the command line (a
// populate spec file), so -O is checked here as well.
std::optional<std::string> checkCodegenFlags(const CodegenFlags& flags);

// The backend's options (the caller sets `arch`; ftz and -G stay off: no
// flag sets them).
backend::CodegenOptions codegenOptions(const CodegenFlags& flags);

// The `--arch` values in order, each once; nullopt when all are valid, else
// the message for `pykc: error: ...` (exit 2), e.g. `--arch sm_12: ...`.
std::optional<std::string> uniqueArchs(const std::vector<std::string>& given,
                                       std::vector<std::string>& archs);

// What the flags say about linking.
LinkSettings linkSettings(const CodegenFlags& flags);

}  // namespace driver
