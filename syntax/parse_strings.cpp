// Strings and f-strings (the Parser's declaration: syntax/parser_internal.h).
#include "syntax/parser_internal.h"

namespace frontend::parser {

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

}  // namespace frontend::parser
