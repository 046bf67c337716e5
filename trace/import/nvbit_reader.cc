#include "trace/import/nvbit_reader.h"

#include <spdlog/spdlog.h>

#include <bit>

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

NvbitReader::NvbitReader(std::unique_ptr<InputStream> in) : in_(std::move(in)), lines_(*in_) {}

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
  if (has_ctx) line_error(fmt::format("unrecognised mem_trace line '{}'", shown_token(line)));
  return LineKind::Other;
}

void NvbitReader::parse_launch(std::string_view body, KernelInfo& out) {
  out = KernelInfo{};
  std::string_view name;
  bool has_id = false;
  std::uint64_t id = 0;
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
  std::string_view s = body;
  if (s.starts_with("grid_launch_id ")) {
    std::uint64_t id = 0;
    const std::string_view f = next_field(s);
    if (f.size() < 15 || !parse_dec_token(trim(f.substr(15)), id))
      line_error(fmt::format("bad '{}' (expected grid_launch_id N)", shown_token(f)));
    if (id != launch_id_)
      line_error(
          fmt::format("record of grid_launch_id {} inside launch {} (launches must not "
                      "interleave)",
                      id, launch_id_));
  }
  std::string_view f = next_field(s);
  std::uint32_t xyz[3];
  if (!eat(f, "CTA ") || !detail::parse_xyz(f, xyz))
    line_error(fmt::format("bad CTA field '{}' (expected CTA x,y,z)", shown_token(f)));
  const Dim3& g = kernel_.grid;
  if (xyz[0] >= g.x || xyz[1] >= g.y || xyz[2] >= g.z)
    line_error(fmt::format("CTA {},{},{} is outside the grid ({},{},{})", xyz[0], xyz[1], xyz[2],
                           g.x, g.y, g.z));
  f = next_field(s);
  std::uint32_t warp = 0;
  if (!eat(f, "warp ") || !parse_dec_token(trim(f), warp))
    line_error(fmt::format("bad warp field '{}' (expected warp N)", shown_token(f)));
  if (warp >= kMaxWarpSlots)
    line_error(
        fmt::format("warp {} is out of range (NVBit's %warpid is below {})", warp, kMaxWarpSlots));
  const std::string_view opcode = trim(next_field(s));
  if (opcode.empty()) line_error("record lacks the opcode");
  // 32 addresses, one per lane, "0x%016lx ".
  detail::Tokens t{s};
  int count = 0;
  LaneMask mask = 0;
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
  if (count != kWarpSize)
    line_error(fmt::format("record has {} address{}; mem_trace prints 32 (one per lane)", count,
                           count == 1 ? "" : "es"));
  const detail::SassAccess acc = detail::classify_sass(opcode);
  if (acc.kind == detail::SassKind::Unsupported) {
    ++counts_.unsupported;
    return false;
  }
  if (mask == 0) {
    ++counts_.inactive;
    return false;
  }
  out.op = acc.kind == detail::SassKind::GenericLoad    ? Op::LDG
           : acc.kind == detail::SassKind::GenericStore ? Op::STG
                                                        : acc.op;
  out.size = acc.size;
  out.strided = false;
  out.stride = 0;
  out.sm = kUnknownSm;
  out.cta = static_cast<std::uint32_t>(xyz[0] + std::uint64_t{xyz[1]} * g.x +
                                       std::uint64_t{xyz[2]} * g.x * g.y);
  out.warp = warp;
  out.mask = mask;
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

bool NvbitReader::next_kernel(KernelInfo& out) {
  std::string_view line, body;
  while (!have_pending_) {
    if (!lines_.next(line)) {
      in_kernel_ = false;
      if (!seen_launch_)
        fail(
            "{}:{}: no NVBit mem_trace launch line ('MEMTRACE: CTX ... - LAUNCH' or 'Kernel ... - "
            "grid size') in the file",
            in_->name(), lines_.line_no());
      if (!logged_summary_) {
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
      case LineKind::Other:
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
    spdlog::warn(
        "{}: NVBit mem_trace logs carry no PC and no active mask: lanes with address 0 "
        "are taken as inactive, and instruction ids are inferred (n-th occurrence of an "
        "opcode in its warp)",
        in_->name());
  }
  return true;
}

std::size_t NvbitReader::read(std::span<WarpInstr> out) {
  std::size_t n = 0;
  std::string_view line, body;
  while (n < out.size() && in_kernel_) {
    if (!lines_.next(line)) {
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
      case LineKind::Other:
        break;
    }
  }
  return n;
}

}  // namespace gms::trace
