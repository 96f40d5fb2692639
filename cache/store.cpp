#include "cache/store.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <set>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "cache/store_internal.h"

namespace cache {

using namespace detail;

namespace {

constexpr std::string_view kStatsMagic = "pykc-cache-stats 1";
constexpr std::string_view kCacheDirTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by pykc.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n";

std::string statsText(const Counters& c) {
  std::string body = std::string(kStatsMagic) + "\n";
  auto line = [&](const char* name, std::uint64_t v) {
    body += name;
    body += ' ';
    body += std::to_string(v);
    body += '\n';
  };
  line("hits", c.hits);
  line("misses", c.misses);
  line("writes", c.writes);
  line("evictions", c.evictions);
  line("errors", c.errors);
  line("bytes", c.bytes);
  line("remote_hits", c.remoteHits);
  line("remote_misses", c.remoteMisses);
  line("remote_errors", c.remoteErrors);
  line("remote_writes", c.remoteWrites);
  return body + "checksum " + Digest::of(body).hex() + "\n";
}

std::optional<Counters> parseStats(std::string_view text) {
  std::size_t sum = text.rfind("checksum ");
  if (sum == std::string_view::npos) return std::nullopt;
  std::string_view body = text.substr(0, sum);
  if (text.substr(sum) != "checksum " + Digest::of(body).hex() + "\n") return std::nullopt;
  if (body.substr(0, kStatsMagic.size() + 1) != std::string(kStatsMagic) + "\n") {
    return std::nullopt;
  }
  Counters c;
  std::map<std::string_view, std::uint64_t*> fields = {
      {"hits", &c.hits},     {"misses", &c.misses}, {"writes", &c.writes},
      {"evictions", &c.evictions}, {"errors", &c.errors}, {"bytes", &c.bytes},
      {"remote_hits", &c.remoteHits}, {"remote_misses", &c.remoteMisses},
      {"remote_errors", &c.remoteErrors}, {"remote_writes", &c.remoteWrites}};
  body.remove_prefix(kStatsMagic.size() + 1);
  while (!body.empty()) {
    std::size_t nl = body.find('\n');
    if (nl == std::string_view::npos) return std::nullopt;
    std::string_view line = body.substr(0, nl);
    body.remove_prefix(nl + 1);
    std::size_t sp = line.find(' ');
    if (sp == std::string_view::npos) return std::nullopt;
    auto it = fields.find(line.substr(0, sp));
    // Unknown lines come from a newer pykc: keep going.
    if (it == fields.end()) continue;
    std::string_view num = line.substr(sp + 1);
    auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), *it->second);
    if (ec != std::errc() || p != num.data() + num.size()) return std::nullopt;
  }
  return c;
}

std::string joinPath(const std::string& root, std::string_view name) {
  std::string p = root;
  p += '/';
  p += name;
  return p;
}

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

std::optional<std::string> resolveCacheDir(const EnvLookup& env) {
  auto get = [&](std::string_view name) -> std::optional<std::string> {
    std::optional<std::string> v = env(name);
    if (v && v->empty()) return std::nullopt;
    return v;
  };
  if (auto dir = get("PYKC_CACHE_DIR")) return dir;
  // The XDG spec: relative values are invalid and must be ignored.
  if (auto xdg = get("XDG_CACHE_HOME"); xdg && (*xdg)[0] == '/') return *xdg + "/pykc";
  if (auto home = get("HOME")) return *home + "/.cache/pykc";
  return std::nullopt;
}

std::optional<std::uint64_t> parseSize(std::string_view text) {
  std::uint64_t value = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || p == text.data()) return std::nullopt;
  std::string suffix;
  for (const char* q = p; q != text.data() + text.size(); ++q) {
    suffix.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(*q))));
  }
  int shift = 0;
  if (!suffix.empty()) {
    switch (suffix[0]) {
      case 'k': shift = 10; break;
      case 'm': shift = 20; break;
      case 'g': shift = 30; break;
      case 't': shift = 40; break;
      case 'b': shift = 0; break;
      default: return std::nullopt;
    }
    std::string rest = suffix.substr(1);
    if (suffix[0] == 'b' ? !rest.empty() : !(rest.empty() || rest == "b" || rest == "ib")) {
      return std::nullopt;
    }
  }
  if (shift && value > (~std::uint64_t{0} >> shift)) return std::nullopt;
  return value << shift;
}

std::string formatSize(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes) / 1024;
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

Store::Store(StoreOptions options) : options_(std::move(options)) {
  // A trailing slash would double up in paths; "/" stays "/".
  while (options_.root.size() > 1 && options_.root.back() == '/') options_.root.pop_back();
  for (const RemoteSpec& spec : options_.remotes) remotes_.push_back(std::make_unique<Remote>(spec));
}

Store::~Store() { flushStats(); }

void Store::log(LogLevel level, const std::string& message) const {
  if (options_.log) options_.log(level, message);
}

void Store::fault(const std::string& message) {
  ++errors_;
  log(LogLevel::Warning, "cache: " + message);
}

bool Store::writeEntryFile(const std::string& path, std::string_view bytes) {
  // The first write into a new cache folder also tags it for backup tools.
  std::string tag = joinPath(options_.root, "CACHEDIR.TAG");
  bool fresh = !statFile(joinPath(options_.root, kBlobDir));
  std::string error;
  if (!writeFileAtomic(path, bytes, options_.syncWrites, &error)) {
    ++errors_;
    // One warning per Store (a read-only cache would otherwise warn on every
    // put); the rest go to the debug log.
    bool first = !warnedWrite_.exchange(true);
    log(first ? LogLevel::Warning : LogLevel::Debug, "cache: not stored: " + error);
    return false;
  }
  if (fresh && !statFile(tag)) {
    std::string ignored;
    (void)writeFileAtomic(tag, kCacheDirTag, false, &ignored);
  }
  return true;
}

std::optional<std::string> Store::getBlob(const Digest& digest) {
  std::string path = entryPath(options_.root, kBlobDir, digest);
  FileRead r = readFile(path, kMaxBlobFileBytes, false);
  if (r.status == ReadStatus::Missing) return std::nullopt;
  if (r.status == ReadStatus::Error) {
    fault(r.error);
    return std::nullopt;
  }
  std::string why;
  std::optional<std::string_view> content = decodeBlob(r.data, digest, &why);
  if (!content) {
    removeIfSame(path, r.dev, r.ino);
    fault("removed corrupt blob " + digest.hex() + ": " + why);
    return std::nullopt;
  }
  // Drop the header in place rather than copying the content.
  r.data.erase(0, kEntryHeaderBytes);
  return std::move(r.data);
}

std::optional<ActionRecord> Store::getRecord(const Key& key) {
  std::string path = entryPath(options_.root, kRecordDir, key.digest);
  FileRead r = readFile(path, kMaxRecordFileBytes, false);
  if (r.status == ReadStatus::Missing) return std::nullopt;
  if (r.status == ReadStatus::Error) {
    fault(r.error);
    return std::nullopt;
  }
  std::string why;
  std::optional<ActionRecord> record = decodeRecord(r.data, key, &why);
  if (!record) {
    removeIfSame(path, r.dev, r.ino);
    fault("removed corrupt record " + key.hex() + ": " + why);
  }
  return record;
}

std::optional<std::vector<NamedOutput>> Store::getLocal(const Key& key, std::string* why) {
  std::string path = entryPath(options_.root, kRecordDir, key.digest);
  FileRead r = readFile(path, kMaxRecordFileBytes, /*touch=*/true);
  if (r.status == ReadStatus::Missing) return std::nullopt;
  if (r.status == ReadStatus::Error) {
    fault(r.error);
    *why = "unreadable record";
    return std::nullopt;
  }
  std::optional<ActionRecord> record = decodeRecord(r.data, key, why);
  if (!record) {
    removeIfSame(path, r.dev, r.ino);
    fault("removed corrupt record " + key.hex() + ": " + *why);
    *why = "corrupt record";
    return std::nullopt;
  }
  std::vector<NamedOutput> outputs;
  outputs.reserve(record->outputs.size());
  for (const OutputRef& ref : record->outputs) {
    std::optional<std::string> bytes = getBlob(ref.digest);
    if (!bytes || bytes->size() != ref.size) {
      if (!bytes) {
        // The blob was evicted or was corrupt: this record can never hit
        // again, so it goes too.
        removeIfSame(path, r.dev, r.ino);
      } else {
        fault("record " + key.hex() + " gives output `" + ref.name + "` a wrong size");
      }
      *why = "output `" + ref.name + "` unavailable";
      return std::nullopt;
    }
    outputs.push_back(NamedOutput{ref.name, std::move(*bytes)});
  }
  return outputs;
}

void Store::remoteFault(Remote& remote, const std::string& message) {
  ++remoteErrors_;
  log(LogLevel::Info, "cache: remote " + remote.spec().text + ": " + message);
}

std::optional<std::vector<NamedOutput>> Store::getRemote(Remote& remote, const Key& key) {
  auto failed = [&](const RemoteFetch& f, const std::string& what) {
    remoteFault(remote, what + ": " + f.error + "; not used again by this process");
  };
  RemoteFetch recordFetch = remote.get(RemoteObject::Record, key.digest, kMaxRecordFileBytes);
  if (recordFetch.status == RemoteFetch::Status::Failed) {
    failed(recordFetch, "record " + key.hex());
    return std::nullopt;
  }
  if (recordFetch.status == RemoteFetch::Status::Missing) {
    ++remoteMisses_;
    log(LogLevel::Debug, "cache: remote " + remote.spec().text + ": miss " + key.hex());
    return std::nullopt;
  }
  std::string why;
  std::optional<ActionRecord> record = decodeRecord(recordFetch.bytes, key, &why);
  if (!record) {
    remoteFault(remote, "damaged record " + key.hex() + " ignored: " + why);
    return std::nullopt;
  }
  // A record is trusted for nothing: what it asks us to download is bounded.
  std::uint64_t total = 0;
  for (const OutputRef& ref : record->outputs) total += std::min(ref.size, kMaxBlobFileBytes);
  if (total > kMaxBlobFileBytes) {
    remoteFault(remote, "record " + key.hex() + " ignored: its outputs claim " +
                            formatSize(total));
    return std::nullopt;
  }
  // Every blob verified (a local copy, or fetched and checked) before any
  // byte is used or written back. The missing ones are asked for at once.
  std::vector<std::optional<std::string>> contents(record->outputs.size());
  std::vector<size_t> wanted;
  std::vector<Digest> digests;
  std::vector<std::uint64_t> limits;
  for (size_t i = 0; i < record->outputs.size(); ++i) {
    const OutputRef& ref = record->outputs[i];
    if (std::optional<std::string> local = getBlob(ref.digest); local && local->size() == ref.size) {
      contents[i] = std::move(*local);
      continue;
    }
    wanted.push_back(i);
    digests.push_back(ref.digest);
    limits.push_back(std::min(kMaxBlobFileBytes, ref.size + kEntryHeaderBytes));
  }
  std::vector<RemoteFetch> blobs = remote.getMany(RemoteObject::Blob, digests, limits);
  std::vector<std::pair<Digest, std::string>> fetched;
  for (size_t k = 0; k < wanted.size(); ++k) {
    const OutputRef& ref = record->outputs[wanted[k]];
    RemoteFetch& blob = blobs[k];
    if (blob.status == RemoteFetch::Status::Failed) {
      failed(blob, "blob " + ref.digest.hex());
      return std::nullopt;
    }
    if (blob.status == RemoteFetch::Status::Missing) {
      remoteFault(remote, "record " + key.hex() + " names blob " + ref.digest.hex() +
                              " that the remote lacks");
      return std::nullopt;
    }
    std::optional<std::string_view> content = decodeBlob(blob.bytes, ref.digest, &why);
    if (!content || content->size() != ref.size) {
      remoteFault(remote, "damaged blob " + ref.digest.hex() + " ignored: " +
                              (content ? "wrong size for output `" + ref.name + "`" : why));
      return std::nullopt;
    }
    contents[wanted[k]] = std::string(*content);
    fetched.emplace_back(ref.digest, std::move(blob.bytes));
  }
  std::vector<NamedOutput> outputs;
  for (size_t i = 0; i < record->outputs.size(); ++i) {
    outputs.push_back(NamedOutput{record->outputs[i].name, std::move(*contents[i])});
  }
  // Written back as a put would: blobs first, then the record. A failure
  // (a read-only folder) still serves the hit.
  bool stored = true;
  for (const auto& [digest, file] : fetched) {
    std::string path = entryPath(options_.root, kBlobDir, digest);
    if (!writeEntryFile(path, file)) {
      stored = false;
      break;
    }
    bytesDelta_ += static_cast<std::int64_t>(file.size());
  }
  if (stored &&
      writeEntryFile(entryPath(options_.root, kRecordDir, key.digest), recordFetch.bytes)) {
    bytesDelta_ += static_cast<std::int64_t>(recordFetch.bytes.size());
  }
  return outputs;
}

std::optional<std::vector<NamedOutput>> Store::get(const Key& key, GetInfo* info) {
  std::string why;
  if (std::optional<std::vector<NamedOutput>> outputs = getLocal(key, &why)) {
    ++hits_;
    log(LogLevel::Debug, "cache: hit " + key.hex());
    if (info) info->remote.clear();
    return outputs;
  }
  for (const std::unique_ptr<Remote>& remote : remotes_) {
    if (!remote->usable()) continue;
    if (std::optional<std::vector<NamedOutput>> outputs = getRemote(*remote, key)) {
      ++remoteHits_;
      log(LogLevel::Debug, "cache: remote hit " + key.hex() + " from " + remote->spec().text);
      if (info) info->remote = remote->spec().text;
      if (options_.autoGc && options_.maxSize != 0 && sizeEstimate() > options_.maxSize) {
        collect(options_.maxSize, /*lockTimeoutMs=*/0, &key);
      }
      return outputs;
    }
  }
  ++misses_;
  log(LogLevel::Debug, "cache: miss " + key.hex() + (why.empty() ? "" : ": " + why));
  return std::nullopt;
}

void Store::upload(const Key& key, const std::vector<std::pair<Digest, std::string>>& blobFiles,
                   const std::string& recordFile, const std::vector<Remote*>& to) {
  for (Remote* remote : to) {
    if (remote->spec().readOnly || !remote->usable()) continue;
    std::string error;
    bool ok = true;
    for (const auto& [digest, file] : blobFiles) {
      if (!remote->put(RemoteObject::Blob, digest, file, &error)) {
        ok = false;
        break;
      }
    }
    if (ok) ok = remote->put(RemoteObject::Record, key.digest, recordFile, &error);
    if (!ok) {
      remoteFault(*remote, "upload of " + key.hex() + " failed: " + error +
                               "; not used again by this process");
      continue;
    }
    ++remoteWrites_;
    log(LogLevel::Debug, "cache: remote " + remote->spec().text + ": stored " + key.hex());
  }
}

std::optional<Digest> Store::putBlob(std::string_view content) {
  if (content.size() + kEntryHeaderBytes > kMaxBlobFileBytes) {
    fault("not stored: a " + formatSize(content.size()) + " blob is over the limit");
    return std::nullopt;
  }
  Digest digest = Digest::of(content);
  std::string path = entryPath(options_.root, kBlobDir, digest);
  // Content-addressed: an intact file is kept, and marked used (best effort,
  // as on a hit: a read-only cache still works) so that a concurrent gc
  // spares it. Intact means verified, not merely of the right size: a
  // damaged file (a flipped bit, a foreign or truncated file, a symlink) is
  // replaced by renaming a fresh one over it, so that one put heals every
  // damaged blob of an entry and not only the one its get tripped on.
  FileRead existing = readFile(path, kMaxBlobFileBytes, /*touch=*/true);
  std::uint64_t replaced = 0;
  if (existing.status == ReadStatus::Ok) {
    std::string why;
    if (decodeBlob(existing.data, digest, &why)) return digest;
    replaced = existing.data.size();
    fault("replacing damaged blob " + digest.hex() + ": " + why);
  } else if (existing.status == ReadStatus::Error) {
    fault("replacing blob " + digest.hex() + ": " + existing.error);
  }
  std::string file = encodeBlob(content, &digest);
  if (!writeEntryFile(path, file)) return std::nullopt;
  bytesDelta_ += static_cast<std::int64_t>(file.size()) - static_cast<std::int64_t>(replaced);
  return digest;
}

bool Store::putRecord(const ActionRecord& record) {
  std::string file = encodeRecord(record);
  if (!writeEntryFile(entryPath(options_.root, kRecordDir, record.key.digest), file)) {
    return false;
  }
  bytesDelta_ += static_cast<std::int64_t>(file.size());
  return true;
}

void Store::share(const Key& key, const std::vector<NamedOutput>& outputs) {
  std::vector<Remote*> lacking;
  for (const std::unique_ptr<Remote>& remote : remotes_) {
    if (remote->spec().readOnly || !remote->usable()) continue;
    RemoteFetch f = remote->get(RemoteObject::Record, key.digest, kMaxRecordFileBytes);
    if (f.status == RemoteFetch::Status::Failed) {
      remoteFault(*remote, "record " + key.hex() + ": " + f.error +
                               "; not used again by this process");
      continue;
    }
    // A damaged record is replaced as well.
    if (f.status == RemoteFetch::Status::Found && decodeRecord(f.bytes, key, nullptr)) continue;
    lacking.push_back(remote.get());
  }
  if (lacking.empty()) return;
  ActionRecord record{key, {}};
  std::vector<std::pair<Digest, std::string>> blobFiles;
  std::set<Digest> seen;
  for (const NamedOutput& o : outputs) {
    Digest d = Digest::of(o.bytes);
    record.outputs.push_back(OutputRef{o.name, d, o.bytes.size()});
    if (seen.insert(d).second) blobFiles.emplace_back(d, encodeBlob(o.bytes, &d));
  }
  upload(key, blobFiles, encodeRecord(record), lacking);
}

bool Store::put(const Key& key, const std::vector<NamedOutput>& outputs) {
  if (outputs.size() > kMaxRecordOutputs) {
    fault("not stored: too many outputs");
    return false;
  }
  std::set<std::string_view> names;
  for (const NamedOutput& o : outputs) {
    if (!isValidOutputName(o.name) || !names.insert(o.name).second) {
      fault("not stored: invalid or repeated output name");
      return false;
    }
  }
  ActionRecord record{key, {}};
  bool stored = true;
  for (const NamedOutput& o : outputs) {
    std::optional<Digest> digest = putBlob(o.bytes);
    if (!digest) {
      stored = false;
      // The remotes still get the entry: a read-only folder must not keep a
      // builder from sharing its work.
      if (remotes_.empty()) return false;
      digest = Digest::of(o.bytes);
    }
    record.outputs.push_back(OutputRef{o.name, *digest, o.bytes.size()});
  }
  if (stored) stored = putRecord(record);
  if (stored) {
    ++writes_;
    log(LogLevel::Debug, "cache: stored " + key.hex());
  }
  std::vector<Remote*> writable;
  for (const std::unique_ptr<Remote>& r : remotes_) {
    if (!r->spec().readOnly && r->usable()) writable.push_back(r.get());
  }
  if (!writable.empty()) {
    std::vector<std::pair<Digest, std::string>> blobFiles;
    std::set<Digest> seen;
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Digest& d = record.outputs[i].digest;
      if (seen.insert(d).second) blobFiles.emplace_back(d, encodeBlob(outputs[i].bytes, &d));
    }
    upload(key, blobFiles, encodeRecord(record), writable);
  }
  if (stored && options_.autoGc && options_.maxSize != 0 && sizeEstimate() > options_.maxSize) {
    // The entry just written is the most recently used: never its victim.
    collect(options_.maxSize, /*lockTimeoutMs=*/0, &key);
  }
  return stored;
}

std::uint64_t Store::sizeEstimate() {
  std::lock_guard<std::mutex> lock(estimateMutex_);
  if (!persistedBytes_) {
    FileRead r = readFile(joinPath(options_.root, kStatsFile), 1 << 16, false);
    std::optional<Counters> c = r.status == ReadStatus::Ok ? parseStats(r.data) : std::nullopt;
    persistedBytes_ = c ? c->bytes : 0;
  }
  std::int64_t total = static_cast<std::int64_t>(*persistedBytes_) + bytesDelta_.load();
  return total < 0 ? 0 : static_cast<std::uint64_t>(total);
}

Counters Store::counters() {
  Counters c;
  FileRead r = readFile(joinPath(options_.root, kStatsFile), 1 << 16, false);
  if (r.status == ReadStatus::Ok) {
    if (std::optional<Counters> parsed = parseStats(r.data)) {
      c = *parsed;
    } else {
      log(LogLevel::Warning, "cache: ignoring a damaged stats file");
    }
  }
  c.hits += hits_;
  c.misses += misses_;
  c.writes += writes_;
  c.evictions += evictions_;
  c.errors += errors_;
  c.remoteHits += remoteHits_;
  c.remoteMisses += remoteMisses_;
  c.remoteErrors += remoteErrors_;
  c.remoteWrites += remoteWrites_;
  std::int64_t bytes = static_cast<std::int64_t>(c.bytes) + bytesDelta_.load();
  c.bytes = bytes < 0 ? 0 : static_cast<std::uint64_t>(bytes);
  return c;
}

namespace {

// Applies `change` to the persisted counters: read, change, write a temp
// file, rename; under a short flock so concurrent updates are rarely lost.
// Never creates the cache folder unless `create`.
template <typename Change>
bool updateStats(const std::string& root, Change change, std::string* error,
                 bool create = false) {
  if (!create && !statFile(root)) {
    *error = "no cache folder `" + root + "`";
    return false;
  }
  std::optional<FileLock> lock = FileLock::acquire(joinPath(root, kStatsLock), 100);
  FileRead r = readFile(joinPath(root, kStatsFile), 1 << 16, false);
  Counters c;
  if (r.status == ReadStatus::Ok) {
    if (std::optional<Counters> parsed = parseStats(r.data)) c = *parsed;
  }
  change(c);
  return writeFileAtomic(joinPath(root, kStatsFile), statsText(c), false, error);
}

}  // namespace

void Store::flushStats() {
  std::uint64_t h = hits_.exchange(0), m = misses_.exchange(0), w = writes_.exchange(0),
                ev = evictions_.exchange(0), er = errors_.exchange(0);
  std::uint64_t rh = remoteHits_.exchange(0), rm = remoteMisses_.exchange(0),
                re = remoteErrors_.exchange(0), rw = remoteWrites_.exchange(0);
  std::int64_t b = bytesDelta_.exchange(0);
  if (h == 0 && m == 0 && w == 0 && ev == 0 && er == 0 && b == 0 && rh == 0 && rm == 0 &&
      re == 0 && rw == 0) {
    return;
  }
  std::string error;
  bool ok = updateStats(
      options_.root,
      [&](Counters& c) {
        c.hits += h;
        c.misses += m;
        c.writes += w;
        c.evictions += ev;
        c.errors += er;
        c.remoteHits += rh;
        c.remoteMisses += rm;
        c.remoteErrors += re;
        c.remoteWrites += rw;
        std::int64_t bytes = static_cast<std::int64_t>(c.bytes) + b;
        c.bytes = bytes < 0 ? 0 : static_cast<std::uint64_t>(bytes);
      },
      &error, /*create=*/true);
  if (!ok) log(LogLevel::Debug, "cache: statistics not saved: " + error);
  std::lock_guard<std::mutex> lock(estimateMutex_);
  persistedBytes_.reset();
}

bool Store::zeroStats() {
  flushStats();
  std::string error;
  std::uint64_t bytes = usage().bytes;
  bool ok = updateStats(
      options_.root, [&](Counters& c) {
        c = Counters{};
        c.bytes = bytes;
      }, &error);
  if (!ok) log(LogLevel::Warning, "cache: " + error);
  return ok;
}

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
