#include "cli/launch_header.h"

#include <llvm/Support/MemoryBuffer.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cli {
namespace {

using Json = nlohmann::json;

llvm::Error failed(const std::string& message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", message.c_str());
}

// C and C++ keywords a Python parameter may be named after.
bool isCKeyword(const std::string& name) {
  static constexpr const char* kKeywords[] = {
      "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue",
      "default", "delete", "do", "double", "else", "enum", "explicit", "extern", "false",
      "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
      "namespace", "new", "operator", "private", "protected", "public", "register",
      "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
      "template", "this", "throw", "true", "try", "typedef", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "while"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), name) != std::end(kKeywords);
}

// `text` as a C identifier: bytes outside [A-Za-z0-9_] (and pykc's `$XXXX`
// escapes in symbols) become `_xHH`, a leading digit gets a `_`.
std::string cIdentifier(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) != 0 || c == '_') {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "_x%02x", c);
      out += hex;
    }
  }
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) != 0) out = "_" + out;
  return out;
}

std::string memberName(const std::string& pythonName) {
  std::string name = cIdentifier(pythonName);
  return isCKeyword(name) ? name + "_" : name;
}

// A manifest string field, or an error naming it.
llvm::Expected<std::string> stringField(const Json& object, const char* key, const std::string& where) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) {
    return failed(where + ": no string `" + key + "`");
  }
  return object[key].get<std::string>();
}

// (major, minor, variant) of `sm_90a` / `compute_90`; nullopt for another form.
struct ArchParts {
  int major = 0;
  int minor = 0;
  char variant = 0;
};
std::optional<ArchParts> parseArch(const std::string& arch) {
  size_t underscore = arch.find('_');
  if (underscore == std::string::npos) return std::nullopt;
  std::string digits = arch.substr(underscore + 1);
  ArchParts parts;
  if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) {
    parts.variant = digits.back();
    digits.pop_back();
  }
  if (digits.size() < 2 || !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
    return std::nullopt;
  }
  parts.major = std::stoi(digits.substr(0, digits.size() - 1));
  parts.minor = digits.back() - '0';
  return parts;
}

// One embedded image (docs/ABI.md, "Which code runs"): a cubin, compute_XY PTX,
// or the fatbin once per arch it holds.
struct Image {
  std::string arch;
  ArchParts parts;
  bool ptx = false;
  int blob = 0;
};

struct Blob {
  std::string file;
  std::string bytes;
};

// The C declaration of one parameter (a struct member) and the addresses of
// its ABI parameters, in order.
struct Member {
  std::string declaration;
  std::vector<std::string> params;
};

llvm::Expected<std::string> scalarType(const std::string& dtype) {
  static const std::map<std::string, std::string> kTypes = {
      {"bool", "uint8_t"},   {"int8", "int8_t"},     {"int16", "int16_t"},   {"int32", "int32_t"},
      {"int64", "int64_t"},  {"uint8", "uint8_t"},   {"uint16", "uint16_t"}, {"uint32", "uint32_t"},
      {"uint64", "uint64_t"}, {"float16", "uint16_t"}, {"bfloat16", "uint16_t"}, {"float32", "float"},
      {"float64", "double"}};
  auto it = kTypes.find(dtype);
  if (it == kTypes.end()) return failed("no C type for a scalar of dtype `" + dtype + "`");
  return it->second;
}

llvm::Expected<Member> member(const Json& param, const std::string& name, const std::string& path,
                              const std::string& indent) {
  std::string kind = param.value("kind", "");
  std::string dtype = param.value("dtype", "");
  Member m;
  if (kind == "array") {
    int ndim = param.value("ndim", -1);
    if (ndim < 0) return failed("array parameter `" + name + "` has no ndim");
    std::string layout = param.value("layout", "A");
    std::string promise = layout == "C" ? ", strides[" + std::to_string(ndim - 1) + "] == 1"
                          : layout == "F" ? ", strides[0] == 1" : "";
    if (ndim == 0) promise.clear();
    m.declaration = indent + "struct { /* " + dtype + ", " + std::to_string(ndim) + "-d, layout " + layout +
                    promise + " */\n" + indent + "  CUdeviceptr data;\n";
    m.params.push_back(path + ".data");
    if (ndim > 0) {
      std::string n = std::to_string(ndim);
      m.declaration += indent + "  int64_t shape[" + n + "];\n" + indent + "  int64_t strides[" + n +
                       "]; /* in elements */\n";
      for (int i = 0; i < ndim; ++i) m.params.push_back(path + ".shape[" + std::to_string(i) + "]");
      for (int i = 0; i < ndim; ++i) m.params.push_back(path + ".strides[" + std::to_string(i) + "]");
    }
    m.declaration += indent + "} " + name + ";\n";
    return m;
  }
  if (kind == "tuple") {
    if (!param.contains("elements") || !param["elements"].is_array()) {
      return failed("tuple parameter `" + name + "` has no elements");
    }
    m.declaration = indent + "struct {\n";
    size_t i = 0;
    for (const Json& element : param["elements"]) {
      std::string elementName = "e" + std::to_string(i++);
      auto inner = member(element, elementName, path + "." + elementName, indent + "  ");
      if (!inner) return inner.takeError();
      m.declaration += inner->declaration;
      m.params.insert(m.params.end(), inner->params.begin(), inner->params.end());
    }
    m.declaration += indent + "} " + name + ";\n";
    return m;
  }
  if (kind != "scalar") return failed("parameter `" + name + "` is of unknown kind `" + kind + "`");
  if (dtype == "complex64" || dtype == "complex128") {
    // Two parameters, real then imaginary (docs/ABI.md).
    std::string part = dtype == "complex64" ? "float" : "double";
    m.declaration = indent + "struct { " + part + " re, im; } " + name + "; /* " + dtype + " */\n";
    m.params = {path + ".re", path + ".im"};
    return m;
  }
  auto type = scalarType(dtype);
  if (!type) return type.takeError();
  m.declaration = indent + *type + " " + name + ";" +
                  (dtype == *type + "_t" || *type == "float" || *type == "double" ? "" : " /* " + dtype + " */") +
                  "\n";
  m.params.push_back(path);
  return m;
}

void appendBytes(std::string& out, const std::string& bytes) {
  char hex[8];
  for (size_t i = 0; i < bytes.size(); ++i) {
    out += i % 16 == 0 ? "\n   " : "";
    std::snprintf(hex, sizeof hex, " 0x%02x,", static_cast<unsigned char>(bytes[i]));
    out += hex;
  }
  out += "\n";
}

constexpr const char* kHelpers = R"(#ifndef PYKC_LAUNCH_HELPERS_V1
#define PYKC_LAUNCH_HELPERS_V1
/* A grid or block size. */
typedef struct pykc_dim3 {
  unsigned int x, y, z;
} pykc_dim3;

/* One embedded image: a cubin for sm_<major><minor><variant>, PTX for compute_<...>
 * (compiled by the driver's JIT), or a fatbin, listed once per arch it holds. */
typedef struct pykc_image {
  const char* arch;
  int major, minor;
  char variant; /* 0, 'a' or 'f' */
  int is_ptx;
  const unsigned char* data;
} pykc_image;

/* docs/ABI.md's choice for a GPU of compute capability major.minor: its own cubin
 * (sm_XY, then sm_XYa, then sm_XYf), else the newest cubin of its major version not
 * newer than it (no `a` variant), else the newest PTX not newer than it. Returns the
 * image's index, or -1 when none runs there. */
static inline int pykc_choose_image(const pykc_image* images, int count, int major, int minor) {
  int best = -1, best_key = -1, i;
  for (i = 0; i < count; ++i) {
    const pykc_image* im = &images[i];
    int key;
    if (im->is_ptx || im->major != major || im->minor > minor) continue;
    if (im->variant == 'a' && im->minor != minor) continue;
    key = (im->minor == minor && im->variant == 0) * 4096 +
          (im->minor == minor && im->variant == 'a') * 2048 + im->minor;
    if (key > best_key) {
      best = i;
      best_key = key;
    }
  }
  if (best >= 0) return best;
  for (i = 0; i < count; ++i) {
    const pykc_image* im = &images[i];
    int key = im->major * 100 + im->minor;
    if (!im->is_ptx || key > major * 100 + minor) continue;
    if (im->variant == 'a' && (im->major != major || im->minor != minor)) continue;
    if (key > best_key) {
      best = i;
      best_key = key;
    }
  }
  return best;
}
#endif
)";

// A tile kernel's block size (its `tile.block[0]`), 0 when absent.
int tileThreads(const Json& kernel) {
  if (!kernel.contains("tile") || !kernel.at("tile").contains("block")) return 0;
  const Json& block = kernel.at("tile").at("block");
  return block.is_array() && !block.empty() && block.at(0).is_number_integer() ? block.at(0).get<int>() : 0;
}

llvm::Expected<std::string> render(const LaunchHeaderOptions& options) {
  std::string manifestPath = options.folder + "/manifest.json";
  auto text = llvm::MemoryBuffer::getFile(manifestPath, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!text) return failed("cannot read " + manifestPath + ": " + text.getError().message());
  Json m = Json::parse((*text)->getBuffer().begin(), (*text)->getBuffer().end(), nullptr, false);
  if (m.is_discarded() || !m.is_object() || m.value("format", "") != "pykc-manifest") {
    return failed(manifestPath + " is not a pykc manifest");
  }
  if (m.value("abi_version", 0) != 1) return failed(manifestPath + ": not ABI version 1 (docs/ABI.md)");
  auto source = stringField(m, "source", manifestPath);
  if (!source) return source.takeError();
  std::string stem = *source;
  if (size_t slash = stem.rfind('/'); slash != std::string::npos) stem = stem.substr(slash + 1);
  if (stem.size() > 3 && stem.compare(stem.size() - 3, 3, ".py") == 0) stem.resize(stem.size() - 3);
  const std::string p = cIdentifier(options.prefix.empty() ? stem : options.prefix);

  auto readBlob = [&](const std::string& file, bool terminate) -> llvm::Expected<Blob> {
    auto bytes = llvm::MemoryBuffer::getFile(options.folder + "/" + file, false, false);
    if (!bytes) return failed("cannot read " + options.folder + "/" + file + ": " + bytes.getError().message());
    Blob blob{file, std::string((*bytes)->getBuffer())};
    // PTX is loaded as a NUL-terminated string.
    if (terminate) blob.bytes += '\0';
    return blob;
  };

  // The images: the fatbin alone when there is one, else every cubin and the
  // PTX of every compute_XY arch.
  std::vector<Blob> blobs;
  std::vector<Image> images;
  std::vector<std::string> archList;
  if (!m.contains("targets") || !m["targets"].is_array()) return failed(manifestPath + ": no targets");
  for (const Json& t : m["targets"]) archList.push_back(t.value("arch", "?"));
  if (m.contains("fatbin") && m["fatbin"].is_object()) {
    auto file = stringField(m["fatbin"], "file", manifestPath + " fatbin");
    if (!file) return file.takeError();
    auto blob = readBlob(*file, false);
    if (!blob) return blob.takeError();
    blobs.push_back(std::move(*blob));
    for (const char* key : {"cubins", "ptx"}) {
      for (const Json& arch : m["fatbin"].value(key, Json::array())) {
        auto parts = parseArch(arch.get<std::string>());
        if (!parts) return failed(manifestPath + ": unknown arch `" + arch.get<std::string>() + "`");
        images.push_back({arch.get<std::string>(), *parts, std::string(key) == "ptx", 0});
      }
    }
  } else {
    for (const Json& t : m["targets"]) {
      std::string arch = t.value("arch", "");
      bool hasCubin = t.contains("cubin") && t["cubin"].is_string();
      std::string file = hasCubin ? t["cubin"].get<std::string>() : t.value("ptx", "");
      auto parts = parseArch(hasCubin ? arch : t.value("ptx_target", arch));
      if (!parts || file.empty()) return failed(manifestPath + ": target `" + arch + "` names no usable file");
      auto blob = readBlob(file, !hasCubin);
      if (!blob) return blob.takeError();
      images.push_back({arch, *parts, !hasCubin, static_cast<int>(blobs.size())});
      blobs.push_back(std::move(*blob));
    }
  }
  if (images.empty()) return failed(manifestPath + ": no cubin, PTX or fatbin to embed");
  if (!m.contains("kernels") || !m["kernels"].is_array()) return failed(manifestPath + ": no kernels");
  const Json& kernels = m["kernels"];

  std::string archText;
  for (const std::string& a : archList) archText += (archText.empty() ? "" : ", ") + a;
  std::string guard = "PYKC_HEADER_" + p + "_H";
  std::transform(guard.begin(), guard.end(), guard.begin(), [](unsigned char c) { return std::toupper(c); });

  // Names of each entry, and short aliases for kernels with one entry.
  std::vector<std::string> entryNames;
  std::map<std::string, int> entriesPerKernel;
  std::set<std::string> taken;
  for (const Json& k : kernels) {
    auto symbol = stringField(k, "symbol", manifestPath + " kernel");
    if (!symbol) return symbol.takeError();
    entryNames.push_back(p + "_" + cIdentifier(*symbol));
    taken.insert(entryNames.back());
    ++entriesPerKernel[k.value("name", "")];
  }
  std::string out;
  const Json& first = kernels.empty() ? Json() : kernels[0];
  bool firstTile = first.is_object() && first.contains("tile");
  std::string exampleName = kernels.empty() ? p + "_KERNEL" : entryNames[0];
  if (!kernels.empty() && entriesPerKernel[first.value("name", "")] == 1) {
    exampleName = p + "_" + cIdentifier(first.value("name", ""));
  }
  std::string folderName = options.folder;
  while (folderName.size() > 1 && folderName.back() == '/') folderName.pop_back();
  if (size_t slash = folderName.rfind('/'); slash != std::string::npos) folderName = folderName.substr(slash + 1);
  out += "/* Generated by `pykc header` from " + folderName + "/manifest.json: do not edit.\n";
  std::string sourceName = *source;
  if (size_t slash = sourceName.rfind('/'); slash != std::string::npos) sourceName = sourceName.substr(slash + 1);
  out += " * The kernels of " + sourceName + " (pykc " +
         (m.contains("compiler") ? m.at("compiler").value("pykc", "?") : std::string("?")) +
         ", docs/ABI.md v1) for " + archText + (blobs.size() == 1 && m.contains("fatbin") ? ", as a fatbin" : "") +
         ".\n";
  out += " *\n * Launch them through the CUDA driver API, with a context current:\n *\n";
  out += " *   " + p + "_module mod;\n";
  out += " *   CUresult r = " + p + "_load(&mod);  (picks the code for the context's GPU)\n";
  out += " *   " + exampleName + "_args args = {...};  (arrays: device pointer, shape, strides)\n";
  out += std::string(" *   r = ") + exampleName + "_launch(&mod, grid, " + (firstTile ? "" : "block, shared_bytes, ") +
         "stream, &args);\n";
  out += " *   " + p + "_unload(&mod);\n *\n";
  out += " * It holds the code: include it in one translation unit of a program.\n */\n";
  out += "#ifndef " + guard + "\n#define " + guard + "\n\n";
  out += "#include <cuda.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n";
  out += "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  out += kHelpers;
  out += "\n";
  for (size_t b = 0; b < blobs.size(); ++b) {
    out += "/* " + blobs[b].file + " (" + std::to_string(blobs[b].bytes.size()) + " bytes) */\n";
    out += "static const unsigned char " + p + "_blob" + std::to_string(b) + "[] = {";
    appendBytes(out, blobs[b].bytes);
    out += "};\n\n";
  }
  out += "static const pykc_image " + p + "_images[" + std::to_string(images.size()) + "] = {\n";
  for (const Image& image : images) {
    std::string variant = image.parts.variant == 0 ? "0" : std::string("'") + image.parts.variant + "'";
    out += "    {\"" + image.arch + "\", " + std::to_string(image.parts.major) + ", " +
           std::to_string(image.parts.minor) + ", " + variant + ", " + (image.ptx ? "1" : "0") + ", " + p +
           "_blob" + std::to_string(image.blob) + "},\n";
  }
  out += "};\n\n";
  size_t count = kernels.size();
  std::string n = std::to_string(std::max<size_t>(count, 1));
  out += "/* The entries' symbols (docs/ABI.md, \"Entry symbols\"), in manifest order. */\n";
  out += "static const char* const " + p + "_symbols[" + n + "] = {";
  for (const Json& k : kernels) out += "\n    \"" + k.at("symbol").get<std::string>() + "\",";
  out += count == 0 ? "0};\n\n" : "\n};\n\n";
  // Tile kernels' dynamic shared memory per image (docs/ABI.md, "Tile kernels").
  out += "/* Dynamic shared memory each entry needs, per image (tile kernels past 48 KiB). */\n";
  out += "static const unsigned int " + p + "_dynamic_shared[" + n + "][" + std::to_string(images.size()) + "] = {";
  for (const Json& k : kernels) {
    out += "\n    {";
    for (size_t i = 0; i < images.size(); ++i) {
      unsigned bytes = 0;
      if (k.contains("resources") && k.at("resources").contains(images[i].arch)) {
        bytes = k.at("resources").at(images[i].arch).value("dynamic_shared_bytes", 0u);
      }
      out += (i == 0 ? "" : ", ") + std::to_string(bytes);
    }
    out += "},";
  }
  out += count == 0 ? "{0}};\n\n" : "\n};\n\n";

  out += "/* A loaded module: its functions and what their launches pass. */\n";
  out += "typedef struct " + p + "_module {\n  CUmodule module;\n";
  out += "  const char* arch; /* the image loaded: \"sm_90\", \"compute_90\", ... */\n";
  out += "  CUfunction functions[" + n + "];\n  unsigned int dynamic_shared_bytes[" + n + "];\n} " + p + "_module;\n\n";
  out += "/* Loads the image for the current context's GPU and finds every kernel;\n";
  out += " * CUDA_ERROR_NO_BINARY_FOR_GPU when no image runs there. */\n";
  out += "static inline CUresult " + p + "_load(" + p + "_module* m) {\n";
  out += "  CUdevice device;\n  int major = 0, minor = 0, image, k;\n  CUresult r;\n";
  out += "  memset(m, 0, sizeof(*m));\n  r = cuCtxGetDevice(&device);\n";
  out += "  if (r == CUDA_SUCCESS) r = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);\n";
  out += "  if (r == CUDA_SUCCESS) r = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);\n";
  out += "  if (r != CUDA_SUCCESS) return r;\n";
  out += "  image = pykc_choose_image(" + p + "_images, " + std::to_string(images.size()) + ", major, minor);\n";
  out += "  if (image < 0) return CUDA_ERROR_NO_BINARY_FOR_GPU;\n";
  out += "  r = cuModuleLoadData(&m->module, " + p + "_images[image].data);\n";
  out += "  if (r != CUDA_SUCCESS) return r;\n";
  out += "  m->arch = " + p + "_images[image].arch;\n";
  out += "  for (k = 0; k < " + std::to_string(count) + " && r == CUDA_SUCCESS; ++k) {\n";
  out += "    r = cuModuleGetFunction(&m->functions[k], m->module, " + p + "_symbols[k]);\n";
  out += "    m->dynamic_shared_bytes[k] = " + p + "_dynamic_shared[k][image];\n";
  out += "    if (r == CUDA_SUCCESS && m->dynamic_shared_bytes[k] > 0)\n";
  out += "      r = cuFuncSetAttribute(m->functions[k], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,\n";
  out += "                             (int)m->dynamic_shared_bytes[k]);\n  }\n";
  out += "  if (r != CUDA_SUCCESS) {\n    cuModuleUnload(m->module);\n    memset(m, 0, sizeof(*m));\n  }\n";
  out += "  return r;\n}\n\n";
  out += "static inline CUresult " + p + "_unload(" + p + "_module* m) {\n";
  out += "  CUresult r = m->module ? cuModuleUnload(m->module) : CUDA_SUCCESS;\n";
  out += "  memset(m, 0, sizeof(*m));\n  return r;\n}\n";

  for (size_t e = 0; e < count; ++e) {
    const Json& k = kernels[e];
    const std::string& name = entryNames[e];
    bool tile = k.contains("tile");
    bool cooperative = k.value("cooperative", false);
    std::string where = manifestPath + " kernel `" + k.value("name", "") + "`";
    out += "\n/* " + k.value("name", "") + ": " + k.value("signature", "") + "\n";
    if (tile) {
      out += " * A tile kernel: block (" + std::to_string(tileThreads(k)) +
             ", 1, 1) and its dynamic shared memory are pykc's; give the grid. */\n";
    } else {
      std::string notes;
      if (k.value("dynamic_shared_memory", false)) notes += " shared_bytes sizes its cuda.shared.array(0, ...).";
      if (cooperative) notes += " Launched cooperatively: every block must be resident at once.";
      out += notes.empty() ? " */\n" : " *" + notes + " */\n";
    }
    std::vector<std::string> params;
    std::string fields;
    const Json& ps = k.value("params", Json::array());
    for (const Json& param : ps) {
      std::string field = memberName(param.value("name", "arg"));
      auto mem = member(param, field, "args->" + field, "  ");
      if (!mem) return failed(where + ": " + llvm::toString(mem.takeError()));
      fields += mem->declaration;
      params.insert(params.end(), mem->params.begin(), mem->params.end());
    }
    bool hasArgs = !ps.empty();
    if (hasArgs) out += "typedef struct " + name + "_args {\n" + fields + "} " + name + "_args;\n";
    std::string signature = "const " + p + "_module* m, pykc_dim3 grid, " +
                            std::string(tile ? "" : "pykc_dim3 block, unsigned int shared_bytes, ") + "CUstream stream" +
                            (hasArgs ? ", const " + name + "_args* args" : "");
    std::string call = std::string("m, grid, ") + (tile ? "" : "block, shared_bytes, ") + "stream" + (hasArgs ? ", args" : "");
    out += "static inline CUresult " + name + "_launch(" + signature + ") {\n";
    if (!params.empty()) {
      out += "  void* params[" + std::to_string(params.size()) + "] = {";
      for (size_t i = 0; i < params.size(); ++i) {
        out += (i % 4 == 0 ? "\n      " : " ") + std::string("(void*)&") + params[i] + ",";
      }
      out += "\n  };\n";
    }
    std::string block = tile ? std::to_string(tileThreads(k)) + ", 1, 1" : "block.x, block.y, block.z";
    std::string shared = tile ? "m->dynamic_shared_bytes[" + std::to_string(e) + "]" : "shared_bytes";
    out += std::string("  return ") + (cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel") + "(m->functions[" +
           std::to_string(e) + "], grid.x, grid.y, grid.z, " + block + ", " + shared + ", stream, " +
           (params.empty() ? "NULL" : "params") + (cooperative ? ");\n" : ", NULL);\n");
    out += "}\n";
    // The kernel's own name, when it has this one entry and the name is free.
    std::string alias = p + "_" + cIdentifier(k.value("name", ""));
    if (entriesPerKernel[k.value("name", "")] == 1 && alias != name && !taken.count(alias)) {
      taken.insert(alias);
      if (hasArgs) out += "typedef " + name + "_args " + alias + "_args;\n";
      std::string aliasSignature = signature;
      out += "static inline CUresult " + alias + "_launch(" + aliasSignature + ") {\n  return " + name + "_launch(" +
             call + ");\n}\n";
    }
  }
  out += "\n#ifdef __cplusplus\n}  /* extern \"C\" */\n#endif\n\n#endif /* " + guard + " */\n";
  return out;
}

}  // namespace

llvm::Expected<std::string> renderLaunchHeader(const LaunchHeaderOptions& options) {
  // nlohmann::json throws on a value of the wrong type: a malformed manifest.
  try {
    return render(options);
  } catch (const nlohmann::json::exception& e) {
    return failed(options.folder + "/manifest.json: unexpected contents (" + e.what() + ")");
  }
}

}  // namespace cli
