// Reductions along axes in registers and warp shuffles (docs/TILE.md,
// "Reductions along axes"), the broadcast of their results back over the
// tile they came from, and broadcasts that stay in registers.
//
// A layout of a power-of-two shape deals element index bits out to a thread's
// slots and to the thread id (indexBits). Reducing axes removes their bits:
// a removed bit held by the slot is combined in the thread, one held by a
// lane bit of the thread id by `shfl.sync.bfly`, one held by a warp bit
// through shared memory. Kept bits say which output element a combined value
// is; where the output's layout places that element in the same thread, it
// is taken from registers.
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

namespace {

bool powerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

unsigned bitsOf(int64_t v) {
  unsigned r = 0;
  while ((int64_t(1) << r) < v) ++r;
  return r;
}

std::vector<int> codes(const std::vector<IndexBit>& bits) {
  std::vector<int> c;
  for (const IndexBit& b : bits) c.push_back(b.code());
  return c;
}

}  // namespace

std::optional<std::vector<IndexBit>> TileLowering::indexBits(const Layout& l, unsigned s) const {
  std::vector<IndexBit> bits;
  if (l.mma || !powerOfTwo(l.n)) return std::nullopt;
  if (l.uniform) return bits;
  unsigned nb = bitsOf(l.n);
  if (l.partial) {
    for (unsigned i = 0; i < nb; ++i) bits.push_back({static_cast<int>(i), false});
    return bits;
  }
  if (!powerOfTwo(threads_) || !powerOfTwo(l.vec) || !powerOfTwo(l.slots)) return std::nullopt;
  unsigned lv = bitsOf(l.vec), lt = bitsOf(threads_);
  unsigned chunk = s / l.vec, lane = s % l.vec;
  for (unsigned i = 0; i < nb; ++i) {
    if (i < lv) {
      bits.push_back({-1, ((lane >> i) & 1) != 0});
    } else if (i < lv + lt) {
      bits.push_back({static_cast<int>(i - lv), false});
    } else {
      bits.push_back({-1, ((chunk >> (i - lv - lt)) & 1) != 0});
    }
  }
  return bits;
}

llvm::Value* TileLowering::composeBits(const std::vector<IndexBit>& bits) {
  uint32_t constant = 0;
  llvm::Value* r = nullptr;
  for (size_t i = 0; i < bits.size();) {
    if (bits[i].tidBit < 0) {
      if (bits[i].one) constant |= 1u << i;
      ++i;
      continue;
    }
    // A run of consecutive thread-id bits: one shift and mask.
    size_t j = i + 1;
    while (j < bits.size() && bits[j].tidBit == bits[j - 1].tidBit + 1) ++j;
    llvm::Value* part = b_.CreateLShr(tid_, b_.getInt32(static_cast<uint32_t>(bits[i].tidBit)));
    part = b_.CreateAnd(part, b_.getInt32(static_cast<uint32_t>((uint64_t(1) << (j - i)) - 1)));
    if (i > 0) part = b_.CreateShl(part, b_.getInt32(static_cast<uint32_t>(i)));
    r = r == nullptr ? part : b_.CreateOr(r, part);
    i = j;
  }
  if (r == nullptr) return b_.getInt32(constant);
  return constant == 0 ? r : b_.CreateOr(r, b_.getInt32(constant));
}

llvm::Value* TileLowering::reductionBuffer(uint64_t elements, llvm::Type* mt) {
  uint64_t bytes = elements * mt->getPrimitiveSizeInBits() / 8;
  if (loopDepth_ == 0 && bytes <= 4096) return warpPartials(static_cast<unsigned>(elements), mt);
  llvm::Value* buffer = scratch(bytes);
  barrier();
  return buffer;
}

std::optional<TileVal> TileLowering::axisReduce(TileFn fn, TypeId t, TypeId acc, TypeId accTile, const TileVal& x,
                                                const std::vector<bool>& reduced) {
  const std::vector<int64_t>& xs = types_.get(accTile).shape;
  for (int64_t d : xs) {
    if (!powerOfTwo(d)) return std::nullopt;
  }
  Layout lx = layoutOf(accTile);
  Layout lo = layoutOf(t);
  if (lx.uniform || x.mma) return std::nullopt;
  // Which bits of the input's element index the reduction removes.
  std::vector<bool> removed;
  for (size_t d = xs.size(); d-- > 0;) removed.insert(removed.end(), bitsOf(xs[d]), reduced[d]);
  // The thread's slots grouped by output element (the kept bits).
  struct Group {
    std::vector<IndexBit> out;
    llvm::Value* value = nullptr;
  };
  std::vector<Group> groups;
  std::map<std::vector<int>, size_t> groupOf;
  std::vector<size_t> slotGroup;
  std::vector<IndexBit> threadBits;  // the slots' thread-id bits (alike in every slot)
  for (unsigned s = 0; s < lx.slots; ++s) {
    auto bits = indexBits(lx, s);
    if (!bits || bits->size() != removed.size()) return std::nullopt;
    if (s == 0) threadBits = *bits;
    std::vector<IndexBit> out;
    for (size_t i = 0; i < bits->size(); ++i) {
      if (!removed[i]) out.push_back((*bits)[i]);
    }
    auto [it, fresh] = groupOf.try_emplace(codes(out), groups.size());
    if (fresh) groups.push_back({out, nullptr});
    Group& g = groups[it->second];
    g.value = g.value == nullptr ? x.slots[s] : combine(fn, g.value, x.slots[s], acc);
    slotGroup.push_back(it->second);
  }
  // Removed bits held by the thread id: lane bits shuffle, warp bits go
  // through shared memory.
  std::vector<unsigned> laneBits, warpBits;
  for (size_t i = 0; i < threadBits.size(); ++i) {
    if (!removed[i] || threadBits[i].tidBit < 0) continue;
    unsigned q = static_cast<unsigned>(threadBits[i].tidBit);
    (q < 5 ? laneBits : warpBits).push_back(q);
  }
  for (unsigned q : laneBits) {
    for (Group& g : groups) g.value = combine(fn, g.value, shuffleXor(g.value, 1u << q), acc);
  }
  // The output's slots whose element the same thread holds.
  std::vector<int> direct(lo.slots, -1);
  bool allDirect = true;
  for (unsigned s = 0; s < lo.slots; ++s) {
    auto bits = indexBits(lo, s);
    if (!bits) return std::nullopt;
    auto it = groupOf.find(codes(*bits));
    if (it != groupOf.end()) direct[s] = static_cast<int>(it->second);
    allDirect = allDirect && direct[s] >= 0;
  }
  TypeId e = elementOf(t);
  unsigned partials = 1u << warpBits.size();
  TileVal out;
  std::vector<llvm::Value*> totals(groups.size(), nullptr);
  if (partials == 1 && allDirect) {
    for (unsigned s = 0; s < lo.slots; ++s) out.slots.push_back(convert(groups[static_cast<size_t>(direct[s])].value, acc, e));
    for (size_t g = 0; g < groups.size(); ++g) totals[g] = groups[g].value;
  } else {
    // Partial results at [output element][warp bits]: one writer per lane
    // group (the lanes whose removed lane bits are 0), one barrier.
    llvm::Type* mt = memoryType(acc);
    bool isBool = types_.isBool(acc);
    llvm::Value* buffer = reductionBuffer(static_cast<uint64_t>(lo.n) * partials, mt);
    llvm::Value* w = b_.getInt32(0);
    for (size_t k = 0; k < warpBits.size(); ++k) {
      llvm::Value* bit = b_.CreateAnd(b_.CreateLShr(tid_, b_.getInt32(warpBits[k])), b_.getInt32(1));
      w = b_.CreateOr(w, b_.CreateShl(bit, b_.getInt32(static_cast<uint32_t>(k))));
    }
    uint32_t laneMask = 0;
    for (unsigned q : laneBits) laneMask |= 1u << q;
    llvm::Value* writes = b_.CreateICmpEQ(b_.CreateAnd(tid_, b_.getInt32(laneMask)), b_.getInt32(0));
    if (lx.partial) writes = b_.CreateAnd(writes, slotValid(lx));
    guarded(writes, [&] {
      for (Group& g : groups) {
        llvm::Value* at = b_.CreateAdd(b_.CreateMul(composeBits(g.out), b_.getInt32(partials)), w);
        llvm::Value* v = isBool ? b_.CreateZExt(g.value, b_.getInt8Ty()) : g.value;
        b_.CreateStore(v, b_.CreateGEP(mt, buffer, at));
      }
    });
    barrier();
    auto read = [&](llvm::Value* at) {
      llvm::Value* v = b_.CreateLoad(mt, b_.CreateGEP(mt, buffer, at));
      return isBool ? b_.CreateICmpNE(v, b_.getInt8(0)) : v;
    };
    // An output element's total: its partials combined pairwise, neighbours
    // first (the order of the shuffles below: every reader gets the same bits).
    auto total = [&](llvm::Value* o) {
      llvm::Value* base = b_.CreateMul(o, b_.getInt32(partials));
      std::vector<llvm::Value*> level;
      for (unsigned k = 0; k < partials; ++k) level.push_back(read(b_.CreateAdd(base, b_.getInt32(k))));
      while (level.size() > 1) {
        std::vector<llvm::Value*> next;
        for (size_t k = 0; k < level.size(); k += 2) next.push_back(combine(fn, level[k], level[k + 1], acc));
        level = std::move(next);
      }
      return level[0];
    };
    for (unsigned s = 0; s < lo.slots; ++s) {
      llvm::Value* r = partials == 1 && direct[s] >= 0 ? groups[static_cast<size_t>(direct[s])].value
                                                        : total(clampIndex(elementIndex(lo, s), lo));
      out.slots.push_back(convert(r, acc, e));
    }
    // Every lane of a warp needs the same output element when all five lane
    // bits are removed: lane k reads partial k, shuffles combine them.
    bool lanesShare = laneMask == kWarp - 1 && partials <= kWarp;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (partials == 1) {
        totals[g] = groups[g].value;
      } else if (lanesShare) {
        llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(partials - 1));
        llvm::Value* v = read(b_.CreateAdd(b_.CreateMul(composeBits(groups[g].out), b_.getInt32(partials)), lane));
        for (unsigned k = 1; k < partials; k *= 2) v = combine(fn, v, shuffleXor(v, k), acc);
        totals[g] = v;
      } else {
        totals[g] = total(composeBits(groups[g].out));
      }
    }
  }
  // The result spread back over x's layout, for broadcasts against x.
  RowBroadcast bc{xs, xs, e, {}};
  for (size_t d = 0; d < xs.size(); ++d) {
    if (reduced[d]) bc.keep[d] = 1;
  }
  std::vector<llvm::Value*> converted(groups.size(), nullptr);
  for (unsigned s = 0; s < lx.slots; ++s) {
    llvm::Value*& c = converted[slotGroup[s]];
    if (c == nullptr) c = convert(totals[slotGroup[s]], acc, e);
    bc.slots.push_back(c);
  }
  noteBroadcast(out, std::move(bc));
  return out;
}

const RowBroadcast* TileLowering::broadcastOf(const TileVal& v) const {
  if (v.slots.empty()) return nullptr;
  auto it = broadcasts_.find(v.slots);
  return it == broadcasts_.end() ? nullptr : &it->second;
}

void TileLowering::noteBroadcast(const TileVal& v, RowBroadcast bc) {
  if (v.slots.empty() || v.mma) return;
  broadcasts_[v.slots] = std::move(bc);
}

std::optional<TileVal> TileLowering::spreadInRegisters(const TileVal& v, TypeId from, TypeId to) {
  if (v.mma || !types_.isTile(from) || !types_.isTile(to)) return std::nullopt;
  const std::vector<int64_t>& ts = types_.get(to).shape;
  TypeId fe = elementOf(from), te = elementOf(to);
  Layout lt = layoutOf(to);
  TileVal out;
  if (const RowBroadcast* bc = broadcastOf(v);
      bc != nullptr && stripOnes(bc->shape) == stripOnes(ts) && stripOnes(bc->keep) == stripOnes(types_.get(from).shape) &&
      bc->slots.size() == lt.slots) {
    std::map<llvm::Value*, llvm::Value*> done;
    for (llvm::Value* x : bc->slots) {
      auto [it, fresh] = done.try_emplace(x, nullptr);
      if (fresh) it->second = convert(x, bc->element, te);
      out.slots.push_back(it->second);
    }
    return out;
  }
  // Elsewhere: where each of `to`'s elements is held by the same thread in
  // `from`'s layout (a (1, N) row against (B, N) with matching chunks).
  std::vector<int64_t> fs = types_.get(from).shape;
  if (fs.size() > ts.size()) return std::nullopt;
  fs.insert(fs.begin(), ts.size() - fs.size(), 1);
  Layout lf = layoutOf(from);
  if (lf.partial || lf.uniform) return std::nullopt;
  for (size_t d = 0; d < ts.size(); ++d) {
    if (!powerOfTwo(ts[d]) || (fs[d] != ts[d] && fs[d] != 1)) return std::nullopt;
  }
  std::vector<bool> dropped;  // bits of `to`'s index that `from` broadcasts over
  for (size_t d = ts.size(); d-- > 0;) dropped.insert(dropped.end(), bitsOf(ts[d]), fs[d] == 1);
  std::map<std::vector<int>, unsigned> slotOf;
  for (unsigned s = 0; s < lf.slots; ++s) {
    auto bits = indexBits(lf, s);
    if (!bits) return std::nullopt;
    slotOf.try_emplace(codes(*bits), s);
  }
  for (unsigned s = 0; s < lt.slots; ++s) {
    auto bits = indexBits(lt, s);
    if (!bits || bits->size() != dropped.size()) return std::nullopt;
    std::vector<IndexBit> source;
    for (size_t i = 0; i < bits->size(); ++i) {
      if (!dropped[i]) source.push_back((*bits)[i]);
    }
    auto it = slotOf.find(codes(source));
    if (it == slotOf.end()) return std::nullopt;
    out.slots.push_back(v.slots[it->second]);
  }
  for (llvm::Value*& x : out.slots) x = convert(x, fe, te);
  return out;
}

bool TileLowering::assignedOnce(const std::string& name) {
  if (!assignments_) {
    // Every name stored to inside the function's definition, counted.
    assignments_.emplace();
    const frontend::NodeRange def = functionRange();
    auto inside = [&](const frontend::NodeRange& r) {
      return std::make_tuple(r.lineno, r.colOffset) >= std::make_tuple(def.lineno, def.colOffset) &&
             std::make_tuple(r.endLineno, r.endColOffset) <= std::make_tuple(def.endLineno, def.endColOffset);
    };
    for (size_t i = 0; i < ast_.exprCount(); ++i) {
      const frontend::Expr& e = ast_.expr(ExprId(static_cast<uint32_t>(i)));
      const auto* n = e.dyn<ast::Name>();
      if (n == nullptr || n->ctx == frontend::ExprContext::Load || !inside(e.range)) continue;
      ++(*assignments_)[std::string(ast_.str(n->id))];
    }
  }
  auto it = assignments_->find(name);
  return it != assignments_->end() && it->second == 1;
}

}  // namespace lowering::tile
