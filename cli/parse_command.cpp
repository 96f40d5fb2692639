// `pykc parse`: read a Python file, report syntax errors as CPython would,
// and optionally print its tokens or its syntax tree.
#include <CLI/CLI.hpp>

#include <llvm/Support/Error.h>

#include <cstdio>
#include <algorithm>
#include <string>
#include <vector>

#include "syntax/ast_dump.h"
#include "diagnostics/diagnostics.h"
#include "syntax/lex.h"
#include "syntax/parse.h"
#include "syntax/source.h"
#include "cli/command.h"
#include "cli/invocation.h"

namespace cli {
namespace {

class ParseCommand final : public Command {
public:
  explicit ParseCommand(CLI::App& app) {
    CLI::App* sub = app.add_subcommand(
        "parse",
        "Parse a Python file (the whole Python 3.12 grammar) and report syntax errors\n"
        "the way CPython words them. With no flag, prints nothing when the file is valid.\n"
        "\n"
        "Examples:\n"
        "  pykc parse kernels.py                     # check the syntax only\n"
        "  pykc parse kernels.py --dump-ast          # as python3.11 -c 'print(ast.dump(ast.parse(src)))'\n"
        "  pykc parse kernels.py --dump-ast --ast-format 3.12 --include-attributes\n"
        "  pykc parse kernels.py --dump-tokens       # one token per line, as `python -m tokenize`\n"
        "  pykc parse lib/*.py                       # check many files in one process\n"
        "\n"
        "Exit codes: 0 valid, 1 syntax errors (printed to stderr), 3 a file unreadable\n"
        "(with several files, the worst outcome wins).");
    sub->add_option("FILES", paths_,
                    "Python source files to parse (several: each is checked; dumps follow\n"
                    "one another in order)")
        ->required();
    sub->add_flag("--dump-tokens", dumpTokens_, "Print the tokens, one per line (line,col-line,col: TYPE 'text')");
    sub->add_flag("--dump-ast", dumpAst_, "Print the syntax tree exactly as CPython's ast.dump(ast.parse(src))");
    sub->add_option("--ast-format", format_,
                    "Which CPython's ast.dump to reproduce: 3.11 (no type_params fields) or 3.12")
        ->check(CLI::IsMember({"3.11", "3.12"}))
        ->capture_default_str();
    sub->add_flag("--include-attributes", includeAttributes_,
                  "With --dump-ast: add lineno, col_offset, end_lineno, end_col_offset to each node\n"
                  "(as ast.dump(..., include_attributes=True))");
  }

  int run(Invocation& inv) override {
    int worst = kExitOk;
    for (const std::string& path : paths_) worst = std::max(worst, parseOne(inv, path));
    return worst;
  }

private:
  int parseOne(Invocation& inv, const std::string& path) {
    frontend::DiagnosticSink diags;
    frontend::RenderOptions render;
    render.showKinds = inv.diagKinds;
    render.color = inv.color;

    llvm::Expected<frontend::SourceFile> file = frontend::SourceFile::load(path, diags);
    if (!file) {
      std::string msg = llvm::toString(file.takeError());
      std::fprintf(inv.err, "pykc: error: %s\n", msg.c_str());
      return kExitEnvironment;
    }
    int version = format_ == "3.12" ? 312 : 311;
    frontend::TokenBuffer tokens = frontend::lex(*file, diags);
    if (dumpTokens_) {
      std::string text = frontend::dumpTokens(tokens);
      std::fwrite(text.data(), 1, text.size(), inv.out);
    }
    frontend::ParseOptions parseOptions;
    frontend::Ast ast = frontend::parse(tokens, diags, parseOptions);
    diags.sortByLocation();
    diags.render(inv.err, render);
    if (diags.hasErrors() || ast.hasErrors()) return kExitSourceErrors;
    if (dumpAst_) {
      frontend::DumpOptions dumpOptions;
      dumpOptions.pythonVersion = version;
      dumpOptions.includeAttributes = includeAttributes_;
      std::string text = frontend::dumpAst(ast, dumpOptions);
      text += '\n';
      std::fwrite(text.data(), 1, text.size(), inv.out);
    }
    return kExitOk;
  }

  std::vector<std::string> paths_;
  bool dumpTokens_ = false;
  bool dumpAst_ = false;
  bool includeAttributes_ = false;
  std::string format_ = "3.11";
};

}  // namespace

std::unique_ptr<Command> addParseCommand(CLI::App& app) {
  return std::make_unique<ParseCommand>(app);
}

}  // namespace cli
