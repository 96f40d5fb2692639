// Statements: assignment, control flow, loops, inlined helper calls and returns.
#include <functional>

#include "lowering/tile/tile_lower_internal.h"
#include "sema/dataclasses.h"

namespace lowering::tile {

const std::vector<llvm::AllocaInst*>& TileLowering::storage(const std::string& name, TypeId t) {
  auto key = std::make_pair(name, t.index);
  auto it = vars_.find(key);
  if (it != vars_.end()) return it->second;
  std::vector<llvm::AllocaInst*> slots;
  if (types_.isTuple(t)) {  // a tuple of numbers and tiles: its elements' slots in order
    for (llvm::Type* st : slotTypes(t)) slots.push_back(entryAlloca(st, name));
    return vars_[key] = slots;
  }
  unsigned count = layoutOf(t).slots;
  for (unsigned s = 0; s < count; ++s) slots.push_back(entryAlloca(llvmType(elementOf(t)), name));
  return vars_[key] = slots;
}

void TileLowering::assignName(ExprId target, const TileVal& v, TypeId from) {
  std::string name(ast_.str(ast_.expr(target).as<ast::Name>().id));
  TypeId to = typeOf(target);
  if (!to.valid() || constOf(target) != nullptr) return;  // a compile-time constant
  TileVal c;
  if (types_.isTuple(to)) {
    // Element by element, nested tuples flattened (`(ct.bid(0), (n // 2, j))`).
    std::function<void(const TileVal&, TypeId, TypeId)> flatten = [&](const TileVal& val, TypeId f, TypeId t) {
      if (!types_.isTuple(t)) {
        TileVal e = spread(val, f, t);
        c.slots.insert(c.slots.end(), e.slots.begin(), e.slots.end());
        return;
      }
      std::vector<TileVal> parts = tupleParts(val, f);
      for (size_t i = 0; i < parts.size(); ++i) flatten(parts[i], types_.get(f).elements[i], types_.get(t).elements[i]);
    };
    flatten(v, from, to);
  } else {
    c = spread(v, from, to, mmaVars_.count({name, to.index}) != 0);
  }
  const auto& slots = storage(name, to);
  for (size_t s = 0; s < slots.size(); ++s) b_.CreateStore(c.slots[s], slots[s]);
  // Assigned once: later reads in this statement list (which the value
  // dominates) take the value itself, with its broadcast form.
  if (!c.mma && broadcastOf(c) != nullptr && assignedOnce(name)) boundValues_.push_back({{name, to.index}, c});
}

void TileLowering::lowerBody(std::span<const StmtId> body) {
  size_t bound = boundValues_.size();
  for (StmtId id : body) {
    if (b_.GetInsertBlock()->getTerminator()) break;
    lowerStmt(id);
  }
  boundValues_.erase(boundValues_.begin() + static_cast<std::ptrdiff_t>(bound), boundValues_.end());
}

void TileLowering::lowerAssign(std::span<const ExprId> targets, ExprId value) {
  ExprId target = targets[0];
  if (ast_.expr(target).is<ast::Subscript>() && inst_->callees[target.index] >= 0) {
    inlineHelper(target);  // `obj[i] = v`: the dataclass's __setitem__
    return;
  }
  if (unpackingTargets(ast_, target) != nullptr) {
    lowerTupleAssign(target, value);
    return;
  }
  if (TypeId it = typeOf(target); it.valid() && ast_.expr(target).is<ast::Name>() &&
                                  frontend::isDataclassType(types_, it) && holdsArrayType(it)) {
    // `obj = Cls(x)`: an instance holding arrays, the name standing for it.
    tuples_[std::string(ast_.str(ast_.expr(target).as<ast::Name>().id))] = instanceTuple(value);
    return;
  }
  TypeId to = typeOf(target);
  if (!to.valid() || constOf(target) != nullptr) {
    // A compile-time value (a function) a helper gives: its body still runs (its stores).
    lowerCompileTimeCalls(value);
    // A closure whose captured numbers differ between the paths of an `if`: its values here.
    if (auto stores = inst_->closureStores.find(target.index); stores != inst_->closureStores.end()) {
      std::map<uint32_t, TileVal> evaluated;
      for (const frontend::TileHiddenArg& h : stores->second) {
        TileVal v = h.value ? constantValue(*h.value, h.type) : pieceValue(h.piece, h.type, evaluated);
        const auto& slots = storage(h.name, h.type);
        for (size_t s = 0; s < slots.size(); ++s) b_.CreateStore(v.slots[s], slots[s]);
      }
    }
    return;
  }
  if (types_.isArray(to)) {
    ArrayArgs v = arrayArg(value);
    for (ExprId t : targets) assignArray(std::string(ast_.str(ast_.expr(t).as<ast::Name>().id)), v);
    return;
  }
  if (const auto* n = ast_.expr(target).dyn<ast::Name>()) {
    // A load the pipeline already copies into shared memory.
    if (pipeStage_.count(std::string(ast_.str(n->id)))) return;
  }
  TileVal v = evalAs(value, to, isMmaExpr(value));
  for (ExprId t : targets) assignName(t, v, to);
}

void TileLowering::lowerStmt(StmtId id) {
  const frontend::Stmt& s = ast_.stmt(id);
  switch (s.kind()) {
    case frontend::StmtKind::AnnAssign: {
      const auto& a = s.as<ast::AnnAssign>();
      if (a.value.valid()) lowerAssign(std::span<const ExprId>(&a.target, 1), a.value);
      return;
    }
    case frontend::StmtKind::Assign: {
      const auto& a = s.as<ast::Assign>();
      lowerAssign(ast_.list(a.targets), a.value);
      return;
    }
    case frontend::StmtKind::AugAssign: {
      const auto& a = s.as<ast::AugAssign>();
      if (constOf(a.target) != nullptr) return;  // folded: `t ^= N` on a constant `t`
      TypeId result = inst_->stmtResultTypes[id.index];
      bool m = isMmaExpr(a.target);
      auto left = inst_->augConstLeft.find(id.index);
      if (types_.isTuple(result) && left == inst_->augConstLeft.end()) {
        // `acc += (x, y)`: the tuple held so far (its type is the result's leading part).
        std::string name(ast_.str(ast_.expr(a.target).as<ast::Name>().id));
        TypeId held = concatParts(a.value, result).first;
        TileVal before;
        for (llvm::AllocaInst* slot : storage(name, held)) {
          before.slots.push_back(b_.CreateLoad(slot->getAllocatedType(), slot));
        }
        assignName(a.target, concatTuples(a.target, a.value, result, &before), result);
        return;
      }
      if (left != inst_->augConstLeft.end()) constOverride_[a.target.index] = &left->second;
      TileVal v = binary(a.op, a.target, a.value, inst_->stmtOpTypes[id.index], result, m);
      constOverride_.erase(a.target.index);
      assignName(a.target, v, result);
      return;
    }
    case frontend::StmtKind::Expr: {
      ExprId e = s.as<ast::ExprStmt>().value;
      // Docstrings and `...` are not checked (no type): nothing to lower.
      if (ast_.expr(e).is<ast::Constant>()) return;
      if (const auto* y = ast_.expr(e).dyn<ast::Yield>()) {
        lowerYield(y->value);
        return;
      }
      if (TypeId t = typeOf(e); t.valid() && types_.isArray(t)) return;  // a view nobody keeps
      if (constOf(e) == nullptr) eval(e);
      return;
    }
    case frontend::StmtKind::Return:
      if (exit_ != nullptr) {
        lowerInlineReturn(s.as<ast::Return>());
        return;
      }
      lowerExit(ExitKind::Return);
      return;
    case frontend::StmtKind::With:
      lowerWith(s.as<ast::With>());
      return;
    case frontend::StmtKind::For:
      if (const frontend::StaticUnroll* u = unrolledAt(id.index, false)) {
        lowerStaticFor(*u, s.as<ast::For>());
        return;
      }
      if (!lowerPipelinedFor(id, s.as<ast::For>())) lowerFor(id, s.as<ast::For>());
      return;
    case frontend::StmtKind::While:
      lowerWhile(s.as<ast::While>());
      return;
    case frontend::StmtKind::Break:
      lowerExit(ExitKind::Break);
      return;
    case frontend::StmtKind::Continue:
      lowerExit(ExitKind::Continue);
      return;
    case frontend::StmtKind::If: {
      const auto& i = s.as<ast::If>();
      if (const ConstValue* c = constOf(i.test)) {
        // Decided at compile time: only the taken branch was typed.
        lowerBody(ast_.list(frontend::truthOf(*c) ? i.body : i.orelse));
        return;
      }
      llvm::Value* cond = scalarAs(i.test, types_.boolean());
      auto* then = llvm::BasicBlock::Create(context_, "if.then", function_);
      auto* other = llvm::BasicBlock::Create(context_, "if.else", function_);
      auto* done = llvm::BasicBlock::Create(context_, "if.done", function_);
      b_.CreateCondBr(cond, then, other);
      // Each branch starts from what was written before; after both, either's writes.
      Accesses before = accessed_;
      b_.SetInsertPoint(then);
      lowerBody(ast_.list(i.body));
      if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(done);
      Accesses afterThen = accessed_;
      accessed_ = before;
      b_.SetInsertPoint(other);
      lowerBody(ast_.list(i.orelse));
      if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(done);
      accessed_.add(afterThen);
      b_.SetInsertPoint(done);
      return;
    }
    default:
      return;
  }
}

std::optional<SmemTile> TileLowering::residentOperand(ExprId e) {
  const auto* n = ast_.expr(e).dyn<ast::Name>();
  if (n == nullptr) return std::nullopt;
  auto it = resident_.find({std::string(ast_.str(n->id)), typeOf(e).index});
  if (it == resident_.end()) return std::nullopt;
  return it->second;
}

std::pair<uint64_t, std::vector<std::pair<std::string, uint32_t>>> TileLowering::stageResident(const ast::For& f) {
  std::set<std::string> assigned;
  assignedNames(ast_.list(f.body), assigned);
  std::vector<std::pair<ExprId, std::pair<std::string, uint32_t>>> operands;
  std::set<std::pair<std::string, uint32_t>> seen;
  auto visit = [&](ExprId e) {
    ExprId x, y;
    if (!productOperands(e, x, y) || !isMmaExpr(e) || !productInput(x, y).valid()) return;
    for (ExprId o : {x, y}) {
      const auto* n = ast_.expr(o).dyn<ast::Name>();
      if (n == nullptr || pipelined(o) || residentOperand(o)) continue;
      std::string name(ast_.str(n->id));
      TypeId t = typeOf(o);
      TypeId el = elementOf(t);
      if (assigned.count(name) || !(types_.isHalf(el) || types_.isBFloat16(el))) continue;
      if (seen.insert({name, t.index}).second) operands.push_back({o, {name, t.index}});
    }
  };
  visitStmts(ast_.list(f.body), visit);
  if (operands.empty()) return {};
  uint64_t offset = 0;
  std::vector<std::pair<std::pair<std::string, uint32_t>, SmemTile>> staged;
  barrier();
  for (const auto& [o, key] : operands) {
    TypeId t = typeOf(o);
    staged.push_back({key, stageSwizzled(o, t, offset)});
    offset += (static_cast<uint64_t>(elementsOf(t)) * types_.byteSize(elementOf(t)) + 1023) / 1024 * 1024;
  }
  barrier();
  std::vector<std::pair<std::string, uint32_t>> keys;
  for (auto& [key, st] : staged) {
    resident_[key] = st;
    keys.push_back(key);
  }
  residentBytes_ += offset;
  return {offset, keys};
}

void TileLowering::lowerFor(StmtId id, const ast::For& f) {
  auto [reserved, keys] = stageResident(f);
  bool products = false;
  auto visit = [&](ExprId e) {
    ExprId x, y;
    products = products || (productOperands(e, x, y) && isMmaExpr(e));
  };
  visitStmts(ast_.list(f.body), visit);
  lowerLoop(id, f, products);
  residentBytes_ -= reserved;
  for (const auto& key : keys) resident_.erase(key);
}

TileLowering::RangeLoop TileLowering::rangeOf(StmtId id, const ast::For& f) {
  const auto& call = ast_.expr(f.iter).as<ast::Call>();
  auto args = ast_.list(call.args);
  RangeLoop r;
  r.type = inst_->rangeTypes[id.index];
  r.start = args.size() >= 2 ? scalarAs(args[0], r.type) : constantOf(ConstValue::ofInt(0), r.type);
  r.stop = scalarAs(args.size() >= 2 ? args[1] : args[0], r.type);
  r.step = args.size() == 3 ? scalarAs(args[2], r.type) : constantOf(ConstValue::ofInt(1), r.type);
  r.name = std::string(ast_.str(ast_.expr(f.target).as<ast::Name>().id));
  r.var = storage(r.name, r.type)[0];
  return r;
}

void TileLowering::lowerLoop(StmtId id, const ast::For& f, bool opaqueTid) {
  auto [it, start, stop, step, name, var] = rangeOf(id, f);
  llvm::AllocaInst* counter = entryAlloca(llvmType(it), name + ".next");
  b_.CreateStore(start, counter);
  auto* head = llvm::BasicBlock::Create(context_, "for.head", function_);
  auto* body = llvm::BasicBlock::Create(context_, "for.body", function_);
  auto* done = llvm::BasicBlock::Create(context_, "for.done", function_);
  b_.CreateBr(head);
  b_.SetInsertPoint(head);
  llvm::Value* i = b_.CreateLoad(llvmType(it), counter);
  llvm::Value* zero = llvm::ConstantInt::get(i->getType(), 0);
  llvm::Value* more = b_.CreateSelect(b_.CreateICmpSGT(step, zero), b_.CreateICmpSLT(i, stop), b_.CreateICmpSGT(i, stop));
  b_.CreateCondBr(more, body, done);
  b_.SetInsertPoint(body);
  b_.CreateStore(i, var);
  b_.CreateStore(b_.CreateAdd(i, step), counter);
  llvm::Value* savedTid = tid_;
  if (opaqueTid) {
    auto* type = llvm::FunctionType::get(b_.getInt32Ty(), false);
    tid_ = b_.CreateCall(llvm::InlineAsm::get(type, "mov.u32 $0, %tid.x;", "=r", true), {});
  }
  ++loopDepth_;
  loopExits_.push_back({head, done});
  // The previous iteration's writes come before this one's reads.
  Accesses before = accessed_, looped = accessesOf(ast_.list(f.body));
  accessed_.add(looped);
  lowerBody(ast_.list(f.body));
  accessed_.add(before);
  accessed_.add(looped);
  loopExits_.pop_back();
  --loopDepth_;
  tid_ = savedTid;
  if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(head);
  b_.SetInsertPoint(done);
}

void TileLowering::lowerWhile(const ast::While& w) {
  const ConstValue* known = constOf(w.test);
  if (known != nullptr && !frontend::truthOf(*known)) return;  // never runs (not typed)
  auto* head = llvm::BasicBlock::Create(context_, "while.head", function_);
  auto* body = llvm::BasicBlock::Create(context_, "while.body", function_);
  auto* done = llvm::BasicBlock::Create(context_, "while.done", function_);
  // The previous iteration's writes come before this one's reads (the condition's too).
  Accesses before = accessed_, looped = accessesOf(ast_.list(w.body));
  accessed_.add(looped);
  b_.CreateBr(head);
  b_.SetInsertPoint(head);
  // The condition is a scalar, the same in every thread (scalar atomics broadcast).
  if (known != nullptr) {
    b_.CreateBr(body);
  } else {
    b_.CreateCondBr(scalarAs(w.test, types_.boolean()), body, done);
  }
  b_.SetInsertPoint(body);
  ++loopDepth_;
  loopExits_.push_back({head, done});
  lowerBody(ast_.list(w.body));
  accessed_.add(before);
  accessed_.add(looped);
  loopExits_.pop_back();
  --loopDepth_;
  if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(head);
  b_.SetInsertPoint(done);
}

bool TileLowering::exitsLoop(std::span<const StmtId> body) const {
  for (StmtId id : body) {
    const frontend::Stmt& s = ast_.stmt(id);
    // A `with` body's exits go through its cleanup (and the generator's statements may be
    // anything): not pipelined.
    if (s.kind() == frontend::StmtKind::Break || s.kind() == frontend::StmtKind::Continue ||
        s.kind() == frontend::StmtKind::With) {
      return true;
    }
    if (s.kind() == frontend::StmtKind::If &&
        (exitsLoop(ast_.list(s.as<ast::If>().body)) || exitsLoop(ast_.list(s.as<ast::If>().orelse)))) {
      return true;
    }
  }
  return false;
}

bool TileLowering::lowerPipelinedFor(StmtId id, const ast::For& f) {
  if (!pipeStage_.empty()) return false;
  // The pipeline's prologue and epilogue assume every iteration runs.
  if (exitsLoop(ast_.list(f.body))) return false;
  std::vector<PipeLoad> pipes = planPipeline(f);
  if (pipes.empty()) return false;
  // The pipeline reads ahead of the body's writes: not an array the loop writes.
  Accesses writes = accessesOf(ast_.list(f.body));
  for (const PipeLoad& p : pipes) {
    const llvm::Value* root = rootOf(arrayArg(arg(p.call, 0)));
    for (const auto& [r, shapes] : writes.writes) {
      if (r == nullptr || root == nullptr || r == root) return false;
    }
  }
  uint64_t stageBytes = 0;
  for (const PipeLoad& p : pipes) stageBytes = std::max(stageBytes, p.offset + (p.bytes + 127) / 128 * 128);
  // Two CTAs per SM share its shared memory (docs/TILE.md, "Matrix products").
  uint64_t budget = twoCtas_ ? std::max<uint64_t>(kStaticShared, std::min<uint64_t>(maxShared_, (maxShared_ + 1024) / 2 - 2048))
                             : maxShared_ - 2048;
  uint64_t staged = stagedBytes(f, pipes);
  uint64_t stages = staged >= budget ? 0 : std::min<uint64_t>(kMaxStages, (budget - staged) / stageBytes);
  if (stages < 2) return false;
  bool wgmmaLoop = wgmma_ && std::any_of(pipes.begin(), pipes.end(), [](const PipeLoad& p) {
    return p.format == SmemFormat::MNMajor128;
  });
  // One wgmma group stays in flight across iterations (docs/BENCHMARKS.md).
  bool defer = wgmmaLoop && stages >= 3;
  uint64_t ahead = defer ? stages - 2 : stages - 1;
  // The ring of stages is the scratch buffer's start; while the body is
  // lowered, its other scratch uses come after it (ringInUse_).
  llvm::Value* ring = scratch(stages * stageBytes);
  auto stageBase = [&](llvm::Value* index) {
    return b_.CreateGEP(b_.getInt8Ty(), ring, b_.CreateMul(index, b_.getInt32(static_cast<uint32_t>(stageBytes))));
  };
  auto [it, start, stop, step, name, var] = rangeOf(id, f);
  llvm::Value* zero = llvm::ConstantInt::get(start->getType(), 0);
  llvm::Value* up = b_.CreateICmpSGT(step, zero);
  auto inRange = [&](llvm::Value* v) {
    return b_.CreateSelect(up, b_.CreateICmpSLT(v, stop), b_.CreateICmpSGT(v, stop));
  };
  auto nth = [&](llvm::Value* from, uint64_t k) {
    return b_.CreateAdd(from, b_.CreateMul(step, llvm::ConstantInt::get(start->getType(), k)));
  };
  // Two versions of the loop, chosen once: cp.async when every operand's
  // rows are 16-byte aligned and contiguous, else element-wise copies.
  llvm::Value* allAligned = b_.getTrue();
  for (const PipeLoad& p : pipes) allAligned = b_.CreateAnd(allAligned, pipeAligned(p));
  // The arrays' layouts and facts may decide it: then one version.
  auto* known = llvm::dyn_cast<llvm::ConstantInt>(allAligned);
  std::vector<bool> versions = known ? std::vector<bool>{known->isOne()} : std::vector<bool>{true, false};
  auto* fast = llvm::BasicBlock::Create(context_, "pipe.fast", function_);
  auto* slow = llvm::BasicBlock::Create(context_, "pipe.slow", function_);
  auto* join = llvm::BasicBlock::Create(context_, "pipe.join", function_);
  if (known) {
    b_.CreateBr(known->isOne() ? fast : slow);
    (known->isOne() ? slow : fast)->eraseFromParent();
  } else {
    b_.CreateCondBr(allAligned, fast, slow);
  }
  llvm::AllocaInst* counter = entryAlloca(llvmType(it), name + ".next");
  llvm::AllocaInst* iteration = entryAlloca(b_.getInt32Ty(), name + ".iteration");
  for (bool aligned : versions) {
    b_.SetInsertPoint(aligned ? fast : slow);
    // Prologue: iterations 0 .. ahead - 1.
    for (uint64_t k = 0; k < ahead; ++k) {
      llvm::Value* v = nth(start, k);
      b_.CreateStore(v, var);
      issuePipe(pipes, aligned, stageBase(b_.getInt32(static_cast<uint32_t>(k))), inRange(v));
    }
    b_.CreateStore(start, counter);
    b_.CreateStore(b_.getInt32(0), iteration);
    auto* head = llvm::BasicBlock::Create(context_, "pipe.head", function_);
    auto* body = llvm::BasicBlock::Create(context_, "pipe.body", function_);
    auto* done = llvm::BasicBlock::Create(context_, "pipe.exit", function_);
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::Value* i = b_.CreateLoad(llvmType(it), counter);
    b_.CreateCondBr(inRange(i), body, done);
    b_.SetInsertPoint(body);
    b_.CreateStore(b_.CreateAdd(i, step), counter);
    llvm::Value* j = b_.CreateLoad(b_.getInt32Ty(), iteration);
    b_.CreateStore(b_.CreateAdd(j, b_.getInt32(1)), iteration);
    b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_wait_group), {b_.getInt32(static_cast<uint32_t>(ahead - 1))});
    if (std::any_of(pipes.begin(), pipes.end(), [](const PipeLoad& p) { return p.format != SmemFormat::Swizzled; })) {
      // wgmma reads shared memory through the async proxy: order the copies' writes.
      asmStatement("fence.proxy.async.shared::cta;");
    }
    barrier();
    llvm::Value* aheadValue = nth(i, ahead);
    b_.CreateStore(aheadValue, var);
    llvm::Value* aheadStage = b_.CreateURem(b_.CreateAdd(j, b_.getInt32(static_cast<uint32_t>(ahead))),
                                            b_.getInt32(static_cast<uint32_t>(stages)));
    issuePipe(pipes, aligned, stageBase(aheadStage), inRange(aheadValue));
    b_.CreateStore(i, var);
    llvm::Value* current = stageBase(b_.CreateURem(j, b_.getInt32(static_cast<uint32_t>(stages))));
    for (const PipeLoad& p : pipes) {
      SmemTile t;
      t.base = b_.CreateGEP(b_.getInt8Ty(), current, b_.getInt32(static_cast<uint32_t>(p.offset)));
      t.rows = types_.get(p.tileType).shape[0];
      t.cols = types_.get(p.tileType).shape[1];
      t.bytes = types_.byteSize(elementOf(p.tileType));
      t.format = p.format;
      pipeStage_[p.name] = t;
    }
    ringInUse_ = stages * stageBytes;
    deferWgmma_ = defer;
    Accesses before = accessed_;
    accessed_.add(writes);
    lowerBody(ast_.list(f.body));
    accessed_.add(before);
    accessed_.add(writes);
    deferWgmma_ = false;
    pipeStage_.clear();
    ringInUse_ = 0;
    if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(head);
    b_.SetInsertPoint(done);
    // The group left in flight ends on this version's own exit: waiting
    // where the versions join lets ptxas see the other version's
    // accumulator copies inside the group and serialise every wgmma (C7514).
    if (defer) asmStatement("wgmma.wait_group.sync.aligned 0;");
    b_.CreateBr(join);
  }
  b_.SetInsertPoint(join);
  b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_wait_group), {b_.getInt32(0)});
  return true;
}

}  // namespace lowering::tile
