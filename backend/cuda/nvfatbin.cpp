#include "backend/cuda/nvfatbin.h"

#include "backend/cuda/shared_library.h"

#include <dlfcn.h>

#include <algorithm>

// Types and prototypes only: the library is never linked, so nothing here may
// call these names directly.
#include <nvFatbin.h>

#ifndef PYKC_NVFATBIN_PATH
#error "PYKC_NVFATBIN_PATH must be defined by backend/CMakeLists.txt"
#endif

namespace backend {

struct NvFatbin::Api {
  decltype(&::nvFatbinCreate) create = nullptr;
  decltype(&::nvFatbinDestroy) destroy = nullptr;
  decltype(&::nvFatbinAddCubin) addCubin = nullptr;
  decltype(&::nvFatbinAddPTX) addPtx = nullptr;
  decltype(&::nvFatbinSize) size = nullptr;
  decltype(&::nvFatbinGet) get = nullptr;
  decltype(&::nvFatbinGetErrorString) errorString = nullptr;
  decltype(&::nvFatbinVersion) version = nullptr;
};

namespace {

constexpr const char* kSoname = "libnvfatbin.so.13";

// Destroys the nvFatbin handle on every path out of buildFatbin.
class FatbinHandle {
public:
  explicit FatbinHandle(const NvFatbin::Api& api) : api_(api) {}
  FatbinHandle(const FatbinHandle&) = delete;
  FatbinHandle& operator=(const FatbinHandle&) = delete;
  ~FatbinHandle() {
    if (handle_ != nullptr) api_.destroy(&handle_);
  }
  nvFatbinHandle* address() { return &handle_; }
  nvFatbinHandle get() const { return handle_; }

private:
  const NvFatbin::Api& api_;
  nvFatbinHandle handle_ = nullptr;
};

}  // namespace

NvFatbin::NvFatbin(void* handle, std::string path, std::unique_ptr<Api> api)
    : handle_(handle), path_(std::move(path)), api_(std::move(api)) {}

NvFatbin::NvFatbin(NvFatbin&& other) noexcept = default;
NvFatbin& NvFatbin::operator=(NvFatbin&& other) noexcept = default;
NvFatbin::~NvFatbin() = default;

std::string nvFatbinIdentity(std::string_view path) {
  if (!path.empty()) return fileIdentity({std::string(path)}, kSoname);
  return fileIdentity(libraryCandidates(PYKC_NVFATBIN_PATH, kSoname), kSoname);
}

llvm::Expected<NvFatbin> NvFatbin::load(std::string_view path) {
  // The toolkits, the build's copy, NVIDIA's wheel, the loader's search
  // (backend/cuda/toolkit.h).
  auto opened = openLibrary(path, PYKC_NVFATBIN_PATH, kSoname, "nvFatbin");
  if (!opened) {
    // "cannot load nvFatbin:\n  <dlerror>...", with where it comes from.
    std::string why = llvm::toString(opened.takeError());
    std::string reasons = why.substr(std::min(why.size(), why.find(':') + 1));
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot load nvFatbin (the CUDA toolkit's lib64/libnvfatbin.so.13, "
                                   "or the `nvidia-nvfatbin` wheel's on LD_LIBRARY_PATH):%s",
                                   reasons.c_str());
  }
  auto api = std::make_unique<Api>();
  SymbolResolver resolve(opened->handle);
  resolve("nvFatbinCreate", api->create);
  resolve("nvFatbinDestroy", api->destroy);
  resolve("nvFatbinAddCubin", api->addCubin);
  resolve("nvFatbinAddPTX", api->addPtx);
  resolve("nvFatbinSize", api->size);
  resolve("nvFatbinGet", api->get);
  resolve("nvFatbinGetErrorString", api->errorString);
  resolve("nvFatbinVersion", api->version);
  if (!resolve.missing().empty()) {
    dlclose(opened->handle);
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "`%s` is not a CUDA 13 nvFatbin (%s)",
                                   opened->path.c_str(), resolve.missing().c_str());
  }
  return NvFatbin(opened->handle, std::move(opened->path), std::move(api));
}

llvm::Expected<std::pair<int, int>> nvFatbinVersion(const NvFatbin& library) {
  unsigned major = 0;
  unsigned minor = 0;
  nvFatbinResult result = library.api().version(&major, &minor);
  if (result != NVFATBIN_SUCCESS) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "nvFatbinVersion: %s",
                                   library.api().errorString(result));
  }
  return std::pair<int, int>(static_cast<int>(major), static_cast<int>(minor));
}

std::vector<std::string> fatbinOptionStrings() { return {"-64", "-host=linux", "-compress=false"}; }

llvm::Expected<std::string> buildFatbin(const NvFatbin& library, std::span<const FatbinInput> inputs) {
  const NvFatbin::Api& api = library.api();
  auto fail = [&](const char* call, nvFatbinResult result, const std::string& what) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "nvFatbin failed%s%s: %s: %s",
                                   what.empty() ? "" : " for ", what.c_str(), call,
                                   api.errorString(result));
  };
  std::vector<std::string> optionStrings = fatbinOptionStrings();
  std::vector<const char*> options;
  for (const std::string& o : optionStrings) options.push_back(o.c_str());
  FatbinHandle handle(api);
  nvFatbinResult result = api.create(handle.address(), options.data(), options.size());
  if (result != NVFATBIN_SUCCESS) return fail("nvFatbinCreate", result, "");
  for (const FatbinInput& input : inputs) {
    if (input.kind == FatbinInput::Kind::Cubin) {
      result = api.addCubin(handle.get(), input.bytes.data(), input.bytes.size(), input.arch.c_str(),
                            input.identifier.c_str());
      if (result != NVFATBIN_SUCCESS) return fail("nvFatbinAddCubin", result, input.identifier);
    } else {
      // PTX is text: nvFatbin takes it with its terminating NUL.
      std::string text(input.bytes);
      result = api.addPtx(handle.get(), text.c_str(), text.size() + 1, input.arch.c_str(),
                          input.identifier.c_str(), "");
      if (result != NVFATBIN_SUCCESS) return fail("nvFatbinAddPTX", result, input.identifier);
    }
  }
  size_t size = 0;
  result = api.size(handle.get(), &size);
  if (result != NVFATBIN_SUCCESS) return fail("nvFatbinSize", result, "");
  std::string out(size, '\0');
  result = api.get(handle.get(), out.data());
  if (result != NVFATBIN_SUCCESS) return fail("nvFatbinGet", result, "");
  return out;
}

}  // namespace backend
