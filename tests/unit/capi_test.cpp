// libpykc's C ABI (include/pykc/pykc.h), through the header alone: compiles
// from bytes and paths, diagnostics as text and JSON, exit classes, cache
// hits, concurrent compiles in one session, null and bad arguments.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "pykc/pykc.h"

namespace {

const char* kSaxpy =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit(\"void(float32, float32[::1], float32[::1])\")\n"
    "def saxpy(a, x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.size:\n"
    "        out[i] = a * x[i]\n"
    "\n"
    "@cuda.jit(\"void(int32[::1])\")\n"
    "def other(x):\n"
    "    x[0] = 1\n";

class CapiTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pykc-capi-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    pykc_session_options options;
    pykc_session_options_init(&options);
    cacheDir_ = (dir_ / "cache").string();
    options.cache_dir = cacheDir_.c_str();
    session_ = pykc_session_create(&options);
    ASSERT_NE(session_, nullptr);
  }
  void TearDown() override {
    pykc_session_free(session_);
    std::filesystem::remove_all(dir_);
  }
  pykc_result* compile(const char* source, const char* kernel = nullptr,
                       std::vector<const char*> archs = {"sm_90"}) {
    pykc_compile_options options;
    pykc_compile_options_init(&options);
    options.path = "kernels.py";
    options.source = source;
    options.source_size = std::strlen(source);
    options.kernel = kernel;
    options.archs = archs.data();
    options.num_archs = archs.size();
    return pykc_compile(session_, &options);
  }

  std::filesystem::path dir_;
  std::string cacheDir_;
  pykc_session* session_ = nullptr;
};

TEST_F(CapiTest, VersionsAndDefaults) {
  EXPECT_EQ(pykc_api_version(), PYKC_API_VERSION);
  EXPECT_STRNE(pykc_version(), "");
  pykc_compile_options options;
  pykc_compile_options_init(&options);
  EXPECT_EQ(options.struct_size, sizeof(pykc_compile_options));
  EXPECT_EQ(options.opt_level, 3);
}

TEST_F(CapiTest, CompilesFromBytesThenHits) {
  pykc_result* r = compile(kSaxpy, nullptr, {"sm_80", "sm_90"});
  ASSERT_EQ(pykc_result_exit_class(r), PYKC_OK) << pykc_result_diagnostics(r);
  ASSERT_EQ(pykc_result_arch_count(r), 2u);
  EXPECT_STREQ(pykc_result_arch(r, 0), "sm_80");
  size_t size = 0;
  const void* cubin = pykc_result_cubin(r, 1, &size);
  ASSERT_NE(cubin, nullptr);
  ASSERT_GT(size, 4u);
  EXPECT_EQ(std::memcmp(cubin, "\x7f" "ELF", 4), 0);
  size_t ptxSize = 0;
  EXPECT_NE(std::string(pykc_result_ptx(r, 1, &ptxSize)).find(".entry saxpy"), std::string::npos);
  EXPECT_EQ(pykc_result_cache_hit(r, 0), 0);
  ASSERT_EQ(pykc_result_kernel_count(r), 2u);
  EXPECT_STREQ(pykc_result_kernel_name(r, 0), "saxpy");
  EXPECT_STREQ(pykc_result_kernel_signature(r, 0), "void(float32, float32[::1], float32[::1])");
  EXPECT_NE(std::string(pykc_result_manifest(r)).find("\"saxpy__"), std::string::npos);
  std::string first(static_cast<const char*>(cubin), size);
  pykc_result_free(r);

  r = compile(kSaxpy, nullptr, {"sm_80", "sm_90"});
  ASSERT_EQ(pykc_result_exit_class(r), PYKC_OK);
  EXPECT_EQ(pykc_result_cache_hit(r, 0), 1);
  EXPECT_EQ(pykc_result_cache_hit(r, 1), 1);
  cubin = pykc_result_cubin(r, 1, &size);
  EXPECT_EQ(std::string(static_cast<const char*>(cubin), size), first);
  pykc_result_free(r);
}

TEST_F(CapiTest, OneKernel) {
  pykc_result* r = compile(kSaxpy, "other");
  ASSERT_EQ(pykc_result_exit_class(r), PYKC_OK) << pykc_result_diagnostics(r);
  ASSERT_EQ(pykc_result_kernel_count(r), 1u);
  EXPECT_STREQ(pykc_result_kernel_name(r, 0), "other");
  size_t size = 0;
  EXPECT_EQ(std::string(pykc_result_ptx(r, 0, &size)).find("saxpy"), std::string::npos);
  pykc_result_free(r);
  r = compile(kSaxpy, "missing");
  EXPECT_EQ(pykc_result_exit_class(r), PYKC_USAGE);
  EXPECT_NE(std::string(pykc_result_diagnostics(r)).find("`missing` is not a kernel of `kernels.py`; its kernels: saxpy, other"), std::string::npos);
  pykc_result_free(r);
}

TEST_F(CapiTest, AnErrorInAnotherKernelDoesNotFailThisOne) {
  std::string source = std::string(kSaxpy) +
                       "\n@cuda.jit(\"void(float32, float32[::1])\")\n"
                       "def broken(a, x):\n"
                       "    x[0] = a[0]\n";
  pykc_result* r = compile(source.c_str(), "saxpy");
  EXPECT_EQ(pykc_result_exit_class(r), PYKC_OK) << pykc_result_diagnostics(r);
  EXPECT_EQ(pykc_result_kernel_count(r), 1u);
  pykc_result_free(r);
  r = compile(source.c_str());
  EXPECT_EQ(pykc_result_exit_class(r), PYKC_SOURCE_ERRORS);
  EXPECT_NE(std::string(pykc_result_diagnostics(r)).find("kernels.py:15:12: error"), std::string::npos)
      << pykc_result_diagnostics(r);
  pykc_result_free(r);
}

TEST_F(CapiTest, ConstantsBelongToTheRequestedKernel) {
  const char* tile =
      "import cuda.tile as ct\n"
      "@ct.kernel\n"
      "def a(x: \"float32[::1]\", T: ct.Constant[int] = 16):\n"
      "    ct.store(x, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(T,)))\n"
      "@ct.kernel\n"
      "def b(x: \"float32[::1]\", T: ct.Constant[int] = 16):\n"
      "    ct.store(x, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(T,)))\n";
  const char* consts[] = {"T=64"};
  pykc_compile_options options;
  pykc_compile_options_init(&options);
  options.path = "tiles.py";
  options.source = tile;
  options.source_size = std::strlen(tile);
  options.kernel = "b";
  options.consts = consts;
  options.num_consts = 1;
  pykc_result* r = pykc_compile(session_, &options);
  ASSERT_EQ(pykc_result_exit_class(r), PYKC_OK) << pykc_result_diagnostics(r);
  ASSERT_EQ(pykc_result_kernel_count(r), 1u);
  EXPECT_STREQ(pykc_result_kernel_name(r, 0), "b");
  EXPECT_STREQ(pykc_result_kernel_signature(r, 0), "void(float32[::1], T=64)");
  pykc_result_free(r);
}

TEST_F(CapiTest, SourceErrorsAsTextAndJson) {
  const char* bad =
      "from numba import cuda\n"
      "@cuda.jit(\"void(float32, float32[::1])\")\n"
      "def k(a, x):\n"
      "    x[0] = a[0]\n";
  pykc_result* r = compile(bad);
  EXPECT_EQ(pykc_result_exit_class(r), PYKC_SOURCE_ERRORS);
  std::string text = pykc_result_diagnostics(r);
  EXPECT_NE(text.find("kernels.py:4:12: error: "), std::string::npos) << text;
  EXPECT_NE(text.find("    x[0] = a[0]\n           ^"), std::string::npos) << text;
  std::string json = pykc_result_diagnostics_json(r);
  EXPECT_NE(json.find("\"line\":4"), std::string::npos) << json;
  EXPECT_NE(json.find("\"severity\":\"error\""), std::string::npos) << json;
  EXPECT_EQ(pykc_result_arch_count(r), 0u);
  EXPECT_EQ(pykc_result_kernel_count(r), 0u);
  EXPECT_STREQ(pykc_result_manifest(r), "");
  pykc_result_free(r);
}

TEST_F(CapiTest, UsageAndEnvironmentErrors) {
  pykc_result* r = compile(kSaxpy, nullptr, {"sm_12"});
  EXPECT_EQ(pykc_result_exit_class(r), PYKC_USAGE);
  EXPECT_NE(std::string(pykc_result_diagnostics(r)).find("pykc: error: --arch sm_12"), std::string::npos);
  pykc_result_free(r);
  pykc_compile_options options;
  pykc_compile_options_init(&options);
  options.path = "/nonexistent/kernels.py";
  r = pykc_compile(session_, &options);
  EXPECT_EQ(pykc_result_exit_class(r), PYKC_ENVIRONMENT);
  pykc_result_free(r);
  options.struct_size = 3;
  r = pykc_compile(session_, &options);
  EXPECT_EQ(pykc_result_exit_class(r), PYKC_ENVIRONMENT);
  pykc_result_free(r);
}

TEST_F(CapiTest, LibraryPathsAreSessionSettings) {
  pykc_session_options options;
  pykc_session_options_init(&options);
  options.no_cache = 1;
  options.nvjitlink_path = "/nonexistent/libnvJitLink.so.13";
  pykc_session* s = pykc_session_create(&options);
  ASSERT_NE(s, nullptr);
  pykc_compile_options co;
  pykc_compile_options_init(&co);
  co.path = "kernels.py";
  co.source = kSaxpy;
  co.source_size = std::strlen(kSaxpy);
  pykc_result* r = pykc_compile(s, &co);
  EXPECT_EQ(pykc_result_exit_class(r), PYKC_ENVIRONMENT);
  EXPECT_NE(std::string(pykc_result_diagnostics(r)).find("/nonexistent/libnvJitLink.so.13"),
            std::string::npos)
      << pykc_result_diagnostics(r);
  pykc_result_free(r);
  pykc_session_free(s);

  options.nvjitlink_path = nullptr;
  options.libdevice_path = "/nonexistent/libdevice.10.bc";
  s = pykc_session_create(&options);
  const char* math =
      "import math\nfrom numba import cuda\n"
      "@cuda.jit(\"void(float32[::1])\")\n"
      "def k(x):\n"
      "    x[0] = math.exp(x[0])\n";
  co.source = math;
  co.source_size = std::strlen(math);
  r = pykc_compile(s, &co);
  EXPECT_EQ(pykc_result_exit_class(r), PYKC_ENVIRONMENT);
  EXPECT_NE(std::string(pykc_result_diagnostics(r)).find("/nonexistent/libdevice.10.bc"),
            std::string::npos)
      << pykc_result_diagnostics(r);
  pykc_result_free(r);
  pykc_session_free(s);
}

TEST_F(CapiTest, NullArgumentsAreSafe) {
  EXPECT_EQ(pykc_compile(nullptr, nullptr), nullptr);
  EXPECT_EQ(pykc_result_exit_class(nullptr), PYKC_ENVIRONMENT);
  EXPECT_STREQ(pykc_result_diagnostics(nullptr), "");
  EXPECT_EQ(pykc_result_arch_count(nullptr), 0u);
  size_t size = 7;
  EXPECT_EQ(pykc_result_cubin(nullptr, 0, &size), nullptr);
  EXPECT_EQ(size, 0u);
  pykc_result_free(nullptr);
  pykc_session_free(nullptr);
  pykc_session_options bad;
  pykc_session_options_init(&bad);
  bad.struct_size = 1;
  EXPECT_EQ(pykc_session_create(&bad), nullptr);
}

TEST_F(CapiTest, ConcurrentCompilesInOneSession) {
  // Different sources (a constant each), so that every thread compiles.
  constexpr int kThreads = 4;
  std::vector<std::string> sources;
  for (int t = 0; t < kThreads; ++t) {
    sources.push_back(std::string(kSaxpy) + "\nSCALE" + std::to_string(t) + " = " +
                      std::to_string(t) + "\n");
  }
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 2; ++round) {
        pykc_result* r = compile(sources[t].c_str());
        if (pykc_result_exit_class(r) == PYKC_OK && pykc_result_arch_count(r) == 1) ++ok;
        pykc_result_free(r);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok.load(), 2 * kThreads);
}

}  // namespace
