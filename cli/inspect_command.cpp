// `pykc inspect`: show any stage of a kernel's compilation, mapped back to
// Python lines (docs/INSPECT.md).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "syntax/ast_dump.h"
#include "syntax/lex.h"
#include "driver/stages.h"
#include "driver/cache_key.h"
#include "driver/codegen_flags.h"
#include "cli/codegen_options.h"
#include "cli/command.h"
#include "cli/populate.h"
#include "driver/driver.h"
#include "cli/inspect_asm.h"
#include "support/arch.h"
#include "cli/inspect_resources.h"
#include "sema/inspect_types.h"
#include "cli/invocation.h"
#include "driver/pipeline.h"

namespace cli {

using namespace driver;
namespace {

struct InspectOptions {
  std::string target;
  std::vector<std::string> emit;
  std::vector<std::string> sigs;
  std::vector<std::string> consts;
  std::vector<std::string> warnings;
  std::string arch = "sm_90";
  std::string outputDir;
  bool json = false;
  std::vector<unsigned> blocks{128, 256, 512, 1024};
  // -D, -O, --lineinfo, --use-fast-math, --maxrregcount and the linking flags,
  // exactly as `pykc compile` has them (driver/codegen_flags.h).
  CodegenFlags codegen;
};

// One selected kernel: its name and its instances (one per signature).
struct SelectedKernel {
  std::string name;
  std::vector<uint32_t> instances;
};

// The tokens dump restricted to lines [first, last] (lines start `L,C-`).
std::string tokensOfLines(const std::string& dump, uint32_t first, uint32_t last) {
  std::string out;
  size_t start = 0;
  while (start < dump.size()) {
    size_t end = dump.find('\n', start);
    if (end == std::string::npos) end = dump.size();
    std::string_view line(dump.data() + start, end - start);
    uint32_t number = 0;
    for (char ch : line) {
      if (ch < '0' || ch > '9') break;
      number = number * 10 + static_cast<uint32_t>(ch - '0');
    }
    if (number >= first && number <= last) {
      out.append(line);
      out += "\n";
    }
    start = end + 1;
  }
  return out;
}

class InspectCommand final : public Command {
public:
  explicit InspectCommand(CLI::App& app) {
    CLI::App* sub = app.add_subcommand(
        "inspect",
        "Show a stage of a kernel's compilation, mapped back to Python lines.\n"
        "\n"
        "Forms (--emit, comma separated, several at once):\n"
        "  tokens     the token stream (as `python -m tokenize`)\n"
        "  ast        the syntax tree (as `ast.dump`)\n"
        "  types      the source with every variable's inferred type; float64\n"
        "             arithmetic in a float32 kernel is marked\n"
        "  llvm       LLVM IR as lowered; llvm-opt: after optimisation\n"
        "  ptx        PTX with the Python line above the code it became\n"
        "  sass       SASS (needs nvdisasm: pip install nvidia-cuda-nvdisasm)\n"
        "             with the Python lines, from the cubin's line table\n"
        "  resources  registers, spills, stack, shared/constant memory, max\n"
        "             block size and theoretical occupancy per kernel x signature\n"
        "  cache-key  the fields of each kernel's cache key, and the key\n"
        "\n"
        "FILE::KERNEL picks one kernel (all its signatures). One form goes to\n"
        "stdout; with -o DIR each form goes to DIR/<stem>.<form file>.\n"
        "--json (types, resources, cache-key) prints JSON for tools.\n"
        "\n"
        "Examples:\n"
        "  pykc inspect kernels.py::saxpy --emit types\n"
        "  pykc inspect kernels.py::saxpy --emit sass\n"
        "  pykc inspect kernels.py --emit resources --arch sm_80 --block 192\n"
        "  pykc inspect kernels.py --emit ptx,sass,resources -o inspect-out/");
    sub->add_option("TARGET", opts_.target, "FILE or FILE::KERNEL")->required();
    sub->add_option("--emit", opts_.emit,
                    "What to print: " + driver::stageNames(&driver::StageInfo::inspect))
        ->delimiter(',')
        ->required();
    sub->add_option("--sig", opts_.sigs,
                    "Signature for an untyped kernel: 'name(float32[::1], int64)'");
    sub->add_option("--const", opts_.consts,
                    "A tile kernel's Constant parameter: NAME=VALUE (repeat for more specialisations)");
    sub->add_option("--arch", opts_.arch, "GPU architecture (sm_75 ... sm_121f, compute_75 ... compute_90a)")
        ->capture_default_str();
    sub->add_option("-o,--output", opts_.outputDir, "Write each form to a file in this folder");
    sub->add_flag("--json", opts_.json, "JSON for tools (types, resources, cache-key)");
    sub->add_option("--block", opts_.blocks,
                    "Block sizes for the occupancy in resources (default 128,256,512,1024)")
        ->delimiter(',');
    sub->add_option("-W", opts_.warnings,
                    "Warnings: -Wno-float64 turns off the float64-arithmetic warning");
    addCodegenFlags(*sub, opts_.codegen);
  }

  int run(Invocation& inv) override;

private:
  // Prints `pykc: error: message`; returns `code`.
  int error(Invocation& inv, int code, const std::string& message) {
    std::fprintf(inv.err, "pykc: error: %s\n", message.c_str());
    return code;
  }

  InspectOptions opts_;
};

int InspectCommand::run(Invocation& inv) {
  frontend::RenderOptions render;
  render.showKinds = inv.diagKinds;
  render.color = inv.color;

  // --- the command line ---
  std::vector<std::string> forms;
  for (const std::string& e : opts_.emit) {
    const driver::StageInfo* stage = driver::findStage(e);
    if (stage == nullptr || !stage->inspect) {
      return error(inv, kExitUsage, "--emit " + e + ": expected " + driver::stageNames(&driver::StageInfo::inspect));
    }
  }
  // Printed and written in the stage table's order.
  for (const driver::StageInfo& s : driver::stages()) {
    if (s.inspect && std::find(opts_.emit.begin(), opts_.emit.end(), s.name) != opts_.emit.end()) {
      forms.emplace_back(s.name);
    }
  }
  auto wants = [&](std::string_view f) {
    return std::find(forms.begin(), forms.end(), f) != forms.end();
  };
  if (std::optional<std::string> why = support::whyUnsupported(opts_.arch)) {
    return error(inv, kExitUsage, "--arch " + opts_.arch + ": " + *why);
  }
  if (auto problem = checkCodegenFlags(opts_.codegen)) return error(inv, kExitUsage, *problem);
  for (unsigned b : opts_.blocks) {
    if (b == 0 || b > 1024) {
      return error(inv, kExitUsage, "--block " + std::to_string(b) + ": expected 1 to 1024 threads");
    }
  }
  // Only -W is read here; the rest of the front end's options are the request's.
  FrontendOptions frontendOptions;
  if (llvm::Error e = applyWarningFlags(opts_.warnings, frontendOptions)) {
    return error(inv, kExitUsage, llvm::toString(std::move(e)));
  }
  std::string path = opts_.target;
  std::string kernelName;
  if (size_t sep = path.rfind("::"); sep != std::string::npos) {
    kernelName = path.substr(sep + 2);
    path = path.substr(0, sep);
    if (kernelName.empty()) return error(inv, kExitUsage, "`" + opts_.target + "`: no kernel name after `::`");
  }
  // compute_XY is PTX alone: nothing to disassemble or measure.
  if (const support::ArchInfo* info = support::findArch(opts_.arch);
      info != nullptr && info->ptxOnly && (wants("sass") || wants("resources"))) {
    return error(inv, kExitUsage,
                 "--emit " + std::string(wants("sass") ? "sass" : "resources") + " needs a cubin, and `" +
                     opts_.arch + "` is PTX alone: use --arch sm_" + opts_.arch.substr(8));
  }
  // nvdisasm before any work: without it, say how to get it.
  std::string nvdisasm;
  if (wants("sass")) {
    auto found = findNvdisasm();
    if (!found) return error(inv, kExitEnvironment, llvm::toString(found.takeError()));
    nvdisasm = *found;
  }

  // --- the front end, through the driver (one Session for every stage) ---
  driver::SessionSettings settings;
  settings.useCache = false;
  settings.log = logSink(inv);
  driver::Session session(std::move(settings));
  driver::CompileRequest base;
  base.path = path;
  base.sigs = opts_.sigs;
  base.consts = opts_.consts;
  base.codegen = withEnvironmentPythonPath(opts_.codegen);
  base.archs = {opts_.arch};
  base.render = render;
  // FILE::KERNEL checks that kernel alone: other kernels' errors do not stop it.
  if (!kernelName.empty()) base.kernels = {kernelName};
  driver::CompileRequest checkRequest = base;
  checkRequest.warnFloat64 = frontendOptions.warnFloat64;
  checkRequest.stopAfter = driver::Stage::Check;
  checkRequest.keepCompilation = true;
  driver::CompileResult front = driver::compile(checkRequest, session);
  std::fwrite(front.rendered.data(), 1, front.rendered.size(), inv.err);
  if (front.exit == driver::ExitClass::Usage || front.exit == driver::ExitClass::Environment ||
      !front.compilation) {
    return static_cast<int>(front.exit);
  }
  const Compilation& compilation = *front.compilation;
  bool frontendOnly = std::all_of(forms.begin(), forms.end(), [](const std::string& f) {
    return f == "tokens" || f == "ast";
  });
  bool failed = front.exit != driver::ExitClass::Ok || !compilation.typed;
  if (failed && (!frontendOnly || !compilation.ast)) return kExitSourceErrors;

  // --- the kernels ---
  std::vector<SelectedKernel> kernels;
  if (compilation.typed && !failed) {
    const frontend::TypedModule& typed = *compilation.typed;
    for (uint32_t k = 0; k < typed.kernelCount; ++k) {
      const std::string& name = typed.module.functions[typed.instances[k].function].name;
      auto it = std::find_if(kernels.begin(), kernels.end(),
                             [&](const SelectedKernel& s) { return s.name == name; });
      if (it == kernels.end()) {
        kernels.push_back({name, {}});
        it = kernels.end() - 1;
      }
      it->instances.push_back(k);
    }
  }
  // The lines of a kernel (decorators included), for restricting tokens.
  auto linesOfKernel = [&](const SelectedKernel& k) {
    const frontend::TypedModule& typed = *compilation.typed;
    const frontend::JitFunction& fn = typed.module.functions[typed.instances[k.instances[0]].function];
    const frontend::Stmt& stmt = compilation.ast->stmt(fn.stmt);
    uint32_t first = stmt.range.lineno;
    if (const auto* def = stmt.dyn<frontend::ast::FunctionDef>()) {
      for (frontend::ExprId d : compilation.ast->list(def->decoratorList)) {
        first = std::min(first, compilation.ast->expr(d).range.lineno);
      }
    }
    return std::make_pair(first, stmt.range.endLineno);
  };

  std::map<std::string, std::string> output;
  // A tree or token stream cut short by an error is not shown.
  if (wants("tokens") && compilation.tokens && !compilation.tokens->hasErrors()) {
    std::string dump = frontend::dumpTokens(*compilation.tokens);
    if (!kernelName.empty() && !kernels.empty()) {
      auto [first, last] = linesOfKernel(kernels[0]);
      dump = tokensOfLines(dump, first, last);
    }
    output["tokens"] = dump;
  }
  if (wants("ast") && compilation.ast && !compilation.ast->hasErrors()) {
    frontend::DumpOptions dumpOptions;
    dumpOptions.pythonVersion = 312;
    output["ast"] = frontend::dumpAst(*compilation.ast, dumpOptions) + "\n";
  }
  if (failed) {
    // Only the front-end forms were asked for; show them, then fail.
    for (const std::string& f : forms) {
      if (output.count(f)) std::fputs(output[f].c_str(), inv.out);
    }
    return kExitSourceErrors;
  }
  const frontend::TypedModule& typed = *compilation.typed;
  if (wants("types")) {
    std::vector<uint32_t> instances;
    for (const SelectedKernel& k : kernels) {
      for (uint32_t i : k.instances) {
        for (uint32_t r : reachableInstances(typed, i)) {
          if (std::find(instances.begin(), instances.end(), r) == instances.end()) {
            instances.push_back(r);
          }
        }
      }
    }
    output["types"] = opts_.json ? annotateTypesJson(*compilation.ast, typed, instances)
                                 : annotateTypes(*compilation.ast, typed, instances);
  }

  // --- code generation, one kernel at a time ---
  bool wantLlvm = wants("llvm"), wantLlvmOpt = wants("llvm-opt"), wantPtx = wants("ptx");
  bool wantSass = wants("sass"), wantResources = wants("resources");
  bool needCompile = wantLlvm || wantLlvmOpt || wantPtx || wantSass || wantResources;
  bool needCubin = wantSass || wantResources;
  bool several = kernels.size() > 1;
  auto kernelHeader = [&](const char* comment, const SelectedKernel& k) {
    return several ? std::string(comment) + " ==== kernel " + k.name + " ====\n" : std::string();
  };
  std::vector<ResourceEntry> resources;
  for (const SelectedKernel& k : needCompile ? kernels : std::vector<SelectedKernel>{}) {
    driver::CompileRequest request = base;
    request.kernels = {k.name};
    // The front end's warnings were shown above.
    request.warnFloat64 = false;
    request.wantLlvm = wantLlvm;
    request.wantLlvmOptimized = wantLlvmOpt;
    request.wantPtx = true;
    request.wantCubin = needCubin;
    request.stopAfter = needCubin ? driver::Stage::Cubin : driver::Stage::Ptx;
    // The interleaved views need line tables.
    request.lineTables = wantPtx || wantSass;
    if (inv.log) inv.log->info("inspecting {} for {}", k.name, opts_.arch);
    driver::CompileResult built = driver::compile(request, session);
    std::fwrite(built.rendered.data(), 1, built.rendered.size(), inv.err);
    if (built.exit != driver::ExitClass::Ok) return static_cast<int>(built.exit);
    const driver::ArchOutput& a = built.archs[0];
    if (wantLlvm) output["llvm"] += kernelHeader(";", k) + a.llvmIr;
    if (wantLlvmOpt) output["llvm-opt"] += kernelHeader(";", k) + a.llvmOptimizedIr;
    if (wantPtx) output["ptx"] += kernelHeader("//", k) + interleavePtx(a.ptx, *compilation.source);
    if (wantSass) {
      auto sass = disassembleCubin(a.cubin, nvdisasm);
      if (!sass) return error(inv, kExitEnvironment, llvm::toString(sass.takeError()));
      output["sass"] += kernelHeader("//", k) + interleaveSass(*sass, *compilation.source);
    }
    if (wantResources) {
      for (const driver::InstanceOutput& inst : built.instances) {
        ResourceEntry entry{k.name, inst.signature, inst.symbol, opts_.arch, {}};
        auto it = a.resources.find(inst.symbol);
        if (it != a.resources.end()) entry.resources = it->second;
        entry.tileBlock = inst.tileThreads;
        entry.dynamicSharedBytes = inst.tileSharedBytes;
        resources.push_back(std::move(entry));
      }
    }
  }
  if (wantResources) {
    output["resources"] = opts_.json ? formatResourcesJson(resources, opts_.blocks)
                                     : formatResources(resources, opts_.blocks);
  }
  if (wants("cache-key")) {
    std::vector<cache::KeyBuilder> keys = driver::instanceKeys(compilation, base, session);
    const frontend::TypedModule& typed = *compilation.typed;
    std::string text;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const SelectedKernel& k : kernels) {
      for (uint32_t i : k.instances) {
        const frontend::FunctionInstance& inst = typed.instances[i];
        const cache::KeyBuilder& key = keys[i];
        if (!text.empty()) text += "\n";
        text += "# " + k.name + " " + inst.signature + " on " + opts_.arch + "\n";
        text += cache::formatKeyFields(key);
        nlohmann::ordered_json entry;
        entry["name"] = k.name;
        entry["signature"] = inst.signature;
        entry["symbol"] = inst.symbol;
        entry["arch"] = opts_.arch;
        entry["key"] = key.key().hex();
        nlohmann::ordered_json fields = nlohmann::ordered_json::array();
        for (const cache::KeyField& f : key.fields()) {
          fields.push_back({{"tag", f.tag},
                            {"summary", f.summary},
                            {"size", f.size},
                            {"blake3", f.valueDigest.hex()}});
        }
        entry["fields"] = fields;
        list.push_back(entry);
      }
    }
    output["cache-key"] = opts_.json ? nlohmann::ordered_json{{"kernels", list}}.dump(2) + "\n" : text;
  }

  // --- the output ---
  if (!opts_.outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(opts_.outputDir)) {
      return error(inv, kExitEnvironment,
                   "cannot create `" + opts_.outputDir + "`: " + ec.message());
    }
    llvm::SmallString<256> stem(llvm::sys::path::filename(path));
    if (llvm::sys::path::extension(stem) == ".py") llvm::sys::path::replace_extension(stem, "");
    if (!kernelName.empty()) stem += "." + kernelName;
    for (const std::string& f : forms) {
      llvm::SmallString<256> file(opts_.outputDir);
      llvm::sys::path::append(file, driver::stageFileName(*driver::findStage(f), std::string(stem), opts_.arch,
                                                          opts_.json));
      if (llvm::Error e = writeFileAtomically(std::string(file), output[f])) {
        return error(inv, kExitEnvironment, llvm::toString(std::move(e)));
      }
      if (inv.log) inv.log->info("wrote {}", std::string(file));
    }
    return kExitOk;
  }
  for (const std::string& f : forms) {
    if (forms.size() > 1) std::fprintf(inv.out, "==> %s <==\n", f.c_str());
    std::fwrite(output[f].data(), 1, output[f].size(), inv.out);
    if (forms.size() > 1 && &f != &forms.back()) std::fputs("\n", inv.out);
  }
  return kExitOk;
}

}  // namespace

std::unique_ptr<Command> addInspectCommand(CLI::App& app) {
  return std::make_unique<InspectCommand>(app);
}

}  // namespace cli
