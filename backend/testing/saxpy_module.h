#pragma once
// Hand-built kernels in the pykc ABI (docs/ABI.md), standing in for lowering/
// in the backend's tests and the demo tool.
#include <memory>
#include <string_view>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace backend::samples {

// How a kernel is marked for NVPTX (lowering may use either).
enum class KernelMarking {
  // `!nvvm.annotations = !{!{ptr @k, !"kernel", i32 1}}`.
  Annotation,
  // The ptx_kernel calling convention.
  CallingConvention,
};

inline constexpr std::string_view kSaxpySymbol = "saxpy__f32_f32a1C_f32a1C_f32a1C";
inline constexpr std::string_view kUnarySymbol = "unary__f32a1C_f32a1C";

// `saxpy(a: float32, x, y, out: float32[::1])`: out[i] = a * x[i] + y[i] for
// i < x.shape[0], grid-stride loop, multiply-add marked `contract`. Parameters
// as the ABI passes them: a, x, x_shape0, x_stride0, y, ..., out, ... The
// module (triple nvptx64-nvidia-cuda) lives in `context`, which must outlive it.
std::unique_ptr<llvm::Module> buildSaxpyModule(
    llvm::LLVMContext& context, KernelMarking marking = KernelMarking::Annotation);

// `unary(x, out: float32[::1])`: out[i] = function(x[i]) for the thread's
// global index i < x.shape[0], where `function` is a `float(float)` such as
// libdevice's "__nv_sqrtf" or "__nv_expf" (declared, not defined), or an LLVM
// intrinsic such as "llvm.sqrt.f32". `context` must outlive the module.
std::unique_ptr<llvm::Module> buildUnaryModule(llvm::LLVMContext& context,
                                               std::string_view function);

}  // namespace backend::samples
