// The store: round trips, layout, corrupt/foreign/truncated entries, LRU
// eviction, counters, location and size parsing, verify, clear.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <map>

#include "cache/entry.h"
#include "cache/store.h"
#include "cache/store_internal.h"
#include "tests/unit/cache_test_util.h"

namespace {

using cache::Key;
using cache::NamedOutput;
using cache::Store;
using cache::StoreOptions;
using namespace cache_test;

StoreOptions optionsFor(const std::string& root, LogLines* log = nullptr) {
  StoreOptions o;
  o.root = root;
  if (log) o.log = log->sink();
  return o;
}

std::vector<NamedOutput> outputsFor(const std::string& seed, std::size_t size = 1000) {
  return {{"cubin", bytesFor(seed + ".cubin", size)},
          {"ptx", bytesFor(seed + ".ptx", size / 2)},
          {"manifest.json", "{\"kernel\": \"" + seed + "\"}"}};
}

std::string recordPath(const std::string& root, const Key& k) {
  return cache::detail::entryPath(root, "ac", k.digest);
}
std::string blobPath(const std::string& root, const std::string& content) {
  return cache::detail::entryPath(root, "cas", cache::Digest::of(content));
}

void setMtime(const std::string& path, std::int64_t seconds) {
  struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

TEST(CacheLocation, EnvironmentOrder) {
  auto env = [](std::map<std::string, std::string> vars) {
    return [vars](std::string_view name) -> std::optional<std::string> {
      auto it = vars.find(std::string(name));
      if (it == vars.end()) return std::nullopt;
      return it->second;
    };
  };
  EXPECT_EQ(cache::resolveCacheDir(env({{"PYKC_CACHE_DIR", "/c"}, {"XDG_CACHE_HOME", "/x"},
                                        {"HOME", "/h"}})),
            "/c");
  EXPECT_EQ(cache::resolveCacheDir(env({{"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}})), "/x/pykc");
  EXPECT_EQ(cache::resolveCacheDir(env({{"HOME", "/h"}})), "/h/.cache/pykc");
  // Empty counts as unset; a relative XDG_CACHE_HOME is ignored (XDG spec).
  EXPECT_EQ(cache::resolveCacheDir(env({{"PYKC_CACHE_DIR", ""}, {"HOME", "/h"}})),
            "/h/.cache/pykc");
  EXPECT_EQ(cache::resolveCacheDir(env({{"XDG_CACHE_HOME", "rel"}, {"HOME", "/h"}})),
            "/h/.cache/pykc");
  EXPECT_EQ(cache::resolveCacheDir(env({})), std::nullopt);
}

TEST(CacheLocation, ParseSize) {
  EXPECT_EQ(cache::parseSize("0"), 0u);
  EXPECT_EQ(cache::parseSize("123"), 123u);
  EXPECT_EQ(cache::parseSize("64K"), 64u << 10);
  EXPECT_EQ(cache::parseSize("64k"), 64u << 10);
  EXPECT_EQ(cache::parseSize("512M"), 512u << 20);
  EXPECT_EQ(cache::parseSize("512MiB"), 512u << 20);
  EXPECT_EQ(cache::parseSize("512MB"), 512u << 20);
  EXPECT_EQ(cache::parseSize("2G"), std::uint64_t{2} << 30);
  EXPECT_EQ(cache::parseSize("1T"), std::uint64_t{1} << 40);
  EXPECT_EQ(cache::parseSize("100B"), 100u);
  EXPECT_FALSE(cache::parseSize(""));
  EXPECT_FALSE(cache::parseSize("G"));
  EXPECT_FALSE(cache::parseSize("-1"));
  EXPECT_FALSE(cache::parseSize("1.5G"));
  EXPECT_FALSE(cache::parseSize("10X"));
  EXPECT_FALSE(cache::parseSize("10 G"));
  EXPECT_FALSE(cache::parseSize("99999999999999999999"));
  EXPECT_FALSE(cache::parseSize("99999999999T"));
  EXPECT_EQ(cache::formatSize(512), "512 B");
  EXPECT_EQ(cache::formatSize(1536), "1.5 KiB");
}

TEST(CacheStore, PutGetRoundTrip) {
  TempDir dir;
  Store store(optionsFor(dir.path()));
  Key k = keyFor("saxpy");
  EXPECT_FALSE(store.get(k));
  auto outputs = outputsFor("saxpy");
  outputs.push_back({"empty", ""});
  ASSERT_TRUE(store.put(k, outputs));
  auto got = store.get(k);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, outputs);
  // Replacing an entry works too.
  auto other = outputsFor("other");
  ASSERT_TRUE(store.put(k, other));
  EXPECT_EQ(store.get(k), other);
  cache::Counters c = store.counters();
  EXPECT_EQ(c.hits, 2u);
  EXPECT_EQ(c.misses, 1u);
  EXPECT_EQ(c.writes, 2u);
  EXPECT_EQ(c.errors, 0u);
}

TEST(CacheStore, LayoutHasOnlyHexPaths) {
  TempDir dir;
  Store store(optionsFor(dir.path()));
  Key k = keyFor("escape");
  // Output names are data, never paths.
  std::vector<NamedOutput> outputs = {{"../../../etc/passwd", "x"}, {"/abs/olute", "y"},
                                      {"k\xc3\xa9rnel name", "z"}};
  ASSERT_TRUE(store.put(k, outputs));
  EXPECT_EQ(store.get(k), outputs);
  std::vector<std::string> files = filesUnder(dir.path());
  for (const std::string& f : files) {
    bool ok = f == "CACHEDIR.TAG" || f == "stats" || f == "stats.lock" ||
              ((f.rfind("ac/", 0) == 0 || f.rfind("cas/", 0) == 0) &&
               f.find_first_not_of("0123456789abcdef/acs") == std::string::npos);
    EXPECT_TRUE(ok) << f;
  }
  EXPECT_TRUE(exists(recordPath(dir.path(), k)));
  EXPECT_TRUE(exists(blobPath(dir.path(), "x")));
  EXPECT_FALSE(exists(dir.path() + "/../etc/passwd"));
  // Invalid names are refused, softly.
  EXPECT_FALSE(store.put(keyFor("bad"), {{"a\nb", "x"}}));
  EXPECT_FALSE(store.put(keyFor("bad"), {{"", "x"}}));
  EXPECT_FALSE(store.put(keyFor("dup"), {{"a", "x"}, {"a", "y"}}));
}

TEST(CacheStore, SameInputsSameFiles) {
  TempDir a, b;
  {
    Store sa(optionsFor(a.path()));
    Store sb(optionsFor(b.path()));
    ASSERT_TRUE(sa.put(keyFor("k"), outputsFor("k")));
    ASSERT_TRUE(sb.put(keyFor("k"), outputsFor("k")));
  }
  for (const std::string& f : filesUnder(a.path())) {
    if (f == "stats" || f == "stats.lock") continue;
    EXPECT_EQ(readAll(a / f), readAll(b / f)) << f;
  }
}

TEST(CacheStore, PathsWithSpacesAndNonAscii) {
  TempDir dir("my cache/\xe7\xbc\x93\xe5\xad\x98 \xc3\xbc dir");
  LogLines log;
  Store store(optionsFor(dir.path() + "/sub folder", &log));
  ASSERT_TRUE(store.put(keyFor("k"), outputsFor("k")));
  EXPECT_EQ(store.get(keyFor("k")), outputsFor("k"));
  EXPECT_EQ(store.verify(false).problems.size(), 0u);
  EXPECT_EQ(store.list().size(), 1u);
}

TEST(CacheStore, CorruptBlobIsMissAndRemoved) {
  TempDir dir;
  LogLines log;
  Store store(optionsFor(dir.path(), &log));
  Key k = keyFor("k");
  auto outputs = outputsFor("k");
  ASSERT_TRUE(store.put(k, outputs));
  std::string path = blobPath(dir.path(), outputs[0].bytes);
  std::string data = readAll(path);
  data[data.size() / 2] ^= 0x01;
  writeAll(path, data);
  EXPECT_FALSE(store.get(k));
  EXPECT_FALSE(exists(path));
  EXPECT_TRUE(log.contains("corrupt blob"));
  // The record that needed it is gone as well, and a new put heals it.
  EXPECT_FALSE(exists(recordPath(dir.path(), k)));
  ASSERT_TRUE(store.put(k, outputs));
  EXPECT_EQ(store.get(k), outputs);
  EXPECT_GE(store.counters().errors, 1u);
}

// Two damaged blobs of one entry: the get trips on the first and removes it
// with the record; the put that follows must not trust the second just
// because its size is right, or the next get misses again.
TEST(CacheStore, PutReplacesEveryDamagedBlob) {
  TempDir dir;
  LogLines log;
  Store store(optionsFor(dir.path(), &log));
  Key k = keyFor("k");
  auto outputs = outputsFor("k");
  ASSERT_TRUE(store.put(k, outputs));
  for (int i : {0, 1}) {
    std::string path = blobPath(dir.path(), outputs[i].bytes);
    std::string data = readAll(path);
    data[data.size() - 1] ^= 0x40;  // same size, wrong content
    writeAll(path, data);
  }
  EXPECT_FALSE(store.get(k));
  ASSERT_TRUE(store.put(k, outputs));
  EXPECT_TRUE(log.contains("replacing damaged blob " + cache::Digest::of(outputs[1].bytes).hex()));
  EXPECT_EQ(store.get(k), outputs);
  EXPECT_TRUE(store.verify(false).problems.empty());
}

// putBlob on an existing blob: intact is kept (the same inode, no fault),
// damaged in any way is replaced by a new file renamed into place.
TEST(CacheStore, PutBlobVerifiesAnExistingBlob) {
  TempDir dir;
  LogLines log;
  Store store(optionsFor(dir.path(), &log));
  const std::string content = bytesFor("blob", 5000);
  const cache::Digest digest = cache::Digest::of(content);
  std::string path = blobPath(dir.path(), content);
  ASSERT_EQ(store.putBlob(content), digest);
  const std::string good = readAll(path);
  auto inode = [&] {
    struct stat st;
    EXPECT_EQ(::lstat(path.c_str(), &st), 0);
    return st.st_ino;
  };

  // Intact: kept as is, its use time refreshed.
  setMtime(path, 1000000000);
  ino_t before = inode();
  ASSERT_EQ(store.putBlob(content), digest);
  EXPECT_EQ(inode(), before);
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_GT(st.st_mtime, 1000000000);
  EXPECT_EQ(store.counters().errors, 0u);

  std::string flippedPayload = good;
  flippedPayload[good.size() / 2] ^= 0x01;
  std::string flippedHeader = good;
  flippedHeader[20] ^= 0x01;  // the name field
  std::string zeros(good.size(), '\0');  // a torn write after a power loss
  const std::vector<std::pair<const char*, std::string>> damages = {
      {"flipped payload bit", flippedPayload},
      {"flipped header bit", flippedHeader},
      {"zeros", zeros},
      {"truncated", good.substr(0, good.size() - 1)},
      {"empty", ""},
      {"longer", good + "x"},
  };
  std::uint64_t errors = 0;
  for (const auto& [what, bytes] : damages) {
    writeAll(path, bytes);
    ino_t damaged = inode();
    ASSERT_EQ(store.putBlob(content), digest) << what;
    EXPECT_TRUE(readAll(path) == good) << what;
    EXPECT_NE(inode(), damaged) << what << ": replaced by a rename, not rewritten in place";
    EXPECT_EQ(store.counters().errors, ++errors) << what;
  }
  EXPECT_TRUE(log.contains("replacing damaged blob " + digest.hex()));

  // A symlink in the blob's place is replaced itself; its target is untouched.
  std::string target = dir.path() + "/elsewhere";
  writeAll(target, good);
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ASSERT_EQ(::symlink(target.c_str(), path.c_str()), 0);
  ASSERT_EQ(store.putBlob(content), digest);
  ASSERT_EQ(::lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_TRUE(readAll(path) == good);
  EXPECT_TRUE(readAll(target) == good);
  EXPECT_EQ(store.getBlob(digest), content);
  // No temp files left behind.
  for (const std::string& f : filesUnder(dir.path())) {
    EXPECT_EQ(f.find(".tmp."), std::string::npos) << f;
  }
}

TEST(CacheStore, EveryFlippedHeaderByteIsCaught) {
  TempDir dir;
  Store store(optionsFor(dir.path()));
  Key k = keyFor("k");
  auto outputs = outputsFor("k", 200);
  ASSERT_TRUE(store.put(k, outputs));
  std::string rpath = recordPath(dir.path(), k);
  std::string bpath = blobPath(dir.path(), outputs[0].bytes);
  const std::string record = readAll(rpath);
  const std::string blob = readAll(bpath);
  for (std::size_t i = 0; i < record.size(); ++i) {
    std::string bad = record;
    bad[i] ^= 0x20;
    writeAll(rpath, bad);
    EXPECT_FALSE(store.get(k)) << "record byte " << i;
    writeAll(rpath, record);
    writeAll(bpath, blob);
  }
  for (std::size_t i = 0; i < cache::kEntryHeaderBytes + 8; ++i) {
    std::string bad = blob;
    bad[i] ^= 0x20;
    writeAll(bpath, bad);
    writeAll(rpath, record);
    EXPECT_FALSE(store.get(k)) << "blob byte " << i;
  }
  writeAll(bpath, blob);
  writeAll(rpath, record);
  EXPECT_EQ(store.get(k), outputs);
}

TEST(CacheStore, TruncatedRecordIsMissAndRemoved) {
  TempDir dir;
  LogLines log;
  Store store(optionsFor(dir.path(), &log));
  Key k = keyFor("k");
  ASSERT_TRUE(store.put(k, outputsFor("k")));
  std::string path = recordPath(dir.path(), k);
  std::string data = readAll(path);
  for (std::size_t keep : {std::size_t{0}, std::size_t{10}, cache::kEntryHeaderBytes,
                           data.size() - 1}) {
    writeAll(path, data.substr(0, keep));
    EXPECT_FALSE(store.get(k)) << keep;
    EXPECT_FALSE(exists(path)) << keep;
  }
  EXPECT_TRUE(log.contains("corrupt record"));
}

TEST(CacheStore, ForeignRecordIsMiss) {
  TempDir dir;
  LogLines log;
  Store store(optionsFor(dir.path(), &log));
  Key a = keyFor("a"), b = keyFor("b");
  ASSERT_TRUE(store.put(a, outputsFor("a")));
  // A's intact record copied to B's place: it names A, so B must miss.
  std::string bpath = recordPath(dir.path(), b);
  std::filesystem::create_directories(std::filesystem::path(bpath).parent_path());
  writeAll(bpath, readAll(recordPath(dir.path(), a)));
  EXPECT_FALSE(store.get(b));
  EXPECT_FALSE(exists(bpath));
  EXPECT_TRUE(log.contains("entry names " + a.hex()));
  EXPECT_EQ(store.get(a), outputsFor("a"));
  // A blob file where a record belongs, and random bytes, are foreign too.
  writeAll(bpath, readAll(blobPath(dir.path(), outputsFor("a")[0].bytes)));
  EXPECT_FALSE(store.get(b));
  writeAll(bpath, "garbage, not an entry at all");
  EXPECT_FALSE(store.get(b));
  // A symlink is never followed.
  ASSERT_EQ(::symlink(recordPath(dir.path(), a).c_str(), bpath.c_str()), 0);
  EXPECT_FALSE(store.get(b));
}

TEST(CacheStore, MissingBlobIsMiss) {
  TempDir dir;
  Store store(optionsFor(dir.path()));
  Key k = keyFor("k");
  auto outputs = outputsFor("k");
  ASSERT_TRUE(store.put(k, outputs));
  ASSERT_EQ(::unlink(blobPath(dir.path(), outputs[1].bytes).c_str()), 0);
  EXPECT_FALSE(store.get(k));
  EXPECT_FALSE(exists(recordPath(dir.path(), k)));
}

TEST(CacheStore, EvictsLeastRecentlyUsed) {
  TempDir dir;
  StoreOptions o = optionsFor(dir.path());
  o.autoGc = false;
  Store store(o);
  std::vector<Key> keys;
  std::int64_t base = cache::detail::nowSeconds() - 100000;
  for (int i = 0; i < 10; ++i) {
    keys.push_back(keyFor("k" + std::to_string(i)));
    ASSERT_TRUE(store.put(keys.back(), {{"cubin", bytesFor("k" + std::to_string(i), 10000)}}));
    setMtime(recordPath(dir.path(), keys.back()), base + i);
    setMtime(blobPath(dir.path(), bytesFor("k" + std::to_string(i), 10000)), base + i);
  }
  // A hit makes k0 the most recently used.
  ASSERT_TRUE(store.get(keys[0]));
  std::uint64_t total = store.usage().bytes;
  std::uint64_t entry = total / 10;
  // Room for 5 entries: 90% of it holds 4.
  cache::GcReport r = store.gc(entry * 5 + entry / 2, 1000);
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.recordsEvicted, 6u);
  EXPECT_EQ(r.blobsRemoved, 6u);
  EXPECT_LE(r.bytesAfter, (entry * 5 + entry / 2) / 10 * 9);
  EXPECT_TRUE(store.get(keys[0]));
  for (int i = 1; i <= 6; ++i) EXPECT_FALSE(store.get(keys[i])) << i;
  for (int i = 7; i <= 9; ++i) EXPECT_TRUE(store.get(keys[i])) << i;
  EXPECT_EQ(store.counters().evictions, 6u);
  EXPECT_EQ(store.usage().bytes, r.bytesAfter);
}

TEST(CacheStore, SharedBlobSurvivesEvictionOfOneUser) {
  TempDir dir;
  StoreOptions o = optionsFor(dir.path());
  o.autoGc = false;
  Store store(o);
  std::string shared = bytesFor("shared", 5000);
  Key a = keyFor("a"), b = keyFor("b");
  std::string own = bytesFor("own", 5000);
  ASSERT_TRUE(store.put(a, {{"ptx", shared}, {"cubin", own}}));
  ASSERT_TRUE(store.put(b, {{"ptx", shared}, {"cubin", "b"}}));
  std::int64_t old = cache::detail::nowSeconds() - 5000;
  setMtime(recordPath(dir.path(), a), old);
  setMtime(blobPath(dir.path(), shared), old);
  setMtime(blobPath(dir.path(), own), old);
  setMtime(blobPath(dir.path(), "b"), old + 1);
  setMtime(recordPath(dir.path(), b), old + 1);
  cache::GcReport r = store.gc(store.usage().bytes - 1, 1000);
  EXPECT_EQ(r.recordsEvicted, 1u);
  EXPECT_EQ(r.blobsRemoved, 1u);
  EXPECT_FALSE(exists(blobPath(dir.path(), own)));
  EXPECT_TRUE(exists(blobPath(dir.path(), shared)));
  EXPECT_FALSE(store.get(a));
  EXPECT_TRUE(store.get(b));
}

TEST(CacheStore, AutoGcKeepsTheLimit) {
  TempDir dir;
  StoreOptions o = optionsFor(dir.path());
  o.maxSize = 100 * 1024;
  Store store(o);
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(store.put(keyFor(std::to_string(i)), {{"cubin", bytesFor(std::to_string(i), 10000)}}));
  }
  EXPECT_LE(store.usage().bytes, o.maxSize + 11000);
  EXPECT_GT(store.counters().evictions, 0u);
  // The latest entry is still there.
  EXPECT_TRUE(store.get(keyFor("39")));
}

TEST(CacheStore, CountersPersistAcrossProcesses) {
  TempDir dir;
  {
    Store s(optionsFor(dir.path()));
    ASSERT_TRUE(s.put(keyFor("k"), outputsFor("k")));
    EXPECT_TRUE(s.get(keyFor("k")));
    EXPECT_FALSE(s.get(keyFor("nope")));
  }
  {
    Store s(optionsFor(dir.path()));
    EXPECT_TRUE(s.get(keyFor("k")));
  }
  Store s(optionsFor(dir.path()));
  cache::Counters c = s.counters();
  EXPECT_EQ(c.hits, 2u);
  EXPECT_EQ(c.misses, 1u);
  EXPECT_EQ(c.writes, 1u);
  EXPECT_EQ(c.bytes, s.usage().bytes);
  // A damaged stats file is ignored (with a warning), then replaced.
  writeAll(dir / "stats", "pykc-cache-stats 1\nhits 99999\nchecksum 00\n");
  LogLines log;
  Store s2(optionsFor(dir.path(), &log));
  EXPECT_EQ(s2.counters().hits, 0u);
  EXPECT_TRUE(log.contains("damaged stats"));
  EXPECT_TRUE(s2.get(keyFor("k")));
  s2.flushStats();
  EXPECT_EQ(s2.counters().hits, 1u);
  EXPECT_TRUE(s2.zeroStats());
  EXPECT_EQ(s2.counters().hits, 0u);
}

TEST(CacheStore, VerifyFindsAndFixes) {
  TempDir dir;
  Store store(optionsFor(dir.path()));
  for (const char* n : {"a", "b", "c"}) ASSERT_TRUE(store.put(keyFor(n), outputsFor(n)));
  EXPECT_TRUE(store.verify(false).problems.empty());
  EXPECT_EQ(store.verify(false).recordsOk, 3u);
  std::string bpath = blobPath(dir.path(), outputsFor("b")[0].bytes);
  std::string data = readAll(bpath);
  data.back() ^= 1;
  writeAll(bpath, data);
  writeAll(dir / "ac/foreign-file", "hello");
  cache::VerifyReport r = store.verify(false);
  EXPECT_EQ(r.recordsOk, 2u);
  // The corrupt blob, the record that needs it, the foreign file.
  EXPECT_EQ(r.problems.size(), 3u);
  EXPECT_EQ(r.removed, 0u);
  EXPECT_TRUE(exists(bpath));
  r = store.verify(true);
  EXPECT_EQ(r.removed, 2u);
  EXPECT_FALSE(exists(bpath));
  EXPECT_TRUE(exists(dir / "ac/foreign-file"));
  r = store.verify(false);
  EXPECT_EQ(r.problems.size(), 1u);  // only the foreign file, left alone
  EXPECT_EQ(r.recordsOk, 2u);
}

TEST(CacheStore, ClearKeepsForeignFiles) {
  TempDir dir;
  Store store(optionsFor(dir.path()));
  ASSERT_TRUE(store.put(keyFor("a"), outputsFor("a")));
  writeAll(dir / "notes.txt", "mine");
  cache::ClearReport r = store.clear();
  EXPECT_EQ(r.filesRemoved, 4u);
  EXPECT_EQ(r.failures, 0u);
  EXPECT_TRUE(exists(dir / "notes.txt"));
  EXPECT_FALSE(exists(dir / "ac"));
  EXPECT_FALSE(store.get(keyFor("a")));
  EXPECT_EQ(store.usage().bytes, 0u);
}

TEST(CacheStore, ListAndFind) {
  TempDir dir;
  Store store(optionsFor(dir.path()));
  ASSERT_TRUE(store.put(keyFor("a"), outputsFor("a")));
  ASSERT_TRUE(store.put(keyFor("b"), outputsFor("b")));
  std::vector<cache::EntryInfo> entries = store.list();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].outputs.size(), 3u);
  EXPECT_EQ(entries[0].missingBlobs, 0u);
  std::string why;
  auto found = store.find(keyFor("a").hex().substr(0, 12), &why);
  ASSERT_TRUE(found) << why;
  EXPECT_EQ(found->key, keyFor("a"));
  EXPECT_FALSE(store.find("zz", &why));
  EXPECT_FALSE(store.find("../..", &why));
  EXPECT_FALSE(store.find("0000000000", &why));
}

TEST(CacheStore, NoCacheFolderIsHarmless) {
  // A path below a regular file can never be created.
  TempDir dir;
  writeAll(dir / "file", "x");
  LogLines log;
  {
    Store store(optionsFor(dir / "file/cache", &log));
    EXPECT_FALSE(store.get(keyFor("k")));
    EXPECT_FALSE(store.put(keyFor("k"), outputsFor("k")));
    EXPECT_EQ(store.list().size(), 0u);
    EXPECT_TRUE(store.gc(1, 0).ran);
  }
  EXPECT_TRUE(log.contains("not stored"));
}

}  // namespace
