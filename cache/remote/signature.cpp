// Signature trailers of remote records and the key files' text.
#include "cache/remote/signature.h"

#include <cstring>

#include "cache/entry.h"
#include "cache/little_endian.h"

namespace cache::remote {

std::optional<SplitRecord> splitRecord(std::string_view bytes) {
  if (bytes.size() < kEntryHeaderBytes) return std::nullopt;
  std::uint64_t payload = getLe(bytes, 8, 8);
  if (payload > bytes.size() - kEntryHeaderBytes) return std::nullopt;
  size_t entrySize = kEntryHeaderBytes + static_cast<size_t>(payload);
  SplitRecord split;
  split.entry = bytes.substr(0, entrySize);
  std::string_view rest = bytes.substr(entrySize);
  if (rest.empty()) return split;
  if (rest.size() != kTrailerBytes || rest.substr(0, kSignatureMagic.size()) != kSignatureMagic) {
    return std::nullopt;
  }
  split.signedRecord = true;
  std::memcpy(split.publicKey.data(), rest.data() + kSignatureMagic.size(), kPublicKeyBytes);
  std::memcpy(split.signature.data(), rest.data() + kSignatureMagic.size() + kPublicKeyBytes,
              kSignatureBytes);
  return split;
}

std::string signedMessage(std::string_view entry) {
  std::string message("pykc-record-signature-v1", 24);
  message.push_back('\0');
  message.append(entry);
  return message;
}

std::optional<std::array<unsigned char, 32>> parseKeyLine(std::string_view text, std::string_view tag,
                                                          std::string* why) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  if (text.size() != tag.size() + 1 + 64 || text.substr(0, tag.size()) != tag || text[tag.size()] != ' ') {
    *why = "expected one line `" + std::string(tag) + " <64 hex digits>`";
    return std::nullopt;
  }
  std::array<unsigned char, 32> out{};
  std::string_view hex = text.substr(tag.size() + 1);
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (size_t i = 0; i < 32; ++i) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      *why = "expected 64 lower-case hex digits after `" + std::string(tag) + "`";
      return std::nullopt;
    }
    out[i] = static_cast<unsigned char>(hi * 16 + lo);
  }
  return out;
}

std::string formatKeyLine(std::string_view tag, const unsigned char* bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(tag);
  out.push_back(' ');
  for (size_t i = 0; i < 32; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 15]);
  }
  out.push_back('\n');
  return out;
}

std::string keyId(const unsigned char* publicKey) {
  Digest d = Digest::of(std::string_view(reinterpret_cast<const char*>(publicKey), kPublicKeyBytes));
  return d.hex().substr(0, 16);
}

}  // namespace cache::remote
