#include "support/arch.h"

#include <array>

namespace support {
namespace {

//                 name      sm  a      f64    thr/SM blk/SM regs/SM regs/blk unit regs/thr shared/SM shared/blk unit reserved
constexpr std::array<ArchInfo, 7> kArchs = {{
    {"sm_75", 75, false, false, 1024, 16, 65536, 65536, 256, 255, 65536, 65536, 256, 0},
    {"sm_80", 80, false, true, 2048, 32, 65536, 65536, 256, 255, 167936, 166912, 128, 1024},
    {"sm_86", 86, false, false, 1536, 16, 65536, 65536, 256, 255, 102400, 101376, 128, 1024},
    {"sm_87", 87, false, false, 1536, 16, 65536, 65536, 256, 255, 167936, 166912, 128, 1024},
    {"sm_89", 89, false, false, 1536, 24, 65536, 65536, 256, 255, 102400, 101376, 128, 1024},
    {"sm_90", 90, false, true, 2048, 32, 65536, 65536, 256, 255, 233472, 232448, 128, 1024},
    {"sm_90a", 90, true, true, 2048, 32, 65536, 65536, 256, 255, 233472, 232448, 128, 1024},
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

}  // namespace support
