#pragma once
/// Typed simulator configuration, parsed once from .ini presets and --set overrides.
/// Each component gets its own part (CoalescerConfig, SharedMemConfig); none sees the parser.
/// The structs hold no defaults of their own: every value comes from a preset, the built-in
/// one (configs/hopper-h200.ini, embedded at build time) first, so there is one place that says
/// what the H200 is. default_config() is that preset, validated.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gms {

/// Named coalescing rules (the notes' model A and model B, and Kepler's L1-bypass mode).
enum class CoalesceRule : std::uint8_t {
  Sectors,   ///< Volta and later: 32-byte sectors for every global/local access
  KeplerL1,  ///< Kepler with -dlcm=ca: 128-byte transactions for loads, 32-byte for stores/atomics
  KeplerL2,  ///< Kepler default: loads bypass L1, 32-byte segments through L2
};

struct CoalescerConfig {
  CoalesceRule rule{};
  std::uint32_t segment_bytes{};  ///< 0 = the rule's sizes; else one size (32..128) for all
  // Derived by validate():
  std::uint32_t load_segment_bytes{};   ///< LDG, LDL
  std::uint32_t store_segment_bytes{};  ///< STG, STL, ATOMG, RED
};

struct SharedMemConfig {
  std::uint32_t banks{};             ///< power of two
  std::uint32_t bank_width_bytes{};  ///< 4, or 8 for Kepler's 8-byte mode
  double wavefronts_per_cycle{};     ///< shared-memory wavefronts per SM per cycle
};

struct GpuConfig {
  std::string name{};
  std::string arch{};
  std::uint32_t sm_count{};
  std::uint32_t clock_mhz{};
  std::uint32_t max_ctas_per_sm{};
  std::uint32_t max_threads_per_sm{};
  std::uint32_t registers_per_sm{};
  std::uint32_t smem_reserved_per_cta_bytes{};  ///< sm_80 and later reserve 1 KiB per CTA
  // Time model and roofline:
  double fp32_gflops{};               ///< peak FP32 throughput, GFLOP/s
  double launch_overhead_ns{};        ///< a kernel's fixed cost (launch, first wave start, drain)
  double wave_overhead_ns{};          ///< cost of starting each further wave of CTAs
  double wave_dispatch_ns{};          ///< least time a further wave takes (0: no floor)
  double loads_in_flight_per_warp{};  ///< independent loads a warp keeps outstanding (Little's law)
};

enum class ReplacementKind : std::uint8_t { Lru, Fifo, Random, Srrip, Nru };
enum class SliceHash : std::uint8_t { Linear, Xor };

/// The per-SM L1 data cache.
struct L1Config {
  std::uint32_t unified_kb{};  ///< L1 + shared memory array per SM; 0 = L1 separate from it
  std::vector<std::uint32_t> carveouts_kb;  ///< KiB, increasing
  std::uint32_t default_carveout_kb{};      ///< least carve-out of a launch with no preference
  std::uint32_t size_kb{};                  ///< L1 capacity when unified_kb = 0
  std::uint32_t line_bytes{};
  std::uint32_t sector_bytes{};  ///< = line_bytes for a non-sectored L1
  std::uint32_t sets{};          ///< ways follow from the capacity the carve-out leaves
  bool caches_global_loads{};
  ReplacementKind policy{};
  std::uint64_t seed{};                 ///< for the random policy
  double sectors_per_cycle{};           ///< L1 data throughput per SM (4 x 32 B = 128 B/clk)
  double store_path_bytes_per_cycle{};  ///< per SM, stores after loads (0: no store path term)
  double hit_latency_cycles{};
};

/// The device-wide L2, split into slices.
struct L2Config {
  std::uint32_t size_kb{};
  std::uint32_t slices{};
  std::uint32_t ways{};
  std::uint32_t line_bytes{};
  std::uint32_t sector_bytes{};
  SliceHash hash{};
  std::uint32_t interleave_bytes{};  ///< consecutive bytes mapped to one slice
  std::uint32_t dram_fetch_bytes{};  ///< DRAM read granularity: 32, or 64 (sector pairs)
  bool persist_across_kernels{};     ///< false = empty at every kernel (ncu --cache-control all)
  ReplacementKind policy{};
  std::uint64_t seed{};
  double sectors_per_cycle_per_slice{};  ///< L2 throughput of one slice
  double hit_latency_cycles{};
  /// Near/far partitions (A100, H100, H200): 1 = one uniform L2. With 2 or more, slices are
  /// split evenly and consecutively among them, SMs likewise (sim/model/address_map.h), and a
  /// read of a line homed in another partition than the SM's is served through that SM's own
  /// partition (sim/model/l2_cache.h).
  std::uint32_t partitions{};
  double far_hit_latency_cycles{};  ///< load latency of a hit in the far (home) partition
  /// Where a copy of a far line enters its near set's LRU order, in percent of the ways behind
  /// the most recent (0: the front, as any fill; 100: the set's next victim).
  std::uint32_t copy_insert_pct{};
};

/// DRAM fields (traffic is counted in cached mode; the bandwidth model uses the rest).
struct DramConfig {
  std::uint32_t channels{};
  std::uint32_t bus_width_bits{};
  std::uint32_t data_rate_mtps{};    ///< transfers per second per pin, in millions
  double peak_gbps{};                ///< vendor peak bandwidth, GB/s
  std::uint32_t interleave_bytes{};  ///< consecutive bytes mapped to one channel
  SliceHash hash{};                  ///< address-to-channel mapping
  double read_efficiency{};          ///< achievable fraction of peak, read-only stream
  double mixed_efficiency{};         ///< achievable fraction of peak, reads and writes mixed
  double latency_cycles{};           ///< DRAM access latency seen by a load, SM cycles
  double queue_ns{};  ///< a DRAM load waits queue_ns x u/(1-u) more at utilisation u (0: never)
  bool row_model{};   ///< model open rows (reports the row-buffer hit rate)
  std::uint32_t banks_per_channel{};
  std::uint32_t row_bytes{};
  std::uint32_t row_window{};  ///< FR-FCFS reorder window per channel, requests
  double row_miss_penalty{};   ///< extra time per row miss, as a fraction of a hit
  /// A write-back of a sector not wholly written reads the sector first (32 bytes): the
  /// memory's read-modify-write (ECC HBM does it; the H200 capture's strided stores show it).
  bool partial_write_reads{};
};

struct SimConfig {
  GpuConfig gpu;
  CoalescerConfig coalescer;
  SharedMemConfig shared;
  L1Config l1;
  L2Config l2;
  DramConfig dram;
};

/// Where configuration text comes from, applied in order: the built-in H200 preset, then each
/// file, then each `section.key=value` override. Unknown keys and invalid values throw SimError
/// naming the key (and the file).
struct ConfigSources {
  std::vector<std::string> files;
  std::vector<std::string> overrides;  ///< "section.key=value"
};

SimConfig load_config(const ConfigSources& sources);

/// The built-in preset alone (load_config with no files or overrides).
SimConfig default_config();

/// Parses ini text (as read from `origin`) on top of `cfg` and re-validates.
void apply_config_text(SimConfig& cfg, const std::string& text, const std::string& origin);

/// Applies one "section.key=value" override and re-validates.
void apply_override(SimConfig& cfg, const std::string& assignment);

/// Checks and derives values; throws SimError naming the key.
void validate(SimConfig& cfg);

/// The effective configuration as (key, value) pairs in table order, for output headers.
std::vector<std::pair<std::string, std::string>> effective_config(const SimConfig& cfg);

/// Every key with its unit and meaning (the same table the parser uses), for --help and docs.
struct ConfigKeyDoc {
  std::string key, unit, help;
};
std::vector<ConfigKeyDoc> config_key_docs();

}  // namespace gms
