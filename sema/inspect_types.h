#pragma once
// `pykc inspect --emit types` (numba's inspect_types, annotated source) and
// the float64-arithmetic warning (`-Wfloat64`) that `compile` reports too.
#include <cstdint>
#include <string>
#include <vector>

namespace frontend {
class Ast;
class DiagnosticSink;
struct TypedModule;
}  // namespace frontend

namespace frontend {

// Warns (Diag::Float64Arithmetic, with a note naming the float64 operand)
// where a kernel whose array arguments are all float32 computes in float64:
// `x[i] * 2.0`, `x[i] / n` with an int64 `n`, `math.exp(i)`, and the device
// functions such a kernel calls. One warning per source line (the innermost
// operation of a chain), in source order. `typed` must have been checked
// without errors from `ast`; reports nothing otherwise.
void warnFloat64Arithmetic(const frontend::Ast& ast, const frontend::TypedModule& typed,
                           frontend::DiagnosticSink& diags);

// The annotated source of `instances` (indices into typed.instances; each
// kernel followed by the device functions it reaches, each once): the
// function's lines with a gutter of line numbers, and under each line that
// binds variables a comment with their unified types,
//
//     # kernel saxpy void(float32, float32[::1]) [saxpy__f32_f32a1C]
//       5 | def saxpy(a, x):
//         |     # a: float32, x: array(float32, 1d, C)
//       6 |     i = cuda.grid(1)
//         |     # i: int64
//
// and under a line that computes in float64 in a float32 kernel a
// `# float64 arithmetic: ...` comment. Deterministic.
std::string annotateTypes(const frontend::Ast& ast, const frontend::TypedModule& typed,
                          const std::vector<uint32_t>& instances);

// The same as JSON: {"functions": [{"kind", "name", "signature", "symbol",
// "file", "line", "variables": {name: type}, "lines": [{"line", "source",
// "variables": {...}, "float64": [...]}]}]}.
std::string annotateTypesJson(const frontend::Ast& ast, const frontend::TypedModule& typed,
                              const std::vector<uint32_t>& instances);

}  // namespace frontend
