// Signature strings and numba's typing tables (sema/signature.h,
// sema/types.h): what golden files cannot reach directly.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "sema/signature.h"
#include "sema/types.h"

namespace frontend {
namespace {

std::string sig(const char* text) {
  TypeTable types;
  SignatureResult r = parseSignature(text, types);
  if (const auto* e = std::get_if<SignatureError>(&r)) {
    return "error@" + std::to_string(e->offset) + ": " + e->message;
  }
  const Signature& s = std::get<Signature>(r);
  std::string out = s.returnType ? types.signatureName(*s.returnType) : std::string("?");
  out += "(";
  for (size_t i = 0; i < s.args.size(); ++i) out += (i ? ", " : "") + types.signatureName(s.args[i]);
  return out + ")";
}

TEST(SignatureTest, NumbaSpellings) {
  EXPECT_EQ(sig("void(float32, float32[::1], int64[:, :])"),
            "void(float32, float32[::1], int64[:, :])");
  EXPECT_EQ(sig("float32(float32, float32)"), "float32(float32, float32)");
  EXPECT_EQ(sig("void(f4, f8, i4, i8, u1, b1, intp, boolean, bool_)"),
            "void(float32, float64, int32, int64, uint8, boolean, int64, boolean, boolean)");
  EXPECT_EQ(sig("void(numba.float32[::1], types.int64)"), "void(float32[::1], int64)");
  EXPECT_EQ(sig("none()"), "void()");
}

TEST(SignatureTest, Layouts) {
  EXPECT_EQ(sig("void(float32[::1, :])"), "void(float32[::1, :])");
  EXPECT_EQ(sig("void(float32[:, :, ::1])"), "void(float32[:, :, ::1])");
  EXPECT_EQ(sig("void(float32[::1,:,:,:])"), "void(float32[::1, :, :, :])");
  EXPECT_EQ(sig("void(float32[: , : : 1])"), "void(float32[:, ::1])");
  // 1-d: [::1] is C.
  TypeTable types;
  auto t = std::get<TypeId>(parseTypeText("int8[::1]", types));
  EXPECT_EQ(types.get(t).layout, Layout::C);
  EXPECT_EQ(types.abiCode(t), "i8a1C");
  auto f = std::get<TypeId>(parseTypeText("float64[::1, :]", types));
  EXPECT_EQ(types.abiCode(f), "f64a2F");
  auto a = std::get<TypeId>(parseTypeText("uint16[:, :, :]", types));
  EXPECT_EQ(types.abiCode(a), "u16a3A");
}

TEST(SignatureTest, ArgsOnlyAndTuples) {
  EXPECT_EQ(sig("(float32[::1], int64)"), "?(float32[::1], int64)");
  EXPECT_EQ(sig("float32[::1], int64"), "?(float32[::1], int64)");
  EXPECT_EQ(sig("void(UniTuple(int64, 3), Tuple(int32, float64))"),
            "void(Tuple(int64, int64, int64), Tuple(int32, float64))");
  TypeTable types;
  auto t = std::get<TypeId>(parseTypeText("Tuple(int32, float32[::1])", types));
  EXPECT_EQ(types.abiCode(t), "t2i32f32a1C");
}

TEST(SignatureTest, Errors) {
  EXPECT_EQ(sig("void(flaot32)"), "error@5: unknown type `flaot32` in signature");
  EXPECT_EQ(sig("void(float32[:, ::1, :])"),
            "error@12: can only specify step 1 (`::1`) in the first or last dimension");
  EXPECT_EQ(sig("void(datetime64)"), "error@5: type `datetime64` is not supported by pykc yet");
  EXPECT_EQ(sig("void(complex64)"), "void(complex64)");
  EXPECT_EQ(sig("void(float32"), "error@12: expected `)` in signature, found the end");
  EXPECT_EQ(sig("void(float32[::2])"), "error@15: expected `1` in signature, found `2`");
  EXPECT_EQ(sig("void(float32) x"), "error@14: unexpected `x` in signature");
}

TEST(SignatureTest, NamedSignature) {
  TypeTable types;
  auto r = parseNamedSignature("saxpy(float32, float32[::1])", types);
  ASSERT_TRUE(std::holds_alternative<NamedSignature>(r));
  const auto& n = std::get<NamedSignature>(r);
  EXPECT_EQ(n.name, "saxpy");
  EXPECT_FALSE(n.signature.returnType.has_value());
  EXPECT_EQ(n.signature.args.size(), 2u);
  auto withReturn = parseNamedSignature("k:void(int64)", types);
  ASSERT_TRUE(std::holds_alternative<NamedSignature>(withReturn));
  EXPECT_TRUE(std::get<NamedSignature>(withReturn).signature.returnType.has_value());
  auto bad = parseNamedSignature("k(int99)", types);
  ASSERT_TRUE(std::holds_alternative<SignatureError>(bad));
  EXPECT_EQ(std::get<SignatureError>(bad).offset, 2u);
}

TEST(SignatureTest, ArrayFacts) {
  // Printed as written (canonical form), normalised: nothing that says nothing.
  EXPECT_EQ(sig("void(float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), shape_divisible_by=(16, 16)))"),
            "void(float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), shape_divisible_by=(16, 16)))");
  EXPECT_EQ(sig("void(float32[:, ::1].assume(stride_divisible_by=4))"),
            "void(float32[:, ::1].assume(stride_divisible_by=(4, 1)))");
  EXPECT_EQ(sig("void(float32[::1].assume(alignment=4, shape_divisible_by=1))"), "void(float32[::1])");
  EXPECT_EQ(sig("void(float16[::1].assume())"), "void(float16[::1])");
  EXPECT_EQ(sig("void(int8[:].assume( alignment = 16 ))"), "void(int8[:].assume(alignment=16))");
  TypeTable types;
  auto a = std::get<TypeId>(parseTypeText("float32[::1].assume(alignment=16)", types));
  auto b = std::get<TypeId>(parseTypeText("float32[::1].assume(alignment=16, shape_divisible_by=1)", types));
  auto plain = std::get<TypeId>(parseTypeText("float32[::1]", types));
  EXPECT_EQ(a, b);                       // one type for one meaning
  EXPECT_NE(a, plain);                   // facts are part of the type
  EXPECT_EQ(types.withoutFacts(a), plain);
  EXPECT_EQ(types.abiCode(a), "f32a1Cq16");
  EXPECT_EQ(types.name(a), "array(float32, 1d, C).assume(alignment=16)");
  // What unification keeps of two arrays with different facts: neither's facts.
  EXPECT_EQ(unifyTypes(types, a, plain), types.array(types.float32(), 1, Layout::A));
  EXPECT_EQ(sig("void(float32[::1].assume(alignment=3))"),
            "error@35: an alignment must be a power of two up to 2^20");
  EXPECT_EQ(sig("void(float32.assume(alignment=16))"), "error@12: `.assume(...)` follows an array type, once");
  EXPECT_EQ(sig("void(float32[::1].assume(alignment=16).assume(alignment=32))"),
            "error@38: `.assume(...)` follows an array type, once");
}

// Every prefix and one-byte change of signatures with facts: a type or an error whose
// offset lies inside the text, never a crash or a hang.
TEST(SignatureTest, ArrayFactsMutations) {
  const std::string seeds[] = {
      "void(float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), shape_divisible_by=(16, 16)))",
      "(int8[::1].assume(shape_divisible_by=16), float16[:, :].assume(stride_divisible_by=(8, 8)))",
  };
  const char alphabet[] = "()[],:=.1 60aszx_";
  uint32_t state = 20261202;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  size_t parsed = 0, rejected = 0;
  for (const std::string& seed : seeds) {
    std::vector<std::string> cases;
    for (size_t n = 0; n <= seed.size(); ++n) cases.push_back(seed.substr(0, n));
    for (int i = 0; i < 4000; ++i) {
      std::string m = seed;
      for (int k = 0; k < 1 + static_cast<int>(next() % 3); ++k) {
        size_t at = next() % m.size();
        switch (next() % 3) {
          case 0: m[at] = alphabet[next() % (sizeof(alphabet) - 1)]; break;
          case 1: m.erase(at, 1); break;
          default: m.insert(at, 1, alphabet[next() % (sizeof(alphabet) - 1)]); break;
        }
      }
      cases.push_back(m);
    }
    for (const std::string& text : cases) {
      TypeTable types;
      SignatureResult r = parseSignature(text, types);
      if (const auto* e = std::get_if<SignatureError>(&r)) {
        EXPECT_LE(e->offset, text.size()) << text;
        EXPECT_FALSE(e->message.empty()) << text;
        ++rejected;
      } else {
        // What parsed prints as a signature that parses to the same types.
        const Signature& s = std::get<Signature>(r);
        std::string again = "(";
        for (size_t i = 0; i < s.args.size(); ++i) again += (i ? ", " : "") + types.signatureName(s.args[i]);
        again += s.args.size() == 1 ? ",)" : ")";
        SignatureResult r2 = parseSignature(again, types);
        ASSERT_TRUE(std::holds_alternative<Signature>(r2)) << text << " -> " << again;
        EXPECT_EQ(std::get<Signature>(r2).args, s.args) << text << " -> " << again;
        ++parsed;
      }
    }
  }
  EXPECT_GT(parsed, 100u);
  EXPECT_GT(rejected, 1000u);
}

// The operator table, checked against numba-cuda 0.30.4's compile_ptx results.
class TypingTest : public ::testing::Test {
protected:
  TypeId t(const char* name) { return std::get<TypeId>(parseTypeText(name, types)); }
  std::string op(ArithOp o, const char* a, const char* b) {
    auto r = binaryResultType(types, o, t(a), t(b));
    return r ? types.name(r->result) : "none";
  }
  std::string unify(const char* a, const char* b) {
    auto r = unifyTypes(types, t(a), t(b));
    return r ? types.name(*r) : "none";
  }
  TypeTable types;
};

TEST_F(TypingTest, IntegerOperatorsWidenTo64Bits) {
  EXPECT_EQ(op(ArithOp::Add, "int32", "int32"), "int64");
  EXPECT_EQ(op(ArithOp::Add, "int8", "int8"), "int64");
  EXPECT_EQ(op(ArithOp::Add, "uint32", "int32"), "int64");
  EXPECT_EQ(op(ArithOp::Sub, "uint32", "uint32"), "uint64");
  EXPECT_EQ(op(ArithOp::Add, "int64", "uint64"), "int64");
  EXPECT_EQ(op(ArithOp::Add, "uint8", "int8"), "int64");
  EXPECT_EQ(op(ArithOp::Add, "boolean", "boolean"), "int64");
  EXPECT_EQ(op(ArithOp::Add, "boolean", "int32"), "int64");
  EXPECT_EQ(op(ArithOp::Mod, "uint64", "uint64"), "uint64");
  EXPECT_EQ(op(ArithOp::FloorDiv, "int32", "int32"), "int64");
  EXPECT_EQ(op(ArithOp::FloorDiv, "uint32", "int64"), "int64");
}

TEST_F(TypingTest, Division) {
  EXPECT_EQ(op(ArithOp::TrueDiv, "int32", "int32"), "float64");
  EXPECT_EQ(op(ArithOp::TrueDiv, "float32", "int8"), "float32");
  EXPECT_EQ(op(ArithOp::TrueDiv, "float32", "float32"), "float32");
  EXPECT_EQ(op(ArithOp::FloorDiv, "float32", "float32"), "float32");
  EXPECT_EQ(op(ArithOp::Mod, "float32", "int32"), "float64");
}

TEST_F(TypingTest, FloatsWithIntegers) {
  EXPECT_EQ(op(ArithOp::Add, "float32", "int32"), "float64");
  EXPECT_EQ(op(ArithOp::Add, "float32", "int64"), "float64");
  EXPECT_EQ(op(ArithOp::Add, "float32", "int16"), "float32");
  EXPECT_EQ(op(ArithOp::Add, "float32", "uint8"), "float32");
  EXPECT_EQ(op(ArithOp::Add, "float32", "boolean"), "float32");
  EXPECT_EQ(op(ArithOp::Mul, "float32", "float64"), "float64");
}

TEST_F(TypingTest, Power) {
  EXPECT_EQ(op(ArithOp::Pow, "int64", "int64"), "int64");
  EXPECT_EQ(op(ArithOp::Pow, "int32", "int32"), "int64");
  EXPECT_EQ(op(ArithOp::Pow, "uint64", "int64"), "int64");
  EXPECT_EQ(op(ArithOp::Pow, "float32", "int64"), "float32");
  EXPECT_EQ(op(ArithOp::Pow, "float32", "int32"), "float32");
  EXPECT_EQ(op(ArithOp::Pow, "int32", "float32"), "float64");
  auto r = binaryResultType(types, ArithOp::Pow, t("float32"), t("int32"));
  ASSERT_TRUE(r);
  EXPECT_EQ(types.name(r->exponent), "int64");
  auto f = binaryResultType(types, ArithOp::Pow, t("float32"), t("float32"));
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->exponent.valid());
}

TEST_F(TypingTest, BitwiseAndShifts) {
  EXPECT_EQ(op(ArithOp::BitAnd, "boolean", "boolean"), "bool");
  EXPECT_EQ(op(ArithOp::BitAnd, "int32", "uint8"), "int64");
  EXPECT_EQ(op(ArithOp::LShift, "int32", "int32"), "int64");
  EXPECT_EQ(op(ArithOp::LShift, "uint32", "int64"), "uint64");
  EXPECT_EQ(op(ArithOp::LShift, "uint8", "uint8"), "uint64");
  EXPECT_EQ(op(ArithOp::RShift, "int8", "int64"), "int64");
  EXPECT_EQ(op(ArithOp::RShift, "int64", "uint64"), "int64");
  EXPECT_EQ(op(ArithOp::BitOr, "float32", "int32"), "none");
}

TEST_F(TypingTest, UnificationIsNumpyPromotion) {
  EXPECT_EQ(unify("int32", "float32"), "float64");
  EXPECT_EQ(unify("int64", "float32"), "float64");
  EXPECT_EQ(unify("int8", "float32"), "float32");
  EXPECT_EQ(unify("int32", "uint32"), "int64");
  EXPECT_EQ(unify("boolean", "int32"), "int32");
  EXPECT_EQ(unify("int64", "uint64"), "float64");
  EXPECT_EQ(unify("uint8", "int8"), "int16");
  EXPECT_EQ(unify("float32[::1]", "float32[:]"), "array(float32, 1d, A)");
  EXPECT_EQ(unify("float32[::1]", "float64[::1]"), "none");
  EXPECT_EQ(unify("UniTuple(int32, 2)", "Tuple(int64, float32)"), "Tuple(int64, float64)");
}

TEST_F(TypingTest, UnaryAndRange) {
  auto u = [&](UnaryOpKind k, const char* a) {
    auto r = unaryResultType(types, k, t(a));
    return r ? types.name(*r) : "none";
  };
  EXPECT_EQ(u(UnaryOpKind::USub, "int32"), "int64");
  EXPECT_EQ(u(UnaryOpKind::USub, "uint32"), "uint64");
  EXPECT_EQ(u(UnaryOpKind::USub, "boolean"), "int64");
  EXPECT_EQ(u(UnaryOpKind::Invert, "boolean"), "bool");
  EXPECT_EQ(u(UnaryOpKind::Invert, "int32"), "int64");
  EXPECT_EQ(u(UnaryOpKind::USub, "float32"), "float32");
  auto range = [&](std::vector<const char*> args) {
    std::vector<TypeId> ts;
    for (const char* a : args) ts.push_back(t(a));
    auto r = rangeType(types, ts);
    return r ? types.name(*r) : "none";
  };
  EXPECT_EQ(range({"int8"}), "int32");
  EXPECT_EQ(range({"int32"}), "int32");
  EXPECT_EQ(range({"uint32"}), "uint64");
  EXPECT_EQ(range({"int32", "int64"}), "int64");
  EXPECT_EQ(range({"uint32", "int32"}), "int64");
  EXPECT_EQ(range({"float32"}), "none");
}

TEST_F(TypingTest, Comparisons) {
  EXPECT_EQ(types.name(*comparisonType(types, t("int64"), t("float32"))), "float64");
  EXPECT_EQ(types.name(*comparisonType(types, t("uint32"), t("uint64"))), "uint64");
  EXPECT_EQ(types.name(*comparisonType(types, t("int32"), t("uint64"))), "int64");
  EXPECT_FALSE(comparisonType(types, t("float32[::1]"), t("int32")));
}

}  // namespace
}  // namespace frontend
