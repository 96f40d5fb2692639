#pragma once
// Cache keys: a BLAKE3 digest of tagged fields (DESIGN.md §5, STYLE.md §4).
//
// Each field enters the hash as tag length, tag, value length, value, so that
// neighbouring fields can never run together ("ab"+"c" and "a"+"bc" give
// different keys; ccache's hash_delimiter). The builder also keeps a printable
// summary of each field for `pykc inspect --emit cache-key`.
//
// This header knows only bytes: what the fields mean is the driver's business.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cache {

// Bumped whenever the recipe of a key changes (fields added, removed,
// reordered or normalised differently), so that old entries stop matching.
// KeyBuilder adds it as the first field `scheme`.
constexpr std::uint32_t kKeySchemeVersion = 1;

constexpr std::size_t kDigestBytes = 32;

// A 32-byte BLAKE3 digest. Value type; compares by bytes.
struct Digest {
  std::array<std::uint8_t, kDigestBytes> bytes{};

  // 64 lower-case hex digits.
  std::string hex() const;
  // Parses exactly 64 hex digits (either case); nullopt for anything else.
  static std::optional<Digest> fromHex(std::string_view text);
  // The BLAKE3 digest of `data`.
  static Digest of(std::string_view data);

  friend bool operator==(const Digest&, const Digest&) = default;
  friend auto operator<=>(const Digest&, const Digest&) = default;
};

// An action key: the digest of every input of one compile. A distinct type
// from a blob's content digest so that the two cannot be swapped by mistake.
struct Key {
  Digest digest;

  std::string hex() const { return digest.hex(); }
  static std::optional<Key> fromHex(std::string_view text);

  friend bool operator==(const Key&, const Key&) = default;
  friend auto operator<=>(const Key&, const Key&) = default;
};

// One field as it went into a key, for printing.
struct KeyField {
  std::string tag;
  // The value itself when short and printable ASCII (quoted), otherwise its
  // size and the start of its digest: `2315 bytes, blake3 1f0c93a7be5d24e1`.
  std::string summary;
  std::uint64_t size = 0;
  // BLAKE3 of the value alone.
  Digest valueDigest;
};

// Collects tagged fields and produces the key. Order matters; a tag may
// repeat (one `source` field per module reached, in a fixed order).
// Tags are short identifiers: [a-z0-9_.-]+, at most 64 bytes (asserted).
class KeyBuilder {
public:
  // Starts with the field `scheme` = kKeySchemeVersion.
  KeyBuilder();

  KeyBuilder& add(std::string_view tag, std::string_view value);
  KeyBuilder& add(std::string_view tag, std::int64_t value);
  // A field described once and added to many keys (a large value, such as
  // libdevice's bytes, hashed once): the same key as add(tag, value).
  KeyBuilder& add(const KeyField& field);
  // The field add(tag, value) would add.
  static KeyField describe(std::string_view tag, std::string_view value);
  // The same for a value known by its size and digest alone (one not short printable
  // text, such as libdevice's bitcode remembered from an earlier process).
  static KeyField describeDigest(std::string_view tag, std::uint64_t size, const Digest& digest);

  // The key over every field added so far; the builder may keep growing.
  Key key() const;
  const std::vector<KeyField>& fields() const { return fields_; }

private:
  std::string encoded_;
  std::vector<KeyField> fields_;
};

// `tag: summary` lines, then `key: <hex>`, each ending in a newline.
std::string formatKeyFields(const KeyBuilder& builder);

}  // namespace cache
