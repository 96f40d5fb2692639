// The local store: the folder layout (ac/ records, cas/ blobs), get and put
// of one entry with verification, and the edge helpers (cache folder, sizes).
// Remote tiers: store_tiers.cpp; counters: store_stats.cpp; maintenance:
// store_maintenance.cpp.
#include "cache/store.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <set>

#include "cache/store_internal.h"

namespace cache {

using namespace detail;

namespace {

constexpr std::string_view kCacheDirTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by pykc.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n";

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

std::optional<std::vector<NamedOutput>> Store::get(const Key& key, GetInfo* info) {
  std::string why;
  if (std::optional<std::vector<NamedOutput>> outputs = getLocal(key, &why)) {
    ++hits_;
    log(LogLevel::Debug, "cache: hit " + key.hex());
    if (info) info->remote.clear();
    return outputs;
  }
  if (std::optional<std::vector<NamedOutput>> outputs = getFromRemotes(key, info)) {
    return outputs;
  }
  ++misses_;
  log(LogLevel::Debug, "cache: miss " + key.hex() + (why.empty() ? "" : ": " + why));
  return std::nullopt;
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
  uploadToWritable(record, outputs);
  if (stored && options_.autoGc && options_.maxSize != 0 && sizeEstimate() > options_.maxSize) {
    // The entry just written is the most recently used: never its victim.
    collect(options_.maxSize, /*lockTimeoutMs=*/0, &key);
  }
  return stored;
}

}  // namespace cache
