#include "trace/import/accelsim_reader.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <map>

#include "sim/core/error.h"
#include "trace/import/accelsim_block_parser.h"
#include "trace/import/accelsim_raw_prefix.h"
#include "trace/import/import_parse.h"
#include "trace/import/kernel_input.h"
#include "trace/import/sass_opcode.h"
#include "trace/io/record_util.h"

namespace gms::trace {

namespace {

using detail::parse_dec_token;
using detail::parse_hex_token;
using detail::shown_token;
using detail::trim;

constexpr std::uint64_t kMaxBlockThreads = 1u << 20;  // far above any GPU's 1024
constexpr unsigned kMaxRegOperands = 32;              // dest_num / src_num sanity bound
constexpr std::size_t kMaxLineInfoEntries = 1u << 16;
// An arena record: inst|mask, op|size|strided|waits_for_load|instrs_before (bits 0-7, 8-15, 16,
// 17-31, 32-63), stride, then the base address of lane 0 when strided (every active lane at
// base + lane * stride), else one address per active lane. A load dependency past 32,767 loads
// back is kept as that (no warp keeps so many in flight, so it waits for nothing either way).
constexpr std::size_t kRecordHeaderWords = 3;
constexpr int kWaitsForLoadShift = 17;
constexpr std::uint32_t kMaxWaitsForLoad = 0x7fff;
constexpr int kInstrsBeforeShift = 32;
constexpr std::uint32_t kMaxRegsPerThread = 255;  // every architecture since sm_35
constexpr unsigned kMinBinaryVersion = 20;        // sm_20 (Fermi), the oldest compute capability
constexpr unsigned kMaxBinaryVersion = 199;

/// The most shared memory one thread block may have (opt-in) on compute capability `binary`
/// (e.g. 90); 0 (unknown): the largest of any architecture.
std::uint64_t max_shared_per_block(unsigned binary) {
  constexpr std::uint64_t kib = 1024;
  switch (binary) {
    case 70:
    case 72:
      return 96 * kib;
    case 75:
      return 64 * kib;
    case 80:
    case 87:
      return 163 * kib;
    case 86:
    case 89:
      return 99 * kib;
    default:
      break;
  }
  if (binary != 0 && binary < 70) return 48 * kib;
  return 227 * kib;  // sm_90 and later, and the most of any
}

bool starts_with_word(std::string_view line, std::string_view word) {
  return line.starts_with(word) &&
         (line.size() == word.size() || detail::is_space(line[word.size()]) ||
          line[word.size()] == '=');
}

/// The value after '=' of a "key = value" line, trimmed; nullopt without '='.
std::optional<std::string_view> value_after_eq(std::string_view line) {
  const std::size_t eq = line.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  return trim(line.substr(eq + 1));
}

/// Words of the arena record at `p`: its header, then the base or one address per active lane.
std::size_t record_words(const std::uint64_t* p) {
  if ((p[1] >> 16) & 1) return kRecordHeaderWords + 1;
  return kRecordHeaderWords +
         static_cast<std::size_t>(std::popcount(static_cast<LaneMask>(p[0] >> 32)));
}

/// Leading decimal digits of `s` ("5", "4.0" -> 4); false when there are none.
bool leading_uint(std::string_view s, unsigned& v) {
  std::size_t n = 0;
  while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
  return n > 0 && parse_dec_token(s.substr(0, n), v);
}

}  // namespace

std::string_view accelsim_layout_name(AccelSimLayout layout) {
  switch (layout) {
    case AccelSimLayout::Legacy:
      return "legacy (pre-3)";
    case AccelSimLayout::V3:
      return "tracer v3";
    case AccelSimLayout::V4:
      return "tracer v4";
    case AccelSimLayout::V5:
      return "tracer v5";
    case AccelSimLayout::V6:
      break;
  }
  return "tracer v6";
}

std::string AccelSimReader::layout_description() const {
  std::string d = fmt::format("Accel-Sim {}", accelsim_layout_name(layout_));
  if (raw_)
    d += ", raw tracer output (not post-processed; regrouped by thread block and warp as "
         "post-traces-processing does)";
  if (prefixed_ && raw_prefix_ints_ == 4) d += ", 'tb_x tb_y tb_z warp' before each PC";
  if (prefixed_ && raw_prefix_ints_ != 4)
    d += fmt::format(", {} integers before each PC ('tb_x tb_y tb_z warp'{}{})", raw_prefix_ints_,
                     raw_prefix_ints_ >= 11 ? ", cluster id, cluster cta, rank" : "",
                     raw_prefix_ints_ == 6 || raw_prefix_ints_ == 13 ? ", SM and warp on it" : "");
  if (layout_ == AccelSimLayout::V4 || layout_ == AccelSimLayout::V5 ||
      layout_ == AccelSimLayout::V6)
    d += lineinfo_ ? ", lineinfo column" : ", lineinfo off";
  if (layout_ == AccelSimLayout::V6) {
    d += fmt::format(", {} immediate columns", after_fixed_);
    if (after_variable_) d += ", Val|NoVal value columns skipped";
  } else if (format_line_.find("immediate") != std::string::npos) {
    d += ", immediate column";
    if (after_variable_) d += ", further columns of the format line skipped";
  }
  if (shmem_base_ == 0 || local_base_ == 0) d += ", no shmem/local base addresses";
  return d;
}

AccelSimReader::AccelSimReader(std::unique_ptr<InputStream> in, bool list, ImportOptions options)
    : options_(options) {
  name_ = in->name();
  if (list) {
    list_in_ = std::move(in);
    list_lines_ = std::make_unique<detail::LineReader>(*list_in_);
    list_dir_ =
        name_ == "-" ? std::filesystem::path(".") : std::filesystem::path(name_).parent_path();
  } else {
    in_ = std::move(in);
    in_->decode_ahead();  // parsing overlaps the xz or zstd decoding
    lines_ = std::make_unique<detail::LineReader>(*in_);
  }
}

AccelSimReader::AccelSimReader(ForBlocks, ImportOptions options)
    : lines_(std::make_unique<detail::LineReader>()), options_(options) {}

AccelSimReader::~AccelSimReader() = default;

bool AccelSimReader::parse_alongside() {
  alongside_ = true;
  return true;
}

bool AccelSimReader::looks_like_list(std::string_view head) {
  std::size_t i = 0;
  while (i < head.size() && (detail::is_space(head[i]) || head[i] == '\n' || head[i] == '\r')) ++i;
  const std::string_view first = head.substr(i, head.find('\n', i) - i);
  if (first.starts_with("MemcpyHtoD,") || first.starts_with("MemcpyDtoH,")) return true;
  return first.starts_with("kernel") && first.find(".trace") != std::string_view::npos;
}

bool AccelSimReader::looks_like_traceg(std::string_view head) {
  std::size_t i = 0;
  while (i < head.size() && (detail::is_space(head[i]) || head[i] == '\n' || head[i] == '\r')) ++i;
  const std::string_view first = head.substr(i, head.find('\n', i) - i);
  if (first.starts_with("#BEGIN_TB") || first.starts_with("#traces format")) return true;
  return first.starts_with("-") && first.find(" = ") != std::string_view::npos;
}

void AccelSimReader::line_error(std::string_view what) const {
  fail("{}:{}: {}", name_, lines_ ? lines_->line_no() : 0, what);
}

void AccelSimReader::field_error(std::string_view what, std::string_view tok) const {
  line_error(fmt::format("{} Accel-Sim layout expected {}, found '{}'",
                         accelsim_layout_name(layout_), what, shown_token(tok)));
}

// ---------------------------------------------------------------------------------------------
// Kernels

bool AccelSimReader::open_next_list_kernel() {
  lines_.reset();
  in_.reset();
  const std::string& list = list_in_->name();
  std::string_view raw;
  while (list_lines_->next(raw)) {
    const std::string_view line = trim(raw);
    const std::uint64_t at = list_lines_->line_no();
    if (line.empty()) continue;
    if (line.starts_with("MemcpyHtoD,") || line.starts_with("MemcpyDtoH,")) {
      // MemcpyHtoD,0x<dst>,<bytes>: ignored (no L2 prefill), counted. Tracers that dump the
      // copied data add a fourth field, the dump file's name (the raw `kernelslist`).
      const std::string_view rest = line.substr(11);
      const std::size_t comma = rest.find(',');
      std::string_view size = comma == std::string_view::npos ? rest : rest.substr(comma + 1);
      const std::size_t dump = size.find(',');
      const bool bad_dump = dump != std::string_view::npos && trim(size.substr(dump + 1)).empty();
      size = size.substr(0, dump);
      std::uint64_t addr = 0, bytes = 0;
      if (comma == std::string_view::npos || !parse_hex_token(rest.substr(0, comma), addr, true) ||
          !parse_dec_token(size, bytes) || bad_dump)
        fail("{}:{}: bad memcpy command '{}' (expected {},0x<address>,<bytes>[,<dump file>])", list,
             at, shown_token(line), line.substr(0, 10));
      ++counts_.memcpy_commands;
      // The copy names a block of device memory: what layout what-ifs group accesses by. A
      // block copied back (DtoH) or again is named once.
      if (bytes != 0 && bytes - 1 > ~addr)
        fail("{}:{}: memcpy block 0x{:x} + {} bytes does not fit in 64 bits", list, at, addr,
             bytes);
      if (bytes != 0 &&
          std::none_of(allocations_.begin(), allocations_.end(),
                       [&](const Allocation& a) { return a.base == addr && a.bytes == bytes; }))
        allocations_.push_back({addr, bytes, ""});
      continue;
    }
    if (!line.starts_with("kernel"))
      fail(
          "{}:{}: unexpected line '{}' in a kernelslist.g (expected MemcpyHtoD,... or "
          "kernel-N.traceg)",
          list, at, shown_token(line));
    const std::filesystem::path path = list_dir_ / std::string(line);
    ++list_index_;
    ListedKernel opened;
    try {
      opened = open_listed_kernel(path.string());
    } catch (const SimError& e) {
      fail("{}:{}: {}", list, at, e.what());
    }
    in_ = std::move(opened.stream);
    name_ = opened.path;
    if (opened.fallback && !fallback_noted_) {
      fallback_noted_ = true;  // said once per list: a compressed directory has many
      warn(fmt::format(
          "{}:{}: {} is missing: read {} beside it (and so for any other listed file that is "
          "missing beside its .xz or .zst)",
          list, at, path.string(), opened.path));
    }
    in_->decode_ahead();
    lines_ = std::make_unique<detail::LineReader>(*in_);
    return true;
  }
  return false;
}

bool AccelSimReader::next_kernel(KernelInfo& out) {
  if (block_parser_) block_parser_->stop_kernel();
  in_kernel_ = false;
  active_.clear();
  have_pending_ = false;
  bool more;
  if (list_in_) {
    more = open_next_list_kernel();
  } else {
    more = !single_done_;
    single_done_ = true;
    if (!more) {
      lines_.reset();
      in_.reset();
    }
  }
  if (!more) {
    if (!logged_summary_ && !options_.quiet) {
      logged_summary_ = true;
      spdlog::info(
          "{}: Accel-Sim import: {} records; skipped {} non-memory and {} unsupported memory "
          "instructions, {} without active lanes; {} memcpy commands ignored",
          list_in_ ? list_in_->name() : name_, counts_.records, counts_.non_memory,
          counts_.unsupported, counts_.inactive, counts_.memcpy_commands);
      // TMA copies whose operands were read are replayed (the tma class), but for copies
      // between shared windows, which move no global bytes: those are counted only.
      const BulkTraffic& shared_copies =
          counts_.bulk_traffic[static_cast<int>(BulkClass::SharedCopy)];
      if (shared_copies.requests != 0)
        spdlog::info(
            "{}: {} bulk copies between shared-memory windows ({} bytes) are counted, not "
            "replayed (`gpumemsim info` shows them)",
            list_in_ ? list_in_->name() : name_, shared_copies.requests, shared_copies.bytes);
    }
    return false;
  }
  read_header(out);
  if (!kernel_ids_.insert(out.id).second) line_error(fmt::format("duplicate kernel id {}", out.id));
  in_kernel_ = true;
  // The first thread block is read now: its warps' register operands give the loads a warp of
  // this kernel keeps in flight (load_concurrency.h), a param the time model reads. Every block
  // runs the same code; the first one stands for them.
  load_concurrency_.reset();
  scoring_ = true;
  scored_cta_ = kNoCta;
  if (!load_block()) in_kernel_ = false;
  scoring_ = false;
  if (alongside_ && in_kernel_ && !raw_) {
    if (!block_parser_) block_parser_ = std::make_unique<BlockParser>(*this);
    block_parser_->start_kernel();
  }
  if (const std::uint32_t n = load_concurrency_.loads_in_flight(); n != 0)
    out.params.emplace_back("loads_in_flight", std::to_string(n));
  return true;
}

void AccelSimReader::read_header(KernelInfo& out) {
  out = KernelInfo{};
  shmem_base_ = local_base_ = 0;
  tracer_version_ = 0;
  lineinfo_ = false;
  raw_ = block_seen_ = false;
  raw_prefix_ints_ = 4;
  format_line_.clear();
  clusters_.clear();
  trailing_file_.clear();
  file_finished_ = false;
  bool has_id = false, has_version = false;
  std::string stream, nvbit;
  std::string_view raw;
  while (lines_->next(raw)) {
    const std::string_view line = trim(raw);
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (line.starts_with("#BEGIN_TB")) have_pending_ = true;  // no format comment line
      if (line.starts_with("#traces format")) format_line_.assign(line);
      break;
    }
    if (line[0] != '-') line_error("expected a '-key = value' header line or the '#' line");
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos)
      line_error(fmt::format("header line '{}' lacks ' = '", shown_token(line)));
    const std::string_view key = trim(line.substr(1, eq - 1));
    const std::string_view value = trim(line.substr(eq + 1));
    auto bad = [&](std::string_view expected) {
      line_error(fmt::format("bad {} '{}' (expected {})", key, shown_token(value), expected));
    };
    auto dims = [&](Dim3& d) {
      std::string_view v = value;
      if (v.size() < 2 || v.front() != '(' || v.back() != ')') bad("(x,y,z)");
      std::uint32_t xyz[3];
      if (!detail::parse_xyz(v.substr(1, v.size() - 2), xyz)) bad("(x,y,z) with decimal integers");
      d = Dim3{xyz[0], xyz[1], xyz[2]};  // a zero is a header lie (check_header_values)
    };
    if (key == "kernel name") {
      out.name = detail::without_spaces(value);
    } else if (key == "kernel id") {
      if (!parse_dec_token(value, out.id)) bad("a decimal u32");
      has_id = true;
    } else if (key == "grid dim") {
      dims(out.grid);
      if (out.grid.count() > 0xffffffffull) bad("at most 2^32 thread blocks");
    } else if (key == "block dim") {
      dims(out.block);
      if (out.block.count() > kMaxBlockThreads) bad("at most 2^20 threads");
    } else if (key == "shmem") {
      if (!parse_dec_token(value, out.shmem_bytes)) bad("a decimal byte count");
    } else if (key == "nregs") {
      if (!parse_dec_token(value, out.regs)) bad("a decimal integer");
    } else if (key == "binary version") {
      unsigned v = 0;
      if (!parse_dec_token(value, v)) bad("a decimal integer such as 90");
      out.arch = fmt::format("sm_{}", v);
    } else if (key == "cuda stream id") {
      stream = detail::without_spaces(value);
    } else if (key == "shmem base_addr") {
      if (!parse_hex_token(value, shmem_base_)) bad("a hex address");
    } else if (key == "local mem base_addr") {
      if (!parse_hex_token(value, local_base_)) bad("a hex address");
    } else if (key == "nvbit version") {
      nvbit = detail::without_spaces(value);
    } else if (key == "accelsim tracer version") {
      if (!leading_uint(value, tracer_version_)) bad("a decimal version");
      has_version = true;
    } else if (key == "enable lineinfo") {
      unsigned v = 0;
      if (!parse_dec_token(value, v) || v > 1) bad("0 or 1");
      lineinfo_ = v == 1;
    } else {
      // A newer tracer's or a fork's key: Accel-Sim prints and ignores it; so does the import,
      // saying so once per key.
      warn_key_once("header", key);
    }
  }
  // The layout: the version header when present; else the format line (Accel-Sim itself reads a
  // missing version as 0, i.e. pre-3).
  const bool fmt_line_num = format_line_.find("[line_num]") != std::string::npos;
  const bool fmt_imm = format_line_.find("immediate") != std::string::npos;
  const bool fmt_val = format_line_.find("Val|NoVal") != std::string::npos;
  if (has_version) {
    layout_ = tracer_version_ < 3    ? AccelSimLayout::Legacy
              : tracer_version_ == 3 ? AccelSimLayout::V3
              : tracer_version_ == 4 ? AccelSimLayout::V4
              : tracer_version_ == 5 ? AccelSimLayout::V5
                                     : AccelSimLayout::V6;
    if (tracer_version_ > 6)
      warn(fmt::format("{}: accelsim tracer version {} is newer than 6, the last known: read as 6",
                       name_, tracer_version_));
  } else {
    layout_ = fmt_val        ? AccelSimLayout::V6
              : fmt_imm      ? AccelSimLayout::V5
              : fmt_line_num ? AccelSimLayout::V4
                             : AccelSimLayout::Legacy;
  }
  read_format_line();
  prefixed_ = layout_ == AccelSimLayout::Legacy;
  if (lineinfo_ && (layout_ == AccelSimLayout::Legacy || layout_ == AccelSimLayout::V3))
    line_error(fmt::format(
        "-enable lineinfo = 1 in a {} Accel-Sim header (source lines came with tracer 4)",
        accelsim_layout_name(layout_)));
  if (!has_id) out.id = list_in_ ? static_cast<std::uint32_t>(list_index_) : 1;
  // params reproduce the typed fields, so the kernel converts to wtrace losslessly.
  auto& p = out.params;
  p.emplace_back("id", std::to_string(out.id));
  if (!out.name.empty()) p.emplace_back("name", out.name);
  p.emplace_back("grid", "");  // filled below, once a zero is replaced
  p.emplace_back("block", "");
  p.emplace_back("shmem", "");
  const std::size_t dims_at = p.size() - 3;
  check_header_values(out);
  p[dims_at].second = fmt::format("{},{},{}", out.grid.x, out.grid.y, out.grid.z);
  p[dims_at + 1].second = fmt::format("{},{},{}", out.block.x, out.block.y, out.block.z);
  p[dims_at + 2].second = std::to_string(out.shmem_bytes);
  if (out.regs != 0) p.emplace_back("regs", std::to_string(out.regs));
  if (!out.arch.empty()) p.emplace_back("arch", out.arch);
  p.emplace_back("source", "accelsim");
  if (tracer_version_ != 0) p.emplace_back("tracer_version", std::to_string(tracer_version_));
  if (!stream.empty()) p.emplace_back("stream", stream);
  if (!nvbit.empty()) p.emplace_back("nvbit", nvbit);
  for (auto& kv : header_lies_) p.push_back(std::move(kv));
  if (!line_info_.empty()) p.emplace_back("lineinfo", std::move(line_info_));
  warps_per_block_ = static_cast<std::uint32_t>((out.block.count() + kWarpSize - 1) / kWarpSize);
  kernel_ = out;
}

void AccelSimReader::warn(std::string message) {
  if (!options_.quiet) spdlog::warn("{}", message);
  warnings_.push_back(std::move(message));
}

void AccelSimReader::warn_key_once(std::string_view where, std::string_view key) {
  const std::uint64_t line = lines_ ? lines_->line_no() : 0;
  if (deferred_) {
    deferred_->push_back(
        BlockEvent{BlockEvent::Kind::Key, std::string(where), std::string(key), line, {}});
    return;
  }
  warn_key_once_at(where, key, line);
}

void AccelSimReader::warn_key_once_at(std::string_view where, std::string_view key,
                                      std::uint64_t line) {
  const std::string k = fmt::format("{}:{}", where, key);
  if (std::find(warned_keys_.begin(), warned_keys_.end(), k) != warned_keys_.end()) return;
  warned_keys_.push_back(k);
  const bool cluster = key == "cluster id" || key == "cluster rank";
  warn(fmt::format("{}:{}: {} {} key '{}': skipped{} (warned once per key)", name_, line,
                   cluster ? "Hopper" : "unknown", where, shown_token(key),
                   cluster ? ", kept per block for cluster placement" : ""));
}

void AccelSimReader::read_format_line() {
  // What follows the address list. Tracers 4 and 5 print one immediate; tracer 6 two, then
  // `Val|NoVal` and the register values (a list of any length); forks document their own
  // suffixes in the same line. Without a format line one trailing token is read as the
  // immediate, as before tracer 6.
  after_fixed_ = 1;
  after_variable_ = false;
  const std::size_t at = format_line_.find("mem_addresses");
  if (at == std::string::npos) {
    if (layout_ == AccelSimLayout::V6) {
      after_fixed_ = 2;
      after_variable_ = true;
    }
    return;
  }
  std::size_t end = format_line_.find(' ', at);
  if (end == std::string::npos) return;
  detail::Tokens t{std::string_view(format_line_).substr(end)};
  unsigned fixed = 0;
  for (std::string_view tok = t.next(); !tok.empty(); tok = t.next()) {
    // A column of any length: alternatives (Val|NoVal), an optional or repeated one ([x],
    // "..."), or a list named by a count.
    if (tok.find_first_of("|[.") != std::string_view::npos) {
      after_variable_ = true;
      break;
    }
    ++fixed;
  }
  after_fixed_ = std::max(fixed, 1u);
}

void AccelSimReader::check_header_values(KernelInfo& out) {
  // Values NVBit reports wrong on some drivers (accel-sim-framework issues about nregs and
  // binary version): the addresses are fine, only residency would be wrong, so each is replaced
  // by "unknown", warned about and kept in the params as header_<field>.
  auto& lies = header_lies_;
  lies.clear();
  line_info_.clear();
  unsigned binary = 0;
  if (!out.arch.empty()) {
    binary = static_cast<unsigned>(std::stoul(out.arch.substr(3)));
    if (binary < kMinBinaryVersion || binary > kMaxBinaryVersion) {
      warn(
          fmt::format("{}: binary version {} is not a compute capability: ignored, architecture "
                      "unknown (the configuration's is used)",
                      name_, binary));
      lies.emplace_back("header_binary_version", std::to_string(binary));
      out.arch.clear();
      binary = 0;
    }
  }
  if (out.regs > kMaxRegsPerThread) {
    warn(fmt::format("{}: nregs {} > {}: ignored, residency from threads and shared memory only",
                     name_, out.regs, kMaxRegsPerThread));
    lies.emplace_back("header_nregs", std::to_string(out.regs));
    out.regs = 0;
  }
  const std::uint64_t max_shmem = max_shared_per_block(binary);
  if (out.shmem_bytes > max_shmem) {
    warn(
        fmt::format("{}: shmem {} > {} (the most one block may have on {}): ignored, residency "
                    "from threads and registers only",
                    name_, out.shmem_bytes, max_shmem,
                    binary == 0 ? std::string("any architecture") : out.arch));
    lies.emplace_back("header_shmem", std::to_string(out.shmem_bytes));
    out.shmem_bytes = 0;
  }
  const bool zero_grid = out.grid.x == 0 || out.grid.y == 0 || out.grid.z == 0;
  const bool zero_block = out.block.x == 0 || out.block.y == 0 || out.block.z == 0;
  const Dim3 header_grid = out.grid, header_block = out.block;
  if (zero_grid || zero_block || lineinfo_) prescan(out, zero_grid || zero_block);
  if (zero_grid) {
    warn(fmt::format(
        "{}: grid dim ({},{},{}) has a zero: using ({},{},{}), the extent of the "
        "file's thread blocks",
        name_, header_grid.x, header_grid.y, header_grid.z, out.grid.x, out.grid.y, out.grid.z));
    lies.emplace_back("header_grid",
                      fmt::format("{},{},{}", header_grid.x, header_grid.y, header_grid.z));
  }
  if (zero_block) {
    warn(
        fmt::format("{}: block dim ({},{},{}) has a zero: using ({},1,1), 32 threads per warp "
                    "of the file's largest warp id",
                    name_, header_block.x, header_block.y, header_block.z, out.block.x));
    lies.emplace_back("header_block",
                      fmt::format("{},{},{}", header_block.x, header_block.y, header_block.z));
  }
}

void AccelSimReader::prescan(KernelInfo& out, bool need_extents) {
  // A second pass over the file (records stream afterwards): PC -> source line of each memory
  // instruction, so the line numbers travel with the kernel as `lineinfo=PC:LINE,...`; and, when
  // the header's grid or block has a zero, the extent of the thread blocks and warps.
  if (name_ == "-") {
    if (need_extents)
      line_error(
          "a grid or block dimension of 0 in the header: the real one is taken from the "
          "file's thread blocks, which standard input cannot be read twice for");
    if (!options_.quiet) spdlog::warn("{}: lineinfo is not collected from standard input", name_);
    return;
  }
  std::map<std::uint32_t, std::uint32_t> lines;
  std::uint32_t max_xyz[3] = {0, 0, 0}, max_warp = 0;
  try {
    const std::unique_ptr<InputStream> again = open_kernel_stream(name_);
    again->decode_ahead();
    detail::LineReader r(*again);
    std::string_view raw;
    bool in_header = true;
    bool blocks = false;       // false: a raw kernel-N.trace so far, "tb_x tb_y tb_z warp" first
    unsigned prefix_ints = 0;  // of a raw file, from its first line (accelsim_raw_prefix.h)
    while (r.next(raw)) {
      const std::string_view line = trim(raw);
      if (in_header) {
        if (!line.empty() && line[0] == '#') in_header = false;
        blocks = blocks || line.starts_with("#BEGIN_TB");
        continue;
      }
      blocks = blocks || line.starts_with("#BEGIN_TB");
      if (line.empty() || line[0] == '#') continue;
      if (starts_with_word(line, "thread")) {
        std::uint32_t xyz[3];
        const auto v = value_after_eq(line);
        if (v && detail::parse_xyz(*v, xyz))
          for (int i = 0; i < 3; ++i) max_xyz[i] = std::max(max_xyz[i], xyz[i]);
        continue;
      }
      if (starts_with_word(line, "warp")) {
        std::uint32_t w = 0;
        const auto v = value_after_eq(line);
        if (v && parse_dec_token(*v, w)) max_warp = std::max(max_warp, w);
        continue;
      }
      detail::Tokens t{line};
      if (!blocks) {  // the raw prefix: the block and warp extents, then the line as below
        if (prefix_ints == 0) prefix_ints = detail::raw_prefix_ints(line, lineinfo_);
        std::uint32_t v[4] = {0, 0, 0, 0};
        bool ok = true;
        for (std::uint32_t& x : v) ok = ok && parse_dec_token(t.next(), x);
        std::uint32_t extra = 0;  // tracer 6's cluster fields, the SM and warp on it
        for (unsigned i = 4; i < prefix_ints; ++i) ok = ok && parse_dec_token(t.next(), extra);
        if (!ok) continue;
        for (int i = 0; i < 3; ++i) max_xyz[i] = std::max(max_xyz[i], v[i]);
        max_warp = std::max(max_warp, v[3]);
      }
      if (starts_with_word(line, "insts") || !lineinfo_ || lines.size() >= kMaxLineInfoEntries)
        continue;
      std::uint32_t line_num = 0, dests = 0, srcs = 0, width = 0;
      std::uint64_t pc = 0, mask = 0;
      if (!parse_dec_token(t.next(), line_num) || !parse_hex_token(t.next(), pc) ||
          !parse_hex_token(t.next(), mask) || !parse_dec_token(t.next(), dests) ||
          dests > kMaxRegOperands)
        continue;
      for (std::uint32_t i = 0; i < dests; ++i) t.next();
      const std::string_view opcode = t.next();
      if (!parse_dec_token(t.next(), srcs) || srcs > kMaxRegOperands) continue;
      for (std::uint32_t i = 0; i < srcs; ++i) t.next();
      if (!parse_dec_token(t.next(), width) || pc > 0xffffffffu) continue;
      const detail::SassKind kind = detail::classify_sass(opcode).kind;
      if (width != 0 && kind != detail::SassKind::Unsupported && kind != detail::SassKind::BulkCopy)
        lines.emplace(static_cast<std::uint32_t>(pc), line_num);
    }
  } catch (const SimError&) {
    // The main pass reports the same error at its line.
  }
  if (need_extents) {
    if (out.grid.x == 0 || out.grid.y == 0 || out.grid.z == 0)
      out.grid = Dim3{max_xyz[0] + 1, max_xyz[1] + 1, max_xyz[2] + 1};
    if (out.block.x == 0 || out.block.y == 0 || out.block.z == 0)
      out.block = Dim3{(max_warp + 1) * static_cast<std::uint32_t>(kWarpSize), 1, 1};
  }
  std::string value;
  for (const auto& [pc, line] : lines) {
    if (!value.empty()) value += ',';
    value += fmt::format("{}:{}", pc, line);
  }
  line_info_ = std::move(value);
}

// ---------------------------------------------------------------------------------------------
// Thread blocks

AccelSimReader::Seek AccelSimReader::seek_block(std::string_view& raw_first) {
  std::string_view raw;
  for (;;) {
    if (!lines_->next(raw)) return Seek::End;
    const std::string_view line = trim(raw);
    if (line.empty()) continue;
    if (line.starts_with("#BEGIN_TB")) return Seek::Block;
    if (line[0] == '#' && !line.starts_with("#END_TB")) {
      // A comment line of a newer tracer or a fork between the header and the blocks.
      warn_key_once("'#' line", line.substr(0, line.find('=')));
      continue;
    }
    if (!block_seen_ && line[0] >= '0' && line[0] <= '9') {
      // The tracer's own kernel-N.trace, before post-traces-processing grouped it by block:
      // every line carries "tb_x tb_y tb_z warp", warps of different blocks interleaved.
      raw_first = line;
      return Seek::Raw;
    }
    line_error(fmt::format("expected #BEGIN_TB, found '{}'", shown_token(line)));
  }
}

bool AccelSimReader::load_block() {
  if (block_parser_ && block_parser_->running()) return block_parser_->next_block();
  arena_.clear();
  slots_.clear();
  active_.clear();
  rr_ = 0;
  warp_seen_.assign(warps_per_block_, 0);
  progress_.start();
  if (raw_) return load_raw_block();
  if (have_pending_) {
    have_pending_ = false;
  } else {
    std::string_view first;
    switch (seek_block(first)) {
      case Seek::End:
        finish_file();
        return false;
      case Seek::Raw:
        raw_ = prefixed_ = true;
        raw_prepare(first);
        return load_raw_block();
      case Seek::Block:
        break;
    }
  }
  block_seen_ = true;
  std::string_view raw, line;
  bool have_cta = false;
  std::uint64_t expected = 0, seen = 0;  // instruction lines of the current warp
  std::uint32_t warp = 0;
  bool warp_open = false, insts_given = false;
  bool counted = true;  // false: a legacy warp without its 'insts' line (Accel-Sim needs none)
  auto close_warp = [&] {
    if (warp_open && !insts_given) line_error(fmt::format("warp {} has no 'insts = n' line", warp));
    if (counted && seen < expected)
      line_error(fmt::format("warp {}: insts = {} but only {} instruction line{} follow", warp,
                             expected, seen, seen == 1 ? "" : "s"));
  };
  for (;;) {
    if (!lines_->next(raw)) {
      close_warp();
      line_error("end of file inside a thread block (no #END_TB)");
    }
    line = trim(raw);
    if (line.empty()) continue;
    if (line.starts_with("#END_TB")) {
      close_warp();
      if (!have_cta) line_error("thread block without a 'thread block = x,y,z' line");
      break;
    }
    if (line.starts_with("#BEGIN_TB")) line_error("#BEGIN_TB inside a thread block");
    if (starts_with_word(line, "thread")) {
      std::uint32_t xyz[3];
      const auto v = value_after_eq(line);
      if (!v || !detail::parse_xyz(*v, xyz))
        line_error(fmt::format("bad '{}' (expected thread block = x,y,z)", shown_token(line)));
      if (have_cta) line_error("second 'thread block' line in one block");
      const Dim3& g = kernel_.grid;
      if (xyz[0] >= g.x || xyz[1] >= g.y || xyz[2] >= g.z)
        line_error(fmt::format("thread block {},{},{} is outside the grid ({},{},{})", xyz[0],
                               xyz[1], xyz[2], g.x, g.y, g.z));
      cta_ = static_cast<std::uint32_t>(xyz[0] + std::uint64_t{xyz[1]} * g.x +
                                        std::uint64_t{xyz[2]} * g.x * g.y);
      std::copy(std::begin(xyz), std::end(xyz), cta_xyz_);
      have_cta = true;
      continue;
    }
    if (starts_with_word(line, "warp")) {
      close_warp();
      const auto v = value_after_eq(line);
      if (!v || !parse_dec_token(*v, warp))
        line_error(fmt::format("bad '{}' (expected warp = N)", shown_token(line)));
      if (!have_cta) line_error("warp before the 'thread block' line");
      if (warp >= warps_per_block_)
        line_error(fmt::format("warp {} is out of range: a block of {} threads has {} warp{}", warp,
                               kernel_.block.count(), warps_per_block_,
                               warps_per_block_ == 1 ? "" : "s"));
      if (warp_seen_[warp]) line_error(fmt::format("warp {} appears twice in one block", warp));
      warp_seen_[warp] = 1;
      warp_open = true;
      insts_given = false;
      counted = true;
      expected = seen = 0;
      cur_warp_ = warp;
      progress_.start();
      continue;
    }
    if (starts_with_word(line, "insts")) {
      const auto v = value_after_eq(line);
      if (!v || !parse_dec_token(*v, expected))
        line_error(fmt::format("bad '{}' (expected insts = N)", shown_token(line)));
      if (!warp_open || insts_given) line_error("'insts' line without its 'warp' line");
      insts_given = true;
      seen = 0;
      slots_.push_back(WarpSlot{warp, arena_.size(), 0});
      continue;
    }
    if (line[0] == '#') line_error(fmt::format("unexpected line '{}'", shown_token(line)));
    if (block_key_line(line)) continue;
    if (prefixed_ && warp_open && !insts_given) {
      insts_given = true;  // legacy files may omit 'insts = n'
      counted = false;
      slots_.push_back(WarpSlot{warp, arena_.size(), 0});
    }
    if (!insts_given || (counted && seen >= expected))
      line_error(fmt::format("instruction line outside a warp's 'insts = {}' lines", expected));
    ++seen;
    parse_instruction(line);
  }
  // Round-robin over the warps that have records, in ascending warp order.
  std::sort(slots_.begin(), slots_.end(),
            [](const WarpSlot& a, const WarpSlot& b) { return a.warp < b.warp; });
  for (std::uint32_t i = 0; i < slots_.size(); ++i)
    if (slots_[i].left != 0) active_.push_back(i);
  return true;
}

bool AccelSimReader::block_key_line(std::string_view line) {
  // "key = value" with a key of words: instruction lines have no '='. Hopper's tracer writes
  // `cluster id = x,y,z`, `cluster cta = x,y,z` (the block's place in its cluster) and
  // `cluster rank = N` after the thread block line; later tracers may add more.
  const std::size_t eq = line.find('=');
  if (eq == std::string_view::npos) return false;
  const std::string_view key = trim(line.substr(0, eq));
  if (key.empty() || !std::isalpha(static_cast<unsigned char>(key[0]))) return false;
  for (char c : key)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && !detail::is_space(c))
      return false;
  const std::string_view value = trim(line.substr(eq + 1));
  if (counting_) ++counts_.block_keys;
  if (key == "cluster id" || key == "cluster rank") {
    // Kept per block (clusters()): a later model may place a cluster's blocks on one GPC.
    const bool id = key == "cluster id";
    BlockCluster c{cta_};
    if (!(id ? detail::parse_xyz(value, c.id) : parse_dec_token(value, c.rank)))
      line_error(
          fmt::format("bad '{}' (expected {} = {})", shown_token(line), key, id ? "x,y,z" : "N"));
    if (deferred_) {
      using K = BlockEvent::Kind;
      deferred_->push_back(BlockEvent{id ? K::ClusterId : K::ClusterRank, {}, {}, 0, c});
    } else {
      set_cluster(c, id);
    }
  }
  warn_key_once("thread-block", key);
  return true;
}

void AccelSimReader::set_cluster(const BlockCluster& parsed, bool id) {
  if (clusters_.empty() || clusters_.back().cta != parsed.cta)
    clusters_.push_back(BlockCluster{parsed.cta});
  BlockCluster& c = clusters_.back();
  if (id) {
    std::copy(std::begin(parsed.id), std::end(parsed.id), c.id);
  } else {
    c.rank = parsed.rank;
  }
}

void AccelSimReader::apply(const BlockEvent& event) {
  switch (event.kind) {
    case BlockEvent::Kind::Key:
      warn_key_once_at(event.where, event.text, event.line);
      break;
    case BlockEvent::Kind::Generic:
      if (!warned_generic_) {
        warned_generic_ = true;
        warn(event.text);
      }
      break;
    case BlockEvent::Kind::ClusterId:
    case BlockEvent::Kind::ClusterRank:
      set_cluster(event.cluster, event.kind == BlockEvent::Kind::ClusterId);
      break;
  }
}

void AccelSimReader::finish_file() {
  if (file_finished_) return;
  file_finished_ = true;
  for (const auto& [field, n] : trailing_file_)
    warn(fmt::format(
        "{}: {} line{} with '{}' after a complete address list, a field no '#traces format' "
        "line explains: read, the field skipped (--strict refuses such lines)",
        name_, n, n == 1 ? "" : "s", field));
  trailing_file_.clear();
}

void AccelSimReader::raw_prepare(std::string_view first) {
  // post-traces-processing (accel-sim-framework util/tracer_nvbit/tracer_tool/traces-processing)
  // writes the blocks in linear id order (x fastest), each block's warps in ascending order,
  // each warp's lines in file order; the records here come out in that order. One pass parses
  // and counts every line; when all memory records fit the window (options_.raw_window_words)
  // they are kept and no second pass is needed; otherwise the blocks are cut into windows that
  // fit, each read again in one more pass.
  raw_start_line_ = lines_->line_no();
  raw_prefix_ints_ = detail::raw_prefix_ints(first, lineinfo_);
  raw_entries_.clear();
  raw_next_ = 0;
  raw_windows_.clear();
  raw_window_ = 0;
  std::map<std::uint32_t, std::uint64_t> words;  // per block, for the windows
  bool overflow = false;
  arena_.clear();
  slots_.assign(1, WarpSlot{});
  raw_progress_.clear();
  std::string_view raw = first, line;
  for (bool have = true; have; have = lines_->next(raw)) {
    line = trim(raw);
    if (line.empty()) continue;
    if (line[0] == '#')
      line_error(fmt::format(
          "unexpected line '{}' in a raw (not post-processed) Accel-Sim trace, whose lines all "
          "start with 'tb_x tb_y tb_z warp'",
          shown_token(line)));
    const std::size_t before = arena_.size();
    parse_instruction(line);
    if (arena_.size() == before) continue;
    if (overflow) {
      words[cta_] += arena_.size() - before;
      arena_.resize(before);
      continue;
    }
    raw_entries_.push_back(RawEntry{cta_, cur_warp_, before});
    if (arena_.size() > options_.raw_window_words) {
      if (name_ == "-")
        line_error(fmt::format(
            "a raw Accel-Sim trace on standard input with more than {} words of records: "
            "regrouping it by block needs the file (read again per window of blocks)",
            options_.raw_window_words));
      overflow = true;
      // The words per block, for the windows: of the records kept so far, then line by line
      // (a map lookup per record only once the window is exceeded).
      for (const RawEntry& e : raw_entries_) words[e.cta] += record_words(arena_.data() + e.pos);
      arena_.clear();
      arena_.shrink_to_fit();
      raw_entries_.clear();
      raw_entries_.shrink_to_fit();
    }
  }
  finish_file();
  if (overflow) {
    std::uint64_t in_window = 0;
    for (const auto& [cta, n] : words) {
      if (raw_windows_.empty() || in_window + n > options_.raw_window_words) {
        raw_windows_.emplace_back(cta, cta);
        in_window = 0;
      }
      raw_windows_.back().second = cta;
      in_window += n;
    }
    return;
  }
  std::swap(arena_, raw_arena_);
  std::stable_sort(raw_entries_.begin(), raw_entries_.end(),
                   [](const RawEntry& a, const RawEntry& b) {
                     return a.cta != b.cta ? a.cta < b.cta : a.warp < b.warp;
                   });
}

bool AccelSimReader::raw_load_window() {
  raw_arena_.clear();
  raw_entries_.clear();
  raw_next_ = 0;
  if (raw_window_ >= raw_windows_.size()) return false;
  const auto [lo, hi] = raw_windows_[raw_window_++];
  in_ = std::make_unique<InputStream>(name_);
  in_->decode_ahead();
  lines_ = std::make_unique<detail::LineReader>(*in_);
  counting_ = false;  // the first pass counted every line
  arena_.clear();
  slots_.assign(1, WarpSlot{});
  raw_progress_.clear();
  const Dim3& g = kernel_.grid;
  std::string_view raw;
  while (lines_->next(raw)) {
    if (lines_->line_no() < raw_start_line_) continue;
    const std::string_view line = trim(raw);
    if (line.empty()) continue;
    detail::Tokens t{line};
    std::uint32_t x = 0, y = 0, z = 0;
    if (!parse_dec_token(t.next(), x) || !parse_dec_token(t.next(), y) ||
        !parse_dec_token(t.next(), z))
      line_error("the raw trace changed since it was first read");
    const std::uint64_t cta = x + std::uint64_t{y} * g.x + std::uint64_t{z} * g.x * g.y;
    if (cta < lo || cta > hi) continue;
    const std::size_t before = arena_.size();
    parse_instruction(line);
    if (arena_.size() != before) raw_entries_.push_back(RawEntry{cta_, cur_warp_, before});
  }
  counting_ = true;
  std::swap(arena_, raw_arena_);
  std::stable_sort(raw_entries_.begin(), raw_entries_.end(),
                   [](const RawEntry& a, const RawEntry& b) {
                     return a.cta != b.cta ? a.cta < b.cta : a.warp < b.warp;
                   });
  return true;
}

bool AccelSimReader::load_raw_block() {
  while (raw_next_ >= raw_entries_.size())
    if (!raw_load_window()) return false;
  arena_.clear();
  slots_.clear();
  active_.clear();
  rr_ = 0;
  const std::uint32_t cta = raw_entries_[raw_next_].cta;
  while (raw_next_ < raw_entries_.size() && raw_entries_[raw_next_].cta == cta) {
    const RawEntry& e = raw_entries_[raw_next_++];
    if (slots_.empty() || slots_.back().warp != e.warp)
      slots_.push_back(WarpSlot{e.warp, arena_.size(), 0});
    const std::uint64_t* p = raw_arena_.data() + e.pos;
    arena_.insert(arena_.end(), p, p + record_words(p));
    ++slots_.back().left;
  }
  cta_ = cta;
  for (std::uint32_t i = 0; i < slots_.size(); ++i) active_.push_back(i);
  return true;
}

void AccelSimReader::parse_instruction(std::string_view line) {
  detail::Tokens t{line};
  std::string_view tok;
  if (prefixed_) {
    // Pre-3 tracers prefix each line with "tb_x tb_y tb_z warp"; the block and warp lines say
    // the same, so a difference means the file is not in this layout.
    std::uint32_t v[4] = {0, 0, 0, 0};
    std::string_view prefix = line;
    for (std::uint32_t& x : v) {
      tok = t.next();
      if (!parse_dec_token(tok, x))
        line_error(fmt::format(
            "{} Accel-Sim layout expected 'tb_x tb_y tb_z warp' before the PC, found '{}'{}",
            accelsim_layout_name(layout_), shown_token(prefix.substr(0, 32)),
            tracer_version_ == 0 ? " (no '-accelsim tracer version' header: pre-3 assumed)" : ""));
    }
    // Tracer 6's raw lines go on with the cluster id, the cluster CTA and the rank (11
    // integers), and TOOL_TRACE_CORE adds the SM and the warp on it (6 or 13): read as numbers,
    // not kept (the post-processed .traceg carries the cluster lines).
    for (unsigned i = 4; i < raw_prefix_ints_; ++i) {
      std::uint32_t x = 0;
      tok = t.next();
      if (!parse_dec_token(tok, x))
        line_error(fmt::format(
            "raw Accel-Sim trace: expected {} integers before the PC (as on its first line), "
            "found '{}' as integer {}",
            raw_prefix_ints_, shown_token(tok), i + 1));
    }
    if (raw_) {
      const Dim3& g = kernel_.grid;
      if (v[0] >= g.x || v[1] >= g.y || v[2] >= g.z)
        line_error(fmt::format("thread block {},{},{} is outside the grid ({},{},{})", v[0], v[1],
                               v[2], g.x, g.y, g.z));
      if (v[3] >= warps_per_block_)
        line_error(fmt::format("warp {} is out of range: a block of {} threads has {} warp{}", v[3],
                               kernel_.block.count(), warps_per_block_,
                               warps_per_block_ == 1 ? "" : "s"));
      std::copy(std::begin(v), std::begin(v) + 3, cta_xyz_);
      cur_warp_ = v[3];
      cta_ = static_cast<std::uint32_t>(v[0] + std::uint64_t{v[1]} * g.x +
                                        std::uint64_t{v[2]} * g.x * g.y);
    } else if (v[0] != cta_xyz_[0] || v[1] != cta_xyz_[1] || v[2] != cta_xyz_[2] ||
               v[3] != cur_warp_)
      line_error(fmt::format(
          "{} Accel-Sim layout expected 'tb_x tb_y tb_z warp' = '{} {} {} {}' (this block and "
          "warp), found '{} {} {} {}'",
          accelsim_layout_name(layout_), cta_xyz_[0], cta_xyz_[1], cta_xyz_[2], cur_warp_, v[0],
          v[1], v[2], v[3]));
  }
  std::uint32_t line_num = 0;
  if (lineinfo_) {
    tok = t.next();
    if (!parse_dec_token(tok, line_num))
      field_error("the source line (decimal; the header says enable lineinfo = 1)", tok);
  }
  // The PC and the mask: hex, at most 32 bits. The one-pass parse first; anything it does not
  // take is read again as a token and parsed or reported as the token.
  auto hex32 = [&](std::uint64_t& v, std::string_view what) {
    const std::string_view at = t.rest;
    if (t.next_hex(v, false) && v <= 0xffffffffu) return;
    t.rest = at;
    tok = t.next();
    if (!parse_hex_token(tok, v) || v > 0xffffffffu) field_error(what, tok);
  };
  std::uint64_t pc = 0, mask = 0;
  hex32(pc, "the PC (hex, at most 32 bits)");
  hex32(mask, "the active mask (8 hex digits)");
  // The register operands, kept for the first block's scoreboard (load_concurrency.h).
  std::string_view dest_regs[kMaxRegOperands], src_regs[kMaxRegOperands];
  std::uint32_t dests = 0, srcs = 0;
  tok = t.next();
  if (!parse_dec_token(tok, dests) || dests > kMaxRegOperands)
    field_error("the destination count dest_num", tok);
  for (std::uint32_t i = 0; i < dests; ++i)
    if ((dest_regs[i] = t.next()).empty())
      field_error(fmt::format("{} destination register{}", dests, dests == 1 ? "" : "s"), "");
  const std::string_view opcode = t.next();
  if (opcode.empty()) field_error("the opcode", "");
  if (opcode == "REPLAY_START" || opcode == "REPLAY_END") {
    // Tracer 6's pseudo-instructions around a spin loop's region (Accel-Sim may replay the
    // region instead of simulating every recorded turn): not instructions, so neither replayed
    // nor counted as one; the recorded turns between them are replayed as recorded.
    if (counting_) ++counts_.replay_markers;
    return;
  }
  tok = t.next();
  if (!parse_dec_token(tok, srcs) || srcs > kMaxRegOperands)
    field_error("the source count src_num", tok);
  for (std::uint32_t i = 0; i < srcs; ++i)
    if ((src_regs[i] = t.next()).empty())
      field_error(fmt::format("{} source register{}", srcs, srcs == 1 ? "" : "s"), "");
  // An instruction of the kernel's first block that executes (an active lane) goes through the
  // scoreboard; `load_bytes` > 0 for a global or local load or atomic.
  const bool scored = scoring_ && mask != 0 && (scored_cta_ == kNoCta || scored_cta_ == cta_);
  auto score = [&](std::uint32_t load_bytes) {
    if (!scored) return;
    scored_cta_ = cta_;
    load_concurrency_.instruction(cur_warp_, {dest_regs, dests}, {src_regs, srcs}, load_bytes);
  };
  if (layout_ == AccelSimLayout::V6 && opcode.find("GMMA") != std::string_view::npos) {
    // Tracer 6 prints a GMMA's commit-group flag between its sources and mem_width.
    std::uint32_t commit_group = 0;
    tok = t.next();
    if (!parse_dec_token(tok, commit_group))
      field_error("the GMMA commit-group column (decimal) before mem_width", tok);
  }
  std::uint32_t width = 0;
  tok = t.next();
  if (!parse_dec_token(tok, width)) field_error("mem_width (a decimal byte count)", tok);
  // An executed line's registers go through its warp's scoreboard (register_dependencies.h).
  WarpProgress& warp = progress();
  const bool depends = options_.load_dependencies && mask != 0;
  auto depend = [&] {
    if (depends) warp.dependencies.instruction({dest_regs, dests}, {src_regs, srcs});
  };
  if (width == 0) {
    if (counting_) ++counts_.non_memory;
    score(0);
    depend();
    ++warp.instrs_since_record;
    return;
  }
  const detail::SassAccess acc = detail::classify_sass(opcode);
  if (acc.kind == detail::SassKind::BulkCopy) {
    // Tracer 6 writes a TMA line's operands (tma_operands.h): read, checked and counted as the
    // bulk traffic they name; a line in an older layout is counted by opcode only, as before.
    const detail::BulkDirection dir = detail::bulk_direction(opcode);
    detail::TmaOperands tma;
    const std::size_t records_before = arena_.size();
    if (layout_ == AccelSimLayout::V6 && dir != detail::BulkDirection::Unknown) {
      const detail::TmaOperandReader::Result got = tma_.read(t, width, tma);
      if (got == detail::TmaOperandReader::Result::Error) line_error(tma_.error());
      if (got == detail::TmaOperandReader::Result::Read) {
        trailing_fields(t, 3, 0);
        if (counting_ && mask != 0) detail::count_bulk_traffic(counts_, dir, tma);
        if (mask != 0) push_bulk_records(pc, dir, tma, warp);
      }
    }
    if (counting_) detail::count_skipped(counts_, opcode, acc.kind);
    score(0);
    if (arena_.size() == records_before) {  // no bulk record
      depend();
      ++warp.instrs_since_record;
    } else if (depends) {  // the first bulk record carries the line's dependency
      const std::uint32_t k =
          warp.dependencies.record({dest_regs, dests}, {src_regs, srcs}, false, 0);
      arena_[records_before + 1] |= std::uint64_t{std::min(k, kMaxWaitsForLoad)}
                                    << kWaitsForLoadShift;
    }
    return;
  }
  if (acc.kind == detail::SassKind::Unsupported) {
    if (counting_) detail::count_skipped(counts_, opcode, acc.kind);
    score(0);
    depend();
    ++warp.instrs_since_record;
    return;
  }
  if (mask == 0) {  // predicated off in every lane: issued, but no access
    if (counting_) ++counts_.inactive;
    ++warp.instrs_since_record;
    return;
  }
  const LaneMask lanes = static_cast<LaneMask>(mask);
  const int n = std::popcount(lanes);
  std::uint64_t addr[kWarpSize];
  tok = t.next();
  unsigned mode = 0;
  if (!parse_dec_token(tok, mode) || mode > 2)
    line_error(fmt::format(
        "{} Accel-Sim layout: unknown address mode '{}' (0 list, 1 base+stride, 2 base+deltas)",
        accelsim_layout_name(layout_), shown_token(tok)));
  auto short_list = [&](int got, const char* what) {
    line_error(fmt::format("{} has {} value{} but mask {:08x} has {} active lane{}", what, got,
                           got == 1 ? "" : "s", lanes, n, n == 1 ? "" : "s"));
  };
  auto address = [&](std::string_view a, int index, const char* what) {
    std::uint64_t v = 0;
    if (a.empty() || !a.starts_with("0x")) short_list(index, what);
    if (!parse_hex_token(a, v, true))
      line_error(
          fmt::format("bad address '{}' (expected 0x and at most 16 hex digits)", shown_token(a)));
    return v;
  };
  std::int64_t stride = 0;
  if (mode == 0) {
    for (int k = 0; k < n; ++k)
      if (!t.next_hex(addr[k], true)) addr[k] = address(t.next(), k, "address list");
  } else {
    std::uint64_t base = 0;
    if (!t.next_hex(base, true))
      base = address(t.next(), 0, mode == 1 ? "base+stride" : "base+delta list");
    __int128 a = base;
    if (mode == 1) {
      tok = t.next();
      if (!parse_dec_token(tok, stride))
        line_error(fmt::format("bad stride '{}' (expected a signed decimal)", shown_token(tok)));
    }
    for (int k = 0; k < n; ++k) {
      if (k > 0) {
        std::int64_t d = stride;
        if (mode == 2) {
          tok = t.next();
          if (tok.empty()) short_list(k, "base+delta list (base and deltas)");
          if (!parse_dec_token(tok, d))
            line_error(fmt::format("bad delta '{}' (expected a signed decimal)", shown_token(tok)));
        }
        a += d;
      }
      if (a < 0 || a > static_cast<__int128>(~std::uint64_t{0}))
        line_error(fmt::format("address of active lane {} overflows 64 bits", k));
      addr[k] = static_cast<std::uint64_t>(a);
    }
  }
  trailing_fields(t, mode, n);

  Op op = acc.op;
  if (acc.kind != detail::SassKind::Memory) {
    const bool store = acc.kind == detail::SassKind::GenericStore;
    op = detail::resolve_generic(store, addr[0], shmem_base_, local_base_);
    if (shmem_base_ == 0 || local_base_ == 0) {
      if (counting_) ++counts_.generic_unresolved;
      if (!warned_generic_ && counting_) {
        warned_generic_ = true;  // a BlockParser's reader: once per block, then once per file
        std::string message = fmt::format(
            "{}:{}: generic {} without shmem/local base addresses in the header: "
            "taken as shared, as Accel-Sim does",
            name_, lines_->line_no(), store ? "ST" : "LD");
        if (deferred_) {
          deferred_->push_back(
              BlockEvent{BlockEvent::Kind::Generic, {}, std::move(message), 0, {}});
        } else {
          warn(std::move(message));
        }
      }
    } else if (is_shared(op)) {
      for (int k = 0; k < n; ++k) addr[k] -= shmem_base_;  // offset in the shared window
    }
  }
  if (acc.async_copy && counting_) ++counts_.ldgsts;
  score(!is_store(op) && !is_shared(op) ? width : 0);
  const std::uint32_t waits_for_load =
      options_.load_dependencies ? warp.dependencies.record({dest_regs, dests}, {src_regs, srcs},
                                                            waits_for_data(op), width)
                                 : 0;
  // Stored compactly; emitted as WarpInstr once the block is complete.
  std::uint64_t lane0 = 0;
  const bool strided = mode == 1 && detail::strided_compact(addr, lanes, stride, lane0);
  arena_.push_back(pc | (mask << 32));
  arena_.push_back(
      static_cast<std::uint64_t>(op) | (std::uint64_t{acc.size} << 8) |
      (std::uint64_t{strided} << 16) |
      (std::uint64_t{std::min(waits_for_load, kMaxWaitsForLoad)} << kWaitsForLoadShift) |
      (std::uint64_t{warp.take_instrs_before()} << kInstrsBeforeShift));
  arena_.push_back(static_cast<std::uint64_t>(strided ? stride : 0));
  if (strided) {
    arena_.push_back(lane0);  // one word instead of one per active lane
  } else {
    arena_.insert(arena_.end(), addr, addr + n);
  }
  ++slots_.back().left;
}

AccelSimReader::WarpProgress& AccelSimReader::progress() {
  if (!raw_) return progress_;
  return raw_progress_[std::uint64_t{cta_} << 32 | cur_warp_];
}

void AccelSimReader::push_bulk_records(std::uint64_t pc, detail::BulkDirection dir,
                                       const detail::TmaOperands& tma, WarpProgress& warp) {
  Op op = Op::TMALD;
  switch (dir) {
    case detail::BulkDirection::Load:
      break;
    case detail::BulkDirection::Store:
      op = Op::TMAST;
      break;
    case detail::BulkDirection::Prefetch:
      op = Op::TMAPF;
      break;
    case detail::BulkDirection::Reduction:
      op = Op::TMARED;
      break;
    case detail::BulkDirection::SharedCopy:  // between shared windows: no global traffic, and
    case detail::BulkDirection::Unknown:     // shared memory's own copies are not modelled
      return;
  }
  // A multicast load reads its bytes once (the TMALD records) and writes them into the shared
  // memory of every CTA of its mask: one TMAMC run per receiver past the first (WarpInstr has no
  // spare field for a receiver count; a run of its own also keeps the L2 traffic in one place).
  const std::uint64_t receivers = op == Op::TMALD && tma.multicast
                                      ? static_cast<std::uint64_t>(std::popcount(tma.cta_mask))
                                      : 1;
  const std::vector<std::uint64_t>& units = tma_.units();
  for (std::uint64_t copy = 0; copy < std::max<std::uint64_t>(receivers, 1); ++copy) {
    const Op record_op = copy == 0 ? op : Op::TMAMC;
    for (std::size_t first = 0; first < units.size(); first += kWarpSize) {
      const std::size_t n = std::min<std::size_t>(kWarpSize, units.size() - first);
      const std::uint64_t lanes = n == kWarpSize ? 0xffffffffu : (std::uint64_t{1} << n) - 1;
      arena_.push_back(pc | (lanes << 32));
      arena_.push_back(static_cast<std::uint64_t>(record_op) |
                       (std::uint64_t{kBulkLaneBytes} << 8) |
                       (std::uint64_t{warp.take_instrs_before()} << kInstrsBeforeShift));
      arena_.push_back(0);
      for (std::size_t k = first; k < first + n; ++k) arena_.push_back(units[k] << 4);
      ++slots_.back().left;
    }
  }
}

void AccelSimReader::trailing_fields(detail::Tokens& t, std::uint32_t mode, int lanes) {
  // The immediate(s), then what the format line names (tracer 6's Val|NoVal and values):
  // skipped. Anything else after a complete address list is a fork's field: read past,
  // counted, warned about once per file (finish_file), or refused with --strict.
  // A list address in the immediate's place with more tokens after it: the list is longer than
  // the mask says (an immediate alone there is what tracers before 6 accepted).
  std::string_view addr_like;
  for (unsigned i = 0; i < after_fixed_; ++i) {
    const std::string_view imm = t.next();
    std::uint64_t v = 0;
    if (mode == 0 && addr_like.empty() && parse_hex_token(imm, v, true)) addr_like = imm;
  }
  if (after_variable_ || t.done()) return;
  const std::string_view tok = t.next();
  std::uint64_t v = 0;
  if (mode == 0 && (!addr_like.empty() || parse_hex_token(tok, v, true)))
    line_error(fmt::format(
        "{} Accel-Sim layout: address list has more addresses than the {} active lane{} of the "
        "mask (found '{}')",
        accelsim_layout_name(layout_), lanes, lanes == 1 ? "" : "s",
        shown_token(addr_like.empty() ? tok : addr_like)));
  if (options_.strict)
    line_error(fmt::format("{} Accel-Sim layout: unexpected text '{}' after the addresses{}",
                           accelsim_layout_name(layout_), shown_token(tok),
                           layout_ == AccelSimLayout::V3 || layout_ == AccelSimLayout::Legacy
                               ? ""
                               : " and the immediate"));
  if (!counting_) return;
  const bool word = std::isalpha(static_cast<unsigned char>(tok[0])) || tok[0] == '_';
  const std::string_view field = word ? shown_token(tok) : std::string_view("<number>");
  for (auto* m : {&trailing_file_, &counts_.trailing_by_field}) {
    auto it = m->find(field);
    if (it == m->end()) it = m->emplace(std::string(field), 0).first;
    ++it->second;
  }
}

void AccelSimReader::emit(WarpInstr& out) {
  WarpSlot& s = slots_[active_[rr_]];
  const std::uint64_t* p = arena_.data() + s.pos;
  out.inst = static_cast<std::uint32_t>(p[0]);
  out.mask = static_cast<LaneMask>(p[0] >> 32);
  out.op = static_cast<Op>(p[1] & 0xff);
  out.size = static_cast<std::uint8_t>(p[1] >> 8);
  out.strided = (p[1] >> 16) & 1;
  out.instrs_before = static_cast<std::uint32_t>(p[1] >> kInstrsBeforeShift);
  out.waits_for_load = static_cast<std::uint32_t>(p[1] >> kWaitsForLoadShift) & kMaxWaitsForLoad;
  out.stride = static_cast<std::int64_t>(p[2]);
  out.sm = kUnknownSm;
  out.cta = cta_;
  out.warp = s.warp;
  const std::uint64_t* a = p + kRecordHeaderWords;
  const LaneMask inactive = static_cast<LaneMask>(~out.mask);
  if (out.strided) {
    // Exact: parse_instruction checked that every active lane's address is this, in range.
    // Every lane is written (one vector loop), then the inactive ones cleared.
    const std::uint64_t base = *a++;
    const auto step = static_cast<std::uint64_t>(out.stride);
    for (std::uint64_t lane = 0; lane < kWarpSize; ++lane) out.addr[lane] = base + lane * step;
    for (LaneMask m = inactive; m != 0; m &= m - 1) out.addr[std::countr_zero(m)] = 0;
  } else {
    if (inactive != 0) out.addr.fill(0);
    for (LaneMask m = out.mask; m != 0; m &= m - 1) out.addr[std::countr_zero(m)] = *a++;
  }
  s.pos = static_cast<std::size_t>(a - arena_.data());
  ++counts_.records;
  if (--s.left == 0) {
    active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(rr_));
  } else {
    ++rr_;
  }
  if (rr_ >= active_.size()) rr_ = 0;
}

std::size_t AccelSimReader::read(std::span<WarpInstr> out) {
  std::size_t n = 0;
  while (n < out.size()) {
    if (!active_.empty()) {
      emit(out[n++]);
      continue;
    }
    if (!in_kernel_ || !load_block()) {
      in_kernel_ = false;
      break;
    }
  }
  return n;
}

}  // namespace gms::trace
