// consumer TRACE PRESET PRESET_DIR: replays TRACE under the preset (found by name in
// PRESET_DIR) through the installed library and prints each kernel's id, records and global
// load transactions, one line each, for install_test.sh to compare with the CLI's JSON.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/replay/simulator.h"
#include "tools/study/presets.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fputs("usage: consumer TRACE PRESET PRESET_DIR\n", stderr);
    return 2;
  }
  try {
    gms::ConfigSources sources;
    sources.files = {gms::find_preset(argv[2], {argv[3]})};
    const gms::SimConfig cfg = gms::load_config(sources);
    for (const gms::KernelStats& k : gms::simulate(std::vector<std::string>{argv[1]}, cfg))
      std::printf("%u %llu %llu\n", k.kernel.id, static_cast<unsigned long long>(k.records),
                  static_cast<unsigned long long>(k.total(gms::OpClass::GlobalLoad).transactions));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
  return 0;
}
