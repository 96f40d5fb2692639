#pragma once
// Every cache key recipe, in one place (DESIGN.md §5, docs/CACHE.md): a
// kernel instance's fields (what `inspect --emit cache-key` prints), the
// fields of linked files, and a unit's key over its instances (what
// `compile`, `populate`, the C API and the JIT look up). A change to any of
// them bumps kUnitKind.
#include <cstdint>
#include <string>
#include <vector>

#include "backend/options.h"
#include "cache/key.h"

namespace driver {

struct Compilation;
struct LinkFile;
struct LinkSettings;
struct UnitRequest;

// The `unit` field of every unit key: bump the number whenever the unit key's
// recipe or what an entry holds changes, so that old entries stop matching.
inline constexpr const char* kUnitKind = "file-cubin-1";
// The `unit` field of a fatbin's key (fatbinKeyBuilder); bumped likewise.
inline constexpr const char* kFatbinKind = "file-fatbin-1";


struct CacheKeyOptions {
  // Arch, -O, fast math, ftz, --maxrregcount, --lineinfo, -G, libdevice.
  backend::CodegenOptions codegen;
  // `-D NAME=VALUE` as given (they override module constants).
  std::vector<std::string> defines;
  // nvJitLink's identity (backend::nvJitLinkIdentity(): path, size, mtime of
  // the library), so that a key never needs the library loaded.
  std::string nvJitLinkVersion;
  // The `libdevice` field's value: libdeviceKeyValue(codegen), read once by the
  // caller rather than once per kernel instance.
  cache::KeyField libdevice;
};

// The builder holding every field of the key of kernel instance `instance`
// (an index below compilation.typed->kernelCount) compiled with `options`, in
// this order: scheme, pykc (version and the executable's GNU build id), llvm,
// nvjitlink, arch, opt, fast-math, ftz, maxrregcount, lineinfo, debug,
// libdevice (the bitcode's bytes), kernel, signature, symbol, module (the
// normalised module-level imports and assignments), define (one per -D),
// then per function reached, the kernel first: function (its name) and
// source (its normalised tokens: comments, blank lines and spacing do not
// count). `compilation` must have been checked without errors. Never fails
// (the libdevice field comes from `options.libdevice`).
cache::KeyBuilder cacheKeyBuilder(const Compilation& compilation, uint32_t instance,
                                  const CacheKeyOptions& options);

// The `libdevice` key field for `codegen`, described once (it is the same for
// every instance; hashing its 470 KB per instance dominated cache hits).
cache::KeyField libdeviceKeyField(const backend::CodegenOptions& codegen);
// The same field, remembered in `memoFile` (in the cache folder) by libdevice's path,
// size, mtime, device and inode, so that a process's first cache hit does not read
// and hash its 460 KB: the key is unchanged (the digest is of the content).
cache::KeyField libdeviceKeyFieldMemo(const backend::CodegenOptions& codegen,
                                      const std::string& memoFile);

// Its value: the bitcode's bytes, or, when it
// cannot be read, its path and the read error (so the key still differs).
std::string libdeviceKeyValue(const backend::CodegenOptions& codegen);

// cacheKeyBuilder(...).fields(): what `inspect --emit cache-key` prints.
std::vector<cache::KeyField> cacheKeyFields(const Compilation& compilation, uint32_t instance,
                                            const CacheKeyOptions& options);

// `<version>+<source identity>`: the SHA-256 of the engine's sources, the C++
// compiler and the build type (cmake/source_identity.cmake), the same for the
// `pykc` executable and libpykc built from one tree, so that what `pykc cache
// populate` stores the JIT finds.
const std::string& pykcBuildId();


// Adds the key fields of the linked files (docs/CACHE.md): per file its
// kind, digest and the digests of the headers it includes with quotes; and
// when a `.cu` is linked, the NVRTC identity and options. Nothing when
// `files` is empty (keys of files without links stay as they were).
// `nvrtcIdentity` names the NVRTC that compiles them (empty: the default's).
void addLinkKeyFields(cache::KeyBuilder& key, const std::vector<LinkFile>& files,
                      const LinkSettings& settings, const backend::CodegenOptions& codegen,
                      const std::string& nvrtcIdentity = {});

// The builder of the key of `compilation`'s cubin for `request.codegen.arch`:
// `unit` (kUnitKind), `arch`, then per kernel instance, in instance order,
// `instance` = the hex key of driver::cacheKeyBuilder for that instance, and
// `path` (the file as given) when line tables are on (`--lineinfo` or a
// kernel's `lineinfo=True`), as the PTX then names the file; then the linked
// files' fields (addLinkKeyFields). `compilation`
// must have been checked without errors. Never fails.
cache::KeyBuilder unitKeyBuilder(const Compilation& compilation, const UnitRequest& request);

// The builder of the key of the fatbin (`--fatbin`) made of the units of
// `archs`, whose keys are `unitKeys` (same order): `unit` (kFatbinKind),
// `nvfatbin` (backend::nvFatbinIdentity), one `nvfatbin-option` per option,
// `stem` (the pieces are named after it), then per arch `arch` and
// `arch-unit` (the unit key's hex). The fatbin is a function of these alone.
cache::KeyBuilder fatbinKeyBuilder(const std::vector<std::string>& archs,
                                   const std::vector<cache::Key>& unitKeys,
                                   const std::string& stem, const std::string& nvFatbinIdentity);

}  // namespace driver
