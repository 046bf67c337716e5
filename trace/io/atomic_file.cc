// Crash-safe output files: a temporary beside the target, renamed into place when complete, and
// signal handlers that remove the temporaries still open. The handlers touch only a fixed table
// of path buffers and lock-free atomics, and call only unlink, signal and raise
// (async-signal-safe).
#include "trace/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "sim/core/error.h"

namespace gms::trace {

namespace {

// Temporaries the signal handler removes: state 0 = free, 1 = being filled, 2 = live.
constexpr int kSlots = 64;
constexpr std::size_t kSlotPathBytes = 4096;
struct TempSlot {
  std::atomic<int> state{0};
  char path[kSlotPathBytes];
};
TempSlot g_slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free);

std::atomic<int> g_stop_scopes{0};
std::atomic<int> g_stop_signal{0};
std::once_flag g_installed;

/// Records `path` for the signal handler; -1 when the table is full or the path too long (the
/// temporary is then still removed on every path but a signal).
int register_temp(const std::string& path) {
  if (path.size() >= kSlotPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(2, std::memory_order_release);
    return i;
  }
  return -1;
}

void release_temp(int slot) {
  if (slot >= 0) g_slots[slot].state.store(0, std::memory_order_release);
}

extern "C" void on_stop_signal(int sig) {
  if (g_stop_scopes.load() > 0) {
    int expected = 0;
    if (g_stop_signal.compare_exchange_strong(expected, sig)) return;  // the first one: a request
  }
  for (TempSlot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == 2) ::unlink(s.path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);  // delivered when the handler returns: the process ends by this signal
}

/// Installs `handler` for `sig` only where the signal still has its default action (a signal the
/// parent ignores, such as SIGINT under nohup, stays ignored).
void install_if_default(int sig, void (*handler)(int)) {
  struct sigaction old {};
  if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) return;
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(sig, &sa, nullptr);
}

[[noreturn]] void fail_errno(const std::string& path, const char* what, int err) {
  fail("{}: {}: {}", path, what, std::strerror(err));
}

}  // namespace

void install_output_signal_handlers() {
  std::call_once(g_installed, [] {
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) install_if_default(sig, on_stop_signal);
    install_if_default(SIGXFSZ, SIG_IGN);
  });
}

std::string atomic_temp_name(const std::string& path, long pid) {
  const std::filesystem::path p(path);
  const std::string name = fmt::format(".{}.tmp.{}", p.filename().string(), pid);
  return (p.parent_path() / name).string();
}

AtomicOutputFile::AtomicOutputFile(std::string path) : path_(std::move(path)) {
  install_output_signal_handlers();
  // Only a regular file (or a new one) is replaced. A symbolic link is followed, so that the
  // link stays and its target is replaced (-o /dev/stdout is not turned into a file); a device
  // or a pipe (-o /dev/null) cannot be half-written and is written directly.
  std::string target = path_;
  struct stat st {};
  if (::lstat(target.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const std::filesystem::path resolved = std::filesystem::canonical(target, ec);
    if (!ec) target = resolved.string();
  }
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    file_ = std::fopen(target.c_str(), "wb");
    if (file_ == nullptr) fail_errno(path_, "cannot open for writing", errno);
    return;
  }
  target_ = target;
  const std::string base = atomic_temp_name(target_, static_cast<long>(::getpid()));
  int fd = -1;
  for (int n = 0; fd < 0; ++n) {
    temp_ = n == 0 ? base : base + "." + std::to_string(n);
    // Registered before it exists, so that no signal can come between its creation and its
    // registration (unlinking a name that is not there yet does nothing).
    slot_ = register_temp(temp_);
    fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) break;
    const int err = errno;
    release_temp(slot_);
    slot_ = -1;
    if (err != EEXIST || n >= 100) {
      temp_.clear();
      fail_errno(path_, "cannot open for writing", err);
    }
  }
  file_ = ::fdopen(fd, "wb");
  if (file_ == nullptr) {
    const int err = errno;
    ::close(fd);
    discard();
    fail_errno(path_, "cannot open for writing", err);
  }
}

AtomicOutputFile::~AtomicOutputFile() {
  if (!committed_) discard();
}

void AtomicOutputFile::discard() noexcept {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  release_temp(slot_);
  slot_ = -1;
}

void AtomicOutputFile::write(const void* src, std::size_t n) {
  if (committed_ || file_ == nullptr) fail("{}: write after commit", path_);
  if (n != 0 && std::fwrite(src, 1, n, file_) != n) {
    const int err = errno;
    discard();
    fail_errno(path_, "write error", err);
  }
}

void AtomicOutputFile::commit() {
  if (committed_) return;
  if (file_ == nullptr) fail("{}: commit after an error", path_);
  auto check = [&](bool ok, const char* what) {
    if (ok) return;
    const int err = errno;
    discard();
    fail_errno(path_, what, err);
  };
  check(std::fflush(file_) == 0, "write error");
  if (temp_.empty()) {  // a device: nothing to rename
    check(std::fclose(file_) == 0, "write error");
    file_ = nullptr;
    committed_ = true;
    return;
  }
  check(::fsync(::fileno(file_)) == 0, "write error (fsync)");
  const int rc = std::fclose(file_);
  file_ = nullptr;
  check(rc == 0, "write error");
  check(::rename(temp_.c_str(), target_.c_str()) == 0,
        "cannot rename the finished file into place");
  committed_ = true;
  release_temp(slot_);
  slot_ = -1;
}

void write_file_atomically(const std::string& path, std::string_view text) {
  AtomicOutputFile out(path);
  out.write(text.data(), text.size());
  out.commit();
}

StopRequestScope::StopRequestScope() {
  install_output_signal_handlers();
  g_stop_scopes.fetch_add(1);
}

StopRequestScope::~StopRequestScope() {
  g_stop_scopes.fetch_sub(1);
}

int stop_requested() {
  return g_stop_signal.load();
}

}  // namespace gms::trace
