// Deep nesting and huge inputs: the front end must answer every one in
// bounded time, with CPython's verdict, and never overflow its stack.
//
// Each input is generated; the expected outcome is CPython 3.12.1's, computed
// once with `compile(src, "deep.py", "exec")` and hard-coded here:
//   - Accepted: CPython compiles it; pykc must accept it too (and dump it).
//   - SyntaxError: pykc must reject it with the same line and message.
//   - Limit: CPython gives up with MemoryError ("Parser stack overflowed -
//     Python source too complex to parse") or RecursionError ("maximum
//     recursion depth exceeded during compilation"), both SyntaxError-like
//     refusals of the file; pykc must reject it too, with any message.
// CPython 3.12.1 accepts up to 2993 nested unary operators, lambdas,
// conditional expressions, attribute/call/subscript suffixes or left-nested
// binary operators; 200 nested brackets; 149 nested f-strings; 99 levels of
// indentation.
#include <gtest/gtest.h>

#include <ctime>
#include <string>
#include <string_view>

#include "syntax/ast_dump.h"
#include "diagnostics/diagnostics.h"
#include "syntax/lex.h"
#include "syntax/parse.h"
#include "syntax/source.h"

namespace frontend {
namespace {

// CPU seconds (not wall time, which a loaded CI machine stretches).
// Generous: the slowest case (a 10 MB tuple) takes about a second in a
// Release build; sanitizer builds are several times slower.
constexpr double kMaxSeconds = 20.0;

struct Outcome {
  bool accepted = false;
  uint32_t line = 0;
  uint32_t column = 0;
  std::string message;
  double seconds = 0;
};

// What `pykc parse FILE --dump-ast` does with `source`: decode, lex, parse,
// dump (when accepted) and render the diagnostics.
Outcome runFrontend(std::string_view source) {
  std::clock_t start = std::clock();
  Outcome out;
  DiagnosticSink diags;
  SourceFile file = SourceFile::fromBytes("deep.py", source, diags);
  if (!file.decodeFailed()) {
    TokenBuffer tokens = lex(file, diags);
    Ast ast = parse(tokens, diags);
    EXPECT_EQ(ast.hasErrors(), diags.hasErrors());
    if (!diags.hasErrors()) {
      std::string dump = dumpAst(ast);
      EXPECT_FALSE(dump.empty());
    }
  }
  std::string rendered = diags.render(RenderOptions{/*showKinds=*/true, /*color=*/false});
  out.accepted = !diags.hasErrors();
  if (!out.accepted) {
    const Diagnostic& first = diags.diagnostics().front();
    out.line = first.line;
    out.column = first.column;
    out.message = first.message;
    EXPECT_NE(rendered.find("error: "), std::string::npos);
  }
  out.seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  return out;
}

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

void expectAccepted(const std::string& source) {
  Outcome o = runFrontend(source);
  EXPECT_TRUE(o.accepted) << "rejected at " << o.line << ":" << o.column << ": " << o.message;
  EXPECT_LT(o.seconds, kMaxSeconds);
}

void expectSyntaxError(const std::string& source, uint32_t line, std::string_view message) {
  Outcome o = runFrontend(source);
  EXPECT_FALSE(o.accepted);
  EXPECT_EQ(o.line, line);
  EXPECT_EQ(o.message, message);
  EXPECT_LT(o.seconds, kMaxSeconds);
}

void expectLimitError(const std::string& source) {
  Outcome o = runFrontend(source);
  EXPECT_FALSE(o.accepted) << "CPython refuses this input (parser stack or recursion limit)";
  EXPECT_FALSE(o.message.empty());
  EXPECT_LT(o.seconds, kMaxSeconds);
}

constexpr size_t kDeep = 100'000;

// ---- brackets (the tokenizer's MAXLEVEL of 200) ------------------------------

TEST(FrontendRobustness, HundredThousandNestedParentheses) {
  // CPython: SyntaxError line 1, column 205.
  expectSyntaxError("x = " + repeat("(", kDeep) + "1" + repeat(")", kDeep) + "\n", 1, "too many nested parentheses");
}

TEST(FrontendRobustness, HundredThousandNestedBrackets) {
  expectSyntaxError("x = " + repeat("[", kDeep) + repeat("]", kDeep) + "\n", 1, "too many nested parentheses");
}

TEST(FrontendRobustness, HundredThousandNestedBraces) {
  expectSyntaxError("x = " + repeat("{", kDeep) + repeat("}", kDeep) + "\n", 1, "too many nested parentheses");
}

TEST(FrontendRobustness, HundredThousandUnclosedParentheses) {
  Outcome o = runFrontend("x = " + repeat("(", kDeep) + "\n");
  EXPECT_FALSE(o.accepted);
  EXPECT_EQ(o.message, "too many nested parentheses");
  EXPECT_LT(o.seconds, kMaxSeconds);
}

TEST(FrontendRobustness, TwoHundredNestedParenthesesAccepted) {
  expectAccepted("x = " + repeat("(", 200) + "1" + repeat(")", 200) + "\n");
  expectAccepted("x = " + repeat("[", 200) + repeat("]", 200) + "\n");
  expectAccepted("x = " + repeat("f(", 200) + repeat(")", 200) + "\n");
}

// ---- unary operators, lambdas, conditionals (the parser's stack) -------------

TEST(FrontendRobustness, HundredThousandUnaryMinus) { expectLimitError("x = " + repeat("-", kDeep) + "1\n"); }

TEST(FrontendRobustness, HundredThousandSpacedUnaryMinus) { expectLimitError("x = " + repeat("- ", kDeep) + "1\n"); }

TEST(FrontendRobustness, HundredThousandNot) { expectLimitError("x = " + repeat("not ", kDeep) + "1\n"); }

TEST(FrontendRobustness, HundredThousandInvert) { expectLimitError("x = " + repeat("~", kDeep) + "1\n"); }

TEST(FrontendRobustness, HundredThousandLambdas) { expectLimitError("x = " + repeat("lambda: ", kDeep) + "1\n"); }

TEST(FrontendRobustness, HundredThousandConditionals) {
  expectLimitError("x = " + repeat("1 if 1 else ", kDeep) + "1\n");
}

TEST(FrontendRobustness, HundredThousandPowers) { expectLimitError("x = " + repeat("2 ** ", kDeep) + "1\n"); }

TEST(FrontendRobustness, HundredThousandAwaits) {
  // `await` takes a primary, so `await await y` is invalid: CPython reports
  // the second `await` (line 2, column 12).
  expectSyntaxError("async def f():\n x = " + repeat("await ", kDeep) + "y\n", 2, "invalid syntax");
}

TEST(FrontendRobustness, HundredThousandStars) {
  // CPython: line 1, column 5.
  expectSyntaxError("x = " + repeat("*", kDeep) + "y\n", 1, "invalid syntax");
}

TEST(FrontendRobustness, ThousandNestedOperatorsAccepted) {
  // Well inside CPython's limit (2993).
  expectAccepted("x = " + repeat("-", 1000) + "1\n");
  expectAccepted("x = " + repeat("not ", 1000) + "1\n");
  expectAccepted("x = " + repeat("lambda: ", 1000) + "1\n");
  expectAccepted("x = " + repeat("1 if 1 else ", 1000) + "1\n");
  expectAccepted("x = " + repeat("2 ** ", 1000) + "1\n");
}

// ---- suffix chains and left-nested operators (CPython's compiler recursion) --

TEST(FrontendRobustness, HundredThousandAttributes) { expectLimitError("x = a" + repeat(".b", kDeep) + "\n"); }

TEST(FrontendRobustness, HundredThousandCalls) { expectLimitError("x = a" + repeat("()", kDeep) + "\n"); }

TEST(FrontendRobustness, HundredThousandSubscripts) { expectLimitError("x = a" + repeat("[0]", kDeep) + "\n"); }

TEST(FrontendRobustness, TenMegabyteSumOnOneLine) {
  // 2.5 million `1 + `: CPython's parser builds it, its compiler refuses it.
  expectLimitError("x = " + repeat("1 + ", 2'500'000) + "1\n");
}

TEST(FrontendRobustness, ThousandLongChainsAccepted) {
  expectAccepted("x = a" + repeat(".b", 1000) + "\n");
  expectAccepted("x = a" + repeat("()", 1000) + "\n");
  expectAccepted("x = a" + repeat("[0]", 1000) + "\n");
  expectAccepted("x = " + repeat("a + ", 1000) + "a\n");
}

TEST(FrontendRobustness, NestingNearCPythonsLimitAccepted) {
  // CPython 3.12.1 accepts up to 2983-2993 levels of each; pykc's parser
  // stops at 2900 (kMaxDepth). 2800 levels must parse and dump without
  // running out of stack (each level of a lambda is a whole expression
  // chain of calls).
  constexpr size_t kLevels = 2800;
  expectAccepted("x = " + repeat("-", kLevels) + "1\n");
  expectAccepted("x = " + repeat("not ", kLevels) + "1\n");
  expectAccepted("x = " + repeat("lambda: ", kLevels) + "1\n");
  expectAccepted("x = " + repeat("1 if 1 else ", kLevels) + "1\n");
  expectAccepted("x = " + repeat("2 ** ", kLevels) + "1\n");
  expectAccepted("x = a" + repeat(".b", kLevels) + "\n");
  expectAccepted("x = a" + repeat("()", kLevels) + "\n");
  expectAccepted("x = " + repeat("a + ", kLevels) + "a\n");
  expectAccepted("x = " + repeat("lambda: 1 if 1 else ", kLevels / 2) + "1\n");
}

// ---- flat but huge: CPython accepts all of these -----------------------------

TEST(FrontendRobustness, HundredThousandComparisons) { expectAccepted("x = " + repeat("a < ", kDeep) + "b\n"); }

TEST(FrontendRobustness, HundredThousandAnds) { expectAccepted("x = " + repeat("a and ", kDeep) + "b\n"); }

TEST(FrontendRobustness, TenMegabyteTuple) { expectAccepted("x = " + repeat("1,", 5'000'000) + "\n"); }

TEST(FrontendRobustness, TenMegabyteString) { expectAccepted("x = '" + std::string(10'000'000, 'a') + "'\n"); }

TEST(FrontendRobustness, HundredThousandDecorators) { expectAccepted(repeat("@d\n", kDeep) + "def f(): pass\n"); }

TEST(FrontendRobustness, HundredThousandStatementsOnOneLine) { expectAccepted(repeat("x=1;", kDeep) + "\n"); }

TEST(FrontendRobustness, MillionLines) { expectAccepted(repeat("x = 1\n", 1'000'000)); }

// ---- f-strings (the tokenizer's MAXFSTRINGLEVEL of 150) ------------------------

TEST(FrontendRobustness, HundredThousandNestedFStrings) {
  // CPython: line 1, column 453 (the 150th `f'`).
  expectSyntaxError("x = " + repeat("f'{", kDeep) + "1" + repeat("}'", kDeep) + "\n", 1, "too many nested f-strings");
}

TEST(FrontendRobustness, HundredFortyNineNestedFStringsAccepted) {
  expectAccepted("x = " + repeat("f'{", 149) + "1" + repeat("}'", 149) + "\n");
}

// ---- indentation (CPython's MAXINDENT of 100) ----------------------------------

std::string nestedIfs(size_t levels) {
  std::string s;
  for (size_t i = 0; i < levels; ++i) s += std::string(i, ' ') + "if x:\n";
  return s + std::string(levels, ' ') + "pass\n";
}

TEST(FrontendRobustness, HundredThousandNestedIfs) {
  // Generated as CPython's test: 100,000 `if` headers would need 5 GB of
  // indentation, so 100 levels already trip the limit; CPython stops at
  // line 101.
  expectSyntaxError(nestedIfs(100), 101, "too many levels of indentation");
  expectSyntaxError(nestedIfs(1000), 101, "too many levels of indentation");
}

TEST(FrontendRobustness, NinetyNineIndentationLevelsAccepted) { expectAccepted(nestedIfs(99)); }

TEST(FrontendRobustness, HundredThousandNestedDefsWithTabs) {
  std::string s;
  for (size_t i = 0; i < 200; ++i) s += std::string(i, '\t') + "def f():\n";
  s += std::string(200, '\t') + "pass\n";
  expectSyntaxError(s, 101, "too many levels of indentation");
}

}  // namespace
}  // namespace frontend
