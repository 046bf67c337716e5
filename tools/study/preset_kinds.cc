#include "tools/study/preset_kinds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>

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

/// A `{kind}` or `{key: kind}` mark: a word of lowercase letters in braces, optionally after a
/// key name (lowercase letters, digits, '_'), a colon and spaces.
struct Mark {
  std::size_t length = 0;  ///< 0: the braces at that place hold no mark
  std::string key, kind;   ///< key empty for `{kind}`
};

/// The mark that starts at text[pos] (a '{'), if any. Written out rather than with std::regex,
/// whose GCC 12 headers warn (maybe-uninitialized) at -O1, which CI's sanitizer build uses.
Mark mark_at(const std::string& text, std::size_t pos) {
  const auto key_char = [](char c) {
    return std::islower(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  };
  const auto kind_char = [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; };
  // A run of `ok` characters from i; returns its end.
  const auto run = [&](std::size_t i, auto ok) {
    while (i < text.size() && ok(text[i])) ++i;
    return i;
  };
  const auto kind_then_brace = [&](std::size_t from, std::string key) -> Mark {
    const std::size_t end = run(from, kind_char);
    if (end == from || end >= text.size() || text[end] != '}') return {};
    return {end + 1 - pos, std::move(key), text.substr(from, end - from)};
  };
  const std::size_t key_end = run(pos + 1, key_char);
  if (key_end > pos + 1 && key_end < text.size() && text[key_end] == ':') {
    const std::size_t kind_start =
        run(key_end + 1, [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
    Mark m = kind_then_brace(kind_start, text.substr(pos + 1, key_end - pos - 1));
    if (m.length != 0) return m;
  }
  return kind_then_brace(pos + 1, "");
}

}  // namespace

std::vector<PresetFigure> read_preset_figures(const std::string& file) {
  std::ifstream in(file);
  if (!in) fail("{}: cannot read the preset", file);
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
      // The marks (Mark), each taken out of the note's text.
      const std::string raw = t.substr(1);
      std::string text;
      for (std::size_t i = 0; i < raw.size();) {
        const Mark m = raw[i] == '{' ? mark_at(raw, i) : Mark{};
        if (m.length == 0) {
          text += raw[i++];
          continue;
        }
        i += m.length;
        if (!known_kind(m.kind)) continue;  // prose in braces, not a mark
        if (!m.key.empty())
          overrides[m.key] = m.kind;
        else
          block_kind = m.kind;
      }
      text = trim(text);
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
