#include "backend/cuda/shared_library.h"

#include "backend/cuda/no_cuda_driver.h"
#include "backend/cuda/toolkit.h"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>

namespace backend {

std::vector<std::string> libraryCandidates(const std::string& buildPath, std::string_view soname) {
  std::vector<std::string> candidates = cudaLibraryPaths(cudaRoots(), buildPath, soname);
  if (const char* env = std::getenv("LD_LIBRARY_PATH")) {
    std::string_view dirs(env);
    while (!dirs.empty()) {
      size_t colon = dirs.find(':');
      std::string_view dir = dirs.substr(0, colon);
      if (!dir.empty()) candidates.push_back(std::string(dir) + "/" + std::string(soname));
      if (colon == std::string_view::npos) break;
      dirs.remove_prefix(colon + 1);
    }
  }
  for (const char* dir : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
                          "/usr/lib64", "/lib", "/usr/lib", "/usr/local/cuda/lib64"}) {
    candidates.push_back(std::string(dir) + "/" + std::string(soname));
  }
  return candidates;
}

std::string fileIdentity(const std::vector<std::string>& candidates, std::string_view soname) {
  for (const std::string& candidate : candidates) {
    struct stat st {};
    if (::stat(candidate.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    char real[PATH_MAX];
    std::string resolved = ::realpath(candidate.c_str(), real) != nullptr ? real : candidate;
    long long mtime = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL +
                      static_cast<long long>(st.st_mtim.tv_nsec);
    return resolved + " " + std::to_string(static_cast<long long>(st.st_size)) + " " +
           std::to_string(mtime);
  }
  return std::string(soname) + " (not found)";
}

llvm::Expected<OpenedLibrary> openLibrary(std::string_view path, const std::string& buildPath,
                                          std::string_view soname, std::string_view what) {
  // A default load tries the toolkits, the build's path and NVIDIA's wheels
  // (backend/cuda/toolkit.h), then the bare soname (the dynamic loader's search);
  // a missing file among the first is not worth a line of the error.
  std::vector<std::string> candidates;
  if (!path.empty()) {
    candidates.emplace_back(path);
  } else {
    candidates = cudaLibraryPaths(cudaRoots(), buildPath, soname);
    candidates.emplace_back(soname);
  }
  std::string failures;
  for (const std::string& candidate : candidates) {
    if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) {
      OpenedLibrary opened{handle, candidate, {}};
      if (!cudaDriverVisible()) {
        if (llvm::Error error = hideCudaDriver(handle, what)) {
          opened.driverNote = llvm::toString(std::move(error));
        }
      }
      return opened;
    }
    const char* why = dlerror();
    bool quiet = path.empty() && candidate != soname && why != nullptr &&
                 std::string_view(why).find("No such file") != std::string_view::npos;
    if (quiet) continue;
    failures += "\n  ";
    failures += why != nullptr ? why : candidate;
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot load %s:%s",
                                 std::string(what).c_str(), failures.c_str());
}

void* SymbolResolver::find(const char* name) {
  if (!missing_.empty()) return nullptr;
  // dlerror() is per thread; clear it so that a null symbol is told apart.
  dlerror();
  void* symbol = dlsym(handle_, name);
  if (symbol == nullptr) {
    const char* why = dlerror();
    missing_ = std::string(name) + ": " + (why != nullptr ? why : "null symbol");
  }
  return symbol;
}

}  // namespace backend
