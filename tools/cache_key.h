#pragma once
// The fields of a kernel's cache key (DESIGN.md §5, docs/CACHE.md): the one
// recipe that `compile` (with the cache) and `inspect --emit cache-key` both
// use, so that what inspect prints is the real key.
#include <cstdint>
#include <string>
#include <vector>

#include "backend/options.h"
#include "cache/key.h"

namespace tools {

struct Compilation;

struct CacheKeyOptions {
  // Arch, -O, fast math, ftz, --maxrregcount, --lineinfo, -G, libdevice.
  backend::CodegenOptions codegen;
  // `-D NAME=VALUE` as given (they override module constants).
  std::vector<std::string> defines;
  // nvJitLink's version, "13.0" (the caller knows whether it loaded it).
  std::string nvJitLinkVersion;
};

// The builder holding every field of the key of kernel instance `instance`
// (an index below compilation.typed->kernelCount) compiled with `options`, in
// this order: scheme, pykc (version and the executable's GNU build id), llvm,
// nvjitlink, arch, opt, fast-math, ftz, maxrregcount, lineinfo, debug,
// libdevice (the bitcode's bytes), kernel, signature, symbol, module (the
// normalised module-level imports and assignments), define (one per -D),
// then per function reached, the kernel first: function (its name) and
// source (its normalised tokens: comments, blank lines and spacing do not
// count). `compilation` must have been checked without errors. Never fails:
// an unreadable libdevice enters as its path and the read error.
cache::KeyBuilder cacheKeyBuilder(const Compilation& compilation, uint32_t instance,
                                  const CacheKeyOptions& options);

// cacheKeyBuilder(...).fields(): what `inspect --emit cache-key` prints.
std::vector<cache::KeyField> cacheKeyFields(const Compilation& compilation, uint32_t instance,
                                            const CacheKeyOptions& options);

// `<version>+<GNU build id of the running executable>`, or the version alone
// when the executable has no build id note.
std::string pykcBuildId();

}  // namespace tools
