#pragma once
// The NVPTX target: registration and TargetMachine creation.
#include <llvm/Support/Error.h>

#include <memory>
#include <span>
#include <string_view>

namespace llvm {
class TargetMachine;
}

namespace backend {

struct CodegenOptions;

// The PTX ISA version every module is emitted with (8.5, the newest LLVM 19
// knows; CUDA 13's nvJitLink and drivers from 555 on accept it). One version
// for all targets keeps PTX identical across hosts and lets LLVM use every
// instruction the target has.
inline constexpr unsigned kPtxIsaVersion = 85;

// The SM number of the PTX pykc writes for `arch` (support::ArchInfo::ptxTarget:
// "sm_90a" -> 90, "sm_100" -> 90, "compute_89" -> 89): what decides which PTX
// instructions codegen may use. Fails with support::whyUnsupported's message
// when `arch` is not in support::knownArchs().
llvm::Expected<unsigned> smVersion(std::string_view arch);

// The NVPTX target (LLVM's CPU name) whose PTX pykc writes for `arch`
// ("sm_100" -> "sm_90"); fails as smVersion does.
llvm::Expected<std::string> ptxTarget(std::string_view arch);

// Registers the NVPTX target, its MC layer and the pass registries. Called
// once by the driver before any compile; calling it again is harmless. Nothing
// else in pykc registers targets (no static constructors).
void initializeNvptxTarget();

// A TargetMachine for ptxTarget(options.arch) (triple nvptx64-nvidia-cuda, PTX ISA
// kPtxIsaVersion, codegen level from optLevel, fast-math target options).
// Fails if the arch is unsupported or the target was not initialized. The
// result does not refer to `options`.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(
    const CodegenOptions& options);

}  // namespace backend
