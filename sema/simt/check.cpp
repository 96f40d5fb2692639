#include "sema/simt/check_internal.h"
#include "sema/dataclasses.h"
#include "sema/const_instance.h"
#include "sema/tile_const_elements.h"

namespace frontend {
namespace simt {

// ---------------------------------------------------------------------------

FunctionChecker::FunctionChecker(ModuleChecker& mc, FunctionInstance& inst, DiagnosticSink& diags)
    : mc_(mc), ast_(mc.ast()), inst_(inst), diags_(diags),
      fn_(mc.module().functions[inst.function]) {}

TypeTable& FunctionChecker::types() { return mc_.types(); }
TypeTable& FunctionChecker::mc_types() const { return mc_.types(); }

Val FunctionChecker::record(ExprId id, Val v) {
  uint32_t i = id.index;
  inst_.exprTypes[i] = v.ok ? v.type : TypeId();
  inst_.meanings[i] = v.meaning;
  if (v.ok && v.constant && v.type.valid()) {
    inst_.constIndex[i] = static_cast<int32_t>(inst_.constants.size());
    inst_.constants.push_back(*v.constant);
  } else {
    inst_.constIndex[i] = -1;
  }
  return v;
}

Val FunctionChecker::constantVal(ConstValue c) {
  Val v;
  if (auto t = typeOfConstant(c, types())) v.type = *t;
  v.constant = std::move(c);
  return v;
}

void FunctionChecker::collectTargets(ExprId target) {
  const Expr& e = ast_.expr(target);
  if (const auto* n = e.dyn<ast::Name>()) {
    locals_.insert(std::string(ast_.str(n->id)));
  } else if (const auto* t = e.dyn<ast::Tuple>()) {
    for (ExprId x : ast_.list(t->elts)) collectTargets(x);
  } else if (const auto* l = e.dyn<ast::List>()) {
    for (ExprId x : ast_.list(l->elts)) collectTargets(x);
  } else if (const auto* s = e.dyn<ast::Starred>()) {
    collectTargets(s->value);
  }
}

void FunctionChecker::collectLocals(std::span<const StmtId> body) {
  for (StmtId id : body) {
    const Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case StmtKind::Assign:
        for (ExprId t : ast_.list(s.as<ast::Assign>().targets)) collectTargets(t);
        break;
      case StmtKind::AugAssign:
        collectTargets(s.as<ast::AugAssign>().target);
        break;
      case StmtKind::AnnAssign:
        collectTargets(s.as<ast::AnnAssign>().target);
        break;
      case StmtKind::For:
      case StmtKind::AsyncFor: {
        const ast::For& f = *s.forLoop();
        collectTargets(f.target);
        collectLocals(ast_.list(f.body));
        collectLocals(ast_.list(f.orelse));
        break;
      }
      case StmtKind::While:
        collectLocals(ast_.list(s.as<ast::While>().body));
        collectLocals(ast_.list(s.as<ast::While>().orelse));
        break;
      case StmtKind::If:
        collectLocals(ast_.list(s.as<ast::If>().body));
        collectLocals(ast_.list(s.as<ast::If>().orelse));
        break;
      case StmtKind::FunctionDef:
      case StmtKind::AsyncFunctionDef:
        locals_.insert(std::string(ast_.str(s.functionDef()->name)));
        break;
      case StmtKind::ClassDef:
        locals_.insert(std::string(ast_.str(s.as<ast::ClassDef>().name)));
        break;
      default:
        break;
    }
  }
}

void FunctionChecker::assignVariable(const std::string& name, TypeId t, const NodeRange& where) {
  if (!t.valid()) return;
  auto it = vars_.find(name);
  if (it == vars_.end()) {
    vars_[name] = t;
    changed_ = true;
    return;
  }
  if (it->second == t) return;
  auto u = unifyTypes(types(), it->second, t);
  if (!u) {
    error(where, Diag::CannotUnify, name, typeName(t), typeName(it->second));
    return;
  }
  if (*u != it->second) {
    it->second = *u;
    changed_ = true;
  }
}

void FunctionChecker::run() {
  const Stmt& s = ast_.stmt(fn_.stmt);
  const ast::FunctionDef& def = *s.functionDef();
  size_t nExprs = ast_.exprCount();
  size_t nStmts = ast_.stmtCount();
  inst_.exprTypes.assign(nExprs, TypeId());
  inst_.opTypes.assign(nExprs, TypeId());
  inst_.powExponentTypes.assign(nExprs, TypeId());
  inst_.meanings.assign(nExprs, ExprMeaning{});
  inst_.arrayAttrs.assign(nExprs, ArrayAttr::None);
  inst_.constIndex.assign(nExprs, -1);
  inst_.callees.assign(nExprs, -1);
  inst_.stmtOpTypes.assign(nStmts, TypeId());
  inst_.stmtResultTypes.assign(nStmts, TypeId());
  inst_.stmtPowExponentTypes.assign(nStmts, TypeId());
  inst_.rangeTypes.assign(nStmts, TypeId());

  for (const std::string& p : fn_.params) locals_.insert(p);
  collectLocals(ast_.list(def.body));
  collectConstLocals(ast_.list(def.body));

  std::map<std::string, TypeId> initial;
  for (size_t i = 0; i < fn_.params.size() && i < inst_.argTypes.size(); ++i) {
    // An omitted None is no variable: reads of it are the constant (checkName).
    if (inst_.isOmitted(i) && types().isNone(inst_.argTypes[i])) continue;
    initial[fn_.params[i]] = inst_.argTypes[i];
  }
  vars_ = initial;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    changed_ = false;
    inst_.constants.clear();
    inst_.errorSites.clear();
    returnType_.reset();
    returnsNone_ = false;
    checkBody(ast_.list(def.body));
    bool returnChanged = returnType_ != lastReturn_;
    lastReturn_ = returnType_;
    if (!changed_ && !returnChanged) break;
  }
  reporting_ = true;
  inst_.constants.clear();
  inst_.errorSites.clear();
  returnType_.reset();
  returnsNone_ = false;
  returnConflict_ = false;
  checkBody(ast_.list(def.body));
  inst_.variables = vars_;

  if (inst_.isKernel) {
    inst_.returnType = types().none();
  } else if (!inst_.returnType.valid()) {
    // A value on some paths and None on others: numba's Optional(T).
    inst_.optionalReturn = returnType_ && returnsNone_ && !returnConflict_;
    inst_.returnType = returnType_.value_or(types().none());
  }
}


// ---------------------------------------------------------------------------

int ModuleChecker::instantiate(uint32_t function, const std::vector<TypeId>& args,
                               std::optional<TypeId> declaredReturn, bool isKernel,
                               bool fastmath, bool& recursive,
                               const std::map<uint32_t, ConstValue>& omitted) {
  std::vector<uint32_t> omittedParams;
  for (const auto& entry : omitted) omittedParams.push_back(entry.first);
  auto key = std::make_tuple(function, args, isKernel, fastmath, omittedParams);
  auto it = memo_.find(key);
  if (it != memo_.end()) {
    if (!done_[it->second]) {
      // Self-recursion works when the return type is declared (an explicit
      // signature): the caller types the call from it.
      if (declaredReturn) return it->second;
      // numba: a recursive call takes the type of the returns seen before it
      // (the base case); checked against the final return type below.
      auto active = active_.find(it->second);
      if (active != active_.end()) {
        if (auto t = active->second->provisionalReturn()) {
          assumed_[it->second] = *t;
          return it->second;
        }
      }
      recursive = true;
      return -1;
    }
    return it->second;
  }
  int index = static_cast<int>(all_.size());
  memo_[key] = index;
  FunctionInstance inst;
  inst.function = function;
  inst.isKernel = isKernel;
  inst.fastmath = fastmath;
  inst.argTypes = args;
  inst.omitted = omitted;
  if (declaredReturn) inst.returnType = *declaredReturn;
  all_.push_back(FunctionInstance{});
  sinks_.emplace_back();
  done_.push_back(false);
  DiagnosticSink sink;
  FunctionChecker checker(*this, inst, sink);
  active_[index] = &checker;
  checker.run();
  active_.erase(index);
  if (auto a = assumed_.find(index); a != assumed_.end() && a->second != inst.returnType) {
    sink.error(typed_.module.functions[function].location, Diag::Recursion,
               typed_.module.functions[function].name);
  }
  const JitFunction& f = typed_.module.functions[function];
  // Omitted arguments are no parameters: they are named after the types, with their
  // values, as tile kernels' Constant parameters are (docs/ABI.md).
  std::string codes, omittedCodes, omittedText;
  std::vector<TypeId> passed;
  for (size_t k = 0; k < args.size(); ++k) {
    if (auto o = omitted.find(static_cast<uint32_t>(k)); o != omitted.end()) {
      omittedCodes += "__K" + mangleName(f.params[k]) + "_" + mangleConst(o->second);
      omittedText += ", " + f.params[k] + "=" + o->second.repr();
      continue;
    }
    codes += (codes.empty() ? "" : "_") + types().abiCode(args[k]);
    passed.push_back(args[k]);
  }
  if (codes.empty()) codes = "v";
  std::string mangled = mangleName(f.name);
  inst.symbol = isKernel ? mangled + "__" + codes + omittedCodes
                         : "pykc_device__" + mangled + "__" + codes + omittedCodes +
                               (fastmath ? "__fastmath" : "");
  inst.signature = formatSignature(types(), inst.returnType.valid() ? inst.returnType : types().none(),
                                   passed);
  inst.signature.insert(inst.signature.size() - 1, omittedText);
  if (inst.optionalReturn) {
    // numba's spelling of an Optional return: `OptionalType(int64)(float32, int64)`.
    std::string ret = types().signatureName(inst.returnType);
    inst.signature = "OptionalType(" + ret + ")" + inst.signature.substr(ret.size());
  }
  all_[index] = std::move(inst);
  sinks_[index] = std::move(sink);
  done_[index] = true;
  return index;
}

// Code points outside [A-Za-z0-9_] as $XXXX (docs/ABI.md).
std::string mangleName(const std::string& name) {
  std::string mangled;
  for (size_t i = 0; i < name.size();) {
    unsigned char ch = static_cast<unsigned char>(name[i]);
    if (std::isalnum(ch) || ch == '_') {
      mangled += static_cast<char>(ch);
      ++i;
      continue;
    }
    uint32_t cp = ch;
    size_t len = 1;
    if (ch >= 0xF0) {
      cp = ch & 0x07;
      len = 4;
    } else if (ch >= 0xE0) {
      cp = ch & 0x0F;
      len = 3;
    } else if (ch >= 0xC0) {
      cp = ch & 0x1F;
      len = 2;
    }
    for (size_t k = 1; k < len && i + k < name.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(name[i + k]) & 0x3F);
    }
    char buf[16];
    std::snprintf(buf, sizeof buf, "$%04X", cp);
    mangled += buf;
    i += len;
  }
  return mangled;
}

// A Constant value in a symbol (docs/ABI.md): `1024`, `n3` for -3, `T`/`F`,
// `x` and the float64 bit pattern in hex for floats.
std::string mangleConst(const ConstValue& c, bool inInstance) {
  char buf[32];
  switch (c.kind) {
    case ConstValue::Kind::Bool:
      return c.boolValue ? "T" : "F";
    case ConstValue::Kind::Int:
      return c.intValue < 0 ? "n" + std::to_string(-(c.intValue + 1)) + "p1"
                            : std::to_string(c.intValue);
    case ConstValue::Kind::Float: {
      uint64_t bits;
      std::memcpy(&bits, &c.floatValue, sizeof bits);
      std::snprintf(buf, sizeof buf, "x%016llx", static_cast<unsigned long long>(bits));
      return buf;
    }
    case ConstValue::Kind::Tuple: {
      // A frozen dataclass instance: `D` and its class, then its fields (tuples in `t...e`).
      if (!isConstInstance(c) && !inInstance) return "u";
      std::string s = isConstInstance(c) ? "D" + mangleName(constInstanceClass(c)) : "t";
      for (const ConstValue& e : c.elements) s += "_" + mangleConst(e, true);
      return isConstInstance(c) ? s : s + "_e";
    }
    default:
      return "u";
  }
}

void ModuleChecker::addTileKernels(uint32_t function) {
  // A copy: checking may add helper functions to module.functions.
  JitFunction fn = typed_.module.functions[function];
  bool complete = true;
  for (TileConstParam& c : fn.tileConsts) {
    for (ConstValue& v : c.values) {
      // `--const d=Spot(idx=(1, 2), val=5)`: the instance of the class the kernel sees.
      auto bound = resolveConstObject(ast_, typed_.module, v, "--const", fn.name + "." + c.name, fn.scope,
                                      diags_);
      complete = complete && bound.has_value();
      if (bound) v = std::move(*bound);
    }
    if (c.invalid) {
      complete = false;
    } else if (c.values.empty() && splitElementName(c.name)) {
      diags_.error(c.location, Diag::InvalidSignature,
                   "Constant element `" + c.name + "` of `" + fn.name + "` has no value: give `--const " + c.name +
                       "=VALUE` (the JIT reads it from the argument)");
      complete = false;
    } else if (c.values.empty()) {
      diags_.error(c.location, Diag::TileConstMissing, c.name, fn.name);
      complete = false;
    }
  }
  if (!complete) return;
  // Every combination of the Constant values, the first parameter's slowest.
  std::vector<std::vector<ConstValue>> combos{{}};
  for (const TileConstParam& c : fn.tileConsts) {
    std::vector<std::vector<ConstValue>> next;
    for (const auto& combo : combos) {
      for (const ConstValue& v : c.values) {
        next.push_back(combo);
        next.back().push_back(v);
      }
    }
    combos = std::move(next);
  }
  for (const DeclaredSignature& sig : fn.signatures) {
    for (const auto& combo : combos) {
      FunctionInstance inst;
      inst.function = function;
      inst.isKernel = true;
      inst.tile = true;
      inst.argTypes = sig.signature.args;
      inst.tileConstValues = combo;
      DiagnosticSink sink;
      std::vector<FunctionInstance> helpers;
      checkTileKernel(ast_, typed_.module, inst, helpers, sink);
      std::string codes;
      for (size_t k = 0; k < inst.argTypes.size(); ++k) {
        codes += (k ? "_" : "") + types().abiCode(inst.argTypes[k]);
      }
      if (codes.empty()) codes = "v";
      inst.symbol = mangleName(fn.name) + "__" + codes;
      std::string constants;
      for (size_t k = 0; k < combo.size(); ++k) {
        inst.symbol += "__K" + mangleName(fn.tileConsts[k].name) + "_" + mangleConst(combo[k]);
        constants += ", " + fn.tileConsts[k].name + "=" + combo[k].repr();
      }
      inst.signature = formatSignature(types(), types().none(), inst.argTypes);
      if (!constants.empty()) inst.signature.insert(inst.signature.size() - 1, constants);
      int index = static_cast<int>(all_.size());
      // The helpers follow their kernel; their callees (and the kernel's)
      // index into `helpers`.
      auto remap = [&](FunctionInstance& i) {
        forEachCallee(i, [&](int32_t& callee) {
          if (callee >= 0) callee += index + 1;
        });
      };
      remap(inst);
      all_.push_back(std::move(inst));
      sinks_.push_back(std::move(sink));
      done_.push_back(true);
      kernels_.push_back(index);
      for (FunctionInstance& h : helpers) {
        remap(h);
        all_.push_back(std::move(h));
        sinks_.emplace_back();
        done_.push_back(true);
      }
    }
  }
}

namespace {

// A dataclass type written in a signature (`Arg(int32, float32)`, sema/dataclasses.h): its name.
std::string dataclassIn(const TypeTable& types, const std::vector<TypeId>& args) {
  for (TypeId t : args) {
    if (isDataclassType(types, t)) return dataclassName(types, t);
    if (types.isTuple(t)) {
      std::string inner = dataclassIn(types, types.get(t).elements);
      if (!inner.empty()) return inner;
    }
  }
  return {};
}

}  // namespace

bool ModuleChecker::rejectBFloat16(const DeclaredSignature& sig) {
  // (also dataclass parameters: tile kernels only)
  if (std::string cls = dataclassIn(types(), sig.signature.args); !cls.empty()) {
    diags_.error(sig.location, Diag::InvalidSignature, "unknown type `" + cls + "` in signature");
    return true;
  }
  if (!usesBFloat16(sig.signature.args)) return false;
  diags_.error(sig.location, Diag::UnsupportedFeature,
               "bfloat16 and the float8 types are supported in tile kernels (`@ct.kernel`) only");
  return true;
}

bool ModuleChecker::usesBFloat16(const std::vector<TypeId>& args) {
  for (TypeId t : args) {
    const Type& ty = types().get(t);
    if (types().isBFloat16(t) || types().isFloat8(t)) return true;
    if ((ty.kind == TypeKind::Array || ty.kind == TypeKind::Pointer) && ty.element.valid() &&
        (types().isBFloat16(ty.element) || types().isFloat8(ty.element))) {
      return true;
    }
    if (ty.kind == TypeKind::Tuple && usesBFloat16(ty.elements)) return true;
  }
  return false;
}

void ModuleChecker::run() {
  const ResolvedModule& module = typed_.module;
  const std::vector<std::string>& only = options_.kernels;
  for (uint32_t f = 0; f < module.functions.size(); ++f) {
    const JitFunction& fn = module.functions[f];
    if (fn.device) continue;
    // A kernel filter: the others are neither typed nor reported.
    if (!only.empty() && std::find(only.begin(), only.end(), fn.name) == only.end()) continue;
    if (fn.tile) {
      addTileKernels(f);
      continue;
    }
    for (const DeclaredSignature& sig : fn.signatures) {
      if (rejectBFloat16(sig)) continue;
      // A launch's types may leave out defaulted parameters (`--sig`): numba's
      // omitted arguments, typed and folded as their defaults.
      std::vector<TypeId> args = sig.signature.args;
      std::map<uint32_t, ConstValue> omitted;
      for (size_t p = args.size(); p < fn.params.size(); ++p) {
        // (resolve accepts fewer types only where defaults cover the rest)
        const ParamDefault* d = fn.defaultOf(p);
        if (d == nullptr || !d->value) {
          Location at = d ? locationOf(ast_, ast_.expr(d->expr).range) : sig.location;
          diags_.error(at, Diag::InvalidSignature,
                       "a launch of `" + fn.name + "` leaves out `" + fn.params[p] +
                           "`, whose default is not a number, bool, None or tuple of them: "
                           "give its type in `--sig`");
          break;
        }
        omitted[static_cast<uint32_t>(p)] = *d->value;
        args.push_back(typeOfConstant(*d->value, types()).value_or(types().none()));
      }
      if (args.size() != fn.params.size()) continue;
      bool recursive = false;
      int index = instantiate(f, args, types().none(), true, fn.options.fastmath, recursive, omitted);
      if (index >= 0) kernels_.push_back(index);
    }
  }
  // Device functions with explicit signatures are compiled (and checked) even
  // when no kernel calls them, as numba does; with a kernel filter only what
  // the chosen kernels reach is.
  for (uint32_t f = 0; f < module.functions.size() && only.empty(); ++f) {
    const JitFunction& fn = module.functions[f];
    if (!fn.device) continue;
    for (const DeclaredSignature& sig : fn.signatures) {
      if (rejectBFloat16(sig)) continue;
      bool recursive = false;
      instantiate(f, sig.signature.args, sig.signature.returnType, false, fn.options.fastmath,
                  recursive);
    }
  }
  finish();
}

void ModuleChecker::finish() {
  // Reachable instances: kernels, then device functions in breadth-first
  // order of first call; also explicitly typed device functions.
  std::vector<int> order;
  std::vector<int> newIndex(all_.size(), -1);
  for (int k : kernels_) {
    if (newIndex[k] < 0) {
      newIndex[k] = static_cast<int>(order.size());
      order.push_back(k);
    }
  }
  uint32_t kernelCount = static_cast<uint32_t>(order.size());
  std::vector<int> explicitDevice;
  for (size_t i = 0; i < all_.size(); ++i) {
    if (!all_[i].isKernel && !typed_.module.functions[all_[i].function].signatures.empty()) {
      // Reported even if unused (numba compiles them eagerly).
      explicitDevice.push_back(static_cast<int>(i));
    }
  }
  for (size_t q = 0; q < order.size(); ++q) {
    const FunctionInstance& inst = all_[order[q]];
    forEachCallee(inst, [&](int32_t callee) {
      if (callee >= 0 && newIndex[callee] < 0) {
        newIndex[callee] = static_cast<int>(order.size());
        order.push_back(callee);
      }
    });
  }
  // Diagnostics of reachable instances (and of explicitly typed device
  // functions), each once, in source order.
  std::vector<Diagnostic> collected;
  std::vector<bool> flushed(all_.size(), false);
  auto flush = [&](int i) {
    if (flushed[i]) return;
    flushed[i] = true;
    for (const Diagnostic& d : sinks_[i].diagnostics()) collected.push_back(d);
  };
  for (int i : order) flush(i);
  for (int i : explicitDevice) flush(i);
  std::stable_sort(collected.begin(), collected.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  std::set<std::tuple<uint32_t, uint32_t, std::string>> seen;
  for (const Diagnostic& d : collected) {
    if (!seen.insert({d.line, d.column, d.message}).second) continue;
    Location l;
    l.path = d.path;
    l.lineText = d.lineText;
    l.line = d.line;
    l.column = d.column;
    l.length = d.length;
    diags_.report(d.severity, l, d.kind, d.message);
    for (const Diagnostic& n : d.notes) {
      Location nl;
      nl.path = n.path;
      nl.lineText = n.lineText;
      nl.line = n.line;
      nl.column = n.column;
      nl.length = n.length;
      diags_.note(nl, n.message);
    }
  }
  for (int i : order) {
    FunctionInstance inst = std::move(all_[i]);
    forEachCallee(inst, [&](int32_t& callee) {
      if (callee >= 0) callee = newIndex[callee];
    });
    typed_.instances.push_back(std::move(inst));
  }
  typed_.kernelCount = kernelCount;
}

}  // namespace simt

TypedModule check(const Ast& ast, ResolvedModule module, DiagnosticSink& diags,
                  const CheckOptions& options) {
  TypedModule typed;
  typed.module = std::move(module);
  simt::ModuleChecker checker(ast, typed, diags, options);
  checker.run();
  return typed;
}

std::string dumpTyped(const TypedModule& typed) {
  const TypeTable& types = typed.module.types;
  std::string out;
  for (size_t i = 0; i < typed.instances.size(); ++i) {
    const FunctionInstance& inst = typed.instances[i];
    const JitFunction& fn = typed.module.functions[inst.function];
    out += (inst.isKernel ? "kernel " : "device ") + fn.name + " " + inst.symbol + " " +
           inst.signature + "\n";
    for (const auto& [name, type] : inst.variables) {
      out += "  " + name + ": " + types.name(type) + "\n";
    }
  }
  return out;
}

}  // namespace frontend
