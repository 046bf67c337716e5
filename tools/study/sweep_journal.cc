// The resumable sweep's journal: a fingerprint written once (atomically), then one appended,
// synced entry per finished point; reading it back drops a last entry cut short by a kill.
#include "tools/study/sweep_journal.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include "sim/core/error.h"
#include "sim/report/tidy_csv.h"
#include "trace/io/atomic_file.h"

namespace gms {

namespace {

constexpr std::string_view kJournalMagic = "# gpumemsim sweep journal 1";
constexpr std::string_view kEnd = "# end";

/// The journal's header: the magic line, the fingerprint lines prefixed with "# ", the end line.
std::string journal_header(const std::string& fingerprint) {
  std::string out = std::string(kJournalMagic) + "\n";
  std::size_t start = 0;
  while (start < fingerprint.size()) {
    std::size_t end = fingerprint.find('\n', start);
    if (end == std::string::npos) end = fingerprint.size();
    out += "# " + fingerprint.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out + std::string(kEnd) + "\n";
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

/// Parses "point P BYTES"; false when the line is not one.
bool parse_entry_line(std::string_view line, std::size_t& point, std::size_t& bytes) {
  constexpr std::string_view kPoint = "point ";
  if (!line.starts_with(kPoint)) return false;
  line.remove_prefix(kPoint.size());
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos) return false;
  const char* end = line.data() + line.size();
  const auto a = std::from_chars(line.data(), line.data() + space, point);
  const auto b = std::from_chars(line.data() + space + 1, end, bytes);
  return a.ec == std::errc{} && a.ptr == line.data() + space && b.ec == std::errc{} &&
         b.ptr == end && space > 0 && space + 1 < line.size();
}

}  // namespace

SweepJournal::~SweepJournal() {
  if (file_ != nullptr) std::fclose(file_);
}

void SweepJournal::start(const std::string& fingerprint, std::size_t points) {
  namespace fs = std::filesystem;
  const std::string header = journal_header(fingerprint);
  std::error_code ec;
  if (!fs::exists(path_, ec)) {
    trace::write_file_atomically(path_, header);  // a journal without its whole header never exists
  } else {
    const std::string text = read_text_file(path_);
    if (!text.starts_with(std::string(kJournalMagic) + "\n"))
      fail("{}: not a gpumemsim sweep journal (its first line is not '{}'); remove it", path_,
           kJournalMagic);
    if (!text.starts_with(header)) {
      const auto have = lines_of(text), want = lines_of(header);
      std::size_t i = 0;
      while (i < have.size() && i < want.size() && have[i] == want[i]) ++i;
      const std::string_view was = i < have.size() ? have[i] : "(end of file)";
      const std::string_view now = i < want.size() ? want[i] : "(nothing)";
      fail(
          "sweep --resume: {} was written by a different sweep (the command, a configuration or "
          "a trace changed): line {} is '{}' there but '{}' now; remove it to start over",
          path_, i + 1, was.substr(0, 200), now.substr(0, 200));
    }
    std::size_t pos = header.size(), good = pos;
    for (;;) {
      good = pos;
      const std::size_t nl = text.find('\n', pos);
      if (nl == std::string::npos) break;  // nothing more, or an entry line cut short
      std::size_t point = 0, bytes = 0;
      if (!parse_entry_line(std::string_view(text).substr(pos, nl - pos), point, bytes) ||
          point >= points)
        fail("{}: damaged at byte {} (expected 'point P BYTES' with P < {}); remove it", path_, pos,
             points);
      if (text.size() - (nl + 1) < bytes) break;  // the rows were cut short by a kill
      const std::string rows = text.substr(nl + 1, bytes);
      const std::string lead = fmt::format("{},", point);
      for (std::string_view row : lines_of(rows))
        if (!row.starts_with(lead))
          fail("{}: damaged at byte {} (a row of point {} does not start with '{}'); remove it",
               path_, nl + 1, point, lead);
      if (!rows.empty() && rows.back() != '\n')
        fail("{}: damaged at byte {} (point {}'s rows do not end a line); remove it", path_, nl + 1,
             point);
      done_.emplace(point, rows);
      pos = nl + 1 + bytes;
    }
    if (good < text.size() && ::truncate(path_.c_str(), static_cast<off_t>(good)) != 0)
      fail("{}: cannot cut off its unfinished last entry: {}", path_, std::strerror(errno));
  }
  file_ = std::fopen(path_.c_str(), "ab");
  if (file_ == nullptr) fail("{}: cannot open for writing: {}", path_, std::strerror(errno));
}

void SweepJournal::record(std::size_t point, const std::string& rows) {
  const std::string entry = fmt::format("point {} {}\n", point, rows.size()) + rows;
  const std::lock_guard lock(mutex_);
  if (file_ == nullptr) fail("{}: record before start", path_);
  if (std::fwrite(entry.data(), 1, entry.size(), file_) != entry.size() ||
      std::fflush(file_) != 0 || ::fdatasync(::fileno(file_)) != 0)
    fail("{}: write error: {}", path_, std::strerror(errno));
}

void SweepJournal::remove() {
  const std::lock_guard lock(mutex_);
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

}  // namespace gms
