#include "common/safe_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>

#include "common/error.h"

namespace ompscope {
namespace fs = std::filesystem;

namespace {

std::string why(int error) { return std::strerror(error); }

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symlink";
  return "not a plain file";
}

// A name no one else has: the final name and a random suffix, created with O_EXCL.
int create_beside(const fs::path& path, fs::path& temporary) {
  static thread_local std::mt19937_64 random{std::random_device{}() ^ static_cast<uint64_t>(getpid())};
  for (int attempt = 0; attempt < 100; ++attempt) {
    char suffix[24];
    std::snprintf(suffix, sizeof suffix, ".%012llx.tmp", static_cast<unsigned long long>(random() & 0xffffffffffffULL));
    temporary = path.parent_path() / ("." + path.filename().string() + suffix);
    const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) throw Error("cannot write " + path.string() + ": " + why(errno));
  }
  throw Error("cannot write " + path.string() + ": no free temporary name beside it");
}

}  // namespace

TemporaryFile::TemporaryFile(const fs::path& path) : path_(path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw Error("cannot write " + path.string() + ": a directory is there");
  fd_ = create_beside(path, temporary_);
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) {
    close(fd_);
    unlink(temporary_.c_str());
  }
}

void TemporaryFile::write(std::string_view text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error("cannot write " + path_.string() + ": " + (n < 0 ? why(errno) : "short write (disk full?)"));
    done += static_cast<size_t>(n);
  }
}

void TemporaryFile::commit(bool sync) {
  if (sync && fsync(fd_) != 0 && errno != EINVAL) throw Error("cannot write " + path_.string() + ": " + why(errno));
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) {
    const int error = errno;
    unlink(temporary_.c_str());
    throw Error("cannot write " + path_.string() + ": " + why(error));
  }
  if (rename(temporary_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    unlink(temporary_.c_str());
    throw Error("cannot write " + path_.string() + ": " + why(error));
  }
}

void write_file_replacing(const fs::path& path, std::string_view text, bool sync) {
  TemporaryFile file(path);
  file.write(text);
  file.commit(sync);
}

void make_own_directory(const fs::path& dir) {
  if (mkdir(dir.c_str(), 0777) == 0) return;
  const int error = errno;
  struct stat st {};
  if (error == EEXIST && lstat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return;
    throw Error("cannot create the directory " + dir.string() + ": " + kind_of(st.st_mode) + " is in its place");
  }
  throw Error("cannot create the directory " + dir.string() + ": " + why(error));
}

fs::path make_temporary_directory(const fs::path& parent, const std::string& prefix) {
  std::string pattern = (parent / (prefix + "XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw Error("cannot create a temporary directory in " + parent.string() + ": " + why(errno));
  return pattern;
}

void require_regular_file(const fs::path& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw Error(path.string() + ": cannot be read: " + why(errno));
  if (!S_ISREG(st.st_mode)) throw Error(path.string() + ": not a regular file (" + kind_of(st.st_mode) + ")");
}

std::string read_regular_file(const fs::path& path) {
  // O_NONBLOCK: opening a FIFO with no writer would block; fstat then refuses it.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw Error(path.string() + ": cannot be read: " + why(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    throw Error(path.string() + ": not a regular file (" + kind_of(st.st_mode) + ")");
  }
  std::string text;
  text.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      throw Error(path.string() + ": read error: " + why(error));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return text;
}

}  // namespace ompscope
