#pragma once
// The resolver's private interface: the type-expression evaluator
// (`float32[::1]`, `numba.types.int64`, `cuda.types.CPointer(...)`) shared by
// sema/resolve.cpp and sema/type_expr.cpp, and the helpers of sema/fold.cpp
// they use.
#include "sema/resolve.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <limits>
#include <set>

#include "diagnostics/diagnostics.h"
#include "sema/tile/tile_ops.h"

namespace frontend::resolve_detail {

// The dotted path of a name or attribute chain that names a module-level
// entity (`cuda.threadIdx.x`, `np.float32`), nullopt otherwise (sema/fold.cpp).
std::optional<std::string> entityPath(const Ast& ast, ExprId id, const ResolvedModule& module);
// What `-D NAME=PATH` binds (`ct.max`, `torch.float16`, a module constant):
// PATH's first name through the module's imports; nullopt when pykc knows none.
std::optional<Entity> definePathEntity(const std::string& path, ResolvedModule& module);
// A literal's value as a ConstValue; `ok` false when it has none (fold.cpp).
ConstValue fromLiteral(const ConstantValue& c, bool& ok);

// The parameters of `def` as a SIMT kernel or device function takes them, into
// `f.params`, and the defaults of the trailing ones folded in `module` into
// `f.defaults` (function_params.cpp). Reports the forms numba-cuda does not compile
// (`*args`, keyword-only, positional-only, `**kwargs`) at `f.location`; false then.
bool readJitParams(const Ast& ast, const ast::FunctionDef& def, const ResolvedModule& module,
                   JitFunction& f, DiagnosticSink& diags);
// What an imported path names (lookupEntity), and for a module pykc does not know that
// re-exports a library (`from merlin.core.compat import cuda`: numba.cuda, or None
// without it) that library (module_conditions.cpp).
std::optional<Entity> importedEntity(const std::string& path, TypeTable& types);
// A module-level `class Name(Enum)` (or IntEnum, enum.Enum, ...) whose members are
// names assigned constants: the class; nullopt for any other class (enums.cpp).
std::optional<EnumClass> enumClassOf(const Ast& ast, const ast::ClassDef& cls, const ResolvedModule& module);
// A `--const NAME=PATH` value: an enum member (its constant) or a dtype (ConstValue::Kind::Dtype)
// the module names (definePathEntity); nullopt for anything else (enums.cpp).
std::optional<ConstValue> constPathValue(const std::string& path, ResolvedModule& module);
// A module-level condition's truth as Python sees it at import: a constant's, a
// module's (true; `cuda is not None`, `not cupy`); nullopt when it does not fold.
std::optional<bool> foldCondition(const Ast& ast, ExprId test, const ResolvedModule& module);
// The branch of `value`, an `a if test else b` whose test foldCondition folds;
// nullopt for any other value.
std::optional<ExprId> selectedBranch(const Ast& ast, ExprId value, const ResolvedModule& module);

// A record type: `np.dtype([('x', np.float32), ('y', 'int32', 4)], align=True)` (a
// third item makes a nested array field), `numba.from_dtype(<such a dtype or a name
// bound to one>)`, or a name bound to one; `foldPath` folds a string (a field's name or
// dtype). nullopt (after an error for a malformed dtype) otherwise (module_values.cpp).
std::optional<TypeId> recordOfDtype(const Ast& ast, ExprId id, ResolvedModule& module, DiagnosticSink& diags,
                                    const std::function<std::optional<std::string>(ExprId)>& foldPath);
// For `name = value`, a module-level value that did not fold: the measured
// scipy.constants value it reads (`INV_MC = 1. / (m_e * c)`), with the name whose `-D`
// gives it (`m_e`; `name` itself where it reads `physical_constants`), else nullopt
// (module_values.cpp).
std::optional<ResolvedModule::MeasuredConstant> measuredDependency(const Ast& ast, const std::string& name,
                                                                   ExprId value, const ResolvedModule& module);

// Whether `module.functions[index]`, a `@cuda.jit` function without types, is one
// numba compiles only where device code calls it, so that it needs none: it returns a
// value (no kernel can), a cuda.jit function of the file calls it by name (numba
// compiles it as a device function there), or a later definition of its name hides it
// (nothing launches it by name). function_params.cpp.
bool compiledOnlyWhenCalled(const Ast& ast, const ResolvedModule& module, uint32_t index);

// A tile kernel parameter's annotation that names no type: cuTile's hints (`ct.Array`,
// `ct.IndexedWithInt64`, `Annotated[...]`, `tuple[...]`), other libraries' classes
// (`torch.Tensor`, `jax.Array`) and names bound to such at module level. The parameter
// counts as unannotated: its type comes from `--sig` or from the launch. numba's types
// and string annotations are always types (tile_annotations.cpp).
bool isTileHintAnnotation(const Ast& ast, ExprId annotation, ResolvedModule& module);
// `n: ct.ScalarInt64`.
bool isScalarInt64Annotation(const Ast& ast, ExprId annotation, const ResolvedModule& module);
// `float`, `int` or `bool` when `annotation` names that Python type (not shadowed by a
// module-level name), else nullopt.
std::optional<std::string> pythonScalarAnnotation(const Ast& ast, ExprId annotation, const ResolvedModule& module);

// Whether a launch's types (`--sig`) fit `f`: one per parameter, or fewer where
// every parameter left out has a default (numba's omitted arguments).
bool launchArityFits(const JitFunction& f, size_t given);

// `numba.types.NAME`, `numba.core.types.NAME`, `numba.cuda.types.NAME`,
// `numba.cuda.NAME` or `numba.NAME`.
inline bool isNumbaTypeName(std::string_view path, std::string_view name) {
  for (std::string_view parent :
       {"numba.types.", "numba.core.types.", "numba.cuda.types.", "numba.cuda.", "numba."}) {
    if (path.size() == parent.size() + name.size() && path.starts_with(parent) &&
        path.ends_with(name)) {
      return true;
    }
  }
  return false;
}

class TypeExprEvaluator {
public:
  TypeExprEvaluator(const Ast& ast, ResolvedModule& module, DiagnosticSink& diags)
      : ast_(ast), module_(module), diags_(diags) {}

  // A type, or a signature when `allowSignature` (`void(float32)`).
  struct Result {
    Result() = default;
    explicit Result(TypeId t) : type(t) {}
    TypeId type;
    bool isSignature = false;
    bool isArgsTuple = false;
    Signature signature;
  };

  std::optional<Result> eval(ExprId id, bool allowSignature) {
    const Expr& e = ast_.expr(id);
    Location loc = locationOf(ast_, e.range);
    if (const auto* c = e.dyn<ast::Constant>()) {
      const ConstantValue& v = ast_.constant(c->value);
      if (v.kind == ConstantKind::Str) {
        return evalString(id, v.text, allowSignature);
      }
      if (v.kind == ConstantKind::None) {
        return Result(module_.types.none());
      }
    }
    if (e.is<ast::Name>() || e.is<ast::Attribute>()) {
      if (const auto* name = e.dyn<ast::Name>()) {
        // A record type defined in this module (`rec = numba.from_dtype(...)`).
        auto it = module_.globals.find(std::string(ast_.str(name->id)));
        if (it != module_.globals.end() && it->second.kind == Intrinsic::TypeObject) {
          return Result(TypeId(it->second.payload));
        }
      }
      auto path = entityPath(ast_, id, module_);
      if (path) {
        auto entity = lookupEntity(*path, module_.types);
        if (entity && entity->kind == Intrinsic::TypeObject) {
          return Result(TypeId(entity->payload));
        }
        if (isNumbaTypeName(*path, "voidptr")) return Result(module_.types.pointer(module_.types.none()));
      }
      std::string text(loc.length ? std::string(loc.lineText.substr(loc.column - 1, loc.length))
                                  : std::string("?"));
      diags_.error(loc, Diag::InvalidType, "`" + text + "` is not a type");
      return std::nullopt;
    }
    if (const auto* s = e.dyn<ast::Subscript>()) {
      auto element = eval(s->value, false);
      if (!element) return std::nullopt;
      if (!module_.types.isScalar(element->type) && !module_.types.isRecord(element->type)) {
        diags_.error(loc, Diag::InvalidType, "only scalar and record types can be array elements");
        return std::nullopt;
      }
      std::vector<ExprId> dims;
      if (const auto* t = ast_.expr(s->slice).dyn<ast::Tuple>()) {
        for (ExprId d : ast_.list(t->elts)) dims.push_back(d);
      } else {
        dims.push_back(s->slice);
      }
      std::vector<bool> unit;
      for (ExprId d : dims) {
        const auto* slice = ast_.expr(d).dyn<ast::Slice>();
        bool ok = slice != nullptr && !slice->lower.valid() && !slice->upper.valid();
        bool isUnit = false;
        if (ok && slice->step.valid()) {
          auto step = foldConstant(ast_, slice->step, module_);
          ok = step && step->kind == ConstValue::Kind::Int && step->intValue == 1;
          isUnit = true;
        }
        if (!ok) {
          diags_.error(locationOf(ast_, ast_.expr(d).range), Diag::InvalidType,
                       "array dimensions are written `:` or `::1`");
          return std::nullopt;
        }
        unit.push_back(isUnit);
      }
      auto layout = layoutFromSlices(unit);
      if (!layout) {
        diags_.error(locationOf(ast_, ast_.expr(s->slice).range), Diag::InvalidType,
                     "can only specify step 1 (`::1`) in the first or last dimension");
        return std::nullopt;
      }
      return Result(module_.types.array(element->type, static_cast<unsigned>(unit.size()), *layout));
    }
    if (const auto* t = e.dyn<ast::Tuple>()) {
      std::vector<TypeId> elements;
      for (ExprId elt : ast_.list(t->elts)) {
        auto r = eval(elt, false);
        if (!r) return std::nullopt;
        elements.push_back(r->type);
      }
      Result r{module_.types.tuple(elements)};
      if (allowSignature) {
        r.isArgsTuple = true;
        r.signature.args = std::move(elements);
      }
      return r;
    }
    if (const auto* call = e.dyn<ast::Call>()) {
      // numba.types.CPointer(T) (declare_device signatures as objects).
      if (auto path = entityPath(ast_, call->func, module_);
          path && isNumbaTypeName(*path, "CPointer")) {
        auto args = ast_.list(call->args);
        if (args.size() != 1 || !call->keywords.empty()) {
          diags_.error(loc, Diag::InvalidType, "`CPointer` takes one scalar type");
          return std::nullopt;
        }
        auto pointee = eval(args[0], false);
        if (!pointee) return std::nullopt;
        if (!module_.types.isScalar(pointee->type)) {
          diags_.error(locationOf(ast_, ast_.expr(args[0]).range), Diag::InvalidType,
                       "`CPointer` takes a scalar type such as `float32`");
          return std::nullopt;
        }
        return Result(module_.types.pointer(pointee->type));
      }
      auto ret = eval(call->func, false);
      if (!ret) return std::nullopt;
      if (!allowSignature) {
        diags_.error(loc, Diag::InvalidType, "expected a type, found a signature");
        return std::nullopt;
      }
      Result r{ret->type};
      r.isSignature = true;
      r.signature.returnType = ret->type;
      for (ExprId a : ast_.list(call->args)) {
        auto arg = eval(a, false);
        if (!arg) return std::nullopt;
        r.signature.args.push_back(arg->type);
      }
      return r;
    }
    diags_.error(loc, Diag::InvalidType, "expected a type");
    return std::nullopt;
  }

  // The location of byte `offset` of the string literal `id`'s value, when
  // the literal is written plainly on one line; else the whole literal.
  Location stringLocation(ExprId id, uint32_t offset, uint32_t length) {
    const Expr& e = ast_.expr(id);
    Location whole = locationOf(ast_, e.range);
    if (e.range.lineno != e.range.endLineno || whole.lineText.empty()) return whole;
    std::string_view literal = whole.lineText.substr(whole.column - 1, whole.length);
    size_t q = literal.find_first_of("\"'");
    if (q == std::string_view::npos || literal.find('\\') != std::string_view::npos) {
      return whole;
    }
    char quote = literal[q];
    size_t quoteLen = literal.substr(q, 3) == std::string(3, quote) ? 3 : 1;
    size_t body = q + quoteLen;
    // Implicit concatenation: more than one literal.
    if (literal.find(quote, body) + quoteLen != literal.size()) return whole;
    Location loc = whole;
    loc.column = whole.column + static_cast<uint32_t>(body) + offset;
    loc.length = length;
    return loc;
  }

private:
  std::optional<Result> evalString(ExprId id, const std::string& text, bool allowSignature) {
    if (allowSignature) {
      auto parsed = parseSignature(text, module_.types);
      if (auto* err = std::get_if<SignatureError>(&parsed)) {
        diags_.error(stringLocation(id, err->offset, err->length), Diag::InvalidSignature,
                     err->message);
        return std::nullopt;
      }
      Result r;
      r.signature = std::get<Signature>(parsed);
      r.isSignature = r.signature.returnType.has_value();
      r.isArgsTuple = !r.isSignature;
      return r;
    }
    auto parsed = parseTypeText(text, module_.types);
    if (auto* err = std::get_if<SignatureError>(&parsed)) {
      diags_.error(stringLocation(id, err->offset, err->length), Diag::InvalidType, err->message);
      return std::nullopt;
    }
    return Result(std::get<TypeId>(parsed));
  }

  const Ast& ast_;
  ResolvedModule& module_;
  DiagnosticSink& diags_;
};

}  // namespace frontend::resolve_detail
