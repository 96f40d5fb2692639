// Kernel set-up and the entry point: threads and layouts, types, conversions, the shared-memory scratch buffer.
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

void TileLowering::setTarget(const TileTarget& target) {
  allowWgmma_ = target.wgmma;
  cvtRnTf32_ = target.cvtRnTf32;
  gridDependency_ = target.gridDependency;
  maxShared_ = target.maxSharedBytes;
}

uint32_t TileLowering::run() {
  threads_ = chooseThreads();
  wgmma_ = allowWgmma_ && threads_ == 256 && hasProducts(*inst_);
  // Two CTAs per SM for tensor-core kernels whose accumulators fit in 64
  // registers a thread (128 registers in all); bigger ones get the SM alone,
  // and so do kernels chaining several products (flash attention: S = Q K^T,
  // the softmax, then P V: two accumulators and the softmax state are live).
  twoCtas_ = threads_ == 256 && productSites(*inst_) <= 1;
  for (TypeId t : inst_->exprTypes) {
    if (!t.valid() || !types_.isTile(t)) continue;
    if (auto l = mmaLayoutOf(t); l && l->slots > 64) twoCtas_ = false;
  }
  maxVec_ = chooseMaxVec();
  auto* entry = llvm::BasicBlock::Create(context_, "entry", function_);
  b_.SetInsertPoint(entry);
  tid_ = b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x));
  // Parameters: arrays as pointer + shapes + strides, scalars by value.
  KernelParamReader reader(function_);
  for (size_t p = 0; p < inst_->argTypes.size(); ++p) {
    TypeId t = inst_->argTypes[p];
    const Type& ty = types_.get(t);
    const std::string& name = fn_.params[p];
    if (ty.kind == TypeKind::Array) {
      ArrayArgs arr;
      static_cast<ArrayParams&>(arr) = reader.takeArray(ty.ndim);
      // The loaders hold the layout's promise (a unit stride, 1 where the extent is <= 1).
      if (ty.layout == frontend::Layout::C && ty.ndim > 0) arr.strides.back() = b_.getInt64(1);
      if (ty.layout == frontend::Layout::F && ty.ndim > 0) arr.strides.front() = b_.getInt64(1);
      arr.facts = ty.facts;
      constantExtents(arr);
      arrays_[name] = std::move(arr);
      continue;
    }
    if (ty.kind == TypeKind::Tuple) {
      tuples_[name] = readTupleParam(reader, t);
      continue;
    }
    llvm::Value* v = types_.isBool(t) ? reader.takeBool(b_) : reader.take();
    llvm::AllocaInst* slot = b_.CreateAlloca(llvmType(t), nullptr, name);
    b_.CreateStore(v, slot);
    vars_[{name, t.index}] = {slot};
  }
  const ast::FunctionDef& def = *ast_.stmt(fn_.stmt).functionDef();
  findMmaVars(ast_.list(def.body));
  lowerBody(ast_.list(def.body));
  if (!b_.GetInsertBlock()->getTerminator()) b_.CreateRetVoid();
  finishScratch();
  // Tell ptxas the block size (maxntid): it sizes registers for it.
  llvm::NamedMDNode* annotations = module_.getOrInsertNamedMetadata("nvvm.annotations");
  llvm::Metadata* md[] = {llvm::ValueAsMetadata::get(function_), llvm::MDString::get(context_, "maxntidx"),
                          llvm::ConstantAsMetadata::get(b_.getInt32(threads_))};
  annotations->addOperand(llvm::MDNode::get(context_, md));
  // (Tensor-core kernels' two CTAs per SM are a register budget: registerTarget.)
  return threads_;
}

unsigned TileLowering::chooseThreads() const {
  int64_t most = largestTile(*inst_);
  // Matrix products: 128 threads, or 256 (8 warps, each a 64x32 block of a
  // 128x128 accumulator) for tiles of 4096 elements and more.
  if (hasProducts(*inst_)) return most >= 4096 ? 256u : 128u;
  // 16 elements per thread for the biggest tile (two 16-byte vectors of 16-bit
  // elements, four of 32-bit ones): a block of one row per CTA then keeps enough
  // bytes in flight per SM (docs/BENCHMARKS.md, "Tile kernels: bandwidth"). At
  // least 64 threads (two warps), at most 1024.
  return static_cast<unsigned>(std::clamp<int64_t>(most / 16, 64, 1024));
}

unsigned TileLowering::productSites(const frontend::FunctionInstance& inst) const {
  unsigned n = 0;
  for (size_t i = 0; i < inst.exprTypes.size(); ++i) {
    if (!inst.exprTypes[i].valid()) continue;
    const frontend::ExprMeaning& m = inst.meanings[i];
    const frontend::Expr& e = ast_.expr(ExprId(static_cast<uint32_t>(i)));
    bool call = e.kind() == frontend::ExprKind::Call && m.kind == Intrinsic::TileOp &&
                (static_cast<TileFn>(m.payload) == TileFn::Mma || static_cast<TileFn>(m.payload) == TileFn::Matmul);
    bool at = e.kind() == frontend::ExprKind::BinOp && e.as<ast::BinOp>().op == frontend::Operator::MatMult;
    n += call || at ? 1 : 0;
  }
  return n;
}

bool TileLowering::hasProducts(const frontend::FunctionInstance& inst) const {
  for (size_t i = 0; i < inst.exprTypes.size(); ++i) {
    if (!inst.exprTypes[i].valid()) continue;
    const frontend::ExprMeaning& m = inst.meanings[i];
    if (m.kind == Intrinsic::TileOp &&
        (static_cast<TileFn>(m.payload) == TileFn::Mma || static_cast<TileFn>(m.payload) == TileFn::Matmul)) {
      return true;
    }
    const frontend::Expr& e = ast_.expr(ExprId(static_cast<uint32_t>(i)));
    if (e.kind() == frontend::ExprKind::BinOp && e.as<ast::BinOp>().op == frontend::Operator::MatMult) return true;
  }
  return false;
}

unsigned TileLowering::chooseMaxVec() const {
  unsigned narrowest = 16;
  std::vector<TypeId> todo(inst_->argTypes.begin(), inst_->argTypes.end());
  while (!todo.empty()) {  // arrays, also inside tuples
    const Type& ty = types_.get(todo.back());
    todo.pop_back();
    if (ty.kind == TypeKind::Tuple) todo.insert(todo.end(), ty.elements.begin(), ty.elements.end());
    if (ty.kind != TypeKind::Array || types_.isBool(ty.element)) continue;
    narrowest = std::min(narrowest, types_.byteSize(ty.element));
  }
  return std::clamp(16u / narrowest, 4u, 16u);
}

int64_t TileLowering::elementsOf(TypeId t) const {
  int64_t n = 1;
  for (int64_t d : types_.get(t).shape) n *= d;
  return n;
}

Layout TileLowering::layoutOf(TypeId t) const {
  Layout l;
  if (!types_.isTile(t)) return l;
  const Type& ty = types_.get(t);
  l.n = elementsOf(t);
  if (l.n == 1) return l;
  l.uniform = false;
  if (l.n < threads_) {
    l.partial = true;
    return l;
  }
  int64_t last = ty.shape.back();
  int64_t vec = std::min<int64_t>({maxVec_, l.n / threads_, last});
  l.vec = static_cast<unsigned>(std::max<int64_t>(vec, 1));
  l.slots = static_cast<unsigned>(l.n / threads_);
  return l;
}

std::optional<Layout> TileLowering::mmaLayoutOf(TypeId t) const {
  if (!types_.isTile(t)) return std::nullopt;
  const std::vector<int64_t>& shape = types_.get(t).shape;
  if (shape.size() != 2) return std::nullopt;
  int64_t rows = shape[0], cols = shape[1];
  unsigned warps = threads_ / kWarp;
  if (wgmma_ && rows == 16 * warps && (cols == 64 || cols == 128 || cols == 256)) {
    // wgmma's accumulator (m64nNk16 per warpgroup): warp w owns rows 16w..16w+15
    // and every column, as 16x8 fragments.
    Layout l;
    l.wm = 16;
    l.wn = cols;
    l.n = rows * cols;
    l.slots = static_cast<unsigned>(l.n / threads_);
    l.uniform = false;
    l.vec = 2;
    l.mma = true;
    l.warpsN = 1;
    l.cols = cols;
    return l;
  }
  unsigned wmCount = 1, wnCount = 1;
  while (wmCount * wnCount < warps) {
    int64_t wm = rows / wmCount, wn = cols / wnCount;
    if (wm >= wn && wm >= 32) {
      wmCount *= 2;
    } else if (wn >= 32) {
      wnCount *= 2;
    } else if (wm >= 32) {
      wmCount *= 2;
    } else {
      return std::nullopt;
    }
  }
  Layout l;
  l.wm = rows / wmCount;
  l.wn = cols / wnCount;
  if (l.wm < 16 || l.wn < 16) return std::nullopt;
  l.n = rows * cols;
  l.slots = static_cast<unsigned>(l.n / threads_);
  if (l.slots > 128) return std::nullopt;
  l.uniform = false;
  l.vec = 2;
  l.mma = true;
  l.warpsN = wnCount;
  l.cols = cols;
  return l;
}

llvm::Value* TileLowering::elementIndex(const Layout& l, unsigned s) {
  if (l.uniform) return b_.getInt32(0);
  if (l.partial) return tid_;
  if (l.mma) {
    // Fragment f = (fm, fn) of the warp's block; c0/c1 at row g, columns
    // 2q, 2q+1; c2/c3 eight rows below (g = lane / 4, q = lane % 4).
    unsigned f = s / 4;
    unsigned j = s % 4;
    unsigned fragsN = static_cast<unsigned>(l.wn / 8);
    unsigned fm = f / fragsN;
    unsigned fn = f % fragsN;
    llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
    llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(kWarp - 1));
    llvm::Value* wr = b_.CreateUDiv(warp, b_.getInt32(l.warpsN));
    llvm::Value* wc = b_.CreateURem(warp, b_.getInt32(l.warpsN));
    llvm::Value* row = b_.CreateAdd(b_.CreateMul(wr, b_.getInt32(static_cast<uint32_t>(l.wm))),
                                    b_.CreateLShr(lane, b_.getInt32(2)));
    row = b_.CreateAdd(row, b_.getInt32(fm * 16 + 8 * (j >> 1)));
    llvm::Value* col = b_.CreateAdd(b_.CreateMul(wc, b_.getInt32(static_cast<uint32_t>(l.wn))),
                                    b_.CreateShl(b_.CreateAnd(lane, b_.getInt32(3)), b_.getInt32(1)));
    col = b_.CreateAdd(col, b_.getInt32(fn * 8 + (j & 1)));
    return b_.CreateAdd(b_.CreateMul(row, b_.getInt32(static_cast<uint32_t>(l.cols))), col);
  }
  unsigned chunk = s / l.vec;
  unsigned lane = s % l.vec;
  llvm::Value* base = b_.CreateAdd(b_.getInt32(chunk * threads_), tid_);
  return b_.CreateAdd(b_.CreateMul(base, b_.getInt32(l.vec)), b_.getInt32(lane));
}

llvm::Value* TileLowering::slotValid(const Layout& l) {
  if (!l.partial) return b_.getTrue();
  return b_.CreateICmpULT(tid_, b_.getInt32(static_cast<uint32_t>(l.n)));
}

std::vector<llvm::Value*> TileLowering::multiIndex(llvm::Value* e, const std::vector<int64_t>& shape) {
  std::vector<llvm::Value*> idx(shape.size());
  int64_t inner = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    llvm::Value* q = inner == 1 ? e : b_.CreateLShr(e, b_.getInt32(static_cast<uint32_t>(log2i(inner))));
    idx[d] = b_.CreateAnd(q, b_.getInt32(static_cast<uint32_t>(shape[d] - 1)));
    inner *= shape[d];
  }
  return idx;
}

int64_t TileLowering::log2i(int64_t v) {
  int64_t r = 0;
  while ((int64_t(1) << r) < v) ++r;
  return r;
}

TypeId TileLowering::elementOf(TypeId t) const {
  const Type& ty = types_.get(t);
  return ty.kind == TypeKind::Tile || ty.kind == TypeKind::Array ? ty.element : t;
}

llvm::Type* TileLowering::llvmType(TypeId t) {
  if (llvm::Type* scalar = scalarLlvmType(context_, types_.get(t))) return scalar;
  return llvmType(elementOf(t));
}

llvm::Function* TileLowering::intrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Type*> tys) {
  return llvm::Intrinsic::getDeclaration(&module_, id, tys);
}

llvm::Value* TileLowering::convert(llvm::Value* v, TypeId from, TypeId to) {
  from = elementOf(from);
  to = elementOf(to);
  if (from == to) return v;
  if (types_.isTFloat32(from) || types_.isTFloat32(to)) return convertTf32(v, from, to);
  return convertScalar(b_, v, types_.get(from), types_.get(to));
}

llvm::Value* TileLowering::constantOf(const ConstValue& c, TypeId to) {
  TypeId e = elementOf(to);
  llvm::Type* t = llvmType(e);
  double d = c.kind == ConstValue::Kind::Float ? c.floatValue
             : c.kind == ConstValue::Kind::Int ? static_cast<double>(c.intValue)
                                               : (c.boolValue ? 1.0 : 0.0);
  if (types_.isFloat8(e)) return llvm::ConstantInt::get(t, float8Code(d, types_.get(e).format));
  if (types_.isFloat(e)) return llvm::ConstantFP::get(t, d);
  if (types_.isBool(e)) return b_.getInt1(d != 0);
  int64_t i = c.kind == ConstValue::Kind::Int ? c.intValue : static_cast<int64_t>(d);
  return llvm::ConstantInt::get(t, static_cast<uint64_t>(i), true);
}

llvm::Value* TileLowering::scratch(uint64_t bytes) {
  uint64_t offset = residentBytes_ + (pipeStage_.empty() ? 0 : ringInUse_);
  scratchBytes_ = std::max(scratchBytes_, offset + bytes);
  if (scratch_ == nullptr) {
    auto* type = llvm::ArrayType::get(b_.getInt8Ty(), 1);
    scratch_ = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                        llvm::UndefValue::get(type), function_->getName() + ".placeholder",
                                        nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
  }
  if (offset == 0) return scratch_;
  return b_.CreateGEP(b_.getInt8Ty(), scratch_, b_.getInt32(static_cast<uint32_t>(offset)));
}

void TileLowering::finishScratch() {
  if (scratch_ == nullptr) return;
  if (scratchBytes_ > kStaticShared && scratchBytes_ + 1024 <= maxShared_) {
    // Past 48 KiB: dynamic shared memory (the launch passes the bytes, docs/ABI.md),
    // its start rounded up to 1024 bytes in the entry block.
    auto* type = llvm::ArrayType::get(b_.getInt8Ty(), 0);
    auto* dynamic = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                             function_->getName() + "__tile_dynamic", nullptr,
                                             llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    dynamic->setAlignment(llvm::Align(16));
    llvm::IRBuilder<> eb(&function_->getEntryBlock(), function_->getEntryBlock().begin());
    llvm::Value* address = eb.CreatePtrToInt(dynamic, eb.getInt32Ty());
    llvm::Value* pad = eb.CreateAnd(eb.CreateSub(eb.getInt32(1024), eb.CreateAnd(address, eb.getInt32(1023))),
                                    eb.getInt32(1023));
    llvm::Value* aligned = eb.CreateGEP(eb.getInt8Ty(), dynamic, pad, "tile_scratch");
    // Constant GEPs of the placeholder become instructions first.
    llvm::convertUsersOfConstantsToInstructions({scratch_});
    scratch_->replaceAllUsesWith(aligned);
    scratch_->eraseFromParent();
    dynamicShared_ = static_cast<uint32_t>(scratchBytes_ + 1024);
    return;
  }
  auto* type = llvm::ArrayType::get(b_.getInt8Ty(), scratchBytes_);
  auto* real = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                        llvm::UndefValue::get(type), function_->getName() + ".tile_scratch",
                                        nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
  real->setAlignment(llvm::Align(1024));  // wgmma's swizzle patterns repeat every 1024 bytes
  scratch_->replaceAllUsesWith(real);
  scratch_->eraseFromParent();
}

llvm::Value* TileLowering::warpPartials(unsigned warps, llvm::Type* mt) {
  uint64_t bytes = uint64_t(warps) * mt->getPrimitiveSizeInBits() / 8;
  if (loopDepth_ > 0) {
    llvm::Value* buffer = scratch(bytes);
    barrier();
    return buffer;
  }
  auto* type = llvm::ArrayType::get(mt, warps);
  auto* buffer = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(type), function_->getName() + ".partials",
                                          nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
  buffer->setAlignment(llvm::Align(16));
  return buffer;
}

llvm::Value* TileLowering::stage(const TileVal& v, TypeId t, const Layout& l) {
  llvm::Value* buffer = scratch(static_cast<uint64_t>(l.n) * types_.byteSize(elementOf(t)));
  barrier();
  storeSlots(v, t, l, buffer, 0);
  barrier();
  return buffer;
}

void TileLowering::storeSlots(const TileVal& v, TypeId t, const Layout& l, llvm::Value* buffer, int64_t offset) {
  TypeId e = elementOf(t);
  for (unsigned s = 0; s < l.slots; ++s) {
    llvm::Value* x = v.slots[v.slots.size() == 1 ? 0 : s];
    if (types_.isBool(e)) x = b_.CreateZExt(x, b_.getInt8Ty());
    llvm::Value* index = elementIndex(l, s);
    if (offset != 0) index = b_.CreateAdd(index, b_.getInt32(static_cast<uint32_t>(offset)));
    llvm::Value* p = b_.CreateGEP(memoryType(e), buffer, index);
    if (l.partial) {
      guarded(slotValid(l), [&] { b_.CreateStore(x, p); });
    } else {
      b_.CreateStore(x, p);
    }
  }
}

}  // namespace lowering::tile

namespace lowering {

TileKernelShape lowerTileKernel(const frontend::Ast& ast, const frontend::TypedModule& typed,
                                const frontend::FunctionInstance& inst, llvm::Function* function,
                                const TileTarget& target) {
  tile::TileLowering lowering(ast, typed, inst, function);
  lowering.setTarget(target);
  TileKernelShape shape;
  shape.threads = lowering.run();
  shape.dynamicSharedBytes = lowering.dynamicSharedBytes();
  shape.registerTarget = lowering.registerTarget();
  shape.toleratedSpillBytes = lowering.toleratedSpillBytes();
  return shape;
}

}  // namespace lowering
