// Host-side evaluation of Python at compile time (sema/const_eval.h): a small
// interpreter over ConstValue. It never reports: whatever it does not know ends
// the evaluation (nullopt), and the caller types the expression instead.
#include "sema/const_eval.h"

#include <map>

#include "sema/resolve_internal.h"

namespace frontend {

namespace {

using Local = ConstEvalLocal;

ConstValue tupleOf(std::vector<ConstValue> elements) {
  ConstValue t;
  t.kind = ConstValue::Kind::Tuple;
  t.elements = std::move(elements);
  return t;
}

class Evaluator {
public:
  struct Env;
  Evaluator(const Ast& ast, const ResolvedModule& module, uint32_t scope,
            const std::function<Local(const std::string&)>& local, const ConstEvalLimits& limits)
      : ast_(ast), module_(module), scope_(scope), local_(local), limits_(limits) {}

  // A function's names; `kernel`: the calling kernel's scope, whose constants (local_)
  // come before the module's.
  struct Env {
    std::map<std::string, ConstValue> vars;
    // Names bound to an object whose attributes are known (a `@static_def` method's `self`).
    std::map<std::string, std::map<std::string, ConstValue>> objects;
    bool kernel = false;
  };

  // `def` called with `self` (its first parameter) bound to an object of `fields`.
  std::optional<ConstValue> callMethod(StmtId def, const std::map<std::string, ConstValue>& fields,
                                       const std::vector<ConstValue>& args);

  std::optional<ConstValue> expr(ExprId id, Env* env);

private:
  enum class Flow : uint8_t { Next, Break, Continue, Return, Fail };

  bool step() { return ++steps_ <= limits_.maxSteps; }
  std::optional<ConstValue> name(const std::string& n, Env* env);
  std::optional<ConstValue> call(ExprId id, const ast::Call& c, Env* env);
  std::optional<ConstValue> builtin(const std::string& n, const std::vector<ConstValue>& args);
  std::optional<ConstValue> callDef(StmtId def, const std::vector<ConstValue>& args,
                                    const std::vector<std::pair<std::string, ConstValue>>& keywords);
  // The items a `for` or a comprehension iterates over.
  std::optional<std::vector<ConstValue>> items(ExprId iter, Env* env);
  bool bind(ExprId target, const ConstValue& v, Env& env);
  bool comprehension(ExprId elt, std::span<const ComprehensionId> gens, size_t level, Env& env,
                     std::vector<ConstValue>& out);
  Flow exec(std::span<const StmtId> body, Env& env, ConstValue& result);
  Flow stmt(StmtId id, Env& env, ConstValue& result);

  const Ast& ast_;
  const ResolvedModule& module_;
  uint32_t scope_;
  const std::function<Local(const std::string&)>& local_;
  ConstEvalLimits limits_;
  size_t steps_ = 0;
  size_t depth_ = 0;
};

std::optional<ConstValue> Evaluator::name(const std::string& n, Env* env) {
  if (auto it = env->vars.find(n); it != env->vars.end()) return it->second;
  if (env->kernel) {
    Local l = local_(n);
    if (l.kind == Local::Kind::Constant) return l.value;
    if (l.kind == Local::Kind::Runtime) return std::nullopt;
  }
  const Entity* e = module_.lookup(n, scope_);
  if (e == nullptr) return n == "True" || n == "False" ? std::optional(ConstValue::ofBool(n == "True")) : std::nullopt;
  if (e->kind == Intrinsic::Constant) return module_.constants[e->payload];
  return std::nullopt;
}

std::optional<ConstValue> Evaluator::builtin(const std::string& n, const std::vector<ConstValue>& args) {
  auto number = [](const ConstValue& v) { return v.isNumber(); };
  if (n == "len" && args.size() == 1 && args[0].kind == ConstValue::Kind::Tuple) {
    return ConstValue::ofInt(static_cast<int64_t>(args[0].elements.size()));
  }
  if ((n == "tuple" || n == "list") && args.size() == 1 && args[0].kind == ConstValue::Kind::Tuple) return args[0];
  if ((n == "tuple" || n == "list") && args.empty()) return tupleOf({});
  if (n == "sum" && (args.size() == 1 || args.size() == 2) && args[0].kind == ConstValue::Kind::Tuple) {
    ConstValue total = args.size() == 2 ? args[1] : ConstValue::ofInt(0);
    for (const ConstValue& e : args[0].elements) {
      auto t = foldBinary(Operator::Add, total, e);
      if (!t) return std::nullopt;
      total = *t;
    }
    return total;
  }
  if ((n == "min" || n == "max") && !args.empty()) {
    std::vector<ConstValue> xs = args.size() == 1 && args[0].kind == ConstValue::Kind::Tuple ? args[0].elements : args;
    if (xs.empty()) return std::nullopt;
    ConstValue best = xs[0];
    for (size_t i = 1; i < xs.size(); ++i) {
      auto better = foldCompare(n == "min" ? CmpOp::Lt : CmpOp::Gt, xs[i], best);
      if (!better) return std::nullopt;
      if (truthOf(*better)) best = xs[i];
    }
    return best;
  }
  if (args.size() != 1 || !number(args[0])) return std::nullopt;
  const ConstValue& x = args[0];
  if (n == "abs") {
    if (x.kind == ConstValue::Kind::Float) return ConstValue::ofFloat(std::fabs(x.floatValue));
    int64_t i = x.kind == ConstValue::Kind::Bool ? int64_t(x.boolValue) : x.intValue;
    return ConstValue::ofInt(i < 0 ? -i : i);
  }
  if (n == "int") {
    if (x.kind == ConstValue::Kind::Float) return ConstValue::ofInt(static_cast<int64_t>(std::trunc(x.floatValue)));
    return ConstValue::ofInt(x.kind == ConstValue::Kind::Bool ? int64_t(x.boolValue) : x.intValue);
  }
  if (n == "float") {
    if (x.kind == ConstValue::Kind::Float) return ConstValue::ofFloat(x.floatValue);
    return ConstValue::ofFloat(static_cast<double>(x.kind == ConstValue::Kind::Bool ? int64_t(x.boolValue) : x.intValue));
  }
  if (n == "bool") return ConstValue::ofBool(truthOf(x));
  return std::nullopt;
}

std::optional<ConstValue> Evaluator::callDef(StmtId def, const std::vector<ConstValue>& args,
                                             const std::vector<std::pair<std::string, ConstValue>>& keywords) {
  const ast::FunctionDef* f = ast_.stmt(def).functionDef();
  if (f == nullptr || ast_.stmt(def).isAsync() || depth_ >= limits_.maxDepth) return std::nullopt;
  const Arguments& a = ast_.arguments(f->args);
  if (!a.posonlyargs.empty() || a.vararg.valid() || !a.kwonlyargs.empty() || a.kwarg.valid()) return std::nullopt;
  auto params = ast_.list(a.args);
  auto defaults = ast_.list(a.defaults);
  if (args.size() > params.size()) return std::nullopt;
  Env env;
  for (size_t i = 0; i < args.size(); ++i) env.vars[std::string(ast_.str(ast_.arg(params[i]).arg))] = args[i];
  for (const auto& [k, v] : keywords) {
    if (env.vars.count(k)) return std::nullopt;
    env.vars[k] = v;
  }
  size_t firstDefault = params.size() - defaults.size();
  for (size_t i = 0; i < params.size(); ++i) {
    std::string p(ast_.str(ast_.arg(params[i]).arg));
    if (env.vars.count(p)) continue;
    if (i < firstDefault) return std::nullopt;
    Env module;
    auto d = expr(defaults[i - firstDefault], &module);
    if (!d) return std::nullopt;
    env.vars[p] = *d;
  }
  ++depth_;
  ConstValue result;  // None unless a return gives one
  Flow flow = exec(ast_.list(f->body), env, result);
  --depth_;
  if (flow == Flow::Fail || flow == Flow::Break || flow == Flow::Continue) return std::nullopt;
  return result;
}

std::optional<ConstValue> Evaluator::callMethod(StmtId def, const std::map<std::string, ConstValue>& fields,
                                                const std::vector<ConstValue>& args) {
  const ast::FunctionDef* f = ast_.stmt(def).functionDef();
  if (f == nullptr || ast_.stmt(def).isAsync()) return std::nullopt;
  const Arguments& a = ast_.arguments(f->args);
  if (!a.posonlyargs.empty() || a.vararg.valid() || !a.kwonlyargs.empty() || a.kwarg.valid()) return std::nullopt;
  auto params = ast_.list(a.args);
  if (params.size() != args.size() + 1 || !a.defaults.empty()) return std::nullopt;
  Env env;
  env.objects[std::string(ast_.str(ast_.arg(params[0]).arg))] = fields;
  for (size_t i = 0; i < args.size(); ++i) env.vars[std::string(ast_.str(ast_.arg(params[i + 1]).arg))] = args[i];
  ConstValue result;
  Flow flow = exec(ast_.list(f->body), env, result);
  if (flow == Flow::Fail || flow == Flow::Break || flow == Flow::Continue) return std::nullopt;
  return result;
}

std::optional<ConstValue> Evaluator::call(ExprId id, const ast::Call& c, Env* env) {
  // `items.pop()` / `items.append(v)` of a local list (a tuple here): changes the local.
  if (const auto* m = ast_.expr(c.func).dyn<ast::Attribute>()) {
    const auto* base = ast_.expr(m->value).dyn<ast::Name>();
    auto it = base ? env->vars.find(std::string(ast_.str(base->id))) : env->vars.end();
    if (it == env->vars.end() || it->second.kind != ConstValue::Kind::Tuple || !c.keywords.empty()) {
      return std::nullopt;
    }
    std::string_view method = ast_.str(m->attr);
    auto args = ast_.list(c.args);
    std::vector<ConstValue>& xs = it->second.elements;
    if (method == "pop" && args.empty() && !xs.empty()) {
      ConstValue last = xs.back();
      xs.pop_back();
      return last;
    }
    if (method == "append" && args.size() == 1) {
      auto v = expr(args[0], env);
      if (!v) return std::nullopt;
      env->vars[std::string(ast_.str(base->id))].elements.push_back(*v);
      return ConstValue{};
    }
    return std::nullopt;
  }
  const auto* fn = ast_.expr(c.func).dyn<ast::Name>();
  if (fn == nullptr) return std::nullopt;
  std::string n(ast_.str(fn->id));
  bool shadowed = env->vars.count(n) != 0 || (env->kernel && local_(n).kind != Local::Kind::Unknown);
  if (shadowed) return std::nullopt;
  if ((n == "range" || n == "enumerate") && c.keywords.empty() && module_.lookup(n, scope_) == nullptr) {
    auto xs = items(id, env);  // evaluates the arguments
    return xs ? std::optional(tupleOf(std::move(*xs))) : std::nullopt;
  }
  std::vector<ConstValue> args;
  for (ExprId a : ast_.list(c.args)) {
    if (ast_.expr(a).is<ast::Starred>()) return std::nullopt;
    auto v = expr(a, env);
    if (!v) return std::nullopt;
    args.push_back(std::move(*v));
  }
  std::vector<std::pair<std::string, ConstValue>> keywords;
  for (KeywordId k : ast_.list(c.keywords)) {
    if (!ast_.keyword(k).arg.valid()) return std::nullopt;
    auto v = expr(ast_.keyword(k).value, env);
    if (!v) return std::nullopt;
    keywords.emplace_back(std::string(ast_.str(ast_.keyword(k).arg)), std::move(*v));
  }
  if (const Entity* e = module_.lookup(n, scope_)) {
    if (e->kind != Intrinsic::HostValue || e->payload != 1) return std::nullopt;
    auto def = module_.plainDef(n, scope_);
    return def ? callDef(*def, args, keywords) : std::nullopt;
  }
  if (!keywords.empty()) return std::nullopt;
  return builtin(n, args);
}

std::optional<std::vector<ConstValue>> Evaluator::items(ExprId iter, Env* env) {
  if (!iter.valid()) return std::nullopt;
  if (const auto* c = ast_.expr(iter).dyn<ast::Call>()) {
    const auto* fn = ast_.expr(c->func).dyn<ast::Name>();
    std::string n = fn != nullptr ? std::string(ast_.str(fn->id)) : "";
    bool builtinName = !n.empty() && !env->vars.count(n) && !(env->kernel && local_(n).kind != Local::Kind::Unknown) &&
                       module_.lookup(n, scope_) == nullptr;
    if (builtinName && (n == "range" || n == "enumerate") && c->keywords.empty()) {
      std::vector<ConstValue> args;
      for (ExprId a : ast_.list(c->args)) {
        if (n == "enumerate" && args.empty()) {
          args.push_back(ConstValue{});  // placeholder for the iterable
          continue;
        }
        auto v = expr(a, env);
        if (!v || v->kind != ConstValue::Kind::Int) return std::nullopt;
        args.push_back(*v);
      }
      std::vector<ConstValue> out;
      if (n == "enumerate") {
        if (args.empty() || args.size() > 2) return std::nullopt;
        auto inner = items(ast_.list(c->args)[0], env);
        if (!inner) return std::nullopt;
        int64_t start = args.size() == 2 ? args[1].intValue : 0;
        for (size_t i = 0; i < inner->size(); ++i) {
          out.push_back(tupleOf({ConstValue::ofInt(start + static_cast<int64_t>(i)), (*inner)[i]}));
        }
        return out;
      }
      if (args.empty() || args.size() > 3) return std::nullopt;
      int64_t start = args.size() >= 2 ? args[0].intValue : 0;
      int64_t stop = args.size() >= 2 ? args[1].intValue : args[0].intValue;
      int64_t stepBy = args.size() == 3 ? args[2].intValue : 1;
      if (stepBy == 0) return std::nullopt;
      for (int64_t i = start; stepBy > 0 ? i < stop : i > stop; i += stepBy) {
        if (!step()) return std::nullopt;
        out.push_back(ConstValue::ofInt(i));
      }
      return out;
    }
  }
  auto v = expr(iter, env);
  if (!v || v->kind != ConstValue::Kind::Tuple) return std::nullopt;
  return v->elements;
}

bool Evaluator::bind(ExprId target, const ConstValue& v, Env& env) {
  if (const auto* n = ast_.expr(target).dyn<ast::Name>()) {
    env.vars[std::string(ast_.str(n->id))] = v;
    return true;
  }
  const ExprList* parts = unpackingTargets(ast_, target);
  if (parts == nullptr || v.kind != ConstValue::Kind::Tuple) return false;
  auto names = ast_.list(*parts);
  if (names.size() != v.elements.size()) return false;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!bind(names[i], v.elements[i], env)) return false;
  }
  return true;
}

bool Evaluator::comprehension(ExprId elt, std::span<const ComprehensionId> gens, size_t level, Env& env,
                              std::vector<ConstValue>& out) {
  if (level == gens.size()) {
    auto v = expr(elt, &env);
    if (!v) return false;
    out.push_back(std::move(*v));
    return true;
  }
  const Comprehension& c = ast_.comprehension(gens[level]);
  auto xs = items(c.iter, &env);
  if (!xs || c.isAsync != 0) return false;
  for (const ConstValue& x : *xs) {
    if (!step() || !bind(c.target, x, env)) return false;
    bool keep = true;
    for (ExprId cond : ast_.list(c.ifs)) {
      auto t = expr(cond, &env);
      if (!t) return false;
      keep = keep && truthOf(*t);
    }
    if (keep && !comprehension(elt, gens, level + 1, env, out)) return false;
  }
  return true;
}

std::optional<ConstValue> Evaluator::expr(ExprId id, Env* env) {
  if (!step()) return std::nullopt;
  const Expr& e = ast_.expr(id);
  switch (e.kind()) {
    case ExprKind::Constant: {
      bool ok = false;
      ConstValue v = resolve_detail::fromLiteral(ast_.constantOf(id), ok);
      return ok ? std::optional(v) : std::nullopt;
    }
    case ExprKind::Name:
      return name(std::string(ast_.str(e.as<ast::Name>().id)), env);
    case ExprKind::BinOp: {
      const auto& b = e.as<ast::BinOp>();
      auto l = expr(b.left, env);
      auto r = l ? expr(b.right, env) : std::nullopt;
      if (!r) return std::nullopt;
      if (b.op == Operator::Add && l->kind == ConstValue::Kind::Tuple && r->kind == ConstValue::Kind::Tuple) {
        std::vector<ConstValue> all = l->elements;
        all.insert(all.end(), r->elements.begin(), r->elements.end());
        return tupleOf(std::move(all));
      }
      return foldBinary(b.op, *l, *r);
    }
    case ExprKind::UnaryOp: {
      auto v = expr(e.as<ast::UnaryOp>().operand, env);
      return v ? foldUnary(e.as<ast::UnaryOp>().op, *v) : std::nullopt;
    }
    case ExprKind::Compare: {
      const auto& c = e.as<ast::Compare>();
      auto left = expr(c.left, env);
      if (!left) return std::nullopt;
      auto ops = ast_.list(c.ops);
      auto rights = ast_.list(c.comparators);
      for (size_t i = 0; i < ops.size(); ++i) {
        auto right = expr(rights[i], env);
        if (!right) return std::nullopt;
        auto r = foldCompare(ops[i], *left, *right);
        if (!r) return std::nullopt;
        if (!truthOf(*r)) return ConstValue::ofBool(false);
        left = right;
      }
      return ConstValue::ofBool(true);
    }
    case ExprKind::BoolOp: {
      const auto& b = e.as<ast::BoolOp>();
      std::optional<ConstValue> v;
      for (ExprId x : ast_.list(b.values)) {
        v = expr(x, env);
        if (!v) return std::nullopt;
        if (truthOf(*v) == (b.op == BoolOpKind::Or)) return v;
      }
      return v;
    }
    case ExprKind::IfExp: {
      const auto& i = e.as<ast::IfExp>();
      auto t = expr(i.test, env);
      if (!t) return std::nullopt;
      return expr(truthOf(*t) ? i.body : i.orelse, env);
    }
    case ExprKind::Tuple:
    case ExprKind::List: {
      ExprList elts = e.is<ast::Tuple>() ? e.as<ast::Tuple>().elts : e.as<ast::List>().elts;
      std::vector<ConstValue> out;
      for (ExprId x : ast_.list(elts)) {
        if (ast_.expr(x).is<ast::Starred>()) return std::nullopt;
        auto v = expr(x, env);
        if (!v) return std::nullopt;
        out.push_back(std::move(*v));
      }
      return tupleOf(std::move(out));
    }
    case ExprKind::Subscript: {
      const auto& s = e.as<ast::Subscript>();
      auto base = expr(s.value, env);
      auto index = base ? expr(s.slice, env) : std::nullopt;
      if (!index || base->kind != ConstValue::Kind::Tuple || index->kind != ConstValue::Kind::Int) return std::nullopt;
      auto n = static_cast<int64_t>(base->elements.size());
      int64_t i = index->intValue < 0 ? index->intValue + n : index->intValue;
      if (i < 0 || i >= n) return std::nullopt;
      return base->elements[static_cast<size_t>(i)];
    }
    case ExprKind::ListComp:
    case ExprKind::GeneratorExp: {
      ExprId elt = e.is<ast::ListComp>() ? e.as<ast::ListComp>().elt : e.as<ast::GeneratorExp>().elt;
      ComprehensionList gens =
          e.is<ast::ListComp>() ? e.as<ast::ListComp>().generators : e.as<ast::GeneratorExp>().generators;
      Env inner = *env;  // the comprehension's names are its own
      std::vector<ConstValue> out;
      if (!comprehension(elt, ast_.list(gens), 0, inner, out)) return std::nullopt;
      return tupleOf(std::move(out));
    }
    case ExprKind::Call:
      return call(id, e.as<ast::Call>(), env);
    case ExprKind::Attribute: {  // `self.x` of a `@static_def` method
      const auto& a = e.as<ast::Attribute>();
      const auto* base = ast_.expr(a.value).dyn<ast::Name>();
      auto obj = base ? env->objects.find(std::string(ast_.str(base->id))) : env->objects.end();
      if (obj == env->objects.end()) return std::nullopt;
      auto field = obj->second.find(std::string(ast_.str(a.attr)));
      return field == obj->second.end() ? std::nullopt : std::optional(field->second);
    }
    default:
      return std::nullopt;
  }
}

Evaluator::Flow Evaluator::exec(std::span<const StmtId> body, Env& env, ConstValue& result) {
  for (StmtId id : body) {
    Flow f = stmt(id, env, result);
    if (f != Flow::Next) return f;
  }
  return Flow::Next;
}

Evaluator::Flow Evaluator::stmt(StmtId id, Env& env, ConstValue& result) {
  if (!step()) return Flow::Fail;
  const Stmt& s = ast_.stmt(id);
  switch (s.kind()) {
    case StmtKind::Assign: {
      const auto& a = s.as<ast::Assign>();
      auto v = expr(a.value, &env);
      if (!v) return Flow::Fail;
      for (ExprId t : ast_.list(a.targets)) {
        if (!bind(t, *v, env)) return Flow::Fail;
      }
      return Flow::Next;
    }
    case StmtKind::AnnAssign: {
      const auto& a = s.as<ast::AnnAssign>();
      if (!a.value.valid()) return Flow::Next;
      auto v = expr(a.value, &env);
      return v && bind(a.target, *v, env) ? Flow::Next : Flow::Fail;
    }
    case StmtKind::AugAssign: {
      const auto& a = s.as<ast::AugAssign>();
      const auto* n = ast_.expr(a.target).dyn<ast::Name>();
      if (n == nullptr) return Flow::Fail;
      auto l = expr(a.target, &env);
      auto r = l ? expr(a.value, &env) : std::nullopt;
      if (!r) return Flow::Fail;
      std::optional<ConstValue> v;
      if (a.op == Operator::Add && l->kind == ConstValue::Kind::Tuple && r->kind == ConstValue::Kind::Tuple) {
        std::vector<ConstValue> all = l->elements;
        all.insert(all.end(), r->elements.begin(), r->elements.end());
        v = tupleOf(std::move(all));
      } else {
        v = foldBinary(a.op, *l, *r);
      }
      if (!v) return Flow::Fail;
      env.vars[std::string(ast_.str(n->id))] = *v;
      return Flow::Next;
    }
    case StmtKind::Expr: {
      ExprId v = s.as<ast::ExprStmt>().value;
      if (ast_.expr(v).is<ast::Constant>()) return Flow::Next;  // docstrings
      return expr(v, &env) ? Flow::Next : Flow::Fail;
    }
    case StmtKind::Pass:
      return Flow::Next;
    case StmtKind::Return: {
      ExprId v = s.as<ast::Return>().value;
      if (v.valid()) {
        auto r = expr(v, &env);
        if (!r) return Flow::Fail;
        result = *r;
      }
      return Flow::Return;
    }
    case StmtKind::If: {
      const auto& i = s.as<ast::If>();
      auto t = expr(i.test, &env);
      if (!t) return Flow::Fail;
      return exec(ast_.list(truthOf(*t) ? i.body : i.orelse), env, result);
    }
    case StmtKind::For: {
      const auto& f = s.as<ast::For>();
      auto xs = items(f.iter, &env);
      if (!xs) return Flow::Fail;
      for (const ConstValue& x : *xs) {
        if (!bind(f.target, x, env)) return Flow::Fail;
        Flow flow = exec(ast_.list(f.body), env, result);
        if (flow == Flow::Break) return Flow::Next;  // no `else` then
        if (flow == Flow::Return || flow == Flow::Fail) return flow;
      }
      return exec(ast_.list(f.orelse), env, result);
    }
    case StmtKind::While: {
      const auto& w = s.as<ast::While>();
      while (true) {
        auto t = expr(w.test, &env);
        if (!t) return Flow::Fail;
        if (!truthOf(*t)) break;
        Flow flow = exec(ast_.list(w.body), env, result);
        if (flow == Flow::Break) return Flow::Next;
        if (flow == Flow::Return || flow == Flow::Fail) return flow;
      }
      return exec(ast_.list(w.orelse), env, result);
    }
    case StmtKind::Break:
      return Flow::Break;
    case StmtKind::Continue:
      return Flow::Continue;
    default:
      return Flow::Fail;
  }
}

}  // namespace

std::optional<ConstValue> evalHostConstant(const Ast& ast, const ResolvedModule& module, uint32_t scope,
                                           const std::function<ConstEvalLocal(const std::string&)>& local,
                                           ExprId expr, const ConstEvalLimits& limits) {
  Evaluator e(ast, module, scope, local, limits);
  Evaluator::Env top;
  top.kernel = true;
  return e.expr(expr, &top);
}

std::optional<ConstValue> evalHostMethod(const Ast& ast, const ResolvedModule& module, uint32_t scope, StmtId def,
                                         const std::map<std::string, ConstValue>& fields,
                                         const std::vector<ConstValue>& args, const ConstEvalLimits& limits) {
  auto none = [](const std::string&) { return ConstEvalLocal{}; };
  std::function<ConstEvalLocal(const std::string&)> local = none;
  Evaluator e(ast, module, scope, local, limits);
  return e.callMethod(def, fields, args);
}

}  // namespace frontend
