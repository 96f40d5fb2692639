#include "cache/entry.h"

#include <cassert>
#include <cstring>
#include <set>

#include "cache/little_endian.h"

namespace cache {
namespace {

constexpr char kMagic[4] = {'P', 'Y', 'K', 'C'};

void putDigest(std::string& out, const Digest& d) {
  out.append(reinterpret_cast<const char*>(d.bytes.data()), kDigestBytes);
}

Digest getDigest(std::string_view in, std::size_t at) {
  Digest d;
  std::memcpy(d.bytes.data(), in.data() + at, kDigestBytes);
  return d;
}

std::string encodeEntry(EntryKind kind, const Digest& name, std::string_view payload,
                        const Digest& checksum) {
  std::string out;
  out.reserve(kEntryHeaderBytes + payload.size());
  out.append(kMagic, sizeof kMagic);
  putLe(out, kEntryFormatVersion, 2);
  out.push_back(static_cast<char>(kind));
  out.push_back('\0');
  putLe(out, payload.size(), 8);
  putDigest(out, name);
  putDigest(out, checksum);
  assert(out.size() == kEntryHeaderBytes);
  out.append(payload);
  return out;
}

void setWhy(std::string* why, std::string text) {
  if (why) *why = std::move(text);
}

// The payload of `file` when it is an intact entry of `kind` named `name`.
std::optional<std::string_view> decodeEntry(std::string_view file, EntryKind kind,
                                            const Digest& name, std::string* why) {
  std::optional<EntryHeader> header = readEntryHeader(file, why);
  if (!header) return std::nullopt;
  if (header->kind != kind) {
    setWhy(why, kind == EntryKind::Blob ? "a record where a blob was expected"
                                        : "a blob where a record was expected");
    return std::nullopt;
  }
  if (header->name != name) {
    setWhy(why, "entry names " + header->name.hex() + ", not " + name.hex());
    return std::nullopt;
  }
  std::string_view payload = file.substr(kEntryHeaderBytes);
  if (Digest::of(payload) != getDigest(file, 48)) {
    setWhy(why, "checksum mismatch");
    return std::nullopt;
  }
  return payload;
}

}  // namespace

bool isValidOutputName(std::string_view name) {
  if (name.empty() || name.size() > kMaxOutputNameBytes) return false;
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

std::string encodeBlob(std::string_view content, const Digest* digest) {
  Digest d = digest ? *digest : Digest::of(content);
  assert(!digest || Digest::of(content) == *digest);
  return encodeEntry(EntryKind::Blob, d, content, d);
}

std::string encodeRecord(const ActionRecord& record) {
  assert(record.outputs.size() <= kMaxRecordOutputs && "too many outputs");
  std::string payload;
  putLe(payload, record.outputs.size(), 4);
  std::set<std::string_view> seen;
  for (const OutputRef& o : record.outputs) {
    assert(isValidOutputName(o.name) && seen.insert(o.name).second &&
           "output names are valid and distinct");
    putLe(payload, o.name.size(), 2);
    payload.append(o.name);
    putDigest(payload, o.digest);
    putLe(payload, o.size, 8);
  }
  return encodeEntry(EntryKind::Record, record.key.digest, payload, Digest::of(payload));
}

std::optional<EntryHeader> readEntryHeader(std::string_view file, std::string* why) {
  if (file.size() < kEntryHeaderBytes) {
    setWhy(why, "truncated: " + std::to_string(file.size()) + " bytes, shorter than a header");
    return std::nullopt;
  }
  if (std::memcmp(file.data(), kMagic, sizeof kMagic) != 0) {
    setWhy(why, "not a pykc cache entry (bad magic)");
    return std::nullopt;
  }
  std::uint64_t version = getLe(file, 4, 2);
  if (version != kEntryFormatVersion) {
    setWhy(why, "entry format version " + std::to_string(version) + ", expected " +
                    std::to_string(kEntryFormatVersion));
    return std::nullopt;
  }
  auto kind = static_cast<unsigned char>(file[6]);
  if (kind != static_cast<unsigned char>(EntryKind::Record) &&
      kind != static_cast<unsigned char>(EntryKind::Blob)) {
    setWhy(why, "unknown entry kind " + std::to_string(kind));
    return std::nullopt;
  }
  if (file[7] != '\0') {
    setWhy(why, "reserved header byte is not zero");
    return std::nullopt;
  }
  std::uint64_t size = getLe(file, 8, 8);
  if (size != file.size() - kEntryHeaderBytes) {
    setWhy(why, "size mismatch: header says " + std::to_string(size) + " payload bytes, file has " +
                    std::to_string(file.size() - kEntryHeaderBytes));
    return std::nullopt;
  }
  return EntryHeader{static_cast<EntryKind>(kind), size, getDigest(file, 16)};
}

std::optional<std::string_view> decodeBlob(std::string_view file, const Digest& expected,
                                           std::string* why) {
  std::optional<std::string_view> payload = decodeEntry(file, EntryKind::Blob, expected, why);
  // decodeEntry proved checksum == BLAKE3(payload); checksum == name then
  // proves the content is the one the name promises.
  if (payload && getDigest(file, 48) != expected) {
    setWhy(why, "content does not match its digest");
    return std::nullopt;
  }
  return payload;
}

std::optional<ActionRecord> decodeRecord(std::string_view file, const Key& expected,
                                         std::string* why) {
  std::optional<std::string_view> payload =
      decodeEntry(file, EntryKind::Record, expected.digest, why);
  if (!payload) return std::nullopt;
  std::string_view p = *payload;
  std::size_t at = 0;
  auto need = [&](std::size_t n) { return p.size() - at >= n; };
  auto bad = [&](const char* what) {
    setWhy(why, std::string("malformed record: ") + what);
    return std::nullopt;
  };
  if (!need(4)) return bad("no output count");
  std::uint64_t count = getLe(p, at, 4);
  at += 4;
  if (count > kMaxRecordOutputs) return bad("too many outputs");
  ActionRecord record{expected, {}};
  std::set<std::string_view> seen;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (!need(2)) return bad("truncated output");
    std::size_t nameSize = getLe(p, at, 2);
    at += 2;
    if (!need(nameSize + kDigestBytes + 8)) return bad("truncated output");
    std::string_view name = p.substr(at, nameSize);
    at += nameSize;
    if (!isValidOutputName(name) || !seen.insert(name).second) return bad("bad output name");
    OutputRef o{std::string(name), getDigest(p, at), 0};
    at += kDigestBytes;
    o.size = getLe(p, at, 8);
    at += 8;
    record.outputs.push_back(std::move(o));
  }
  if (at != p.size()) return bad("trailing bytes");
  return record;
}

}  // namespace cache
