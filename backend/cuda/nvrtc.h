#pragma once
// NVRTC (CUDA C++ -> PTX or LTO-IR, in-process), opened with dlopen only when
// a compile links a `.cu` file: a cache hit never loads it (docs/INTEROP.md).
#include <llvm/Support/Error.h>

#include "backend/cuda/shared_library.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace backend {

// An opened libnvrtc.so.13 and its entry points. Move-only; it must outlive
// every call that uses it. Thread-safe: NVRTC programs are independent.
class Nvrtc {
public:
  // Opens `path`, or when it is empty the library CMake found at build time
  // and then the dynamic loader's default search. Fails, with dlopen's or
  // dlsym's message, if none opens or an entry point is missing.
  static llvm::Expected<Nvrtc> load(std::string_view path = {});

  Nvrtc(Nvrtc&& other) noexcept;
  Nvrtc& operator=(Nvrtc&& other) noexcept;
  Nvrtc(const Nvrtc&) = delete;
  Nvrtc& operator=(const Nvrtc&) = delete;
  ~Nvrtc();

  const std::string& path() const { return path_; }

  // The resolved entry points (nvrtc.cpp defines it).
  struct Api;
  const Api& api() const { return *api_; }

private:
  Nvrtc(void* handle, std::string path, std::unique_ptr<Api> api);

  LibraryHandle handle_;
  std::string path_;
  std::unique_ptr<Api> api_;
};

// Who the library is that Nvrtc::load() with no path would open, without
// opening it (as nvJitLinkIdentity: `<real path> <size> <mtime ns>`, or
// `libnvrtc.so.13 (not found)`), followed by the identity of the builtins
// library beside it. For cache keys. Never fails. With `path`: that file's
// identity and its folder's builtins (what load(path) opens).
std::string nvrtcIdentity(std::string_view path = {});

// NVRTC's version as (major, minor). Fails if the library reports an error.
llvm::Expected<std::pair<int, int>> nvrtcVersion(const Nvrtc& library);

struct NvrtcOptions {
  // The GPU: sm_XX (or sm_XXa). PTX is made for compute_XX, LTO-IR for sm_XX.
  std::string arch = "sm_90";
  // -dlto: LTO-IR (nvJitLink then links with -lto) instead of PTX.
  bool lto = false;
  // Folders searched for #include, in order, after the including file's own
  // folder: the user's -I, then the toolkit's include and include/cccl.
  std::vector<std::string> includeDirs;
  // -D NAME[=VALUE], as given.
  std::vector<std::string> defines;
  // Anything else (`--nvrtc-option OPT`), appended last.
  std::vector<std::string> extra;
  bool fastMath = false;
  bool lineInfo = false;
  bool debug = false;
};

// The option strings compileCuda passes to NVRTC, in order (for the cache
// key, logs and tests).
std::vector<std::string> nvrtcOptionStrings(const NvrtcOptions& options);

// The toolkit include folders (`<cuda>/include`, `<cuda>/include/cccl`) that
// exist; what numba-cuda and nvcc put on the include path.
std::vector<std::string> toolkitIncludeDirs();

struct CudaCompileResult {
  // PTX text (no NUL) or LTO-IR bytes.
  std::string code;
  bool lto = false;
  // NVRTC's log (warnings), possibly empty.
  std::string log;
};

// The error compileCuda returns when the program does not compile: NVRTC's
// log, which parseNvrtcLog turns into diagnostics.
class NvrtcCompileError : public llvm::ErrorInfo<NvrtcCompileError> {
public:
  static char ID;
  NvrtcCompileError(std::string name, std::string log)
      : name_(std::move(name)), log_(std::move(log)) {}
  void log(llvm::raw_ostream& os) const override;
  std::error_code convertToErrorCode() const override;
  const std::string& name() const { return name_; }
  const std::string& nvrtcLog() const { return log_; }

private:
  std::string name_;
  std::string log_;
};

// The error compileCuda returns when NVRTC refuses an option (from
// `--nvrtc-option`, `-D` or `-I`): a command-line mistake.
class NvrtcOptionError : public llvm::ErrorInfo<NvrtcOptionError> {
public:
  static char ID;
  explicit NvrtcOptionError(std::string message) : message_(std::move(message)) {}
  void log(llvm::raw_ostream& os) const override;
  std::error_code convertToErrorCode() const override;
  const std::string& text() const { return message_; }

private:
  std::string message_;
};

// Compiles `source` (named `name` in messages and line tables) for
// `options.arch`. Fails with NvrtcCompileError when the C++ has errors,
// NvrtcOptionError when NVRTC refuses an option, or a string error when NVRTC
// itself fails (out of memory, ...).
llvm::Expected<CudaCompileResult> compileCuda(const Nvrtc& library, std::string_view name,
                                              std::string_view source,
                                              const NvrtcOptions& options);

// One message of an NVRTC log: `ops.cu(12): error: identifier "x" is
// undefined`, then the source line and a caret line (the column).
struct NvrtcMessage {
  std::string file;
  uint32_t line = 0;
  // 1-based, from the caret line; 0 when the log shows none.
  uint32_t column = 0;
  // "error", "catastrophic error", "warning", "remark"...
  std::string severity;
  std::string message;
  // The source line as NVRTC echoed it (empty when absent).
  std::string sourceLine;
};

// Splits an NVRTC log into messages; lines that start no message (the
// summary "1 error detected ...") are dropped. Never fails.
std::vector<NvrtcMessage> parseNvrtcLog(std::string_view log);

}  // namespace backend
