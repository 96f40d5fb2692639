#pragma once
// The parser's private interface (syntax/parse.cpp and its parse_*.cpp
// neighbours, one section each):
//
// The parser: a hand-written recursive-descent parser following CPython
// 3.12's PEG grammar (Grammar/python.gram), including the checks CPython
// makes while parsing (invalid targets, argument order, ...).
//
// Error model: the first syntax error of a statement is kept in `err_` and
// `failed_` is set; every parse function returns an invalid id once
// `failed_` is set. The statement loop reports the error and skips to the
// next statement of the same block. Speculative parses (parenthesised `with`
// items, soft keywords) save and restore the state.
#include <fmt/format.h>
#include <llvm/ADT/SmallVector.h>

#include <optional>

#include "diagnostics/diagnostics.h"
#include "syntax/parse.h"
#include "syntax/parse_internal.h"

namespace frontend::parser {

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
  // NAME ('.' NAME)* of an import, as text; false after a syntax error.
  bool parseDottedName(std::string& dotted);
  // An optional `as NAME` of an import; false after a syntax error.
  bool parseAsName(Identifier& asname);
  ExprId parseStarredOr(ExprId (Parser::*plain)());
  ExprId parseBoolChain(TK op, BoolOpKind kind, ExprId (Parser::*operand)());
  // At `for` or `async for` after a display's first element.
  bool atComprehension() const;
  // The `for ... in ...` clauses after `first` up to `close` (first must not be
  // starred); nullopt after a syntax error.
  std::optional<ComprehensionList> parseComprehensionOf(ExprId first, TK close);
  // The elements of a list or set display after `first`, up to `close`.
  std::optional<ExprList> parseDisplayElements(ExprId first, TK close);
  // After `def` or `class`: the name and its optional `[T, ...]` type parameters;
  // false after a syntax error.
  bool parseDefinitionHead(Identifier& name, TypeParamList& tparams);
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

}  // namespace frontend::parser
