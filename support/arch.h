#pragma once
// What pykc knows about each GPU architecture it compiles for, in one table:
// every fact that depends on the target (the SM number, the PTX target LLVM
// writes for it, the `a` and `f` variants, float64 rate, occupancy limits,
// shared memory per block) comes from here. The driver rejects unknown arches
// at the edge (driver/codegen_flags.cpp); phases below look their facts up
// here by name and never parse the name themselves.
//
// Three kinds of rows (docs/compile.md, "Architectures"):
//   - `sm_XY` with XY <= 90a: LLVM 19 writes PTX for the arch itself and
//     nvJitLink links its cubin;
//   - `sm_XY` newer than LLVM 19's NVPTX target (sm_88, sm_100 ... sm_121f):
//     PTX for the newest generic target LLVM knows below it (`ptxTarget`:
//     sm_87 or sm_90, never an `a` target, whose PTX runs on that arch
//     alone), and nvJitLink writes the cubin for the real arch;
//   - `compute_XY`: PTX only (no cubin), for the driver's JIT on this and
//     later GPUs.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace support {

struct ArchInfo {
  std::string_view name;  // "sm_90a", "sm_100f", "compute_90"
  unsigned sm = 0;        // 90, 100, 121: major * 10 + minor
  // The architecture-specific variant ("a": sm_90a's wgmma, setmaxnreg): its
  // cubin and PTX run on exactly this SM.
  bool archSpecific = false;
  // The family variant ("f": sm_100f runs on sm_100 and sm_103).
  bool family = false;
  // `compute_XY`: only PTX is built, no cubin.
  bool ptxOnly = false;
  // The NVPTX target (LLVM's CPU name) whose PTX pykc writes for this arch:
  // the arch itself where LLVM 19 knows it, else the newest generic one below.
  std::string_view ptxTarget;
  // float64 at half the float32 rate (data-centre parts); GeForce-class,
  // Orin, Thor and B300 parts run it at 1/32-1/64.
  bool fullRateFloat64 = false;
  // CUDA C Programming Guide, "Compute Capabilities", and the occupancy
  // calculator.
  unsigned maxThreadsPerSm = 0;
  unsigned maxBlocksPerSm = 0;
  unsigned registersPerSm = 0;
  unsigned registersPerBlock = 0;
  unsigned registerAllocationUnit = 0;  // per warp
  unsigned maxRegistersPerThread = 0;
  unsigned sharedBytesPerSm = 0;        // the largest carveout
  unsigned maxSharedBytesPerBlock = 0;  // the opt-in limit (cudaFuncSetAttribute)
  unsigned sharedAllocationUnit = 0;
  unsigned reservedSharedBytesPerBlock = 0;

  unsigned major() const { return sm / 10; }
  unsigned minor() const { return sm % 10; }
};

// The architectures pykc compiles for: CUDA 13.0's nvJitLink's (sm_75 and
// newer, with their `a` and `f` variants), then the `compute_XY` PTX targets
// LLVM 19 can write, oldest first within each.
std::span<const ArchInfo> knownArchs();

// `name`'s row, or nullptr when pykc does not know it.
const ArchInfo* findArch(std::string_view name);

// "sm_75, sm_80, ..., compute_90a", for messages.
std::string knownArchList();

// Why `name` is not an arch pykc builds, for `pykc: error: ...` (unknown
// names, and `compute_XY` targets newer than the PTX LLVM 19 writes, which
// name the compute target to use instead); nullopt when findArch knows it.
std::optional<std::string> whyUnsupported(std::string_view name);

}  // namespace support
