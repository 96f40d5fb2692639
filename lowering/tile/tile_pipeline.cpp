// Software pipelining of tensor-core operand loads (cp.async rings of stages).
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

void TileLowering::assignedNames(std::span<const StmtId> body, std::set<std::string>& out) const {
  for (StmtId id : body) {
    const frontend::Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case frontend::StmtKind::Assign:
        for (ExprId t : ast_.list(s.as<ast::Assign>().targets)) {
          if (const auto* n = ast_.expr(t).dyn<ast::Name>()) out.insert(std::string(ast_.str(n->id)));
        }
        break;
      case frontend::StmtKind::AugAssign:
        if (const auto* n = ast_.expr(s.as<ast::AugAssign>().target).dyn<ast::Name>()) {
          out.insert(std::string(ast_.str(n->id)));
        }
        break;
      case frontend::StmtKind::For: {
        const auto& f = s.as<ast::For>();
        if (const auto* n = ast_.expr(f.target).dyn<ast::Name>()) out.insert(std::string(ast_.str(n->id)));
        assignedNames(ast_.list(f.body), out);
        break;
      }
      case frontend::StmtKind::While:
        assignedNames(ast_.list(s.as<ast::While>().body), out);
        break;
      case frontend::StmtKind::If:
        assignedNames(ast_.list(s.as<ast::If>().body), out);
        assignedNames(ast_.list(s.as<ast::If>().orelse), out);
        break;
      case frontend::StmtKind::With:
        for (frontend::WithItemId w : ast_.list(s.as<ast::With>().items)) {
          ExprId t = ast_.withItem(w).optionalVars;
          if (const auto* n = t.valid() ? ast_.expr(t).dyn<ast::Name>() : nullptr) {
            out.insert(std::string(ast_.str(n->id)));
          }
        }
        assignedNames(ast_.list(s.as<ast::With>().body), out);
        break;
      default:
        break;
    }
  }
}

bool TileLowering::productOperands(ExprId e, ExprId& x, ExprId& y) const {
  if (isTileCall(e, TileFn::Mma) || isTileCall(e, TileFn::Matmul)) {
    x = arg(e, 0);
    y = arg(e, 1);
    return true;
  }
  if (ast_.expr(e).kind() == frontend::ExprKind::BinOp &&
      ast_.expr(e).as<ast::BinOp>().op == frontend::Operator::MatMult) {
    x = ast_.expr(e).as<ast::BinOp>().left;
    y = ast_.expr(e).as<ast::BinOp>().right;
    return true;
  }
  return false;
}

bool TileLowering::isTileCall(ExprId id, TileFn fn) const {
  if (!id.valid() || ast_.expr(id).kind() != frontend::ExprKind::Call) return false;
  const frontend::ExprMeaning& m = inst_->meanings[id.index];
  return m.kind == Intrinsic::TileOp && static_cast<TileFn>(m.payload) == fn;
}

std::vector<PipeLoad> TileLowering::planPipeline(const ast::For& f) {
  std::vector<PipeLoad> out;
  std::set<std::string> assigned;
  assignedNames(ast_.list(f.body), assigned);
  std::string loopVar(ast_.str(ast_.expr(f.target).as<ast::Name>().id));
  // Operand uses of each name in tensor-core products of the loop.
  std::map<std::string, int> operandUses;
  std::map<std::string, int> roles;
  auto countOperands = [&](ExprId e) {
    ExprId x, y;
    if (!productOperands(e, x, y)) return;
    if (!isMmaExpr(e)) return;
    int role = 1;  // 1: left (A), 2: right (B)
    for (ExprId o : {x, y}) {
      if (const auto* n = ast_.expr(o).dyn<ast::Name>()) {
        std::string nm(ast_.str(n->id));
        ++operandUses[nm];
        roles[nm] |= role;
      }
      role = 2;
    }
  };
  visitStmts(ast_.list(f.body), countOperands);
  // All reads of each name in the whole kernel.
  std::map<std::string, int> reads;
  auto countReads = [&](ExprId e) {
    if (const auto* n = ast_.expr(e).dyn<ast::Name>()) {
      if (inst_->exprTypes[e.index].valid()) ++reads[std::string(ast_.str(n->id))];
    }
  };
  visitStmts(functionBody(), countReads);
  uint64_t stageBytes = 0;
  std::set<std::string> seen;
  for (StmtId id : ast_.list(f.body)) {
    const frontend::Stmt& s = ast_.stmt(id);
    if (s.kind() != frontend::StmtKind::Assign) continue;
    const auto& a = s.as<ast::Assign>();
    if (ast_.list(a.targets).size() != 1) continue;
    const auto* n = ast_.expr(ast_.list(a.targets)[0]).dyn<ast::Name>();
    if (n == nullptr) continue;
    std::string name(ast_.str(n->id));
    ExprId value = a.value;
    TypeId target = typeOf(ast_.list(a.targets)[0]);
    if (isTileCall(value, TileFn::Astype)) value = arg(value, 0);
    if (!isTileCall(value, TileFn::Load)) continue;
    // A load with `order=` permutes its tile (not a plain copy of array rows).
    if (!accessOrder(value).empty()) continue;
    TypeId loaded = typeOf(value);
    TypeId le = elementOf(loaded);
    TypeId te = elementOf(target);
    bool sameType = le == te;
    bool toTf32 = le == types_.float32() && types_.isTFloat32(te);
    bool halfType = types_.isHalf(le) || types_.isBFloat16(le);
    if (!(sameType && halfType) && !toTf32) continue;
    const std::vector<int64_t>& shape = types_.get(loaded).shape;
    if (shape.size() != 2 || shape[1] * types_.byteSize(le) < 16) continue;
    // Zero padding only (what cp.async's zero fill gives).
    ExprId pad = arg(value, 4);
    if (pad.valid()) {
      auto mode = static_cast<TileFn>(inst_->meanings[pad.index].payload);
      if (mode != TileFn::PadZero && mode != TileFn::PadUndetermined) continue;
    }
    if (ast_.expr(arg(value, 0)).kind() != frontend::ExprKind::Name) continue;
    bool pure = true;
    auto indexNames = [&](ExprId e) {
      if (const auto* in = ast_.expr(e).dyn<ast::Name>()) {
        std::string nm(ast_.str(in->id));
        if (nm != loopVar && assigned.count(nm) && inst_->exprTypes[e.index].valid()) pure = false;
      }
    };
    visitExpr(arg(value, 1), indexNames);
    if (!pure || seen.count(name)) continue;
    // Used only as a product operand in this loop, assigned only here.
    int uses = operandUses.count(name) ? operandUses[name] : 0;
    if (uses == 0 || reads[name] != uses) continue;
    seen.insert(name);
    PipeLoad p;
    p.name = name;
    p.call = value;
    p.tileType = loaded;
    p.bytes = static_cast<uint64_t>(shape[0] * shape[1]) * types_.byteSize(le);
    uint64_t rowBytes = static_cast<uint64_t>(shape[1]) * types_.byteSize(le);
    if (wgmma_ && halfType && sameType) {
      // wgmma's canonical layouts: A K-major, B MN-major (docs/TILE.md).
      if (roles[name] == 1 && rowBytes == 64) p.format = SmemFormat::KMajor64;
      if (roles[name] == 1 && rowBytes == 128) p.format = SmemFormat::KMajor128;
      if (roles[name] == 2 && rowBytes % 128 == 0 && shape[0] % 16 == 0) p.format = SmemFormat::MNMajor128;
    }
    p.offset = stageBytes;
    stageBytes += (p.bytes + 1023) / 1024 * 1024;
    out.push_back(p);
  }
  // A name assigned twice in the loop is not a simple stream.
  for (const PipeLoad& p : out) {
    int count = 0;
    for (StmtId id : ast_.list(f.body)) {
      std::set<std::string> names;
      assignedNames(std::span<const StmtId>(&id, 1), names);
      count += static_cast<int>(names.count(p.name));
    }
    if (count != 1) return {};
  }
  return out;
}

uint64_t TileLowering::stagedBytes(const ast::For& f, const std::vector<PipeLoad>& pipes) {
  uint64_t most = 0;
  auto visit = [&](ExprId e) {
    ExprId x, y;
    if (!productOperands(e, x, y)) return;
    uint64_t bytes = 0;
    for (ExprId o : {x, y}) {
      const auto* n = ast_.expr(o).dyn<ast::Name>();
      bool held = n != nullptr && std::any_of(pipes.begin(), pipes.end(), [&](const PipeLoad& p) {
                    return p.name == ast_.str(n->id);
                  });
      if (!held) bytes += (static_cast<uint64_t>(elementsOf(typeOf(o))) * 4 + 127) / 128 * 128;
    }
    most = std::max(most, bytes);
  };
  visitStmts(ast_.list(f.body), visit);
  return std::min(most, kStaticShared);
}

llvm::Value* TileLowering::pipeAligned(const PipeLoad& p) {
  const ArrayArgs& arr = arrayArg(arg(p.call, 0));
  unsigned perChunk = 16 / types_.byteSize(elementOf(p.tileType));
  // A constant where the array's layout and facts answer every test.
  llvm::Value* ok = b_.CreateICmpEQ(arr.strides[1], b_.getInt64(1));
  if (arr.facts.strideDivisor(0) % perChunk != 0) {
    ok = b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateAnd(arr.strides[0], b_.getInt64(perChunk - 1)), b_.getInt64(0)));
  }
  if (arr.facts.alignedTo(16)) return ok;
  return b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateAnd(b_.CreatePtrToInt(arr.data, b_.getInt64Ty()), b_.getInt64(15)),
                                          b_.getInt64(0)));
}

void TileLowering::issuePipe(const std::vector<PipeLoad>& pipes, bool aligned, llvm::Value* stage, llvm::Value* active) {
  for (const PipeLoad& p : pipes) {
    const ArrayArgs& arr = arrayArg(arg(p.call, 0));
    Addressing a = addressing(p.call, p.tileType);
    TypeId e = elementOf(p.tileType);
    unsigned bytes = types_.byteSize(e);
    SmemTile t;
    t.base = b_.CreateGEP(b_.getInt8Ty(), stage, b_.getInt32(static_cast<uint32_t>(p.offset)));
    t.rows = a.shape[0];
    t.cols = a.shape[1];
    t.bytes = bytes;
    t.format = p.format;
    unsigned perChunk = 16 / bytes;
    llvm::Value* row0 = tileOrigin(a, 0);
    llvm::Value* col0 = tileOrigin(a, 1);
    llvm::Value* ok = b_.getInt1(aligned);
    auto* async = llvm::BasicBlock::Create(context_, "pipe.async", function_);
    auto* sync = llvm::BasicBlock::Create(context_, "pipe.sync", function_);
    auto* done = llvm::BasicBlock::Create(context_, "pipe.done", function_);
    b_.CreateCondBr(ok, async, sync);
    // cp.async: chunk q of the tile, q = it * threads + tid.
    b_.SetInsertPoint(async);
    int64_t chunks = t.rows * t.cols / perChunk;
    int64_t perRow = t.cols / perChunk;
    // A tile wholly inside its array (every tile but the last along each
    // axis; uniform across the CTA): no bounds checks, no zero fill, and
    // the addresses a fixed step apart (docs/TILE.md, "Matrix products").
    if (threads_ % perRow == 0) {
      llvm::Value* inside = b_.CreateAnd(
          active, b_.CreateAnd(b_.CreateICmpSLE(b_.CreateAdd(row0, b_.getInt64(t.rows)), arr.shape[0]),
                               b_.CreateICmpSLE(b_.CreateAdd(col0, b_.getInt64(t.cols)), arr.shape[1])));
      auto* whole = llvm::BasicBlock::Create(context_, "pipe.whole", function_);
      auto* edge = llvm::BasicBlock::Create(context_, "pipe.edge", function_);
      b_.CreateCondBr(inside, whole, edge);
      b_.SetInsertPoint(whole);
      llvm::Value* r = b_.CreateUDiv(tid_, b_.getInt32(static_cast<uint32_t>(perRow)));
      llvm::Value* cc = b_.CreateURem(tid_, b_.getInt32(static_cast<uint32_t>(perRow)));
      llvm::Value* first = b_.CreateAdd(b_.CreateMul(b_.CreateAdd(row0, b_.CreateZExt(r, b_.getInt64Ty())), arr.strides[0]),
                                        b_.CreateAdd(col0, b_.CreateZExt(b_.CreateMul(cc, b_.getInt32(perChunk)), b_.getInt64Ty())));
      llvm::Value* src = b_.CreateAddrSpaceCast(b_.CreateGEP(llvmType(e), arr.data, first),
                                                llvm::PointerType::get(context_, 1));
      uint32_t rowsPerPass = static_cast<uint32_t>(threads_ / perRow);
      llvm::Value* pass = b_.CreateMul(arr.strides[0], b_.getInt64(rowsPerPass));
      for (int64_t base = 0; base < chunks; base += threads_) {
        auto body = [&] {
          llvm::Value* rr = b_.CreateAdd(r, b_.getInt32(static_cast<uint32_t>(base / perRow)));
          llvm::Value* dst = b_.CreateGEP(b_.getInt8Ty(), t.base, smemOffset(t, rr, cc));
          b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_cg_shared_global_16), {dst, src});
        };
        if (base + threads_ <= chunks) {
          body();
        } else {
          guarded(b_.CreateICmpULT(b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(base)), tid_),
                                   b_.getInt32(static_cast<uint32_t>(chunks))), body);
        }
        if (base + threads_ < chunks) src = b_.CreateGEP(llvmType(e), src, pass);
      }
      b_.CreateBr(done);
      b_.SetInsertPoint(edge);
    }
    for (int64_t base = 0; base < chunks; base += threads_) {
      llvm::Value* q = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(base)), tid_);
      auto body = [&] {
        llvm::Value* r = b_.CreateUDiv(q, b_.getInt32(static_cast<uint32_t>(perRow)));
        llvm::Value* cc = b_.CreateURem(q, b_.getInt32(static_cast<uint32_t>(perRow)));
        llvm::Value* gr = b_.CreateAdd(row0, b_.CreateZExt(r, b_.getInt64Ty()));
        llvm::Value* gc = b_.CreateAdd(col0, b_.CreateZExt(b_.CreateMul(cc, b_.getInt32(perChunk)), b_.getInt64Ty()));
        llvm::Value* left = b_.CreateSub(arr.shape[1], gc);
        llvm::Value* n = b_.CreateSelect(b_.CreateICmpSLT(left, b_.getInt64(perChunk)), left, b_.getInt64(perChunk));
        llvm::Value* valid = b_.CreateAnd(active, b_.CreateAnd(b_.CreateICmpSLT(gr, arr.shape[0]),
                                                               b_.CreateICmpSGT(n, b_.getInt64(0))));
        n = b_.CreateSelect(valid, n, b_.getInt64(0));
        llvm::Value* offset = b_.CreateSelect(valid, b_.CreateAdd(b_.CreateMul(gr, arr.strides[0]), gc), b_.getInt64(0));
        llvm::Value* src = b_.CreateAddrSpaceCast(b_.CreateGEP(llvmType(e), arr.data, offset),
                                                  llvm::PointerType::get(context_, 1));
        llvm::Value* dst = b_.CreateGEP(b_.getInt8Ty(), t.base, smemOffset(t, r, cc));
        llvm::Value* size = b_.CreateTrunc(b_.CreateMul(n, b_.getInt64(bytes)), b_.getInt32Ty());
        b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_cg_shared_global_16_s), {dst, src, size});
      };
      if (base + threads_ <= chunks) {
        body();
      } else {
        guarded(b_.CreateICmpULT(q, b_.getInt32(static_cast<uint32_t>(chunks))), body);
      }
    }
    b_.CreateBr(done);
    // Element by element (unaligned or strided arrays), in a rolled loop
    // (q = tid, tid + threads, ...) so that nothing per element stays live
    // across the pipelined loop.
    b_.SetInsertPoint(sync);
    int64_t count = t.rows * t.cols;
    llvm::Type* mt = llvmType(e);
    {
      llvm::BasicBlock* pre = b_.GetInsertBlock();
      auto* loop = llvm::BasicBlock::Create(context_, "pipe.sync.loop", function_);
      auto* exit = llvm::BasicBlock::Create(context_, "pipe.sync.exit", function_);
      b_.CreateCondBr(b_.CreateICmpULT(tid_, b_.getInt32(static_cast<uint32_t>(count))), loop, exit);
      b_.SetInsertPoint(loop);
      llvm::PHINode* q = b_.CreatePHI(b_.getInt32Ty(), 2);
      q->addIncoming(tid_, pre);
      llvm::Value* r = b_.CreateLShr(q, b_.getInt32(static_cast<uint32_t>(log2i(t.cols))));
      llvm::Value* c = b_.CreateAnd(q, b_.getInt32(static_cast<uint32_t>(t.cols - 1)));
      llvm::Value* gr = b_.CreateAdd(row0, b_.CreateZExt(r, b_.getInt64Ty()));
      llvm::Value* gc = b_.CreateAdd(col0, b_.CreateZExt(c, b_.getInt64Ty()));
      llvm::Value* valid = b_.CreateAnd(active, b_.CreateAnd(b_.CreateICmpSLT(gr, arr.shape[0]),
                                                             b_.CreateICmpSLT(gc, arr.shape[1])));
      llvm::Value* dst = smemElement(t, r, c);
      llvm::BasicBlock* before = b_.GetInsertBlock();
      auto* then = llvm::BasicBlock::Create(context_, "pipe.elem", function_);
      auto* next = llvm::BasicBlock::Create(context_, "pipe.next", function_);
      b_.CreateCondBr(valid, then, next);
      b_.SetInsertPoint(then);
      llvm::Value* offset = b_.CreateAdd(b_.CreateMul(gr, arr.strides[0]), b_.CreateMul(gc, arr.strides[1]));
      llvm::Value* x = b_.CreateLoad(mt, b_.CreateGEP(mt, arr.data, offset));
      b_.CreateBr(next);
      b_.SetInsertPoint(next);
      llvm::PHINode* phi = b_.CreatePHI(mt, 2);
      phi->addIncoming(x, then);
      phi->addIncoming(llvm::Constant::getNullValue(mt), before);
      b_.CreateStore(phi, dst);
      llvm::Value* qn = b_.CreateAdd(q, b_.getInt32(threads_));
      q->addIncoming(qn, b_.GetInsertBlock());
      llvm::BranchInst* latch =
          b_.CreateCondBr(b_.CreateICmpULT(qn, b_.getInt32(static_cast<uint32_t>(count))), loop, exit);
      llvm::MDNode* disable = llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.unroll.disable")});
      llvm::MDNode* loopId = llvm::MDNode::getDistinct(context_, {nullptr, disable});
      loopId->replaceOperandWith(0, loopId);
      latch->setMetadata(llvm::LLVMContext::MD_loop, loopId);
      b_.SetInsertPoint(exit);
    }
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }
  b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_commit_group));
}

}  // namespace lowering::tile
