#include "sim/host/thread_team.h"

#include <algorithm>

#include "sim/core/logger_ready.h"

namespace gms {

ThreadTeam::ThreadTeam(unsigned members) : members_(std::max(members, 1u)), errors_(members_) {
  make_logger_before_threads();
  threads_.reserve(members_ - 1);
  for (unsigned m = 1; m < members_; ++m) threads_.emplace_back([this, m] { serve(m); });
}

ThreadTeam::~ThreadTeam() {
  stop_ = true;  // published by the phase's release below
  phase_.fetch_add(1, std::memory_order_release);
  phase_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadTeam::run_erased(Call call, void* fn) {
  call_ = call;
  fn_ = fn;
  std::fill(errors_.begin(), errors_.end(), nullptr);
  running_.store(members_ - 1, std::memory_order_relaxed);
  phase_.fetch_add(1, std::memory_order_release);
  phase_.notify_all();
  try {
    call(fn, 0);
  } catch (...) {
    errors_[0] = std::current_exception();
  }
  for (unsigned left = running_.load(std::memory_order_acquire); left != 0;
       left = running_.load(std::memory_order_acquire))
    running_.wait(left, std::memory_order_acquire);
  for (const std::exception_ptr& e : errors_)
    if (e) std::rethrow_exception(e);
}

void ThreadTeam::serve(unsigned member) {
  std::uint64_t seen = 0;
  for (;;) {
    phase_.wait(seen, std::memory_order_acquire);
    seen = phase_.load(std::memory_order_acquire);
    if (stop_) return;
    try {
      call_(fn_, member);
    } catch (...) {
      errors_[member] = std::current_exception();
    }
    if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) running_.notify_one();
  }
}

}  // namespace gms
