// Finds and opens libpykc_codegen.so (driver/codegen.h, openCodegenLibrary):
// what the `pykc` executable runs at its first cache miss.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "driver/codegen.h"
#include "driver/source_identity.h"

#ifndef PYKC_CODEGEN_LIBRARY_DIR
#error "PYKC_CODEGEN_LIBRARY_DIR must be defined by driver/CMakeLists.txt"
#endif

namespace driver {
namespace {

constexpr const char* kLibraryFile = "libpykc_codegen.so";

// The library's code generator, and the library itself, closed after it.
class LibraryCodegen final : public Codegen {
public:
  LibraryCodegen(void* handle, std::unique_ptr<Codegen> codegen)
      : handle_(handle), codegen_(std::move(codegen)) {}
  ~LibraryCodegen() override {
    codegen_.reset();
    ::dlclose(handle_);
  }
  LibraryCodegen(const LibraryCodegen&) = delete;
  LibraryCodegen& operator=(const LibraryCodegen&) = delete;

  CodegenResult compile(const Compilation& compilation, const CodegenRequest& request) override {
    return codegen_->compile(compilation, request);
  }
  FatbinBuild fatbin(const std::vector<ArchArtifacts>& archs, const std::string& stem) override {
    return codegen_->fatbin(archs, stem);
  }
  bool prepare(const std::string& arch) override { return codegen_->prepare(arch); }

private:
  void* handle_;
  std::unique_ptr<Codegen> codegen_;
};

llvm::Error failed(const std::string& message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", message.c_str());
}

// The folder of `path`, when it names one.
std::optional<std::string> folderOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return std::nullopt;
  return path.substr(0, slash);
}

}  // namespace

llvm::Expected<std::unique_ptr<Codegen>> openCodegenLibrary(const CodegenSettings& settings) {
  // Beside the object holding this code: bin/pykc finds ../lib/ (the
  // executable's real path: argv[0], which dladdr reports for it, may be a
  // bare name found on PATH), a library its own folder; then the dynamic
  // loader's search (LD_LIBRARY_PATH); then the build tree's lib/.
  std::vector<std::string> folders;
  std::string exe(4096, '\0');
  ssize_t length = ::readlink("/proc/self/exe", exe.data(), exe.size() - 1);
  if (length > 0) {
    exe.resize(static_cast<size_t>(length));
    if (auto folder = folderOf(exe)) folders.push_back(*folder);
  }
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&openCodegenLibrary), &info) != 0 && info.dli_fname) {
    auto folder = folderOf(info.dli_fname);
    if (folder && std::find(folders.begin(), folders.end(), *folder) == folders.end()) {
      folders.push_back(*folder);
    }
  }
  std::vector<std::string> candidates;
  for (const std::string& folder : folders) {
    candidates.push_back(folder + "/../lib/" + kLibraryFile);
    candidates.push_back(folder + "/" + kLibraryFile);
  }
  candidates.push_back(kLibraryFile);
  candidates.push_back(std::string(PYKC_CODEGEN_LIBRARY_DIR) + "/" + kLibraryFile);
  std::string failures;
  for (const std::string& candidate : candidates) {
    // RTLD_LAZY: its calls into libstdc++ are bound when first made (binding
    // them all now costs a miss about 0.5 ms; symbol versions are still checked
    // now). RTLD_NODELETE: never unmapped, so that nothing the library leaves
    // behind (its static destructors, run at exit) points into a closed library.
    void* handle = ::dlopen(candidate.c_str(), RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE);
    if (!handle) {
      const char* why = ::dlerror();
      // Not there: try the next place quietly.
      if (why && std::string(why).find("No such file") != std::string::npos) continue;
      failures += std::string("; ") + (why ? why : candidate);
      continue;
    }
    ::dlerror();
    auto entry = reinterpret_cast<CodegenEntryFunction>(::dlsym(handle, kCodegenEntry));
    Codegen* codegen = entry ? entry(PYKC_SOURCE_IDENTITY, &settings) : nullptr;
    if (codegen != nullptr) {
      return std::make_unique<LibraryCodegen>(handle, std::unique_ptr<Codegen>(codegen));
    }
    ::dlclose(handle);
    failures += "; " + candidate + " is of another pykc build";
  }
  return failed(std::string("compiling needs pykc's code generator, ") + kLibraryFile +
                ", which is not usable" +
                (failures.empty() ? std::string(" (not found beside pykc)") : failures));
}

}  // namespace driver
