#pragma once
// The lexer: source text to tokens, as CPython 3.12's tokenizer.
#include <string>

#include "syntax/source.h"
#include "syntax/tokens.h"

namespace frontend {

class DiagnosticSink;

// Splits `source` into tokens. Always returns a buffer ending in EndOfFile;
// on the first error (unterminated string, bad number, bad indentation, ...)
// it reports to `diags`, appends an Error token and stops. The buffer points
// into `source`, which must outlive it.
TokenBuffer lex(const SourceFile& source, DiagnosticSink& diags);

// One line per token, as `python -m tokenize` prints (minus the ENCODING
// token): `1,0-1,3:\tNAME\t'def'`.
std::string dumpTokens(const TokenBuffer& tokens);

}  // namespace frontend
