// The shared libraries an ELF file names as needed (DT_NEEDED): which OpenMP runtime a program
// loads, and which compiler's conventions its line table follows.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ompscope::analysis {

// Empty for a file that is not a readable ELF file.
std::vector<std::string> elf_needed_libraries(const std::string& path);

// A function symbol of an ELF file: its name (mangled) and its address in the file.
struct ElfFunction {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
};

// The defined functions of the file's symbol table (.symtab, else .dynsym); empty when it has none.
std::vector<ElfFunction> elf_functions(const std::string& path);

// Up to `size` bytes of an x86-64 file's executable code at link-time address `address` (its
// sections' addresses), fewer where a section ends; empty for another machine or no such code.
std::vector<uint8_t> elf_x86_64_code(const std::string& path, uint64_t address, uint64_t size);

}  // namespace ompscope::analysis
