#include "sema/const_instance.h"

#include "diagnostics/diagnostics.h"
#include "sema/dataclasses.h"

namespace frontend {
namespace {

// The encodings: a tuple whose scalarType marks it (no other tuple has one).
constexpr const char* kCall = "<call>";          // strValue: the class; elements: (args, ((key, value), ...))
constexpr const char* kInstance = "<instance>";  // strValue: `Class:field,field`; elements: the fields

std::string dotted(const Ast& ast, ExprId e) {
  if (const auto* n = ast.expr(e).dyn<ast::Name>()) return std::string(ast.str(n->id));
  if (const auto* a = ast.expr(e).dyn<ast::Attribute>()) {
    std::string base = dotted(ast, a->value);
    return base.empty() ? "" : base + "." + std::string(ast.str(a->attr));
  }
  return "";
}

ConstValue tupleOf(std::vector<ConstValue> elements) {
  ConstValue t;
  t.kind = ConstValue::Kind::Tuple;
  t.elements = std::move(elements);
  return t;
}

std::vector<std::string> fieldNames(const ConstValue& v) {
  std::vector<std::string> out;
  std::string s = v.strValue.substr(v.strValue.find(':') + 1);
  for (size_t start = 0; !s.empty() && start <= s.size();) {
    size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// Whether the class's `__post_init__` may change fields (`object.__setattr__`): the host
// would, and pykc does not run it.
bool postInitSets(const Ast& ast, const DataclassInfo& info) {
  auto m = classMethod(ast, info, "__post_init__");
  if (!m || ast.source() == nullptr) return false;
  const NodeRange& r = ast.stmt(*m).range;
  for (uint32_t line = r.lineno; line <= r.endLineno; ++line) {
    if (ast.source()->lineText(line).find("__setattr__") != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::optional<ConstValue> foldConstCall(const Ast& ast, ExprId e) {
  const auto* call = ast.expr(e).dyn<ast::Call>();
  if (call == nullptr) return std::nullopt;
  std::string cls = dotted(ast, call->func);
  if (cls.empty()) return std::nullopt;
  ResolvedModule none;
  auto value = [&](ExprId a) -> std::optional<ConstValue> {
    if (ast.expr(a).is<ast::Call>()) return foldConstCall(ast, a);
    return foldConstant(ast, a, none);
  };
  std::vector<ConstValue> args;
  for (ExprId a : ast.list(call->args)) {
    auto v = ast.expr(a).is<ast::Starred>() ? std::nullopt : value(a);
    if (!v) return std::nullopt;
    args.push_back(std::move(*v));
  }
  std::vector<ConstValue> keywords;
  for (KeywordId kid : ast.list(call->keywords)) {
    const Keyword& k = ast.keyword(kid);
    auto v = k.arg.valid() ? value(k.value) : std::nullopt;
    if (!v) return std::nullopt;
    ConstValue key;
    key.kind = ConstValue::Kind::Str;
    key.strValue = std::string(ast.str(k.arg));
    keywords.push_back(tupleOf({key, std::move(*v)}));
  }
  ConstValue out = tupleOf({tupleOf(std::move(args)), tupleOf(std::move(keywords))});
  out.scalarType = kCall;
  out.strValue = cls;
  return out;
}

bool isConstCall(const ConstValue& v) { return v.kind == ConstValue::Kind::Tuple && v.scalarType == kCall; }

bool isConstInstance(const ConstValue& v) {
  return v.kind == ConstValue::Kind::Tuple && v.scalarType == kInstance;
}

std::string constInstanceClass(const ConstValue& v) { return v.strValue.substr(0, v.strValue.find(':')); }

std::vector<std::string> constInstanceFields(const ConstValue& v) { return fieldNames(v); }

std::optional<size_t> constInstanceField(const ConstValue& v, const std::string& field) {
  std::vector<std::string> names = fieldNames(v);
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == field) return i;
  }
  return std::nullopt;
}

std::string constObjectRepr(const ConstValue& v) {
  std::string s = (isConstCall(v) ? v.strValue : constInstanceClass(v)) + "(";
  if (isConstCall(v)) {
    bool first = true;
    for (const ConstValue& a : v.elements[0].elements) s += (std::exchange(first, false) ? "" : ", ") + a.repr();
    for (const ConstValue& k : v.elements[1].elements) {
      s += (std::exchange(first, false) ? "" : ", ") + k.elements[0].strValue + "=" + k.elements[1].repr();
    }
    return s + ")";
  }
  std::vector<std::string> names = fieldNames(v);
  for (size_t i = 0; i < v.elements.size() && i < names.size(); ++i) {
    s += (i ? ", " : "") + names[i] + "=" + v.elements[i].repr();
  }
  return s + ")";
}

namespace {

// The pending call `v` bound (nullopt: `why` says why).
std::optional<ConstValue> bindCall(const Ast& ast, const ResolvedModule& module, const ConstValue& v, uint32_t scope,
                                   std::string& why) {
  if (!isConstCall(v)) return v;
  const std::string& cls = v.strValue;
  auto fail = [&](const std::string& text) {
    why = text;
    return std::nullopt;
  };
  const Entity* e = module.lookup(cls, scope);
  if (e == nullptr || e->kind != Intrinsic::HostValue || !isClassPayload(e->payload)) {
    return fail("`" + cls + "` is no dataclass the file defines (at module level or in the kernel's enclosing "
                "function)");
  }
  DataclassInfo info = dataclassInfo(ast, module, classStmtOf(e->payload), scope);
  if (!info.isDataclass || info.nonDataclassDerived) return fail("`" + cls + "` is not a dataclass");
  if (!info.frozen) {
    return fail("Only frozen dataclasses are supported as Constant values: declare `" + cls +
                "` with `@dataclass(frozen=True)`");
  }
  if (!info.init || info.customInit.valid() || info.customNew.valid()) {
    return fail("`" + cls + "` has its own __init__ or __new__: pykc makes constant instances with a dataclass's "
                "generated __init__ only");
  }
  if (postInitSets(ast, info)) {
    return fail("`" + cls + "`'s __post_init__ sets fields (object.__setattr__), which pykc does not run for a "
                "constant instance");
  }
  for (const DataclassField& f : info.fields) {
    if (f.initFalse || f.defaultFactory || f.initVar) {
      return fail("field `" + f.name + "` of `" + cls + "` is " +
                  (f.initVar ? "an InitVar" : f.initFalse ? "init=False" : "a default_factory") +
                  ", which constant instances do not take");
    }
  }
  const std::vector<ConstValue>& args = v.elements[0].elements;
  if (args.size() > info.fields.size()) {
    return fail("`" + cls + "` takes " + std::to_string(info.fields.size()) + " field(s) but " +
                std::to_string(args.size()) + " were given");
  }
  std::vector<std::optional<ConstValue>> given(info.fields.size());
  for (size_t i = 0; i < args.size(); ++i) given[i] = args[i];
  for (const ConstValue& k : v.elements[1].elements) {
    const std::string& key = k.elements[0].strValue;
    size_t i = 0;
    while (i < info.fields.size() && info.fields[i].name != key) ++i;
    if (i == info.fields.size()) return fail("`" + cls + "` has no field `" + key + "`");
    if (given[i]) return fail("`" + cls + "` got `" + key + "` twice");
    given[i] = k.elements[1];
  }
  ConstValue out = tupleOf({});
  out.scalarType = kInstance;
  out.strValue = cls + ":";
  for (size_t i = 0; i < info.fields.size(); ++i) {
    const DataclassField& f = info.fields[i];
    if (!given[i] && f.defaultValue.valid()) given[i] = foldConstant(ast, f.defaultValue, module);
    if (!given[i]) {
      return fail(f.defaultValue.valid() ? "the default of `" + cls + "." + f.name + "` is not a constant"
                                         : "`" + cls + "` needs its `" + f.name + "` field");
    }
    auto field = bindCall(ast, module, *given[i], scope, why);
    if (!field) return std::nullopt;
    out.elements.push_back(std::move(*field));
    out.strValue += (i ? "," : "") + f.name;
  }
  return out;
}

}  // namespace

std::optional<ConstValue> resolveConstObject(const Ast& ast, const ResolvedModule& module, const ConstValue& v,
                                             const std::string& flag, const std::string& name, uint32_t scope,
                                             DiagnosticSink& diags) {
  std::string why;
  auto out = bindCall(ast, module, v, scope, why);
  if (!out) diags.error(Diag::InvalidDefine, "`" + flag + " " + name + "=" + v.repr() + "`: " + why);
  return out;
}

}  // namespace frontend
