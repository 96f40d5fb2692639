#pragma once
// numba.cuda.random's device functions (numba-cuda's random.py: xoroshiro128+
// with SplitMix64 seeding), computed as numba's definitions compute them, so
// that a state array gives numba's numbers bit for bit (the normals go
// through libdevice's logf/sqrt/cos as numba's `math` calls do).
#include "sema/resolve.h"

namespace llvm {
class IRBuilderBase;
class Module;
class Value;
}  // namespace llvm

namespace lowering {

// One generator's state: the addresses of its uint64 fields s0 and s1.
struct XoroshiroState {
  llvm::Value* s0;
  llvm::Value* s1;
};

// Calls `fn` on `state` (`seed`: init_xoroshiro128p_state's third argument,
// a uint64; unused otherwise). Returns the result (nullptr for the functions
// returning None). The uint64_to_unit_float32/64 helpers take `seed` as
// their argument and ignore `state`.
llvm::Value* lowerRandom(llvm::IRBuilderBase& b, llvm::Module& module, frontend::RandomFn fn,
                         XoroshiroState state, llvm::Value* seed);

}  // namespace lowering
