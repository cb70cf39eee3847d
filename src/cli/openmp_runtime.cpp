#include "cli/openmp_runtime.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <system_error>

#include "common/error.h"

#ifndef OMPSCOPE_BUILD_LIBOMP
#define OMPSCOPE_BUILD_LIBOMP ""
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

std::vector<std::string> elf_needed_libraries(const std::string& path) {
  std::vector<std::string> needed;
  elf_version(EV_CURRENT);
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return needed;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  if (elf && elf_kind(elf) == ELF_K_ELF) {
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
      GElf_Shdr shdr;
      if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC) continue;
      Elf_Data* data = elf_getdata(scn, nullptr);
      if (!data || shdr.sh_entsize == 0) continue;
      for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; ++i) {
        GElf_Dyn dyn;
        if (!gelf_getdyn(data, static_cast<int>(i), &dyn) || dyn.d_tag != DT_NEEDED) continue;
        if (const char* name = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val)) needed.emplace_back(name);
      }
    }
  }
  if (elf) elf_end(elf);
  close(fd);
  return needed;
}

ProgramRuntime detect_program_runtime(const std::string& program_path) {
  ProgramRuntime r;
  elf_version(EV_CURRENT);
  int fd = open(program_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return r;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  const bool is_elf = elf && elf_kind(elf) == ELF_K_ELF;
  if (elf) elf_end(elf);
  close(fd);
  if (!is_elf) return r;
  r.kind = RuntimeKind::None;
  for (const std::string& lib : elf_needed_libraries(program_path)) {
    if (lib.starts_with("libomp")) r = {RuntimeKind::LlvmLibomp, lib};
    else if (lib.starts_with("libgomp")) r = {RuntimeKind::GnuLibgomp, lib};
    else if (lib.starts_with("libiomp")) r = {RuntimeKind::IntelLibiomp, lib};
  }
  return r;
}

std::string find_libomp() {
  const char* candidates[] = {OMPSCOPE_BUILD_LIBOMP, "/usr/lib/x86_64-linux-gnu/libomp.so.5",
                              "/usr/lib/llvm-19/lib/libomp.so.5", "/usr/lib/llvm-14/lib/libomp.so.5"};
  for (const char* c : candidates) {
    std::error_code ec;
    if (c[0] && fs::exists(c, ec)) return fs::canonical(c, ec).string();
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

fs::path tool_library_path() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return exe.parent_path().parent_path() / "lib" / "libompscope.so";
}

}  // namespace ompscope::cli
