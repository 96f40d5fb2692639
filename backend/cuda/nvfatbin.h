#pragma once
// nvFatbin (cubins and PTX -> one fatbin, the container the CUDA driver picks
// the GPU's code from), opened with dlopen only when a fatbin is made: a
// compile without `--fatbin`, and a cache hit, never load it. pykc never
// writes the fatbin format itself.
#include <llvm/Support/Error.h>

#include "backend/cuda/shared_library.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace backend {

// An opened libnvfatbin.so.13 and its entry points. Move-only; it must
// outlive every call that uses it.
class NvFatbin {
public:
  // Opens `path`, or when it is empty the library CMake found at build time
  // (the toolkit's, else the `nvidia-nvfatbin` wheel's), then the toolkit's
  // /usr/local/cuda/lib64 copy, then the dynamic loader's search for
  // libnvfatbin.so.13. Fails, with dlopen's or dlsym's message and what to
  // install, if none opens or an entry point is missing.
  static llvm::Expected<NvFatbin> load(std::string_view path = {});

  NvFatbin(NvFatbin&& other) noexcept;
  NvFatbin& operator=(NvFatbin&& other) noexcept;
  NvFatbin(const NvFatbin&) = delete;
  NvFatbin& operator=(const NvFatbin&) = delete;
  ~NvFatbin();

  const std::string& path() const { return path_; }

  struct Api;
  const Api& api() const { return *api_; }

private:
  NvFatbin(void* handle, std::string path, std::unique_ptr<Api> api);

  LibraryHandle handle_;
  std::string path_;
  std::unique_ptr<Api> api_;
};

// Who the library is that NvFatbin::load(path) would open, without opening it
// (`<real path> <size> <mtime ns>`, or `libnvfatbin.so.13 (not found)`): the
// fatbin cache key's field. Never fails.
std::string nvFatbinIdentity(std::string_view path = {});

// nvFatbin's version as (major, minor). Fails if the library reports an error.
llvm::Expected<std::pair<int, int>> nvFatbinVersion(const NvFatbin& library);

// One piece of a fatbin. `arch` is the number nvFatbin takes: "90", "90a",
// "100f" (an arch's name without `sm_` / `compute_`). `bytes` must stay valid
// during the call.
struct FatbinInput {
  enum class Kind { Cubin, Ptx };
  Kind kind = Kind::Cubin;
  std::string arch;
  std::string_view bytes;
  // Shown by `cuobjdump -lelf/-lptx` with the arch appended: "saxpy" shows as
  // "saxpy.sm_90.cubin".
  std::string identifier;
};

// The options every fatbin is made with: 64-bit entries, Linux host, and no
// compression (an uncompressed fatbin loads on every CUDA 13 driver, and its
// bytes are the same on every run).
std::vector<std::string> fatbinOptionStrings();

// The fatbin holding `inputs`, in order. Fails, naming the nvFatbin call, its
// result and the input's identifier, when nvFatbin rejects an option or an
// input (an empty one, a cubin whose ELF arch is not `arch`). Deterministic:
// the same inputs give the same bytes.
llvm::Expected<std::string> buildFatbin(const NvFatbin& library, std::span<const FatbinInput> inputs);

}  // namespace backend
