#pragma once
// Load pins for SIMT functions: backend/passes/load_pins.h says what they are for.
namespace llvm {
class Function;
}  // namespace llvm

namespace lowering::simt {

// Places a pin before the conditional branch of each block of `function` that
// reads memory other than its own locals. Returns how many.
unsigned pinLoads(llvm::Function& function);

}  // namespace lowering::simt
