#pragma once
// Signed action records (docs/CACHE.md, "Trusted writers"). A writer with a
// signing key appends a trailer to each record it uploads:
//
//   the record's entry file | "PYKCSIG1" | public key (32) | Ed25519 signature (64)
//
// over "pykc-record-signature-v1\0" followed by the entry file (whose header
// names the action key, and whose payload names every blob by digest and
// size, so the signature covers the whole entry). Local files never carry it.
//
// Key files are one line of text:
//
//   pykc-ed25519-secret-key-v1 <64 hex digits: the Ed25519 seed>     (mode 0600)
//   pykc-ed25519-public-key-v1 <64 hex digits: the public key>
//
// `pykc cache keygen PREFIX` writes PREFIX.key and PREFIX.pub. The parsers
// take text (tests/fuzz/fuzz_remote.cpp fuzzes them).
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "cache/remote/plugin.h"

namespace cache::remote {

inline constexpr std::string_view kSignatureMagic = "PYKCSIG1";
inline constexpr size_t kTrailerBytes = 8 + kPublicKeyBytes + kSignatureBytes;
inline constexpr std::string_view kSecretKeyTag = "pykc-ed25519-secret-key-v1";
inline constexpr std::string_view kPublicKeyTag = "pykc-ed25519-public-key-v1";

struct VerifyKey {
  std::array<unsigned char, kPublicKeyBytes> publicKey{};
};

struct SigningKey {
  std::array<unsigned char, kSeedBytes> seed{};
  std::array<unsigned char, kPublicKeyBytes> publicKey{};
};

// A record object split into the entry file and its trailer (if any).
struct SplitRecord {
  std::string_view entry;
  bool signedRecord = false;
  std::array<unsigned char, kPublicKeyBytes> publicKey{};
  std::array<unsigned char, kSignatureBytes> signature{};
};

// Splits by the entry header's payload size; nullopt when the bytes are no
// entry followed by nothing or by exactly one well-formed trailer.
std::optional<SplitRecord> splitRecord(std::string_view bytes);

// The message a record's signature covers.
std::string signedMessage(std::string_view entry);

// Key files. nullopt with `why` when the text is not one such line.
std::optional<std::array<unsigned char, 32>> parseKeyLine(std::string_view text, std::string_view tag,
                                                          std::string* why);
std::string formatKeyLine(std::string_view tag, const unsigned char* bytes);

// A short printable id of a public key (16 hex digits of its BLAKE3).
std::string keyId(const unsigned char* publicKey);

}  // namespace cache::remote
