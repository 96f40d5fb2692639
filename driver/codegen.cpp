// The code generator (driver/codegen.h): a compile's misses lowered, emitted
// and linked on the Session's threads, and fatbins made by nvFatbin. Linked
// into libpykc and libpykc_codegen.so, never into the `pykc` executable.
#include "driver/codegen.h"

#include <cassert>
#include <span>
#include <utility>

#include "backend/cuda/nvfatbin.h"
#include "driver/codegen_internal.h"
#include "driver/thread_budget.h"
#include "support/arch.h"

namespace driver {
namespace {

// nvFatbin's pieces for `archs`, in order, their bytes viewing the
// artifacts' (which must outlive them): a cubin per `sm_XY` arch (nvFatbin's
// arch "90", "100a"), the PTX of each `compute_XY` one, each named `stem`
// (cuobjdump -lelf shows `STEM.sm_90.cubin`).
std::vector<backend::FatbinInput> fatbinInputs(const std::vector<ArchArtifacts>& archs,
                                               const std::string& stem) {
  std::vector<backend::FatbinInput> inputs;
  for (const ArchArtifacts& a : archs) {
    const support::ArchInfo* info = support::findArch(a.arch);
    assert(info != nullptr && "the driver checked every arch");
    backend::FatbinInput input;
    if (info->ptxOnly) {
      // nvFatbin wants the PTX's own target: compute_90's PTX says `.target sm_90`.
      input.kind = backend::FatbinInput::Kind::Ptx;
      input.arch = std::string(info->ptxTarget.substr(3));
      input.bytes = a.ptx;
      input.identifier = stem;
    } else {
      input.kind = backend::FatbinInput::Kind::Cubin;
      input.arch = std::string(info->name.substr(3));
      input.bytes = a.cubin;
      input.identifier = stem;
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// One arch of `request`: its linked files prepared (NVRTC for `.cu` files)
// when it links, then lowered, emitted and linked (compileForArch). Fails as
// prepareLinkInputs and compileForArch do, nvJitLink's undefined references
// and shared-memory overflows explained at their Python lines.
llvm::Expected<UnitArtifacts> compileArch(const Compilation& compilation, const CodegenRequest& request,
                                          const std::string& arch, UnitLinker& linker) {
  ArchRequest archRequest;
  archRequest.codegen = request.codegen;
  archRequest.codegen.arch = arch;
  archRequest.lowering.lineInfo = archRequest.codegen.lineInfo;
  archRequest.wantLlvm = request.wantLlvm;
  archRequest.wantLlvmOptimized = request.wantLlvmOptimized;
  archRequest.wantCubin = request.wantCubin;
  archRequest.threads = request.threads;
  archRequest.background = &linker.background();
  // The extra inputs view these bytes.
  std::vector<PreparedInput> prepared;
  if (request.wantCubin) {
    const backend::Nvrtc* nvrtc = nullptr;
    if (needsNvrtc(request.linkFiles)) {
      auto opened = linker.nvrtc();
      if (!opened) return opened.takeError();
      nvrtc = *opened;
    }
    auto inputs = prepareLinkInputs(compilation, request.linkFiles, request.link, archRequest.codegen, nvrtc);
    if (!inputs) return inputs.takeError();
    prepared = std::move(*inputs);
    for (const PreparedInput& input : prepared) {
      archRequest.extraInputs.push_back(backend::LinkInput{input.kind, input.bytes, input.name});
    }
  }
  UnitArtifacts unit;
  auto artifacts = compileForArch(compilation, archRequest, [&linker] { return linker.get(); }, unit.kernels);
  if (!artifacts) return explainLinkError(artifacts.takeError(), compilation);
  unit.arch = std::move(*artifacts);
  unit.nvJitLinkVersion = linker.version();
  return unit;
}

class LinkedCodegen final : public Codegen {
public:
  explicit LinkedCodegen(const CodegenSettings& settings) : linker_(settings) {}

  CodegenResult compile(const Compilation& compilation, const CodegenRequest& request) override {
    CodegenResult result;
    // The NVPTX target and NVRTC are set up here, before the threads, which then
    // only read them; nvJitLink loads meanwhile on a thread of its own (its first
    // link waits for it), overlapping LLVM and PTX.
    linker_.initializeTarget();
    if (request.wantCubin) {
      // The first arch that links (compute_XY arches are PTX alone).
      for (const std::string& arch : request.archs) {
        const support::ArchInfo* info = support::findArch(arch);
        if (info != nullptr && !info->ptxOnly) {
          linker_.startLoading(arch);
          break;
        }
      }
      if (needsNvrtc(request.linkFiles)) {
        auto opened = linker_.nvrtc();
        if (!opened) {
          result.failure = failureOf(opened.takeError());
          return result;
        }
      }
    }
    result.archs.resize(request.archs.size());
    parallelFor(request.archs.size(), request.threads, [&](size_t i) {
      auto built = compileArch(compilation, request, request.archs[i], linker_);
      if (!built) {
        result.archs[i].failure = failureOf(built.takeError());
        return;
      }
      if (request.compiled) request.compiled(i, *built);
      result.archs[i].unit = std::move(*built);
    });
    if (request.wantCubin) result.nvJitLinkVersion = linker_.version();
    return result;
  }

  FatbinBuild fatbin(const std::vector<ArchArtifacts>& archs, const std::string& stem) override {
    FatbinBuild out;
    auto library = linker_.fatbin();
    if (!library) {
      out.error = llvm::toString(library.takeError());
      return out;
    }
    std::vector<backend::FatbinInput> inputs = fatbinInputs(archs, stem);
    auto fatbin = backend::buildFatbin(**library, inputs);
    if (!fatbin) {
      out.error = llvm::toString(fatbin.takeError());
      return out;
    }
    out.bytes = std::move(*fatbin);
    return out;
  }

  bool prepare(const std::string& arch) override { return linker_.warmUp(arch); }

private:
  UnitLinker linker_;
};

}  // namespace

std::unique_ptr<Codegen> makeCodegen(const CodegenSettings& settings) {
  return std::make_unique<LinkedCodegen>(settings);
}

}  // namespace driver
