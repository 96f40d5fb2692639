#include "syntax/source.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include <llvm/Support/MemoryBuffer.h>

#include "diagnostics/diagnostics.h"

namespace frontend {
namespace {

struct CodecTable {
  std::string_view name;
  std::array<uint32_t, 128> high;
};

constexpr CodecTable kCodecs[] = {
#define PYKC_CODEC(Name, ...) {Name, __VA_ARGS__},
#define PYKC_CODEC_ALIAS(Alias, Name)
#include "syntax/gen/codec_tables.inc"
#undef PYKC_CODEC
#undef PYKC_CODEC_ALIAS
};

struct CodecAlias {
  std::string_view alias;
  std::string_view name;
};

constexpr CodecAlias kAliases[] = {
#define PYKC_CODEC(Name, ...)
#define PYKC_CODEC_ALIAS(Alias, Name) {Alias, Name},
#include "syntax/gen/codec_tables.inc"
#undef PYKC_CODEC
#undef PYKC_CODEC_ALIAS
};

constexpr std::string_view kUtf8Aliases[] = {"utf-8", "utf8", "u8", "utf", "utf8-ucs2",
                                             "utf8-ucs4", "cp65001"};

// Validates UTF-8 as CPython's decoder does (no surrogates, no overlongs).
// Returns the offset of the first bad byte and the reason, or nullopt.
struct Utf8Error {
  size_t offset;
  const char* reason;
};
std::optional<Utf8Error> validateUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return Utf8Error{i, "invalid start byte"};
    }
    for (int k = 1; k < len; ++k) {
      if (i + k >= n) return Utf8Error{i, "unexpected end of data"};
      unsigned char d = p[i + k];
      unsigned char l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
      if (d < l || d > h) return Utf8Error{i, "invalid continuation byte"};
    }
    i += len;
  }
  return std::nullopt;
}

// CPython's tokenizer normalisation of a cookie's codec name
// (Parser/tokenizer.c get_normal_name).
std::string normalName(std::string_view raw) {
  std::string buf;
  for (size_t i = 0; i < raw.size() && i < 12; ++i) {
    char c = raw[i];
    buf += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  auto is = [&](std::string_view n) {
    return buf == n || (buf.size() > n.size() && buf.compare(0, n.size(), n) == 0 && buf[n.size()] == '-');
  };
  if (is("utf-8")) return "utf-8";
  if (is("latin-1") || is("iso-8859-1") || is("iso-latin-1")) return "iso-8859-1";
  return std::string(raw);
}

// Finds a PEP 263 cookie in one line: `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`.
std::optional<std::string> findCookie(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\f')) ++i;
  if (i >= line.size() || line[i] != '#') return std::nullopt;
  size_t pos = line.find("coding", i);
  while (pos != std::string_view::npos) {
    size_t j = pos + 6;
    if (j < line.size() && (line[j] == ':' || line[j] == '=')) {
      ++j;
      while (j < line.size() && (line[j] == ' ' || line[j] == '\t')) ++j;
      size_t start = j;
      while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) ||
                                 line[j] == '-' || line[j] == '_' || line[j] == '.'))
        ++j;
      if (j > start) return std::string(line.substr(start, j - start));
    }
    pos = line.find("coding", pos + 1);
  }
  return std::nullopt;
}

// True when a line holds only whitespace and maybe a comment (CPython looks
// at line 2's cookie only then).
bool isBlankOrComment(std::string_view line) {
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r' || c == '\n') continue;
    return c == '#';
  }
  return true;
}

// Python's encodings.normalize_encoding + our alias spelling.
std::string aliasKey(std::string_view name) {
  std::string out;
  bool punct = false;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.') {
      if (punct && !out.empty()) out += '-';
      punct = false;
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      punct = true;
    }
  }
  return out;
}

const CodecTable* findCodec(std::string_view name) {
  std::string key = aliasKey(name);
  for (const CodecAlias& a : kAliases) {
    if (a.alias == key) {
      for (const CodecTable& c : kCodecs)
        if (c.name == a.name) return &c;
    }
  }
  return nullptr;
}

bool isUtf8Name(std::string_view name) {
  std::string key = aliasKey(name);
  return std::find(std::begin(kUtf8Aliases), std::end(kUtf8Aliases), key) != std::end(kUtf8Aliases);
}

std::string_view lineAt(std::string_view s, size_t& pos) {
  size_t start = pos;
  while (pos < s.size() && s[pos] != '\n' && s[pos] != '\r') ++pos;
  std::string_view line = s.substr(start, pos - start);
  if (pos < s.size() && s[pos] == '\r') ++pos;
  if (pos < s.size() && s[pos] == '\n') ++pos;
  return line;
}

}  // namespace

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool findUtf8Error(std::string_view bytes, size_t* offset, const char** reason) {
  auto err = validateUtf8(bytes);
  if (!err) return false;
  *offset = err->offset;
  *reason = err->reason;
  return true;
}

uint32_t countCodePoints(std::string_view s) {
  uint32_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

SourceFile SourceFile::fromBytes(std::string path, std::string_view bytes, DiagnosticSink& diags) {
  SourceFile file;
  file.path_ = std::move(path);
  auto fail = [&](Diag kind, std::string msg, uint32_t line = 0, uint32_t column = 0) {
    file.decodeFailed_ = true;
    file.text_.clear();
    file.buildLineTable();
    Location loc;
    loc.path = file.path_;
    loc.line = line;
    loc.column = column;
    diags.report(Severity::Error, loc, kind, std::move(msg));
    return std::move(file);
  };

  bool bom = bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF";
  if (bom) bytes.remove_prefix(3);
  if (bytes.find('\0') != std::string_view::npos)
    return fail(Diag::NullBytes, "source code cannot contain null bytes");

  // The coding cookie: line 1, or line 2 if line 1 is blank or a comment.
  std::optional<std::string> cookie;
  {
    size_t pos = 0;
    std::string_view l1 = lineAt(bytes, pos);
    cookie = findCookie(l1);
    if (!cookie && isBlankOrComment(l1) && pos < bytes.size()) cookie = findCookie(lineAt(bytes, pos));
  }
  const CodecTable* codec = nullptr;
  if (cookie) {
    std::string normal = normalName(*cookie);
    if (bom && normal != "utf-8") return fail(Diag::EncodingWithBom, "encoding problem: " + normal + " with BOM");
    if (normal == "utf-8") {
      // Exactly utf-8 (or utf-8-*): the default, per-token decoding.
      cookie.reset();
    } else if (!isUtf8Name(normal)) {
      codec = findCodec(normal);
      if (!codec) return fail(Diag::UnknownEncoding, "unknown encoding: " + *cookie);
      file.encoding_ = std::string(codec->name);
    }
  }

  std::string decoded;
  bool wasInvalid = false;
  if (codec) {
    decoded.reserve(bytes.size() + bytes.size() / 4);
    for (size_t i = 0; i < bytes.size(); ++i) {
      auto b = static_cast<unsigned char>(bytes[i]);
      if (b < 0x80) {
        decoded += static_cast<char>(b);
        continue;
      }
      uint32_t cp = codec->high[b - 0x80];
      if (cp == 0xFFFFFFFF) {
        size_t pos = i + (bom ? 3 : 0);
        return fail(Diag::InvalidEncoding,
                    codec->name == "ascii"
                        ? fmt::format("'ascii' codec can't decode byte 0x{:02x} in position {}: ordinal not in range(128)", b, pos)
                        : fmt::format("'charmap' codec can't decode byte 0x{:02x} in position {}: character maps to <undefined>", b, pos));
      }
      appendUtf8(decoded, cp);
    }
  } else if (auto err = validateUtf8(bytes)) {
    auto b = static_cast<unsigned char>(bytes[err->offset]);
    if (cookie) {
      return fail(Diag::InvalidEncoding,
                  fmt::format("'utf-8' codec can't decode byte 0x{:02x} in position {}: {}", b,
                              err->offset + (bom ? 3 : 0), err->reason));
    }
    // Without a cookie CPython decodes token by token: bad bytes in comments
    // pass, bad bytes in a token are reported by the lexer (invalidBytes()).
    decoded.assign(bytes);
    wasInvalid = true;
  } else {
    decoded.assign(bytes);
  }

  // Line breaks: \r\n and \r become \n.
  if (decoded.find('\r') != std::string::npos) {
    std::string out;
    out.reserve(decoded.size());
    for (size_t i = 0; i < decoded.size(); ++i) {
      if (decoded[i] == '\r') {
        out += '\n';
        if (i + 1 < decoded.size() && decoded[i + 1] == '\n') ++i;
      } else {
        out += decoded[i];
      }
    }
    decoded = std::move(out);
  }
  if (wasInvalid) {
    // Offsets after line-break normalisation; each bad byte becomes '?'.
    file.raw_ = decoded;
    std::string_view rest = decoded;
    size_t base = 0;
    while (auto err = validateUtf8(rest)) {
      size_t at = base + err->offset;
      // The whole maximal bad prefix of a sequence counts as one bad byte
      // each; mark and continue after it.
      file.invalidBytes_.push_back(static_cast<uint32_t>(at));
      decoded[at] = '?';
      base = at + 1;
      rest = std::string_view(file.raw_).substr(base);
    }
  }
  file.text_ = std::move(decoded);
  file.buildLineTable();
  return file;
}

llvm::Expected<SourceFile> SourceFile::load(const std::string& path, DiagnosticSink& diags) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    return llvm::createStringError(buffer.getError(), "cannot read '%s': %s", path.c_str(),
                                   buffer.getError().message().c_str());
  }
  auto ref = (*buffer)->getBuffer();
  return fromBytes(path, std::string_view(ref.data(), ref.size()), diags);
}

void SourceFile::buildLineTable() {
  lineStarts_.clear();
  lineStarts_.push_back(0);
  const char* data = text_.data();
  size_t n = text_.size();
  for (size_t i = 0; i < n; ++i) {
    const void* nl = std::memchr(data + i, '\n', n - i);
    if (!nl) break;
    i = static_cast<const char*>(nl) - data;
    if (i + 1 < n) lineStarts_.push_back(static_cast<uint32_t>(i + 1));
  }
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size()) return {};
  uint32_t start = lineStarts_[line - 1];
  uint32_t end = line < lineStarts_.size() ? lineStarts_[line] : static_cast<uint32_t>(text_.size());
  std::string_view s(text_.data() + start, end - start);
  if (!s.empty() && s.back() == '\n') s.remove_suffix(1);
  return s;
}

uint32_t SourceFile::lineOf(uint32_t offset) const {
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  return static_cast<uint32_t>(it - lineStarts_.begin());
}

Location SourceFile::locationAt(uint32_t offset, uint32_t length) const {
  uint32_t line = lineOf(offset);
  return location(line, offset - lineStarts_[line - 1] + 1, length);
}

SourceFile SourceFile::spliced(std::string path, std::string text, std::vector<Segment> segments) {
  SourceFile file;
  file.path_ = std::move(path);
  file.text_ = std::move(text);
  file.segments_ = std::move(segments);
  file.buildLineTable();
  return file;
}

Location SourceFile::location(uint32_t line, uint32_t column, uint32_t length) const {
  Location loc;
  loc.path = path_;
  loc.line = line;
  if (!segments_.empty() && line > 0) {
    auto it = std::upper_bound(segments_.begin(), segments_.end(), line,
                               [](uint32_t l, const Segment& s) { return l < s.firstLine; });
    if (it != segments_.begin()) {
      --it;
      loc.path = it->path;
      loc.line = it->originalLine + (line - it->firstLine);
    }
  }
  loc.column = column;
  loc.length = length;
  loc.lineText = lineText(line);
  return loc;
}

}  // namespace frontend
