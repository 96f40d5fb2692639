// The CUDA libraries and the NVPTX target of the code generator, opened on
// first use (driver/codegen_internal.h).
#include <span>
#include <system_error>

#include "backend/target.h"
#include "driver/codegen_internal.h"
#include "support/arch.h"

namespace driver {

UnitLinker::~UnitLinker() {
  if (loader_.joinable()) loader_.join();
}

void UnitLinker::initializeTarget() { std::call_once(target_, backend::initializeNvptxTarget); }

bool UnitLinker::warmUp(const std::string& arch) {
  // The PTX target LLVM writes for `arch` (sm_90 for sm_100); PTX-only arches link nothing.
  const support::ArchInfo* info = support::findArch(arch);
  if (info == nullptr || info->ptxOnly) return false;
  auto loaded = get();
  if (!loaded) {
    llvm::consumeError(loaded.takeError());
    return false;
  }
  const std::string ptx = ".version 8.5\n.target " + std::string(info->ptxTarget) +
                          "\n.address_size 64\n.visible .entry pykc_prepare()\n{\n\tret;\n}\n";
  backend::LinkInput empty;  // its bytes view `ptx`
  empty.kind = backend::LinkInputKind::Ptx;
  empty.bytes = ptx;
  empty.name = "pykc-prepare";
  backend::LinkOptions options;
  options.arch = arch;
  options.verbose = false;
  auto linked = backend::linkCubin(**loaded, std::span<const backend::LinkInput>(&empty, 1), options);
  if (!linked) {
    llvm::consumeError(linked.takeError());
    return false;
  }
  return true;
}

void UnitLinker::startLoading(const std::string& arch) {
  std::call_once(loading_, [&] {
    try {
      loader_ = std::thread([this, arch] { warmUp(arch); });
    } catch (const std::system_error&) {
      // No thread to be had: the first link loads the library itself.
    }
  });
}

std::string UnitLinker::version() {
  std::lock_guard<std::mutex> lock(mutex_);
  return version_;
}

llvm::Expected<const backend::NvJitLink*> UnitLinker::get() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (library_) return &*library_;
  initializeTarget();
  auto loaded = backend::NvJitLink::load(settings_.nvJitLinkPath);
  if (!loaded) return loaded.takeError();
  auto version = backend::nvJitLinkVersion(*loaded);
  if (!version) return version.takeError();
  version_ = std::to_string(version->first) + "." + std::to_string(version->second);
  library_.emplace(std::move(*loaded));
  return &*library_;
}

llvm::Expected<const backend::Nvrtc*> UnitLinker::nvrtc() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (nvrtc_) return &*nvrtc_;
  auto loaded = backend::Nvrtc::load(settings_.nvrtcPath);
  if (!loaded) return loaded.takeError();
  nvrtc_.emplace(std::move(*loaded));
  return &*nvrtc_;
}

llvm::Expected<const backend::NvFatbin*> UnitLinker::fatbin() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (fatbin_) return &*fatbin_;
  auto loaded = backend::NvFatbin::load(settings_.nvFatbinPath);
  if (!loaded) return loaded.takeError();
  fatbin_.emplace(std::move(*loaded));
  return &*fatbin_;
}

}  // namespace driver
