#pragma once
// One budget of threads for a whole `pykc` process (`-j`): `cache populate`'s
// workers and the kernel partitions of each compile (driver/codegen_internal.h) draw
// from it, so that nested parallel work never runs more threads than asked.
#include <cstddef>
#include <functional>
#include <mutex>

namespace driver {

class ThreadBudget {
public:
  // `threads` in all, the calling thread included (at least 1).
  explicit ThreadBudget(unsigned threads) : free_(threads > 0 ? threads - 1 : 0) {}
  ThreadBudget(const ThreadBudget&) = delete;
  ThreadBudget& operator=(const ThreadBudget&) = delete;

  // Takes up to `wanted` threads beyond the caller's own; returns how many
  // (0 when the budget is spent). Each must be given back with release().
  unsigned acquire(unsigned wanted);
  void release(unsigned count);

private:
  std::mutex mutex_;
  unsigned free_;
};

// Runs task(0) ... task(count - 1), each once, on the calling thread and on
// as many more threads as `budget` lends (none when it is null), and returns
// when all have finished. Tasks must be independent; which thread runs which
// is not fixed, so each must write only its own result slot.
void parallelFor(size_t count, ThreadBudget* budget, const std::function<void(size_t)>& task);

}  // namespace driver
