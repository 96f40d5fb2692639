#include "backend/cuda/nvjitlink.h"

#include "backend/cuda/shared_library.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <llvm/Support/raw_ostream.h>

#include <array>
#include <climits>
#include <cstdlib>
#include <type_traits>

// Types and prototypes only: the library is never linked, so nothing here may
// call these names directly.
#define NVJITLINK_NO_INLINE
#include <nvJitLink.h>

#ifndef PYKC_NVJITLINK_PATH
#error "PYKC_NVJITLINK_PATH must be defined by backend/CMakeLists.txt"
#endif

namespace backend {

char NvJitLinkError::ID = 0;

// The versioned entry points of the CUDA 13.0 API (what nvJitLink.h's inline
// wrappers call), so that a newer library still gives the 13.0 behaviour.
struct NvJitLink::Api {
  decltype(&__nvJitLinkCreate_13_0) create = nullptr;
  decltype(&__nvJitLinkDestroy_13_0) destroy = nullptr;
  decltype(&__nvJitLinkAddData_13_0) addData = nullptr;
  decltype(&__nvJitLinkComplete_13_0) complete = nullptr;
  decltype(&__nvJitLinkGetLinkedCubinSize_13_0) getLinkedCubinSize = nullptr;
  decltype(&__nvJitLinkGetLinkedCubin_13_0) getLinkedCubin = nullptr;
  decltype(&__nvJitLinkGetErrorLogSize_13_0) getErrorLogSize = nullptr;
  decltype(&__nvJitLinkGetErrorLog_13_0) getErrorLog = nullptr;
  decltype(&__nvJitLinkGetInfoLogSize_13_0) getInfoLogSize = nullptr;
  decltype(&__nvJitLinkGetInfoLog_13_0) getInfoLog = nullptr;
  decltype(&::nvJitLinkVersion) version = nullptr;
};

namespace {

constexpr std::array<const char*, 19> kResultNames = {
    "NVJITLINK_SUCCESS",
    "NVJITLINK_ERROR_UNRECOGNIZED_OPTION",
    "NVJITLINK_ERROR_MISSING_ARCH",
    "NVJITLINK_ERROR_INVALID_INPUT",
    "NVJITLINK_ERROR_PTX_COMPILE",
    "NVJITLINK_ERROR_NVVM_COMPILE",
    "NVJITLINK_ERROR_INTERNAL",
    "NVJITLINK_ERROR_THREADPOOL",
    "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
    "NVJITLINK_ERROR_FINALIZE",
    "NVJITLINK_ERROR_NULL_INPUT",
    "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
    "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE",
    "NVJITLINK_ERROR_ARCH_MISMATCH",
    "NVJITLINK_ERROR_OUTDATED_LIBRARY",
    "NVJITLINK_ERROR_MISSING_FATBIN",
    "NVJITLINK_ERROR_UNRECOGNIZED_ARCH",
    "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
    "NVJITLINK_ERROR_LTO_NOT_ENABLED",
};

std::string resultName(int result) {
  if (result >= 0 && static_cast<size_t>(result) < kResultNames.size()) {
    return kResultNames[result];
  }
  return "nvJitLink result " + std::to_string(result);
}

nvJitLinkInputType inputType(LinkInputKind kind) {
  switch (kind) {
    case LinkInputKind::Ptx:
      return NVJITLINK_INPUT_PTX;
    case LinkInputKind::Cubin:
      return NVJITLINK_INPUT_CUBIN;
    case LinkInputKind::LtoIr:
      return NVJITLINK_INPUT_LTOIR;
    case LinkInputKind::Fatbin:
      return NVJITLINK_INPUT_FATBIN;
    case LinkInputKind::Object:
      return NVJITLINK_INPUT_OBJECT;
    case LinkInputKind::Library:
      return NVJITLINK_INPUT_LIBRARY;
  }
  return NVJITLINK_INPUT_ANY;
}

// Destroys the nvJitLink handle on every path out of linkCubin.
class LinkHandle {
public:
  explicit LinkHandle(const NvJitLink::Api& api) : api_(api) {}
  LinkHandle(const LinkHandle&) = delete;
  LinkHandle& operator=(const LinkHandle&) = delete;
  ~LinkHandle() {
    if (handle_ != nullptr) {
      api_.destroy(&handle_);
    }
  }
  nvJitLinkHandle* address() { return &handle_; }
  nvJitLinkHandle get() const { return handle_; }

private:
  const NvJitLink::Api& api_;
  nvJitLinkHandle handle_ = nullptr;
};

std::string readLog(nvJitLinkHandle handle,
                    nvJitLinkResult (*getSize)(nvJitLinkHandle, size_t*),
                    nvJitLinkResult (*get)(nvJitLinkHandle, char*)) {
  size_t size = 0;
  if (handle == nullptr || getSize(handle, &size) != NVJITLINK_SUCCESS || size == 0) {
    return {};
  }
  std::string log(size, '\0');
  if (get(handle, log.data()) != NVJITLINK_SUCCESS) {
    return {};
  }
  // The size counts the terminating NUL.
  while (!log.empty() && log.back() == '\0') {
    log.pop_back();
  }
  return log;
}

}  // namespace

void NvJitLinkError::log(llvm::raw_ostream& os) const {
  os << "nvJitLink failed for " << arch_ << ": " << call_ << ": " << resultName(result_);
  if (!errorLog_.empty()) {
    os << "\n" << errorLog_;
  }
}

std::error_code NvJitLinkError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

NvJitLink::NvJitLink(void* handle, std::string path, std::unique_ptr<Api> api)
    : handle_(handle), path_(std::move(path)), api_(std::move(api)) {}

NvJitLink::NvJitLink(NvJitLink&& other) noexcept = default;
NvJitLink& NvJitLink::operator=(NvJitLink&& other) noexcept = default;
NvJitLink::~NvJitLink() = default;

std::string nvJitLinkIdentity(std::string_view path) {
  if (!path.empty()) return fileIdentity({std::string(path)}, "libnvJitLink.so.13");
  // The candidates load() tries, in its order; the bare soname is looked up
  // as the dynamic loader would (LD_LIBRARY_PATH, then the default folders).
  return fileIdentity(libraryCandidates(PYKC_NVJITLINK_PATH, "libnvJitLink.so.13"),
                      "libnvJitLink.so.13");
}

llvm::Expected<NvJitLink> NvJitLink::load(std::string_view path) {
  auto opened = openLibrary(path, PYKC_NVJITLINK_PATH, "libnvJitLink.so.13", "nvJitLink");
  if (!opened) return opened.takeError();
  auto api = std::make_unique<Api>();
  SymbolResolver resolve(opened->handle);
  resolve("__nvJitLinkCreate_13_0", api->create);
  resolve("__nvJitLinkDestroy_13_0", api->destroy);
  resolve("__nvJitLinkAddData_13_0", api->addData);
  resolve("__nvJitLinkComplete_13_0", api->complete);
  resolve("__nvJitLinkGetLinkedCubinSize_13_0", api->getLinkedCubinSize);
  resolve("__nvJitLinkGetLinkedCubin_13_0", api->getLinkedCubin);
  resolve("__nvJitLinkGetErrorLogSize_13_0", api->getErrorLogSize);
  resolve("__nvJitLinkGetErrorLog_13_0", api->getErrorLog);
  resolve("__nvJitLinkGetInfoLogSize_13_0", api->getInfoLogSize);
  resolve("__nvJitLinkGetInfoLog_13_0", api->getInfoLog);
  resolve("nvJitLinkVersion", api->version);
  if (!resolve.missing().empty()) {
    dlclose(opened->handle);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "`%s` is not a CUDA 13 nvJitLink (%s)", opened->path.c_str(),
                                   resolve.missing().c_str());
  }
  return NvJitLink(opened->handle, std::move(opened->path), std::move(api));
}

llvm::Expected<std::pair<int, int>> nvJitLinkVersion(const NvJitLink& library) {
  unsigned major = 0;
  unsigned minor = 0;
  nvJitLinkResult result = library.api().version(&major, &minor);
  if (result != NVJITLINK_SUCCESS) {
    return llvm::make_error<NvJitLinkError>("any", "nvJitLinkVersion", result, "");
  }
  return std::pair<int, int>(static_cast<int>(major), static_cast<int>(minor));
}

std::vector<std::string> linkOptionStrings(const LinkOptions& options) {
  std::vector<std::string> strings;
  strings.push_back("-arch=" + options.arch);
  // ptxas refuses -g with optimisation ("Optimized debugging not supported").
  strings.push_back(options.optLevel == 0 || options.debug ? "-O0" : "-O3");
  if (options.maxRegisters != 0) {
    strings.push_back("-maxrregcount=" + std::to_string(options.maxRegisters));
  }
  if (options.debug) {
    strings.push_back("-g");
  } else if (options.lineInfo) {
    strings.push_back("-lineinfo");
  }
  if (options.verbose) {
    strings.push_back("-verbose");
  }
  if (options.splitCompile > 1) {
    // nvJitLink's own -split-compile is for LTO only (the cubin is unchanged).
    strings.push_back("-Xptxas=--split-compile=" + std::to_string(options.splitCompile));
  }
  if (options.lto) {
    strings.push_back("-lto");
    if (options.fastMath) {
      strings.insert(strings.end(), {"-ftz=1", "-prec-div=0", "-prec-sqrt=0", "-fma=1"});
    }
  }
  return strings;
}

llvm::Expected<LinkResult> linkCubin(const NvJitLink& library,
                                     std::span<const LinkInput> inputs,
                                     const LinkOptions& options) {
  const NvJitLink::Api& api = library.api();
  std::vector<std::string> optionStrings = linkOptionStrings(options);
  std::vector<const char*> optionPointers;
  optionPointers.reserve(optionStrings.size());
  for (const std::string& option : optionStrings) {
    optionPointers.push_back(option.c_str());
  }
  LinkHandle handle(api);
  auto fail = [&](const char* call, nvJitLinkResult result) {
    return llvm::make_error<NvJitLinkError>(
        options.arch, call, result, readLog(handle.get(), api.getErrorLogSize, api.getErrorLog));
  };
  nvJitLinkResult result = api.create(handle.address(), static_cast<uint32_t>(optionPointers.size()),
                                      optionPointers.data());
  if (result != NVJITLINK_SUCCESS) {
    return fail("nvJitLinkCreate", result);
  }
  for (const LinkInput& input : inputs) {
    const char* name = input.name.empty() ? nullptr : input.name.c_str();
    if (input.kind == LinkInputKind::Ptx &&
        (input.bytes.empty() || input.bytes.back() != '\0')) {
      // nvJitLink reads PTX up to its NUL whatever size it is given.
      std::string terminated(input.bytes);
      result = api.addData(handle.get(), inputType(input.kind), terminated.c_str(),
                           terminated.size() + 1, name);
    } else {
      result = api.addData(handle.get(), inputType(input.kind), input.bytes.data(),
                           input.bytes.size(), name);
    }
    if (result != NVJITLINK_SUCCESS) {
      return fail("nvJitLinkAddData", result);
    }
  }
  result = api.complete(handle.get());
  if (result != NVJITLINK_SUCCESS) {
    return fail("nvJitLinkComplete", result);
  }
  LinkResult linked;
  size_t size = 0;
  result = api.getLinkedCubinSize(handle.get(), &size);
  if (result != NVJITLINK_SUCCESS) {
    return fail("nvJitLinkGetLinkedCubinSize", result);
  }
  linked.cubin.resize(size);
  result = api.getLinkedCubin(handle.get(), linked.cubin.data());
  if (result != NVJITLINK_SUCCESS) {
    return fail("nvJitLinkGetLinkedCubin", result);
  }
  linked.infoLog = readLog(handle.get(), api.getInfoLogSize, api.getInfoLog);
  linked.errorLog = readLog(handle.get(), api.getErrorLogSize, api.getErrorLog);
  return linked;
}

}  // namespace backend
