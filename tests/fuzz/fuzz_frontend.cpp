// libFuzzer target for the front end: bytes take the path a user's file
// takes (decode, lex, parse, AST dump, diagnostics rendering), with the
// invariants each phase promises checked on the way. Built by
// tests/fuzz/CMakeLists.txt (PYKC_FUZZ=ON); run by scripts/fuzz.sh.
//
// PYKC_FUZZ_LEX_ONLY builds the decode + lex half only (fuzz_lexer): it
// needs none of the parser and runs several times faster.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "diagnostics/diagnostics.h"
#include "syntax/lex.h"
#include "syntax/source.h"
#include "syntax/tokens.h"
#ifndef PYKC_FUZZ_LEX_ONLY
#include "syntax/ast_dump.h"
#include "syntax/parse.h"
#endif

namespace {

using frontend::DiagnosticSink;
using frontend::SourceFile;
using frontend::Token;
using frontend::TokenBuffer;
using frontend::TokenKind;

// A broken invariant is a bug the fuzzer must report: say which, then abort.
[[noreturn]] void broken(const char* what, size_t index) {
  std::fprintf(stderr, "fuzz_frontend: invariant broken: %s (at %zu)\n", what, index);
  std::abort();
}

// What lex() promises (lex.h, tokens.h): a buffer ending in EndOfFile, an
// Error token exactly when it reported, tokens in order and inside the text,
// positions that agree with the file's line table.
void checkTokens(const SourceFile& file, const TokenBuffer& tokens, const DiagnosticSink& diags) {
  const auto& toks = tokens.tokens();
  if (toks.empty() || toks.back().kind != TokenKind::EndOfFile) broken("token buffer does not end in EndOfFile", 0);
  if (tokens.hasErrors() && !diags.hasErrors()) broken("lexer error without a diagnostic", 0);
  bool sawError = false;
  size_t textSize = file.text().size();
  uint32_t prevOffset = 0;
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    if (t.kind == TokenKind::Error) sawError = true;
    if (t.kind == TokenKind::EndOfFile && i + 1 != toks.size()) broken("EndOfFile before the end", i);
    if (t.offset > t.endOffset) broken("token ends before it starts", i);
    if (t.endOffset > textSize) broken("token past the end of the text", i);
    if (t.offset < prevOffset && t.kind != TokenKind::Dedent && t.kind != TokenKind::Indent)
      broken("tokens out of order", i);
    prevOffset = t.offset;
    if (t.line == 0 || t.line > t.endLine) broken("bad token lines", i);
    if (t.line == t.endLine && t.col > t.endCol) broken("bad token columns", i);
    // Positions must agree with the line table for tokens that have text.
    if (t.endOffset > t.offset && t.kind != TokenKind::Indent) {
      if (t.line > file.lineCount()) broken("token line past the last line", i);
      if (file.lineStart(t.line) + t.col != t.offset) broken("token line/column disagree with its offset", i);
    }
    (void)tokens.text(t);
  }
  if (sawError != tokens.hasErrors()) broken("Error token and hasErrors() disagree", 0);
}

// The rendered form of every diagnostic, as the driver prints it (sorted by
// location); each one must name a line inside the file (or none). Decoding
// errors count lines of the undecoded bytes, which the file no longer holds.
void renderDiagnostics(const SourceFile& file, DiagnosticSink diags) {
  for (const frontend::Diagnostic& d : diags.diagnostics()) {
    if (!file.decodeFailed() && d.line > file.lineCount() + 1) broken("diagnostic line past the end of the file", d.line);
    if (d.message.empty()) broken("empty diagnostic message", d.line);
  }
  diags.sortByLocation();
  std::string plain = diags.render(frontend::RenderOptions{/*showKinds=*/true, /*color=*/false});
  std::string color = diags.render(frontend::RenderOptions{/*showKinds=*/false, /*color=*/true});
  if (diags.hasErrors() && plain.find("error: ") == std::string::npos) broken("an error rendered without `error:`", 0);
}

#ifndef PYKC_FUZZ_LEX_ONLY
// `pykc parse --dump-ast [--ast-format 3.11|3.12] [--include-attributes]`:
// only a tree without errors is dumped.
void dumpTree(const frontend::Ast& ast, int format, bool attributes) {
  frontend::DumpOptions options;
  options.pythonVersion = format;
  options.includeAttributes = attributes;
  std::string text = frontend::dumpAst(ast, options);
  if (text.rfind("Module(", 0) != 0) broken("AST dump does not start with Module(", 0);
}
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  DiagnosticSink diags;
  SourceFile file = SourceFile::fromBytes("fuzz.py", bytes, diags);
  if (file.decodeFailed() && !diags.hasErrors()) broken("decode failed without a diagnostic", 0);
  TokenBuffer tokens = frontend::lex(file, diags);
  checkTokens(file, tokens, diags);
  std::string dump = frontend::dumpTokens(tokens);
#ifndef PYKC_FUZZ_LEX_ONLY
  // The driver's grammar (3.12), then the 3.11 one ParseOptions offers; each
  // parse reports into a copy of the sink, as the driver's single sink.
  for (int version : {312, 311}) {
    DiagnosticSink parseDiags = diags;
    frontend::ParseOptions options;
    options.pythonVersion = version;
    frontend::Ast ast = frontend::parse(tokens, parseDiags, options);
    if (tokens.hasErrors() && !ast.hasErrors()) broken("a lexer error vanished from the tree", 0);
    if (parseDiags.errorCount() > diags.errorCount() && !ast.hasErrors())
      broken("the parser reported an error but the tree has none", 0);
    if (ast.hasErrors() && !parseDiags.hasErrors()) broken("a tree with errors but no diagnostic", 0);
    if (!parseDiags.hasErrors()) {
      if (version == 312) {
        dumpTree(ast, 311, /*attributes=*/true);
        dumpTree(ast, 312, /*attributes=*/false);
      } else {
        dumpTree(ast, 311, /*attributes=*/false);
      }
    }
    renderDiagnostics(file, std::move(parseDiags));
  }
#else
  renderDiagnostics(file, diags);
#endif
  return 0;
}
