#include "backend/target.h"

#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/CodeGen.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Triple.h>

#include <array>
#include <string>

#include "backend/options.h"
#include "support/arch.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace backend {
namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";

llvm::CodeGenOptLevel codegenLevel(unsigned optLevel) {
  switch (optLevel) {
    case 0:
      return llvm::CodeGenOptLevel::None;
    case 1:
      return llvm::CodeGenOptLevel::Less;
    case 2:
      return llvm::CodeGenOptLevel::Default;
    default:
      return llvm::CodeGenOptLevel::Aggressive;
  }
}

}  // namespace

llvm::Expected<unsigned> smVersion(std::string_view arch) {
  auto target = ptxTarget(arch);
  if (!target) return target.takeError();
  return support::findArch(*target)->sm;
}

llvm::Expected<std::string> ptxTarget(std::string_view arch) {
  if (const support::ArchInfo* info = support::findArch(arch)) return std::string(info->ptxTarget);
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                 support::whyUnsupported(arch)->c_str());
}

void initializeNvptxTarget() {
  // Each of these returns early when its target is already registered.
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(
    const CodegenOptions& options) {
  auto cpu = ptxTarget(options.arch);
  if (!cpu) return cpu.takeError();
  if (options.optLevel > 3) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "optimisation level %u is not 0-3", options.optLevel);
  }
  std::string lookupError;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kTriple, lookupError);
  if (target == nullptr) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "NVPTX target not available (initializeNvptxTarget() "
                                   "not called?): %s",
                                   lookupError.c_str());
  }
  llvm::TargetOptions targetOptions;
  // Contraction follows each instruction's `contract` flag; fast math allows it
  // everywhere. SelectionDAG re-reads the fp-math options from each function's
  // attributes (optimize.cpp sets them), so these are the defaults for the rest.
  targetOptions.AllowFPOpFusion = options.fastMath || options.contractEverywhere
                                      ? llvm::FPOpFusion::Fast
                                      : llvm::FPOpFusion::Standard;
  targetOptions.UnsafeFPMath = options.fastMath;
  std::string features = "+ptx" + std::to_string(kPtxIsaVersion);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      kTriple, *cpu, features, targetOptions, std::nullopt, std::nullopt,
      codegenLevel(options.optLevel)));
  if (machine == nullptr) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot create an NVPTX target machine for %s",
                                   options.arch.c_str());
  }
  return machine;
}

}  // namespace backend
