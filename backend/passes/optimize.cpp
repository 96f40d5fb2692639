#include "backend/passes/optimize.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/OptimizationLevel.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <string>

#include "backend/cuda/toolkit.h"
#include "backend/passes/alias_versioning.h"
#include "backend/passes/constant_trip_loops.h"
#include "backend/passes/hoist_loads.h"
#include "backend/passes/load_pins.h"
#include "backend/options.h"
#include "backend/passes/read_loop_unroll.h"
#include "backend/passes/reciprocal_division.h"
#include "backend/target.h"
#include "lowering/array_params.h"
#include "support/arch.h"

#ifndef PYKC_LIBDEVICE_PATH
#error "PYKC_LIBDEVICE_PATH must be defined by backend/CMakeLists.txt"
#endif

namespace backend {
namespace {

constexpr llvm::StringLiteral kLibdevicePrefix = "__nv_";
constexpr llvm::StringLiteral kAnnotations = "nvvm.annotations";

llvm::Error makeError(const llvm::Twine& message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

// The functions NVPTX treats as kernels: `nvvm.annotations` entries
// `!{ptr @f, !"kernel", i32 1}`, or the ptx_kernel calling convention.
llvm::SmallPtrSet<const llvm::Function*, 8> findKernels(const llvm::Module& module) {
  llvm::SmallPtrSet<const llvm::Function*, 8> kernels;
  for (const llvm::Function& function : module) {
    if (function.getCallingConv() == llvm::CallingConv::PTX_Kernel) {
      kernels.insert(&function);
    }
  }
  const llvm::NamedMDNode* annotations = module.getNamedMetadata(kAnnotations);
  if (annotations == nullptr) {
    return kernels;
  }
  for (const llvm::MDNode* node : annotations->operands()) {
    if (node->getNumOperands() < 3) {
      continue;
    }
    auto* function = llvm::mdconst::dyn_extract_or_null<llvm::Function>(node->getOperand(0));
    if (function == nullptr) {
      continue;
    }
    // Key/value pairs follow the function.
    for (unsigned i = 1; i + 1 < node->getNumOperands(); i += 2) {
      auto* key = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(i));
      auto* value = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(i + 1));
      if (key != nullptr && value != nullptr && key->getString() == "kernel" &&
          value->isOne()) {
        kernels.insert(function);
      }
    }
  }
  return kernels;
}

bool hasAnnotation(const llvm::Module& module, const llvm::Function& function,
                   llvm::StringRef wanted) {
  const llvm::NamedMDNode* annotations = module.getNamedMetadata(kAnnotations);
  if (annotations == nullptr) {
    return false;
  }
  for (const llvm::MDNode* node : annotations->operands()) {
    if (node->getNumOperands() < 3 ||
        llvm::mdconst::dyn_extract_or_null<llvm::Function>(node->getOperand(0)) != &function) {
      continue;
    }
    for (unsigned i = 1; i + 1 < node->getNumOperands(); i += 2) {
      auto* key = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(i));
      if (key != nullptr && key->getString() == wanted) {
        return true;
      }
    }
  }
  return false;
}

// `.maxnreg N` on every kernel that does not set its own limit.
void annotateMaxRegisters(llvm::Module& module, unsigned maxRegisters) {
  llvm::LLVMContext& context = module.getContext();
  llvm::NamedMDNode* annotations = module.getOrInsertNamedMetadata(kAnnotations);
  llvm::Type* i32 = llvm::Type::getInt32Ty(context);
  // Module order, so that the metadata (and the PTX) is deterministic.
  auto kernels = findKernels(module);
  for (llvm::Function& function : module) {
    if (!kernels.contains(&function) || hasAnnotation(module, function, "maxnreg")) {
      continue;
    }
    llvm::Metadata* operands[] = {
        llvm::ValueAsMetadata::get(&function),
        llvm::MDString::get(context, "maxnreg"),
        llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, maxRegisters)),
    };
    annotations->addOperand(llvm::MDNode::get(context, operands));
  }
}

// numba's fastmath=True: every flag on the kernel author's own floating-point
// operations. Applied before libdevice is linked, whose algorithms (range
// reduction, compensated sums) must not be reassociated.
void setFastMathFlags(llvm::Module& module) {
  for (llvm::Function& function : module) {
    for (llvm::Instruction& instruction : llvm::instructions(function)) {
      if (llvm::isa<llvm::FPMathOperator>(instruction)) {
        instruction.setFast(true);
      }
    }
  }
}

// Function attributes that SelectionDAG reads per function. Set on every
// definition, libdevice's included: the inliner keeps "unsafe-fp-math" only
// where caller and callee agree, and refuses to mix denormal modes.
void setFunctionAttributes(llvm::Module& module, const CodegenOptions& options) {
  bool ftz = options.ftz || options.fastMath;
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) {
      continue;
    }
    function.addFnAttr("denormal-fp-math-f32",
                       ftz ? "preserve-sign,preserve-sign" : "ieee,ieee");
    function.addFnAttr("unsafe-fp-math", options.fastMath ? "true" : "false");
  }
}

// The string a reflect call asks about, or an empty optional.
std::optional<llvm::StringRef> reflectName(const llvm::CallBase& call) {
  if (call.arg_size() != 1) {
    return std::nullopt;
  }
  const llvm::Value* argument = call.getArgOperand(0)->stripPointerCasts();
  const auto* global = llvm::dyn_cast<llvm::GlobalVariable>(argument);
  if (global == nullptr || !global->hasInitializer()) {
    return std::nullopt;
  }
  const auto* data = llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer());
  if (data == nullptr || !data->isCString()) {
    return std::nullopt;
  }
  return data->getAsCString();
}

// Makes every compile unit emit only `.file`/`.loc` directives, as nvcc's
// --lineinfo PTX has them: with any DWARF section in the PTX (line tables
// included), ptxas refuses to optimise ("Optimized debugging not supported").
void useDebugDirectivesOnly(llvm::Module& module) {
  llvm::DebugInfoFinder finder;
  finder.processModule(module);
  llvm::DenseMap<llvm::DICompileUnit*, llvm::DICompileUnit*> replacements;
  for (llvm::DICompileUnit* unit : finder.compile_units()) {
    if (unit->getEmissionKind() != llvm::DICompileUnit::FullDebug &&
        unit->getEmissionKind() != llvm::DICompileUnit::LineTablesOnly) {
      continue;
    }
    replacements[unit] = llvm::DICompileUnit::getDistinct(
        module.getContext(), unit->getSourceLanguage(), unit->getFile(), unit->getProducer(),
        unit->isOptimized(), unit->getFlags(), unit->getRuntimeVersion(),
        unit->getSplitDebugFilename(), llvm::DICompileUnit::DebugDirectivesOnly,
        unit->getEnumTypes(), unit->getRetainedTypes(), unit->getGlobalVariables(),
        unit->getImportedEntities(), unit->getMacros(), unit->getDWOId(),
        unit->getSplitDebugInlining(), unit->getDebugInfoForProfiling(),
        unit->getNameTableKind(), unit->getRangesBaseAddress(), unit->getSysRoot(),
        unit->getSDK());
  }
  if (replacements.empty()) {
    return;
  }
  for (llvm::DISubprogram* program : finder.subprograms()) {
    if (auto found = replacements.find(program->getUnit()); found != replacements.end()) {
      program->replaceUnit(found->second);
    }
  }
  if (llvm::NamedMDNode* units = module.getNamedMetadata("llvm.dbg.cu")) {
    for (unsigned i = 0; i < units->getNumOperands(); ++i) {
      auto* unit = llvm::dyn_cast<llvm::DICompileUnit>(units->getOperand(i));
      if (auto found = replacements.find(unit); found != replacements.end()) {
        units->setOperand(i, found->second);
      }
    }
  }
}

void applyDebugInfoOptions(llvm::Module& module, const CodegenOptions& options) {
  if (options.debug) {
    return;
  }
  if (options.lineInfo) {
    llvm::stripNonLineTableDebugInfo(module);
    useDebugDirectivesOnly(module);
  } else {
    llvm::StripDebugInfo(module);
  }
}

llvm::OptimizationLevel passLevel(unsigned optLevel) {
  switch (optLevel) {
    case 0:
      return llvm::OptimizationLevel::O0;
    case 1:
      return llvm::OptimizationLevel::O1;
    case 2:
      return llvm::OptimizationLevel::O2;
    default:
      return llvm::OptimizationLevel::O3;
  }
}

// GPUs whose float64 runs at half the float32 rate (support/arch.h): where
// ReciprocalDivisionPass pays.
bool fullRateFloat64(std::string_view arch) {
  const support::ArchInfo* info = support::findArch(arch);
  return info != nullptr && info->fullRateFloat64;
}

void runPipeline(llvm::Module& module, llvm::TargetMachine& machine, unsigned optLevel,
                 bool aliasVersioning, bool reciprocalDivision) {
  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager cgsccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses, moduleAnalyses);
  llvm::OptimizationLevel level = passLevel(optLevel);
  // After inlining (accesses inside device functions are the kernel's), before
  // the loop passes of the optimisation pipeline (which then see the no-alias
  // body). At -O0 it only removes lowering's record.
  builder.registerOptimizerEarlyEPCallback(
      [aliasVersioning](llvm::ModulePassManager& passes, llvm::OptimizationLevel level) {
        bool enabled = aliasVersioning && level != llvm::OptimizationLevel::O0;
        passes.addPass(llvm::createModuleToFunctionPassAdaptor(AliasVersioningPass(enabled)));
      });
  // After each InstCombine of the simplification pipeline: the first run is
  // before the loop passes (LoopFullUnrollPass reads the trip count it gives).
  builder.registerPeepholeEPCallback(
      [](llvm::FunctionPassManager& passes, llvm::OptimizationLevel level) {
        if (level != llvm::OptimizationLevel::O0) passes.addPass(ConstantTripLoopsPass());
      });
  // Before LoopUnrollPass, after inlining (libdevice bodies count towards a
  // loop's size).
  builder.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager& passes, llvm::OptimizationLevel) {
        passes.addPass(ReadLoopUnrollPass());
      });
  // Last, so that no later IR pass reorders the loads again; not at -O0
  // (debugging), where the source order is kept.
  builder.registerOptimizerLastEPCallback(
      [reciprocalDivision](llvm::ModulePassManager& passes, llvm::OptimizationLevel level) {
        passes.addPass(llvm::createModuleToFunctionPassAdaptor(RemoveLoadPinsPass()));
        if (level == llvm::OptimizationLevel::O0) return;
        if (reciprocalDivision) passes.addPass(llvm::createModuleToFunctionPassAdaptor(ReciprocalDivisionPass()));
        passes.addPass(llvm::createModuleToFunctionPassAdaptor(HoistLoadsPass()));
      });
  llvm::ModulePassManager passes = level == llvm::OptimizationLevel::O0
                                       ? builder.buildO0DefaultPipeline(level)
                                       : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, moduleAnalyses);
}

}  // namespace

llvm::Expected<unsigned> linkLibdevice(llvm::Module& module, std::string_view path) {
  unsigned declared = 0;
  for (const llvm::Function& function : module) {
    if (function.isDeclaration() && function.getName().starts_with(kLibdevicePrefix)) {
      ++declared;
    }
  }
  if (declared == 0) {
    return 0;
  }
  std::string pathText(path);
  auto buffer = llvm::MemoryBuffer::getFile(pathText, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    return makeError("cannot read libdevice `" + pathText + "`: " + buffer.getError().message());
  }
  // The module owns the buffer; bodies are parsed when the linker asks for them.
  auto library = llvm::getOwningLazyBitcodeModule(std::move(*buffer), module.getContext());
  if (!library) {
    return llvm::joinErrors(makeError("cannot parse libdevice `" + pathText + "`"),
                            library.takeError());
  }
  // libdevice says nvptx64-nvidia-gpulibs and an older data layout; the
  // linker would warn about both.
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());
  for (const llvm::Function& function : module) {
    if (function.isDeclaration() && function.getName().starts_with(kLibdevicePrefix)) {
      const llvm::Function* definition = (*library)->getFunction(function.getName());
      if (definition == nullptr) {
        return makeError("libdevice `" + pathText + "` has no function `" +
                         function.getName() + "`");
      }
    }
  }
  if (llvm::Linker::linkModules(module, std::move(*library), llvm::Linker::LinkOnlyNeeded)) {
    return makeError("cannot link libdevice `" + pathText + "` into the module");
  }
  return declared;
}

llvm::Expected<unsigned> resolveNvvmReflect(llvm::Module& module,
                                            const CodegenOptions& options) {
  auto sm = smVersion(options.arch);
  if (!sm) {
    return sm.takeError();
  }
  auto valueOf = [&](llvm::StringRef name) -> unsigned {
    if (name == "__CUDA_FTZ") {
      return options.ftz || options.fastMath ? 1 : 0;
    }
    if (name == "__CUDA_PREC_DIV" || name == "__CUDA_PREC_SQRT") {
      return options.fastMath ? 0 : 1;
    }
    if (name == "__CUDA_ARCH") {
      return *sm * 10;
    }
    return 0;
  };
  llvm::Function* reflectFunctions[] = {
      module.getFunction("__nvvm_reflect"),
      module.getFunction(llvm::Intrinsic::getBaseName(llvm::Intrinsic::nvvm_reflect)),
  };
  unsigned replaced = 0;
  for (llvm::Function* reflect : reflectFunctions) {
    if (reflect == nullptr) {
      continue;
    }
    llvm::SmallVector<llvm::CallBase*, 16> calls;
    for (llvm::User* user : reflect->users()) {
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(user);
          call != nullptr && call->getCalledFunction() == reflect) {
        calls.push_back(call);
      }
    }
    for (llvm::CallBase* call : calls) {
      std::optional<llvm::StringRef> name = reflectName(*call);
      if (!name) {
        return makeError("`" + reflect->getName() +
                         "` called with something other than a constant string");
      }
      call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), valueOf(*name)));
      call->eraseFromParent();
      ++replaced;
    }
    if (reflect->use_empty()) {
      reflect->eraseFromParent();
    }
  }
  return replaced;
}

llvm::Error optimizeModule(llvm::Module& module, llvm::TargetMachine& machine,
                           const CodegenOptions& options) {
  module.setTargetTriple(machine.getTargetTriple().str());
  module.setDataLayout(machine.createDataLayout());
  {
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    if (llvm::verifyModule(module, &stream)) {
      return makeError("invalid LLVM module `" + module.getModuleIdentifier() +
                       "` (a pykc bug):\n" + problems);
    }
  }
  if (options.fastMath) {
    setFastMathFlags(module);
  }
  std::string libdevicePath = options.libdevicePath.empty()
                                  ? findLibdevice(cudaRoots(), PYKC_LIBDEVICE_PATH)
                                  : options.libdevicePath;
  if (auto linked = linkLibdevice(module, libdevicePath); !linked) {
    return linked.takeError();
  }
  if (auto resolved = resolveNvvmReflect(module, options); !resolved) {
    return resolved.takeError();
  }
  setFunctionAttributes(module, options);
  if (options.maxRegisters != 0) {
    annotateMaxRegisters(module, options.maxRegisters);
  }
  applyDebugInfoOptions(module, options);
  auto kernels = findKernels(module);
  llvm::internalizeModule(module, [&](const llvm::GlobalValue& value) {
    const auto* function = llvm::dyn_cast<llvm::Function>(&value);
    // `pykc_error` (debug=True kernels) stays visible: launchers read it by name.
    return (function != nullptr && kernels.contains(function)) || value.getName() == "pykc_error";
  });
  runPipeline(module, machine, options.optLevel, options.aliasVersioning,
              !options.fastMath && fullRateFloat64(options.arch));
  // Where no pipeline removed lowering's record (it means nothing to codegen).
  for (llvm::Function& function : module) {
    function.setMetadata(lowering::kArrayParamsMetadata, nullptr);
  }
  return llvm::Error::success();
}

}  // namespace backend
