// backend/cuda/toolkit: where nvJitLink, libdevice and NVRTC's headers are
// looked for (toolkits from the environment, the build's, NVIDIA's wheels),
// and that a library's cache identity names the file a load would open.
#include "backend/cuda/toolkit.h"

#include <gtest/gtest.h>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "backend/cuda/nvjitlink.h"

namespace {

// Sets environment variables for one test and restores them after it.
class ToolkitTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (const char* name : {"PYKC_CUDA_HOME", "CUDA_HOME", "CUDA_PATH", "PYKC_CUDA_WHEELS"}) {
      const char* value = std::getenv(name);
      saved_[name] = value != nullptr ? std::optional<std::string>(value) : std::nullopt;
      ::unsetenv(name);
    }
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pykc-toolkit-test", dir));
    root_ = std::string(dir);
  }
  void TearDown() override {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
    llvm::sys::fs::remove_directories(root_);
  }
  // Creates `relative` under the test's folder (with its parents); returns its path.
  std::string makeFile(const std::string& relative, const std::string& bytes = "not a library") {
    std::string path = root_ + "/" + relative;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
    std::ofstream(path) << bytes;
    return path;
  }
  static bool contains(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  }

  std::string root_;
  std::map<std::string, std::optional<std::string>> saved_;
};

TEST_F(ToolkitTest, EnvironmentToolkitsComeFirstThenTheBuildsThenWheels) {
  ::setenv("PYKC_CUDA_HOME", (root_ + "/mine").c_str(), 1);
  ::setenv("CUDA_HOME", (root_ + "/home/").c_str(), 1);
  makeFile("site/nvidia/cu13/lib/libnvJitLink.so.13");
  ::setenv("PYKC_CUDA_WHEELS", (root_ + "/none:" + root_ + "/site").c_str(), 1);
  backend::CudaRoots roots = backend::cudaRoots();
  ASSERT_GE(roots.toolkits.size(), 3u);
  EXPECT_EQ(roots.toolkits[0], root_ + "/mine");
  EXPECT_EQ(roots.toolkits[1], root_ + "/home");
  EXPECT_TRUE(contains(roots.toolkits, "/usr/local/cuda"));
  EXPECT_TRUE(roots.useBuildPaths);
  // Only wheel folders that exist.
  EXPECT_TRUE(contains(roots.wheels, root_ + "/site/nvidia/cu13"));
  EXPECT_FALSE(contains(roots.wheels, root_ + "/none/nvidia/cu13"));

  auto paths = backend::cudaLibraryPaths(roots, "/build/libnvJitLink.so.13", "libnvJitLink.so.13");
  ASSERT_GE(paths.size(), 4u);
  EXPECT_EQ(paths[0], root_ + "/mine/lib64/libnvJitLink.so.13");
  EXPECT_EQ(paths[1], root_ + "/mine/lib/libnvJitLink.so.13");
  auto build = std::find(paths.begin(), paths.end(), "/build/libnvJitLink.so.13");
  auto wheel = std::find(paths.begin(), paths.end(), root_ + "/site/nvidia/cu13/lib/libnvJitLink.so.13");
  ASSERT_NE(build, paths.end());
  ASSERT_NE(wheel, paths.end());
  EXPECT_LT(build, wheel);
}

TEST_F(ToolkitTest, NoneLeavesOnlyTheWheels) {
  ::setenv("PYKC_CUDA_HOME", "none", 1);
  ::setenv("CUDA_HOME", "/usr/local/cuda", 1);
  makeFile("site/nvidia/cu13/nvvm/libdevice/libdevice.10.bc", "BC");
  ::setenv("PYKC_CUDA_WHEELS", (root_ + "/site").c_str(), 1);
  backend::CudaRoots roots = backend::cudaRoots();
  EXPECT_TRUE(roots.toolkits.empty());
  EXPECT_FALSE(roots.useBuildPaths);
  auto paths = backend::cudaLibraryPaths(roots, "/build/libnvJitLink.so.13", "libnvJitLink.so.13");
  EXPECT_EQ(paths, std::vector<std::string>{root_ + "/site/nvidia/cu13/lib/libnvJitLink.so.13"});
  // libdevice: the wheel's, though the build's exists.
  EXPECT_EQ(backend::findLibdevice(roots, "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"),
            root_ + "/site/nvidia/cu13/nvvm/libdevice/libdevice.10.bc");
  EXPECT_EQ(backend::findCudaInclude(roots, "/usr/local/cuda/include"), "");
}

TEST_F(ToolkitTest, LibdeviceAndHeadersFromTheFirstToolkitHoldingThem) {
  makeFile("tk/nvvm/libdevice/libdevice.10.bc", "BC");
  makeFile("tk/include/cuda_runtime.h", "");
  makeFile("empty/include/other.h", "");
  ::setenv("PYKC_CUDA_HOME", (root_ + "/empty").c_str(), 1);
  ::setenv("CUDA_PATH", (root_ + "/tk").c_str(), 1);
  backend::CudaRoots roots = backend::cudaRoots();
  EXPECT_EQ(backend::findLibdevice(roots, "/nowhere/libdevice.10.bc"), root_ + "/tk/nvvm/libdevice/libdevice.10.bc");
  EXPECT_EQ(backend::findCudaInclude(roots, "/nowhere"), root_ + "/tk/include");
  // Nothing anywhere: the build's path, which the error will name.
  ::setenv("PYKC_CUDA_HOME", "none", 1);
  EXPECT_EQ(backend::findLibdevice(backend::cudaRoots(), "/nowhere/libdevice.10.bc"), "/nowhere/libdevice.10.bc");
}

// The identity (cache keys) names the file a default load opens first: here the
// wheel's, which is no library, so the load fails naming it.
TEST_F(ToolkitTest, IdentityAndLoadAgreeOnTheWheel) {
  std::string fake = makeFile("site/nvidia/cu13/lib/libnvJitLink.so.13", "garbage");
  ::setenv("PYKC_CUDA_HOME", "none", 1);
  ::setenv("PYKC_CUDA_WHEELS", (root_ + "/site").c_str(), 1);
  EXPECT_EQ(backend::nvJitLinkIdentity().rfind(fake + " 7 ", 0), 0u) << backend::nvJitLinkIdentity();
  auto loaded = backend::NvJitLink::load();
  if (loaded) {
    // The loader's own search found a real one after the wheel's failed.
    EXPECT_NE(loaded->path(), fake);
  } else {
    std::string message = llvm::toString(loaded.takeError());
    EXPECT_NE(message.find(fake), std::string::npos) << message;
  }
}

}  // namespace
