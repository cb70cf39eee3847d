#include "cli/output_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include "common/error.h"
#include "common/launcher_rank.h"
#include "common/safe_file.h"
#include "common/version.h"
#include "output/reporters.h"

namespace ompscope::cli {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> report_file_names() {
  std::vector<std::string> names;
  for (const output::Reporter& r : output::reporters()) names.emplace_back(r.file);
  return names;
}

bool directory_is_empty(const fs::path& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw Error(fmt::format("{}: cannot be read: {}", dir.string(), ec.message()));
  return it == fs::directory_iterator();
}

// The marker, created with O_EXCL|O_NOFOLLOW: where another rank of the same job made it first,
// its marker stands.
void write_marker(const fs::path& dir, const std::string& command) {
  const fs::path marker = dir / kMarkerFileName;
  const int fd = open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    if (errno == EEXIST && has_marker(dir)) return;
    throw Error(fmt::format("cannot write {}: {}", marker.string(), std::strerror(errno)));
  }
  const std::time_t now = std::time(nullptr);
  char when[32] = "";
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  const std::string text = fmt::format(
      "ompscope {}\nmade by: ompscope {} (pid {}) at {}\n"
      "ompscope writes here only: runs/, {}, trace/, trace.json, rank-N/ and its dot files; it never touches "
      "anything else (docs/safety.md)\n",
      kVersion, command, getpid(), when, fmt::join(report_file_names(), ", "));
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  if (!ok) throw Error(fmt::format("cannot write {} (disk full?)", marker.string()));
}

// DIR made here or adopted empty, with its marker; or DIR already ompscope's. Refuses the rest.
void claim_directory(const fs::path& dir, const std::string& command) {
  std::error_code ec;
  if (dir.has_parent_path() && !dir.parent_path().empty()) fs::create_directories(dir.parent_path(), ec);
  if (mkdir(dir.c_str(), 0777) == 0) {
    write_marker(dir, command);
    return;
  }
  if (errno != EEXIST) throw Error(fmt::format("cannot create {}: {}", dir.string(), std::strerror(errno)));
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw Error(fmt::format("{} exists and is not a directory: choose another with -o", dir.string()));
  if (has_marker(dir)) return;
  struct stat marker {};
  if (lstat((dir / kMarkerFileName).c_str(), &marker) == 0)
    throw Error(fmt::format("{}/{} is not ompscope's marker (not a regular file): choose another directory with -o",
                            dir.string(), kMarkerFileName));
  // Not empty: the marker may have come since it was looked for, made by another rank of the same
  // job, started at the same moment (`mpiexec -np 2 ompscope profile -o DIR`: the marker is the
  // first thing a claim writes, so a directory that is not empty now has it, or is not ours).
  if (!directory_is_empty(dir) && !has_marker(dir))
    throw Error(fmt::format("{} is not empty and ompscope did not make it (no {} marker there): ompscope writes "
                            "only into a new or empty directory; choose another with -o",
                            dir.string(), kMarkerFileName));
  write_marker(dir, command);  // an empty directory is adopted (or the other rank's marker stands)
}

// The run's lock on DIR/.ompscope.lock: a POSIX record lock, so that a refused run can name the
// holder's pid (F_GETLK); released when this process ends, however it ends.
int take_lock(const fs::path& dir, bool exclusive) {
  const fs::path file = dir / kLockFileName;
  const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(fmt::format("cannot open {}: {}", file.string(), std::strerror(errno)));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    throw Error(fmt::format("{} is not a regular file: choose another directory with -o", file.string()));
  }
  for (int attempt = 0; attempt < 3; ++attempt) {
    struct flock lock {};
    lock.l_type = exclusive ? F_WRLCK : F_RDLCK;
    lock.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &lock) == 0) return fd;
    if (errno != EAGAIN && errno != EACCES) {
      const int error = errno;
      close(fd);
      throw Error(fmt::format("cannot lock {}: {}", file.string(), std::strerror(error)));
    }
    struct flock holder {};
    holder.l_type = exclusive ? F_WRLCK : F_RDLCK;
    holder.l_whence = SEEK_SET;
    if (fcntl(fd, F_GETLK, &holder) == 0 && holder.l_type != F_UNLCK) {
      close(fd);
      throw Error(fmt::format("{} is in use by another ompscope (pid {}): one run at a time per output directory; "
                              "wait for it to finish or choose another with -o",
                              dir.string(), holder.l_pid));
    }
    // Released between the two calls: try again.
  }
  close(fd);
  throw Error(fmt::format("{} is in use by another ompscope: choose another with -o", dir.string()));
}

}  // namespace

bool has_marker(const fs::path& dir) {
  struct stat st {};
  return lstat((dir / kMarkerFileName).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

OutputDir OutputDir::claim(const fs::path& dir, const std::string& command, int rank) {
  if (dir.empty())
    throw Error("-o \"\": an empty output directory name (an unset variable?): name a directory");
  OutputDir out;
  claim_directory(dir, command);
  out.lock_ = take_lock(dir, rank < 0);
  out.path_ = dir;
  if (rank >= 0) {
    char name[32];
    rank_directory_name(rank, name, sizeof name);
    out.path_ = dir / name;
    claim_directory(out.path_, command);
    out.rank_lock_ = take_lock(out.path_, true);
  }
  // runs/ is ompscope's own in a marked directory: the logs of this run replace the last one's
  // (fs::remove_all removes a symlink there, never what it points to).
  std::error_code ec;
  fs::remove_all(out.path_ / "runs", ec);
  if (ec) throw Error(fmt::format("cannot empty {}: {}", (out.path_ / "runs").string(), ec.message()));
  make_own_directory(out.path_ / "runs");
  return out;
}

OutputDir::OutputDir(OutputDir&& other) noexcept
    : path_(std::move(other.path_)), lock_(other.lock_), rank_lock_(other.rank_lock_) {
  other.lock_ = other.rank_lock_ = -1;
}

OutputDir::~OutputDir() {
  if (rank_lock_ >= 0) close(rank_lock_);
  if (lock_ >= 0) close(lock_);
}

}  // namespace ompscope::cli
