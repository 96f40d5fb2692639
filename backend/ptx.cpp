#include "backend/ptx.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/IR/GlobalObject.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CodeGen.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <map>

#include "backend/passes/hoist_loads.h"
#include "backend/passes/nvptx_atomics.h"
#include "backend/passes/optimize.h"
#include "backend/options.h"
#include "backend/target.h"

namespace backend {
namespace {

// The NVPTX backend numbers call sites (`// callseq N` comments,
// `prototype_N` for indirect calls) from one counter for the whole process,
// so a module's numbers would depend on what was compiled before it, and on
// which thread came first when kernel partitions run in parallel. Renumbers
// them 0, 1, ... in order of first appearance in `text`.
std::string renumberCallSites(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::map<std::string_view, std::string> numbers;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t callseq = text.find("callseq ", pos);
    size_t prototype = text.find("prototype_", pos);
    size_t at = std::min(callseq, prototype);
    if (at == std::string_view::npos) break;
    size_t digits = at + (at == callseq ? 8 : 10);
    size_t end = digits;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    out.append(text.substr(pos, digits - pos));
    if (end > digits) {
      std::string_view number = text.substr(digits, end - digits);
      auto [it, added] = numbers.try_emplace(number, "");
      if (added) it->second = std::to_string(numbers.size() - 1);
      out += it->second;
    }
    pos = end;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace

llvm::Expected<std::string> codegenPtx(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::SmallString<16384> text;
  llvm::raw_svector_ostream stream(text);
  // Codegen still runs on the legacy pass manager in LLVM 19.
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr,
                                  llvm::CodeGenFileType::AssemblyFile)) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the NVPTX target cannot emit PTX for %s",
                                   machine.getTargetCPU().str().c_str());
  }
  // Orderings and sync scopes that LLVM 19's NVPTX back end would drop.
  auto sm = smVersion(machine.getTargetCPU());
  if (!sm) return sm.takeError();
  lowerOrderedAtomics(module, *sm);
  // HoistLoadsPass put the loads where they should be issued: MachineSink
  // would move some back down (hoist_loads.h).
  llvm::LLVMContext& context = module.getContext();
  llvm::OptPassGate& previousGate = context.getOptPassGate();
  SkipMachineSinking gate;
  context.setOptPassGate(gate);
  passes.run(module);
  context.setOptPassGate(previousGate);
  return renumberCallSites(text.str());
}

llvm::Expected<std::string> emitPtx(llvm::Module& module, const CodegenOptions& options) {
  return emitPtxPart(module, options, {});
}

llvm::Expected<std::string> emitPtxPart(llvm::Module& module, const CodegenOptions& options,
                                        std::string_view partSuffix) {
  auto machine = createTargetMachine(options);
  if (!machine) {
    return machine.takeError();
  }
  if (llvm::Error error = optimizeModule(module, **machine, options)) {
    return error;
  }
  // optimizeModule internalized everything but the kernels (and the visible
  // globals a launcher looks up by name, which stay as they are): what is
  // local now is what another part may define again under the same name.
  for (llvm::GlobalObject& object : module.global_objects()) {
    if (partSuffix.empty()) break;
    if (object.isDeclaration() || !object.hasLocalLinkage()) continue;
    std::string name = object.hasName() ? object.getName().str() : std::string("pykc_anon");
    object.setName(name + std::string(partSuffix));
  }
  return codegenPtx(module, **machine);
}

std::string withMinCtasPerSm(std::string_view ptx, std::string_view symbol, uint32_t ctas) {
  std::string entry = ".entry " + std::string(symbol) + "(";
  size_t at = ptx.find(entry);
  if (at == std::string_view::npos) return std::string(ptx);
  size_t body = ptx.find('{', at);
  size_t maxntid = ptx.find("\n.maxntid ", at);
  if (maxntid == std::string_view::npos || maxntid > body) return std::string(ptx);
  size_t lineEnd = ptx.find('\n', maxntid + 1);
  // A hint already there (the next line) is replaced.
  size_t rest = lineEnd + 1;
  if (ptx.substr(rest).starts_with(".minnctapersm ")) rest = ptx.find('\n', rest) + 1;
  std::string out(ptx.substr(0, lineEnd + 1));
  if (ctas != 0) out += ".minnctapersm " + std::to_string(ctas) + "\n";
  out += ptx.substr(rest);
  return out;
}

llvm::Expected<std::string> mergePtx(std::span<const std::string> parts) {
  std::string out;
  std::string_view firstHeader;
  llvm::StringSet<> declared;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    size_t directive = part.find(".address_size");
    if (directive == std::string_view::npos) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "PTX part %zu has no `.address_size` header", i);
    }
    size_t end = part.find('\n', directive);
    end = end == std::string_view::npos ? part.size() : end + 1;
    std::string_view header = part.substr(0, end);
    if (i == 0) {
      firstHeader = header;
      out.append(header);
    } else if (header != firstHeader) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "PTX part %zu was emitted for other options (its header "
                                     "differs from the first part's)",
                                     i);
    }
    // The body, line by line; an `.extern` declaration runs to the line that
    // ends with `;` (a function's parameter list spans several lines).
    size_t pos = end;
    while (pos < part.size()) {
      size_t lineEnd = part.find('\n', pos);
      lineEnd = lineEnd == std::string_view::npos ? part.size() : lineEnd + 1;
      std::string_view line = part.substr(pos, lineEnd - pos);
      if (!line.starts_with(".extern")) {
        out.append(line);
        pos = lineEnd;
        continue;
      }
      size_t itemEnd = pos;
      while (itemEnd < part.size()) {
        size_t next = part.find('\n', itemEnd);
        next = next == std::string_view::npos ? part.size() : next + 1;
        std::string_view text = part.substr(itemEnd, next - itemEnd);
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) {
          text.remove_suffix(1);
        }
        itemEnd = next;
        if (text.ends_with(';')) break;
      }
      std::string_view item = part.substr(pos, itemEnd - pos);
      if (declared.insert(item).second) out.append(item);
      pos = itemEnd;
    }
  }
  return out;
}

}  // namespace backend
