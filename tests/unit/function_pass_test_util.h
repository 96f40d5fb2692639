// Runs one LLVM function pass in a test, with every analysis registered as the
// optimisation pipeline has them (tests of backend/ passes).
#pragma once

#include <llvm/IR/Function.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

#include <utility>

namespace pykc::testing {

template <typename Pass>
void runFunctionPass(llvm::Function& function, Pass pass) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::FunctionPassManager passes;
  passes.addPass(std::move(pass));
  passes.run(function, functions);
}

}  // namespace pykc::testing
