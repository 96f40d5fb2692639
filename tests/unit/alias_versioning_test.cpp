// backend/passes/alias_versioning.h: which kernels get a no-alias body, what the
// check compares, which accesses are tagged, and that lowering's record is
// always removed (the file tests show the whole pipeline on real kernels).
#include <gtest/gtest.h>

#include "function_pass_test_util.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

#include "backend/passes/alias_versioning.h"
#include "lowering/array_params.h"

namespace {

// `for i in range(tid, n, ntid): BODY` over float arrays x, y and out (1-d,
// parameters ptr, shape, stride each); BODY may use %px, %py, %pq (the
// element pointers). RECORD is the `!pykc.arrays` node list.
// PROLOGUE goes into the entry block, before the loop.
std::string kernel(const std::string& body, const std::string& record = "!0",
                   const std::string& prologue = "") {
  return R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define ptx_kernel void @k(ptr %x, i64 %xn, i64 %xs, ptr %y, i64 %yn, i64 %ys, ptr %out, i64 %on, i64 %os) !pykc.arrays )" +
         record + R"( {
entry:
  %a = alloca float, align 4
)" + prologue + R"(
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid = zext i32 %t to i64
  %s = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ntid = zext i32 %s to i64
  %enter = icmp slt i64 %tid, %xn
  br i1 %enter, label %loop, label %exit
loop:
  %i = phi i64 [ %tid, %entry ], [ %i.next, %loop ]
  %px = getelementptr float, ptr %x, i64 %i
  %py = getelementptr float, ptr %y, i64 %i
  %pq = getelementptr float, ptr %out, i64 %i
)" + body + R"(
  %i.next = add nuw nsw i64 %i, %ntid
  %again = icmp slt i64 %i.next, %xn
  br i1 %again, label %loop, label %exit, !llvm.loop !10
exit:
  ret void
}
!0 = !{!1, !2, !3}
!1 = !{i32 0, i32 1, i64 4}
!2 = !{i32 3, i32 1, i64 4}
!3 = !{i32 6, i32 1, i64 4}
!10 = distinct !{!10}
!20 = !{!1, !2}
!21 = !{!1, !2, !{i32 7, i32 1, i64 4}}
!22 = !{!{i32 0, i32 1, i64 4, i32 1}, !{i32 3, i32 1, i64 4, i32 1}, !{i32 6, i32 1, i64 4, i32 1}}
!23 = !{!{i32 0, i32 1, i64 4, i32 1}, !{i32 3, i32 1, i64 4, i32 7}, !3}
)";
}

const char* kSaxpy = R"(
  %vx = load float, ptr %px, align 4
  %vy = load float, ptr %py, align 4
  %v = fadd float %vx, %vy
  store float %v, ptr %pq, align 4
)";

class AliasVersioningTest : public ::testing::Test {
protected:
  // Runs the pass on KERNEL's @k; fails the test on a parse error or
  // invalid result. The module stays in module_.
  llvm::Function* run(const std::string& text, bool enabled = true) {
    llvm::SMDiagnostic error;
    module_ = llvm::parseAssemblyString(text, error, context_);
    if (!module_) {
      std::string message;
      llvm::raw_string_ostream stream(message);
      error.print("test", stream);
      ADD_FAILURE() << message;
      return nullptr;
    }
    llvm::Function& function = *module_->getFunction("k");
    pykc::testing::runFunctionPass(function, backend::AliasVersioningPass(enabled));
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    EXPECT_FALSE(llvm::verifyFunction(function, &stream)) << problems;
    EXPECT_EQ(function.getMetadata(lowering::kArrayParamsMetadata), nullptr);
    return &function;
  }

  static bool versioned(const llvm::Function& function) {
    for (const llvm::BasicBlock& block : function) {
      if (block.getName().ends_with(".noalias")) return true;
    }
    return false;
  }

  static std::string text(const llvm::Function& function) {
    std::string out;
    llvm::raw_string_ostream stream(out);
    function.print(stream);
    return out;
  }

  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
};

TEST_F(AliasVersioningTest, VersionsALoopThatStoresOneArrayAndLoadsOthers) {
  llvm::Function* f = run(kernel(kSaxpy));
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(versioned(*f)) << text(*f);
  // The alloca stays in the entry, which ends in the check's branch.
  const llvm::BasicBlock& entry = f->getEntryBlock();
  EXPECT_TRUE(llvm::isa<llvm::AllocaInst>(entry.front())) << text(*f);
  const auto* branch = llvm::dyn_cast<llvm::BranchInst>(entry.getTerminator());
  ASSERT_TRUE(branch != nullptr && branch->isConditional()) << text(*f);
  EXPECT_TRUE(branch->getSuccessor(0)->getName().ends_with(".noalias"));
  EXPECT_EQ(branch->getSuccessor(1)->getName(), "alias.original");
  // Scopes only in the clone: x's and y's loads and out's store there, none
  // in the original body; the cloned loop has a loop id of its own.
  unsigned scoped = 0;
  unsigned unscoped = 0;
  llvm::MDNode* originalLoop = nullptr;
  llvm::MDNode* cloneLoop = nullptr;
  for (const llvm::BasicBlock& block : *f) {
    bool clone = block.getName().ends_with(".noalias");
    for (const llvm::Instruction& instruction : block) {
      if (llvm::isa<llvm::LoadInst, llvm::StoreInst>(instruction)) {
        bool has = instruction.getMetadata(llvm::LLVMContext::MD_alias_scope) != nullptr &&
                   instruction.getMetadata(llvm::LLVMContext::MD_noalias) != nullptr;
        EXPECT_EQ(has, clone) << text(*f);
        (has ? scoped : unscoped) += 1;
      }
      if (llvm::MDNode* id = instruction.getMetadata(llvm::LLVMContext::MD_loop)) {
        (clone ? cloneLoop : originalLoop) = id;
      }
    }
  }
  EXPECT_EQ(scoped, 3u);
  EXPECT_EQ(unscoped, 3u);
  ASSERT_NE(originalLoop, nullptr);
  ASSERT_NE(cloneLoop, nullptr);
  EXPECT_NE(originalLoop, cloneLoop);
  // Two pairs are checked (x-out, y-out), not x-y: four unsigned compares.
  std::string body = text(*f);
  size_t compares = 0;
  for (size_t at = body.find("icmp ule"); at != std::string::npos; at = body.find("icmp ule", at + 1)) {
    ++compares;
  }
  EXPECT_EQ(compares, 4u) << body;
}

TEST_F(AliasVersioningTest, ContiguousArraysNeedNoMinMaxOrStride) {
  // Layout C (lowering::kArrayLayoutC): [data, data + n * 4), no smin/smax, no
  // multiplication by the stride parameters.
  llvm::Function* f = run(kernel(kSaxpy, "!22"));
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(versioned(*f));
  std::string body = text(*f);
  EXPECT_EQ(body.find("smin"), std::string::npos) << body;
  EXPECT_EQ(body.find("smax"), std::string::npos) << body;
  for (const char* stride : {"%xs", "%ys", "%os"}) {
    EXPECT_EQ(body.find(stride, body.find("{")), std::string::npos) << stride << body;
  }
  // Without the layout field any stride may be negative.
  body = text(*run(kernel(kSaxpy)));
  EXPECT_NE(body.find("smin"), std::string::npos) << body;
  // A layout that is none of the three: a bad record, nothing versioned.
  EXPECT_FALSE(versioned(*run(kernel(kSaxpy, "!23"))));
}

// `if tid < xn: n = y[tid]; for i in range(n): out[i] = x[i]`, then a join
// whose PHI takes a value from the loop's exit (nvtabular's _slice_rows).
const char* kGuardedLoop = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @k(ptr %x, i64 %xn, i64 %xs, ptr %y, i64 %yn, i64 %ys, ptr %out, i64 %on, i64 %os) !pykc.arrays !0 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid = zext i32 %t to i64
  %enter = icmp slt i64 %tid, %xn
  br i1 %enter, label %row, label %join
row:
  %pn = getelementptr i64, ptr %y, i64 %tid
  %n = load i64, ptr %pn, align 8
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %loop, label %join
loop:
  %i = phi i64 [ 0, %row ], [ %i.next, %loop ]
  %px = getelementptr float, ptr %x, i64 %i
  %v = load float, ptr %px, align 4
  %pq = getelementptr float, ptr %out, i64 %i
  store float %v, ptr %pq, align 4
  %i.next = add nuw nsw i64 %i, 1
  %again = icmp slt i64 %i.next, %n
  br i1 %again, label %loop, label %join, !llvm.loop !10
join:
  %last = phi i64 [ 0, %entry ], [ -1, %row ], [ %i.next, %loop ]
  %pl = getelementptr i64, ptr %y, i64 %last
  store i64 0, ptr %pl, align 8
  ret void
}
!0 = !{!1, !2, !3}
!1 = !{i32 0, i32 1, i64 4, i32 1}
!2 = !{i32 3, i32 1, i64 8, i32 1}
!3 = !{i32 6, i32 1, i64 4, i32 1}
!10 = distinct !{!10}
)";

TEST_F(AliasVersioningTest, ChecksAboveTheLoopsAndClonesWhatThatDominates) {
  llvm::Function* f = run(kGuardedLoop);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(versioned(*f)) << text(*f);
  // The check ends `row` (the loop's way in), after the row's load; the
  // entry and `row`'s load are not cloned.
  llvm::BasicBlock* row = nullptr;
  unsigned rowLoads = 0;
  for (llvm::BasicBlock& block : *f) {
    if (block.getName() == "row") row = &block;
    for (llvm::Instruction& instruction : block) {
      auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
      if (load != nullptr && load->getType()->isIntegerTy(64)) ++rowLoads;
    }
  }
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(rowLoads, 1u) << text(*f);
  const auto* branch = llvm::dyn_cast<llvm::BranchInst>(row->getTerminator());
  ASSERT_TRUE(branch != nullptr && branch->isConditional()) << text(*f);
  EXPECT_TRUE(branch->getSuccessor(0)->getName().ends_with(".noalias")) << text(*f);
  EXPECT_EQ(branch->getSuccessor(1)->getName(), "alias.original");
  const auto* entryBranch = llvm::dyn_cast<llvm::BranchInst>(f->getEntryBlock().getTerminator());
  ASSERT_NE(entryBranch, nullptr);
  for (const llvm::BasicBlock* successor : entryBranch->successors()) {
    EXPECT_FALSE(successor->getName().ends_with(".noalias")) << text(*f);
  }
  // The join (not dominated by the check) takes both bodies' edges: entry,
  // the two ways out of `row`'s split-off branch, the two loops' exits.
  for (const llvm::BasicBlock& block : *f) {
    if (block.getName() != "join") continue;
    const llvm::PHINode& phi = *block.phis().begin();
    EXPECT_EQ(phi.getNumIncomingValues(), 5u) << text(*f);
  }
}

TEST_F(AliasVersioningTest, LeavesKernelsWhereNoLoopMixesArrays) {
  // Loads only.
  EXPECT_FALSE(versioned(*run(kernel("  %vx = load float, ptr %px, align 4\n"))));
  // Stores only.
  EXPECT_FALSE(versioned(*run(kernel("  store float 1.0, ptr %pq, align 4\n"))));
  // In place: the loop loads and stores one array.
  EXPECT_FALSE(versioned(*run(kernel("  %vq = load float, ptr %pq, align 4\n"
                                     "  store float %vq, ptr %pq, align 4\n"))));
  // Atomics stay untagged: no tagged store.
  EXPECT_FALSE(versioned(*run(kernel("  %vx = load float, ptr %px, align 4\n"
                                     "  %old = atomicrmw fadd ptr %pq, float %vx monotonic\n"))));
  // A store through a pointer based on two arrays is not tagged either.
  EXPECT_FALSE(versioned(*run(kernel("  %vx = load float, ptr %px, align 4\n"
                                     "  %c = fcmp olt float %vx, 0.0\n"
                                     "  %p = select i1 %c, ptr %py, ptr %pq\n"
                                     "  store float %vx, ptr %p, align 4\n"))));
}

TEST_F(AliasVersioningTest, OffOrBadRecordsOnlyRemoveTheRecord) {
  EXPECT_FALSE(versioned(*run(kernel(kSaxpy), /*enabled=*/false)));
  // One array recorded: nothing to check against.
  EXPECT_FALSE(versioned(*run(kernel(kSaxpy, "!20"))));
  // A record naming a parameter that is not a pointer (a lowering bug).
  EXPECT_FALSE(versioned(*run(kernel(kSaxpy, "!21"))));
}

TEST_F(AliasVersioningTest, CapsTheKernelAndLoopSizes) {
  // kAliasVersioningMaxSize instructions more before the loop.
  std::string big;
  for (unsigned i = 0; i < backend::kAliasVersioningMaxSize; ++i) {
    big += "  %f" + std::to_string(i) + " = fadd float 1.0, 2.0\n";
  }
  EXPECT_FALSE(versioned(*run(kernel(kSaxpy, "!0", big))));
  // A loop longer than kAliasVersioningMaxLoopSize (black_scholes' has
  // about 260 instructions): its loads are not worth a second body.
  std::string longLoop(kSaxpy);
  for (unsigned i = 0; i < backend::kAliasVersioningMaxLoopSize; ++i) {
    longLoop += "  %g" + std::to_string(i) + " = fadd float %v, 1.0\n";
  }
  EXPECT_FALSE(versioned(*run(kernel(longLoop))));
  EXPECT_TRUE(versioned(*run(kernel(kSaxpy))));
}

}  // namespace
