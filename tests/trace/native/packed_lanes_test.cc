// The vector unpacking of a full warp's packed lane deltas against the scalar PackedReader, for
// every width it takes, several shifts, deltas of both signs and the widest values.
#include "trace/native/packed_lanes.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "trace/native/binary_format.h"

namespace gms::trace {
namespace {

TEST(PackedLanesTest, VectorUnpackAgreesWithThePackedReader) {
  if (!detail::vector_unpack_available())
    GTEST_SKIP() << "AVX-512F paths off: the CPU has none, or GMS_PORTABLE is set";
  std::mt19937_64 rng(5);
  for (unsigned bits = 1; bits <= detail::kVectorUnpackMaxBits; ++bits) {
    for (int round = 0; round < 50; ++round) {
      const std::uint64_t top = bits == 64 ? ~0ull : (1ull << bits) - 1;
      std::array<std::uint64_t, 31> values;
      for (auto& v : values) v = round % 5 == 0 ? top : rng() & top;  // all ones: the widest
      std::vector<std::uint8_t> buf(31 * 8 + 16, 0xAA);  // packed, then padding of junk
      detail::put_packed(buf.data(), values.data(), 31, bits);
      const unsigned shift = static_cast<unsigned>(round % 7) * 3;
      const std::uint64_t first = rng();
      std::array<std::uint64_t, 33> want{}, got{};  // [32]: a sentinel past the warp
      want[32] = got[32] = 0x5e5e5e5e5e5e5e5eull;
      detail::PackedReader reader(buf.data(), bits);
      want[0] = first;
      for (unsigned i = 1; i < 32; ++i)
        want[i] =
            want[i - 1] + (static_cast<std::uint64_t>(detail::unzigzag(reader.next())) << shift);
      detail::unpack_full_warp(buf.data(), bits, shift, first, got.data());
      ASSERT_EQ(got, want) << "bits " << bits << " round " << round;
    }
  }
}

}  // namespace
}  // namespace gms::trace
