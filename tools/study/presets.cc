#include "tools/study/presets.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string_view>

#include "sim/core/error.h"

#ifndef GMS_PRESET_INSTALL_DIR
#define GMS_PRESET_INSTALL_DIR "share/gpumemsim/presets"
#endif
#ifndef GMS_DOC_INSTALL_DIR
#define GMS_DOC_INSTALL_DIR "share/doc/gpumemsim"
#endif

namespace gms {

namespace fs = std::filesystem;

std::vector<std::string> preset_dirs(const std::vector<std::string>& own) {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("GPUMEMSIM_PRESETS"); env != nullptr && *env != '\0') {
    std::string_view rest = env;
    while (!rest.empty()) {
      const std::size_t colon = rest.find(':');
      if (colon != 0) dirs.emplace_back(rest.substr(0, colon));
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
    return dirs;
  }
  dirs = own;
  dirs.emplace_back("configs");
  return dirs;
}

std::vector<std::string> program_preset_dirs(const std::string& program) {
  std::vector<std::string> dirs;
  if (program.empty()) return dirs;
  const fs::path bin = fs::path(program).parent_path();
  std::error_code ec;
  for (const fs::path& p : {bin / "configs", bin.parent_path() / "configs"}) {
    if (fs::is_directory(p, ec)) {
      dirs.push_back(p.lexically_normal().string());
      break;
    }
  }
  const fs::path data = bin.parent_path() / GMS_PRESET_INSTALL_DIR;
  if (fs::is_directory(data, ec)) dirs.push_back(data.lexically_normal().string());
  return dirs;
}

std::string program_hardware_notes(const std::string& program) {
  if (program.empty()) return "";
  const fs::path bin = fs::path(program).parent_path();
  std::error_code ec;
  for (const fs::path& p : {bin / "docs/hardware.md", bin.parent_path() / "docs/hardware.md",
                            bin.parent_path() / GMS_DOC_INSTALL_DIR / "hardware.md"})
    if (fs::is_regular_file(p, ec)) return p.lexically_normal().string();
  return "";
}

std::string current_program() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

std::string find_preset(const std::string& name, const std::vector<std::string>& dirs) {
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) return name;
  for (const std::string& d : dirs) {
    const fs::path p = fs::path(d) / (name + ".ini");
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  std::string known;
  for (const PresetInfo& p : list_presets(dirs)) known += (known.empty() ? "" : ", ") + p.name;
  std::string searched;
  for (const std::string& d : dirs) searched += (searched.empty() ? "" : ", ") + d;
  fail("preset '{}': no such file, and no preset of that name (known presets: {}; searched {})",
       name, known.empty() ? "none" : known, searched.empty() ? "no folder" : searched);
}

namespace {

/// Fills `info` from the file's leading comment ("# BOARD (CHIP, ...). Sources: WHERE; ...")
/// and counts the values marked "Assumption:" below it.
void read_header(PresetInfo& info) {
  std::ifstream in(info.file);
  std::string header, line;
  bool in_header = true;
  while (std::getline(in, line)) {
    const bool comment = line.starts_with('#');
    if (in_header && comment) {
      const std::size_t text = std::min(line.find_first_not_of("# "), line.size());
      if (!header.empty()) header += ' ';
      header.append(line, text);
      continue;
    }
    in_header = false;
    for (std::size_t at = line.find("Assumption:"); comment && at != std::string::npos;
         at = line.find("Assumption:", at + 1))
      ++info.assumptions;
  }
  const std::size_t close = header.find(')');
  const std::size_t stop = close != std::string::npos ? close + 1 : header.find_first_of(".:");
  info.gpu = header.substr(0, std::min(stop, header.size()));
  if (const std::size_t s = header.find("Sources:"); s != std::string::npos) {
    const std::size_t from = s + std::string_view("Sources:").size() + 1;
    const std::size_t end = header.find(';', from);
    info.sources = header.substr(std::min(from, header.size()),
                                 end == std::string::npos ? std::string::npos : end - from);
  }
}

}  // namespace

std::vector<PresetInfo> list_presets(const std::vector<std::string>& dirs) {
  std::vector<PresetInfo> out;
  std::set<std::string> seen;
  for (const std::string& d : dirs) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::directory_iterator(d, ec))
      if (e.path().extension() == ".ini" && e.is_regular_file(ec)) files.push_back(e.path());
    for (const fs::path& f : files) {
      PresetInfo info;
      info.name = f.stem().string();
      if (!seen.insert(info.name).second) continue;
      info.file = f.string();
      read_header(info);
      out.push_back(std::move(info));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const PresetInfo& a, const PresetInfo& b) { return a.name < b.name; });
  return out;
}

std::string format_preset_table(const std::vector<PresetInfo>& presets,
                                const std::vector<std::string>& dirs, const std::string& notes) {
  std::size_t name_w = 4, gpu_w = 3;
  for (const PresetInfo& p : presets) {
    name_w = std::max(name_w, p.name.size());
    gpu_w = std::max(gpu_w, p.gpu.size());
  }
  std::string out = fmt::format("{:<{}}  {:<{}}  {:>11}  {}\n", "name", name_w, "GPU", gpu_w,
                                "assumptions", "sources");
  for (const PresetInfo& p : presets)
    out += fmt::format("{:<{}}  {:<{}}  {:>11}  {}\n", p.name, name_w, p.gpu, gpu_w, p.assumptions,
                       p.sources);
  out += "\nsearched, in order (GPUMEMSIM_PRESETS replaces them):\n";
  for (const std::string& d : dirs) out += "  " + d + "\n";
  out += "\nhardware notes (each preset's figures and their sources):\n";
  out += notes.empty() ? "  not found next to the program (docs/hardware.md of the source tree)\n"
                       : "  " + notes + "\n";
  return out;
}

}  // namespace gms
