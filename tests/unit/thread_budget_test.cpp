// driver/thread_budget.h: the one `-j` budget shared by populate's workers and
// each compile's kernel partitions.
#include "driver/thread_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace {

TEST(ThreadBudget, LendsNoMoreThanItHasAndTakesThemBack) {
  driver::ThreadBudget budget(3);
  EXPECT_EQ(budget.acquire(5), 2u);
  EXPECT_EQ(budget.acquire(1), 0u);
  budget.release(1);
  EXPECT_EQ(budget.acquire(4), 1u);
  budget.release(2);
  EXPECT_EQ(budget.acquire(2), 2u);
  driver::ThreadBudget one(1);
  EXPECT_EQ(one.acquire(8), 0u);
}

TEST(ThreadBudget, ParallelForRunsEveryTaskOnceWithinTheBudget) {
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(threads);
    driver::ThreadBudget budget(threads);
    std::vector<std::atomic<int>> runs(40);
    std::atomic<int> running{0};
    std::atomic<int> peak{0};
    std::mutex idsMutex;
    std::set<std::thread::id> ids;
    driver::parallelFor(runs.size(), &budget, [&](size_t i) {
      int now = ++running;
      int seen = peak.load();
      while (now > seen && !peak.compare_exchange_weak(seen, now)) {
      }
      {
        std::lock_guard<std::mutex> lock(idsMutex);
        ids.insert(std::this_thread::get_id());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++runs[i];
      --running;
    });
    for (const std::atomic<int>& r : runs) EXPECT_EQ(r.load(), 1);
    EXPECT_LE(peak.load(), static_cast<int>(threads));
    EXPECT_LE(ids.size(), threads);
    // Everything lent was given back.
    EXPECT_EQ(budget.acquire(100), threads - 1);
  }
}

TEST(ThreadBudget, ParallelForWithoutABudgetStaysOnTheCallingThread) {
  std::set<std::thread::id> ids;
  driver::parallelFor(5, nullptr, [&](size_t) { ids.insert(std::this_thread::get_id()); });
  EXPECT_EQ(ids, std::set<std::thread::id>{std::this_thread::get_id()});
}

}  // namespace
