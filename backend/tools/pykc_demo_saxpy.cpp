// pykc_demo_saxpy OUTDIR [ARCH...]: compiles the hand-built saxpy kernel
// (backend/testing/saxpy_module.h) for each ARCH (default sm_90) and writes
// saxpy.<arch>.cubin, saxpy.<arch>.ptx and manifest.json (docs/ABI.md) into
// OUTDIR, so that launchers can be tried on a GPU before the front end exists.
// Prints the time of each step to stderr.
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "backend/nvjitlink.h"
#include "backend/options.h"
#include "backend/ptx.h"
#include "backend/resources.h"
#include "backend/target.h"
#include "backend/testing/saxpy_module.h"

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

int fail(llvm::Error error) {
  llvm::errs() << "pykc_demo_saxpy: error: " << llvm::toString(std::move(error)) << "\n";
  return 3;
}

llvm::Error writeFile(const std::string& path, std::string_view bytes) {
  std::error_code code;
  llvm::raw_fd_ostream stream(path, code, llvm::sys::fs::OF_None);
  if (code) {
    return llvm::createStringError(code, "cannot write `%s`: %s", path.c_str(),
                                   code.message().c_str());
  }
  stream << bytes;
  stream.close();
  if (stream.has_error()) {
    std::error_code writeError = stream.error();
    stream.clear_error();
    return llvm::createStringError(writeError, "cannot write `%s`", path.c_str());
  }
  return llvm::Error::success();
}

nlohmann::ordered_json arrayParam(const char* name) {
  return {{"name", name}, {"kind", "array"}, {"dtype", "float32"}, {"ndim", 1}, {"layout", "C"}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: pykc_demo_saxpy OUTDIR [ARCH...]   (default ARCH sm_90)\n");
    return 2;
  }
  std::string outDir = argv[1];
  std::vector<std::string> archs(argv + 2, argv + argc);
  if (archs.empty()) {
    archs.push_back("sm_90");
  }
  if (std::error_code code = llvm::sys::fs::create_directories(outDir)) {
    return fail(llvm::createStringError(code, "cannot create `%s`", outDir.c_str()));
  }

  auto start = Clock::now();
  backend::initializeNvptxTarget();
  std::fprintf(stderr, "initializeNvptxTarget: %.2f ms\n", millisecondsSince(start));
  auto loadStart = Clock::now();
  auto library = backend::NvJitLink::load();
  if (!library) {
    return fail(library.takeError());
  }
  auto version = backend::nvJitLinkVersion(*library);
  if (!version) {
    return fail(version.takeError());
  }
  std::fprintf(stderr, "NvJitLink::load (dlopen): %.2f ms\n", millisecondsSince(loadStart));

  nlohmann::ordered_json targets = nlohmann::ordered_json::array();
  nlohmann::ordered_json resources = nlohmann::ordered_json::object();
  for (const std::string& arch : archs) {
    llvm::LLVMContext context;
    auto module = backend::samples::buildSaxpyModule(context);
    backend::CodegenOptions options;
    options.arch = arch;
    auto step = Clock::now();
    auto ptx = backend::emitPtx(*module, options);
    if (!ptx) {
      return fail(ptx.takeError());
    }
    std::fprintf(stderr, "%s: emitPtx %.2f ms\n", arch.c_str(), millisecondsSince(step));

    backend::LinkOptions linkOptions;
    linkOptions.arch = arch;
    std::string ptxName = "saxpy." + arch + ".ptx";
    backend::LinkInput input{backend::LinkInputKind::Ptx, *ptx, ptxName};
    step = Clock::now();
    auto linked = backend::linkCubin(*library, {&input, 1}, linkOptions);
    if (!linked) {
      return fail(linked.takeError());
    }
    std::fprintf(stderr, "%s: linkCubin %.2f ms\n", arch.c_str(), millisecondsSince(step));

    auto kernels = backend::readCubinResources(linked->cubin, linked->infoLog);
    if (!kernels) {
      return fail(kernels.takeError());
    }
    auto kernel = kernels->find(std::string(backend::samples::kSaxpySymbol));
    if (kernel == kernels->end()) {
      return fail(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                          "the cubin has no saxpy entry"));
    }
    std::string cubinName = "saxpy." + arch + ".cubin";
    if (auto error = writeFile(outDir + "/" + cubinName, linked->cubin)) {
      return fail(std::move(error));
    }
    if (auto error = writeFile(outDir + "/" + ptxName, *ptx)) {
      return fail(std::move(error));
    }
    targets.push_back({{"arch", arch}, {"cubin", cubinName}, {"ptx", ptxName}});
    const backend::KernelResources& used = kernel->second;
    resources[arch] = {
        {"registers", used.registers},
        {"static_shared_bytes", used.staticSharedBytes},
        {"local_bytes", used.localBytes},
        {"spill_stores", used.spillStores},
        {"spill_loads", used.spillLoads},
        {"max_threads_per_block", used.maxThreadsPerBlock},
    };
  }

  nlohmann::ordered_json manifest = {
      {"format", "pykc-manifest"},
      {"abi_version", 1},
      {"compiler",
       {{"pykc", PYKC_VERSION},
        {"llvm", LLVM_VERSION_STRING},
        {"nvjitlink", std::to_string(version->first) + "." + std::to_string(version->second)}}},
      {"source", "saxpy.py"},
      {"targets", targets},
      {"kernels",
       nlohmann::ordered_json::array({{
           {"name", "saxpy"},
           {"signature", "void(float32, float32[::1], float32[::1], float32[::1])"},
           {"symbol", std::string(backend::samples::kSaxpySymbol)},
           {"params",
            nlohmann::ordered_json::array({
                {{"name", "a"}, {"kind", "scalar"}, {"dtype", "float32"}},
                arrayParam("x"),
                arrayParam("y"),
                arrayParam("out"),
            })},
           {"cooperative", false},
           {"dynamic_shared_memory", false},
           {"resources", resources},
       }})},
  };
  if (auto error = writeFile(outDir + "/manifest.json", manifest.dump(2) + "\n")) {
    return fail(std::move(error));
  }
  std::fprintf(stderr, "total: %.2f ms\n", millisecondsSince(start));
  return 0;
}
