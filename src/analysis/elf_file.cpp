#include "analysis/elf_file.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace ompscope::analysis {
namespace {

// One ELF file open for reading: the descriptor and libelf's handle, closed together.
class ElfFile {
 public:
  explicit ElfFile(const std::string& path) {
    elf_version(EV_CURRENT);
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ >= 0) elf_ = elf_begin(fd_, ELF_C_READ, nullptr);
  }
  ~ElfFile() {
    if (elf_) elf_end(elf_);
    if (fd_ >= 0) close(fd_);
  }
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  bool valid() const { return elf_ && elf_kind(elf_) == ELF_K_ELF; }
  Elf* get() const { return elf_; }
  int descriptor() const { return fd_; }

  // `visit(shdr, data)` for each section of `type` with data, until it returns false.
  template <typename Visit>
  void sections(Elf64_Word type, Visit&& visit) const {
    if (!valid()) return;
    for (Elf_Scn* scn = elf_nextscn(elf_, nullptr); scn; scn = elf_nextscn(elf_, scn)) {
      GElf_Shdr shdr;
      if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != type) continue;
      Elf_Data* data = elf_getdata(scn, nullptr);
      if (data && !visit(shdr, *data)) return;
    }
  }

  // `visit(sym, name)` for each entry of the symbol tables of `type` with a name.
  template <typename Visit>
  void symbols(Elf64_Word type, Visit&& visit) const {
    sections(type, [&](const GElf_Shdr& shdr, Elf_Data& data) {
      if (shdr.sh_entsize == 0) return true;
      for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; ++i) {
        GElf_Sym sym;
        if (!gelf_getsym(&data, static_cast<int>(i), &sym) || sym.st_name == 0) continue;
        if (const char* name = elf_strptr(elf_, shdr.sh_link, sym.st_name); name && *name) visit(sym, name);
      }
      return true;
    });
  }

 private:
  int fd_ = -1;
  Elf* elf_ = nullptr;
};

}  // namespace

bool is_elf_file(const std::string& path) { return ElfFile(path).valid(); }

uint64_t own_executable_load_bias() {
  uint64_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') {
          *static_cast<uint64_t*>(data) = info->dlpi_addr;
          return 1;
        }
        return 0;
      },
      &bias);
  return bias;
}

std::vector<std::string> elf_needed_libraries(const std::string& path) {
  std::vector<std::string> needed;
  const ElfFile file(path);
  file.sections(SHT_DYNAMIC, [&](const GElf_Shdr& shdr, Elf_Data& data) {
    if (shdr.sh_entsize == 0) return true;
    for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; ++i) {
      GElf_Dyn dyn;
      if (!gelf_getdyn(&data, static_cast<int>(i), &dyn) || dyn.d_tag != DT_NEEDED) continue;
      if (const char* name = elf_strptr(file.get(), shdr.sh_link, dyn.d_un.d_val)) needed.emplace_back(name);
    }
    return true;
  });
  return needed;
}

std::vector<std::string> elf_undefined_symbols(const std::string& path) {
  std::vector<std::string> names;
  ElfFile(path).symbols(SHT_DYNSYM, [&](const GElf_Sym& sym, const char* name) {
    if (sym.st_shndx == SHN_UNDEF) names.emplace_back(name);
  });
  return names;
}

std::string elf_interpreter(const std::string& path) {
  const ElfFile file(path);
  if (!file.valid()) return {};
  size_t count = 0;
  if (elf_getphdrnum(file.get(), &count) != 0) return {};
  for (size_t i = 0; i < count; ++i) {
    GElf_Phdr phdr;
    if (!gelf_getphdr(file.get(), static_cast<int>(i), &phdr) || phdr.p_type != PT_INTERP) continue;
    // Read where the header says, not through the whole file's image (elf_rawfile reads a large
    // program whole).
    if (phdr.p_filesz == 0 || phdr.p_filesz > 4096) return {};
    std::string text(phdr.p_filesz, '\0');
    const ssize_t got = pread(file.descriptor(), text.data(), text.size(), static_cast<off_t>(phdr.p_offset));
    if (got != static_cast<ssize_t>(text.size())) return {};
    return text.substr(0, text.find('\0'));
  }
  return {};
}

std::string elf_build_id(const std::string& path) {
  std::string hex;
  ElfFile(path).sections(SHT_NOTE, [&](const GElf_Shdr&, Elf_Data& data) {
    GElf_Nhdr note;
    size_t offset = 0, name_at = 0, desc_at = 0;
    while (hex.empty() && (offset = gelf_getnote(&data, offset, &note, &name_at, &desc_at)) > 0) {
      if (note.n_type != NT_GNU_BUILD_ID || note.n_namesz != 4 ||
          std::string_view(static_cast<const char*>(data.d_buf) + name_at, 3) != "GNU")
        continue;
      const auto* bytes = static_cast<const unsigned char*>(data.d_buf) + desc_at;
      for (size_t i = 0; i < note.n_descsz; ++i) {
        char two[3];
        std::snprintf(two, sizeof two, "%02x", bytes[i]);
        hex += two;
      }
    }
    return hex.empty();
  });
  return hex;
}

std::vector<ElfFunction> elf_functions(const std::string& path) {
  std::vector<ElfFunction> functions;
  const ElfFile file(path);
  for (Elf64_Word wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
    file.symbols(wanted, [&](const GElf_Sym& sym, const char* name) {
      if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF && sym.st_value != 0)
        functions.push_back({name, sym.st_value, sym.st_size});
    });
    if (!functions.empty()) break;
  }
  return functions;
}

std::vector<uint8_t> elf_x86_64_code(const std::string& path, uint64_t address, uint64_t size) {
  std::vector<uint8_t> code;
  const ElfFile file(path);
  GElf_Ehdr ehdr;
  if (!file.valid() || !gelf_getehdr(file.get(), &ehdr) || ehdr.e_machine != EM_X86_64) return code;
  file.sections(SHT_PROGBITS, [&](const GElf_Shdr& shdr, Elf_Data& data) {
    if (!(shdr.sh_flags & SHF_EXECINSTR) || address < shdr.sh_addr || address >= shdr.sh_addr + shdr.sh_size)
      return true;
    if (data.d_buf && data.d_size == shdr.sh_size) {
      const uint64_t from = address - shdr.sh_addr, n = std::min<uint64_t>(size, shdr.sh_size - from);
      const auto* bytes = static_cast<const uint8_t*>(data.d_buf) + from;
      code.assign(bytes, bytes + n);
    }
    return false;
  });
  return code;
}

}  // namespace ompscope::analysis
