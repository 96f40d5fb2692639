// The module level: the resolver (resolve.h, resolveModule).
#include "sema/resolve.h"
#include "sema/tile_const_elements.h"
#include "sema/dataclasses.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <set>

#include "diagnostics/diagnostics.h"
#include "sema/tile/tile_ops.h"
#include "sema/nested_kernels.h"
#include "sema/resolve_internal.h"

namespace frontend {

using resolve_detail::TypeExprEvaluator;
using resolve_detail::entityPath;
using resolve_detail::fromLiteral;
using resolve_detail::isScalarInt64Annotation;
using resolve_detail::isTileHintAnnotation;
using resolve_detail::pythonScalarAnnotation;

// --- the module level ---------------------------------------------------------

namespace {

class Resolver {
public:
  Resolver(const Ast& ast, const ResolveOptions& options, DiagnosticSink& diags)
      : ast_(ast), options_(options), diags_(diags) {}

  ResolvedModule run() {
    for (StmtId id : ast_.module()) {
      visitTopLevel(id);
    }
    // Defines that no module-level assignment consumed are new constants.
    for (const auto& [name, value] : options_.defines) {
      auto it = module_.globals.find(name);
      if (it == module_.globals.end() || it->second.kind != Intrinsic::Constant ||
          !definedByCommandLine_.count(name)) {
        bindDefine(name, value);
      }
    }
    for (const auto& [name, path] : options_.definePaths) bindDefinePath(name, path);
    module_.plainDefs = bound_.plainDefs;
    visitNestedKernels();
    applyCommandLineSignatures();
    const std::vector<std::string>& only = options_.kernels;
    for (JitFunction& f : module_.functions) {
      // With a kernel filter, only the chosen kernels need types.
      if (!only.empty() && std::find(only.begin(), only.end(), f.name) == only.end()) continue;
      if (f.tile && f.signatures.empty() && !f.signatureGiven) {
        diags_.error(f.location, Diag::TileNoSignature, f.name);
      } else if (!f.device && f.signatures.empty() && !f.signatureGiven &&
                 !resolve_detail::compiledOnlyWhenCalled(ast_, module_, indexOf(f))) {
        diags_.error(f.location, Diag::NoSignature, f.name);
      }
    }
    return std::move(module_);
  }

private:
  void bind(const std::string& name, Entity entity) { module_.globals[name] = std::move(entity); }
  uint32_t indexOf(const JitFunction& f) const {
    return static_cast<uint32_t>(&f - module_.functions.data());
  }

  void visitTopLevel(StmtId id) {
    const Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case StmtKind::Import:
        for (AliasId a : ast_.list(s.as<ast::Import>().names)) {
          const Alias& alias = ast_.alias(a);
          std::string full(ast_.str(alias.name));
          if (alias.asname.valid()) {
            bindPath(std::string(ast_.str(alias.asname)), full);
          } else {
            std::string first = full.substr(0, full.find('.'));
            bindPath(first, first);
          }
        }
        break;
      case StmtKind::ImportFrom: {
        const auto& from = s.as<ast::ImportFrom>();
        std::string module(ast_.str(from.module));
        for (AliasId a : ast_.list(from.names)) {
          const Alias& alias = ast_.alias(a);
          std::string name(ast_.str(alias.name));
          if (name == "*") continue;
          std::string bound = alias.asname.valid() ? std::string(ast_.str(alias.asname)) : name;
          if (auto pd = options_.projectDecorators.find(bound);
              pd != options_.projectDecorators.end() && pd->second.empty()) {
            // A project decorator that only applies cuda.jit (fbpic's `compile_cupy`).
            bind(bound, *lookupEntity("numba.cuda.jit", module_.types));
          } else if (auto mo = options_.moduleObjects.find(bound); mo != options_.moduleObjects.end()) {
            module_.moduleObjects.push_back(mo->second);
            bind(bound, Entity{Intrinsic::ModuleObject,
                               static_cast<uint32_t>(module_.moduleObjects.size() - 1), bound});
          } else if (from.level != 0) {
            bind(bound, Entity{Intrinsic::HostValue, 0, bound});
          } else {
            bindPath(bound, module + "." + name);
          }
        }
        break;
      }
      case StmtKind::Assign: {
        const auto& assign = s.as<ast::Assign>();
        for (ExprId target : ast_.list(assign.targets)) {
          bindAssigned(target, assign.value);
        }
        break;
      }
      case StmtKind::AnnAssign: {
        const auto& assign = s.as<ast::AnnAssign>();
        if (assign.value.valid()) bindAssigned(assign.target, assign.value);
        break;
      }
      case StmtKind::AugAssign: {
        const auto& aug = s.as<ast::AugAssign>();
        if (const auto* name = ast_.expr(aug.target).dyn<ast::Name>()) {
          std::string n(ast_.str(name->id));
          auto it = module_.globals.find(n);
          std::optional<ConstValue> value;
          if (it != module_.globals.end() && it->second.kind == Intrinsic::Constant) {
            auto rhs = foldConstant(ast_, aug.value, module_);
            if (rhs) value = foldBinary(aug.op, module_.constants[it->second.payload], *rhs);
          }
          if (value) {
            module_.constants.push_back(*value);
            bind(n, Entity{Intrinsic::Constant,
                           static_cast<uint32_t>(module_.constants.size() - 1), n});
          } else {
            bind(n, Entity{Intrinsic::HostValue, 0, n});
          }
        }
        break;
      }
      case StmtKind::FunctionDef:
      case StmtKind::AsyncFunctionDef:
        visitFunction(id);
        break;
      case StmtKind::ClassDef: {
        std::string n(ast_.str(s.as<ast::ClassDef>().name));
        if (auto e = resolve_detail::enumClassOf(ast_, s.as<ast::ClassDef>(), module_)) {
          module_.enums.push_back(std::move(*e));
          bind(n, Entity{Intrinsic::EnumClass, static_cast<uint32_t>(module_.enums.size() - 1), n});
        } else if (isUserClass(ast_, module_, s.as<ast::ClassDef>())) {
          // A dataclass, or a class derived from one (sema/dataclasses.h): tile kernels
          // construct and use its instances.
          bind(n, Entity{Intrinsic::HostValue, kClassPayload + id.index, n});
        } else {
          bind(n, Entity{Intrinsic::HostValue, 0, n});
        }
        break;
      }
      case StmtKind::If:
        visitModuleIf(s.as<ast::If>(), s.range.lineno);
        break;
      case StmtKind::Try:
      case StmtKind::TryStar: {
        // At import, the body ran (the handlers are the fallbacks of an environment
        // without the library: `try: import cupy except ImportError: cupy = None`).
        const ast::Try& t = s.kind() == StmtKind::Try ? s.as<ast::Try>() : s.as<ast::TryStar>();
        for (StmtId b : ast_.list(t.body)) visitTopLevel(b);
        for (StmtId b : ast_.list(t.orelse)) visitTopLevel(b);
        for (StmtId b : ast_.list(t.finalbody)) visitTopLevel(b);
        break;
      }
      default:
        break;
    }
  }

  // A module-level `if`: the branch its condition selects when the condition folds
  // (module constants, `-D`, numba's version), as Python runs it at import. Otherwise
  // the names the branches bind are Conditional: an error where a kernel uses them.
  void visitModuleIf(const ast::If& stmt, uint32_t line) {
    if (auto test = resolve_detail::foldCondition(ast_, stmt.test, module_)) {
      for (StmtId b : ast_.list(*test ? stmt.body : stmt.orelse)) visitTopLevel(b);
      return;
    }
    std::set<std::string> names;
    collectBoundNames(ast_, ast_.list(stmt.body), names);
    collectBoundNames(ast_, ast_.list(stmt.orelse), names);
    for (const std::string& n : names) bind(n, Entity{Intrinsic::Conditional, line, n});
  }

  void bindPath(const std::string& name, const std::string& path) {
    // `-D NAME=VALUE` replaces an import as it does an assignment (`-D m_e=...` for
    // `from scipy.constants import m_e`), so that constants computed from it see it.
    for (const auto& [defined, v] : options_.defines) {
      if (defined == name) return bindDefine(name, v);
    }
    auto entity = resolve_detail::importedEntity(path, module_.types);
    if (!entity && isMeasuredScipyConstant(path)) {
      std::string scipyName = path.substr(path.rfind('.') + 1);
      // A dict of values (`physical_constants`) cannot be defined; what reads it can.
      module_.measuredConstants[name] = {scipyName, scipyName == "physical_constants" ? "" : name};
      bind(name, Entity{Intrinsic::HostValue, 2, name});
      return;
    }
    bind(name, entity ? *entity : Entity{Intrinsic::HostValue, 0, name});
  }


  void bindDefine(const std::string& name, const ConstValue& value) {
    module_.constants.push_back(value);
    module_.globals[name] =
        Entity{Intrinsic::Constant, static_cast<uint32_t>(module_.constants.size() - 1), name};
    definedByCommandLine_.insert(name);
  }

  // The `--const NAME=PATH` values of `key`: enum members and dtypes the module names.
  // `--const KERNEL.NAME=VALUE` applies to that kernel alone and, where given, replaces
  // the file-wide `NAME=VALUE` values for it.
  void givenConstValues(const std::string& kernel, TileConstParam& c) {
    for (const std::string& key : {qualifier_ + kernel + "." + c.name, c.name}) {
      for (const auto& [n, v] : options_.consts) {
        if (n == key) c.values.push_back(v);
      }
      constPathValues(key, c);
      if (!c.values.empty()) return;
    }
  }

  void constPathValues(const std::string& key, TileConstParam& c) {
    for (const auto& [n, path] : options_.constPaths) {
      if (n != key) continue;
      if (auto v = resolve_detail::constPathValue(path, module_)) {
        c.values.push_back(std::move(*v));
        continue;
      }
      diags_.error(Diag::InvalidDefine, "`--const " + n + "=" + path + "`: `" + path +
                                             "` is not a number, an enum member or a dtype the file names");
      c.invalid = true;
    }
  }

  // `-D NAME=ct.max`: what the path names through the module's imports; `-D NAME=f`: the
  // plain function `f` the file defines (a tile helper, as a parameter's value).
  void bindDefinePath(const std::string& name, const std::string& path) {
    auto def = bound_.plainDefs.find(path);
    auto entity = def != bound_.plainDefs.end() ? std::optional(Entity{Intrinsic::HostValue, 1, path})
                                                : resolve_detail::definePathEntity(path, module_);
    if (def != bound_.plainDefs.end()) bound_.plainDefs[name] = def->second;
    if (!entity) {
      diags_.error(Diag::InvalidDefine, "`-D " + name + "=" + path + "`: `" + path +
                                             "` is not a number, a function the file defines, nor something pykc "
                                             "knows that the file imports");
      return;
    }
    bind(name, *entity);
    definedByCommandLine_.insert(name);
  }

  void bindAssigned(ExprId target, ExprId value) {
    const Expr& t = ast_.expr(target);
    // `f = cuda.jit(device=True)(g) if cuda else None`: the branch import takes.
    if (auto branch = resolve_detail::selectedBranch(ast_, value, module_)) {
      return bindAssigned(target, *branch);
    }
    if (const auto* name = t.dyn<ast::Name>()) {
      std::string n(ast_.str(name->id));
      // `SIGS = ["void(float32[::1])", ...]` or `SIG = "..."`, used as
      // `@cuda.jit(SIGS)`: remembered for the decorators below.
      bound_.signatureVars.erase(n);
      const Expr& v = ast_.expr(value);
      if (v.is<ast::List>() || v.is<ast::Tuple>() ||
          (v.is<ast::Constant>() && ast_.constantOf(value).kind == ConstantKind::Str)) {
        bound_.signatureVars[n] = value;
      }
      // `sig = void(float32[::1])`, `sig = types.void(types.CPointer(types.uint8))`:
      // a signature object (a numba type called with argument types).
      if (const auto* call = v.dyn<ast::Call>()) {
        if (auto callee = entityPath(ast_, call->func, module_)) {
          auto entity = lookupEntity(*callee, module_.types);
          if (entity && entity->kind == Intrinsic::TypeObject) bound_.signatureVars[n] = value;
        }
      }
      // `-D NAME=VALUE` replaces the assignment itself, so that constants
      // computed from NAME below see the new value.
      for (const auto& [defined, v] : options_.defines) {
        if (defined == n) {
          bindDefine(n, v);
          return;
        }
      }
      for (const auto& [defined, path] : options_.definePaths) {
        if (defined == n) {
          bindDefinePath(n, path);
          return;
        }
      }
      bound_.stringValues.erase(n);
      if (const auto* call = ast_.expr(value).dyn<ast::Call>()) {
        auto callee = entityPath(ast_, call->func, module_);
        if (callee && *callee == "numba.cuda.declare_device") {
          declareDevice(n, value, *call);
          return;
        }
        if (jitAssigned(n, *call)) return;
        if (callee && *callee == "cffi.FFI") {
          bind(n, Entity{Intrinsic::CffiFfi, 0, n});
          return;
        }
        if (auto record = recordOf(value)) {
          bind(n, Entity{Intrinsic::TypeObject, record->index, n});
          return;
        }
      }
      if (auto text = foldPath(value)) bound_.stringValues[n] = *text;
      bound_.dictLiterals.erase(n);
      if (ast_.expr(value).is<ast::Dict>()) bound_.dictLiterals[n] = value;
      if (auto v = foldDictLookup(value)) {
        module_.constants.push_back(std::move(*v));
        bind(n, Entity{Intrinsic::Constant, static_cast<uint32_t>(module_.constants.size() - 1), n});
        return;
      }
      // Strings are constants too (tile kernels compare them; numba's checker refuses them
      // where a value is needed); None stays unbound (`cupy = None`: an import's fallback).
      if (auto v = foldConstant(ast_, value, module_); v && v->kind != ConstValue::Kind::None) {
        module_.constants.push_back(std::move(*v));
        bind(n, Entity{Intrinsic::Constant, static_cast<uint32_t>(module_.constants.size() - 1), n});
        return;
      }
      if (auto path = entityPath(ast_, value, module_)) {
        if (auto entity = lookupEntity(*path, module_.types)) {
          bind(n, *entity);
          return;
        }
      }
      // `ConstInt = ct.Constant[int]`: an alias used in tile kernels' annotations.
      if (isTileConstantAnnotation(value)) {
        if (auto kind = tileConstantKind(value)) bound_.tileConstAliasKinds[n] = *kind;
        bind(n, Entity{Intrinsic::TileOp, static_cast<uint32_t>(TileFn::Constant), "cuda.tile.Constant"});
        return;
      }
      if (auto array = foldArrayLiteral(value)) {
        array->name = n;
        module_.constArrays.push_back(std::move(*array));
        bind(n, Entity{Intrinsic::ConstArray, static_cast<uint32_t>(module_.constArrays.size() - 1), n});
        return;
      }
      if (const auto* vn = ast_.expr(value).dyn<ast::Name>()) {
        auto it = module_.globals.find(std::string(ast_.str(vn->id)));
        if (it != module_.globals.end() && it->second.kind == Intrinsic::Function) {
          bind(n, it->second);
          return;
        }
      }
      if (auto measured = resolve_detail::measuredDependency(ast_, n, value, module_)) {
        module_.measuredConstants[n] = std::move(*measured);
        bind(n, Entity{Intrinsic::HostValue, 2, n});
        return;
      }
      if (isConstantInstance(ast_, module_, value)) {
        bind(n, Entity{Intrinsic::HostValue, kInstancePayload + value.index, n});
        return;
      }
      bind(n, Entity{Intrinsic::HostValue, 0, n});
      return;
    }
    if (const auto* tuple = t.dyn<ast::Tuple>()) {
      auto values = ast_.expr(value).dyn<ast::Tuple>();
      auto targets = ast_.list(tuple->elts);
      if (values != nullptr && ast_.list(values->elts).size() == targets.size()) {
        auto vs = ast_.list(values->elts);
        for (size_t i = 0; i < targets.size(); ++i) bindAssigned(targets[i], vs[i]);
        return;
      }
      for (ExprId elt : targets) {
        if (const auto* name = ast_.expr(elt).dyn<ast::Name>()) {
          std::string n(ast_.str(name->id));
          bind(n, Entity{Intrinsic::HostValue, 0, n});
        }
      }
    }
  }

  // `X = DEFAULTS["KEY"]` with `DEFAULTS = {"KEY": 1e-14, ...}` a module-level dict
  // literal (stumpy's config): the entry's value when it folds to a number or tuple.
  std::optional<ConstValue> foldDictLookup(ExprId value) {
    const auto* sub = ast_.expr(value).dyn<ast::Subscript>();
    const auto* base = sub ? ast_.expr(sub->value).dyn<ast::Name>() : nullptr;
    if (base == nullptr) return std::nullopt;
    auto it = bound_.dictLiterals.find(std::string(ast_.str(base->id)));
    if (it == bound_.dictLiterals.end()) return std::nullopt;
    auto key = foldConstant(ast_, sub->slice, module_);
    if (!key) return std::nullopt;
    const auto& dict = ast_.expr(it->second).as<ast::Dict>();
    auto keys = ast_.list(dict.keys);
    auto values = ast_.list(dict.values);
    std::optional<ConstValue> found;
    for (size_t i = 0; i < keys.size() && i < values.size(); ++i) {
      if (!keys[i].valid()) return std::nullopt;  // `**other`: not folded
      auto k = foldConstant(ast_, keys[i], module_);
      if (!k) return std::nullopt;
      auto eq = foldCompare(CmpOp::Eq, *k, *key);
      if (!eq) return std::nullopt;
      if (eq->boolValue) found = foldConstant(ast_, values[i], module_);  // the last one wins
    }
    if (!found || found->kind == ConstValue::Kind::Str || found->kind == ConstValue::Kind::None) {
      return std::nullopt;
    }
    return found;
  }

  // A string computed at compile time for `link=`: a literal, a module
  // string variable, `__file__` (the path as given to pykc), `+`, and
  // os.path.join/dirname/abspath/realpath/normpath with Python's rules (the
  // last three leave the path as is: relative paths stay relative to the
  // working directory). nullopt for anything else.

  // A record type (resolve_internal.h, recordOfDtype), or nullopt.
  std::optional<TypeId> recordOf(ExprId id) {
    return resolve_detail::recordOfDtype(ast_, id, module_, diags_,
                                         [this](ExprId e) { return foldPath(e); });
  }

  std::optional<std::string> foldPath(ExprId id) {
    const Expr& e = ast_.expr(id);
    if (e.is<ast::Constant>()) {
      const auto& c = ast_.constantOf(id);
      if (c.kind == ConstantKind::Str) return c.text;
      return std::nullopt;
    }
    if (const auto* name = e.dyn<ast::Name>()) {
      std::string n(ast_.str(name->id));
      if (auto it = bound_.stringValues.find(n); it != bound_.stringValues.end()) return it->second;
      if (n == "__file__" && ast_.source() != nullptr) return std::string(ast_.source()->path());
      return std::nullopt;
    }
    if (const auto* bin = e.dyn<ast::BinOp>()) {
      if (bin->op != Operator::Add) return std::nullopt;
      auto l = foldPath(bin->left);
      auto r = foldPath(bin->right);
      if (!l || !r) return std::nullopt;
      return *l + *r;
    }
    const auto* call = e.dyn<ast::Call>();
    if (call == nullptr || !call->keywords.empty()) return std::nullopt;
    auto callee = entityPath(ast_, call->func, module_);
    if (!callee) return std::nullopt;
    std::vector<std::string> parts;
    for (ExprId a : ast_.list(call->args)) {
      auto p = foldPath(a);
      if (!p) return std::nullopt;
      parts.push_back(std::move(*p));
    }
    if (*callee == "os.path.join" && !parts.empty()) {
      std::string out;
      for (const std::string& p : parts) {
        if (!p.empty() && p[0] == '/') {
          out = p;
        } else if (out.empty() || out.back() == '/') {
          out += p;
        } else {
          out += "/" + p;
        }
      }
      return out;
    }
    if (parts.size() != 1) return std::nullopt;
    if (*callee == "os.path.dirname") {
      size_t slash = parts[0].rfind('/');
      if (slash == std::string::npos) return std::string();
      std::string head = parts[0].substr(0, slash + 1);
      // Python strips the trailing slashes unless the head is all slashes.
      if (head.find_first_not_of('/') != std::string::npos) {
        while (!head.empty() && head.back() == '/') head.pop_back();
      }
      return head;
    }
    if (*callee == "os.path.abspath" || *callee == "os.path.realpath" ||
        *callee == "os.path.normpath") {
      return parts[0];
    }
    return std::nullopt;
  }

  // `link=` of cuda.jit or cuda.declare_device: one path or a list/tuple of
  // them. Reports paths pykc cannot compute and unknown extensions.
  std::vector<LinkRef> parseLinks(ExprId value) {
    std::vector<LinkRef> links;
    std::vector<ExprId> items;
    const Expr& e = ast_.expr(value);
    if (const auto* list = e.dyn<ast::List>()) {
      items.assign(ast_.list(list->elts).begin(), ast_.list(list->elts).end());
    } else if (const auto* tuple = e.dyn<ast::Tuple>()) {
      items.assign(ast_.list(tuple->elts).begin(), ast_.list(tuple->elts).end());
    } else {
      items.push_back(value);
    }
    for (ExprId item : items) {
      Location loc = locationOf(ast_, ast_.expr(item).range);
      auto path = foldPath(item);
      if (!path) {
        diags_.error(loc, Diag::InvalidLink,
                     "pykc cannot compute this `link=` path at compile time: write a string, or "
                     "`os.path.join(os.path.dirname(__file__), \"file.cu\")`");
        continue;
      }
      if (!linkFileKind(*path)) {
        diags_.error(loc, Diag::InvalidLink,
                     "cannot link `" + *path + "`: pykc links " +
                         std::string(linkFileExtensions()) + " files");
        continue;
      }
      links.push_back(LinkRef{std::move(*path), loc});
    }
    return links;
  }

  // `name = cuda.declare_device("symbol", "ret(args)", link=...)`.
  void declareDevice(const std::string& name, ExprId value, const ast::Call& call) {
    Location loc = locationOf(ast_, ast_.expr(value).range);
    ExternFunction fn;
    fn.name = name;
    fn.location = loc;
    auto args = ast_.list(call.args);
    ExprId symbolExpr = args.size() > 0 ? args[0] : ExprId();
    ExprId sigExpr = args.size() > 1 ? args[1] : ExprId();
    ExprId linkExpr = args.size() > 2 ? args[2] : ExprId();
    bool ok = args.size() <= 3;
    if (!ok) {
      diags_.error(loc, Diag::InvalidDeclareDevice,
                   "`cuda.declare_device` takes a name, a signature and `link=`");
    }
    for (KeywordId kid : ast_.list(call.keywords)) {
      const Keyword& k = ast_.keyword(kid);
      std::string key = k.arg.valid() ? std::string(ast_.str(k.arg)) : "**";
      if (key == "name" && !symbolExpr.valid()) {
        symbolExpr = k.value;
      } else if (key == "sig" && !sigExpr.valid()) {
        sigExpr = k.value;
      } else if (key == "link" && !linkExpr.valid()) {
        linkExpr = k.value;
      } else if (key == "abi") {
        auto c = foldConstant(ast_, k.value, module_);
        if (c && c->kind == ConstValue::Kind::Str && (c->strValue == "c" || c->strValue == "numba")) {
          fn.cAbi = c->strValue == "c";
        } else {
          diags_.error(locationOf(ast_, k.range), Diag::InvalidDeclareDevice,
                       "`abi` must be \"numba\" (the default) or \"c\"");
          ok = false;
        }
      } else if (key == "use_cooperative") {
        auto b = boolOption(k);
        if (b && *b) {
          diags_.error(locationOf(ast_, k.range), Diag::UnsupportedOption,
                       "`use_cooperative=True` is not supported by pykc yet");
          ok = false;
        }
      } else {
        diags_.error(locationOf(ast_, k.range), Diag::InvalidDeclareDevice,
                     "unknown `cuda.declare_device` argument `" + key + "`");
        ok = false;
      }
    }
    if (!symbolExpr.valid() || !sigExpr.valid()) {
      diags_.error(loc, Diag::InvalidDeclareDevice,
                   "`cuda.declare_device` needs the function's name and its signature, e.g. "
                   "`cuda.declare_device(\"mul\", \"float32(float32, float32)\")`");
      ok = false;
    } else {
      auto symbol = foldPath(symbolExpr);
      if (!symbol || symbol->empty()) {
        diags_.error(locationOf(ast_, ast_.expr(symbolExpr).range), Diag::InvalidDeclareDevice,
                     "the name of a `cuda.declare_device` function must be a string");
        ok = false;
      } else {
        fn.symbol = *symbol;
      }
      ExprId sigId = sigExpr;
      if (const auto* n = ast_.expr(sigId).dyn<ast::Name>()) {
        auto it = bound_.signatureVars.find(std::string(ast_.str(n->id)));
        if (it != bound_.signatureVars.end()) sigId = it->second;
      }
      TypeExprEvaluator evaluator(ast_, module_, diags_);
      Location sigLoc = locationOf(ast_, ast_.expr(sigExpr).range);
      auto r = evaluator.eval(sigId, true);
      if (!r) {
        ok = false;
      } else if (!r->isSignature || !r->signature.returnType) {
        // numba: "Return type must be provided for device declarations".
        diags_.error(sigLoc, Diag::InvalidDeclareDevice,
                     "a `cuda.declare_device` signature needs a return type, e.g. "
                     "`\"float32(float32, float32)\"` (or `void(...)`)");
        ok = false;
      } else {
        fn.returnType = *r->signature.returnType;
        fn.args = r->signature.args;
        auto passable = [&](TypeId t, bool isReturn) {
          const TypeTable& types = module_.types;
          if (types.isNumber(t) || types.isPointer(t)) return true;
          return isReturn && types.isNone(t);
        };
        std::vector<TypeId> all = fn.args;
        all.push_back(fn.returnType);
        for (size_t i = 0; i < all.size() && ok; ++i) {
          if (passable(all[i], i + 1 == all.size())) continue;
          std::string what = module_.types.isArray(all[i])
                                 ? "; pass an array's data as `CPointer(" +
                                       module_.types.name(module_.types.get(all[i]).element) +
                                       ")` with `ffi.from_buffer(array)`"
                                 : "";
          diags_.error(sigLoc, Diag::InvalidDeclareDevice,
                       "`" + module_.types.name(all[i]) +
                           "` cannot cross into a `cuda.declare_device` function: it takes "
                           "numbers and `CPointer(T)`s and returns a number or `void`" + what);
          ok = false;
        }
      }
    }
    if (linkExpr.valid()) fn.links = parseLinks(linkExpr);
    if (!ok) {
      bind(name, Entity{Intrinsic::HostValue, 0, name});
      return;
    }
    module_.externs.push_back(std::move(fn));
    bind(name, Entity{Intrinsic::ExternFunction,
                      static_cast<uint32_t>(module_.externs.size() - 1), name});
  }

  // Flattens a nested list/tuple literal of numbers; false when ragged or not constant.
  bool flattenLiteral(ExprId id, size_t depth, std::vector<int64_t>& shape,
                      std::vector<ConstValue>& values) {
    const Expr& e = ast_.expr(id);
    std::span<const ExprId> elts;
    if (const auto* l = e.dyn<ast::List>()) {
      elts = ast_.list(l->elts);
    } else if (const auto* t = e.dyn<ast::Tuple>()) {
      elts = ast_.list(t->elts);
    } else {
      if (depth != shape.size()) return false;
      auto v = foldConstant(ast_, id, module_);
      if (!v || !v->isNumber()) return false;
      values.push_back(*v);
      return true;
    }
    if (depth == shape.size()) {
      if (elts.empty()) return false;
      shape.push_back(static_cast<int64_t>(elts.size()));
    } else if (depth > shape.size() || shape[depth] != static_cast<int64_t>(elts.size())) {
      return false;
    }
    for (ExprId x : elts) {
      if (!flattenLiteral(x, depth + 1, shape, values)) return false;
    }
    return true;
  }

  // `np.array(<nested list of numbers>[, dtype])` (also `np.asarray`, a
  // `dtype=` keyword, dtypes as types or strings); nullopt for anything else.
  std::optional<ConstArrayData> foldArrayLiteral(ExprId value) {
    const auto* call = ast_.expr(value).dyn<ast::Call>();
    if (call == nullptr) return std::nullopt;
    auto path = entityPath(ast_, call->func, module_);
    if (!path || (*path != "numpy.array" && *path != "numpy.asarray")) return std::nullopt;
    auto args = ast_.list(call->args);
    if (args.empty() || args.size() > 2) return std::nullopt;
    ExprId dtypeExpr = args.size() == 2 ? args[1] : ExprId();
    for (KeywordId k : ast_.list(call->keywords)) {
      const Keyword& kw = ast_.keyword(k);
      if (ast_.str(kw.arg) != "dtype" || dtypeExpr.valid()) return std::nullopt;
      dtypeExpr = kw.value;
    }
    ConstArrayData data;
    if (!flattenLiteral(args[0], 0, data.shape, data.values) || data.shape.empty()) {
      return std::nullopt;
    }
    if (dtypeExpr.valid()) {
      if (auto p = entityPath(ast_, dtypeExpr, module_)) {
        if (auto entity = lookupEntity(*p, module_.types);
            entity && entity->kind == Intrinsic::TypeObject) {
          data.element = TypeId(entity->payload);
        }
      } else if (auto c = foldConstant(ast_, dtypeExpr, module_);
                 c && c->kind == ConstValue::Kind::Str) {
        if (auto t = scalarTypeByName(module_.types, c->strValue)) data.element = *t;
      }
      if (!data.element.valid() || !module_.types.isNumber(data.element)) return std::nullopt;
    } else {
      // NumPy's default: bool, int64 or float64 from the literals.
      bool anyFloat = false;
      bool allBool = true;
      for (const ConstValue& v : data.values) {
        anyFloat = anyFloat || v.kind == ConstValue::Kind::Float;
        allBool = allBool && v.kind == ConstValue::Kind::Bool;
      }
      data.element = anyFloat  ? module_.types.float64()
                     : allBool ? module_.types.boolean()
                               : module_.types.int64();
    }
    return data;
  }

  // `ct.Constant`, `ct.Constant[int]` or a name bound to one of them.
  bool isTileConstantAnnotation(ExprId id) {
    if (const auto* sub = ast_.expr(id).dyn<ast::Subscript>()) id = sub->value;
    auto path = entityPath(ast_, id, module_);
    if (!path) return false;
    auto entity = lookupEntity(*path, module_.types);
    return entity && entity->kind == Intrinsic::TileOp &&
           entity->payload == static_cast<uint32_t>(TileFn::Constant);
  }

  // The Python type named inside `ct.Constant[T]` (`bool`, `int`, `float`),
  // directly or through an alias; nullopt when none is named.
  std::optional<std::string> tileConstantKind(ExprId id) const {
    if (const auto* sub = ast_.expr(id).dyn<ast::Subscript>()) {
      if (const auto* n = ast_.expr(sub->slice).dyn<ast::Name>()) return std::string(ast_.str(n->id));
      return std::nullopt;
    }
    if (const auto* n = ast_.expr(id).dyn<ast::Name>()) {
      auto it = bound_.tileConstAliasKinds.find(std::string(ast_.str(n->id)));
      if (it != bound_.tileConstAliasKinds.end()) return it->second;
    }
    return std::nullopt;
  }

  // A `ct.Constant[bool]` value: True/False, or 0/1 as a command line gives
  // them (`--const CAUSAL=0`), as a bool; nullopt for anything else.
  static std::optional<ConstValue> asTileBool(const ConstValue& v) {
    if (v.kind == ConstValue::Kind::Bool) return v;
    if (v.kind == ConstValue::Kind::Int && (v.intValue == 0 || v.intValue == 1)) {
      return ConstValue::ofBool(v.intValue == 1);
    }
    return std::nullopt;
  }

  bool isTileKernel(ExprId id) {
    auto path = entityPath(ast_, id, module_);
    if (!path) return false;
    auto entity = lookupEntity(*path, module_.types);
    return entity && entity->kind == Intrinsic::TileOp &&
           entity->payload == static_cast<uint32_t>(TileFn::Kernel);
  }

  // `ct.ByTarget(sm_100=2, default=1)` as a `ct.kernel` option: the value
  // per architecture. pykc records the `default=` value (0 when there is
  // none: unset) and does not act on these options yet (docs/TILE.md);
  // nullopt (reported later as not an integer) when `id` is not a
  // well-formed ByTarget.
  std::optional<ConstValue> tileByTarget(ExprId id) {
    const auto* call = ast_.expr(id).dyn<ast::Call>();
    if (call == nullptr || !call->args.empty()) return std::nullopt;
    auto path = entityPath(ast_, call->func, module_);
    if (!path) return std::nullopt;
    auto entity = lookupEntity(*path, module_.types);
    if (!entity || entity->kind != Intrinsic::TileOp ||
        entity->payload != static_cast<uint32_t>(TileFn::ByTarget)) {
      return std::nullopt;
    }
    ConstValue chosen = ConstValue::ofInt(0);
    for (KeywordId kid : ast_.list(call->keywords)) {
      const Keyword& k = ast_.keyword(kid);
      if (!k.arg.valid()) return std::nullopt;
      std::string key(ast_.str(k.arg));
      auto v = foldConstant(ast_, k.value, module_);
      bool arch = key.size() > 3 && key.compare(0, 3, "sm_") == 0 &&
                  key.find_first_not_of("0123456789", 3) == std::string::npos;
      if (!v || v->kind != ConstValue::Kind::Int || (!arch && key != "default")) {
        return std::nullopt;
      }
      if (key == "default") chosen = *v;
    }
    return chosen;
  }

  // `@ct.kernel` / `@ct.kernel(num_ctas=..., occupancy=..., opt_level=...)`
  // (docs/TILE.md): the Constant parameters take their values from
  // `--const`, else their defaults; the others are typed by annotations or
  // `--sig` like SIMT kernels.
  bool importsCudaTile() const {
    for (const auto& [name, e] : module_.globals) {
      if (e.kind == Intrinsic::Module && (e.path == "cuda.tile" || e.path.rfind("cuda.tile.", 0) == 0)) return true;
    }
    return false;
  }

  void visitTileKernel(StmtId id, ExprId decorator) {
    const Stmt& s = ast_.stmt(id);
    const ast::FunctionDef& def = *s.functionDef();
    JitFunction f;
    f.name = std::string(ast_.str(def.name));
    f.stmt = id;
    f.tile = true;
    f.location = nameLocation(s, f.name);
    const Arguments& args = ast_.arguments(def.args);
    if (args.vararg.valid() || args.kwarg.valid()) {
      diags_.error(f.location, Diag::UnsupportedFeature,
                   "tile kernels take named parameters only (no `*args` or `**kwargs`)");
    }
    if (s.isAsync()) diags_.error(f.location, Diag::UnsupportedConstruct, "`async def`");
    if (const auto* call = decorator.valid() ? ast_.expr(decorator).dyn<ast::Call>() : nullptr) {
      if (!call->args.empty()) {
        diags_.error(locationOf(ast_, ast_.expr(ast_.list(call->args)[0]).range),
                     Diag::InvalidDecorator, "`ct.kernel` takes keyword options only");
      }
      for (KeywordId kid : ast_.list(call->keywords)) {
        const Keyword& k = ast_.keyword(kid);
        std::string key = k.arg.valid() ? std::string(ast_.str(k.arg)) : "";
        auto v = foldConstant(ast_, k.value, module_);
        if (!v) v = tileByTarget(k.value);
        int64_t* slot = key == "num_ctas"    ? &f.tileOptions.numCtas
                        : key == "occupancy" ? &f.tileOptions.occupancy
                        : key == "opt_level" ? &f.tileOptions.optLevel
                        : key == "num_worker_warps" ? &f.tileOptions.numWorkerWarps
                                             : nullptr;
        if (slot == nullptr) {
          diags_.error(locationOf(ast_, k.range), Diag::InvalidDecorator,
                       "unknown `ct.kernel` option `" + key +
                           "`; known: num_ctas, occupancy, opt_level, num_worker_warps");
        } else if (key == "num_worker_warps" && v && v->kind == ConstValue::Kind::Int && v->intValue != 4 &&
                   v->intValue != 8) {
          diags_.error(locationOf(ast_, k.range), Diag::InvalidDecorator,
                       "`num_worker_warps` is 4 or 8, found " + std::to_string(v->intValue));
        } else if (!v && isHostValue(k.value)) {
          // cuTile's own tests compute it on the host (`0 if get_tileiras_version() < ...`):
          // a tuning hint, which changes no result, so the default applies.
          diags_.warning(locationOf(ast_, k.range), Diag::UnsupportedOption,
                         "`" + key + "` is computed on the host, not a compile-time constant: pykc "
                         "ignores it and uses its default");
        } else if (!v || v->kind != ConstValue::Kind::Int) {
          diags_.error(locationOf(ast_, k.range), Diag::InvalidDecorator,
                       "`" + key + "` must be an integer constant or `ct.ByTarget(sm_XX=N, ..., default=N)`");
        } else {
          *slot = v->intValue;
        }
      }
    }
    // Positional-only, ordinary and keyword-only parameters, in order: ct.launch passes a
    // kernel's arguments as one positional tuple (cuTile's JAX tests declare `def k(A, B,
    // C, *, scale, TILE)` and launch it with (a, b, c, scale, TILE)).
    std::vector<ArgId> params;
    std::vector<ExprId> paramDefaults;
    {
      auto positional = ast_.list(args.posonlyargs);
      params.assign(positional.begin(), positional.end());
      for (ArgId a : ast_.list(args.args)) params.push_back(a);
      auto defaults = ast_.list(args.defaults);
      paramDefaults.assign(params.size() - defaults.size(), ExprId());
      paramDefaults.insert(paramDefaults.end(), defaults.begin(), defaults.end());
      for (ArgId a : ast_.list(args.kwonlyargs)) params.push_back(a);
      for (ExprId d : ast_.list(args.kwDefaults)) paramDefaults.push_back(d);
    }
    Signature annotated;
    size_t typedCount = 0;
    size_t looseCount = 0;
    size_t runtimeCount = 0;
    bool annotationsOk = true;
    for (size_t i = 0; i < params.size(); ++i) {
      const Arg& a = ast_.arg(params[i]);
      std::string name(ast_.str(a.arg));
      if (a.annotation.valid() && isTileConstantAnnotation(a.annotation)) {
        TileConstParam c;
        c.name = name;
        c.position = static_cast<uint32_t>(i);
        c.location = locationOf(ast_, a.range);
        givenConstValues(f.name, c);
        if (c.values.empty() && paramDefaults[i].valid()) {
          ExprId d = paramDefaults[i];
          if (auto v = foldConstant(ast_, d, module_); v && v->isNumber()) {
            c.values.push_back(*v);
          } else {
            diags_.error(locationOf(ast_, ast_.expr(d).range), Diag::InvalidSignature,
                         "the default of Constant parameter `" + name +
                             "` must be a number constant");
            c.invalid = true;
          }
        }
        if (tileConstantKind(a.annotation) == "bool") {
          for (ConstValue& v : c.values) {
            if (auto b = asTileBool(v)) {
              v = *b;
            } else if (!c.invalid) {
              diags_.error(c.location, Diag::InvalidSignature,
                           "Constant parameter `" + name + "` is a `bool`: give it True, False, 1 or 0, not `" +
                               v.repr() + "`");
              c.invalid = true;
            }
          }
        }
        f.tileConsts.push_back(std::move(c));
        continue;
      }
      ++runtimeCount;
      f.params.push_back(name);
      // `cfg: tuple[ct.Constant[int], int]`: `cfg[0]` a Constant (sema/tile_const_elements.h).
      auto isConstant = [&](ExprId e) { return isTileConstantAnnotation(e); };
      for (const auto& path : a.annotation.valid() ? constantElementPaths(ast_, a.annotation, isConstant)
                                                   : std::vector<std::vector<uint32_t>>{}) {
        TileConstParam c{elementConstName(name, path), static_cast<uint32_t>(i), {}, locationOf(ast_, a.range)};
        givenConstValues(f.name, c);
        f.tileConsts.push_back(std::move(c));
      }
      if (a.annotation.valid() && !isTileHintAnnotation(ast_, a.annotation, module_)) {
        ++typedCount;
        if (isScalarInt64Annotation(ast_, a.annotation, module_)) {
          // `n: ct.ScalarInt64`: an integer passed as int64 (a Python int is int32 otherwise).
          ++looseCount;
          f.tileScalarAnnotations.push_back(TileScalarAnnotation{
              static_cast<uint32_t>(f.params.size() - 1), "int", locationOf(ast_, ast_.expr(a.annotation).range)});
          annotated.args.push_back(module_.types.int64());
          continue;
        }
        if (auto kind = pythonScalarAnnotation(ast_, a.annotation, module_)) {
          // `scale: float` (cuTile's samples): the kind of number; alone it means
          // cuTile's default dtype for such a Python value (float32, int32, bool).
          ++looseCount;
          f.tileScalarAnnotations.push_back(TileScalarAnnotation{
              static_cast<uint32_t>(f.params.size() - 1), *kind,
              locationOf(ast_, ast_.expr(a.annotation).range)});
          annotated.args.push_back(*kind == "float" ? module_.types.float32()
                                   : *kind == "int" ? module_.types.int32()
                                                    : module_.types.boolean());
          continue;
        }
        auto t = evalTypeExpr(ast_, a.annotation, module_, diags_);
        if (t) {
          annotated.args.push_back(*t);
        } else {
          annotationsOk = false;
        }
      }
    }
    // Only Python scalar annotations beside unannotated parameters (cuTile's
    // samples: `def attn(Q, K, V, Out, qk_scale: float, ...)`): the types come
    // from `--sig`, each checked against its annotation's kind.
    if (typedCount == looseCount && typedCount != runtimeCount) typedCount = 0;
    if (runtimeCount == 0) {
      // No run-time parameters (only Constants, or none): nothing to type.
      f.signatureGiven = true;
      f.signatures.push_back(DeclaredSignature{annotated, f.location});
    } else if (typedCount != 0) {
      f.signatureGiven = true;
      if (typedCount != runtimeCount) {
        diags_.error(f.location, Diag::InvalidSignature,
                     "annotate every non-Constant parameter of `" + f.name + "` or none");
      } else if (annotationsOk) {
        f.signatures.push_back(DeclaredSignature{annotated, f.location});
      }
    }
    uint32_t index = static_cast<uint32_t>(module_.functions.size());
    std::string name = f.name;
    module_.functions.push_back(std::move(f));
    bind(name, Entity{Intrinsic::Function, index, name});
  }

  // The decorator's meaning: nullopt if it is not cuda.jit.
  bool isJit(ExprId id) {
    auto path = entityPath(ast_, id, module_);
    if (!path) return false;
    auto entity = lookupEntity(*path, module_.types);
    return entity && entity->kind == Intrinsic::Jit;
  }

  // `numba.jit` / `numba.njit` (numba's CPU decorators).
  bool isCpuJit(ExprId id) {
    auto path = entityPath(ast_, id, module_);
    if (!path) return false;
    auto entity = lookupEntity(*path, module_.types);
    return entity && entity->kind == Intrinsic::CpuJit;
  }

  Location nameLocation(const Stmt& s, std::string_view name) {
    Location loc = locationOf(ast_, s.range);
    if (loc.line == 0) return loc;
    size_t pos = loc.lineText.find("def", loc.column - 1);
    if (pos != std::string_view::npos) {
      size_t n = loc.lineText.find(name, pos + 3);
      if (n != std::string_view::npos) {
        loc.column = static_cast<uint32_t>(n + 1);
        loc.length = static_cast<uint32_t>(name.size());
        return loc;
      }
    }
    loc.length = 3;
    return loc;
  }

  void visitFunction(StmtId id) {
    const Stmt& s = ast_.stmt(id);
    const ast::FunctionDef& def = *s.functionDef();
    std::string name(ast_.str(def.name));
    ExprId jitDecorator, tileDecorator, cpuJitDecorator;
    std::vector<std::pair<ExprId, ExprId>> others;  // (decorator, what it calls)
    for (ExprId d : ast_.list(def.decoratorList)) {
      ExprId callee = d;
      if (const auto* call = ast_.expr(d).dyn<ast::Call>()) callee = call->func;
      if (isTileKernel(callee)) {
        if (!tileDecorator.valid()) tileDecorator = d;
      } else if (isJit(callee)) {
        jitDecorator = d;
      } else if (isCpuJit(callee) && !cpuJitDecorator.valid()) {
        cpuJitDecorator = d;
      } else {
        others.emplace_back(d, callee);
      }
    }
    // Other decorators are the host's business (`@lru_cache`, `@pytest.mark...`), unless
    // they sit on a kernel (pykc compiles the function, not what they make of it) or are
    // numba's own that pykc does not compile (`@numba.njit`, `@vectorize`).
    for (auto [d, callee] : others) {
      if (const auto* n = ast_.expr(d).dyn<ast::Name>()) {
        auto pd = options_.projectDecorators.find(std::string(ast_.str(n->id)));
        if (pd != options_.projectDecorators.end() && !pd->second.empty()) {
          diags_.warning(locationOf(ast_, ast_.expr(d).range), Diag::InvalidDecorator,
                         "decorator ignored: `" + pd->first + "` (" + pd->second +
                             ") is not a wrapper pykc follows, one that only applies `cuda.jit` to the "
                             "function (`def " + pd->first + "(f): return cuda.jit(f)`, or a class that "
                             "passes the function it stores to `cuda.jit`); `" + name + "` is not compiled");
          continue;
        }
      }
      auto path = entityPath(ast_, callee, module_);
      bool numbas = path && path->starts_with("numba.");
      if (jitDecorator.valid() || tileDecorator.valid() || numbas) {
        diags_.warning(locationOf(ast_, ast_.expr(d).range), Diag::InvalidDecorator,
                       tileDecorator.valid() ? "decorator ignored: pykc only knows `ct.kernel`"
                                             : "decorator ignored: pykc only knows `cuda.jit`");
      }
    }
    if (tileDecorator.valid()) {
      visitTileKernel(id, tileDecorator);
      return;
    }
    if (!jitDecorator.valid() && cpuJitDecorator.valid()) {
      // `@numba.njit`: numba-cuda compiles `py_func` as a device function when a
      // kernel calls it (with the decorator's options); host code calls it on the CPU.
      addJitFunction(id, ExprId{}, /*functionIsFirstArg=*/false, name);
      JitFunction& f = module_.functions.back();
      f.device = true;
      if (const auto* call = ast_.expr(cpuJitDecorator).dyn<ast::Call>()) parseCpuJitOptions(f, *call);
      return;
    }
    if (!jitDecorator.valid() && id == namedDef_ && others.empty() && importsCudaTile()) {
      // Named on the command line, in a file of tile kernels: what `ct.kernel(pyfunc)`
      // makes of it at run time.
      visitTileKernel(id, ExprId{});
      return;
    }
    if (!jitDecorator.valid()) {
      // A plain Python function: host code (an error if a kernel calls it),
      // unless `cuda.jit` is applied to it below (jitAssigned).
      bind(name, Entity{Intrinsic::HostValue, 1, name});
      bound_.plainDefs[name] = id;
      return;
    }
    addJitFunction(id, jitDecorator, /*functionIsFirstArg=*/false, name);
  }

  // `NAME = cuda.jit(f, ...)`, `NAME = cuda.jit(...)(f)` or `cuda.jit()(f)`
  // with `f` a plain function defined above: `f` becomes a `cuda.jit`
  // function under NAME, as if decorated. True when `value` is such a call.
  bool jitAssigned(const std::string& target, const ast::Call& call) {
    auto plainDef = [&](ExprId arg) -> std::optional<StmtId> {
      const auto* n = ast_.expr(arg).dyn<ast::Name>();
      if (n == nullptr) return std::nullopt;
      auto it = bound_.plainDefs.find(std::string(ast_.str(n->id)));
      if (it == bound_.plainDefs.end()) return std::nullopt;
      return it->second;
    };
    auto args = ast_.list(call.args);
    ExprId jitExpr;
    bool firstArg = false;
    std::optional<StmtId> def;
    if (isJit(call.func) && !args.empty()) {
      def = plainDef(args[0]);
      firstArg = true;
      jitExpr = call.func;
    } else if (const auto* inner = ast_.expr(call.func).dyn<ast::Call>();
               inner != nullptr && isJit(inner->func) && args.size() == 1 &&
               ast_.list(call.keywords).empty()) {
      def = plainDef(args[0]);
      jitExpr = call.func;
    }
    if (!def) return false;
    std::string defName(ast_.str(ast_.stmt(*def).functionDef()->name));
    if (auto it = bound_.jittedDefs.find(defName); it != bound_.jittedDefs.end()) {
      bind(target, Entity{Intrinsic::Function, it->second, defName});
      return true;
    }
    // `cuda.jit(f, ...)`: the call itself holds the options.
    addJitFunction(*def, firstArg ? ExprId{} : jitExpr, firstArg, target, firstArg ? &call : nullptr);
    return true;
  }

  // `def` statement `id` as a `cuda.jit` function bound to `boundName`: its
  // decorator (or the call applying `cuda.jit`) is `jitExpr`, a bare
  // `cuda.jit` or a call; `firstArgCall` is the `cuda.jit(f, ...)` call whose
  // first argument is the function itself.
  void addJitFunction(StmtId id, ExprId jitExpr, bool functionIsFirstArg,
                      const std::string& boundName, const ast::Call* firstArgCall = nullptr) {
    const Stmt& s = ast_.stmt(id);
    const ast::FunctionDef& def = *s.functionDef();
    std::string name(ast_.str(def.name));
    JitFunction f;
    f.name = name;
    f.stmt = id;
    f.location = nameLocation(s, name);
    bool paramsOk = resolve_detail::readJitParams(ast_, def, module_, f, diags_);
    if (s.isAsync()) {
      diags_.error(f.location, Diag::UnsupportedConstruct, "`async def`");
    }
    if (functionIsFirstArg) {
      parseJitCall(f, *firstArgCall, /*firstSignatureArg=*/1);
    } else if (const auto* call = jitExpr.valid() ? ast_.expr(jitExpr).dyn<ast::Call>() : nullptr) {
      parseJitCall(f, *call);
    }
    if (paramsOk) {
      addAnnotationSignature(f, def);
    }
    uint32_t index = static_cast<uint32_t>(module_.functions.size());
    module_.functions.push_back(std::move(f));
    bind(boundName, Entity{Intrinsic::Function, index, name});
    bound_.jittedDefs[name] = index;
  }

  // numba ignores annotations; pykc takes them as a signature when every
  // parameter has one and each is a numba type (`x: float32[::1]`,
  // docs/compile.md). Other annotations (`a: float`, `x: torch.Tensor`,
  // `ArrayLike`, a partly annotated function) are ignored, as numba ignores them.
  void addAnnotationSignature(JitFunction& f, const ast::FunctionDef& def) {
    const Arguments& args = ast_.arguments(def.args);
    auto params = ast_.list(args.args);
    size_t annotated = 0;
    for (ArgId a : params) annotated += ast_.arg(a).annotation.valid() ? 1 : 0;
    if (annotated == 0 || annotated != params.size()) return;
    DiagnosticSink scratch;
    auto numbaType = [&](ExprId annotation) -> std::optional<TypeId> {
      // Python's own classes are not numba types, whatever they would fold to.
      if (const auto* n = ast_.expr(annotation).dyn<ast::Name>()) {
        std::string name(ast_.str(n->id));
        if ((name == "float" || name == "int" || name == "bool" || name == "complex") &&
            !module_.globals.count(name)) {
          return std::nullopt;
        }
      }
      auto t = evalTypeExpr(ast_, annotation, module_, scratch);
      if (scratch.hasErrors()) return std::nullopt;
      return t;
    };
    Signature sig;
    for (ArgId a : params) {
      auto t = numbaType(ast_.arg(a).annotation);
      if (!t) return;
      sig.args.push_back(*t);
    }
    if (def.returns.valid()) {
      auto t = numbaType(def.returns);
      if (!t) return;
      sig.returnType = *t;
    }
    f.signatureGiven = true;
    f.signatures.push_back(DeclaredSignature{sig, f.location});
  }

  // `launch`: the types a launch passes (`--sig`), which may leave out defaulted parameters.
  void addSignature(JitFunction& f, Signature sig, Location loc, bool launch = false) {
    if (!f.device && sig.returnType && !module_.types.isNone(*sig.returnType)) {
      diags_.error(loc, Diag::InvalidSignature,
                   "a kernel's signature must return `void`, found `" +
                       module_.types.name(*sig.returnType) + "`");
      return;
    }
    if (!f.device) {
      for (TypeId a : sig.args) {
        if (module_.types.isPointer(a)) {
          diags_.error(loc, Diag::InvalidSignature,
                       "a kernel cannot take `" + module_.types.name(a) +
                           "`: pass an array and `ffi.from_buffer(array)` in the kernel");
          return;
        }
        if (module_.types.isRecord(a)) {
          diags_.error(loc, Diag::InvalidSignature,
                       "a kernel cannot take a record (`" + module_.types.name(a) +
                           "`) by value yet: pass an array of records");
          return;
        }
      }
    }
    bool fits = sig.args.size() == f.params.size() ||
                (launch && resolve_detail::launchArityFits(f, sig.args.size()));
    if (!fits) {
      std::string text = formatSignature(
          module_.types, sig.returnType.value_or(module_.types.none()), sig.args);
      diags_.error(loc, Diag::SignatureArity, text, sig.args.size(), f.name, f.params.size());
      return;
    }
    for (const DeclaredSignature& existing : f.signatures) {
      if (existing.signature.args == sig.args) {
        return;
      }
    }
    f.signatures.push_back(DeclaredSignature{std::move(sig), loc});
  }

  void parseSignatureExpr(JitFunction& f, ExprId id) {
    TypeExprEvaluator evaluator(ast_, module_, diags_);
    Location loc = locationOf(ast_, ast_.expr(id).range);
    auto r = evaluator.eval(id, true);
    if (!r) return;
    if (!r->isSignature && !r->isArgsTuple) {
      diags_.error(loc, Diag::InvalidSignature,
                   "expected a signature such as `\"void(float32[::1])\"`, found a type");
      return;
    }
    addSignature(f, r->signature, loc);
  }

  std::optional<bool> boolOption(const Keyword& k) {
    auto v = foldConstant(ast_, k.value, module_);
    if (!v || (v->kind != ConstValue::Kind::Bool && v->kind != ConstValue::Kind::Int)) {
      diags_.error(locationOf(ast_, ast_.expr(k.value).range), Diag::InvalidDecorator,
                   "`" + std::string(ast_.str(k.arg)) + "` must be True or False");
      return std::nullopt;
    }
    return truthOf(*v);
  }

  // `cuda.jit(...)`'s options and signatures; with `firstSignatureArg` 1 the
  // first positional argument is the function (`cuda.jit(f, sig)`).
  void parseJitCall(JitFunction& f, const ast::Call& call, size_t firstSignatureArg = 0) {
    parseJitOptions(f, call);
    auto all = ast_.list(call.args);
    std::vector<ExprId> args(all.begin() + std::min(firstSignatureArg, all.size()), all.end());
    if (args.size() > 1) {
      diags_.error(locationOf(ast_, ast_.expr(args[1]).range), Diag::InvalidDecorator,
                   "`cuda.jit` takes one positional argument (a signature or a list of them)");
    }
    if (!args.empty()) {
      // A kernel whose signature is wrong is not reported again as untyped.
      f.signatureGiven = true;
      ExprId sigId = args[0];
      if (const auto* n = ast_.expr(sigId).dyn<ast::Name>()) {
        auto it = bound_.signatureVars.find(std::string(ast_.str(n->id)));
        if (it != bound_.signatureVars.end()) sigId = it->second;
      }
      const Expr& sig = ast_.expr(sigId);
      bool stringTuple = false;
      if (const auto* tuple = sig.dyn<ast::Tuple>()) {
        stringTuple = !tuple->elts.empty();
        for (ExprId item : ast_.list(tuple->elts)) {
          stringTuple = stringTuple && ast_.expr(item).is<ast::Constant>() &&
                        ast_.constantOf(item).kind == ConstantKind::Str;
        }
      }
      if (const auto* list = sig.dyn<ast::List>()) {
        for (ExprId item : ast_.list(list->elts)) parseSignatureExpr(f, item);
      } else if (stringTuple) {
        for (ExprId item : ast_.list(sig.as<ast::Tuple>().elts)) parseSignatureExpr(f, item);
      } else {
        parseSignatureExpr(f, sigId);
      }
    }
  }

  void parseJitOptions(JitFunction& f, const ast::Call& call) {
    for (KeywordId kid : ast_.list(call.keywords)) {
      const Keyword& k = ast_.keyword(kid);
      Location loc = locationOf(ast_, k.range);
      std::string key(ast_.str(k.arg));
      if (!k.arg.valid()) {
        diags_.error(loc, Diag::InvalidDecorator, "`**kwargs` in `cuda.jit(...)` is not supported");
      } else if (key == "device") {
        if (auto b = boolOption(k)) f.device = *b;
      } else if (key == "fastmath") {
        if (auto b = boolOption(k)) f.options.fastmath = *b;
      } else if (key == "lineinfo") {
        if (auto b = boolOption(k)) f.options.lineinfo = *b;
      } else if (key == "debug") {
        if (auto b = boolOption(k)) {
          f.options.debug = *b;
          // debug=True: `assert`/`raise` in the kernel are reported to the host
          // (docs/compile.md), with line tables; no bounds checks.
          if (*b) f.options.lineinfo = true;
        }
      } else if (key == "opt") {
        if (auto b = boolOption(k)) {
          f.options.opt = *b;
          if (!*b) {
            diags_.warning(loc, Diag::UnsupportedOption,
                           "`opt=False` applies to the whole file in pykc: pass `-O0` to "
                           "compile without optimisation");
          }
        }
      } else if (key == "forceinline") {
        if (auto b = boolOption(k)) f.options.forceinline = *b;
      } else if (key == "max_registers") {
        auto v = foldConstant(ast_, k.value, module_);
        if (!v || v->kind != ConstValue::Kind::Int || v->intValue < 0 || v->intValue > 255) {
          diags_.error(loc, Diag::InvalidDecorator,
                       "`max_registers` must be an integer from 0 to 255");
        } else {
          f.options.maxRegisters = static_cast<unsigned>(v->intValue);
        }
      } else if (key == "inline") {
        // numba inlines `inline="always"` at its IR level; here the LLVM function
        // is alwaysinline (the same code); "never" and others: LLVM decides.
        if (auto c = foldConstant(ast_, k.value, module_);
            c && c->kind == ConstValue::Kind::Str && c->strValue == "always") {
          f.options.forceinline = true;
        }
      } else if (key == "cache" || key == "boundscheck") {
        // cache: pykc has its own cache; boundscheck: numba-cuda ignores it on the GPU.
      } else if (key == "link") {
        std::vector<LinkRef> links = parseLinks(k.value);
        f.options.links.insert(f.options.links.end(), links.begin(), links.end());
      } else if (key == "extensions" || key == "lto") {
        diags_.error(loc, Diag::UnsupportedOption,
                     "`" + key + "=` is not supported by pykc yet");
      } else {
        diags_.error(loc, Diag::InvalidDecorator, "unknown `cuda.jit` option `" + key + "`");
      }
    }
    if (f.device && f.options.maxRegisters != 0) {
      diags_.warning(locationOf(ast_, ast_.expr(call.func).range), Diag::UnsupportedOption,
                     "`max_registers` applies to kernels only; ignored on a device function");
    }
  }

  // A name bound at module level to something computed on the host (HostValue).
  bool isHostValue(ExprId id) const {
    const auto* n = ast_.expr(id).dyn<ast::Name>();
    if (n == nullptr) return false;
    auto it = module_.globals.find(std::string(ast_.str(n->id)));
    return it != module_.globals.end() && it->second.kind == Intrinsic::HostValue;
  }

  // `numba.jit(...)`'s options, as numba-cuda hands them to the device compile:
  // `fastmath` applies; the CPU's own (`nopython`, `cache`, `parallel`, ...) and
  // CPU signatures (numba-cuda types the device function at each call) do not.
  void parseCpuJitOptions(JitFunction& f, const ast::Call& call) {
    static constexpr std::string_view kCpuOnly[] = {
        "nopython", "nogil", "cache", "parallel", "forceobj", "looplift", "error_model",
        "boundscheck", "inline", "locals", "no_cpython_wrapper", "no_cfunc_wrapper", "_nrt",
        "target_backend", "pipeline_class", "no_rewrites"};
    for (KeywordId kid : ast_.list(call.keywords)) {
      const Keyword& k = ast_.keyword(kid);
      std::string key = k.arg.valid() ? std::string(ast_.str(k.arg)) : std::string();
      if (key == "fastmath") {
        // numba's CPU fastmath may also be a set of flags: any flag turns it on here.
        auto v = foldConstant(ast_, k.value, module_);
        f.options.fastmath = !v || truthOf(*v);
      } else if (key == "debug") {
        if (auto b = boolOption(k)) f.options.debug = *b;
      } else if (key.empty() ||
                 std::find(std::begin(kCpuOnly), std::end(kCpuOnly), key) == std::end(kCpuOnly)) {
        diags_.warning(locationOf(ast_, k.range), Diag::UnsupportedOption,
                       "`" + (key.empty() ? std::string("**") : key) +
                           "` of `numba.jit` ignored on the device");
      }
    }
  }

  // Kernels made inside functions that the command line names (`--kernel
  // test.kernel`, `--sig 'test.kernel(...)'`, docs/compile.md): each sees the
  // names of the functions around it (a scope of its own).
  void visitNestedKernels() {
    for (const std::string& name : nestedKernelNames(options_.kernels, options_.sigs)) visitNested(name);
  }

  // One kernel made inside functions: their parameters and locals are bound
  // (EnclosingLocal, or a `-D` value), then the statements before its `def` run
  // as at module level (constants fold, helpers are defined); what that changed
  // becomes the kernel's scope and the module's names are restored.
  void visitNested(const std::string& qualname) {
    std::string why;
    auto path = findNestedPath(ast_, qualname, why);
    if (!path) {
      diags_.error(Diag::UnknownKernel, "`" + qualname + "` names no function of " +
                                            (ast_.source() ? ast_.source()->path() : "the file") + ": " + why);
      return;
    }
    auto savedGlobals = module_.globals;
    Bindings saved = bound_;
    const size_t first = module_.functions.size();
    const uint32_t scope = static_cast<uint32_t>(module_.scopes.size() + 1);
    module_.scopes.emplace_back();
    module_.scopes.back().outermost = path->levels.front().stmt;
    std::string qualifier;
    for (const NestedPath::Level& level : path->levels) {
      qualifier += level.name + ".";
      if (level.isClass) continue;  // a class body is no scope for the functions in it
      module_.scopes.back().function = level.name;
      for (const std::string& n : level.locals) {
        auto defined = savedGlobals.find(n);  // `-D NAME=...`
        bool given = definedByCommandLine_.count(n) && defined != savedGlobals.end();
        bind(n, given ? defined->second : Entity{Intrinsic::EnclosingLocal, scope, n});
      }
      for (StmtId id : level.prelude) visitPrelude(id);
      for (const std::string& n : level.locals) {  // `m = np.random.rand()`: a run-time local
        if (Entity& e = module_.globals[n]; e.kind == Intrinsic::HostValue && e.payload == 0) {
          e = Entity{Intrinsic::EnclosingLocal, scope, n};
        }
      }
    }
    qualifier_ = qualifier;  // `--const make.kernel.NAME=VALUE`
    namedDef_ = path->def;
    visitTopLevel(path->def);
    namedDef_ = StmtId();
    qualifier_.clear();
    // What the enclosing functions bound, as the kernel sees it.
    scopeChanges(savedGlobals, module_.globals, module_.scopes.back().names);
    scopeChanges(saved.plainDefs, bound_.plainDefs, module_.scopes.back().plainDefs);
    module_.globals = std::move(savedGlobals);
    bound_ = std::move(saved);
    shareNestedFunctions(module_, first, scope, qualifier);
  }

  // A statement before a nested kernel's `def`: other kernels defined there are
  // not compiled with it (they are names it cannot call).
  void visitPrelude(StmtId id) {
    const Stmt& s = ast_.stmt(id);
    const size_t before = module_.functions.size();
    visitTopLevel(id);
    if (const ast::FunctionDef* def = s.functionDef(); def != nullptr && module_.functions.size() > before) {
      const JitFunction& f = module_.functions.back();
      if (f.tile || !f.device) {
        module_.functions.pop_back();
        std::string n(ast_.str(def->name));
        bind(n, Entity{Intrinsic::HostValue, 0, n});
      }
    }
  }

  void applyCommandLineSignatures() {
    for (const std::string& text : options_.sigs) {
      auto parsed = parseNamedSignature(text, module_.types);
      if (auto* err = std::get_if<SignatureError>(&parsed)) {
        diags_.error(Diag::InvalidSignature,
                     "invalid `--sig '" + text + "'`: " + err->message);
        continue;
      }
      auto& named = std::get<NamedSignature>(parsed);
      named.name = normalizeQualname(std::move(named.name));
      JitFunction* target = nullptr;
      for (JitFunction& f : module_.functions) {
        if (f.name == named.name) target = &f;
      }
      if (target == nullptr && named.name.find('.') != std::string::npos) continue;  // visitNested said why
      if (target == nullptr) {
        diags_.error(Diag::UnknownKernel, "`--sig '" + text + "'` names `" + named.name +
                                              "`, which is not a `cuda.jit` function of " +
                                              (ast_.source() ? ast_.source()->path() : "the file"));
        continue;
      }
      target->signatureGiven = true;  // a wrong one is not reported again as missing
      addSignature(*target, named.signature, target->location, /*launch=*/true);
    }
  }

  const Ast& ast_;
  const ResolveOptions& options_;
  DiagnosticSink& diags_;
  ResolvedModule module_;
  std::set<std::string> definedByCommandLine_;
  // What the module level binds besides globals (visitNested saves and restores it whole).
  struct Bindings {
    // Module variables holding signature strings (or lists of them), by name.
    std::map<std::string, ExprId> signatureVars;
    // Undecorated top-level functions (`cuda.jit` may be applied by a call),
    // and those made `cuda.jit` functions that way, by name.
    std::map<std::string, StmtId> plainDefs;
    std::map<std::string, uint32_t> jittedDefs;
    // Module variables holding strings foldPath computed (link paths).
    std::map<std::string, std::string> stringValues;
    // Module variables holding dict literals (`DEFAULTS = {...}`), for foldDictLookup.
    std::map<std::string, ExprId> dictLiterals;
    // `ConstBool = ct.Constant[bool]`: the Python type each alias names.
    std::map<std::string, std::string> tileConstAliasKinds;
  };
  Bindings bound_;
  // The qualified name's prefix (`make.`) while a kernel made inside a function is visited.
  std::string qualifier_;
  // The `def` that `--kernel`/`--sig` names inside functions (visitNested): undecorated,
  // it is made a kernel at run time (`ct.kernel(pyfunc)` in cuTile's tests).
  StmtId namedDef_;
};

}  // namespace

ResolvedModule resolveModule(const Ast& ast, const ResolveOptions& options,
                             DiagnosticSink& diags) {
  Resolver resolver(ast, options, diags);
  return resolver.run();
}

}  // namespace frontend
