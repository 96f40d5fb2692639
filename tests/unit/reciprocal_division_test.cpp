// backend/passes/reciprocal_division.h: which float32 divisions ReciprocalDivisionPass
// rewrites, what it emits, and (on the CPU, with a float64 reciprocal seed far
// worse than the GPU's) that the rewritten arithmetic is IEEE's quotient bit
// for bit.
#include <gtest/gtest.h>

#include "function_pass_test_util.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backend/passes/reciprocal_division.h"

namespace {

struct Counts {
  int fdivFloat = 0;
  int rcpCalls = 0;
  int fptrunc = 0;
  int rcpInLoop = 0;
};

class ReciprocalDivisionTest : public ::testing::Test {
protected:
  // Parses `text`, runs the pass on @f, verifies the module and counts what is left.
  Counts run(const std::string& text) {
    llvm::SMDiagnostic error;
    module_ = llvm::parseAssemblyString(text, error, context_);
    if (!module_) {
      std::string message;
      llvm::raw_string_ostream stream(message);
      error.print("test", stream);
      ADD_FAILURE() << message;
      return {};
    }
    llvm::Function* f = module_->getFunction("f");
    pykc::testing::runFunctionPass(*f, backend::ReciprocalDivisionPass());
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    EXPECT_FALSE(llvm::verifyModule(*module_, &stream)) << problems;
    Counts c;
    for (llvm::BasicBlock& block : *f) {
      for (llvm::Instruction& i : block) {
        if (i.getOpcode() == llvm::Instruction::FDiv && i.getType()->isFloatTy()) ++c.fdivFloat;
        if (llvm::isa<llvm::FPTruncInst>(i)) ++c.fptrunc;
        if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
            call != nullptr && call->getIntrinsicID() == llvm::Intrinsic::nvvm_rcp_approx_ftz_d) {
          ++c.rcpCalls;
          if (block.getName() == "loop") ++c.rcpInLoop;
        }
      }
    }
    return c;
  }

  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
};

const char* kHeader = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
)";

TEST_F(ReciprocalDivisionTest, TwoDivisionsByOneValueShareOneReciprocal) {
  Counts c = run(std::string(kHeader) + R"(
define float @f(float %a, float %b, float %d) {
  %x = fdiv float %a, %d
  %y = fdiv float %b, %d
  %s = fadd float %x, %y
  ret float %s
}
)");
  EXPECT_EQ(c.fdivFloat, 0);
  EXPECT_EQ(c.rcpCalls, 1);
  EXPECT_EQ(c.fptrunc, 2);
}

TEST_F(ReciprocalDivisionTest, OneDivisionOutsideLoopsStays) {
  Counts c = run(std::string(kHeader) + R"(
define float @f(float %a, float %d) {
  %x = fdiv float %a, %d
  ret float %x
}
)");
  EXPECT_EQ(c.fdivFloat, 1);
  EXPECT_EQ(c.rcpCalls, 0);
}

TEST_F(ReciprocalDivisionTest, LoopInvariantDivisorGetsItsReciprocalOutsideTheLoop) {
  Counts c = run(std::string(kHeader) + R"(
define void @f(ptr %p, float %d, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %q = getelementptr float, ptr %p, i32 %i
  %v = load float, ptr %q
  %x = fdiv float %v, %d
  store float %x, ptr %q
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
)");
  EXPECT_EQ(c.fdivFloat, 0);
  EXPECT_EQ(c.rcpCalls, 1);
  EXPECT_EQ(c.rcpInLoop, 0);
}

TEST_F(ReciprocalDivisionTest, DivisorComputedInTheLoopOnceStays) {
  Counts c = run(std::string(kHeader) + R"(
define void @f(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %q = getelementptr float, ptr %p, i32 %i
  %v = load float, ptr %q
  %d = fadd float %v, 1.0
  %x = fdiv float 3.0, %d
  store float %x, ptr %q
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
)");
  EXPECT_EQ(c.fdivFloat, 1);
  EXPECT_EQ(c.rcpCalls, 0);
}

TEST_F(ReciprocalDivisionTest, ConstantDivisorFoldsItsReciprocal) {
  Counts c = run(std::string(kHeader) + R"(
define float @f(float %a) {
  %x = fdiv float %a, 3.0
  ret float %x
}
)");
  EXPECT_EQ(c.fdivFloat, 0);
  EXPECT_EQ(c.rcpCalls, 0);
  EXPECT_EQ(c.fptrunc, 1);
}

TEST_F(ReciprocalDivisionTest, FastMathAndFlushedDenormalsAndDoublesStay) {
  Counts fast = run(std::string(kHeader) + R"(
define float @f(float %a, float %b, float %d) {
  %x = fdiv arcp float %a, %d
  %y = fdiv arcp float %b, %d
  %s = fadd float %x, %y
  ret float %s
}
)");
  EXPECT_EQ(fast.fdivFloat, 2);
  Counts ftz = run(std::string(kHeader) + R"(
define float @f(float %a, float %b, float %d) #0 {
  %x = fdiv float %a, %d
  %y = fdiv float %b, %d
  %s = fadd float %x, %y
  ret float %s
}
attributes #0 = { "denormal-fp-math-f32"="preserve-sign,preserve-sign" }
)");
  EXPECT_EQ(ftz.fdivFloat, 2);
  Counts f64 = run(std::string(kHeader) + R"(
define double @f(double %a, double %b, double %d) {
  %x = fdiv double %a, %d
  %y = fdiv double %b, %d
  %s = fadd double %x, %y
  ret double %s
}
)");
  EXPECT_EQ(f64.rcpCalls, 0);
}

// The rewritten arithmetic on the CPU. The seed stands in for rcp.approx.ftz.f64:
// 1/d cut to 16 significant bits and moved by up to 2^-16, far worse than the GPU.
double seedFor(double d) {
  double r = 1.0 / d;
  if (!std::isfinite(r) || r == 0.0) return r;
  int e = 0;
  double m = std::frexp(r, &e);
  m = std::trunc(m * 65536.0) / 65536.0;
  uint64_t bits = std::bit_cast<uint64_t>(d);
  double wobble = static_cast<double>(static_cast<int>((bits * 0x9E3779B97F4A7C15ull) >> 60)) - 7.5;
  return std::ldexp(m * (1.0 + wobble / 7.5 * 0x1p-16), e);
}

// Both forms the pass emits: the select of the seed for ±0/±inf divisors
// (straight-line uses), and the product with it (uses in a loop).
float divide(float a, float d, bool product) {
  double d64 = d;
  double seed = seedFor(d64);
  bool exact = std::fabs(seed) == std::numeric_limits<double>::infinity() || seed == 0.0;
  double r = 0.0;
  if (product) {
    double minusD = -(exact ? 1.0 : d64);
    double y = exact ? 1.0 : seed;
    for (int step = 0; step < 3; ++step) y = std::fma(y, std::fma(minusD, y, 1.0), y);
    r = y * (exact ? seed : 1.0);
  } else {
    double y = seed;
    for (int step = 0; step < 3; ++step) y = std::fma(y, std::fma(-d64, y, 1.0), y);
    r = exact ? seed : y;
  }
  return static_cast<float>(static_cast<double>(a) * r);
}

bool same(float got, float want) {
  if (std::isnan(want)) return std::isnan(got);
  return std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(want);
}

TEST(ReciprocalDivisionMath, SpecialValuesAndRangeEdges) {
  const float inf = std::numeric_limits<float>::infinity();
  const float values[] = {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::min(), -std::numeric_limits<float>::min(),
                          std::numeric_limits<float>::denorm_min(), 0x1.fffffcp-127f,
                          std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), 1.0f, 3.0f,
                          -7.0f, 0.1f, 0x1p-126f, 0x1p127f, 0x1.000002p0f, 0x1.fffffep0f, 1e-30f, 3e30f};
  int checked = 0;
  for (bool product : {false, true}) {
    for (float a : values) {
      for (float d : values) {
        EXPECT_TRUE(same(divide(a, d, product), a / d)) << a << " / " << d << " (product " << product << ")";
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 882);
}

TEST(ReciprocalDivisionMath, RandomBitPatternsAndEveryMantissa) {
  std::mt19937_64 rng(20261130);
  int wrong = 0;
  for (int i = 0; i < 4'000'000 && wrong < 10; ++i) {
    float a = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    float d = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    bool product = (i & 1) != 0;
    if (!same(divide(a, d, product), a / d)) {
      ++wrong;
      ADD_FAILURE() << std::hexfloat << a << " / " << d;
    }
  }
  // Every significand of a (one binade) for divisors near hard cases.
  for (float d : {3.0f, 0x1.fffffep0f, 0x1.000002p-130f, 0x1.5555p100f, -0x1.abcdefp-20f}) {
    for (uint32_t m = 0; m < (1u << 23) && wrong < 10; ++m) {
      float a = std::bit_cast<float>(0x3f800000u | m);
      if (!same(divide(a, d, (m & 1) != 0), a / d)) {
        ++wrong;
        ADD_FAILURE() << std::hexfloat << a << " / " << d;
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

}  // namespace
