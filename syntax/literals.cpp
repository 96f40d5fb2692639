#include "syntax/parse_internal.h"
#include "syntax/source.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace frontend::detail {
namespace {
#include "syntax/gen/unicode_tables.inc"

struct Range {
  uint32_t first, last;
};
constexpr Range kPrintable311[] = {
#define PYKC_X(A, B) {A, B},
    PYKC_PRINTABLE_311(PYKC_X)
#undef PYKC_X
};
constexpr Range kPrintable312[] = {
#define PYKC_X(A, B) {A, B},
    PYKC_PRINTABLE_312(PYKC_X)
#undef PYKC_X
};

constexpr Range kXidStart[] = {
#define PYKC_X(A, B) {A, B},
    PYKC_XID_START(PYKC_X)
#undef PYKC_X
};
constexpr Range kXidContinue[] = {
#define PYKC_X(A, B) {A, B},
    PYKC_XID_CONTINUE(PYKC_X)
#undef PYKC_X
};
struct Nfkc {
  uint32_t cp;
  const char* utf8;
};
constexpr Nfkc kNfkc[] = {
#define PYKC_X(A, S) {A, S},
    PYKC_NFKC(PYKC_X)
#undef PYKC_X
};

bool inRanges(const Range* begin, const Range* end, uint32_t cp) {
  const Range* it = std::upper_bound(begin, end, cp, [](uint32_t v, const Range& r) { return v < r.first; });
  if (it == begin) return false;
  --it;
  return cp <= it->last;
}

// Word index of `w` in kNameWords, or -1.
struct WordTable {
  std::vector<std::string_view> words;
  WordTable() {
    const char* p = kNameWords;
    words.reserve(kNameWordCount);
    for (uint32_t i = 0; i < kNameWordCount; ++i) {
      size_t n = std::strlen(p);
      words.emplace_back(p, n);
      p += n + 1;
    }
  }
  int find(std::string_view w) const {
    auto it = std::lower_bound(words.begin(), words.end(), w);
    if (it == words.end() || *it != w) return -1;
    return static_cast<int>(it - words.begin());
  }
};

constexpr const char* kJamoL[] = {"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"};
constexpr const char* kJamoV[] = {"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"};
constexpr const char* kJamoT[] = {"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"};

bool lookupHangul(std::string_view rest, uint32_t* cp) {
  for (int l = 0; l < 19; ++l) {
    std::string_view L = kJamoL[l];
    if (rest.substr(0, L.size()) != L) continue;
    for (int v = 0; v < 21; ++v) {
      std::string_view V = kJamoV[v];
      std::string_view r2 = rest.substr(L.size());
      if (r2.substr(0, V.size()) != V) continue;
      for (int t = 0; t < 28; ++t) {
        if (r2.substr(V.size()) == kJamoT[t]) {
          *cp = 0xAC00 + (l * 21 + v) * 28 + t;
          return true;
        }
      }
    }
  }
  return false;
}

}  // namespace

uint32_t decodeUtf8(std::string_view s, size_t i, size_t* len) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    *len = 1;
    return c;
  }
  int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  uint32_t cp = c & (n == 4 ? 0x07 : n == 3 ? 0x0F : 0x1F);
  int k = 1;
  for (; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  *len = k;
  return cp;
}

bool isXidStart(uint32_t cp) {
  if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || cp == '_';
  return inRanges(std::begin(kXidStart), std::end(kXidStart), cp);
}

bool isXidContinue(uint32_t cp) {
  if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || cp == '_' || (cp >= '0' && cp <= '9');
  return inRanges(std::begin(kXidContinue), std::end(kXidContinue), cp);
}

bool normalizeIdentifier(std::string_view in, std::string& out, size_t* badOffset) {
  out.clear();
  bool first = true;
  for (size_t i = 0; i < in.size();) {
    size_t len;
    uint32_t cp = decodeUtf8(in, i, &len);
    std::string_view mapped = in.substr(i, len);
    if (cp >= 0x80) {
      const Nfkc* it = std::lower_bound(std::begin(kNfkc), std::end(kNfkc), cp,
                                        [](const Nfkc& n, uint32_t v) { return n.cp < v; });
      if (it != std::end(kNfkc) && it->cp == cp) mapped = it->utf8;
    }
    for (size_t k = 0; k < mapped.size();) {
      size_t l2;
      uint32_t c2 = decodeUtf8(mapped, k, &l2);
      if (first ? !isXidStart(c2) : !isXidContinue(c2)) {
        *badOffset = i;
        return false;
      }
      first = false;
      k += l2;
    }
    out.append(mapped);
    i += len;
  }
  return true;
}

bool isPrintable(uint32_t cp, int pythonVersion) {
  if (cp < 0x7F) return cp >= 0x20;
  if (pythonVersion <= 311) return inRanges(std::begin(kPrintable311), std::end(kPrintable311), cp);
  return inRanges(std::begin(kPrintable312), std::end(kPrintable312), cp);
}

bool lookupUnicodeName(std::string_view rawName, uint32_t* cp) {
  std::string name;
  name.reserve(rawName.size());
  for (char c : rawName) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (name.rfind("HANGUL SYLLABLE ", 0) == 0) return lookupHangul(std::string_view(name).substr(16), cp);
  for (size_t p = 0; p < std::size(kHexNamePrefixes); ++p) {
    std::string_view pfx = kHexNamePrefixes[p];
    if (name.rfind(pfx, 0) != 0) continue;
    std::string_view hex = std::string_view(name).substr(pfx.size());
    if (hex.size() < 4 || hex.size() > 5) return false;
    uint32_t v = 0;
    for (char c : hex) {
      if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
      v = v * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c - 'A' + 10);
    }
    for (const HexNameRange& r : kHexNameRanges) {
      if (r.prefix == p && v >= r.first && v <= r.last) {
        *cp = v;
        return true;
      }
    }
    return false;
  }
  // Split into words and match against the table.
  WordTable table;
  std::vector<uint16_t> want;
  size_t start = 0;
  std::string_view nv = name;
  while (start <= nv.size()) {
    size_t sp = nv.find(' ', start);
    if (sp == std::string_view::npos) sp = nv.size();
    int w = table.find(nv.substr(start, sp - start));
    if (w < 0) return false;
    want.push_back(static_cast<uint16_t>(w));
    start = sp + 1;
  }
  size_t n = std::size(kNameData);
  size_t i = 0;
  while (i < n) {
    uint32_t c = (static_cast<uint32_t>(kNameData[i] & 0x7FFF) << 16) | kNameData[i + 1];
    size_t j = i + 2;
    size_t end = j;
    while (end < n && !(kNameData[end] & 0x8000)) ++end;
    if (end - j == want.size() && std::equal(want.begin(), want.end(), kNameData + j)) {
      *cp = c;
      return true;
    }
    i = end;
  }
  return false;
}

bool decodeStringBody(std::string_view body, bool raw, bool bytes, std::string& out, DecodeError& err) {
  out.clear();
  out.reserve(body.size());
  size_t n = body.size();
  if (raw) {
    if (bytes) {
      for (size_t i = 0; i < n; ++i) {
        if (static_cast<unsigned char>(body[i]) >= 0x80) {
          err = {i, 1, "bytes can only contain ASCII literal characters"};
          return false;
        }
      }
    }
    out.assign(body);
    return true;
  }
  size_t i = 0;
  while (i < n) {
    // Fast path: copy up to the next backslash.
    const void* bs = std::memchr(body.data() + i, '\\', n - i);
    size_t stop = bs ? static_cast<const char*>(bs) - body.data() : n;
    if (bytes) {
      for (size_t k = i; k < stop; ++k) {
        if (static_cast<unsigned char>(body[k]) >= 0x80) {
          err = {k, 1, "bytes can only contain ASCII literal characters"};
          return false;
        }
      }
    }
    out.append(body.data() + i, stop - i);
    i = stop;
    if (i >= n) break;
    size_t escStart = i;
    ++i;  // the backslash
    if (i >= n) {
      out += '\\';
      break;
    }
    char c = body[i++];
    auto bad = [&](const std::string& what, size_t endPos) {
      err.offset = escStart;
      err.length = endPos - escStart;
      err.message = what;
      return false;
    };
    switch (c) {
    case '\n': break;
    case '\\': out += '\\'; break;
    case '\'': out += '\''; break;
    case '"': out += '"'; break;
    case 'a': out += '\a'; break;
    case 'b': out += '\b'; break;
    case 'f': out += '\f'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    case 't': out += '\t'; break;
    case 'v': out += '\v'; break;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
      uint32_t v = static_cast<uint32_t>(c - '0');
      for (int k = 0; k < 2 && i < n && body[i] >= '0' && body[i] <= '7'; ++k) v = v * 8 + static_cast<uint32_t>(body[i++] - '0');
      if (bytes) out += static_cast<char>(v & 0xFF);
      else appendUtf8(out, v);
      break;
    }
    case 'x': {
      uint32_t v = 0;
      int k = 0;
      for (; k < 2 && i < n && std::isxdigit(static_cast<unsigned char>(body[i])); ++k, ++i)
        v = v * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(body[i])) ? body[i] - '0' : (body[i] | 0x20) - 'a' + 10);
      if (k < 2) {
        return bad(bytes ? fmt::format("(value error) invalid \\x escape at position {}", escStart)
                         : fmt::format("(unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: truncated \\xXX escape", escStart, i - 1),
                   i);
      }
      if (bytes) out += static_cast<char>(v);
      else appendUtf8(out, v);
      break;
    }
    case 'u':
    case 'U':
    case 'N': {
      if (bytes) {
        out += '\\';
        out += c;
        break;
      }
      if (c == 'N') {
        if (i >= n || body[i] != '{') {
          return bad(fmt::format("(unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: malformed \\N character escape", escStart, i - 1), i);
        }
        size_t close = body.find('}', i);
        uint32_t cp = 0;
        if (close == std::string_view::npos || close == i + 1) {
          return bad(fmt::format("(unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: malformed \\N character escape", escStart, std::min(n, i + 1) - 1), i + 1);
        }
        if (!lookupUnicodeName(body.substr(i + 1, close - i - 1), &cp)) {
          return bad(fmt::format("(unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: unknown Unicode character name", escStart, close), close + 1);
        }
        appendUtf8(out, cp);
        i = close + 1;
        break;
      }
      int want = c == 'u' ? 4 : 8;
      uint32_t v = 0;
      int k = 0;
      for (; k < want && i < n && std::isxdigit(static_cast<unsigned char>(body[i])); ++k, ++i)
        v = v * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(body[i])) ? body[i] - '0' : (body[i] | 0x20) - 'a' + 10);
      if (k < want) {
        return bad(fmt::format("(unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: truncated \\{}{} escape", escStart, i - 1, c, c == 'u' ? "XXXX" : "XXXXXXXX"), i);
      }
      if (v > 0x10FFFF) {
        return bad(fmt::format("(unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: illegal Unicode character", escStart, i - 1), i);
      }
      appendUtf8(out, v);
      break;
    }
    default:
      // Unknown escapes stay as written (CPython warns).
      out += '\\';
      i -= 1;
      break;
    }
  }
  return true;
}

ConstantValue parseNumber(std::string_view literal) {
  ConstantValue v;
  v.literal = std::string(literal);
  std::string clean;
  clean.reserve(literal.size());
  for (char c : literal)
    if (c != '_') clean += c;
  char last = clean.empty() ? '\0' : clean.back();
  if (last == 'j' || last == 'J') {
    v.kind = ConstantKind::Complex;
    clean.pop_back();
    v.floatValue = std::strtod(clean.c_str(), nullptr);
    return v;
  }
  bool prefixed = clean.size() > 1 && clean[0] == '0' && std::isalpha(static_cast<unsigned char>(clean[1]));
  if (!prefixed && clean.find_first_of(".eE") != std::string::npos) {
    v.kind = ConstantKind::Float;
    v.floatValue = std::strtod(clean.c_str(), nullptr);
    return v;
  }
  v.kind = ConstantKind::Int;
  unsigned base = 10;
  size_t start = 0;
  if (prefixed) {
    char p = static_cast<char>(std::tolower(static_cast<unsigned char>(clean[1])));
    base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
    start = 2;
  }
  // Arbitrary precision: little-endian limbs of base 1e9.
  std::vector<uint32_t> limbs{0};
  for (size_t i = start; i < clean.size(); ++i) {
    char c = clean[i];
    uint32_t d = static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c | 0x20) - 'a' + 10);
    uint64_t carry = d;
    for (uint32_t& limb : limbs) {
      uint64_t x = static_cast<uint64_t>(limb) * base + carry;
      limb = static_cast<uint32_t>(x % 1000000000u);
      carry = x / 1000000000u;
    }
    while (carry) {
      limbs.push_back(static_cast<uint32_t>(carry % 1000000000u));
      carry /= 1000000000u;
    }
  }
  std::string text = fmt::format("{}", limbs.back());
  for (size_t i = limbs.size() - 1; i-- > 0;) text += fmt::format("{:09}", limbs[i]);
  v.text = std::move(text);
  // int64 range: at most 19 digits and <= 9223372036854775807.
  if (v.text.size() < 19 || (v.text.size() == 19 && v.text <= "9223372036854775807")) {
    v.fitsInt64 = true;
    v.intValue = std::strtoll(v.text.c_str(), nullptr, 10);
  }
  return v;
}

}  // namespace frontend::detail
