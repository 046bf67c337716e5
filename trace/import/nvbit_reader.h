#pragma once
/// Importer of the text that NVBit's `mem_trace` example tool prints: launch lines and one line
/// per warp-level memory instruction with 32 addresses. Both the current form (lines prefixed
/// `MEMTRACE: CTX 0x... -`, with `grid_launch_id`) and the older one (no prefix) are read.
/// Modified tools' layouts are read too: the record's ` - `-separated fields are found by name
/// in any order (`grid_launch_id`, `CTA`, `warp`, the opcode, and the extras `SM_id`/`sm`,
/// `pc`, `Size`/`size`, `mask`; an unknown key is an error naming it), and the addresses may be
/// 32 bare addresses or `ThreadN,data,address` triples, on the record line or one per line
/// after it.
/// Rules: README.md, "Importing Accel-Sim and NVBit traces".

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "trace/import/accelsim_reader.h"
#include "trace/io/line_reader.h"
#include "trace/io/reader.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace {

/// Streams an NVBit mem_trace log. The stock log has no PC and no active mask, so both are
/// inferred (a warning says so once per file) unless the record carries `pc` / `mask` fields:
///   - a lane whose address is 0 is inactive; a record with no active lane is skipped (counted);
///   - the instruction id of a record is the dense id of (opcode, n), where n counts earlier
///     records of the same opcode in the same warp (CTA, warp) of the kernel: the first LDG.E of
///     every warp gets one id, its second LDG.E another, and so on. Ids are numbered in order of
///     first appearance, per kernel.
/// `warp` is NVBit's %warpid (the warp's slot on its SM, < 64), not the index in the block.
/// Records keep the log's order; sm = kUnknownSm unless the record has an `SM_id` field. Lines that
/// are neither launches nor records (the NVBit banner, the application's output, other CTX
/// lines) are skipped and counted (ImportCounts::other_lines). A tool's allocation line,
/// `alloc address 0x<base> - size <bytes>[ - name <name>]` (with or without the MEMTRACE prefix),
/// is an Allocation (allocations()); one that does not parse is an error. A
/// record that does not parse, a record before any launch, a CTA outside the grid, a warp id of
/// 64 or more, a record of another launch than the current one, or an address count other than
/// 32 is an error naming the file and line. One exception: NVBit 1.5.x's records carry their
/// launch's id minus one; such records belong to that launch (one note logged) in a log whose
/// banner says 1.5, or where every record is one below (check_launch_id).
class NvbitReader final : public TraceReader {
 public:
  /// quiet: log nothing (ImportOptions::quiet).
  explicit NvbitReader(std::unique_ptr<InputStream> in, bool quiet = false);
  ~NvbitReader() override;

  /// True when some line of `head` is a mem_trace launch or record line.
  static bool looks_like_nvbit(std::string_view head);

  bool next_kernel(KernelInfo& out) override;
  std::size_t read(std::span<WarpInstr> out) override;
  const std::string& source_name() const override { return in_->name(); }
  std::span<const Allocation> allocations() const override { return allocations_; }

  const ImportCounts& counts() const { return counts_; }
  /// "NVBit mem_trace (MEMTRACE: CTX lines)" or "(older unprefixed lines)", with the extra
  /// fields and per-thread lists seen so far.
  std::string format_description() const;
  /// Every warning logged so far.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  enum class LineKind { Other, Launch, Record, Thread, Alloc };
  LineKind classify(std::string_view line, std::string_view& body) const;
  void parse_launch(std::string_view body, KernelInfo& out);
  void parse_alloc(std::string_view body);                   // appends to allocations_
  bool parse_record(std::string_view body, WarpInstr& out);  // false: skipped (counted)
  bool next_line(std::string_view& line);                    // a held line first
  void read_thread_lines(WarpInstr& out);  // the ThreadN,data,address lines after a record
  void thread_triple(std::string_view body, WarpInstr& out);  // one ThreadN,data,address
  [[noreturn]] void line_error(std::string_view what) const;
  void check_launch_id(std::uint64_t id);   // a record's grid_launch_id against the launch's
  void note_banner(std::string_view line);  // the NVBit banner's version, where it is one

  std::unique_ptr<InputStream> in_;
  detail::LineReader lines_;
  bool quiet_ = false;         // ImportOptions::quiet
  bool have_pending_ = false;  // pending_ holds a launch line not yet parsed
  std::string pending_;
  bool in_kernel_ = false;
  bool seen_launch_ = false;
  std::uint64_t old_launches_ = 0;  // kernel ids of the unprefixed form
  KernelInfo kernel_;
  std::uint64_t launch_id_ = 0;
  std::unordered_set<std::uint32_t> kernel_ids_;

  /// Hash that also takes string_views, so lookups by a view of the line do not allocate.
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  // Instruction-id inference, reset per kernel.
  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> opcode_index_;
  std::unordered_map<std::uint64_t, std::uint32_t> warp_opcode_count_;  // (cta,warp,opcode) -> n
  std::unordered_map<std::uint64_t, std::uint32_t> inst_ids_;           // (opcode, n) -> id

  ImportCounts counts_;
  std::vector<Allocation> allocations_;  // alloc address lines so far
  std::vector<std::string> warnings_;
  std::string held_;           // a line read past the per-thread lines, not yet handled
  std::string thread_opcode_;  // the opcode of a record whose per-thread lines follow
  bool have_held_ = false;
  bool seen_prefixed_ = false, seen_old_ = false;
  bool seen_sm_ = false, seen_pc_ = false, seen_size_ = false, seen_mask_ = false;
  bool seen_thread_lists_ = false;
  bool warned_ = false;
  // NVBit 1.5.x launch ids (check_launch_id): the banner's version, and the records' offset.
  enum class IdOffset { Unknown, Equal, OneBelow };
  IdOffset id_offset_ = IdOffset::Unknown;
  bool banner_v15_ = false;
  bool seen_one_below_ = false;  // the note is logged once
  bool logged_summary_ = false;
};

}  // namespace gms::trace
