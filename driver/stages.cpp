#include "driver/stages.h"

#include <array>
#include <vector>

namespace driver {
namespace {

//  name         suffix          perArch textOrJson emit   phase  inspect cache
constexpr std::array<StageInfo, 12> kStages = {{
    {"tokens", ".tokens.txt", false, false, false, false, true, false},
    {"ast", ".ast.txt", false, false, false, false, true, false},
    {"check", "", false, false, false, true, false, false},
    {"types", ".types", false, true, false, false, true, false},
    {"llvm", ".ll", true, false, true, true, true, false},
    {"llvm-opt", ".opt.ll", true, false, false, false, true, false},
    {"ptx", ".ptx", true, false, true, true, true, true},
    {"cubin", ".cubin", true, false, true, true, false, true},
    {"sass", ".sass", true, false, false, false, true, false},
    {"resources", ".resources", true, true, false, false, true, true},
    {"cache-key", ".cache-key", true, true, false, false, true, false},
    // `compile --fatbin`: every arch in one file (its own cache entry).
    {"fatbin", ".fatbin", false, false, false, false, false, true},
}};

}  // namespace

std::span<const StageInfo> stages() { return kStages; }

const StageInfo* findStage(std::string_view name) {
  for (const StageInfo& s : kStages) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string stageNames(bool StageInfo::*flag) {
  std::vector<std::string_view> names;
  for (const StageInfo& s : kStages) {
    if (s.*flag) names.push_back(s.name);
  }
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::string stageFileName(const StageInfo& stage, std::string_view stem, std::string_view arch, bool json) {
  std::string out(stem);
  if (stage.perArch) (out += ".") += arch;
  out += stage.suffix;
  if (stage.textOrJson) out += json ? ".json" : ".txt";
  return out;
}

}  // namespace driver
