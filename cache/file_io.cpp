// POSIX file access for the store (store_internal.h).
#include "cache/store_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace cache::detail {
namespace {

std::string errnoText(const char* what, const std::string& path, int err) {
  return std::string("cannot ") + what + " `" + path + "`: " + std::strerror(err);
}

std::string parentOf(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// mkdir -p; true when the folder exists afterwards.
bool makeDirs(const std::string& path, std::string* error) {
  if (::mkdir(path.c_str(), 0777) == 0 || errno == EEXIST) return true;
  if (errno != ENOENT) {
    *error = errnoText("create folder", path, errno);
    return false;
  }
  std::string parent = parentOf(path);
  if (parent == path || !makeDirs(parent, error)) return false;
  if (::mkdir(path.c_str(), 0777) == 0 || errno == EEXIST) return true;
  *error = errnoText("create folder", path, errno);
  return false;
}

bool writeAll(int fd, std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string tempName(const std::string& path) {
  // pid + 64 random bits: unique across processes and threads. getrandom(2)
  // directly: std::random_device's set-up runs cpuid, which traps (tens of
  // microseconds) in a virtual machine.
  std::uint64_t r = 0;
  if (::getrandom(&r, sizeof r, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof r)) {
    // O_EXCL still keeps a clash from clobbering anything: it fails the put.
    r = static_cast<std::uint64_t>(
            std::chrono::steady_clock::now().time_since_epoch().count()) ^
        reinterpret_cast<std::uintptr_t>(&r);
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%ld.%016llx", static_cast<long>(::getpid()),
                static_cast<unsigned long long>(r));
  return parentOf(path) + "/" + std::string(kTempPrefix) + buf;
}

}  // namespace

std::int64_t nowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string entryPath(const std::string& root, std::string_view dir, const Digest& digest) {
  std::string hex = digest.hex();
  std::string path = root;
  path += '/';
  path += dir;
  path += '/';
  path.append(hex, 0, 2);
  path += '/';
  path.append(hex, 2, std::string::npos);
  return path;
}

FileRead readFile(const std::string& path, std::uint64_t maxBytes, bool touch) {
  FileRead r;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      r.status = ReadStatus::Missing;
    } else {
      r.status = ReadStatus::Error;
      r.error = errnoText("open", path, errno);
    }
    return r;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    r.status = ReadStatus::Error;
    r.error = errnoText("stat", path, errno);
    ::close(fd);
    return r;
  }
  if (!S_ISREG(st.st_mode)) {
    r.status = ReadStatus::Error;
    r.error = "`" + path + "` is not a regular file";
    ::close(fd);
    return r;
  }
  if (static_cast<std::uint64_t>(st.st_size) > maxBytes) {
    r.status = ReadStatus::Error;
    r.error = "`" + path + "` is too large for a cache entry";
    ::close(fd);
    return r;
  }
  r.dev = st.st_dev;
  r.ino = st.st_ino;
  r.mtime = st.st_mtim.tv_sec;
  r.data.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < r.data.size()) {
    ssize_t n = ::read(fd, r.data.data() + got, r.data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      r.status = ReadStatus::Error;
      r.error = errnoText("read", path, errno);
      ::close(fd);
      return r;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  // A file that shrank under us reads short; the decoder sees the truncation.
  r.data.resize(got);
  if (touch) {
    // Best effort: a read-only cache still serves hits.
    (void)::futimens(fd, nullptr);
  }
  ::close(fd);
  r.status = ReadStatus::Ok;
  return r;
}


bool removeIfSame(const std::string& path, dev_t dev, ino_t ino) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return false;
  if (st.st_dev != dev || st.st_ino != ino) return false;
  return ::unlink(path.c_str()) == 0;
}

std::optional<std::vector<DirEntry>> listDir(const std::string& path, std::string* error) {
  std::vector<DirEntry> entries;
  DIR* dir = ::opendir(path.c_str());
  if (!dir) {
    if (errno == ENOENT) return entries;
    if (error) *error = errnoText("read folder", path, errno);
    return std::nullopt;
  }
  while (struct dirent* e = ::readdir(dir)) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    bool isDir = e->d_type == DT_DIR;
    if (e->d_type == DT_UNKNOWN) {
      struct stat st;
      std::string full = path + "/" + std::string(name);
      isDir = ::lstat(full.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    }
    entries.push_back(DirEntry{std::string(name), isDir});
  }
  ::closedir(dir);
  return entries;
}

std::optional<FileStat> statFile(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
  return FileStat{static_cast<std::uint64_t>(st.st_size), st.st_mtim.tv_sec,
                  st.st_mtim.tv_sec * std::int64_t{1000000000} + st.st_mtim.tv_nsec,
                  S_ISREG(st.st_mode)};
}

bool isTwoHex(std::string_view name) {
  auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  return name.size() == 2 && hex(name[0]) && hex(name[1]);
}

std::optional<Digest> digestFromNames(std::string_view folder, std::string_view file) {
  if (!isTwoHex(folder) || file.size() != 2 * kDigestBytes - 2) return std::nullopt;
  for (char c : file) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
  }
  std::string hex(folder);
  hex += file;
  return Digest::fromHex(hex);
}

std::optional<FileLock> FileLock::acquire(const std::string& path, int timeoutMs) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    // No lock file can exist here (a read-only folder): the lock only keeps
    // two collectors apart, and such a folder cannot be collected anyway.
    return FileLock(-1);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if ((errno != EWOULDBLOCK && errno != EINTR) ||
        std::chrono::steady_clock::now() >= deadline) {
      ::close(fd);
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return FileLock(fd);
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace cache::detail

namespace cache {

bool writeFileAtomic(const std::string& path, std::string_view bytes, bool sync,
                     std::string* error) {
  std::string temp = detail::tempName(path);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0 && errno == ENOENT) {
    if (!detail::makeDirs(detail::parentOf(path), error)) return false;
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  }
  if (fd < 0) {
    *error = detail::errnoText("create", temp, errno);
    return false;
  }
  bool ok = detail::writeAll(fd, bytes);
  int err = errno;
  if (ok && sync && ::fsync(fd) != 0) {
    ok = false;
    err = errno;
  }
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    *error = detail::errnoText("write", temp, err);
    ::unlink(temp.c_str());
    return false;
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    *error = detail::errnoText("rename into", path, errno);
    ::unlink(temp.c_str());
    return false;
  }
  return true;
}

}  // namespace cache
