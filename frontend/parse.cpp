// The parser: a hand-written recursive-descent parser following CPython
// 3.12's PEG grammar (Grammar/python.gram), including the checks CPython
// makes while parsing (invalid targets, argument order, ...).
//
// Error model: the first syntax error of a statement is kept in `err_` and
// `failed_` is set; every parse function returns an invalid id once
// `failed_` is set. The statement loop reports the error and skips to the
// next statement of the same block. Speculative parses (parenthesised `with`
// items, soft keywords) save and restore the state.
#include "frontend/parse.h"

#include <fmt/format.h>
#include <llvm/ADT/SmallVector.h>

#include <optional>

#include "frontend/diagnostics.h"
#include "frontend/parse_internal.h"

namespace frontend {
namespace {

using TK = TokenKind;

// Deeper nesting is "too many nested parentheses" (CPython overflows its
// parser stack or its recursion limit at a similar depth).
constexpr int kMaxDepth = 2900;

template <class T>
using Vec = llvm::SmallVector<T, 8>;

class Parser {
public:
  Parser(const TokenBuffer& tokens, DiagnosticSink& diags, const ParseOptions& options)
      : tb_(tokens), toks_(tokens.tokens()), diags_(diags), opts_(options), ast_(&tokens.source()) {}

  Ast run();

private:
  // ---- tokens ----
  const Token& cur() const { return toks_[p_]; }
  const Token& peekTok(size_t k = 1) const { return toks_[std::min(p_ + k, toks_.size() - 1)]; }
  const Token& prev() const { return toks_[p_ > 0 ? p_ - 1 : 0]; }
  TK kind() const { return toks_[p_].kind; }
  bool at(TK k) const { return toks_[p_].kind == k; }
  std::string_view text(const Token& t) const { return tb_.text(t); }
  bool atSoft(std::string_view kw) const { return at(TK::Name) && text(cur()) == kw; }
  bool canStartExpression() const {
    switch (kind()) {
    case TK::Name: case TK::Number: case TK::String: case TK::FStringStart: case TK::LPar: case TK::LSqb:
    case TK::LBrace: case TK::Minus: case TK::Plus: case TK::Tilde: case TK::Star: case TK::KwNot:
    case TK::KwLambda: case TK::KwAwait: case TK::KwNone: case TK::KwTrue: case TK::KwFalse: case TK::Ellipsis:
      return true;
    default:
      return false;
    }
  }
  void advance() {
    if (toks_[p_].kind != TK::EndOfFile) ++p_;
  }
  bool accept(TK k) {
    if (!at(k)) return false;
    advance();
    return true;
  }
  bool expect(TK k) {
    if (accept(k)) return true;
    if (k == TK::Colon || k == TK::RPar || k == TK::RSqb || k == TK::RBrace || k == TK::KwIn || k == TK::Equal)
      failTok(cur(), Diag::ExpectedToken, fmt::format("expected '{}'", tokenSpelling(k)));
    else
      failSyntax();
    return false;
  }

  // ---- errors ----
  struct PendingError {
    bool set = false;
    bool silent = false;  // the lexer already reported it
    Diag kind = Diag::InvalidSyntax;
    std::string message;
    uint32_t line = 0, col = 0, endLine = 0, endCol = 0;
    size_t tokenIndex = 0;
  };
  void failRange(uint32_t line, uint32_t col, uint32_t endLine, uint32_t endCol, Diag kind, std::string msg) {
    failed_ = true;
    if (err_.set) return;
    err_.set = true;
    err_.silent = false;
    err_.kind = kind;
    err_.message = std::move(msg);
    err_.line = line;
    err_.col = col;
    err_.endLine = endLine;
    err_.endCol = endCol;
    err_.tokenIndex = p_;
  }
  void failTok(const Token& t, Diag kind, std::string msg) {
    if (t.kind == TK::Error) {
      failed_ = true;
      if (!err_.set) {
        err_.set = true;
        err_.silent = true;
      }
      return;
    }
    failRange(t.line, t.col, t.endLine, t.endCol, kind, std::move(msg));
  }
  void failNode(const NodeRange& r, Diag kind, std::string msg) {
    failRange(r.lineno, r.colOffset, r.endLineno, r.endColOffset, kind, std::move(msg));
  }
  void failSyntax() { failTok(cur(), Diag::InvalidSyntax, "invalid syntax"); }
  void reportPending();
  void resync(size_t stmtStart);

  struct State {
    size_t p;
    bool failed;
    PendingError err;
  };
  State save() const { return State{p_, failed_, err_}; }
  void restore(const State& s) {
    p_ = s.p;
    failed_ = s.failed;
    err_ = s.err;
  }

  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxDepth && !p.failed_) p.failTok(p.cur(), Diag::TooNested, "too many nested parentheses");
    }
    ~DepthGuard() { --p.depth_; }
  };

  // ---- node helpers ----
  template <class T>
  ExprId mk(NodeRange r, T node) {
    ExprId id = ast_.addExpr(r, std::move(node));
    parens_.push_back(0);
    return id;
  }
  template <class T>
  StmtId mkStmt(NodeRange r, T node) {
    return ast_.addStmt(r, std::move(node));
  }
  NodeRange rangeFrom(const Token& start) const {
    const Token& end = prev();
    return NodeRange{start.line, start.col, end.endLine, end.endCol};
  }
  // From `start` to the last token consumed that is not a Newline, Indent or
  // Dedent: CPython's end of a compound statement (a trailing `;` counts).
  NodeRange blockRange(const Token& start) const {
    size_t i = p_;
    while (i > 0) {
      TK k = toks_[i - 1].kind;
      if (k != TK::Newline && k != TK::Indent && k != TK::Dedent) break;
      --i;
    }
    const Token& end = toks_[i > 0 ? i - 1 : 0];
    return NodeRange{start.line, start.col, end.endLine, end.endCol};
  }
  NodeRange rangeTok(const Token& t) const { return NodeRange{t.line, t.col, t.endLine, t.endCol}; }
  static NodeRange join(const NodeRange& a, const NodeRange& b) {
    return NodeRange{a.lineno, a.colOffset, b.endLineno, b.endColOffset};
  }
  NodeRange rangeFromNode(const NodeRange& start) const {
    const Token& end = prev();
    return NodeRange{start.lineno, start.colOffset, end.endLine, end.endCol};
  }
  const NodeRange& er(ExprId id) const { return ast_.expr(id).range; }
  template <class T>
  ListRef<T> list(const Vec<T>& v) {
    return ast_.addList(std::span<const T>(v.data(), v.size()));
  }
  Identifier ident(const Token& t);
  ExprId constant(NodeRange r, ConstantKind k) {
    ConstantValue v;
    v.kind = k;
    return mk(r, ast::Constant{ast_.addConstant(std::move(v)), false});
  }

  // ---- statements ----
  StmtList parseStatementsUntilDedent(bool topLevel);
  void parseStatement(Vec<StmtId>& out);
  void parseSimpleStatements(Vec<StmtId>& out);
  StmtId parseSimpleStatement();
  StmtId parseExpressionStatement();
  StmtList parseBlock(const char* what, uint32_t headerLine);
  StmtId parseCompound();
  StmtId parseFunctionDef(const Token& start, ExprList decorators, bool isAsync);
  StmtId parseClassDef(const Token& start, ExprList decorators);
  StmtId parseIf(bool isElif);
  StmtList parseElseBlock();
  StmtId parseWhile();
  StmtId parseFor(const Token& start, bool isAsync);
  StmtId parseWith(const Token& start, bool isAsync);
  bool parseWithItems(Vec<WithItemId>& items, bool parenthesised);
  StmtId parseTry();
  StmtId parseMatch();
  StmtId parseImport();
  StmtId parseFromImport();
  StmtId parseTypeAlias();
  TypeParamList parseTypeParams();
  ArgumentsId parseParameters(TK closer, bool isLambda);
  void parseDelTargets(Vec<ExprId>& items);

  // ---- expressions ----
  ExprId parseStarExpressions();
  ExprId parseStarExpression();
  ExprId parseStarNamedExpression();
  ExprId parseNamedExpression();
  ExprId parseCondition();
  ExprId parseExpression();
  ExprId parseLambda();
  ExprId parseDisjunction();
  ExprId parseConjunction();
  ExprId parseInversion();
  ExprId parseComparison();
  ExprId parseBitOr();
  ExprId parseBitXor();
  ExprId parseBitAnd();
  ExprId parseShift();
  ExprId parseSum();
  ExprId parseTerm();
  ExprId parseFactor();
  ExprId parsePower();
  ExprId parsePrimary(bool forTarget = false);
  ExprId parseAtom();
  ExprId parseParenthesised();
  ExprId parseListDisplay();
  ExprId parseBraceDisplay();
  ExprId parseCall(ExprId func);
  ExprId parseSlices();
  ExprId parseSlice();
  ExprId parseYield();
  ExprId parseStrings();
  bool parseFString(Vec<ExprId>& parts, std::string& pending, NodeRange& pendingRange, bool& havePending);
  ExprId parseFStringField(const Token& fstringStart);
  ComprehensionList parseComprehensions();
  ExprId parseStarTargets(bool allowTrailingComma = true);

  // ---- patterns ----
  PatternId parsePatterns();
  PatternId parseMaybeStarPattern();
  PatternId parsePattern();
  PatternId parseOrPattern();
  PatternId parseClosedPattern();
  ExprId parseLiteralExpr(bool forKey);
  ExprId parseNameOrAttr();
  ExprId parseStarTarget();

  // ---- target checks ----
  // The name CPython uses for `e` in "cannot assign to ..." (nullptr: valid).
  const char* invalidTargetName(ExprId e, bool forDel);
  // Sets ctx to Store/Del on a valid target tree, or fails.
  bool setContext(ExprId e, ExprContext ctx, const char* verb, bool hintFirst = false);
  const char* exprName(ExprId e);

  const TokenBuffer& tb_;
  const std::vector<Token>& toks_;
  DiagnosticSink& diags_;
  ParseOptions opts_;
  Ast ast_;
  size_t p_ = 0;
  bool failed_ = false;
  bool stop_ = false;
  bool sawError_ = false;
  bool matchCommitted_ = false;
  PendingError err_;
  int depth_ = 0;
  std::vector<uint8_t> parens_;  // per ExprId: written in parentheses
  std::string scratch_;
  // The `{x=}` text of the field just parsed (parseFStringField -> its caller).
  std::string debugText_;
  NodeRange debugRange_{};
};


Identifier Parser::ident(const Token& t) {
  if (!(t.flags & Token::kNonAscii)) return ast_.intern(text(t));
  size_t bad = 0;
  detail::normalizeIdentifier(text(t), scratch_, &bad);
  return ast_.intern(scratch_);
}

Ast Parser::run() {
  if (tb_.source().decodeFailed()) {
    ast_.setHasErrors();
    return std::move(ast_);
  }
  parens_.reserve(toks_.size());
  StmtList body = parseStatementsUntilDedent(true);
  ast_.setModuleBody(body);
  if (tb_.hasErrors() || sawError_) ast_.setHasErrors();
  return std::move(ast_);
}

// ---------------------------------------------------------------------------
// Error reporting and recovery
// ---------------------------------------------------------------------------

void Parser::reportPending() {
  sawError_ = true;
  if (!err_.set || err_.silent) return;
  // At the end of the file inside brackets, CPython names the bracket.
  const Token& at = toks_[std::min(err_.tokenIndex, toks_.size() - 1)];
  // Inside a bracket that is never closed, an error on a later line (or at
  // the end) is reported as the unclosed bracket, as CPython does.
  bool inUnclosed = false;
  if (tb_.unclosedBracket() >= 0) {
    const Token& b = toks_[static_cast<size_t>(tb_.unclosedBracket())];
    inUnclosed = err_.tokenIndex > static_cast<size_t>(tb_.unclosedBracket()) &&
                 (at.kind == TK::EndOfFile || at.kind == TK::Newline || at.kind == TK::Dedent || err_.line > b.line);
  }
  if (inUnclosed && err_.kind != Diag::TooNested) {
    const Token& b = toks_[static_cast<size_t>(tb_.unclosedBracket())];
    diags_.error(tb_.source().location(b.line, b.col + 1, 1), Diag::UnclosedBracket, text(b));
    return;
  }
  uint32_t length = err_.endLine == err_.line && err_.endCol > err_.col ? err_.endCol - err_.col : 1;
  diags_.report(Severity::Error, tb_.source().location(err_.line, err_.col + 1, length), err_.kind, err_.message);
}

// Skips the rest of a failed statement (which began at token `stmtStart`): up
// to its Newline, then any indented block below it, then clauses that
// continue it (elif/else/except/finally). Always moves past `stmtStart`.
void Parser::resync(size_t stmtStart) {
  bool lexerError = err_.set && err_.silent;
  failed_ = false;
  err_ = PendingError{};
  if (lexerError) {
    stop_ = true;
    while (!at(TK::EndOfFile)) advance();
    return;
  }
  // If the failing token begins a new line after a Newline (expected an
  // indented block), resume from there, unless the failed statement itself
  // begins there: parsing it again would fail again, forever.
  bool atNextLine = p_ > stmtStart && prev().kind == TK::Newline;
  if (atNextLine && !at(TK::Indent)) return;
  auto skipLine = [&]() {
    while (!at(TK::Newline) && !at(TK::EndOfFile) && !at(TK::Error)) {
      if (at(TK::Dedent) || at(TK::Indent)) {
        advance();
        continue;
      }
      advance();
    }
    if (at(TK::Error)) {
      stop_ = true;
      return;
    }
    accept(TK::Newline);
  };
  auto skipBlock = [&]() {
    if (!at(TK::Indent)) return;
    int level = 0;
    do {
      if (at(TK::Indent)) ++level;
      else if (at(TK::Dedent)) --level;
      else if (at(TK::EndOfFile) || at(TK::Error)) return;
      advance();
    } while (level > 0);
  };
  if (!atNextLine) skipLine();
  skipBlock();
  while (at(TK::KwElif) || at(TK::KwElse) || at(TK::KwExcept) || at(TK::KwFinally)) {
    skipLine();
    skipBlock();
  }
}

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

StmtId Parser::parseFunctionDef(const Token& start, ExprList decorators, bool isAsync) {
  uint32_t line = cur().line;
  advance();  // def
  if (!at(TK::Name)) {
    failSyntax();
    return {};
  }
  Identifier name = ident(cur());
  advance();
  TypeParamList tparams;
  if (at(TK::LSqb)) {
    tparams = parseTypeParams();
    if (failed_) return {};
  }
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
  if (!at(TK::Name)) {
    failSyntax();
    return {};
  }
  Identifier name = ident(cur());
  advance();
  TypeParamList tparams;
  if (at(TK::LSqb)) {
    tparams = parseTypeParams();
    if (failed_) return {};
  }
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

StmtId Parser::parseImport() {
  const Token& start = cur();
  advance();
  Vec<AliasId> names;
  do {
    const Token& ns = cur();
    if (!at(TK::Name)) {
      failSyntax();
      return {};
    }
    std::string dotted(text(cur()));
    advance();
    while (at(TK::Dot)) {
      advance();
      if (!at(TK::Name)) {
        failSyntax();
        return {};
      }
      dotted += '.';
      dotted += text(cur());
      advance();
    }
    Identifier asname;
    if (accept(TK::KwAs)) {
      if (!at(TK::Name)) {
        failSyntax();
        return {};
      }
      asname = ident(cur());
      advance();
    }
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
    std::string dotted(text(cur()));
    advance();
    while (at(TK::Dot)) {
      advance();
      if (!at(TK::Name)) {
        failSyntax();
        return {};
      }
      dotted += '.';
      dotted += text(cur());
      advance();
    }
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
      if (accept(TK::KwAs)) {
        if (!at(TK::Name)) {
          failSyntax();
          return {};
        }
        asname = ident(cur());
        advance();
      }
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
    if (accept(TK::Star)) {
      if (!at(TK::Name)) {
        failSyntax();
        return {};
      }
      Identifier n = ident(cur());
      advance();
      if (at(TK::Colon)) {
        failTok(cur(), Diag::SyntaxError, "cannot use bound with TypeVarTuple");
        return {};
      }
      params.push_back(ast_.addTypeParam(rangeFrom(ps), ast::TypeVarTuple{n}));
    } else if (accept(TK::DoubleStar)) {
      if (!at(TK::Name)) {
        failSyntax();
        return {};
      }
      Identifier n = ident(cur());
      advance();
      if (at(TK::Colon)) {
        failTok(cur(), Diag::SyntaxError, "cannot use bound with ParamSpec");
        return {};
      }
      params.push_back(ast_.addTypeParam(rangeFrom(ps), ast::ParamSpec{n}));
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

ExprId Parser::parseStarExpression() {
  if (at(TK::Star)) {
    const Token& start = cur();
    advance();
    ExprId v = parseBitOr();
    if (failed_) return {};
    return mk(rangeFrom(start), ast::Starred{v, ExprContext::Load});
  }
  return parseExpression();
}

ExprId Parser::parseStarNamedExpression() {
  if (at(TK::Star)) {
    const Token& start = cur();
    advance();
    ExprId v = parseBitOr();
    if (failed_) return {};
    return mk(rangeFrom(start), ast::Starred{v, ExprContext::Load});
  }
  return parseNamedExpression();
}

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

ExprId Parser::parseDisjunction() {
  const Token& start = cur();
  ExprId first = parseConjunction();
  if (failed_ || !at(TK::KwOr)) return first;
  Vec<ExprId> values{first};
  while (accept(TK::KwOr)) {
    ExprId e = parseConjunction();
    if (failed_) return {};
    values.push_back(e);
  }
  return mk(rangeFrom(start), ast::BoolOp{BoolOpKind::Or, list(values)});
}

ExprId Parser::parseConjunction() {
  const Token& start = cur();
  ExprId first = parseInversion();
  if (failed_ || !at(TK::KwAnd)) return first;
  Vec<ExprId> values{first};
  while (accept(TK::KwAnd)) {
    ExprId e = parseInversion();
    if (failed_) return {};
    values.push_back(e);
  }
  return mk(rangeFrom(start), ast::BoolOp{BoolOpKind::And, list(values)});
}

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

ExprId Parser::parseListDisplay() {
  DepthGuard guard(*this);
  if (failed_) return {};
  const Token& open = cur();
  advance();
  if (accept(TK::RSqb)) return mk(rangeFrom(open), ast::List{ExprList{}, ExprContext::Load});
  ExprId first = parseStarNamedExpression();
  if (failed_) return {};
  if (at(TK::KwFor) || (at(TK::KwAsync) && peekTok().kind == TK::KwFor)) {
    if (ast_.expr(first).is<ast::Starred>()) {
      failNode(er(first), Diag::SyntaxError, "iterable unpacking cannot be used in comprehension");
      return {};
    }
    ComprehensionList gens = parseComprehensions();
    if (failed_ || !expect(TK::RSqb)) return {};
    return mk(rangeFrom(open), ast::ListComp{first, gens});
  }
  Vec<ExprId> elts{first};
  while (accept(TK::Comma)) {
    if (at(TK::RSqb)) break;
    ExprId e = parseStarNamedExpression();
    if (failed_) return {};
    elts.push_back(e);
  }
  if (!expect(TK::RSqb)) return {};
  return mk(rangeFrom(open), ast::List{list(elts), ExprContext::Load});
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
      if (at(TK::KwFor) || (at(TK::KwAsync) && peekTok().kind == TK::KwFor)) {
        if (ast_.expr(first).is<ast::Starred>()) {
          failNode(er(first), Diag::SyntaxError, "iterable unpacking cannot be used in comprehension");
          return {};
        }
        ComprehensionList gens = parseComprehensions();
        if (failed_ || !expect(TK::RBrace)) return {};
        return mk(rangeFrom(open), ast::SetComp{first, gens});
      }
      Vec<ExprId> elts{first};
      while (accept(TK::Comma)) {
        if (at(TK::RBrace)) break;
        ExprId e = parseStarNamedExpression();
        if (failed_) return {};
        elts.push_back(e);
      }
      if (!expect(TK::RBrace)) return {};
      return mk(rangeFrom(open), ast::Set{list(elts)});
    }
  }
  while (accept(TK::Comma)) {
    if (at(TK::RBrace)) break;
    if (!parseDictItem()) return {};
  }
  if (!expect(TK::RBrace)) return {};
  return mk(rangeFrom(open), ast::Dict{list(keys), list(values)});
}

// ---------------------------------------------------------------------------
// Strings and f-strings
// ---------------------------------------------------------------------------

ExprId Parser::parseStrings() {
  const Token& start = cur();
  bool anyF = false, sawBytes = false, sawStr = false;
  bool kindU = false;
  Vec<ExprId> parts;
  std::string pending;
  NodeRange pendingRange{};
  bool havePending = false;
  bool firstTok = true;
  while (at(TK::String) || at(TK::FStringStart)) {
    const Token& t = cur();
    std::string_view s = text(t);
    size_t q = s.find_first_of("'\"");
    bool isBytes = (t.flags & Token::kBytes) != 0;
    if (firstTok) kindU = (t.flags & Token::kUnicodePrefix) != 0;
    firstTok = false;
    if ((isBytes && sawStr) || (!isBytes && sawBytes)) {
      failRange(start.line, start.col, t.endLine, t.endCol, Diag::SyntaxError, "cannot mix bytes and nonbytes literals");
      return {};
    }
    (isBytes ? sawBytes : sawStr) = true;
    if (t.kind == TK::FStringStart) {
      anyF = true;
      if (!parseFString(parts, pending, pendingRange, havePending)) return {};
      continue;
    }
    size_t ql = (t.flags & Token::kTripleQuoted) ? 3 : 1;
    std::string_view body = s.substr(q + ql, s.size() - q - 2 * ql);
    detail::DecodeError err;
    if (!detail::decodeStringBody(body, (t.flags & Token::kRaw) != 0, isBytes, scratch_, err)) {
      failRange(t.line, t.col, t.endLine, t.endCol, Diag::SyntaxError, err.message);
      return {};
    }
    if (!havePending) {
      pendingRange = rangeTok(t);
      havePending = true;
    }
    pendingRange.endLineno = t.endLine;
    pendingRange.endColOffset = t.endCol;
    pending += scratch_;
    advance();
  }
  NodeRange r = rangeFrom(start);
  if (!anyF) {
    ConstantValue v;
    v.kind = sawBytes ? ConstantKind::Bytes : ConstantKind::Str;
    v.text = std::move(pending);
    return mk(r, ast::Constant{ast_.addConstant(std::move(v)), kindU});
  }
  if (havePending && !pending.empty()) {
    ConstantValue v;
    v.kind = ConstantKind::Str;
    v.text = std::move(pending);
    parts.push_back(mk(pendingRange, ast::Constant{ast_.addConstant(std::move(v)), false}));
  }
  return mk(r, ast::JoinedStr{list(parts)});
}

namespace {
// f-string literal text: `{{`/`}}` undoubled (outside format specs), then
// escapes decoded unless raw.
bool decodeFStringMiddle(std::string_view s, bool raw, bool inSpec, std::string& tmp, std::string& out,
                         detail::DecodeError& err) {
  tmp.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\' && !raw && i + 1 < s.size()) {
      char n = s[i + 1];
      if (n == 'N' && i + 2 < s.size() && s[i + 2] == '{') {
        size_t close = s.find('}', i);
        if (close == std::string_view::npos) close = s.size() - 1;
        tmp.append(s.substr(i, close - i + 1));
        i = close;
        continue;
      }
      tmp += c;
      if (n != '{' && n != '}') {
        tmp += n;
        ++i;
      }
      continue;
    }
    if (!inSpec && (c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
      tmp += c;
      ++i;
      continue;
    }
    tmp += c;
  }
  return detail::decodeStringBody(tmp, raw, false, out, err);
}
}  // namespace

// The `{expr=}` text without comments (CPython 3.12 drops them), keeping
// `#` inside string literals.
static std::string stripComments(std::string_view s) {
  std::string out;
  char quote = 0;
  bool triple = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      out += c;
      if (c == '\\' && i + 1 < s.size()) {
        out += s[++i];
      } else if (c == quote && (!triple || (i + 2 < s.size() && s[i + 1] == quote && s[i + 2] == quote))) {
        if (triple) {
          out += s.substr(i + 1, 2);
          i += 2;
        }
        quote = 0;
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      triple = i + 2 < s.size() && s[i + 1] == c && s[i + 2] == c;
      out += c;
      if (triple) {
        out += s.substr(i + 1, 2);
        i += 2;
      }
      continue;
    }
    if (c == '#') {
      while (i + 1 < s.size() && s[i + 1] != '\n') ++i;
      continue;
    }
    out += c;
  }
  return out;
}

bool Parser::parseFString(Vec<ExprId>& parts, std::string& pending, NodeRange& pendingRange, bool& havePending) {
  const Token& startTok = cur();
  bool raw = (startTok.flags & Token::kRaw) != 0;
  advance();
  std::string tmp, decoded;
  auto addPending = [&](std::string_view s, NodeRange r) {
    if (!havePending) {
      pendingRange = r;
      havePending = true;
    }
    pendingRange.endLineno = r.endLineno;
    pendingRange.endColOffset = r.endColOffset;
    pending += s;
  };
  auto flush = [&]() {
    if (havePending && !pending.empty()) {
      ConstantValue v;
      v.kind = ConstantKind::Str;
      v.text = pending;
      parts.push_back(mk(pendingRange, ast::Constant{ast_.addConstant(std::move(v)), false}));
    }
    pending.clear();
    havePending = false;
  };
  while (true) {
    if (at(TK::FStringMiddle)) {
      const Token& t = cur();
      detail::DecodeError err;
      if (!decodeFStringMiddle(text(t), raw, false, tmp, decoded, err)) {
        failRange(t.line, t.col, t.endLine, t.endCol, Diag::SyntaxError, err.message);
        return false;
      }
      addPending(decoded, rangeTok(t));
      advance();
    } else if (at(TK::LBrace)) {
      ExprId field = parseFStringField(startTok);
      if (failed_) return false;
      // A `{x=}` field contributes its text before the value.
      if (!debugText_.empty()) {
        addPending(debugText_, debugRange_);
        debugText_.clear();
      }
      flush();
      parts.push_back(field);
    } else if (at(TK::FStringEnd)) {
      advance();
      return true;
    } else {
      failSyntax();
      return false;
    }
  }
}

ExprId Parser::parseFStringField(const Token& fstringStart) {
  DepthGuard guard(*this);
  if (failed_) return {};
  const Token& lb = cur();
  advance();  // {
  if (at(TK::RBrace) || at(TK::Exclamation) || at(TK::Colon) || at(TK::Equal)) {
    failTok(cur(), Diag::FStringError,
            fmt::format("f-string: valid expression required before '{}'", tokenSpelling(kind())));
    return {};
  }
  ExprId value = at(TK::KwYield) ? parseYield() : parseStarExpressions();
  if (failed_) return {};
  std::string debug;
  NodeRange debugRange{};
  bool isDebug = false;
  if (at(TK::Equal)) {
    isDebug = true;
    advance();
    const Token& next = cur();
    debug = stripComments(tb_.source().text().substr(lb.endOffset, next.offset - lb.endOffset));
    debugRange = NodeRange{lb.endLine, lb.endCol, next.line, next.col};
  }
  int32_t conversion = -1;
  if (at(TK::Exclamation)) {
    const Token& bang = cur();
    advance();
    if (!at(TK::Name) || cur().offset != bang.endOffset) {
      failTok(cur(), Diag::FStringError,
              at(TK::Name) ? "f-string: conversion type must come right after the exclamanation mark"
                           : "f-string: missing conversion character");
      return {};
    }
    std::string_view c = text(cur());
    if (c != "s" && c != "r" && c != "a") {
      failTok(cur(), Diag::FStringError,
              fmt::format("f-string: invalid conversion character '{}': expected 's', 'r', or 'a'", c));
      return {};
    }
    conversion = c[0];
    advance();
  }
  ExprId spec;
  if (at(TK::Colon)) {
    const Token& colon = cur();
    advance();
    Vec<ExprId> parts;
    std::string tmp, decoded, pending;
    bool raw = (fstringStart.flags & Token::kRaw) != 0;
    NodeRange pr{};
    bool have = false;
    auto flush = [&]() {
      if (have && !pending.empty()) {
        ConstantValue v;
        v.kind = ConstantKind::Str;
        v.text = pending;
        parts.push_back(mk(pr, ast::Constant{ast_.addConstant(std::move(v)), false}));
      }
      pending.clear();
      have = false;
    };
    while (!at(TK::RBrace)) {
      if (at(TK::FStringMiddle)) {
        const Token& t = cur();
        detail::DecodeError err;
        if (!decodeFStringMiddle(text(t), raw, true, tmp, decoded, err)) {
          failRange(t.line, t.col, t.endLine, t.endCol, Diag::SyntaxError, err.message);
          return {};
        }
        if (!have) {
          pr = rangeTok(t);
          have = true;
        }
        pr.endLineno = t.endLine;
        pr.endColOffset = t.endCol;
        pending += decoded;
        advance();
      } else if (at(TK::LBrace)) {
        ExprId inner = parseFStringField(fstringStart);
        if (failed_) return {};
        if (!debugText_.empty()) {
          if (!have) {
            pr = debugRange_;
            have = true;
          }
          pr.endLineno = debugRange_.endLineno;
          pr.endColOffset = debugRange_.endColOffset;
          pending += debugText_;
          debugText_.clear();
        }
        flush();
        parts.push_back(inner);
      } else {
        failTok(cur(), Diag::FStringError, "f-string: expecting '}'");
        return {};
      }
    }
    flush();
    spec = mk(NodeRange{colon.line, colon.col, cur().line, cur().col}, ast::JoinedStr{list(parts)});
  }
  if (!at(TK::RBrace)) {
    failTok(cur(), Diag::FStringError, "f-string: expecting '}'");
    return {};
  }
  advance();
  if (isDebug && conversion == -1 && !spec.valid()) conversion = 'r';
  ExprId fv = mk(rangeFrom(lb), ast::FormattedValue{value, conversion, spec});
  debugText_ = std::move(debug);
  debugRange_ = debugRange;
  return fv;
}

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

}  // namespace

Ast parse(const TokenBuffer& tokens, DiagnosticSink& diags, const ParseOptions& options) {
  Parser parser(tokens, diags, options);
  return parser.run();
}

}  // namespace frontend
