#pragma once
// nvJitLink (PTX, LTO-IR, cubins, fatbins -> one cubin), opened with dlopen
// only when a compile needs it: a cache hit never loads it.
#include <llvm/Support/Error.h>

#include "backend/cuda/shared_library.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace backend {

// An opened libnvJitLink.so.13 and its entry points. Move-only; it must
// outlive every call that uses it. The destructor closes the handle (the
// library stays mapped, RTLD_NODELETE, as nvJitLink may keep threads). The
// driver owns one per process, created at the first compile that links.
class NvJitLink {
public:
  // Opens `path`, or when it is empty the library CMake found at build time
  // (PYKC_NVJITLINK's folder) and then the dynamic loader's default search.
  // Fails, with dlopen's or dlsym's message, if none opens or an entry point
  // of the CUDA 13.0 API is missing.
  static llvm::Expected<NvJitLink> load(std::string_view path = {});

  NvJitLink(NvJitLink&& other) noexcept;
  NvJitLink& operator=(NvJitLink&& other) noexcept;
  NvJitLink(const NvJitLink&) = delete;
  NvJitLink& operator=(const NvJitLink&) = delete;
  ~NvJitLink();

  // The file that was opened (for `--version` and logs).
  const std::string& path() const { return path_; }

  // The resolved entry points (nvjitlink.cpp defines it).
  struct Api;
  const Api& api() const { return *api_; }

private:
  NvJitLink(void* handle, std::string path, std::unique_ptr<Api> api);

  LibraryHandle handle_;
  std::string path_;
  std::unique_ptr<Api> api_;
};

// Who the library is that NvJitLink::load() with no path would open, without
// opening it: `<real path> <size> <mtime ns>` of the first candidate that
// exists (the build-time path, then libnvJitLink.so.13 in $LD_LIBRARY_PATH and
// the usual library folders), or `libnvJitLink.so.13 (not found)`. For cache
// keys: a hit must not load nvJitLink, and a replaced library changes this.
// Never fails. With `path`: that file's identity (what load(path) opens).
std::string nvJitLinkIdentity(std::string_view path = {});

// nvJitLink's version as (major, minor), e.g. (13, 0). Fails if the library
// reports an error.
llvm::Expected<std::pair<int, int>> nvJitLinkVersion(const NvJitLink& library);

enum class LinkInputKind {
  Ptx,
  Cubin,
  LtoIr,
  Fatbin,
  Object,
  Library,
};

// One input to linkCubin; `bytes` must stay valid during the call. PTX need
// not end with a NUL (linkCubin adds one when missing: nvJitLink ignores the
// size of PTX input and reads up to the first NUL).
struct LinkInput {
  LinkInputKind kind = LinkInputKind::Ptx;
  std::string_view bytes;
  // Shown in nvJitLink's logs, e.g. "kernels.sm_90.ptx".
  std::string name;
};

struct LinkOptions {
  // -arch=: any SM nvJitLink knows (sm_90 PTX also links for sm_100, sm_120).
  std::string arch = "sm_90";
  // -maxrregcount=; 0 means none.
  unsigned maxRegisters = 0;
  // -lineinfo.
  bool lineInfo = false;
  // -g (full device debug information); implies -O0, as ptxas refuses to
  // optimise with it.
  bool debug = false;
  // -verbose: the info log then reports registers, spills, stack, shared and
  // constant memory per function (parseLinkInfoLog in resources.h reads it).
  bool verbose = true;
  // -O0 or -O3 (nvJitLink accepts only those; 1-3 mean -O3).
  unsigned optLevel = 3;
  // -lto: inputs include LTO-IR (NVRTC -dlto output).
  bool lto = false;
  // With lto only: -ftz=1 -prec-div=0 -prec-sqrt=0 -fma=1 for the LTO-IR.
  bool fastMath = false;
  // -Xptxas=--split-compile=N: ptxas optimises up to N functions at once on threads of
  // its own. 1 (or 0): not passed. The cubin's code is the same for every N,
  // its section order is not: callers fix N (never from the machine's cores)
  // so that the bytes stay the same everywhere.
  unsigned splitCompile = 1;
};

struct LinkResult {
  std::string cubin;
  // nvJitLink's info log (with `verbose`, the resource lines).
  std::string infoLog;
  // Warnings, if any.
  std::string errorLog;
};

// The error linkCubin returns when nvJitLink itself fails: the failing call,
// nvJitLink's result code and its error log (for `note:` lines).
class NvJitLinkError : public llvm::ErrorInfo<NvJitLinkError> {
public:
  static char ID;
  NvJitLinkError(std::string arch, std::string call, int result, std::string errorLog)
      : arch_(std::move(arch)), call_(std::move(call)), result_(result),
        errorLog_(std::move(errorLog)) {}
  // "nvJitLink failed for sm_90: nvJitLinkComplete: NVJITLINK_ERROR_PTX_COMPILE",
  // then the error log.
  void log(llvm::raw_ostream& os) const override;
  std::error_code convertToErrorCode() const override;
  const std::string& arch() const { return arch_; }
  const std::string& call() const { return call_; }
  int result() const { return result_; }
  const std::string& errorLog() const { return errorLog_; }

private:
  std::string arch_;
  std::string call_;
  int result_;
  std::string errorLog_;
};

// Links `inputs` into one cubin for `options.arch`. Fails with an
// NvJitLinkError (carrying nvJitLink's error log) if nvJitLink rejects an
// option or input or the link fails. `library` must stay open during the
// call; the result owns its bytes. Thread-compatible: one link per handle.
llvm::Expected<LinkResult> linkCubin(const NvJitLink& library,
                                     std::span<const LinkInput> inputs,
                                     const LinkOptions& options);

// The options linkCubin passes to nvJitLink, in order (for logs and tests).
std::vector<std::string> linkOptionStrings(const LinkOptions& options);

}  // namespace backend
