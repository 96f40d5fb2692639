// The module layer (lowering/module_internal.h): declarations in the kernel
// ABI, kernel annotations, line tables, each instance lowered by its dialect,
// the per-kernel facts; and the module-level objects SIMT kernels share.
#include "lowering/module_internal.h"

#include "lowering/simt/load_pins.h"
#include "lowering/simt/lower_internal.h"
#include "lowering/tile/tile_lower.h"

namespace lowering {

using namespace frontend;

llvm::Type* ModuleLowering::llvmType(TypeId id) {
  const Type& t = types().get(id);
  switch (t.kind) {
    case TypeKind::None:
      return llvm::Type::getVoidTy(context_);
    case TypeKind::Bool:
    case TypeKind::Int:
    case TypeKind::Float:
      return scalarLlvmType(context_, t);
    case TypeKind::Complex: {
      // {real, imaginary}, as NumPy stores them.
      llvm::Type* part = t.bits == 64 ? llvm::Type::getFloatTy(context_) : llvm::Type::getDoubleTy(context_);
      return llvm::StructType::get(context_, {part, part});
    }
    case TypeKind::Array: {
      llvm::Type* i64 = llvm::Type::getInt64Ty(context_);
      llvm::Type* dims = llvm::ArrayType::get(i64, t.ndim);
      return llvm::StructType::get(context_, {llvm::PointerType::get(context_, 0), dims, dims});
    }
    case TypeKind::Tuple: {
      std::vector<llvm::Type*> elements;
      for (TypeId e : t.elements) elements.push_back(llvmType(e));
      return llvm::StructType::get(context_, elements);
    }
    case TypeKind::Pointer:
    case TypeKind::Record:
      // A generic pointer, as CUDA C++ sees `float*`; a record value is the
      // address of the record (numba's records in arrays are references).
      return llvm::PointerType::get(context_, 0);
    case TypeKind::Tile:
      // Tiles live in registers per thread (lowering/tile/tile_lower.cpp).
      break;
  }
  llvm_unreachable("unknown type kind");
}

llvm::Type* ModuleLowering::memoryType(TypeId id) {
  if (types().isBool(id)) return llvm::Type::getInt8Ty(context_);
  if (types().isRecord(id)) {
    return llvm::ArrayType::get(llvm::Type::getInt8Ty(context_), types().get(id).size);
  }
  return llvmType(id);
}

void ModuleLowering::declare() {
  for (size_t i = 0; i < typed_.instances.size(); ++i) {
    const FunctionInstance& inst = typed_.instances[i];
    if (typed_.module.functions[inst.function].tileHelper) {
      // Tile helpers are inlined where they are called (tile_lower.cpp).
      functions_.push_back(nullptr);
      continue;
    }
    std::vector<llvm::Type*> params;
    llvm::Type* ret;
    // Omitted arguments are folded in: no parameters.
    std::vector<TypeId> passed;
    for (size_t p = 0; p < inst.argTypes.size(); ++p) {
      if (!inst.isOmitted(p)) passed.push_back(inst.argTypes[p]);
    }
    if (inst.isKernel) {
      for (TypeId a : passed) appendKernelParams(context_, types(), a, params);
      ret = llvm::Type::getVoidTy(context_);
    } else {
      for (TypeId a : passed) params.push_back(llvmType(a));
      ret = llvmType(inst.returnType);
      // numba's Optional: {value, is None}.
      if (inst.optionalReturn) ret = llvm::StructType::get(context_, {ret, llvm::Type::getInt1Ty(context_)});
    }
    auto* type = llvm::FunctionType::get(ret, params, false);
    auto* f = llvm::Function::Create(
        type, inst.isKernel ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage,
        inst.symbol, module_.get());
    f->addFnAttr(llvm::Attribute::NoUnwind);
    const JitFunction& fn = typed_.module.functions[inst.function];
    if (inst.isKernel) {
      f->setCallingConv(llvm::CallingConv::PTX_Kernel);
      llvm::NamedMDNode* annotations = module_->getOrInsertNamedMetadata("nvvm.annotations");
      llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
      llvm::Metadata* kernel[] = {llvm::ValueAsMetadata::get(f),
                                  llvm::MDString::get(context_, "kernel"),
                                  llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, 1))};
      annotations->addOperand(llvm::MDNode::get(context_, kernel));
      if (fn.options.maxRegisters != 0) {
        llvm::Metadata* maxnreg[] = {
            llvm::ValueAsMetadata::get(f), llvm::MDString::get(context_, "maxnreg"),
            llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, fn.options.maxRegisters))};
        annotations->addOperand(llvm::MDNode::get(context_, maxnreg));
      }
    } else if (fn.options.forceinline) {
      f->addFnAttr(llvm::Attribute::AlwaysInline);
    }
    if (inst.isKernel && !inst.tile) recordArrayParams(inst, f);
    // Name the parameters after the Python ones (readable IR and PTX).
    unsigned k = 0;
    for (size_t p = 0; p < inst.argTypes.size() && p < fn.params.size(); ++p) {
      if (inst.isOmitted(p)) continue;
      if (!inst.isKernel) {
        f->getArg(k++)->setName(fn.params[p]);
        continue;
      }
      unsigned count = kernelParamCount(context_, types(), inst.argTypes[p]);
      for (unsigned j = 0; j < count; ++j) {
        f->getArg(k++)->setName(count == 1 ? fn.params[p] : fn.params[p] + "." + std::to_string(j));
      }
    }
    functions_.push_back(f);
  }
}

void ModuleLowering::recordArrayParams(const FunctionInstance& inst, llvm::Function* f) {
  llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
  llvm::Type* i64 = llvm::Type::getInt64Ty(context_);
  const llvm::DataLayout& layout = module_->getDataLayout();
  std::vector<llvm::Metadata*> arrays;
  unsigned param = 0;
  std::function<void(TypeId)> visit = [&](TypeId id) {
    const Type& t = types().get(id);
    if (t.kind == TypeKind::Array) {
      uint64_t itemsize = layout.getTypeAllocSize(memoryType(t.element));
      llvm::Metadata* fields[] = {
          llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, param)),
          llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, t.ndim)),
          llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i64, itemsize)),
          llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
              i32, t.layout == Layout::C   ? kArrayLayoutC
                   : t.layout == Layout::F ? kArrayLayoutF
                                           : kArrayLayoutAny))};
      arrays.push_back(llvm::MDNode::get(context_, fields));
    }
    if (t.kind == TypeKind::Tuple) {
      for (TypeId e : std::vector<TypeId>(t.elements)) visit(e);
      return;
    }
    param += kernelParamCount(context_, types(), id);
  };
  for (size_t p = 0; p < inst.argTypes.size(); ++p) {
    if (!inst.isOmitted(p)) visit(inst.argTypes[p]);
  }
  if (!arrays.empty()) {
    f->setMetadata(kArrayParamsMetadata, llvm::MDNode::get(context_, arrays));
  }
}

llvm::Function* ModuleLowering::powHelper(TypeId base, TypeId exponent) {
  auto key = std::make_pair(base.index, exponent.index);
  auto it = powHelpers_.find(key);
  if (it != powHelpers_.end()) return it->second;
  llvm::Type* bt = llvmType(base);
  llvm::Type* et = llvmType(exponent);
  bool isFloat = types().isFloat(base);
  bool expSigned = types().get(exponent).isSigned;
  std::string name = "pykc.pow." + types().abiCode(base) + "." + types().abiCode(exponent);
  auto* f = llvm::Function::Create(llvm::FunctionType::get(bt, {bt, et}, false),
                                   llvm::GlobalValue::InternalLinkage, name, module_.get());
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::Value* x = f->getArg(0);
  llvm::Value* n = f->getArg(1);
  llvm::IRBuilder<> b(context_);
  auto* entry = llvm::BasicBlock::Create(context_, "entry", f);
  auto* loop = llvm::BasicBlock::Create(context_, "loop", f);
  auto* done = llvm::BasicBlock::Create(context_, "done", f);
  b.SetInsertPoint(entry);
  llvm::Value* negative = expSigned ? b.CreateICmpSLT(n, llvm::ConstantInt::get(et, 0))
                                    : b.getFalse();
  llvm::Value* magnitude = expSigned ? b.CreateSelect(negative, b.CreateNeg(n), n) : n;
  llvm::Value* one = isFloat ? llvm::ConstantFP::get(bt, 1.0) : llvm::ConstantInt::get(bt, 1);
  llvm::Value* isZero = b.CreateICmpEQ(magnitude, llvm::ConstantInt::get(et, 0));
  b.CreateCondBr(isZero, done, loop);
  // Square and multiply.
  b.SetInsertPoint(loop);
  llvm::PHINode* result = b.CreatePHI(bt, 2);
  llvm::PHINode* power = b.CreatePHI(bt, 2);
  llvm::PHINode* rest = b.CreatePHI(et, 2);
  result->addIncoming(one, entry);
  power->addIncoming(x, entry);
  rest->addIncoming(magnitude, entry);
  llvm::Value* odd = b.CreateTrunc(rest, b.getInt1Ty());
  llvm::Value* times = isFloat ? b.CreateFMul(result, power) : b.CreateMul(result, power);
  llvm::Value* nextResult = b.CreateSelect(odd, times, result);
  llvm::Value* nextPower = isFloat ? b.CreateFMul(power, power) : b.CreateMul(power, power);
  llvm::Value* nextRest = b.CreateLShr(rest, llvm::ConstantInt::get(et, 1));
  result->addIncoming(nextResult, loop);
  power->addIncoming(nextPower, loop);
  rest->addIncoming(nextRest, loop);
  b.CreateCondBr(b.CreateICmpEQ(nextRest, llvm::ConstantInt::get(et, 0)), done, loop);
  b.SetInsertPoint(done);
  llvm::PHINode* value = b.CreatePHI(bt, 2);
  value->addIncoming(one, entry);
  value->addIncoming(nextResult, loop);
  llvm::Value* out = value;
  if (isFloat) {
    out = b.CreateSelect(negative, b.CreateFDiv(one, value), value);
  } else if (expSigned) {
    // numba: a negative integer exponent gives 1 for base 1, +-1 for base -1,
    // else 0.
    llvm::Value* isOne = b.CreateICmpEQ(x, one);
    llvm::Value* isMinusOne = b.CreateICmpEQ(x, llvm::ConstantInt::get(bt, -1, true));
    llvm::Value* oddExp = b.CreateTrunc(magnitude, b.getInt1Ty());
    llvm::Value* minusOneResult =
        b.CreateSelect(oddExp, llvm::ConstantInt::get(bt, -1, true), one);
    llvm::Value* negResult = b.CreateSelect(
        isOne, one, b.CreateSelect(isMinusOne, minusOneResult, llvm::ConstantInt::get(bt, 0)));
    out = b.CreateSelect(negative, negResult, value);
  }
  b.CreateRet(out);
  powHelpers_[key] = f;
  return f;
}

llvm::GlobalVariable* ModuleLowering::dynamicShared() {
  if (dynamicShared_ == nullptr) {
    auto* type = llvm::ArrayType::get(llvm::Type::getInt8Ty(context_), 0);
    dynamicShared_ = new llvm::GlobalVariable(
        *module_, type, false, llvm::GlobalValue::ExternalLinkage, nullptr, "pykc_dynamic_shared",
        nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    dynamicShared_->setAlignment(llvm::Align(16));
  }
  return dynamicShared_;
}

// The arrival counter of cuda.cg.this_grid().sync(): a global word that
// every barrier moves on by exactly 2**31 (see emitGridSync).
llvm::GlobalVariable* ModuleLowering::gridBarrier() {
  if (gridBarrier_ == nullptr) {
    llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
    gridBarrier_ = new llvm::GlobalVariable(*module_, i32, false, llvm::GlobalValue::InternalLinkage,
                                            llvm::ConstantInt::get(i32, 0), "pykc_grid_barrier",
                                            nullptr, llvm::GlobalValue::NotThreadLocal, 1);
    gridBarrier_->setAlignment(llvm::Align(4));
  }
  return gridBarrier_;
}

// The `.const` global of a module-level array literal (cuda.const.array_like,
// or the array read directly: numba freezes both), made on first use.
llvm::GlobalVariable* ModuleLowering::constArrayGlobal(uint32_t index) {
  auto it = constArrays_.find(index);
  if (it != constArrays_.end()) return it->second;
  const ConstArrayData& data = typed_.module.constArrays[index];
  const Type& et = types().get(data.element);
  llvm::Type* elementType = memoryType(data.element);
  std::vector<llvm::Constant*> values;
  for (const ConstValue& v : data.values) {
    double f = v.kind == ConstValue::Kind::Float ? v.floatValue
               : v.kind == ConstValue::Kind::Int ? static_cast<double>(v.intValue)
                                                 : (v.boolValue ? 1.0 : 0.0);
    int64_t i = v.kind == ConstValue::Kind::Float ? static_cast<int64_t>(v.floatValue)
                : v.kind == ConstValue::Kind::Int ? v.intValue
                                                  : (v.boolValue ? 1 : 0);
    if (et.kind == TypeKind::Float) {
      values.push_back(llvm::ConstantFP::get(elementType, f));
    } else if (et.kind == TypeKind::Bool) {
      values.push_back(llvm::ConstantInt::get(elementType, truthOf(v) ? 1 : 0));
    } else {
      values.push_back(llvm::ConstantInt::get(elementType, static_cast<uint64_t>(i), et.isSigned));
    }
  }
  auto* type = llvm::ArrayType::get(elementType, values.size());
  auto* g = new llvm::GlobalVariable(*module_, type, /*isConstant=*/true,
                                     llvm::GlobalValue::InternalLinkage,
                                     llvm::ConstantArray::get(type, values), "pykc_const_" + std::to_string(index),
                                     nullptr, llvm::GlobalValue::NotThreadLocal, 4);
  g->setAlignment(llvm::Align(std::max<unsigned>(types().byteSize(data.element), 4)));
  constArrays_[index] = g;
  return g;
}

llvm::GlobalVariable* ModuleLowering::errorWord() {
  if (errorWord_ == nullptr) {
    llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
    // Visible, so a launcher can find it by name (cuModuleGetGlobal).
    errorWord_ = new llvm::GlobalVariable(*module_, i32, false, llvm::GlobalValue::ExternalLinkage,
                                          llvm::ConstantInt::get(i32, 0), "pykc_error", nullptr,
                                          llvm::GlobalValue::NotThreadLocal, 1);
    errorWord_->setAlignment(llvm::Align(4));
  }
  return errorWord_;
}

llvm::Value* ModuleLowering::stringConstant(const std::string& text, llvm::IRBuilder<>& builder) {
  auto it = strings_.find(text);
  llvm::GlobalVariable* g;
  if (it != strings_.end()) {
    g = it->second;
  } else {
    llvm::Constant* init = llvm::ConstantDataArray::getString(context_, text, true);
    g = new llvm::GlobalVariable(*module_, init->getType(), true, llvm::GlobalValue::InternalLinkage,
                                 init, "pykc_str_" + std::to_string(strings_.size()), nullptr,
                                 llvm::GlobalValue::NotThreadLocal, 4);
    strings_[text] = g;
  }
  return builder.CreateAddrSpaceCast(g, builder.getPtrTy(0));
}

LoweredModule ModuleLowering::run() {
  const SourceFile* source = ast_.source();
  std::string path = source ? source->path() : std::string("<kernels>");
  module_ = std::make_unique<llvm::Module>(path, context_);
  module_->setTargetTriple(kTriple);
  module_->setDataLayout(kDataLayout);
  module_->setSourceFileName(path);
  LoweredModule result;
  bool lineInfo = options_.lineInfo;
  for (const FunctionInstance& inst : typed_.instances) {
    if (typed_.module.functions[inst.function].options.lineinfo) {
      lineInfo = true;
      result.wantsLineInfo = true;
    }
  }
  if (lineInfo) {
    di_ = std::make_unique<llvm::DIBuilder>(*module_);
    diFile_ = di_->createFile(path, "");
    di_->createCompileUnit(llvm::dwarf::DW_LANG_Python, diFile_, "pykc", /*isOptimized=*/true,
                           "", 0, "", llvm::DICompileUnit::LineTablesOnly);
    module_->addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                           llvm::DEBUG_METADATA_VERSION);
    module_->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 2);
  }
  declare();
  std::vector<std::vector<KernelInfo::Error>> errors(typed_.instances.size());
  std::vector<TileKernelShape> tileShapes(typed_.instances.size());
  for (size_t i = 0; i < typed_.instances.size(); ++i) {
    if (typed_.instances[i].tile) {
      if (functions_[i] != nullptr) {
        TileTarget target;
        if (const support::ArchInfo* arch = support::findArch(options_.arch)) {
          target.wgmma = arch->archSpecific && arch->sm == 90;
          target.maxSharedBytes = arch->maxSharedBytesPerBlock;
          target.cvtRnTf32 = arch->sm >= 90;
          target.gridDependency = arch->sm >= 90;
        }
        tileShapes[i] = lowerTileKernel(ast_, typed_, typed_.instances[i], functions_[i], target);
      }
      continue;
    }
    simt::FunctionLowering lowering(*this, typed_.instances[i], functions_[i]);
    lowering.run();
    simt::pinLoads(*functions_[i]);
    errors[i] = std::move(lowering.errors);
  }
  if (di_) di_->finalize();
  // Kernels that reach dynamic shared memory.
  for (uint32_t k = 0; k < typed_.kernelCount; ++k) {
    bool uses = false;
    bool cooperative = false;
    for (uint32_t i : reachableInstances(typed_, k)) {
      uses = uses || dynamicUsers_.count(&typed_.instances[i]) != 0;
      cooperative = cooperative || cooperativeUsers_.count(&typed_.instances[i]) != 0;
    }
    result.kernels.push_back(KernelInfo{typed_.instances[k].symbol, uses, cooperative, errors[k]});
    const TileKernelShape& shape = tileShapes[k];
    result.kernels.back().tileThreads = shape.threads;
    result.kernels.back().tileSharedBytes = shape.dynamicSharedBytes;
    result.kernels.back().tileRegisterTarget = shape.registerTarget;
    result.kernels.back().tileToleratedSpillBytes = shape.toleratedSpillBytes;
  }
  result.module = std::move(module_);
  return result;
}


LoweredModule lowerToLlvm(const frontend::Ast& ast, const frontend::TypedModule& typed,
                          llvm::LLVMContext& context, const LoweringOptions& options) {
  ModuleLowering lowering(ast, typed, context, options);
  return lowering.run();
}

}  // namespace lowering

