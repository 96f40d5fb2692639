#pragma once
// Keeps the CUDA driver out of a compile (docs/compile.md, "No CUDA driver in
// a compile"). nvJitLink and NVRTC dlopen("libcuda.so.1") and call cuInit
// when they can; on a host with a visible GPU that initialises the driver,
// 100-230 ms per process on the H200 host, for nothing a compile needs (the
// cubin is the same bytes without it). hideCudaDriver() redirects a loaded
// library's own imports of dlopen, dlsym and dlclose: its dlopen of the
// driver gets a stand-in whose entry points answer CUDA_ERROR_NO_DEVICE (as
// the driver does with CUDA_VISIBLE_DEVICES= set); every other call goes
// through unchanged. Only that library's import table changes: the process's
// own driver, if it uses one (the JIT, a program calling libpykc), is neither
// loaded nor touched, and no environment variable is set.
#include <llvm/Support/Error.h>

#include <string_view>

namespace backend {

// Whether a compile should leave the driver visible to the CUDA libraries:
// only when PYKC_CUDA_DRIVER=visible is set (an escape hatch, and what the
// test uses to show that the redirection is what keeps the driver out).
bool cudaDriverVisible();

// Redirects the dlopen/dlsym/dlclose imports of the library `handle` (from
// dlopen) as described above. Idempotent; must run before any other thread
// calls into the library (right after opening it). Fails, with the reason,
// when the library's dynamic section cannot be read or its import table
// cannot be made writable; the library is then left as it was and still
// usable (with the driver visible).
llvm::Error hideCudaDriver(void* handle, std::string_view name);

}  // namespace backend
