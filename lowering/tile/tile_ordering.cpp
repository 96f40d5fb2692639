// The order of a block's memory accesses: barriers between a write and a later read
// of the same array (tile_lower_internal.h, "the order of a block's memory accesses").
#include <llvm/Analysis/ValueTracking.h>

#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

const llvm::Value* TileLowering::rootOf(const ArrayArgs& a) const {
  if (a.root != nullptr) return a.root;
  const llvm::Value* o = llvm::getUnderlyingObject(a.data, 0);
  return llvm::isa<llvm::Argument>(o) ? o : nullptr;
}

const llvm::Value* TileLowering::exprRoot(ExprId e, int depth) {
  if (depth > 32) return nullptr;
  // Views and raw memory: their array's.
  while (e.valid() && ast_.expr(e).is<ast::Call>()) e = arg(e, 0);
  const auto* n = e.valid() ? ast_.expr(e).dyn<ast::Name>() : nullptr;
  if (n == nullptr) return nullptr;
  std::string name(ast_.str(n->id));
  if (auto it = arrays_.find(name); it != arrays_.end()) return rootOf(it->second);
  if (depth > 0 && varRoots_.count(name)) return varRoots_[name];
  return depth == 0 ? varRoot(name) : nullptr;
}

const llvm::Value* TileLowering::varRoot(const std::string& name) {
  if (auto it = varRoots_.find(name); it != varRoots_.end()) return it->second;
  varRoots_[name] = nullptr;  // while it is worked out (a cycle: unknown)
  const llvm::Value* root = nullptr;
  bool mixed = false;
  // Whether the assignment target `t` (a name, or a tuple or list of targets) binds `name`.
  auto bindsIn = [&](auto& self, ExprId t) -> bool {
    const frontend::Expr& x = ast_.expr(t);
    if (const auto* n = x.dyn<ast::Name>()) return ast_.str(n->id) == name;
    if (const auto* s = x.dyn<ast::Starred>()) return self(self, s->value);
    if (const auto* tu = x.dyn<ast::Tuple>()) {
      for (ExprId e : ast_.list(tu->elts)) {
        if (self(self, e)) return true;
      }
    }
    if (const auto* li = x.dyn<ast::List>()) {
      for (ExprId e : ast_.list(li->elts)) {
        if (self(self, e)) return true;
      }
    }
    return false;
  };
  auto binds = [&](ExprId t) { return bindsIn(bindsIn, t); };
  auto walk = [&](auto& self, std::span<const StmtId> stmts) -> void {
    for (StmtId id : stmts) {
      const frontend::Stmt& s = ast_.stmt(id);
      switch (s.kind()) {
        case frontend::StmtKind::Assign: {
          const auto& a = s.as<ast::Assign>();
          for (ExprId t : ast_.list(a.targets)) {
            const auto* tn = ast_.expr(t).dyn<ast::Name>();
            if (tn == nullptr) {
              // An unpacking that binds the name: unknown.
              mixed = mixed || binds(t);
              continue;
            }
            if (ast_.str(tn->id) != name) continue;
            const llvm::Value* r = exprRoot(a.value, 1);
            mixed = mixed || r == nullptr || (root != nullptr && r != root);
            root = r;
          }
          break;
        }
        case frontend::StmtKind::AnnAssign: {
          const auto& a = s.as<ast::AnnAssign>();
          const auto* tn = ast_.expr(a.target).dyn<ast::Name>();
          if (tn == nullptr || ast_.str(tn->id) != name || !a.value.valid()) break;
          const llvm::Value* r = exprRoot(a.value, 1);
          mixed = mixed || r == nullptr || (root != nullptr && r != root);
          root = r;
          break;
        }
        case frontend::StmtKind::For: {
          // A loop variable of that name (an array of a tuple, say): unknown.
          mixed = mixed || binds(s.as<ast::For>().target);
          self(self, ast_.list(s.as<ast::For>().body));
          break;
        }
        case frontend::StmtKind::While:
          self(self, ast_.list(s.as<ast::While>().body));
          break;
        case frontend::StmtKind::If:
          self(self, ast_.list(s.as<ast::If>().body));
          self(self, ast_.list(s.as<ast::If>().orelse));
          break;
        case frontend::StmtKind::With:
          for (frontend::WithItemId w : ast_.list(s.as<ast::With>().items)) {
            ExprId t = ast_.withItem(w).optionalVars;
            mixed = mixed || (t.valid() && binds(t));
          }
          self(self, ast_.list(s.as<ast::With>().body));
          break;
        default:
          break;
      }
    }
  };
  walk(walk, functionBody());
  const llvm::Value* out = mixed ? nullptr : root;
  varRoots_[name] = out;
  return out;
}

void TileLowering::access(const ArrayArgs& a, bool write, uint32_t shape) {
  const llvm::Value* root = rootOf(a);
  auto meets = [&](const std::map<const llvm::Value*, std::set<uint32_t>>& earlier) {
    for (const auto& [r, shapes] : earlier) {
      if (r != nullptr && root != nullptr && r != root) continue;
      for (uint32_t s : shapes) {
        if (s == 0 || shape == 0 || s != shape) return true;
      }
    }
    return false;
  };
  if (meets(accessed_.writes) || (write && meets(accessed_.reads))) barrier();
  (write ? accessed_.writes : accessed_.reads)[root].insert(shape);
}

uint32_t TileLowering::accessShape(ExprId call, TileFn fn) {
  if (!accessOrder(call).empty()) return 0;
  if (fn == TileFn::Load) {
    TypeId t = typeOf(call);
    return types_.isTile(t) && !layoutOf(t).uniform ? t.index : 0;
  }
  // ct.store: the stored tile's type (a scalar's: ones of the array's rank, one element,
  // which thread 0 stores).
  TypeId valueType = typeOf(arg(call, 2));
  if (!types_.isTile(valueType)) return kThreadZero;
  if (isMmaExpr(arg(call, 2))) return 0;
  TypeId t = types_.tile(elementOf(typeOf(arg(call, 0))), types_.get(valueType).shape);
  return layoutOf(t).uniform ? kThreadZero : t.index;
}

unsigned TileLowering::instanceAccesses(const frontend::FunctionInstance& inst, int depth) const {
  // Deeper than any helper chain the checker allows: assume both.
  if (depth > 256) return kReads | kWrites;
  unsigned found = 0;
  for (const frontend::ExprMeaning& m : inst.meanings) {
    if (m.kind != frontend::Intrinsic::TileOp) continue;
    auto fn = static_cast<TileFn>(m.payload);
    if (isTileWrite(fn)) found |= kWrites;
    if (isTileRead(fn)) found |= kReads;
  }
  frontend::forEachCallee(inst, [&](int32_t callee) {
    if (callee >= 0) found |= instanceAccesses(typed_.instances[static_cast<size_t>(callee)], depth + 1);
  });
  for (const frontend::StaticUnroll& u : inst.unrolled) {
    for (const frontend::FunctionInstance& it : u.iterations) found |= instanceAccesses(it, depth + 1);
  }
  return found;
}

TileLowering::Accesses TileLowering::accessesOf(std::span<const StmtId> body) {
  Accesses w;
  unsigned unknown = 0;  // a helper's or a compile-time loop's (kReads, kWrites): any array, any shape
  auto visit = [&](ExprId e) {
    if (!ast_.expr(e).is<ast::Call>()) return;
    int32_t callee = e.index < inst_->callees.size() ? inst_->callees[e.index] : -1;
    if (callee >= 0) {
      unknown |= instanceAccesses(typed_.instances[static_cast<size_t>(callee)]);
      return;
    }
    if (e.index >= inst_->meanings.size()) return;
    const frontend::ExprMeaning& m = inst_->meanings[e.index];
    if (m.kind != frontend::Intrinsic::TileOp) return;
    auto fn = static_cast<TileFn>(m.payload);
    bool write = isTileWrite(fn);
    bool read = isTileRead(fn);
    if (!write && !read) return;
    const llvm::Value* root = exprRoot(arg(e, 0));
    uint32_t shape = fn == TileFn::Load || fn == TileFn::Store ? accessShape(e, fn) : 0;
    if (write) w.writes[root].insert(shape);
    if (read) w.reads[root].insert(shape);
  };
  visitStmts(body, visit);
  // Compile-time loops inside: their iterations' tables hold the meanings.
  auto walk = [&](auto& self, std::span<const StmtId> stmts) -> void {
    for (StmtId id : stmts) {
      const frontend::Stmt& s = ast_.stmt(id);
      if (s.kind() == frontend::StmtKind::For) {
        if (const frontend::StaticUnroll* u = unrolledAt(id.index, false)) {
          for (const frontend::FunctionInstance& it : u->iterations) unknown |= instanceAccesses(it);
        }
        self(self, ast_.list(s.as<ast::For>().body));
      } else if (s.kind() == frontend::StmtKind::While) {
        self(self, ast_.list(s.as<ast::While>().body));
      } else if (s.kind() == frontend::StmtKind::If) {
        self(self, ast_.list(s.as<ast::If>().body));
        self(self, ast_.list(s.as<ast::If>().orelse));
      } else if (s.kind() == frontend::StmtKind::With) {
        self(self, ast_.list(s.as<ast::With>().body));
      }
    }
  };
  walk(walk, body);
  if (unknown & kReads) w.reads[nullptr].insert(0);
  if (unknown & kWrites) w.writes[nullptr].insert(0);
  return w;
}

}  // namespace lowering::tile
