// `with cm(args) [as name]: body` over @contextmanager generators (docs/TILE.md, "Context
// managers"; sema/tile/tile_check_with.cpp). The generator is inlined as a helper call; its
// `yield` hands back to this function, which binds `as`, lowers the body and leaves it for
// the generator's statements after the `yield` (its cleanup) through one block. Each way
// out of the body (falling through, `break`, `continue`, `return`) stores its kind in a tag
// first; after the cleanup the tag picks where to go on, which may be the cleanup of a
// `with` around this one.
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

void TileLowering::lowerExit(ExitKind kind) {
  bool toWith = !withFrames_.empty() && (kind == ExitKind::Return || withFrames_.back().loops == loopExits_.size());
  if (toWith) {
    WithFrame& f = withFrames_.back();
    b_.CreateStore(b_.getInt32(static_cast<uint32_t>(kind)), f.tag);
    b_.CreateBr(f.cleanup);
    f.used.insert(kind);
    return;
  }
  switch (kind) {
    case ExitKind::Break:
      b_.CreateBr(loopExits_.back().done);
      return;
    case ExitKind::Continue:
      b_.CreateBr(loopExits_.back().next);
      return;
    default:
      if (exit_ != nullptr) {
        b_.CreateBr(exit_);  // an inlined helper (its value stored)
      } else {
        b_.CreateRetVoid();
      }
      return;
  }
}

void TileLowering::lowerYield(ExprId value) {
  // Only the generator's one `yield` is typed (a dead one after `break` is never reached).
  if (yieldHook_ == nullptr) return;
  if (value.valid() && !returnSlots_.empty()) {
    TileVal v = evalAs(value, inst_->returnType);
    for (size_t s = 0; s < returnSlots_.size(); ++s) b_.CreateStore(v.slots[s], returnSlots_[s]);
  } else if (value.valid() && constOf(value) == nullptr) {
    lowerCompileTimeCalls(value);
  }
  std::function<void(TileLowering&)>* hook = yieldHook_;
  yieldHook_ = nullptr;  // the body's own `with`s are the parent's
  (*hook)(*this);
}

void TileLowering::lowerWith(const ast::With& w) {
  const frontend::WithItem& item = ast_.withItem(ast_.list(w.items)[0]);
  ExprId call = item.contextExpr;
  ExprId target = item.optionalVars;
  WithFrame frame;
  frame.loops = loopExits_.size();
  frame.tag = entryAlloca(b_.getInt32Ty(), "with.exit");
  frame.cleanup = llvm::BasicBlock::Create(context_, "with.cleanup", function_);
  bool entered = false;
  std::function<void(TileLowering&)> hook = [&](TileLowering& child) {
    entered = true;
    // The generator's statements so far are in the child's blocks: go on from there.
    b_.SetInsertPoint(child.b_.GetInsertBlock());
    accessed_ = child.accessed_;
    scratch_ = child.scratch_;
    scratchBytes_ = std::max(scratchBytes_, child.scratchBytes_);
    usesTensorCores_ = usesTensorCores_ || child.usesTensorCores_;
    TypeId t = target.valid() ? typeOf(target) : TypeId();
    if (t.valid() && constOf(target) == nullptr && !child.returnSlots_.empty()) {
      TileVal v;
      for (llvm::AllocaInst* a : child.returnSlots_) v.slots.push_back(b_.CreateLoad(a->getAllocatedType(), a));
      assignName(target, v, t);
    }
    // A yielded closure's captures of the generator's values, as they are now.
    copyExports(child, call);
    withFrames_.push_back(frame);
    lowerBody(ast_.list(w.body));
    if (!b_.GetInsertBlock()->getTerminator()) {
      b_.CreateStore(b_.getInt32(static_cast<uint32_t>(ExitKind::FallThrough)), frame.tag);
      b_.CreateBr(frame.cleanup);
    }
    frame = withFrames_.back();
    withFrames_.pop_back();
    child.b_.SetInsertPoint(frame.cleanup);
    child.accessed_ = accessed_;
    child.scratch_ = scratch_;
    child.scratchBytes_ = std::max(scratchBytes_, child.scratchBytes_);
    child.usesTensorCores_ = child.usesTensorCores_ || usesTensorCores_;
  };
  // The generator's end copies the closure's captures again (sema: what `as` holds after).
  inlineHelper(call, nullptr, &hook);
  if (!entered) {
    // No `yield` reached (sema refused that): the cleanup block is unreachable.
    llvm::IRBuilder<> dead(frame.cleanup);
    dead.CreateUnreachable();
    return;
  }
  if (frame.used.empty()) return;  // the body only falls through
  if (b_.GetInsertBlock()->getTerminator()) return;
  auto* done = llvm::BasicBlock::Create(context_, "with.done", function_);
  llvm::Value* tag = b_.CreateLoad(b_.getInt32Ty(), frame.tag);
  llvm::SwitchInst* sw = b_.CreateSwitch(tag, done, static_cast<unsigned>(frame.used.size()));
  for (ExitKind kind : frame.used) {
    const char* name = kind == ExitKind::Break      ? "with.break"
                       : kind == ExitKind::Continue ? "with.continue"
                                                    : "with.return";
    auto* bb = llvm::BasicBlock::Create(context_, name, function_);
    sw->addCase(b_.getInt32(static_cast<uint32_t>(kind)), bb);
    b_.SetInsertPoint(bb);
    lowerExit(kind);
  }
  b_.SetInsertPoint(done);
}

}  // namespace lowering::tile
