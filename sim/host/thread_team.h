#pragma once
/// A fixed team of threads that run one function together, phase after phase: the calling
/// thread is member 0, the others wait between phases. The parallel replay
/// (sim/replay/fast_engine.h) runs one phase per batch of records, thousands per second, so a
/// phase starts and ends on atomics (C++20 wait/notify: a short spin, then a futex) rather than
/// by starting threads or taking locks.

#include <atomic>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace gms {

class ThreadTeam {
 public:
  /// A team of `members` threads (at least 1), the caller's included.
  explicit ThreadTeam(unsigned members);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  unsigned size() const { return members_; }

  /// Calls f(m) on every member m (0 on the calling thread) and returns when all have returned.
  /// An exception thrown by a member is rethrown here, the lowest member's first, once all have
  /// returned; the others' are dropped.
  template <class F>
  void run(F& f) {
    if (members_ == 1) return f(0);  // alone: a plain call, no hand-off
    run_erased([](void* fn, unsigned m) { (*static_cast<F*>(fn))(m); }, &f);
  }

 private:
  using Call = void (*)(void*, unsigned);
  void run_erased(Call call, void* fn);
  void serve(unsigned member);

  unsigned members_;
  Call call_ = nullptr;
  void* fn_ = nullptr;
  bool stop_ = false;
  std::atomic<std::uint64_t> phase_{0};     ///< bumped to start a phase
  std::atomic<unsigned> running_{0};        ///< members other than 0 still in the phase
  std::vector<std::exception_ptr> errors_;  ///< per member, this phase's
  std::vector<std::thread> threads_;
};

}  // namespace gms
