#pragma once
// The on-disk cache store (DESIGN.md §5, docs/CACHE.md). Two levels, as in
// Bazel's remote cache:
//
//   <root>/ac/ab/cdef...   action records: action key -> named outputs, each
//                          with its content digest and size
//   <root>/cas/ab/cdef...  blobs, under the BLAKE3 digest of their content
//
// The store knows only bytes. Every path component below <root> is a hex
// digest or a fixed name; nothing the caller passes (output names included)
// ever becomes part of a path.
//
// Failure model: nothing here throws or aborts on a cache fault. A corrupt,
// truncated, foreign or unreadable entry is a miss (corrupt ones are removed);
// a failed write (read-only folder, full disk, permission denied) returns
// false. Either way one line goes to the LogSink, and the caller carries on.
// Many processes may use one root at once: writes go to a temp file in the
// target folder and are renamed into place, and every read verifies digests,
// so no reader ever sees a partial or foreign entry. No lock is needed for
// correctness; gc takes an flock only to avoid two collectors racing.
//
// A Store may be used from several threads at once.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache/entry.h"
#include "cache/key.h"
#include "cache/remote/remote.h"

namespace cache {

enum class LogLevel { Debug, Info, Warning };
// Receives the store's log lines (no trailing newline). The driver forwards
// them to spdlog; tests collect them. May be empty (no logging).
using LogSink = std::function<void(LogLevel level, std::string_view message)>;

// Looks an environment variable up: its value, or nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;

constexpr std::uint64_t kDefaultMaxSize = std::uint64_t{2} << 30;  // 2 GiB

// The cache folder: $PYKC_CACHE_DIR, else $XDG_CACHE_HOME/pykc (when absolute),
// else $HOME/.cache/pykc; empty values count as unset. nullopt when none of
// them is set (the caller then runs without a cache).
std::optional<std::string> resolveCacheDir(const EnvLookup& env);

// Parses a size such as `500000`, `64K`, `512M`, `2G`, `1T` (powers of 1024;
// case-insensitive; an optional `B` or `iB` after the suffix; `0` = no limit).
// nullopt when malformed or out of range.
std::optional<std::uint64_t> parseSize(std::string_view text);
// `1.5 MiB`, `512 B`.
std::string formatSize(std::uint64_t bytes);

struct StoreOptions {
  // The cache folder; created (with parents) on the first write.
  std::string root;
  // Upper bound on the bytes of entry files; 0 = no limit. Enforced
  // approximately: a put that takes the estimate over it runs gc.
  std::uint64_t maxSize = kDefaultMaxSize;
  // fsync each file before renaming it into place. Off by default: every read
  // verifies digests, so a file torn by a power loss is a miss, not a wrong
  // hit; fsync would only make entries survive crashes at several ms a write.
  bool syncWrites = false;
  // Run gc from put() when the size estimate passes maxSize.
  bool autoGc = true;
  LogSink log;
  // Remote levels after the folder, in order (docs/CACHE.md, "Remote
  // storage"). A local miss asks each usable one; a verified remote hit is
  // written back to the folder. put() also uploads to every read-write one.
  std::vector<RemoteSpec> remotes;
};

// One output of an action, as the caller stores and gets it.
struct NamedOutput {
  std::string name;
  std::string bytes;
  friend bool operator==(const NamedOutput&, const NamedOutput&) = default;
};

// Event counters, persisted in <root>/stats.
struct Counters {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t writes = 0;
  std::uint64_t evictions = 0;
  std::uint64_t errors = 0;
  // Estimated bytes of entry files (exact after gc, clear and verify).
  std::uint64_t bytes = 0;
  // Lookups a remote served after a local miss (not in `hits`; `misses`
  // counts lookups that no level served).
  std::uint64_t remoteHits = 0;
  // Remote lookups that found nothing, one per remote asked.
  std::uint64_t remoteMisses = 0;
  // Remote faults: timeouts, refused connections, garbage answers, entries
  // that fail verification, failed uploads.
  std::uint64_t remoteErrors = 0;
  // Entries uploaded to a remote (one per remote).
  std::uint64_t remoteWrites = 0;
};

// Where a get() found its entry.
struct GetInfo {
  // Empty: the cache folder; else the remote's URL (as given).
  std::string remote;
};

// What a scan of the folder finds.
struct Usage {
  std::uint64_t records = 0;
  std::uint64_t blobs = 0;
  // Bytes of all record and blob files (file sizes, not disk blocks).
  std::uint64_t bytes = 0;
  // Temp files left by writers in progress or killed.
  std::uint64_t tempFiles = 0;
  // Files in ac/ or cas/ whose names are not entries (left alone).
  std::uint64_t foreignFiles = 0;
};

struct EntryInfo {
  Key key;
  std::vector<OutputRef> outputs;
  // Bytes of the record file plus the blob files it names that exist.
  std::uint64_t bytes = 0;
  // Last use (put or hit), seconds since the epoch: the record's mtime.
  std::int64_t lastUse = 0;
  // Outputs whose blob file is missing.
  std::uint64_t missingBlobs = 0;
};

struct VerifyReport {
  std::uint64_t recordsOk = 0;
  std::uint64_t blobsOk = 0;
  // Blobs no record names (gc removes them once older than a grace period).
  std::uint64_t orphanBlobs = 0;
  // One line per problem: corrupt, foreign-named or dangling entries.
  std::vector<std::string> problems;
  // Entries removed because of problems (only with fix).
  std::uint64_t removed = 0;
};

struct GcReport {
  // False when another gc held the lock past the timeout.
  bool ran = false;
  std::uint64_t bytesBefore = 0;
  std::uint64_t bytesAfter = 0;
  std::uint64_t recordsEvicted = 0;
  std::uint64_t blobsRemoved = 0;
  // Corrupt or dangling records, orphan blobs and stale temp files removed.
  std::uint64_t junkRemoved = 0;
};

struct ClearReport {
  std::uint64_t filesRemoved = 0;
  std::uint64_t failures = 0;
};

// Export or import of a single-file archive (docs/CACHE.md, "Archives").
struct ArchiveReport {
  bool ok = false;
  // Why it failed (with ok == false): a sentence for `pykc: error:`.
  std::string error;
  std::uint64_t records = 0;
  std::uint64_t blobs = 0;
  std::uint64_t bytes = 0;
  // Export: entries left out because they were corrupt or incomplete.
  std::uint64_t skipped = 0;
};

class Store {
public:
  explicit Store(StoreOptions options);
  // Flushes the counters (flushStats).
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& root() const { return options_.root; }
  const StoreOptions& options() const { return options_; }

  // The outputs stored for `key`, in the order they were put, each verified
  // against its digest; nullopt on a miss or any fault. Refreshes the
  // entry's last use. Counts a hit or a miss.
  // After a local miss each usable remote is asked in order; a remote entry
  // is used only when its record and every blob verify, and is then written
  // to the folder. `info`, when given, says which level served the hit.
  std::optional<std::vector<NamedOutput>> get(const Key& key, GetInfo* info = nullptr);
  // Stores `outputs` for `key`: blobs first, then the record, so a record is
  // never visible before its blobs. Names must be valid (isValidOutputName)
  // and distinct. Returns false (and logs) on any failure; a failed put
  // leaves no partial entry. Replaces an existing record for `key`. Then
  // uploads the entry (blobs, then record) to each usable read-write remote;
  // a remote failure is logged and counted, never returned.
  bool put(const Key& key, const std::vector<NamedOutput>& outputs);

  // Uploads the entry `key` -> `outputs` (a local hit's) to each usable
  // read-write remote that has no intact record for `key`: one GET per
  // remote, plus the upload where needed. For populate, so that entries a
  // machine already had still reach the shared remote. Counts remote writes.
  void share(const Key& key, const std::vector<NamedOutput>& outputs);

  // The verified record for `key`, or nullopt. Does not count or touch.
  std::optional<ActionRecord> getRecord(const Key& key);
  // The verified content of blob `digest`, or nullopt.
  std::optional<std::string> getBlob(const Digest& digest);
  // Stores `content` under its digest. An existing blob file is read and
  // verified first: kept (and its use time refreshed) when intact, replaced
  // atomically (temp file, rename) when damaged, with a logged fault.
  std::optional<Digest> putBlob(std::string_view content);
  // Stores `record` (its blobs should already be stored).
  bool putRecord(const ActionRecord& record);

  // Persisted counters plus this Store's unflushed ones.
  Counters counters();
  // Adds this Store's counters to <root>/stats (temp file + rename under a
  // short flock; if the lock is busy for 100 ms, writes anyway: a lost update
  // is possible, a torn file is not). Called by the destructor.
  void flushStats();
  // Zeroes the persisted counters.
  bool zeroStats();

  // Scans the folder.
  Usage usage();
  // Every record that decodes, most recently used first (ties by key).
  std::vector<EntryInfo> list();
  // The record whose key is `keyOrPrefix` (at least 4 hex digits); nullopt
  // with `why` when there is none, or more than one matches.
  std::optional<EntryInfo> find(std::string_view keyOrPrefix, std::string* why);
  // Reads and checks every entry. With `fix`, removes corrupt entries and
  // records whose blobs are missing.
  VerifyReport verify(bool fix);
  // Evicts least recently used records (and the blobs no other record needs)
  // until the entries fit in 90% of `maxSize` (0 = no limit: only junk is
  // removed). Waits up to `lockTimeoutMs` for another gc to finish.
  GcReport gc(std::uint64_t maxSize, int lockTimeoutMs);
  // Removes every entry and temp file (never foreign files).
  ClearReport clear();

  // Writes every intact entry to the archive `path` (temp file + rename).
  ArchiveReport exportArchive(const std::string& path);
  // Verifies the whole archive (its digest, every entry, every record's
  // blobs present), and only then adds its entries, blobs first.
  ArchiveReport importArchive(const std::string& path);

private:
  void log(LogLevel level, const std::string& message) const;
  void fault(const std::string& message);
  bool writeEntryFile(const std::string& path, std::string_view bytes);
  std::uint64_t sizeEstimate();
  GcReport collect(std::uint64_t maxSize, int lockTimeoutMs, const Key* keep);
  std::optional<std::vector<NamedOutput>> getLocal(const Key& key, std::string* why);
  // The remote tiers (store_tiers.cpp).
  std::optional<std::vector<NamedOutput>> getFromRemotes(const Key& key, GetInfo* info);
  std::optional<std::vector<NamedOutput>> getRemote(Remote& remote, const Key& key);
  void uploadToWritable(const ActionRecord& record, const std::vector<NamedOutput>& outputs);
  void upload(const Key& key, const std::vector<std::pair<Digest, std::string>>& blobFiles,
              const std::string& recordFile, const std::vector<Remote*>& to);
  void remoteFault(Remote& remote, const std::string& message);

  StoreOptions options_;
  std::atomic<std::uint64_t> hits_{0}, misses_{0}, writes_{0}, evictions_{0}, errors_{0};
  std::atomic<std::uint64_t> remoteHits_{0}, remoteMisses_{0}, remoteErrors_{0}, remoteWrites_{0};
  std::vector<std::unique_ptr<Remote>> remotes_;
  std::atomic<std::int64_t> bytesDelta_{0};
  std::atomic<bool> warnedWrite_{false};
  std::mutex estimateMutex_;
  std::optional<std::uint64_t> persistedBytes_;
};

}  // namespace cache
