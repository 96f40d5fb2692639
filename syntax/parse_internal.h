#pragma once
// Folder-private helpers of the parser and the AST dump: literal decoding,
// Unicode tables.
#include <cstdint>
#include <string>
#include <string_view>

#include "syntax/ast.h"

namespace frontend::detail {

// Decodes the (generalized) UTF-8 sequence at s[i]; sets *len to its length.
uint32_t decodeUtf8(std::string_view s, size_t i, size_t* len);

// The code point named `name` as in `\N{name}` (case-insensitive);
// false when there is none.
bool lookupUnicodeName(std::string_view name, uint32_t* cp);

// PEP 3131 identifier characters above ASCII.
bool isXidStart(uint32_t cp);
bool isXidContinue(uint32_t cp);

// CPython's identifier normalisation (NFKC, applied per character) of a
// non-ASCII identifier. Returns false when the result is not a valid
// identifier; then `badOffset` is the byte offset in `in` of the first
// offending character.
bool normalizeIdentifier(std::string_view in, std::string& out, size_t* badOffset);

// str.isprintable() for one code point, per Python version (311 or 312).
bool isPrintable(uint32_t cp, int pythonVersion);

struct DecodeError {
  size_t offset = 0;  // byte offset in the body where the bad escape starts
  size_t length = 1;
  std::string message;
};

// Decodes the body of a string literal (between the quotes) into `out`:
// escapes unless `raw`; for `bytes`, the value's bytes (and non-ASCII
// characters are an error). Returns false and fills `err` on an error.
bool decodeStringBody(std::string_view body, bool raw, bool bytes, std::string& out, DecodeError& err);

// The value of a NUMBER token (`0x_ff`, `1_0.5e3`, `2j`).
ConstantValue parseNumber(std::string_view literal);

}  // namespace frontend::detail
