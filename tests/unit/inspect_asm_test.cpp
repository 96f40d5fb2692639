// cli/inspect_asm.h: PTX and SASS interleaved with Python lines, fed
// hand-written PTX and nvdisasm output (no LLVM codegen, no nvdisasm needed),
// and the nvdisasm search's failure message.
#include "cli/inspect_asm.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "diagnostics/diagnostics.h"
#include "syntax/source.h"

namespace {

frontend::SourceFile kernelFile() {
  frontend::DiagnosticSink diags;
  return frontend::SourceFile::fromBytes("k.py",
                                         "from numba import cuda\n"
                                         "\n"
                                         "def k(x):\n"
                                         "    i = cuda.grid(1)\n"
                                         "    x[i] = 2\n",
                                         diags);
}

TEST(InspectAsm, PtxGetsAPythonLineBeforeEachNewLoc) {
  frontend::SourceFile file = kernelFile();
  std::string ptx =
      "\t.loc\t1 3 0\n"
      "\tld.param.u64 %rd1, [p];\n"
      "\t.loc\t1 4 5\n"
      "\tmov.u32 %r1, %tid.x;\n"
      "\t.loc\t1 4 9\n"
      "\tadd.s32 %r2, %r1, 1;\n"
      "\t.loc\t1 0 5\n"
      "\t.loc\t1 5 5\n"
      "\tst.global.u32 [%rd1], %r2;\n"
      "\t.file\t1 \"k.py\"\n";
  EXPECT_EQ(cli::interleavePtx(ptx, file),
            "\t// k.py:3  def k(x):\n"
            "\t.loc\t1 3 0\n"
            "\tld.param.u64 %rd1, [p];\n"
            "\t// k.py:4  i = cuda.grid(1)\n"
            "\t.loc\t1 4 5\n"
            "\tmov.u32 %r1, %tid.x;\n"
            "\t.loc\t1 4 9\n"
            "\tadd.s32 %r2, %r1, 1;\n"
            "\t.loc\t1 0 5\n"
            "\t// k.py:5  x[i] = 2\n"
            "\t.loc\t1 5 5\n"
            "\tst.global.u32 [%rd1], %r2;\n"
            "\t.file\t1 \"k.py\"\n");
}

TEST(InspectAsm, PtxOfAnotherFileShowsOnlyThePosition) {
  frontend::SourceFile file = kernelFile();
  EXPECT_EQ(cli::interleavePtx("\t.loc\t2 7 1\n\t.file\t2 \"other.py\"\n", file),
            "\t// other.py:7\n\t.loc\t2 7 1\n\t.file\t2 \"other.py\"\n");
}

TEST(InspectAsm, SassLineCommentsBecomePythonLines) {
  frontend::SourceFile file = kernelFile();
  std::string sass =
      "\t//## File \"k.py\", line 4\n"
      "        /*0010*/                   S2R R2, SR_TID.X ;\n"
      "\t//## File \"k.py\", line 5 inlined at \"k.py\", line 3\n"
      "        /*0020*/                   STG.E desc[UR4][R4.64], R3 ;\n";
  EXPECT_EQ(cli::interleaveSass(sass, file),
            "\t// k.py:4  i = cuda.grid(1)\n"
            "        /*0010*/                   S2R R2, SR_TID.X ;\n"
            "\t// k.py:5  x[i] = 2  (inlined at line 3)\n"
            "        /*0020*/                   STG.E desc[UR4][R4.64], R3 ;\n");
}

TEST(InspectAsm, BadNvdisasmOverrideSaysWhatIsWrong) {
  ::setenv("PYKC_NVDISASM", "/nonexistent/nvdisasm", 1);
  llvm::Expected<std::string> found = cli::findNvdisasm();
  ::unsetenv("PYKC_NVDISASM");
  ASSERT_FALSE(static_cast<bool>(found));
  std::string message = llvm::toString(found.takeError());
  EXPECT_NE(message.find("$PYKC_NVDISASM"), std::string::npos) << message;
}

}  // namespace
