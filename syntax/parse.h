#pragma once
// The parser: tokens to the syntax tree (CPython 3.12's grammar).
#include "syntax/ast.h"
#include "syntax/tokens.h"

namespace frontend {

class DiagnosticSink;

struct ParseOptions {
  // Which Python's grammar to accept: 311 rejects 3.12-only syntax (`type`
  // statements, type parameter lists, PEP 701 f-strings reusing the quote).
  int pythonVersion = 312;
};

// Builds the tree for `tokens`. Always returns a tree; if anything was
// reported (by the lexer before, or by the parser), `hasErrors()` is true and
// nothing may lower it. Syntax errors use CPython's wording; after an error
// the parser resynchronises at the next statement of the same block, so
// several independent errors are reported. `tokens` (and its SourceFile)
// must outlive the returned tree only for diagnostics; the tree owns its data.
Ast parse(const TokenBuffer& tokens, DiagnosticSink& diags, const ParseOptions& options = {});

}  // namespace frontend
