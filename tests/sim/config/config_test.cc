// Configuration: presets parse, overrides apply key by key, bad keys and values are errors that
// name the key, and docs/config.md lists every key.
#include "sim/config/config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/core/error.h"
#include "tests/test_paths.h"

namespace gms {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const SimError& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigTest, BuiltInDefaultIsTheH200Preset) {
  const SimConfig cfg = load_config({});
  EXPECT_EQ(cfg.gpu.name, "hopper-h200");
  EXPECT_EQ(cfg.gpu.sm_count, 132u);
  EXPECT_EQ(cfg.coalescer.rule, CoalesceRule::Sectors);
  EXPECT_EQ(cfg.coalescer.load_segment_bytes, 32u);
  EXPECT_EQ(cfg.shared.banks, 32u);
}

TEST(ConfigTest, EveryPresetParsesAndValidates) {
  int presets = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("configs"))) {
    if (entry.path().extension() != ".ini") continue;
    ++presets;
    SimConfig cfg;
    ASSERT_NO_THROW(cfg = load_config({{entry.path().string()}, {}})) << entry.path();
    EXPECT_EQ(cfg.gpu.name, entry.path().stem().string()) << "gpu.name must match the file name";
  }
  EXPECT_GE(presets, 4);
}

TEST(ConfigTest, EveryPresetSetsEveryKey) {
  // A preset that leaves a key out would silently inherit the built-in H200 value.
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("configs"))) {
    if (entry.path().extension() != ".ini") continue;
    std::ifstream in(entry.path());
    std::set<std::string> keys;
    std::string line, section;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#' || line[0] == ';') continue;
      if (line[0] == '[') {
        section = line.substr(1, line.find(']') - 1);
        continue;
      }
      const auto eq = line.find('=');
      std::string key = line.substr(0, eq);
      key.erase(key.find_last_not_of(' ') + 1);
      keys.insert(section + "." + key);
    }
    for (const ConfigKeyDoc& k : config_key_docs())
      EXPECT_TRUE(keys.count(k.key)) << entry.path().filename() << " does not set " << k.key;
  }
}

TEST(ConfigTest, KeplerCachedPresetUses128ByteLoads) {
  const SimConfig cfg = load_config({{test::source_path("configs/kepler-k40-ca.ini")}, {}});
  EXPECT_EQ(cfg.coalescer.load_segment_bytes, 128u);
  EXPECT_EQ(cfg.coalescer.store_segment_bytes, 32u);
}

TEST(ConfigTest, OverridesApplyInOrder) {
  const SimConfig cfg = load_config(
      {{}, {"coalescer.segment_bytes=64", "shared.banks=16", "coalescer.segment_bytes=128"}});
  EXPECT_EQ(cfg.coalescer.load_segment_bytes, 128u);
  EXPECT_EQ(cfg.coalescer.store_segment_bytes, 128u);
  EXPECT_EQ(cfg.shared.banks, 16u);
}

TEST(ConfigTest, UnknownKeysAreErrorsNamingTheKey) {
  EXPECT_NE(error_of([] {
              load_config({{}, {"l9.size=4"}});
            }).find("unknown configuration key 'l9.size'"),
            std::string::npos);
  SimConfig cfg;
  const std::string msg =
      error_of([&] { apply_config_text(cfg, "[shared]\nbankz = 3\n", "my.ini"); });
  EXPECT_NE(msg.find("my.ini"), std::string::npos) << msg;
  EXPECT_NE(msg.find("shared.bankz"), std::string::npos) << msg;
}

TEST(ConfigTest, MalformedLinesAreErrorsNamingFileAndLine) {
  SimConfig cfg;
  std::string msg = error_of(
      [&] { apply_config_text(cfg, "[shared]\nbanks = 32\n  not a key line\n", "my.ini"); });
  EXPECT_NE(msg.find("my.ini:3:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a key line"), std::string::npos) << msg;
  // Boost's own message would substitute "%invalid_line%" into itself forever (fuzz_config).
  msg = error_of([&] { apply_config_text(cfg, "[gpu]\n%invalid_line%\n", "p.ini"); });
  EXPECT_NE(msg.find("p.ini:2:"), std::string::npos) << msg;
  msg = error_of([&] { apply_config_text(cfg, "[gpu]\nsm_count = 1\nsm_count = 2\n", "d.ini"); });
  EXPECT_NE(msg.find("'gpu.sm_count' is given more than once"), std::string::npos) << msg;
}

TEST(ConfigTest, InvalidValuesAreErrorsNamingTheKey) {
  const std::pair<const char*, const char*> cases[] = {
      {"coalescer.segment_bytes=48", "coalescer.segment_bytes"},
      {"coalescer.segment_bytes=256", "coalescer.segment_bytes"},
      {"shared.banks=0", "shared.banks"},
      {"shared.banks=24", "shared.banks"},
      {"shared.bank_width_bytes=2", "shared.bank_width_bytes"},
      {"gpu.sm_count=0", "gpu.sm_count"},
      {"gpu.sm_count=-3", "gpu.sm_count"},
      {"coalescer.rule=fermi", "coalescer.rule"},
      {"shared.banks", "shared.banks"},
  };
  for (const auto& [assignment, key] : cases) {
    const std::string msg = error_of([&] { load_config({{}, {assignment}}); });
    EXPECT_NE(msg.find(key), std::string::npos) << assignment << " -> '" << msg << "'";
  }
}

TEST(ConfigTest, MissingFileIsAnError) {
  EXPECT_NE(error_of([] {
              load_config({{"/nonexistent/x.ini"}, {}});
            }).find("/nonexistent/x.ini"),
            std::string::npos);
}

TEST(ConfigTest, DocsListEveryKey) {
  std::ifstream in(test::source_path("docs/config.md"));
  std::stringstream text;
  text << in.rdbuf();
  for (const ConfigKeyDoc& k : config_key_docs())
    EXPECT_NE(text.str().find("`" + k.key + "`"), std::string::npos)
        << k.key << " missing from docs/config.md";
}

TEST(ConfigTest, EffectiveConfigRoundTrips) {
  SimConfig cfg =
      load_config({{test::source_path("configs/kepler-k40-ca.ini")}, {"shared.banks=16"}});
  std::string ini;
  std::string section;
  for (const auto& [key, value] : effective_config(cfg)) {
    const auto dot = key.find('.');
    if (key.substr(0, dot) != section) ini += "[" + (section = key.substr(0, dot)) + "]\n";
    ini += key.substr(dot + 1) + " = " + value + "\n";
  }
  SimConfig again;
  apply_config_text(again, ini, "roundtrip");
  EXPECT_EQ(effective_config(again), effective_config(cfg));
}

}  // namespace
}  // namespace gms
