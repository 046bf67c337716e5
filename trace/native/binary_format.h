#pragma once
/// The native binary trace format, ".gmt" version 1. All integers are little-endian.
///
///   file   := FileHeader block* end_block
///   FileHeader (16 B, uncompressed): magic "\x89GMT\r\n\x1a\n", u32 version (1), u32 flags (0)
///   block  := BlockHeader (16 B) + `compressed_bytes` bytes: one zstd frame (with its content
///             checksum) that decompresses to `raw_bytes` bytes of items
///   end_block := a BlockHeader of four zeros; a file without it is truncated
///
/// Each block is decodable on its own: the delta state below starts from zero in every block.
/// Items of a block's payload (varint = LEB128, zz = zigzag-mapped signed varint):
///
///   kernel := 0xFF, varint id, str name, 3 x varint grid, 3 x varint block, varint shmem,
///             varint regs, varint flops, str arch, varint n, n x (str key, str value)
///             (str = varint length + bytes). The records after it belong to it.
///   record := [0xFE, varint n], [0xFD, varint k], u8 head, varint inst, zz sm+1 delta,
///             zz cta delta, zz warp delta, [varint mask], addresses
///     0xFE n: the warp's n instructions before it that are not records
///     (WarpInstr::instrs_before), only where n > 0; 0xFD k: the load it waits for
///     (WarpInstr::waits_for_load), only where k > 0 (a head's size bits never reach 7, so 0xFD,
///     0xFE and the kernel tag 0xFF are no head; a reader that predates them refuses them as
///     corrupt).
///     head: bits 0-2 op, bit 3 strided, bit 4 mask is ffffffff (no mask field),
///           bits 5-7 log2(size) (0..4)
///     sm+1 (0 = unknown), cta and warp are u32 deltas (wrapping) against the previous record of
///     the block.
///     strided: zz (base - slot), zz stride; base = lane 0's address; slot := base
///     list: zz (addr[first] - slot), u8 W, u8 S, then for the other active lanes in order
///           zz(d >> S) where d = addr[lane] - addr[previous active lane] and S = the trailing
///           zero bits common to all d; each value is W bits, bit-packed LSB-first when W <= 56,
///           else 8 bytes. Dense for random addresses (zstd then stores them as they are, which
///           decompresses at memcpy speed), a few bits for regular ones; slot := addr[first]
///     slot = a 256-entry direct-mapped table indexed by inst % 256, holding the last address
///     stored for that slot (all 64-bit arithmetic wraps).
///
/// A record flagged strided whose addresses do not follow base + lane * stride exactly is stored
/// as a list (as the text writer does).

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gms::trace {

static_assert(std::endian::native == std::endian::little, ".gmt I/O assumes a little-endian host");

/// The 8 magic bytes that open a .gmt file (PNG-style: non-ASCII first byte, CR LF, ^Z, LF).
inline constexpr unsigned char kGmtMagic[8] = {0x89, 'G', 'M', 'T', '\r', '\n', 0x1a, '\n'};
/// The version this code writes and reads.
inline constexpr std::uint32_t kGmtVersion = 1;

/// Uncompressed file header.
struct GmtFileHeader {
  unsigned char magic[8];
  std::uint32_t version;
  std::uint32_t flags;  ///< 0; reserved
};
static_assert(std::is_trivially_copyable_v<GmtFileHeader> && sizeof(GmtFileHeader) == 16);

/// Header in front of each compressed block; all zeros marks the end of the trace.
struct GmtBlockHeader {
  std::uint32_t compressed_bytes;  ///< size of the zstd frame that follows
  std::uint32_t raw_bytes;         ///< size of the decompressed item stream
  std::uint32_t record_count;      ///< warp records in the block
  std::uint32_t kernel_count;      ///< kernel items in the block
  bool is_end() const {
    return compressed_bytes == 0 && raw_bytes == 0 && record_count == 0 && kernel_count == 0;
  }
};
static_assert(std::is_trivially_copyable_v<GmtBlockHeader> && sizeof(GmtBlockHeader) == 16);

/// Target raw size of a block; the writer closes a block once it is reached.
inline constexpr std::size_t kGmtBlockRawBytes = 1u << 20;
/// Largest raw block a reader accepts (guards against corrupt headers).
inline constexpr std::size_t kGmtMaxRawBytes = 64u << 20;
/// Upper bound of one encoded record (list form: the two prefixes of <= 6 bytes each, head, 4
/// varints and the mask of <= 5 bytes,
/// first address <= 10 bytes, W and S, 31 x 8 bytes), plus 8 bytes of slack for 8-byte stores.
inline constexpr std::size_t kGmtMaxRecordBytes = 2 * (1 + 5) + 1 + 5 * 5 + 10 + 2 + 31 * 8 + 8;

namespace detail {

inline constexpr std::uint8_t kKernelTag = 0xFF;
inline constexpr std::uint8_t kInstrsBeforeTag = 0xFE;  ///< a record's instrs_before prefix
inline constexpr std::uint8_t kWaitsForLoadTag = 0xFD;  ///< a record's waits_for_load prefix
inline constexpr std::uint8_t kHeadStrided = 1u << 3;
inline constexpr std::uint8_t kHeadFullMask = 1u << 4;
inline constexpr int kHeadSizeShift = 5;
inline constexpr unsigned kSlotCount = 256;

inline std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}
/// Zigzag of a wrapping 32-bit difference.
inline std::uint64_t zigzag32(std::uint32_t now, std::uint32_t prev) {
  return zigzag(static_cast<std::int32_t>(now - prev));
}

/// Appends a LEB128 varint at `p` (at most 10 bytes); returns the end.
inline std::uint8_t* put_varint(std::uint8_t* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}

/// Reads a LEB128 varint at `p`. The caller guarantees 10 readable bytes (the reader pads its
/// buffer); an over-long varint sets `bad`.
inline std::uint64_t get_varint(const std::uint8_t*& p, bool& bad) {
  std::uint64_t v = *p++;
  if (v < 0x80) return v;  // the common one-byte case
  v &= 0x7f;
  for (int shift = 7; shift < 70; shift += 7) {
    std::uint8_t b = *p++;
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  bad = true;
  return v;
}

/// Widest value that is bit-packed; wider ones take 8 bytes each.
inline constexpr unsigned kMaxPackedBits = 56;

/// Appends `n` values of `bits` bits each (see the list form above); needs 8 slack bytes.
inline std::uint8_t* put_packed(std::uint8_t* p, const std::uint64_t* v, int n, unsigned bits) {
  if (bits > kMaxPackedBits) {
    std::memcpy(p, v, 8 * static_cast<std::size_t>(n));
    return p + 8 * n;
  }
  std::uint64_t acc = 0;
  unsigned used = 0;
  for (int i = 0; i < n; ++i) {
    acc |= v[i] << used;  // used < 8 and bits <= 56: fits
    used += bits;
    std::memcpy(p, &acc, 8);
    p += used / 8;
    acc = used >= 64 ? 0 : acc >> (used / 8 * 8);
    used %= 8;
  }
  return used ? p + 1 : p;
}

/// Reads values written by put_packed, one at a time; needs 8 readable bytes past the data.
class PackedReader {
 public:
  PackedReader(const std::uint8_t* p, unsigned bits)
      : p_(p),
        bits_(bits),
        mask_(bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1) {}
  std::uint64_t next() {
    std::uint64_t v;
    if (bits_ > kMaxPackedBits) {
      std::memcpy(&v, p_ + pos_ / 8, 8);
      pos_ += 64;
      return v;
    }
    std::memcpy(&v, p_ + pos_ / 8, 8);
    v = (v >> (pos_ % 8)) & mask_;
    pos_ += bits_;
    return v;
  }
  /// The first byte after the values read.
  const std::uint8_t* end() const { return p_ + (pos_ + 7) / 8; }

 private:
  const std::uint8_t* p_;
  std::uint64_t pos_ = 0;  // in bits
  unsigned bits_;
  std::uint64_t mask_;
};

/// The delta state of a block, identical in writer and reader; zeroed at each block start.
struct DeltaState {
  std::uint32_t prev_sm1 = 0, prev_cta = 0, prev_warp = 0;
  std::uint64_t slot[kSlotCount] = {};
  void reset() { *this = DeltaState{}; }
};

}  // namespace detail
}  // namespace gms::trace
