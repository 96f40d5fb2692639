// Statements (the Parser's declaration: syntax/parser_internal.h).
#include "syntax/parser_internal.h"

namespace frontend::parser {

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

StmtList Parser::parseStatementsUntilDedent(bool topLevel) {
  Vec<StmtId> stmts;
  while (!stop_) {
    if (at(TK::EndOfFile)) break;
    if (at(TK::Error)) {
      stop_ = true;
      sawError_ = true;
      break;
    }
    if (at(TK::Dedent)) {
      if (topLevel) {
        advance();
        continue;
      }
      break;
    }
    if (at(TK::Indent)) {
      advance();
      failTok(cur(), Diag::UnexpectedIndent, "unexpected indent");
      // Point at the line, as IndentationError does.
      reportPending();
      // Skip the unexpectedly indented block.
      int level = 1;
      while (level > 0 && !at(TK::EndOfFile) && !at(TK::Error)) {
        if (at(TK::Indent)) ++level;
        else if (at(TK::Dedent)) --level;
        advance();
      }
      failed_ = false;
      err_ = PendingError{};
      continue;
    }
    if (at(TK::Newline)) {
      // A lone Newline only follows `;`-less blank constructs; skip it.
      advance();
      continue;
    }
    size_t stmtStart = p_;
    parseStatement(stmts);
    if (failed_) {
      reportPending();
      resync(stmtStart);
    }
  }
  return list(stmts);
}

void Parser::parseStatement(Vec<StmtId>& out) {
  switch (kind()) {
  case TK::KwDef:
  case TK::KwClass:
  case TK::At:
  case TK::KwIf:
  case TK::KwWhile:
  case TK::KwFor:
  case TK::KwTry:
  case TK::KwWith:
  case TK::KwAsync: {
    StmtId s = parseCompound();
    if (!failed_) out.push_back(s);
    return;
  }
  case TK::Name:
    if (atSoft("match")) {
      // `match` is a statement only if `match subject:` NEWLINE parses.
      State st = save();
      StmtId s = parseMatch();
      if (!failed_ && s.valid()) {
        out.push_back(s);
        return;
      }
      // Keep match-specific errors once `match subject:` was recognised.
      if (failed_ && matchCommitted_) return;
      restore(st);
    }
    break;
  default:
    break;
  }
  parseSimpleStatements(out);
}

void Parser::parseSimpleStatements(Vec<StmtId>& out) {
  while (true) {
    StmtId s = parseSimpleStatement();
    if (failed_) return;
    out.push_back(s);
    if (accept(TK::Semi)) {
      if (at(TK::Newline)) break;
      continue;
    }
    break;
  }
  if (!at(TK::Newline)) {
    failSyntax();
    return;
  }
  advance();
}

StmtId Parser::parseSimpleStatement() {
  const Token& start = cur();
  switch (kind()) {
  case TK::KwPass:
    advance();
    return mkStmt(rangeTok(start), ast::Pass{});
  case TK::KwBreak:
    advance();
    return mkStmt(rangeTok(start), ast::Break{});
  case TK::KwContinue:
    advance();
    return mkStmt(rangeTok(start), ast::Continue{});
  case TK::KwReturn: {
    advance();
    ExprId v;
    if (!at(TK::Newline) && !at(TK::Semi)) v = parseStarExpressions();
    if (failed_) return {};
    return mkStmt(rangeFrom(start), ast::Return{v});
  }
  case TK::KwRaise: {
    advance();
    ExprId exc, cause;
    if (!at(TK::Newline) && !at(TK::Semi)) {
      exc = parseExpression();
      if (failed_) return {};
      if (accept(TK::KwFrom)) cause = parseExpression();
    }
    if (failed_) return {};
    return mkStmt(rangeFrom(start), ast::Raise{exc, cause});
  }
  case TK::KwGlobal:
  case TK::KwNonlocal: {
    bool global = at(TK::KwGlobal);
    advance();
    Vec<Identifier> names;
    do {
      if (!at(TK::Name)) {
        failSyntax();
        return {};
      }
      names.push_back(ident(cur()));
      advance();
    } while (accept(TK::Comma));
    if (global) return mkStmt(rangeFrom(start), ast::Global{list(names)});
    return mkStmt(rangeFrom(start), ast::Nonlocal{list(names)});
  }
  case TK::KwDel: {
    advance();
    Vec<ExprId> ts;
    parseDelTargets(ts);
    if (failed_) return {};
    if (!at(TK::Newline) && !at(TK::Semi)) {
      failSyntax();
      return {};
    }
    return mkStmt(rangeFrom(start), ast::Delete{list(ts)});
  }
  case TK::KwAssert: {
    advance();
    ExprId test = parseExpression();
    ExprId msg;
    if (!failed_ && accept(TK::Comma)) msg = parseExpression();
    if (failed_) return {};
    return mkStmt(rangeFrom(start), ast::Assert{test, msg});
  }
  case TK::KwImport:
    return parseImport();
  case TK::KwFrom:
    return parseFromImport();
  case TK::Name:
    if (atSoft("type") && peekTok().kind == TK::Name && (peekTok(2).kind == TK::Equal || peekTok(2).kind == TK::LSqb))
      return parseTypeAlias();
    break;
  default:
    break;
  }
  return parseExpressionStatement();
}

StmtId Parser::parseExpressionStatement() {
  const Token& start = cur();
  ExprId first = at(TK::KwYield) ? parseYield() : parseStarExpressions();
  if (failed_) return {};

  // Annotated assignment.
  if (at(TK::Colon)) {
    const Expr& t = ast_.expr(first);
    bool paren = parens_[first.index] != 0;
    if (t.is<ast::Tuple>()) {
      failNode(t.range, Diag::SyntaxError, "only single target (not tuple) can be annotated");
      return {};
    }
    if (t.is<ast::List>()) {
      failNode(t.range, Diag::SyntaxError, "only single target (not list) can be annotated");
      return {};
    }
    if (!t.is<ast::Name>() && !t.is<ast::Attribute>() && !t.is<ast::Subscript>()) {
      failNode(t.range, Diag::SyntaxError, "illegal target for annotation");
      return {};
    }
    int simple = t.is<ast::Name>() && !paren ? 1 : 0;
    advance();
    setContext(first, ExprContext::Store, "assign to");
    ExprId ann = parseExpression();
    if (failed_) return {};
    ExprId value;
    if (accept(TK::Equal)) {
      value = at(TK::KwYield) ? parseYield() : parseStarExpressions();
      if (failed_) return {};
    }
    return mkStmt(rangeFrom(start), ast::AnnAssign{first, ann, value, simple});
  }

  // Augmented assignment.
  std::optional<Operator> aug;
  switch (kind()) {
  case TK::PlusEqual: aug = Operator::Add; break;
  case TK::MinEqual: aug = Operator::Sub; break;
  case TK::StarEqual: aug = Operator::Mult; break;
  case TK::AtEqual: aug = Operator::MatMult; break;
  case TK::SlashEqual: aug = Operator::Div; break;
  case TK::PercentEqual: aug = Operator::Mod; break;
  case TK::AmperEqual: aug = Operator::BitAnd; break;
  case TK::VBarEqual: aug = Operator::BitOr; break;
  case TK::CircumflexEqual: aug = Operator::BitXor; break;
  case TK::LeftShiftEqual: aug = Operator::LShift; break;
  case TK::RightShiftEqual: aug = Operator::RShift; break;
  case TK::DoubleStarEqual: aug = Operator::Pow; break;
  case TK::DoubleSlashEqual: aug = Operator::FloorDiv; break;
  default: break;
  }
  if (aug) {
    const Expr& t = ast_.expr(first);
    if (!t.is<ast::Name>() && !t.is<ast::Attribute>() && !t.is<ast::Subscript>()) {
      failNode(t.range, Diag::SyntaxError,
               fmt::format("'{}' is an illegal expression for augmented assignment", exprName(first)));
      return {};
    }
    advance();
    setContext(first, ExprContext::Store, "assign to");
    ExprId value = at(TK::KwYield) ? parseYield() : parseStarExpressions();
    if (failed_) return {};
    return mkStmt(rangeFrom(start), ast::AugAssign{first, *aug, value});
  }

  if (at(TK::Equal)) {
    Vec<ExprId> parts{first};
    while (accept(TK::Equal)) {
      ExprId e = at(TK::KwYield) ? parseYield() : parseStarExpressions();
      if (failed_) return {};
      parts.push_back(e);
    }
    ExprId value = parts.back();
    parts.pop_back();
    for (size_t i = 0; i < parts.size(); ++i) {
      if (!setContext(parts[i], ExprContext::Store, "assign to", i == 0 && parts.size() == 1)) return {};
    }
    return mkStmt(rangeFrom(start), ast::Assign{list(parts), value, Identifier()});
  }

  // A plain expression statement; diagnose common mistakes.
  if (!at(TK::Newline) && !at(TK::Semi)) {
    if (ast_.expr(first).is<ast::Name>() && (text(start) == "print" || text(start) == "exec") &&
        first.index + 1 == ast_.exprCount() &&
        (at(TK::String) || at(TK::Name) || at(TK::Number) || at(TK::FStringStart))) {
      // `print "x"`: CPython's hint.
      size_t save = p_;
      ExprId arg = parseStarExpressions();
      if (!failed_ && at(TK::Newline)) {
        NodeRange r = join(er(first), er(arg));
        failNode(r, Diag::SyntaxError,
                 fmt::format("Missing parentheses in call to '{}'. Did you mean {}(...)?", text(start), text(start)));
        return {};
      }
      failed_ = false;
      err_ = PendingError{};
      p_ = save;
    }
    if (at(TK::ColonEqual)) {
      failTok(cur(), Diag::SyntaxError, fmt::format("cannot use assignment expressions with {}", exprName(first)));
      return {};
    }
    failSyntax();
    return {};
  }
  return mkStmt(rangeFrom(start), ast::ExprStmt{first});
}

StmtList Parser::parseBlock(const char* what, uint32_t headerLine) {
  if (!expect(TK::Colon)) return {};
  if (accept(TK::Newline)) {
    if (!at(TK::Indent)) {
      failTok(cur(), Diag::ExpectedIndent, fmt::format("expected an indented block after {} on line {}", what, headerLine));
      return {};
    }
    advance();
    StmtList body = parseStatementsUntilDedent(false);
    if (failed_) return {};
    if (stop_) {
      failed_ = true;
      err_.set = true;
      err_.silent = true;
      return body;
    }
    accept(TK::Dedent);
    // An empty body here means its statements failed and were reported;
    // keep going without a second error.
    return body;
  }
  Vec<StmtId> stmts;
  if (at(TK::EndOfFile) || at(TK::Dedent)) {
    failSyntax();
    return {};
  }
  parseSimpleStatements(stmts);
  if (failed_) return {};
  return list(stmts);
}

StmtId Parser::parseCompound() {
  const Token& start = cur();
  switch (kind()) {
  case TK::At: {
    Vec<ExprId> decorators;
    while (accept(TK::At)) {
      ExprId d = parseNamedExpression();
      if (failed_) return {};
      decorators.push_back(d);
      if (!expect(TK::Newline)) return {};
    }
    ExprList decos = list(decorators);
    const Token& defStart = cur();
    if (at(TK::KwDef)) return parseFunctionDef(defStart, decos, false);
    if (at(TK::KwAsync) && peekTok().kind == TK::KwDef) {
      advance();
      return parseFunctionDef(defStart, decos, true);
    }
    if (at(TK::KwClass)) return parseClassDef(defStart, decos);
    failSyntax();
    return {};
  }
  case TK::KwDef:
    return parseFunctionDef(start, {}, false);
  case TK::KwClass:
    return parseClassDef(start, {});
  case TK::KwIf:
    return parseIf(false);
  case TK::KwWhile:
    return parseWhile();
  case TK::KwFor:
    return parseFor(start, false);
  case TK::KwTry:
    return parseTry();
  case TK::KwWith:
    return parseWith(start, false);
  case TK::KwAsync:
    advance();
    if (at(TK::KwDef)) return parseFunctionDef(start, {}, true);
    if (at(TK::KwFor)) return parseFor(start, true);
    if (at(TK::KwWith)) return parseWith(start, true);
    failSyntax();
    return {};
  default:
    failSyntax();
    return {};
  }
}

bool Parser::parseDefinitionHead(Identifier& name, TypeParamList& tparams) {
  if (!at(TK::Name)) {
    failSyntax();
    return false;
  }
  name = ident(cur());
  advance();
  if (at(TK::LSqb)) {
    tparams = parseTypeParams();
    if (failed_) return false;
  }
  return true;
}

StmtId Parser::parseFunctionDef(const Token& start, ExprList decorators, bool isAsync) {
  uint32_t line = cur().line;
  advance();  // def
  Identifier name;
  TypeParamList tparams;
  if (!parseDefinitionHead(name, tparams)) return {};
  if (!at(TK::LPar)) {
    failTok(cur(), Diag::ExpectedToken, "expected '('");
    return {};
  }
  advance();
  ArgumentsId args = parseParameters(TK::RPar, false);
  if (failed_) return {};
  ExprId returns;
  if (accept(TK::RArrow)) {
    returns = parseExpression();
    if (failed_) return {};
  }
  StmtList body = parseBlock("function definition", line);
  if (failed_) return {};
  NodeRange r = blockRange(start);
  ast::FunctionDef f{name, args, body, decorators, returns, Identifier(), tparams};
  if (isAsync) return mkStmt(r, ast::AsyncFunctionDef{f});
  return mkStmt(r, f);
}

StmtId Parser::parseClassDef(const Token& start, ExprList decorators) {
  uint32_t line = cur().line;
  advance();  // class
  Identifier name;
  TypeParamList tparams;
  if (!parseDefinitionHead(name, tparams)) return {};
  ExprList bases;
  KeywordList keywords;
  if (at(TK::LPar)) {
    // Reuse the call parser on a dummy callee.
    ExprId call = parseCall(ExprId());
    if (failed_) return {};
    const auto& c = ast_.expr(call).as<ast::Call>();
    bases = c.args;
    keywords = c.keywords;
  }
  StmtList body = parseBlock("class definition", line);
  if (failed_) return {};
  NodeRange r = blockRange(start);
  return mkStmt(r, ast::ClassDef{name, bases, keywords, body, decorators, tparams});
}

StmtList Parser::parseElseBlock() {
  uint32_t line = cur().line;
  advance();  // else
  return parseBlock("'else' statement", line);
}

StmtId Parser::parseIf(bool isElif) {
  const Token& start = cur();
  uint32_t line = start.line;
  advance();
  ExprId test = parseCondition();
  if (failed_) return {};
  StmtList body = parseBlock(isElif ? "'elif' statement" : "'if' statement", line);
  if (failed_) return {};
  StmtList orelse;
  if (at(TK::KwElif)) {
    StmtId e = parseIf(true);
    if (failed_) return {};
    Vec<StmtId> v{e};
    orelse = list(v);
  } else if (at(TK::KwElse)) {
    orelse = parseElseBlock();
    if (failed_) return {};
  }
  return mkStmt(blockRange(start), ast::If{test, body, orelse});
}

StmtId Parser::parseWhile() {
  const Token& start = cur();
  advance();
  ExprId test = parseCondition();
  if (failed_) return {};
  StmtList body = parseBlock("'while' statement", start.line);
  if (failed_) return {};
  StmtList orelse;
  if (at(TK::KwElse)) {
    orelse = parseElseBlock();
    if (failed_) return {};
  }
  return mkStmt(blockRange(start), ast::While{test, body, orelse});
}

StmtId Parser::parseFor(const Token& start, bool isAsync) {
  uint32_t line = cur().line;
  advance();  // for
  ExprId target = parseStarTargets();
  if (failed_) return {};
  if (!at(TK::KwIn)) {
    // `for x + 1 in y`: CPython names the invalid target when it can.
    failTok(cur(), Diag::InvalidSyntax, "invalid syntax");
    return {};
  }
  advance();
  ExprId iter = parseStarExpressions();
  if (failed_) return {};
  StmtList body = parseBlock("'for' statement", line);
  if (failed_) return {};
  StmtList orelse;
  if (at(TK::KwElse)) {
    orelse = parseElseBlock();
    if (failed_) return {};
  }
  ast::For f{target, iter, body, orelse, Identifier()};
  NodeRange r = blockRange(start);
  if (isAsync) return mkStmt(r, ast::AsyncFor{f});
  return mkStmt(r, f);
}

bool Parser::parseWithItems(Vec<WithItemId>& items, bool parenthesised) {
  while (true) {
    ExprId ctx = parseExpression();
    if (failed_) return false;
    ExprId vars;
    if (accept(TK::KwAs)) {
      vars = parseStarTarget();
      if (failed_) return false;
      if (!at(TK::Comma) && !at(TK::Colon) && !(parenthesised && at(TK::RPar))) {
        failSyntax();
        return false;
      }
      if (!setContext(vars, ExprContext::Store, "assign to")) return false;
    }
    items.push_back(ast_.addWithItem(WithItem{ctx, vars}));
    if (!accept(TK::Comma)) break;
    if (parenthesised && at(TK::RPar)) break;
  }
  return true;
}

StmtId Parser::parseWith(const Token& start, bool isAsync) {
  uint32_t line = cur().line;
  advance();  // with
  Vec<WithItemId> items;
  bool done = false;
  if (at(TK::LPar)) {
    // PEG: try `with ( items ,? ) :` first.
    State st = save();
    advance();
    Vec<WithItemId> tmp;
    if (parseWithItems(tmp, true) && accept(TK::RPar) && at(TK::Colon)) {
      items = tmp;
      done = true;
    } else {
      restore(st);
    }
  }
  if (!done && !parseWithItems(items, false)) return {};
  StmtList body = parseBlock("'with' statement", line);
  if (failed_) return {};
  NodeRange r = blockRange(start);
  ast::With w{list(items), body, Identifier()};
  if (isAsync) return mkStmt(r, ast::AsyncWith{w});
  return mkStmt(r, w);
}

StmtId Parser::parseTry() {
  const Token& start = cur();
  advance();
  StmtList body = parseBlock("'try' statement", start.line);
  if (failed_) return {};
  Vec<ExceptHandlerId> handlers;
  int star = -1;  // -1 unknown, 0 except, 1 except*
  while (at(TK::KwExcept)) {
    const Token& hs = cur();
    advance();
    bool isStar = accept(TK::Star);
    if (star >= 0 && star != static_cast<int>(isStar)) {
      failTok(hs, Diag::SyntaxError, "cannot have both 'except' and 'except*' on the same 'try'");
      return {};
    }
    star = isStar;
    ExprId type;
    Identifier name;
    if (!at(TK::Colon)) {
      type = parseExpression();
      if (failed_) return {};
      if (at(TK::Comma)) {
        // `except A, B:`
        const Token& commaStart = toks_[p_];
        (void)commaStart;
        failNode(er(type), Diag::SyntaxError, "multiple exception types must be parenthesized");
        return {};
      }
      if (accept(TK::KwAs)) {
        if (!at(TK::Name)) {
          failSyntax();
          return {};
        }
        name = ident(cur());
        advance();
      }
    } else if (isStar) {
      failTok(cur(), Diag::SyntaxError, "expected one or more exception types");
      return {};
    }
    StmtList hbody = parseBlock(isStar ? "'except*' statement" : "'except' statement", hs.line);
    if (failed_) return {};
    handlers.push_back(ast_.addExceptHandler(ExceptHandler{blockRange(hs), type, name, hbody}));
  }
  StmtList orelse, finalbody;
  if (at(TK::KwElse)) {
    if (handlers.empty()) {
      failTok(cur(), Diag::ExpectedToken, "expected 'except' or 'finally' block");
      return {};
    }
    orelse = parseElseBlock();
    if (failed_) return {};
  }
  if (at(TK::KwFinally)) {
    uint32_t fl = cur().line;
    advance();
    finalbody = parseBlock("'finally' statement", fl);
    if (failed_) return {};
  }
  if (handlers.empty() && finalbody.empty()) {
    failTok(cur(), Diag::ExpectedToken, "expected 'except' or 'finally' block");
    return {};
  }
  ast::Try t{body, list(handlers), orelse, finalbody};
  NodeRange r = blockRange(start);
  if (star == 1) return mkStmt(r, ast::TryStar{t});
  return mkStmt(r, t);
}

bool Parser::parseDottedName(std::string& dotted) {
  if (!at(TK::Name)) {
    failSyntax();
    return false;
  }
  dotted = text(cur());
  advance();
  while (at(TK::Dot)) {
    advance();
    if (!at(TK::Name)) {
      failSyntax();
      return false;
    }
    dotted += '.';
    dotted += text(cur());
    advance();
  }
  return true;
}

bool Parser::parseAsName(Identifier& asname) {
  if (!accept(TK::KwAs)) return true;
  if (!at(TK::Name)) {
    failSyntax();
    return false;
  }
  asname = ident(cur());
  advance();
  return true;
}

StmtId Parser::parseImport() {
  const Token& start = cur();
  advance();
  Vec<AliasId> names;
  do {
    const Token& ns = cur();
    std::string dotted;
    if (!parseDottedName(dotted)) return {};
    Identifier asname;
    if (!parseAsName(asname)) return {};
    names.push_back(ast_.addAlias(Alias{rangeFrom(ns), ast_.intern(dotted), asname}));
  } while (accept(TK::Comma));
  return mkStmt(rangeFrom(start), ast::Import{list(names)});
}

StmtId Parser::parseFromImport() {
  const Token& start = cur();
  advance();
  int level = 0;
  while (at(TK::Dot) || at(TK::Ellipsis)) {
    level += at(TK::Dot) ? 1 : 3;
    advance();
  }
  Identifier module;
  if (at(TK::Name)) {
    std::string dotted;
    if (!parseDottedName(dotted)) return {};
    module = ast_.intern(dotted);
  } else if (level == 0) {
    failSyntax();
    return {};
  }
  if (!at(TK::KwImport)) {
    failSyntax();
    return {};
  }
  advance();
  Vec<AliasId> names;
  if (at(TK::Star)) {
    names.push_back(ast_.addAlias(Alias{rangeTok(cur()), ast_.intern("*"), Identifier()}));
    advance();
  } else {
    bool paren = accept(TK::LPar);
    while (true) {
      const Token& ns = cur();
      if (!at(TK::Name)) {
        failSyntax();
        return {};
      }
      Identifier name = ident(cur());
      advance();
      Identifier asname;
      if (!parseAsName(asname)) return {};
      names.push_back(ast_.addAlias(Alias{rangeFrom(ns), name, asname}));
      if (!at(TK::Comma)) break;
      const Token& comma = cur();
      advance();
      if (paren && at(TK::RPar)) break;
      if (!paren && (at(TK::Newline) || at(TK::Semi))) {
        failRange(comma.line, comma.col, comma.endLine, comma.endCol, Diag::SyntaxError,
                  "trailing comma not allowed without surrounding parentheses");
        return {};
      }
    }
    if (paren && !expect(TK::RPar)) return {};
  }
  return mkStmt(rangeFrom(start), ast::ImportFrom{module, list(names), level});
}

StmtId Parser::parseTypeAlias() {
  const Token& start = cur();
  if (opts_.pythonVersion < 312) {
    failSyntax();
    return {};
  }
  advance();  // type
  const Token& nameTok = cur();
  ExprId name = mk(rangeTok(nameTok), ast::Name{ident(nameTok), ExprContext::Store});
  advance();
  TypeParamList tparams;
  if (at(TK::LSqb)) {
    tparams = parseTypeParams();
    if (failed_) return {};
  }
  if (!expect(TK::Equal)) return {};
  ExprId value = parseExpression();
  if (failed_) return {};
  return mkStmt(rangeFrom(start), ast::TypeAlias{name, tparams, value});
}

TypeParamList Parser::parseTypeParams() {
  if (opts_.pythonVersion < 312) {
    failSyntax();
    return {};
  }
  advance();  // [
  Vec<TypeParamId> params;
  while (!at(TK::RSqb)) {
    const Token& ps = cur();
    bool star = at(TK::Star), doubleStar = at(TK::DoubleStar);
    if (star || doubleStar) {
      // `*Ts` (TypeVarTuple) or `**P` (ParamSpec): a name, never a bound.
      advance();
      if (!at(TK::Name)) {
        failSyntax();
        return {};
      }
      Identifier n = ident(cur());
      advance();
      if (at(TK::Colon)) {
        failTok(cur(), Diag::SyntaxError,
                star ? "cannot use bound with TypeVarTuple" : "cannot use bound with ParamSpec");
        return {};
      }
      params.push_back(star ? ast_.addTypeParam(rangeFrom(ps), ast::TypeVarTuple{n})
                            : ast_.addTypeParam(rangeFrom(ps), ast::ParamSpec{n}));
    } else {
      if (!at(TK::Name)) {
        failSyntax();
        return {};
      }
      Identifier n = ident(cur());
      advance();
      ExprId bound;
      if (accept(TK::Colon)) {
        bound = parseExpression();
        if (failed_) return {};
      }
      params.push_back(ast_.addTypeParam(rangeFrom(ps), ast::TypeVar{n, bound}));
    }
    if (!accept(TK::Comma)) break;
  }
  if (params.empty()) {
    failSyntax();
    return {};
  }
  if (!expect(TK::RSqb)) return {};
  return list(params);
}

ArgumentsId Parser::parseParameters(TK closer, bool isLambda) {
  Vec<ArgId> posonly, args, kwonly;
  Vec<ExprId> defaults, kwDefaults;
  ArgId vararg, kwarg;
  bool seenSlash = false, seenStar = false, seenDefault = false, bareStar = false;
  const Token* bareStarTok = nullptr;
  auto parseParam = [&](bool allowStarAnnotation) -> ArgId {
    const Token& ns = cur();
    if (!at(TK::Name)) {
      failSyntax();
      return {};
    }
    Identifier n = ident(cur());
    advance();
    ExprId ann;
    if (!isLambda && accept(TK::Colon)) {
      ann = allowStarAnnotation && at(TK::Star) ? parseStarExpression() : parseExpression();
      if (failed_) return {};
    }
    return ast_.addArg(Arg{rangeFrom(ns), n, ann, Identifier()});
  };
  while (!at(closer)) {
    if (at(TK::Slash)) {
      if (seenSlash) {
        failTok(cur(), Diag::SyntaxError, "/ may appear only once");
        return {};
      }
      if (seenStar) {
        failTok(cur(), Diag::SyntaxError, "/ must be ahead of *");
        return {};
      }
      if (args.empty()) {
        failTok(cur(), Diag::SyntaxError, "at least one argument must precede /");
        return {};
      }
      advance();
      seenSlash = true;
      posonly = args;
      args.clear();
    } else if (at(TK::Star)) {
      if (seenStar) {
        failTok(cur(), Diag::SyntaxError, "* argument may appear only once");
        return {};
      }
      const Token& st = cur();
      advance();
      seenStar = true;
      if (at(TK::Comma) || at(closer)) {
        bareStar = true;
        bareStarTok = &st;
      } else {
        vararg = parseParam(true);
        if (failed_) return {};
        if (at(TK::Equal)) {
          failTok(cur(), Diag::SyntaxError, "var-positional argument cannot have default value");
          return {};
        }
      }
    } else if (at(TK::DoubleStar)) {
      advance();
      kwarg = parseParam(false);
      if (failed_) return {};
      if (at(TK::Equal)) {
        failTok(cur(), Diag::SyntaxError, "var-keyword argument cannot have default value");
        return {};
      }
      accept(TK::Comma);
      if (!at(closer)) {
        failTok(cur(), Diag::SyntaxError, "arguments cannot follow var-keyword argument");
        return {};
      }
      break;
    } else {
      ArgId a = parseParam(false);
      if (failed_) return {};
      ExprId def;
      if (accept(TK::Equal)) {
        def = parseExpression();
        if (failed_) return {};
      }
      if (seenStar) {
        kwonly.push_back(a);
        kwDefaults.push_back(def);
        bareStar = false;
      } else {
        if (def.valid()) {
          defaults.push_back(def);
          seenDefault = true;
        } else if (seenDefault) {
          const Arg& arg = ast_.arg(a);
          failNode(arg.range, Diag::SyntaxError, "parameter without a default follows parameter with a default");
          return {};
        }
        args.push_back(a);
      }
    }
    if (!accept(TK::Comma)) break;
  }
  if (bareStar && bareStarTok) {
    failTok(*bareStarTok, Diag::SyntaxError, "named arguments must follow bare *");
    return {};
  }
  if (!at(closer)) {
    if (closer == TK::Colon) failSyntax();
    else expect(closer);
    return {};
  }
  advance();
  Arguments out;
  out.posonlyargs = list(posonly);
  out.args = list(args);
  out.vararg = vararg;
  out.kwonlyargs = list(kwonly);
  out.kwDefaults = list(kwDefaults);
  out.kwarg = kwarg;
  out.defaults = list(defaults);
  return ast_.addArguments(out);
}

void Parser::parseDelTargets(Vec<ExprId>& items) {
  while (true) {
    if (at(TK::Star)) {
      const Token& st = cur();
      advance();
      ExprId v = parsePrimary(true);
      if (failed_) return;
      failNode(rangeFrom(st), Diag::InvalidTarget, "cannot delete starred");
      (void)v;
      return;
    }
    ExprId t = parsePrimary(true);
    if (failed_) return;
    if (!setContext(t, ExprContext::Del, "delete")) return;
    items.push_back(t);
    if (!at(TK::Comma)) break;
    advance();
    if (at(TK::Newline) || at(TK::Semi)) break;
  }
}

}  // namespace frontend::parser
