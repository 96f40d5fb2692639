#include "backend/cuda/nvrtc.h"

#include "backend/cuda/shared_library.h"
#include "backend/cuda/toolkit.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <llvm/Support/raw_ostream.h>

#include <cctype>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <type_traits>

// Types and prototypes only: the library is never linked, so nothing here may
// call these names directly.
#include <nvrtc.h>

#ifndef PYKC_NVRTC_PATH
#error "PYKC_NVRTC_PATH must be defined by backend/CMakeLists.txt"
#endif
#ifndef PYKC_CUDA_INCLUDE_DIR
#error "PYKC_CUDA_INCLUDE_DIR must be defined by backend/CMakeLists.txt"
#endif

namespace backend {

char NvrtcCompileError::ID = 0;
char NvrtcOptionError::ID = 0;

void NvrtcOptionError::log(llvm::raw_ostream& os) const { os << message_; }

std::error_code NvrtcOptionError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

struct Nvrtc::Api {
  decltype(&::nvrtcVersion) version = nullptr;
  decltype(&::nvrtcGetErrorString) errorString = nullptr;
  decltype(&::nvrtcCreateProgram) create = nullptr;
  decltype(&::nvrtcDestroyProgram) destroy = nullptr;
  decltype(&::nvrtcCompileProgram) compile = nullptr;
  decltype(&::nvrtcGetPTXSize) ptxSize = nullptr;
  decltype(&::nvrtcGetPTX) ptx = nullptr;
  decltype(&::nvrtcGetLTOIRSize) ltoIrSize = nullptr;
  decltype(&::nvrtcGetLTOIR) ltoIr = nullptr;
  decltype(&::nvrtcGetProgramLogSize) logSize = nullptr;
  decltype(&::nvrtcGetProgramLog) log = nullptr;
};

namespace {

std::string folderOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

// Destroys the program on every path out of compileCuda.
class ProgramHandle {
public:
  explicit ProgramHandle(const Nvrtc::Api& api) : api_(api) {}
  ProgramHandle(const ProgramHandle&) = delete;
  ProgramHandle& operator=(const ProgramHandle&) = delete;
  ~ProgramHandle() {
    if (program_ != nullptr) api_.destroy(&program_);
  }
  nvrtcProgram* address() { return &program_; }
  nvrtcProgram get() const { return program_; }

private:
  const Nvrtc::Api& api_;
  nvrtcProgram program_ = nullptr;
};

}  // namespace

void NvrtcCompileError::log(llvm::raw_ostream& os) const {
  os << "NVRTC cannot compile `" << name_ << "`";
  if (!log_.empty()) os << "\n" << log_;
}

std::error_code NvrtcCompileError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

Nvrtc::Nvrtc(void* handle, std::string path, std::unique_ptr<Api> api)
    : handle_(handle), path_(std::move(path)), api_(std::move(api)) {}

Nvrtc::Nvrtc(Nvrtc&& other) noexcept = default;
Nvrtc& Nvrtc::operator=(Nvrtc&& other) noexcept = default;
Nvrtc::~Nvrtc() = default;

std::string nvrtcIdentity(std::string_view path) {
  std::vector<std::string> candidates =
      path.empty() ? libraryCandidates(PYKC_NVRTC_PATH, "libnvrtc.so.13") : std::vector<std::string>{std::string(path)};
  std::string identity = fileIdentity(candidates, "libnvrtc.so.13");
  // The builtins library NVRTC opens from its own folder holds the device
  // headers' implementation: a replaced one changes the output too. Its name
  // carries the minor version (libnvrtc-builtins.so.13.0 in CUDA 13.0).
  std::string library = std::string(path);
  for (const std::string& candidate : candidates) {
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      library = candidate;
      break;
    }
  }
  std::string folder = folderOf(library.empty() ? std::string(PYKC_NVRTC_PATH) : library);
  std::string builtins = "libnvrtc-builtins.so.13.0";
  std::error_code error;
  // (Never throws: the error_code forms.)
  for (auto it = std::filesystem::directory_iterator(folder, error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    std::string name = it->path().filename().string();
    // The newest, whatever order the folder lists them in.
    if (name.rfind("libnvrtc-builtins.so.13.", 0) == 0 && name > builtins) builtins = name;
  }
  return identity + "; " + fileIdentity({folder + "/" + builtins}, builtins);
}

llvm::Expected<Nvrtc> Nvrtc::load(std::string_view path) {
  auto opened = openLibrary(path, PYKC_NVRTC_PATH, "libnvrtc.so.13", "NVRTC");
  if (!opened) return opened.takeError();
  auto api = std::make_unique<Api>();
  SymbolResolver resolve(opened->handle);
  resolve("nvrtcVersion", api->version);
  resolve("nvrtcGetErrorString", api->errorString);
  resolve("nvrtcCreateProgram", api->create);
  resolve("nvrtcDestroyProgram", api->destroy);
  resolve("nvrtcCompileProgram", api->compile);
  resolve("nvrtcGetPTXSize", api->ptxSize);
  resolve("nvrtcGetPTX", api->ptx);
  resolve("nvrtcGetLTOIRSize", api->ltoIrSize);
  resolve("nvrtcGetLTOIR", api->ltoIr);
  resolve("nvrtcGetProgramLogSize", api->logSize);
  resolve("nvrtcGetProgramLog", api->log);
  if (!resolve.missing().empty()) {
    dlclose(opened->handle);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "`%s` is not a CUDA 13 NVRTC (%s)", opened->path.c_str(),
                                   resolve.missing().c_str());
  }
  return Nvrtc(opened->handle, std::move(opened->path), std::move(api));
}

llvm::Expected<std::pair<int, int>> nvrtcVersion(const Nvrtc& library) {
  int major = 0;
  int minor = 0;
  nvrtcResult result = library.api().version(&major, &minor);
  if (result != NVRTC_SUCCESS) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "nvrtcVersion: %s",
                                   library.api().errorString(result));
  }
  return std::pair<int, int>(major, minor);
}

std::vector<std::string> toolkitIncludeDirs() {
  std::vector<std::string> dirs;
  std::string include = findCudaInclude(cudaRoots(), PYKC_CUDA_INCLUDE_DIR);
  if (include.empty()) return dirs;
  for (std::string dir : {include, include + "/cccl"}) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) dirs.push_back(dir);
  }
  return dirs;
}

std::vector<std::string> nvrtcOptionStrings(const NvrtcOptions& options) {
  std::vector<std::string> strings;
  std::string arch = options.arch;
  if (!options.lto && arch.rfind("sm_", 0) == 0) arch = "compute_" + arch.substr(3);
  strings.push_back("-arch=" + arch);
  // Relocatable device code: the functions stay external, for nvJitLink.
  strings.push_back("-rdc=true");
  if (options.lto) strings.push_back("-dlto");
  if (options.fastMath) strings.push_back("-use_fast_math");
  if (options.debug) {
    strings.push_back("-G");
  } else if (options.lineInfo) {
    strings.push_back("-lineinfo");
  }
  for (const std::string& dir : options.includeDirs) strings.push_back("-I" + dir);
  for (const std::string& define : options.defines) strings.push_back("-D" + define);
  strings.insert(strings.end(), options.extra.begin(), options.extra.end());
  return strings;
}

llvm::Expected<CudaCompileResult> compileCuda(const Nvrtc& library, std::string_view name,
                                              std::string_view source,
                                              const NvrtcOptions& options) {
  const Nvrtc::Api& api = library.api();
  std::string text(source);
  std::string programName(name);
  ProgramHandle program(api);
  nvrtcResult result = api.create(program.address(), text.c_str(), programName.c_str(), 0,
                                  nullptr, nullptr);
  if (result != NVRTC_SUCCESS) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "nvrtcCreateProgram failed for `%s`: %s", programName.c_str(),
                                   api.errorString(result));
  }
  // The including file's folder first, as nvcc searches it for "..." includes.
  NvrtcOptions effective = options;
  effective.includeDirs.insert(effective.includeDirs.begin(), folderOf(programName));
  std::vector<std::string> strings = nvrtcOptionStrings(effective);
  std::vector<const char*> pointers;
  for (const std::string& s : strings) pointers.push_back(s.c_str());
  nvrtcResult compiled = api.compile(program.get(), static_cast<int>(pointers.size()),
                                     pointers.data());
  CudaCompileResult out;
  size_t size = 0;
  if (api.logSize(program.get(), &size) == NVRTC_SUCCESS && size > 1) {
    out.log.resize(size);
    if (api.log(program.get(), out.log.data()) != NVRTC_SUCCESS) out.log.clear();
    while (!out.log.empty() && out.log.back() == '\0') out.log.pop_back();
  }
  if (compiled == NVRTC_ERROR_COMPILATION) {
    return llvm::make_error<NvrtcCompileError>(programName, std::move(out.log));
  }
  if (compiled == NVRTC_ERROR_INVALID_OPTION) {
    std::string message = "NVRTC refuses an option for `" + programName + "`";
    if (!out.log.empty()) message += ": " + out.log;
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return llvm::make_error<NvrtcOptionError>(std::move(message));
  }
  if (compiled != NVRTC_SUCCESS) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "NVRTC failed for `%s`: %s%s%s", programName.c_str(),
                                   api.errorString(compiled), out.log.empty() ? "" : "\n",
                                   out.log.c_str());
  }
  out.lto = options.lto;
  auto getSize = options.lto ? api.ltoIrSize : api.ptxSize;
  auto get = options.lto ? api.ltoIr : api.ptx;
  result = getSize(program.get(), &size);
  if (result == NVRTC_SUCCESS) {
    out.code.resize(size);
    result = get(program.get(), out.code.data());
  }
  if (result != NVRTC_SUCCESS) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "NVRTC output of `%s`: %s", programName.c_str(),
                                   api.errorString(result));
  }
  if (!options.lto) {
    // PTX: the size counts the terminating NUL.
    while (!out.code.empty() && out.code.back() == '\0') out.code.pop_back();
  }
  return out;
}

std::vector<NvrtcMessage> parseNvrtcLog(std::string_view log) {
  std::vector<std::string_view> lines;
  while (!log.empty()) {
    size_t nl = log.find('\n');
    lines.push_back(log.substr(0, nl));
    if (nl == std::string_view::npos) break;
    log.remove_prefix(nl + 1);
  }
  // `file(line): severity: message`; the file may contain `(`.
  auto header = [](std::string_view line, NvrtcMessage& m) {
    size_t close = line.find("): ");
    if (close == std::string_view::npos) return false;
    size_t open = line.rfind('(', close);
    if (open == std::string_view::npos || open == 0 || open + 1 == close) return false;
    uint32_t number = 0;
    for (size_t i = open + 1; i < close; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(line[i]))) return false;
      number = number * 10 + static_cast<uint32_t>(line[i] - '0');
    }
    std::string_view rest = line.substr(close + 3);
    size_t colon = rest.find(": ");
    if (colon == std::string_view::npos) return false;
    std::string_view severity = rest.substr(0, colon);
    // "warning #177-D" -> "warning".
    if (size_t hash = severity.find(" #"); hash != std::string_view::npos) {
      severity = severity.substr(0, hash);
    }
    if (severity.find("error") == std::string_view::npos &&
        severity.find("warning") == std::string_view::npos &&
        severity.find("remark") == std::string_view::npos) {
      return false;
    }
    m.file = std::string(line.substr(0, open));
    m.line = number;
    m.severity = std::string(severity);
    m.message = std::string(rest.substr(colon + 2));
    return true;
  };
  std::vector<NvrtcMessage> messages;
  for (size_t i = 0; i < lines.size(); ++i) {
    NvrtcMessage m;
    if (!header(lines[i], m)) continue;
    // Then the echoed source line and the caret under the column.
    if (i + 2 < lines.size()) {
      std::string_view caretLine = lines[i + 2];
      size_t caret = caretLine.find('^');
      bool onlySpaces = caret != std::string_view::npos &&
                        caretLine.find_first_not_of(" \t") == caret &&
                        caretLine.find_first_not_of(" \t", caret + 1) == std::string_view::npos;
      // NVRTC indents both by two spaces.
      std::string_view echoed = lines[i + 1];
      if (onlySpaces && caret >= 2 && echoed.starts_with("  ")) {
        m.sourceLine = std::string(echoed.substr(2));
        m.column = static_cast<uint32_t>(caret - 1);
        i += 2;
      }
    }
    messages.push_back(std::move(m));
  }
  return messages;
}

}  // namespace backend
