#include "sim/config/config.h"

#include <fmt/ranges.h>
#include <boost/program_options.hpp>

#include <bit>
#include <charconv>
#include <fstream>
#include <functional>
#include <sstream>
#include <type_traits>

#include "sim/config/default_config.h"
#include "sim/config/program_options_error.h"
#include "sim/core/error.h"

namespace gms {

namespace po = boost::program_options;

namespace {

// ---------------------------------------------------------------------------------------------
// The key table: one row per configuration key. The parser, validate(), effective_config(),
// --help and docs/config.md all come from it, so they cannot drift apart.

struct KeySpec {
  const char* key;
  const char* unit;
  const char* help;
  std::function<void(SimConfig&, const std::string&)> set;
  std::function<std::string(const SimConfig&)> get;
};

// Value parsing and printing, one overload per member type. `key` names the key in errors.

template <class T>
T parse_unsigned(const char* key, const std::string& v) {
  T out = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p != v.data() + v.size() || v.empty())
    fail("configuration key '{}': '{}' is not an unsigned integer", key, v);
  return out;
}

void parse_value(const char* key, const std::string& v, std::uint32_t& out) {
  out = parse_unsigned<std::uint32_t>(key, v);
}
void parse_value(const char* key, const std::string& v, std::uint64_t& out) {
  out = parse_unsigned<std::uint64_t>(key, v);
}
void parse_value(const char*, const std::string& v, std::string& out) {
  out = v;
}
void parse_value(const char* key, const std::string& v, double& out) {
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p != v.data() + v.size() || v.empty() || !(out >= 0))
    fail("configuration key '{}': '{}' is not a non-negative number", key, v);
}
void parse_value(const char* key, const std::string& v, bool& out) {
  if (v == "true" || v == "1")
    out = true;
  else if (v == "false" || v == "0")
    out = false;
  else
    fail("configuration key '{}': '{}' is not true or false", key, v);
}
void parse_value(const char* key, const std::string& v, std::vector<std::uint32_t>& out) {
  out.clear();
  std::size_t pos = 0;
  while (pos <= v.size()) {
    const std::size_t comma = std::min(v.find(',', pos), v.size());
    std::string item = v.substr(pos, comma - pos);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    out.push_back(parse_unsigned<std::uint32_t>(key, item));
    pos = comma + 1;
  }
}

std::string show_value(std::uint32_t v) {
  return std::to_string(v);
}
std::string show_value(std::uint64_t v) {
  return std::to_string(v);
}
std::string show_value(const std::string& v) {
  return v;
}
std::string show_value(double v) {
  return fmt::format("{}", v);
}
std::string show_value(bool v) {
  return v ? "true" : "false";
}
std::string show_value(const std::vector<std::uint32_t>& v) {
  return fmt::format("{}", fmt::join(v, ","));
}

/// Enumerations are spelled by name in files and outputs.
template <class E>
struct EnumNames;
template <>
struct EnumNames<CoalesceRule> {
  static constexpr std::pair<CoalesceRule, const char*> names[] = {
      {CoalesceRule::Sectors, "sectors"},
      {CoalesceRule::KeplerL1, "kepler-l1"},
      {CoalesceRule::KeplerL2, "kepler-l2"}};
};
template <>
struct EnumNames<ReplacementKind> {
  static constexpr std::pair<ReplacementKind, const char*> names[] = {
      {ReplacementKind::Lru, "lru"},
      {ReplacementKind::Fifo, "fifo"},
      {ReplacementKind::Random, "random"},
      {ReplacementKind::Srrip, "srrip"},
      {ReplacementKind::Nru, "nru"}};
};
template <>
struct EnumNames<SliceHash> {
  static constexpr std::pair<SliceHash, const char*> names[] = {{SliceHash::Linear, "linear"},
                                                                {SliceHash::Xor, "xor"}};
};

template <class E>
requires std::is_enum_v<E>
void parse_value(const char* key, const std::string& v, E& out) {
  std::string choices;
  for (const auto& [value, name] : EnumNames<E>::names) {
    if (v == name) {
      out = value;
      return;
    }
    choices += choices.empty() ? name : std::string(", ") + name;
  }
  fail("configuration key '{}': unknown value '{}' ({})", key, v, choices);
}

template <class E>
requires std::is_enum_v<E> std::string show_value(E v) {
  for (const auto& [value, name] : EnumNames<E>::names)
    if (value == v) return name;
  return "?";
}

/// A key bound to one member through an accessor lambda that works on const and non-const.
template <class Access>
KeySpec key(const char* name, const char* unit, const char* help, Access access) {
  return {name, unit, help,
          [name, access](SimConfig& c, const std::string& v) { parse_value(name, v, access(c)); },
          [access](const SimConfig& c) { return show_value(access(c)); }};
}

#define GMS_MEMBER(path) \
  [](auto& c) -> auto& { \
    return c.path;       \
  }

const std::vector<KeySpec>& key_table() {
  static const std::vector<KeySpec> table = {
      key("gpu.name", "-", "preset name, reported in every output", GMS_MEMBER(gpu.name)),
      key("gpu.arch", "-", "compute capability of the modelled GPU, e.g. sm_90",
          GMS_MEMBER(gpu.arch)),
      key("gpu.sm_count", "SMs", "number of streaming multiprocessors", GMS_MEMBER(gpu.sm_count)),
      key("gpu.clock_mhz", "MHz", "SM clock", GMS_MEMBER(gpu.clock_mhz)),
      key("gpu.max_ctas_per_sm", "CTAs", "resident CTAs per SM, at most",
          GMS_MEMBER(gpu.max_ctas_per_sm)),
      key("gpu.max_threads_per_sm", "threads", "resident threads per SM, at most",
          GMS_MEMBER(gpu.max_threads_per_sm)),
      key("gpu.registers_per_sm", "registers", "32-bit registers per SM",
          GMS_MEMBER(gpu.registers_per_sm)),
      key("gpu.smem_reserved_per_cta_bytes", "bytes",
          "shared memory the system reserves per CTA (1024 on sm_80 and later)",
          GMS_MEMBER(gpu.smem_reserved_per_cta_bytes)),
      key("gpu.fp32_gflops", "GFLOP/s", "peak FP32 throughput (roofline)",
          GMS_MEMBER(gpu.fp32_gflops)),
      key("gpu.launch_overhead_ns", "ns", "fixed cost of a kernel: launch, first wave, drain",
          GMS_MEMBER(gpu.launch_overhead_ns)),
      key("gpu.wave_overhead_ns", "ns", "cost of starting each further wave of CTAs",
          GMS_MEMBER(gpu.wave_overhead_ns)),
      key("gpu.wave_dispatch_ns", "ns",
          "least time each further wave of CTAs takes (CTA dispatch and retire; 0 = no floor)",
          GMS_MEMBER(gpu.wave_dispatch_ns)),
      key("gpu.loads_in_flight_per_warp", "requests",
          "independent loads a warp keeps outstanding (memory-level parallelism, Little's law)",
          GMS_MEMBER(gpu.loads_in_flight_per_warp)),
      key("coalescer.rule", "-",
          "coalescing rule: sectors (32-byte sectors, Volta and later), kepler-l1 (128-byte "
          "transactions for loads cached in L1, 32-byte for stores and atomics), kepler-l2 "
          "(32-byte segments, loads bypass L1)",
          GMS_MEMBER(coalescer.rule)),
      key("coalescer.segment_bytes", "bytes",
          "0 = the rule's transaction sizes; otherwise one transaction size for every global, "
          "local and atomic access (a power of two from 32 to 128, for sweeps)",
          GMS_MEMBER(coalescer.segment_bytes)),
      key("shared.banks", "banks", "shared-memory banks (a power of two, at most 64)",
          GMS_MEMBER(shared.banks)),
      key("shared.bank_width_bytes", "bytes",
          "width of one bank word: 4, or 8 for Kepler's 8-byte bank mode",
          GMS_MEMBER(shared.bank_width_bytes)),
      key("shared.wavefronts_per_cycle", "wavefronts/clk",
          "shared-memory wavefronts per SM per cycle", GMS_MEMBER(shared.wavefronts_per_cycle)),
      key("l1.unified_kb", "KiB",
          "L1 + shared-memory array per SM; 0 = the L1 is separate (l1.size_kb)",
          GMS_MEMBER(l1.unified_kb)),
      key("l1.carveouts_kb", "KiB list",
          "shared-memory sizes the unified array supports, increasing (e.g. "
          "0,8,16,32,64,100,132,164,196,228)",
          GMS_MEMBER(l1.carveouts_kb)),
      key("l1.default_carveout_kb", "KiB",
          "the least carve-out the driver gives a launch that records no preference (rounded up "
          "to one of l1.carveouts_kb, the largest when none holds it; raised when the resident "
          "CTAs' shared memory needs more)",
          GMS_MEMBER(l1.default_carveout_kb)),
      key("l1.size_kb", "KiB", "L1 capacity when l1.unified_kb = 0", GMS_MEMBER(l1.size_kb)),
      key("l1.line_bytes", "bytes", "L1 line size (a power of two, 32 to 256)",
          GMS_MEMBER(l1.line_bytes)),
      key("l1.sector_bytes", "bytes",
          "L1 sector size; = line size for a non-sectored L1 (at most 8 per line)",
          GMS_MEMBER(l1.sector_bytes)),
      key("l1.sets", "sets", "L1 sets; the ways follow from the capacity", GMS_MEMBER(l1.sets)),
      key("l1.caches_global_loads", "bool",
          "global loads allocate in L1 (false: they bypass it to L2)",
          GMS_MEMBER(l1.caches_global_loads)),
      key("l1.policy", "-", "L1 replacement: lru, fifo, random, srrip, nru", GMS_MEMBER(l1.policy)),
      key("l1.seed", "-", "seed of the random policy", GMS_MEMBER(l1.seed)),
      key("l1.sectors_per_cycle", "sectors/clk",
          "L1 data throughput per SM, 32-byte sectors per cycle", GMS_MEMBER(l1.sectors_per_cycle)),
      key("l1.store_path_bytes_per_cycle", "bytes/clk",
          "rate per SM of stores that wait for the kernel's loads, in series with the load "
          "latency (0 = no store path term)",
          GMS_MEMBER(l1.store_path_bytes_per_cycle)),
      key("l1.hit_latency_cycles", "cycles", "load latency of an L1 hit",
          GMS_MEMBER(l1.hit_latency_cycles)),
      key("l2.size_kb", "KiB", "total L2 capacity", GMS_MEMBER(l2.size_kb)),
      key("l2.slices", "slices", "L2 slices; the capacity is split evenly", GMS_MEMBER(l2.slices)),
      key("l2.ways", "ways", "associativity of each slice", GMS_MEMBER(l2.ways)),
      key("l2.line_bytes", "bytes", "L2 line size (128)", GMS_MEMBER(l2.line_bytes)),
      key("l2.sector_bytes", "bytes", "L2 sector size (32)", GMS_MEMBER(l2.sector_bytes)),
      key("l2.hash", "-", "address-to-slice mapping: linear (interleaved) or xor (hashed)",
          GMS_MEMBER(l2.hash)),
      key("l2.interleave_bytes", "bytes",
          "consecutive bytes that map to one slice (a power of two, at least a line)",
          GMS_MEMBER(l2.interleave_bytes)),
      key("l2.dram_fetch_bytes", "bytes",
          "DRAM read granularity on an L2 miss: 32 (a sector) or 64 (a sector pair)",
          GMS_MEMBER(l2.dram_fetch_bytes)),
      key("l2.persist_across_kernels", "bool", "keep L2 contents from one kernel to the next",
          GMS_MEMBER(l2.persist_across_kernels)),
      key("l2.policy", "-", "L2 replacement: lru, fifo, random, srrip, nru", GMS_MEMBER(l2.policy)),
      key("l2.seed", "-", "seed of the random policy", GMS_MEMBER(l2.seed)),
      key("l2.sectors_per_cycle_per_slice", "sectors/clk",
          "L2 throughput of one slice, 32-byte sectors per SM cycle",
          GMS_MEMBER(l2.sectors_per_cycle_per_slice)),
      key("l2.hit_latency_cycles", "cycles", "load latency of an L2 hit",
          GMS_MEMBER(l2.hit_latency_cycles)),
      key("l2.partitions", "partitions",
          "near/far L2 partitions: 1 = one uniform L2; more = slices and SMs split evenly among "
          "them, a line read from a far partition copied into the reader's near one",
          GMS_MEMBER(l2.partitions)),
      key("l2.far_hit_latency_cycles", "cycles",
          "load latency of an L2 hit in the far partition (used when l2.partitions > 1)",
          GMS_MEMBER(l2.far_hit_latency_cycles)),
      key("l2.copy_insert_pct", "%",
          "where a far line's copy enters its near set's LRU order: 0 = most recent, 100 = next "
          "victim (used when l2.partitions > 1; other policies fill it as any line)",
          GMS_MEMBER(l2.copy_insert_pct)),
      key("dram.channels", "channels", "DRAM channels", GMS_MEMBER(dram.channels)),
      key("dram.bus_width_bits", "bits", "total DRAM bus width", GMS_MEMBER(dram.bus_width_bits)),
      key("dram.data_rate_mtps", "MT/s", "transfers per second per pin",
          GMS_MEMBER(dram.data_rate_mtps)),
      key("dram.peak_gbps", "GB/s", "vendor peak DRAM bandwidth", GMS_MEMBER(dram.peak_gbps)),
      key("dram.interleave_bytes", "bytes",
          "consecutive bytes that map to one channel (a power of two)",
          GMS_MEMBER(dram.interleave_bytes)),
      key("dram.hash", "-", "address-to-channel mapping: linear (interleaved) or xor (hashed)",
          GMS_MEMBER(dram.hash)),
      key("dram.read_efficiency", "fraction",
          "achievable fraction of peak bandwidth for a read-only stream",
          GMS_MEMBER(dram.read_efficiency)),
      key("dram.mixed_efficiency", "fraction",
          "achievable fraction of peak for mixed reads and writes",
          GMS_MEMBER(dram.mixed_efficiency)),
      key("dram.latency_cycles", "cycles", "DRAM latency seen by a load, in SM cycles",
          GMS_MEMBER(dram.latency_cycles)),
      key("dram.queue_ns", "ns",
          "loaded latency: a load served by DRAM waits queue_ns x u / (1 - u) more at DRAM "
          "utilisation u (0: latency does not grow with load)",
          GMS_MEMBER(dram.queue_ns)),
      key("dram.row_model", "bool", "model open DRAM rows (row-buffer hit rate; lowers efficiency)",
          GMS_MEMBER(dram.row_model)),
      key("dram.banks_per_channel", "banks", "banks per channel (row model)",
          GMS_MEMBER(dram.banks_per_channel)),
      key("dram.row_bytes", "bytes", "row (page) size per bank (row model; a power of two)",
          GMS_MEMBER(dram.row_bytes)),
      key("dram.row_window", "requests", "FR-FCFS reorder window per channel (row model)",
          GMS_MEMBER(dram.row_window)),
      key("dram.row_miss_penalty", "fraction",
          "extra time of a row miss relative to a row hit (row model)",
          GMS_MEMBER(dram.row_miss_penalty)),
      key("dram.partial_write_reads", "bool",
          "a write-back of a sector not wholly written reads its 32 bytes from DRAM first "
          "(read-modify-write)",
          GMS_MEMBER(dram.partial_write_reads)),
  };
  return table;
}

#undef GMS_MEMBER

const KeySpec* find_key(const std::string& key) {
  for (const KeySpec& k : key_table())
    if (key == k.key) return &k;
  return nullptr;
}

void check_pow2_range(const char* key, std::uint32_t v, std::uint32_t lo, std::uint32_t hi) {
  if (!std::has_single_bit(v) || v < lo || v > hi)
    fail("configuration key '{}': {} is invalid (a power of two from {} to {})", key, v, lo, hi);
}

}  // namespace

void validate(SimConfig& cfg) {
  const GpuConfig& gpu = cfg.gpu;
  if (gpu.sm_count == 0) fail("configuration key 'gpu.sm_count': must be at least 1");
  if (gpu.clock_mhz == 0) fail("configuration key 'gpu.clock_mhz': must be at least 1");
  if (gpu.max_ctas_per_sm == 0) fail("configuration key 'gpu.max_ctas_per_sm': must be at least 1");
  if (gpu.max_threads_per_sm < 32)
    fail("configuration key 'gpu.max_threads_per_sm': must be at least 32");
  if (gpu.registers_per_sm == 0)
    fail("configuration key 'gpu.registers_per_sm': must be at least 1");

  CoalescerConfig& co = cfg.coalescer;
  if (co.segment_bytes != 0) {
    check_pow2_range("coalescer.segment_bytes", co.segment_bytes, 32, 128);
    co.load_segment_bytes = co.store_segment_bytes = co.segment_bytes;
  } else {
    co.load_segment_bytes = co.rule == CoalesceRule::KeplerL1 ? 128 : 32;
    co.store_segment_bytes = 32;
  }
  check_pow2_range("shared.banks", cfg.shared.banks, 1, 64);
  check_pow2_range("shared.bank_width_bytes", cfg.shared.bank_width_bytes, 4, 8);

  const L1Config& l1 = cfg.l1;
  check_pow2_range("l1.line_bytes", l1.line_bytes, 32, 256);
  check_pow2_range("l1.sector_bytes", l1.sector_bytes, 32,
                   std::min<std::uint32_t>(l1.line_bytes, 128));
  if (l1.line_bytes / l1.sector_bytes > 8)
    fail("configuration key 'l1.sector_bytes': at most 8 sectors per line");
  if (l1.sets == 0) fail("configuration key 'l1.sets': must be at least 1");
  if (l1.unified_kb != 0) {
    if (l1.carveouts_kb.empty())
      fail("configuration key 'l1.carveouts_kb': a unified L1 needs carve-outs");
    for (std::size_t i = 0; i < l1.carveouts_kb.size(); ++i) {
      if (l1.carveouts_kb[i] > l1.unified_kb)
        fail("configuration key 'l1.carveouts_kb': {} KiB exceeds l1.unified_kb",
             l1.carveouts_kb[i]);
      if (i > 0 && l1.carveouts_kb[i] <= l1.carveouts_kb[i - 1])
        fail("configuration key 'l1.carveouts_kb': sizes must increase");
      if ((std::uint64_t{l1.unified_kb - l1.carveouts_kb[i]} * 1024 / l1.line_bytes) % l1.sets != 0)
        fail(
            "configuration key 'l1.sets': {} KiB of L1 (carve-out {} KiB) is not a whole number of "
            "{}-line sets",
            l1.unified_kb - l1.carveouts_kb[i], l1.carveouts_kb[i], l1.sets);
    }
  } else if ((std::uint64_t{l1.size_kb} * 1024 / l1.line_bytes) % l1.sets != 0) {
    fail("configuration key 'l1.sets': l1.size_kb is not a whole number of sets");
  }

  const L2Config& l2 = cfg.l2;
  check_pow2_range("l2.line_bytes", l2.line_bytes, 64, 256);
  if (l2.sector_bytes != 32)
    fail("configuration key 'l2.sector_bytes': only 32-byte sectors are modelled");
  if (l2.slices == 0) fail("configuration key 'l2.slices': must be at least 1");
  if (l2.ways == 0) fail("configuration key 'l2.ways': must be at least 1");
  if (l2.size_kb == 0 ||
      (std::uint64_t{l2.size_kb} * 1024) % (std::uint64_t{l2.slices} * l2.ways * l2.line_bytes) !=
          0)
    fail(
        "configuration key 'l2.size_kb': {} KiB is not a whole number of sets of {} slices x {} "
        "ways x {} bytes",
        l2.size_kb, l2.slices, l2.ways, l2.line_bytes);
  check_pow2_range("l2.interleave_bytes", l2.interleave_bytes, l2.line_bytes, 1u << 20);
  check_pow2_range("l2.dram_fetch_bytes", l2.dram_fetch_bytes, l2.sector_bytes, l2.line_bytes);
  if (l2.copy_insert_pct > 100)
    fail("configuration key 'l2.copy_insert_pct': {} is not 0 to 100", l2.copy_insert_pct);
  if (l2.partitions == 0 || l2.partitions > 64)
    fail("configuration key 'l2.partitions': {} is not 1 to 64", l2.partitions);
  if (l2.partitions > 1) {
    if (l2.slices % l2.partitions != 0)
      fail("configuration key 'l2.partitions': {} slices do not split evenly into {} partitions",
           l2.slices, l2.partitions);
    if (cfg.gpu.sm_count < l2.partitions)
      fail("configuration key 'l2.partitions': {} partitions but only {} SMs", l2.partitions,
           cfg.gpu.sm_count);
    if (l2.line_bytes != 128)
      fail("configuration key 'l2.partitions': partitions need 128-byte L2 lines, not {}",
           l2.line_bytes);
    if (!(l2.far_hit_latency_cycles > 0))
      fail("configuration key 'l2.far_hit_latency_cycles': must be above 0 with partitions");
  }

  if (cfg.dram.channels == 0) fail("configuration key 'dram.channels': must be at least 1");
  check_pow2_range("dram.interleave_bytes", cfg.dram.interleave_bytes, 32, 1u << 20);
  check_pow2_range("dram.row_bytes", cfg.dram.row_bytes, 64, 1u << 16);
  if (cfg.dram.banks_per_channel == 0)
    fail("configuration key 'dram.banks_per_channel': must be at least 1");
  if (cfg.dram.row_window == 0) fail("configuration key 'dram.row_window': must be at least 1");
  auto positive = [](const char* key, double v) {
    if (!(v > 0)) fail("configuration key '{}': must be above 0", key);
  };
  auto fraction = [](const char* key, double v) {
    if (!(v > 0 && v <= 1)) fail("configuration key '{}': {} is not a fraction in (0, 1]", key, v);
  };
  positive("gpu.fp32_gflops", cfg.gpu.fp32_gflops);
  positive("gpu.loads_in_flight_per_warp", cfg.gpu.loads_in_flight_per_warp);
  positive("shared.wavefronts_per_cycle", cfg.shared.wavefronts_per_cycle);
  positive("l1.sectors_per_cycle", cfg.l1.sectors_per_cycle);
  positive("l2.sectors_per_cycle_per_slice", cfg.l2.sectors_per_cycle_per_slice);
  positive("dram.peak_gbps", cfg.dram.peak_gbps);
  fraction("dram.read_efficiency", cfg.dram.read_efficiency);
  fraction("dram.mixed_efficiency", cfg.dram.mixed_efficiency);
  if (cfg.dram.bus_width_bits == 0)
    fail("configuration key 'dram.bus_width_bits': must be at least 1");
}

namespace {

// 1-based number of the first line of `text` that starts with `trimmed` once leading blanks are
// removed (Boost reports a bad line trimmed and without its # comment); 0 if none does.
std::size_t line_number_of(const std::string& text, const std::string& trimmed) {
  std::istringstream in(text);
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, trimmed.size(), trimmed) == 0) return n;
  }
  return 0;
}

}  // namespace

void apply_config_text(SimConfig& cfg, const std::string& text, const std::string& origin) {
  po::options_description desc;
  for (const KeySpec& k : key_table()) desc.add_options()(k.key, po::value<std::string>());
  std::istringstream in(text);
  po::variables_map vm;
  try {
    po::store(po::parse_config_file(in, desc, /*allow_unregistered=*/false), vm);
  } catch (const po::unknown_option& e) {
    fail("{}: unknown configuration key '{}'", origin, e.get_option_name());
  } catch (const po::invalid_config_file_syntax& e) {
    fail("{}:{}: {}", origin, line_number_of(text, e.tokens()), program_options_message(e));
  } catch (const po::error& e) {
    fail("{}: {}", origin, program_options_message(e));
  }
  for (const KeySpec& k : key_table()) {
    if (!vm.count(k.key)) continue;
    try {
      k.set(cfg, vm[k.key].as<std::string>());
    } catch (const SimError& e) {
      fail("{}: {}", origin, e.what());
    }
  }
  try {
    validate(cfg);
  } catch (const SimError& e) {
    fail("{}: {}", origin, e.what());
  }
}

void apply_override(SimConfig& cfg, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    fail("--set '{}': expected section.key=value", assignment);
  const std::string key = assignment.substr(0, eq);
  const KeySpec* spec = find_key(key);
  if (spec == nullptr) fail("--set: unknown configuration key '{}'", key);
  spec->set(cfg, assignment.substr(eq + 1));
  validate(cfg);
}

SimConfig load_config(const ConfigSources& sources) {
  SimConfig cfg{};
  apply_config_text(cfg, kDefaultConfigText, std::string("built-in preset ") + kDefaultConfigName);
  for (const std::string& file : sources.files) {
    std::ifstream in(file);
    if (!in) fail("{}: cannot open configuration file", file);
    std::stringstream text;
    text << in.rdbuf();
    apply_config_text(cfg, text.str(), file);
  }
  for (const std::string& o : sources.overrides) apply_override(cfg, o);
  return cfg;
}

std::vector<std::pair<std::string, std::string>> effective_config(const SimConfig& cfg) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const KeySpec& k : key_table()) out.emplace_back(k.key, k.get(cfg));
  return out;
}

std::vector<ConfigKeyDoc> config_key_docs() {
  std::vector<ConfigKeyDoc> out;
  for (const KeySpec& k : key_table()) out.push_back({k.key, k.unit, k.help});
  return out;
}

SimConfig default_config() {
  return load_config({});
}

}  // namespace gms
