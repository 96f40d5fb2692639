#include "driver/cache_key.h"

#include <sys/stat.h>

#include <llvm/Config/llvm-config.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstdint>
#include <cassert>
#include <string_view>

#include "syntax/ast.h"
#include "syntax/source.h"
#include "syntax/tokens.h"
#include "sema/typed_module.h"
#include "sema/inspect_types.h"
#include "driver/compile_unit.h"
#include "driver/source_identity.h"
#include "driver/link_inputs.h"
#include "driver/pipeline.h"
#include "backend/cuda/nvfatbin.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cuda/toolkit.h"
#include "cache/atomic_file.h"

#ifndef PYKC_LIBDEVICE_PATH
#error "PYKC_LIBDEVICE_PATH must be defined by driver/CMakeLists.txt"
#endif

namespace driver {
namespace {

// The tokens of lines [first, last] as one string: texts separated by a
// space, a line per logical line, indentation as markers. Comments, blank
// lines, line continuations and spacing leave no trace.
std::string normalisedTokens(const frontend::TokenBuffer& tokens, uint32_t first, uint32_t last) {
  std::string out;
  for (const frontend::Token& t : tokens.tokens()) {
    if (t.line < first || t.line > last) continue;
    switch (t.kind) {
      case frontend::TokenKind::EndOfFile:
        break;
      case frontend::TokenKind::Newline:
        out += "\n";
        break;
      case frontend::TokenKind::Indent:
        out += "<indent> ";
        break;
      case frontend::TokenKind::Dedent:
        out += "<dedent> ";
        break;
      default:
        out += tokens.text(t);
        out += " ";
        break;
    }
  }
  return out;
}

// Module-level imports and assignments: what name resolution reads besides
// the functions (module constants, aliases of numba and its types).
std::string moduleScope(const frontend::Ast& ast, const frontend::TokenBuffer& tokens) {
  std::string out;
  for (frontend::StmtId id : ast.module()) {
    const frontend::Stmt& stmt = ast.stmt(id);
    // Module-level `if`/`try` bind constants too (module_if_try); `if __name__ ==
    // "__main__":` is the host program's.
    bool mainGuard = false;
    if (const auto* f = stmt.dyn<frontend::ast::If>()) {
      const auto* cmp = ast.expr(f->test).dyn<frontend::ast::Compare>();
      const auto* left = cmp ? ast.expr(cmp->left).dyn<frontend::ast::Name>() : nullptr;
      mainGuard = left != nullptr && ast.str(left->id) == "__name__";
    }
    if (stmt.is<frontend::ast::Import>() || stmt.is<frontend::ast::ImportFrom>() ||
        stmt.is<frontend::ast::Assign>() || stmt.is<frontend::ast::AnnAssign>() ||
        stmt.is<frontend::ast::AugAssign>() || stmt.is<frontend::ast::Try>() ||
        (stmt.is<frontend::ast::If>() && !mainGuard)) {
      out += normalisedTokens(tokens, stmt.range.lineno, stmt.range.endLineno);
    }
  }
  return out;
}

std::string functionSource(const Compilation& compilation, const frontend::JitFunction& fn) {
  const frontend::Ast& ast = *compilation.ast;
  if (!fn.stmt.valid()) {
    // A lambda (a tile closure): its own lines.
    const frontend::NodeRange& r = ast.expr(fn.lambda).range;
    return normalisedTokens(*compilation.tokens, r.lineno, r.endLineno);
  }
  const frontend::Stmt& stmt = ast.stmt(fn.stmt);
  uint32_t first = stmt.range.lineno;
  if (const auto* def = stmt.dyn<frontend::ast::FunctionDef>()) {
    for (frontend::ExprId d : ast.list(def->decoratorList)) {
      first = std::min(first, ast.expr(d).range.lineno);
    }
  }
  return normalisedTokens(*compilation.tokens, first, stmt.range.endLineno);
}

bool wantsLineTables(const frontend::TypedModule& typed, const backend::CodegenOptions& codegen) {
  if (codegen.lineInfo || codegen.debug) return true;
  for (const frontend::JitFunction& fn : typed.module.functions) {
    if (fn.options.lineinfo || fn.options.debug) return true;
  }
  return false;
}

}  // namespace

const std::string& pykcBuildId() {
  // 160 bits of the hash, as long as the GNU build id it replaced (keeps the field short).
  static const std::string id = std::string(PYKC_VERSION) + "+" + std::string(PYKC_SOURCE_IDENTITY).substr(0, 40);
  return id;
}

cache::KeyBuilder cacheKeyBuilder(const Compilation& compilation, uint32_t instance,
                                  const CacheKeyOptions& options) {
  assert(compilation.typed && compilation.tokens && instance < compilation.typed->kernelCount &&
         "a checked kernel instance");
  const frontend::TypedModule& typed = *compilation.typed;
  const backend::CodegenOptions& codegen = options.codegen;
  cache::KeyBuilder key;
  key.add("pykc", pykcBuildId());
  key.add("llvm", LLVM_VERSION_STRING);
  key.add("nvjitlink", options.nvJitLinkVersion);
  key.add("arch", codegen.arch);
  key.add("opt", static_cast<std::int64_t>(codegen.optLevel));
  key.add("fast-math", static_cast<std::int64_t>(codegen.fastMath));
  key.add("ftz", static_cast<std::int64_t>(codegen.ftz));
  key.add("maxrregcount", static_cast<std::int64_t>(codegen.maxRegisters));
  key.add("lineinfo", static_cast<std::int64_t>(codegen.lineInfo));
  key.add("debug", static_cast<std::int64_t>(codegen.debug));
  key.add("alias-versioning", static_cast<std::int64_t>(codegen.aliasVersioning));
  key.add(options.libdevice);
  const frontend::FunctionInstance& kernel = typed.instances[instance];
  key.add("kernel", typed.module.functions[kernel.function].name);
  key.add("signature", kernel.signature);
  key.add("symbol", kernel.symbol);
  key.add("module", moduleScope(*compilation.ast, *compilation.tokens));
  for (const std::string& d : options.defines) key.add("define", d);
  std::vector<uint32_t> seenFunctions;
  for (uint32_t i : reachableInstances(typed, instance)) {
    uint32_t function = typed.instances[i].function;
    if (std::find(seenFunctions.begin(), seenFunctions.end(), function) != seenFunctions.end()) {
      continue;
    }
    seenFunctions.push_back(function);
    const frontend::JitFunction& fn = typed.module.functions[function];
    key.add("function", fn.name);
    key.add("source", functionSource(compilation, fn));
    // A kernel made inside a function sees that function's names: all of its text.
    if (fn.scope > 0) {
      const frontend::Stmt& outer = compilation.ast->stmt(typed.module.scopes[fn.scope - 1].outermost);
      key.add("enclosing", normalisedTokens(*compilation.tokens, outer.range.lineno, outer.range.endLineno));
    }
  }
  return key;
}

std::vector<cache::KeyField> cacheKeyFields(const Compilation& compilation, uint32_t instance,
                                            const CacheKeyOptions& options) {
  return cacheKeyBuilder(compilation, instance, options).fields();
}

cache::KeyField libdeviceKeyField(const backend::CodegenOptions& codegen) {
  return cache::KeyBuilder::describe("libdevice", libdeviceKeyValue(codegen));
}

namespace {

constexpr std::string_view kLibdeviceMemoMagic = "pykc-libdevice-memo 1";

// `<size> <mtime ns> <dev> <ino>` of a file, or nullopt.
std::optional<std::string> statLine(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::to_string(st.st_size) + " " +
         std::to_string(static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL +
                        st.st_mtim.tv_nsec) +
         " " + std::to_string(st.st_dev) + " " + std::to_string(st.st_ino);
}

}  // namespace

cache::KeyField libdeviceKeyFieldMemo(const backend::CodegenOptions& codegen,
                                      const std::string& memoFile) {
  std::string libdevice = codegen.libdevicePath.empty() ? backend::findLibdevice(backend::cudaRoots(), PYKC_LIBDEVICE_PATH)
                                                     : codegen.libdevicePath;
  std::optional<std::string> stat = statLine(libdevice);
  if (!stat) return libdeviceKeyField(codegen);
  // The memo: magic, the path, its stat line, the value's size and digest.
  std::string head = std::string(kLibdeviceMemoMagic) + "\n" + libdevice + "\n" + *stat + "\n";
  if (auto buffer = llvm::MemoryBuffer::getFile(memoFile, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false)) {
    llvm::StringRef text = (*buffer)->getBuffer();
    if (text.starts_with(head)) {
      auto [sizeText, rest] = text.drop_front(head.size()).split(' ');
      std::uint64_t size = 0;
      auto digest = cache::Digest::fromHex(rest.trim().str());
      if (!sizeText.getAsInteger(10, size) && digest) {
        return cache::KeyBuilder::describeDigest("libdevice", size, *digest);
      }
    }
  }
  cache::KeyField field = libdeviceKeyField(codegen);
  // Written only when the file did not change while it was read.
  if (statLine(libdevice) == stat) {
    std::string error;
    (void)cache::writeFileAtomic(
        memoFile, head + std::to_string(field.size) + " " + field.valueDigest.hex() + "\n", false,
        &error);
  }
  return field;
}

std::string libdeviceKeyValue(const backend::CodegenOptions& codegen) {
  std::string libdevice = codegen.libdevicePath.empty() ? backend::findLibdevice(backend::cudaRoots(), PYKC_LIBDEVICE_PATH)
                                                     : codegen.libdevicePath;
  auto bitcode = llvm::MemoryBuffer::getFile(libdevice, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
  if (!bitcode) return libdevice + ": " + bitcode.getError().message();
  return std::string((*bitcode)->getBuffer());
}

void addLinkKeyFields(cache::KeyBuilder& key, const std::vector<LinkFile>& files,
                      const LinkSettings& settings, const backend::CodegenOptions& codegen,
                      const std::string& nvrtcIdentity) {
  if (files.empty()) return;
  for (const LinkFile& file : files) {
    key.add("link-kind", static_cast<std::int64_t>(file.kind));
    // The path matters only where it is written into the output: NVRTC's
    // line tables name the `.cu` file.
    if (codegen.lineInfo || codegen.debug) key.add("link-path", file.path);
    key.add("link-file", file.bytes);
    for (const auto& [path, bytes] : file.headers) {
      key.add("link-header", path);
      key.add("link-header-bytes", bytes);
    }
  }
  key.add("link-lto", settings.lto ? "1" : "0");
  if (!needsNvrtc(files)) return;
  key.add("nvrtc", nvrtcIdentity.empty() ? backend::nvrtcIdentity() : nvrtcIdentity);
  for (const std::string& option : backend::nvrtcOptionStrings(nvrtcOptionsFor(settings, codegen))) {
    key.add("nvrtc-option", option);
  }
}

cache::KeyBuilder unitKeyBuilder(const Compilation& compilation, const UnitRequest& request) {
  assert(compilation.typed && "a checked module");
  const frontend::TypedModule& typed = *compilation.typed;
  CacheKeyOptions keyOptions;
  keyOptions.codegen = request.codegen;
  keyOptions.defines = request.defines;
  keyOptions.nvJitLinkVersion = request.nvJitLinkIdentity;
  keyOptions.libdevice =
      request.libdeviceKey ? *request.libdeviceKey : libdeviceKeyField(request.codegen);
  cache::KeyBuilder key;
  key.add("unit", kUnitKind);
  key.add("arch", request.codegen.arch);
  if (wantsLineTables(typed, request.codegen)) key.add("path", compilation.path);
  for (uint32_t k = 0; k < typed.kernelCount; ++k) {
    key.add("instance", cacheKeyBuilder(compilation, k, keyOptions).key().hex());
  }
  addLinkKeyFields(key, request.linkFiles, request.link, request.codegen, request.nvrtcIdentity);
  return key;
}

}  // namespace driver

namespace driver {

cache::KeyBuilder fatbinKeyBuilder(const std::vector<std::string>& archs,
                                   const std::vector<cache::Key>& unitKeys,
                                   const std::string& stem, const std::string& nvFatbinIdentity) {
  assert(archs.size() == unitKeys.size() && "one unit key per arch");
  cache::KeyBuilder key;
  key.add("unit", kFatbinKind);
  key.add("nvfatbin", nvFatbinIdentity);
  for (const std::string& option : backend::fatbinOptionStrings()) key.add("nvfatbin-option", option);
  // The pieces' identifiers name the file.
  key.add("stem", stem);
  for (size_t i = 0; i < archs.size(); ++i) {
    key.add("arch", archs[i]);
    key.add("arch-unit", unitKeys[i].hex());
  }
  return key;
}

}  // namespace driver
