#include "trace/native/binary_reader.h"

#include <zstd.h>

#include <cstring>
#include <optional>
#include <string>

#include "sim/core/error.h"
#include "trace/io/record_util.h"
#include "trace/native/packed_lanes.h"

namespace gms::trace {

using detail::get_varint;
using detail::unzigzag;

namespace {

constexpr std::size_t kPadBytes = kGmtMaxRecordBytes + 16;  // zeros after each raw block
/// Raw bytes per record below which a block decodes faster on the replay's own thread than a
/// second thread can hand its records over (296-byte WarpInstr copies between cores).
constexpr std::uint64_t kCheapRecordBytes = 48;

/// When the 31 packed deltas of a full warp at `p`, `bits` wide, are all one value (a list that
/// steps by one amount), that value. Checked for widths up to 2 bits, which regular steps
/// produce (zigzag of +1 or -1 after the common shift; 0 for a broadcast), in one 64-bit compare.
inline std::optional<std::uint64_t> same_deltas(const std::uint8_t* p, unsigned bits) {
  if (bits > 2) return std::nullopt;
  std::uint64_t packed;
  std::memcpy(&packed, p, sizeof packed);  // the block buffer is padded
  const std::uint64_t first = packed & ((std::uint64_t{1} << bits) - 1);
  const std::uint64_t repeated = first * (bits == 1 ? ~std::uint64_t{0} : 0x5555555555555555ull);
  const std::uint64_t used = (std::uint64_t{1} << (31 * bits)) - 1;  // 31 x bits <= 62
  if (((packed ^ repeated) & used) != 0) return std::nullopt;
  return first;
}

/// Decodes one record at `p` into `r`; returns the end. Reads at most kGmtMaxRecordBytes (the
/// block buffer is padded); malformed input sets `bad` or runs past the block end, which the
/// caller checks. With `partial`, a strided record gets only its first and last active lanes
/// (TraceReader::set_partial_strided_lanes). Works on locals so that stores into `r` do not
/// force reloads of `p`. Inlined into the batch loop: as a call, its register saves were 19 of
/// ~185 instructions per record.
[[gnu::always_inline]] inline const std::uint8_t* decode_record(const std::uint8_t* p,
                                                                detail::DeltaState& s, WarpInstr& r,
                                                                bool partial, bool& bad) {
  unsigned head = *p++;
  std::uint64_t instrs_before = 0, waits_for_load = 0;
  if (head >= detail::kWaitsForLoadTag && head != detail::kKernelTag) [[unlikely]] {
    if (head == detail::kInstrsBeforeTag) {
      instrs_before = get_varint(p, bad);
      head = *p++;
    }
    if (head == detail::kWaitsForLoadTag) {
      waits_for_load = get_varint(p, bad);
      if (waits_for_load == 0) bad = true;
      head = *p++;
    }
    if ((instrs_before | waits_for_load) > 0xffffffffu) bad = true;
  }
  const auto inst = static_cast<std::uint32_t>(get_varint(p, bad));
  s.prev_sm1 += static_cast<std::uint32_t>(unzigzag(get_varint(p, bad)));
  s.prev_cta += static_cast<std::uint32_t>(unzigzag(get_varint(p, bad)));
  s.prev_warp += static_cast<std::uint32_t>(unzigzag(get_varint(p, bad)));
  const LaneMask mask =
      (head & detail::kHeadFullMask) ? 0xffffffffu : static_cast<LaneMask>(get_varint(p, bad));
  std::uint64_t& slot = s.slot[inst % detail::kSlotCount];
  r.inst = inst;
  r.op = static_cast<Op>(head & 7);
  r.size = static_cast<std::uint8_t>(1u << ((head >> detail::kHeadSizeShift) & 7));
  r.sm = s.prev_sm1 - 1;
  r.cta = s.prev_cta;
  r.warp = s.prev_warp;
  r.mask = mask;
  r.instrs_before = static_cast<std::uint32_t>(instrs_before);
  r.waits_for_load = static_cast<std::uint32_t>(waits_for_load);
  if (head & detail::kHeadStrided) {
    const std::uint64_t base = slot + static_cast<std::uint64_t>(unzigzag(get_varint(p, bad)));
    const std::int64_t stride = unzigzag(get_varint(p, bad));
    // Lanes past 2^64 or below 0 are corrupt (the writers store such records as lists, and the
    // text format rejects them).
    if (!detail::strided_lanes_fit(base, stride, mask)) bad = true;
    slot = base;
    r.strided = true;
    r.stride = stride;
    r.lanes_complete = !partial;
    if (partial) {
      const unsigned first = first_lane(mask), last = last_lane(mask);
      r.addr[first] = base + first * static_cast<std::uint64_t>(stride);
      r.addr[last] = base + last * static_cast<std::uint64_t>(stride);
    } else {
      fill_strided_lanes(r, base);
    }
    return p;
  }
  std::uint64_t a = slot + static_cast<std::uint64_t>(unzigzag(get_varint(p, bad)));
  slot = a;
  const unsigned bits = p[0], shift = p[1];
  p += 2;
  if (bits > 64 || shift > 63 || mask == 0) {
    bad = true;
    return p;
  }
  r.strided = false;
  r.lanes_complete = true;
  r.stride = 0;
  detail::PackedReader deltas(p, bits);
  auto next = [&] { return static_cast<std::uint64_t>(unzigzag(deltas.next())) << shift; };
  if (mask == 0xffffffffu) {
    if (const auto step = same_deltas(p, bits)) {
      // A full warp stepping by one amount (a regular kernel written as a list): no unpacking.
      const std::uint64_t d = static_cast<std::uint64_t>(unzigzag(*step)) << shift;
      for (unsigned i = 0; i < kWarpSize; ++i, a += d) r.addr[i] = a;
      return p + (31 * bits + 7) / 8;
    }
    if (bits <= detail::kVectorUnpackMaxBits && detail::vector_unpack_available()) {
      detail::unpack_full_warp(p, bits, shift, a, r.addr.data());
      return p + (31 * bits + 7) / 8;
    }
    r.addr[0] = a;
    for (unsigned i = 1; i < kWarpSize; ++i) r.addr[i] = a += next();
    return deltas.end();
  }
  r.addr.fill(0);
  LaneMask m = mask;
  r.addr[static_cast<unsigned>(std::countr_zero(m))] = a;
  for (m &= m - 1; m != 0; m &= m - 1)
    r.addr[static_cast<unsigned>(std::countr_zero(m))] = a += next();
  return deltas.end();
}

}  // namespace

BinaryReader::BinaryReader(std::unique_ptr<InputStream> in) : in_(std::move(in)) {
  GmtFileHeader h{};
  std::size_t n = read_exact(&h, sizeof h);
  if (n < sizeof h || std::memcmp(h.magic, kGmtMagic, sizeof h.magic) != 0)
    fail("{}: not a .gmt trace (bad magic at byte offset 0)", in_->name());
  if (h.version != kGmtVersion)
    fail("{}: unsupported .gmt version {} (reads {})", in_->name(), h.version, kGmtVersion);
  zstd_ = ZSTD_createDCtx();
  if (!zstd_) fail("{}: cannot create a zstd decompression context", in_->name());
  raw_.resize(kPadBytes);
  pos_ = end_ = raw_.data();
}

BinaryReader::~BinaryReader() {
  ZSTD_freeDCtx(zstd_);
}

std::size_t BinaryReader::read_exact(void* dst, std::size_t n) {
  std::size_t got = in_->read(dst, n);
  offset_ += got;
  return got;
}

void BinaryReader::corrupt(const char* what) const {
  fail("{}: corrupt block {} at byte offset {}: {} (after {} records)", in_->name(), block_index_,
       block_offset_, what, record_index_);
}

bool BinaryReader::load_block() {
  if (at_end_) return false;
  if (block_index_ > 0 &&
      (block_records_ != block_.record_count || block_kernels_ != block_.kernel_count))
    corrupt("item counts differ from the block header");
  for (;;) {
    block_offset_ = offset_;
    ++block_index_;
    std::size_t n = read_exact(&block_, sizeof block_);
    if (n == 0)
      fail("{}: truncated: no end block after block {} (byte offset {})", in_->name(),
           block_index_ - 1, offset_);
    if (n < sizeof block_)
      fail("{}: truncated block header of block {} at byte offset {}", in_->name(), block_index_,
           block_offset_);
    if (block_.is_end()) {
      char extra;
      if (read_exact(&extra, 1) != 0)
        fail("{}: unexpected data after the end block at byte offset {}", in_->name(), offset_ - 1);
      at_end_ = true;
      if (share_ != 0) in_->discount(sizeof block_);  // share 0 counts the end block
      pos_ = end_ = raw_.data();
      return false;
    }
    if (block_.raw_bytes == 0 || block_.raw_bytes > kGmtMaxRawBytes ||
        block_.compressed_bytes > ZSTD_compressBound(block_.raw_bytes))
      corrupt("implausible block header");
    block_is_mine_ = (block_index_ - 1) % shares_ == share_;
    const bool passed = !block_is_mine_ && block_.kernel_count == 0;
    if (passed) {
      // Another share's records only: passed unread (that share checks them).
      n = in_->skip(block_.compressed_bytes);
      offset_ += n;
    } else {
      packed_.resize(block_.compressed_bytes);
      n = read_exact(packed_.data(), packed_.size());
    }
    if (n < block_.compressed_bytes)
      fail("{}: truncated block {} at byte offset {}: {} of {} compressed bytes present",
           in_->name(), block_index_, block_offset_, n, block_.compressed_bytes);
    // Progress bars count each byte of the file once: another share's block is its owner's.
    if (!block_is_mine_) in_->discount(passed ? sizeof block_ : sizeof block_ + n);
    if (!passed) break;
    record_index_ += block_.record_count;
  }
  if (raw_.size() < block_.raw_bytes + kPadBytes) raw_.resize(block_.raw_bytes + kPadBytes);
  std::size_t r =
      ZSTD_decompressDCtx(zstd_, raw_.data(), block_.raw_bytes, packed_.data(), packed_.size());
  if (ZSTD_isError(r)) corrupt(ZSTD_getErrorName(r));
  if (r != block_.raw_bytes) corrupt("decompressed size differs from the block header");
  std::memset(raw_.data() + block_.raw_bytes, 0, kPadBytes);
  pos_ = raw_.data();
  end_ = raw_.data() + block_.raw_bytes;
  block_records_ = block_kernels_ = 0;
  delta_.reset();
  return true;
}

bool BinaryReader::share_blocks(unsigned share, unsigned shares) {
  // Before the first kernel: at most the first block loaded (decodes_cheaply), share 0's.
  const bool fresh = block_index_ == 0 || (block_index_ == 1 && share == 0 && !in_kernel_ &&
                                           block_kernels_ == 0 && block_records_ == 0);
  if (in_->compressed() || in_->name() == "-" || share >= shares || !fresh) return false;
  if (share != 0 && share_ == 0) in_->discount(sizeof(GmtFileHeader));  // share 0's to count
  share_ = share;
  shares_ = shares;
  return true;
}

void BinaryReader::skip_record() {
  pos_ = decode_record(pos_, delta_, scratch_, /*partial=*/true, bad_);  // lanes unused
  ++block_records_;
  ++record_index_;
  check_record(scratch_);
}

bool BinaryReader::skip_others() {
  while (pos_ != end_) {
    if (*pos_ == detail::kKernelTag) return true;
    skip_record();
  }
  return false;
}

bool BinaryReader::decodes_cheaply() {
  // Loading the first block here changes nothing for next_kernel(), which starts at its items.
  if (block_index_ == 0 && !load_block()) return true;  // no records at all
  // Measured (bench/RESULTS.md): read-ahead makes a .gmt stream (a few raw bytes per record)
  // 2.5x slower, and a trace of random addresses (109 bytes per record, mostly the kernel's
  // copy of the file and the unpacking of 31 deltas) 1.3x faster.
  return block_.record_count == 0 || block_.raw_bytes < kCheapRecordBytes * block_.record_count;
}

void BinaryReader::decode_kernel(KernelInfo& k) {
  ++pos_;  // tag
  auto var = [&] {
    std::uint64_t v = get_varint(pos_, bad_);
    if (bad_ || pos_ > end_) corrupt("bad kernel item");
    return v;
  };
  auto u32 = [&] {
    std::uint64_t v = var();
    if (v > 0xffffffffu) corrupt("bad kernel item");
    return static_cast<std::uint32_t>(v);
  };
  auto str = [&](std::string& s) {
    std::uint64_t len = var();
    if (len > static_cast<std::uint64_t>(end_ - pos_)) corrupt("bad kernel item");
    s.assign(reinterpret_cast<const char*>(pos_), len);
    pos_ += len;
  };
  k = KernelInfo{};
  k.id = u32();
  str(k.name);
  k.grid = Dim3{u32(), u32(), u32()};
  k.block = Dim3{u32(), u32(), u32()};
  k.shmem_bytes = var();
  k.regs = u32();
  k.flops = var();
  str(k.arch);
  std::uint64_t n = var();
  if (n > static_cast<std::uint64_t>(end_ - pos_)) corrupt("bad kernel item");
  k.params.resize(n);
  for (auto& [key, value] : k.params) {
    str(key);
    str(value);
  }
  ++block_kernels_;
}

bool BinaryReader::well_formed(const WarpInstr& r) {
  return r.mask != 0 && r.size <= 16;  // size is 1 << k by construction
}

void BinaryReader::check_record(const WarpInstr& r) const {
  if (bad_ || pos_ > end_ || !well_formed(r))
    fail("{}: corrupt block {} at byte offset {}: bad record {} of the file", in_->name(),
         block_index_, block_offset_, record_index_);
}

bool BinaryReader::next_kernel(KernelInfo& out) {
  for (;;) {
    if (pos_ == end_ && !load_block()) {
      in_kernel_ = false;
      return false;
    }
    if (*pos_ == detail::kKernelTag) {
      decode_kernel(out);
      in_kernel_ = true;
      return true;
    }
    if (block_index_ == 1 && block_kernels_ == 0) corrupt("record before any kernel");
    skip_record();
  }
}

std::size_t BinaryReader::read(std::span<WarpInstr> out) {
  std::size_t n = 0;
  while (n < out.size() && in_kernel_) {
    if (pos_ == end_ && !load_block()) {
      in_kernel_ = false;
      break;
    }
    if (!block_is_mine_) {
      // A block of another share's records that holds a kernel item.
      if (skip_others()) {
        in_kernel_ = false;
        break;
      }
      continue;
    }
    // The records up to the block's end, a kernel item or a full batch, with the position in
    // locals: a record's byte fields may alias any member, which the compiler would otherwise
    // reload after every store into a record.
    const std::uint8_t* p = pos_;
    const std::uint8_t* const end = end_;
    const bool partial = partial_strided_;
    const std::size_t first = n;
    for (; n < out.size() && p != end && *p != detail::kKernelTag; ++n) {
      p = decode_record(p, delta_, out[n], partial, bad_);
      if (bad_ || p > end || !well_formed(out[n])) {
        pos_ = p;
        record_index_ += n - first + 1;
        check_record(out[n]);
      }
    }
    pos_ = p;
    block_records_ += static_cast<std::uint32_t>(n - first);
    record_index_ += n - first;
    if (p != end && *p == detail::kKernelTag) {
      in_kernel_ = false;
      break;
    }
    if (shares_ > 1) break;  // a share's batch is one place in the file (records_passed)
  }
  return n;
}

}  // namespace gms::trace
