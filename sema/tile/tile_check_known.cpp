// Partly constant tuples: what is known at compile time of a run-time tuple's elements
// (cuTile folds `tup = (ct.bid(0), 4); ct.arange(tup[1])`, and keeps `tup[1]` constant
// through an if/else whose branches both give it 4).
#include "sema/tile/tile_check_internal.h"

#include <algorithm>

#include "sema/tile_const_elements.h"

namespace frontend::tile {

namespace {

bool sameConst(const ConstValue& a, const ConstValue& b) {
  return a.kind == b.kind && a.repr() == b.repr() && a.scalarType == b.scalarType;
}

}  // namespace

TileChecker::Known TileChecker::meetOne(const Known& a, const Known& b) {
  Known out;
  if (a.c && b.c) {
    if (sameConst(*a.c, *b.c)) out.c = a.c;
    return out;
  }
  if (a.parts.size() == b.parts.size()) {
    for (size_t i = 0; i < a.parts.size(); ++i) out.parts.push_back(meetOne(a.parts[i], b.parts[i]));
  }
  return out;
}

bool TileChecker::Known::any() const {
  if (c) return true;
  for (const Known& p : parts) {
    if (p.any()) return true;
  }
  return false;
}

TileChecker::Known TileChecker::knownOf(ExprId e) const {
  Known k;
  if (int32_t c = inst_.constIndex[e.index]; c >= 0) {
    k.c = inst_.constants[static_cast<size_t>(c)];
    return k;
  }
  const Expr& x = ast_.expr(e);
  if (const auto* t = x.dyn<ast::Tuple>()) {
    for (ExprId elt : ast_.list(t->elts)) {
      if (ast_.expr(elt).is<ast::Starred>()) return Known{};
      k.parts.push_back(knownOf(elt));
    }
    return k;
  }
  if (x.is<ast::Call>()) {
    // A dataclass instance built here: its known fields.
    auto it = dataclassKnown_.find(e.index);
    return it != dataclassKnown_.end() ? it->second : Known{};
  }
  if (const auto* a = x.dyn<ast::Attribute>()) {
    // `x.shape` / `x.strides` of an array with specialisation constants.
    std::string_view attr = ast_.str(a->attr);
    TypeId t = a->value.index < inst_.exprTypes.size() ? inst_.exprTypes[a->value.index] : TypeId();
    if (auto i = dataclassField(types_, t, std::string(attr))) {  // a dataclass field
      Known base = knownOf(a->value);
      return *i < base.parts.size() ? base.parts[*i] : Known{};
    }
    if ((attr == "shape" || attr == "strides") && t.valid() && types_.isArray(t)) {
      return arrayAttrKnown(t, attr == "strides");
    }
    return Known{};
  }
  if (const auto* n = x.dyn<ast::Name>()) {
    if (auto d = dataclassKnown_.find(e.index); d != dataclassKnown_.end()) return d->second;  // a global instance
    auto it = known_.find(std::string(ast_.str(n->id)));
    return it != known_.end() ? it->second : Known{};
  }
  if (const auto* s = x.dyn<ast::Subscript>()) {
    int32_t c = inst_.constIndex[s->slice.index];
    if (c < 0) return Known{};
    const ConstValue& index = inst_.constants[static_cast<size_t>(c)];
    if (index.kind != ConstValue::Kind::Int) return Known{};
    Known base = knownOf(s->value);
    auto n = static_cast<int64_t>(base.parts.size());
    int64_t i = index.intValue < 0 ? index.intValue + n : index.intValue;
    if (i < 0 || i >= n) return Known{};
    return base.parts[static_cast<size_t>(i)];
  }
  return Known{};
}

void TileChecker::noteKnown(const std::string& name, TypeId t, ExprId value) {
  known_.erase(name);
  if (!t.valid() || !types_.isTuple(t)) return;
  Known k = knownOf(value);
  if (k.any()) known_[name] = std::move(k);
}

std::map<std::string, TileChecker::Known> TileChecker::meetKnown(const std::map<std::string, Known>& a,
                                                                 const std::map<std::string, Known>& b) {
  std::map<std::string, Known> out;
  for (const auto& [name, k] : a) {
    auto other = b.find(name);
    if (other == b.end()) continue;
    Known m = meetOne(k, other->second);
    if (m.any()) out.emplace(name, std::move(m));
  }
  return out;
}

void TileChecker::forgetLoopKnown() {
  for (const std::string& name : nestedAssigned_) known_.erase(name);
}

void TileChecker::seedKnownElement(const ElementName& element, const ConstValue& v) {
  auto at = std::find(fn_.params.begin(), fn_.params.end(), element.param);
  if (at == fn_.params.end()) return;
  TypeId t = inst_.argTypes[static_cast<size_t>(at - fn_.params.begin())];
  Known* k = &known_[element.param];
  for (uint32_t i : element.path) {
    if (!types_.isTuple(t) || i >= types_.get(t).elements.size()) {
      diags_.error(fn_.location, Diag::InvalidSignature,
                   "Constant `" + elementConstName(element.param, element.path) + "` names no element of `" +
                       element.param + "`'s type `" + types_.name(inst_.argTypes[static_cast<size_t>(
                                                              at - fn_.params.begin())]) + "`");
      return;
    }
    k->parts.resize(types_.get(t).elements.size());
    t = types_.get(t).elements[i];
    k = &k->parts[i];
  }
  if (!types_.isNumber(t) || !v.isNumber()) {
    diags_.error(fn_.location, Diag::InvalidSignature,
                 "Constant `" + elementConstName(element.param, element.path) + "` must be a number element, found `" +
                     types_.name(t) + "` given `" + v.repr() + "`");
    return;
  }
  k->c = v;
}

TileChecker::Known TileChecker::arrayAttrKnown(TypeId array, bool strides) const {
  const Type& t = types_.get(array);
  Known k;
  int unit = t.layout == Layout::C ? int(t.ndim) - 1 : t.layout == Layout::F ? 0 : -1;
  for (size_t d = 0; d < t.ndim; ++d) {
    Known part;
    int64_t c = strides ? t.facts.strideConst(d) : t.facts.shapeConst(d);
    if (strides && static_cast<int>(d) == unit) c = 1;
    if (c != ArrayFacts::kUnknown) part.c = ConstValue::ofInt(c);
    k.parts.push_back(std::move(part));
  }
  return k;
}

std::optional<ConstValue> TileChecker::knownElement(ExprId base, size_t i) const {
  Known k = knownOf(base);
  if (i < k.parts.size() && k.parts[i].c) return k.parts[i].c;
  return std::nullopt;
}

}  // namespace frontend::tile
