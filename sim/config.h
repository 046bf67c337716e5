#pragma once
/// Typed simulator configuration, parsed once from .ini presets and --set overrides.
/// Each component gets its own part (CoalescerConfig, SharedMemConfig); none sees the parser.

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
  CoalesceRule rule = CoalesceRule::Sectors;
  std::uint32_t segment_bytes = 0;  ///< 0 = the rule's sizes; else one size (32..128) for all
  // Derived by validate():
  std::uint32_t load_segment_bytes = 32;   ///< LDG, LDL
  std::uint32_t store_segment_bytes = 32;  ///< STG, STL, ATOMG, RED
};

struct SharedMemConfig {
  std::uint32_t banks = 32;            ///< power of two
  std::uint32_t bank_width_bytes = 4;  ///< 4, or 8 for Kepler's 8-byte mode
};

struct GpuConfig {
  std::string name = "hopper-h200";
  std::string arch = "sm_90";
  std::uint32_t sm_count = 132;
};

struct SimConfig {
  GpuConfig gpu;
  CoalescerConfig coalescer;
  SharedMemConfig shared;
};

/// Where configuration text comes from, applied in order: the built-in H200 preset, then each
/// file, then each `section.key=value` override. Unknown keys and invalid values throw SimError
/// naming the key (and the file).
struct ConfigSources {
  std::vector<std::string> files;
  std::vector<std::string> overrides;  ///< "section.key=value"
};

SimConfig load_config(const ConfigSources& sources);

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
