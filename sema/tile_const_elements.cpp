// Constant elements of tuple parameters (sema/tile_const_elements.h).
#include "sema/tile_const_elements.h"

#include <cctype>

namespace frontend {

std::string elementConstName(const std::string& param, const std::vector<uint32_t>& path) {
  std::string s = param;
  for (uint32_t i : path) s += "[" + std::to_string(i) + "]";
  return s;
}

std::optional<ElementName> splitElementName(std::string_view name) {
  size_t open = name.find('[');
  if (open == std::string_view::npos || open == 0) return std::nullopt;
  ElementName out;
  out.param = std::string(name.substr(0, open));
  size_t i = open;
  while (i < name.size()) {
    if (name[i] != '[') return std::nullopt;
    size_t close = name.find(']', i);
    if (close == std::string_view::npos || close == i + 1 || close - i > 10) return std::nullopt;
    uint32_t v = 0;
    for (size_t k = i + 1; k < close; ++k) {
      if (!std::isdigit(static_cast<unsigned char>(name[k]))) return std::nullopt;
      v = v * 10 + static_cast<uint32_t>(name[k] - '0');
    }
    out.path.push_back(v);
    i = close + 1;
  }
  return out;
}

namespace {

// Whether `e` names `tuple` / `typing.Tuple`.
bool isTupleName(const Ast& ast, ExprId e) {
  const Expr& x = ast.expr(e);
  std::string_view name;
  if (const auto* n = x.dyn<ast::Name>()) name = ast.str(n->id);
  if (const auto* a = x.dyn<ast::Attribute>()) name = ast.str(a->attr);
  return name == "tuple" || name == "Tuple";
}

void walk(const Ast& ast, ExprId annotation, const std::function<bool(ExprId)>& isConstant,
          std::vector<uint32_t>& path, std::vector<std::vector<uint32_t>>& out, int depth) {
  const auto* sub = ast.expr(annotation).dyn<ast::Subscript>();
  if (sub == nullptr || depth > 16 || !isTupleName(ast, sub->value)) return;
  std::vector<ExprId> elements;
  if (const auto* t = ast.expr(sub->slice).dyn<ast::Tuple>()) {
    for (ExprId e : ast.list(t->elts)) elements.push_back(e);
  } else {
    elements.push_back(sub->slice);
  }
  for (size_t i = 0; i < elements.size(); ++i) {
    path.push_back(static_cast<uint32_t>(i));
    if (isConstant(elements[i])) {
      out.push_back(path);
    } else {
      walk(ast, elements[i], isConstant, path, out, depth + 1);
    }
    path.pop_back();
  }
}

}  // namespace

std::vector<std::vector<uint32_t>> constantElementPaths(const Ast& ast, ExprId annotation,
                                                        const std::function<bool(ExprId)>& isConstant) {
  std::vector<std::vector<uint32_t>> out;
  std::vector<uint32_t> path;
  walk(ast, annotation, isConstant, path, out, 0);
  return out;
}

}  // namespace frontend
