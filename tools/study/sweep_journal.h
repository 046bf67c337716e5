#pragma once
/// The journal of a resumable sweep (`gpumemsim sweep --resume -o OUT`): OUT.journal, beside the
/// output, holds the rows of every point finished so far, appended (and fdatasync'ed) as each
/// point ends, under a fingerprint of the sweep. A restarted sweep with the same fingerprint
/// skips the points it finds there and writes the same bytes as an uninterrupted one; a sweep
/// with another fingerprint is refused. The journal is removed once OUT is written.
///
/// The fingerprint is text, compared line by line (so a refusal can say what changed), not a
/// hash: the sweep's CSV header (traces, mode, varied values, shard, the base configuration),
/// every configuration's effective keys (so an edited preset file counts), and each trace's
/// path, size and modification time (not its content: reading a large trace twice would cost
/// as much as a point).
///
/// File layout: the line "# gpumemsim sweep journal 1", the fingerprint lines (each starting with
/// "# "), "# end", then entries "point P BYTES\n" followed by BYTES bytes of CSV rows. A kill in
/// the middle of an append leaves a short last entry, which is dropped (and cut off) on resume.

#include <cstddef>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

namespace gms {

class SweepJournal {
 public:
  /// Names the journal; nothing is opened until start().
  explicit SweepJournal(std::string path) : path_(std::move(path)) {}
  ~SweepJournal();
  SweepJournal(const SweepJournal&) = delete;
  SweepJournal& operator=(const SweepJournal&) = delete;

  /// Opens the journal for a sweep of `points` points with `fingerprint` (creating it when
  /// absent) and reads the finished points. Throws SimError when it holds another sweep's
  /// fingerprint (naming the first line that differs) or is damaged before its last entry.
  void start(const std::string& fingerprint, std::size_t points);

  /// Rows of the points finished by earlier runs, by point.
  const std::map<std::size_t, std::string>& done() const { return done_; }

  /// Appends a finished point (thread-safe); the entry is on disk when this returns.
  void record(std::size_t point, const std::string& rows);

  /// Closes and deletes the journal (after the output is in place).
  void remove();

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::map<std::size_t, std::string> done_;
  std::mutex mutex_;
};

}  // namespace gms
