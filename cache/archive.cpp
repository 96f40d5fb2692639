// Store::exportArchive and Store::importArchive: a cache as one file
// (docs/CACHE.md, "Archives").
//
//   "PYKCARCH"  u32 version (1)  u32 reserved (0)
//   per item:   u8 kind (1 record, 2 blob)  u64 length  the entry file's bytes
//   trailer:    u8 0xff  u64 item count  BLAKE3 of every byte before the trailer
//
// Blobs come first (sorted by digest), then records (sorted by key), so the
// same entries always give the same archive. Items are whole store files
// (header, name, checksum), so each one is checked as on any read.
#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "cache/little_endian.h"
#include "cache/store.h"
#include "cache/store_internal.h"

namespace cache {

using namespace detail;

namespace {

constexpr char kArchiveMagic[8] = {'P', 'Y', 'K', 'C', 'A', 'R', 'C', 'H'};
constexpr std::uint32_t kArchiveVersion = 1;
constexpr std::size_t kArchiveHeaderBytes = 16;
constexpr std::size_t kTrailerBytes = 1 + 8 + kDigestBytes;
constexpr unsigned char kEndKind = 0xff;
constexpr std::uint64_t kMaxArchiveBytes = std::uint64_t{64} << 30;

void addItem(std::string& archive, EntryKind kind, std::string_view file) {
  archive.push_back(static_cast<char>(kind));
  putLe(archive, file.size(), 8);
  archive.append(file);
}

ArchiveReport failure(std::string why) {
  ArchiveReport r;
  r.error = std::move(why);
  return r;
}

}  // namespace

ArchiveReport Store::exportArchive(const std::string& path) {
  ArchiveReport report;
  std::map<Digest, std::string> blobFiles;
  std::vector<std::pair<Key, std::string>> recordFiles;
  for (const EntryInfo& info : list()) {
    std::string recordPath = entryPath(options_.root, kRecordDir, info.key.digest);
    FileRead r = readFile(recordPath, kMaxRecordFileBytes, false);
    bool complete = r.status == ReadStatus::Ok && decodeRecord(r.data, info.key, nullptr);
    std::map<Digest, std::string> mine;
    for (const OutputRef& o : info.outputs) {
      if (!complete) break;
      if (blobFiles.count(o.digest) || mine.count(o.digest)) continue;
      FileRead b = readFile(entryPath(options_.root, kBlobDir, o.digest), kMaxBlobFileBytes, false);
      std::optional<std::string_view> content =
          b.status == ReadStatus::Ok ? decodeBlob(b.data, o.digest, nullptr) : std::nullopt;
      if (!content || content->size() != o.size) {
        complete = false;
        break;
      }
      mine.emplace(o.digest, std::move(b.data));
    }
    if (!complete) {
      ++report.skipped;
      log(LogLevel::Warning, "cache: export skips damaged or incomplete entry " + info.key.hex());
      continue;
    }
    blobFiles.merge(mine);
    recordFiles.emplace_back(info.key, std::move(r.data));
  }
  std::sort(recordFiles.begin(), recordFiles.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });

  std::string archive(kArchiveMagic, sizeof kArchiveMagic);
  putLe(archive, kArchiveVersion, 4);
  putLe(archive, 0, 4);
  for (const auto& [digest, file] : blobFiles) {
    addItem(archive, EntryKind::Blob, file);
    report.bytes += file.size();
  }
  for (const auto& [key, file] : recordFiles) {
    addItem(archive, EntryKind::Record, file);
    report.bytes += file.size();
  }
  Digest whole = Digest::of(archive);
  archive.push_back(static_cast<char>(kEndKind));
  putLe(archive, blobFiles.size() + recordFiles.size(), 8);
  archive.append(reinterpret_cast<const char*>(whole.bytes.data()), kDigestBytes);

  std::string error;
  if (!writeFileAtomic(path, archive, /*sync=*/true, &error)) return failure(error);
  report.ok = true;
  report.blobs = blobFiles.size();
  report.records = recordFiles.size();
  return report;
}

ArchiveReport Store::importArchive(const std::string& path) {
  FileRead in = readFile(path, kMaxArchiveBytes, false);
  if (in.status == ReadStatus::Missing) return failure("cannot open `" + path + "`: no such file");
  if (in.status == ReadStatus::Error) return failure(in.error);
  std::string_view a = in.data;
  auto invalid = [&](const std::string& why) {
    return failure("`" + path + "` is not a valid pykc cache archive: " + why +
                   "; nothing was imported");
  };
  if (a.size() < kArchiveHeaderBytes + kTrailerBytes ||
      std::memcmp(a.data(), kArchiveMagic, sizeof kArchiveMagic) != 0) {
    return invalid("no archive header");
  }
  if (getLe(a, 8, 4) != kArchiveVersion || getLe(a, 12, 4) != 0) {
    return invalid("archive format version " + std::to_string(getLe(a, 8, 4)) + ", expected " +
                   std::to_string(kArchiveVersion));
  }
  // Pass 1: check everything; nothing is written until all of it holds.
  std::size_t body = a.size() - kTrailerBytes;
  if (static_cast<unsigned char>(a[body]) != kEndKind) return invalid("truncated (no trailer)");
  Digest stated;
  std::memcpy(stated.bytes.data(), a.data() + body + 9, kDigestBytes);
  if (Digest::of(a.substr(0, body)) != stated) return invalid("archive digest mismatch");

  struct Item {
    EntryKind kind;
    Digest name;
    std::string_view file;
  };
  std::vector<Item> items;
  std::map<Digest, std::uint64_t> blobSizes;
  std::set<Digest> recordKeys;
  std::vector<ActionRecord> records;
  std::size_t at = kArchiveHeaderBytes;
  while (at < body) {
    if (body - at < 9) return invalid("truncated item");
    auto kind = static_cast<unsigned char>(a[at]);
    std::uint64_t size = getLe(a, at + 1, 8);
    at += 9;
    if (size > body - at) return invalid("truncated item");
    std::string_view file = a.substr(at, size);
    at += size;
    std::string why;
    std::optional<EntryHeader> header = readEntryHeader(file, &why);
    if (!header || static_cast<unsigned char>(header->kind) != kind) {
      return invalid("item " + std::to_string(items.size()) + ": " +
                     (header ? "kind mismatch" : why));
    }
    if (header->kind == EntryKind::Blob) {
      std::optional<std::string_view> content = decodeBlob(file, header->name, &why);
      if (!content) return invalid("blob " + header->name.hex() + ": " + why);
      if (!blobSizes.emplace(header->name, content->size()).second) {
        return invalid("blob " + header->name.hex() + " appears twice");
      }
    } else {
      std::optional<ActionRecord> record = decodeRecord(file, Key{header->name}, &why);
      if (!record) return invalid("record " + header->name.hex() + ": " + why);
      if (!recordKeys.insert(header->name).second) {
        return invalid("record " + header->name.hex() + " appears twice");
      }
      records.push_back(std::move(*record));
    }
    items.push_back(Item{header->kind, header->name, file});
  }
  if (getLe(a, body + 1, 8) != items.size()) return invalid("item count mismatch");
  for (const ActionRecord& record : records) {
    for (const OutputRef& o : record.outputs) {
      auto it = blobSizes.find(o.digest);
      if (it == blobSizes.end() || it->second != o.size) {
        return invalid("record " + record.key.hex() + " names blob " + o.digest.hex() +
                       ", which the archive lacks");
      }
    }
  }

  // Pass 2: blobs, then records, each renamed into place whole.
  ArchiveReport report;
  for (EntryKind kind : {EntryKind::Blob, EntryKind::Record}) {
    for (const Item& item : items) {
      if (item.kind != kind) continue;
      std::string_view dir = kind == EntryKind::Blob ? kBlobDir : kRecordDir;
      if (!writeEntryFile(entryPath(options_.root, dir, item.name), item.file)) {
        report.error = "cannot write into the cache `" + options_.root +
                       "`; the entries imported so far are complete and usable";
        return report;
      }
      bytesDelta_ += static_cast<std::int64_t>(item.file.size());
      report.bytes += item.file.size();
      ++(kind == EntryKind::Blob ? report.blobs : report.records);
    }
  }
  report.ok = true;
  return report;
}

}  // namespace cache
