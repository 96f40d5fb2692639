// backend/passes/read_loop_unroll.h: which loops get `llvm.loop.unroll.count` 8 or 4, and
// that emitPtx then issues the loads of a strided reduction eight at a time.
#include <gtest/gtest.h>

#include "function_pass_test_util.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <memory>
#include <string>

#include "backend/options.h"
#include "backend/ptx.h"
#include "backend/passes/read_loop_unroll.h"
#include "backend/target.h"

namespace {

// A kernel `for i in range(tid, n, STEP): BODY` over float arrays x and out,
// with `acc` summing what BODY loads; STEP is an i64 value, BODY may use %i,
// %p (x + i) and %q (out + i) and must define %v (the float added to acc).
std::string loopKernel(const std::string& step, const std::string& body) {
  return R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@sh = internal addrspace(3) global [256 x i32] undef, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define ptx_kernel void @k(ptr %x, ptr %out, i64 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !0
  %tid = zext i32 %t to i64
  %s = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !range !1
  %ntid = zext i32 %s to i64
  %enter = icmp slt i64 %tid, %n
  br i1 %enter, label %loop, label %exit
loop:
  %i = phi i64 [ %tid, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr float, ptr %x, i64 %i
  %q = getelementptr float, ptr %out, i64 %i
)" + body + R"(
  %acc.next = fadd float %acc, %v
  %i.next = add nuw nsw i64 %i, )" + step + R"(
  %again = icmp slt i64 %i.next, %n
  br i1 %again, label %loop, label %exit
exit:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  store float %r, ptr %out
  ret void
}
!0 = !{i32 0, i32 1024}
!1 = !{i32 1, i32 1025}
)";
}

const char* kLoad = "  %v = load float, ptr %p, align 4\n";

class ReadLoopUnrollTest : public ::testing::Test {
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

  // The module after ReadLoopUnrollPass alone, as text.
  std::string runPass(const std::string& text) {
    auto module = parse(text);
    if (!module) return {};
    for (llvm::Function& function : *module) pykc::testing::runFunctionPass(function, backend::ReadLoopUnrollPass());
    std::string out;
    llvm::raw_string_ostream stream(out);
    module->print(stream, nullptr);
    return out;
  }

  // The unroll count the pass gave the loop; 0: none.
  unsigned countOf(const std::string& text) {
    std::string out = runPass(text);
    const std::string key = "!\"llvm.loop.unroll.count\", i32 ";
    size_t at = out.find(key);
    return at == std::string::npos ? 0 : static_cast<unsigned>(std::stoul(out.substr(at + key.size())));
  }
  bool marked(const std::string& text) { return countOf(text) != 0; }

  llvm::LLVMContext context_;
};

TEST_F(ReadLoopUnrollTest, MarksABlockStrideReduction) {
  // Read-only: eight loads in flight (kReadOnlyLoopUnrollCount).
  EXPECT_EQ(countOf(loopKernel("%ntid", kLoad)), 8u);
}

TEST_F(ReadLoopUnrollTest, LeavesConstantStridesToLlvm) {
  // (n - tid) / 1 is cheap: LLVM's own unroller decides.
  EXPECT_FALSE(marked(loopKernel("1", kLoad)));
  EXPECT_FALSE(marked(loopKernel("4", kLoad)));
}

TEST_F(ReadLoopUnrollTest, LeavesLoopsThatWriteGlobalMemory) {
  // The next load may not pass this store (arrays may alias): no gain.
  EXPECT_FALSE(marked(loopKernel("%ntid", std::string(kLoad) + "  store float %v, ptr %q, align 4\n")));
  EXPECT_FALSE(marked(loopKernel(
      "%ntid", std::string(kLoad) + "  %old = atomicrmw fadd ptr %q, float %v monotonic\n")));
}

TEST_F(ReadLoopUnrollTest, AllowsSharedMemoryAtomics) {
  // A histogram: global loads, shared-memory atomics.
  EXPECT_TRUE(marked(loopKernel(
      "%ntid", std::string(kLoad) +
                   "  %bin = and i64 %i, 255\n"
                   "  %sp = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @sh to ptr), i64 %bin\n"
                   "  %old = atomicrmw add ptr %sp, i32 1 monotonic\n")));
}

TEST_F(ReadLoopUnrollTest, LeavesLoopsWithoutGlobalLoads) {
  EXPECT_FALSE(marked(loopKernel("%ntid", "  %v = uitofp i64 %i to float\n")));
  EXPECT_FALSE(marked(loopKernel(
      "%ntid",
      "  %sp = getelementptr float, ptr addrspacecast (ptr addrspace(3) @sh to ptr), i64 %i\n"
      "  %v = load float, ptr %sp, align 4\n")));
}

TEST_F(ReadLoopUnrollTest, LeavesLoopsWithBarriersOrVolatileLoads) {
  EXPECT_FALSE(marked(loopKernel("%ntid", "  %v = load volatile float, ptr %p, align 4\n")));
  std::string barrier = loopKernel("%ntid", std::string(kLoad) + "  call void @llvm.nvvm.barrier0()\n");
  barrier += "declare void @llvm.nvvm.barrier0() convergent nounwind\n";
  EXPECT_FALSE(marked(barrier));
}

// An alias-versioned body's scopes (backend/passes/alias_versioning.h): x, out.
const char* kScopes = R"(
!10 = distinct !{!10, !"k"}
!11 = distinct !{!11, !10, !"x"}
!12 = distinct !{!12, !10, !"out"}
!20 = !{!11}
!21 = !{!12}
)";
const char* kScopedLoad = "  %v = load float, ptr %p, align 4, !alias.scope !20, !noalias !21\n";

TEST_F(ReadLoopUnrollTest, MarksLoopsWhoseStoresAreApartFromTheirLoads) {
  // `out[i] = x[i]` in a no-alias body: x's loads may pass out's stores. A
  // loop that stores is unrolled by four (kReadLoopUnrollCount).
  EXPECT_EQ(countOf(loopKernel("%ntid", std::string(kScopedLoad) +
                                            "  store float %v, ptr %q, align 4, "
                                            "!alias.scope !21, !noalias !20\n") +
                    kScopes),
            4u);
  // `out[i] = out[i] + x[i]`: the store may write what the next out load reads.
  EXPECT_FALSE(marked(loopKernel("%ntid", std::string(kScopedLoad) +
                                              "  %w = load float, ptr %q, align 4, "
                                              "!alias.scope !21, !noalias !20\n"
                                              "  store float %w, ptr %q, align 4, "
                                              "!alias.scope !21, !noalias !20\n") +
                      kScopes));
  // A scoped store next to an unscoped load.
  EXPECT_FALSE(marked(loopKernel("%ntid", std::string(kLoad) +
                                              "  store float %v, ptr %q, align 4, "
                                              "!alias.scope !21, !noalias !20\n") +
                      kScopes));
}

TEST_F(ReadLoopUnrollTest, EmitPtxIssuesEightOrFourLoadsPerIteration) {
  auto count = [](const std::string& ptx, const std::string& what) {
    size_t n = 0;
    for (size_t at = ptx.find(what); at != std::string::npos; at = ptx.find(what, at + 1)) ++n;
    return n;
  };
  backend::CodegenOptions options;
  auto strided = parse(loopKernel("%ntid", kLoad));
  auto ptx = backend::emitPtx(*strided, options);
  ASSERT_TRUE(static_cast<bool>(ptx)) << llvm::toString(ptx.takeError());
  // Eight in the unrolled body, one in the remainder loop.
  EXPECT_EQ(count(*ptx, "ld.global.f32"), 9u) << *ptx;
  auto storing = parse(loopKernel("%ntid", std::string(kLoad) + "  store float %v, ptr %q, align 4\n"));
  auto plain = backend::emitPtx(*storing, options);
  ASSERT_TRUE(static_cast<bool>(plain)) << llvm::toString(plain.takeError());
  EXPECT_EQ(count(*plain, "ld.global.f32"), 1u) << *plain;
  // With the stores apart from the loads: four loads, then four stores.
  auto scoped = parse(loopKernel("%ntid", std::string(kScopedLoad) +
                                              "  store float %v, ptr %q, align 4, "
                                              "!alias.scope !21, !noalias !20\n") +
                      kScopes);
  auto batched = backend::emitPtx(*scoped, options);
  ASSERT_TRUE(static_cast<bool>(batched)) << llvm::toString(batched.takeError());
  EXPECT_EQ(count(*batched, "ld.global.f32"), 5u) << *batched;
  // The longest run of loads with no store between them: the unrolled body's.
  size_t run = 0;
  size_t longest = 0;
  for (size_t at = 0; at < batched->size();) {
    size_t load = batched->find("ld.global.f32", at);
    size_t store = batched->find("st.global.f32", at);
    if (load == std::string::npos) break;
    if (store < load) {
      run = 0;
      at = store + 1;
      continue;
    }
    longest = std::max(longest, ++run);
    at = load + 1;
  }
  EXPECT_EQ(longest, 4u) << *batched;
}

}  // namespace
