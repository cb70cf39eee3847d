#include "analysis/elf_needed.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>

namespace ompscope::analysis {

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

std::vector<ElfFunction> elf_functions(const std::string& path) {
  std::vector<ElfFunction> functions;
  elf_version(EV_CURRENT);
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return functions;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  if (elf && elf_kind(elf) == ELF_K_ELF) {
    for (Elf64_Word wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
      for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != wanted || shdr.sh_entsize == 0) continue;
        Elf_Data* data = elf_getdata(scn, nullptr);
        if (!data) continue;
        for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; ++i) {
          GElf_Sym sym;
          if (!gelf_getsym(data, static_cast<int>(i), &sym)) continue;
          if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF || sym.st_value == 0) continue;
          if (const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name); name && *name)
            functions.push_back({name, sym.st_value, sym.st_size});
        }
      }
      if (!functions.empty()) break;
    }
  }
  if (elf) elf_end(elf);
  close(fd);
  return functions;
}

std::vector<uint8_t> elf_x86_64_code(const std::string& path, uint64_t address, uint64_t size) {
  std::vector<uint8_t> code;
  elf_version(EV_CURRENT);
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return code;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  GElf_Ehdr ehdr;
  if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &ehdr) && ehdr.e_machine == EM_X86_64) {
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
      GElf_Shdr shdr;
      if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_PROGBITS || !(shdr.sh_flags & SHF_EXECINSTR)) continue;
      if (address < shdr.sh_addr || address >= shdr.sh_addr + shdr.sh_size) continue;
      Elf_Data* data = elf_getdata(scn, nullptr);
      if (!data || !data->d_buf || data->d_size != shdr.sh_size) break;
      const uint64_t from = address - shdr.sh_addr, n = std::min<uint64_t>(size, shdr.sh_size - from);
      const auto* bytes = static_cast<const uint8_t*>(data->d_buf) + from;
      code.assign(bytes, bytes + n);
      break;
    }
  }
  if (elf) elf_end(elf);
  close(fd);
  return code;
}

}  // namespace ompscope::analysis
