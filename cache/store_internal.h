#pragma once
// Folder-private helpers of cache/: POSIX file access that never throws and
// reports errors as text. Not for use outside cache/ (tests excepted).
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache/key.h"

#include "cache/atomic_file.h"

namespace cache {
struct Counters;
}

namespace cache::detail {

constexpr std::string_view kRecordDir = "ac";
constexpr std::string_view kBlobDir = "cas";
constexpr std::string_view kStatsFile = "stats";
constexpr std::string_view kStatsLock = "stats.lock";
constexpr std::string_view kGcLock = "gc.lock";
constexpr std::string_view kTempPrefix = ".tmp.";
// Temp files older than this belong to killed writers; gc removes them.
constexpr std::int64_t kStaleTempSeconds = 3600;
// Blobs no record names are kept this long (a put writes its blobs, then its
// record), then gc removes them.
constexpr std::int64_t kOrphanGraceSeconds = 600;
constexpr std::uint64_t kMaxRecordFileBytes = std::uint64_t{4} << 20;
constexpr std::uint64_t kMaxBlobFileBytes = std::uint64_t{1} << 30;

// `root/name`.
inline std::string joinPath(const std::string& root, std::string_view name) {
  std::string p = root;
  p += '/';
  p += name;
  return p;
}

// `<root>/<dir>/ab/cdef...` for the digest `abcdef...`.
std::string entryPath(const std::string& root, std::string_view dir, const Digest& digest);

enum class ReadStatus { Ok, Missing, Error };

struct FileRead {
  ReadStatus status = ReadStatus::Missing;
  std::string data;
  // With Error: what went wrong, e.g. `cannot read `...`: Permission denied`.
  std::string error;
  std::int64_t mtime = 0;
  dev_t dev = 0;
  ino_t ino = 0;
};

// Reads a regular file (not following a final symlink) of at most `maxBytes`.
// With `touch`, sets its mtime to now (failure to do so is ignored: a
// read-only cache still serves hits).
FileRead readFile(const std::string& path, std::uint64_t maxBytes, bool touch);

// writeFileAtomic (cache/atomic_file.h), under the name the store's code uses.
using cache::writeFileAtomic;

// Unlinks `path` if it is still the file (dev, ino) that was read, so that a
// good entry renamed over a corrupt one in the meantime survives.
bool removeIfSame(const std::string& path, dev_t dev, ino_t ino);

struct DirEntry {
  std::string name;
  bool isDir = false;
};
// The entries of folder `path` (without . and ..); empty when it does not
// exist; nullopt with `error` when it cannot be read.
std::optional<std::vector<DirEntry>> listDir(const std::string& path, std::string* error);

struct FileStat {
  std::uint64_t size = 0;
  std::int64_t mtime = 0;
  // Nanoseconds since the epoch, to order entries written in one second.
  std::int64_t mtimeNs = 0;
  bool regular = false;
};
std::optional<FileStat> statFile(const std::string& path);

// `abcdef...` from the folder `ab` and the file `cdef...` when both are hex
// of the right length (lower case), else nullopt.
std::optional<Digest> digestFromNames(std::string_view folder, std::string_view file);
bool isTwoHex(std::string_view name);

// An flock on a lock file, released when destroyed.
class FileLock {
public:
  // Waits up to `timeoutMs` (0: one try). nullopt when another process holds
  // it; a lock that holds nothing when no lock file can be opened.
  static std::optional<FileLock> acquire(const std::string& path, int timeoutMs);
  FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileLock& operator=(FileLock&&) = delete;
  ~FileLock();

private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_;
};

std::int64_t nowSeconds();

// Applies `change` to the persisted counters (<root>/stats): read, change,
// write a temp file, rename; under a short flock so concurrent updates are
// rarely lost. Never creates the cache folder unless `create`.
bool updateStats(const std::string& root, const std::function<void(Counters&)>& change,
                 std::string* error, bool create = false);

}  // namespace cache::detail
