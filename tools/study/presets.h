#pragma once
/// Presets by name: where `--config NAME` (run, sweep, compare, validate), `--vary preset=...`
/// and the Python module look for NAME.ini, and the listing `gpumemsim presets` prints.
///
///   const auto dirs = preset_dirs(program_preset_dirs("/usr/bin/gpumemsim"));
///   const std::string file = find_preset("volta-v100", dirs);  // /usr/share/gpumemsim/presets/...

#include <string>
#include <vector>

namespace gms {

/// The folders searched for presets, in order: GPUMEMSIM_PRESETS (folders separated by ':'),
/// when set and not empty, replaces them all; otherwise `own` (the caller's: the program's
/// program_preset_dirs(), the Python module's data folder), then `./configs`.
std::vector<std::string> preset_dirs(const std::vector<std::string>& own);

/// The program's own folders: next to it (`configs/` in its folder or the parent:
/// build/gpumemsim finds the source tree's configs/), then the install's data folder
/// (`../share/gpumemsim/presets` from its folder, so an installed tree may move), each only
/// where it exists.
std::vector<std::string> program_preset_dirs(const std::string& program);

/// The program's hardware notes (docs/hardware.md: every preset's figures and their sources),
/// found as its presets are: `docs/hardware.md` in its folder or the parent (build/gpumemsim finds
/// the source tree's), else the install's doc folder (`../share/doc/gpumemsim/hardware.md` from
/// its folder); "" when neither exists.
std::string program_hardware_notes(const std::string& program);

/// The running program's path (/proc/self/exe), "" when it cannot be read.
std::string current_program();

/// `name` itself when it is an existing file; otherwise NAME.ini from the first folder of `dirs`
/// that holds it. Throws SimError naming the preset, the known names and the folders searched.
std::string find_preset(const std::string& name, const std::vector<std::string>& dirs);

/// One preset of the listing.
struct PresetInfo {
  std::string name;     ///< file name without .ini; the first folder holding it wins
  std::string file;     ///< its path
  std::string gpu;      ///< the header comment's board and chip ("NVIDIA Tesla V100 ... (...)")
  std::string sources;  ///< what the header says the values come from
  unsigned assumptions = 0;  ///< values marked "Assumption:" (no source gives them)
};

/// Every NAME.ini of `dirs`, sorted by name (a name found again in a later folder is skipped).
std::vector<PresetInfo> list_presets(const std::vector<std::string>& dirs);

/// The listing as a table: name, GPU, assumptions, sources; then the folders searched and where
/// the hardware notes the sources column points into are (`notes`, program_hardware_notes(); ""
/// when there are none).
std::string format_preset_table(const std::vector<PresetInfo>& presets,
                                const std::vector<std::string>& dirs, const std::string& notes);

}  // namespace gms
