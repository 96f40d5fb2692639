// Helpers from other modules pasted into a kernel's file (sibling_modules.h).
#include "driver/sibling_modules.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <span>

#include "diagnostics/diagnostics.h"
#include "sema/resolve.h"
#include "syntax/lex.h"
#include "syntax/parse.h"

namespace driver {
namespace {

namespace fs = std::filesystem;
using frontend::Ast;
using frontend::StmtId;
namespace ast = frontend::ast;

// Python files may nest imports this deep through one another.
constexpr int kMaxDepth = 8;

// A parsed helper module and its top-level bindings.
struct Module {
  std::string path;
  std::unique_ptr<frontend::SourceFile> source;
  std::unique_ptr<frontend::TokenBuffer> tokens;
  std::unique_ptr<Ast> ast;
  std::map<std::string, std::vector<StmtId>> bindings;
};

// A top-level statement to paste: its module and its lines.
struct Chunk {
  const Module* module = nullptr;
  StmtId stmt;
  uint32_t first = 0;
  uint32_t last = 0;
};

uint32_t firstLine(const Ast& tree, StmtId id) {
  const frontend::Stmt& s = tree.stmt(id);
  uint32_t first = s.range.lineno;
  if (const auto* def = s.dyn<ast::FunctionDef>()) {
    for (frontend::ExprId d : tree.list(def->decoratorList)) first = std::min(first, tree.expr(d).range.lineno);
  }
  return first;
}

// The dotted path an import statement binds `name` to (`from numba import cuda`:
// "numba.cuda"; `import numpy as np`: "numpy"; relative imports keep their dots), or
// empty when the statement is no import of it.
std::string importedPath(const Ast& tree, StmtId id, const std::string& name) {
  const frontend::Stmt& s = tree.stmt(id);
  if (const auto* imp = s.dyn<ast::Import>()) {
    for (frontend::AliasId a : tree.list(imp->names)) {
      const frontend::Alias& al = tree.alias(a);
      std::string full(tree.str(al.name));
      if (al.asname.valid() ? tree.str(al.asname) == name : full.substr(0, full.find('.')) == name) {
        return al.asname.valid() ? full : name;
      }
    }
  } else if (const auto* from = s.dyn<ast::ImportFrom>()) {
    for (frontend::AliasId a : tree.list(from->names)) {
      const frontend::Alias& al = tree.alias(a);
      if (tree.str(al.asname.valid() ? al.asname : al.name) != name) continue;
      return std::string(from->level, '.') + std::string(tree.str(from->module)) + "." +
             std::string(tree.str(al.name));
    }
  }
  return {};
}

// `from pkg import X` and `from pkg.sub import X` (importedPath's spellings): a package
// that re-exports a name of its submodule (cuTile's `cuda.tile._bytecode` and
// `cuda.tile._bytecode.version`, both giving BytecodeVersion) means one thing.
bool reexportedName(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty() || a[0] == '.' || b[0] == '.') return false;
  size_t ka = a.rfind('.'), kb = b.rfind('.');
  if (ka == std::string::npos || kb == std::string::npos || a.substr(ka) != b.substr(kb)) return false;
  std::string ma = a.substr(0, ka), mb = b.substr(0, kb);
  auto within = [](const std::string& pkg, const std::string& sub) {
    return sub.size() > pkg.size() && sub.compare(0, pkg.size(), pkg) == 0 && sub[pkg.size()] == '.';
  };
  return within(ma, mb) || within(mb, ma);
}

// The names a top-level statement binds.
std::vector<std::string> boundNames(const Ast& tree, StmtId id) {
  std::vector<std::string> out;
  const frontend::Stmt& s = tree.stmt(id);
  auto target = [&](frontend::ExprId e, auto& self) -> void {
    const frontend::Expr& x = tree.expr(e);
    if (const auto* n = x.dyn<ast::Name>()) out.emplace_back(tree.str(n->id));
    if (const auto* t = x.dyn<ast::Tuple>()) {
      for (frontend::ExprId el : tree.list(t->elts)) self(el, self);
    }
  };
  if (const auto* imp = s.dyn<ast::Import>()) {
    for (frontend::AliasId a : tree.list(imp->names)) {
      const frontend::Alias& al = tree.alias(a);
      std::string full(tree.str(al.name));
      out.push_back(al.asname.valid() ? std::string(tree.str(al.asname)) : full.substr(0, full.find('.')));
    }
  } else if (const auto* from = s.dyn<ast::ImportFrom>()) {
    for (frontend::AliasId a : tree.list(from->names)) {
      const frontend::Alias& al = tree.alias(a);
      if (tree.str(al.name) != "*") out.emplace_back(tree.str(al.asname.valid() ? al.asname : al.name));
    }
  } else if (const auto* as = s.dyn<ast::Assign>()) {
    for (frontend::ExprId t : tree.list(as->targets)) target(t, target);
  } else if (const auto* an = s.dyn<ast::AnnAssign>()) {
    target(an->target, target);
  } else if (const auto* def = s.dyn<ast::FunctionDef>()) {
    out.emplace_back(tree.str(def->name));
  } else if (const auto* cls = s.dyn<ast::ClassDef>()) {
    out.emplace_back(tree.str(cls->name));
  }
  return out;
}

std::map<std::string, std::vector<StmtId>> bindingsOf(const Ast& tree) {
  std::map<std::string, std::vector<StmtId>> out;
  for (StmtId id : tree.module()) {
    for (std::string& n : boundNames(tree, id)) out[std::move(n)].push_back(id);
  }
  return out;
}

// A statement's tokens joined by spaces: the same statement whatever its spacing and comments.
std::string tokenText(const frontend::TokenBuffer& tokens, uint32_t first, uint32_t last) {
  std::string out;
  for (const frontend::Token& t : tokens.tokens()) {
    if (t.line < first || t.line > last || t.kind == frontend::TokenKind::Newline) continue;
    out += tokens.text(t);
    out += ' ';
  }
  return out;
}

// The text of lines first..last of `source`, each ending in \n.
std::string linesOf(const frontend::SourceFile& source, uint32_t first, uint32_t last) {
  std::string out;
  for (uint32_t l = first; l <= last; ++l) {
    out += source.lineText(l);
    out += '\n';
  }
  return out;
}

// Libraries whose names pykc knows itself (sema/api_names.cpp): never read as helper
// modules, wherever a search path finds their sources.
bool modelledLibrary(std::string_view dotted) {
  std::string_view root = dotted.substr(0, dotted.find('.'));
  static constexpr std::string_view kKnown[] = {"numba", "numpy", "cupy", "cuda", "math", "cmath",
                                                "operator", "torch", "pykc", "packaging", "os",
                                                "cffi", "typing", "enum", "dataclasses", "functools", "scipy"};
  return std::find(std::begin(kKnown), std::end(kKnown), root) != std::end(kKnown);
}

bool jitName(const Ast& tree, frontend::ExprId callee) {
  std::string_view name;
  if (const auto* a = tree.expr(callee).dyn<ast::Attribute>()) name = tree.str(a->attr);
  if (const auto* n = tree.expr(callee).dyn<ast::Name>()) name = tree.str(n->id);
  return name == "jit" || name == "njit" || name == "kernel";
}

// The line ranges of the file's top-level functions that run on the GPU: decorated with
// `jit`, `njit` or `kernel` (of whatever module), or made so by a module-level call
// (`k = cuda.jit(f)`, `k = cuda.jit(sig)(f)`).
std::vector<std::pair<uint32_t, uint32_t>> gpuFunctionLines(const Ast& tree) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  // `k = cuda.jit(f, ...)` / `k = cuda.jit(sig)(f)`: f runs on the GPU.
  std::set<std::string> jittedByCall;
  for (StmtId id : tree.module()) {
    const auto* as = tree.stmt(id).dyn<ast::Assign>();
    const auto* call = as ? tree.expr(as->value).dyn<ast::Call>() : nullptr;
    if (call == nullptr || call->args.empty()) continue;
    const auto* inner = tree.expr(call->func).dyn<ast::Call>();
    if (!jitName(tree, call->func) && !(inner && jitName(tree, inner->func))) continue;
    if (const auto* n = tree.expr(tree.list(call->args)[0]).dyn<ast::Name>()) jittedByCall.emplace(tree.str(n->id));
  }
  for (StmtId id : tree.module()) {
    const auto* def = tree.stmt(id).dyn<ast::FunctionDef>();
    if (def == nullptr) continue;
    bool gpu = jittedByCall.count(std::string(tree.str(def->name))) != 0;
    for (frontend::ExprId d : tree.list(def->decoratorList)) {
      frontend::ExprId callee = d;
      if (const auto* call = tree.expr(d).dyn<ast::Call>()) callee = call->func;
      gpu = gpu || jitName(tree, callee);
    }
    if (gpu) out.emplace_back(firstLine(tree, id), tree.stmt(id).range.endLineno);
  }
  return out;
}

// The line ranges of the file's module-level assignments.
std::vector<std::pair<uint32_t, uint32_t>> assignmentLines(const Ast& tree) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (StmtId id : tree.module()) {
    const frontend::Stmt& st = tree.stmt(id);
    if (st.is<ast::Assign>() || st.is<ast::AnnAssign>()) out.emplace_back(st.range.lineno, st.range.endLineno);
  }
  return out;
}

// The names read as attributes of `alias` in the file's GPU code (gpuFunctionLines: `core . f`)
// and module-level assignments; host functions' uses stay the host's (they would paste host
// helpers and their imports).
std::set<std::string> attributesOf(const Ast& tree, const frontend::TokenBuffer& tokens, std::string_view alias) {
  std::set<std::string> out;
  auto gpu = gpuFunctionLines(tree);
  auto assignments = assignmentLines(tree);
  auto within = [](const auto& ranges, uint32_t line) {
    return std::any_of(ranges.begin(), ranges.end(),
                       [&](const auto& r) { return line >= r.first && line <= r.second; });
  };
  const auto& toks = tokens.tokens();
  for (size_t i = 0; i + 2 < toks.size(); ++i) {
    if (toks[i].kind != frontend::TokenKind::Name || tokens.text(toks[i]) != alias) continue;
    // Module-level constants read from it count (`threshold = config.THRESHOLD`), calls
    // there do not (`warp_size = constants.warp_size()` runs on the host at import).
    bool called = i + 3 < toks.size() && toks[i + 3].kind == frontend::TokenKind::LPar;
    if (!within(gpu, toks[i].line) && (called || !within(assignments, toks[i].line))) continue;
    if (i > 0 && toks[i - 1].kind == frontend::TokenKind::Dot) continue;
    if (toks[i + 1].kind != frontend::TokenKind::Dot || toks[i + 2].kind != frontend::TokenKind::Name) continue;
    out.emplace(tokens.text(toks[i + 2]));
  }
  return out;
}

class Paster {
public:
  Paster(const std::vector<std::string>& modulePath) : modulePath_(modulePath) {}

  // The file `from <level dots><module> import ...` names, seen from a file in `dir`;
  // nullopt when it is not a Python file there (a package, or no such file). With
  // `member`, the file of that module object (`from . import core`: ./core.py).
  std::optional<fs::path> find(const fs::path& dir, const Ast& tree, const ast::ImportFrom& from,
                               std::string_view member = {}) const {
    std::string dotted = from.module.valid() ? std::string(tree.str(from.module)) : std::string();
    if (from.level == 0 && modelledLibrary(dotted)) return std::nullopt;
    if (!member.empty()) {
      if (!dotted.empty()) dotted.push_back('.');
      dotted.append(member.data(), member.size());
    }
    if (dotted.empty()) return std::nullopt;
    fs::path rel;
    size_t start = 0;
    while (start <= dotted.size()) {
      size_t dot = dotted.find('.', start);
      rel /= dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    rel += ".py";
    std::vector<fs::path> roots;
    if (from.level > 0) {
      fs::path d = dir;
      for (int32_t i = 1; i < from.level; ++i) d = d.parent_path();
      roots.push_back(d);
    } else {
      roots.push_back(dir);
      for (const std::string& p : modulePath_) roots.emplace_back(p);
    }
    for (const fs::path& root : roots) {
      std::error_code ec;
      fs::path candidate = root / rel;
      if (fs::is_regular_file(candidate, ec)) return candidate;
    }
    return std::nullopt;
  }

  // The parsed module at `file`, or nullptr when it cannot be read or parsed (its own
  // compile would say why; here it is then not a helper module).
  const Module* load(const fs::path& file) {
    std::error_code ec;
    std::string key = fs::weakly_canonical(file, ec).string();
    if (ec) key = file.string();
    auto it = modules_.find(key);
    if (it != modules_.end()) return it->second.get();
    frontend::DiagnosticSink scratch;
    auto source = frontend::SourceFile::load(file.string(), scratch);
    std::unique_ptr<Module> m;
    if (source && !source->decodeFailed() && !scratch.hasErrors()) {
      m = std::make_unique<Module>();
      m->path = file.string();
      m->source = std::make_unique<frontend::SourceFile>(std::move(*source));
      m->tokens = std::make_unique<frontend::TokenBuffer>(frontend::lex(*m->source, scratch));
      m->ast = std::make_unique<Ast>(frontend::parse(*m->tokens, scratch));
      if (scratch.hasErrors() || m->ast->hasErrors()) {
        m.reset();
      } else {
        m->bindings = bindingsOf(*m->ast);
      }
    } else if (!source) {
      llvm::consumeError(source.takeError());
    }
    const Module* out = m.get();
    modules_[key] = std::move(m);
    return out;
  }

  // Appends to `out` the statements of `m` that bind `name` (functions, constants,
  // imports), after what they use from `m`; a sibling import of `m` is followed into
  // its own module instead of being pasted (it would name another file from here).
  void collect(const Module& m, const std::string& name, std::vector<Chunk>& out, int depth) {
    auto it = m.bindings.find(name);
    if (it == m.bindings.end() || depth > kMaxDepth) return;
    for (StmtId id : it->second) {
      if (!seen_.insert({&m, id.index}).second) continue;
      const frontend::Stmt& s = m.ast->stmt(id);
      // Classes are not pasted, enums aside (`AtomicOp(op_id)` in a kernel: their members
      // are compile-time constants the resolver folds).
      if ((s.is<ast::ClassDef>() && !isEnumClass(*m.ast, id)) || isKernel(*m.ast, id)) continue;
      if (const auto* from = s.dyn<ast::ImportFrom>()) {
        // `from . import config` in the helper's module, used as `config.X` by what is pasted:
        // X is pasted too, and the import itself (binding the module object here).
        for (frontend::AliasId a : m.ast->list(from->names)) {
          const frontend::Alias& al = m.ast->alias(a);
          if (m.ast->str(al.asname.valid() ? al.asname : al.name) != name) continue;
          auto file = find(fs::path(m.path).parent_path(), *m.ast, *from, m.ast->str(al.name));
          const Module* inner = file ? load(*file) : nullptr;
          if (inner == nullptr) continue;
          for (const std::string& attr : attributesOf(*m.ast, *m.tokens, name)) {
            if (!inner->bindings.count(attr)) continue;
            moduleObjects_[name].insert(attr);
            collect(*inner, attr, out, depth + 1);
          }
        }
        if (auto file = find(fs::path(m.path).parent_path(), *m.ast, *from)) {
          if (const Module* inner = load(*file)) {
            for (frontend::AliasId a : m.ast->list(from->names)) {
              const frontend::Alias& al = m.ast->alias(a);
              if (!al.asname.valid() && m.ast->str(al.name) == name) collect(*inner, name, out, depth + 1);
            }
          }
          continue;
        }
      }
      uint32_t first = firstLine(*m.ast, id);
      uint32_t last = s.range.endLineno;
      for (const std::string& used : namesUsed(m, first, last)) {
        if (used != name) collect(m, used, out, depth);
      }
      out.push_back(Chunk{&m, id, first, last});
    }
  }

private:
  // Identifiers of lines first..last (not attributes after a `.`).
  static std::set<std::string> namesUsed(const Module& m, uint32_t first, uint32_t last) {
    std::set<std::string> out;
    const auto& toks = m.tokens->tokens();
    for (size_t i = 0; i < toks.size(); ++i) {
      const frontend::Token& t = toks[i];
      if (t.line < first || t.line > last || t.kind != frontend::TokenKind::Name) continue;
      if (i > 0 && toks[i - 1].kind == frontend::TokenKind::Dot) continue;
      out.emplace(m.tokens->text(t));
    }
    return out;
  }

  // `class AtomicOp(Enum)` / `(enum.IntEnum)`: an enum class (by its base's name).
  static bool isEnumClass(const Ast& tree, StmtId id) {
    const auto* cls = tree.stmt(id).dyn<ast::ClassDef>();
    if (cls == nullptr) return false;
    for (frontend::ExprId b : tree.list(cls->bases)) {
      std::string_view name;
      if (const auto* a = tree.expr(b).dyn<ast::Attribute>()) name = tree.str(a->attr);
      if (const auto* n = tree.expr(b).dyn<ast::Name>()) name = tree.str(n->id);
      if (name == "Enum" || name == "IntEnum") return true;
    }
    return false;
  }

  // A kernel of the helper module (`@ct.kernel`, `@cuda.jit` without `device=True`): it
  // is its own module's to compile, never pasted (a host function that launches it may be).
  static bool isKernel(const Ast& tree, StmtId id) {
    const auto* def = tree.stmt(id).dyn<ast::FunctionDef>();
    if (def == nullptr) return false;
    for (frontend::ExprId d : tree.list(def->decoratorList)) {
      frontend::ExprId callee = d;
      const auto* call = tree.expr(d).dyn<ast::Call>();
      if (call != nullptr) callee = call->func;
      std::string_view name;
      if (const auto* a = tree.expr(callee).dyn<ast::Attribute>()) name = tree.str(a->attr);
      if (const auto* n = tree.expr(callee).dyn<ast::Name>()) name = tree.str(n->id);
      if (name == "kernel") return true;
      if (name != "jit") continue;
      bool device = false;
      if (call != nullptr) {
        for (frontend::KeywordId k : tree.list(call->keywords)) {
          const frontend::Keyword& kw = tree.keyword(k);
          bool isTrue = tree.expr(kw.value).kind() == frontend::ExprKind::Constant &&
                        tree.constantOf(kw.value).kind == frontend::ConstantKind::True;
          device = device || (kw.arg.valid() && tree.str(kw.arg) == "device" && isTrue);
        }
      }
      if (!device) return true;
    }
    return false;
  }

public:
  // Module objects of helper modules (their imports pasted in) and the attributes pasted.
  std::map<std::string, std::set<std::string>> moduleObjects_;

private:
  const std::vector<std::string>& modulePath_;
  std::map<std::string, std::unique_ptr<Module>> modules_;
  std::set<std::pair<const Module*, uint32_t>> seen_;
};

// --- decorators that wrap cuda.jit (jitWrapperImports) ---------------------------------

// `cuda.jit` or `numba.cuda.jit` (not numba's CPU `jit`).
bool isCudaJit(const Ast& tree, frontend::ExprId callee) {
  const auto* a = tree.expr(callee).dyn<ast::Attribute>();
  if (a == nullptr || tree.str(a->attr) != "jit") return false;
  if (const auto* n = tree.expr(a->value).dyn<ast::Name>()) return tree.str(n->id) == "cuda";
  const auto* inner = tree.expr(a->value).dyn<ast::Attribute>();
  const auto* root = inner ? tree.expr(inner->value).dyn<ast::Name>() : nullptr;
  return root && tree.str(inner->attr) == "cuda" && tree.str(root->id) == "numba";
}

// Whether `call` compiles `arg` with cuda.jit and nothing else: `cuda.jit(arg)` or
// `cuda.jit()(arg)`, with `withSignature` also `cuda.jit(sig)(arg)` (a signature the
// caller passes in, as `--sig` does). Options (`fastmath=True`) would change the kernel.
bool jitsOnly(const Ast& tree, frontend::ExprId arg, const ast::Call& call, bool withSignature) {
  auto args = tree.list(call.args);
  if (args.size() != 1 || args[0] != arg || !call.keywords.empty()) return false;
  if (isCudaJit(tree, call.func)) return true;
  const auto* inner = tree.expr(call.func).dyn<ast::Call>();
  return inner != nullptr && isCudaJit(tree, inner->func) && inner->keywords.empty() &&
         (inner->args.empty() || (withSignature && inner->args.size == 1));
}

bool within(const frontend::NodeRange& inner, const frontend::NodeRange& outer) {
  auto before = [](uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) { return l1 < l2 || (l1 == l2 && c1 <= c2); };
  return before(outer.lineno, outer.colOffset, inner.lineno, inner.colOffset) &&
         before(inner.endLineno, inner.endColOffset, outer.endLineno, outer.endColOffset);
}

// Whether every use of `uses` (expressions inside `range`) is the function argument of a
// cuda.jit call there, and there is at least one.
bool onlyJitted(const Ast& tree, const frontend::NodeRange& range, const std::vector<frontend::ExprId>& uses) {
  if (uses.empty()) return false;
  for (frontend::ExprId use : uses) {
    bool jitted = false;
    for (size_t i = 0; i < tree.exprCount() && !jitted; ++i) {
      frontend::ExprId id(static_cast<uint32_t>(i));
      const auto* call = tree.expr(id).dyn<ast::Call>();
      jitted = call != nullptr && within(tree.expr(id).range, range) && jitsOnly(tree, use, *call, true);
    }
    if (!jitted) return false;
  }
  return true;
}

// The statements of a function body after its docstring.
std::span<const StmtId> codeOf(const Ast& tree, frontend::StmtList body) {
  auto stmts = tree.list(body);
  if (!stmts.empty()) {
    const auto* doc = tree.stmt(stmts[0]).dyn<ast::ExprStmt>();
    if (doc && tree.expr(doc->value).is<ast::Constant>() &&
        tree.constantOf(doc->value).kind == frontend::ConstantKind::Str) {
      return stmts.subspan(1);
    }
  }
  return stmts;
}

// `def d(f): return cuda.jit(f)` / `return cuda.jit()(f)`.
bool isJitWrapperFunction(const Ast& tree, const ast::FunctionDef& def) {
  auto params = tree.list(tree.arguments(def.args).args);
  auto code = codeOf(tree, def.body);
  if (params.empty() || code.size() != 1) return false;
  const auto* ret = tree.stmt(code[0]).dyn<ast::Return>();
  const auto* call = ret && ret->value.valid() ? tree.expr(ret->value).dyn<ast::Call>() : nullptr;
  if (call == nullptr || call->args.empty()) return false;
  const auto* n = tree.expr(tree.list(call->args)[0]).dyn<ast::Name>();
  return n != nullptr && n->id == tree.arg(params[0]).arg && jitsOnly(tree, tree.list(call->args)[0], *call, false);
}

// A class whose `__init__(self, f)` stores `f` as `self.X` and whose code passes every
// `self.X` it reads to cuda.jit (fbpic's compile_cupy).
bool isJitWrapperClass(const Ast& tree, StmtId id, const ast::ClassDef& cls) {
  std::set<frontend::Identifier> stored;
  frontend::StmtId init;
  for (StmtId m : tree.list(cls.body)) {
    const auto* def = tree.stmt(m).dyn<ast::FunctionDef>();
    if (def == nullptr || tree.str(def->name) != "__init__") continue;
    auto params = tree.list(tree.arguments(def->args).args);
    if (params.size() != 2) return false;
    init = m;
    for (StmtId st : tree.list(def->body)) {
      const auto* as = tree.stmt(st).dyn<ast::Assign>();
      const auto* value = as ? tree.expr(as->value).dyn<ast::Name>() : nullptr;
      if (value == nullptr || value->id != tree.arg(params[1]).arg) continue;
      for (frontend::ExprId t : tree.list(as->targets)) {
        const auto* attr = tree.expr(t).dyn<ast::Attribute>();
        const auto* self = attr ? tree.expr(attr->value).dyn<ast::Name>() : nullptr;
        if (self && self->id == tree.arg(params[0]).arg) stored.insert(attr->attr);
      }
    }
  }
  if (!init.valid() || stored.empty()) return false;
  // Every read of a stored attribute in the class (the stores in __init__ aside).
  std::vector<frontend::ExprId> uses;
  const frontend::NodeRange& range = tree.stmt(id).range;
  for (size_t i = 0; i < tree.exprCount(); ++i) {
    frontend::ExprId e(static_cast<uint32_t>(i));
    const auto* attr = tree.expr(e).dyn<ast::Attribute>();
    if (attr == nullptr || !stored.count(attr->attr) || !within(tree.expr(e).range, range)) continue;
    if (tree.expr(e).ctx() != frontend::ExprContext::Load) continue;
    uses.push_back(e);
  }
  return onlyJitted(tree, range, uses);
}

// The definitions of `name` in the module: top-level, and under module-level `if`/`try`.
void definitionsOf(const Ast& tree, std::span<const StmtId> body, std::string_view name, std::vector<StmtId>& out) {
  for (StmtId id : body) {
    const frontend::Stmt& s = tree.stmt(id);
    if (const auto* def = s.dyn<ast::FunctionDef>(); def && tree.str(def->name) == name) out.push_back(id);
    if (const auto* cls = s.dyn<ast::ClassDef>(); cls && tree.str(cls->name) == name) out.push_back(id);
    if (const auto* i = s.dyn<ast::If>()) {
      definitionsOf(tree, tree.list(i->body), name, out);
      definitionsOf(tree, tree.list(i->orelse), name, out);
    }
    if (const auto* t = s.dyn<ast::Try>()) {
      definitionsOf(tree, tree.list(t->body), name, out);
      for (frontend::ExceptHandlerId h : tree.list(t->handlers)) {
        definitionsOf(tree, tree.list(tree.exceptHandler(h).body), name, out);
      }
      definitionsOf(tree, tree.list(t->orelse), name, out);
      definitionsOf(tree, tree.list(t->finalbody), name, out);
    }
  }
}

}  // namespace

std::map<std::string, std::string> jitWrapperImports(const frontend::SourceFile& main, const Ast& tree,
                                                     const std::vector<std::string>& modulePath) {
  std::map<std::string, std::string> out;
  // The names decorating the file's top-level functions.
  std::set<std::string> decorators;
  for (StmtId id : tree.module()) {
    const auto* def = tree.stmt(id).dyn<ast::FunctionDef>();
    if (def == nullptr) continue;
    for (frontend::ExprId d : tree.list(def->decoratorList)) {
      if (const auto* n = tree.expr(d).dyn<ast::Name>()) decorators.emplace(tree.str(n->id));
    }
  }
  if (decorators.empty()) return out;
  Paster paster(modulePath);
  fs::path dir = fs::path(main.path()).parent_path();
  if (dir.empty()) dir = ".";
  for (StmtId id : tree.module()) {
    const auto* from = tree.stmt(id).dyn<ast::ImportFrom>();
    if (from == nullptr) continue;
    std::optional<fs::path> file;
    const Module* m = nullptr;
    for (frontend::AliasId a : tree.list(from->names)) {
      const frontend::Alias& al = tree.alias(a);
      std::string bound(tree.str(al.asname.valid() ? al.asname : al.name));
      if (!decorators.count(bound)) continue;
      if (m == nullptr) {
        file = paster.find(dir, tree, *from);
        m = file ? paster.load(*file) : nullptr;
        if (m == nullptr) break;
      }
      std::vector<StmtId> defs;
      definitionsOf(*m->ast, m->ast->module(), tree.str(al.name), defs);
      if (defs.empty()) continue;
      bool wraps = false;
      for (StmtId d : defs) {
        const frontend::Stmt& s = m->ast->stmt(d);
        if (const auto* def = s.dyn<ast::FunctionDef>()) wraps = wraps || isJitWrapperFunction(*m->ast, *def);
        if (const auto* cls = s.dyn<ast::ClassDef>()) wraps = wraps || isJitWrapperClass(*m->ast, d, *cls);
      }
      out[bound] = wraps ? std::string() : m->path + ":" + std::to_string(firstLine(*m->ast, defs[0]));
    }
  }
  return out;
}

std::optional<SiblingPaste> pasteSiblingHelpers(const frontend::SourceFile& main,
                                                const frontend::TokenBuffer& mainTokens, const Ast& tree,
                                                const std::vector<std::string>& modulePath,
                                                const std::map<std::string, std::string>& jitWrappers,
                                                frontend::DiagnosticSink& diags) {
  Paster paster(modulePath);
  fs::path dir = fs::path(main.path()).parent_path();
  if (dir.empty()) dir = ".";
  auto mainBindings = bindingsOf(tree);
  // Pasted after the last sibling import (a later `from .m import f` would rebind `f`
  // to the import; code after the imports, `f = cuda.jit(f, device=True)`, sees them).
  std::vector<Chunk> pasted;
  uint32_t after = 0;
  bool failed = false;
  std::map<std::string, std::set<std::string>> moduleObjects;
  // The chunks of one import statement, checked against the file's own bindings below.
  struct Source {
    StmtId id;
    std::vector<Chunk> chunks;
    std::set<std::string> imported;  // names the import itself binds here
  };
  std::vector<Source> sources;
  for (StmtId id : tree.module()) {
    const auto* from = tree.stmt(id).dyn<ast::ImportFrom>();
    if (from == nullptr) continue;
    if (auto file = paster.find(dir, tree, *from)) {
      const Module* m = paster.load(*file);
      if (m == nullptr) continue;
      after = std::max(after, tree.stmt(id).range.endLineno);
      Source src{id, {}, {}};
      for (frontend::AliasId a : tree.list(from->names)) {
        const frontend::Alias& al = tree.alias(a);
        std::string name(tree.str(al.name));
        if (name == "*" || al.asname.valid()) continue;
        if (auto w = jitWrappers.find(name); w != jitWrappers.end() && w->second.empty()) continue;
        src.imported.insert(name);
        paster.collect(*m, name, src.chunks, 0);
      }
      sources.push_back(std::move(src));
      continue;
    }
    // `from . import config, core`: module objects whose attributes the file reads.
    Source src{id, {}, {}};
    for (frontend::AliasId a : tree.list(from->names)) {
      const frontend::Alias& al = tree.alias(a);
      std::string name(tree.str(al.name));
      if (name == "*") continue;
      auto file = paster.find(dir, tree, *from, name);
      const Module* m = file ? paster.load(*file) : nullptr;
      if (m == nullptr) continue;
      std::string bound(tree.str(al.asname.valid() ? al.asname : al.name));
      std::set<std::string>& used = moduleObjects[bound];
      for (const std::string& attr : attributesOf(tree, mainTokens, bound)) {
        if (!m->bindings.count(attr)) continue;
        used.insert(attr);
        paster.collect(*m, attr, src.chunks, 0);
      }
      after = std::max(after, tree.stmt(id).range.endLineno);
    }
    if (!src.chunks.empty()) sources.push_back(std::move(src));
  }
  for (Source& src : sources) {
    StmtId id = src.id;
    std::vector<Chunk>& chunks = src.chunks;
    const std::set<std::string>& imported = src.imported;
    std::vector<Chunk> kept;
    for (const Chunk& c : chunks) {
      bool duplicate = false;
      for (const std::string& n : boundNames(*c.module->ast, c.stmt)) {
        auto mb = mainBindings.find(n);
        if (mb == mainBindings.end() || imported.count(n) != 0) continue;
        // The kernel's file binds it too: the same statement (`import cuda.tile as ct`)
        // is kept once; anything else is a conflict.
        std::string theirs = tokenText(*c.module->tokens, c.first, c.last);
        bool same = false, importsIt = false, sameImport = false;
        std::string theirPath = importedPath(*c.module->ast, c.stmt, n);
        for (StmtId own : mb->second) {
          // `from numba import cuda` here and `from numba import cuda, types` there: one
          // meaning (pasting theirs binds the same thing again).
          std::string ownPath = importedPath(tree, own, n);
          sameImport = sameImport || (!theirPath.empty() && theirPath[0] != '.' &&
                                      (ownPath == theirPath || reexportedName(ownPath, theirPath)));
          // `from .gelu import f` elsewhere in this file names the very function pasted.
          if (const auto* f2 = tree.stmt(own).dyn<ast::ImportFrom>()) {
            auto other = paster.find(dir, tree, *f2);
            importsIt = importsIt || (other && paster.load(*other) == c.module);
          }
          same = same || tokenText(mainTokens, firstLine(tree, own), tree.stmt(own).range.endLineno) == theirs;
        }
        if (same) {
          duplicate = true;
          continue;
        }
        if (importsIt || sameImport) continue;
        diags.error(frontend::locationOf(tree, tree.stmt(id).range), frontend::Diag::ModuleConflict,
                    "`" + n + "` means one thing in this file and another in `" + c.module->path +
                        "`, whose helpers pykc pastes into this file for its kernels: rename one");
        failed = true;
      }
      if (!duplicate) kept.push_back(c);
    }
    pasted.insert(pasted.end(), kept.begin(), kept.end());
  }
  if (failed || pasted.empty()) return std::nullopt;
  for (auto& [alias, attrs] : paster.moduleObjects_) moduleObjects[alias].insert(attrs.begin(), attrs.end());
  for (auto it = moduleObjects.begin(); it != moduleObjects.end();) {
    it = it->second.empty() ? moduleObjects.erase(it) : std::next(it);
  }
  std::string text;
  std::vector<frontend::SourceFile::Segment> segments;
  uint32_t line = 1;    // the next line of the pasted file
  uint32_t mainAt = 1;  // the next line of `main`
  auto addMain = [&](uint32_t last) {
    if (last < mainAt) return;
    segments.push_back({line, main.path(), mainAt});
    text += linesOf(main, mainAt, last);
    line += last - mainAt + 1;
    mainAt = last + 1;
  };
  addMain(after);
  for (const Chunk& c : pasted) {
    segments.push_back({line, c.module->path, c.first});
    text += linesOf(*c.module->source, c.first, c.last);
    line += c.last - c.first + 1;
  }
  addMain(main.lineCount());
  return SiblingPaste{frontend::SourceFile::spliced(main.path(), std::move(text), std::move(segments)),
                      std::move(moduleObjects)};
}

}  // namespace driver
