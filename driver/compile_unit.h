#pragma once
// One source file's cubin for one architecture, through the kernel cache
// (docs/CACHE.md, "Compile units"): what the unit key is computed from and
// what an entry holds. Shared by `pykc compile` and `pykc cache populate`.
//
// A hit needs only the front end (which the key is computed from) and the
// store: the code generator (driver/codegen.h) is loaded only when something
// has to be compiled.
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

#include "backend/options.h"
#include "cache/key.h"
#include "cache/store.h"
#include "lowering/lower.h"
#include "driver/codegen_flags.h"
#include "driver/log.h"
#include "driver/link_inputs.h"
#include "driver/pipeline.h"

namespace driver {

// What one file's unit key for one arch is computed from (unitKeyBuilder).
struct UnitRequest {
  backend::CodegenOptions codegen;
  // `-D NAME=VALUE` as given (they enter each kernel instance's key).
  std::vector<std::string> defines;
  // backend::nvJitLinkIdentity(): stands for nvJitLink's version in the key,
  // so that computing a key never loads the library.
  std::string nvJitLinkIdentity;
  // backend::nvrtcIdentity() of the NVRTC that links `.cu` files (read only
  // when one is linked; empty: the default library's).
  std::string nvrtcIdentity;
  // libdeviceKeyField(codegen), when the caller has it (a Session reads it
  // once); empty: read here.
  std::optional<cache::KeyField> libdeviceKey;
  // Linking (--link, -I, --nvrtc-option, --lto) and the files collectLinkFiles read.
  LinkSettings link;
  std::vector<LinkFile> linkFiles;
};

// What one unit entry holds, decoded.
struct UnitArtifacts {
  // ptx, cubin and resources (llvmIr empty).
  ArchArtifacts arch;
  std::vector<lowering::KernelInfo> kernels;
  // nvJitLink's version, "13.0", for the manifest.
  std::string nvJitLinkVersion;
};

// The outputs stored for a unit: `cubin`, `ptx`, `resources` (JSON),
// `kernels` (JSON), `nvjitlink`. Deterministic: equal artifacts give equal
// bytes.
std::vector<cache::NamedOutput> encodeUnit(const UnitArtifacts& unit);

// Decodes what encodeUnit stored for `arch`; nullopt (with `why`) when an
// output is missing or malformed, or its kernels are not `typed`'s kernel
// instances (a pykc bug, or a key collision: either way a miss).
std::optional<UnitArtifacts> decodeUnit(const std::vector<cache::NamedOutput>& outputs,
                                        const frontend::TypedModule& typed,
                                        const std::string& arch, std::string* why);

// The store options for `--cache-dir DIR` (empty: $PYKC_CACHE_DIR, else
// $XDG_CACHE_HOME/pykc, else ~/.cache/pykc) with the size limit from
// $PYKC_CACHE_MAXSIZE (a malformed value is logged and the default used),
// the store's log lines forwarded to `log` (may be null). nullopt when no
// folder can be found (compiles then run without a cache).
std::optional<cache::StoreOptions> cacheStoreOptions(const std::string& cacheDir,
                                                     const LogSink& log,
                                                     std::vector<cache::RemoteSpec> remotes = {});

}  // namespace driver
