// libFuzzer target: configuration text (a preset .ini) parsed over the built-in preset and
// validated; a SimError naming the key is the expected outcome for bad input.
#include <string>

#include "sim/config/config.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gms::SimConfig base = gms::load_config({});
  gms::SimConfig cfg = base;
  try {
    gms::apply_config_text(cfg, std::string(reinterpret_cast<const char*>(data), size), "fuzz.ini");
  } catch (const gms::SimError&) {
  }
  return 0;
}
