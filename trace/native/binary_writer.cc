#include "trace/native/binary_writer.h"

#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "sim/core/error.h"
#include "trace/io/record_util.h"

namespace gms::trace {

using detail::put_varint;
using detail::zigzag;

namespace {

void put_bytes(std::vector<std::uint8_t>& v, const void* p, std::size_t n) {
  const auto* b = static_cast<const std::uint8_t*>(p);
  v.insert(v.end(), b, b + n);
}
void put_var(std::vector<std::uint8_t>& v, std::uint64_t x) {
  std::uint8_t tmp[10];
  put_bytes(v, tmp, static_cast<std::size_t>(put_varint(tmp, x) - tmp));
}
void put_str(std::vector<std::uint8_t>& v, const std::string& s) {
  put_var(v, s.size());
  put_bytes(v, s.data(), s.size());
}

}  // namespace

BinaryWriter::BinaryWriter(std::unique_ptr<OutputStream> out, int zstd_level,
                           std::size_t block_raw_bytes)
    : out_(std::move(out)),
      level_(zstd_level),
      raw_(kGmtBlockRawBytes + kGmtMaxRecordBytes),
      block_raw_bytes_(std::clamp<std::size_t>(block_raw_bytes, 1, kGmtBlockRawBytes)) {
  zstd_ = ZSTD_createCCtx();
  if (!zstd_) fail("{}: cannot create a zstd compression context", out_->name());
  ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, level_);
  ZSTD_CCtx_setParameter(zstd_, ZSTD_c_checksumFlag, 1);
  GmtFileHeader h{};
  std::memcpy(h.magic, kGmtMagic, sizeof h.magic);
  h.version = kGmtVersion;
  out_->write(&h, sizeof h);
}

BinaryWriter::~BinaryWriter() {
  ZSTD_freeCCtx(zstd_);
}

void BinaryWriter::flush_block() {
  if (raw_len_ == 0) return;
  packed_.resize(ZSTD_compressBound(raw_len_));
  std::size_t n = ZSTD_compress2(zstd_, packed_.data(), packed_.size(), raw_.data(), raw_len_);
  if (!ZSTD_isError(n) && n > raw_len_ - raw_len_ / 8 && level_ > kStoredLiteralsLevel) {
    // Scattered addresses barely compress (random 30-bit deltas: 3%), yet entropy-coded literals
    // decode at a fraction of memcpy speed: zstd was half of reading such a trace. Negative
    // levels store literals as they are: the block is 2% larger and reads 1.06-1.33x faster
    // (BM_ReadGmtRandom, bench/RESULTS.md). Still one ordinary zstd frame: readers are unchanged.
    ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, kStoredLiteralsLevel);
    n = ZSTD_compress2(zstd_, packed_.data(), packed_.size(), raw_.data(), raw_len_);
    ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, level_);
  }
  if (ZSTD_isError(n)) fail("{}: zstd compression failed: {}", out_->name(), ZSTD_getErrorName(n));
  GmtBlockHeader h{static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(raw_len_), records_,
                   kernels_};
  out_->write(&h, sizeof h);
  out_->write(packed_.data(), n);
  raw_len_ = 0;
  records_ = kernels_ = 0;
  delta_.reset();
}

void BinaryWriter::begin_kernel(const KernelInfo& k) {
  if (finished_) fail("{}: begin_kernel after finish", out_->name());
  if (!kernel_ids_.insert(k.id).second) fail("{}: duplicate kernel id {}", out_->name(), k.id);
  std::vector<std::uint8_t> item;
  item.push_back(detail::kKernelTag);
  put_var(item, k.id);
  put_str(item, k.name);
  for (std::uint32_t d : {k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z})
    put_var(item, d);
  put_var(item, k.shmem_bytes);
  put_var(item, k.regs);
  put_var(item, k.flops);
  put_str(item, k.arch);
  put_var(item, k.params.size());
  for (const auto& [key, value] : k.params) {
    put_str(item, key);
    put_str(item, value);
  }
  if (raw_len_ + item.size() > raw_.size()) flush_block();
  if (item.size() > raw_.size()) raw_.resize(item.size());
  std::memcpy(raw_.data() + raw_len_, item.data(), item.size());
  raw_len_ += item.size();
  ++kernels_;
  in_kernel_ = true;
}

std::uint8_t* BinaryWriter::encode(const WarpInstr& r, std::uint8_t* p) {
  std::uint64_t base = 0;
  bool strided = detail::strided_base(r, base);
  bool full = r.mask == 0xffffffffu;
  if (r.instrs_before != 0) {
    *p++ = detail::kInstrsBeforeTag;
    p = put_varint(p, r.instrs_before);
  }
  if (r.waits_for_load != 0) {
    *p++ = detail::kWaitsForLoadTag;
    p = put_varint(p, r.waits_for_load);
  }
  *p++ = static_cast<std::uint8_t>(
      static_cast<unsigned>(r.op) | (strided ? detail::kHeadStrided : 0) |
      (full ? detail::kHeadFullMask : 0) |
      (static_cast<unsigned>(std::countr_zero(static_cast<unsigned>(r.size)))
       << detail::kHeadSizeShift));
  p = put_varint(p, r.inst);
  std::uint32_t sm1 = r.sm + 1;  // kUnknownSm -> 0
  p = put_varint(p, detail::zigzag32(sm1, delta_.prev_sm1));
  p = put_varint(p, detail::zigzag32(r.cta, delta_.prev_cta));
  p = put_varint(p, detail::zigzag32(r.warp, delta_.prev_warp));
  delta_.prev_sm1 = sm1;
  delta_.prev_cta = r.cta;
  delta_.prev_warp = r.warp;
  if (!full) p = put_varint(p, r.mask);
  std::uint64_t& slot = delta_.slot[r.inst % detail::kSlotCount];
  if (strided) {
    p = put_varint(p, zigzag(static_cast<std::int64_t>(base - slot)));
    p = put_varint(p, zigzag(r.stride));
    slot = base;
    return p;
  }
  // List: the first address against the slot, the others as bit-packed lane-to-lane deltas.
  LaneMask m = r.mask;
  std::uint64_t prev = r.addr[static_cast<unsigned>(std::countr_zero(m))];
  p = put_varint(p, zigzag(static_cast<std::int64_t>(prev - slot)));
  slot = prev;
  std::uint64_t deltas[kWarpSize];
  std::uint64_t any_bits = 0;
  int n = 0;
  for (m &= m - 1; m != 0; m &= m - 1) {
    std::uint64_t a = r.addr[static_cast<unsigned>(std::countr_zero(m))];
    deltas[n] = a - prev;
    any_bits |= deltas[n++];
    prev = a;
  }
  unsigned shift = any_bits == 0 ? 0 : static_cast<unsigned>(std::countr_zero(any_bits));
  std::uint64_t all = 0;
  for (int i = 0; i < n; ++i) {
    deltas[i] = zigzag(static_cast<std::int64_t>(deltas[i]) >> shift);
    all |= deltas[i];
  }
  unsigned bits = static_cast<unsigned>(std::bit_width(all));
  *p++ = static_cast<std::uint8_t>(bits);
  *p++ = static_cast<std::uint8_t>(shift);
  return detail::put_packed(p, deltas, n, bits);
}

void BinaryWriter::write(std::span<const WarpInstr> records) {
  if (!in_kernel_ && !records.empty()) fail("{}: records written before any kernel", out_->name());
  for (const WarpInstr& r : records) {
    if (r.mask == 0 || !valid_access_size(r.size) || static_cast<int>(r.op) >= kOpCount)
      fail("{}: cannot write an invalid record (inst {}, mask {:08x}, size {})", out_->name(),
           r.inst, r.mask, r.size);
    if (raw_len_ + kGmtMaxRecordBytes > raw_.size()) flush_block();
    raw_len_ = static_cast<std::size_t>(encode(r, raw_.data() + raw_len_) - raw_.data());
    ++records_;
    if (raw_len_ >= block_raw_bytes_) flush_block();
  }
}

void BinaryWriter::finish() {
  if (finished_) return;
  finished_ = true;
  flush_block();
  GmtBlockHeader end{};
  out_->write(&end, sizeof end);
  out_->finish();
}

}  // namespace gms::trace
