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
namespace {

// The program running now (0: none), and the first of the passed-on signals ompscope was sent.
volatile sig_atomic_t g_program = 0;
volatile sig_atomic_t g_received = 0;

constexpr int kPassedOn[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void pass_on(int sig, siginfo_t* info, void*) {
  const int saved_errno = errno;
  const pid_t program = g_program;
  if (info && info->si_code == SI_USER && info->si_pid == getpid()) return;  // our own kill of the group
  if (program == 0 && g_received) {
    // A second signal while no program runs (ompscope is analysing): the user insists.
    signal(sig, SIG_DFL);
    raise(sig);
  }
  if (!g_received) g_received = sig;
  // The terminal's Ctrl-C, Ctrl-\ and hang-up went to the whole foreground group, the program
  // included; a signal sent to ompscope alone (kill, timeout, a batch system) is passed on: to
  // the group ompscope leads (the program and whatever it started), else to the program.
  if (program > 0 && !(info && info->si_code == SI_KERNEL))
    kill(getpgrp() == getpid() ? -getpgrp() : program, sig);
  errno = saved_errno;
}

void pass_signals_on() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  struct sigaction action {};
  action.sa_sigaction = pass_on;
  action.sa_flags = SA_SIGINFO;  // no SA_RESTART: waitpid returns EINTR and waits again
  sigemptyset(&action.sa_mask);
  for (int sig : kPassedOn) {
    struct sigaction old {};
    // A signal ompscope's parent ignores (nohup's SIGHUP) stays ignored, for the program too.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &action, nullptr);
  }
}

}  // namespace

int signal_received() { return g_received; }

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
  pass_signals_on();
  pid_t pid = 0;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (launch.quiet) posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error(fmt::format("cannot start '{}': {}", launch.argv[0], strerror(rc)));

  g_program = pid;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_program = 0;

  LaunchOutcome out;
  out.pid = pid;
  out.start_point = start_point;
  out.end_point = {read_ticks(clock), monotonic_ns()};
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  else if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  return out;
}

}  // namespace ompscope::cli
