#pragma once
// The bytes of one cache file (docs/CACHE.md, "Entry format"); ccache's
// core/cacheentry idea. Every file in the store is a header followed by a
// payload:
//
//   offset size
//        0    4  magic "PYKC"
//        4    2  format version (kEntryFormatVersion), little-endian
//        6    1  kind: 1 action record, 2 blob
//        7    1  reserved, 0
//        8    8  payload size, little-endian; header + payload = file size
//       16   32  name: the action key (record) or BLAKE3 of the payload (blob);
//                equals the file's name
//       48   32  checksum: BLAKE3 of the payload
//       80       payload
//
// A record's payload lists its outputs:
//   u32 count, then per output: u16 name length, name, 32-byte content
//   digest, u64 size (little-endian; nothing may follow the last output).
//
// Decoding checks every header field against what the reader expects and the
// payload against its checksum: a single flipped or missing byte anywhere is
// detected.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache/key.h"

namespace cache {

constexpr std::uint16_t kEntryFormatVersion = 1;
constexpr std::size_t kEntryHeaderBytes = 80;
// Limits that keep a foreign or damaged file from asking for absurd memory.
constexpr std::size_t kMaxRecordOutputs = 1024;
constexpr std::size_t kMaxOutputNameBytes = 1024;

enum class EntryKind : std::uint8_t { Record = 1, Blob = 2 };

// One output an action record names: the bytes live in the blob `digest`.
struct OutputRef {
  std::string name;
  Digest digest;
  std::uint64_t size = 0;
};

struct ActionRecord {
  Key key;
  std::vector<OutputRef> outputs;
};

// The header fields of a file that at least starts like an entry.
struct EntryHeader {
  EntryKind kind = EntryKind::Blob;
  std::uint64_t payloadSize = 0;
  Digest name;
};

// An output name must be 1..kMaxOutputNameBytes bytes with no control
// characters. Names are never used in paths.
bool isValidOutputName(std::string_view name);

// The whole file for a blob holding `content`. `digest`, when given, must be
// Digest::of(content) (it saves hashing the content twice).
std::string encodeBlob(std::string_view content, const Digest* digest = nullptr);
// The whole file for `record`. The outputs' names must be valid and distinct
// (asserted; Store::put checks before calling).
std::string encodeRecord(const ActionRecord& record);

// The header of `file`, or nullopt (with `why`) when the magic, version,
// kind, reserved byte or size is wrong. Does not read the payload.
std::optional<EntryHeader> readEntryHeader(std::string_view file, std::string* why);

// The content of a blob file, checked to be a blob named `expected` whose
// content hashes to `expected`. The view points into `file`.
std::optional<std::string_view> decodeBlob(std::string_view file, const Digest& expected,
                                           std::string* why);
// The record in `file`, checked to be a record for `expected` (a record that
// names another key is foreign) with an intact payload.
std::optional<ActionRecord> decodeRecord(std::string_view file, const Key& expected,
                                         std::string* why);

}  // namespace cache
