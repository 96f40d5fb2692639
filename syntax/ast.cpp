#include "syntax/ast.h"

namespace frontend {

std::string_view name(ExprContext v) {
  static constexpr std::string_view kNames[] = {"Load", "Store", "Del"};
  return kNames[static_cast<int>(v)];
}
std::string_view name(BoolOpKind v) { return v == BoolOpKind::And ? "And" : "Or"; }
std::string_view name(Operator v) {
  static constexpr std::string_view kNames[] = {"Add",    "Sub",    "Mult",   "MatMult", "Div",
                                                "Mod",    "Pow",    "LShift", "RShift",  "BitOr",
                                                "BitXor", "BitAnd", "FloorDiv"};
  return kNames[static_cast<int>(v)];
}
std::string_view name(UnaryOpKind v) {
  static constexpr std::string_view kNames[] = {"Invert", "Not", "UAdd", "USub"};
  return kNames[static_cast<int>(v)];
}
std::string_view name(CmpOp v) {
  static constexpr std::string_view kNames[] = {"Eq",  "NotEq", "Lt", "LtE",   "Gt",
                                                "GtE", "Is",    "IsNot", "In", "NotIn"};
  return kNames[static_cast<int>(v)];
}
std::string_view spelling(Operator v) {
  static constexpr std::string_view kNames[] = {"+", "-",  "*", "@", "/", "%", "**",
                                                "<<", ">>", "|", "^", "&", "//"};
  return kNames[static_cast<int>(v)];
}
std::string_view spelling(UnaryOpKind v) {
  static constexpr std::string_view kNames[] = {"~", "not", "+", "-"};
  return kNames[static_cast<int>(v)];
}
std::string_view spelling(CmpOp v) {
  static constexpr std::string_view kNames[] = {"==", "!=", "<",      "<=", ">",
                                                ">=", "is", "is not", "in", "not in"};
  return v == CmpOp::LtE ? "<=" : kNames[static_cast<int>(v)];
}

std::string_view name(ExprKind k) {
  static constexpr std::string_view kNames[] = {
#define PYKC_X(N) #N,
      PYKC_EXPR_NODES(PYKC_X)
#undef PYKC_X
  };
  return kNames[static_cast<int>(k)];
}
std::string_view name(StmtKind k) {
  static constexpr std::string_view kNames[] = {
#define PYKC_X(N, T) #N,
      PYKC_STMT_NODES(PYKC_X)
#undef PYKC_X
  };
  return kNames[static_cast<int>(k)];
}
std::string_view name(PatternKind k) {
  static constexpr std::string_view kNames[] = {
#define PYKC_X(N) #N,
      PYKC_PATTERN_NODES(PYKC_X)
#undef PYKC_X
  };
  return kNames[static_cast<int>(k)];
}

ExprContext Expr::ctx() const {
  switch (kind()) {
  case ExprKind::Attribute: return as<ast::Attribute>().ctx;
  case ExprKind::Subscript: return as<ast::Subscript>().ctx;
  case ExprKind::Starred: return as<ast::Starred>().ctx;
  case ExprKind::Name: return as<ast::Name>().ctx;
  case ExprKind::List: return as<ast::List>().ctx;
  case ExprKind::Tuple: return as<ast::Tuple>().ctx;
  default: return ExprContext::Load;
  }
}

const ast::FunctionDef* Stmt::functionDef() const {
  if (auto* f = dyn<ast::FunctionDef>()) return f;
  return dyn<ast::AsyncFunctionDef>();
}
const ast::For* Stmt::forLoop() const {
  if (auto* f = dyn<ast::For>()) return f;
  return dyn<ast::AsyncFor>();
}
const ast::With* Stmt::withStmt() const {
  if (auto* f = dyn<ast::With>()) return f;
  return dyn<ast::AsyncWith>();
}
const ast::Try* Stmt::tryStmt() const {
  if (auto* f = dyn<ast::Try>()) return f;
  return dyn<ast::TryStar>();
}

Identifier TypeParam::name() const {
  return std::visit([](const auto& p) { return p.name; }, data);
}

Identifier Ast::intern(std::string_view s) {
  auto it = stringIndex_.find(s);
  if (it != stringIndex_.end()) return Identifier(it->second);
  strings_.emplace_back(s);
  auto index = static_cast<uint32_t>(strings_.size() - 1);
  stringIndex_.emplace(std::string_view(strings_.back()), index);
  return Identifier(index);
}

}  // namespace frontend
