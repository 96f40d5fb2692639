#include "driver/pipeline.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

#include "driver/sibling_modules.h"
#include "driver/stages.h"
#include "cache/atomic_file.h"
#include "sema/simt/check.h"
#include "syntax/lex.h"
#include "syntax/parse.h"
#include "sema/resolve.h"
#include "sema/const_instance.h"
#include "sema/tile_const_elements.h"
#include "sema/inspect_types.h"
#include "support/arch.h"

namespace driver {
namespace {

// `-D NAME=VALUE`: VALUE is a Python constant expression (numbers, bools,
// tuples, arithmetic on them).
// `torch.float16`, `ct.max`: a dotted chain of identifiers.
bool dottedName(std::string_view text) {
  bool start = true;
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (ch == '.') {
      if (start) return false;
      start = true;
    } else if (std::isalpha(c) || ch == '_' || (!start && std::isdigit(c))) {
      start = false;
    } else {
      return false;
    }
  }
  return !start;
}

// `NAME=VALUE`: a constant; with `paths`, a value naming what the file imports
// (`-D reduce_op=ct.max`) is added there instead (the resolver binds it).
std::optional<std::pair<std::string, frontend::ConstValue>> parseDefine(
    const std::string& text, frontend::DiagnosticSink& diags, const std::string& flag = "-D",
    std::vector<std::pair<std::string, std::string>>* paths = nullptr) {
  size_t eq = text.find('=');
  std::string name = text.substr(0, eq);
  // --const also takes a tuple parameter's Constant element: `cfg[0]=8`.
  std::string base = name;
  if (flag == "--const") {
    if (auto element = frontend::splitElementName(name)) base = element->param;
  }
  // --const also takes KERNEL.NAME: two identifiers.
  auto identifier = [](std::string_view part) {
    bool ok = !part.empty() && !std::isdigit(static_cast<unsigned char>(part[0]));
    for (char ch : part) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    return ok;
  };
  // The kernel may be one made inside a function: `test.kernel.NAME`.
  size_t dot = flag == "--const" ? base.rfind('.') : std::string::npos;
  bool validName = identifier(std::string_view(base).substr(dot == std::string::npos ? 0 : dot + 1));
  for (size_t start = 0; dot != std::string::npos && start <= dot;) {
    size_t next = base.find('.', start);
    validName = validName && identifier(std::string_view(base).substr(start, next - start));
    start = next + 1;
  }
  if (eq == std::string::npos || !validName) {
    diags.error(frontend::Diag::InvalidDefine,
                "`" + flag + " " + text + "`: expected NAME=VALUE" +
                    (flag == "--const" ? ", KERNEL.NAME=VALUE or NAME[i]=VALUE" : "") + ", e.g. `" + flag +
                    " BLOCK=128`");
    return std::nullopt;
  }
  std::string value = text.substr(eq + 1);
  frontend::DiagnosticSink scratch;
  frontend::SourceFile file =
      frontend::SourceFile::fromBytes("<-D " + name + ">", value + "\n", scratch);
  frontend::TokenBuffer tokens = frontend::lex(file, scratch);
  frontend::Ast ast = frontend::parse(tokens, scratch);
  std::optional<frontend::ConstValue> folded;
  if (!scratch.hasErrors() && !ast.hasErrors() && ast.module().size() == 1) {
    const frontend::Stmt& stmt = ast.stmt(ast.module()[0]);
    if (const auto* e = stmt.dyn<frontend::ast::ExprStmt>()) {
      frontend::ResolvedModule empty;
      folded = frontend::foldConstant(ast, e->value, empty);
      // `Spot(idx=(1, 2), val=5)`: an instance of a class of the file (the resolver's).
      if (!folded) folded = frontend::foldConstCall(ast, e->value);
    }
  }
  if (!folded) {
    if (paths != nullptr && dottedName(value)) {
      paths->emplace_back(name, value);
      return std::nullopt;
    }
    diags.error(frontend::Diag::InvalidDefine,
                "`" + flag + " " + text +
                    "`: the value must be a number, a bool, a string, None, a tuple of them, a frozen dataclass "
                    "instance of them (`Cls(1, x=2)`)" +
                    (paths != nullptr ? ", or what the file imports (`ct.max`, `torch.float16`)" : ""));
    return std::nullopt;
  }
  return std::make_pair(name, *folded);
}

nlohmann::ordered_json constantJson(const frontend::ConstValue& v);

// A frozen dataclass instance: {"class": name, "fields": {field: value}} (python/pykc's
// launcher compares it with the instance given).
nlohmann::ordered_json instanceJson(const frontend::ConstValue& v) {
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
  std::vector<std::string> names = frontend::constInstanceFields(v);
  for (size_t i = 0; i < names.size() && i < v.elements.size(); ++i) fields[names[i]] = constantJson(v.elements[i]);
  return {{"class", frontend::constInstanceClass(v)}, {"fields", fields}};
}

// A tile kernel's Constant value in the manifest, as the launcher compares it with the
// argument given: numbers and bools as themselves, tuples as arrays, None as null,
// strings as strings; an enum member, a dtype or a complex as its float part (what pykc
// 0.1.0 wrote for every other kind).
nlohmann::ordered_json constantJson(const frontend::ConstValue& v) {
  switch (v.kind) {
    case frontend::ConstValue::Kind::Bool: return v.boolValue;
    case frontend::ConstValue::Kind::Int: return v.intValue;
    case frontend::ConstValue::Kind::None: return nullptr;
    case frontend::ConstValue::Kind::Str: return v.strValue;
    case frontend::ConstValue::Kind::Tuple: {
      if (frontend::isConstInstance(v)) return instanceJson(v);
      nlohmann::ordered_json items = nlohmann::ordered_json::array();
      for (const frontend::ConstValue& e : v.elements) items.push_back(constantJson(e));
      return items;
    }
    default: return v.floatValue;
  }
}

nlohmann::ordered_json paramJson(const frontend::TypeTable& types, frontend::TypeId t,
                                 const std::string& name) {
  nlohmann::ordered_json p;
  p["name"] = name;
  const frontend::Type& type = types.get(t);
  switch (type.kind) {
    case frontend::TypeKind::Array:
      p["kind"] = "array";
      p["dtype"] = types.isRecord(type.element) ? "record" : types.dtypeName(type.element);
      if (types.isRecord(type.element)) {
        // A structured dtype: NumPy's {names, formats, offsets, itemsize}.
        const frontend::Type& r = types.get(type.element);
        nlohmann::ordered_json record;
        nlohmann::ordered_json formats = nlohmann::ordered_json::array();
        for (frontend::TypeId f : r.elements) {
          const frontend::Type& ft = types.get(f);
          if (!types.isNestedArray(f)) {
            formats.push_back(types.dtypeName(f));
            continue;
          }
          // A nested array field in NumPy's spelling: `(20,)int32`, `(2,3)float64`.
          std::string shape = "(";
          for (size_t d = 0; d < ft.shape.size(); ++d) {
            if (d > 0) shape.push_back(',');
            shape.append(std::to_string(ft.shape[d]));
          }
          shape.append(ft.shape.size() == 1 ? ",)" : ")");
          shape.append(types.dtypeName(ft.element));
          formats.push_back(shape);
        }
        record["names"] = r.fieldNames;
        record["formats"] = formats;
        record["offsets"] = r.fieldOffsets;
        record["itemsize"] = r.size;
        record["aligned"] = r.aligned;
        p["record"] = record;
      }
      p["ndim"] = type.ndim;
      p["layout"] = type.layout == frontend::Layout::C   ? "C"
                    : type.layout == frontend::Layout::F ? "F"
                                                         : "A";
      // What the instance was compiled to assume (loaders check it).
      if (type.facts.alignment != 0) p["alignment"] = type.facts.alignment;
      if (!type.facts.strideDivisibleBy.empty()) p["stride_divisible_by"] = type.facts.strideDivisibleBy;
      if (!type.facts.shapeDivisibleBy.empty()) p["shape_divisible_by"] = type.facts.shapeDivisibleBy;
      // Specialisation constants: the extent (stride) every launch must give, null where none.
      for (auto [key, v] : {std::pair{"shape_constant", &type.facts.shapeConstant},
                            std::pair{"stride_constant", &type.facts.strideConstant}}) {
        if (v->empty()) continue;
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (int64_t x : *v) {
          list.push_back(x == frontend::ArrayFacts::kUnknown ? nlohmann::ordered_json() : nlohmann::ordered_json(x));
        }
        p[key] = list;
      }
      break;
    case frontend::TypeKind::Tuple: {
      p["kind"] = "tuple";
      // A frozen dataclass (docs/ABI.md): flattened as the tuple of its fields, in field order;
      // launchers take an instance (or a tuple of its field values).
      bool dataclass = type.fieldNames.size() == type.elements.size() + 1;
      if (dataclass) p["class"] = type.fieldNames[0];
      nlohmann::ordered_json elements = nlohmann::ordered_json::array();
      for (size_t i = 0; i < type.elements.size(); ++i) {
        std::string element = dataclass ? name + "." + type.fieldNames[i + 1] : name + "[" + std::to_string(i) + "]";
        elements.push_back(paramJson(types, type.elements[i], element));
        if (dataclass) elements.back()["field"] = type.fieldNames[i + 1];
      }
      p["elements"] = elements;
      break;
    }
    default:
      p["kind"] = "scalar";
      p["dtype"] = types.dtypeName(t);
      break;
  }
  return p;
}

}  // namespace

llvm::Error runFrontend(const std::string& path, const FrontendOptions& options,
                        Compilation& compilation, frontend::DiagnosticSink& diags,
                        const std::string* bytes) {
  compilation.path = path;
  if (bytes != nullptr) {
    compilation.source.emplace(frontend::SourceFile::fromBytes(path, *bytes, diags));
  } else {
    auto file = frontend::SourceFile::load(path, diags);
    if (!file) return file.takeError();
    compilation.source.emplace(std::move(*file));
  }
  if (compilation.source->decodeFailed()) return llvm::Error::success();
  compilation.tokens.emplace(frontend::lex(*compilation.source, diags));
  compilation.ast.emplace(frontend::parse(*compilation.tokens, diags));
  if (diags.hasErrors() || compilation.ast->hasErrors()) return llvm::Error::success();
  // Helpers imported from sibling modules are pasted in (while nothing points into the
  // file's first text: no diagnostic yet), then the whole file is read again.
  std::map<std::string, std::set<std::string>> moduleObjects;
  // Project decorators that wrap cuda.jit (fbpic's `@compile_cupy`), read from the first text.
  std::map<std::string, std::string> projectDecorators =
      jitWrapperImports(*compilation.source, *compilation.ast, options.modulePath);
  if (diags.diagnostics().empty()) {
    auto pasted = pasteSiblingHelpers(*compilation.source, *compilation.tokens, *compilation.ast,
                                      options.modulePath, projectDecorators, diags);
    if (diags.hasErrors()) return llvm::Error::success();
    if (pasted) {
      compilation.ast.reset();
      compilation.tokens.reset();
      compilation.source.emplace(std::move(pasted->file));
      moduleObjects = std::move(pasted->moduleObjects);
      compilation.tokens.emplace(frontend::lex(*compilation.source, diags));
      compilation.ast.emplace(frontend::parse(*compilation.tokens, diags));
      if (diags.hasErrors() || compilation.ast->hasErrors()) return llvm::Error::success();
    }
  }
  frontend::ResolveOptions resolveOptions;
  resolveOptions.sigs = options.sigs;
  resolveOptions.kernels = options.kernels;
  resolveOptions.moduleObjects = std::move(moduleObjects);
  resolveOptions.projectDecorators = std::move(projectDecorators);
  for (const std::string& d : options.defines) {
    if (auto parsed = parseDefine(d, diags, "-D", &resolveOptions.definePaths)) {
      resolveOptions.defines.push_back(std::move(*parsed));
    }
  }
  for (const std::string& c : options.consts) {
    if (auto parsed = parseDefine(c, diags, "--const", &resolveOptions.constPaths)) {
      resolveOptions.consts.push_back(std::move(*parsed));
    }
  }
  if (diags.hasErrors()) return llvm::Error::success();
  frontend::ResolvedModule resolved = frontend::resolveModule(*compilation.ast, resolveOptions, diags);
  frontend::CheckOptions checkOptions;
  checkOptions.kernels = options.kernels;
  compilation.typed.emplace(
      frontend::check(*compilation.ast, std::move(resolved), diags, checkOptions));
  if (options.warnFloat64 && !diags.hasErrors()) {
    warnFloat64Arithmetic(*compilation.ast, *compilation.typed, diags);
  }
  return llvm::Error::success();
}

llvm::Error applyWarningFlags(const std::vector<std::string>& flags, FrontendOptions& options) {
  for (const std::string& flag : flags) {
    if (flag == "float64") {
      options.warnFloat64 = true;
    } else if (flag == "no-float64") {
      options.warnFloat64 = false;
    } else {
      return llvm::createStringError(std::errc::invalid_argument,
                                     "unknown warning option `-W%s`; known: -Wfloat64, -Wno-float64",
                                     flag.c_str());
    }
  }
  return llvm::Error::success();
}

frontend::TypedModule selectInstances(const frontend::TypedModule& all,
                                      const std::vector<uint32_t>& kernels) {
  std::vector<bool> keep(all.instances.size(), false);
  for (uint32_t k : kernels) {
    for (uint32_t i : reachableInstances(all, k)) keep[i] = true;
  }
  std::vector<uint32_t> order(kernels);
  for (uint32_t i = all.kernelCount; i < all.instances.size(); ++i) {
    if (keep[i]) order.push_back(i);
  }
  std::vector<int32_t> newIndex(all.instances.size(), -1);
  for (size_t n = 0; n < order.size(); ++n) newIndex[order[n]] = static_cast<int32_t>(n);
  frontend::TypedModule out;
  out.module = all.module;
  out.kernelCount = static_cast<uint32_t>(kernels.size());
  for (uint32_t i : order) {
    frontend::FunctionInstance inst = all.instances[i];
    frontend::forEachCallee(inst, [&](int32_t& c) {
      if (c >= 0) c = newIndex[static_cast<size_t>(c)];
    });
    out.instances.push_back(std::move(inst));
  }
  return out;
}

std::string buildManifest(const frontend::TypedModule& typed, const ManifestInputs& inputs,
                          const std::vector<ArchArtifacts>& archs,
                          const std::vector<lowering::KernelInfo>& kernels) {
  const frontend::TypeTable& types = typed.module.types;
  nlohmann::ordered_json m;
  m["format"] = "pykc-manifest";
  m["abi_version"] = 1;
  m["compiler"] = {{"pykc", inputs.pykcVersion},
                   {"llvm", inputs.llvmVersion},
                   {"nvjitlink", inputs.nvJitLinkVersion}};
  m["source"] = inputs.source;
  nlohmann::ordered_json targets = nlohmann::ordered_json::array();
  for (const ArchArtifacts& a : archs) {
    const support::ArchInfo* info = support::findArch(a.arch);
    bool ptxOnly = info != nullptr && info->ptxOnly;
    nlohmann::ordered_json t;
    t["arch"] = a.arch;
    if (inputs.hasCubin && !ptxOnly) t["cubin"] = stageFileName(*findStage("cubin"), inputs.stem, a.arch);
    if (inputs.hasPtx || ptxOnly) t["ptx"] = stageFileName(*findStage("ptx"), inputs.stem, a.arch);
    // The PTX of an arch newer than LLVM 19 writes is another target's (sm_90 for sm_100).
    if (info != nullptr && !ptxOnly && info->ptxTarget != info->name) t["ptx_target"] = info->ptxTarget;
    targets.push_back(t);
  }
  m["targets"] = targets;
  if (!inputs.fatbin.empty()) {
    // docs/ABI.md, "Fatbins": what the one file holds, for launchers that pick.
    nlohmann::ordered_json cubins = nlohmann::ordered_json::array();
    nlohmann::ordered_json ptx = nlohmann::ordered_json::array();
    for (const ArchArtifacts& a : archs) {
      const support::ArchInfo* info = support::findArch(a.arch);
      (info != nullptr && info->ptxOnly ? ptx : cubins).push_back(a.arch);
    }
    m["fatbin"] = {{"file", inputs.fatbin}, {"cubins", cubins}, {"ptx", ptx}};
  }
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (uint32_t k = 0; k < typed.kernelCount; ++k) {
    const frontend::FunctionInstance& inst = typed.instances[k];
    const frontend::JitFunction& fn = typed.module.functions[inst.function];
    nlohmann::ordered_json entry;
    entry["name"] = fn.name;
    entry["signature"] = inst.signature;
    entry["symbol"] = inst.symbol;
    nlohmann::ordered_json params = nlohmann::ordered_json::array();
    for (size_t p = 0; p < inst.argTypes.size(); ++p) {
      // Omitted arguments (`--sig` with fewer types) are compiled in, not passed.
      if (!inst.isOmitted(p)) params.push_back(paramJson(types, inst.argTypes[p], fn.params[p]));
    }
    entry["params"] = params;
    if (inst.tile) {
      // A cuTile tile kernel (docs/ABI.md, "Tile kernels"): the launcher
      // gives the grid, the block is pykc's choice; the Constant parameters
      // are compiled in and not passed.
      nlohmann::ordered_json tile;
      uint32_t threads = k < kernels.size() ? kernels[k].tileThreads : 0;
      tile["block"] = {threads, 1, 1};
      nlohmann::ordered_json constants = nlohmann::ordered_json::array();
      for (size_t c = 0; c < fn.tileConsts.size() && c < inst.tileConstValues.size(); ++c) {
        nlohmann::ordered_json constant = {{"name", fn.tileConsts[c].name},
                                           {"position", fn.tileConsts[c].position},
                                           {"value", constantJson(inst.tileConstValues[c])}};
        // A tuple parameter's Constant element (`cfg[0]`): the tuple is still passed.
        if (auto element = frontend::splitElementName(fn.tileConsts[c].name)) constant["element"] = element->path;
        constants.push_back(std::move(constant));
      }
      tile["constants"] = constants;
      entry["tile"] = tile;
    }
    entry["cooperative"] = k < kernels.size() && kernels[k].cooperative;
    entry["dynamic_shared_memory"] = k < kernels.size() && kernels[k].dynamicSharedMemory;
    if (k < kernels.size() && !kernels[k].errors.empty()) {
      // debug=True: what a nonzero `pykc_error` word means (docs/ABI.md).
      nlohmann::ordered_json errors = nlohmann::ordered_json::array();
      for (const auto& e : kernels[k].errors) {
        errors.push_back({{"code", e.code}, {"type", e.type}, {"message", e.message}, {"line", e.line}});
      }
      entry["errors"] = errors;
    }
    nlohmann::ordered_json resources = nlohmann::ordered_json::object();
    for (const ArchArtifacts& a : archs) {
      auto it = a.resources.find(inst.symbol);
      auto s = a.tileSharedBytes.find(inst.symbol);
      // compute_XY PTX is never linked: only a tile kernel's dynamic shared memory is known.
      if (it == a.resources.end() && s == a.tileSharedBytes.end()) continue;
      nlohmann::ordered_json r = nlohmann::ordered_json::object();
      if (it != a.resources.end()) {
        const backend::KernelResources& k = it->second;
        r = {{"registers", k.registers},
             {"static_shared_bytes", k.staticSharedBytes},
             {"local_bytes", k.localBytes},
             {"spill_stores", k.spillStores},
             {"spill_loads", k.spillLoads},
             {"max_threads_per_block", k.maxThreadsPerBlock}};
      }
      if (s != a.tileSharedBytes.end()) r["dynamic_shared_bytes"] = s->second;
      resources[a.arch] = r;
    }
    entry["resources"] = resources;
    list.push_back(entry);
  }
  m["kernels"] = list;
  return m.dump(2) + "\n";
}

namespace {

// Whether `path` is a regular file (not a symbolic link) holding exactly
// `bytes`; its access and modification times are then set to now.
bool touchIfSame(const std::string& path, std::string_view bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              static_cast<uint64_t>(st.st_size) == bytes.size();
  std::string chunk(same ? std::min<size_t>(bytes.size(), 1 << 16) : 0, '\0');
  for (size_t at = 0; same && at < bytes.size();) {
    ssize_t got = ::read(fd, chunk.data(), std::min(chunk.size(), bytes.size() - at));
    size_t n = got > 0 ? static_cast<size_t>(got) : 0;
    same = n > 0 && bytes.compare(at, n, chunk.data(), n) == 0;
    at += n;
  }
  same = same && ::futimens(fd, nullptr) == 0;
  ::close(fd);
  return same;
}

}  // namespace

llvm::Error writeFileAtomically(const std::string& path, std::string_view bytes) {
  if (touchIfSame(path, bytes)) return llvm::Error::success();
  std::string error;
  if (!cache::writeFileAtomic(path, bytes, /*sync=*/false, &error)) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", error.c_str());
  }
  return llvm::Error::success();
}

}  // namespace driver
