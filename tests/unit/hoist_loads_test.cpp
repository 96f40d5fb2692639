// backend/passes/hoist_loads.h: where HoistLoadsPass puts a block's global loads,
// that the IR stays valid, and that emitPtx issues them before long-latency
// math (black_scholes' pattern).
#include <gtest/gtest.h>

#include "function_pass_test_util.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>
#include <vector>

#include "backend/passes/hoist_loads.h"
#include "backend/options.h"
#include "backend/ptx.h"
#include "backend/target.h"

namespace {

// A kernel with one block: BODY, then `ret void`.
std::string kernel(const std::string& body) {
  return R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare double @llvm.sqrt.f64(double)
declare void @opaque()

define ptx_kernel void @k(ptr %t, ptr %s, ptr %x, ptr %out, i64 %i) {
entry:
)" + body + R"(
  ret void
}
)";
}

class HoistLoadsTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { backend::initializeNvptxTarget(); }

  std::unique_ptr<llvm::Module> parse(const std::string& text) {
    llvm::SMDiagnostic error;
    auto module = llvm::parseAssemblyString(text, error, context_);
    if (!module) {
      std::string message;
      llvm::raw_string_ostream stream(message);
      error.print("test", stream);
      ADD_FAILURE() << message;
    }
    return module;
  }

  // The names of the entry block's instructions after HoistLoadsPass, in
  // order ("" for unnamed ones); fails the test if the result is invalid IR.
  std::vector<std::string> runPass(const std::string& body, const std::string& metadata = "") {
    auto module = parse(kernel(body) + metadata);
    if (!module) return {};
    llvm::Function& function = *module->getFunction("k");
    pykc::testing::runFunctionPass(function, backend::HoistLoadsPass());
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

const char* kBlackScholes = R"(
  %pt = getelementptr double, ptr %t, i64 %i
  %vt = load double, ptr %pt, align 8
  %sq = call double @llvm.sqrt.f64(double %vt)
  %ps = getelementptr double, ptr %s, i64 %i
  %vs = load double, ptr %ps, align 8
  %px = getelementptr double, ptr %x, i64 %i
  %vx = load double, ptr %px, align 8
  %d = fdiv double %vs, %vx
  %r = fadd double %d, %sq
  store double %r, ptr %out, align 8
)";

TEST_F(HoistLoadsTest, LoadsGoAbovePureMathWithTheirAddresses) {
  std::vector<std::string> expected{"pt", "vt", "ps", "vs", "px", "vx", "sq", "d", "r", "", ""};
  EXPECT_EQ(runPass(kBlackScholes), expected);
}

TEST_F(HoistLoadsTest, NothingMovesAboveAStoreOrAnOpaqueCall) {
  std::vector<std::string> expected{"pt", "vt", "", "ps", "vs", "sq", "", "px", "vx", "d", ""};
  EXPECT_EQ(runPass(R"(
  %pt = getelementptr double, ptr %t, i64 %i
  %vt = load double, ptr %pt, align 8
  store double %vt, ptr %out, align 8
  %sq = call double @llvm.sqrt.f64(double %vt)
  %ps = getelementptr double, ptr %s, i64 %i
  %vs = load double, ptr %ps, align 8
  call void @opaque()
  %d = fdiv double %vs, %sq
  %px = getelementptr double, ptr %x, i64 %i
  %vx = load double, ptr %px, align 8
)"),
            expected);
}

TEST_F(HoistLoadsTest, AddressesComputedAfterABarrierStayValid) {
  // The chain of the first load starts right after the store, with an
  // instruction that is already in place.
  EXPECT_EQ(runPass(R"(
  store double 0.0, ptr %out, align 8
  %m = mul i64 %i, 3
  %sq = call double @llvm.sqrt.f64(double 2.0)
  %pt = getelementptr double, ptr %t, i64 %m
  %vt = load double, ptr %pt, align 8
  %ps = getelementptr double, ptr %s, i64 %m
  %vs = load double, ptr %ps, align 8
  %sum = fadd double %vt, %vs
  store double %sum, ptr %out, align 8
)"),
            std::vector<std::string>({"", "m", "pt", "vt", "ps", "vs", "sq", "sum", "", ""}));
}

TEST_F(HoistLoadsTest, IndirectLoadsKeepTheirOrder) {
  // %vs's address needs %vt, which is placed first; %sq reads nothing.
  std::vector<std::string> got = runPass(R"(
  %sq = call double @llvm.sqrt.f64(double 2.0)
  %pt = getelementptr i64, ptr %t, i64 %i
  %vt = load i64, ptr %pt, align 8
  %j = add i64 %vt, 1
  %ps = getelementptr double, ptr %s, i64 %j
  %vs = load double, ptr %ps, align 8
  store double %vs, ptr %out, align 8
)");
  std::vector<std::string> want{"pt", "vt", "j", "ps", "vs", "sq", "", ""};
  EXPECT_EQ(got, want);
}

// Scopes of an alias-versioned body (backend/passes/alias_versioning.h): t, s, out.
const char* kScopes = R"(
!0 = distinct !{!0, !"k"}
!10 = distinct !{!10, !0, !"t"}
!11 = distinct !{!11, !0, !"s"}
!12 = distinct !{!12, !0, !"out"}
!20 = !{!10}
!21 = !{!11}
!22 = !{!12}
!30 = !{!11, !12}
!31 = !{!10, !12}
!32 = !{!10, !11}
)";

TEST_F(HoistLoadsTest, LoadsGoAboveScopedStoresToOtherArrays) {
  // Two elements of `out[i] = t[i]; out[i+1] = s[i]`: both loads first.
  EXPECT_EQ(runPass(R"(
  %pt = getelementptr double, ptr %t, i64 %i
  %vt = load double, ptr %pt, align 8, !alias.scope !20, !noalias !30
  %po = getelementptr double, ptr %out, i64 %i
  store double %vt, ptr %po, align 8, !alias.scope !22, !noalias !32
  %ps = getelementptr double, ptr %s, i64 %i
  %vs = load double, ptr %ps, align 8, !alias.scope !21, !noalias !31
  %pq = getelementptr double, ptr %po, i64 1
  store double %vs, ptr %pq, align 8, !alias.scope !22, !noalias !32
)",
                    kScopes),
            std::vector<std::string>({"pt", "vt", "ps", "vs", "po", "", "pq", "", ""}));
}

TEST_F(HoistLoadsTest, LoadsStayBelowScopedStoresThatMayAlias) {
  // The load of out[j] may read what out[i] wrote (same scope); the load of
  // t[i] has no scope, so it may alias any store.
  EXPECT_EQ(runPass(R"(
  %po = getelementptr double, ptr %out, i64 %i
  store double 1.0, ptr %po, align 8, !alias.scope !22, !noalias !32
  %pj = getelementptr double, ptr %out, i64 3
  %vj = load double, ptr %pj, align 8, !alias.scope !22, !noalias !32
  store double %vj, ptr %s, align 8, !alias.scope !21, !noalias !31
  %pt = getelementptr double, ptr %t, i64 %i
  %vt = load double, ptr %pt, align 8
  store double %vt, ptr %t, align 8
)",
                    kScopes),
            std::vector<std::string>({"po", "", "pj", "vj", "", "pt", "vt", "", ""}));
}

TEST_F(HoistLoadsTest, EmitPtxIssuesTheLoadsBeforeSqrt) {
  auto module = parse(kernel(kBlackScholes));
  ASSERT_TRUE(module != nullptr);
  auto ptx = backend::emitPtx(*module, backend::CodegenOptions{});
  ASSERT_TRUE(static_cast<bool>(ptx)) << llvm::toString(ptx.takeError());
  size_t sqrt = ptx->find("sqrt.rn.f64");
  ASSERT_NE(sqrt, std::string::npos) << *ptx;
  size_t loads = 0;
  for (size_t at = ptx->find("ld.global.f64"); at != std::string::npos && at < sqrt;
       at = ptx->find("ld.global.f64", at + 1)) {
    ++loads;
  }
  EXPECT_EQ(loads, 3u) << *ptx;
}

}  // namespace

namespace {

// exp's shape: a diamond (a slow path on one side) between the first load and
// the second; BETWEEN goes into the slow path, AFTER_JOIN at the join's top.
std::string diamond(const std::string& between, const std::string& afterJoin = "") {
  return R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare double @llvm.exp.f64(double)

define ptx_kernel void @k(ptr %x, ptr %r, ptr %out, i64 %i, i1 %big) {
entry:
  %px = getelementptr double, ptr %x, i64 %i
  %vx = load double, ptr %px, align 8
  br i1 %big, label %slow, label %join
slow:
)" + between + R"(
  br label %join
join:
  %e = phi double [ %vx, %entry ], [ 1.0, %slow ]
)" + afterJoin + R"(
  %pr = getelementptr double, ptr %r, i64 %i
  %vr = load double, ptr %pr, align 8
  %c = fcmp olt double %vr, %e
  br i1 %c, label %write, label %done
write:
  store double %e, ptr %out, align 8
  br label %done
done:
  ret void
}
)";
}

class HoistAboveJoinsTest : public HoistLoadsTest {
protected:
  // The entry block's instruction names after hoistLoadsAboveJoins.
  std::vector<std::string> entryAfter(const std::string& text) {
    auto module = parse(text);
    if (!module) return {};
    llvm::Function& function = *module->getFunction("k");
    llvm::DominatorTree dominators(function);
    llvm::PostDominatorTree postDominators(function);
    llvm::LoopInfo loops(dominators);
    backend::hoistLoadsAboveJoins(function, dominators, postDominators, loops);
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    EXPECT_FALSE(llvm::verifyFunction(function, &stream)) << problems;
    std::vector<std::string> names;
    for (const llvm::Instruction& instruction : function.getEntryBlock()) {
      names.push_back(instruction.getName().str());
    }
    return names;
  }
};

TEST_F(HoistAboveJoinsTest, ALoadAfterTheJoinMovesAboveTheDiamond) {
  std::vector<std::string> expected{"px", "vx", "pr", "vr", ""};
  EXPECT_EQ(entryAfter(diamond("  %y = call double @llvm.exp.f64(double %vx)")), expected);
}

TEST_F(HoistAboveJoinsTest, AStoreBetweenOrAnAddressFromTheJoinKeepsItDown) {
  std::vector<std::string> stays{"px", "vx", ""};
  // The slow path writes memory.
  EXPECT_EQ(entryAfter(diamond("  store double 0.0, ptr %out, align 8")), stays);
  // The address needs the join's PHI.
  EXPECT_EQ(entryAfter(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %x, ptr %r, ptr %out, i64 %i, i1 %big) {
entry:
  %px = getelementptr double, ptr %x, i64 %i
  %vx = load double, ptr %px, align 8
  br i1 %big, label %slow, label %join
slow:
  br label %join
join:
  %j = phi i64 [ %i, %entry ], [ 0, %slow ]
  %pr = getelementptr double, ptr %r, i64 %j
  %vr = load double, ptr %pr, align 8
  store double %vr, ptr %out, align 8
  ret void
}
)"),
            stays);
}

TEST_F(HoistAboveJoinsTest, ALoopBetweenKeepsItDown) {
  // The load would stay live through the whole loop (registers).
  std::vector<std::string> stays{"px", "vx", ""};
  EXPECT_EQ(entryAfter(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %x, ptr %r, ptr %out, i64 %i, i64 %n) {
entry:
  %px = getelementptr double, ptr %x, i64 %i
  %vx = load double, ptr %px, align 8
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %s = phi double [ %vx, %entry ], [ %s1, %loop ]
  %s1 = fmul double %s, %s
  %k1 = add i64 %k, 1
  %more = icmp slt i64 %k1, %n
  br i1 %more, label %loop, label %after
after:
  %pr = getelementptr double, ptr %r, i64 %i
  %vr = load double, ptr %pr, align 8
  %t = fadd double %vr, %s1
  store double %t, ptr %out, align 8
  ret void
}
)"),
            stays);
}

TEST_F(HoistAboveJoinsTest, ALoadOnOneSideOnlyStays) {
  // `write` does not post-dominate the entry: its store's block has no load
  // to move, and the conditional load below stays conditional.
  std::vector<std::string> stays{"px", "vx", ""};
  EXPECT_EQ(entryAfter(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %x, ptr %r, ptr %out, i64 %i, i1 %big) {
entry:
  %px = getelementptr double, ptr %x, i64 %i
  %vx = load double, ptr %px, align 8
  br i1 %big, label %side, label %done
side:
  %pr = getelementptr double, ptr %r, i64 %i
  %vr = load double, ptr %pr, align 8
  store double %vr, ptr %out, align 8
  br label %done
done:
  ret void
}
)"),
            stays);
}

}  // namespace
