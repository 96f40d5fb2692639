#include "sema/typed_module.h"

namespace frontend {

std::vector<uint32_t> reachableInstances(const TypedModule& typed, uint32_t root) {
  std::vector<uint32_t> order;
  std::vector<bool> seen(typed.instances.size(), false);
  // Depth first, callees in expression order.
  auto visit = [&](auto&& self, uint32_t i) -> void {
    if (seen[i]) return;
    seen[i] = true;
    order.push_back(i);
    forEachCallee(typed.instances[i], [&](int32_t c) {
      if (c >= 0 && static_cast<size_t>(c) < typed.instances.size()) {
        self(self, static_cast<uint32_t>(c));
      }
    });
  };
  visit(visit, root);
  return order;
}

}  // namespace frontend
