#include "sema/tile/tile_check.h"
#include "sema/tile/tile_check_internal.h"

#include "sema/tile_const_elements.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "diagnostics/diagnostics.h"
#include "sema/tile/tile_ops.h"

namespace frontend {

namespace {

constexpr const char* kTileNames[] = {
#define PYKC_X(N, S) S,
    PYKC_TILE_FNS(PYKC_X)
#undef PYKC_X
};
constexpr const char* kPaddingNames[] = {"UNDETERMINED", "ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF"};
constexpr const char* kRoundingNames[] = {"RN", "RZ", "RM", "RP", "FULL", "APPROX", "RZI"};
constexpr const char* kOrderNames[] = {"WEAK", "RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL"};
constexpr const char* kScopeNames[] = {"NONE", "BLOCK", "DEVICE", "SYS"};

template <size_t N>
std::optional<TileFn> memberOf(const char* const (&names)[N], TileFn first, std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (name == names[i]) return static_cast<TileFn>(static_cast<size_t>(first) + i);
  }
  return std::nullopt;
}

}  // namespace

std::optional<TileFn> tileFnByName(std::string_view name) {
  for (size_t i = 0; i < std::size(kTileNames); ++i) {
    if (name == kTileNames[i]) return static_cast<TileFn>(i);
  }
  return std::nullopt;
}

std::optional<TileFn> tileMemberByName(TileFn ns, std::string_view name) {
  switch (ns) {
    case TileFn::PaddingMode:
      return memberOf(kPaddingNames, TileFn::PadUndetermined, name);
    case TileFn::RoundingMode:
      return memberOf(kRoundingNames, TileFn::RoundRn, name);
    case TileFn::MemoryOrder:
      return memberOf(kOrderNames, TileFn::OrderWeak, name);
    case TileFn::MemoryScope:
      return memberOf(kScopeNames, TileFn::ScopeNone, name);
    default:
      return std::nullopt;
  }
}

std::string_view tileFnName(TileFn fn) {
  size_t i = static_cast<size_t>(fn);
  if (i < std::size(kTileNames)) return kTileNames[i];
  if (fn == TileFn::Item) return "item";
  if (fn == TileFn::ArraySlice) return "slice";
  if (fn == TileFn::GetRawMemory) return "get_raw_memory";
  if (fn == TileFn::LoadOffset) return "load_offset";
  if (fn == TileFn::StoreOffset) return "store_offset";
  if (fn == TileFn::TiledView) return "tiled_view";
  if (fn == TileFn::ViewLoad) return "load";
  if (fn == TileFn::ViewStore) return "store";
  if (fn == TileFn::ViewNumTiles) return "num_tiles";
  if (isTileMemoryOrder(static_cast<uint32_t>(fn))) return kOrderNames[i - static_cast<size_t>(TileFn::OrderWeak)];
  if (isTileMemoryScope(static_cast<uint32_t>(fn))) return kScopeNames[i - static_cast<size_t>(TileFn::ScopeNone)];
  if (isTileRounding(static_cast<uint32_t>(fn))) return kRoundingNames[i - static_cast<size_t>(TileFn::RoundRn)];
  return kPaddingNames[i - static_cast<size_t>(TileFn::PadUndetermined)];
}

namespace tile {

void TileChecker::run() {
  initTables();
  for (size_t i = 0; i < fn_.params.size() && i < inst_.argTypes.size(); ++i) {
    // A dataclass written by its fields' types (`--sig 'k(Arg(int32, float32))'`): named.
    if (auto named = namedDataclassTypes(inst_.argTypes[i])) {
      inst_.argTypes[i] = *named;
    } else {
      vars_[fn_.params[i]] = inst_.argTypes[i];
      failed_.insert(fn_.params[i]);
      continue;
    }
    TypeId t = inst_.argTypes[i];
    if (!types_.isArray(t) && !types_.isNumber(t) && !tupleParamOk(t)) {
      diags_.error(fn_.location, Diag::TileType,
                   "parameter `" + fn_.params[i] + "` of tile kernel `" + fn_.name +
                       "` is `" + types_.name(t) +
                       "`: tile kernels take arrays, numbers and tuples of them");
    }
    vars_[fn_.params[i]] = t;
  }
  // `scale: float` beside a signature from `--sig`: the kinds must agree.
  for (const TileScalarAnnotation& a : fn_.tileScalarAnnotations) {
    if (a.param >= inst_.argTypes.size()) continue;
    TypeId t = inst_.argTypes[a.param];
    bool ok = a.kind == "float"  ? types_.isFloat(t) && !types_.isArray(t)
              : a.kind == "int" ? types_.isInt(t) && !types_.isArray(t)
                                : types_.isBool(t);
    if (!ok) {
      diags_.error(a.location, Diag::TileType,
                   "parameter `" + fn_.params[a.param] + "` is annotated `" + a.kind +
                       "`, but the signature gives it `" + types_.name(t) + "`");
    }
  }
  for (size_t i = 0; i < fn_.tileConsts.size() && i < inst_.tileConstValues.size(); ++i) {
    const ConstValue& v = inst_.tileConstValues[i];
    if (v.kind == ConstValue::Kind::Dtype) {
      // A dtype given as the Constant: the dtype itself (`c == ct.float32`, `astype(c)`).
      TV d;
      d.k = TV::K::Entity;
      d.ent = Intrinsic::TypeObject;
      d.payload = static_cast<uint32_t>(v.intValue);
      d.path = v.repr();
      entities_[fn_.tileConsts[i].name] = d;
      continue;
    }
    if (auto element = splitElementName(fn_.tileConsts[i].name)) {
      seedKnownElement(*element, v);
      continue;
    }
    consts_[fn_.tileConsts[i].name] = v;
  }
  const ast::FunctionDef& def = *ast_.stmt(fn_.stmt).functionDef();
  countAssignments(ast_.list(def.body));
  checkBody(ast_.list(def.body));
  for (const auto& [name, t] : vars_) inst_.variables[name] = t;
  for (const auto& [name, c] : consts_) {
    if (auto t = typeOfConstant(c, types_)) inst_.variables[name] = *t;
  }
}

bool TileChecker::tupleParamOk(TypeId t) const {
  if (!types_.isTuple(t)) return types_.isArray(t) || types_.isNumber(t);
  for (TypeId e : types_.get(t).elements) {
    if (!tupleParamOk(e)) return false;
  }
  return true;
}

bool TileChecker::holdsArray(TypeId t) const {
  if (types_.isArray(t)) return true;
  if (!types_.isTuple(t)) return false;
  for (TypeId e : types_.get(t).elements) {
    if (holdsArray(e)) return true;
  }
  return false;
}

void TileChecker::initTables() {
  size_t nExpr = ast_.exprCount();
  inst_.exprTypes.assign(nExpr, TypeId());
  inst_.opTypes.assign(nExpr, TypeId());
  inst_.meanings.assign(nExpr, ExprMeaning{});
  inst_.constIndex.assign(nExpr, -1);
  inst_.powExponentTypes.assign(nExpr, TypeId());
  inst_.arrayAttrs.assign(nExpr, ArrayAttr::None);
  inst_.callees.assign(nExpr, -1);
  size_t nStmt = ast_.stmtCount();
  inst_.stmtOpTypes.assign(nStmt, TypeId());
  inst_.stmtResultTypes.assign(nStmt, TypeId());
  inst_.rangeTypes.assign(nStmt, TypeId());
  inst_.returnType = types_.none();
}

TV TileChecker::runHelper(const std::vector<TV>& args) {
  helperMode_ = true;
  initTables();
  // A lambda's body is one expression, its result.
  std::span<const StmtId> body;
  if (fn_.stmt.valid()) body = ast_.list(ast_.stmt(fn_.stmt).functionDef()->body);
  countAssignments(body);
  std::string params;
  inst_.argTypes.assign(args.size(), TypeId());
  for (size_t i = 0; i < args.size() && i < fn_.params.size(); ++i) {
    const std::string& p = fn_.params[i];
    TV a = args[i];
    // A constant rebound in a loop or branch of the helper becomes a runtime variable.
    if (a.k == TV::K::Const && nestedAssigned_.count(p)) {
      if (auto t = weakType(a.c)) a = TV::value(*t);
    }
    std::string text;
    if (a.k == TV::K::Dict) {
      // `**kwargs`: its run-time values are the elements of a tuple the name holds.
      std::vector<TypeId> runtime;
      text = p + "={";
      for (size_t k = 0; k < a.keys.size(); ++k) {
        text += (k ? ", '" : "'") + a.keys[k] + "': " + describe(a.items[k]);
        if (a.items[k].k != TV::K::Value) continue;
        a.pieces[k] = TileArgPiece{ExprId(), {static_cast<uint32_t>(runtime.size())}};
        runtime.push_back(a.items[k].type);
      }
      text += "}";
      if (!runtime.empty()) {
        vars_[p] = types_.tuple(runtime);
        depth_[p] = 0;
        inst_.argTypes[i] = vars_[p];
      }
      dicts_[p] = a;
      params += (i ? ", " : "") + text;
      continue;
    }
    switch (a.k) {
      case TV::K::Const:
        consts_[p] = a.c;
        text = p + "=" + a.c.repr();
        break;
      case TV::K::Entity:
        entities_[p] = a;
        text = p + "=" + a.path;
        break;
      case TV::K::Closure:
      case TV::K::Items:
        closures_[p] = a;
        bindHiddenVars(a);
        text = p + "=" + describe(a);
        break;
      default:
        vars_[p] = a.type;
        depth_[p] = 0;
        if (!a.knownParts.empty()) {
          // `*args`' constant elements stay constants (`dims[1]` can size a tile).
          Known k;
          for (const auto& c : a.knownParts) {
            k.parts.emplace_back();
            k.parts.back().c = c;
          }
          if (k.any()) known_[p] = k;
        }
        inst_.argTypes[i] = a.type;
        text = types_.isArray(a.type) ? types_.signatureName(a.type) : types_.name(a.type);
        if (known_.count(p)) {
          text += "=(";
          for (size_t k = 0; k < a.knownParts.size(); ++k) {
            text += (k ? ", " : "") + (a.knownParts[k] ? a.knownParts[k]->repr() : std::string("?"));
          }
          text += a.knownParts.size() == 1 ? ",)" : ")";
        }
        break;
    }
    params += (i ? ", " : "") + text;
  }
  if (generator_ && !findGeneratorYield()) return TV{};
  checkBody(body);
  if (fn_.lambda.valid()) {
    ExprId value = ast_.expr(fn_.lambda).as<ast::Lambda>().body;
    TV v = checkExpr(value);
    if (v.ok()) v = frozen(v, ast_.expr(value).range);
    if (v.ok()) {
      returns_.emplace_back(v, ast_.expr(value).range);
    } else {
      returnFailed_ = true;
    }
  }
  TV result;
  if (generator_) {
    // The call's value is what the `yield` gives; `as` holds it frozen at the end after the `with`.
    if (!yieldFailed_) result = yielded_;
    if (result.ok() && isAggregate(yieldRaw_)) yieldEnd_ = frozen(yieldRaw_, ast_.stmt(fn_.stmt).range);
    if (result.k == TV::K::Value && types_.isArray(result.type)) {
      diags_.error(loc(ast_.stmt(yieldStmt_).range), Diag::TileUnsupported, "yielding an array from a context manager", "");
      result = TV{};
    }
  } else {
    result = helperResult();
  }
  std::string ret = "?";
  if (result.k == TV::K::Value) {
    inst_.returnType = result.type;
    ret = types_.isNone(result.type) ? "void" : types_.name(result.type);
  } else if (result.ok()) {
    ret = describe(result);
  }
  inst_.signature = ret + "(" + params + ")";
  for (const auto& [name, t] : vars_) inst_.variables[name] = t;
  for (const auto& [name, c] : consts_) {
    if (auto t = typeOfConstant(c, types_)) inst_.variables[name] = *t;
  }
  return result;
}

}  // namespace tile

void checkTileKernel(const Ast& ast, ResolvedModule& module, FunctionInstance& inst,
                     std::vector<FunctionInstance>& helpers, DiagnosticSink& diags) {
  tile::HelperContext context(helpers);
  tile::TileChecker checker(ast, module, inst, diags, context);
  checker.run();
}

}  // namespace frontend
