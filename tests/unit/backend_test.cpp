// backend/: PTX emission, libdevice, __nvvm_reflect, nvJitLink, cubin
// resources and occupancy, on hand-built modules (backend/testing/).
#include <gtest/gtest.h>

#include "backend/cuda/register_budget.h"
#include "support/arch.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "backend/cuda/nvjitlink.h"
#include "backend/passes/optimize.h"
#include "backend/options.h"
#include "backend/ptx.h"
#include "backend/cuda/resources.h"
#include "backend/target.h"
#include "backend/testing/saxpy_module.h"

namespace {

using backend::CodegenOptions;
using backend::samples::KernelMarking;
using backend::samples::kSaxpySymbol;

// The message of an expected failure; fails the test if there was none.
template <typename T>
std::string errorText(llvm::Expected<T> value) {
  if (value) {
    ADD_FAILURE() << "expected an error";
    return {};
  }
  return llvm::toString(value.takeError());
}

// Fails the test with the error's message; returns the value otherwise.
template <typename T>
T take(llvm::Expected<T> value) {
  if (!value) {
    ADD_FAILURE() << llvm::toString(value.takeError());
    return T{};
  }
  return std::move(*value);
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

class BackendTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { backend::initializeNvptxTarget(); }

  std::string emit(llvm::Module& module, const CodegenOptions& options) {
    return take(backend::emitPtx(module, options));
  }

  std::string saxpyPtx(const std::string& arch,
                       KernelMarking marking = KernelMarking::Annotation) {
    llvm::LLVMContext context;
    auto module = backend::samples::buildSaxpyModule(context, marking);
    CodegenOptions options;
    options.arch = arch;
    return emit(*module, options);
  }

  std::string unaryPtx(std::string_view function, CodegenOptions options = {}) {
    llvm::LLVMContext context;
    auto module = backend::samples::buildUnaryModule(context, function);
    return emit(*module, options);
  }

  static backend::NvJitLink loadNvJitLink() {
    auto library = backend::NvJitLink::load();
    if (!library) {
      ADD_FAILURE() << llvm::toString(library.takeError());
      std::abort();
    }
    return std::move(*library);
  }

  static llvm::Expected<backend::LinkResult> link(const backend::NvJitLink& library,
                                                  std::string_view ptx,
                                                  const std::string& arch) {
    backend::LinkOptions options;
    options.arch = arch;
    backend::LinkInput input{backend::LinkInputKind::Ptx, ptx, "test.ptx"};
    return backend::linkCubin(library, {&input, 1}, options);
  }
};

TEST_F(BackendTest, EmitsSaxpyEntryForSm80AndSm90) {
  for (const char* arch : {"sm_80", "sm_90"}) {
    for (KernelMarking marking : {KernelMarking::Annotation, KernelMarking::CallingConvention}) {
      SCOPED_TRACE(arch);
      std::string ptx = saxpyPtx(arch, marking);
      EXPECT_TRUE(contains(ptx, ".version 8.5")) << ptx;
      EXPECT_TRUE(contains(ptx, std::string(".target ") + arch)) << ptx;
      EXPECT_TRUE(contains(ptx, ".address_size 64")) << ptx;
      EXPECT_TRUE(contains(ptx, ".visible .entry " + std::string(kSaxpySymbol) + "(")) << ptx;
      // `contract` on the multiply-add.
      EXPECT_TRUE(contains(ptx, "fma.rn.f32")) << ptx;
      // Kernel pointer parameters become global-space accesses.
      EXPECT_TRUE(contains(ptx, "ld.global")) << ptx;
    }
  }
}

TEST_F(BackendTest, MaxRegistersBecomesMaxnreg) {
  llvm::LLVMContext context;
  auto module = backend::samples::buildSaxpyModule(context);
  CodegenOptions options;
  options.maxRegisters = 32;
  EXPECT_TRUE(contains(emit(*module, options), ".maxnreg 32"));
}

// Gives every instruction of the saxpy kernel a line in "saxpy.py", as
// lowering does for Python lines, with a line-tables-only compile unit.
void addLineTables(llvm::Module& module, llvm::DICompileUnit::DebugEmissionKind kind) {
  llvm::DIBuilder builder(module);
  llvm::DIFile* file = builder.createFile("saxpy.py", "/src");
  llvm::DICompileUnit* unit =
      builder.createCompileUnit(llvm::dwarf::DW_LANG_Python, file, "pykc", true, "", 0, "",
                                kind);
  llvm::Function* kernel = module.getFunction(kSaxpySymbol);
  llvm::DISubprogram* program = builder.createFunction(
      unit, "saxpy", kSaxpySymbol, file, 3,
      builder.createSubroutineType(builder.getOrCreateTypeArray({})), 3,
      llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
  kernel->setSubprogram(program);
  unsigned line = 4;
  for (llvm::BasicBlock& block : *kernel) {
    for (llvm::Instruction& instruction : block) {
      instruction.setDebugLoc(llvm::DILocation::get(module.getContext(), line, 5, program));
    }
    ++line;
  }
  builder.finalize();
  module.addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                       llvm::DEBUG_METADATA_VERSION);
}

TEST_F(BackendTest, LineInfoKeepsLocationsOnly) {
  backend::NvJitLink library = loadNvJitLink();
  for (auto kind : {llvm::DICompileUnit::LineTablesOnly, llvm::DICompileUnit::DebugDirectivesOnly,
                    llvm::DICompileUnit::FullDebug}) {
    SCOPED_TRACE(static_cast<int>(kind));
    for (bool lineInfo : {false, true}) {
      llvm::LLVMContext context;
      auto module = backend::samples::buildSaxpyModule(context);
      addLineTables(*module, kind);
      CodegenOptions options;
      options.lineInfo = lineInfo;
      std::string ptx = emit(*module, options);
      EXPECT_EQ(contains(ptx, ".loc"), lineInfo) << ptx;
      EXPECT_EQ(contains(ptx, "saxpy.py"), lineInfo) << ptx;
      backend::LinkOptions linkOptions;
      linkOptions.lineInfo = lineInfo;
      backend::LinkInput input{backend::LinkInputKind::Ptx, ptx, "saxpy.ptx"};
      auto linked = backend::linkCubin(library, {&input, 1}, linkOptions);
      EXPECT_TRUE(static_cast<bool>(linked)) << (linked ? "" : llvm::toString(linked.takeError()));
      if (lineInfo) {
        std::printf("kind %d: debug sections in PTX: %s, cubin %zu bytes\n", static_cast<int>(kind),
                    contains(ptx, ".section\t.debug_info") ? "yes" : "no",
                    linked ? linked->cubin.size() : 0);
      }
    }
  }
}

TEST_F(BackendTest, DebugKeepsDwarfAndLinksWithG) {
  backend::NvJitLink library = loadNvJitLink();
  llvm::LLVMContext context;
  auto module = backend::samples::buildSaxpyModule(context);
  addLineTables(*module, llvm::DICompileUnit::FullDebug);
  CodegenOptions options;
  options.debug = true;
  std::string ptx = emit(*module, options);
  EXPECT_TRUE(contains(ptx, ".debug_info")) << ptx;
  backend::LinkOptions linkOptions;
  linkOptions.debug = true;
  backend::LinkInput input{backend::LinkInputKind::Ptx, ptx, "saxpy.ptx"};
  auto linked = backend::linkCubin(library, {&input, 1}, linkOptions);
  EXPECT_TRUE(static_cast<bool>(linked)) << (linked ? "" : llvm::toString(linked.takeError()));
}

TEST_F(BackendTest, OutputIsDeterministic) {
  std::string first = saxpyPtx("sm_90");
  std::string second = saxpyPtx("sm_90");
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first, second);
  // libdevice too.
  EXPECT_EQ(unaryPtx("__nv_expf"), unaryPtx("__nv_expf"));
  backend::NvJitLink library = loadNvJitLink();
  auto cubin1 = take(link(library, first, "sm_90"));
  auto cubin2 = take(link(library, second, "sm_90"));
  ASSERT_FALSE(cubin1.cubin.empty());
  EXPECT_EQ(cubin1.cubin, cubin2.cubin);
}

TEST_F(BackendTest, SqrtIsCorrectlyRoundedUnlessFastMath) {
  // libdevice's __nv_sqrtf asks __nvvm_reflect("__CUDA_PREC_SQRT"), which
  // LLVM 19's NVVMReflect would answer 0.
  std::string precise = unaryPtx("__nv_sqrtf");
  EXPECT_TRUE(contains(precise, "sqrt.rn.f32")) << precise;
  EXPECT_FALSE(contains(precise, "sqrt.approx")) << precise;
  EXPECT_FALSE(contains(precise, "__nv_")) << precise;

  CodegenOptions fast;
  fast.fastMath = true;
  std::string approximate = unaryPtx("__nv_sqrtf", fast);
  EXPECT_TRUE(contains(approximate, "sqrt.approx.ftz.f32")) << approximate;

  CodegenOptions ftz;
  ftz.ftz = true;
  std::string flushed = unaryPtx("__nv_sqrtf", ftz);
  EXPECT_TRUE(contains(flushed, "sqrt.rn.ftz.f32")) << flushed;

  // The LLVM intrinsic follows the same options.
  EXPECT_TRUE(contains(unaryPtx("llvm.sqrt.f32"), "sqrt.rn.f32"));
  EXPECT_TRUE(contains(unaryPtx("llvm.sqrt.f32", fast), "sqrt.approx"));
}

TEST_F(BackendTest, LibdeviceIsLinkedLazilyAndOnlyWhatIsCalled) {
  llvm::LLVMContext context;
  auto module = backend::samples::buildUnaryModule(context, "__nv_expf");
  auto machine = take(backend::createTargetMachine(CodegenOptions{}));
  ASSERT_NE(machine, nullptr);
  module->setDataLayout(machine->createDataLayout());
  auto start = std::chrono::steady_clock::now();
  unsigned declared = take(backend::linkLibdevice(*module, PYKC_TEST_LIBDEVICE));
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("linkLibdevice(__nv_expf): %.2f ms\n", ms);
  EXPECT_EQ(declared, 1u);
  llvm::Function* expf = module->getFunction("__nv_expf");
  ASSERT_NE(expf, nullptr);
  EXPECT_FALSE(expf->isDeclaration());
  // libdevice has hundreds of functions; only __nv_expf (and the intrinsics
  // and reflect it calls) came over.
  unsigned defined = 0;
  for (const llvm::Function& function : *module) {
    defined += function.isDeclaration() ? 0 : 1;
  }
  EXPECT_EQ(defined, 2u);  // the kernel and __nv_expf
  EXPECT_EQ(module->getFunction("__nv_logf"), nullptr);

  std::string ptx = unaryPtx("__nv_expf");
  EXPECT_TRUE(contains(ptx, "ex2.approx")) << ptx;
  EXPECT_FALSE(contains(ptx, ".func")) << ptx;

  // No libdevice call: the file is not even opened.
  auto saxpy = backend::samples::buildSaxpyModule(context);
  EXPECT_EQ(take(backend::linkLibdevice(*saxpy, "/nonexistent/libdevice.bc")), 0u);
  // A call that needs it, with a bad path: a clear error.
  auto unary = backend::samples::buildUnaryModule(context, "__nv_expf");
  EXPECT_TRUE(contains(errorText(backend::linkLibdevice(*unary, "/nonexistent/libdevice.bc")),
                       "cannot read libdevice `/nonexistent/libdevice.bc`"));
  auto missing = backend::samples::buildUnaryModule(context, "__nv_no_such_function");
  EXPECT_TRUE(contains(errorText(backend::linkLibdevice(*missing, PYKC_TEST_LIBDEVICE)),
                       "no function `__nv_no_such_function`"));
}

TEST_F(BackendTest, ResolvesNvvmReflect) {
  llvm::LLVMContext context;
  llvm::Module module("reflect", context);
  llvm::IRBuilder<> builder(context);
  auto* reflectType = llvm::FunctionType::get(builder.getInt32Ty(),
                                              {llvm::PointerType::get(context, 0)}, false);
  llvm::FunctionCallee reflect = module.getOrInsertFunction("__nvvm_reflect", reflectType);
  const char* names[] = {"__CUDA_FTZ", "__CUDA_PREC_DIV", "__CUDA_PREC_SQRT", "__CUDA_ARCH",
                         "__SOMETHING_ELSE"};
  for (const char* name : names) {
    auto* function = llvm::Function::Create(llvm::FunctionType::get(builder.getInt32Ty(), false),
                                            llvm::GlobalValue::ExternalLinkage,
                                            std::string("ask") + name, module);
    builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", function));
    // As libdevice has it: a constant-space string, cast to generic.
    auto* text = llvm::ConstantDataArray::getString(context, name);
    auto* global = new llvm::GlobalVariable(module, text->getType(), true,
                                            llvm::GlobalValue::PrivateLinkage, text, "", nullptr,
                                            llvm::GlobalValue::NotThreadLocal, 4);
    builder.CreateRet(builder.CreateCall(
        reflect, {builder.CreateAddrSpaceCast(global, llvm::PointerType::get(context, 0))}));
  }
  auto answers = [&](const CodegenOptions& options) {
    auto copy = llvm::CloneModule(module);
    EXPECT_EQ(take(backend::resolveNvvmReflect(*copy, options)), 5u);
    EXPECT_EQ(copy->getFunction("__nvvm_reflect"), nullptr);
    std::vector<uint64_t> values;
    for (const char* name : names) {
      auto* ret = llvm::cast<llvm::ReturnInst>(
          copy->getFunction(std::string("ask") + name)->getEntryBlock().getTerminator());
      auto* value = llvm::dyn_cast<llvm::ConstantInt>(ret->getReturnValue());
      values.push_back(value != nullptr ? value->getZExtValue() : 999);
    }
    return values;
  };
  CodegenOptions precise;
  precise.arch = "sm_80";
  EXPECT_EQ(answers(precise), (std::vector<uint64_t>{0, 1, 1, 800, 0}));
  CodegenOptions fast;
  fast.arch = "sm_90a";
  fast.fastMath = true;
  EXPECT_EQ(answers(fast), (std::vector<uint64_t>{1, 0, 0, 900, 0}));
  CodegenOptions ftz;
  ftz.ftz = true;
  EXPECT_EQ(answers(ftz), (std::vector<uint64_t>{1, 1, 1, 900, 0}));
}

TEST_F(BackendTest, UnsupportedArchIsAnError) {
  for (const char* arch : {"sm_70", "sm_99", "sm_122", "compute_70", ""}) {
    SCOPED_TRACE(arch);
    llvm::LLVMContext context;
    auto module = backend::samples::buildSaxpyModule(context);
    CodegenOptions options;
    options.arch = arch;
    std::string message = errorText(backend::emitPtx(*module, options));
    EXPECT_TRUE(contains(message, std::string("unsupported GPU architecture `") + arch + "`"))
        << message;
    EXPECT_TRUE(contains(message, "sm_75, sm_80, sm_86, sm_87, sm_88, sm_89, sm_90, sm_90a, sm_100,"))
        << message;
  }
  EXPECT_EQ(take(backend::smVersion("sm_90a")), 90u);
  EXPECT_EQ(support::knownArchs().front().name, "sm_75");
  // compute_100 is an arch nvJitLink knows, whose PTX LLVM 19 cannot write: the
  // message names the target to use instead.
  std::string message = errorText(backend::smVersion("compute_100"));
  EXPECT_TRUE(contains(message, "`compute_100` PTX is newer than LLVM 19 writes")) << message;
  EXPECT_TRUE(contains(message, "`compute_90` PTX runs on sm_100")) << message;
}

// Arches newer than LLVM 19's NVPTX target: sm_90 PTX (never sm_90a's), which
// nvJitLink links into a cubin for the real arch.
TEST_F(BackendTest, BlackwellArchesGetSm90PtxAndTheirOwnCubin) {
  backend::NvJitLink library = loadNvJitLink();
  for (const char* arch : {"sm_100", "sm_100a", "sm_100f", "sm_103", "sm_110", "sm_120", "sm_121f"}) {
    SCOPED_TRACE(arch);
    EXPECT_EQ(take(backend::smVersion(arch)), 90u);
    EXPECT_EQ(take(backend::ptxTarget(arch)), "sm_90");
    std::string ptx = saxpyPtx(arch);
    EXPECT_TRUE(contains(ptx, ".target sm_90\n")) << ptx.substr(0, 300);
    auto linked = take(link(library, ptx, arch));
    auto resources = take(backend::readCubinResources(linked.cubin));
    EXPECT_EQ(resources.count(std::string(kSaxpySymbol)), 1u);
  }
  EXPECT_EQ(take(backend::ptxTarget("sm_88")), "sm_87");
  EXPECT_EQ(take(backend::ptxTarget("compute_90a")), "sm_90a");
  EXPECT_TRUE(contains(saxpyPtx("compute_89"), ".target sm_89\n"));
}

TEST_F(BackendTest, InvalidModuleIsAnError) {
  llvm::LLVMContext context;
  auto module = backend::samples::buildSaxpyModule(context);
  // A block without a terminator.
  llvm::Function* kernel = module->getFunction(kSaxpySymbol);
  llvm::BasicBlock::Create(context, "dangling", kernel);
  std::string message = errorText(backend::emitPtx(*module, CodegenOptions{}));
  EXPECT_TRUE(contains(message, "invalid LLVM module")) << message;
}

TEST_F(BackendTest, LinksSaxpyAndReadsItsResources) {
  backend::NvJitLink library = loadNvJitLink();
  auto version = take(backend::nvJitLinkVersion(library));
  EXPECT_GE(version.first, 13);
  for (const char* arch : {"sm_80", "sm_90"}) {
    SCOPED_TRACE(arch);
    std::string ptx = saxpyPtx(arch);
    auto start = std::chrono::steady_clock::now();
    auto linked = take(link(library, ptx, arch));
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("linkCubin(saxpy, %s): %.2f ms\n", arch, ms);
    ASSERT_GT(linked.cubin.size(), 4u);
    EXPECT_EQ(linked.cubin.substr(0, 4), "\x7f" "ELF");
    EXPECT_TRUE(contains(linked.infoLog, kSaxpySymbol)) << linked.infoLog;

    auto fromElf = take(backend::readCubinResources(linked.cubin));
    ASSERT_EQ(fromElf.count(std::string(kSaxpySymbol)), 1u);
    const backend::KernelResources& elf = fromElf[std::string(kSaxpySymbol)];
    EXPECT_GT(elf.registers, 0u);
    EXPECT_LE(elf.registers, 64u);
    EXPECT_EQ(elf.maxThreadsPerBlock, 1024u);
    EXPECT_EQ(elf.localBytes, 0u);
    EXPECT_EQ(elf.staticSharedBytes, 0u);
    // float a (padded to 8) + three arrays of (pointer, shape, stride).
    EXPECT_EQ(elf.paramBytes, 80u);
    EXPECT_GT(elf.constBytes, elf.paramBytes);

    auto fromLog = backend::parseLinkInfoLog(linked.infoLog);
    ASSERT_EQ(fromLog.count(std::string(kSaxpySymbol)), 1u) << linked.infoLog;
    const backend::KernelResources& logged = fromLog[std::string(kSaxpySymbol)];
    EXPECT_EQ(logged.registers, elf.registers) << linked.infoLog;
    EXPECT_EQ(logged.spillStores, 0u);
    EXPECT_EQ(logged.spillLoads, 0u);
    if (logged.constBytes != 0) {
      EXPECT_EQ(logged.constBytes, elf.constBytes) << linked.infoLog;
    }

    auto merged = take(backend::readCubinResources(linked.cubin, linked.infoLog));
    EXPECT_EQ(merged[std::string(kSaxpySymbol)].registers, elf.registers);
  }
}

TEST_F(BackendTest, Sm90PtxLinksForNewerGpus) {
  backend::NvJitLink library = loadNvJitLink();
  std::string ptx = saxpyPtx("sm_90");
  for (const char* arch : {"sm_100", "sm_120"}) {
    SCOPED_TRACE(arch);
    auto linked = take(link(library, ptx, arch));
    EXPECT_FALSE(linked.cubin.empty());
  }
}

TEST_F(BackendTest, StaticSharedMemoryMatchesPtxas) {
  // Stages x through a 25-float shared array: 100 bytes, which ptxas reports
  // without the per-block reservation that sm_90 cubins include.
  for (const char* arch : {"sm_75", "sm_80", "sm_90"}) {
    SCOPED_TRACE(arch);
    llvm::LLVMContext context;
    auto module = backend::samples::buildSaxpyModule(context);
    auto* arrayType = llvm::ArrayType::get(llvm::Type::getFloatTy(context), 25);
    auto* shared = new llvm::GlobalVariable(
        *module, arrayType, false, llvm::GlobalValue::InternalLinkage,
        llvm::UndefValue::get(arrayType), "stage", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
    llvm::Function* kernel = module->getFunction(kSaxpySymbol);
    llvm::IRBuilder<> builder(&*kernel->getEntryBlock().getFirstInsertionPt());
    llvm::Value* tid = builder.CreateCall(llvm::Intrinsic::getDeclaration(
        module.get(), llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x));
    llvm::Value* slot = builder.CreateInBoundsGEP(arrayType, shared, {builder.getInt32(0), tid});
    builder.CreateStore(kernel->getArg(0), slot);
    builder.CreateCall(
        llvm::Intrinsic::getDeclaration(module.get(), llvm::Intrinsic::nvvm_barrier0));
    llvm::Value* other = builder.CreateInBoundsGEP(
        arrayType, shared, {builder.getInt32(0), builder.CreateXor(tid, builder.getInt32(1))});
    builder.CreateStore(builder.CreateLoad(builder.getFloatTy(), other), slot);
    CodegenOptions options;
    options.arch = arch;
    std::string ptx = emit(*module, options);
    backend::NvJitLink library = loadNvJitLink();
    auto linked = take(link(library, ptx, arch));
    auto fromLog = backend::parseLinkInfoLog(linked.infoLog);
    EXPECT_EQ(fromLog[std::string(kSaxpySymbol)].staticSharedBytes, 100u) << linked.infoLog;
    auto fromElf = take(backend::readCubinResources(linked.cubin));
    EXPECT_EQ(fromElf[std::string(kSaxpySymbol)].staticSharedBytes, 100u);
  }
}

TEST_F(BackendTest, BadPtxFailsWithNvJitLinksLog) {
  backend::NvJitLink library = loadNvJitLink();
  // No trailing NUL in the view: linkCubin must add one.
  std::string_view ptx =
      ".version 8.5\n.target sm_90\n.address_size 64\n"
      ".visible .entry broken()\n{\n  frobnicate.u32 %r1;\n  ret;\n}\n";
  auto linked = link(library, ptx, "sm_90");
  ASSERT_FALSE(linked);
  std::string log;
  std::string call;
  llvm::handleAllErrors(linked.takeError(), [&](const backend::NvJitLinkError& error) {
    log = error.errorLog();
    call = error.call();
    EXPECT_TRUE(contains(error.message(), "nvJitLink failed for sm_90")) << error.message();
  });
  EXPECT_FALSE(log.empty());
  EXPECT_TRUE(contains(log, "frobnicate") || contains(log, "syntax error")) << log;
  EXPECT_FALSE(call.empty());
}

TEST_F(BackendTest, LoadingAMissingLibraryIsAnError) {
  std::string message = errorText(backend::NvJitLink::load("/nonexistent/libnvJitLink.so.13"));
  EXPECT_TRUE(contains(message, "cannot load nvJitLink")) << message;
  EXPECT_TRUE(contains(message, "/nonexistent/libnvJitLink.so.13")) << message;
}

TEST(LinkOptions, MapToNvJitLinkFlags) {
  backend::LinkOptions options;
  options.arch = "sm_80";
  options.maxRegisters = 64;
  options.lineInfo = true;
  options.optLevel = 0;
  options.lto = true;
  options.fastMath = true;
  options.splitCompile = 8;
  EXPECT_EQ(backend::linkOptionStrings(options),
            (std::vector<std::string>{"-arch=sm_80", "-O0", "-maxrregcount=64", "-lineinfo",
                                      "-verbose", "-Xptxas=--split-compile=8", "-lto", "-ftz=1",
                                      "-prec-div=0", "-prec-sqrt=0", "-fma=1"}));
  options.splitCompile = 1;
  options.lto = false;
  EXPECT_EQ(backend::linkOptionStrings(options),
            (std::vector<std::string>{"-arch=sm_80", "-O0", "-maxrregcount=64", "-lineinfo",
                                      "-verbose"}));
}

TEST(Resources, ParsesPtxasVerboseLog) {
  const char* log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Function properties for helper\n"
      "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
      "ptxas info    : Function properties for k\n"
      "    40 bytes stack frame, 12 bytes spill stores, 16 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 1024 bytes smem, 384 bytes "
      "cmem[0]\n"
      "ptxas info    : Compiling entry function 'k2' for 'sm_80'\n"
      "ptxas info    : Function properties for k2\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, used 0 barriers\n";
  auto parsed = backend::parseLinkInfoLog(log);
  ASSERT_EQ(parsed.size(), 2u);
  const backend::KernelResources& k = parsed["k"];
  EXPECT_EQ(k.registers, 255u);
  EXPECT_EQ(k.localBytes, 40u);
  EXPECT_EQ(k.spillStores, 12u);
  EXPECT_EQ(k.spillLoads, 16u);
  EXPECT_EQ(k.staticSharedBytes, 1024u);
  EXPECT_EQ(k.constBytes, 384u);
  EXPECT_EQ(parsed["k2"].registers, 8u);
  EXPECT_EQ(parsed["k2"].staticSharedBytes, 0u);
}

TEST(Resources, RejectsWhatIsNotACubin) {
  EXPECT_FALSE(errorText(backend::readCubinResources("not an ELF file")).empty());
}

TEST(Resources, RegisterLimitedBlockSize) {
  EXPECT_EQ(backend::maxThreadsForRegisters(0), 1024u);
  EXPECT_EQ(backend::maxThreadsForRegisters(32), 1024u);
  EXPECT_EQ(backend::maxThreadsForRegisters(64), 1024u);
  EXPECT_EQ(backend::maxThreadsForRegisters(72), 896u);
  EXPECT_EQ(backend::maxThreadsForRegisters(128), 512u);
  EXPECT_EQ(backend::maxThreadsForRegisters(255), 256u);
}

TEST(Resources, TheoreticalOccupancy) {
  backend::KernelResources light;
  light.registers = 32;
  auto full = take(backend::computeOccupancy("sm_90", light, 256));
  EXPECT_EQ(full.activeWarpsPerSm, 64u);
  EXPECT_DOUBLE_EQ(full.occupancy, 1.0);

  backend::KernelResources heavy;
  heavy.registers = 64;
  auto half = take(backend::computeOccupancy("sm_90", heavy, 256));
  EXPECT_EQ(half.activeBlocksPerSm, 4u);
  EXPECT_DOUBLE_EQ(half.occupancy, 0.5);
  EXPECT_EQ(half.limiter, backend::OccupancyLimiter::Registers);

  // sm_86: 48 warps per SM at most.
  auto ampere = take(backend::computeOccupancy("sm_86", light, 256));
  EXPECT_EQ(ampere.maxWarpsPerSm, 48u);
  EXPECT_EQ(ampere.activeWarpsPerSm, 48u);

  // 48 KiB + 1 KiB reserved per block: 4 blocks in sm_90's 228 KiB.
  backend::KernelResources shared;
  shared.registers = 32;
  shared.staticSharedBytes = 48 * 1024;
  auto bySmem = take(backend::computeOccupancy("sm_90", shared, 256));
  EXPECT_EQ(bySmem.activeBlocksPerSm, 4u);
  EXPECT_EQ(bySmem.limiter, backend::OccupancyLimiter::SharedMemory);

  // Small blocks hit the blocks-per-SM limit (16 on sm_75).
  auto tiny = take(backend::computeOccupancy("sm_75", light, 32));
  EXPECT_EQ(tiny.activeBlocksPerSm, 16u);
  EXPECT_EQ(tiny.limiter, backend::OccupancyLimiter::Blocks);

  EXPECT_FALSE(errorText(backend::computeOccupancy("sm_70", light, 256)).empty());
  EXPECT_FALSE(errorText(backend::computeOccupancy("sm_90", light, 0)).empty());
  backend::KernelResources limited = light;
  limited.maxThreadsPerBlock = 256;
  EXPECT_FALSE(errorText(backend::computeOccupancy("sm_90", limited, 512)).empty());
}

// One part of a partitioned file (driver/pipeline.h): a kernel `name` calling
// an internal, never inlined helper that reads an internal global table, and
// printf's `vprintf` (declared by every part).
std::unique_ptr<llvm::Module> partModule(llvm::LLVMContext& context, const std::string& name) {
  std::string text = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@table = internal addrspace(1) global [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0]
declare i32 @vprintf(ptr, ptr)
define internal float @helper(float %x, i64 %i) noinline {
  %p = getelementptr [4 x float], ptr addrspace(1) @table, i64 0, i64 %i
  %v = load float, ptr addrspace(1) %p
  %r = fmul float %x, %v
  ret float %r
}
define ptx_kernel void @)" + name + R"((ptr %out, float %x, i64 %i) {
  %r = call float @helper(float %x, i64 %i)
  store float %r, ptr %out
  %n = call i32 @vprintf(ptr null, ptr null)
  ret void
}
)";
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(text, error, context);
  if (!module) ADD_FAILURE() << error.getMessage().str();
  return module;
}

size_t countOf(std::string_view text, std::string_view part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string_view::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST_F(BackendTest, PartsRenameLocalDefinitionsAndMergeIntoOneLinkableModule) {
  std::vector<std::string> parts;
  for (int p = 0; p < 2; ++p) {
    llvm::LLVMContext context;
    auto module = partModule(context, "kernel" + std::to_string(p));
    ASSERT_TRUE(module);
    parts.push_back(take(backend::emitPtxPart(*module, CodegenOptions{}, "$p" + std::to_string(p))));
  }
  for (int p = 0; p < 2; ++p) {
    std::string suffix = "$p" + std::to_string(p);
    EXPECT_TRUE(contains(parts[p], "helper" + suffix)) << parts[p];
    EXPECT_TRUE(contains(parts[p], "table" + suffix)) << parts[p];
    // Kernels keep their names; declarations are not renamed.
    EXPECT_TRUE(contains(parts[p], ".entry kernel" + std::to_string(p) + "(")) << parts[p];
    EXPECT_TRUE(contains(parts[p], ".extern .func  (.param .b32 func_retval0) vprintf\n"))
        << parts[p];
  }
  std::string merged = take(backend::mergePtx(parts));
  EXPECT_EQ(countOf(merged, ".version"), 1u) << merged;
  EXPECT_EQ(countOf(merged, ".extern .func"), 1u) << merged;
  EXPECT_EQ(countOf(merged, ".entry kernel0("), 1u) << merged;
  EXPECT_EQ(countOf(merged, ".entry kernel1("), 1u) << merged;
  EXPECT_TRUE(contains(merged, "helper$p0") && contains(merged, "helper$p1")) << merged;
  // Deterministic, and one module ptxas accepts.
  EXPECT_EQ(merged, take(backend::mergePtx(parts)));
  backend::NvJitLink library = loadNvJitLink();
  auto linked = link(library, merged, "sm_90");
  ASSERT_TRUE(static_cast<bool>(linked)) << llvm::toString(linked.takeError());
  EXPECT_FALSE(linked->cubin.empty());
}

TEST_F(BackendTest, EmitPtxPartWithoutSuffixIsEmitPtx) {
  llvm::LLVMContext context;
  auto a = partModule(context, "k");
  auto b = partModule(context, "k");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(emit(*a, CodegenOptions{}), take(backend::emitPtxPart(*b, CodegenOptions{}, "")));
}

TEST(MergePtx, RejectsPartsWithoutOrWithAnotherHeader) {
  std::string sm90 = "//\n.version 8.5\n.target sm_90\n.address_size 64\n\n.visible .entry a()\n{\n\tret;\n}\n";
  std::string sm80 = "//\n.version 8.5\n.target sm_80\n.address_size 64\n\n.visible .entry b()\n{\n\tret;\n}\n";
  std::vector<std::string> mixed{sm90, sm80};
  EXPECT_TRUE(contains(errorText(backend::mergePtx(mixed)), "PTX part 1 was emitted for other options"));
  std::vector<std::string> headless{sm90, ".visible .entry c()\n{\n\tret;\n}\n"};
  EXPECT_TRUE(contains(errorText(backend::mergePtx(headless)), "PTX part 1 has no `.address_size` header"));
  std::vector<std::string> one{sm90};
  EXPECT_EQ(take(backend::mergePtx(one)), sm90);
}

TEST_F(BackendTest, WithMinCtasPerSmSetsReplacesAndRemovesTheHintOfOneEntry) {
  std::string ptx = ".version 8.5\n.target sm_90\n.address_size 64\n\n"
                    ".visible .entry a(\n\t.param .u64 a_param_0\n)\n.maxntid 128, 1, 1\n{\n\tret;\n}\n"
                    ".visible .entry b()\n.maxntid 64, 1, 1\n{\n\tret;\n}\n"
                    ".visible .entry c()\n{\n\tret;\n}\n";
  std::string hinted = backend::withMinCtasPerSm(ptx, "a", 12);
  EXPECT_EQ(hinted, ".version 8.5\n.target sm_90\n.address_size 64\n\n"
                    ".visible .entry a(\n\t.param .u64 a_param_0\n)\n.maxntid 128, 1, 1\n.minnctapersm 12\n{\n\tret;\n}\n"
                    ".visible .entry b()\n.maxntid 64, 1, 1\n{\n\tret;\n}\n"
                    ".visible .entry c()\n{\n\tret;\n}\n");
  EXPECT_TRUE(contains(backend::withMinCtasPerSm(hinted, "a", 3), ".maxntid 128, 1, 1\n.minnctapersm 3\n{"));
  EXPECT_EQ(backend::withMinCtasPerSm(hinted, "a", 0), ptx);
  // The hint goes to the named entry only; no `.maxntid` or no entry: unchanged.
  EXPECT_TRUE(contains(backend::withMinCtasPerSm(ptx, "b", 24), ".maxntid 64, 1, 1\n.minnctapersm 24\n{"));
  EXPECT_EQ(backend::withMinCtasPerSm(ptx, "c", 4), ptx);
  EXPECT_EQ(backend::withMinCtasPerSm(ptx, "d", 4), ptx);
  // ptxas takes it: 12 CTAs of 128 threads leave 40 registers a thread.
  backend::NvJitLink library = loadNvJitLink();
  auto linked = link(library, hinted, "sm_90");
  ASSERT_TRUE(static_cast<bool>(linked)) << llvm::toString(linked.takeError());
}

TEST_F(BackendTest, RegisterBudgetsHintTheirEntriesAndLinkOnceWithoutSpills) {
  std::string ptx = ".version 8.5\n.target sm_90\n.address_size 64\n\n"
                    ".visible .entry a()\n.maxntid 128, 1, 1\n{\n\tret;\n}\n"
                    ".visible .entry b()\n.maxntid 64, 1, 1\n{\n\tret;\n}\n";
  // 65536 / (128 threads * 32 registers) = 16 CTAs; a budget of none and one
  // without threads leave their entries alone.
  std::vector<backend::RegisterBudget> budgets{{"a", 128, 32}, {"b", 64, 0}, {"b", 0, 32}};
  std::string hinted = backend::applyRegisterBudgets(ptx, budgets);
  EXPECT_EQ(hinted, backend::withMinCtasPerSm(ptx, "a", 16));
  backend::NvJitLink library = loadNvJitLink();
  std::vector<backend::LinkInput> inputs(1);
  inputs[0].bytes = hinted;
  inputs[0].name = "budgets";
  backend::LinkOptions options;
  options.arch = "sm_90";
  options.verbose = true;
  auto linked = backend::linkWithRegisterBudgets(library, inputs, options, budgets, 40);
  ASSERT_TRUE(static_cast<bool>(linked)) << llvm::toString(linked.takeError());
  // Nothing spilled: the PTX is the one first asked for, and both entries are read.
  EXPECT_EQ(linked->ptx, hinted);
  EXPECT_FALSE(linked->cubin.empty());
  EXPECT_EQ(linked->resources.count("a"), 1u);
  EXPECT_EQ(linked->resources.count("b"), 1u);
}

// An entry holding `values` floats at once (volatile loads, then volatile
// stores: ptxas may not interleave them), so it spills under small budgets.
std::string registerHungryPtx(int values) {
  std::string body;
  body += ".visible .entry hungry(\n\t.param .u64 hungry_param_0\n)\n.maxntid 128, 1, 1\n{\n";
  body += "\t.reg .f32 %f<" + std::to_string(values) + ">;\n\t.reg .b64 %rd<2>;\n";
  body += "\tld.param.u64 %rd0, [hungry_param_0];\n\tcvta.to.global.u64 %rd1, %rd0;\n";
  for (int i = 0; i < values; ++i)
    body += "\tld.volatile.global.f32 %f" + std::to_string(i) + ", [%rd1+" + std::to_string(4 * i) + "];\n";
  for (int i = 0; i < values; ++i)
    body += "\tst.volatile.global.f32 [%rd1+" + std::to_string(4 * (values - 1 - i)) + "], %f" +
            std::to_string(i) + ";\n";
  return ".version 8.5\n.target sm_90\n.address_size 64\n\n" + body + "\tret;\n}\n";
}

TEST_F(BackendTest, RegisterBudgetsRelaxWhereTheKernelSpillsAndGuessesDoNotChangeTheOutput) {
  // 64 live floats spill under 32 registers by more than 40's extra 32 bytes:
  // the policy drops the budget. Links of its guesses on spare threads must give
  // the same PTX and cubin as the sequential policy.
  std::string ptx = registerHungryPtx(64);
  std::vector<backend::RegisterBudget> budgets{{"hungry", 128, 32}};
  std::string hinted = backend::applyRegisterBudgets(ptx, budgets);
  backend::NvJitLink library = loadNvJitLink();
  std::vector<backend::LinkInput> inputs(1);
  inputs[0].bytes = hinted;
  inputs[0].name = "hungry";
  backend::LinkOptions options;
  options.arch = "sm_90";
  options.verbose = true;
  auto sequential = backend::linkWithRegisterBudgets(library, inputs, options, budgets, 40, 0);
  ASSERT_TRUE(static_cast<bool>(sequential)) << llvm::toString(sequential.takeError());
  EXPECT_EQ(sequential->ptx, ptx);  // no budget left
  EXPECT_EQ(sequential->resources.at("hungry").spillStores, 0u);
  for (unsigned spare : {1u, 2u}) {
    auto guessed = backend::linkWithRegisterBudgets(library, inputs, options, budgets, 40, spare);
    ASSERT_TRUE(static_cast<bool>(guessed)) << llvm::toString(guessed.takeError());
    EXPECT_EQ(guessed->ptx, sequential->ptx) << spare;
    EXPECT_EQ(guessed->cubin, sequential->cubin) << spare;
  }
  {
    // Guesses not taken finish in the background, after the call returned and
    // its inputs are gone; the pool waits for them.
    backend::BackgroundLinks background;
    for (int round = 0; round < 3; ++round) {
      std::string own = hinted;
      std::vector<backend::LinkInput> mine(1);
      mine[0].bytes = own;
      mine[0].name = "hungry";
      auto guessed = backend::linkWithRegisterBudgets(library, mine, options, budgets, 40, 2, &background);
      ASSERT_TRUE(static_cast<bool>(guessed)) << llvm::toString(guessed.takeError());
      own.assign(own.size(), 'x');
      EXPECT_EQ(guessed->cubin, sequential->cubin) << round;
    }
  }
  // A small kernel fits its budget: the guesses are linked and dropped.
  std::string small = backend::applyRegisterBudgets(registerHungryPtx(8), budgets);
  inputs[0].bytes = small;
  auto kept = backend::linkWithRegisterBudgets(library, inputs, options, budgets, 40, 2);
  ASSERT_TRUE(static_cast<bool>(kept)) << llvm::toString(kept.takeError());
  EXPECT_EQ(kept->ptx, small);
}

TEST_F(BackendTest, RegisterBudgetsKeepTheirToleratedSpills) {
  // A budget that tolerates the kernel's spills (a tensor-core product's two CTAs
  // per SM) is kept; one that tolerates fewer spilled bytes is dropped.
  std::string ptx = registerHungryPtx(64);
  backend::NvJitLink library = loadNvJitLink();
  backend::LinkOptions options;
  options.arch = "sm_90";
  options.verbose = true;
  std::vector<backend::LinkInput> inputs(1);
  inputs[0].name = "hungry";
  std::vector<backend::RegisterBudget> strict{{"hungry", 128, 32, 0}};
  std::string strictPtx = backend::applyRegisterBudgets(ptx, strict);  // (inputs hold views)
  inputs[0].bytes = strictPtx;
  auto dropped = backend::linkWithRegisterBudgets(library, inputs, options, strict, 40, 0);
  ASSERT_TRUE(static_cast<bool>(dropped)) << llvm::toString(dropped.takeError());
  EXPECT_EQ(dropped->ptx, ptx);
  std::vector<backend::RegisterBudget> tolerant{{"hungry", 128, 32, 1u << 20}};
  std::string hinted = backend::applyRegisterBudgets(ptx, tolerant);
  inputs[0].bytes = hinted;
  auto kept = backend::linkWithRegisterBudgets(library, inputs, options, tolerant, 40, 0);
  ASSERT_TRUE(static_cast<bool>(kept)) << llvm::toString(kept.takeError());
  EXPECT_EQ(kept->ptx, hinted);
  EXPECT_GT(kept->resources.at("hungry").spillStores, 0u);
}

TEST(MergePtx, KeepsOnlyTheFirstOfIdenticalExternDeclarations) {
  std::string header = ".version 8.5\n.target sm_90\n.address_size 64\n";
  std::string shared = ".extern .shared .align 16 .b8 pykc_dynamic_shared[];\n";
  std::string other = ".extern .shared .align 8 .b8 pykc_dynamic_shared[];\n";
  std::vector<std::string> parts{header + shared + "A\n", header + shared + other + "B\n"};
  EXPECT_EQ(take(backend::mergePtx(parts)), header + shared + "A\n" + other + "B\n");
}

}  // namespace
