#include "cli/openmp_runtime.h"

#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "analysis/elf_file.h"
#include "cli/program_launch.h"
#include "common/error.h"

#ifndef OMPSCOPE_BUILD_LIBOMP
#define OMPSCOPE_BUILD_LIBOMP ""
#endif
#ifndef OMPSCOPE_BINDIR_TO_LIBDIR
#define OMPSCOPE_BINDIR_TO_LIBDIR "../lib"
#endif

namespace ompscope::cli {
namespace fs = std::filesystem;

std::string ProgramRuntime::describe() const {
  switch (kind) {
    case RuntimeKind::LlvmLibomp: return "LLVM libomp (" + needed + ")";
    case RuntimeKind::GnuLibgomp: return "GNU libgomp (" + needed + ")";
    case RuntimeKind::IntelLibiomp: return "Intel libiomp (" + needed + ")";
    case RuntimeKind::None: return "no OpenMP runtime linked";
    case RuntimeKind::Unknown: return "unknown (not a dynamically linked ELF program)";
  }
  return "unknown";
}


std::vector<std::string> unobserved_gomp_entry_points(const std::string& program_path) {
  // Entry points the interposer defines, and those with nothing to record: a loop's or
  // sections' start and next (the work between them shows in the segment they end), single.
  static const std::vector<std::string> observed_or_silent = {
      "GOMP_parallel", "GOMP_parallel_reductions", "GOMP_parallel_sections", "GOMP_barrier", "GOMP_loop_end",
      "GOMP_loop_end_nowait", "GOMP_sections_end", "GOMP_sections_end_nowait", "GOMP_critical_start",
      "GOMP_critical_end", "GOMP_critical_name_start", "GOMP_critical_name_end", "GOMP_atomic_start",
      "GOMP_atomic_end", "GOMP_ordered_start", "GOMP_ordered_end", "GOMP_task", "GOMP_taskwait",
      "GOMP_taskgroup_start", "GOMP_taskgroup_end", "GOMP_single_start", "GOMP_sections_start",
      "GOMP_sections_next", "GOMP_sections2_start", "GOMP_single_copy_start", "GOMP_single_copy_end",
      "GOMP_loop_ull_end", "GOMP_ordered_start", "GOMP_taskyield"};
  static const std::vector<std::pair<std::string, std::string>> constructs = {
      {"GOMP_taskloop", "taskloop"},        {"GOMP_teams", "teams"},
      {"GOMP_target", "target"},            {"GOMP_cancel", "cancel"},
      {"GOMP_barrier_cancel", "cancellable barrier"}, {"GOMP_loop_end_cancel", "cancellable loop"},
      {"GOMP_sections_end_cancel", "cancellable sections"}, {"GOMP_doacross", "ordered depend (doacross)"},
      {"GOMP_parallel_start", "parallel (pre-4.9 GCC ABI)"}, {"GOMP_taskwait_depend", "taskwait depend"},
      {"GOMP_workshare_task_reduction", "task reduction"}, {"GOMP_taskgroup_reduction", "taskgroup reduction"},
      {"GOMP_task_reduction", "task reduction"}, {"GOMP_scope", "scope"}, {"GOMP_masked", "masked"}};
  std::vector<std::string> out;
  for (std::string name : analysis::elf_undefined_symbols(program_path)) {
    if (const auto at = name.find('@'); at != std::string::npos) name.resize(at);
    if (!name.starts_with("GOMP_")) continue;
    // Loop starts and nexts of every schedule have nothing to record.
    if (name.starts_with("GOMP_loop_") && (name.ends_with("_start") || name.ends_with("_next"))) continue;
    if (std::find(observed_or_silent.begin(), observed_or_silent.end(), name) != observed_or_silent.end()) continue;
    if (name.starts_with("GOMP_parallel_loop_") && !name.ends_with("_start")) continue;  // combined loops
    std::string what = "not covered";
    for (const auto& [prefix, construct] : constructs)
      if (name.starts_with(prefix)) {
        what = construct;
        break;
      }
    const std::string entry = name + " (" + what + ")";
    if (std::find(out.begin(), out.end(), entry) == out.end()) out.push_back(entry);
  }
  return out;
}

namespace {

// The shared libraries the dynamic loader would load for `program_path`, every level down, by
// their names: the program's own loader in its list mode, as `ldd` runs it (ld.so(8) --list),
// without ldd's shell script around it (7 ms of every command's start, 0.6 ms this way). None
// where it cannot tell (a static program, a loader that is gone).
std::vector<std::string> loaded_libraries(const std::string& program_path) {
  std::vector<std::string> out;
  const std::string loader = analysis::elf_interpreter(program_path);
  std::error_code ec;
  if (loader.empty() || !fs::is_regular_file(loader, ec)) return out;
  const std::string listing = capture_output({loader, "--list", program_path});
  for (size_t begin = 0; begin < listing.size();) {
    size_t end = listing.find('\n', begin);
    if (end == std::string::npos) end = listing.size();
    const std::string line = listing.substr(begin, end - begin);
    begin = end + 1;
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    const size_t stop = line.find_first_of(" \t", first);
    out.push_back(line.substr(first, stop == std::string::npos ? std::string::npos : stop - first));
  }
  return out;
}

}  // namespace

ProgramRuntime detect_program_runtime(const std::string& program_path) {
  ProgramRuntime r;
  if (!analysis::is_elf_file(program_path)) return r;
  r.kind = RuntimeKind::None;
  for (const std::string& lib : analysis::elf_needed_libraries(program_path)) {
    if (lib.starts_with("libomp")) r.kind = RuntimeKind::LlvmLibomp, r.needed = lib;
    else if (lib.starts_with("libgomp")) r.kind = RuntimeKind::GnuLibgomp, r.needed = lib;
    else if (lib.starts_with("libiomp")) r.kind = RuntimeKind::IntelLibiomp, r.needed = lib;
    if (lib.starts_with("libmpi")) r.mpi = lib;  // Open MPI, MPICH (libmpi.so.12, libmpich), Intel MPI
  }
  // MPI linked behind a library of the program's (a solver, an extension module's host): the
  // loader's list of what the program loads, as ldd prints it, names it (the loader resolves the
  // libraries without running the program).
  if (r.mpi.empty())
    for (const std::string& lib : loaded_libraries(program_path))
      if (lib.starts_with("libmpi")) {
        r.mpi = lib;
        break;
      }
  return r;
}

std::vector<std::string> libomp_candidates() {
  std::vector<std::string> candidates;
  // What the loader gives a clang-built program: LD_LIBRARY_PATH comes first.
  if (const char* path = getenv("LD_LIBRARY_PATH")) {
    std::string dirs = path;
    for (size_t begin = 0; begin <= dirs.size();) {
      size_t end = dirs.find(':', begin);
      if (end == std::string::npos) end = dirs.size();
      if (end > begin) candidates.push_back((fs::path(dirs.substr(begin, end - begin)) / "libomp.so.5").string());
      begin = end + 1;
    }
  }
  if (*OMPSCOPE_BUILD_LIBOMP) candidates.emplace_back(OMPSCOPE_BUILD_LIBOMP);
  for (const char* c : {"/usr/lib64/libomp.so.5", "/usr/lib/x86_64-linux-gnu/libomp.so.5", "/usr/lib/libomp.so.5"})
    if (std::find(candidates.begin(), candidates.end(), c) == candidates.end()) candidates.emplace_back(c);
  return candidates;
}

std::string find_libomp() {
  for (const std::string& c : libomp_candidates()) {
    std::error_code ec;
    if (fs::exists(c, ec)) return fs::canonical(c, ec).string();
  }
  return "";
}

fs::path make_gomp_shim(const fs::path& dir, const std::string& libomp) {
  fs::create_directories(dir);
  const fs::path link = dir / "libgomp.so.1";
  std::error_code ec;
  fs::remove(link, ec);
  fs::create_symlink(libomp, link, ec);
  if (ec) throw Error("cannot create " + link.string() + ": " + ec.message());
  return dir;
}

fs::path executable_directory() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path();
}

std::string bindir_to_libdir() { return OMPSCOPE_BINDIR_TO_LIBDIR; }

fs::path tool_library_path() {
  return (executable_directory() / bindir_to_libdir() / "libompscope.so").lexically_normal();
}

fs::path gomp_tool_library_path() { return tool_library_path().parent_path() / "libompscope_gomp.so"; }

fs::path mpi_tool_library_path() { return tool_library_path().parent_path() / "libompscope_mpi.so"; }

}  // namespace ompscope::cli
