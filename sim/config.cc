#include "sim/config.h"

#include <boost/program_options.hpp>

#include <bit>
#include <charconv>
#include <fstream>
#include <functional>
#include <sstream>

#include "sim/default_config.h"
#include "sim/error.h"

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

std::uint32_t parse_u32(const std::string& key, const std::string& v) {
  std::uint32_t out = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p != v.data() + v.size() || v.empty())
    fail("configuration key '{}': '{}' is not an unsigned integer", key, v);
  return out;
}

template <class Member>
KeySpec u32_key(const char* key, const char* unit, const char* help, Member member) {
  return {key, unit, help,
          [key, member](SimConfig& c, const std::string& v) { member(c) = parse_u32(key, v); },
          [member](const SimConfig& c) { return std::to_string(member(c)); }};
}

template <class Member>
KeySpec string_key(const char* key, const char* unit, const char* help, Member member) {
  return {key, unit, help, [member](SimConfig& c, const std::string& v) { member(c) = v; },
          [member](const SimConfig& c) { return member(c); }};
}

constexpr std::pair<CoalesceRule, const char*> kRuleNames[] = {
    {CoalesceRule::Sectors, "sectors"},
    {CoalesceRule::KeplerL1, "kepler-l1"},
    {CoalesceRule::KeplerL2, "kepler-l2"},
};

const std::vector<KeySpec>& key_table() {
  static const std::vector<KeySpec> table = {
      string_key(
          "gpu.name", "-", "preset name, reported in every output",
          [](auto& c) -> auto& { return c.gpu.name; }),
      string_key(
          "gpu.arch", "-", "compute capability of the modelled GPU, e.g. sm_90",
          [](auto& c) -> auto& { return c.gpu.arch; }),
      u32_key(
          "gpu.sm_count", "SMs", "number of streaming multiprocessors",
          [](auto& c) -> auto& { return c.gpu.sm_count; }),
      {"coalescer.rule", "-",
       "coalescing rule: sectors (32-byte sectors, Volta and later), kepler-l1 (128-byte "
       "transactions for loads cached in L1, 32-byte for stores and atomics), kepler-l2 (32-byte "
       "segments, loads bypass L1)",
       [](SimConfig& c, const std::string& v) {
         for (const auto& [rule, name] : kRuleNames)
           if (v == name) {
             c.coalescer.rule = rule;
             return;
           }
         fail(
             "configuration key 'coalescer.rule': unknown rule '{}' (sectors, kepler-l1, "
             "kepler-l2)",
             v);
       },
       [](const SimConfig& c) -> std::string {
         for (const auto& [rule, name] : kRuleNames)
           if (rule == c.coalescer.rule) return name;
         return "?";
       }},
      u32_key(
          "coalescer.segment_bytes", "bytes",
          "0 = the rule's transaction sizes; otherwise one transaction size for every "
          "global, local and atomic access (a power of two from 32 to 128, for sweeps)",
          [](auto& c) -> auto& { return c.coalescer.segment_bytes; }),
      u32_key(
          "shared.banks", "banks", "shared-memory banks (a power of two, at most 64)",
          [](auto& c) -> auto& { return c.shared.banks; }),
      u32_key(
          "shared.bank_width_bytes", "bytes",
          "width of one bank word: 4, or 8 for Kepler's 8-byte bank mode",
          [](auto& c) -> auto& { return c.shared.bank_width_bytes; }),
  };
  return table;
}

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
  if (cfg.gpu.sm_count == 0) fail("configuration key 'gpu.sm_count': must be at least 1");
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
}

void apply_config_text(SimConfig& cfg, const std::string& text, const std::string& origin) {
  po::options_description desc;
  for (const KeySpec& k : key_table()) desc.add_options()(k.key, po::value<std::string>());
  std::istringstream in(text);
  po::variables_map vm;
  try {
    po::store(po::parse_config_file(in, desc, /*allow_unregistered=*/false), vm);
  } catch (const po::unknown_option& e) {
    fail("{}: unknown configuration key '{}'", origin, e.get_option_name());
  } catch (const po::error& e) {
    fail("{}: {}", origin, e.what());
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
  SimConfig cfg;
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

}  // namespace gms
