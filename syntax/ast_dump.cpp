#include "syntax/ast_dump.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>

#include "syntax/parse_internal.h"

namespace frontend {
namespace {

// repr(float) digits: Python's 'r' format (shortest round-trip, exponent
// when the decimal exponent is < -4 or >= 16). `addDot0` adds ".0" to
// integral values (float repr), not for complex parts.
void appendFloat(std::string& out, double x, bool addDot0) {
  if (std::isinf(x)) {
    out += x < 0 ? "-inf" : "inf";
    return;
  }
  if (std::isnan(x)) {
    out += "nan";
    return;
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string_view s(buf, static_cast<size_t>(res.ptr - buf));
  bool neg = false;
  if (!s.empty() && s[0] == '-') {
    neg = true;
    s.remove_prefix(1);
  }
  size_t e = s.find('e');
  std::string digits;
  for (char c : s.substr(0, e))
    if (c != '.') digits += c;
  int exp10 = std::atoi(std::string(s.substr(e + 1)).c_str());
  // Strip trailing zeros of the mantissa (to_chars shortest has none, but 0).
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int decpt = exp10 + 1;
  if (neg) out += '-';
  if (decpt <= -4 || decpt > 16) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1, std::string::npos);
    }
    out += 'e';
    int ex = decpt - 1;
    out += ex < 0 ? '-' : '+';
    out += fmt::format("{:02}", ex < 0 ? -ex : ex);
    return;
  }
  if (decpt <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-decpt), '0');
    out += digits;
    return;
  }
  if (static_cast<size_t>(decpt) >= digits.size()) {
    out += digits;
    out.append(static_cast<size_t>(decpt) - digits.size(), '0');
    if (addDot0) out += ".0";
    return;
  }
  out.append(digits, 0, static_cast<size_t>(decpt));
  out += '.';
  out.append(digits, static_cast<size_t>(decpt), std::string::npos);
}

void appendStrRepr(std::string& out, std::string_view s, int version) {
  bool hasSingle = s.find('\'') != std::string_view::npos;
  bool hasDouble = s.find('"') != std::string_view::npos;
  char quote = hasSingle && !hasDouble ? '"' : '\'';
  out += quote;
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      if (c == static_cast<unsigned char>(quote) || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c < 0x20 || c == 0x7F) {
        out += fmt::format("\\x{:02x}", c);
      } else {
        out += static_cast<char>(c);
      }
      continue;
    }
    size_t len;
    uint32_t cp = detail::decodeUtf8(s, i, &len);
    if (detail::isPrintable(cp, version)) {
      out.append(s.substr(i, len));
    } else if (cp < 0x100) {
      out += fmt::format("\\x{:02x}", cp);
    } else if (cp < 0x10000) {
      out += fmt::format("\\u{:04x}", cp);
    } else {
      out += fmt::format("\\U{:08x}", cp);
    }
    i += len;
  }
  out += quote;
}

void appendBytesRepr(std::string& out, std::string_view s) {
  bool hasSingle = s.find('\'') != std::string_view::npos;
  bool hasDouble = s.find('"') != std::string_view::npos;
  char quote = hasSingle && !hasDouble ? '"' : '\'';
  out += 'b';
  out += quote;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  out += quote;
}

void appendConstant(std::string& out, const ConstantValue& v, int version) {
  switch (v.kind) {
  case ConstantKind::None: out += "None"; return;
  case ConstantKind::True: out += "True"; return;
  case ConstantKind::False: out += "False"; return;
  case ConstantKind::Ellipsis: out += "Ellipsis"; return;
  case ConstantKind::Int: out += v.text; return;
  case ConstantKind::Float: appendFloat(out, v.floatValue, true); return;
  case ConstantKind::Complex:
    appendFloat(out, v.floatValue, false);
    out += 'j';
    return;
  case ConstantKind::Str: appendStrRepr(out, v.text, version); return;
  case ConstantKind::Bytes: appendBytesRepr(out, v.text); return;
  }
}

class Dumper {
public:
  Dumper(const Ast& ast, const DumpOptions& options, std::string& out)
      : ast_(ast), version_(options.pythonVersion), attrs_(options.includeAttributes), out_(out) {}

  void module() {
    out_ += "Module(body=";
    list(ast_.moduleBody(), [&](StmtId s) { stmt(s); });
    out_ += ", type_ignores=[])";
  }

private:
  // Writes `, name=` (or `name=` for the first field).
  void field(const char* name) {
    if (!first_) out_ += ", ";
    first_ = false;
    out_ += name;
    out_ += '=';
  }
  void open(std::string_view cls) {
    out_ += cls;
    out_ += '(';
    first_ = true;
  }
  void close(const NodeRange* r) {
    if (attrs_ && r) {
      field("lineno");
      out_ += fmt::format("{}", r->lineno);
      field("col_offset");
      out_ += fmt::format("{}", r->colOffset);
      field("end_lineno");
      out_ += fmt::format("{}", r->endLineno);
      field("end_col_offset");
      out_ += fmt::format("{}", r->endColOffset);
    }
    out_ += ')';
    first_ = false;
  }
  template <class T, class F>
  void list(ListRef<T> ref, F&& each) {
    out_ += '[';
    bool firstItem = true;
    for (const T& x : ast_.list(ref)) {
      if (!firstItem) out_ += ", ";
      firstItem = false;
      each(x);
      first_ = false;
    }
    out_ += ']';
  }
  void str(Identifier id) { appendStrRepr(out_, ast_.str(id), version_); }
  void exprs(ExprList l) {
    list(l, [&](ExprId e) {
      if (e.valid()) expr(e);
      else out_ += "None";
    });
  }
  void stmts(StmtList l) { list(l, [&](StmtId s) { stmt(s); }); }
  void optExpr(const char* name, ExprId e) {
    if (!e.valid()) return;
    field(name);
    expr(e);
  }
  void optStr(const char* name, Identifier id) {
    if (!id.valid()) return;
    field(name);
    str(id);
  }
  void ctx(ExprContext c) {
    field("ctx");
    out_ += name(c);
    out_ += "()";
  }
  void typeParams(TypeParamList l) {
    if (version_ < 312) return;
    field("type_params");
    list(l, [&](TypeParamId id) { typeParam(id); });
  }

  // One field of a node (syntax/ast_fields.def), printed by its type; an
  // optional ExprId, Identifier or PatternId that is not valid is left out.
  void put(const char* name, ExprId e) { optExpr(name, e); }
  void put(const char* name, Identifier id) { optStr(name, id); }
  void put(const char* name, PatternId id) {
    if (!id.valid()) return;
    field(name);
    pattern(id);
  }
  void put(const char* name, ExprList l) {
    field(name);
    exprs(l);
  }
  void put(const char* name, StmtList l) {
    field(name);
    stmts(l);
  }
  void put(const char* name, PatternList l) {
    field(name);
    list(l, [&](PatternId x) { pattern(x); });
  }
  void put(const char* name, IdentifierList l) {
    field(name);
    list(l, [&](Identifier x) { str(x); });
  }
  void put(const char*, ExprContext c) { ctx(c); }
  template <class Op>
    requires std::is_enum_v<Op>
  void put(const char* name, Op op) {
    field(name);
    out_ += frontend::name(op);
    out_ += "()";
  }
  void put(const char* name, ListRef<CmpOp> ops) {
    field(name);
    list(ops, [&](CmpOp op) {
      out_ += frontend::name(op);
      out_ += "()";
    });
  }
  void put(const char* name, int32_t v) {
    field(name);
    out_ += fmt::format("{}", v);
  }
  void put(const char* name, ArgumentsId id) {
    field(name);
    arguments(id);
  }
  void put(const char* name, KeywordList l) {
    field(name);
    list(l, [&](KeywordId k) { keyword(k); });
  }
  void put(const char* name, ComprehensionList l) {
    field(name);
    comprehensions(l);
  }
  void put(const char*, TypeParamList l) { typeParams(l); }
  void put(const char* name, WithItemList l);
  void put(const char* name, MatchCaseList l);
  void put(const char* name, ExceptHandlerList l);
  void put(const char* name, AliasList l);

  void expr(ExprId id);
  void formatSpec(ExprId id);
  void stmt(StmtId id);
  void pattern(PatternId id);
  void arguments(ArgumentsId id);
  void arg(ArgId id);
  void keyword(KeywordId id);
  void comprehensions(ComprehensionList l);
  void typeParam(TypeParamId id);

  const Ast& ast_;
  int version_;
  bool attrs_;
  std::string& out_;
  bool first_ = true;
  // 3.11 only: the outermost f-string's range, which CPython 3.11 gives to
  // every Constant, FormattedValue and format spec inside it.
  const NodeRange* fstring311_ = nullptr;
};

void Dumper::put(const char* name, WithItemList l) {
  field(name);
  list(l, [&](WithItemId id) {
    const WithItem& item = ast_.withItem(id);
    open("withitem");
    field("context_expr");
    expr(item.contextExpr);
    optExpr("optional_vars", item.optionalVars);
    close(nullptr);
  });
}

void Dumper::put(const char* name, MatchCaseList l) {
  field(name);
  list(l, [&](MatchCaseId id) {
    const MatchCase& c = ast_.matchCase(id);
    open("match_case");
    field("pattern");
    pattern(c.pattern);
    optExpr("guard", c.guard);
    field("body");
    stmts(c.body);
    close(nullptr);
  });
}

void Dumper::put(const char* name, ExceptHandlerList l) {
  field(name);
  list(l, [&](ExceptHandlerId id) {
    const ExceptHandler& h = ast_.exceptHandler(id);
    open("ExceptHandler");
    optExpr("type", h.type);
    optStr("name", h.name);
    field("body");
    stmts(h.body);
    close(&h.range);
  });
}

void Dumper::put(const char* name, AliasList l) {
  field(name);
  list(l, [&](AliasId id) {
    const Alias& a = ast_.alias(id);
    open("alias");
    field("name");
    str(a.name);
    optStr("asname", a.asname);
    close(&a.range);
  });
}

void Dumper::arg(ArgId id) {
  const Arg& a = ast_.arg(id);
  open("arg");
  field("arg");
  str(a.arg);
  optExpr("annotation", a.annotation);
  optStr("type_comment", a.typeComment);
  close(&a.range);
}

void Dumper::arguments(ArgumentsId id) {
  const Arguments& a = ast_.arguments(id);
  open("arguments");
  auto args = [&](ArgList l) { list(l, [&](ArgId x) { arg(x); }); };
  field("posonlyargs");
  args(a.posonlyargs);
  field("args");
  args(a.args);
  if (a.vararg.valid()) {
    field("vararg");
    arg(a.vararg);
  }
  field("kwonlyargs");
  args(a.kwonlyargs);
  field("kw_defaults");
  exprs(a.kwDefaults);
  if (a.kwarg.valid()) {
    field("kwarg");
    arg(a.kwarg);
  }
  field("defaults");
  exprs(a.defaults);
  close(nullptr);
}

void Dumper::keyword(KeywordId id) {
  const Keyword& k = ast_.keyword(id);
  open("keyword");
  optStr("arg", k.arg);
  field("value");
  expr(k.value);
  close(&k.range);
}

void Dumper::comprehensions(ComprehensionList l) {
  list(l, [&](ComprehensionId id) {
    const Comprehension& c = ast_.comprehension(id);
    open("comprehension");
    field("target");
    expr(c.target);
    field("iter");
    expr(c.iter);
    field("ifs");
    exprs(c.ifs);
    field("is_async");
    out_ += c.isAsync ? '1' : '0';
    close(nullptr);
  });
}

void Dumper::typeParam(TypeParamId id) {
  const TypeParam& t = ast_.typeParam(id);
  switch (t.kind()) {
  case TypeParamKind::TypeVar:
    open("TypeVar");
    field("name");
    str(t.as<ast::TypeVar>().name);
    optExpr("bound", t.as<ast::TypeVar>().bound);
    break;
  case TypeParamKind::ParamSpec:
    open("ParamSpec");
    field("name");
    str(t.as<ast::ParamSpec>().name);
    break;
  case TypeParamKind::TypeVarTuple:
    open("TypeVarTuple");
    field("name");
    str(t.as<ast::TypeVarTuple>().name);
    break;
  }
  close(&t.range);
}

// One case of a node switch from syntax/ast_fields.def: the node's fields in order.
#define PYKC_F(member, python) put(python, n.member);
#define PYKC_DUMP_CASE(Enum, Kind, Payload, fields, node)    \
  case Enum::Kind: {                                         \
    [[maybe_unused]] const auto& n = node.as<ast::Payload>(); \
    fields                                                   \
    break;                                                   \
  }

void Dumper::expr(ExprId id) {
  const Expr& e = ast_.expr(id);
  const NodeRange* range = &e.range;
  const NodeRange* savedFString = fstring311_;
  if (version_ < 312) {
    bool piece = e.is<ast::Constant>() || e.is<ast::FormattedValue>() || e.is<ast::JoinedStr>();
    if (piece && fstring311_) range = fstring311_;
    if (e.is<ast::JoinedStr>() && !fstring311_) fstring311_ = &e.range;
    if (!piece) fstring311_ = nullptr;
  }
  open(name(e.kind()));
  switch (e.kind()) {
#define PYKC_EXPR(Kind, Payload, fields) PYKC_DUMP_CASE(ExprKind, Kind, Payload, fields, e)
#include "syntax/ast_fields.def"
  case ExprKind::FormattedValue: {
    const auto& n = e.as<ast::FormattedValue>();
    field("value");
    {
      // The value has its own position, even in 3.11.
      const NodeRange* inner = fstring311_;
      fstring311_ = nullptr;
      expr(n.value);
      fstring311_ = inner;
    }
    field("conversion");
    out_ += fmt::format("{}", n.conversion);
    if (n.formatSpec.valid()) {
      field("format_spec");
      formatSpec(n.formatSpec);
    }
    break;
  }
  case ExprKind::Constant: {
    const auto& n = e.as<ast::Constant>();
    field("value");
    appendConstant(out_, ast_.constant(n.value), version_);
    if (n.kindU) {
      field("kind");
      out_ += "'u'";
    }
    break;
  }
  }
  fstring311_ = savedFString;
  close(range);
}

// CPython 3.12's tokenizer ends a format spec whose last piece is a
// replacement field with an empty FSTRING_MIDDLE, which its AST keeps as
// Constant(value=''); 3.11 has no such piece. The tree never holds it.
void Dumper::formatSpec(ExprId id) {
  const Expr& e = ast_.expr(id);
  const auto* js = e.dyn<ast::JoinedStr>();
  std::span<const ExprId> values = js ? ast_.list(js->values) : std::span<const ExprId>();
  if (version_ < 312 || values.empty() || !ast_.expr(values.back()).is<ast::FormattedValue>()) {
    expr(id);
    return;
  }
  open("JoinedStr");
  field("values");
  out_ += '[';
  for (ExprId v : values) {
    expr(v);
    out_ += ", ";
  }
  open("Constant");
  field("value");
  out_ += "''";
  NodeRange empty{e.range.endLineno, e.range.endColOffset, e.range.endLineno, e.range.endColOffset};
  close(&empty);
  out_ += ']';
  first_ = false;
  close(&e.range);
}

void Dumper::stmt(StmtId id) {
  const Stmt& s = ast_.stmt(id);
  open(name(s.kind()));
  switch (s.kind()) {
#define PYKC_STMT(Kind, Payload, fields) PYKC_DUMP_CASE(StmtKind, Kind, Payload, fields, s)
#include "syntax/ast_fields.def"
  }
  close(&s.range);
}

void Dumper::pattern(PatternId id) {
  const Pattern& p = ast_.pattern(id);
  open(name(p.kind()));
  switch (p.kind()) {
#define PYKC_PATTERN(Kind, Payload, fields) PYKC_DUMP_CASE(PatternKind, Kind, Payload, fields, p)
#include "syntax/ast_fields.def"
  case PatternKind::MatchSingleton:
    field("value");
    appendConstant(out_, ast_.constant(p.as<ast::MatchSingleton>().value), version_);
    break;
  }
  close(&p.range);
}

#undef PYKC_DUMP_CASE
#undef PYKC_F

}  // namespace

std::string reprConstant(const ConstantValue& value, int pythonVersion) {
  std::string out;
  appendConstant(out, value, pythonVersion);
  return out;
}

std::string dumpAst(const Ast& ast, const DumpOptions& options) {
  std::string out;
  out.reserve(ast.exprCount() * 40 + ast.stmtCount() * 60 + 64);
  Dumper d(ast, options, out);
  d.module();
  return out;
}

}  // namespace frontend
