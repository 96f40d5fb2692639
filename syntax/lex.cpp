#include "syntax/lex.h"

#include <fmt/format.h>

#include <cstring>

#include "diagnostics/diagnostics.h"
#include "syntax/parse_internal.h"

namespace frontend {
namespace {

constexpr int kMaxIndent = 100;
// CPython's MAXLEVEL: deeper bracket nesting is "too many nested parentheses".
constexpr size_t kMaxBracketDepth = 200;
// CPython's MAXFSTRINGLEVEL.
constexpr size_t kMaxFStringDepth = 150;

bool isIdStartAscii(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdCharAscii(unsigned char c) { return isIdStartAscii(c) || (c >= '0' && c <= '9'); }
bool isDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool isHexDigit(unsigned char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Decodes the UTF-8 code point at s[i] (the source is valid UTF-8).
uint32_t decodeAt(std::string_view s, size_t i, size_t* len) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) { *len = 1; return c; }
  int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  uint32_t cp = c & (n == 4 ? 0x07 : n == 3 ? 0x0F : 0x1F);
  for (int k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  *len = n;
  return cp;
}

enum class ModeKind : uint8_t { Regular, FStringLiteral, FieldExpr, FieldSpec };

struct Mode {
  ModeKind kind = ModeKind::Regular;
  char quote = 0;
  bool triple = false;
  bool raw = false;
  // FieldExpr: the bracket depth just inside the field's `{`.
  size_t depth = 0;
};

struct Bracket {
  char ch;
  uint32_t tokenIndex;
  uint32_t line;
};

class Lexer {
public:
  Lexer(const SourceFile& source, DiagnosticSink& diags)
      : src_(source), text_(source.text()), diags_(diags), buffer_(source) {}

  TokenBuffer run();

private:
  // Appends a token from byte `start` at (startLine, startCol) to pos_.
  void push(TokenKind kind, size_t start, uint32_t startLine, uint32_t startCol, uint8_t flags = 0) {
    Token t;
    t.kind = kind;
    t.flags = flags;
    t.offset = static_cast<uint32_t>(start);
    t.endOffset = static_cast<uint32_t>(pos_);
    t.line = startLine;
    t.col = startCol;
    t.endLine = line_;
    t.endCol = static_cast<uint32_t>(pos_ - lineStart_);
    if (!bad_.empty() && !checkInvalidBytes(t)) return;
    tokens().push_back(t);
  }
  bool checkInvalidBytes(const Token& t);
  void pushHere(TokenKind kind, size_t start, uint8_t flags = 0) {
    push(kind, start, line_, static_cast<uint32_t>(start - lineStart_), flags);
  }
  std::vector<Token>& tokens() { return buffer_.mutableTokens(); }
  char peek(size_t k = 0) const { return pos_ + k < text_.size() ? text_[pos_ + k] : '\0'; }
  bool atEnd() const { return pos_ >= text_.size(); }
  void newline() {
    ++line_;
    lineStart_ = pos_;
  }
  // Reports at (line, col0) and stops lexing.
  void fail(uint32_t line, uint32_t col0, uint32_t length, Diag kind, std::string message) {
    if (failed_) return;
    failed_ = true;
    diags_.report(Severity::Error, src_.location(line, col0 + 1, length), kind, std::move(message));
    buffer_.setHasErrors();
  }
  void failHere(Diag kind, std::string message, uint32_t length = 1) {
    fail(line_, static_cast<uint32_t>(pos_ - lineStart_), length, kind, std::move(message));
  }

  bool lexIndentation();
  void lexToken();
  void lexName();
  void lexNumber();
  void lexString(size_t start, uint32_t startLine, uint32_t startCol, uint8_t flags, bool fstring);
  void lexFStringLiteral();
  void finish();
  // "unterminated f-string literal" at the innermost open f-string.
  void failUnterminatedFString();
  bool openBracket(char ch, size_t start);
  bool closeBracket(char ch, size_t start);

  const SourceFile& src_;
  std::string_view text_;
  DiagnosticSink& diags_;
  TokenBuffer buffer_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  size_t lineStart_ = 0;
  bool atLineStart_ = true;
  bool failed_ = false;
  std::vector<int> indents_{0};
  std::vector<int> altIndents_{0};
  std::vector<Bracket> brackets_;
  std::vector<Mode> modes_;
  // Bytes that were not UTF-8 (SourceFile::invalidBytes) and the next one.
  const std::vector<uint32_t>& bad_ = src_.invalidBytes();
  size_t badIndex_ = 0;
};

// Bytes that are not UTF-8 are an error inside a token (not in comments),
// worded as CPython's per-token decoding does.
bool Lexer::checkInvalidBytes(const Token& t) {
  while (badIndex_ < bad_.size() && bad_[badIndex_] < t.offset) ++badIndex_;
  if (badIndex_ >= bad_.size() || bad_[badIndex_] >= t.endOffset) return true;
  std::string_view raw = src_.rawText().substr(t.offset, t.endOffset - t.offset);
  size_t bodyStart = 0;
  if (t.kind == TokenKind::String) {
    bodyStart = raw.find_first_of("'\"");
    bodyStart += (t.flags & Token::kTripleQuoted) ? 3 : 1;
    size_t bodyEnd = raw.size() - ((t.flags & Token::kTripleQuoted) ? 3 : 1);
    raw = raw.substr(bodyStart, bodyEnd > bodyStart ? bodyEnd - bodyStart : 0);
  }
  size_t offset = 0;
  const char* reason = "invalid start byte";
  if (!findUtf8Error(raw, &offset, &reason)) offset = bad_[badIndex_] - t.offset - bodyStart;
  auto byte = static_cast<unsigned char>(src_.rawText()[t.offset + bodyStart + offset]);
  fail(t.line, t.col, 1, Diag::InvalidEncoding,
       fmt::format("(unicode error) 'utf-8' codec can't decode byte 0x{:02x} in position {}: {}", byte, offset, reason));
  return false;
}

TokenBuffer Lexer::run() {
  tokens().reserve(text_.size() / 4 + 16);
  while (!failed_) {
    if (!modes_.empty() && (modes_.back().kind == ModeKind::FStringLiteral || modes_.back().kind == ModeKind::FieldSpec)) {
      lexFStringLiteral();
      continue;
    }
    if (atLineStart_ && brackets_.empty()) {
      if (!lexIndentation()) continue;
      if (failed_) break;
    }
    // Whitespace.
    while (!atEnd() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\f')) ++pos_;
    if (atEnd()) break;
    lexToken();
  }
  if (!failed_) finish();
  if (failed_) {
    Token t;
    t.kind = TokenKind::Error;
    t.offset = t.endOffset = static_cast<uint32_t>(std::min(pos_, text_.size()));
    t.line = t.endLine = line_;
    t.col = t.endCol = static_cast<uint32_t>(std::min(pos_, text_.size()) - lineStart_);
    tokens().push_back(t);
    t.kind = TokenKind::EndOfFile;
    tokens().push_back(t);
  }
  return std::move(buffer_);
}

// At the start of a logical line outside brackets: measures indentation,
// skips blank and comment-only lines, and emits Indent/Dedent tokens.
// Returns false when it consumed a blank line (the caller loops).
bool Lexer::lexIndentation() {
  int col = 0, altcol = 0;
  size_t start = pos_;
  while (!atEnd()) {
    char c = text_[pos_];
    if (c == ' ') {
      ++col;
      ++altcol;
    } else if (c == '\t') {
      col = (col / 8 + 1) * 8;
      ++altcol;
    } else if (c == '\f') {
      col = altcol = 0;
    } else {
      break;
    }
    ++pos_;
  }
  if (atEnd()) {
    atLineStart_ = false;
    return true;
  }
  char c = text_[pos_];
  if (c == '#' || c == '\n') {
    // Blank or comment-only line: no indentation change, no Newline token.
    while (!atEnd() && text_[pos_] != '\n') ++pos_;
    if (!atEnd()) {
      ++pos_;
      newline();
    }
    return false;
  }
  if (c == '\\') {
    // A continuation at the start of a line: CPython treats the joined line
    // as the indentation continuing.
    if (peek(1) == '\n') {
      pos_ += 2;
      newline();
      // Keep measuring on the next physical line as part of this one.
      while (!atEnd() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\f')) ++pos_;
      if (atEnd()) {
        failHere(Diag::UnexpectedEof, "unexpected EOF while parsing");
        return true;
      }
    }
  }
  atLineStart_ = false;
  uint32_t col0 = static_cast<uint32_t>(pos_ - lineStart_);
  // CPython points tab errors and deep indentation at the line start, and a
  // bad dedent at the end of the line.
  auto failLine = [&](Diag kind, const char* msg) {
    fail(line_, 0, 1, kind, msg);
  };
  if (col == indents_.back()) {
    if (altcol != altIndents_.back()) {
      failLine(Diag::InconsistentTabs, "inconsistent use of tabs and spaces in indentation");
      return true;
    }
  } else if (col > indents_.back()) {
    if (indents_.size() >= kMaxIndent) {
      failLine(Diag::TooDeepIndent, "too many levels of indentation");
      return true;
    }
    if (altcol <= altIndents_.back()) {
      failLine(Diag::InconsistentTabs, "inconsistent use of tabs and spaces in indentation");
      return true;
    }
    indents_.push_back(col);
    altIndents_.push_back(altcol);
    push(TokenKind::Indent, start, line_, 0);
    tokens().back().offset = static_cast<uint32_t>(lineStart_);
    tokens().back().col = 0;
    tokens().back().endCol = col0;
  } else {
    while (indents_.size() > 1 && col < indents_.back()) {
      indents_.pop_back();
      altIndents_.pop_back();
      pushHere(TokenKind::Dedent, pos_);
    }
    if (col != indents_.back()) {
      size_t eol = text_.find('\n', pos_);
      if (eol == std::string_view::npos) eol = text_.size();
      fail(line_, static_cast<uint32_t>(eol - lineStart_), 1, Diag::InconsistentDedent,
           "unindent does not match any outer indentation level");
      return true;
    }
    if (altcol != altIndents_.back()) {
      failLine(Diag::InconsistentTabs, "inconsistent use of tabs and spaces in indentation");
      return true;
    }
  }
  return true;
}

bool Lexer::openBracket(char ch, size_t start) {
  if (brackets_.size() >= kMaxBracketDepth) {
    failHere(Diag::TooManyParens, "too many nested parentheses");
    return false;
  }
  brackets_.push_back(Bracket{ch, static_cast<uint32_t>(tokens().size()), line_});
  (void)start;
  return true;
}

bool Lexer::closeBracket(char ch, size_t start) {
  if (brackets_.empty()) {
    failHere(Diag::UnmatchedBracket, fmt::format("unmatched '{}'", ch));
    return false;
  }
  char open = brackets_.back().ch;
  char want = open == '(' ? ')' : open == '[' ? ']' : '}';
  if (ch != want) {
    uint32_t openLine = brackets_.back().line;
    std::string msg = openLine != line_
                          ? fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}' on line {}", ch, open, openLine)
                          : fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}'", ch, open);
    failHere(Diag::MismatchedBracket, std::move(msg));
    return false;
  }
  brackets_.pop_back();
  (void)start;
  return true;
}

void Lexer::lexToken() {
  size_t start = pos_;
  if (!bad_.empty()) {
    while (badIndex_ < bad_.size() && bad_[badIndex_] < pos_) ++badIndex_;
    if (badIndex_ < bad_.size() && bad_[badIndex_] == pos_ && text_[pos_] != '#') {
      size_t offset = 0;
      const char* reason = "invalid start byte";
      findUtf8Error(src_.rawText().substr(pos_), &offset, &reason);
      failHere(Diag::InvalidEncoding,
               fmt::format("(unicode error) 'utf-8' codec can't decode byte 0x{:02x} in position 0: {}",
                           static_cast<unsigned char>(src_.rawText()[pos_]), reason));
      return;
    }
  }
  auto c = static_cast<unsigned char>(text_[pos_]);
  uint32_t col0 = static_cast<uint32_t>(start - lineStart_);

  if (c == '#') {
    while (!atEnd() && text_[pos_] != '\n') ++pos_;
    return;
  }
  if (c == '\n') {
    if (brackets_.empty()) {
      // A Newline only ends a logical line that has tokens.
      if (!tokens().empty() && tokens().back().kind != TokenKind::Newline &&
          tokens().back().kind != TokenKind::Indent && tokens().back().kind != TokenKind::Dedent) {
        ++pos_;
        Token t;
        t.kind = TokenKind::Newline;
        t.offset = static_cast<uint32_t>(start);
        t.endOffset = static_cast<uint32_t>(pos_);
        t.line = t.endLine = line_;
        t.col = col0;
        t.endCol = col0 + 1;
        tokens().push_back(t);
      } else {
        ++pos_;
      }
      newline();
      atLineStart_ = true;
    } else {
      // Inside brackets (or an f-string replacement field, as CPython 3.12
      // allows even in single-quoted f-strings) a line break joins lines.
      ++pos_;
      newline();
    }
    return;
  }
  if (c == '\\') {
    if (peek(1) == '\n') {
      uint32_t bsLine = line_;
      pos_ += 2;
      newline();
      if (atEnd()) fail(bsLine, col0, 1, Diag::UnexpectedEof, "unexpected EOF while parsing");
      return;
    }
    if (pos_ + 1 >= text_.size()) {
      ++pos_;
      failHere(Diag::UnexpectedEof, "unexpected EOF while parsing");
      return;
    }
    ++pos_;
    failHere(Diag::LineContinuation, "unexpected character after line continuation character");
    return;
  }
  if (isIdStartAscii(c) || c >= 0x80) {
    // String prefixes.
    size_t p = pos_;
    uint8_t flags = 0;
    bool f = false;
    bool ok = true;
    while (p < text_.size() && p - pos_ < 3 && isIdStartAscii(static_cast<unsigned char>(text_[p]))) {
      char lc = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[p])));
      if (lc == 'r' && !(flags & Token::kRaw)) flags |= Token::kRaw;
      else if (lc == 'b' && !(flags & (Token::kBytes | Token::kUnicodePrefix)) && !f) flags |= Token::kBytes;
      else if (lc == 'u' && flags == 0 && !f) flags |= Token::kUnicodePrefix;
      else if (lc == 'f' && !f && !(flags & (Token::kBytes | Token::kUnicodePrefix))) f = true;
      else { ok = false; break; }
      ++p;
    }
    if (ok && p > pos_ && p < text_.size() && (text_[p] == '\'' || text_[p] == '"')) {
      if ((flags & Token::kUnicodePrefix) && (p - pos_) > 1) ok = false;
      if (ok) {
        pos_ = p;
        lexString(start, line_, col0, flags, f);
        return;
      }
    }
    lexName();
    return;
  }
  if (isDigit(c) || (c == '.' && isDigit(static_cast<unsigned char>(peek(1))))) {
    lexNumber();
    return;
  }
  if (c == '\'' || c == '"') {
    lexString(start, line_, col0, 0, false);
    return;
  }

  // Operators: longest match.
  auto op3 = [&](const char* s) { return pos_ + 3 <= text_.size() && std::memcmp(text_.data() + pos_, s, 3) == 0; };
  auto op2 = [&](const char* s) { return pos_ + 2 <= text_.size() && text_[pos_] == s[0] && text_[pos_ + 1] == s[1]; };
  TokenKind kind;
  size_t len = 1;
  if (op3("**=")) { kind = TokenKind::DoubleStarEqual; len = 3; }
  else if (op3("...")) { kind = TokenKind::Ellipsis; len = 3; }
  else if (op3("<<=")) { kind = TokenKind::LeftShiftEqual; len = 3; }
  else if (op3(">>=")) { kind = TokenKind::RightShiftEqual; len = 3; }
  else if (op3("//=")) { kind = TokenKind::DoubleSlashEqual; len = 3; }
  else if (op2("!=")) { kind = TokenKind::NotEqual; len = 2; }
  else if (op2("%=")) { kind = TokenKind::PercentEqual; len = 2; }
  else if (op2("&=")) { kind = TokenKind::AmperEqual; len = 2; }
  else if (op2("**")) { kind = TokenKind::DoubleStar; len = 2; }
  else if (op2("*=")) { kind = TokenKind::StarEqual; len = 2; }
  else if (op2("+=")) { kind = TokenKind::PlusEqual; len = 2; }
  else if (op2("-=")) { kind = TokenKind::MinEqual; len = 2; }
  else if (op2("->")) { kind = TokenKind::RArrow; len = 2; }
  else if (op2("//")) { kind = TokenKind::DoubleSlash; len = 2; }
  else if (op2("/=")) { kind = TokenKind::SlashEqual; len = 2; }
  else if (op2(":=") && !(!modes_.empty() && modes_.back().kind == ModeKind::FieldExpr && brackets_.size() == modes_.back().depth)) { kind = TokenKind::ColonEqual; len = 2; }
  else if (op2("<<")) { kind = TokenKind::LeftShift; len = 2; }
  else if (op2("<=")) { kind = TokenKind::LessEqual; len = 2; }
  else if (op2("<>")) { kind = TokenKind::NotEqual; len = 2; }
  else if (op2("==")) { kind = TokenKind::EqEqual; len = 2; }
  else if (op2(">=")) { kind = TokenKind::GreaterEqual; len = 2; }
  else if (op2(">>")) { kind = TokenKind::RightShift; len = 2; }
  else if (op2("@=")) { kind = TokenKind::AtEqual; len = 2; }
  else if (op2("^=")) { kind = TokenKind::CircumflexEqual; len = 2; }
  else if (op2("|=")) { kind = TokenKind::VBarEqual; len = 2; }
  else {
    switch (c) {
    case '(': kind = TokenKind::LPar; break;
    case ')': kind = TokenKind::RPar; break;
    case '[': kind = TokenKind::LSqb; break;
    case ']': kind = TokenKind::RSqb; break;
    case '{': kind = TokenKind::LBrace; break;
    case '}': kind = TokenKind::RBrace; break;
    case ':': kind = TokenKind::Colon; break;
    case ',': kind = TokenKind::Comma; break;
    case ';': kind = TokenKind::Semi; break;
    case '+': kind = TokenKind::Plus; break;
    case '-': kind = TokenKind::Minus; break;
    case '*': kind = TokenKind::Star; break;
    case '/': kind = TokenKind::Slash; break;
    case '|': kind = TokenKind::VBar; break;
    case '&': kind = TokenKind::Amper; break;
    case '<': kind = TokenKind::Less; break;
    case '>': kind = TokenKind::Greater; break;
    case '=': kind = TokenKind::Equal; break;
    case '.': kind = TokenKind::Dot; break;
    case '%': kind = TokenKind::Percent; break;
    case '~': kind = TokenKind::Tilde; break;
    case '^': kind = TokenKind::Circumflex; break;
    case '@': kind = TokenKind::At; break;
    case '!': kind = TokenKind::Exclamation; break;
    default:
      if (c < 0x20 || c == 0x7F) {
        failHere(Diag::InvalidCharacter, fmt::format("invalid non-printable character U+{:04X}", c));
      } else {
        failHere(Diag::InvalidSyntax, "invalid syntax");
      }
      return;
    }
  }
  // `<>` is only valid with `from __future__ import barry_as_FLUFL`.
  if (kind == TokenKind::NotEqual && text_[pos_] == '<') {
    failHere(Diag::InvalidSyntax, "invalid syntax", 2);
    return;
  }
  Mode* field = !modes_.empty() && modes_.back().kind == ModeKind::FieldExpr ? &modes_.back() : nullptr;
  if (kind == TokenKind::LPar || kind == TokenKind::LSqb || kind == TokenKind::LBrace) {
    if (!openBracket(static_cast<char>(c), start)) return;
  } else if (kind == TokenKind::RPar || kind == TokenKind::RSqb || kind == TokenKind::RBrace) {
    if (field && brackets_.size() == field->depth && kind != TokenKind::RBrace) {
      // `f'{a)}'`
      failHere(Diag::FStringError, fmt::format("f-string: unmatched '{}'", static_cast<char>(c)));
      return;
    }
    if (!closeBracket(static_cast<char>(c), start)) return;
    if (field && kind == TokenKind::RBrace && brackets_.size() + 1 == field->depth) {
      // End of a replacement field.
      modes_.pop_back();
      pos_ += len;
      pushHere(kind, start);
      return;
    }
  } else if (field && brackets_.size() == field->depth) {
    if (kind == TokenKind::Colon) {
      // Start of the format spec.
      pos_ += len;
      pushHere(kind, start);
      field->kind = ModeKind::FieldSpec;
      return;
    }
    if (kind == TokenKind::Exclamation) {
      // Conversion: `!r`.
    }
  }
  pos_ += len;
  pushHere(kind, start);
}

void Lexer::lexName() {
  size_t start = pos_;
  bool ascii = true;
  // As CPython: every non-ASCII character may be part of a name; the whole
  // name is verified (after NFKC normalisation) at the end.
  while (!atEnd()) {
    auto c = static_cast<unsigned char>(text_[pos_]);
    if (c < 0x80) {
      if (!isIdCharAscii(c)) break;
      ++pos_;
      continue;
    }
    size_t len;
    decodeAt(text_, pos_, &len);
    ascii = false;
    pos_ += len;
  }
  std::string_view word = text_.substr(start, pos_ - start);
  TokenKind kind = TokenKind::Name;
  uint8_t flags = 0;
  if (!ascii) {
    std::string normalized;
    size_t bad = 0;
    if (!detail::normalizeIdentifier(word, normalized, &bad)) {
      size_t len;
      uint32_t cp = decodeAt(text_, start + bad, &len);
      pos_ = start + bad;
      if (cp < 0x80 || !detail::isPrintable(cp, 312))
        failHere(Diag::InvalidCharacter, fmt::format("invalid non-printable character U+{:04X}", cp));
      else
        failHere(Diag::InvalidCharacter, fmt::format("invalid character '{}' (U+{:04X})", text_.substr(start + bad, len), cp));
      return;
    }
    flags = Token::kNonAscii;
  }
  if (ascii && word.size() >= 2 && word.size() <= 8) {
#define PYKC_X(N, S) \
  if (word == S) kind = TokenKind::Kw##N;
    PYKC_KEYWORDS(PYKC_X)
#undef PYKC_X
  }
  pushHere(kind, start, flags);
}

void Lexer::lexNumber() {
  size_t start = pos_;
  uint32_t col0 = static_cast<uint32_t>(start - lineStart_);
  const char* kindName = "decimal";
  auto failDigit = [&](std::string msg) { failHere(Diag::InvalidNumber, std::move(msg)); };
  auto failNumber = [&](std::string msg) {
    fail(line_, col0, static_cast<uint32_t>(pos_ - start + 1), Diag::InvalidNumber, std::move(msg));
  };
  // Digits with single underscores between them; returns false on a bad `_`.
  auto digits = [&](auto pred) {
    while (!atEnd()) {
      auto c = static_cast<unsigned char>(text_[pos_]);
      if (pred(c)) {
        ++pos_;
      } else if (c == '_' && pos_ + 1 < text_.size() && pred(static_cast<unsigned char>(text_[pos_ + 1]))) {
        pos_ += 2;
      } else if (c == '_') {
        ++pos_;
        return false;
      } else {
        break;
      }
    }
    return true;
  };
  auto isDec = [](unsigned char c) { return isDigit(c); };
  bool isFloat = false;
  char c0 = text_[pos_];
  if (c0 == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' || peek(1) == 'O' || peek(1) == 'b' || peek(1) == 'B')) {
    char base = static_cast<char>(std::tolower(static_cast<unsigned char>(peek(1))));
    pos_ += 2;
    if (peek() == '_') ++pos_;
    bool ok;
    if (base == 'x') {
      kindName = "hexadecimal";
      if (!isHexDigit(static_cast<unsigned char>(peek()))) { failNumber("invalid hexadecimal literal"); return; }
      ok = digits([](unsigned char c) { return isHexDigit(c); });
    } else if (base == 'o') {
      kindName = "octal";
      if (!(peek() >= '0' && peek() <= '7')) {
        if (isDigit(static_cast<unsigned char>(peek()))) failNumber(fmt::format("invalid digit '{}' in octal literal", peek()));
        else failNumber("invalid octal literal");
        return;
      }
      ok = digits([](unsigned char c) { return c >= '0' && c <= '7'; });
      if (ok && isDigit(static_cast<unsigned char>(peek()))) { failDigit(fmt::format("invalid digit '{}' in octal literal", peek())); return; }
    } else {
      kindName = "binary";
      if (!(peek() == '0' || peek() == '1')) {
        if (isDigit(static_cast<unsigned char>(peek()))) failNumber(fmt::format("invalid digit '{}' in binary literal", peek()));
        else failNumber("invalid binary literal");
        return;
      }
      ok = digits([](unsigned char c) { return c == '0' || c == '1'; });
      if (ok && isDigit(static_cast<unsigned char>(peek()))) { failDigit(fmt::format("invalid digit '{}' in binary literal", peek())); return; }
    }
    if (!ok) { failNumber(fmt::format("invalid {} literal", kindName)); return; }
  } else {
    bool leadingZeroError = false;
    if (c0 != '.') {
      if (c0 == '0') {
        // Zeros, then maybe other digits (only valid for a float/imaginary).
        if (!digits(isDec)) { failNumber("invalid decimal literal"); return; }
        for (size_t i = start; i < pos_; ++i)
          if (text_[i] != '0' && text_[i] != '_') leadingZeroError = true;
      } else if (!digits(isDec)) {
        failNumber("invalid decimal literal");
        return;
      }
    }
    if (peek() == '.' ) {
      isFloat = true;
      ++pos_;
      if (isDigit(static_cast<unsigned char>(peek())) && !digits(isDec)) { failNumber("invalid decimal literal"); return; }
    }
    if (peek() == 'e' || peek() == 'E') {
      size_t save = pos_;
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (isDigit(static_cast<unsigned char>(peek()))) {
        isFloat = true;
        if (!digits(isDec)) { failNumber("invalid decimal literal"); return; }
      } else {
        pos_ = save;
      }
    }
    if (peek() == 'j' || peek() == 'J') {
      ++pos_;
      kindName = "imaginary";
      isFloat = true;
    }
    if (leadingZeroError && !isFloat) {
      fail(line_, col0, static_cast<uint32_t>(pos_ - start), Diag::InvalidNumber,
           "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
      return;
    }
  }
  // What may follow a number: not an identifier character, except the
  // start of a keyword CPython tolerates (`1if x else y`).
  if (!atEnd()) {
    auto c = static_cast<unsigned char>(text_[pos_]);
    if (isIdCharAscii(c)) {
      std::string_view rest = text_.substr(pos_);
      bool okKeyword = false;
      for (std::string_view kw : {"and", "else", "for", "if", "in", "is", "not", "or"}) {
        if (rest.substr(0, kw.size()) == kw) okKeyword = true;
      }
      if (!okKeyword) {
        fail(line_, col0, static_cast<uint32_t>(pos_ - start + 1), Diag::InvalidNumber,
             fmt::format("invalid {} literal", kindName));
        return;
      }
    }
  }
  pushHere(TokenKind::Number, start);
}

void Lexer::lexString(size_t start, uint32_t startLine, uint32_t startCol, uint8_t flags, bool fstring) {
  char quote = text_[pos_];
  bool triple = peek(1) == quote && peek(2) == quote;
  if (triple) flags |= Token::kTripleQuoted;
  pos_ += triple ? 3 : 1;
  if (fstring) {
    size_t nested = 0;
    for (const Mode& m : modes_) nested += m.kind == ModeKind::FStringLiteral;
    if (nested + 1 >= kMaxFStringDepth) {
      fail(startLine, startCol, 1, Diag::FStringError, "too many nested f-strings");
      return;
    }
    push(TokenKind::FStringStart, start, startLine, startCol, flags);
    Mode m;
    m.kind = ModeKind::FStringLiteral;
    m.quote = quote;
    m.triple = triple;
    m.raw = (flags & Token::kRaw) != 0;
    modes_.push_back(m);
    return;
  }
  while (true) {
    if (atEnd()) {
      uint32_t lastLine = line_ - (pos_ > 0 && text_[pos_ - 1] == '\n' ? 1 : 0);
      if (triple)
        fail(startLine, startCol, 1, Diag::UnterminatedTripleQuoted,
             fmt::format("unterminated triple-quoted string literal (detected at line {})", lastLine));
      else
        fail(startLine, startCol, 1, Diag::UnterminatedString,
             fmt::format("unterminated string literal (detected at line {})", lastLine));
      return;
    }
    char c = text_[pos_];
    if (c == quote) {
      if (!triple) {
        ++pos_;
        break;
      }
      if (peek(1) == quote && peek(2) == quote) {
        pos_ += 3;
        break;
      }
      ++pos_;
      continue;
    }
    if (c == '\\') {
      if (pos_ + 1 < text_.size()) {
        ++pos_;
        if (text_[pos_] == '\n') {
          ++pos_;
          newline();
        } else {
          ++pos_;
        }
        continue;
      }
      ++pos_;
      continue;
    }
    if (c == '\n') {
      if (!triple) {
        fail(startLine, startCol, 1, Diag::UnterminatedString,
             fmt::format("unterminated string literal (detected at line {})", line_));
        return;
      }
      ++pos_;
      newline();
      continue;
    }
    ++pos_;
  }
  push(TokenKind::String, start, startLine, startCol, flags);
}

// Scans literal text of an f-string (or of a format spec) up to a
// replacement field, the end of the spec, or the closing quote.
void Lexer::lexFStringLiteral() {
  // The innermost f-string literal mode gives the quote.
  size_t litIndex = modes_.size();
  while (litIndex-- > 0)
    if (modes_[litIndex].kind == ModeKind::FStringLiteral) break;
  const Mode lit = modes_[litIndex];
  bool inSpec = modes_.back().kind == ModeKind::FieldSpec;
  size_t start = pos_;
  uint32_t startLine = line_;
  uint32_t startCol = static_cast<uint32_t>(pos_ - lineStart_);
  auto flushMiddle = [&]() {
    if (pos_ > start) push(TokenKind::FStringMiddle, start, startLine, startCol, inSpec ? Token::kFormatSpec : 0);
  };
  while (true) {
    if (atEnd()) {
      const Token* startTok = nullptr;
      for (size_t i = tokens().size(); i-- > 0;)
        if (tokens()[i].kind == TokenKind::FStringStart) { startTok = &tokens()[i]; break; }
      uint32_t l = startTok ? startTok->line : line_, c = startTok ? startTok->col : 0;
      uint32_t lastLine = line_ - (pos_ > 0 && text_[pos_ - 1] == '\n' ? 1 : 0);
      fail(l, c, 1, Diag::UnterminatedFString,
           lit.triple ? fmt::format("unterminated triple-quoted f-string literal (detected at line {})", lastLine)
                      : fmt::format("unterminated f-string literal (detected at line {})", lastLine));
      return;
    }
    char c = text_[pos_];
    if (c == lit.quote && (!lit.triple || (peek(1) == c && peek(2) == c))) {
      if (inSpec) {
        // The f-string ends inside a format spec: `f'{x:abc'`.
        failHere(Diag::FStringError, "f-string: expecting '}'");
        return;
      }
      flushMiddle();
      size_t q = pos_;
      pos_ += lit.triple ? 3 : 1;
      pushHere(TokenKind::FStringEnd, q);
      modes_.pop_back();
      return;
    }
    if (c == '\n') {
      if (!lit.triple) {
        failUnterminatedFString();
        return;
      }
      ++pos_;
      newline();
      continue;
    }
    if (c == '\\' && lit.raw) {
      // In raw f-strings a backslash still keeps the next quote, backslash
      // or line break from ending the literal.
      char n = peek(1);
      if (n == '\n') {
        pos_ += 2;
        newline();
      } else if (n == lit.quote || n == '\\') {
        pos_ += 2;
      } else {
        ++pos_;
      }
      continue;
    }
    if (c == '\\' && !lit.raw) {
      char n = peek(1);
      if (n == 'N' && peek(2) == '{') {
        // \N{NAME}: the braces are part of the escape.
        pos_ += 3;
        while (!atEnd() && text_[pos_] != '}' && text_[pos_] != lit.quote && text_[pos_] != '\n') ++pos_;
        if (!atEnd() && text_[pos_] == '}') ++pos_;
        continue;
      }
      if (n == '{' || n == '}') {
        ++pos_;
        continue;
      }
      if (n == '\n') {
        pos_ += 2;
        newline();
        continue;
      }
      pos_ += n ? 2 : 1;
      continue;
    }
    if (c == '{') {
      if (peek(1) == '{' && !inSpec) {
        pos_ += 2;
        continue;
      }
      flushMiddle();
      size_t b = pos_;
      if (!openBracket('{', b)) return;
      ++pos_;
      pushHere(TokenKind::LBrace, b);
      Mode m;
      m.kind = ModeKind::FieldExpr;
      m.depth = brackets_.size();
      modes_.push_back(m);
      return;
    }
    if (c == '}') {
      if (inSpec) {
        flushMiddle();
        size_t b = pos_;
        brackets_.pop_back();
        ++pos_;
        pushHere(TokenKind::RBrace, b);
        modes_.pop_back();
        return;
      }
      if (peek(1) == '}') {
        pos_ += 2;
        continue;
      }
      failHere(Diag::FStringError, "f-string: single '}' is not allowed");
      return;
    }
    ++pos_;
  }
}

void Lexer::failUnterminatedFString() {
  // At the innermost f-string's start.
  const Token* startTok = nullptr;
  for (size_t i = tokens().size(); i-- > 0;) {
    if (tokens()[i].kind == TokenKind::FStringStart) {
      startTok = &tokens()[i];
      break;
    }
  }
  fail(startTok ? startTok->line : line_, startTok ? startTok->col : 0, 1, Diag::UnterminatedFString,
       fmt::format("unterminated f-string literal (detected at line {})", line_));
}

void Lexer::finish() {
  if (!modes_.empty()) {
    // EOF inside an f-string replacement field.
    failUnterminatedFString();
    return;
  }
  if (!brackets_.empty()) buffer_.setUnclosedBracket(brackets_.back().tokenIndex);
  Token t;
  t.offset = t.endOffset = static_cast<uint32_t>(pos_);
  t.line = t.endLine = line_;
  t.col = t.endCol = static_cast<uint32_t>(pos_ - lineStart_);
  if (!tokens().empty() && tokens().back().kind != TokenKind::Newline &&
      tokens().back().kind != TokenKind::Dedent && tokens().back().kind != TokenKind::Indent) {
    t.kind = TokenKind::Newline;
    // CPython puts the implicit NEWLINE right after the last token.
    Token nl = t;
    nl.endOffset = nl.offset;
    tokens().push_back(nl);
  }
  // Dedents at EOF sit on the line after the last one.
  Token d = t;
  if (pos_ > lineStart_) {
    d.line = d.endLine = line_ + 1;
    d.col = d.endCol = 0;
  }
  d.kind = TokenKind::Dedent;
  for (size_t i = 1; i < indents_.size(); ++i) tokens().push_back(d);
  d.kind = TokenKind::EndOfFile;
  tokens().push_back(d);
}

}  // namespace

TokenBuffer lex(const SourceFile& source, DiagnosticSink& diags) {
  Lexer lexer(source, diags);
  return lexer.run();
}

std::string_view tokenTypeName(TokenKind k) {
  switch (k) {
  case TokenKind::EndOfFile: return "ENDMARKER";
  case TokenKind::Newline: return "NEWLINE";
  case TokenKind::Indent: return "INDENT";
  case TokenKind::Dedent: return "DEDENT";
  case TokenKind::Name: return "NAME";
  case TokenKind::Number: return "NUMBER";
  case TokenKind::String: return "STRING";
  case TokenKind::FStringStart: return "FSTRING_START";
  case TokenKind::FStringMiddle: return "FSTRING_MIDDLE";
  case TokenKind::FStringEnd: return "FSTRING_END";
  case TokenKind::Error: return "ERRORTOKEN";
  default: return isKeyword(k) ? "NAME" : "OP";
  }
}

std::string_view tokenSpelling(TokenKind k) {
  switch (k) {
#define PYKC_X(N, S) case TokenKind::Kw##N: return S;
    PYKC_KEYWORDS(PYKC_X)
#undef PYKC_X
#define PYKC_X(N, S) case TokenKind::N: return S;
    PYKC_OPERATORS(PYKC_X)
#undef PYKC_X
  default: return "";
  }
}

std::string dumpTokens(const TokenBuffer& tokens) {
  std::string out;
  for (const Token& t : tokens.tokens()) {
    std::string text(tokens.text(t));
    std::string quoted = "'";
    for (char c : text) {
      if (c == '\\') quoted += "\\\\";
      else if (c == '\n') quoted += "\\n";
      else if (c == '\'') quoted += "\\'";
      else quoted += c;
    }
    quoted += "'";
    std::string pos = fmt::format("{},{}-{},{}:", t.line, t.col, t.endLine, t.endCol);
    out += fmt::format("{:<20}{:<15}{}\n", pos, tokenTypeName(t.kind), quoted);
  }
  return out;
}

}  // namespace frontend
