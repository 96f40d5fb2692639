// Faults: many processes at once, a writer killed mid-write, a read-only
// cache, a full disk. The bar: no corrupt, partial or foreign entry is ever
// served, and no call fails the caller.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <random>
#include <thread>

#include "cache/store.h"
#include "tests/unit/cache_test_util.h"

namespace {

using cache::Key;
using cache::NamedOutput;
using cache::Store;
using cache::StoreOptions;
using namespace cache_test;

// The outputs every process agrees belong to key `name`.
std::vector<NamedOutput> expectedFor(const std::string& name, std::size_t size) {
  return {{"cubin", bytesFor(name + "/cubin", size)}, {"ptx", bytesFor(name + "/ptx", size / 3)}};
}

// Child body: puts and gets; exits 1 if a get ever returns wrong bytes.
[[noreturn]] void writerProcess(const std::string& root, int id, std::uint64_t maxSize) {
  StoreOptions o;
  o.root = root;
  o.maxSize = maxSize;
  int status = 0;
  {
    Store store(o);
    std::mt19937 rng(static_cast<unsigned>(id * 7919 + 1));
    for (int i = 0; i < 60; ++i) {
      // Half shared keys (all processes write the same bytes), half own.
      std::string name = (rng() % 2) ? "shared" + std::to_string(rng() % 12)
                                     : "own" + std::to_string(id) + "." + std::to_string(i);
      std::size_t size = 2000 + (std::hash<std::string>{}(name) % 30000);
      if (!store.put(keyFor(name), expectedFor(name, size))) status = 2;
      std::string probe = "shared" + std::to_string(rng() % 12);
      std::size_t psize = 2000 + (std::hash<std::string>{}(probe) % 30000);
      if (auto got = store.get(keyFor(probe)); got && *got != expectedFor(probe, psize)) {
        status = 1;
      }
    }
  }
  ::_exit(status);
}

void runWriters(const std::string& root, std::uint64_t maxSize) {
  std::vector<pid_t> pids;
  for (int id = 0; id < 8; ++id) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) writerProcess(root, id, maxSize);
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: wrong bytes served; 2: a put failed";
  }
}

void checkEverything(const std::string& root) {
  Store store(StoreOptions{root, 0, false, false, {}, {}});
  cache::VerifyReport v = store.verify(false);
  for (const std::string& p : v.problems) ADD_FAILURE() << p;
  for (int id = 0; id < 8; ++id) {
    for (int i = 0; i < 60; ++i) {
      std::string name = "own" + std::to_string(id) + "." + std::to_string(i);
      std::size_t size = 2000 + (std::hash<std::string>{}(name) % 30000);
      if (auto got = store.get(keyFor(name))) {
        EXPECT_EQ(*got, expectedFor(name, size)) << name;
      }
    }
  }
  for (int s = 0; s < 12; ++s) {
    std::string name = "shared" + std::to_string(s);
    std::size_t size = 2000 + (std::hash<std::string>{}(name) % 30000);
    if (auto got = store.get(keyFor(name))) {
      EXPECT_EQ(*got, expectedFor(name, size)) << name;
    }
  }
}

TEST(CacheFault, EightConcurrentProcesses) {
  TempDir dir;
  runWriters(dir.path(), 0);
  checkEverything(dir.path());
  Store store(StoreOptions{dir.path(), 0, false, false, {}, {}});
  // With no limit every entry survives.
  EXPECT_GE(store.list().size(), 12u);
  cache::Counters c = store.counters();
  EXPECT_GT(c.writes, 400u);  // 480 puts; a few stats updates may be lost
}

TEST(CacheFault, EightConcurrentProcessesWithEviction) {
  TempDir dir;
  // Small enough that gc runs often, concurrently with puts and gets.
  runWriters(dir.path(), 600 * 1024);
  checkEverything(dir.path());
  Store store(StoreOptions{dir.path(), 0, false, false, {}, {}});
  EXPECT_GT(store.counters().evictions, 0u);
}

TEST(CacheFault, WriterKilledMidWrite) {
  TempDir dir;
  const std::size_t big = 1 << 20;
  for (int round = 0; round < 6; ++round) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      StoreOptions o;
      o.root = dir.path();
      o.maxSize = 0;
      Store store(o);
      for (int i = 0;; ++i) {
        std::string name = "r" + std::to_string(round) + "." + std::to_string(i);
        store.put(keyFor(name), expectedFor(name, big));
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + 15 * round));
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status));
  }
  Store store(StoreOptions{dir.path(), 0, false, false, {}, {}});
  cache::VerifyReport v = store.verify(false);
  for (const std::string& p : v.problems) ADD_FAILURE() << p;
  int hits = 0;
  for (int round = 0; round < 6; ++round) {
    for (int i = 0; i < 200; ++i) {
      std::string name = "r" + std::to_string(round) + "." + std::to_string(i);
      if (auto got = store.get(keyFor(name))) {
        ++hits;
        EXPECT_EQ(*got, expectedFor(name, big)) << name;
      }
    }
  }
  std::printf("[          ] %d complete entries survived the kills; %llu temp files left\n",
              hits, static_cast<unsigned long long>(store.usage().tempFiles));
}

// Mounts a tmpfs of `size` at `path`; false (with errno) when not permitted.
bool mountTmpfs(const std::string& path, const std::string& size) {
  std::string opts = "size=" + size;
  return ::mount("tmpfs", path.c_str(), "tmpfs", 0, opts.c_str()) == 0;
}

TEST(CacheFault, ReadOnlyCacheServesHitsAndRefusesWritesSoftly) {
  TempDir dir;
  std::string root = dir / "ro";
  std::filesystem::create_directories(root);
  bool mounted = false;
  if (::geteuid() == 0) {
    // chmod does not stop root: use a read-only tmpfs instead.
    if (!mountTmpfs(root, "4m")) {
      GTEST_SKIP() << "running as root and mount(2) is not permitted (" << std::strerror(errno)
                   << "): cannot make a folder read-only for root";
    }
    mounted = true;
  }
  {
    Store store(StoreOptions{root, 0, false, false, {}, {}});
    ASSERT_TRUE(store.put(keyFor("k"), expectedFor("k", 5000)));
  }
  if (mounted) {
    ASSERT_EQ(::mount("tmpfs", root.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr), 0)
        << std::strerror(errno);
  } else {
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
      if (e.is_directory()) ::chmod(e.path().c_str(), 0555);
    }
    ::chmod(root.c_str(), 0555);
  }
  LogLines log;
  {
    StoreOptions o{root, 0, false, false, log.sink(), {}};
    Store store(o);
    EXPECT_EQ(store.get(keyFor("k")), expectedFor("k", 5000));
    EXPECT_FALSE(store.get(keyFor("other")));
    EXPECT_FALSE(store.put(keyFor("new"), expectedFor("new", 5000)));
    EXPECT_FALSE(store.put(keyFor("new2"), expectedFor("new2", 5000)));
    EXPECT_TRUE(store.gc(1, 0).ran);
    EXPECT_EQ(store.get(keyFor("k")), expectedFor("k", 5000));
  }
  EXPECT_TRUE(log.contains("not stored"));
  if (mounted) {
    EXPECT_EQ(::umount(root.c_str()), 0);
  } else {
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
      if (e.is_directory()) ::chmod(e.path().c_str(), 0755);
    }
  }
}

TEST(CacheFault, FullDisk) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to mount a small tmpfs";
  TempDir dir;
  std::string root = dir / "full";
  std::filesystem::create_directories(root);
  if (!mountTmpfs(root, "64k")) {
    GTEST_SKIP() << "mount(2) is not permitted here (" << std::strerror(errno) << ")";
  }
  LogLines log;
  {
    StoreOptions o{root + "/cache", 0, false, false, log.sink(), {}};
    Store store(o);
    std::vector<NamedOutput> small = {{"cubin", bytesFor("small", 20000)}};
    ASSERT_TRUE(store.put(keyFor("small"), small));
    // 100 KB cannot fit in 64 KiB.
    EXPECT_FALSE(store.put(keyFor("big"), {{"cubin", bytesFor("big", 100000)}}));
    EXPECT_FALSE(store.get(keyFor("big")));
    // Fill it up with entries until puts fail; none of them may be partial.
    int stored = 0;
    for (int i = 0; i < 20; ++i) {
      if (store.put(keyFor("f" + std::to_string(i)), {{"cubin", bytesFor("f" + std::to_string(i), 7000)},
                                                       {"ptx", bytesFor("p" + std::to_string(i), 3000)}})) {
        ++stored;
      }
    }
    EXPECT_LT(stored, 20);
    for (int i = 0; i < 20; ++i) {
      if (auto got = store.get(keyFor("f" + std::to_string(i)))) {
        EXPECT_EQ((*got)[0].bytes, bytesFor("f" + std::to_string(i), 7000));
        EXPECT_EQ((*got)[1].bytes, bytesFor("p" + std::to_string(i), 3000));
      }
    }
    EXPECT_EQ(store.get(keyFor("small")), small);
    EXPECT_EQ(store.usage().tempFiles, 0u) << "a failed write left its temp file";
    cache::VerifyReport v = store.verify(false);
    for (const std::string& p : v.problems) ADD_FAILURE() << p;
  }
  EXPECT_TRUE(log.contains("No space left on device"));
  EXPECT_EQ(::umount(root.c_str()), 0);
}

}  // namespace
