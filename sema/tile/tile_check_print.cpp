// Output from tile kernels: `print`, `ct.print`, `ct.printf` (one line per block, printed
// by thread 0 with a tile's elements as `[a, b, ...]`), and string constants (ct.assert_'s
// message). The checker turns each print into text pieces and values with C conversions
// (TilePrintPiece); constants are formatted here, as Python would.
#include <cstdio>
#include <cstring>

#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {
namespace {

bool floatLetter(char c) { return std::strchr("fFeEgGaA", c) != nullptr; }
bool intLetter(char c) { return std::strchr("diouxX", c) != nullptr; }  // u: ct.printf's only

// Python's repr of a str: single quotes unless the text holds one and no double quote.
std::string pyRepr(const std::string& s) {
  char q = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, q);
  for (char ch : s) {
    switch (ch) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (ch == q) out += '\\';
        out += ch;
    }
  }
  return out + q;
}

// A C conversion with its length modifier for the promoted value: `ll` for integers
// (printed as 64-bit), none for floats (printed as double).
std::string withLength(const std::string& flagsWidthPrecision, char letter) {
  return "%" + flagsWidthPrecision + (intLetter(letter) ? "ll" : "") + std::string(1, letter);
}

}  // namespace

std::optional<std::string> TileChecker::stringConstant(ExprId id, const std::string& what) {
  if (ast_.expr(id).is<ast::Constant>() && ast_.constantOf(id).kind == ConstantKind::Str) {
    return ast_.constantOf(id).text;
  }
  if (!ast_.expr(id).is<ast::Constant>()) {
    TV v = checkExpr(id);
    if (!v.ok()) return std::nullopt;
    if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Str) return v.c.strValue;
    diags_.error(loc(id), Diag::TileType, what + " is a string constant, found `" + describe(v) + "`");
    return std::nullopt;
  }
  diags_.error(loc(id), Diag::TileType, what + " is a string constant");
  return std::nullopt;
}

// Python's format spec `[[fill]align][sign][#][0][width][.precision][type]` as a C
// conversion for numbers of `t` (ints, bools, floats).
std::optional<std::string> TileChecker::printConversion(ExprId where, const std::string& spec, TypeId t) {
  bool isFloat = types_.isFloat(t);
  auto bad = [&](const std::string& why) -> std::optional<std::string> {
    diags_.error(loc(where), Diag::TileType, "format spec `" + spec + "` " + why);
    return std::nullopt;
  };
  size_t i = 0;
  std::string flags;
  auto isAlign = [](char c) { return c == '<' || c == '>' || c == '=' || c == '^'; };
  char fill = ' ', align = 0;
  if (spec.size() >= 2 && isAlign(spec[1])) {
    fill = spec[0];
    align = spec[1];
    i = 2;
  } else if (!spec.empty() && isAlign(spec[0])) {
    align = spec[0];
    i = 1;
  }
  if (align == '^') return bad("centres the text: kernels' printf cannot");
  if (align == '<') flags += '-';
  if (align == '=' && fill != '0') return bad("pads after the sign with a fill other than 0: kernels' printf cannot");
  if (align == '=' || (align != 0 && fill == '0')) flags += '0';
  if (fill != ' ' && fill != '0') return bad("fills with `" + std::string(1, fill) + "`: kernels' printf pads with spaces or 0");
  if (i < spec.size() && (spec[i] == '+' || spec[i] == ' ')) flags += spec[i++];
  else if (i < spec.size() && spec[i] == '-') ++i;
  if (i < spec.size() && spec[i] == '#') flags += spec[i++];
  if (i < spec.size() && spec[i] == '0') flags += spec[i++];
  std::string width, precision;
  while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) width += spec[i++];
  if (i < spec.size() && (spec[i] == ',' || spec[i] == '_')) return bad("groups digits: kernels' printf cannot");
  if (i < spec.size() && spec[i] == '.') {
    precision = ".";
    ++i;
    while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) precision += spec[i++];
    if (precision == ".") return bad("has no digits after `.`");
  }
  char letter = 0;
  if (i < spec.size()) letter = spec[i++];
  if (i != spec.size()) return bad("is not a format spec pykc understands");
  if (letter == 'n') letter = isFloat ? 'g' : 'd';
  if (letter == 0) letter = isFloat ? (precision.empty() ? 'f' : 'g') : 'd';
  if (!floatLetter(letter) && !intLetter(letter)) {
    return bad("uses `" + std::string(1, letter) + "`: kernels print numbers with d, o, x, X, e, E, f, F, g or G");
  }
  if (isFloat && intLetter(letter)) {
    return bad("formats integers, found `" + nameOf(t) + "`: convert it with `astype` or use f, e or g");
  }
  return withLength(flags + width + precision, letter);
}

// A compile-time value as Python prints it (`repr`: as inside a tuple).
std::optional<std::string> TileChecker::printConstant(ExprId where, const ConstValue& c, const std::string& spec,
                                                      bool repr) {
  switch (c.kind) {
    case ConstValue::Kind::Str:
      return repr ? pyRepr(c.strValue) : c.strValue;
    case ConstValue::Kind::None:
      return std::string("None");
    case ConstValue::Kind::Bool:
      if (spec.empty()) return std::string(c.boolValue ? "True" : "False");
      [[fallthrough]];
    case ConstValue::Kind::Int:
    case ConstValue::Kind::Float: {
      if (spec.empty()) return c.kind == ConstValue::Kind::Float ? c.repr() : std::to_string(c.intValue);
      bool isFloat = c.kind == ConstValue::Kind::Float;
      auto conv = printConversion(where, spec, isFloat ? types_.floatType(64) : types_.int64());
      if (!conv) return std::nullopt;
      char buf[512];
      if (floatLetter(conv->back())) {
        std::snprintf(buf, sizeof buf, conv->c_str(), isFloat ? c.floatValue : static_cast<double>(c.intValue));
      } else {
        std::snprintf(buf, sizeof buf, conv->c_str(), static_cast<long long>(c.kind == ConstValue::Kind::Bool ? c.boolValue : c.intValue));
      }
      return std::string(buf);
    }
    case ConstValue::Kind::Complex:
      return std::nullopt;
    case ConstValue::Kind::Dtype:
      return std::nullopt;
    case ConstValue::Kind::Enum:
      // Python's str (`Color.RED`) and repr (`<Color.RED: 0>`) of a member.
      return repr ? "<" + c.strValue + ": " + c.elements[0].repr() + ">" : c.strValue;
    case ConstValue::Kind::Tuple: {
      std::string out = "(";
      for (size_t k = 0; k < c.elements.size(); ++k) {
        auto e = printConstant(where, c.elements[k], "", true);
        if (!e) return std::nullopt;
        out += (k ? ", " : "") + *e;
      }
      return out + (c.elements.size() == 1 ? ",)" : ")");
    }
  }
  return std::nullopt;
}

// A run-time tuple of numbers as a format with one conversion per number.
std::optional<std::string> TileChecker::printTupleFormat(ExprId where, TypeId t) {
  const Type& tt = types_.get(t);
  std::string out = "(";
  for (size_t k = 0; k < tt.elements.size(); ++k) {
    TypeId e = tt.elements[k];
    std::string part;
    if (isDataclassType(types_, e)) {
      diags_.error(loc(where), Diag::TileUnsupported, "printing a dataclass instance (`" + nameOf(e) + "`)",
                   ": print its fields");
      return std::nullopt;
    }
    if (types_.isTuple(e)) {
      auto inner = printTupleFormat(where, e);
      if (!inner) return std::nullopt;
      part = *inner;
    } else if (types_.isBool(e)) {
      part = "%s";
    } else if (types_.isNumber(e)) {
      part = *printConversion(where, "", e);
    } else {
      diags_.error(loc(where), Diag::TileUnsupported, "printing a tuple that holds `" + nameOf(e) + "`");
      return std::nullopt;
    }
    out += (k ? ", " : "") + part;
  }
  return out + (tt.elements.size() == 1 ? ",)" : ")");
}

bool TileChecker::isStringExpr(ExprId e) const {
  const Expr& x = ast_.expr(e);
  if (x.is<ast::JoinedStr>()) return true;
  if (x.is<ast::Constant>()) return ast_.constantOf(e).kind == ConstantKind::Str;
  if (const auto* n = x.dyn<ast::Name>()) return strings_.count(std::string(ast_.str(n->id))) != 0;
  if (const auto* b = x.dyn<ast::BinOp>()) {
    return b->op == Operator::Add && isStringExpr(b->left) && isStringExpr(b->right);
  }
  return false;
}

std::optional<std::string> TileChecker::constText(ExprId e) const {
  const Expr& x = ast_.expr(e);
  if (x.is<ast::Constant>() && ast_.constantOf(e).kind == ConstantKind::Str) return ast_.constantOf(e).text;
  if (const auto* n = x.dyn<ast::Name>()) {
    std::string name(ast_.str(n->id));
    if (auto c = consts_.find(name); c != consts_.end() && c->second.kind == ConstValue::Kind::Str) {
      return c->second.strValue;
    }
    return std::nullopt;
  }
  if (const auto* b = x.dyn<ast::BinOp>(); b != nullptr && b->op == Operator::Add) {
    auto l = constText(b->left);
    auto r = l ? constText(b->right) : std::nullopt;
    if (r) return *l + *r;
  }
  return std::nullopt;
}

// A name given a string (a literal, an f-string, a sum of them) stands for that text
// where it is printed; the f-string's values are read there. Text known here (no
// f-string) is also a constant: `c = a + b; ct.static_assert(c == "foobar")`.
bool TileChecker::bindString(const ast::Assign& a) {
  auto targets = ast_.list(a.targets);
  if (targets.size() != 1 || !ast_.expr(targets[0]).is<ast::Name>() || !isStringExpr(a.value)) return false;
  std::string name(ast_.str(ast_.expr(targets[0]).as<ast::Name>().id));
  if (vars_.count(name) || consts_.count(name) || assigned_[name] > 1) {
    diags_.error(loc(targets[0]), Diag::TileUnsupported, "a name that holds a string and is assigned again",
                 ": give the text a name of its own");
    return true;
  }
  strings_[name] = a.value;
  if (auto text = constText(a.value)) {
    ConstValue c;
    c.kind = ConstValue::Kind::Str;
    c.strValue = *text;
    consts_[name] = c;
  }
  return true;
}

bool TileChecker::printValue(ExprId e, const std::string& spec, bool repr, std::vector<TilePrintPiece>& out) {
  using Kind = TilePrintPiece::Kind;
  auto text = [&](const std::string& s) { out.push_back(TilePrintPiece{Kind::Text, s, ExprId()}); };
  const Expr& x = ast_.expr(e);
  if (const auto* n = x.dyn<ast::Name>(); n != nullptr && strings_.count(std::string(ast_.str(n->id)))) {
    return printValue(strings_.at(std::string(ast_.str(n->id))), spec, repr, out);
  }
  if (const auto* b = x.dyn<ast::BinOp>(); b != nullptr && isStringExpr(e) && !repr && spec.empty()) {
    return printValue(b->left, "", false, out) && printValue(b->right, "", false, out);
  }
  if (const auto* js = x.dyn<ast::JoinedStr>()) {
    if (!spec.empty()) {
      diags_.error(loc(e), Diag::TileUnsupported, "a format spec on a formatted string");
      return false;
    }
    std::string quote;
    if (repr) {  // the quotes Python would choose, from the literal parts
      std::string literal;
      for (ExprId v : ast_.list(js->values)) {
        if (ast_.expr(v).is<ast::Constant>()) literal += ast_.constantOf(v).text;
      }
      quote = pyRepr(literal).substr(0, 1);
      text(quote);
    }
    for (ExprId v : ast_.list(js->values)) {
      if (ast_.expr(v).is<ast::Constant>()) {
        std::string piece = ast_.constantOf(v).text;
        text(repr ? pyRepr(piece).substr(1, pyRepr(piece).size() - 2) : piece);
        continue;
      }
      const auto& fv = ast_.expr(v).as<ast::FormattedValue>();
      std::string inner;
      if (fv.formatSpec.valid()) {
        for (ExprId p : ast_.list(ast_.expr(fv.formatSpec).as<ast::JoinedStr>().values)) {
          if (!ast_.expr(p).is<ast::Constant>()) {
            diags_.error(loc(p), Diag::TileUnsupported, "a format spec computed at run time");
            return false;
          }
          inner += ast_.constantOf(p).text;
        }
      }
      bool was = formatting_;
      formatting_ = true;
      bool ok = printValue(fv.value, inner, fv.conversion == 'r', out);
      formatting_ = was;
      if (!ok) return false;
    }
    if (repr) text(quote);
    return true;
  }
  if (x.is<ast::Constant>() && ast_.constantOf(e).kind == ConstantKind::Str) {
    text(repr ? pyRepr(ast_.constantOf(e).text) : ast_.constantOf(e).text);
    return true;
  }
  if (const auto* tuple = x.dyn<ast::Tuple>()) {  // a tuple written here: its parts
    auto items = ast_.list(tuple->elts);
    text("(");
    for (size_t k = 0; k < items.size(); ++k) {
      if (k) text(", ");
      if (!printValue(items[k], "", true, out)) return false;
    }
    text(items.size() == 1 ? ",)" : ")");
    return true;
  }
  if (const auto* call = x.dyn<ast::Call>()) {
    // `repr(v)` / `str(v)` of what prints: its repr / str.
    const auto* f = ast_.expr(call->func).dyn<ast::Name>();
    std::string fname = f != nullptr ? std::string(ast_.str(f->id)) : std::string();
    if ((fname == "repr" || fname == "str") && isBuiltinName(fname) && ast_.list(call->args).size() == 1 &&
        call->keywords.empty() && spec.empty()) {
      if (!repr) return printValue(ast_.list(call->args)[0], "", fname == "repr", out);
      // The repr of that text: its pieces between quotes (a constant text only).
      std::vector<TilePrintPiece> inner;
      if (!printValue(ast_.list(call->args)[0], "", fname == "repr", inner)) return false;
      std::string all;
      for (const TilePrintPiece& p : inner) {
        if (p.kind != TilePrintPiece::Kind::Text) {
          diags_.error(loc(e), Diag::TileUnsupported, "the repr of a run-time `" + fname + "(...)`", "");
          return false;
        }
        all += p.text;
      }
      text(pyRepr(all));
      return true;
    }
  }
  TV v = checkExpr(e);
  if (!v.ok()) return false;
  if (v.k == TV::K::Entity && v.ent == Intrinsic::TypeObject) {
    // A dtype (`x.dtype`, `ct.float32`): its name, as cuTile prints it.
    text(types_.dtypeName(TypeId(v.payload)));
    return true;
  }
  if (v.k == TV::K::Value && isDataclassType(types_, v.type)) {
    if (!spec.empty()) {
      diags_.error(loc(e), Diag::TileType, "cannot apply format spec to a value of type " + nameOf(v.type));
      return false;
    }
    return printInstance(e, {}, v.type, repr, out);
  }
  if (v.k == TV::K::Const) {
    auto s = printConstant(e, v.c, spec, repr);
    if (!s) return false;
    text(*s);
    return true;
  }
  if (v.k == TV::K::Value && isTileVal(v)) {
    TypeId el = elementOf(v.type);
    if (types_.isFloat8(el)) {
      diags_.error(loc(e), Diag::TileUnsupported, "printing a tile of `" + nameOf(el) + "`", ": convert it with `astype(ct.float32)`");
      return false;
    }
    auto conv = printConversion(e, spec, types_.isBool(el) ? types_.int64() : el);
    if (!conv) return false;
    out.push_back(TilePrintPiece{Kind::Tile, *conv, e});
    return true;
  }
  if (v.k == TV::K::Value && types_.isBool(v.type) && spec.empty()) {
    out.push_back(TilePrintPiece{Kind::Number, "%s", e});
    return true;
  }
  if (v.k == TV::K::Value && (types_.isNumber(v.type) || types_.isBool(v.type))) {
    if (types_.isFloat8(v.type)) {
      diags_.error(loc(e), Diag::TileUnsupported, "printing a `" + nameOf(v.type) + "`", ": convert it with `astype(ct.float32)`");
      return false;
    }
    auto conv = printConversion(e, spec, types_.isBool(v.type) ? types_.int64() : v.type);
    if (!conv) return false;
    out.push_back(TilePrintPiece{Kind::Number, *conv, e});
    return true;
  }
  if (v.k == TV::K::Value && types_.isTuple(v.type)) {
    auto format = printTupleFormat(e, v.type);
    if (!format) return false;
    out.push_back(TilePrintPiece{Kind::Tuple, *format, e});
    return true;
  }
  diags_.error(loc(e), Diag::TileUnsupported, "printing `" + describe(v) + "`",
               ": kernels print strings, numbers, tiles and tuples of them");
  return false;
}

TV TileChecker::checkPrint(ExprId id, const ast::Call& c, bool printf, const std::string& fname) {
  using Kind = TilePrintPiece::Kind;
  std::vector<TilePrintPiece> pieces;
  auto args = ast_.list(c.args);
  for (ExprId a : args) {
    if (ast_.expr(a).is<ast::Starred>()) {
      diags_.error(loc(a), Diag::TileUnsupported, "`*` arguments to `" + fname + "`");
      return TV{};
    }
  }
  if (printf) {
    if (!ast_.list(c.keywords).empty() || args.empty()) {
      diags_.error(loc(id), Diag::TileType, "`" + fname + "` takes a format string and the values it formats");
      return TV{};
    }
    auto format = stringConstant(args[0], "the format of `" + fname + "`");
    if (!format) return TV{};
    size_t next = 1;
    std::string literal;
    for (size_t i = 0; i < format->size(); ++i) {
      char ch = (*format)[i];
      if (ch != '%') {
        literal += ch;
        continue;
      }
      if (i + 1 < format->size() && (*format)[i + 1] == '%') {
        literal += '%';
        ++i;
        continue;
      }
      size_t j = i + 1;
      std::string body;
      while (j < format->size() && std::strchr("-+ #0123456789.", (*format)[j])) body += (*format)[j++];
      while (j < format->size() && std::strchr("hlLqjzt", (*format)[j])) ++j;  // length: pykc's own
      char letter = j < format->size() ? (*format)[j] : 0;
      if (!floatLetter(letter) && !intLetter(letter)) {
        diags_.error(loc(args[0]), Diag::TileType,
                     "`" + fname + "` formats numbers and tiles (d, i, u, o, x, X, e, f, g, a), found `" +
                         format->substr(i, j + 1 - i) + "`");
        return TV{};
      }
      if (next >= args.size()) {
        diags_.error(loc(args[0]), Diag::TileType,
                     "`" + fname + "`'s format has more conversions than the " + std::to_string(args.size() - 1) +
                         " value(s) given");
        return TV{};
      }
      i = j;
      pieces.push_back(TilePrintPiece{Kind::Text, literal, ExprId()});
      literal.clear();
      ExprId value = args[next++];
      TV v = checkExpr(value);
      if (!v.ok()) return TV{};
      std::string conv = withLength(body, letter == 'i' ? 'd' : letter);
      TypeId t = v.k == TV::K::Value ? (isTileVal(v) ? elementOf(v.type) : v.type) : TypeId();
      if (v.k == TV::K::Const && v.c.isNumber()) {
        char buf[512];
        bool isFloat = v.c.kind == ConstValue::Kind::Float;
        if (isFloat && !floatLetter(letter)) t = types_.floatType(64);
        else if (floatLetter(letter)) std::snprintf(buf, sizeof buf, conv.c_str(), isFloat ? v.c.floatValue : double(v.c.intValue));
        else std::snprintf(buf, sizeof buf, conv.c_str(), static_cast<long long>(v.c.kind == ConstValue::Kind::Bool ? v.c.boolValue : v.c.intValue));
        if (!t.valid()) {
          pieces.push_back(TilePrintPiece{Kind::Text, buf, ExprId()});
          continue;
        }
      }
      if (!t.valid() || !(types_.isNumber(t) || types_.isBool(t)) || types_.isFloat8(t)) {
        diags_.error(loc(value), Diag::TileType, "`" + fname + "` formats numbers and tiles of numbers, found `" + describe(v) + "`");
        return TV{};
      }
      if (types_.isFloat(t) && !floatLetter(letter)) {
        diags_.error(loc(value), Diag::TileType,
                     "`%" + std::string(1, letter) + "` formats integers, found `" + describe(v) +
                         "`: use %f, %e or %g (or convert with `astype`)");
        return TV{};
      }
      pieces.push_back(TilePrintPiece{isTileVal(v) ? Kind::Tile : Kind::Number, conv, value});
    }
    pieces.push_back(TilePrintPiece{Kind::Text, literal, ExprId()});
    if (next != args.size()) {
      diags_.error(loc(args[next]), Diag::TileType,
                   "`" + fname + "`'s format has " + std::to_string(next - 1) + " conversion(s), but " +
                       std::to_string(args.size() - 1) + " value(s) are given");
      return TV{};
    }
  } else {
    std::string sep = " ", end = "\n";
    for (KeywordId k : ast_.list(c.keywords)) {
      const Keyword& kw = ast_.keyword(k);
      std::string name = kw.arg.valid() ? std::string(ast_.str(kw.arg)) : "**";
      if (name == "sep" || name == "end") {
        auto s = stringConstant(kw.value, "`" + name + "=` of `" + fname + "`");
        if (!s) return TV{};
        (name == "sep" ? sep : end) = *s;
      } else if (name == "flush") {
        if (!constBool(kw.value, "`flush=`")) return TV{};
      } else {
        diags_.error(loc(kw.value), Diag::TileType, "`" + fname + "` in a kernel takes `sep=`, `end=` and `flush=`, found `" + name + "=`");
        return TV{};
      }
    }
    for (size_t k = 0; k < args.size(); ++k) {
      if (k) pieces.push_back(TilePrintPiece{Kind::Text, sep, ExprId()});
      if (!printValue(args[k], "", false, pieces)) return TV{};
    }
    pieces.push_back(TilePrintPiece{Kind::Text, end, ExprId()});
  }
  std::vector<TilePrintPiece> merged;  // adjacent texts joined, empty ones dropped
  for (TilePrintPiece& p : pieces) {
    if (p.kind == Kind::Text && p.text.empty()) continue;
    if (p.kind == Kind::Text && !merged.empty() && merged.back().kind == Kind::Text) {
      merged.back().text += p.text;
    } else {
      merged.push_back(std::move(p));
    }
  }
  inst_.tilePrints[id.index] = std::move(merged);
  effects_ = true;
  return TV::value(types_.none());
}

}  // namespace frontend::tile
