#pragma once
// Files linked beside the kernels (docs/INTEROP.md): `--link` on the command
// line, `link=` of cuda.jit and of the cuda.declare_device functions the
// kernels call. `.cu` files are compiled by NVRTC in-process for each arch;
// everything goes to nvJitLink with our PTX.
//
// Reading the files and keying them needs neither NVRTC nor nvJitLink (a
// cache hit loads neither); prepareLinkInputs compiles on a miss.
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

#include "backend/cuda/nvjitlink.h"
#include "backend/cuda/nvrtc.h"
#include "backend/options.h"
#include "diagnostics/diagnostics.h"
#include "sema/resolve.h"

namespace backend {
class Nvrtc;
}
namespace cache {
class KeyBuilder;
}

namespace driver {

struct Compilation;

// What the command line says about linking.
struct LinkSettings {
  // `--link FILE`, in order.
  std::vector<std::string> files;
  // `-I DIR` for NVRTC (before the toolkit's include folders).
  std::vector<std::string> includeDirs;
  // `-D NAME=VALUE`, passed to NVRTC as well as to the Python module.
  std::vector<std::string> defines;
  // `--nvrtc-option OPT`: passed to NVRTC as is.
  std::vector<std::string> nvrtcOptions;
  // `--lto`: compile `.cu` files to LTO-IR (NVRTC -dlto) and link with -lto.
  bool lto = false;
};

// One file to link, read.
struct LinkFile {
  std::string path;
  frontend::LinkFileKind kind = frontend::LinkFileKind::Cuda;
  std::string bytes;
  // `.cu`: the files its `#include "..."` lines reach (through its folder
  // and -I folders), path and content, for the cache key.
  std::vector<std::pair<std::string, std::string>> headers;
};

// The files to link for `compilation` (checked without errors), deduplicated
// by path, in order: --link files, then each kernel's and device function's
// `link=`, then those of the declare_device functions that are called.
// Unreadable files and bad extensions are reported to `diags` (at the
// `link=` that named them, or without a position for --link).
std::vector<LinkFile> collectLinkFiles(const Compilation& compilation,
                                       const LinkSettings& settings,
                                       frontend::DiagnosticSink& diags);

// What NVRTC is given for a linked `.cu` file for `codegen.arch`: the cache
// key hashes exactly these options (driver/cache_key.h, addLinkKeyFields) and
// prepareLinkInputs compiles with them.
backend::NvrtcOptions nvrtcOptionsFor(const LinkSettings& settings,
                                      const backend::CodegenOptions& codegen);

// A prepared nvJitLink input; owns its bytes.
struct PreparedInput {
  backend::LinkInputKind kind = backend::LinkInputKind::Ptx;
  std::string bytes;
  std::string name;
};

// The error prepareLinkInputs returns when the linked code itself is wrong
// (a C++ error, a declare_device signature that does not match the
// definition): the diagnostics, to render as source errors (exit status 1).
class LinkSourceError : public llvm::ErrorInfo<LinkSourceError> {
public:
  static char ID;
  explicit LinkSourceError(std::vector<frontend::Diagnostic> diagnostics)
      : diagnostics_(std::move(diagnostics)) {}
  void log(llvm::raw_ostream& os) const override;
  std::error_code convertToErrorCode() const override;
  const std::vector<frontend::Diagnostic>& diagnostics() const { return diagnostics_; }

private:
  std::vector<frontend::Diagnostic> diagnostics_;
};

// Compiles the `.cu` files with `nvrtc` for `codegen.arch` and returns every
// file as an nvJitLink input. `nvrtc` may be null when no `.cu` is linked.
// Checks, where the PTX shows it, that each called declare_device function
// is defined with numba's ABI for its signature. Fails with LinkSourceError
// (C++ errors and warnings mapped to the `.cu` file's lines, signature
// mismatches) or an environment error from NVRTC.
llvm::Expected<std::vector<PreparedInput>> prepareLinkInputs(
    const Compilation& compilation, const std::vector<LinkFile>& files,
    const LinkSettings& settings, const backend::CodegenOptions& codegen,
    const backend::Nvrtc* nvrtc);

// `error` from linking the cubin, with nvJitLink's `Undefined reference to
// 'name'` for a called declare_device function turned into a LinkSourceError
// at its declaration (undefined-extern); any other error is returned as is.
llvm::Error explainLinkError(llvm::Error error, const Compilation& compilation);

// Whether any file needs NVRTC.
bool needsNvrtc(const std::vector<LinkFile>& files);

// Maps an NVRTC log to diagnostics: `ops.cu:12:9: error: ...` with the line
// and a caret when the log shows a column. `files` supplies the source lines.
std::vector<frontend::Diagnostic> nvrtcDiagnostics(std::string_view log,
                                                   const std::vector<LinkFile>& files);

}  // namespace driver
