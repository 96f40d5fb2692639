// libpykc's C ABI (include/pykc/pykc.h) over driver::compile. Nothing thrown
// crosses it: every entry point catches, and llvm::Error stays inside the
// driver. Only pykc_* symbols are exported (capi/CMakeLists.txt).
#include "pykc/pykc.h"

#include <nlohmann/json.hpp>

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "driver/driver.h"

struct pykc_session {
  std::unique_ptr<driver::Session> session;
};

struct pykc_result {
  driver::CompileResult result;
  std::string diagnosticsJson;
};

namespace {

std::vector<std::string> strings(const char* const* items, size_t count) {
  std::vector<std::string> out;
  for (size_t i = 0; items != nullptr && i < count; ++i) {
    if (items[i] != nullptr) out.emplace_back(items[i]);
  }
  return out;
}

nlohmann::ordered_json diagnosticJson(const frontend::Diagnostic& d) {
  const char* severity = d.severity == frontend::Severity::Error     ? "error"
                         : d.severity == frontend::Severity::Warning ? "warning"
                                                                     : "note";
  nlohmann::ordered_json j{{"severity", severity},
                           {"kind", std::string(frontend::kindName(d.kind))},
                           {"message", d.message},
                           {"path", d.path},
                           {"line", d.line},
                           {"column", d.column},
                           {"length", d.length},
                           {"source_line", d.lineText}};
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  for (const frontend::Diagnostic& n : d.notes) notes.push_back(diagnosticJson(n));
  j["notes"] = notes;
  return j;
}

// A result that holds only `pykc: error: message`, of class `exit`.
pykc_result* failure(driver::ExitClass exit, const std::string& message) {
  auto* r = new (std::nothrow) pykc_result;
  if (r == nullptr) return nullptr;
  r->result.exit = exit;
  r->result.errors.push_back(message);
  r->result.rendered = "pykc: error: " + message + "\n";
  r->diagnosticsJson = "[]";
  return r;
}

// What went wrong inside the library itself.
pykc_result* internalFailure(const char* what) {
  return failure(driver::ExitClass::Environment, std::string("internal failure: ") + what);
}

const driver::ArchOutput* archAt(const pykc_result* r, size_t index) {
  if (r == nullptr || index >= r->result.archs.size()) return nullptr;
  return &r->result.archs[index];
}

const driver::InstanceOutput* instanceAt(const pykc_result* r, size_t index) {
  if (r == nullptr || r->result.exit != driver::ExitClass::Ok ||
      index >= r->result.instances.size()) {
    return nullptr;
  }
  return &r->result.instances[index];
}

}  // namespace

extern "C" {

int pykc_api_version(void) { return PYKC_API_VERSION; }

const char* pykc_version(void) { return PYKC_VERSION; }

void pykc_session_options_init(pykc_session_options* options) {
  if (options == nullptr) return;
  *options = pykc_session_options{};
  options->struct_size = sizeof(pykc_session_options);
}

void pykc_compile_options_init(pykc_compile_options* options) {
  if (options == nullptr) return;
  *options = pykc_compile_options{};
  options->struct_size = sizeof(pykc_compile_options);
  options->opt_level = 3;
}

pykc_session* pykc_session_create(const pykc_session_options* options) {
  try {
    pykc_session_options defaults;
    pykc_session_options_init(&defaults);
    if (options == nullptr) options = &defaults;
    if (options->struct_size != sizeof(pykc_session_options)) return nullptr;
    driver::SessionSettings settings;
    if (options->cache_dir != nullptr) settings.cacheDir = options->cache_dir;
    settings.useCache = options->no_cache == 0;
    settings.threads = options->threads;
    if (options->libdevice_path != nullptr) settings.libdevicePath = options->libdevice_path;
    if (options->nvjitlink_path != nullptr) settings.nvJitLinkPath = options->nvjitlink_path;
    if (options->nvrtc_path != nullptr) settings.nvrtcPath = options->nvrtc_path;
    settings.codegen = [](const driver::CodegenSettings& codegen) -> llvm::Expected<std::unique_ptr<driver::Codegen>> {
      return driver::makeCodegen(codegen);
    };
    auto* s = new pykc_session;
    s->session = std::make_unique<driver::Session>(std::move(settings));
    return s;
  } catch (...) {
    return nullptr;
  }
}

void pykc_session_free(pykc_session* session) { delete session; }

int pykc_session_prepare(pykc_session* session, const char* arch) {
  if (session == nullptr || arch == nullptr) return 0;
  try {
    return session->session->prepare(arch) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

pykc_result* pykc_compile(pykc_session* session, const pykc_compile_options* options) {
  if (session == nullptr || options == nullptr) return nullptr;
  try {
    if (options->struct_size != sizeof(pykc_compile_options)) {
      return internalFailure("pykc_compile_options.struct_size does not match this library");
    }
    driver::CompileRequest request;
    if (options->path == nullptr) {
      return failure(driver::ExitClass::Usage, "pykc_compile_options.path is required");
    }
    request.path = options->path;
    if (options->source != nullptr) request.source.emplace(options->source, options->source_size);
    if (options->kernel != nullptr) request.kernels = {options->kernel};
    request.sigs = strings(options->sigs, options->num_sigs);
    request.consts = strings(options->consts, options->num_consts);
    std::vector<std::string> archs = strings(options->archs, options->num_archs);
    if (!archs.empty()) request.archs = std::move(archs);
    request.codegen.defines = strings(options->defines, options->num_defines);
    request.codegen.optLevel = options->opt_level;
    request.codegen.fastMath = options->fast_math != 0;
    request.codegen.lineInfo = options->lineinfo != 0;
    request.codegen.maxRegisters = options->max_registers;
    request.warnFloat64 = false;
    if (options->check_only != 0) request.stopAfter = driver::Stage::Check;
    auto r = std::make_unique<pykc_result>();
    r->result = driver::compile(request, *session->session);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const frontend::Diagnostic& d : r->result.diagnostics) list.push_back(diagnosticJson(d));
    for (const std::string& e : r->result.errors) {
      list.push_back({{"severity", "error"}, {"message", e}, {"path", ""}, {"line", 0},
                      {"column", 0}, {"length", 0}, {"notes", nlohmann::ordered_json::array()}});
    }
    r->diagnosticsJson = list.dump();
    return r.release();
  } catch (const std::exception& e) {
    return internalFailure(e.what());
  } catch (...) {
    return internalFailure("unknown exception");
  }
}

void pykc_result_free(pykc_result* result) { delete result; }

int pykc_result_exit_class(const pykc_result* result) {
  return result == nullptr ? PYKC_ENVIRONMENT : static_cast<int>(result->result.exit);
}

const char* pykc_result_diagnostics(const pykc_result* result) {
  return result == nullptr ? "" : result->result.rendered.c_str();
}

const char* pykc_result_diagnostics_json(const pykc_result* result) {
  return result == nullptr ? "[]" : result->diagnosticsJson.c_str();
}

const char* pykc_result_manifest(const pykc_result* result) {
  return result == nullptr ? "" : result->result.manifest.c_str();
}

size_t pykc_result_arch_count(const pykc_result* result) {
  return result == nullptr ? 0 : result->result.archs.size();
}

const char* pykc_result_arch(const pykc_result* result, size_t index) {
  const driver::ArchOutput* a = archAt(result, index);
  return a == nullptr ? nullptr : a->arch.c_str();
}

const void* pykc_result_cubin(const pykc_result* result, size_t index, size_t* size) {
  const driver::ArchOutput* a = archAt(result, index);
  if (size != nullptr) *size = a == nullptr ? 0 : a->cubin.size();
  return a == nullptr ? nullptr : a->cubin.data();
}

const char* pykc_result_ptx(const pykc_result* result, size_t index, size_t* size) {
  const driver::ArchOutput* a = archAt(result, index);
  if (size != nullptr) *size = a == nullptr ? 0 : a->ptx.size();
  return a == nullptr ? nullptr : a->ptx.c_str();
}

int pykc_result_cache_hit(const pykc_result* result, size_t index) {
  const driver::ArchOutput* a = archAt(result, index);
  return a != nullptr && a->cacheHit ? 1 : 0;
}

size_t pykc_result_kernel_count(const pykc_result* result) {
  if (result == nullptr || result->result.exit != driver::ExitClass::Ok) return 0;
  return result->result.instances.size();
}

const char* pykc_result_kernel_name(const pykc_result* result, size_t index) {
  const driver::InstanceOutput* i = instanceAt(result, index);
  return i == nullptr ? nullptr : i->kernel.c_str();
}

const char* pykc_result_kernel_signature(const pykc_result* result, size_t index) {
  const driver::InstanceOutput* i = instanceAt(result, index);
  return i == nullptr ? nullptr : i->signature.c_str();
}

const char* pykc_result_kernel_symbol(const pykc_result* result, size_t index) {
  const driver::InstanceOutput* i = instanceAt(result, index);
  return i == nullptr ? nullptr : i->symbol.c_str();
}

}  // extern "C"
