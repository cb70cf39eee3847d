#include "cli/launcher.h"

#include <fmt/format.h>
#include <wordexp.h>

#include <filesystem>

#include "common/error.h"

namespace ompscope::cli {

std::vector<std::string> split_launcher_words(const std::string& text) {
  if (text.find_first_not_of(" \t\n") == std::string::npos)
    throw Error("--launcher is empty: give the launcher and its options, e.g. --launcher \"mpirun -np 2\"");
  wordexp_t expanded{};
  const int rc = wordexp(text.c_str(), &expanded, WRDE_NOCMD | WRDE_UNDEF);
  std::vector<std::string> words;
  if (rc == 0) {
    for (size_t i = 0; i < expanded.we_wordc; ++i) words.emplace_back(expanded.we_wordv[i]);
    wordfree(&expanded);
  }
  const char* why = nullptr;
  switch (rc) {
    case 0: break;
    case WRDE_BADCHAR: why = "it holds one of | & ; < > ( ) { } outside quotes: give the launcher's words only"; break;
    case WRDE_BADVAL: why = "it names an undefined variable"; break;
    case WRDE_CMDSUB: why = "command substitution is not run"; break;
    case WRDE_SYNTAX: why = "its quotes are unbalanced"; break;
    default: why = "it cannot be split into words"; break;
  }
  if (why) throw Error(fmt::format("--launcher '{}': {}", text, why));
  if (words.empty()) throw Error(fmt::format("--launcher '{}' has no words: give the launcher, e.g. \"mpirun -np 2\"", text));
  return words;
}

LauncherKind launcher_kind(std::string_view version_text, std::string_view program) {
  if (version_text.find("Open MPI") != std::string_view::npos || version_text.find("OpenRTE") != std::string_view::npos)
    return LauncherKind::OpenMpi;
  if (version_text.find("HYDRA") != std::string_view::npos) return LauncherKind::Hydra;
  if (version_text.rfind("slurm", 0) == 0) return LauncherKind::Slurm;
  const std::string name = std::filesystem::path(program).filename().string();
  if (name == "orterun" || name == "prterun" || name == "mpirun.openmpi" || name == "mpiexec.openmpi")
    return LauncherKind::OpenMpi;
  if (name == "mpiexec.hydra" || name == "mpiexec.mpich" || name == "mpirun.mpich") return LauncherKind::Hydra;
  if (name == "srun") return LauncherKind::Slurm;
  return LauncherKind::Other;
}

const char* launcher_name(LauncherKind kind) {
  switch (kind) {
    case LauncherKind::OpenMpi: return "Open MPI";
    case LauncherKind::Hydra: return "MPICH Hydra";
    case LauncherKind::Slurm: return "Slurm";
    case LauncherKind::Other: break;
  }
  return "an unrecognised launcher";
}

bool names_a_launcher(std::string_view program) {
  const std::string name = std::filesystem::path(program).filename().string();
  for (const char* launcher : {"mpirun", "mpiexec", "orterun", "prterun", "srun", "mpiexec.hydra", "mpiexec.mpich",
                               "mpirun.mpich", "mpirun.openmpi", "mpiexec.openmpi"})
    if (name == launcher) return true;
  return false;
}

std::vector<std::string> launch_command(const Launcher& launcher, const std::map<std::string, std::string>& env,
                                        const std::vector<std::string>& program) {
  std::vector<std::string> argv = launcher.words;
  switch (launcher.kind) {
    case LauncherKind::OpenMpi:
      // Open MPI passes its whole environment only to the ranks on its own node; -x names a
      // variable every rank gets, on any node.
      for (const auto& [key, value] : env) {
        argv.push_back("-x");
        argv.push_back(key);
      }
      break;
    case LauncherKind::Hydra: {
      std::string list;
      for (const auto& [key, value] : env) list += (list.empty() ? "" : ",") + key;
      if (!list.empty()) {
        argv.push_back("-genvlist");
        argv.push_back(list);
      }
      break;
    }
    case LauncherKind::Slurm:
    case LauncherKind::Other:
      break;
  }
  argv.insert(argv.end(), program.begin(), program.end());
  return argv;
}

}  // namespace ompscope::cli
