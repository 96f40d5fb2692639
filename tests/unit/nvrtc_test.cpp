// NVRTC (backend/cuda/nvrtc.h): the log parser fed NVRTC's own formats, the option
// strings, and real compiles through the toolkit's libnvrtc (CPU only).
#include "backend/cuda/nvrtc.h"

#include <gtest/gtest.h>

namespace backend {
namespace {

TEST(NvrtcLog, ErrorWithEchoAndCaret) {
  auto m = parseNvrtcLog(
      "bad.cu(2): error: identifier \"undefined_y\" is undefined\n"
      "    *r = x * undefined_y;\n"
      "             ^\n"
      "\n"
      "bad.cu(4): error: expected a \";\"\n"
      "  }\n"
      "  ^\n"
      "\n"
      "2 errors detected in the compilation of \"bad.cu\".\n");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].file, "bad.cu");
  EXPECT_EQ(m[0].line, 2u);
  // The echo is indented by two spaces: column 12 of `  *r = x * undefined_y;`.
  EXPECT_EQ(m[0].column, 12u);
  EXPECT_EQ(m[0].sourceLine, "  *r = x * undefined_y;");
  EXPECT_EQ(m[0].severity, "error");
  EXPECT_EQ(m[0].message, "identifier \"undefined_y\" is undefined");
  EXPECT_EQ(m[1].line, 4u);
  EXPECT_EQ(m[1].column, 1u);
}

TEST(NvrtcLog, WarningNumbersCatastrophicAndParenthesisedPaths) {
  auto m = parseNvrtcLog(
      "dir (copy)/ops.cu(7): warning #177-D: variable \"t\" was declared but never referenced\n"
      "    int t;\n"
      "        ^\n"
      "\n"
      "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
      "ops.cu(1): catastrophic error: cannot open source file \"nope.h\"\n"
      "  #include \"nope.h\"\n"
      "                   ^\n"
      "\n"
      "1 catastrophic error detected in the compilation of \"ops.cu\".\n"
      "Compilation terminated.\n");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].file, "dir (copy)/ops.cu");
  EXPECT_EQ(m[0].line, 7u);
  EXPECT_EQ(m[0].severity, "warning");
  EXPECT_EQ(m[0].column, 7u);
  EXPECT_EQ(m[1].severity, "catastrophic error");
  EXPECT_EQ(m[1].message, "cannot open source file \"nope.h\"");
}

TEST(NvrtcLog, MessageWithoutCaretAndGarbage) {
  auto m = parseNvrtcLog("x.cu(3): error: something odd\nnot a caret line\n\nrandom text(12): x\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].column, 0u);
  EXPECT_TRUE(m[0].sourceLine.empty());
  EXPECT_TRUE(parseNvrtcLog("").empty());
  EXPECT_TRUE(parseNvrtcLog("(1): error: x\nfoo(): error: y\n").empty());
}

TEST(NvrtcOptions, ArchByOutput) {
  NvrtcOptions o;
  o.arch = "sm_90a";
  o.includeDirs = {"inc"};
  o.defines = {"N=3"};
  o.extra = {"-std=c++20"};
  std::vector<std::string> ptx = nvrtcOptionStrings(o);
  ASSERT_GE(ptx.size(), 5u);
  EXPECT_EQ(ptx[0], "-arch=compute_90a");
  EXPECT_EQ(ptx[1], "-rdc=true");
  EXPECT_EQ(ptx.back(), "-std=c++20");
  o.lto = true;
  std::vector<std::string> lto = nvrtcOptionStrings(o);
  EXPECT_EQ(lto[0], "-arch=sm_90a");
  EXPECT_EQ(lto[2], "-dlto");
}

TEST(Nvrtc, CompilesToPtxAndLtoIrAndReportsErrors) {
  auto library = Nvrtc::load();
  ASSERT_TRUE(static_cast<bool>(library)) << llvm::toString(library.takeError());
  auto version = nvrtcVersion(*library);
  ASSERT_TRUE(static_cast<bool>(version));
  EXPECT_GE(version->first, 13);
  const char* source =
      "extern \"C\" __device__ int twice(int* r, int x) { *r = 2 * x; return 0; }\n";
  NvrtcOptions options;
  auto ptx = compileCuda(*library, "twice.cu", source, options);
  ASSERT_TRUE(static_cast<bool>(ptx)) << llvm::toString(ptx.takeError());
  EXPECT_FALSE(ptx->lto);
  EXPECT_NE(ptx->code.find(".visible .func"), std::string::npos);
  EXPECT_NE(ptx->code.find("twice("), std::string::npos);
  EXPECT_NE(ptx->code.back(), '\0');
  options.lto = true;
  auto lto = compileCuda(*library, "twice.cu", source, options);
  ASSERT_TRUE(static_cast<bool>(lto)) << llvm::toString(lto.takeError());
  EXPECT_TRUE(lto->lto);
  EXPECT_GT(lto->code.size(), 16u);

  auto bad = compileCuda(*library, "bad.cu", "__device__ int f() { return y; }\n", NvrtcOptions{});
  ASSERT_FALSE(static_cast<bool>(bad));
  bool sawLog = false;
  llvm::Error rest = llvm::handleErrors(bad.takeError(), [&](const NvrtcCompileError& e) {
    auto messages = parseNvrtcLog(e.nvrtcLog());
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].file, "bad.cu");
    EXPECT_EQ(messages[0].line, 1u);
    EXPECT_EQ(messages[0].column, 29u);
    sawLog = true;
  });
  EXPECT_FALSE(static_cast<bool>(rest));
  EXPECT_TRUE(sawLog);

  options.lto = false;
  options.extra = {"--no-such-option"};
  auto badOption = compileCuda(*library, "twice.cu", source, options);
  ASSERT_FALSE(static_cast<bool>(badOption));
  std::string message = llvm::toString(badOption.takeError());
  EXPECT_NE(message.find("NVRTC"), std::string::npos) << message;
}

TEST(Nvrtc, IdentityNamesTheLibraryWithoutLoadingIt) {
  std::string identity = nvrtcIdentity();
  EXPECT_NE(identity.find("libnvrtc"), std::string::npos);
  EXPECT_NE(identity.find("builtins"), std::string::npos);
  EXPECT_FALSE(toolkitIncludeDirs().empty());
}

}  // namespace
}  // namespace backend
