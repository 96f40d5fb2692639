// Expressions (the Parser's declaration: syntax/parser_internal.h).
#include "syntax/parser_internal.h"

namespace frontend::parser {

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

// star_expressions: a tuple when there is a comma.
ExprId Parser::parseStarExpressions() {
  const Token& start = cur();
  ExprId first = parseStarExpression();
  if (failed_ || !at(TK::Comma)) return first;
  Vec<ExprId> elts{first};
  while (accept(TK::Comma)) {
    if (!canStartExpression()) break;
    ExprId e = parseStarExpression();
    if (failed_) return {};
    elts.push_back(e);
  }
  return mk(rangeFrom(start), ast::Tuple{list(elts), ExprContext::Load});
}

// `*bitwise_or` as a Starred, else `plain()`.
ExprId Parser::parseStarredOr(ExprId (Parser::*plain)()) {
  if (!at(TK::Star)) return (this->*plain)();
  const Token& start = cur();
  advance();
  ExprId v = parseBitOr();
  if (failed_) return {};
  return mk(rangeFrom(start), ast::Starred{v, ExprContext::Load});
}

ExprId Parser::parseStarExpression() { return parseStarredOr(&Parser::parseExpression); }

ExprId Parser::parseStarNamedExpression() { return parseStarredOr(&Parser::parseNamedExpression); }

// The condition of if/elif/while: a named expression, with CPython's hint
// for `if x = 1:`.
ExprId Parser::parseCondition() {
  ExprId e = parseNamedExpression();
  if (failed_ || !at(TK::Equal)) return e;
  NodeRange r = er(e);
  advance();
  ExprId rhs = parseExpression();
  if (!failed_) r = join(r, er(rhs));
  failed_ = false;
  err_ = PendingError{};
  failNode(r, Diag::InvalidSyntaxDetail, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
  return {};
}

ExprId Parser::parseNamedExpression() {
  if (at(TK::Name) && peekTok().kind == TK::ColonEqual) {
    const Token& start = cur();
    ExprId target = mk(rangeTok(start), ast::Name{ident(start), ExprContext::Store});
    advance();
    advance();
    ExprId value = parseExpression();
    if (failed_) return {};
    return mk(rangeFrom(start), ast::NamedExpr{target, value});
  }
  ExprId e = parseExpression();
  if (failed_) return {};
  if (at(TK::ColonEqual)) {
    failNode(er(e), Diag::SyntaxError, fmt::format("cannot use assignment expressions with {}", exprName(e)));
    return {};
  }
  return e;
}

ExprId Parser::parseExpression() {
  DepthGuard guard(*this);
  if (failed_) return {};
  if (at(TK::KwLambda)) return parseLambda();
  const Token& start = cur();
  ExprId body = parseDisjunction();
  if (failed_ || !at(TK::KwIf)) return body;
  // A conditional expression.
  advance();
  ExprId test = parseDisjunction();
  if (failed_) return {};
  if (!at(TK::KwElse)) {
    failRange(start.line, start.col, prev().endLine, prev().endCol, Diag::ExpectedToken,
              "expected 'else' after 'if' expression");
    return {};
  }
  advance();
  ExprId orelse = parseExpression();
  if (failed_) return {};
  return mk(rangeFrom(start), ast::IfExp{test, body, orelse});
}

ExprId Parser::parseLambda() {
  const Token& start = cur();
  advance();
  ArgumentsId args = parseParameters(TK::Colon, true);
  if (failed_) return {};
  ExprId body = parseExpression();
  if (failed_) return {};
  return mk(rangeFrom(start), ast::Lambda{args, body});
}

// `first op x op y ...` as one BoolOp, or `first` alone.
ExprId Parser::parseBoolChain(TK op, BoolOpKind kind, ExprId (Parser::*operand)()) {
  const Token& start = cur();
  ExprId first = (this->*operand)();
  if (failed_ || !at(op)) return first;
  Vec<ExprId> values{first};
  while (accept(op)) {
    ExprId e = (this->*operand)();
    if (failed_) return {};
    values.push_back(e);
  }
  return mk(rangeFrom(start), ast::BoolOp{kind, list(values)});
}

ExprId Parser::parseDisjunction() { return parseBoolChain(TK::KwOr, BoolOpKind::Or, &Parser::parseConjunction); }

ExprId Parser::parseConjunction() { return parseBoolChain(TK::KwAnd, BoolOpKind::And, &Parser::parseInversion); }

ExprId Parser::parseInversion() {
  if (at(TK::KwNot)) {
    DepthGuard guard(*this);
    if (failed_) return {};
    const Token& start = cur();
    advance();
    ExprId operand = parseInversion();
    if (failed_) return {};
    return mk(rangeFrom(start), ast::UnaryOp{UnaryOpKind::Not, operand});
  }
  return parseComparison();
}

ExprId Parser::parseComparison() {
  const Token& start = cur();
  ExprId left = parseBitOr();
  if (failed_) return {};
  Vec<CmpOp> ops;
  Vec<ExprId> comparators;
  while (true) {
    CmpOp op;
    switch (kind()) {
    case TK::EqEqual: op = CmpOp::Eq; break;
    case TK::NotEqual: op = CmpOp::NotEq; break;
    case TK::Less: op = CmpOp::Lt; break;
    case TK::LessEqual: op = CmpOp::LtE; break;
    case TK::Greater: op = CmpOp::Gt; break;
    case TK::GreaterEqual: op = CmpOp::GtE; break;
    case TK::KwIn: op = CmpOp::In; break;
    case TK::KwIs:
      op = peekTok().kind == TK::KwNot ? CmpOp::IsNot : CmpOp::Is;
      break;
    case TK::KwNot:
      if (peekTok().kind != TK::KwIn) goto done;
      op = CmpOp::NotIn;
      break;
    default:
      goto done;
    }
    advance();
    if (op == CmpOp::IsNot || op == CmpOp::NotIn) advance();
    {
      ExprId right = parseBitOr();
      if (failed_) return {};
      ops.push_back(op);
      comparators.push_back(right);
    }
  }
done:
  if (ops.empty()) return left;
  return mk(rangeFrom(start), ast::Compare{left, list(ops), list(comparators)});
}

// Left-associative binary operator levels. Each operator raises the depth
// (the tree gets deeper to the left).
#define PYKC_BINARY_LEVEL(Name, Next, Cases)                                    \
  ExprId Parser::Name() {                                                       \
    const Token& start = cur();                                                 \
    ExprId left = Next();                                                       \
    if (failed_) return {};                                                     \
    int extra = 0;                                                              \
    while (true) {                                                              \
      Operator op;                                                              \
      switch (kind()) {                                                         \
        Cases                                                                   \
      default:                                                                  \
        depth_ -= extra;                                                        \
        return left;                                                            \
      }                                                                         \
      if (++depth_ > kMaxDepth) {                                               \
        ++extra;                                                                \
        failTok(cur(), Diag::TooNested, "too many nested parentheses");         \
        depth_ -= extra;                                                        \
        return {};                                                              \
      }                                                                         \
      ++extra;                                                                  \
      advance();                                                                \
      ExprId right = Next();                                                    \
      if (failed_) {                                                            \
        depth_ -= extra;                                                        \
        return {};                                                              \
      }                                                                         \
      left = mk(rangeFrom(start), ast::BinOp{left, op, right});                 \
    }                                                                           \
  }

PYKC_BINARY_LEVEL(parseBitOr, parseBitXor, case TK::VBar : op = Operator::BitOr; break;)
PYKC_BINARY_LEVEL(parseBitXor, parseBitAnd, case TK::Circumflex : op = Operator::BitXor; break;)
PYKC_BINARY_LEVEL(parseBitAnd, parseShift, case TK::Amper : op = Operator::BitAnd; break;)
PYKC_BINARY_LEVEL(parseShift, parseSum,
                  case TK::LeftShift : op = Operator::LShift; break;
                  case TK::RightShift : op = Operator::RShift; break;)
PYKC_BINARY_LEVEL(parseSum, parseTerm,
                  case TK::Plus : op = Operator::Add; break;
                  case TK::Minus : op = Operator::Sub; break;)
PYKC_BINARY_LEVEL(parseTerm, parseFactor,
                  case TK::Star : op = Operator::Mult; break;
                  case TK::Slash : op = Operator::Div; break;
                  case TK::DoubleSlash : op = Operator::FloorDiv; break;
                  case TK::Percent : op = Operator::Mod; break;
                  case TK::At : op = Operator::MatMult; break;)
#undef PYKC_BINARY_LEVEL

ExprId Parser::parseFactor() {
  UnaryOpKind op;
  switch (kind()) {
  case TK::Plus: op = UnaryOpKind::UAdd; break;
  case TK::Minus: op = UnaryOpKind::USub; break;
  case TK::Tilde: op = UnaryOpKind::Invert; break;
  default: return parsePower();
  }
  DepthGuard guard(*this);
  if (failed_) return {};
  const Token& start = cur();
  advance();
  ExprId operand = parseFactor();
  if (failed_) return {};
  return mk(rangeFrom(start), ast::UnaryOp{op, operand});
}

ExprId Parser::parsePower() {
  const Token& start = cur();
  ExprId base;
  if (at(TK::KwAwait)) {
    DepthGuard guard(*this);
    if (failed_) return {};
    advance();
    ExprId v = parsePrimary();
    if (failed_) return {};
    base = mk(rangeFrom(start), ast::Await{v});
  } else {
    base = parsePrimary();
    if (failed_) return {};
  }
  if (!at(TK::DoubleStar)) return base;
  DepthGuard guard(*this);
  if (failed_) return {};
  advance();
  ExprId exp = parseFactor();
  if (failed_) return {};
  return mk(rangeFrom(start), ast::BinOp{base, Operator::Pow, exp});
}

ExprId Parser::parsePrimary(bool forTarget) {
  const Token& start = cur();
  ExprId e = parseAtom();
  if (failed_) return {};
  int extra = 0;
  while (true) {
    if (at(TK::Dot)) {
      advance();
      if (!at(TK::Name)) {
        failSyntax();
        break;
      }
      Identifier attr = ident(cur());
      advance();
      e = mk(rangeFrom(start), ast::Attribute{e, attr, ExprContext::Load});
    } else if (at(TK::LPar)) {
      e = parseCall(e);
      if (failed_) break;
      ast_.mutableExpr(e).range = rangeFrom(start);
    } else if (at(TK::LSqb)) {
      advance();
      ExprId slice = parseSlices();
      if (failed_) break;
      if (!expect(TK::RSqb)) break;
      e = mk(rangeFrom(start), ast::Subscript{e, slice, ExprContext::Load});
    } else {
      break;
    }
    ++extra;
    if (++depth_ > kMaxDepth) {
      failTok(cur(), Diag::TooNested, "too many nested parentheses");
      break;
    }
  }
  depth_ -= extra;
  (void)forTarget;
  if (failed_) return {};
  return e;
}

// `(args)` after `func` (or a class's bases when func is invalid).
ExprId Parser::parseCall(ExprId func) {
  const Token& open = cur();
  advance();  // (
  Vec<ExprId> args;
  Vec<KeywordId> keywords;
  bool seenKeyword = false, seenDoubleStar = false;
  while (!at(TK::RPar)) {
    const Token& as = cur();
    if (at(TK::Star)) {
      advance();
      ExprId v = parseExpression();
      if (failed_) return {};
      if (seenDoubleStar) {
        failNode(rangeFrom(as), Diag::SyntaxError, "iterable argument unpacking follows keyword argument unpacking");
        return {};
      }
      args.push_back(mk(rangeFrom(as), ast::Starred{v, ExprContext::Load}));
    } else if (at(TK::DoubleStar)) {
      advance();
      ExprId v = parseExpression();
      if (failed_) return {};
      keywords.push_back(ast_.addKeyword(Keyword{rangeFrom(as), Identifier(), v}));
      seenDoubleStar = true;
    } else if (at(TK::Name) && peekTok().kind == TK::Equal) {
      Identifier n = ident(cur());
      advance();
      advance();
      ExprId v = parseExpression();
      if (failed_) return {};
      keywords.push_back(ast_.addKeyword(Keyword{rangeFrom(as), n, v}));
      seenKeyword = true;
    } else {
      ExprId e = parseNamedExpression();
      if (failed_) return {};
      if (at(TK::KwFor) || (at(TK::KwAsync) && peekTok().kind == TK::KwFor)) {
        ComprehensionList gens = parseComprehensions();
        if (failed_) return {};
        bool sole = args.empty() && keywords.empty() && at(TK::RPar);
        if (!sole) {
          failRange(er(e).lineno, er(e).colOffset, prev().endLine, prev().endCol, Diag::SyntaxError,
                    "Generator expression must be parenthesized");
          return {};
        }
        advance();  // )
        ExprId g = mk(rangeFrom(open), ast::GeneratorExp{e, gens});
        args.push_back(g);
        return mk(rangeFrom(open), ast::Call{func, list(args), list(keywords)});
      }
      if (at(TK::Equal)) {
        const Expr& x = ast_.expr(e);
        if (const auto* c = x.dyn<ast::Constant>()) {
          ConstantKind k = ast_.constant(c->value).kind;
          if (k == ConstantKind::True || k == ConstantKind::False || k == ConstantKind::None) {
            failNode(x.range, Diag::SyntaxError, fmt::format("cannot assign to {}", exprName(e)));
            return {};
          }
        }
        failRange(x.range.lineno, x.range.colOffset, cur().endLine, cur().endCol, Diag::SyntaxError,
                  "expression cannot contain assignment, perhaps you meant \"==\"?");
        return {};
      }
      if (seenDoubleStar) {
        failNode(er(e), Diag::SyntaxError, "positional argument follows keyword argument unpacking");
        return {};
      }
      if (seenKeyword) {
        failNode(er(e), Diag::SyntaxError, "positional argument follows keyword argument");
        return {};
      }
      args.push_back(e);
    }
    if (!accept(TK::Comma)) break;
  }
  if (!at(TK::RPar)) {
    expect(TK::RPar);
    return {};
  }
  advance();
  return mk(rangeFrom(open), ast::Call{func, list(args), list(keywords)});
}

ExprId Parser::parseSlices() {
  const Token& start = cur();
  ExprId first = parseSlice();
  if (failed_) return {};
  if (!at(TK::Comma)) {
    // `a[*b]` is a one-element tuple.
    if (ast_.expr(first).is<ast::Starred>()) {
      Vec<ExprId> one{first};
      return mk(rangeFrom(start), ast::Tuple{list(one), ExprContext::Load});
    }
    return first;
  }
  Vec<ExprId> elts{first};
  while (accept(TK::Comma)) {
    if (at(TK::RSqb)) break;
    ExprId e = parseSlice();
    if (failed_) return {};
    elts.push_back(e);
  }
  return mk(rangeFrom(start), ast::Tuple{list(elts), ExprContext::Load});
}

ExprId Parser::parseSlice() {
  const Token& start = cur();
  if (at(TK::Star)) return parseStarExpression();
  ExprId lower;
  if (!at(TK::Colon)) {
    lower = parseNamedExpression();
    if (failed_ || !at(TK::Colon)) return lower;
  }
  advance();  // :
  ExprId upper, step;
  if (!at(TK::Colon) && !at(TK::Comma) && !at(TK::RSqb)) {
    upper = parseExpression();
    if (failed_) return {};
  }
  if (accept(TK::Colon)) {
    if (!at(TK::Comma) && !at(TK::RSqb)) {
      step = parseExpression();
      if (failed_) return {};
    }
  }
  return mk(rangeFrom(start), ast::Slice{lower, upper, step});
}

ExprId Parser::parseYield() {
  const Token& start = cur();
  advance();  // yield
  if (accept(TK::KwFrom)) {
    ExprId v = parseExpression();
    if (failed_) return {};
    return mk(rangeFrom(start), ast::YieldFrom{v});
  }
  ExprId v;
  if (!at(TK::Newline) && !at(TK::RPar) && !at(TK::RSqb) && !at(TK::RBrace) && !at(TK::Semi) && !at(TK::Equal) &&
      !at(TK::EndOfFile) && !at(TK::Colon) && !at(TK::Exclamation)) {
    v = parseStarExpressions();
    if (failed_) return {};
  }
  return mk(rangeFrom(start), ast::Yield{v});
}

ComprehensionList Parser::parseComprehensions() {
  Vec<ComprehensionId> gens;
  while (at(TK::KwFor) || (at(TK::KwAsync) && peekTok().kind == TK::KwFor)) {
    int isAsync = accept(TK::KwAsync) ? 1 : 0;
    advance();  // for
    ExprId target = parseStarTargets();
    if (failed_) return {};
    if (!at(TK::KwIn)) {
      failSyntax();
      return {};
    }
    advance();
    ExprId iter = parseDisjunction();
    if (failed_) return {};
    Vec<ExprId> ifs;
    while (accept(TK::KwIf)) {
      ExprId c = parseDisjunction();
      if (failed_) return {};
      ifs.push_back(c);
    }
    gens.push_back(ast_.addComprehension(Comprehension{target, iter, list(ifs), isAsync}));
  }
  return list(gens);
}

ExprId Parser::parseStarTarget() {
  if (at(TK::Star)) {
    const Token& start = cur();
    advance();
    if (at(TK::Star)) {
      failSyntax();
      return {};
    }
    ExprId v = parseStarTarget();
    if (failed_) return {};
    return mk(rangeFrom(start), ast::Starred{v, ExprContext::Load});
  }
  return parsePrimary(true);
}

ExprId Parser::parseStarTargets(bool allowTrailingComma) {
  const Token& start = cur();
  ExprId first = parseStarTarget();
  if (failed_) return {};
  ExprId result = first;
  if (at(TK::Comma)) {
    Vec<ExprId> elts{first};
    while (accept(TK::Comma)) {
      if (at(TK::KwIn) || at(TK::Equal)) break;
      ExprId e = parseStarTarget();
      if (failed_) return {};
      elts.push_back(e);
    }
    result = mk(rangeFrom(start), ast::Tuple{list(elts), ExprContext::Load});
  }
  (void)allowTrailingComma;
  if (!setContext(result, ExprContext::Store, "assign to")) return {};
  return result;
}

ExprId Parser::parseAtom() {
  const Token& t = cur();
  switch (t.kind) {
  case TK::Name:
    advance();
    return mk(rangeTok(t), ast::Name{ident(t), ExprContext::Load});
  case TK::KwTrue:
    advance();
    return constant(rangeTok(t), ConstantKind::True);
  case TK::KwFalse:
    advance();
    return constant(rangeTok(t), ConstantKind::False);
  case TK::KwNone:
    advance();
    return constant(rangeTok(t), ConstantKind::None);
  case TK::Ellipsis:
    advance();
    return constant(rangeTok(t), ConstantKind::Ellipsis);
  case TK::Number: {
    advance();
    return mk(rangeTok(t), ast::Constant{ast_.addConstant(detail::parseNumber(text(t))), false});
  }
  case TK::String:
  case TK::FStringStart:
    return parseStrings();
  case TK::LPar:
    return parseParenthesised();
  case TK::LSqb:
    return parseListDisplay();
  case TK::LBrace:
    return parseBraceDisplay();
  default:
    failSyntax();
    return {};
  }
}

ExprId Parser::parseParenthesised() {
  DepthGuard guard(*this);
  if (failed_) return {};
  const Token& open = cur();
  advance();
  if (accept(TK::RPar)) return mk(rangeFrom(open), ast::Tuple{ExprList{}, ExprContext::Load});
  if (at(TK::KwYield)) {
    ExprId y = parseYield();
    if (failed_ || !expect(TK::RPar)) return {};
    parens_[y.index] = 1;
    return y;
  }
  ExprId first = parseStarNamedExpression();
  if (failed_) return {};
  if (at(TK::KwFor) || (at(TK::KwAsync) && peekTok().kind == TK::KwFor)) {
    if (ast_.expr(first).is<ast::Starred>()) {
      failNode(er(first), Diag::SyntaxError, "iterable unpacking cannot be used in comprehension");
      return {};
    }
    ComprehensionList gens = parseComprehensions();
    if (failed_ || !expect(TK::RPar)) return {};
    return mk(rangeFrom(open), ast::GeneratorExp{first, gens});
  }
  if (at(TK::Comma)) {
    Vec<ExprId> elts{first};
    while (accept(TK::Comma)) {
      if (at(TK::RPar)) break;
      ExprId e = parseStarNamedExpression();
      if (failed_) return {};
      elts.push_back(e);
    }
    if (!expect(TK::RPar)) return {};
    return mk(rangeFrom(open), ast::Tuple{list(elts), ExprContext::Load});
  }
  if (!expect(TK::RPar)) return {};
  if (ast_.expr(first).is<ast::Starred>()) {
    failNode(er(first), Diag::SyntaxError, "cannot use starred expression here");
    return {};
  }
  parens_[first.index] = 1;
  return first;
}

bool Parser::atComprehension() const {
  return at(TK::KwFor) || (at(TK::KwAsync) && peekTok().kind == TK::KwFor);
}

std::optional<ComprehensionList> Parser::parseComprehensionOf(ExprId first, TK close) {
  if (ast_.expr(first).is<ast::Starred>()) {
    failNode(er(first), Diag::SyntaxError, "iterable unpacking cannot be used in comprehension");
    return std::nullopt;
  }
  ComprehensionList gens = parseComprehensions();
  if (failed_ || !expect(close)) return std::nullopt;
  return gens;
}

std::optional<ExprList> Parser::parseDisplayElements(ExprId first, TK close) {
  Vec<ExprId> elts{first};
  while (accept(TK::Comma)) {
    if (at(close)) break;
    ExprId e = parseStarNamedExpression();
    if (failed_) return std::nullopt;
    elts.push_back(e);
  }
  if (!expect(close)) return std::nullopt;
  return list(elts);
}

ExprId Parser::parseListDisplay() {
  DepthGuard guard(*this);
  if (failed_) return {};
  const Token& open = cur();
  advance();
  if (accept(TK::RSqb)) return mk(rangeFrom(open), ast::List{ExprList{}, ExprContext::Load});
  ExprId first = parseStarNamedExpression();
  if (failed_) return {};
  if (atComprehension()) {
    auto gens = parseComprehensionOf(first, TK::RSqb);
    if (!gens) return {};
    return mk(rangeFrom(open), ast::ListComp{first, *gens});
  }
  auto elts = parseDisplayElements(first, TK::RSqb);
  if (!elts) return {};
  return mk(rangeFrom(open), ast::List{*elts, ExprContext::Load});
}

ExprId Parser::parseBraceDisplay() {
  DepthGuard guard(*this);
  if (failed_) return {};
  const Token& open = cur();
  advance();
  if (accept(TK::RBrace)) return mk(rangeFrom(open), ast::Dict{ExprList{}, ExprList{}});
  Vec<ExprId> keys, values;
  auto parseDictItem = [&]() -> bool {
    if (accept(TK::DoubleStar)) {
      ExprId v = parseBitOr();
      if (failed_) return false;
      keys.push_back(ExprId());
      values.push_back(v);
      return true;
    }
    ExprId k = parseExpression();
    if (failed_) return false;
    if (!at(TK::Colon)) {
      if (at(TK::RBrace) || at(TK::Comma)) {
        failRange(er(k).lineno, er(k).colOffset, er(k).endLineno, er(k).endColOffset, Diag::SyntaxError,
                  "':' expected after dictionary key");
      } else {
        failSyntax();
      }
      return false;
    }
    advance();
    if (at(TK::RBrace) || at(TK::Comma)) {
      const Token& colon = prev();
      failRange(colon.line, colon.col, colon.endLine, colon.endCol, Diag::SyntaxError,
                "expression expected after dictionary key and ':'");
      return false;
    }
    ExprId v = parseExpression();
    if (failed_) return false;
    keys.push_back(k);
    values.push_back(v);
    return true;
  };
  if (at(TK::DoubleStar)) {
    if (!parseDictItem()) return {};
    if (at(TK::KwFor)) {
      failSyntax();
      return {};
    }
  } else {
    ExprId first = parseStarNamedExpression();
    if (failed_) return {};
    if (at(TK::Colon) && !ast_.expr(first).is<ast::Starred>()) {
      advance();
      ExprId v = parseExpression();
      if (failed_) return {};
      if (at(TK::KwFor) || (at(TK::KwAsync) && peekTok().kind == TK::KwFor)) {
        ComprehensionList gens = parseComprehensions();
        if (failed_ || !expect(TK::RBrace)) return {};
        return mk(rangeFrom(open), ast::DictComp{first, v, gens});
      }
      keys.push_back(first);
      values.push_back(v);
    } else {
      // A set.
      if (atComprehension()) {
        auto gens = parseComprehensionOf(first, TK::RBrace);
        if (!gens) return {};
        return mk(rangeFrom(open), ast::SetComp{first, *gens});
      }
      auto elts = parseDisplayElements(first, TK::RBrace);
      if (!elts) return {};
      return mk(rangeFrom(open), ast::Set{*elts});
    }
  }
  while (accept(TK::Comma)) {
    if (at(TK::RBrace)) break;
    if (!parseDictItem()) return {};
  }
  if (!expect(TK::RBrace)) return {};
  return mk(rangeFrom(open), ast::Dict{list(keys), list(values)});
}

}  // namespace frontend::parser
