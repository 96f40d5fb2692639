#pragma once
// The compile pipeline shared by `pykc compile` and `pykc inspect`:
//
//     file -> SourceFile -> tokens -> Ast -> ResolvedModule -> TypedModule
//          -> (per arch) llvm::Module -> PTX -> cubin + resources -> manifest.json
//
// One Compilation per input holds every stage's output (STYLE.md §1); stages
// after a source error are never run. This header holds the front end's half
// and the manifest; the per-arch half (lowering to the cubin) belongs to the
// code generator (driver/codegen.h, driver/codegen_internal.h).
#include <llvm/Support/Error.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/options.h"
#include "backend/cuda/resources.h"
#include "syntax/ast.h"
#include "diagnostics/diagnostics.h"
#include "syntax/source.h"
#include "syntax/tokens.h"
#include "sema/typed_module.h"
#include "lowering/lower.h"

namespace driver {

struct FrontendOptions {
  // `--sig 'name(types)'`.
  std::vector<std::string> sigs;
  // `-D NAME=VALUE`.
  std::vector<std::string> defines;
  // `--const NAME=VALUE`: a value of tile kernels' Constant parameter NAME;
  // `--const KERNEL.NAME=VALUE` for kernel KERNEL alone.
  std::vector<std::string> consts;
  // Only these kernels are checked (frontend::CheckOptions); empty: all.
  std::vector<std::string> kernels;
  // `-Wfloat64` (the default) / `-Wno-float64`: warn where a float32 kernel
  // computes in float64 (sema/inspect_types.h).
  bool warnFloat64 = true;
  // Folders searched (after the file's own) for the modules of `from X import f`
  // whose helpers are pasted in (driver/sibling_modules.h).
  std::vector<std::string> modulePath;
};

// Applies `-W` flags (`float64`, `no-float64`, as given after `-W`) to
// `options`. Fails, naming the known flags, on any other.
llvm::Error applyWarningFlags(const std::vector<std::string>& flags, FrontendOptions& options);

// Every stage's output for one input file. Not movable once loaded: the AST
// points at the SourceFile.
struct Compilation {
  std::string path;
  std::optional<frontend::SourceFile> source;
  std::optional<frontend::TokenBuffer> tokens;
  std::optional<frontend::Ast> ast;
  std::optional<frontend::TypedModule> typed;

  Compilation() = default;
  Compilation(const Compilation&) = delete;
  Compilation& operator=(const Compilation&) = delete;
};

// Reads `path` (or takes `bytes`, when given, as its content) and runs the
// front end (lex, parse, resolve, check) into `compilation`. Source errors go
// to `diags` (check diags.hasErrors(); `typed` is then unset or must not be
// lowered). Fails only if the file cannot be read.
llvm::Error runFrontend(const std::string& path, const FrontendOptions& options,
                        Compilation& compilation, frontend::DiagnosticSink& diags,
                        const std::string* bytes = nullptr);

// What one architecture's compile produced.
struct ArchArtifacts {
  std::string arch;
  // The lowered module before optimisation (only when asked for).
  std::string llvmIr;
  // The module after optimisation, as codegen saw it (wantLlvmOptimized).
  std::string llvmOptimizedIr;
  std::string ptx;
  // Empty when no cubin was asked for.
  std::string cubin;
  backend::ResourceMap resources;
  // Tile kernels past 48 KiB of shared memory: symbol -> the dynamic shared
  // bytes a launch on this arch must pass (the manifest's per-arch resources).
  std::map<std::string, uint32_t> tileSharedBytes;
};

// The instances of `all` that kernel instances `kernels` reach, as a module of
// their own: those kernels first (in the given order), then their device
// functions in `all`'s order, callee indices renumbered. A copy: it shares
// nothing with `all` (its type table included), so that several can be
// lowered on different threads.
frontend::TypedModule selectInstances(const frontend::TypedModule& all,
                                      const std::vector<uint32_t>& kernels);

struct ManifestInputs {
  std::string source;  // the path as given
  std::string stem;    // file names are <stem>.<arch>.cubin/.ptx
  std::string pykcVersion;
  std::string llvmVersion;
  std::string nvJitLinkVersion;
  bool hasCubin = true;
  bool hasPtx = true;
  // The fatbin's file name (`--fatbin`); empty: none.
  std::string fatbin;
};

// manifest.json (docs/ABI.md), byte-for-byte deterministic.
std::string buildManifest(const frontend::TypedModule& typed, const ManifestInputs& inputs,
                          const std::vector<ArchArtifacts>& archs,
                          const std::vector<lowering::KernelInfo>& kernels);

// Writes `bytes` to `path` through a unique temporary file renamed into place
// (cache::writeFileAtomic), so that no reader sees a half-written output and
// two processes writing one folder do not share a temporary name. When `path`
// is a regular file holding exactly `bytes` already (a warm cache hit writing
// the outputs of the previous run), only its times are set to now, as a
// rewrite would: replacing a file costs ext4 a synchronous block release
// (0.2-0.6 ms each here). Fails, with the system's reason, if the file cannot
// be written or renamed.
llvm::Error writeFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace driver
