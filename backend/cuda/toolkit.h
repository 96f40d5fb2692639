#pragma once
// Where the CUDA pieces pykc opens at run time live (nvJitLink, NVRTC,
// nvFatbin, libdevice, the CUDA headers for NVRTC): a CUDA toolkit, else
// NVIDIA's pip wheels (`nvidia-nvjitlink`, `nvidia-cuda-nvrtc`,
// `nvidia-nvfatbin`, `nvidia-nvvm`) installed beside pykc's Python package.
// Nothing here opens a library; every answer is a list of paths to try, in
// order, so that a cache key can name the file a load would open.

#include <string>
#include <string_view>
#include <vector>

namespace backend {

// The roots to search, in order.
struct CudaRoots {
  // CUDA toolkits: $PYKC_CUDA_HOME, $CUDA_HOME, $CUDA_PATH, then the build's
  // toolkit (PYKC_CUDA_ROOT) and /usr/local/cuda, each once. PYKC_CUDA_HOME=none
  // leaves them all out (NVIDIA's wheels only, then the dynamic loader).
  std::vector<std::string> toolkits;
  // `nvidia/cu13` folders of NVIDIA's wheels: beside the pykc package holding
  // this code (site-packages/pykc/{bin,lib}/ -> site-packages/nvidia/cu13), then
  // $PYKC_CUDA_WHEELS (':'-separated site-packages folders). Only folders that exist.
  std::vector<std::string> wheels;
  // False when PYKC_CUDA_HOME=none: the build-time paths are toolkit paths too.
  bool useBuildPaths = true;
};

// Reads the environment and the location of the running executable or library
// (/proc/self/exe, dladdr) each time; never fails.
CudaRoots cudaRoots();

// `soname` in every root (toolkits' lib64/ and lib/, then `buildPath` unless
// PYKC_CUDA_HOME=none, then the wheels' lib/), each once, whether or not the
// file exists: the explicit paths a default load tries before the dynamic
// loader's own search.
std::vector<std::string> cudaLibraryPaths(const CudaRoots& roots, const std::string& buildPath,
                                          std::string_view soname);

// libdevice.10.bc: the first that exists of the toolkits' nvvm/libdevice/, the
// build-time `buildPath` (unless PYKC_CUDA_HOME=none) and the wheels'
// nvvm/libdevice/; `buildPath` when none does (the error then names it).
std::string findLibdevice(const CudaRoots& roots, const std::string& buildPath);

// The CUDA include folder for NVRTC's device headers: the first toolkit's
// include/ holding cuda_runtime.h, else `buildPath` (unless PYKC_CUDA_HOME=none),
// else a wheel's include/ holding it; empty when there is none.
std::string findCudaInclude(const CudaRoots& roots, const std::string& buildPath);

}  // namespace backend
