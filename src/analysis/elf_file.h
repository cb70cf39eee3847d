// What ompscope reads of ELF files, through one reader (libelf): the shared libraries a file
// needs (which OpenMP runtime a program loads, which compiler's conventions its line table
// follows), its undefined dynamic symbols (the libgomp entry points a program calls), its
// functions and code (clang's tail-called fork bodies), and its build id (the bench cache's key).
// Every function returns empty for a file that is not a readable ELF file.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ompscope::analysis {

bool is_elf_file(const std::string& path);

// The load bias of the executable this process runs (its main program's dlpi_addr): a link-time
// address of that file plus it is the address in memory.
uint64_t own_executable_load_bias();

// DT_NEEDED entries.
std::vector<std::string> elf_needed_libraries(const std::string& path);

// The undefined symbols of the dynamic symbol table.
std::vector<std::string> elf_undefined_symbols(const std::string& path);

// The program interpreter (PT_INTERP: the dynamic loader, "/lib64/ld-linux-x86-64.so.2");
// empty for a static executable or a shared library.
std::string elf_interpreter(const std::string& path);

// The NT_GNU_BUILD_ID note's bytes in hex.
std::string elf_build_id(const std::string& path);

// A function symbol of an ELF file: its name (mangled) and its address in the file.
struct ElfFunction {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
};

// The defined functions of the file's symbol table (.symtab, else .dynsym).
std::vector<ElfFunction> elf_functions(const std::string& path);

// Up to `size` bytes of an x86-64 file's executable code at link-time address `address` (its
// sections' addresses), fewer where a section ends; empty for another machine or no such code.
std::vector<uint8_t> elf_x86_64_code(const std::string& path, uint64_t address, uint64_t size);

}  // namespace ompscope::analysis
