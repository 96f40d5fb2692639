// registerDemand: how many registers of a thread the named tiles one
// statement reads take at once, to tell the link's register budget where it
// cannot hold (docs/TILE.md, "Register budget").
#include <algorithm>
#include <tuple>
#include <vector>

#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

namespace {

using Position = std::tuple<uint32_t, uint32_t>;

Position startOf(const frontend::NodeRange& r) { return {r.lineno, r.colOffset}; }
Position endOf(const frontend::NodeRange& r) { return {r.endLineno, r.endColOffset}; }

bool simpleStatement(frontend::StmtKind k) {
  using K = frontend::StmtKind;
  return k == K::Assign || k == K::AugAssign || k == K::AnnAssign || k == K::Expr || k == K::Return;
}

}  // namespace

uint32_t TileLowering::registerDemand(const frontend::FunctionInstance& inst) const {
  // The tile names the instance reads, in source order.
  struct Read {
    Position at;
    uint32_t name;
    uint32_t halfRegisters;
  };
  std::vector<Read> reads;
  for (size_t i = 0; i < inst.exprTypes.size(); ++i) {
    TypeId t = inst.exprTypes[i];
    if (!t.valid() || !types_.isTile(t)) continue;
    const frontend::Expr& e = ast_.expr(ExprId(static_cast<uint32_t>(i)));
    const auto* name = e.dyn<ast::Name>();
    if (name == nullptr || name->ctx != frontend::ExprContext::Load) continue;
    unsigned bytes = types_.byteSize(elementOf(t));
    uint32_t perSlot = bytes > 4 ? 4 : bytes == 2 ? 1 : 2;
    reads.push_back({startOf(e.range), name->id.index, layoutOf(t).slots * perSlot});
  }
  uint32_t most = 0;
  if (!reads.empty()) {
    std::sort(reads.begin(), reads.end(), [](const Read& a, const Read& b) { return a.at < b.at; });
    for (size_t s = 0; s < ast_.stmtCount(); ++s) {
      const frontend::Stmt& stmt = ast_.stmt(StmtId(static_cast<uint32_t>(s)));
      if (!simpleStatement(stmt.kind())) continue;
      auto first = std::lower_bound(reads.begin(), reads.end(), startOf(stmt.range),
                                    [](const Read& r, const Position& p) { return r.at < p; });
      std::vector<std::pair<uint32_t, uint32_t>> names;  // (name, half registers), distinct
      for (auto it = first; it != reads.end() && it->at < endOf(stmt.range); ++it) {
        auto seen = std::find_if(names.begin(), names.end(), [&](const auto& n) { return n.first == it->name; });
        if (seen == names.end()) {
          names.emplace_back(it->name, it->halfRegisters);
        } else {
          seen->second = std::max(seen->second, it->halfRegisters);
        }
      }
      uint32_t half = 0;
      for (const auto& n : names) half += n.second;
      most = std::max(most, half / 2);
    }
  }
  for (int32_t callee : inst.callees) {
    if (callee >= 0) most = std::max(most, registerDemand(typed_.instances[static_cast<size_t>(callee)]));
  }
  for (const frontend::StaticUnroll& u : inst.unrolled) {
    for (const frontend::FunctionInstance& it : u.iterations) most = std::max(most, registerDemand(it));
  }
  return most;
}

}  // namespace lowering::tile
