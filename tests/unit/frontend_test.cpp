// Front-end units that golden files cannot reach: line/column math, the
// diagnostic renderer fed fake locations, literal values, reprs, the AST
// accessors and token positions.
#include <gtest/gtest.h>

#include <string>

#include "syntax/ast.h"
#include "syntax/ast_dump.h"
#include "diagnostics/diagnostics.h"
#include "syntax/lex.h"
#include "syntax/parse.h"
#include "syntax/parse_internal.h"
#include "syntax/source.h"

namespace frontend {
namespace {

SourceFile decode(std::string_view bytes, DiagnosticSink& diags) {
  return SourceFile::fromBytes("t.py", bytes, diags);
}

TEST(SourceFile, LineTable) {
  DiagnosticSink diags;
  SourceFile f = decode("a = 1\nbb = 2\n\nccc", diags);
  EXPECT_FALSE(diags.hasErrors());
  ASSERT_EQ(f.lineCount(), 4u);
  EXPECT_EQ(f.lineText(1), "a = 1");
  EXPECT_EQ(f.lineText(2), "bb = 2");
  EXPECT_EQ(f.lineText(3), "");
  EXPECT_EQ(f.lineText(4), "ccc");
  EXPECT_EQ(f.lineText(5), "");
  EXPECT_EQ(f.lineStart(2), 6u);
  EXPECT_EQ(f.lineOf(0), 1u);
  EXPECT_EQ(f.lineOf(5), 1u);  // the \n belongs to its line
  EXPECT_EQ(f.lineOf(6), 2u);
  EXPECT_EQ(f.lineOf(static_cast<uint32_t>(f.text().size())), 4u);
  Location loc = f.locationAt(9, 2);
  EXPECT_EQ(loc.line, 2u);
  EXPECT_EQ(loc.column, 4u);
  EXPECT_EQ(loc.length, 2u);
  EXPECT_EQ(loc.lineText, "bb = 2");
  EXPECT_EQ(loc.path, "t.py");
}

TEST(SourceFile, EmptyFileHasOneLine) {
  DiagnosticSink diags;
  SourceFile f = decode("", diags);
  EXPECT_EQ(f.lineCount(), 1u);
  EXPECT_EQ(f.lineText(1), "");
}

TEST(SourceFile, NormalisesLineBreaks) {
  DiagnosticSink diags;
  SourceFile f = decode("a\r\nb\rc\n\r\nd", diags);
  EXPECT_EQ(f.text(), "a\nb\nc\n\nd");
  EXPECT_EQ(f.lineCount(), 5u);
  EXPECT_EQ(f.lineText(5), "d");
}

TEST(SourceFile, BomAndCookies) {
  DiagnosticSink diags;
  EXPECT_EQ(decode("\xEF\xBB\xBFx = 1\n", diags).text(), "x = 1\n");
  SourceFile latin = decode("# -*- coding: latin-1 -*-\nx = '\xE9'\n", diags);
  EXPECT_EQ(latin.encoding(), "iso8859-1");
  EXPECT_EQ(latin.lineText(2), "x = '\xC3\xA9'");
  SourceFile cp = decode("#!/usr/bin/env python\n# vim: fileencoding=cp1252\nx = '\x80'\n", diags);
  EXPECT_EQ(cp.lineText(3), "x = '\xE2\x82\xAC'");
  SourceFile koi = decode("# coding: koi8-r\nx = '\xC1'\n", diags);
  EXPECT_EQ(koi.lineText(2), "x = '\xD0\xB0'");
  EXPECT_FALSE(diags.hasErrors());
}

TEST(SourceFile, DecodingErrors) {
  struct Case {
    const char* bytes;
    const char* message;
  };
  const Case cases[] = {
      {"x = 1\0\n", "source code cannot contain null bytes"},
      {"# coding: klingon\nx = 1\n", "unknown encoding: klingon"},
      {"\xEF\xBB\xBF# coding: latin-1\n", "encoding problem: iso-8859-1 with BOM"},
      {"# coding: ascii\nx = '\xE9'\n", "'ascii' codec can't decode byte 0xe9 in position 21: ordinal not in range(128)"},
  };
  for (const Case& c : cases) {
    DiagnosticSink diags;
    std::string_view bytes(c.bytes, std::string_view(c.bytes).size() + (c.message[0] == 's' ? 2 : 0));
    SourceFile f = decode(bytes, diags);
    EXPECT_TRUE(f.decodeFailed()) << c.message;
    ASSERT_EQ(diags.diagnostics().size(), 1u) << c.message;
    EXPECT_EQ(diags.diagnostics()[0].message, c.message);
  }
}

TEST(SourceFile, InvalidUtf8OnlyMattersInTokens) {
  DiagnosticSink diags;
  SourceFile ok = decode("x = 1  # caf\xE9\n", diags);
  EXPECT_FALSE(ok.decodeFailed());
  ASSERT_EQ(ok.invalidBytes().size(), 1u);
  EXPECT_EQ(ok.invalidBytes()[0], 12u);
  EXPECT_EQ(ok.rawText()[12], '\xE9');
  EXPECT_EQ(ok.text()[12], '?');
  TokenBuffer tokens = lex(ok, diags);
  EXPECT_FALSE(diags.hasErrors());

  SourceFile bad = decode("x = '\xE9'\n", diags);
  TokenBuffer badTokens = lex(bad, diags);
  ASSERT_TRUE(diags.hasErrors());
  EXPECT_EQ(diags.diagnostics()[0].message,
            "(unicode error) 'utf-8' codec can't decode byte 0xe9 in position 0: unexpected end of data");
  EXPECT_EQ(diags.diagnostics()[0].column, 5u);
}

TEST(Diagnostics, RendersCaretAndRange) {
  DiagnosticSink diags;
  Location loc{"k.py", "    out[i] = a[i] * x[i]", 7, 14, 4};
  diags.report(Severity::Error, loc, Diag::SyntaxError, "cannot index `float32`");
  EXPECT_EQ(diags.render(RenderOptions{true, false}),
            "k.py:7:14: error: cannot index `float32` [syntax-error]\n"
            "    out[i] = a[i] * x[i]\n"
            "             ^~~~\n"
            "\n");
  EXPECT_EQ(diags.render(RenderOptions{false, false}),
            "k.py:7:14: error: cannot index `float32`\n"
            "    out[i] = a[i] * x[i]\n"
            "             ^~~~\n"
            "\n");
}

TEST(Diagnostics, KeepsTabsAndCountsCharacters) {
  DiagnosticSink diags;
  // "\tπ = é + 1": the caret under `é` needs a tab, then 4 columns.
  Location loc{"u.py", "\t\xCF\x80 = \xC3\xA9 + 1", 1, 7, 2};
  diags.report(Severity::Error, loc, Diag::InvalidSyntax, "invalid syntax");
  EXPECT_EQ(diags.render(RenderOptions{}),
            "u.py:1:7: error: invalid syntax\n"
            "\t\xCF\x80 = \xC3\xA9 + 1\n"
            "\t    ^\n"
            "\n");
}

TEST(Diagnostics, ClipsRangesAtTheLineEnd) {
  DiagnosticSink diags;
  Location loc{"c.py", "x = (", 1, 5, 40};
  diags.report(Severity::Error, loc, Diag::UnclosedBracket, "'(' was never closed");
  EXPECT_EQ(diags.render(RenderOptions{}), "c.py:1:5: error: '(' was never closed\nx = (\n    ^\n\n");
}

TEST(Diagnostics, NotesAndPositionlessErrors) {
  DiagnosticSink diags;
  diags.error(Diag::SyntaxError, "nvJitLink failed for sm_90");
  diags.note(Location{}, "ptxas fatal: bad input");
  Location loc{"n.py", "def f(a, a): pass", 1, 10, 1};
  diags.error(loc, Diag::InvalidTarget, "assign to", "name");
  diags.note(Location{"n.py", "def f(a, a): pass", 1, 7, 1}, "first defined here");
  EXPECT_EQ(diags.errorCount(), 2u);
  EXPECT_EQ(diags.render(RenderOptions{true, false}),
            "pykc: error: nvJitLink failed for sm_90 [syntax-error]\n"
            "pykc: note: ptxas fatal: bad input\n"
            "\n"
            "n.py:1:10: error: cannot assign to name [invalid-target]\n"
            "def f(a, a): pass\n"
            "         ^\n"
            "n.py:1:7: note: first defined here\n"
            "def f(a, a): pass\n"
            "      ^\n"
            "\n");
}

TEST(Diagnostics, SortByLocation) {
  DiagnosticSink diags;
  diags.report(Severity::Error, Location{"a.py", "", 9, 1, 1}, Diag::SyntaxError, "late");
  diags.report(Severity::Error, Location{"a.py", "", 2, 3, 1}, Diag::SyntaxError, "early");
  diags.sortByLocation();
  EXPECT_EQ(diags.diagnostics()[0].message, "early");
  EXPECT_EQ(kindName(Diag::UnexpectedIndent), "unexpected-indent");
}

TEST(Literals, Numbers) {
  ConstantValue big = detail::parseNumber("0xFFFF_FFFF_FFFF_FFFF_FF");
  EXPECT_EQ(big.kind, ConstantKind::Int);
  EXPECT_EQ(big.text, "4722366482869645213695");
  EXPECT_FALSE(big.fitsInt64);
  ConstantValue max = detail::parseNumber("9223372036854775807");
  EXPECT_TRUE(max.fitsInt64);
  EXPECT_EQ(max.intValue, INT64_MAX);
  EXPECT_FALSE(detail::parseNumber("9223372036854775808").fitsInt64);
  EXPECT_EQ(detail::parseNumber("0o777").intValue, 511);
  EXPECT_EQ(detail::parseNumber("0b1_01").intValue, 5);
  EXPECT_EQ(detail::parseNumber("000").text, "0");
  EXPECT_EQ(detail::parseNumber("1_000.5e3").kind, ConstantKind::Float);
  EXPECT_DOUBLE_EQ(detail::parseNumber("1_000.5e3").floatValue, 1000500.0);
  EXPECT_EQ(detail::parseNumber("2j").kind, ConstantKind::Complex);
  EXPECT_EQ(detail::parseNumber("0x1f").literal, "0x1f");
}

TEST(Literals, Reprs) {
  auto f = [](const char* lit) { return reprConstant(detail::parseNumber(lit)); };
  EXPECT_EQ(f("1.0"), "1.0");
  EXPECT_EQ(f("0.1"), "0.1");
  EXPECT_EQ(f("1e16"), "1e+16");
  EXPECT_EQ(f("1e15"), "1000000000000000.0");
  EXPECT_EQ(f("0.0001"), "0.0001");
  EXPECT_EQ(f("0.00001"), "1e-05");
  EXPECT_EQ(f("1e400"), "inf");
  EXPECT_EQ(f("1.5e300"), "1.5e+300");
  EXPECT_EQ(f("1j"), "1j");
  EXPECT_EQ(f("2.5j"), "2.5j");
  EXPECT_EQ(f("1e400j"), "infj");
  ConstantValue s;
  s.kind = ConstantKind::Str;
  s.text = "it's \"x\"\n\t\x01\xE2\x80\x8B\xC3\xA9";
  EXPECT_EQ(reprConstant(s), "'it\\'s \"x\"\\n\\t\\x01\\u200b\xC3\xA9'");
  s.text = "it's";
  EXPECT_EQ(reprConstant(s), "\"it's\"");
  s.kind = ConstantKind::Bytes;
  s.text = std::string("\x00\xff'a", 4);
  EXPECT_EQ(reprConstant(s), "b\"\\x00\\xff'a\"");
}

TEST(Literals, StringEscapes) {
  std::string out;
  detail::DecodeError err;
  ASSERT_TRUE(detail::decodeStringBody("a\\x41\\u00e9\\N{GREEK SMALL LETTER ALPHA}\\101\\q", false, false, out, err));
  EXPECT_EQ(out, "aA\xC3\xA9\xCE\xB1" "A\\q");
  ASSERT_TRUE(detail::decodeStringBody("\\ud800", false, false, out, err));
  EXPECT_EQ(out, "\xED\xA0\x80");  // a lone surrogate, generalized UTF-8
  EXPECT_FALSE(detail::decodeStringBody("\\x4", false, false, out, err));
  uint32_t cp = 0;
  EXPECT_TRUE(detail::lookupUnicodeName("cjk unified ideograph-4e00", &cp));
  EXPECT_EQ(cp, 0x4E00u);
  EXPECT_TRUE(detail::lookupUnicodeName("HANGUL SYLLABLE GAG", &cp));
  EXPECT_EQ(cp, 0xAC01u);
  EXPECT_FALSE(detail::lookupUnicodeName("NOT A NAME", &cp));
}

TEST(Lexer, TokenPositions) {
  DiagnosticSink diags;
  SourceFile f = decode("if x:\n    y = f'a{b!r}'\n", diags);
  TokenBuffer t = lex(f, diags);
  ASSERT_FALSE(diags.hasErrors());
  std::vector<TokenKind> kinds;
  for (const Token& tok : t.tokens()) kinds.push_back(tok.kind);
  std::vector<TokenKind> want = {TokenKind::KwIf,         TokenKind::Name,          TokenKind::Colon,
                                 TokenKind::Newline,      TokenKind::Indent,        TokenKind::Name,
                                 TokenKind::Equal,        TokenKind::FStringStart,  TokenKind::FStringMiddle,
                                 TokenKind::LBrace,       TokenKind::Name,          TokenKind::Exclamation,
                                 TokenKind::Name,         TokenKind::RBrace,        TokenKind::FStringEnd,
                                 TokenKind::Newline,      TokenKind::Dedent,        TokenKind::EndOfFile};
  EXPECT_EQ(kinds, want);
  const Token& fs = t[7];
  EXPECT_EQ(fs.line, 2u);
  EXPECT_EQ(fs.col, 8u);
  EXPECT_EQ(t.text(fs), "f'");
}

TEST(Parser, TypedAccessorsAndRanges) {
  DiagnosticSink diags;
  SourceFile f = decode("x = a + b * 2\n", diags);
  TokenBuffer t = lex(f, diags);
  Ast ast = parse(t, diags);
  ASSERT_FALSE(ast.hasErrors());
  ASSERT_EQ(ast.module().size(), 1u);
  const Stmt& s = ast.stmt(ast.module()[0]);
  ASSERT_EQ(s.kind(), StmtKind::Assign);
  const auto& assign = s.as<ast::Assign>();
  ExprId target = ast.list(assign.targets)[0];
  EXPECT_EQ(ast.str(ast.expr(target).as<ast::Name>().id), "x");
  EXPECT_EQ(ast.expr(target).ctx(), ExprContext::Store);
  const Expr& value = ast.expr(assign.value);
  const auto* add = value.dyn<ast::BinOp>();
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->op, Operator::Add);
  const Expr& mul = ast.expr(add->right);
  EXPECT_EQ(mul.as<ast::BinOp>().op, Operator::Mult);
  EXPECT_EQ(ast.constantOf(mul.as<ast::BinOp>().right).intValue, 2);
  EXPECT_EQ(value.range.colOffset, 4u);
  EXPECT_EQ(value.range.endColOffset, 13u);
  EXPECT_EQ(mul.range.colOffset, 8u);
  EXPECT_EQ(ast.intern("x"), ast.expr(target).as<ast::Name>().id);
}

TEST(Parser, RecoversAndReportsEachStatement) {
  DiagnosticSink diags;
  SourceFile f = decode("x = = 1\ny = 2\nz = )\n", diags);
  TokenBuffer t = lex(f, diags);
  Ast ast = parse(t, diags);
  EXPECT_TRUE(ast.hasErrors());
  // The lexer's error on line 3 and the parser's on line 1.
  EXPECT_EQ(diags.errorCount(), 2u);
}

TEST(AstDump, Formats) {
  DiagnosticSink diags;
  SourceFile f = decode("def f[T](x): pass\n", diags);
  TokenBuffer t = lex(f, diags);
  Ast ast = parse(t, diags);
  DumpOptions o312;
  o312.pythonVersion = 312;
  EXPECT_EQ(dumpAst(ast, o312),
            "Module(body=[FunctionDef(name='f', args=arguments(posonlyargs=[], args=[arg(arg='x')], kwonlyargs=[], "
            "kw_defaults=[], defaults=[]), body=[Pass()], decorator_list=[], type_params=[TypeVar(name='T')])], "
            "type_ignores=[])");
  DumpOptions attrs;
  attrs.includeAttributes = true;
  SourceFile g = decode("a\n", diags);
  TokenBuffer tg = lex(g, diags);
  Ast ag = parse(tg, diags);
  EXPECT_EQ(dumpAst(ag, attrs),
            "Module(body=[Expr(value=Name(id='a', ctx=Load(), lineno=1, col_offset=0, end_lineno=1, "
            "end_col_offset=1), lineno=1, col_offset=0, end_lineno=1, end_col_offset=1)], type_ignores=[])");
}

}  // namespace
}  // namespace frontend
