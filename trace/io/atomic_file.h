#pragma once
/// Crash-safe output files. Every file gpumemsim writes is written under a temporary name in the
/// same folder, `.NAME.tmp.PID` (hidden, and not ending in NAME's extension, so it never looks
/// like a finished output), then flushed, fsync'ed and renamed onto NAME by commit(). A file
/// that is not committed (an error, an exception) is removed by the destructor. A symbolic
/// link is followed (its target is replaced, the link stays); a device or a pipe (/dev/null)
/// is written directly, never replaced.
///
///   AtomicOutputFile out("report.json");
///   out.write(text.data(), text.size());
///   out.commit();  // report.json appears, complete, or not at all
///
/// Signals: the first AtomicOutputFile installs handlers for SIGTERM, SIGINT and SIGHUP (where
/// they are not ignored) that remove every temporary still open and then end the process by the
/// same signal (status 128 + signal in a shell). SIGKILL cannot be caught: it leaves at most the
/// temporary, which does not look finished. SIGXFSZ (a `ulimit -f` limit) is ignored, so that a
/// write past the limit fails like a full disk, with an error, instead of killing the process.
///
/// A StopRequestScope changes the first SIGTERM/SIGINT: while one is alive the signal only sets
/// stop_requested(), so that a long computation (a sweep) can end cleanly after its current step;
/// a second signal ends the process as above.

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace gms::trace {

class AtomicOutputFile {
 public:
  /// Creates the temporary beside `path`; throws SimError "<path>: cannot open for writing: ..."
  explicit AtomicOutputFile(std::string path);
  /// Closes and removes the temporary unless commit() succeeded.
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  /// The open temporary, for writers that use stdio directly. Do not close it.
  std::FILE* stream() const { return file_; }
  /// Appends `n` bytes; throws SimError "<path>: write error: ..." (a full disk, a size limit).
  void write(const void* src, std::size_t n);
  /// Flushes, fsyncs, closes and renames the temporary onto the path. Throws SimError naming the
  /// path on any failure, after removing the temporary. Idempotent once it has succeeded.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_; }

 private:
  void discard() noexcept;

  std::string path_;    // as given, for messages
  std::string target_;  // what is replaced: path_, or the file a symbolic link names
  std::string temp_;
  std::FILE* file_ = nullptr;
  int slot_ = -1;  // signal handler registry slot holding temp_
  bool committed_ = false;
};

/// Writes `text` to `path` through an AtomicOutputFile.
void write_file_atomically(const std::string& path, std::string_view text);

/// The temporary name used for `path`: DIR/.NAME.tmp.PID (exposed for tests).
std::string atomic_temp_name(const std::string& path, long pid);

/// Installs the signal handlers described above (idempotent; AtomicOutputFile and
/// StopRequestScope call it).
void install_output_signal_handlers();

/// While alive, the first SIGTERM or SIGINT sets stop_requested() instead of ending the process.
class StopRequestScope {
 public:
  StopRequestScope();
  ~StopRequestScope();
  StopRequestScope(const StopRequestScope&) = delete;
  StopRequestScope& operator=(const StopRequestScope&) = delete;
};

/// The signal that asked a StopRequestScope to stop (SIGTERM or SIGINT), 0 when none did.
int stop_requested();

}  // namespace gms::trace
