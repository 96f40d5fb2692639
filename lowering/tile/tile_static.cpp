// Compile-time loops (`for T in ct.static_iter(X)`, `tuple(ELT for T in ...)`): the checker
// typed each iteration on its own (FunctionInstance::unrolled); here the iterations are
// emitted one after another, each reading its own side tables, with the names it binds to
// run-time tuple elements assigned first.
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

const frontend::StaticUnroll* TileLowering::unrolledAt(uint32_t node, bool comprehension) const {
  for (const frontend::StaticUnroll& u : inst_->unrolled) {
    if (u.node == node && u.comprehension == comprehension) return &u;
  }
  return nullptr;
}

void TileLowering::bindStatic(const std::vector<frontend::StaticBinding>& bindings) {
  for (const frontend::StaticBinding& b : bindings) {
    std::string name(ast_.str(ast_.expr(b.target).as<ast::Name>().id));
    if (isTupleParamExpr(b.source)) {
      // An element of a tuple parameter: an array, a number or a tuple of them.
      TupleArg a = tupleValue(b.source);
      for (uint32_t i : b.path) a = a.elements[i];
      if (a.array.data != nullptr) {
        assignArray(name, a.array);
      } else if (a.scalar != nullptr) {
        assignName(b.target, TileVal{{a.scalar}}, a.type);
      } else {
        tuples_[name] = a;
      }
      continue;
    }
    TypeId t = typeOf(b.source);
    TileVal v = evalTuple(b.source, t);
    for (uint32_t i : b.path) {
      v = tupleParts(v, t)[i];
      t = types_.get(t).elements[i];
    }
    assignName(b.target, v, t);
  }
}

void TileLowering::lowerStaticFor(const frontend::StaticUnroll& u, const ast::For& f) {
  const frontend::FunctionInstance* outer = inst_;
  for (size_t k = 0; k < u.iterations.size(); ++k) {
    if (b_.GetInsertBlock()->getTerminator()) break;
    inst_ = &u.iterations[k];
    size_t bound = boundValues_.size();
    bindStatic(u.bindings[k]);
    lowerBody(ast_.list(f.body));
    boundValues_.resize(bound);
  }
  inst_ = outer;
}

TileVal TileLowering::staticTuple(const frontend::StaticUnroll& u, ExprId id) {
  const auto& g = ast_.expr(ast_.list(ast_.expr(id).as<ast::Call>().args)[0]).as<ast::GeneratorExp>();
  std::vector<TypeId> elements = types_.get(typeOf(id)).elements;
  const frontend::FunctionInstance* outer = inst_;
  TileVal out;
  for (size_t k = 0; k < u.iterations.size(); ++k) {
    inst_ = &u.iterations[k];
    size_t bound = boundValues_.size();
    bindStatic(u.bindings[k]);
    TileVal e = evalAs(g.elt, elements[k]);
    out.slots.insert(out.slots.end(), e.slots.begin(), e.slots.end());
    boundValues_.resize(bound);
  }
  inst_ = outer;
  return out;
}

}  // namespace lowering::tile
