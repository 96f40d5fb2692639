#include "cache/key.h"

#include <llvm/Support/BLAKE3.h>

#include <cassert>
#include <cstdio>

namespace cache {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
// Domain separation: a key can never equal a blob digest of the same bytes.
constexpr std::string_view kKeyDomain = "pykc-action-key\0";

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

[[maybe_unused]] bool validTag(std::string_view tag) {
  if (tag.empty() || tag.size() > 64) return false;
  for (char c : tag) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
              c == '.';
    if (!ok) return false;
  }
  return true;
}

void appendU64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::string binarySummary(std::uint64_t size, const Digest& digest) {
  return std::to_string(size) + " bytes, blake3 " + digest.hex().substr(0, 16);
}

std::string summarize(std::string_view value, const Digest& digest) {
  bool printable = value.size() <= 64;
  for (unsigned char c : value) {
    if (c < 0x20 || c > 0x7e) printable = false;
  }
  if (printable) {
    std::string s = "\"";
    for (char c : value) {
      if (c == '"' || c == '\\') s.push_back('\\');
      s.push_back(c);
    }
    s.push_back('"');
    return s;
  }
  return binarySummary(value.size(), digest);
}

}  // namespace

std::string Digest::hex() const {
  std::string s(2 * kDigestBytes, '0');
  for (std::size_t i = 0; i < kDigestBytes; ++i) {
    s[2 * i] = kHexDigits[bytes[i] >> 4];
    s[2 * i + 1] = kHexDigits[bytes[i] & 0xf];
  }
  return s;
}

std::optional<Digest> Digest::fromHex(std::string_view text) {
  if (text.size() != 2 * kDigestBytes) return std::nullopt;
  Digest d;
  for (std::size_t i = 0; i < kDigestBytes; ++i) {
    int hi = hexValue(text[2 * i]);
    int lo = hexValue(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    d.bytes[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return d;
}

Digest Digest::of(std::string_view data) {
  Digest d;
  d.bytes = llvm::BLAKE3::hash<kDigestBytes>(llvm::ArrayRef<std::uint8_t>(
      reinterpret_cast<const std::uint8_t*>(data.data()), data.size()));
  return d;
}

std::optional<Key> Key::fromHex(std::string_view text) {
  if (auto d = Digest::fromHex(text)) return Key{*d};
  return std::nullopt;
}

KeyBuilder::KeyBuilder() {
  encoded_.append(kKeyDomain);
  add("scheme", static_cast<std::int64_t>(kKeySchemeVersion));
}

KeyField KeyBuilder::describe(std::string_view tag, std::string_view value) {
  assert(validTag(tag) && "key field tags are short [a-z0-9_.-] identifiers");
  Digest valueDigest = Digest::of(value);
  return KeyField{std::string(tag), summarize(value, valueDigest), value.size(), valueDigest};
}

KeyField KeyBuilder::describeDigest(std::string_view tag, std::uint64_t size,
                                    const Digest& digest) {
  assert(validTag(tag) && "key field tags are short [a-z0-9_.-] identifiers");
  return KeyField{std::string(tag), binarySummary(size, digest), size, digest};
}

KeyBuilder& KeyBuilder::add(const KeyField& field) {
  assert(validTag(field.tag) && "key field tags are short [a-z0-9_.-] identifiers");
  // Tag length, tag, value length, value digest: every part has a length or a
  // fixed size, so no two field lists encode to the same bytes.
  encoded_.push_back(static_cast<char>(field.tag.size()));
  encoded_.append(field.tag);
  appendU64(encoded_, field.size);
  encoded_.append(reinterpret_cast<const char*>(field.valueDigest.bytes.data()), kDigestBytes);
  fields_.push_back(field);
  return *this;
}

KeyBuilder& KeyBuilder::add(std::string_view tag, std::string_view value) {
  return add(describe(tag, value));
}

KeyBuilder& KeyBuilder::add(std::string_view tag, std::int64_t value) {
  return add(tag, std::string_view(std::to_string(value)));
}

Key KeyBuilder::key() const { return Key{Digest::of(encoded_)}; }

std::string formatKeyFields(const KeyBuilder& builder) {
  std::string out;
  for (const KeyField& f : builder.fields()) {
    out += f.tag;
    out += ": ";
    out += f.summary;
    out += '\n';
  }
  out += "key: " + builder.key().hex() + "\n";
  return out;
}

}  // namespace cache
