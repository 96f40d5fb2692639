#pragma once
// The register-budget policy of the link (docs/TILE.md, "Register budget"):
// kernels that ask for a budget get it as `.minnctapersm` in their PTX; where
// ptxas spills under it, the next link asks for the relaxed budget when the
// spilled bytes fit its extra registers, else for none. One more link per
// step some kernel needed; kernels without a budget are linked once.
#include <llvm/Support/Error.h>

#include <cstdint>
#include <future>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "backend/cuda/nvjitlink.h"
#include "backend/cuda/resources.h"

namespace backend {

struct RegisterBudget {
  std::string symbol;
  uint32_t threads = 0;    // the kernel's block size (its .maxntid)
  uint32_t registers = 0;  // a thread's first budget; 0: none
  uint32_t toleratedSpillBytes = 0;  // spills (stores, bytes) the budget is kept with
};

// `ptx` with every budget's `.minnctapersm` (65536 / (threads * registers)
// CTAs, 1-32). Budgets with no registers or threads are left out.
std::string applyRegisterBudgets(std::string ptx, std::span<const RegisterBudget> budgets);

// Links of guesses the policy did not take, left to finish on their own
// threads (a compile does not wait for them). The destructor waits for them:
// whoever owns the NvJitLink they use must destroy this first.
class BackgroundLinks {
public:
  BackgroundLinks() = default;
  BackgroundLinks(const BackgroundLinks&) = delete;
  BackgroundLinks& operator=(const BackgroundLinks&) = delete;
  ~BackgroundLinks();
  // Keeps `link` until it finishes (finished ones, and their errors, are
  // dropped as more come).
  void add(std::future<llvm::Expected<LinkResult>> link);

private:
  std::mutex mutex_;
  std::vector<std::future<llvm::Expected<LinkResult>>> links_;
};

struct BudgetedLink {
  std::string ptx;  // as last linked (the budgets the cubin was built with)
  std::string cubin;
  ResourceMap resources;
};

// Links `inputs` (inputs[0]: the module's PTX, already with applyRegisterBudgets)
// and relaxes the budgets of kernels that spilled, to `relaxedRegisters` or
// none, until no budgeted kernel spills. `spareThreads` (0-2): threads that
// may link the policy's likely next steps (every budget relaxed, then none)
// beside the first link; a step that matches one takes its result, so a kernel
// that spills under its first budget costs one link's time, not two or three.
// The output does not depend on it. Guesses not taken finish in `background`
// (which must outlive nothing they use but `library`), or are waited for when it
// is null.
llvm::Expected<BudgetedLink> linkWithRegisterBudgets(const NvJitLink& library, std::vector<LinkInput> inputs,
                                                     const LinkOptions& options,
                                                     std::vector<RegisterBudget> budgets,
                                                     uint32_t relaxedRegisters, unsigned spareThreads = 0,
                                                     BackgroundLinks* background = nullptr);

}  // namespace backend
