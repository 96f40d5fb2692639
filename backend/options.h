#pragma once
// Code generation options: what the driver's `--arch`, `-O`, `--use-fast-math`,
// `--ftz`, `--maxrregcount`, `--lineinfo` and `-G` set. Every field is part of
// the cache key (cache/ hashes them by name), so a new field needs a key field.
#include <string>

namespace backend {

struct CodegenOptions {
  // Target GPU: one of support::knownArchs() (support/arch.h), e.g. "sm_90" or "sm_90a".
  std::string arch = "sm_90";
  // LLVM optimisation level, 0-3 (the new pass manager's O0..O3 pipelines and
  // the matching codegen level).
  unsigned optLevel = 3;
  // nvcc's --use-fast-math: `fast` flags on the module's own floating-point
  // instructions (contraction included), approximate division and square root,
  // flush-to-zero, and libdevice's approximate paths.
  bool fastMath = false;
  // NVVM's -fma=1, numba-cuda's default for its kernels: any float add, subtract or
  // multiply may fuse into an fma, in LLVM's DAG and in ptxas, which contracts PTX's
  // `add.f64` (not `add.rn.f64`) with a `mul` of another block as it does NVVM's output.
  // The driver sets it for modules of numba.cuda kernels only (tile kernels round each
  // operation, as cuTile does); derived from the source, so no cache key field of its own.
  bool contractEverywhere = false;
  // Flush single-precision denormals to zero (implied by fastMath).
  bool ftz = false;
  // Register limit per thread for every kernel (`.maxnreg`); 0 means none.
  unsigned maxRegisters = 0;
  // Keep source line tables (`.loc` in PTX, nvcc's --lineinfo).
  bool lineInfo = false;
  // Keep full debug information (nvcc's -G); implies lineInfo.
  bool debug = false;
  // Version kernels whose loops store to one array argument and load from
  // another: a run-time check of the arrays' byte ranges picks a body in
  // which they do not alias (backend/passes/alias_versioning.h; docs/compile.md).
  // `--no-alias-versioning` turns it off.
  bool aliasVersioning = true;
  // libdevice bitcode; empty means the one found at build time
  // (`$CUDA/nvvm/libdevice/libdevice.10.bc`).
  std::string libdevicePath;
};

}  // namespace backend
