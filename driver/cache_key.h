#pragma once
// The fields of a kernel's cache key (DESIGN.md §5, docs/CACHE.md): the one
// recipe that `compile` (with the cache) and `inspect --emit cache-key` both
// use, so that what inspect prints is the real key.
#include <cstdint>
#include <string>
#include <vector>

#include "backend/options.h"
#include "cache/key.h"

namespace driver {

struct Compilation;

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
  std::string libdevice;
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

// The `libdevice` key field for `codegen`: the bitcode's bytes, or, when it
// cannot be read, its path and the read error (so the key still differs).
std::string libdeviceKeyValue(const backend::CodegenOptions& codegen);

// cacheKeyBuilder(...).fields(): what `inspect --emit cache-key` prints.
std::vector<cache::KeyField> cacheKeyFields(const Compilation& compilation, uint32_t instance,
                                            const CacheKeyOptions& options);

// `<version>+<GNU build id>` of the object that holds the compiler code (the
// `pykc` executable, or libpykc.so inside another program: the object whose
// segments hold cacheKeyBuilder), or the version alone when it has no build
// id note. Read once per process.
const std::string& pykcBuildId();

}  // namespace driver
