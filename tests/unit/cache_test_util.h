#pragma once
// Shared helpers of the cache GoogleTests: temp folders, a log collector.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "cache/store.h"

namespace cache_test {

// A fresh folder under $TMPDIR (or /tmp), removed with its contents at the end.
class TempDir {
public:
  explicit TempDir(const std::string& suffix = "") {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/pykc-cache-test.XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    char* made = ::mkdtemp(buf.data());
    EXPECT_NE(made, nullptr);
    path_ = std::string(made ? made : "/nonexistent");
    if (!suffix.empty()) {
      path_ += "/" + suffix;
      std::filesystem::create_directories(path_);
    }
    top_ = made ? made : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!top_.empty()) std::filesystem::remove_all(top_, ec);
  }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

private:
  std::string path_;
  std::string top_;
};

// Collects log lines; thread-safe.
struct LogLines {
  std::mutex mutex;
  std::vector<std::string> lines;
  cache::LogSink sink() {
    return [this](cache::LogLevel, std::string_view m) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.emplace_back(m);
    };
  }
  bool contains(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const std::string& l : lines) {
      if (l.find(text) != std::string::npos) return true;
    }
    return false;
  }
};

inline std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void writeAll(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

inline bool exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

// Every regular file under `root`, relative paths.
inline std::vector<std::string> filesUnder(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file()) {
      out.push_back(std::filesystem::relative(it->path(), root).string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Deterministic pseudo-random bytes.
inline std::string bytesFor(const std::string& seed, std::size_t size) {
  std::string out;
  out.reserve(size);
  // FNV-1a of the seed (fixed, unlike std::hash), then xorshift.
  std::uint64_t x = 1469598103934665603ull;
  for (unsigned char c : seed) x = (x ^ c) * 1099511628211ull;
  x |= 1;
  while (out.size() < size) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    out.push_back(static_cast<char>(x & 0xff));
  }
  return out;
}

inline cache::Key keyFor(const std::string& name) {
  cache::KeyBuilder b;
  b.add("test", name);
  return b.key();
}

}  // namespace cache_test
