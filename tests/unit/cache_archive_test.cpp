// Export/import: round trip, determinism, tampered archives refused whole.
#include <gtest/gtest.h>

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

std::vector<NamedOutput> outputsFor(const std::string& seed) {
  return {{"cubin", bytesFor(seed + ".cubin", 3000)}, {"ptx", bytesFor(seed + ".ptx", 1000)},
          {"shared", "same in every entry"}};
}

void fill(Store& store) {
  for (const char* n : {"a", "b", "c", "d"}) ASSERT_TRUE(store.put(keyFor(n), outputsFor(n)));
}

// An archive from raw items, in the documented format (docs/CACHE.md).
std::string buildArchive(const std::vector<std::pair<cache::EntryKind, std::string>>& items) {
  auto le = [](std::string& out, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  std::string a = "PYKCARCH";
  le(a, 1, 4);
  le(a, 0, 4);
  for (const auto& [kind, file] : items) {
    a.push_back(static_cast<char>(kind));
    le(a, file.size(), 8);
    a += file;
  }
  cache::Digest d = cache::Digest::of(a);
  a.push_back(static_cast<char>(0xff));
  le(a, items.size(), 8);
  a.append(reinterpret_cast<const char*>(d.bytes.data()), 32);
  return a;
}

TEST(CacheArchive, RoundTrip) {
  TempDir src, dst, out;
  Store from(StoreOptions{src.path(), 0, false, false, {}, {}});
  fill(from);
  cache::ArchiveReport e = from.exportArchive(out / "cache.pykc");
  ASSERT_TRUE(e.ok) << e.error;
  EXPECT_EQ(e.records, 4u);
  EXPECT_EQ(e.blobs, 9u);  // 4 x (cubin, ptx) + one shared blob
  Store to(StoreOptions{dst.path(), 0, false, false, {}, {}});
  cache::ArchiveReport i = to.importArchive(out / "cache.pykc");
  ASSERT_TRUE(i.ok) << i.error;
  EXPECT_EQ(i.records, 4u);
  EXPECT_EQ(i.blobs, 9u);
  for (const char* n : {"a", "b", "c", "d"}) EXPECT_EQ(to.get(keyFor(n)), outputsFor(n)) << n;
  EXPECT_TRUE(to.verify(false).problems.empty());
  // Same entries, same archive bytes.
  ASSERT_TRUE(to.exportArchive(out / "again.pykc").ok);
  EXPECT_EQ(readAll(out / "cache.pykc"), readAll(out / "again.pykc"));
  // Importing twice is harmless.
  EXPECT_TRUE(to.importArchive(out / "cache.pykc").ok);
}

TEST(CacheArchive, ExportSkipsDamagedEntries) {
  TempDir src, out;
  Store from(StoreOptions{src.path(), 0, false, false, {}, {}});
  fill(from);
  std::string blob = cache::detail::entryPath(src.path(), "cas",
                                              cache::Digest::of(outputsFor("b")[0].bytes));
  std::string data = readAll(blob);
  data.back() ^= 1;
  writeAll(blob, data);
  cache::ArchiveReport e = from.exportArchive(out / "cache.pykc");
  ASSERT_TRUE(e.ok);
  EXPECT_EQ(e.records, 3u);
  EXPECT_EQ(e.skipped, 1u);
}

TEST(CacheArchive, TamperedArchiveIsRefusedWhole) {
  TempDir src, out;
  Store from(StoreOptions{src.path(), 0, false, false, {}, {}});
  fill(from);
  ASSERT_TRUE(from.exportArchive(out / "cache.pykc").ok);
  const std::string good = readAll(out / "cache.pykc");
  // Flip bytes all over: header, item framing, entry headers, payloads,
  // trailer. Every one must be refused before anything is written.
  for (std::size_t at = 0; at < good.size(); at += 97) {
    std::string bad = good;
    bad[at] ^= 0x10;
    writeAll(out / "bad.pykc", bad);
    TempDir dst;
    Store to(StoreOptions{dst.path(), 0, false, false, {}, {}});
    cache::ArchiveReport r = to.importArchive(out / "bad.pykc");
    EXPECT_FALSE(r.ok) << "byte " << at;
    EXPECT_NE(r.error.find("nothing was imported"), std::string::npos) << r.error;
    EXPECT_TRUE(filesUnder(dst.path()).empty()) << "byte " << at;
  }
  // Truncated, empty, or extended.
  for (const std::string& bad : {good.substr(0, good.size() - 1), good.substr(0, 100),
                                 std::string(), good + "x"}) {
    writeAll(out / "bad.pykc", bad);
    TempDir dst;
    Store to(StoreOptions{dst.path(), 0, false, false, {}, {}});
    EXPECT_FALSE(to.importArchive(out / "bad.pykc").ok);
    EXPECT_TRUE(filesUnder(dst.path()).empty());
  }
}

TEST(CacheArchive, ConsistentDigestButBadEntryIsRefused) {
  // Whoever edits an archive and recomputes its digest still cannot slip in
  // a blob that does not match its name, or a record without its blobs.
  TempDir out, dst;
  std::string content = "cubin bytes";
  std::string blob = cache::encodeBlob(content);
  cache::ActionRecord record{keyFor("k"), {{"cubin", cache::Digest::of(content), content.size()}}};
  std::string rec = cache::encodeRecord(record);
  Store to(StoreOptions{dst.path(), 0, false, false, {}, {}});

  writeAll(out / "ok.pykc", buildArchive({{cache::EntryKind::Blob, blob},
                                          {cache::EntryKind::Record, rec}}));
  ASSERT_TRUE(to.importArchive(out / "ok.pykc").ok);
  ASSERT_TRUE(to.clear().failures == 0);

  std::string badBlob = blob;
  badBlob.back() ^= 1;
  writeAll(out / "a.pykc", buildArchive({{cache::EntryKind::Blob, badBlob},
                                         {cache::EntryKind::Record, rec}}));
  EXPECT_FALSE(to.importArchive(out / "a.pykc").ok);
  writeAll(out / "b.pykc", buildArchive({{cache::EntryKind::Record, rec}}));
  cache::ArchiveReport r = to.importArchive(out / "b.pykc");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("lacks"), std::string::npos) << r.error;
  writeAll(out / "c.pykc", buildArchive({{cache::EntryKind::Blob, blob},
                                         {cache::EntryKind::Blob, rec}}));
  EXPECT_FALSE(to.importArchive(out / "c.pykc").ok);
  EXPECT_TRUE(to.list().empty());
  EXPECT_FALSE(to.get(keyFor("k")));
}

TEST(CacheArchive, MissingFileIsAnError) {
  TempDir dst;
  Store to(StoreOptions{dst.path(), 0, false, false, {}, {}});
  cache::ArchiveReport r = to.importArchive(dst / "nope.pykc");
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.error.empty());
}

}  // namespace

namespace {

// The entries of tests/cache/cli/sample.pykc-cache, the archive the CLI test
// imports. Building them again must give that file byte for byte: the entry
// and archive formats must not change without a version bump.
// PYKC_WRITE_CLI_FIXTURE=1 rewrites the file instead.
TEST(CacheArchive, CliFixtureIsStable) {
  TempDir dir, out;
  Store store(StoreOptions{dir.path(), 0, false, false, {}, {}});
  const char* kernels[] = {"saxpy", "reduce_sum", "stencil"};
  for (const char* arch : {"sm_80", "sm_90"}) {
    for (const char* kernel : kernels) {
      if (std::string(arch) == "sm_80" && std::string(kernel) != "saxpy") continue;
      cache::KeyBuilder b;
      b.add("arch", arch).add("kernel", kernel).add("source", bytesFor(kernel, 400));
      std::string base = std::string(kernel) + "." + arch;
      ASSERT_TRUE(store.put(b.key(), {{"cubin", bytesFor(base + ".cubin", 2000)},
                                     {"ptx", "// PTX for " + base + "\n"},
                                     {"manifest.json", "{\"abi\": 1}\n"}}));
    }
  }
  ASSERT_TRUE(store.exportArchive(out / "sample.pykc-cache").ok);
  std::string fixture = std::string(PYKC_SOURCE_DIR) + "/tests/cache/cli/sample.pykc-cache";
  if (std::getenv("PYKC_WRITE_CLI_FIXTURE")) {
    writeAll(fixture, readAll(out / "sample.pykc-cache"));
    GTEST_SKIP() << "rewrote " << fixture;
  }
  EXPECT_EQ(readAll(out / "sample.pykc-cache"), readAll(fixture))
      << "the archive format changed: bump kEntryFormatVersion or the archive version, "
         "then rewrite the fixture with PYKC_WRITE_CLI_FIXTURE=1";
}

}  // namespace
