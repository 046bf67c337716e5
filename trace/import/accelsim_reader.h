#pragma once
/// Importer of Accel-Sim traces (the NVBit tracer's post-processed `.traceg` files and their
/// `kernelslist.g`), plain, xz or zstd. Format and rules: README.md, "Importing Accel-Sim and
/// NVBit traces"; sources read: accel-sim-framework trace_parser.cc and tracer_tool.cu.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "trace/import/import_counts.h"
#include "trace/import/import_options.h"
#include "trace/import/load_concurrency.h"
#include "trace/import/register_dependencies.h"
#include "trace/import/tma_operands.h"
#include "trace/io/line_reader.h"
#include "trace/io/reader.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace {

namespace detail {
struct Tokens;
}

/// A thread block's place in its cluster (Hopper, sm_90: `cluster id` / `cluster rank` lines).
struct BlockCluster {
  std::uint32_t cta = 0;            ///< linear block id, as WarpInstr::cta
  std::uint32_t id[3] = {0, 0, 0};  ///< the cluster's id in the grid of clusters
  std::uint32_t rank = 0;           ///< the block's rank in its cluster

  friend bool operator==(const BlockCluster&, const BlockCluster&) = default;
};

/// The generation of an Accel-Sim `.traceg` layout, from its header and `#traces format` line.
enum class AccelSimLayout : std::uint8_t {
  Legacy,  ///< tracer < 3 (or no version header): every line starts with "tb_x tb_y tb_z warp"
  V3,      ///< tracer 3: `PC mask ...`, shmem/local base addresses in the header
  V4,      ///< tracer 4: optional `[line_num]` column (`-enable lineinfo`), maybe an immediate
  V5,      ///< tracer 5 (NVBit 1.7): `[line_num]`, a trailing immediate column
  V6,      ///< tracer 6 (NVBit 1.8): two immediates, then `Val|NoVal` and register values
};

/// "legacy (pre-3)", "tracer v3", "tracer v4", "tracer v5" or "tracer v6".
std::string_view accelsim_layout_name(AccelSimLayout layout);

/// Streams an Accel-Sim trace: one `.traceg` (one kernel) or a `kernelslist.g` (its kernels in
/// launch order, each file opened when reached, relative to the list's directory).
///
/// Warp schedule (Accel-Sim traces have no SM ids and no global order): thread blocks are
/// replayed in file order, one at a time; the records of a block are buffered (only its memory
/// instructions) and emitted interleaved, one instruction per warp in turn, warps in ascending
/// id, a finished warp leaving the rotation. Records carry sm = kUnknownSm, so the simulator
/// places CTA c on SM c mod sm_count. The PC is the instruction id.
///
/// A raw kernel-N.trace (the tracer's output before post-traces-processing: every line
/// prefixed "tb_x tb_y tb_z warp", warps interleaved) is regrouped into the post-processed order
/// (blocks by linear id, warps ascending, lines in file order) and then replayed as above.
///
/// The layout generation is taken from `-accelsim tracer version` (absent: from the `#traces
/// format` line, and pre-3 when that has no `[line_num]` / `immediate` either, as Accel-Sim
/// does). Columns after the address list are skipped as the format line names them (tracer 6:
/// two immediates, then Val|NoVal and values); an unexplained field there is counted and warned
/// about once per file, or refused with ImportOptions::strict. Unknown header keys, comment
/// lines and block-level `key = value` lines (Hopper's cluster lines) are skipped with one
/// warning per key. Header values that cannot be true (nregs above 255, binary version 0, a zero
/// grid or block dimension, shared memory above any architecture's maximum) are replaced, warned
/// about once per file and recorded in the kernel's params as `header_<field>=<value>`; a zero grid
/// or block dimension is taken from the thread blocks and warps of the file (a pre-pass).
///
/// Each kernel's params get `loads_in_flight=N`, the loads a warp keeps in flight as its register
/// operands show (load_concurrency.h: read from the kernel's first thread block, which
/// next_kernel reads before it returns), where that block issues a load; the time model takes it
/// instead of gpu.loads_in_flight_per_warp.
///
/// Errors are SimErrors "<file>:<line>: <message>": bad header values, a block that does not
/// follow `#BEGIN_TB` / `thread block` / `warp` / `insts` / `#END_TB`, a CTA outside the grid, a
/// warp id outside the block, `insts = n` with fewer lines, an address list shorter than the
/// mask, an unknown address mode, addresses overflowing 64 bits, a cut compressed stream.
class AccelSimReader final : public TraceReader {
 public:
  /// A `.traceg` (`list` false) or a `kernelslist.g` (`list` true) opened by the caller.
  AccelSimReader(std::unique_ptr<InputStream> in, bool list, ImportOptions options = {});
  ~AccelSimReader() override;

  /// True when the first line of `head` looks like a kernelslist.g line.
  static bool looks_like_list(std::string_view head);
  /// True when `head` starts like a .traceg file (a `-key = value` header or a `#` block line).
  static bool looks_like_traceg(std::string_view head);

  bool next_kernel(KernelInfo& out) override;
  std::size_t read(std::span<WarpInstr> out) override;
  /// The thread blocks after each kernel's first are parsed on a thread of the reader's own
  /// (accelsim_block_parser.h); the reading thread cuts the file into blocks and emits their
  /// records. A raw kernel-N.trace is read as ever.
  bool parse_alongside() override;
  const std::string& source_name() const override { return name_; }
  /// The blocks of a kernelslist.g's MemcpyHtoD and MemcpyDtoH lines read so far, each once.
  std::span<const Allocation> allocations() const override { return allocations_; }

  const ImportCounts& counts() const { return counts_; }
  /// The layout of the current (last opened) kernel file.
  AccelSimLayout layout() const { return layout_; }
  /// One line describing the current kernel file's layout, e.g. "Accel-Sim tracer v5 (lineinfo
  /// off, immediate column)".
  std::string layout_description() const;
  /// Every warning logged so far (header values replaced, generic accesses without bases...).
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// The cluster of each thread block of the current kernel that had `cluster id` lines, in
  /// the order the blocks were read.
  const std::vector<BlockCluster>& clusters() const { return clusters_; }
  /// Thread blocks read so far that were parsed beside the reading (parse_alongside).
  std::uint64_t blocks_parsed_beside() const { return blocks_beside_; }

 private:
  class BlockParser;  // accelsim_block_parser.h
  struct ForBlocks {};

  /// What parsing a block on the helper thread would have logged or kept, in line order, for the
  /// reading thread to replay when it takes the block (warnings are once per file or key).
  struct BlockEvent {
    enum class Kind : std::uint8_t { Key, Generic, ClusterId, ClusterRank };
    Kind kind = Kind::Key;
    std::string where, text;  ///< Key: where and key; Generic: text is the message
    std::uint64_t line = 0;   ///< Key: the line that had it
    BlockCluster cluster;     ///< Cluster*: the block and its id or rank
  };

  /// The reader a BlockParser parses blocks with: memory lines, events instead of warnings.
  AccelSimReader(ForBlocks, ImportOptions options);

  struct WarpSlot {
    std::uint32_t warp = 0;
    std::size_t pos = 0;     // arena offset of the next record to emit
    std::uint64_t left = 0;  // records not yet emitted
  };

  bool open_next_list_kernel();               // false at the end of the list
  void read_header(KernelInfo& out);          // parses `-key = value` lines up to the first '#'
  void check_header_values(KernelInfo& out);  // replaces (and warns about) impossible values
  void prescan(KernelInfo& out, bool need_extents);  // lineinfo and grid/block extents pre-pass
  /// Reads up to the next `#BEGIN_TB` (Block) or the end of the file (End); before the first
  /// block, a line of a raw kernel-N.trace stops it (Raw, the line in `raw_first`).
  enum class Seek : std::uint8_t { Block, End, Raw };
  Seek seek_block(std::string_view& raw_first);
  bool load_block();  // false at the end of the kernel file
  // A raw kernel-N.trace: read (and counted) once, its memory records kept while they fit the
  // window; then emitted block by block, warps regrouped, as post-traces-processing writes them.
  void raw_prepare(std::string_view first);
  bool raw_load_window();  // one more pass for the next window of blocks; false when none left
  bool load_raw_block();   // the next block of the current window; false at the end
  void parse_instruction(std::string_view line);  // appends one record to the arena
  void emit(WarpInstr& out);
  [[noreturn]] void line_error(std::string_view what) const;
  /// "<file>:<line>: <layout> Accel-Sim layout expected <what>, found '<tok>'".
  [[noreturn]] void field_error(std::string_view what, std::string_view tok) const;
  void warn(std::string message);
  void warn_key_once(std::string_view where, std::string_view key);  // unknown key, once each
  void warn_key_once_at(std::string_view where, std::string_view key, std::uint64_t line);
  void apply(const BlockEvent& event);                    // as the parse would have on this thread
  void set_cluster(const BlockCluster& parsed, bool id);  // a `cluster id` / `rank` line's value
  void read_format_line();  // the trailing columns the `#traces format` line names
  bool block_key_line(std::string_view line);  // a block-level `key = value` line, skipped
  void trailing_fields(detail::Tokens& t, std::uint32_t mode, int lanes);  // after addresses
  struct WarpProgress;  // below
  /// An executed TMA line's bulk records (sim/core/types.h: TMALD ... TMAMC), one lane per
  /// 16-byte unit of tma_.units(), at most 32 a record, into the current warp's slot.
  void push_bulk_records(std::uint64_t pc, detail::BulkDirection dir,
                         const detail::TmaOperands& tma, WarpProgress& warp);
  void finish_file();  // the per-file warnings (trailing fields), once per file

  std::unique_ptr<InputStream> list_in_;  // kernelslist.g, when reading one
  std::unique_ptr<detail::LineReader> list_lines_;
  std::filesystem::path list_dir_;
  std::string name_;  // file of the current kernel (or the list before the first)
  std::uint64_t list_index_ = 0;
  std::vector<Allocation> allocations_;  // the list's memcpy blocks, first copy of each
  bool fallback_noted_ = false;          // a listed file read from its .xz or .zst: said once

  std::unique_ptr<InputStream> in_;  // the current .traceg
  std::unique_ptr<detail::LineReader> lines_;
  bool single_done_ = false;  // single .traceg: its kernel was returned
  bool in_kernel_ = false;
  std::string pending_;  // a `#BEGIN_TB` seen while reading the header
  bool have_pending_ = false;

  // Header values of the current kernel.
  KernelInfo kernel_;
  std::uint64_t shmem_base_ = 0, local_base_ = 0;
  unsigned tracer_version_ = 0;
  AccelSimLayout layout_ = AccelSimLayout::V5;
  std::string format_line_;  // the `#traces format = ...` line, "" when absent
  std::vector<std::pair<std::string, std::string>> header_lies_;  // header_<field> params
  std::string line_info_;                                         // the lineinfo param value
  bool prefixed_ = false;    // legacy or raw: "tb_x tb_y tb_z warp" before the PC
  bool raw_ = false;         // a tracer's kernel-N.trace before post-processing
  bool block_seen_ = false;  // a #BEGIN_TB was read in this file
  bool lineinfo_ = false;
  std::uint32_t warps_per_block_ = 1;
  std::unordered_set<std::uint32_t> kernel_ids_;

  // The scoreboard of the kernel's first thread block (the loads in flight per warp).
  static constexpr std::uint32_t kNoCta = ~0u;
  LoadConcurrency load_concurrency_;
  bool scoring_ = false;               // while next_kernel reads the first block
  std::uint32_t scored_cta_ = kNoCta;  // that block (a raw file interleaves several)

  // The buffered thread block.
  std::uint32_t cta_ = 0;
  std::uint32_t cta_xyz_[3] = {0, 0, 0};
  std::uint32_t cur_warp_ = 0;
  std::vector<std::uint64_t> arena_;
  std::vector<WarpSlot> slots_;
  std::vector<std::uint32_t> active_;  // indices into slots_ still emitting, ascending warp
  std::size_t rr_ = 0;                 // next position in active_
  std::vector<std::uint8_t> warp_seen_;
  // What a warp's lines since its last record give that record: their count where they made
  // no record (WarpInstr::instrs_before), and the scoreboard of its load dependencies
  // (WarpInstr::waits_for_load). The current warp's in a post-processed block; by block and
  // warp in a raw file, whose lines interleave the warps (a lookup a line, on that layout only).
  struct WarpProgress {
    std::uint32_t instrs_since_record = 0;
    RegisterDependencies dependencies;
    void start() {
      instrs_since_record = 0;
      dependencies.start_warp();
    }
    std::uint32_t take_instrs_before() { return std::exchange(instrs_since_record, 0); }
  };
  WarpProgress progress_;
  std::unordered_map<std::uint64_t, WarpProgress> raw_progress_;
  WarpProgress& progress();  // the current line's warp's

  ImportOptions options_;
  struct RawEntry {
    std::uint32_t cta = 0, warp = 0;
    std::uint64_t pos = 0;  // offset in raw_arena_
  };
  std::vector<std::uint64_t> raw_arena_;  // the window's records, in file order
  std::vector<RawEntry> raw_entries_;     // sorted by (cta, warp), file order within a warp
  std::size_t raw_next_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> raw_windows_;  // [lo, hi] block ranges
  std::size_t raw_window_ = 0;
  std::uint64_t raw_start_line_ = 0;  // the first record line
  unsigned raw_prefix_ints_ = 4;      // integers before the PC (accelsim_raw_prefix.h)
  // Columns after the address list: `after_fixed_` single tokens (the immediates) the reader
  // skips, then, when `after_variable_`, a rest of any length the format line names.
  unsigned after_fixed_ = 1;
  bool after_variable_ = false;
  std::map<std::string, std::uint64_t, std::less<>> trailing_file_;  // this file's, by field
  bool file_finished_ = false;
  std::vector<std::string> warned_keys_;
  std::vector<BlockCluster> clusters_;
  bool counting_ = true;  // false on the extra passes over a raw file: counted once
  std::vector<BlockEvent>* deferred_ = nullptr;  // a BlockParser's reader: events go here
  bool alongside_ = false;                       // parse_alongside() was called
  std::uint64_t blocks_beside_ = 0;              // see blocks_parsed_beside()

  ImportCounts counts_;
  detail::TmaOperandReader tma_;  // tracer 6's TMA operands (tma_operands.h)
  std::vector<std::string> warnings_;
  bool warned_generic_ = false;
  bool logged_summary_ = false;
  std::unique_ptr<BlockParser> block_parser_;  // last: its thread stops before the rest goes
};

}  // namespace gms::trace
