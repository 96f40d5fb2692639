#pragma once
// Opening the CUDA libraries pykc never links (nvJitLink, NVRTC) with dlopen, and
// naming the file that would be opened for the cache key, without opening it.

#include <dlfcn.h>

#include <llvm/Support/Error.h>

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace backend {

// `buildPath` (the library CMake found), then `soname` where the dynamic loader
// would look: LD_LIBRARY_PATH, then the default folders.
std::vector<std::string> libraryCandidates(const std::string& buildPath, std::string_view soname);

// `<real path> <size> <mtime ns>` of the first of `candidates` that is a file, else
// `<soname> (not found)`.
std::string fileIdentity(const std::vector<std::string>& candidates, std::string_view soname);

// Owns a dlopened library (nvJitLink, NVRTC, nvFatbin): dlclose when destroyed or
// replaced; a move hands it on.
class LibraryHandle {
public:
  LibraryHandle() = default;
  explicit LibraryHandle(void* handle) : handle_(handle) {}
  LibraryHandle(LibraryHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  LibraryHandle& operator=(LibraryHandle&& other) noexcept {
    if (this != &other) {
      close();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  LibraryHandle(const LibraryHandle&) = delete;
  LibraryHandle& operator=(const LibraryHandle&) = delete;
  ~LibraryHandle() { close(); }

private:
  void close() {
    if (handle_ != nullptr) dlclose(handle_);
    handle_ = nullptr;
  }

  void* handle_ = nullptr;
};

struct OpenedLibrary {
  void* handle = nullptr;
  std::string path;
  // Empty, or why the CUDA driver could not be hidden from the library
  // (backend/cuda/no_cuda_driver.h); it is usable either way.
  std::string driverNote;
};

// dlopens `path` when given, else `buildPath` and then the bare `soname`, and
// hides the CUDA driver from it (hideCudaDriver) unless cudaDriverVisible(). RTLD_NODELETE:
// dlclose leaves the library mapped, since nvJitLink and NVRTC keep worker threads and
// caches, reopening (tests do) is then cheap, and LeakSanitizer can name it. `what`
// names the library in the error ("cannot load <what>: ...").
llvm::Expected<OpenedLibrary> openLibrary(std::string_view path, const std::string& buildPath,
                                          std::string_view soname, std::string_view what);

// Fills function-pointer slots from a dlopened library; after the first missing
// symbol it does nothing and missing() says which.
class SymbolResolver {
public:
  explicit SymbolResolver(void* handle) : handle_(handle) {}

  template <typename Fn>
  void operator()(const char* name, Fn& slot) {
    static_assert(std::is_pointer_v<Fn>, "slots are function pointers");
    if (void* symbol = find(name)) slot = reinterpret_cast<Fn>(symbol);
  }
  const std::string& missing() const { return missing_; }

private:
  void* find(const char* name);

  void* handle_;
  std::string missing_;
};

}  // namespace backend
