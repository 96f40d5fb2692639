// backend/cuda/nvfatbin: fatbins from real cubins and PTX through NVIDIA's
// nvFatbin (the toolkit's or the nvidia-nvfatbin wheel's; no GPU needed).
#include "backend/cuda/nvfatbin.h"

#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdlib>
#include <string>

#include "backend/cuda/nvjitlink.h"
#include "backend/options.h"
#include "backend/ptx.h"
#include "backend/target.h"
#include "backend/testing/saxpy_module.h"

namespace {

template <typename T>
T take(llvm::Expected<T> value) {
  if (!value) {
    ADD_FAILURE() << llvm::toString(value.takeError());
    std::abort();
  }
  return std::move(*value);
}

class NvFatbinTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { backend::initializeNvptxTarget(); }

  static std::string ptxFor(const std::string& arch) {
    llvm::LLVMContext context;
    auto module = backend::samples::buildSaxpyModule(context);
    backend::CodegenOptions options;
    options.arch = arch;
    return take(backend::emitPtx(*module, options));
  }
  static std::string cubinFor(const backend::NvJitLink& nvJitLink, const std::string& arch) {
    std::string ptx = ptxFor(arch);
    backend::LinkOptions options;
    options.arch = arch;
    backend::LinkInput input{backend::LinkInputKind::Ptx, ptx, "saxpy.ptx"};
    return take(backend::linkCubin(nvJitLink, {&input, 1}, options)).cubin;
  }
};

TEST_F(NvFatbinTest, HoldsCubinsAndPtxDeterministically) {
  backend::NvFatbin fatbin = take(backend::NvFatbin::load());
  auto version = take(backend::nvFatbinVersion(fatbin));
  EXPECT_EQ(version.first, 13);
  backend::NvJitLink nvJitLink = take(backend::NvJitLink::load());
  std::string sm80 = cubinFor(nvJitLink, "sm_80"), sm100 = cubinFor(nvJitLink, "sm_100");
  std::string ptx = ptxFor("compute_90");
  std::vector<backend::FatbinInput> inputs = {
      {backend::FatbinInput::Kind::Cubin, "80", sm80, "saxpy"},
      {backend::FatbinInput::Kind::Cubin, "100", sm100, "saxpy"},
      {backend::FatbinInput::Kind::Ptx, "90", ptx, "saxpy"},
  };
  std::string first = take(backend::buildFatbin(fatbin, inputs));
  std::string again = take(backend::buildFatbin(fatbin, inputs));
  EXPECT_EQ(first, again);
  // Uncompressed: the cubins' bytes and the PTX text are in it as they are.
  EXPECT_NE(first.find(sm80), std::string::npos);
  EXPECT_NE(first.find(sm100), std::string::npos);
  EXPECT_NE(first.find(".target sm_90"), std::string::npos);
  EXPECT_GT(first.size(), sm80.size() + sm100.size() + ptx.size());
}

TEST_F(NvFatbinTest, RefusesACubinOfAnotherArchAndEmptyInput) {
  backend::NvFatbin fatbin = take(backend::NvFatbin::load());
  backend::NvJitLink nvJitLink = take(backend::NvJitLink::load());
  std::string sm90 = cubinFor(nvJitLink, "sm_90");
  backend::FatbinInput wrong{backend::FatbinInput::Kind::Cubin, "80", sm90, "saxpy"};
  auto refused = backend::buildFatbin(fatbin, {&wrong, 1});
  ASSERT_FALSE(refused);
  std::string message = llvm::toString(refused.takeError());
  EXPECT_NE(message.find("nvFatbin failed for saxpy: nvFatbinAddCubin: "), std::string::npos) << message;
  backend::FatbinInput empty{backend::FatbinInput::Kind::Cubin, "90", "", "empty"};
  auto none = backend::buildFatbin(fatbin, {&empty, 1});
  ASSERT_FALSE(none);
  message = llvm::toString(none.takeError());
  EXPECT_NE(message.find("nvFatbin failed for empty: nvFatbinAddCubin"), std::string::npos) << message;
}

TEST_F(NvFatbinTest, AMissingLibrarySaysWhatToInstall) {
  auto missing = backend::NvFatbin::load("/nonexistent/libnvfatbin.so.13");
  ASSERT_FALSE(missing);
  std::string message = llvm::toString(missing.takeError());
  EXPECT_NE(message.find("cannot load nvFatbin (the CUDA toolkit's"), std::string::npos) << message;
  EXPECT_NE(message.find("/nonexistent/libnvfatbin.so.13"), std::string::npos) << message;
  EXPECT_NE(message.find("`nvidia-nvfatbin` wheel"), std::string::npos) << message;
  EXPECT_EQ(backend::nvFatbinIdentity("/nonexistent/libnvfatbin.so.13"), "libnvfatbin.so.13 (not found)");
  EXPECT_NE(backend::nvFatbinIdentity().find("libnvfatbin.so.13 "), std::string::npos);
}

}  // namespace
