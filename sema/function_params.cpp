// The parameters of SIMT kernels and device functions: names and defaults
// (resolve_internal.h, readJitParams).
#include "sema/resolve_internal.h"

#include "sema/nested_kernels.h"

namespace frontend::resolve_detail {

namespace {

// numba types an omitted argument by its default's value: numbers, bools, None and
// tuples of those are what pykc folds into a specialisation.
bool isFoldableDefault(const ConstValue& v) {
  switch (v.kind) {
    case ConstValue::Kind::None:
    case ConstValue::Kind::Bool:
    case ConstValue::Kind::Int:
    case ConstValue::Kind::Float:
    case ConstValue::Kind::Complex:
      return true;
    case ConstValue::Kind::Tuple:
      return std::all_of(v.elements.begin(), v.elements.end(), [](const ConstValue& e) {
        return e.kind != ConstValue::Kind::None && isFoldableDefault(e);
      });
    case ConstValue::Kind::Str:
    case ConstValue::Kind::Enum:
    case ConstValue::Kind::Dtype:
      return false;
  }
  return false;
}

// Whether `body` (not nested functions) returns a value other than None.
bool returnsValue(const Ast& ast, std::span<const StmtId> body) {
  for (StmtId id : body) {
    const Stmt& s = ast.stmt(id);
    if (const auto* r = s.dyn<ast::Return>()) {
      if (!r->value.valid()) continue;
      const auto* c = ast.expr(r->value).dyn<ast::Constant>();
      if (c == nullptr || ast.constantOf(r->value).kind != ConstantKind::None) return true;
      continue;
    }
    for (auto inner : innerBodies(ast, s)) {
      if (returnsValue(ast, inner)) return true;
    }
  }
  return false;
}

// Whether a call of the plain name `name` lies inside one of `module`'s cuda.jit
// functions.
bool calledFromDeviceCode(const Ast& ast, const ResolvedModule& module, const std::string& name) {
  for (uint32_t e = 0; e < ast.exprCount(); ++e) {
    const auto* call = ast.expr(ExprId(e)).dyn<ast::Call>();
    // (A class's bases are parsed as a call with no callee.)
    const auto* callee = call && call->func.valid() ? ast.expr(call->func).dyn<ast::Name>() : nullptr;
    if (callee == nullptr || ast.str(callee->id) != name) continue;
    uint32_t line = ast.expr(ExprId(e)).range.lineno;
    for (const JitFunction& f : module.functions) {
      const NodeRange& r = ast.stmt(f.stmt).range;
      if (!f.tile && line >= r.lineno && line <= r.endLineno) return true;
    }
  }
  return false;
}

}  // namespace

bool compiledOnlyWhenCalled(const Ast& ast, const ResolvedModule& module, uint32_t index) {
  const JitFunction& f = module.functions[index];
  bool hidden = std::any_of(module.functions.begin(), module.functions.end(), [&](const JitFunction& g) {
    return g.name == f.name && g.scope == f.scope &&
           ast.stmt(g.stmt).range.lineno > ast.stmt(f.stmt).range.lineno;
  });
  return hidden || returnsValue(ast, ast.list(ast.stmt(f.stmt).functionDef()->body)) ||
         calledFromDeviceCode(ast, module, f.name);
}

bool readJitParams(const Ast& ast, const ast::FunctionDef& def, const ResolvedModule& module,
                   JitFunction& f, DiagnosticSink& diags) {
  const Arguments& args = ast.arguments(def.args);
  for (ArgId a : ast.list(args.args)) f.params.push_back(std::string(ast.str(ast.arg(a).arg)));
  if (!args.posonlyargs.empty() || args.vararg.valid() || !args.kwonlyargs.empty() ||
      args.kwarg.valid()) {
    diags.error(f.location, Diag::UnsupportedFeature,
                "kernels and device functions take plain positional parameters only "
                "(no `*args`, keyword-only, positional-only or `**kwargs`)");
    return false;
  }
  // Python's defaults belong to the last parameters.
  auto defaults = ast.list(args.defaults);
  size_t first = f.params.size() - defaults.size();
  for (size_t k = 0; k < defaults.size(); ++k) {
    ParamDefault d;
    d.param = static_cast<uint32_t>(first + k);
    d.expr = defaults[k];
    auto v = foldConstant(ast, defaults[k], module);
    if (v && isFoldableDefault(*v)) d.value = std::move(*v);
    f.defaults.push_back(std::move(d));
  }
  return true;
}

bool launchArityFits(const JitFunction& f, size_t given) {
  if (given > f.params.size()) return false;
  for (size_t p = given; p < f.params.size(); ++p) {
    if (f.defaultOf(p) == nullptr) return false;
  }
  return true;
}

}  // namespace frontend::resolve_detail
