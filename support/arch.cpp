#include "support/arch.h"

#include <array>

namespace support {
namespace {

// One SM's limits (CUDA C Programming Guide, "Technical Specifications per
// Compute Capability"; the occupancy calculator), shared by its variants.
struct Limits {
  bool fullRateFloat64;
  unsigned threadsPerSm, blocksPerSm;
  unsigned sharedPerSm, sharedPerBlock;
  unsigned reservedShared;
};

constexpr Limits kTuring{false, 1024, 16, 65536, 65536, 0};
constexpr Limits kA100{true, 2048, 32, 167936, 166912, 1024};
constexpr Limits kGa10x{false, 1536, 16, 102400, 101376, 1024};
constexpr Limits kOrin{false, 1536, 16, 167936, 166912, 1024};
constexpr Limits kAda{false, 1536, 24, 102400, 101376, 1024};
constexpr Limits kHopper{true, 2048, 32, 233472, 232448, 1024};
// B200/GB200 (10.0); B300 (10.3) has the same SM with float64 cut down.
constexpr Limits kB200{true, 2048, 32, 233472, 232448, 1024};
constexpr Limits kB300{false, 2048, 32, 233472, 232448, 1024};
// Thor (11.0).
constexpr Limits kThor{false, 1536, 24, 233472, 232448, 1024};
// RTX 50 / RTX PRO (12.0) and DGX Spark's GB10 (12.1).
constexpr Limits kRtx50{false, 1536, 24, 102400, 101376, 1024};

enum Kind { Generic, Specific, Family, Ptx, PtxSpecific };

constexpr ArchInfo row(std::string_view name, unsigned sm, Kind kind, std::string_view ptxTarget,
                       const Limits& l) {
  ArchInfo a;
  a.name = name;
  a.sm = sm;
  a.archSpecific = kind == Specific || kind == PtxSpecific;
  a.family = kind == Family;
  a.ptxOnly = kind == Ptx || kind == PtxSpecific;
  a.ptxTarget = ptxTarget;
  a.fullRateFloat64 = l.fullRateFloat64;
  a.maxThreadsPerSm = l.threadsPerSm;
  a.maxBlocksPerSm = l.blocksPerSm;
  a.registersPerSm = 65536;
  a.registersPerBlock = 65536;
  a.registerAllocationUnit = 256;
  a.maxRegistersPerThread = 255;
  a.sharedBytesPerSm = l.sharedPerSm;
  a.maxSharedBytesPerBlock = l.sharedPerBlock;
  a.sharedAllocationUnit = sm == 75 ? 256 : 128;
  a.reservedSharedBytesPerBlock = l.reservedShared;
  return a;
}

// LLVM 19's NVPTX target stops at sm_90a (PTX ISA 8.5): newer arches get
// sm_90 PTX (sm_88 sm_87's), which nvJitLink links for them; never sm_90a
// PTX, which links for sm_90a alone.
constexpr std::array<ArchInfo, 30> kArchs = {{
    row("sm_75", 75, Generic, "sm_75", kTuring),
    row("sm_80", 80, Generic, "sm_80", kA100),
    row("sm_86", 86, Generic, "sm_86", kGa10x),
    row("sm_87", 87, Generic, "sm_87", kOrin),
    row("sm_88", 88, Generic, "sm_87", kGa10x),
    row("sm_89", 89, Generic, "sm_89", kAda),
    row("sm_90", 90, Generic, "sm_90", kHopper),
    row("sm_90a", 90, Specific, "sm_90a", kHopper),
    row("sm_100", 100, Generic, "sm_90", kB200),
    row("sm_100a", 100, Specific, "sm_90", kB200),
    row("sm_100f", 100, Family, "sm_90", kB200),
    row("sm_103", 103, Generic, "sm_90", kB300),
    row("sm_103a", 103, Specific, "sm_90", kB300),
    row("sm_103f", 103, Family, "sm_90", kB300),
    row("sm_110", 110, Generic, "sm_90", kThor),
    row("sm_110a", 110, Specific, "sm_90", kThor),
    row("sm_110f", 110, Family, "sm_90", kThor),
    row("sm_120", 120, Generic, "sm_90", kRtx50),
    row("sm_120a", 120, Specific, "sm_90", kRtx50),
    row("sm_120f", 120, Family, "sm_90", kRtx50),
    row("sm_121", 121, Generic, "sm_90", kRtx50),
    row("sm_121a", 121, Specific, "sm_90", kRtx50),
    row("sm_121f", 121, Family, "sm_90", kRtx50),
    row("compute_75", 75, Ptx, "sm_75", kTuring),
    row("compute_80", 80, Ptx, "sm_80", kA100),
    row("compute_86", 86, Ptx, "sm_86", kGa10x),
    row("compute_87", 87, Ptx, "sm_87", kOrin),
    row("compute_89", 89, Ptx, "sm_89", kAda),
    row("compute_90", 90, Ptx, "sm_90", kHopper),
    row("compute_90a", 90, PtxSpecific, "sm_90a", kHopper),
}};

}  // namespace

std::span<const ArchInfo> knownArchs() { return kArchs; }

const ArchInfo* findArch(std::string_view name) {
  for (const ArchInfo& a : kArchs) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::string knownArchList() {
  std::string out;
  for (const ArchInfo& a : kArchs) {
    out += out.empty() ? "" : ", ";
    out += a.name;
  }
  return out;
}

std::optional<std::string> whyUnsupported(std::string_view name) {
  if (findArch(name) != nullptr) return std::nullopt;
  std::string quoted;
  quoted.append("`").append(name).append("`");
  constexpr std::string_view kCompute = "compute_";
  if (name.substr(0, kCompute.size()) == kCompute) {
    // compute_100 and newer: an arch nvJitLink knows, PTX LLVM 19 cannot write.
    std::string sm("sm_");
    sm.append(name.substr(kCompute.size()));
    if (const ArchInfo* real = findArch(sm); real != nullptr && !real->ptxOnly) {
      // The newest generic PTX target below it: its PTX JIT-compiles for `real`.
      const ArchInfo* instead = nullptr;
      for (const ArchInfo& a : kArchs) {
        if (a.ptxOnly && !a.archSpecific && a.sm <= real->sm) instead = &a;
      }
      std::string why = quoted;
      why.append(" PTX is newer than LLVM 19 writes (PTX up to compute_90a); `")
          .append(instead->name)
          .append("` PTX runs on ")
          .append(sm)
          .append(" and every later GPU through the driver's JIT");
      return why;
    }
  }
  std::string why("unsupported GPU architecture ");
  why.append(quoted).append(" (supported: ").append(knownArchList()).append(")");
  return why;
}

}  // namespace support
