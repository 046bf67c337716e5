/// gms_gt_recipe: regenerates the calibration traces stored as recipes (recipe.h).
///
///   gms_gt_recipe FILE.recipe             writes the wtrace text to standard output (unhashed:
///                                         --check is what compares it with the recipe's SHA-256)
///   gms_gt_recipe --check FILE.recipe...  regenerates and compares the SHA-256; exit 1 on a
///                                         mismatch
///   gms_gt_recipe --check-dir DIR         checks every DIR/*.recipe; exit 77 when there is none
///   gms_gt_recipe --list                  lists the calibration kernels: id, name, records
///   gms_gt_recipe --model ID              writes kernel ID's modelled trace (made-up bases, no
///                                         SM ids) for regression tests; never ground truth
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tools/groundtruth/recipe.h"

namespace {

bool check_one(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  const auto recipe = gms::groundtruth::parse_recipe(in, path);
  std::uint64_t bytes = 0;
  const std::string sha =
      gms::groundtruth::regenerate(recipe, [&](std::string_view s) { bytes += s.size(); });
  const bool ok = sha == recipe.sha256 && (recipe.text_bytes == 0 || bytes == recipe.text_bytes);
  std::printf("%s %s (%llu bytes, sha256 %s)\n", ok ? "ok      " : "MISMATCH", path.c_str(),
              static_cast<unsigned long long>(bytes), sha.c_str());
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 2 && args[0] == "--check-dir") {
      std::vector<std::string> files;
      if (std::filesystem::is_directory(args[1]))
        for (const auto& e : std::filesystem::directory_iterator(args[1]))
          if (e.path().extension() == ".recipe") files.push_back(e.path().string());
      if (files.empty()) {
        std::printf("no recipes in %s: nothing to check\n", args[1].c_str());
        return 77;
      }
      bool ok = true;
      for (const auto& f : files) ok &= check_one(f);
      return ok ? 0 : 1;
    }
    if (args.size() >= 2 && args[0] == "--check") {
      bool ok = true;
      for (std::size_t i = 1; i < args.size(); ++i) ok &= check_one(args[i]);
      return ok ? 0 : 1;
    }
    if (args.size() == 2 && args[0] == "--model") {
      // The modelled trace of one calibration kernel at fixed, made-up base addresses with no
      // SM ids: what the capture would write, minus the launch-specific facts. For regression
      // tests of the simulator on the calibration access patterns; never ground truth.
      const int id = std::stoi(args[1]);
      const auto* spec = gms::groundtruth::find_spec(id);
      if (spec == nullptr) throw std::runtime_error("no calibration kernel with id " + args[1]);
      std::vector<std::uint64_t> bases;
      for (int i = 0; i < gms::groundtruth::base_count(spec->family); ++i)
        bases.push_back(0x7f0000000000ull + (std::uint64_t{1} << 30) * static_cast<unsigned>(i));
      std::string text = gms::capture::wtrace_magic() +
                         gms::capture::kernel_line(gms::groundtruth::kernel_header(*spec, bases));
      gms::groundtruth::generate_records(*spec, bases, {},
                                         [&](const gms::capture::CaptureRecord& rec) {
                                           gms::capture::append_record_line(rec, text);
                                           if (text.size() > (1u << 20)) {
                                             std::fwrite(text.data(), 1, text.size(), stdout);
                                             text.clear();
                                           }
                                         });
      std::fwrite(text.data(), 1, text.size(), stdout);
      return std::fflush(stdout) == 0 ? 0 : 1;
    }
    if (args.size() == 1 && args[0] == "--list") {
      for (const auto& s : gms::groundtruth::kernel_specs())
        std::printf("%d %.*s %llu\n", s.id, static_cast<int>(s.name.size()), s.name.data(),
                    static_cast<unsigned long long>(gms::groundtruth::record_count(s)));
      return 0;
    }
    if (args.size() == 1 && args[0][0] != '-') {
      std::ifstream in(args[0]);
      if (!in) throw std::runtime_error("cannot open " + args[0]);
      const auto recipe = gms::groundtruth::parse_recipe(in, args[0]);
      gms::groundtruth::regenerate(
          recipe, [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); },
          /*digest=*/false);
      return std::fflush(stdout) == 0 ? 0 : 1;
    }
    std::fprintf(stderr,
                 "usage: gms_gt_recipe FILE.recipe | --check FILE.recipe... | --check-dir DIR |"
                 " --list | --model ID\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gms_gt_recipe: %s\n", e.what());
    return 1;
  }
}
