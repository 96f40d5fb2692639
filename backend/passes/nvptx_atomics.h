#pragma once
// Back-end private: atomics with the ordering and sync scope they ask for.
// LLVM 19's NVPTX back end ignores both: every atomicrmw/cmpxchg becomes a
// plain `atom` (PTX's relaxed, gpu-scope default), so an acq_rel, a
// block-scope or a system-scope atomic would silently be a relaxed gpu-scope
// one. ptx.cpp runs this on each module just before instruction selection.

namespace llvm {
class Module;
}  // namespace llvm

namespace backend {

// Rewrites every atomicrmw and cmpxchg that is not monotonic at the "device"
// sync scope (which the back end emits as it should) into inline PTX
// `atom{.sem}{.scope}{.space}.op.type` with the instruction's own semantics:
// monotonic/acquire/release/acq_rel as .relaxed/.acquire/.release/.acq_rel
// (seq_cst as `fence.sc` then .acq_rel, PTX's mapping), "block" as .cta,
// "device" as .gpu, the system scope as .sys; global, shared or generic
// addresses. Operations PTX's atom lacks (nand, fsub, fmax, inc/dec wrap,
// bfloat16 below sm_90, 8- and 16-bit integers) and other scopes are left as
// they are. Returns how many were rewritten.
unsigned lowerOrderedAtomics(llvm::Module& module, unsigned smVersion);

}  // namespace backend
