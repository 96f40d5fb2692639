// support/arch: the per-arch fact table (a row per arch CUDA 13.0's nvJitLink
// links for, and the compute_XY PTX targets), and the unsupported-arch messages.
#include "support/arch.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

const support::ArchInfo& row(std::string_view name) {
  const support::ArchInfo* info = support::findArch(name);
  EXPECT_NE(info, nullptr) << name;
  static const support::ArchInfo kNone{};
  return info != nullptr ? *info : kNone;
}

TEST(ArchTable, HoldsEveryArchOfNvJitLink13) {
  for (const char* name :
       {"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
        "sm_100f", "sm_103", "sm_103a", "sm_103f", "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a",
        "sm_120f", "sm_121", "sm_121a", "sm_121f", "compute_75", "compute_80", "compute_86",
        "compute_87", "compute_89", "compute_90", "compute_90a"}) {
    EXPECT_NE(support::findArch(name), nullptr) << name;
  }
  std::set<std::string_view> names;
  for (const support::ArchInfo& a : support::knownArchs()) {
    EXPECT_TRUE(names.insert(a.name).second) << "twice: " << a.name;
  }
  EXPECT_EQ(support::findArch("sm_70"), nullptr);
  EXPECT_EQ(support::findArch("sm_101"), nullptr);  // CUDA 13 renamed it sm_110
}

TEST(ArchTable, PtxTargetsAreWhatLlvm19Writes) {
  for (const support::ArchInfo& a : support::knownArchs()) {
    SCOPED_TRACE(a.name);
    const support::ArchInfo& target = row(a.ptxTarget);
    // A target LLVM 19 knows (sm_90a at most), never newer than the arch.
    EXPECT_LE(target.sm, 90u);
    EXPECT_LE(target.sm, a.sm);
    EXPECT_FALSE(target.ptxOnly);
    // `a` PTX runs on its own arch alone: only sm_90a and compute_90a use it.
    if (target.archSpecific) {
      EXPECT_EQ(a.sm, 90u);
    }
    if (a.sm > 90) {
      EXPECT_EQ(a.ptxTarget, "sm_90");
    } else if (a.name != "sm_88") {
      EXPECT_EQ(a.ptxTarget.substr(3), a.name.substr(a.name.find('_') + 1));
    }
  }
  EXPECT_EQ(row("sm_88").ptxTarget, "sm_87");
}

TEST(ArchTable, VariantsAndPtxOnlyRows) {
  EXPECT_TRUE(row("sm_100a").archSpecific);
  EXPECT_FALSE(row("sm_100a").family);
  EXPECT_TRUE(row("sm_120f").family);
  EXPECT_FALSE(row("sm_120f").archSpecific);
  EXPECT_TRUE(row("compute_90").ptxOnly);
  EXPECT_TRUE(row("compute_90a").ptxOnly && row("compute_90a").archSpecific);
  EXPECT_FALSE(row("sm_121").ptxOnly);
  EXPECT_EQ(row("sm_121").major(), 12u);
  EXPECT_EQ(row("sm_121").minor(), 1u);
  EXPECT_EQ(row("sm_103f").sm, 103u);
}

// CUDA C Programming Guide, "Technical Specifications per Compute Capability".
TEST(ArchTable, BlackwellLimits) {
  for (const char* name : {"sm_100", "sm_100a", "sm_103f"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(row(name).maxThreadsPerSm, 2048u);
    EXPECT_EQ(row(name).maxBlocksPerSm, 32u);
    EXPECT_EQ(row(name).sharedBytesPerSm, 228u * 1024);
    EXPECT_EQ(row(name).maxSharedBytesPerBlock, 227u * 1024);
  }
  for (const char* name : {"sm_120", "sm_121", "sm_121a"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(row(name).maxThreadsPerSm, 1536u);
    EXPECT_EQ(row(name).maxBlocksPerSm, 24u);
    EXPECT_EQ(row(name).sharedBytesPerSm, 100u * 1024);
    EXPECT_EQ(row(name).maxSharedBytesPerBlock, 99u * 1024);
    EXPECT_FALSE(row(name).fullRateFloat64);
  }
  EXPECT_EQ(row("sm_110").maxThreadsPerSm, 1536u);
  EXPECT_TRUE(row("sm_100").fullRateFloat64);
  EXPECT_FALSE(row("sm_103").fullRateFloat64);
  for (const support::ArchInfo& a : support::knownArchs()) {
    SCOPED_TRACE(a.name);
    EXPECT_EQ(a.registersPerSm, 65536u);
    EXPECT_EQ(a.maxRegistersPerThread, 255u);
    EXPECT_GT(a.maxSharedBytesPerBlock, 0u);
    EXPECT_LE(a.maxSharedBytesPerBlock + a.reservedSharedBytesPerBlock, a.sharedBytesPerSm);
  }
}

TEST(ArchTable, WhyUnsupported) {
  EXPECT_EQ(support::whyUnsupported("sm_120"), std::nullopt);
  std::string unknown = support::whyUnsupported("sm_99").value_or("");
  EXPECT_EQ(unknown.rfind("unsupported GPU architecture `sm_99` (supported: sm_75, ", 0), 0u) << unknown;
  EXPECT_NE(unknown.find("compute_90a)"), std::string::npos) << unknown;
  EXPECT_EQ(support::whyUnsupported("compute_120").value_or(""),
            "`compute_120` PTX is newer than LLVM 19 writes (PTX up to compute_90a); `compute_90` PTX "
            "runs on sm_120 and every later GPU through the driver's JIT");
  // sm_88 sits below sm_89: its PTX target is compute_87's.
  EXPECT_NE(support::whyUnsupported("compute_88").value_or("").find("`compute_87` PTX runs on sm_88"),
            std::string::npos);
  EXPECT_NE(support::whyUnsupported("compute_70").value_or("").find("unsupported GPU architecture"),
            std::string::npos);
}

}  // namespace
