#include "cli/inspect_asm.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FileUtilities.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <vector>

#include "backend/cuda/toolkit.h"
#include "syntax/source.h"

#ifndef PYKC_CUDA_BIN
#error "PYKC_CUDA_BIN must be defined by cli/CMakeLists.txt"
#endif
#ifndef PYKC_PYDEPS_DIRS
#error "PYKC_PYDEPS_DIRS must be defined by cli/CMakeLists.txt"
#endif

namespace cli {
namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Is `file` (as a line table names it) the file `source` was read from?
bool sameFile(std::string_view file, const frontend::SourceFile& source) {
  if (file == source.path()) return true;
  llvm::SmallString<256> a(file), b(source.path());
  llvm::sys::fs::make_absolute(a);
  llvm::sys::fs::make_absolute(b);
  llvm::sys::path::remove_dots(a, true);
  llvm::sys::path::remove_dots(b, true);
  return a == b;
}

// `// file:LINE  text` for a position in `file`.
std::string sourceComment(std::string_view indent, std::string_view file, unsigned line,
                          const frontend::SourceFile& source) {
  std::string out(indent);
  out += "// ";
  out += file;
  out += ':';
  out += std::to_string(line);
  if (sameFile(file, source) && line >= 1 && line <= source.lineCount()) {
    std::string_view text = trim(source.lineText(line));
    if (!text.empty()) {
      out += "  ";
      out += text;
    }
  }
  return out;
}

std::optional<std::string> executable(const std::string& path) {
  if (!path.empty() && llvm::sys::fs::can_execute(path) && !llvm::sys::fs::is_directory(path)) {
    return path;
  }
  return std::nullopt;
}

std::string envOr(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

// `<prefix>/lib/python3.*/{site,dist}-packages/nvidia/{cu13,cuda_nvdisasm}/bin/nvdisasm`.
std::optional<std::string> inPythonPrefix(const std::string& prefix) {
  if (prefix.empty()) return std::nullopt;
  std::error_code ec;
  llvm::SmallString<256> lib(prefix);
  llvm::sys::path::append(lib, "lib");
  std::vector<std::string> pythons;
  for (llvm::sys::fs::directory_iterator it(lib, ec), end; it != end && !ec; it.increment(ec)) {
    std::string name = llvm::sys::path::filename(it->path()).str();
    if (name.rfind("python3", 0) == 0) pythons.push_back(it->path());
  }
  std::sort(pythons.begin(), pythons.end());
  for (const std::string& py : pythons) {
    for (const char* packages : {"site-packages", "dist-packages"}) {
      for (const char* package : {"cu13", "cuda_nvdisasm"}) {
        llvm::SmallString<256> p(py);
        llvm::sys::path::append(p, packages, "nvidia", package);
        llvm::sys::path::append(p, "bin", "nvdisasm");
        if (auto found = executable(std::string(p))) return found;
      }
    }
  }
  return std::nullopt;
}

// `<dir>/nvidia/{cu13,cuda_nvdisasm}/bin/nvdisasm` (pip --target dir).
std::optional<std::string> inPipTarget(const std::string& dir) {
  for (const char* package : {"cu13", "cuda_nvdisasm"}) {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, "nvidia", package, "bin", "nvdisasm");
    if (auto found = executable(std::string(p))) return found;
  }
  return std::nullopt;
}

}  // namespace

std::string interleavePtx(std::string_view ptx, const frontend::SourceFile& source) {
  std::vector<std::string_view> lines = splitLines(ptx);
  // `.file 1 "k.py"` (LLVM puts them at the end).
  static const std::regex fileRe(R"(^\s*\.file\s+(\d+)\s+\"([^\"]*)\")");
  static const std::regex locRe(R"(^(\s*)\.loc\s+(\d+)\s+(\d+)\s+\d+)");
  std::map<unsigned, std::string> files;
  for (std::string_view line : lines) {
    std::cmatch m;
    if (std::regex_search(line.begin(), line.end(), m, fileRe)) {
      files[static_cast<unsigned>(std::stoul(m[1].str()))] = m[2].str();
    }
  }
  std::string out;
  unsigned lastFile = 0, lastLine = 0;
  for (std::string_view line : lines) {
    std::cmatch m;
    if (line.find(".loc") != std::string_view::npos &&
        std::regex_search(line.begin(), line.end(), m, locRe)) {
      unsigned file = static_cast<unsigned>(std::stoul(m[2].str()));
      unsigned number = static_cast<unsigned>(std::stoul(m[3].str()));
      if (number != 0 && (file != lastFile || number != lastLine)) {
        auto it = files.find(file);
        std::string name = it != files.end() ? it->second : std::string("file");
        if (it == files.end()) name += std::to_string(file);
        out += sourceComment(m[1].str(), name, number, source);
        out += "\n";
        lastFile = file;
        lastLine = number;
      }
    }
    out += line;
    out += "\n";
  }
  return out;
}

std::string interleaveSass(std::string_view sass, const frontend::SourceFile& source) {
  static const std::regex lineRe(
      R"(^(\s*)//## File \"([^\"]*)\", line (\d+)(?: inlined at \"([^\"]*)\", line (\d+))?)");
  std::string out;
  for (std::string_view line : splitLines(sass)) {
    std::cmatch m;
    if (line.find("//## File") != std::string_view::npos &&
        std::regex_search(line.begin(), line.end(), m, lineRe)) {
      unsigned number = static_cast<unsigned>(std::stoul(m[3].str()));
      out += sourceComment(m[1].str(), m[2].str(), number, source);
      if (m[5].matched) {
        out += "  (inlined at line ";
        out += m[5].str();
        out += ")";
      }
      out += "\n";
      continue;
    }
    out += line;
    out += "\n";
  }
  return out;
}

llvm::Expected<std::string> findNvdisasm() {
  std::vector<std::string> looked;
  std::string fromEnv = envOr("PYKC_NVDISASM");
  if (!fromEnv.empty()) {
    if (auto found = executable(fromEnv)) return *found;
    return llvm::createStringError(
        std::errc::no_such_file_or_directory,
        "`--emit sass` needs nvdisasm, but $PYKC_NVDISASM is `%s`, which is not an executable; "
        "install nvdisasm with `pip install nvidia-cuda-nvdisasm` or with the CUDA toolkit",
        fromEnv.c_str());
  }
  if (auto onPath = llvm::sys::findProgramByName("nvdisasm")) return *onPath;
  looked.push_back("PATH");
  std::vector<std::string> toolkits{PYKC_CUDA_BIN};
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    std::string root = envOr(var);
    if (!root.empty()) toolkits.push_back(root + "/bin");
  }
  // $PYKC_CUDA_HOME and NVIDIA's wheels beside an installed pykc (backend/cuda/toolkit.h).
  backend::CudaRoots roots = backend::cudaRoots();
  for (const std::string& root : roots.toolkits) toolkits.push_back(root + "/bin");
  for (const std::string& wheel : roots.wheels) toolkits.push_back(wheel + "/bin");
  std::vector<std::string> seen;
  for (const std::string& dir : toolkits) {
    if (std::find(seen.begin(), seen.end(), dir) == seen.end()) seen.push_back(dir);
  }
  toolkits = std::move(seen);
  for (const std::string& dir : toolkits) {
    if (auto found = executable(dir + "/nvdisasm")) return *found;
    looked.push_back(dir);
  }
  // PYKC_PYDEPS_DIRS: ':'-separated pip --target folders (build/pydeps).
  std::string_view dirs = PYKC_PYDEPS_DIRS;
  while (!dirs.empty()) {
    size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (dir.empty()) continue;
    if (auto found = inPipTarget(dir)) return *found;
    looked.push_back(dir);
  }
  std::string home = envOr("HOME");
  for (std::string prefix : {envOr("VIRTUAL_ENV"), envOr("CONDA_PREFIX"),
                             home.empty() ? std::string() : home + "/.local",
                             std::string("/usr/local"), std::string("/usr")}) {
    if (prefix.empty()) continue;
    if (auto found = inPythonPrefix(prefix)) return *found;
    looked.push_back(prefix + "/lib/python3*");
  }
  std::string where;
  for (const std::string& l : looked) {
    if (!where.empty()) where += ", ";
    where += l;
  }
  return llvm::createStringError(
      std::errc::no_such_file_or_directory,
      "`--emit sass` needs nvdisasm, which was not found (looked in %s); install it with "
      "`pip install nvidia-cuda-nvdisasm` (scripts/deps.sh puts it in build/pydeps) or with "
      "the CUDA toolkit, or point $PYKC_NVDISASM at it",
      where.c_str());
}

llvm::Expected<std::string> disassembleCubin(std::string_view cubin, const std::string& nvdisasm) {
  llvm::SmallString<128> cubinPath, outPath, errPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("pykc-inspect", "cubin", cubinPath)) {
    return llvm::createStringError(ec, "cannot create a temporary file: %s", ec.message().c_str());
  }
  llvm::FileRemover removeCubin(cubinPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(cubinPath, ec, llvm::sys::fs::OF_None);
    if (ec) {
      return llvm::createStringError(ec, "cannot write `%s`: %s", cubinPath.c_str(),
                                     ec.message().c_str());
    }
    file << cubin;
  }
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("pykc-inspect", "sass", outPath)) {
    return llvm::createStringError(ec, "cannot create a temporary file: %s", ec.message().c_str());
  }
  llvm::FileRemover removeOut(outPath);
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("pykc-inspect", "err", errPath)) {
    return llvm::createStringError(ec, "cannot create a temporary file: %s", ec.message().c_str());
  }
  llvm::FileRemover removeErr(errPath);
  std::vector<llvm::StringRef> args{nvdisasm, "--print-line-info", "--print-code", cubinPath};
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(outPath),
                                                llvm::StringRef(errPath)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(nvdisasm, args, std::nullopt, redirects, 0, 0, &message);
  auto readAll = [](llvm::StringRef path) -> std::string {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  };
  if (rc != 0) {
    std::string err = readAll(errPath);
    return llvm::createStringError(std::errc::io_error, "`%s` failed (exit status %d)%s%s%s%s",
                                   nvdisasm.c_str(), rc, message.empty() ? "" : ": ",
                                   message.c_str(), err.empty() ? "" : "\n", err.c_str());
  }
  return readAll(outPath);
}

}  // namespace cli
