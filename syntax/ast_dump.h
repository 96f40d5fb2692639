#pragma once
// Text dumps of the syntax tree, identical to CPython's `ast.dump`.
#include <string>

#include "syntax/ast.h"

namespace frontend {

struct DumpOptions {
  // The Python whose `ast.dump(ast.parse(src))` to reproduce: 311 (no
  // type_params fields) or 312.
  int pythonVersion = 311;
  // As `ast.dump(..., include_attributes=True)`: lineno, col_offset,
  // end_lineno, end_col_offset after the fields.
  bool includeAttributes = false;
};

// The module as `ast.dump(ast.parse(source))` prints it (one line, no
// trailing newline).
std::string dumpAst(const Ast& ast, const DumpOptions& options = {});

// Python's repr() of a constant (`'a\n'`, `b'\x00'`, `1e+16`, `2j`, `None`);
// string reprs escape what `str.isprintable` rejects in that Python version.
std::string reprConstant(const ConstantValue& value, int pythonVersion = 311);

}  // namespace frontend
