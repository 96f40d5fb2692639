#include "backend/passes/alias_versioning.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <vector>

#include "lowering/array_params.h"

namespace backend {
namespace {

// One array argument as lowering recorded it.
struct ArrayParam {
  llvm::Argument* data = nullptr;
  unsigned ndim = 0;
  uint64_t itemsize = 0;
  unsigned layout = lowering::kArrayLayoutAny;
  // Shapes, then strides (elements): the parameters after `data`.
  llvm::Argument* shape(unsigned d) const { return data->getParent()->getArg(data->getArgNo() + 1 + d); }
  llvm::Argument* stride(unsigned d) const {
    return data->getParent()->getArg(data->getArgNo() + 1 + ndim + d);
  }
};

// The record's arrays, or an empty list when it does not fit the function
// (which would be a lowering bug; nothing is versioned then).
std::vector<ArrayParam> readArrayParams(const llvm::MDNode& record, llvm::Function& function) {
  std::vector<ArrayParam> arrays;
  for (const llvm::MDOperand& operand : record.operands()) {
    const auto* node = llvm::dyn_cast<llvm::MDNode>(operand.get());
    if (node == nullptr || node->getNumOperands() < 3 || node->getNumOperands() > 4) return {};
    auto* param = llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(0));
    auto* ndim = llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(1));
    auto* itemsize = llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(2));
    if (param == nullptr || ndim == nullptr || itemsize == nullptr) return {};
    unsigned layout = lowering::kArrayLayoutAny;
    if (node->getNumOperands() == 4) {
      auto* field = llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(3));
      if (field == nullptr || field->getZExtValue() > lowering::kArrayLayoutF) return {};
      layout = static_cast<unsigned>(field->getZExtValue());
    }
    uint64_t first = param->getZExtValue();
    uint64_t dims = ndim->getZExtValue();
    if (first + 2 * dims >= function.arg_size() ||
        !function.getArg(first)->getType()->isPointerTy()) {
      return {};
    }
    arrays.push_back(ArrayParam{function.getArg(static_cast<unsigned>(first)),
                                static_cast<unsigned>(dims), itemsize->getZExtValue(), layout});
  }
  return arrays;
}

// The array whose data pointer `pointer` is based on, alone; -1 otherwise.
int arrayOf(const llvm::Value* pointer,
            const llvm::DenseMap<const llvm::Value*, int>& arrayOfData) {
  llvm::SmallVector<const llvm::Value*, 4> objects;
  // Without LoopInfo: a pointer PHI stepping through a loop is followed to
  // where it starts (we only need "based on", not "the same object in one
  // iteration"); 0 means no limit on the steps.
  llvm::getUnderlyingObjects(pointer, objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  int found = -1;
  for (const llvm::Value* object : objects) {
    auto it = arrayOfData.find(object);
    if (it == arrayOfData.end() || (found >= 0 && found != it->second)) return -1;
    found = it->second;
  }
  return found;
}

// A tagged access: a simple load or store and its array.
struct Access {
  llvm::Instruction* instruction;
  int array;
  bool store;
};

// Some innermost loop of at most kAliasVersioningMaxLoopSize instructions
// holds a tagged store to one array and a tagged load from another, and no
// innermost loop only reads arrays: the copy's unrolled loop needs more
// registers (saxpy 20 -> 48), which lowers the occupancy the whole kernel
// runs at, and a kernel that also streams through read-only loops loses more
// there than it gains (the softmax benchmark: 12 % slower on the H200).
// `mixing` gets those loops.
bool loopMixesArrays(const llvm::LoopInfo& loops, const std::vector<Access>& accesses,
                     std::vector<const llvm::Loop*>& mixing) {
  llvm::DenseMap<const llvm::BasicBlock*, std::vector<const Access*>> byBlock;
  for (const Access& access : accesses) byBlock[access.instruction->getParent()].push_back(&access);
  bool mixes = false;
  for (const llvm::Loop* loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost()) continue;
    uint64_t stored = 0;
    uint64_t loaded = 0;
    size_t size = 0;
    for (const llvm::BasicBlock* block : loop->blocks()) {
      for (const llvm::Instruction& instruction : *block) {
        if (!llvm::isa<llvm::PHINode>(instruction) && !instruction.isDebugOrPseudoInst()) ++size;
      }
      auto it = byBlock.find(block);
      if (it == byBlock.end()) continue;
      for (const Access* access : it->second) {
        (access->store ? stored : loaded) |= uint64_t{1} << access->array;
      }
    }
    if (stored == 0 && loaded != 0) return false;
    if (size > kAliasVersioningMaxLoopSize) continue;
    bool mixesHere = false;
    for (unsigned s = 0; s < 64; ++s) {
      if ((stored >> s & 1) != 0 && (loaded & ~(uint64_t{1} << s)) != 0) mixesHere = true;
    }
    if (mixesHere) mixing.push_back(loop);
    mixes = mixes || mixesHere;
  }
  return mixes;
}

// The outermost loop around `loop`.
const llvm::Loop* outermost(const llvm::Loop* loop) {
  while (loop->getParentLoop() != nullptr) loop = loop->getParentLoop();
  return loop;
}

// Where the check goes: the nearest block that dominates the way into every
// mixing loop's outermost loop, outside all loops (else every iteration
// would check again). Code above it runs once for both bodies: a thread
// that leaves before any such loop never computes the check, and one that
// reaches it has issued the loads before it (nvtabular's _slice_rows reads
// its row's offsets, then copies the row).
llvm::BasicBlock* checkBlock(const llvm::DominatorTree& dominators, const llvm::LoopInfo& loops,
                             const std::vector<const llvm::Loop*>& mixing) {
  auto into = [&](const llvm::Loop* loop) {
    if (llvm::BasicBlock* preheader = loop->getLoopPreheader()) return preheader;
    return dominators.getNode(loop->getHeader())->getIDom()->getBlock();
  };
  llvm::BasicBlock* block = nullptr;
  for (const llvm::Loop* loop : mixing) {
    llvm::BasicBlock* way = into(outermost(loop));
    block = block == nullptr ? way : dominators.findNearestCommonDominator(block, way);
  }
  while (const llvm::Loop* loop = loops.getLoopFor(block)) block = into(outermost(loop));
  return block;
}

// [low, high) of the bytes `array` reaches with in-bounds indices, and
// whether it reaches none (some extent <= 0).
struct ByteRange {
  llvm::Value* low;
  llvm::Value* high;
  llvm::Value* empty;
};

// Every thread that reaches the check block computes this (nothing shares it
// between threads), so the layout's facts are used: a C or F array's strides are not
// negative (no smin/smax) and its unit stride is no multiplication; a 1-d
// contiguous array's range is [data, data + extent * itemsize).
ByteRange emitByteRange(llvm::IRBuilder<>& builder, const ArrayParam& array) {
  llvm::Type* i64 = builder.getInt64Ty();
  llvm::Value* zero = builder.getInt64(0);
  llvm::Value* one = builder.getInt64(1);
  bool contiguous = array.layout != lowering::kArrayLayoutAny;
  unsigned unitDim = array.layout == lowering::kArrayLayoutC ? array.ndim - 1 : 0;
  llvm::Value* below = zero;
  // The highest in-bounds offset + 1, elements.
  llvm::Value* above = one;
  llvm::Value* empty = builder.getFalse();
  for (unsigned d = 0; d < array.ndim; ++d) {
    llvm::Value* extent = array.shape(d);
    empty = builder.CreateOr(empty, builder.CreateICmpSLE(extent, zero));
    if (contiguous && d == unitDim) {
      // (extent - 1) * 1, added to the 1 already there.
      above = builder.CreateAdd(above, builder.CreateSub(extent, one));
      continue;
    }
    // The last index's offset, (extent - 1) * stride, elements.
    llvm::Value* reach = builder.CreateMul(builder.CreateSub(extent, one), array.stride(d));
    if (contiguous) {
      above = builder.CreateAdd(above, reach);
      continue;
    }
    below = builder.CreateAdd(below, builder.CreateBinaryIntrinsic(llvm::Intrinsic::smin, reach, zero));
    above = builder.CreateAdd(above, builder.CreateBinaryIntrinsic(llvm::Intrinsic::smax, reach, zero));
  }
  llvm::Value* itemsize = builder.getInt64(array.itemsize);
  llvm::Value* base = builder.CreatePtrToInt(array.data, i64);
  llvm::Value* low = contiguous ? base : builder.CreateAdd(base, builder.CreateMul(below, itemsize));
  llvm::Value* high = builder.CreateAdd(base, builder.CreateMul(above, itemsize));
  return ByteRange{low, high, empty};
}

// Gives the cloned loops their own loop ids (`!llvm.loop` nodes are
// distinct and name one loop; later passes attach options to them).
void renameLoopIds(llvm::ArrayRef<llvm::BasicBlock*> blocks) {
  llvm::DenseMap<llvm::MDNode*, llvm::MDNode*> renamed;
  for (llvm::BasicBlock* block : blocks) {
    llvm::Instruction* terminator = block->getTerminator();
    llvm::MDNode* id = terminator->getMetadata(llvm::LLVMContext::MD_loop);
    if (id == nullptr || id->getNumOperands() == 0 || id->getOperand(0) != id) continue;
    auto [it, inserted] = renamed.try_emplace(id, nullptr);
    if (inserted) {
      llvm::SmallVector<llvm::Metadata*, 4> operands{nullptr};
      for (unsigned i = 1; i < id->getNumOperands(); ++i) operands.push_back(id->getOperand(i));
      llvm::MDNode* fresh = llvm::MDNode::getDistinct(id->getContext(), operands);
      fresh->replaceOperandWith(0, fresh);
      it->second = fresh;
    }
    terminator->setMetadata(llvm::LLVMContext::MD_loop, it->second);
  }
}

void addMetadata(llvm::Instruction& instruction, unsigned kind, llvm::MDNode* node) {
  instruction.setMetadata(kind, llvm::MDNode::concatenate(instruction.getMetadata(kind), node));
}

// Versions `function` (see the header); false when it does not qualify.
bool versionKernel(llvm::Function& function, const std::vector<ArrayParam>& arrays,
                   llvm::FunctionAnalysisManager& analyses) {
  if (arrays.size() < 2) return false;
  llvm::DenseMap<const llvm::Value*, int> arrayOfData;
  for (size_t a = 0; a < arrays.size(); ++a) arrayOfData[arrays[a].data] = static_cast<int>(a);
  std::vector<Access> accesses;
  size_t size = 0;
  for (llvm::BasicBlock& block : function) {
    for (llvm::Instruction& instruction : block) {
      ++size;
      const llvm::Value* pointer = nullptr;
      bool store = false;
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction); load && load->isSimple()) {
        pointer = load->getPointerOperand();
      } else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&instruction); st && st->isSimple()) {
        pointer = st->getPointerOperand();
        store = true;
      }
      if (pointer == nullptr) continue;
      int array = arrayOf(pointer, arrayOfData);
      if (array >= 0) accesses.push_back(Access{&instruction, array, store});
    }
  }
  if (size > kAliasVersioningMaxSize || accesses.empty()) return false;
  // The arrays tagged, renumbered densely in argument order.
  std::vector<int> tagOf(arrays.size(), -1);
  std::vector<bool> stored(arrays.size(), false);
  for (const Access& access : accesses) {
    tagOf[access.array] = 0;
    if (access.store) stored[access.array] = true;
  }
  std::vector<size_t> tagged;
  for (size_t a = 0; a < arrays.size(); ++a) {
    if (tagOf[a] < 0) continue;
    tagOf[a] = static_cast<int>(tagged.size());
    tagged.push_back(a);
  }
  if (tagged.size() < 2 || tagged.size() > kAliasVersioningMaxArrays) return false;
  for (Access& access : accesses) access.array = tagOf[access.array];
  const llvm::LoopInfo& loops = analyses.getResult<llvm::LoopAnalysis>(function);
  std::vector<const llvm::Loop*> mixing;
  if (!loopMixesArrays(loops, accesses, mixing)) return false;

  llvm::LLVMContext& context = function.getContext();
  // The check block keeps its instructions and gets the check; its
  // terminator, alone in a block of its own, and every block that block
  // dominates are the body (a region entered through it alone).
  llvm::DominatorTree& dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  llvm::BasicBlock* check = checkBlock(dominators, loops, mixing);
  llvm::SmallVector<llvm::BasicBlock*, 32> region;
  dominators.getDescendants(check, region);
  llvm::BasicBlock* body = check->splitBasicBlock(check->getTerminator(), "alias.original");
  llvm::SmallPtrSet<llvm::BasicBlock*, 32> inRegion(region.begin(), region.end());
  inRegion.erase(check);
  inRegion.insert(body);
  std::vector<llvm::BasicBlock*> originals;
  for (llvm::BasicBlock& block : function) {
    if (inRegion.contains(&block)) originals.push_back(&block);
  }
  llvm::ValueToValueMapTy map;
  std::vector<llvm::BasicBlock*> clones;
  for (llvm::BasicBlock* block : originals) {
    llvm::BasicBlock* clone = llvm::CloneBasicBlock(block, map, ".noalias", &function);
    map[block] = clone;
    clones.push_back(clone);
  }
  llvm::remapInstructionsInBlocks(clones, map);
  renameLoopIds(clones);
  // Where the body leaves the region (the join after an `if` around the
  // loop, the kernel's return), the clone's edges join too. Values of the
  // region reach beyond it only through such PHIs (it is a dominance subtree).
  for (llvm::BasicBlock* block : originals) {
    auto* clone = llvm::cast<llvm::BasicBlock>(map[block]);
    for (llvm::BasicBlock* successor : llvm::successors(block)) {
      if (inRegion.contains(successor)) continue;
      for (llvm::PHINode& phi : successor->phis()) {
        llvm::Value* incoming = phi.getIncomingValueForBlock(block);
        llvm::Value* mapped = map.lookup(incoming);
        phi.addIncoming(mapped != nullptr ? mapped : incoming, clone);
      }
    }
  }

  // One scope per tagged array, in one domain for this kernel.
  llvm::MDBuilder builderMd(context);
  llvm::MDNode* domain = builderMd.createAnonymousAliasScopeDomain(function.getName());
  std::vector<llvm::MDNode*> scopes;
  for (size_t a : tagged) {
    scopes.push_back(builderMd.createAnonymousAliasScope(domain, arrays[a].data->getName()));
  }
  std::vector<llvm::MDNode*> scopeLists;
  std::vector<llvm::MDNode*> otherLists;
  for (size_t t = 0; t < tagged.size(); ++t) {
    scopeLists.push_back(llvm::MDNode::get(context, {scopes[t]}));
    llvm::SmallVector<llvm::Metadata*, 8> others;
    for (size_t u = 0; u < tagged.size(); ++u) {
      if (u != t) others.push_back(scopes[u]);
    }
    otherLists.push_back(llvm::MDNode::get(context, others));
  }
  for (const Access& access : accesses) {
    // Accesses above the check block are not in the body.
    auto* clone = llvm::cast_or_null<llvm::Instruction>(map.lookup(access.instruction));
    if (clone == nullptr) continue;
    addMetadata(*clone, llvm::LLVMContext::MD_alias_scope, scopeLists[access.array]);
    addMetadata(*clone, llvm::LLVMContext::MD_noalias, otherLists[access.array]);
  }

  // The check: every pair with a stored array is disjoint.
  check->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> builder(check);
  std::vector<ByteRange> ranges;
  for (size_t a : tagged) ranges.push_back(emitByteRange(builder, arrays[a]));
  llvm::Value* disjoint = builder.getTrue();
  for (size_t t = 0; t < tagged.size(); ++t) {
    for (size_t u = t + 1; u < tagged.size(); ++u) {
      if (!stored[tagged[t]] && !stored[tagged[u]]) continue;
      const ByteRange& x = ranges[t];
      const ByteRange& y = ranges[u];
      llvm::Value* apart = builder.CreateOr(
          {x.empty, y.empty, builder.CreateICmpULE(x.high, y.low), builder.CreateICmpULE(y.high, x.low)});
      disjoint = builder.CreateAnd(disjoint, apart);
    }
  }
  builder.CreateCondBr(disjoint, llvm::cast<llvm::BasicBlock>(map[body]), body);
  return true;
}

}  // namespace

llvm::PreservedAnalyses AliasVersioningPass::run(llvm::Function& function,
                                                 llvm::FunctionAnalysisManager& analyses) {
  llvm::MDNode* record = function.getMetadata(lowering::kArrayParamsMetadata);
  if (record == nullptr) return llvm::PreservedAnalyses::all();
  function.setMetadata(lowering::kArrayParamsMetadata, nullptr);
  if (!enabled_ || function.isDeclaration()) return llvm::PreservedAnalyses::all();
  std::vector<ArrayParam> arrays = readArrayParams(*record, function);
  if (!versionKernel(function, arrays, analyses)) return llvm::PreservedAnalyses::all();
  return llvm::PreservedAnalyses::none();
}

}  // namespace backend
