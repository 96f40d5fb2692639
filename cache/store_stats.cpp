// The persisted counters (<root>/stats, checksummed) and the size estimate
// that drives automatic gc.
#include "cache/store.h"

#include <charconv>
#include <functional>
#include <map>

#include "cache/store_internal.h"

namespace cache {

using namespace detail;

namespace {

constexpr std::string_view kStatsMagic = "pykc-cache-stats 1";

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

}  // namespace

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

namespace detail {

bool updateStats(const std::string& root, const std::function<void(Counters&)>& change,
                 std::string* error, bool create) {
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

}  // namespace detail

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

}  // namespace cache
