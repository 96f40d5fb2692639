// Launch pykc output from C++ through the CUDA driver API, reading only manifest.json
// (docs/ABI.md v1). Runs the saxpy kernel of docs/ABI.md and checks the result.
//
// Build (here or on the GPU machine; the stub libcuda is for linking only):
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include examples/cpp_launch/launch.cpp
//       -L/usr/local/cuda/lib64/stubs -lcuda -o build/cpp_launch          (one line)
// Run:
//   build/cpp_launch OUT/saxpy          (the folder written by pykc compile ... -o OUT/saxpy)
//
// Self-contained: a minimal JSON reader stands in for nlohmann-json so this file needs
// nothing but cuda.h.
#include <cuda.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <cstring>
#include <string>
#include <vector>

// ---------------------------------------------------------------- minimal JSON reader
struct Json {
  enum Kind { Null, Bool, Num, Str, Arr, Obj } kind = Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Json> arr;
  std::map<std::string, Json> obj;

  const Json& operator[](const std::string& k) const {
    auto it = obj.find(k);
    if (kind != Obj || it == obj.end()) throw std::runtime_error("manifest: no key '" + k + "'");
    return it->second;
  }
  bool has(const std::string& k) const { return kind == Obj && obj.count(k); }
};

struct JsonParser {
  const std::string& s;
  size_t i = 0;
  void ws() { while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i; }
  [[noreturn]] void fail() { throw std::runtime_error("manifest: bad JSON at byte " + std::to_string(i)); }
  void expect(char c) { ws(); if (i >= s.size() || s[i] != c) fail(); ++i; }
  bool lit(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s.compare(i, n, w) != 0) return false;
    i += n;
    return true;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c == '\\') {
        char e = s.at(i++);
        if (e == 'u') { out += '?'; i += 4; continue; }  // names are ASCII in practice
        c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
      }
      out += c;
    }
    expect('"');
    return out;
  }
  Json value() {
    ws();
    Json v;
    if (i >= s.size()) fail();
    char c = s[i];
    if (c == '{') {
      v.kind = Json::Obj; ++i; ws();
      if (s[i] == '}') { ++i; return v; }
      do { std::string k = string(); expect(':'); v.obj[k] = value(); ws(); } while (s[i] == ',' && ++i);
      expect('}');
    } else if (c == '[') {
      v.kind = Json::Arr; ++i; ws();
      if (s[i] == ']') { ++i; return v; }
      do { v.arr.push_back(value()); ws(); } while (s[i] == ',' && ++i);
      expect(']');
    } else if (c == '"') {
      v.kind = Json::Str; v.str = string();
    } else if (lit("true")) { v.kind = Json::Bool; v.b = true; }
    else if (lit("false")) { v.kind = Json::Bool; }
    else if (lit("null")) {}
    else {
      size_t end;
      v.kind = Json::Num; v.num = std::stod(s.substr(i, 40), &end); i += end;
    }
    return v;
  }
};

static std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// ---------------------------------------------------------------- CUDA error checking
#define CU(call)                                                                  \
  do {                                                                            \
    CUresult r_ = (call);                                                         \
    if (r_ != CUDA_SUCCESS) {                                                     \
      const char* name_ = nullptr;                                                \
      cuGetErrorName(r_, &name_);                                                 \
      throw std::runtime_error(std::string(#call) + ": " + (name_ ? name_ : "?")); \
    }                                                                             \
  } while (0)

// ---------------------------------------------------------------- ABI flattening
// Collects kernel parameters per docs/ABI.md: scalars by value in their C type, an array
// of ndim n as data pointer + n int64 shapes + n int64 strides (in elements).
struct Params {
  std::vector<std::unique_ptr<char[]>> storage;
  std::vector<void*> ptrs;
  template <class T> void push(T v) {
    storage.emplace_back(new char[sizeof(T)]);
    std::memcpy(storage.back().get(), &v, sizeof(T));
    ptrs.push_back(storage.back().get());
  }
  void array(CUdeviceptr p, const std::vector<int64_t>& shape,
             const std::vector<int64_t>& strides_in_elements) {
    push(p);
    for (int64_t s : shape) push(s);
    for (int64_t s : strides_in_elements) push(s);
  }
};

// Checks that the manifest's parameter says what this program is about to pass.
static void expect_param(const Json& p, const char* kind, const char* dtype, int ndim = 0,
                         const char* layout = nullptr) {
  bool ok = p["kind"].str == kind && p["dtype"].str == dtype &&
            (!ndim || (int(p["ndim"].num) == ndim && p["layout"].str == layout));
  if (!ok) throw std::runtime_error("manifest: parameter '" + p["name"].str + "' is not " + dtype);
}

int main(int argc, char** argv) try {
  if (argc != 2) { std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n", argv[0]); return 2; }
  const std::string dir = argv[1];
  Json m = JsonParser{read_file(dir + "/manifest.json")}.value();
  if (m["format"].str != "pykc-manifest" || int(m["abi_version"].num) != 1)
    throw std::runtime_error("not a pykc ABI v1 manifest");

  // The saxpy entry: void(float32, float32[::1], float32[::1], float32[::1]).
  const Json* entry = nullptr;
  for (const Json& k : m["kernels"].arr)
    if (k["name"].str == "saxpy") entry = &k;
  if (!entry) throw std::runtime_error("no kernel 'saxpy' in the manifest");
  const auto& ps = (*entry)["params"].arr;
  if (ps.size() != 4) throw std::runtime_error("saxpy: expected 4 parameters");
  expect_param(ps[0], "scalar", "float32");
  for (int i = 1; i < 4; ++i) expect_param(ps[i], "array", "float32", 1, "C");
  const std::string symbol = (*entry)["symbol"].str;

  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  int major = 0, minor = 0;
  CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));

  // A fatbin (`pykc compile --fatbin`) holds every arch: the driver picks the GPU's cubin,
  // else JIT-compiles its PTX. Otherwise the target choice (docs/ABI.md): sm_<major><minor>
  // exactly, else the newest cubin of the same major version not newer than the device
  // ("a" variants only on the exact chip).
  std::string cubin;
  int best = -1;
  if (m.has("fatbin") && m["fatbin"].has("file")) {
    cubin = dir + "/" + m["fatbin"]["file"].str;
  } else {
    for (const Json& t : m["targets"].arr) {
      if (!t.has("cubin") || t["cubin"].kind != Json::Str) continue;
      const std::string& arch = t["arch"].str;  // "sm_90", "sm_90a", ...
      std::string digits = arch.substr(3);
      bool a = !digits.empty() && digits.back() == 'a';
      if (a || digits.back() == 'f') digits.pop_back();
      int cc = std::stoi(digits), tmaj = cc / 10, tmin = cc % 10;
      if (tmaj != major || tmin > minor || (a && tmin != minor)) continue;
      int score = tmin * 4 + (tmin == minor ? (a ? 1 : 2) : 0);
      if (score > best) { best = score; cubin = dir + "/" + t["cubin"].str; }
    }
  }
  if (cubin.empty())
    throw std::runtime_error("no cubin for sm_" + std::to_string(major * 10 + minor) +
                             " (and no fatbin: compile with --fatbin and compute_XY for PTX)");

  std::string image = read_file(cubin);
  CUmodule mod;
  CU(cuModuleLoadData(&mod, image.data()));
  CUfunction fn;
  CU(cuModuleGetFunction(&fn, mod, symbol.c_str()));

  const int64_t n = (1 << 22) + 3;
  std::vector<float> x(n), y(n), out(n, NAN);
  std::mt19937 rng(1234);
  std::normal_distribution<float> nd;
  for (int64_t i = 0; i < n; ++i) { x[i] = nd(rng); y[i] = nd(rng); }
  const float a = 2.5f;
  const size_t bytes = n * sizeof(float);
  CUdeviceptr dx, dy, dout;
  CU(cuMemAlloc(&dx, bytes));
  CU(cuMemAlloc(&dy, bytes));
  CU(cuMemAlloc(&dout, bytes));
  CU(cuMemcpyHtoD(dx, x.data(), bytes));
  CU(cuMemcpyHtoD(dy, y.data(), bytes));
  CU(cuMemsetD32(dout, 0x7fc00000u, n));  // poison: NaN

  Params p;
  p.push(a);
  p.array(dx, {n}, {1});
  p.array(dy, {n}, {1});
  p.array(dout, {n}, {1});
  const unsigned block = 256, grid = 1024;  // grid-stride loop covers the rest
  CU(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, nullptr, p.ptrs.data(), nullptr));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(out.data(), dout, bytes));

  double max_err = 0;
  for (int64_t i = 0; i < n; ++i) {
    double want = double(a) * x[i] + y[i];
    double e = std::fabs(out[i] - want);
    if (!(e <= max_err)) max_err = std::isnan(e) ? INFINITY : e;
  }
  CU(cuMemFree(dx));
  CU(cuMemFree(dy));
  CU(cuMemFree(dout));
  CU(cuModuleUnload(mod));
  CU(cuDevicePrimaryCtxRelease(dev));
  bool ok = max_err < 1e-5;
  std::printf("%s: saxpy (%s) via %s on sm_%d%d, n=%lld, max abs error %.3g\n",
              ok ? "PASS" : "FAIL", symbol.c_str(), cubin.c_str(), major, minor,
              static_cast<long long>(n), max_err);
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
