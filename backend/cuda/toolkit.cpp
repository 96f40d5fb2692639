#include "backend/cuda/toolkit.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#ifndef PYKC_CUDA_ROOT_DIR
#error "PYKC_CUDA_ROOT_DIR must be defined by backend/CMakeLists.txt"
#endif

namespace backend {
namespace {

std::string envOr(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

bool isDirectory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool isFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void addOnce(std::vector<std::string>& list, std::string item) {
  while (item.size() > 1 && item.back() == '/') item.pop_back();
  if (item.empty() || std::find(list.begin(), list.end(), item) != list.end()) return;
  list.push_back(std::move(item));
}

// The folder holding `path` after resolving links, or empty.
std::string realFolder(const char* path) {
  char real[PATH_MAX];
  if (path == nullptr || ::realpath(path, real) == nullptr) return {};
  std::string resolved(real);
  size_t slash = resolved.rfind('/');
  return slash == std::string::npos || slash == 0 ? std::string() : resolved.substr(0, slash);
}

// The folders of the running executable and of the object holding this code
// (the executable, libpykc.so or libpykc_codegen.so).
std::vector<std::string> selfFolders() {
  std::vector<std::string> folders;
  addOnce(folders, realFolder("/proc/self/exe"));
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&cudaRoots), &info) != 0) addOnce(folders, realFolder(info.dli_fname));
  return folders;
}

}  // namespace

CudaRoots cudaRoots() {
  CudaRoots roots;
  std::string home = envOr("PYKC_CUDA_HOME");
  if (home == "none") {
    roots.useBuildPaths = false;
  } else {
    for (const std::string& root : {home, envOr("CUDA_HOME"), envOr("CUDA_PATH"),
                                    std::string(PYKC_CUDA_ROOT_DIR), std::string("/usr/local/cuda")}) {
      addOnce(roots.toolkits, root);
    }
  }
  // A wheel installs pykc/bin/pykc and pykc/lib/*.so into site-packages, where
  // pip puts NVIDIA's wheels under nvidia/cu13.
  for (const std::string& folder : selfFolders()) {
    std::string wheel = folder + "/../../nvidia/cu13";
    char real[PATH_MAX];
    if (::realpath(wheel.c_str(), real) != nullptr && isDirectory(real)) addOnce(roots.wheels, real);
  }
  std::string extra = envOr("PYKC_CUDA_WHEELS");
  std::string_view dirs = extra;
  while (!dirs.empty()) {
    size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (!dir.empty() && isDirectory(dir + "/nvidia/cu13")) addOnce(roots.wheels, dir + "/nvidia/cu13");
  }
  return roots;
}

std::vector<std::string> cudaLibraryPaths(const CudaRoots& roots, const std::string& buildPath,
                                          std::string_view soname) {
  std::vector<std::string> paths;
  for (const std::string& root : roots.toolkits) {
    addOnce(paths, root + "/lib64/" + std::string(soname));
    addOnce(paths, root + "/lib/" + std::string(soname));
  }
  if (roots.useBuildPaths) addOnce(paths, buildPath);
  for (const std::string& wheel : roots.wheels) addOnce(paths, wheel + "/lib/" + std::string(soname));
  return paths;
}

std::string findLibdevice(const CudaRoots& roots, const std::string& buildPath) {
  std::vector<std::string> candidates;
  for (const std::string& root : roots.toolkits) candidates.push_back(root + "/nvvm/libdevice/libdevice.10.bc");
  if (roots.useBuildPaths) candidates.push_back(buildPath);
  for (const std::string& wheel : roots.wheels) candidates.push_back(wheel + "/nvvm/libdevice/libdevice.10.bc");
  for (const std::string& candidate : candidates) {
    if (isFile(candidate)) return candidate;
  }
  return buildPath;
}

std::string findCudaInclude(const CudaRoots& roots, const std::string& buildPath) {
  std::vector<std::string> candidates;
  for (const std::string& root : roots.toolkits) candidates.push_back(root + "/include");
  if (roots.useBuildPaths) candidates.push_back(buildPath);
  for (const std::string& wheel : roots.wheels) candidates.push_back(wheel + "/include");
  for (const std::string& candidate : candidates) {
    if (isFile(candidate + "/cuda_runtime.h")) return candidate;
  }
  return {};
}

}  // namespace backend
