// Whole-folder operations: scans, usage, list, find, verify, gc (LRU
// eviction under a lock) and clear.
#include "cache/store.h"

#include <algorithm>
#include <map>
#include <set>
#include <unistd.h>

#include "cache/store_internal.h"

namespace cache {

using namespace detail;

namespace {

bool isTempFile(std::string_view name) { return name.substr(0, kTempPrefix.size()) == kTempPrefix; }

// One file found by a scan of ac/ or cas/.
struct ScannedFile {
  Digest digest;
  std::string path;
  std::uint64_t size = 0;
  std::int64_t mtime = 0;
  std::int64_t mtimeNs = 0;
};

struct Scan {
  std::vector<ScannedFile> records;
  std::vector<ScannedFile> blobs;
  std::vector<std::string> tempFiles;
  std::vector<std::int64_t> tempMtimes;
  std::vector<std::string> foreign;
  std::vector<std::string> errors;
};

void scanDir(const std::string& root, std::string_view dir, std::vector<ScannedFile>& out,
             Scan& scan) {
  std::string top = joinPath(root, dir);
  std::string error;
  auto subs = listDir(top, &error);
  if (!subs) {
    scan.errors.push_back(error);
    return;
  }
  std::sort(subs->begin(), subs->end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  for (const DirEntry& sub : *subs) {
    std::string subPath = joinPath(top, sub.name);
    if (!sub.isDir || !isTwoHex(sub.name)) {
      scan.foreign.push_back(subPath);
      continue;
    }
    auto files = listDir(subPath, &error);
    if (!files) {
      scan.errors.push_back(error);
      continue;
    }
    for (const DirEntry& f : *files) {
      std::string path = joinPath(subPath, f.name);
      std::optional<FileStat> st = statFile(path);
      if (!st) continue;  // removed meanwhile
      if (isTempFile(f.name) && st->regular) {
        scan.tempFiles.push_back(path);
        scan.tempMtimes.push_back(st->mtime);
        continue;
      }
      std::optional<Digest> d = digestFromNames(sub.name, f.name);
      if (!d || !st->regular) {
        scan.foreign.push_back(path);
        continue;
      }
      out.push_back(ScannedFile{*d, path, st->size, st->mtime, st->mtimeNs});
    }
  }
}

Scan scanStore(const std::string& root) {
  Scan scan;
  // Records first: a put writes blobs before its record, so every blob of a
  // record seen here already exists when cas/ is scanned.
  scanDir(root, kRecordDir, scan.records, scan);
  scanDir(root, kBlobDir, scan.blobs, scan);
  return scan;
}

}  // namespace

Usage Store::usage() {
  Scan scan = scanStore(options_.root);
  Usage u;
  u.records = scan.records.size();
  u.blobs = scan.blobs.size();
  for (const ScannedFile& f : scan.records) u.bytes += f.size;
  for (const ScannedFile& f : scan.blobs) u.bytes += f.size;
  u.tempFiles = scan.tempFiles.size();
  u.foreignFiles = scan.foreign.size();
  for (const std::string& e : scan.errors) log(LogLevel::Warning, "cache: " + e);
  return u;
}

std::vector<EntryInfo> Store::list() {
  Scan scan = scanStore(options_.root);
  std::map<Digest, std::uint64_t> blobSizes;
  for (const ScannedFile& f : scan.blobs) blobSizes[f.digest] = f.size;
  std::vector<EntryInfo> out;
  for (const ScannedFile& f : scan.records) {
    FileRead r = readFile(f.path, kMaxRecordFileBytes, false);
    if (r.status != ReadStatus::Ok) continue;
    std::optional<ActionRecord> record = decodeRecord(r.data, Key{f.digest}, nullptr);
    if (!record) continue;
    EntryInfo info{record->key, record->outputs, r.data.size(), r.mtime, 0};
    for (const OutputRef& o : info.outputs) {
      auto it = blobSizes.find(o.digest);
      if (it == blobSizes.end()) {
        ++info.missingBlobs;
      } else {
        info.bytes += it->second;
      }
    }
    out.push_back(std::move(info));
  }
  std::sort(out.begin(), out.end(), [](const EntryInfo& a, const EntryInfo& b) {
    return a.lastUse != b.lastUse ? a.lastUse > b.lastUse : a.key < b.key;
  });
  return out;
}

std::optional<EntryInfo> Store::find(std::string_view keyOrPrefix, std::string* why) {
  std::string prefix;
  for (char c : keyOrPrefix) {
    prefix.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  bool hex = !prefix.empty() && prefix.find_first_not_of("0123456789abcdef") == std::string::npos;
  if (!hex || prefix.size() < 4 || prefix.size() > 2 * kDigestBytes) {
    *why = "`" + std::string(keyOrPrefix) + "` is not a key (4 to 64 hex digits)";
    return std::nullopt;
  }
  std::vector<EntryInfo> matches;
  for (EntryInfo& info : list()) {
    if (info.key.hex().compare(0, prefix.size(), prefix) == 0) matches.push_back(std::move(info));
  }
  if (matches.empty()) {
    *why = "no entry has a key starting with `" + prefix + "`";
    return std::nullopt;
  }
  if (matches.size() > 1) {
    *why = std::to_string(matches.size()) + " entries have keys starting with `" + prefix +
           "`; give more digits";
    return std::nullopt;
  }
  return std::move(matches.front());
}

VerifyReport Store::verify(bool fix) {
  VerifyReport report;
  Scan scan = scanStore(options_.root);
  for (const std::string& e : scan.errors) report.problems.push_back(e);
  for (const std::string& f : scan.foreign) {
    report.problems.push_back("foreign file `" + f + "` (left alone)");
  }
  auto remove = [&](const FileRead& r, const std::string& path) {
    if (fix && removeIfSame(path, r.dev, r.ino)) ++report.removed;
  };
  std::set<Digest> goodBlobs;
  for (const ScannedFile& f : scan.blobs) {
    FileRead r = readFile(f.path, kMaxBlobFileBytes, false);
    if (r.status == ReadStatus::Missing) continue;
    std::string why = r.error;
    if (r.status == ReadStatus::Ok && decodeBlob(r.data, f.digest, &why)) {
      goodBlobs.insert(f.digest);
      ++report.blobsOk;
      continue;
    }
    report.problems.push_back("blob " + f.digest.hex() + ": " + why);
    remove(r, f.path);
  }
  std::set<Digest> referenced;
  for (const ScannedFile& f : scan.records) {
    FileRead r = readFile(f.path, kMaxRecordFileBytes, false);
    if (r.status == ReadStatus::Missing) continue;
    std::string why = r.error;
    std::optional<ActionRecord> record;
    if (r.status == ReadStatus::Ok) record = decodeRecord(r.data, Key{f.digest}, &why);
    if (!record) {
      report.problems.push_back("record " + f.digest.hex() + ": " + why);
      remove(r, f.path);
      continue;
    }
    bool complete = true;
    for (const OutputRef& o : record->outputs) {
      referenced.insert(o.digest);
      if (!goodBlobs.count(o.digest)) {
        complete = false;
        report.problems.push_back("record " + f.digest.hex() + ": output `" + o.name +
                                  "` has no intact blob " + o.digest.hex());
      }
    }
    if (!complete) {
      remove(r, f.path);
      continue;
    }
    ++report.recordsOk;
  }
  for (const Digest& d : goodBlobs) {
    if (!referenced.count(d)) ++report.orphanBlobs;
  }
  errors_ += report.problems.size();
  if (fix) {
    flushStats();
    std::string error;
    std::uint64_t bytes = usage().bytes;
    (void)updateStats(options_.root, [&](Counters& c) { c.bytes = bytes; }, &error);
  }
  return report;
}

GcReport Store::gc(std::uint64_t maxSize, int lockTimeoutMs) {
  return collect(maxSize, lockTimeoutMs, nullptr);
}

GcReport Store::collect(std::uint64_t maxSize, int lockTimeoutMs, const Key* keep) {
  GcReport report;
  if (!statFile(options_.root)) {
    report.ran = true;
    return report;
  }
  std::optional<FileLock> lock =
      FileLock::acquire(joinPath(options_.root, kGcLock), lockTimeoutMs);
  if (!lock) {
    log(LogLevel::Debug, "cache: gc skipped: another gc holds the lock");
    return report;
  }
  report.ran = true;
  std::int64_t start = nowSeconds();
  Scan scan = scanStore(options_.root);
  for (const std::string& e : scan.errors) log(LogLevel::Warning, "cache: " + e);

  for (std::size_t i = 0; i < scan.tempFiles.size(); ++i) {
    if (start - scan.tempMtimes[i] > kStaleTempSeconds &&
        ::unlink(scan.tempFiles[i].c_str()) == 0) {
      ++report.junkRemoved;
    }
  }
  struct Blob {
    std::string path;
    std::uint64_t size;
    std::int64_t mtime;
    std::int64_t mtimeNs;
    int refs = 0;
  };
  std::map<Digest, Blob> blobs;
  std::uint64_t total = 0;
  for (const ScannedFile& f : scan.blobs) {
    blobs[f.digest] = Blob{f.path, f.size, f.mtime, f.mtimeNs, 0};
    total += f.size;
  }
  struct Record {
    ScannedFile file;
    std::vector<Digest> blobs;
  };
  std::vector<Record> records;
  for (const ScannedFile& f : scan.records) {
    FileRead r = readFile(f.path, kMaxRecordFileBytes, false);
    if (r.status != ReadStatus::Ok) continue;
    std::optional<ActionRecord> record = decodeRecord(r.data, Key{f.digest}, nullptr);
    bool dangling = record && std::any_of(record->outputs.begin(), record->outputs.end(),
                                          [&](const OutputRef& o) {
                                            return !blobs.count(o.digest);
                                          });
    if (!record || dangling) {
      if (removeIfSame(f.path, r.dev, r.ino)) ++report.junkRemoved;
      continue;
    }
    Record rec{f, {}};
    for (const OutputRef& o : record->outputs) {
      rec.blobs.push_back(o.digest);
      ++blobs[o.digest].refs;
    }
    total += f.size;
    records.push_back(std::move(rec));
  }
  report.bytesBefore = total;
  for (auto& [digest, blob] : blobs) {
    if (blob.refs == 0 && start - blob.mtime > kOrphanGraceSeconds &&
        ::unlink(blob.path.c_str()) == 0) {
      total -= blob.size;
      ++report.junkRemoved;
    }
  }
  if (maxSize != 0 && total > maxSize) {
    // Least recently used first; ties by key so the order is reproducible.
    std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
      return a.file.mtimeNs != b.file.mtimeNs ? a.file.mtimeNs < b.file.mtimeNs
                                              : a.file.digest < b.file.digest;
    });
    std::uint64_t target = maxSize / 10 * 9;
    for (const Record& rec : records) {
      if (total <= target) break;
      if (keep && rec.file.digest == keep->digest) continue;
      if (::unlink(rec.file.path.c_str()) != 0) continue;
      total -= rec.file.size;
      ++report.recordsEvicted;
      for (const Digest& d : rec.blobs) {
        Blob& blob = blobs[d];
        if (--blob.refs != 0) continue;
        // A blob marked used since the scan belongs to a put in progress:
        // keep it. (Losing the race only turns that put into a later miss.)
        std::optional<FileStat> st = statFile(blob.path);
        if (st && st->mtimeNs != blob.mtimeNs) continue;
        if (::unlink(blob.path.c_str()) == 0) {
          total -= blob.size;
          ++report.blobsRemoved;
        }
      }
    }
  }
  report.bytesAfter = total;
  evictions_ += report.recordsEvicted;
  log(LogLevel::Debug, "cache: gc evicted " + std::to_string(report.recordsEvicted) +
                           " entries, " + formatSize(report.bytesBefore) + " -> " +
                           formatSize(report.bytesAfter));
  // The scan is exact: it replaces the estimate, this Store's delta included.
  std::uint64_t evicted = evictions_.exchange(0);
  bytesDelta_ = 0;
  std::string error;
  (void)updateStats(
      options_.root,
      [&](Counters& c) {
        c.bytes = total;
        c.evictions += evicted;
      },
      &error);
  std::lock_guard<std::mutex> estimate(estimateMutex_);
  persistedBytes_.reset();
  return report;
}

ClearReport Store::clear() {
  ClearReport report;
  Scan scan = scanStore(options_.root);
  auto remove = [&](const std::string& path) {
    if (::unlink(path.c_str()) == 0) {
      ++report.filesRemoved;
    } else if (errno != ENOENT) {
      ++report.failures;
      log(LogLevel::Warning, "cache: cannot remove `" + path + "`");
    }
  };
  for (const ScannedFile& f : scan.records) remove(f.path);
  for (const ScannedFile& f : scan.blobs) remove(f.path);
  for (const std::string& t : scan.tempFiles) remove(t);
  // Empty folders go too; folders holding foreign files stay.
  for (std::string_view dir : {kRecordDir, kBlobDir}) {
    std::string top = joinPath(options_.root, dir);
    if (auto subs = listDir(top, nullptr)) {
      for (const DirEntry& sub : *subs) {
        if (sub.isDir && isTwoHex(sub.name)) (void)::rmdir(joinPath(top, sub.name).c_str());
      }
    }
    (void)::rmdir(top.c_str());
  }
  bytesDelta_ = 0;
  std::string error;
  (void)updateStats(options_.root, [&](Counters& c) { c.bytes = 0; }, &error);
  std::lock_guard<std::mutex> estimate(estimateMutex_);
  persistedBytes_.reset();
  return report;
}

}  // namespace cache
