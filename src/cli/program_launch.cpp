#include "cli/program_launch.h"

#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "common/clock.h"
#include "common/error.h"

extern char** environ;

namespace ompscope::cli {

std::string LaunchOutcome::describe() const {
  if (signal) return fmt::format("killed by SIG{} ({})", sigabbrev_np(signal) ? sigabbrev_np(signal) : "?", strsignal(signal));
  if (exit_code) return fmt::format("exit {}", exit_code);
  return "ok";
}

std::string find_program(const std::string& name) {
  namespace fs = std::filesystem;
  if (name.find('/') != std::string::npos) return access(name.c_str(), F_OK) == 0 ? name : "";
  const char* path = getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    fs::path candidate = fs::path(dirs.substr(start, end - start).empty() ? "." : dirs.substr(start, end - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate.string();
    start = end + 1;
  }
  return "";
}

std::string capture_output(const std::vector<std::string>& argv) {
  int fds[2];
  if (argv.empty() || pipe2(fds, O_CLOEXEC) != 0) return "";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  std::vector<std::string> args = argv;
  std::vector<char*> raw;
  for (auto& s : args) raw.push_back(s.data());
  raw.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, raw[0], &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  std::string text;
  if (rc == 0) {
    char buffer[4096];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      text.append(buffer, static_cast<size_t>(n));
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  close(fds[0]);
  return text;
}

LaunchOutcome launch_and_wait(const Launch& launch) {
  if (launch.argv.empty()) throw Error("no program given (usage: ompscope <command> -- PROGRAM ARGS...)");
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    std::string entry(*e);
    std::string key = entry.substr(0, entry.find('='));
    if (!launch.env.count(key)) env_strings.push_back(std::move(entry));
  }
  for (const auto& [key, value] : launch.env) env_strings.push_back(key + "=" + value);
  std::vector<char*> envp, argv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = launch.argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);

  // posix_spawnp searches PATH in the child's environment; keep the user's PATH semantics.
  const ClockSource clock = tsc_is_invariant() ? ClockSource::Tsc : ClockSource::Monotonic;
  const analysis::ClockPoint start_point{read_ticks(clock), monotonic_ns()};
  const auto started = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data());
  if (rc != 0) throw Error(fmt::format("cannot start '{}': {}", launch.argv[0], strerror(rc)));

  // While the program runs, Ctrl-C belongs to it: ompscope waits and then reports.
  struct sigaction ignore {}, old_int {}, old_quit {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);

  LaunchOutcome out;
  out.start_point = start_point;
  out.end_point = {read_ticks(clock), monotonic_ns()};
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  else if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  return out;
}

}  // namespace ompscope::cli
