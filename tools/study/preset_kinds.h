#pragma once
/// How sure each figure of a preset is: the `{kind}` marks of its comments (docs/hardware.md
/// "How sure a figure is"), read for `gpumemsim presets --detail NAME`.
///
/// A comment block's `{kind}` applies to every key below it up to the next comment block;
/// `{key: kind}` in the same block gives one of those keys another kind.
///
///   for (const PresetFigure& f : read_preset_figures("configs/ada-l40s.ini"))
///     fmt::print("{} = {} ({})\n", f.key, f.value, f.kind);

#include <string>
#include <vector>

namespace gms {

/// The kinds a figure may have, from most to least sure: measured on the preset's board;
/// stated by NVIDIA (documents, datasheets, the CUDA runtime's device properties); measured on
/// a sibling board (same chip or same SM); fitted to a published curve; assumed (no source,
/// marked "Assumption:"); a setting of the model rather than a hardware figure.
inline constexpr const char* kFigureKinds[] = {"measured", "vendor",  "sibling",
                                               "fitted",   "assumed", "model"};

/// One key of a preset file.
struct PresetFigure {
  std::string key;    ///< section.key
  std::string value;  ///< as written
  std::string kind;   ///< one of kFigureKinds, or "" where no mark applies
  std::string note;   ///< the comment block above it, marks removed, lines joined
  int line = 0;       ///< its line in the file
};

/// Every key of the preset file, in file order. Throws SimError naming the file and line of an
/// unknown kind in a mark.
std::vector<PresetFigure> read_preset_figures(const std::string& file);

/// `presets --detail`: the figures as a table (key, value, kind) with each note below its row,
/// and the count of each kind.
std::string format_preset_detail(const std::string& name, const std::string& file,
                                 const std::vector<PresetFigure>& figures);

}  // namespace gms
