#include "backend/testing/saxpy_module.h"

#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace backend::samples {
namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";

// The parameters of a float32[::1] argument: data, shape[0], strides[0].
void appendArray(std::vector<llvm::Type*>& params, llvm::LLVMContext& context) {
  params.push_back(llvm::PointerType::get(context, 0));
  params.push_back(llvm::Type::getInt64Ty(context));
  params.push_back(llvm::Type::getInt64Ty(context));
}

void nameArray(llvm::Function& function, unsigned first, const std::string& name) {
  function.getArg(first)->setName(name);
  function.getArg(first + 1)->setName(name + "_shape0");
  function.getArg(first + 2)->setName(name + "_stride0");
}

void markKernel(llvm::Function& function, KernelMarking marking) {
  if (marking == KernelMarking::CallingConvention) {
    function.setCallingConv(llvm::CallingConv::PTX_Kernel);
    return;
  }
  llvm::LLVMContext& context = function.getContext();
  llvm::Metadata* operands[] = {
      llvm::ValueAsMetadata::get(&function),
      llvm::MDString::get(context, "kernel"),
      llvm::ConstantAsMetadata::get(
          llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 1)),
  };
  function.getParent()
      ->getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(llvm::MDNode::get(context, operands));
}

llvm::Value* readSpecial(llvm::IRBuilder<>& builder, llvm::Intrinsic::ID id) {
  llvm::Module* module = builder.GetInsertBlock()->getModule();
  llvm::Value* value = builder.CreateCall(llvm::Intrinsic::getDeclaration(module, id));
  return builder.CreateZExt(value, builder.getInt64Ty());
}

// blockIdx.x * blockDim.x + threadIdx.x, as int64.
llvm::Value* globalIndex(llvm::IRBuilder<>& builder) {
  llvm::Value* block = readSpecial(builder, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
  llvm::Value* size = readSpecial(builder, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x);
  llvm::Value* thread = readSpecial(builder, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
  return builder.CreateAdd(builder.CreateMul(block, size, "", true, true), thread, "i0", true,
                           true);
}

llvm::Value* element(llvm::IRBuilder<>& builder, llvm::Value* base, llvm::Value* index) {
  return builder.CreateInBoundsGEP(builder.getFloatTy(), base, index);
}

}  // namespace

std::unique_ptr<llvm::Module> buildSaxpyModule(llvm::LLVMContext& context,
                                               KernelMarking marking) {
  auto module = std::make_unique<llvm::Module>("saxpy", context);
  module->setTargetTriple(kTriple);
  std::vector<llvm::Type*> params = {llvm::Type::getFloatTy(context)};
  appendArray(params, context);
  appendArray(params, context);
  appendArray(params, context);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), params, false);
  auto* function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                          std::string(kSaxpySymbol), module.get());
  function->getArg(0)->setName("a");
  nameArray(*function, 1, "x");
  nameArray(*function, 4, "y");
  nameArray(*function, 7, "out");
  markKernel(*function, marking);

  auto* entry = llvm::BasicBlock::Create(context, "entry", function);
  auto* loop = llvm::BasicBlock::Create(context, "loop", function);
  auto* exit = llvm::BasicBlock::Create(context, "exit", function);
  llvm::IRBuilder<> builder(entry);
  llvm::Value* start = globalIndex(builder);
  llvm::Value* step = builder.CreateMul(
      readSpecial(builder, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x),
      readSpecial(builder, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x), "step", true, true);
  llvm::Value* count = function->getArg(2);
  builder.CreateCondBr(builder.CreateICmpSLT(start, count), loop, exit);

  builder.SetInsertPoint(loop);
  llvm::PHINode* index = builder.CreatePHI(builder.getInt64Ty(), 2, "i");
  index->addIncoming(start, entry);
  llvm::Value* x = builder.CreateAlignedLoad(
      builder.getFloatTy(), element(builder, function->getArg(1), index), llvm::Align(4), "xi");
  llvm::Value* y = builder.CreateAlignedLoad(
      builder.getFloatTy(), element(builder, function->getArg(4), index), llvm::Align(4), "yi");
  llvm::FastMathFlags contract;
  contract.setAllowContract(true);
  builder.setFastMathFlags(contract);
  llvm::Value* sum = builder.CreateFAdd(builder.CreateFMul(function->getArg(0), x), y, "sum");
  builder.CreateAlignedStore(sum, element(builder, function->getArg(7), index), llvm::Align(4));
  llvm::Value* next = builder.CreateAdd(index, step, "next", false, true);
  index->addIncoming(next, loop);
  builder.CreateCondBr(builder.CreateICmpSLT(next, count), loop, exit);

  builder.SetInsertPoint(exit);
  builder.CreateRetVoid();
  return module;
}

std::unique_ptr<llvm::Module> buildUnaryModule(llvm::LLVMContext& context,
                                               std::string_view function) {
  auto module = std::make_unique<llvm::Module>("unary", context);
  module->setTargetTriple(kTriple);
  std::vector<llvm::Type*> params;
  appendArray(params, context);
  appendArray(params, context);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), params, false);
  auto* kernel = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                        std::string(kUnarySymbol), module.get());
  nameArray(*kernel, 0, "x");
  nameArray(*kernel, 3, "out");
  markKernel(*kernel, KernelMarking::Annotation);
  llvm::Type* f32 = llvm::Type::getFloatTy(context);
  llvm::FunctionCallee callee = module->getOrInsertFunction(
      llvm::StringRef(function.data(), function.size()), f32, f32);

  auto* entry = llvm::BasicBlock::Create(context, "entry", kernel);
  auto* body = llvm::BasicBlock::Create(context, "body", kernel);
  auto* exit = llvm::BasicBlock::Create(context, "exit", kernel);
  llvm::IRBuilder<> builder(entry);
  llvm::Value* index = globalIndex(builder);
  builder.CreateCondBr(builder.CreateICmpSLT(index, kernel->getArg(1)), body, exit);
  builder.SetInsertPoint(body);
  llvm::Value* x = builder.CreateAlignedLoad(f32, element(builder, kernel->getArg(0), index),
                                             llvm::Align(4), "xi");
  llvm::Value* result = builder.CreateCall(callee, {x}, "r");
  builder.CreateAlignedStore(result, element(builder, kernel->getArg(3), index), llvm::Align(4));
  builder.CreateBr(exit);
  builder.SetInsertPoint(exit);
  builder.CreateRetVoid();
  return module;
}

}  // namespace backend::samples
