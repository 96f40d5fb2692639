#include "sema/inspect_types.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>
#include <utility>

#include "syntax/ast.h"
#include "diagnostics/diagnostics.h"
#include "sema/resolve.h"
#include "syntax/source.h"
#include "sema/typed_module.h"

namespace frontend {
namespace {

using frontend::Ast;
using frontend::ExprId;
using frontend::FunctionInstance;
using frontend::NodeRange;
using frontend::TypeId;
using frontend::TypeKind;
using frontend::TypeTable;
using frontend::TypedModule;

bool isFloatOf(const TypeTable& types, TypeId t, unsigned bits) {
  if (!t.valid()) return false;
  const frontend::Type& type = types.get(t);
  return type.kind == TypeKind::Float && type.bits == bits;
}

bool isWideInt(const TypeTable& types, TypeId t) {
  if (!t.valid()) return false;
  const frontend::Type& type = types.get(t);
  return type.kind == TypeKind::Int && type.bits == 64;
}

// Collects the element types of the arrays among `t` (tuples flattened).
void arrayElements(const TypeTable& types, TypeId t, std::vector<TypeId>& out) {
  const frontend::Type& type = types.get(t);
  if (type.kind == TypeKind::Array) out.push_back(type.element);
  if (type.kind == TypeKind::Tuple) {
    for (TypeId e : type.elements) arrayElements(types, e, out);
  }
}

// A kernel instance whose float arrays are all float32 (and has some): the
// kind of kernel where float64 arithmetic is almost always a mistake.
bool isFloat32Kernel(const TypeTable& types, const FunctionInstance& kernel) {
  std::vector<TypeId> elements;
  for (TypeId t : kernel.argTypes) arrayElements(types, t, elements);
  bool anyFloat32 = false;
  for (TypeId e : elements) {
    if (isFloatOf(types, e, 64) || isFloatOf(types, e, 16)) return false;
    anyFloat32 = anyFloat32 || isFloatOf(types, e, 32);
  }
  return anyFloat32;
}

// One operation that computes in float64.
struct Float64Op {
  NodeRange range;
  // `float32 * float64`, `math.exp(int64)`, `float32 += float64`.
  std::string what;
  // The operand that brought float64 in (lineno 0: none found) and why.
  NodeRange operand;
  std::string note;
};

std::string sourceText(const Ast& ast, const NodeRange& r) {
  const frontend::SourceFile* source = ast.source();
  if (source == nullptr || r.lineno == 0 || r.lineno != r.endLineno) return "";
  std::string_view line = source->lineText(r.lineno);
  if (r.endColOffset > line.size() || r.colOffset >= r.endColOffset) return "";
  return std::string(line.substr(r.colOffset, r.endColOffset - r.colOffset));
}

class Float64Finder {
public:
  Float64Finder(const Ast& ast, const TypedModule& typed)
      : ast_(ast), typed_(typed), types_(typed.module.types) {}

  // The float64 operations of instance `index`.
  std::vector<Float64Op> find(uint32_t index) const {
    const FunctionInstance& inst = typed_.instances[index];
    std::vector<Float64Op> ops;
    for (uint32_t e = 0; e < inst.exprTypes.size() && e < ast_.exprCount(); ++e) {
      if (!inst.exprTypes[e].valid()) continue;
      ExprId id(e);
      const frontend::Expr& expr = ast_.expr(id);
      if (const auto* bin = expr.dyn<frontend::ast::BinOp>()) {
        if (!isFloatOf(types_, opType(inst, id), 64)) continue;
        if (isFloat64Arith(inst, bin->left) || isFloat64Arith(inst, bin->right)) continue;
        // `np.float64(x) - np.float64(lo)`: the author asked for float64.
        if (isFloat64Cast(inst, bin->left) || isFloat64Cast(inst, bin->right)) continue;
        Float64Op op;
        op.range = expr.range;
        op.what = typeName(inst, bin->left) + " " + std::string(frontend::spelling(bin->op)) +
                  " " + typeName(inst, bin->right);
        explain(inst, {bin->left, bin->right}, op);
        ops.push_back(std::move(op));
      } else if (const auto* call = expr.dyn<frontend::ast::Call>()) {
        // The callee (`math.exp`) carries the meaning, the call the type.
        if (!isMathCall(inst, id)) continue;
        if (!isFloatOf(types_, inst.exprTypes[e], 64)) continue;
        auto args = ast_.list(call->args);
        bool inherited = false;
        std::string argTypes;
        std::vector<ExprId> operands;
        for (ExprId a : args) {
          inherited = inherited || isFloat64Arith(inst, a);
          if (!argTypes.empty()) argTypes += ", ";
          argTypes += typeName(inst, a);
          operands.push_back(a);
        }
        if (inherited) continue;
        Float64Op op;
        op.range = expr.range;
        op.what = "math." +
                  std::string(frontend::mathFnName(
                      static_cast<frontend::MathFn>(inst.meanings[call->func.index].payload))) +
                  "(" + argTypes + ")";
        explain(inst, operands, op);
        ops.push_back(std::move(op));
      }
    }
    for (uint32_t s = 0; s < inst.stmtOpTypes.size() && s < ast_.stmtCount(); ++s) {
      if (!isFloatOf(types_, inst.stmtOpTypes[s], 64)) continue;
      const frontend::Stmt& stmt = ast_.stmt(frontend::StmtId(s));
      const auto* aug = stmt.dyn<frontend::ast::AugAssign>();
      if (aug == nullptr || isFloat64Arith(inst, aug->value)) continue;
      Float64Op op;
      op.range = stmt.range;
      op.what = typeName(inst, aug->target) + " " + std::string(frontend::spelling(aug->op)) +
                "= " + typeName(inst, aug->value);
      explain(inst, {aug->target, aug->value}, op);
      ops.push_back(std::move(op));
    }
    std::sort(ops.begin(), ops.end(), [](const Float64Op& a, const Float64Op& b) {
      return std::tie(a.range.lineno, a.range.colOffset) <
             std::tie(b.range.lineno, b.range.colOffset);
    });
    return ops;
  }

private:
  TypeId opType(const FunctionInstance& inst, ExprId id) const {
    return id.index < inst.opTypes.size() ? inst.opTypes[id.index] : TypeId();
  }
  TypeId exprType(const FunctionInstance& inst, ExprId id) const {
    return id.index < inst.exprTypes.size() ? inst.exprTypes[id.index] : TypeId();
  }
  std::string typeName(const FunctionInstance& inst, ExprId id) const {
    TypeId t = exprType(inst, id);
    return t.valid() ? types_.name(t) : "?";
  }
  // An operand that is itself float64 arithmetic (reported on its own).
  bool isFloat64Arith(const FunctionInstance& inst, ExprId id) const {
    const frontend::Expr& e = ast_.expr(id);
    if (e.is<frontend::ast::BinOp>() || e.is<frontend::ast::UnaryOp>()) {
      return isFloatOf(types_, opType(inst, id), 64);
    }
    if (isMathCall(inst, id)) return isFloatOf(types_, exprType(inst, id), 64);
    return false;
  }
  // An explicit conversion to float64: `np.float64(x)`, `float64(x)`, `float(x)`.
  bool isFloat64Cast(const FunctionInstance& inst, ExprId id) const {
    const auto* call = ast_.expr(id).dyn<frontend::ast::Call>();
    if (call == nullptr || call->func.index >= inst.meanings.size()) return false;
    auto kind = inst.meanings[call->func.index].kind;
    return (kind == frontend::Intrinsic::TypeObject || kind == frontend::Intrinsic::Float) &&
           isFloatOf(types_, exprType(inst, id), 64);
  }
  // A call of a `math` function.
  bool isMathCall(const FunctionInstance& inst, ExprId id) const {
    const auto* call = ast_.expr(id).dyn<frontend::ast::Call>();
    return call != nullptr && call->func.index < inst.meanings.size() &&
           inst.meanings[call->func.index].kind == frontend::Intrinsic::Math;
  }
  // Names the operand that made the operation float64: a float64 one first,
  // else a 64-bit integer (float32 with int64 is float64 in numba).
  void explain(const FunctionInstance& inst, const std::vector<ExprId>& operands,
               Float64Op& op) const {
    // A float64 literal first (`acc += 0.5` with acc float64 because of
    // it), then any float64 value, then a 64-bit integer.
    ExprId culprit;
    for (ExprId o : operands) {
      if (ast_.expr(o).is<frontend::ast::Constant>() && isFloatOf(types_, exprType(inst, o), 64)) {
        culprit = o;
        break;
      }
    }
    for (ExprId o : operands) {
      if (!culprit.valid() && isFloatOf(types_, exprType(inst, o), 64)) culprit = o;
    }
    if (!culprit.valid()) {
      for (ExprId o : operands) {
        if (isWideInt(types_, exprType(inst, o))) {
          culprit = o;
          break;
        }
      }
    }
    if (!culprit.valid()) return;
    const frontend::Expr& e = ast_.expr(culprit);
    op.operand = e.range;
    std::string text = sourceText(ast_, e.range);
    std::string type = typeName(inst, culprit);
    if (e.is<frontend::ast::Constant>()) {
      op.note = "`" + text + "` is a " + type + " literal; write `float32(" + text +
                ")` to compute in float32";
    } else if (isFloatOf(types_, exprType(inst, culprit), 64)) {
      op.note = "`" + text + "` is `" + type + "`; convert it with `float32(...)` to compute in float32";
    } else {
      op.note = "`" + text + "` is `" + type +
                "`, which turns float32 arithmetic into float64; convert it with `float32(...)`";
    }
  }

  const Ast& ast_;
  const TypedModule& typed_;
  const TypeTable& types_;
};

// The float64 operations per instance, for every instance reachable from a
// float32 kernel among `kernels` (each instance once).
std::map<uint32_t, std::vector<Float64Op>> float64Ops(const Ast& ast, const TypedModule& typed,
                                                      const std::vector<uint32_t>& kernels) {
  Float64Finder finder(ast, typed);
  std::map<uint32_t, std::vector<Float64Op>> result;
  for (uint32_t k : kernels) {
    if (!isFloat32Kernel(typed.module.types, typed.instances[k])) continue;
    for (uint32_t i : reachableInstances(typed, k)) {
      if (result.count(i) == 0) result[i] = finder.find(i);
    }
  }
  return result;
}

std::vector<uint32_t> allKernels(const TypedModule& typed) {
  std::vector<uint32_t> kernels;
  // Tile kernels follow cuTile's promotion, where a float64 operand is explicit;
  // the warning's advice (numba's `float32(...)`) does not apply to them.
  for (uint32_t k = 0; k < typed.kernelCount; ++k) {
    if (!typed.instances[k].tile) kernels.push_back(k);
  }
  return kernels;
}

// The lines of an instance's function: decorators to the end of the body.
struct FunctionLines {
  uint32_t first = 0;
  uint32_t def = 0;
  uint32_t last = 0;
};

FunctionLines linesOf(const Ast& ast, const frontend::JitFunction& fn) {
  if (!fn.stmt.valid()) {  // a lambda (a tile closure)
    const frontend::NodeRange& r = ast.expr(fn.lambda).range;
    return FunctionLines{r.lineno, r.lineno, r.endLineno};
  }
  const frontend::Stmt& stmt = ast.stmt(fn.stmt);
  FunctionLines lines{stmt.range.lineno, stmt.range.lineno, stmt.range.endLineno};
  if (const auto* def = stmt.dyn<frontend::ast::FunctionDef>()) {
    for (ExprId d : ast.list(def->decoratorList)) {
      lines.first = std::min(lines.first, ast.expr(d).range.lineno);
    }
  }
  return lines;
}

// Variables bound on each line of the function, in order of appearance.
std::map<uint32_t, std::vector<std::string>> bindingsByLine(const Ast& ast,
                                                            const frontend::JitFunction& fn,
                                                            const FunctionInstance& inst,
                                                            const FunctionLines& lines) {
  std::map<uint32_t, std::vector<std::pair<uint32_t, std::string>>> found;
  for (uint32_t e = 0; e < ast.exprCount(); ++e) {
    const frontend::Expr& expr = ast.expr(ExprId(e));
    const auto* name = expr.dyn<frontend::ast::Name>();
    if (name == nullptr || name->ctx != frontend::ExprContext::Store) continue;
    if (expr.range.lineno <= lines.def || expr.range.lineno > lines.last) continue;
    std::string n(ast.str(name->id));
    if (inst.variables.count(n) == 0) continue;
    found[expr.range.lineno].emplace_back(expr.range.colOffset, n);
  }
  std::map<uint32_t, std::vector<std::string>> result;
  for (auto& [line, names] : found) {
    std::sort(names.begin(), names.end());
    std::vector<std::string>& out = result[line];
    for (auto& [col, n] : names) {
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    }
  }
  std::vector<std::string>& params = result[lines.def];
  params = fn.params;
  return result;
}

std::string indentOf(std::string_view line) {
  size_t n = line.find_first_not_of(" \t");
  return std::string(line.substr(0, n == std::string_view::npos ? 0 : n));
}

std::string instanceHeader(const TypedModule& typed, const FunctionInstance& inst) {
  const frontend::JitFunction& fn = typed.module.functions[inst.function];
  return std::string(inst.isKernel ? "kernel " : "device ") + fn.name + " " + inst.signature +
         " [" + inst.symbol + "]";
}

}  // namespace

void warnFloat64Arithmetic(const Ast& ast, const TypedModule& typed,
                           frontend::DiagnosticSink& diags) {
  std::map<std::pair<uint32_t, uint32_t>, Float64Op> byPosition;
  for (auto& [index, ops] : float64Ops(ast, typed, allKernels(typed))) {
    for (Float64Op& op : ops) {
      byPosition.emplace(std::make_pair(op.range.lineno, op.range.colOffset), op);
    }
  }
  uint32_t lastLine = 0;
  for (auto& [position, op] : byPosition) {
    if (position.first == lastLine) continue;
    lastLine = position.first;
    diags.warning(frontend::locationOf(ast, op.range), frontend::Diag::Float64Arithmetic,
                  op.what);
    if (op.operand.lineno != 0) diags.note(frontend::locationOf(ast, op.operand), op.note);
  }
}

namespace {

// The kernels among `instances` (device functions left out).
std::vector<uint32_t> kernelInstances(const TypedModule& typed,
                                      const std::vector<uint32_t>& instances) {
  std::vector<uint32_t> kernels;
  for (uint32_t i : instances) {
    if (typed.instances[i].isKernel) kernels.push_back(i);
  }
  return kernels;
}

}  // namespace

std::string annotateTypes(const Ast& ast, const TypedModule& typed,
                          const std::vector<uint32_t>& instances) {
  const frontend::SourceFile* source = ast.source();
  auto float64 = float64Ops(ast, typed, kernelInstances(typed, instances));
  const TypeTable& types = typed.module.types;
  std::string out;
  bool first = true;
  for (uint32_t index : instances) {
    const FunctionInstance& inst = typed.instances[index];
    const frontend::JitFunction& fn = typed.module.functions[inst.function];
    if (!first) out += "\n";
    first = false;
    out += "# " + instanceHeader(typed, inst) + "\n";
    FunctionLines lines = linesOf(ast, fn);
    auto bindings = bindingsByLine(ast, fn, inst, lines);
    std::map<uint32_t, std::vector<const Float64Op*>> opsByLine;
    if (auto it = float64.find(index); it != float64.end()) {
      for (const Float64Op& op : it->second) opsByLine[op.range.lineno].push_back(&op);
    }
    std::string bodyIndent;
    if (source != nullptr && lines.def < lines.last) {
      for (uint32_t l = lines.def + 1; l <= lines.last; ++l) {
        std::string_view t = source->lineText(l);
        if (t.find_first_not_of(" \t") != std::string_view::npos) {
          bodyIndent = indentOf(t);
          break;
        }
      }
    }
    for (uint32_t l = lines.first; source != nullptr && l <= lines.last; ++l) {
      std::string_view text = source->lineText(l);
      char gutter[32];
      std::snprintf(gutter, sizeof gutter, "%5u | ", l);
      out += gutter;
      out += text;
      out += "\n";
      std::string indent = l == lines.def ? bodyIndent : indentOf(text);
      if (auto it = bindings.find(l); it != bindings.end() && !it->second.empty()) {
        std::string comment;
        for (const std::string& name : it->second) {
          auto v = inst.variables.find(name);
          if (v == inst.variables.end()) continue;
          if (!comment.empty()) comment += ", ";
          comment += name + ": " + types.name(v->second);
        }
        if (!comment.empty()) out += "      | " + indent + "# " + comment + "\n";
      }
      if (auto it = opsByLine.find(l); it != opsByLine.end()) {
        for (const Float64Op* op : it->second) {
          std::string text64 = sourceText(ast, op->range);
          out += "      | " + indent + "# float64 arithmetic: `" + op->what + "`" +
                 (text64.empty() ? "" : " in `" + text64 + "`") + "\n";
        }
      }
    }
  }
  return out;
}

std::string annotateTypesJson(const Ast& ast, const TypedModule& typed,
                              const std::vector<uint32_t>& instances) {
  const frontend::SourceFile* source = ast.source();
  auto float64 = float64Ops(ast, typed, kernelInstances(typed, instances));
  const TypeTable& types = typed.module.types;
  nlohmann::ordered_json functions = nlohmann::ordered_json::array();
  for (uint32_t index : instances) {
    const FunctionInstance& inst = typed.instances[index];
    const frontend::JitFunction& fn = typed.module.functions[inst.function];
    FunctionLines lines = linesOf(ast, fn);
    nlohmann::ordered_json f;
    f["kind"] = inst.isKernel ? "kernel" : "device";
    f["name"] = fn.name;
    f["signature"] = inst.signature;
    f["symbol"] = inst.symbol;
    f["file"] = source != nullptr ? source->path() : "";
    f["line"] = lines.def;
    nlohmann::ordered_json vars = nlohmann::ordered_json::object();
    for (const auto& [name, t] : inst.variables) vars[name] = types.name(t);
    f["variables"] = vars;
    auto bindings = bindingsByLine(ast, fn, inst, lines);
    std::map<uint32_t, std::vector<const Float64Op*>> opsByLine;
    if (auto it = float64.find(index); it != float64.end()) {
      for (const Float64Op& op : it->second) opsByLine[op.range.lineno].push_back(&op);
    }
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (uint32_t l = lines.first; source != nullptr && l <= lines.last; ++l) {
      nlohmann::ordered_json line;
      line["line"] = l;
      line["source"] = std::string(source->lineText(l));
      nlohmann::ordered_json bound = nlohmann::ordered_json::object();
      if (auto it = bindings.find(l); it != bindings.end()) {
        for (const std::string& name : it->second) {
          auto v = inst.variables.find(name);
          if (v != inst.variables.end()) bound[name] = types.name(v->second);
        }
      }
      line["variables"] = bound;
      nlohmann::ordered_json ops = nlohmann::ordered_json::array();
      if (auto it = opsByLine.find(l); it != opsByLine.end()) {
        for (const Float64Op* op : it->second) {
          nlohmann::ordered_json o;
          o["column"] = op->range.colOffset + 1;
          o["operation"] = op->what;
          o["source"] = sourceText(ast, op->range);
          o["note"] = op->note;
          ops.push_back(o);
        }
      }
      line["float64"] = ops;
      list.push_back(line);
    }
    f["lines"] = list;
    functions.push_back(f);
  }
  nlohmann::ordered_json root;
  root["functions"] = functions;
  return root.dump(2) + "\n";
}

}  // namespace frontend
