#pragma once
/// Test helper: whether two coalescing results agree on their CoalesceCounts, naming the first
/// count that differs.

#include <gtest/gtest.h>

namespace gms::test {

template <class A, class B>
::testing::AssertionResult same_counts(const A& a, const B& b) {
  auto check = [](const char* name, auto x, auto y) {
    return x == y ? ::testing::AssertionSuccess()
                  : ::testing::AssertionFailure() << name << ": " << x << " vs " << y;
  };
  for (auto r :
       {check("active_threads", a.active_threads, b.active_threads),
        check("bytes_requested", a.bytes_requested, b.bytes_requested),
        check("bytes_distinct", a.bytes_distinct, b.bytes_distinct),
        check("sectors", a.sectors, b.sectors),
        check("transactions", a.transactions, b.transactions), check("lines", a.lines, b.lines),
        check("segment_bytes", a.segment_bytes, b.segment_bytes)})
    if (!r) return r;
  return ::testing::AssertionSuccess();
}

}  // namespace gms::test
