// Assignment targets and match patterns (the Parser's declaration: syntax/parser_internal.h).
#include "syntax/parser_internal.h"

namespace frontend::parser {

// ---------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------

const char* Parser::exprName(ExprId id) {
  const Expr& e = ast_.expr(id);
  switch (e.kind()) {
  case ExprKind::Attribute: return "attribute";
  case ExprKind::Subscript: return "subscript";
  case ExprKind::Starred: return "starred";
  case ExprKind::Name: return "name";
  case ExprKind::List: return "list";
  case ExprKind::Tuple: return "tuple";
  case ExprKind::Lambda: return "lambda";
  case ExprKind::Call: return "function call";
  case ExprKind::BoolOp:
  case ExprKind::BinOp:
  case ExprKind::UnaryOp: return "expression";
  case ExprKind::GeneratorExp: return "generator expression";
  case ExprKind::Yield:
  case ExprKind::YieldFrom: return "yield expression";
  case ExprKind::Await: return "await expression";
  case ExprKind::ListComp: return "list comprehension";
  case ExprKind::SetComp: return "set comprehension";
  case ExprKind::DictComp: return "dict comprehension";
  case ExprKind::Dict: return "dict literal";
  case ExprKind::Set: return "set display";
  case ExprKind::JoinedStr:
  case ExprKind::FormattedValue: return "f-string expression";
  case ExprKind::Constant:
    switch (ast_.constantOf(id).kind) {
    case ConstantKind::None: return "None";
    case ConstantKind::True: return "True";
    case ConstantKind::False: return "False";
    case ConstantKind::Ellipsis: return "ellipsis";
    default: return "literal";
    }
  case ExprKind::Compare: return "comparison";
  case ExprKind::IfExp: return "conditional expression";
  case ExprKind::NamedExpr: return "named expression";
  case ExprKind::Slice: return "slice";
  }
  return "expression";
}

// Finds the first sub-expression that cannot be a target.
static ExprId findInvalidTarget(const Ast& ast, ExprId id, bool forDel) {
  const Expr& e = ast.expr(id);
  switch (e.kind()) {
  case ExprKind::Name:
  case ExprKind::Attribute:
  case ExprKind::Subscript:
    return ExprId();
  case ExprKind::Starred:
    if (forDel) return id;
    return findInvalidTarget(ast, e.as<ast::Starred>().value, forDel);
  case ExprKind::Tuple:
    for (ExprId x : ast.list(e.as<ast::Tuple>().elts))
      if (ExprId bad = findInvalidTarget(ast, x, forDel); bad.valid()) return bad;
    return ExprId();
  case ExprKind::List:
    for (ExprId x : ast.list(e.as<ast::List>().elts))
      if (ExprId bad = findInvalidTarget(ast, x, forDel); bad.valid()) return bad;
    return ExprId();
  default:
    return id;
  }
}

static void applyContext(Ast& ast, ExprId id, ExprContext ctx) {
  Expr& e = ast.mutableExpr(id);
  switch (e.kind()) {
  case ExprKind::Name: e.as<ast::Name>().ctx = ctx; break;
  case ExprKind::Attribute: e.as<ast::Attribute>().ctx = ctx; break;
  case ExprKind::Subscript: e.as<ast::Subscript>().ctx = ctx; break;
  case ExprKind::Starred: {
    e.as<ast::Starred>().ctx = ctx;
    applyContext(ast, e.as<ast::Starred>().value, ctx);
    break;
  }
  case ExprKind::Tuple: {
    e.as<ast::Tuple>().ctx = ctx;
    for (ExprId x : ast.list(e.as<ast::Tuple>().elts)) applyContext(ast, x, ctx);
    break;
  }
  case ExprKind::List: {
    e.as<ast::List>().ctx = ctx;
    for (ExprId x : ast.list(e.as<ast::List>().elts)) applyContext(ast, x, ctx);
    break;
  }
  default: break;
  }
}

bool Parser::setContext(ExprId id, ExprContext ctx, const char* verb, bool hintFirst) {
  bool forDel = ctx == ExprContext::Del;
  ExprId bad = findInvalidTarget(ast_, id, forDel);
  if (bad.valid()) {
    const Expr& b = ast_.expr(bad);
    if (!forDel && (b.is<ast::Yield>() || b.is<ast::YieldFrom>())) {
      failNode(b.range, Diag::InvalidTarget, "assignment to yield expression not possible");
      return false;
    }
    bool hint = hintFirst && bad == id && !b.is<ast::GeneratorExp>();
    if (hint && b.is<ast::Constant>()) {
      ConstantKind k = ast_.constantOf(bad).kind;
      if (k == ConstantKind::True || k == ConstantKind::False || k == ConstantKind::None) hint = false;
    }
    if (hint && b.is<ast::IfExp>()) {
      failNode(join(b.range, b.range), Diag::InvalidSyntaxDetail,
               "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
      return false;
    }
    if (hint)
      failNode(b.range, Diag::InvalidTargetDetail,
               fmt::format("cannot {} {} here. Maybe you meant '==' instead of '='?", verb, exprName(bad)));
    else
      failNode(b.range, Diag::InvalidTarget, fmt::format("cannot {} {}", verb, exprName(bad)));
    return false;
  }
  applyContext(ast_, id, ctx);
  return true;
}

// ---------------------------------------------------------------------------
// match statements
// ---------------------------------------------------------------------------

StmtId Parser::parseMatch() {
  const Token& start = cur();
  matchCommitted_ = false;
  advance();  // match
  ExprId subject;
  {
    const Token& ss = cur();
    ExprId first = parseStarNamedExpression();
    if (failed_) return {};
    if (at(TK::Comma)) {
      Vec<ExprId> elts{first};
      while (accept(TK::Comma)) {
        if (at(TK::Colon)) break;
        ExprId e = parseStarNamedExpression();
        if (failed_) return {};
        elts.push_back(e);
      }
      subject = mk(rangeFrom(ss), ast::Tuple{list(elts), ExprContext::Load});
    } else {
      if (ast_.expr(first).is<ast::Starred>()) {
        failSyntax();
        return {};
      }
      subject = first;
    }
  }
  if (!at(TK::Colon) || peekTok().kind != TK::Newline) {
    failSyntax();
    return {};
  }
  advance();
  advance();
  matchCommitted_ = true;
  if (!at(TK::Indent)) {
    failTok(cur(), Diag::ExpectedIndent, fmt::format("expected an indented block after 'match' statement on line {}", start.line));
    return {};
  }
  advance();
  Vec<MatchCaseId> cases;
  while (atSoft("case")) {
    const Token& ct = cur();
    advance();
    PatternId pat = parsePatterns();
    if (failed_) return {};
    ExprId guard;
    if (accept(TK::KwIf)) {
      guard = parseNamedExpression();
      if (failed_) return {};
    }
    StmtList body = parseBlock("'case' statement", ct.line);
    if (failed_) return {};
    cases.push_back(ast_.addMatchCase(MatchCase{pat, guard, body}));
  }
  if (cases.empty()) {
    failSyntax();
    return {};
  }
  if (!at(TK::Dedent) && !at(TK::EndOfFile)) {
    failSyntax();
    return {};
  }
  accept(TK::Dedent);
  matchCommitted_ = false;
  return mkStmt(blockRange(start), ast::Match{subject, list(cases)});
}

PatternId Parser::parsePatterns() {
  const Token& start = cur();
  PatternId first = parseMaybeStarPattern();
  if (failed_) return {};
  if (!at(TK::Comma)) {
    if (ast_.pattern(first).is<ast::MatchStar>()) {
      failSyntax();
      return {};
    }
    return first;
  }
  Vec<PatternId> items{first};
  while (accept(TK::Comma)) {
    if (at(TK::Colon) || at(TK::KwIf)) break;
    PatternId p = parseMaybeStarPattern();
    if (failed_) return {};
    items.push_back(p);
  }
  return ast_.addPattern(rangeFrom(start), ast::MatchSequence{list(items)});
}

PatternId Parser::parseMaybeStarPattern() {
  if (at(TK::Star)) {
    const Token& start = cur();
    advance();
    if (!at(TK::Name)) {
      failSyntax();
      return {};
    }
    Identifier name = text(cur()) == "_" ? Identifier() : ident(cur());
    advance();
    return ast_.addPattern(rangeFrom(start), ast::MatchStar{name});
  }
  return parsePattern();
}

PatternId Parser::parsePattern() {
  DepthGuard guard(*this);
  if (failed_) return {};
  const Token& start = cur();
  PatternId p = parseOrPattern();
  if (failed_) return {};
  if (accept(TK::KwAs)) {
    if (!at(TK::Name)) {
      failSyntax();
      return {};
    }
    if (text(cur()) == "_") {
      failTok(cur(), Diag::SyntaxError, "cannot use '_' as a target");
      return {};
    }
    Identifier name = ident(cur());
    advance();
    return ast_.addPattern(rangeFrom(start), ast::MatchAs{p, name});
  }
  return p;
}

PatternId Parser::parseOrPattern() {
  const Token& start = cur();
  PatternId first = parseClosedPattern();
  if (failed_ || !at(TK::VBar)) return first;
  Vec<PatternId> alts{first};
  while (accept(TK::VBar)) {
    PatternId p = parseClosedPattern();
    if (failed_) return {};
    alts.push_back(p);
  }
  return ast_.addPattern(rangeFrom(start), ast::MatchOr{list(alts)});
}

// NAME ('.' NAME)*: a Name or an Attribute chain (Load).
ExprId Parser::parseNameOrAttr() {
  const Token& start = cur();
  ExprId e = mk(rangeTok(start), ast::Name{ident(start), ExprContext::Load});
  advance();
  while (at(TK::Dot)) {
    advance();
    if (!at(TK::Name)) {
      failSyntax();
      return {};
    }
    Identifier attr = ident(cur());
    advance();
    e = mk(rangeFrom(start), ast::Attribute{e, attr, ExprContext::Load});
  }
  return e;
}

// A signed number, complex literal, string, None/True/False as an expression
// (mapping keys and value patterns).
ExprId Parser::parseLiteralExpr(bool forKey) {
  const Token& start = cur();
  (void)forKey;
  if (at(TK::String) || at(TK::FStringStart)) {
    ExprId s = parseStrings();
    if (failed_) return {};
    if (ast_.expr(s).is<ast::JoinedStr>()) {
      failNode(er(s), Diag::SyntaxError, "patterns may only match literals and attribute lookups");
      return {};
    }
    return s;
  }
  if (at(TK::KwNone) || at(TK::KwTrue) || at(TK::KwFalse)) return parseAtom();
  bool neg = false;
  if (at(TK::Minus)) {
    neg = true;
    advance();
  }
  if (!at(TK::Number)) {
    failSyntax();
    return {};
  }
  ExprId num = parseAtom();
  bool imag = ast_.constantOf(num).kind == ConstantKind::Complex;
  ExprId left = num;
  if (neg) left = mk(rangeFrom(start), ast::UnaryOp{UnaryOpKind::USub, num});
  if (at(TK::Plus) || at(TK::Minus)) {
    Operator op = at(TK::Plus) ? Operator::Add : Operator::Sub;
    if (imag) {
      failNode(er(left), Diag::SyntaxError, "real number required in complex literal");
      return {};
    }
    advance();
    if (!at(TK::Number)) {
      failSyntax();
      return {};
    }
    ExprId right = parseAtom();
    if (ast_.constantOf(right).kind != ConstantKind::Complex) {
      failNode(er(right), Diag::SyntaxError, "imaginary number required in complex literal");
      return {};
    }
    return mk(rangeFrom(start), ast::BinOp{left, op, right});
  }
  return left;
}

PatternId Parser::parseClosedPattern() {
  DepthGuard guard(*this);
  if (failed_) return {};
  const Token& start = cur();
  switch (kind()) {
  case TK::Number:
  case TK::Minus:
  case TK::String:
  case TK::FStringStart: {
    ExprId e = parseLiteralExpr(false);
    if (failed_) return {};
    return ast_.addPattern(er(e), ast::MatchValue{e});
  }
  case TK::KwNone:
  case TK::KwTrue:
  case TK::KwFalse: {
    ConstantValue v;
    v.kind = at(TK::KwNone) ? ConstantKind::None : at(TK::KwTrue) ? ConstantKind::True : ConstantKind::False;
    advance();
    return ast_.addPattern(rangeTok(start), ast::MatchSingleton{ast_.addConstant(std::move(v))});
  }
  case TK::Name: {
    TK next = peekTok().kind;
    if (next != TK::Dot && next != TK::LPar && next != TK::Equal) {
      advance();
      Identifier name = text(start) == "_" ? Identifier() : ident(start);
      return ast_.addPattern(rangeTok(start), ast::MatchAs{PatternId(), name});
    }
    ExprId cls = parseNameOrAttr();
    if (failed_) return {};
    if (!at(TK::LPar)) {
      if (ast_.expr(cls).is<ast::Name>()) {
        failSyntax();
        return {};
      }
      return ast_.addPattern(er(cls), ast::MatchValue{cls});
    }
    advance();  // (
    Vec<PatternId> patterns, kwdPatterns;
    Vec<Identifier> kwdAttrs;
    while (!at(TK::RPar)) {
      if (at(TK::Name) && peekTok().kind == TK::Equal) {
        kwdAttrs.push_back(ident(cur()));
        advance();
        advance();
        PatternId p = parsePattern();
        if (failed_) return {};
        kwdPatterns.push_back(p);
      } else {
        PatternId p = parsePattern();
        if (failed_) return {};
        if (!kwdAttrs.empty()) {
          failNode(ast_.pattern(p).range, Diag::SyntaxError, "positional patterns follow keyword patterns");
          return {};
        }
        patterns.push_back(p);
      }
      if (!accept(TK::Comma)) break;
    }
    if (!expect(TK::RPar)) return {};
    return ast_.addPattern(rangeFrom(start),
                           ast::MatchClass{cls, list(patterns), list(kwdAttrs), list(kwdPatterns)});
  }
  case TK::LPar: {
    advance();
    if (accept(TK::RPar)) return ast_.addPattern(rangeFrom(start), ast::MatchSequence{PatternList{}});
    PatternId first = parseMaybeStarPattern();
    if (failed_) return {};
    if (at(TK::Comma)) {
      Vec<PatternId> items{first};
      while (accept(TK::Comma)) {
        if (at(TK::RPar)) break;
        PatternId p = parseMaybeStarPattern();
        if (failed_) return {};
        items.push_back(p);
      }
      if (!expect(TK::RPar)) return {};
      return ast_.addPattern(rangeFrom(start), ast::MatchSequence{list(items)});
    }
    if (!expect(TK::RPar)) return {};
    if (ast_.pattern(first).is<ast::MatchStar>()) {
      // `(*x)` is a one-element sequence in CPython's grammar.
      Vec<PatternId> items{first};
      return ast_.addPattern(rangeFrom(start), ast::MatchSequence{list(items)});
    }
    return first;
  }
  case TK::LSqb: {
    advance();
    Vec<PatternId> items;
    while (!at(TK::RSqb)) {
      PatternId p = parseMaybeStarPattern();
      if (failed_) return {};
      items.push_back(p);
      if (!accept(TK::Comma)) break;
    }
    if (!expect(TK::RSqb)) return {};
    return ast_.addPattern(rangeFrom(start), ast::MatchSequence{list(items)});
  }
  case TK::LBrace: {
    advance();
    Vec<ExprId> keys;
    Vec<PatternId> patterns;
    Identifier rest;
    while (!at(TK::RBrace)) {
      if (at(TK::DoubleStar)) {
        advance();
        if (!at(TK::Name)) {
          failSyntax();
          return {};
        }
        if (text(cur()) == "_") {
          failSyntax();
          return {};
        }
        rest = ident(cur());
        advance();
        accept(TK::Comma);
        break;
      }
      ExprId key;
      if (at(TK::Name)) {
        key = parseNameOrAttr();
        if (failed_) return {};
        if (ast_.expr(key).is<ast::Name>()) {
          failSyntax();
          return {};
        }
      } else {
        key = parseLiteralExpr(true);
        if (failed_) return {};
      }
      if (!expect(TK::Colon)) return {};
      PatternId p = parsePattern();
      if (failed_) return {};
      keys.push_back(key);
      patterns.push_back(p);
      if (!accept(TK::Comma)) break;
    }
    if (!expect(TK::RBrace)) return {};
    return ast_.addPattern(rangeFrom(start), ast::MatchMapping{list(keys), list(patterns), rest});
  }
  default:
    failSyntax();
    return {};
  }
}

}  // namespace frontend::parser
