#include "driver/link_inputs.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "backend/cuda/nvrtc.h"
#include "cache/key.h"
#include "sema/typed_module.h"
#include "driver/pipeline.h"
#include "support/arch.h"

namespace driver {

char LinkSourceError::ID = 0;

void LinkSourceError::log(llvm::raw_ostream& os) const {
  for (const frontend::Diagnostic& d : diagnostics_) os << d.message << "\n";
}

std::error_code LinkSourceError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

namespace {

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

std::string folderOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

// The files `#include "name"` lines reach from `text` (in `folder`), searched
// as NVRTC does: the including file's folder, then `includeDirs`. Angle
// includes are the toolkit's (keyed through NVRTC's identity).
void collectHeaders(const std::string& text, const std::string& folder,
                    const std::vector<std::string>& includeDirs, std::set<std::string>& seen,
                    std::vector<std::pair<std::string, std::string>>& out, int depth) {
  if (depth > 32) return;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    size_t p = line.find_first_not_of(" \t");
    if (p == std::string::npos || line[p] != '#') continue;
    p = line.find_first_not_of(" \t", p + 1);
    if (p == std::string::npos || line.compare(p, 7, "include") != 0) continue;
    size_t open = line.find('"', p + 7);
    if (open == std::string::npos) continue;
    size_t close = line.find('"', open + 1);
    if (close == std::string::npos) continue;
    std::string name = line.substr(open + 1, close - open - 1);
    std::vector<std::string> dirs{folder};
    dirs.insert(dirs.end(), includeDirs.begin(), includeDirs.end());
    for (const std::string& dir : dirs) {
      std::string candidate = name.starts_with("/") ? name : dir + "/" + name;
      auto bytes = readFile(candidate);
      if (!bytes) continue;
      if (seen.insert(candidate).second) {
        out.emplace_back(candidate, *bytes);
        collectHeaders(*bytes, folderOf(candidate), includeDirs, seen, out, depth + 1);
      }
      break;
    }
  }
}

frontend::Location locationIn(const std::string& path, const std::string& text, uint32_t line,
                              uint32_t column, std::string& lineStorage) {
  frontend::Location loc;
  loc.path = path;
  loc.line = line;
  std::istringstream lines(text);
  for (uint32_t i = 1; i <= line && std::getline(lines, lineStorage); ++i) {
  }
  if (!lineStorage.empty() && lineStorage.back() == '\r') lineStorage.pop_back();
  loc.lineText = lineStorage;
  loc.column = column;
  if (column > 0 && column <= lineStorage.size()) {
    // The token under the caret: an identifier or a single character.
    size_t end = column - 1;
    while (end < lineStorage.size() &&
           (std::isalnum(static_cast<unsigned char>(lineStorage[end])) || lineStorage[end] == '_')) {
      ++end;
    }
    loc.length = static_cast<uint32_t>(std::max<size_t>(1, end - (column - 1)));
  } else {
    loc.column = 0;
  }
  return loc;
}

// A .param's size in bytes from its PTX declaration (`.param .b32 x`,
// `.param .align 8 .b8 x[16]`); 0 when unknown.
unsigned paramBytes(std::string_view decl) {
  unsigned bits = 0;
  size_t typeEnd = 0;
  for (size_t i = 0; i + 2 < decl.size(); ++i) {
    char c = decl[i + 1];
    if (decl[i] != '.' || (c != 'b' && c != 'u' && c != 's' && c != 'f') ||
        !std::isdigit(static_cast<unsigned char>(decl[i + 2]))) {
      continue;
    }
    bits = 0;
    size_t j = i + 2;
    while (j < decl.size() && std::isdigit(static_cast<unsigned char>(decl[j]))) {
      bits = bits * 10 + static_cast<unsigned>(decl[j] - '0');
      ++j;
    }
    typeEnd = j;
  }
  if (bits == 0) return 0;
  unsigned count = 1;
  size_t bracket = decl.find('[', typeEnd);
  if (bracket != std::string_view::npos) {
    count = 0;
    for (size_t j = bracket + 1; j < decl.size() && std::isdigit(static_cast<unsigned char>(decl[j])); ++j) {
      count = count * 10 + static_cast<unsigned>(decl[j] - '0');
    }
  }
  return bits / 8 * count;
}

struct PtxFunction {
  bool found = false;
  bool hasReturn = false;
  unsigned returnBytes = 0;
  std::vector<unsigned> params;
};

// The declaration of `.func` `symbol` defined (not only declared `.extern`)
// in `ptx`.
PtxFunction findPtxFunction(std::string_view ptx, const std::string& symbol) {
  PtxFunction f;
  size_t from = 0;
  while (true) {
    size_t at = ptx.find(symbol, from);
    if (at == std::string_view::npos) return f;
    from = at + symbol.size();
    bool wordStart = at == 0 || !(std::isalnum(static_cast<unsigned char>(ptx[at - 1])) ||
                                  ptx[at - 1] == '_' || ptx[at - 1] == '$');
    size_t after = at + symbol.size();
    while (after < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[after]))) ++after;
    if (!wordStart || after >= ptx.size() || ptx[after] != '(') continue;
    size_t lineStart = ptx.rfind('\n', at);
    lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
    std::string_view head = ptx.substr(lineStart, at - lineStart);
    if (head.find(".func") == std::string_view::npos || head.find(".extern") != std::string_view::npos) {
      continue;
    }
    f.found = true;
    size_t retOpen = head.find('(');
    if (retOpen != std::string_view::npos) {
      f.hasReturn = true;
      f.returnBytes = paramBytes(head.substr(retOpen));
    }
    size_t close = ptx.find(')', after);
    std::string_view list = ptx.substr(after + 1, close - after - 1);
    while (!list.empty()) {
      size_t comma = list.find(',');
      std::string_view item = list.substr(0, comma);
      if (item.find(".param") != std::string_view::npos) f.params.push_back(paramBytes(item));
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
    return f;
  }
}

unsigned abiBytes(const frontend::TypeTable& types, frontend::TypeId t) {
  // As PTX passes them: at least 32 bits for integers and bools.
  if (types.isPointer(t)) return 8;
  unsigned bytes = types.byteSize(t);
  return std::max(bytes, 4u);
}

std::string cppName(const frontend::TypeTable& types, frontend::TypeId t) {
  const frontend::Type& type = types.get(t);
  switch (type.kind) {
    case frontend::TypeKind::None:
      return "void";
    case frontend::TypeKind::Bool:
      return "bool";
    case frontend::TypeKind::Int: {
      std::string base = type.bits == 8 ? "char" : type.bits == 16 ? "short" : type.bits == 32 ? "int" : "long long";
      if (type.bits == 8) return type.isSigned ? "signed char" : "unsigned char";
      return type.isSigned ? base : "unsigned " + base;
    }
    case frontend::TypeKind::Float:
      return type.bits == 16 ? "__half" : type.bits == 32 ? "float" : "double";
    case frontend::TypeKind::Pointer:
      return cppName(types, type.element) + "*";
    default:
      return types.name(t);
  }
}

// `extern "C" __device__ int mul(float* return_value, float, float)`, or with
// abi="c" `extern "C" __device__ float mul(float, float)`.
std::string expectedPrototype(const frontend::TypeTable& types, const frontend::ExternFunction& fn) {
  if (fn.cAbi) {
    std::string s = "extern \"C\" __device__ " + cppName(types, fn.returnType) + " " + fn.symbol + "(";
    for (size_t k = 0; k < fn.args.size(); ++k) s += (k ? ", " : "") + cppName(types, fn.args[k]);
    return s + ")";
  }
  std::string s = "extern \"C\" __device__ int " + fn.symbol + "(" +
                  cppName(types, fn.returnType) + "* return_value";
  for (frontend::TypeId a : fn.args) s += ", " + cppName(types, a);
  return s + ")";
}

frontend::Diagnostic diagnosticAt(const frontend::Location& loc, frontend::Diag kind,
                                  std::string message) {
  frontend::DiagnosticSink sink;
  sink.report(frontend::Severity::Error, loc, kind, std::move(message));
  return sink.diagnostics().front();
}

}  // namespace

std::vector<LinkFile> collectLinkFiles(const Compilation& compilation,
                                       const LinkSettings& settings,
                                       frontend::DiagnosticSink& diags) {
  std::vector<LinkFile> files;
  std::set<std::string> seen;
  auto add = [&](const std::string& path, const frontend::Location* where) {
    if (!seen.insert(path).second) return;
    auto kind = frontend::linkFileKind(path);
    if (!kind) {
      std::string message = "cannot link `" + path + "`: pykc links " +
                            std::string(frontend::linkFileExtensions()) + " files";
      if (where) {
        diags.error(*where, frontend::Diag::InvalidLink, message);
      } else {
        diags.error(frontend::Diag::InvalidLink, "--link " + path + ": " + message);
      }
      return;
    }
    auto bytes = readFile(path);
    if (!bytes) {
      std::string message = "cannot read `" + path + "` to link it: " + std::strerror(errno);
      if (where) {
        diags.error(*where, frontend::Diag::LinkFileUnreadable, message);
      } else {
        diags.error(frontend::Diag::LinkFileUnreadable, "--link " + path + ": " + message);
      }
      return;
    }
    LinkFile file;
    file.path = path;
    file.kind = *kind;
    file.bytes = std::move(*bytes);
    if (file.kind == frontend::LinkFileKind::Cuda) {
      std::set<std::string> headersSeen;
      collectHeaders(file.bytes, folderOf(path), settings.includeDirs, headersSeen, file.headers, 0);
    }
    files.push_back(std::move(file));
  };
  for (const std::string& path : settings.files) add(path, nullptr);
  if (!compilation.typed) return files;
  const frontend::TypedModule& typed = *compilation.typed;
  std::set<uint32_t> functions;
  std::set<uint32_t> externs;
  for (const frontend::FunctionInstance& inst : typed.instances) {
    functions.insert(inst.function);
    for (const frontend::ExprMeaning& m : inst.meanings) {
      if (m.kind == frontend::Intrinsic::ExternFunction) externs.insert(m.payload);
    }
  }
  for (uint32_t f : functions) {
    for (const frontend::LinkRef& link : typed.module.functions[f].options.links) {
      add(link.path, &link.location);
    }
  }
  for (uint32_t e : externs) {
    for (const frontend::LinkRef& link : typed.module.externs[e].links) {
      add(link.path, &link.location);
    }
  }
  return files;
}

llvm::Error explainLinkError(llvm::Error error, const Compilation& compilation) {
  if (!compilation.typed) return error;
  std::vector<frontend::Diagnostic> problems;
  llvm::Error rest = llvm::handleErrors(
      std::move(error), [&](std::unique_ptr<backend::NvJitLinkError> e) -> llvm::Error {
        const frontend::TypedModule& typed = *compilation.typed;
        for (const frontend::ExternFunction& fn : typed.module.externs) {
          if (e->errorLog().find("Undefined reference to '" + fn.symbol + "'") ==
              std::string::npos) {
            continue;
          }
          frontend::Diagnostic d = diagnosticAt(
              fn.location, frontend::Diag::UndefinedExtern,
              "`" + fn.symbol + "` is declared here but no linked file defines it (nvJitLink: "
              "undefined reference)");
          frontend::Diagnostic note;
          note.severity = frontend::Severity::Note;
          note.kind = frontend::Diag::UndefinedExtern;
          note.message = "numba's ABI expects `" + expectedPrototype(typed.module.types, fn) + "`";
          d.notes.push_back(std::move(note));
          problems.push_back(std::move(d));
        }
        // ptxas: "Entry function 'SYMBOL' uses too much shared data (0x10000 bytes,
        // 0xc000 max)": tile kernels' static scratch (docs/TILE.md).
        const std::string& log = e->errorLog();
        for (const frontend::FunctionInstance& inst : typed.instances) {
          std::string needle = "Entry function '" + inst.symbol + "' uses too much shared data";
          size_t at = log.find(needle);
          if (inst.symbol.empty() || at == std::string::npos) continue;
          size_t open = log.find('(', at + needle.size());
          size_t close = log.find(')', open);
          std::string sizes = open != std::string::npos && close != std::string::npos
                                  ? log.substr(open + 1, close - open - 1)
                                  : "";
          // ptxas names the static limit (0xc000); the tile lowering moves scratch past
          // 48 KiB to dynamic shared memory where the arch's opt-in limit allows, so a
          // kernel that reaches ptxas so is past that limit: say it in those terms.
          const support::ArchInfo* arch = support::findArch(e->arch());
          unsigned long long need = std::strtoull(sizes.c_str(), nullptr, 16);
          std::string amount = need != 0 && arch != nullptr && arch->maxSharedBytesPerBlock != 0
                                   ? std::to_string((need + 1023) / 1024) + " KiB, " + std::string(arch->name) +
                                         " allows a block " + std::to_string(arch->maxSharedBytesPerBlock / 1024) +
                                         " KiB"
                                   : sizes;
          const frontend::JitFunction& fn = typed.module.functions[inst.function];
          problems.push_back(diagnosticAt(
              fn.location, frontend::Diag::SharedMemoryLimit,
              "kernel `" + fn.name + "` " + inst.signature + " needs more shared memory than a block can have (" +
                  amount + "): use smaller tiles (shared memory holds a tile kernel's staged tiles, reductions "
                  "and pipeline stages, up to 48 KiB static and past that as much as the arch allows)"));
        }
        if (problems.empty()) return llvm::Error(std::move(e));
        return llvm::Error::success();
      });
  if (rest) return rest;
  return llvm::make_error<LinkSourceError>(std::move(problems));
}

bool needsNvrtc(const std::vector<LinkFile>& files) {
  return std::any_of(files.begin(), files.end(), [](const LinkFile& f) {
    return f.kind == frontend::LinkFileKind::Cuda;
  });
}

backend::NvrtcOptions nvrtcOptionsFor(const LinkSettings& settings,
                                      const backend::CodegenOptions& codegen) {
  backend::NvrtcOptions options;
  options.arch = codegen.arch;
  options.lto = settings.lto;
  options.includeDirs = settings.includeDirs;
  for (const std::string& dir : backend::toolkitIncludeDirs()) options.includeDirs.push_back(dir);
  options.defines = settings.defines;
  options.extra = settings.nvrtcOptions;
  options.fastMath = codegen.fastMath;
  options.lineInfo = codegen.lineInfo;
  options.debug = codegen.debug;
  return options;
}

std::vector<frontend::Diagnostic> nvrtcDiagnostics(std::string_view log,
                                                   const std::vector<LinkFile>& files) {
  std::vector<frontend::Diagnostic> out;
  std::vector<backend::NvrtcMessage> messages = backend::parseNvrtcLog(log);
  for (const backend::NvrtcMessage& m : messages) {
    bool isError = m.severity.find("error") != std::string::npos;
    frontend::Diagnostic d;
    d.severity = isError ? frontend::Severity::Error : frontend::Severity::Warning;
    d.kind = isError ? frontend::Diag::CudaError : frontend::Diag::CudaWarning;
    d.message = m.severity.find("catastrophic") != std::string::npos ? "fatal: " + m.message
                                                                       : m.message;
    d.path = m.file;
    d.line = m.line;
    // Our own copy of the line (the log's echo may be cut or re-indented);
    // a header the log names is read from where it lies.
    std::string text;
    for (const LinkFile& f : files) {
      if (f.path == m.file) text = f.bytes;
      for (const auto& [path, bytes] : f.headers) {
        if (path == m.file) text = bytes;
      }
    }
    if (text.empty()) {
      if (auto bytes = readFile(m.file)) text = std::move(*bytes);
    }
    std::string lineText;
    frontend::Location loc = locationIn(m.file, text, m.line, m.column, lineText);
    if (!m.sourceLine.empty() && lineText != m.sourceLine) {
      // The echo is the truth for the caret.
      lineText = m.sourceLine;
    }
    d.lineText = lineText;
    d.column = m.column;
    d.length = m.column > 0 ? loc.length : 0;
    if (d.column == 0) d.lineText = lineText;
    out.push_back(std::move(d));
  }
  if (out.empty() && !log.empty()) {
    frontend::Diagnostic d;
    d.kind = frontend::Diag::CudaError;
    d.message = "NVRTC: " + std::string(log);
    out.push_back(std::move(d));
  }
  return out;
}

namespace {

// nvJitLink's input kind for a file linked as it is (a .cu goes through NVRTC first).
backend::LinkInputKind inputKindOf(frontend::LinkFileKind kind) {
  switch (kind) {
    case frontend::LinkFileKind::Cuda:
    case frontend::LinkFileKind::Ptx: return backend::LinkInputKind::Ptx;
    case frontend::LinkFileKind::LtoIr: return backend::LinkInputKind::LtoIr;
    case frontend::LinkFileKind::Cubin: return backend::LinkInputKind::Cubin;
    case frontend::LinkFileKind::Fatbin: return backend::LinkInputKind::Fatbin;
    case frontend::LinkFileKind::Object: return backend::LinkInputKind::Object;
    case frontend::LinkFileKind::Library: return backend::LinkInputKind::Library;
  }
  return backend::LinkInputKind::Ptx;
}

}  // namespace

llvm::Expected<std::vector<PreparedInput>> prepareLinkInputs(
    const Compilation& compilation, const std::vector<LinkFile>& files,
    const LinkSettings& settings, const backend::CodegenOptions& codegen,
    const backend::Nvrtc* nvrtc) {
  std::vector<PreparedInput> inputs;
  std::vector<frontend::Diagnostic> problems;
  const backend::NvrtcOptions nvrtcOptions =
      needsNvrtc(files) ? nvrtcOptionsFor(settings, codegen) : backend::NvrtcOptions{};
  for (const LinkFile& file : files) {
    PreparedInput input;
    input.name = file.path;
    switch (file.kind) {
      case frontend::LinkFileKind::Cuda: {
        assert(nvrtc != nullptr && "needsNvrtc() said so");
        auto compiled = backend::compileCuda(*nvrtc, file.path, file.bytes, nvrtcOptions);
        if (!compiled) {
          llvm::Error rest = llvm::handleErrors(
              compiled.takeError(), [&](const backend::NvrtcCompileError& e) {
                for (frontend::Diagnostic& d : nvrtcDiagnostics(e.nvrtcLog(), files)) {
                  problems.push_back(std::move(d));
                }
              });
          if (rest) return rest;
          continue;
        }
        // Warnings are shown with the errors only: a clean compile is quiet.
        input.kind = compiled->lto ? backend::LinkInputKind::LtoIr : backend::LinkInputKind::Ptx;
        input.bytes = std::move(compiled->code);
        break;
      }
      case frontend::LinkFileKind::Ptx:
      case frontend::LinkFileKind::LtoIr:
      case frontend::LinkFileKind::Cubin:
      case frontend::LinkFileKind::Fatbin:
      case frontend::LinkFileKind::Object:
      case frontend::LinkFileKind::Library:
        input.kind = inputKindOf(file.kind);
        input.bytes = file.bytes;
        break;
    }
    inputs.push_back(std::move(input));
  }
  if (!problems.empty()) return llvm::make_error<LinkSourceError>(std::move(problems));

  // Each called declare_device function against the PTX that defines it.
  if (compilation.typed) {
    const frontend::TypedModule& typed = *compilation.typed;
    const frontend::TypeTable& types = typed.module.types;
    std::set<uint32_t> called;
    for (const frontend::FunctionInstance& inst : typed.instances) {
      for (const frontend::ExprMeaning& m : inst.meanings) {
        if (m.kind == frontend::Intrinsic::ExternFunction) called.insert(m.payload);
      }
    }
    bool opaque = std::any_of(inputs.begin(), inputs.end(), [](const PreparedInput& i) {
      return i.kind != backend::LinkInputKind::Ptx;
    });
    for (uint32_t index : called) {
      const frontend::ExternFunction& fn = typed.module.externs[index];
      PtxFunction found;
      std::string where;
      for (const PreparedInput& input : inputs) {
        if (input.kind != backend::LinkInputKind::Ptx) continue;
        found = findPtxFunction(input.bytes, fn.symbol);
        if (found.found) {
          where = input.name;
          break;
        }
      }
      std::string prototype = expectedPrototype(types, fn);
      if (!found.found) {
        // LTO-IR, cubins and objects cannot be looked into: nvJitLink will say.
        if (opaque) continue;
        frontend::Diagnostic d = diagnosticAt(
            fn.location, frontend::Diag::UndefinedExtern,
            "`" + fn.symbol + "` is declared here but no linked file defines it" +
                (inputs.empty() ? " (nothing is linked: add `link=\"file.cu\"` or `--link`)"
                                : ""));
        frontend::Diagnostic note;
        note.severity = frontend::Severity::Note;
        note.kind = frontend::Diag::UndefinedExtern;
        note.message = "numba's ABI expects `" + prototype + "`";
        d.notes.push_back(std::move(note));
        problems.push_back(std::move(d));
        continue;
      }
      std::vector<unsigned> want;
      if (!fn.cAbi) want.push_back(8);
      for (frontend::TypeId a : fn.args) want.push_back(abiBytes(types, a));
      bool returnOk = fn.cAbi ? (types.isNone(fn.returnType)
                                     ? !found.hasReturn
                                     : found.hasReturn &&
                                           found.returnBytes == abiBytes(types, fn.returnType))
                              : found.hasReturn && found.returnBytes == 4;
      bool paramsOk = found.params.size() == want.size();
      for (size_t k = 0; paramsOk && k < want.size(); ++k) {
        // A 0 means the declaration was not understood: do not complain.
        paramsOk = found.params[k] == 0 || found.params[k] == want[k];
      }
      if (returnOk && paramsOk) continue;
      std::string why;
      if (!returnOk) {
        why = fn.cAbi ? "its return type differs" : "it does not return an `int` status";
      } else if (found.params.size() != want.size()) {
        why = "it takes " + std::to_string(found.params.size()) + " parameter(s), not " +
              std::to_string(want.size()) +
              (fn.cAbi ? std::string()
                       : " (the result pointer, then " + std::to_string(fn.args.size()) +
                             " argument(s))");
      } else {
        for (size_t k = 0; k < want.size(); ++k) {
          if (found.params[k] != 0 && found.params[k] != want[k]) {
            why = "its parameter " + std::to_string(k + 1) + " is " +
                  std::to_string(found.params[k]) + " bytes, not " + std::to_string(want[k]);
            break;
          }
        }
      }
      frontend::Diagnostic d = diagnosticAt(
          fn.location, frontend::Diag::ExternSignatureMismatch,
          "`" + fn.symbol + "` in `" + where + "` does not match this declaration: " + why);
      frontend::Diagnostic note;
      note.severity = frontend::Severity::Note;
      note.kind = frontend::Diag::ExternSignatureMismatch;
      note.message = "numba's ABI expects `" + prototype + "`";
      d.notes.push_back(std::move(note));
      problems.push_back(std::move(d));
    }
  }
  if (!problems.empty()) return llvm::make_error<LinkSourceError>(std::move(problems));
  return inputs;
}

}  // namespace driver
