// The parser: a hand-written recursive-descent parser following CPython
// 3.12's PEG grammar (Grammar/python.gram), including the checks CPython
// makes while parsing (invalid targets, argument order, ...).
//
// Error model: the first syntax error of a statement is kept in `err_` and
// `failed_` is set; every parse function returns an invalid id once
// `failed_` is set. The statement loop reports the error and skips to the
// next statement of the same block. Speculative parses (parenthesised `with`
// items, soft keywords) save and restore the state.
#include "syntax/parse.h"

#include "syntax/parser_internal.h"

namespace frontend {
namespace parser {

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

}  // namespace parser

Ast parse(const TokenBuffer& tokens, DiagnosticSink& diags, const ParseOptions& options) {
  parser::Parser p(tokens, diags, options);
  return p.run();
}

}  // namespace frontend
