#include "tools/study/preset_kinds.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>

#include "sim/core/error.h"

namespace gms {

namespace {

bool known_kind(const std::string& k) {
  return std::find(std::begin(kFigureKinds), std::end(kFigureKinds), k) != std::end(kFigureKinds);
}

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

std::vector<PresetFigure> read_preset_figures(const std::string& file) {
  std::ifstream in(file);
  if (!in) fail("{}: cannot read the preset", file);
  // `{kind}` or `{key: kind}`: a word in braces, optionally after a key name and a colon.
  static const std::regex mark(R"(\{(?:([a-z0-9_]+):\s*)?([a-z]+)\})");
  std::vector<PresetFigure> out;
  std::string section, line, note, block_kind;
  std::map<std::string, std::string> overrides;
  bool in_block = false, header = true;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string t = trim(line);
    if (t.starts_with('#')) {
      if (header) continue;  // the file's leading comment describes the preset, not a key
      if (!in_block) {
        note.clear();
        block_kind.clear();
        overrides.clear();
        in_block = true;
      }
      std::string text = t.substr(1);
      for (std::sregex_iterator it(text.begin(), text.end(), mark), end; it != end; ++it) {
        const std::string kind = (*it)[2];
        if (!known_kind(kind)) continue;  // prose in braces, not a mark
        if ((*it)[1].matched)
          overrides[(*it)[1]] = kind;
        else
          block_kind = kind;
      }
      text = trim(std::regex_replace(text, mark, ""));
      if (!text.empty()) note += (note.empty() ? "" : " ") + text;
      continue;
    }
    in_block = false;
    if (t.empty()) continue;
    if (t.starts_with('[')) {
      header = false;
      section = t.substr(1, t.find(']') - 1);
      note.clear();
      block_kind.clear();
      overrides.clear();
      continue;
    }
    const std::size_t eq = t.find('=');
    if (eq == std::string::npos) continue;  // the config loader reports malformed lines
    PresetFigure f;
    const std::string key = trim(t.substr(0, eq));
    f.key = section + "." + key;
    f.value = trim(t.substr(eq + 1));
    const auto o = overrides.find(key);
    f.kind = o != overrides.end() ? o->second : block_kind;
    f.note = note;
    f.line = n;
    out.push_back(std::move(f));
  }
  return out;
}

std::string format_preset_detail(const std::string& name, const std::string& file,
                                 const std::vector<PresetFigure>& figures) {
  std::size_t key_w = 3, value_w = 5;
  std::map<std::string, unsigned> count;
  for (const PresetFigure& f : figures) {
    key_w = std::max(key_w, f.key.size());
    value_w = std::max(value_w, f.value.size());
    ++count[f.kind.empty() ? "unmarked" : f.kind];
  }
  std::string out = fmt::format("preset {} ({})\n", name, file);
  out += "how sure each figure is:";
  for (const char* k : kFigureKinds) out += fmt::format(" {} {},", k, count[k]);
  out += fmt::format(" unmarked {}\n\n", count["unmarked"]);
  out += fmt::format("{:<{}}  {:<{}}  {:<8}  source\n", "key", key_w, "value", value_w, "kind");
  for (const PresetFigure& f : figures)
    out += fmt::format("{:<{}}  {:<{}}  {:<8}  {}\n", f.key, key_w, f.value, value_w,
                       f.kind.empty() ? "unmarked" : f.kind, f.note);
  return out;
}

}  // namespace gms
