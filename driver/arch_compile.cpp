// One arch's compile on a miss: lowering, LLVM's passes, PTX (in kernel
// partitions on the Session's threads) and nvJitLink (driver/codegen_internal.h).
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cassert>
#include <optional>

#include "backend/cuda/nvjitlink.h"
#include "backend/cuda/register_budget.h"
#include "backend/ptx.h"
#include "driver/codegen_internal.h"
#include "driver/thread_budget.h"
#include "support/arch.h"

namespace driver {

std::vector<std::vector<uint32_t>> kernelPartitions(uint32_t kernelCount) {
  uint32_t count = std::min(kernelCount, kMaxKernelPartitions);
  std::vector<std::vector<uint32_t>> groups(count);
  // Contiguous, sizes differing by at most one, the larger ones first.
  uint32_t next = 0;
  for (uint32_t p = 0; p < count; ++p) {
    uint32_t size = kernelCount / count + (p < kernelCount % count ? 1 : 0);
    for (uint32_t i = 0; i < size; ++i) groups[p].push_back(next++);
  }
  return groups;
}

bool partitionsKernels(const frontend::TypedModule& typed, const ArchRequest& request) {
  if (typed.kernelCount < 2 || request.lowering.lineInfo || request.codegen.lineInfo ||
      request.codegen.debug) {
    return false;
  }
  for (const frontend::FunctionInstance& inst : typed.instances) {
    const frontend::JitFunction& fn = typed.module.functions[inst.function];
    if (fn.options.lineinfo || fn.options.debug) return false;
  }
  return true;
}

namespace {

// What lowering and codegen made of one module (a partition or the file).
struct ModuleOutput {
  std::string llvmIr;
  std::string llvmOptimizedIr;
  std::string ptx;
  std::vector<lowering::KernelInfo> kernels;
  bool wantsLineInfo = false;
};

// Lowers `typed` in a context of its own and emits its PTX (emitPtxPart with
// `partSuffix`; empty: the whole file, emitPtx).
llvm::Expected<ModuleOutput> emitModule(const frontend::Ast& ast,
                                        const frontend::TypedModule& typed,
                                        const ArchRequest& request, std::string_view partSuffix) {
  ModuleOutput out;
  llvm::LLVMContext context;
  lowering::LoweringOptions loweringOptions = request.lowering;
  loweringOptions.arch = request.codegen.arch;
  lowering::LoweredModule lowered = lowering::lowerToLlvm(ast, typed, context, loweringOptions);
  out.kernels = lowered.kernels;
  out.wantsLineInfo = lowered.wantsLineInfo;
  if (request.wantLlvm) {
    llvm::raw_string_ostream stream(out.llvmIr);
    lowered.module->print(stream, nullptr);
  }
  backend::CodegenOptions codegen = request.codegen;
  codegen.lineInfo = codegen.lineInfo || lowered.wantsLineInfo;
  // numba.cuda kernels contract as NVVM's -fma=1 does; a module holding a tile kernel
  // keeps each operation's rounding (a file of both dialects: for both).
  codegen.contractEverywhere = std::none_of(typed.instances.begin(), typed.instances.end(),
                                            [](const frontend::FunctionInstance& i) { return i.tile; });
  auto ptx = backend::emitPtxPart(*lowered.module, codegen, partSuffix);
  if (!ptx) return ptx.takeError();
  out.ptx = std::move(*ptx);
  if (request.wantLlvmOptimized) {
    // emitPtx optimised the module in place.
    llvm::raw_string_ostream stream(out.llvmOptimizedIr);
    lowered.module->print(stream, nullptr);
  }
  return out;
}

}  // namespace

llvm::Expected<ArchArtifacts> compileForArch(const Compilation& compilation,
                                             const ArchRequest& request,
                                             const NvJitLinkSource& nvJitLink,
                                             std::vector<lowering::KernelInfo>& kernels) {
  assert(compilation.typed && "the front end ran without errors");
  const frontend::TypedModule& typed = *compilation.typed;
  ArchArtifacts out;
  out.arch = request.codegen.arch;
  std::vector<ModuleOutput> parts;
  if (partitionsKernels(typed, request)) {
    std::vector<std::vector<uint32_t>> groups = kernelPartitions(typed.kernelCount);
    std::vector<std::optional<llvm::Expected<ModuleOutput>>> results(groups.size());
    // The lowered IR output stays one module of the whole file (a `.ll`
    // that tools can read back): lowered once more, without codegen.
    ArchRequest partRequest = request;
    partRequest.wantLlvm = false;
    parallelFor(results.size(), request.threads, [&](size_t p) {
      frontend::TypedModule part = selectInstances(typed, groups[p]);
      results[p].emplace(
          emitModule(*compilation.ast, part, partRequest, "$p" + std::to_string(p)));
    });
    if (request.wantLlvm) {
      llvm::LLVMContext context;
      lowering::LoweringOptions loweringOptions = request.lowering;
      loweringOptions.arch = request.codegen.arch;
      lowering::LoweredModule lowered =
          lowering::lowerToLlvm(*compilation.ast, typed, context, loweringOptions);
      llvm::raw_string_ostream stream(out.llvmIr);
      lowered.module->print(stream, nullptr);
    }
    llvm::Error firstError = llvm::Error::success();
    for (std::optional<llvm::Expected<ModuleOutput>>& result : results) {
      if (!*result) {
        // The first part's error in kernel order (deterministic); the rest dropped.
        if (firstError) {
          llvm::consumeError(result->takeError());
        } else {
          firstError = result->takeError();
        }
        continue;
      }
      parts.push_back(std::move(**result));
    }
    if (firstError) return firstError;
  } else {
    auto whole = emitModule(*compilation.ast, typed, request, {});
    if (!whole) return whole.takeError();
    parts.push_back(std::move(*whole));
  }
  kernels.clear();
  bool lineInfo = request.codegen.lineInfo;
  std::vector<std::string> ptxParts;
  for (ModuleOutput& part : parts) {
    kernels.insert(kernels.end(), part.kernels.begin(), part.kernels.end());
    lineInfo = lineInfo || part.wantsLineInfo;
    out.llvmIr += part.llvmIr;
    out.llvmOptimizedIr += part.llvmOptimizedIr;
    ptxParts.push_back(std::move(part.ptx));
  }
  if (ptxParts.size() == 1) {
    out.ptx = std::move(ptxParts[0]);
  } else {
    auto merged = backend::mergePtx(ptxParts);
    if (!merged) return merged.takeError();
    out.ptx = std::move(*merged);
  }
  backend::CodegenOptions codegen = request.codegen;
  codegen.lineInfo = lineInfo;
  // Tile kernels' register budgets (backend/cuda/register_budget.h); PTX
  // without a cubin shows them as first asked. A --maxrregcount of the user's
  // own replaces them.
  std::vector<backend::RegisterBudget> budgets;
  for (const lowering::KernelInfo& k : kernels) {
    if (k.tileRegisterTarget == 0 || k.tileThreads == 0 || codegen.maxRegisters != 0) continue;
    budgets.push_back({k.symbol, k.tileThreads, k.tileRegisterTarget, k.tileToleratedSpillBytes});
  }
  out.ptx = backend::applyRegisterBudgets(std::move(out.ptx), budgets);
  // `compute_XY` is PTX for the driver's JIT: nothing to link.
  const support::ArchInfo* info = support::findArch(codegen.arch);
  if (!request.wantCubin || (info != nullptr && info->ptxOnly)) return out;
  auto library = nvJitLink();
  if (!library) return library.takeError();
  backend::LinkOptions link;
  link.arch = codegen.arch;
  link.maxRegisters = codegen.maxRegisters;
  link.lineInfo = codegen.lineInfo;
  link.optLevel = codegen.optLevel;
  link.verbose = true;
  // A file of several kernels: ptxas (inside nvJitLink) optimises them on up to
  // kMaxKernelPartitions threads of its own. A constant, as for the partitions:
  // the cubin's section order depends on it (docs/compile.md, "Kernel partitions").
  if (kernels.size() >= 2) link.splitCompile = kMaxKernelPartitions;
  std::vector<backend::LinkInput> inputs(1);
  inputs[0].kind = backend::LinkInputKind::Ptx;
  inputs[0].bytes = out.ptx;
  inputs[0].name = compilation.path;
  for (const backend::LinkInput& extra : request.extraInputs) {
    inputs.push_back(extra);
    if (extra.kind == backend::LinkInputKind::LtoIr) {
      link.lto = true;
      link.fastMath = codegen.fastMath;
    }
  }
  // Up to two spare threads of the budget link the policy's likely next steps.
  unsigned spare = request.threads != nullptr && !budgets.empty() ? request.threads->acquire(2) : 0;
  auto linked = backend::linkWithRegisterBudgets(**library, std::move(inputs), link, std::move(budgets),
                                                 lowering::kTileRelaxedRegisters, spare, request.background);
  if (spare != 0) request.threads->release(spare);
  if (!linked) return linked.takeError();
  out.ptx = std::move(linked->ptx);
  out.cubin = std::move(linked->cubin);
  out.resources = std::move(linked->resources);
  return out;
}

}  // namespace driver
