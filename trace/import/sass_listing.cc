#include "trace/import/sass_listing.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "trace/import/import_parse.h"
#include "trace/import/load_concurrency.h"
#include "trace/import/sass_opcode.h"

namespace gms::trace {
namespace {

using detail::trim;

/// The instruction text of a listing line (`/*0090*/  @P0 LDG.E R2, [R2.64] ;  /* 0x.. */`):
/// true and `text` (after the address, before ';') when the line starts with an address
/// comment; `terminated` says whether the ';' was there.
bool instruction_text(std::string_view line, std::string_view& text, bool& terminated) {
  line = trim(line);
  if (!line.starts_with("/*")) return false;
  std::size_t i = 2;
  while (i < line.size() && std::isxdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i == 2 || line.compare(i, 2, "*/") != 0) return false;  // an encoding word: /* 0x.. */
  line.remove_prefix(i + 2);
  const std::size_t semi = line.find(';');
  terminated = semi != std::string_view::npos;
  text = trim(line.substr(0, terminated ? semi : line.size()));
  return true;
}

bool is_predicate(std::string_view operand) {
  operand = trim(operand);
  if (operand.starts_with('!')) operand.remove_prefix(1);
  if (operand.starts_with('U')) operand.remove_prefix(1);
  if (!operand.starts_with('P') || operand.size() < 2) return false;
  if (operand == "PT") return true;
  for (const char c : operand.substr(1))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

/// The registers an operand names, appended to `out` (views of `operand`). Inside a memory
/// operand `R2.64` is the pair R2, R3: the second is appended to `owned` (the caller names it
/// once `owned` has stopped growing).
void operand_registers(std::string_view operand, std::vector<std::string_view>& out,
                       std::vector<std::string>& owned) {
  int depth = 0;
  std::size_t i = 0;
  while (i < operand.size()) {
    const char c = operand[i];
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < operand.size() &&
           (std::isalnum(static_cast<unsigned char>(operand[end])) || operand[end] == '_'))
      ++end;
    const std::string_view token = operand.substr(i, end - i);
    if (const int r = LoadConcurrency::register_index(token); r >= 0) {
      out.push_back(token);
      if (depth > 0 && r < 254 && operand.substr(end).starts_with(".64"))
        owned.push_back(fmt::format("R{}", r + 1));
    }
    i = end;
  }
}

}  // namespace

std::vector<SassFunction> read_sass_listing(std::istream& in, std::string_view source) {
  std::vector<SassFunction> functions;
  std::string arch;
  LoadConcurrency lc;
  auto finish = [&] {
    if (!functions.empty()) functions.back().loads_in_flight = lc.loads_in_flight();
  };
  std::string line;
  std::uint64_t line_no = 0;
  std::vector<std::string_view> dests, srcs;
  std::vector<std::string> owned;
  owned.reserve(8);
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // a listing saved with CRLF
    const std::string_view t = trim(line);
    if (t.starts_with("code for ")) {
      arch = std::string(trim(t.substr(9)));
      continue;
    }
    if (t.starts_with("Function :") || t.starts_with("Function:")) {
      finish();
      lc.reset();
      functions.push_back({arch, std::string(trim(t.substr(t.find(':') + 1))), 0, 0});
      if (functions.back().name.empty())
        fail("{}:{}: a Function line without a name", source, line_no);
      continue;
    }
    std::string_view text;
    bool terminated = false;
    if (!instruction_text(line, text, terminated)) continue;
    if (!terminated)
      fail("{}:{}: an instruction without its ';' (a cut or wrapped listing?)", source, line_no);
    if (functions.empty())
      fail("{}:{}: an instruction before any 'Function :' line", source, line_no);
    if (text.starts_with('@')) {  // the predicate guard reads a predicate: no dependency
      const std::size_t sp = text.find_first_of(" \t");
      text = sp == std::string_view::npos ? std::string_view{} : trim(text.substr(sp));
    }
    const std::size_t sp = text.find_first_of(" \t");
    const std::string_view opcode = text.substr(0, sp);
    const std::string_view operands = sp == std::string_view::npos ? "" : text.substr(sp + 1);
    if (opcode.empty()) fail("{}:{}: an instruction without an opcode", source, line_no);

    const detail::SassAccess acc = detail::classify_sass(opcode);
    std::uint32_t load_bytes = 0;
    if (acc.kind == detail::SassKind::GenericLoad ||
        (acc.kind == detail::SassKind::Memory && !is_store(acc.op) && !is_shared(acc.op)))
      load_bytes = acc.size;
    dests.clear();
    srcs.clear();
    owned.clear();
    // A load writes its first operand that is neither a predicate nor a memory operand.
    bool dest_seen = load_bytes == 0;
    std::size_t pos = 0;
    while (pos <= operands.size()) {
      const std::size_t comma = std::min(operands.find(',', pos), operands.size());
      const std::string_view operand = trim(operands.substr(pos, comma - pos));
      pos = comma + 1;
      if (operand.empty()) continue;
      if (!dest_seen && !is_predicate(operand) && operand.find('[') == std::string_view::npos) {
        dest_seen = true;
        operand_registers(operand, dests, owned);
      } else {
        operand_registers(operand, srcs, owned);
      }
    }
    for (const std::string& r : owned) srcs.push_back(r);
    if (load_bytes != 0 && !dests.empty()) ++functions.back().loads;
    lc.instruction(0, dests, srcs, load_bytes);
  }
  finish();
  if (functions.empty()) fail("{}: no 'Function :' line: not a SASS listing", source);
  return functions;
}

}  // namespace gms::trace
