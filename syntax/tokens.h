#pragma once
// Python tokens (CPython 3.12's token set, PEP 701 f-strings included) and
// the TokenBuffer the lexer fills.
#include <cstdint>
#include <string_view>
#include <vector>

#include "syntax/source.h"

namespace frontend {

// Hard keywords get their own kinds; soft keywords (match, case, type, _)
// are Name tokens the parser recognises by text.
#define PYKC_KEYWORDS(X)                                                                \
  X(False, "False") X(None, "None") X(True, "True") X(And, "and") X(As, "as")           \
  X(Assert, "assert") X(Async, "async") X(Await, "await") X(Break, "break")             \
  X(Class, "class") X(Continue, "continue") X(Def, "def") X(Del, "del")                 \
  X(Elif, "elif") X(Else, "else") X(Except, "except") X(Finally, "finally")             \
  X(For, "for") X(From, "from") X(Global, "global") X(If, "if") X(Import, "import")     \
  X(In, "in") X(Is, "is") X(Lambda, "lambda") X(Nonlocal, "nonlocal") X(Not, "not")     \
  X(Or, "or") X(Pass, "pass") X(Raise, "raise") X(Return, "return") X(Try, "try")       \
  X(While, "while") X(With, "with") X(Yield, "yield")

// Operators and delimiters, as CPython's Grammar/Tokens names them.
#define PYKC_OPERATORS(X)                                                               \
  X(LPar, "(") X(RPar, ")") X(LSqb, "[") X(RSqb, "]") X(Colon, ":") X(Comma, ",")       \
  X(Semi, ";") X(Plus, "+") X(Minus, "-") X(Star, "*") X(Slash, "/") X(VBar, "|")       \
  X(Amper, "&") X(Less, "<") X(Greater, ">") X(Equal, "=") X(Dot, ".")                  \
  X(Percent, "%") X(LBrace, "{") X(RBrace, "}") X(EqEqual, "==") X(NotEqual, "!=")      \
  X(LessEqual, "<=") X(GreaterEqual, ">=") X(Tilde, "~") X(Circumflex, "^")             \
  X(LeftShift, "<<") X(RightShift, ">>") X(DoubleStar, "**") X(PlusEqual, "+=")         \
  X(MinEqual, "-=") X(StarEqual, "*=") X(SlashEqual, "/=") X(PercentEqual, "%=")        \
  X(AmperEqual, "&=") X(VBarEqual, "|=") X(CircumflexEqual, "^=")                       \
  X(LeftShiftEqual, "<<=") X(RightShiftEqual, ">>=") X(DoubleStarEqual, "**=")          \
  X(DoubleSlash, "//") X(DoubleSlashEqual, "//=") X(At, "@") X(AtEqual, "@=")           \
  X(RArrow, "->") X(Ellipsis, "...") X(ColonEqual, ":=") X(Exclamation, "!")

enum class TokenKind : uint8_t {
  EndOfFile,
  Newline,
  Indent,
  Dedent,
  Name,
  Number,
  // A whole string literal with its prefix and quotes ('a', rb"""x""").
  String,
  // f-string pieces (PEP 701): FStringStart is the prefix and opening quote,
  // FStringMiddle literal text (with `{{`/`}}` still doubled and escapes
  // undecoded), FStringEnd the closing quote. Replacement fields are ordinary
  // tokens between LBrace and RBrace.
  FStringStart,
  FStringMiddle,
  FStringEnd,
  // The lexer stopped here after reporting an error.
  Error,
#define PYKC_X(N, S) Kw##N,
  PYKC_KEYWORDS(PYKC_X)
#undef PYKC_X
#define PYKC_X(N, S) N,
  PYKC_OPERATORS(PYKC_X)
#undef PYKC_X
};

// CPython's token name ("NAME", "OP", "FSTRING_START", ...) for dumps.
std::string_view tokenTypeName(TokenKind k);
// The keyword or operator spelling ("def", "**="), or "" for other kinds.
std::string_view tokenSpelling(TokenKind k);
inline bool isKeyword(TokenKind k) { return k >= TokenKind::KwFalse && k <= TokenKind::KwYield; }

// One token: 28 bytes. Lines are 1-based; columns are 0-based byte offsets
// into the line (as CPython's col_offset); end is exclusive.
struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  uint8_t flags = 0;
  uint32_t offset = 0;     // byte offset of the first character in the text
  uint32_t endOffset = 0;  // one past the last byte
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t endLine = 0;
  uint32_t endCol = 0;

  // Flag bits.
  static constexpr uint8_t kTripleQuoted = 1;  // String/FStringStart: ''' or """
  static constexpr uint8_t kRaw = 2;           // String/FStringStart: r prefix
  static constexpr uint8_t kBytes = 4;         // String: b prefix
  static constexpr uint8_t kUnicodePrefix = 8; // String: u prefix
  static constexpr uint8_t kFormatSpec = 16;   // FStringMiddle: part of a format spec
  static constexpr uint8_t kNonAscii = 32;     // Name: has non-ASCII characters (NFKC applies)
};

// The token stream of one file, ending with EndOfFile (after any pending
// Newline/Dedent tokens). Points into `source()`, which must outlive it.
class TokenBuffer {
public:
  explicit TokenBuffer(const SourceFile& source) : source_(&source) {}

  const SourceFile& source() const { return *source_; }
  const std::vector<Token>& tokens() const { return tokens_; }
  const Token& operator[](size_t i) const { return tokens_[i]; }
  size_t size() const { return tokens_.size(); }
  // The source text of a token.
  std::string_view text(const Token& t) const {
    return source_->text().substr(t.offset, t.endOffset - t.offset);
  }
  // True when the lexer reported an error (the stream then has an Error token).
  bool hasErrors() const { return hasErrors_; }
  // When the file ended inside brackets: the index of the innermost unclosed
  // opening bracket token (the parser reports "'(' was never closed").
  int64_t unclosedBracket() const { return unclosedBracket_; }

  // For the lexer.
  std::vector<Token>& mutableTokens() { return tokens_; }
  void setHasErrors() { hasErrors_ = true; }
  void setUnclosedBracket(int64_t index) { unclosedBracket_ = index; }

private:
  const SourceFile* source_;
  std::vector<Token> tokens_;
  bool hasErrors_ = false;
  int64_t unclosedBracket_ = -1;
};

}  // namespace frontend
