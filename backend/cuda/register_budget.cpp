#include "backend/cuda/register_budget.h"

#include <algorithm>

#include "backend/ptx.h"

namespace backend {
namespace {

uint32_t ctasFor(const RegisterBudget& b) {
  return b.registers == 0 || b.threads == 0 ? 0 : std::clamp<uint32_t>(65536 / (b.threads * b.registers), 1, 32);
}

}  // namespace

std::string applyRegisterBudgets(std::string ptx, std::span<const RegisterBudget> budgets) {
  for (const RegisterBudget& b : budgets) {
    if (b.registers == 0 || b.threads == 0) continue;
    ptx = withMinCtasPerSm(ptx, b.symbol, ctasFor(b));
  }
  return ptx;
}

llvm::Expected<BudgetedLink> linkWithRegisterBudgets(const NvJitLink& library, std::vector<LinkInput> inputs,
                                                     const LinkOptions& options,
                                                     std::vector<RegisterBudget> budgets,
                                                     uint32_t relaxedRegisters) {
  BudgetedLink out;
  out.ptx = std::string(inputs[0].bytes);
  for (;;) {
    inputs[0].bytes = out.ptx;
    auto linked = linkCubin(library, inputs, options);
    if (!linked) return linked.takeError();
    out.cubin = std::move(linked->cubin);
    auto resources = readCubinResources(out.cubin, linked->infoLog);
    if (!resources) return resources.takeError();
    out.resources = std::move(*resources);
    bool relaxed = false;
    for (RegisterBudget& b : budgets) {
      auto r = out.resources.find(b.symbol);
      if (b.registers == 0 || b.threads == 0 || r == out.resources.end() || r->second.spillStores == 0) continue;
      // The relaxed budget where the spilled bytes would fit in its extra
      // registers (else it would spill too: one link saved).
      uint32_t extraBytes = 4 * (relaxedRegisters - std::min(b.registers, relaxedRegisters));
      b.registers = r->second.spillStores <= extraBytes ? relaxedRegisters : 0;
      out.ptx = withMinCtasPerSm(out.ptx, b.symbol, ctasFor(b));
      relaxed = true;
    }
    if (!relaxed) return out;
  }
}

}  // namespace backend
