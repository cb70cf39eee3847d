// The shared libraries an ELF file names as needed (DT_NEEDED): which OpenMP runtime a program
// loads, and which compiler's conventions its line table follows.
#pragma once
#include <string>
#include <vector>

namespace ompscope::analysis {

// Empty for a file that is not a readable ELF file.
std::vector<std::string> elf_needed_libraries(const std::string& path);

}  // namespace ompscope::analysis
