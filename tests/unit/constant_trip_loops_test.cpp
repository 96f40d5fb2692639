// backend/passes/constant_trip_loops.h: which `range(start, stop)` loops get a
// counted exit test, that the IR stays valid, and that the pipeline then unrolls
// a 25-iteration window loop fully (advent day09's find_impostor).
#include <gtest/gtest.h>

#include "function_pass_test_util.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

#include "backend/passes/constant_trip_loops.h"

namespace {

// for (iv = START; iv PRED STOP; iv += STEP) s += a[iv]; with %lo, %n as inputs and
// STOP_DEF computing %stop in the entry block.
std::string loop(const std::string& stopDef, const std::string& pred, const std::string& step = "1") {
  return R"(
define i64 @k(ptr %a, i64 %lo, i64 %n) {
entry:
)" + stopDef + R"(
  br label %head
head:
  %iv = phi i64 [ %lo, %entry ], [ %next, %body ]
  %s = phi i64 [ 0, %entry ], [ %s2, %body ]
  %more = icmp )" + pred + R"( i64 %iv, %stop
  br i1 %more, label %body, label %done
body:
  %p = getelementptr i32, ptr %a, i64 %iv
  %v = load i32, ptr %p, align 4
  %w = sext i32 %v to i64
  %s2 = add i64 %s, %w
  %next = add nsw i64 %iv, )" + step + R"(
  br label %head
done:
  ret i64 %s
}
)";
}

class ConstantTripLoopsTest : public ::testing::Test {
protected:
  // The header's branch condition after the pass, printed ("" on a parse error).
  std::string exitTest(const std::string& text) {
    llvm::SMDiagnostic error;
    auto module = llvm::parseAssemblyString(text, error, context_);
    if (!module) {
      ADD_FAILURE() << error.getMessage().str();
      return "";
    }
    llvm::Function& function = *module->getFunction("k");
    pykc::testing::runFunctionPass(function, backend::ConstantTripLoopsPass());
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    EXPECT_FALSE(llvm::verifyFunction(function, &stream)) << problems;
    for (llvm::BasicBlock& block : function) {
      if (block.getName() != "head") continue;
      auto* branch = llvm::cast<llvm::BranchInst>(block.getTerminator());
      std::string text;
      llvm::raw_string_ostream out(text);
      branch->getCondition()->print(out);
      return text;
    }
    return "";
  }

  llvm::LLVMContext context_;
};

TEST_F(ConstantTripLoopsTest, StopAConstantPastStartIsCounted) {
  EXPECT_EQ(exitTest(loop("  %stop = add i64 %lo, 25", "slt")),
            "  %more.counted = icmp ult i64 %iv.from.start, 25");
  EXPECT_EQ(exitTest(loop("  %stop = add i64 25, %lo", "ult")),
            "  %more.counted = icmp ult i64 %iv.from.start, 25");
}

TEST_F(ConstantTripLoopsTest, OtherLoopsKeepTheirTest) {
  // stop - start not a constant, a negative count, another step, a `<=` test.
  EXPECT_EQ(exitTest(loop("  %stop = add i64 %n, 25", "slt")), "  %more = icmp slt i64 %iv, %stop");
  EXPECT_EQ(exitTest(loop("  %stop = add i64 %lo, -3", "slt")), "  %more = icmp slt i64 %iv, %stop");
  EXPECT_EQ(exitTest(loop("  %stop = add i64 %lo, 25", "slt", "2")), "  %more = icmp slt i64 %iv, %stop");
  EXPECT_EQ(exitTest(loop("  %stop = add i64 %lo, 25", "sle")), "  %more = icmp sle i64 %iv, %stop");
}

}  // namespace
