// How ompscope touches files (docs/safety.md): every file it writes is created beside its place
// as a new temporary (O_CREAT|O_EXCL|O_NOFOLLOW: a planted symlink is never followed), written
// and renamed into place; a directory it makes for itself must be a real directory (a symlink or
// another file in its place is refused); every file it reads must be a regular file (a FIFO or a
// device never blocks a reader). Failures throw ompscope::Error with one line naming the path.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace ompscope {

// Replaces `path` with `text`: a new temporary in the same directory, rename(2). A symlink at
// `path` is replaced, never followed; a directory there is an error. `sync`: fsync before the
// rename, for state kept across runs (the bench cache); the report files skip it (4 files of a
// profile: 40-70 ms more with it on this machine's disk, for files the next run rewrites).
void write_file_replacing(const std::filesystem::path& path, std::string_view text, bool sync = false);

// A new file beside `path` (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0666 less the umask, as before) for a writer that
// streams into it; commit() renames it onto `path` (after fsync where `sync`); destroyed
// uncommitted, it is removed.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::filesystem::path& path);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  int fd() const { return fd_; }
  const std::filesystem::path& temporary() const { return temporary_; }
  // Writes all of `text` (throws on a short write: disk full).
  void write(std::string_view text);
  void commit(bool sync = false);

 private:
  std::filesystem::path path_, temporary_;
  int fd_ = -1;
};

// A directory of ompscope's own: made by mkdir(2) here, or already there as a real directory
// (not a symlink to one). Throws otherwise.
void make_own_directory(const std::filesystem::path& dir);

// mkdtemp(3) of `parent`/`prefix`XXXXXX (mode 0700); the new directory's path.
std::filesystem::path make_temporary_directory(const std::filesystem::path& parent, const std::string& prefix);

// Throws unless `path` (symlinks followed) is a regular file: "PATH: not a regular file (a FIFO)".
void require_regular_file(const std::filesystem::path& path);

// The whole of a regular file. Opened without blocking, so a FIFO is refused, never waited on.
std::string read_regular_file(const std::filesystem::path& path);

}  // namespace ompscope
