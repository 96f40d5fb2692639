// Module-level values the resolver reads beyond constants: NumPy record dtypes and
// what depends on scipy.constants' measured values (resolve_internal.h).
#include "sema/resolve_internal.h"

namespace frontend::resolve_detail {

namespace {

// A NumPy type string of native byte order (`'<i4'`, `'f8'`, `'|b1'`, `'=u2'`, `'<c16'`):
// its scalar type, else nullopt.
std::optional<TypeId> numpyTypeString(TypeTable& types, std::string_view text) {
  if (!text.empty() && (text[0] == '<' || text[0] == '=' || text[0] == '|')) text.remove_prefix(1);
  if (text.size() < 2) return std::nullopt;
  char kind = text[0];
  std::string_view digits = text.substr(1);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos || digits.size() > 2) return std::nullopt;
  unsigned bytes = static_cast<unsigned>(std::stoul(std::string(digits)));
  switch (kind) {
    case 'b':
      return bytes == 1 ? std::optional<TypeId>(types.boolean()) : std::nullopt;
    case 'i':
    case 'u':
      if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) return std::nullopt;
      return types.intType(bytes * 8, kind == 'i');
    case 'f':
      if (bytes != 4 && bytes != 8) return std::nullopt;
      return types.floatType(bytes * 8);
    case 'c':
      if (bytes != 8 && bytes != 16) return std::nullopt;
      return types.complexType(bytes * 8);
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<TypeId> recordOfDtype(const Ast& ast, ExprId id, ResolvedModule& module, DiagnosticSink& diags,
                                     const std::function<std::optional<std::string>(ExprId)>& foldPath) {
  const Expr& e = ast.expr(id);
  if (const auto* name = e.dyn<ast::Name>()) {
    auto it = module.globals.find(std::string(ast.str(name->id)));
    if (it != module.globals.end() && it->second.kind == Intrinsic::TypeObject &&
        module.types.isRecord(TypeId(it->second.payload))) {
      return TypeId(it->second.payload);
    }
    return std::nullopt;
  }
  const auto* call = e.dyn<ast::Call>();
  if (call == nullptr) return std::nullopt;
  auto callee = entityPath(ast, call->func, module);
  if (!callee) return std::nullopt;
  auto args = ast.list(call->args);
  if ((*callee == "numba.from_dtype" || *callee == "numba.np.numpy_support.from_dtype") &&
      args.size() == 1) {
    return recordOfDtype(ast, args[0], module, diags, foldPath);
  }
  if (*callee != "numpy.dtype" || args.size() != 1) return std::nullopt;
  Location loc = locationOf(ast, e.range);
  bool aligned = false;
  for (KeywordId kid : ast.list(call->keywords)) {
    const Keyword& k = ast.keyword(kid);
    auto v = foldConstant(ast, k.value, module);
    if (!k.arg.valid() || ast.str(k.arg) != "align" || !v || !v->isNumber()) {
      diags.error(loc, Diag::InvalidType, "pykc reads `np.dtype([...], align=True/False)` only");
      return std::nullopt;
    }
    aligned = truthOf(*v);
  }
  const auto* list = ast.expr(args[0]).dyn<ast::List>();
  if (list == nullptr) return std::nullopt;
  std::vector<std::pair<std::string, TypeId>> fields;
  for (ExprId item : ast.list(list->elts)) {
    const auto* pair = ast.expr(item).dyn<ast::Tuple>();
    auto parts = pair ? ast.list(pair->elts) : std::span<const ExprId>();
    std::optional<TypeId> type;
    std::optional<std::string> fieldName;
    if (parts.size() == 2 || parts.size() == 3) {
      fieldName = foldPath(parts[0]);
      if (auto text = foldPath(parts[1])) {
        type = scalarTypeByName(module.types, *text);
        if (!type) type = numpyTypeString(module.types, *text);
      } else if (auto path = entityPath(ast, parts[1], module)) {
        auto entity = lookupEntity(*path, module.types);
        if (entity && entity->kind == Intrinsic::TypeObject) type = TypeId(entity->payload);
      }
    }
    if (!fieldName || !type || !module.types.isScalar(*type)) {
      diags.error(locationOf(ast, ast.expr(item).range), Diag::InvalidType,
                   "a record field is `('name', scalar type)` or `('name', scalar type, shape)`");
      return std::nullopt;
    }
    if (parts.size() == 3) {
      // `('password', '<i4', 20)`: a nested array field (numba's NestedArray).
      std::vector<int64_t> shape;
      auto extents = foldConstant(ast, parts[2], module);
      if (extents && extents->kind == ConstValue::Kind::Int) {
        shape.push_back(extents->intValue);
      } else if (extents && extents->kind == ConstValue::Kind::Tuple) {
        for (const ConstValue& x : extents->elements) {
          shape.push_back(x.kind == ConstValue::Kind::Int ? x.intValue : 0);
        }
      }
      bool ok = !shape.empty() && std::all_of(shape.begin(), shape.end(), [](int64_t n) {
        return n > 0 && n < (int64_t{1} << 24);
      });
      if (!ok) {
        diags.error(locationOf(ast, ast.expr(parts[2]).range), Diag::InvalidType,
                     "a nested array field's shape must be a positive integer or a tuple of them "
                     "known at compile time");
        return std::nullopt;
      }
      type = module.types.nestedArray(*type, std::move(shape));
    }
    fields.emplace_back(*fieldName, *type);
  }
  if (fields.empty()) return std::nullopt;
  return makeRecord(module.types, fields, aligned);
}

std::optional<ResolvedModule::MeasuredConstant> measuredDependency(const Ast& ast, const std::string& name, ExprId value,
                                                                  const ResolvedModule& module) {
  const NodeRange& r = ast.expr(value).range;
  auto before = [](uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
    return l1 < l2 || (l1 == l2 && c1 <= c2);
  };
  for (size_t i = 0; i < ast.exprCount(); ++i) {
    const Expr& x = ast.expr(ExprId(static_cast<uint32_t>(i)));
    const auto* n = x.dyn<ast::Name>();
    if (n == nullptr || !before(r.lineno, r.colOffset, x.range.lineno, x.range.colOffset) ||
        !before(x.range.endLineno, x.range.endColOffset, r.endLineno, r.endColOffset)) {
      continue;
    }
    auto it = module.measuredConstants.find(std::string(ast.str(n->id)));
    if (it == module.measuredConstants.end()) continue;
    ResolvedModule::MeasuredConstant m = it->second;
    if (m.defineName.empty()) m.defineName = name;
    return m;
  }
  return std::nullopt;
}

}  // namespace frontend::resolve_detail
