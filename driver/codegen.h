#pragma once
// The code generator behind the cache: everything a miss needs and a hit must
// not load (DESIGN.md §5): lowering, LLVM's optimisation and NVPTX back end,
// nvJitLink, NVRTC and nvFatbin. driver::compile reaches it only through this
// interface, and only once something has to be compiled: the `pykc`
// executable opens it from libpykc_codegen.so at its first miss
// (openCodegenLibrary), libpykc links it in (makeCodegen).
//
// Only plain data crosses it: std:: types and pykc's own structs, failures as
// driver::Failure. libpykc_codegen.so carries its own copy of LLVM and of the
// front end's code, built from the same sources as the caller's (the library
// refuses a caller of another build), so that the structs below, the
// Compilation included, mean the same on both sides.
#include <llvm/Support/Error.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/options.h"
#include "driver/compile_unit.h"
#include "driver/failure.h"
#include "driver/link_inputs.h"
#include "driver/pipeline.h"

namespace driver {

class ThreadBudget;

// Where the code generator finds the CUDA libraries (SessionSettings' paths;
// empty: the ones found at build time, then the dynamic loader's search).
struct CodegenSettings {
  std::string nvJitLinkPath;
  std::string nvrtcPath;
  std::string nvFatbinPath;
};

// One compile's misses: the arches to build for one checked Compilation.
struct CodegenRequest {
  // In the order results are returned.
  std::vector<std::string> archs;
  // The back end's options; `arch` is set per arch.
  backend::CodegenOptions codegen;
  // Linked files (driver/link_inputs.h), read by the caller.
  LinkSettings link;
  std::vector<LinkFile> linkFiles;
  // What to keep (ArchRequest's flags): with wantCubin, linked files are
  // compiled and linked; without, the compile stops at PTX.
  bool wantLlvm = false;
  bool wantLlvmOptimized = false;
  bool wantCubin = true;
  // Threads for the arches and each one's kernel partitions (null: the
  // calling thread only). Must outlive the call.
  ThreadBudget* threads = nullptr;
  // Called once per arch that compiled, on the thread that compiled it, with
  // its index in `archs` and its artifacts, before compile() returns (the
  // driver stores the cache entry there). May be empty.
  std::function<void(size_t, const UnitArtifacts&)> compiled;
};

struct CodegenArch {
  // The artifacts (their nvJitLinkVersion "" when nothing was linked) ...
  std::optional<UnitArtifacts> unit;
  // ... or why not.
  Failure failure;
};

struct CodegenResult {
  // Set when nothing could be compiled (NVRTC cannot be opened); `archs` is
  // then empty.
  std::optional<Failure> failure;
  // Per arch of the request, in order.
  std::vector<CodegenArch> archs;
  // nvJitLink's version ("13.0") once something was linked, else "".
  std::string nvJitLinkVersion;
};

// The fatbin of a compile's artifacts, or why not.
struct FatbinBuild {
  std::string bytes;
  // Empty on success.
  std::string error;
};

// Thread-safe: any number of compiles may run through one at once.
class Codegen {
public:
  virtual ~Codegen() = default;
  // Lowers, optimises, emits PTX and (wantCubin) links every arch of
  // `request` for `compilation` (checked without errors), the arches at once
  // on the threads `request.threads` lends. Deterministic: the same bytes
  // whatever the threads. Never fails as a whole except as `failure` says.
  virtual CodegenResult compile(const Compilation& compilation, const CodegenRequest& request) = 0;
  // nvFatbin's fatbin of `archs` (one cubin per `sm_XY`, the PTX of each
  // `compute_XY`), the pieces named `stem`. Fails (`error`) when nvFatbin
  // cannot be loaded or refuses a piece.
  virtual FatbinBuild fatbin(const std::vector<ArchArtifacts>& archs, const std::string& stem) = 0;
  // Loads nvJitLink and links an empty module for `arch` now (Session::prepare);
  // false when either fails (a compile then reports why).
  virtual bool prepare(const std::string& arch) = 0;
};

// Makes the code generator; fails (naming the library and why) when it
// cannot be had.
using CodegenFactory = std::function<llvm::Expected<std::unique_ptr<Codegen>>(const CodegenSettings&)>;

// The code generator linked into this binary (the pykc_codegen library:
// libpykc, and libpykc_codegen.so itself). Never fails.
std::unique_ptr<Codegen> makeCodegen(const CodegenSettings& settings);

// libpykc_codegen.so's, opened with dlopen: from the folder of the object
// holding this code (bin/pykc: ../lib/, then its own folder), then the build
// tree's lib/. The library stays loaded as long as the returned object lives.
// Fails when it is found nowhere, cannot be loaded, or is of another pykc
// build (PYKC_SOURCE_IDENTITY).
llvm::Expected<std::unique_ptr<Codegen>> openCodegenLibrary(const CodegenSettings& settings);

// The C entry point libpykc_codegen.so exports (codegen_entry.cpp):
// `Codegen* kCodegenEntry(const char* sourceIdentity, const CodegenSettings*)`,
// null when `sourceIdentity` is not the library's own.
inline constexpr const char* kCodegenEntry = "pykc_codegen_create_v1";
using CodegenEntryFunction = Codegen* (*)(const char* sourceIdentity, const CodegenSettings* settings);

}  // namespace driver
