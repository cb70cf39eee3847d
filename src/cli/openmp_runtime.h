// Which OpenMP runtime a program loads, and how to make it run on LLVM's libomp (the only
// runtime here with OMPT): a GCC-built program needs libgomp.so.1, which libomp provides
// through its GOMP compatibility layer, so a directory with libgomp.so.1 → libomp on
// LD_LIBRARY_PATH is all it takes.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace ompscope::cli {

enum class RuntimeKind { LlvmLibomp, GnuLibgomp, IntelLibiomp, None, Unknown };

struct ProgramRuntime {
  RuntimeKind kind = RuntimeKind::Unknown;
  std::string needed;  // the DT_NEEDED entry that selected it
  std::string mpi;     // the MPI library it needs (libmpi.so.40, libmpich.so.12 ...), "" for none
  std::string describe() const;
};

// Reads the program's ELF dynamic section (DT_NEEDED). Unknown for scripts or unreadable files.
ProgramRuntime detect_program_runtime(const std::string& program_path);
// The dynamic symbols a program takes from its libraries (undefined in its .dynsym).
std::vector<std::string> elf_undefined_symbols(const std::string& path);

// Where find_libomp looks, in order: libomp.so.5 in each LD_LIBRARY_PATH directory (what the
// loader gives a clang-built program), the libomp this ompscope was built against, the system's.
std::vector<std::string> libomp_candidates();
// The first of libomp_candidates() that exists (resolved), or "" if none.
std::string find_libomp();

// Creates DIR/libgomp.so.1 → libomp and returns DIR.
std::filesystem::path make_gomp_shim(const std::filesystem::path& dir, const std::string& libomp);

// libompscope.so relative to this executable: its directory, then the path from the install's
// bin/ to its library directory (CMAKE_INSTALL_LIBDIR: lib, lib64, lib/x86_64-linux-gnu) fixed
// when ompscope was configured; the build tree is laid out the same way.
std::filesystem::path tool_library_path();
// libompscope_gomp.so beside it: the capture path for GNU libgomp, preloaded (docs/libgomp.md).
std::filesystem::path gomp_tool_library_path();
// libompscope_mpi.so beside it: MPI call times, preloaded into MPI programs (docs/mpi.md).
std::filesystem::path mpi_tool_library_path();

// The libgomp entry points a GCC-built program calls that the interposer does not observe, from
// its undefined symbols, with the construct each stands for ("GOMP_taskloop (taskloop)").
std::vector<std::string> unobserved_gomp_entry_points(const std::string& program_path);
// The directory of this ompscope executable (where the probe and bench programs are installed).
std::filesystem::path executable_directory();
// That configured path from bin/ to the library directory, e.g. "../lib64".
std::string bindir_to_libdir();

}  // namespace ompscope::cli
