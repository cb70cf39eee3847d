// An output directory (-o DIR) is ompscope's only if ompscope made it (docs/safety.md): the
// marker file DIR/.ompscope is written first, in a directory ompscope creates or in an empty one
// it adopts; a non-empty directory without it is refused. One run at a time: each run holds a
// lock on DIR/.ompscope.lock for as long as it lives.
#pragma once
#include <filesystem>
#include <string>

namespace ompscope::cli {

inline constexpr const char* kMarkerFileName = ".ompscope";
inline constexpr const char* kLockFileName = ".ompscope.lock";

class OutputDir {
 public:
  // Claims `dir` for `command` (profile, scale, trace): creates it (or adopts it empty) with its
  // marker, takes its lock, and empties runs/ (ompscope's own). `rank` >= 0 (this ompscope is one
  // rank of an MPI job, docs/mpi.md): the ranks share DIR (a shared lock) and each claims
  // DIR/rank-R (an exclusive one), where it writes. Throws ompscope::Error with one line: an empty
  // name, a directory not ompscope's, a directory another run holds (naming its pid).
  static OutputDir claim(const std::filesystem::path& dir, const std::string& command, int rank = -1);

  OutputDir(OutputDir&& other) noexcept;
  OutputDir& operator=(OutputDir&&) = delete;
  OutputDir(const OutputDir&) = delete;
  ~OutputDir();

  // Where this ompscope writes: DIR, or DIR/rank-R for a rank of a job.
  const std::filesystem::path& path() const { return path_; }

 private:
  OutputDir() = default;
  std::filesystem::path path_;
  int lock_ = -1, rank_lock_ = -1;
};

// Whether `dir` carries ompscope's marker (a regular file, not a symlink).
bool has_marker(const std::filesystem::path& dir);

}  // namespace ompscope::cli
