#include "backend/cuda/register_budget.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <future>
#include <list>
#include <optional>

#include "backend/ptx.h"

namespace backend {
namespace {

uint32_t ctasFor(const RegisterBudget& b) {
  return b.registers == 0 || b.threads == 0 ? 0 : std::clamp<uint32_t>(65536 / (b.threads * b.registers), 1, 32);
}

bool budgeted(const RegisterBudget& b) { return b.registers != 0 && b.threads != 0; }

// The PTX with every budget below `registers` set to it (0: every budget dropped).
std::string withEveryBudget(std::string ptx, std::span<const RegisterBudget> budgets, uint32_t registers) {
  for (RegisterBudget b : budgets) {
    if (!budgeted(b) || (registers != 0 && b.registers >= registers)) continue;
    b.registers = registers;
    ptx = withMinCtasPerSm(ptx, b.symbol, ctasFor(b));
  }
  return ptx;
}

// Links of PTX the policy may ask for next, started on other threads before it
// knows. Each is taken at most once, by exact PTX. Each owns copies of its
// inputs and options, so that one not taken can finish after the compile
// returned (in `background`); without one, the destructor waits for them (their
// errors are dropped: they are not the compile's).
class Guesses {
public:
  Guesses(const NvJitLink& library, const std::vector<LinkInput>& inputs, const LinkOptions& options,
          BackgroundLinks* background)
      : library_(library), inputs_(inputs), options_(options), background_(background) {}
  Guesses(const Guesses&) = delete;
  Guesses& operator=(const Guesses&) = delete;
  ~Guesses() {
    for (Guess& g : guesses_) {
      if (!g.result.valid()) continue;
      if (background_ != nullptr) {
        background_->add(std::move(g.result));
        continue;
      }
      llvm::Expected<LinkResult> r = g.result.get();
      if (!r) llvm::consumeError(r.takeError());
    }
  }

  void start(std::string ptx) {
    for (const Guess& g : guesses_)
      if (g.ptx == ptx) return;
    auto job = std::make_shared<Job>();
    job->bytes.push_back(ptx);
    for (size_t i = 1; i < inputs_.size(); ++i) job->bytes.emplace_back(inputs_[i].bytes);
    job->inputs = inputs_;
    for (size_t i = 0; i < job->inputs.size(); ++i) job->inputs[i].bytes = job->bytes[i];
    job->options = options_;
    Guess& g = guesses_.emplace_back();
    g.ptx = std::move(ptx);
    const NvJitLink* library = &library_;
    g.result = std::async(std::launch::async, [library, job] { return linkCubin(*library, job->inputs, job->options); });
  }

  // The started link of exactly `ptx`, if any.
  std::optional<llvm::Expected<LinkResult>> take(const std::string& ptx) {
    for (Guess& g : guesses_) {
      if (g.ptx != ptx || !g.result.valid()) continue;
      return g.result.get();
    }
    return std::nullopt;
  }

private:
  struct Job {
    std::vector<std::string> bytes;  // the inputs' bytes, owned
    std::vector<LinkInput> inputs;   // viewing `bytes`
    LinkOptions options;
  };
  struct Guess {
    std::string ptx;
    std::future<llvm::Expected<LinkResult>> result;
  };
  const NvJitLink& library_;
  const std::vector<LinkInput>& inputs_;
  const LinkOptions& options_;
  BackgroundLinks* background_;
  std::list<Guess> guesses_;
};

}  // namespace

namespace {

void drop(std::future<llvm::Expected<LinkResult>>& link) {
  llvm::Expected<LinkResult> r = link.get();
  if (!r) llvm::consumeError(r.takeError());
}

}  // namespace

BackgroundLinks::~BackgroundLinks() {
  for (auto& link : links_) drop(link);
}

void BackgroundLinks::add(std::future<llvm::Expected<LinkResult>> link) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase_if(links_, [](std::future<llvm::Expected<LinkResult>>& f) {
    if (f.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
    drop(f);
    return true;
  });
  links_.push_back(std::move(link));
}

std::string applyRegisterBudgets(std::string ptx, std::span<const RegisterBudget> budgets) {
  for (const RegisterBudget& b : budgets) {
    if (!budgeted(b)) continue;
    ptx = withMinCtasPerSm(ptx, b.symbol, ctasFor(b));
  }
  return ptx;
}

llvm::Expected<BudgetedLink> linkWithRegisterBudgets(const NvJitLink& library, std::vector<LinkInput> inputs,
                                                     const LinkOptions& options,
                                                     std::vector<RegisterBudget> budgets,
                                                     uint32_t relaxedRegisters, unsigned spareThreads,
                                                     BackgroundLinks* background) {
  BudgetedLink out;
  out.ptx = std::string(inputs[0].bytes);
  Guesses guesses(library, inputs, options, background);
  if (spareThreads > 0 && std::any_of(budgets.begin(), budgets.end(), budgeted)) {
    // The policy's next steps where every budgeted kernel behaves alike: all
    // relaxed, then none. With one budgeted kernel these are all it can ask for.
    std::string relaxed = withEveryBudget(out.ptx, budgets, relaxedRegisters);
    if (relaxed != out.ptx) {
      guesses.start(std::move(relaxed));
      --spareThreads;
    }
    if (spareThreads > 0) guesses.start(withEveryBudget(out.ptx, budgets, 0));
  }
  for (;;) {
    inputs[0].bytes = out.ptx;
    std::optional<llvm::Expected<LinkResult>> linked = guesses.take(out.ptx);
    if (!linked) linked.emplace(linkCubin(library, inputs, options));
    if (!*linked) return linked->takeError();
    out.cubin = std::move((*linked)->cubin);
    auto resources = readCubinResources(out.cubin, (*linked)->infoLog);
    if (!resources) return resources.takeError();
    out.resources = std::move(*resources);
    bool relaxed = false;
    for (RegisterBudget& b : budgets) {
      auto r = out.resources.find(b.symbol);
      if (!budgeted(b) || r == out.resources.end() || r->second.spillStores <= b.toleratedSpillBytes) continue;
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
