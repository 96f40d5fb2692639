// cuTile's frozen dataclasses: what a class statement declares (sema/dataclasses.h).
#include "sema/dataclasses.h"

#include <algorithm>

#include "sema/resolve.h"

namespace frontend {

namespace {

// The last name of a dotted callee (`dataclasses.field` -> "field").
std::string lastName(const Ast& ast, ExprId e) {
  const Expr& x = ast.expr(e);
  if (const auto* n = x.dyn<ast::Name>()) return std::string(ast.str(n->id));
  if (const auto* a = x.dyn<ast::Attribute>()) return std::string(ast.str(a->attr));
  return {};
}

std::optional<bool> boolKeyword(const Ast& ast, const Keyword& k) {
  const auto* c = ast.expr(k.value).dyn<ast::Constant>();
  if (c == nullptr) return std::nullopt;
  const ConstantValue& v = ast.constant(c->value);
  if (v.kind == ConstantKind::True) return true;
  if (v.kind == ConstantKind::False) return false;
  if (v.kind == ConstantKind::Int) return v.intValue != 0;
  return std::nullopt;
}

void collect(const Ast& ast, const ResolvedModule& module, StmtId cls, uint32_t scope, DataclassInfo& out,
             int depth) {
  const auto& c = ast.stmt(cls).as<ast::ClassDef>();
  if (depth > 32) return;
  bool baseIsDataclass = false;
  for (ExprId b : ast.list(c.bases)) {
    const auto* n = ast.expr(b).dyn<ast::Name>();
    if (n == nullptr) continue;
    const Entity* e = module.lookup(std::string(ast.str(n->id)), scope);
    if (e == nullptr || e->kind != Intrinsic::HostValue || !isClassPayload(e->payload)) continue;
    StmtId base = classStmtOf(e->payload);
    if (base == cls) continue;
    DataclassInfo inner;
    collect(ast, module, base, scope, inner, depth + 1);
    baseIsDataclass = baseIsDataclass || inner.isDataclass;
    for (const DataclassField& f : inner.fields) {
      auto same = std::find_if(out.fields.begin(), out.fields.end(), [&](const DataclassField& g) { return g.name == f.name; });
      if (same == out.fields.end()) out.fields.push_back(f);
    }
    if (!out.customInit.valid()) out.customInit = inner.customInit;
    if (!out.customNew.valid()) out.customNew = inner.customNew;
    for (StmtId m : inner.mro) out.mro.push_back(m);
  }
  out.isDataclass = hasDataclassDecorator(ast, c);
  out.nonDataclassDerived = baseIsDataclass && !out.isDataclass;
  for (ExprId d : ast.list(c.decoratorList)) {
    const auto* call = ast.expr(d).dyn<ast::Call>();
    if (call == nullptr || lastName(ast, call->func) != "dataclass") continue;
    for (KeywordId kid : ast.list(call->keywords)) {
      const Keyword& k = ast.keyword(kid);
      if (!k.arg.valid()) continue;
      std::string key(ast.str(k.arg));
      auto v = boolKeyword(ast, k);
      if (!v) continue;
      if (key == "frozen") out.frozen = *v;
      if (key == "init") out.init = *v;
      if (key == "repr") out.repr = *v;
    }
  }
  for (StmtId id : ast.list(c.body)) {
    const Stmt& s = ast.stmt(id);
    if (const ast::FunctionDef* def = s.functionDef()) {
      std::string n(ast.str(def->name));
      if (n == "__init__") out.customInit = id;
      if (n == "__new__") out.customNew = id;
      continue;
    }
    const auto* a = s.dyn<ast::AnnAssign>();
    if (a == nullptr) continue;
    const auto* target = ast.expr(a->target).dyn<ast::Name>();
    if (target == nullptr) continue;
    DataclassField f;
    f.name = std::string(ast.str(target->id));
    f.defaultValue = a->value;
    if (a->annotation.valid()) {
      const auto* sub = ast.expr(a->annotation).dyn<ast::Subscript>();
      f.initVar = lastName(ast, sub != nullptr ? sub->value : a->annotation) == "InitVar";
    }
    if (a->value.valid()) {
      if (const auto* call = ast.expr(a->value).dyn<ast::Call>(); call != nullptr && lastName(ast, call->func) == "field") {
        f.viaField = true;
        f.defaultValue = ExprId();
        for (KeywordId kid : ast.list(call->keywords)) {
          const Keyword& k = ast.keyword(kid);
          if (!k.arg.valid()) continue;
          std::string key(ast.str(k.arg));
          if (key == "default") f.defaultValue = k.value;
          if (key == "default_factory") f.defaultFactory = true;
          if (key == "init") f.initFalse = boolKeyword(ast, k) == std::optional<bool>(false);
          if (key == "repr") f.reprFalse = boolKeyword(ast, k) == std::optional<bool>(false);
        }
      }
    }
    auto same = std::find_if(out.fields.begin(), out.fields.end(), [&](const DataclassField& g) { return g.name == f.name; });
    if (same != out.fields.end()) {
      *same = f;
    } else {
      out.fields.push_back(f);
    }
  }
  out.mro.insert(out.mro.begin(), cls);
}

}  // namespace

bool hasDataclassDecorator(const Ast& ast, const ast::ClassDef& cls) {
  for (ExprId d : ast.list(cls.decoratorList)) {
    const auto* call = ast.expr(d).dyn<ast::Call>();
    if (lastName(ast, call != nullptr ? call->func : d) == "dataclass") return true;
  }
  return false;
}

bool isUserClass(const Ast& ast, const ResolvedModule& module, const ast::ClassDef& cls) {
  if (hasDataclassDecorator(ast, cls)) return true;
  for (ExprId b : ast.list(cls.bases)) {
    const auto* n = ast.expr(b).dyn<ast::Name>();
    if (n == nullptr) continue;
    auto it = module.globals.find(std::string(ast.str(n->id)));
    if (it != module.globals.end() && it->second.kind == Intrinsic::HostValue && isClassPayload(it->second.payload)) {
      return true;
    }
  }
  return false;
}

bool isConstantInstance(const Ast& ast, const ResolvedModule& module, ExprId value) {
  const auto* call = ast.expr(value).dyn<ast::Call>();
  const auto* f = call != nullptr ? ast.expr(call->func).dyn<ast::Name>() : nullptr;
  if (f == nullptr) return false;
  auto it = module.globals.find(std::string(ast.str(f->id)));
  if (it == module.globals.end() || it->second.kind != Intrinsic::HostValue || !isClassPayload(it->second.payload)) {
    return false;
  }
  for (ExprId a : ast.list(call->args)) {
    if (ast.expr(a).is<ast::Starred>() || !foldConstant(ast, a, module)) return false;
  }
  for (KeywordId k : ast.list(call->keywords)) {
    if (!ast.keyword(k).arg.valid() || !foldConstant(ast, ast.keyword(k).value, module)) return false;
  }
  return true;
}

DataclassInfo dataclassInfo(const Ast& ast, const ResolvedModule& module, StmtId cls, uint32_t scope) {
  DataclassInfo out;
  out.stmt = cls;
  out.name = std::string(ast.str(ast.stmt(cls).as<ast::ClassDef>().name));
  collect(ast, module, cls, scope, out, 0);
  return out;
}

std::optional<StmtId> classMethod(const Ast& ast, const DataclassInfo& info, const std::string& name) {
  for (StmtId cls : info.mro) {
    for (StmtId id : ast.list(ast.stmt(cls).as<ast::ClassDef>().body)) {
      const ast::FunctionDef* def = ast.stmt(id).functionDef();
      if (def != nullptr && ast.str(def->name) == name) return id;
    }
  }
  return std::nullopt;
}

std::optional<ExprId> classConstant(const Ast& ast, const DataclassInfo& info, const std::string& name) {
  for (StmtId cls : info.mro) {
    for (StmtId id : ast.list(ast.stmt(cls).as<ast::ClassDef>().body)) {
      const auto* a = ast.stmt(id).dyn<ast::Assign>();
      if (a == nullptr) continue;
      for (ExprId t : ast.list(a->targets)) {
        const auto* n = ast.expr(t).dyn<ast::Name>();
        if (n != nullptr && ast.str(n->id) == name) return a->value;
      }
    }
  }
  return std::nullopt;
}

TypeId dataclassType(TypeTable& table, const std::string& name, const std::vector<std::string>& fields,
                     const std::vector<TypeId>& types) {
  Type t;
  t.kind = TypeKind::Tuple;
  t.elements = types;
  t.fieldNames.push_back(name);
  t.fieldNames.insert(t.fieldNames.end(), fields.begin(), fields.end());
  return table.intern(t);
}

bool isDataclassType(const TypeTable& table, TypeId t) {
  if (!t.valid()) return false;
  const Type& ty = table.get(t);
  return ty.kind == TypeKind::Tuple && ty.fieldNames.size() == ty.elements.size() + 1;
}

std::string dataclassName(const TypeTable& table, TypeId t) {
  return isDataclassType(table, t) ? table.get(t).fieldNames[0] : std::string();
}

std::optional<size_t> dataclassField(const TypeTable& table, TypeId t, const std::string& field) {
  if (!isDataclassType(table, t)) return std::nullopt;
  const auto& names = table.get(t).fieldNames;
  for (size_t i = 1; i < names.size(); ++i) {
    if (names[i] == field) return i - 1;
  }
  return std::nullopt;
}

}  // namespace frontend
