#include "driver/thread_budget.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace driver {

unsigned ThreadBudget::acquire(unsigned wanted) {
  std::lock_guard<std::mutex> lock(mutex_);
  unsigned taken = std::min(wanted, free_);
  free_ -= taken;
  return taken;
}

void ThreadBudget::release(unsigned count) {
  std::lock_guard<std::mutex> lock(mutex_);
  free_ += count;
}

void parallelFor(size_t count, ThreadBudget* budget, const std::function<void(size_t)>& task) {
  unsigned helpers = 0;
  if (budget != nullptr && count > 1) {
    helpers = budget->acquire(static_cast<unsigned>(std::min<size_t>(count - 1, 1024)));
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < count; i = next++) task(i);
  };
  std::vector<std::thread> threads;
  threads.reserve(helpers);
  for (unsigned t = 0; t < helpers; ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  if (helpers > 0) budget->release(helpers);
}

}  // namespace driver
