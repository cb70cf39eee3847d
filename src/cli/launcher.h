// `ompscope scale --launcher "mpirun -np 2" -- ./app` (docs/mpi.md, "scale through a launcher"):
// the launcher's words as the user wrote them, which launcher it is, and the command that runs
// the program through it with ompscope's variables passed on to every rank. The CLI never
// starts ranks itself: the launcher does, once per run.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ompscope::cli {

enum class LauncherKind {
  OpenMpi,  // mpirun/mpiexec/orterun/prterun of Open MPI: `-x VAR` per variable
  Hydra,    // MPICH's and Intel MPI's mpiexec.hydra: `-genvlist A,B`
  Slurm,    // srun: the environment is inherited (its default --export=ALL)
  Other,    // anything else: the environment is inherited as by any child process
};

struct Launcher {
  std::vector<std::string> words;  // the launcher program and its options
  LauncherKind kind = LauncherKind::Other;
};

// The words of a --launcher string, split as the shell splits them (wordexp(3): quotes, $VAR;
// no command substitution, no pipes or redirections). Throws ompscope::Error with one line
// for an empty string, unbalanced quotes, an undefined variable, `$(...)` or `|;&<>`.
std::vector<std::string> split_launcher_words(const std::string& text);

// Which launcher printed `version_text` (its `--version` output); `program` (its path with
// links resolved) decides where the text says nothing known.
LauncherKind launcher_kind(std::string_view version_text, std::string_view program);
const char* launcher_name(LauncherKind kind);

// Whether `program` (a path or a name) names a launcher: `scale --launcher X -- mpirun ./app`
// would start ranks of ranks.
bool names_a_launcher(std::string_view program);

// The command that runs `program` through `launcher` with each of `env`'s variables passed on
// to the ranks (their values are in the launcher's own environment).
std::vector<std::string> launch_command(const Launcher& launcher, const std::map<std::string, std::string>& env,
                                        const std::vector<std::string>& program);

}  // namespace ompscope::cli
