#include "trace/import/nvbit_reader.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>

#include "sim/core/error.h"
#include "trace/import/import_parse.h"
#include "trace/import/sass_opcode.h"

namespace gms::trace {

namespace {

using detail::parse_dec_token;
using detail::parse_hex_token;
using detail::shown_token;
using detail::trim;

constexpr std::string_view kPrefix = "MEMTRACE: ";
constexpr std::string_view kSep = " - ";
constexpr std::uint32_t kMaxWarpSlots = 64;    // %warpid is below the SM's warp slots
constexpr std::size_t kMaxOpcodes = 1u << 12;  // distinct opcode spellings per kernel
constexpr std::uint64_t kMaxSmId = 1u << 16;

constexpr const char* kLoneThreadLine =
    "per-thread 'ThreadN,data,address' line without a record line before it: it carries no "
    "CTA, warp or opcode, so it cannot be replayed";

/// True for "ThreadN,..." (a per-thread line of a modified mem_trace).
bool is_thread_line(std::string_view body) {
  return body.starts_with("Thread") && body.size() > 6 && body[6] >= '0' && body[6] <= '9';
}

/// Removes `word` from the front of `s`; false when `s` does not start with it.
bool eat(std::string_view& s, std::string_view word) {
  if (!s.starts_with(word)) return false;
  s.remove_prefix(word.size());
  return true;
}

/// The next " - "-separated field of `s` (the rest when there is no separator).
std::string_view next_field(std::string_view& s) {
  const std::size_t at = s.find(kSep);
  const std::string_view f = s.substr(0, at);
  s = at == std::string_view::npos ? std::string_view{} : s.substr(at + kSep.size());
  return f;
}

/// The text after `key` inside `s` up to the next " - " (or the end); nullopt when absent.
std::optional<std::string_view> keyed(std::string_view s, std::string_view key) {
  std::size_t at = s.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = s.substr(at + key.size());
  return trim(next_field(rest));
}

/// Strips "MEMTRACE: " and "CTX 0x... - " from the front.
std::string_view strip_prefixes(std::string_view line, bool& prefixed, bool& has_ctx) {
  prefixed = eat(line, kPrefix);
  has_ctx = false;
  if (line.starts_with("CTX ")) {
    std::string_view rest = line;
    next_field(rest);
    line = rest;
    has_ctx = true;
  }
  return line;
}

}  // namespace

NvbitReader::NvbitReader(std::unique_ptr<InputStream> in, bool quiet)
    : in_(std::move(in)), lines_(*in_), quiet_(quiet) {
  in_->decode_ahead();  // parsing overlaps the xz or zstd decoding (nothing is read yet)
}

NvbitReader::~NvbitReader() = default;

bool NvbitReader::looks_like_nvbit(std::string_view head) {
  while (!head.empty()) {
    const std::size_t nl = head.find('\n');
    std::string_view line = head.substr(0, nl);
    head = nl == std::string_view::npos ? std::string_view{} : head.substr(nl + 1);
    if (line.starts_with(kPrefix) || line.starts_with("------------- NVBit")) return true;
    if (line.starts_with("CTA ") && line.find(" - warp ") != std::string_view::npos) return true;
    if (line.starts_with("Kernel ") && line.find(" - grid size ") != std::string_view::npos)
      return true;
  }
  return false;
}

void NvbitReader::line_error(std::string_view what) const {
  fail("{}:{}: {}", in_->name(), lines_.line_no(), what);
}

NvbitReader::LineKind NvbitReader::classify(std::string_view line, std::string_view& body) const {
  bool prefixed = false, has_ctx = false;
  body = strip_prefixes(line, prefixed, has_ctx);
  if (body.starts_with("LAUNCH") ||
      (body.starts_with("Kernel ") && body.find(" - grid size ") != std::string_view::npos))
    return LineKind::Launch;
  if (body.starts_with("grid_launch_id ") || body.starts_with("CTA ")) return LineKind::Record;
  // A modified tool's record with its fields in another order ("SM_id 3 - CTA 0,0,0 - warp 1").
  if (body.find(" - CTA ") != std::string_view::npos &&
      body.find(" - warp ") != std::string_view::npos)
    return LineKind::Record;
  if (is_thread_line(body)) return LineKind::Thread;
  if (body.starts_with("alloc address ")) return LineKind::Alloc;
  // Anything else (the NVBit banner, the program's output, other CTX lines) is skipped and
  // counted.
  return LineKind::Other;
}

void NvbitReader::parse_alloc(std::string_view body) {
  eat(body, "alloc address ");
  Allocation a;
  const std::string_view base = trim(next_field(body));
  if (!parse_hex_token(base, a.base, true))
    line_error(fmt::format("bad alloc address '{}' (expected 0x followed by hex digits)",
                           shown_token(base)));
  bool has_size = false;
  while (!body.empty()) {
    std::string_view field = trim(next_field(body));
    if (eat(field, "size ")) {
      if (!parse_dec_token(trim(field), a.bytes) || a.bytes == 0)
        line_error(fmt::format("bad alloc size '{}' (expected a decimal byte count of at least 1)",
                               shown_token(field)));
      has_size = true;
    } else if (eat(field, "name ")) {
      a.name = trim(field);
    } else {
      line_error(fmt::format("unknown alloc field '{}' (size, name)", shown_token(field)));
    }
  }
  if (!has_size) line_error("alloc line without '- size <bytes>'");
  if (a.bytes - 1 > ~a.base)
    line_error(
        fmt::format("alloc block 0x{:x} + {} bytes does not fit in 64 bits", a.base, a.bytes));
  allocations_.push_back(std::move(a));
}

void NvbitReader::parse_launch(std::string_view body, KernelInfo& out) {
  out = KernelInfo{};
  std::string_view name;
  bool has_id = false;
  std::uint64_t id = 0;
  if (body.starts_with("LAUNCH - ")) {
    seen_prefixed_ = true;
  } else {
    seen_old_ = true;
  }
  if (eat(body, "LAUNCH - ")) {
    // Kernel pc 0x... - Kernel name NAME - grid launch id N - grid size ... (current mem_trace)
    const std::size_t n0 = body.find("Kernel name ");
    const std::size_t n1 = body.rfind(" - grid launch id ");
    if (n0 == std::string_view::npos || n1 == std::string_view::npos || n1 < n0 + 12)
      line_error("launch line lacks 'Kernel name ... - grid launch id N'");
    name = body.substr(n0 + 12, n1 - n0 - 12);
    const auto v = keyed(body.substr(n1), " - grid launch id ");
    if (!v || !parse_dec_token(*v, id) || id > 0xffffffffu)
      line_error("bad grid launch id (expected a decimal u32)");
    has_id = true;
    body = body.substr(n1);
  } else {
    // Kernel NAME - grid size ... (older mem_trace)
    const std::size_t n1 = body.rfind(" - grid size ");
    if (!eat(body, "Kernel ") || n1 == std::string_view::npos || n1 < 7)
      line_error("launch line lacks 'Kernel NAME - grid size X,Y,Z'");
    name = body.substr(0, n1 - 7);
    body = body.substr(n1 - 7);
  }
  auto dims = [&](std::string_view key, Dim3& d) {
    const auto v = keyed(body, key);
    std::uint32_t xyz[3];
    if (!v || !detail::parse_xyz(*v, xyz) || xyz[0] == 0 || xyz[1] == 0 || xyz[2] == 0)
      line_error(fmt::format("launch line lacks a valid '{}X,Y,Z'", trim(key.substr(3))));
    d = Dim3{xyz[0], xyz[1], xyz[2]};
  };
  dims(" - grid size ", out.grid);
  dims(" - block size ", out.block);
  if (out.grid.count() > 0xffffffffull) line_error("grid of more than 2^32 thread blocks");
  if (const auto v = keyed(body, " - nregs "); v && !parse_dec_token(*v, out.regs))
    line_error("bad nregs");
  if (const auto v = keyed(body, " - shmem "); v && !parse_dec_token(*v, out.shmem_bytes))
    line_error("bad shmem");
  launch_id_ = has_id ? id : old_launches_++;
  out.id = static_cast<std::uint32_t>(launch_id_);
  if (!kernel_ids_.insert(out.id).second)
    line_error(fmt::format("duplicate kernel launch id {}", out.id));
  out.name = detail::without_spaces(trim(name));
  auto& p = out.params;
  p.emplace_back("id", std::to_string(out.id));
  if (!out.name.empty()) p.emplace_back("name", out.name);
  p.emplace_back("grid", fmt::format("{},{},{}", out.grid.x, out.grid.y, out.grid.z));
  p.emplace_back("block", fmt::format("{},{},{}", out.block.x, out.block.y, out.block.z));
  p.emplace_back("shmem", std::to_string(out.shmem_bytes));
  if (out.regs != 0) p.emplace_back("regs", std::to_string(out.regs));
  p.emplace_back("source", "nvbit");
}

bool NvbitReader::parse_record(std::string_view body, WarpInstr& out) {
  // Fields by name, in any order: the stock "grid_launch_id N - CTA x,y,z - warp N - OPCODE -
  // 0x... (32 addresses)"; modified tools add "KEY VALUE" fields (SM_id, pc, Size, mask), move
  // them around, or print ThreadN,data,address triples instead of the addresses, on the line
  // or on the following lines.
  std::string_view s = trim(body);
  if (s == "-" || s.ends_with(" -")) s = trim(s.substr(0, s.size() - 1));  // "OPCODE -" alone
  std::uint32_t xyz[3] = {0, 0, 0};
  std::uint32_t warp = 0;
  bool has_cta = false, has_warp = false;
  std::string_view triples;
  std::string_view opcode, addrs;
  bool has_sm = false, has_pc = false, has_size = false, has_mask = false;
  std::uint64_t sm = 0, pc = 0, size = 0, given_mask = 0;
  while (!s.empty()) {
    const std::string_view field = trim(next_field(s));
    if (field.empty()) continue;
    std::size_t cut = 0;
    while (cut < field.size() && !detail::is_space(field[cut]) && field[cut] != '=' &&
           field[cut] != ':')
      ++cut;
    const std::string_view key = field.substr(0, cut);
    std::string_view value = field.substr(cut);
    while (!value.empty() &&
           (detail::is_space(value.front()) || value.front() == '=' || value.front() == ':'))
      value.remove_prefix(1);
    if (is_thread_line(field)) {  // per-lane triples on the line: the last field
      triples = field;
      if (!trim(s).empty())
        line_error(
            fmt::format("unexpected field '{}' after the per-thread triples", shown_token(s)));
      break;
    }
    if (key.starts_with("0x")) {  // the addresses: the last field
      addrs = field;
      if (!trim(s).empty())
        line_error(fmt::format("unexpected field '{}' after the addresses", shown_token(s)));
      break;
    }
    std::string lower(key);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // A known key without its value is that key's error, not an opcode.
    static constexpr std::string_view kKeys[] = {
        "grid_launch_id", "cta",    "warp", "sm_id", "sm",    "smid", "sm_id_",      "pc",
        "pc_offset",      "offset", "size", "bytes", "width", "mask", "active_mask", "activemask"};
    const bool known = std::find(std::begin(kKeys), std::end(kKeys), lower) != std::end(kKeys);
    if (value.empty() && !known) {
      if (!opcode.empty())
        line_error(
            fmt::format("unknown field '{}' after the opcode '{}' (known: SM_id, pc, "
                        "Size, mask, then the addresses)",
                        shown_token(field), opcode));
      opcode = field;
      continue;
    }
    auto number = [&](std::uint64_t& v, bool hex) {
      const bool ok =
          hex || value.starts_with("0x") ? parse_hex_token(value, v) : parse_dec_token(value, v);
      if (!ok)
        line_error(fmt::format("bad {} '{}' (expected {})", key, shown_token(value),
                               hex ? "hex" : "a decimal or 0x hex number"));
    };
    if (lower == "grid_launch_id") {
      std::uint64_t id = 0;
      if (!parse_dec_token(value, id))
        line_error(fmt::format("bad '{}' (expected grid_launch_id N)", shown_token(field)));
      check_launch_id(id);
    } else if (lower == "cta") {
      if (!detail::parse_xyz(value, xyz))
        line_error(fmt::format("bad CTA field '{}' (expected CTA x,y,z)", shown_token(field)));
      has_cta = true;
    } else if (lower == "warp") {
      if (!parse_dec_token(value, warp))
        line_error(fmt::format("bad warp field '{}' (expected warp N)", shown_token(field)));
      has_warp = true;
    } else if (lower == "sm_id" || lower == "sm" || lower == "smid" || lower == "sm_id_") {
      number(sm, false);
      if (sm >= kMaxSmId) line_error(fmt::format("{} {} is out of range", key, sm));
      has_sm = seen_sm_ = true;
    } else if (lower == "pc" || lower == "pc_offset" || lower == "offset") {
      number(pc, true);
      if (pc > 0xffffffffu) line_error(fmt::format("{} {:#x} does not fit 32 bits", key, pc));
      has_pc = seen_pc_ = true;
    } else if (lower == "size" || lower == "bytes" || lower == "width") {
      number(size, false);
      if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
        line_error(fmt::format("{} {} is not an access size (1, 2, 4, 8 or 16 bytes)", key, size));
      has_size = seen_size_ = true;
    } else if (lower == "mask" || lower == "active_mask" || lower == "activemask") {
      number(given_mask, true);
      if (given_mask > 0xffffffffu)
        line_error(fmt::format("{} {:#x} exceeds 32 lanes", key, given_mask));
      has_mask = seen_mask_ = true;
    } else {
      line_error(fmt::format(
          "unknown field '{}' in a mem_trace record (known: SM_id, pc, Size, mask besides the "
          "stock CTA, warp, opcode and addresses)",
          shown_token(field)));
    }
  }
  if (!has_cta) line_error("record lacks the CTA field (expected CTA x,y,z)");
  const Dim3& g = kernel_.grid;
  if (xyz[0] >= g.x || xyz[1] >= g.y || xyz[2] >= g.z)
    line_error(fmt::format("CTA {},{},{} is outside the grid ({},{},{})", xyz[0], xyz[1], xyz[2],
                           g.x, g.y, g.z));
  if (!has_warp) line_error("record lacks the warp field (expected warp N)");
  if (warp >= kMaxWarpSlots)
    line_error(
        fmt::format("warp {} is out of range (NVBit's %warpid is below {})", warp, kMaxWarpSlots));
  if (opcode.empty()) line_error("record lacks the opcode");
  int count = 0;
  LaneMask mask = 0;
  if (!triples.empty()) {
    out.addr.fill(0);
    detail::Tokens t{triples};
    for (std::string_view tok = t.next(); !tok.empty(); tok = t.next()) thread_triple(tok, out);
    for (int i = 0; i < kWarpSize; ++i)
      if (out.addr[i] != 0) mask |= LaneMask{1} << i;
    count = kWarpSize;
    seen_thread_lists_ = true;
  } else if (addrs.empty()) {
    // No addresses on the line: a per-thread list follows (ThreadN,data,address).
    out.addr.fill(0);
    thread_opcode_.assign(opcode);  // the line's buffer is reused by the next lines
    opcode = thread_opcode_;
    read_thread_lines(out);
    for (int i = 0; i < kWarpSize; ++i)
      if (out.addr[i] != 0) mask |= LaneMask{1} << i;
    count = kWarpSize;
  } else {
    // 32 addresses, one per lane, "0x%016lx ".
    detail::Tokens t{addrs};
    for (std::string_view a = t.next(); !a.empty(); a = t.next()) {
      std::uint64_t v = 0;
      if (!parse_hex_token(a, v, true))
        line_error(fmt::format("bad address '{}' (expected 0x and hex digits)", shown_token(a)));
      if (count < kWarpSize) {
        out.addr[count] = v;
        if (v != 0) mask |= LaneMask{1} << count;
      }
      ++count;
    }
  }
  if (has_mask) {
    mask = static_cast<LaneMask>(given_mask);
    for (int i = 0; i < kWarpSize; ++i)
      if (!((mask >> i) & 1)) out.addr[i] = 0;
  }
  if (count != kWarpSize && !(has_mask && count == std::popcount(mask)))
    line_error(fmt::format("record has {} address{}; mem_trace prints 32 (one per lane)", count,
                           count == 1 ? "" : "es"));
  if (has_mask && count != kWarpSize) {
    // Only the active lanes' addresses, in lane order.
    std::array<Addr, kWarpSize> packed{};
    int k = 0;
    for (LaneMask m = mask; m != 0; m &= m - 1) packed[std::countr_zero(m)] = out.addr[k++];
    out.addr = packed;
  }
  const detail::SassAccess acc = detail::classify_sass(opcode);
  if (acc.kind == detail::SassKind::Unsupported || acc.kind == detail::SassKind::BulkCopy) {
    detail::count_skipped(counts_, opcode, acc.kind);
    return false;
  }
  if (mask == 0) {
    ++counts_.inactive;
    return false;
  }
  if (acc.async_copy) ++counts_.ldgsts;
  out.op = acc.kind == detail::SassKind::GenericLoad    ? Op::LDG
           : acc.kind == detail::SassKind::GenericStore ? Op::STG
                                                        : acc.op;
  out.size = has_size ? static_cast<std::uint8_t>(size) : acc.size;
  out.strided = false;
  out.instrs_before = 0;  // an NVBit trace lists memory instructions only
  out.stride = 0;
  out.sm = has_sm ? static_cast<std::uint32_t>(sm) : kUnknownSm;
  out.cta = static_cast<std::uint32_t>(xyz[0] + std::uint64_t{xyz[1]} * g.x +
                                       std::uint64_t{xyz[2]} * g.x * g.y);
  out.warp = warp;
  out.mask = mask;
  if (has_pc) {  // the PC beats inference
    out.inst = static_cast<std::uint32_t>(pc);
    ++counts_.records;
    return true;
  }
  // Instruction id: the n-th record of this opcode in this warp (see the class comment).
  auto op_it = opcode_index_.find(opcode);
  if (op_it == opcode_index_.end()) {
    if (opcode_index_.size() >= kMaxOpcodes)
      line_error(fmt::format("more than {} distinct opcodes in one kernel", kMaxOpcodes));
    op_it = opcode_index_.emplace(std::string(opcode), opcode_index_.size()).first;
  }
  const std::uint64_t opc = op_it->second;
  const std::uint32_t nth =
      warp_opcode_count_[(std::uint64_t{out.cta} << 32) | (std::uint64_t{warp} << 16) | opc]++;
  const auto [id_it, added] =
      inst_ids_.try_emplace((opc << 32) | nth, static_cast<std::uint32_t>(inst_ids_.size()));
  out.inst = id_it->second;
  ++counts_.records;
  return true;
}

void NvbitReader::check_launch_id(std::uint64_t id) {
  // NVBit 1.5.x's mem_trace prints the LAUNCH line after incrementing its launch counter, so
  // each record carries its launch's id minus one (a v1.5.5 log: "grid launch id 1", then
  // records of grid_launch_id 0); 1.7 prints the two equal. Launches never interleave, so a
  // record one below is that launch's record when the banner says 1.5, or when every record
  // of the log is one below (the first record decides; a later one that differs is an error).
  const bool equal = id == launch_id_;
  const bool one_below = launch_id_ >= 1 && id == launch_id_ - 1;
  if (equal && (banner_v15_ || id_offset_ != IdOffset::OneBelow)) {
    if (!banner_v15_) id_offset_ = IdOffset::Equal;
    return;
  }
  if (one_below && (banner_v15_ || id_offset_ != IdOffset::Equal)) {
    if (!banner_v15_) id_offset_ = IdOffset::OneBelow;
    if (!seen_one_below_) {
      seen_one_below_ = true;
      if (!quiet_)
        spdlog::info(
            "{}:{}: records carry grid_launch_id {} inside launch {}: NVBit 1.5 mem_trace "
            "numbers a launch one above its records (read as that launch's records)",
            in_->name(), lines_.line_no(), id, launch_id_);
    }
    return;
  }
  line_error(fmt::format(
      "record of grid_launch_id {} inside launch {} (launches must not interleave{})", id,
      launch_id_,
      id_offset_ == IdOffset::Equal      ? "; earlier records carried their launch's id"
      : id_offset_ == IdOffset::OneBelow ? "; earlier records carried their launch's id minus one"
                                         : ""));
}

void NvbitReader::note_banner(std::string_view line) {
  // "------------- NVBit (NVidia Binary Instrumentation Tool v1.5.5) Loaded --------------"
  constexpr std::string_view kTool = "NVBit (NVidia Binary Instrumentation Tool v";
  const std::size_t at = line.find(kTool);
  if (at == std::string_view::npos) return;
  const std::string_view version = line.substr(at + kTool.size());
  banner_v15_ = version.starts_with("1.5.") || version.starts_with("1.5)");
}

bool NvbitReader::next_line(std::string_view& line) {
  if (have_held_) {
    have_held_ = false;
    line = held_;
    return true;
  }
  return lines_.next(line);
}

void NvbitReader::thread_triple(std::string_view body, WarpInstr& out) {
  // ThreadN,data,address: lane N's address (the data, a value the tool printed, is ignored).
  // A record's inline list is split on spaces, so a token after the first need not be a triple.
  if (!is_thread_line(body))
    line_error(fmt::format("bad per-thread field '{}' (expected ThreadN,data,0xADDRESS)",
                           shown_token(body)));
  std::string_view rest = body.substr(6);
  const std::size_t c1 = rest.find(',');
  const std::size_t c2 = c1 == std::string_view::npos ? c1 : rest.find(',', c1 + 1);
  std::uint32_t lane = 0;
  std::uint64_t addr = 0;
  if (c2 == std::string_view::npos || !parse_dec_token(trim(rest.substr(0, c1)), lane) ||
      !parse_hex_token(trim(rest.substr(c2 + 1)), addr))
    line_error(fmt::format("bad per-thread line '{}' (expected ThreadN,data,0xADDRESS)",
                           shown_token(body)));
  if (lane >= kWarpSize) line_error(fmt::format("Thread{} is not a lane of a warp (0-31)", lane));
  out.addr[lane] = addr;
}

void NvbitReader::read_thread_lines(WarpInstr& out) {
  // ThreadN,data,address: lane N's address (the data, a value the tool printed, is ignored).
  std::string_view line, body;
  int seen = 0;
  while (lines_.next(line)) {
    bool prefixed = false, has_ctx = false;
    body = trim(strip_prefixes(line, prefixed, has_ctx));
    if (!is_thread_line(body)) {
      held_.assign(line);
      have_held_ = true;
      break;
    }
    thread_triple(body, out);
    ++seen;
  }
  if (seen == 0) line_error("record without addresses and no ThreadN,data,address lines after it");
  seen_thread_lists_ = true;
}

std::string NvbitReader::format_description() const {
  std::string d = "NVBit mem_trace (";
  d += seen_prefixed_ && seen_old_ ? "MEMTRACE: CTX and older unprefixed lines"
       : seen_old_                 ? "older unprefixed lines"
                                   : "MEMTRACE: CTX lines";
  std::string extra;
  for (const auto& [seen, name] : {std::pair{seen_sm_, "SM_id"}, std::pair{seen_pc_, "pc"},
                                   std::pair{seen_size_, "Size"}, std::pair{seen_mask_, "mask"}})
    if (seen) extra += fmt::format("{}{}", extra.empty() ? "" : ", ", name);
  if (!extra.empty()) d += "; extra fields " + extra;
  if (seen_thread_lists_) d += "; per-thread ThreadN,data,address lists";
  if (seen_one_below_) d += "; records carry their launch's id minus one (NVBit 1.5)";
  return d + ")";
}

bool NvbitReader::next_kernel(KernelInfo& out) {
  std::string_view line, body;
  while (!have_pending_) {
    if (!next_line(line)) {
      in_kernel_ = false;
      if (!seen_launch_)
        fail(
            "{}:{}: no NVBit mem_trace launch line ('MEMTRACE: CTX ... - LAUNCH' or 'Kernel ... - "
            "grid size') in the file",
            in_->name(), lines_.line_no());
      if (!logged_summary_ && !quiet_) {
        logged_summary_ = true;
        spdlog::info(
            "{}: NVBit import: {} records; skipped {} without an active lane and {} "
            "unsupported memory instructions",
            in_->name(), counts_.records, counts_.inactive, counts_.unsupported);
      }
      return false;
    }
    switch (classify(line, body)) {
      case LineKind::Launch:
        pending_.assign(body);
        have_pending_ = true;
        break;
      case LineKind::Record: {
        if (!seen_launch_) line_error("record before any kernel launch line");
        WarpInstr skipped;
        parse_record(body, skipped);  // a skipped kernel's records are still checked
        break;
      }
      case LineKind::Thread:
        line_error(kLoneThreadLine);
      case LineKind::Alloc:
        parse_alloc(body);
        break;
      case LineKind::Other:
        note_banner(line);
        if (!trim(line).empty()) ++counts_.other_lines;
        break;
    }
  }
  have_pending_ = false;
  parse_launch(pending_, out);
  kernel_ = out;
  opcode_index_.clear();
  warp_opcode_count_.clear();
  inst_ids_.clear();
  in_kernel_ = true;
  seen_launch_ = true;
  if (!warned_) {
    warned_ = true;
    std::string w = fmt::format(
        "{}: NVBit mem_trace logs carry no PC and no active mask: lanes with address 0 "
        "are taken as inactive, and instruction ids are inferred (n-th occurrence of an "
        "opcode in its warp) unless a record has pc and mask fields",
        in_->name());
    if (!quiet_) spdlog::warn("{}", w);
    warnings_.push_back(std::move(w));
  }
  return true;
}

std::size_t NvbitReader::read(std::span<WarpInstr> out) {
  std::size_t n = 0;
  std::string_view line, body;
  while (n < out.size() && in_kernel_) {
    if (!next_line(line)) {
      in_kernel_ = false;
      break;
    }
    switch (classify(line, body)) {
      case LineKind::Launch:
        pending_.assign(body);
        have_pending_ = true;
        in_kernel_ = false;
        break;
      case LineKind::Record:
        if (parse_record(body, out[n])) ++n;
        break;
      case LineKind::Thread:
        line_error(kLoneThreadLine);
      case LineKind::Alloc:
        parse_alloc(body);
        break;
      case LineKind::Other:
        note_banner(line);
        if (!trim(line).empty()) ++counts_.other_lines;
        break;
    }
  }
  return n;
}

}  // namespace gms::trace
