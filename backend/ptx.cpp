#include "backend/ptx.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CodeGen.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "backend/hoist_loads.h"
#include "backend/optimize.h"
#include "backend/options.h"
#include "backend/target.h"

namespace backend {

llvm::Expected<std::string> codegenPtx(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::SmallString<16384> text;
  llvm::raw_svector_ostream stream(text);
  // Codegen still runs on the legacy pass manager in LLVM 19.
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr,
                                  llvm::CodeGenFileType::AssemblyFile)) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the NVPTX target cannot emit PTX for %s",
                                   machine.getTargetCPU().str().c_str());
  }
  // HoistLoadsPass put the loads where they should be issued: MachineSink
  // would move some back down (hoist_loads.h).
  llvm::LLVMContext& context = module.getContext();
  llvm::OptPassGate& previousGate = context.getOptPassGate();
  SkipMachineSinking gate;
  context.setOptPassGate(gate);
  passes.run(module);
  context.setOptPassGate(previousGate);
  return std::string(text.str());
}

llvm::Expected<std::string> emitPtx(llvm::Module& module, const CodegenOptions& options) {
  auto machine = createTargetMachine(options);
  if (!machine) {
    return machine.takeError();
  }
  if (llvm::Error error = optimizeModule(module, **machine, options)) {
    return error;
  }
  return codegenPtx(module, **machine);
}

}  // namespace backend
