// backend/passes/load_pins.h: RemoveLoadPinsPass erases the pins and moves a
// user that InstCombine sank below a pinned branch back above it (so that
// ptxas keeps the load there), but only a cheap one that cannot fault and
// whose operands are available before the branch.
#include <gtest/gtest.h>

#include "function_pass_test_util.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>
#include <vector>

#include "backend/passes/load_pins.h"

namespace {

// Three loads and a pinned branch on the first two; THEN is the block taken
// (%n, %r, %b are the loads; %d the condition's difference).
std::string kernel(const std::string& then) {
  return R"(
declare void @llvm.sideeffect()
define void @k(ptr %a, ptr %b.p, ptr %c, ptr %out, float %s) {
entry:
  %n = load float, ptr %a, align 4
  %r = load float, ptr %b.p, align 4
  %b = load float, ptr %c, align 4
  %d = fsub float %n, %r
  %cond = fcmp une float %d, 0.0
  call void @llvm.sideeffect(), !pykc.load_pin !0
  br i1 %cond, label %then, label %done
then:
)" + then + R"(
  br label %done
done:
  ret void
}
!0 = !{}
)";
}

class LoadPinsTest : public ::testing::Test {
protected:
  // The names of the entry block's instructions after the pass ("" for
  // unnamed ones), failing the test on invalid IR.
  std::vector<std::string> entryAfterPass(const std::string& text) {
    llvm::SMDiagnostic error;
    auto module = llvm::parseAssemblyString(text, error, context_);
    if (!module) {
      ADD_FAILURE() << error.getMessage().str();
      return {};
    }
    llvm::Function& function = *module->getFunction("k");
    pykc::testing::runFunctionPass(function, backend::RemoveLoadPinsPass());
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    EXPECT_FALSE(llvm::verifyFunction(function, &stream)) << problems;
    std::vector<std::string> names;
    for (const llvm::Instruction& instruction : function.getEntryBlock()) {
      names.push_back(instruction.getName().str());
    }
    return names;
  }

  llvm::LLVMContext context_;
};

TEST_F(LoadPinsTest, MovesTheSunkSubtractionAboveTheBranch) {
  auto names = entryAfterPass(kernel(R"(
  %num = fsub float %n, %b
  %q = fdiv float %num, %d
  store float %q, ptr %out, align 4)"));
  std::vector<std::string> expected{"n", "r", "b", "d", "cond", "num", ""};
  EXPECT_EQ(names, expected);
}

TEST_F(LoadPinsTest, LeavesDivisionsStoresAndSuccessorOperandsBelow) {
  // %b's users: a division (not cheap), a store (may not move), and an add
  // of a value computed in the successor.
  auto names = entryAfterPass(kernel(R"(
  %q = fdiv float %b, %d
  store float %q, ptr %out, align 4
  store float %b, ptr %out, align 4
  %t = fmul float %s, %s
  %u = fadd float %t, %b
  store float %u, ptr %out, align 4)"));
  std::vector<std::string> expected{"n", "r", "b", "d", "cond", ""};
  EXPECT_EQ(names, expected);
}

TEST_F(LoadPinsTest, LeavesIntegerExtensionsWithTheirUsers) {
  // SelectionDAG folds `sext` into the multiply within a block (mul.wide.s32).
  auto names = entryAfterPass(R"(
declare void @llvm.sideeffect()
define void @k(ptr %a, ptr %out, i1 %cond) {
entry:
  %v = load i32, ptr %a, align 4
  call void @llvm.sideeffect(), !pykc.load_pin !0
  br i1 %cond, label %then, label %done
then:
  %w = sext i32 %v to i64
  %m = mul i64 %w, 12
  store i64 %m, ptr %out, align 8
  br label %done
done:
  ret void
}
!0 = !{}
)");
  std::vector<std::string> expected{"v", ""};
  EXPECT_EQ(names, expected);
}

TEST_F(LoadPinsTest, LeavesALoadUsedAboveTheBranchAlone) {
  // %n and %r have a user in their block (%d); %b is not used at all.
  auto names = entryAfterPass(kernel(R"(
  %m = fmul float %n, %r
  store float %m, ptr %out, align 4)"));
  std::vector<std::string> expected{"n", "r", "b", "d", "cond", ""};
  EXPECT_EQ(names, expected);
}

}  // namespace
