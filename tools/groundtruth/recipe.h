#pragma once
/// Recipes: how a trace too large to store (compressed size over 1 MiB) is kept. The capture
/// writes <id>-<name>.recipe instead of the trace:
///
///   # comment lines
///   kernel_line=#kernel id=30 name=stream_s1 grid=1024,1,1 ... base0=0x7f...
///   sm_of_cta=3,5,...          the SM of each CTA as the GPU ran it ("-" entries: unknown)
///   records=2097152
///   text_bytes=...
///   sha256=<hex of the captured wtrace text>
///
/// regenerate() rebuilds the exact text from the kernel model (kernel_model.h) and the base
/// addresses of the kernel line; its SHA-256 must equal the recorded one. Plain C++20.

#include <cstdint>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tools/capture/sha256.h"
#include "tools/capture/wtrace_host.h"
#include "tools/groundtruth/kernel_model.h"

namespace gms::groundtruth {

struct Recipe {
  std::string kernel_line;  ///< without the newline
  std::vector<std::uint32_t> sm_of_cta;
  std::uint64_t records = 0;
  std::uint64_t text_bytes = 0;
  std::string sha256;
};

inline Recipe parse_recipe(std::istream& in, const std::string& source) {
  Recipe r;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw std::runtime_error(source + ": malformed line: " + line);
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "kernel_line") {
      r.kernel_line = value;
    } else if (key == "sm_of_cta") {
      std::stringstream ss(value);
      std::string item;
      while (std::getline(ss, item, ','))
        r.sm_of_cta.push_back(item == "-" ? capture::kUnknownSm
                                          : static_cast<std::uint32_t>(std::stoul(item)));
    } else if (key == "records") {
      r.records = std::stoull(value);
    } else if (key == "text_bytes") {
      r.text_bytes = std::stoull(value);
    } else if (key == "sha256") {
      r.sha256 = value;
    }
  }
  if (r.kernel_line.rfind("#kernel ", 0) != 0 || r.sha256.size() != 64)
    throw std::runtime_error(source + ": not a recipe (kernel_line or sha256 missing)");
  return r;
}

/// The value of `key=` in a `#kernel` line; "" when absent.
inline std::string kernel_key(std::string_view kernel_line, std::string_view key) {
  std::size_t pos = 0;
  while (pos < kernel_line.size()) {
    const std::size_t end = std::min(kernel_line.find(' ', pos), kernel_line.size());
    const std::string_view tok = kernel_line.substr(pos, end - pos);
    if (tok.size() > key.size() && tok.substr(0, key.size()) == key && tok[key.size()] == '=')
      return std::string(tok.substr(key.size() + 1));
    pos = end + 1;
  }
  return "";
}

/// Regenerates the trace text of a recipe, in chunks passed to `sink`; returns its SHA-256, or ""
/// without `digest` (hashing was over half the time of a regeneration piped into a replay, whose
/// text GroundtruthRecipes checks with this same code).
inline std::string regenerate(const Recipe& r, const std::function<void(std::string_view)>& sink,
                              bool digest = true) {
  const std::string id = kernel_key(r.kernel_line, "id");
  const KernelSpec* spec = id.empty() ? nullptr : find_spec(std::stoi(id));
  if (spec == nullptr) throw std::runtime_error("recipe names an unknown kernel id '" + id + "'");
  std::vector<std::uint64_t> bases;
  for (int i = 0;; ++i) {
    const std::string b = kernel_key(r.kernel_line, "base" + std::to_string(i));
    if (b.empty()) break;
    bases.push_back(std::stoull(b, nullptr, 16));
  }
  if (static_cast<int>(bases.size()) != base_count(spec->family))
    throw std::runtime_error("recipe of kernel " + id + " has the wrong number of bases");
  capture::Sha256 sha;
  std::string chunk = capture::wtrace_magic() + r.kernel_line + "\n";
  generate_records(*spec, bases, r.sm_of_cta, [&](const capture::CaptureRecord& rec) {
    capture::append_record_line(rec, chunk);
    if (chunk.size() > (1u << 20)) {
      if (digest) sha.update(chunk);
      sink(chunk);
      chunk.clear();
    }
  });
  if (digest) sha.update(chunk);
  sink(chunk);
  return digest ? sha.hex_digest() : "";
}

}  // namespace gms::groundtruth
